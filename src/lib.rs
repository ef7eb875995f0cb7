//! queens-sat: N-queens and N-amazons (with completion, blocked cells and excluded diagonals)
//! as SAT.
//!
//! Pipeline: [`instance`] readers -> [`presolve`] ([`presolve::Problem`], [`varmap::VarMap`])
//! -> [`encode`] (AMO encodings streaming into a [`encode::ClauseSink`]) -> [`solve`] backends
//! -> [`decode`] -> [`verify`]. [`pipeline`] strings them together.
//!
//! ```
//! use queens_sat::{encode::amo::AmoKind, instance::Instance, piece::QUEEN,
//!                  pipeline::{solve, Backend, Status}, presolve::Problem};
//! let problem = Problem::presolve(&Instance::plain(8), QUEEN).unwrap();
//! let report = solve(&problem, AmoKind::Sequential, &Backend::Varisat, None).unwrap();
//! assert!(matches!(report.status, Status::Sat(_)));
//! ```

#![warn(missing_docs)]

pub mod board;
pub mod decode;
pub mod encode;
pub mod error;
pub mod generate;
pub mod instance;
pub mod matching;
pub mod piece;
pub mod pipeline;
pub mod presolve;
pub mod solve;
pub mod varmap;
pub mod verify;

pub use error::{Error, Result};
pub mod bench;
pub mod certify;
pub mod cli;
pub mod count;
pub mod interrupt;
pub mod progress;
pub mod suite;
pub mod symmetry;
