//! Backends: answer SAT / UNSAT / UNKNOWN for a CNF, with a model when SAT.
//!
//! [`varisat_backend`] solves in-process; [`external`] runs any DIMACS solver on a file and parses
//! its answer (SAT-competition `s`/`v` lines, or minisat's result file).

mod backend;
pub mod cadical_backend;
pub mod cubes;
pub mod external;
pub mod kissat_backend;
mod run;
pub mod varisat_backend;

pub use crate::answer::{Answer, Model, Status};
pub use backend::{Backend, Entrant, parse_portfolio};
pub use run::{SolveReport, SolveSettings, available_memory, prepass, race, solve, varisat_bytes};
