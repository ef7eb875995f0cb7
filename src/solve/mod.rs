//! Solving: [`Solver`] runs the default strategy or any named backend, portfolio or
//! cube-and-conquer, and returns one [`SolveReport`] whose board passed the independent checks.
//!
//! Backends answer SAT / UNSAT / UNKNOWN for a CNF: [`varisat_backend`], [`cadical_backend`] and
//! [`kissat_backend`] in-process, [`external`] any DIMACS solver on a file (its answer parsed by
//! [`crate::export::output`]). They are named in one table ([`BACKENDS`]) and share the stop and
//! assumption types of [`traits`]. [`cubes`] and [`certified_cubes`] conquer look-ahead cubes.

mod backend;
pub mod bitboard;
pub mod cadical_backend;
pub mod certified_cubes;
pub mod cubes;
pub mod external;
pub mod kissat_backend;
mod run;
pub mod strategy;
pub mod traits;
pub mod varisat_backend;

pub use crate::answer::{Answer, Model, Status};
pub use backend::{BACKENDS, Backend, BackendInfo, Capabilities, Entrant, parse_portfolio};
pub use run::{
    MEMORY_ENV, SolveReport, SolveSettings, available_memory, prepass, race, solve, varisat_bytes,
};
pub use strategy::{AutoSymmetry, Solver};
