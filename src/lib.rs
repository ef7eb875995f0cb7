//! queens-sat: N-queens and N-amazons (with completion, blocked cells and excluded diagonals)
//! as SAT.
//!
//! # The front door
//!
//! The crate root names what a user needs; the modules hold the rest (the encodings, the
//! export formats, the engine trait, the cluster jobs).
//!
//! - [`Instance`]: a board with pre-placed pieces, blocked cells and excluded diagonals, read
//!   from text ([`instance::read_instance`], [`instance::read_instance_file`]) or built.
//! - [`Piece`]: [`QUEEN`] or [`AMAZON`] (queen + knight).
//! - [`Solver`]: one board, checked by the independent checker ([`verify`]) before it is
//!   returned: the default strategy, or any engine by name, with a time limit, `certify` and a
//!   [`Cancel`] token.
//! - [`Counter`]: exact counts, the fixed points of every symmetry, the classes modulo
//!   symmetry, the boards a rotation fixes.
//! - [`Encoder`]: the CNF, streamed into any [`encode::ClauseSink`] (a DIMACS file through
//!   [`export`], a solver, your own sink), after [`Problem::presolve`].
//! - [`Board`] and [`Cell`] (row, column, 0-based); [`Error`], one variant per kind of failure.
//!
//! Solve (a completion with a blocked cell):
//!
//! ```
//! use queens_sat::{Cell, Solver, QUEEN, instance::read_instance};
//! let text = "..Q.....\n........\n...x....\n........\n........\n........\n........\n........\n";
//! let instance = read_instance("example", text, None).unwrap();
//! let report = Solver::new(&instance, QUEEN).solve().unwrap();
//! assert!(report.status.sat().is_some_and(|b| b.pieces.contains(&Cell::new(0, 2))));
//! ```
//!
//! Count (the 92 solutions of 8-queens, 12 modulo the 8 symmetries, 4 fixed by a half turn):
//!
//! ```
//! use queens_sat::{Counter, Instance, QUEEN, symmetry::Symmetry};
//! let board = Instance::plain(8);
//! let c = Counter::new(&board, QUEEN).counts().unwrap();
//! assert_eq!((c.total, c.unique), (92, 12));
//! let r180 = Counter::new(&board, QUEEN).symmetric(Symmetry::R180).counts().unwrap();
//! assert_eq!((r180.total, r180.unique), (4, 1));
//! ```
//!
//! Encode (the size of a CNF without writing it):
//!
//! ```
//! use queens_sat::{Encoder, Instance, Problem, QUEEN, encode::{StatsSink, amo::AmoKind}};
//! let problem = Problem::presolve(&Instance::plain(8), QUEEN).unwrap();
//! let stats = Encoder::new(&problem, AmoKind::Pairwise).encode(&mut StatsSink::default());
//! assert_eq!(stats.vars, 64);
//! ```
//!
//! Errors are typed: a caller tells a wrong answer caught by a check from a solver that failed
//! or a time limit without reading the message.
//!
//! ```
//! use queens_sat::{Counter, Error, Instance, QUEEN};
//! use std::time::Duration;
//! match Counter::new(&Instance::plain(30), QUEEN).timeout(Duration::from_millis(1)).counts() {
//!     Err(Error::TimeLimit(_)) => {}          // nothing counted: 30-queens takes years
//!     other => panic!("{other:?}"),
//! }
//! ```
//!
//! `examples/` has a solve from a file, a CNF streamed into a file or your own sink, and a
//! count with symmetry.
//!
//! # The map
//!
//! Pipeline: [`instance`] readers -> [`presolve`] ([`presolve::Problem`], [`varmap::VarMap`])
//! -> [`encode`] (AMO encodings streaming into an [`encode::ClauseSink`]) -> [`solve`] (engines
//! behind one trait in one table, the one race, strategies) -> [`decode`] -> [`verify`];
//! [`answer`] holds what every stage answers, [`export`] every file format on both sides,
//! [`count`] the exact counters. Modules import each other in one direction, with no cycle
//! (checked by `tests/it/module_graph.rs`); the direction is not the pipeline's order everywhere:
//! [`verify`] depends only on the board, instance, piece and symmetry modules, so [`encode`]
//! uses its acceptance check ([`encode::EncodeOptions::accept`]) for the constraints it adds.
//! The command line lives in the binary (`src/bin/queens-sat/`), never here.
//!
//! Cargo features (docs/design.md, "A lean core" and "The front door"): the library alone
//! (`default-features = false`) solves, encodes, counts and exports, and depends on neither
//! clap, csv, plotters nor indicatif. `front` makes public the front ends' own vocabulary (the
//! table of which option applies where, the option words, the report records, and the helpers
//! they share); the program and the Python module turn it on, a library user does not need it.
//! `harness` adds the benchmark harness (`bench`), the benchmark suites and their plots
//! (`suite`), the cluster jobs (`cluster`) and the progress bar (`progress`); `cli`, on by
//! default, adds clap and builds the `queens-sat` program. `oracle` (tests only) adds the test
//! oracles and makes the engines' modules reachable from the integration tests.

