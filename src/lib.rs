//! queens-sat: N-queens and N-amazons (with completion, blocked cells and excluded diagonals)
//! as SAT.
//!
//! Pipeline: [`instance`] readers -> [`presolve`] ([`presolve::Problem`], [`varmap::VarMap`])
//! -> [`encode`] (AMO encodings streaming into a [`encode::ClauseSink`]) -> [`solve`] backends
//! ([`solve::solve`] strings encode, solve, decode and verify together) -> [`decode`] ->
//! [`verify`]. The command line lives in the binary (`src/bin/queens-sat/`), never here.
//!
//! ```
//! use queens_sat::{encode::amo::AmoKind, instance::Instance, piece::QUEEN,
//!                  solve::{solve, Backend, Status}, presolve::Problem};
//! let problem = Problem::presolve(&Instance::plain(8), QUEEN).unwrap();
//! let report = solve(&problem, AmoKind::Sequential, &Backend::Varisat, None).unwrap();
//! assert!(matches!(report.status, Status::Sat(_)));
//! ```

#![warn(missing_docs)]

pub mod answer;
pub mod atomic;
pub mod board;
pub mod certify;
pub mod cluster;
pub mod count;
pub mod cube;
pub mod decode;
pub mod encode;
pub mod error;
pub mod export;
pub mod generate;
pub mod instance;
pub mod interrupt;
pub mod matching;
pub mod piece;
pub mod presolve;
pub mod process;
pub mod progress;
pub mod report;
pub mod solve;
pub mod suite;
pub mod svg;
pub mod symmetry;
pub mod varmap;
pub mod verify;
pub mod walk;
pub mod work;

pub use error::{Error, Result};
