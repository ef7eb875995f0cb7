//! Solving: [`Solver`] runs the default strategy or any named engine, portfolio or
//! cube-and-conquer, and returns one [`SolveReport`] whose board passed the independent checks.
//!
//! Engines answer a [`crate::presolve::Problem`] through one trait ([`Engine`]): varisat, the
//! linked CaDiCaL and Kissat, the bitboard search and local search in-process (one row each in
//! `ENGINES`), and any external DIMACS program ([`external`], its answer parsed by
//! [`crate::export::output`]). [`solve`] wraps the trait call with what every engine shares;
//! [`race()`] is the one race (portfolios, the default strategy's bitboard race); `cubes` and
//! `certified_cubes` conquer look-ahead cubes with the incremental engines ([`traits`]).

gated!(feature = "oracle" => mod certified_cubes;);
gated!(feature = "oracle" => mod cubes;);
pub mod engine;
pub mod external;
gated!(feature = "oracle" => mod keys;);
mod cube_proofs;
mod plan;
mod portfolio;
mod presolve_proof;
gated!(feature = "oracle" => mod race;);
pub mod registry;
mod run;
gated!(feature = "oracle" => mod strategy;);
pub mod traits;

pub use crate::answer::{Answer, Model, Status};
pub use engine::{
    Backend, Capabilities, Engine, EngineInfo, Found, Outcome, Proofs, Settings, Unsupported,
};
gated!(feature = "front" => use portfolio::parse_portfolio;);
pub(crate) use cube_proofs::{CertifiedCubes, CoverageModel, Cube, Verdict};
pub(crate) use presolve_proof::write_presolve_proof;
gated!(any(feature = "front", feature = "oracle") => use race::race;);
pub use registry::{find, names};
gated!(feature = "front" => use registry::help;);
#[allow(unused_imports)]
pub(crate) use registry::names_with;
pub use run::{SolveReport, accept, portfolio, solve};
gated!(feature = "oracle" => use run::{MEMORY_ENV, SolveSettings};);
pub use plan::{CubePlan, EngineRun, Plan};
#[allow(unused_imports)]
pub(crate) use run::{available_memory, prepass};
pub use strategy::{AutoSymmetry, Solver};
#[allow(unused_imports)]
pub(crate) use varisat_backend::varisat_bytes;

// The engines' modules, declared plainly so that rustfmt and every other tool sees their files;
// the `engines!` table below lists their types.
gated!(feature = "oracle" => mod bitboard;);
gated!(feature = "oracle" => mod cadical_backend;);
gated!(feature = "oracle" => mod construct;);
gated!(feature = "oracle" => mod kissat_backend;);
gated!(feature = "oracle" => mod varisat_backend;);
gated!(feature = "oracle" => mod walk_backend;);

/// Lists each in-process engine's type in [`ENGINES`], from one table: adding an engine is its
/// file, its `mod` line above and one row of the table.
macro_rules! engines {
    ($($module:ident :: $($engine:ident)::+),+ $(,)?) => {
        /// The in-process engines, one row each. `--solver`, portfolios, cube-and-conquer (the
        /// incremental ones), `bench`, the help text and the Python package read this table;
        /// any other `--solver` name is an external DIMACS program
        /// ([`external::ExternalSolver`]).
        #[cfg_attr(not(feature = "oracle"), visibility::make(pub(crate)), allow(dead_code))]
        pub static ENGINES: &[&dyn Engine] = &[$(&$module::$($engine)::+),+];
    };
}

engines! {
    varisat_backend::Varisat,
    cadical_backend::LibCadical,
    kissat_backend::LibKissat,
    bitboard::Bitboard,
    walk_backend::Walk::DEFAULT,
    construct::Construct,
}