#![warn(missing_docs)]

/// `gated!(cfg => mod name;)`: a module that is public where `cfg` holds (a feature: `front`
/// for the front ends' vocabulary, `oracle` for what the integration tests reach) and private
/// to the crate otherwise, so that a library user's build shows only the front door.
/// `gated!(cfg => use path;)` does the same for a re-export. A single item declared in a
/// public module takes `#[cfg_attr(not(cfg), visibility::make(pub(crate)), allow(dead_code))]` instead.
macro_rules! gated {
    ($cfg:meta => $(#[$a:meta])* mod $name:ident;) => {
        #[cfg($cfg)]
        $(#[$a])*
        pub mod $name;
        #[cfg(not($cfg))]
        $(#[$a])*
        pub(crate) mod $name;
    };
    ($cfg:meta => use $($path:tt)*) => {
        #[cfg($cfg)]
        pub use $($path)*
        #[cfg(not($cfg))]
        #[allow(unused_imports)]
        pub(crate) use $($path)*
    };
}

pub mod answer;
gated!(feature = "front" => mod applies;);
// Public with the harness, which the binary drives; inside the library otherwise.
#[cfg(feature = "harness")]
pub mod atomic_file;
#[cfg(not(feature = "harness"))]
mod atomic_file;
#[cfg(feature = "harness")]
pub mod bench;
pub mod board;
pub mod certify;
#[cfg(feature = "harness")]
pub mod cluster;
gated!(feature = "front" => mod compress;);
pub mod count;
gated!(feature = "front" => mod cpu;);
gated!(feature = "front" => mod cube;);
pub mod decode;
pub mod encode;
pub mod error;
pub mod export;
pub mod generate;
pub mod instance;
pub mod interrupt;
gated!(feature = "oracle" => mod matching;);
gated!(feature = "front" => mod memory;);
gated!(feature = "front" => mod options;);
pub mod piece;
pub mod presolve;
mod prng;
// Private: only the library runs child processes and shares out work (issue 44 §3).
mod process;
#[cfg(feature = "harness")]
pub mod progress;
gated!(feature = "front" => mod report;);
pub mod solve;
#[cfg(feature = "harness")]
pub mod suite;
pub mod svg;
pub mod symmetry;
pub mod varmap;
pub mod verify;
gated!(feature = "oracle" => mod local_search;);
mod work;

pub use board::{Board, Cell};
pub use count::{Counter, Counts};
pub use encode::Encoder;
pub use error::{Error, Result};
pub use instance::Instance;
pub use interrupt::Cancel;
pub use piece::{AMAZON, Piece, QUEEN};
pub use presolve::Problem;
pub use solve::Solver;
