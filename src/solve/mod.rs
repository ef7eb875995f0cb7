//! Solving: [`Solver`] runs the default strategy or any named engine, portfolio or
//! cube-and-conquer, and returns one [`SolveReport`] whose board passed the independent checks.
//!
//! Engines answer a [`crate::presolve::Problem`] through one trait ([`Engine`]): varisat, the
//! linked CaDiCaL and Kissat, the bitboard search and local search in-process (one row each in
//! [`ENGINES`]), and any external DIMACS program ([`external`], its answer parsed by
//! [`crate::export::output`]). [`solve`] wraps the trait call with what every engine shares;
//! [`race()`] is the one race (portfolios, the default strategy's bitboard race); [`cubes`] and
//! [`certified_cubes`] conquer look-ahead cubes with the incremental engines ([`traits`]).

pub mod bitboard;
pub mod cadical_backend;
pub mod certified_cubes;
pub mod cubes;
pub mod engine;
pub mod external;
pub mod kissat_backend;
mod portfolio;
pub mod race;
mod run;
pub mod strategy;
pub mod traits;
pub mod varisat_backend;
pub mod walk_backend;

pub use crate::answer::{Answer, Model, Status};
pub use engine::{
    Backend, Capabilities, ENGINES, Engine, EngineInfo, Found, Outcome, Proofs, Settings,
    Unsupported,
};
pub use portfolio::{Entrant, parse_portfolio};
pub use race::{Lane, race};
pub use run::{
    MEMORY_ENV, SolveReport, SolveSettings, accept, available_memory, portfolio, prepass, solve,
};
pub use strategy::{AutoSymmetry, Solver};
pub use varisat_backend::varisat_bytes;
