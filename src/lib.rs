//! queens-sat: N-queens and N-amazons (with completion, blocked cells and excluded diagonals)
//! as SAT.
//!
//! The default strategy, in five lines: read an instance, solve, get a board that the
//! independent checker ([`verify`]) accepted.
//!
//! ```
//! use queens_sat::{board::Cell, instance::read_instance, piece::QUEEN, solve::Solver};
//! let text = "..Q.....\n........\n...x....\n........\n........\n........\n........\n........\n";
//! let instance = read_instance("example", text, None).unwrap();
//! let report = Solver::new(&instance, QUEEN).solve().unwrap();
//! assert!(report.status.sat().is_some_and(|b| b.pieces.contains(&Cell::new(0, 2))));
//! ```
//!
//! [`solve::Solver`] also runs one named backend, a portfolio or cube-and-conquer, with a time
//! limit, `certify` and a cancel token; `examples/` has a solve from a file, a CNF streamed into
//! a file or your own sink, and a count with symmetry.
//!
//! Pipeline: [`instance`] readers -> [`presolve`] ([`presolve::Problem`], [`varmap::VarMap`])
//! -> [`encode`] (AMO encodings streaming into an [`encode::ClauseSink`]) -> [`solve`] (engines
//! behind one trait in one table, the one race, strategies) -> [`decode`] -> [`verify`];
//! [`answer`] holds what every stage answers, [`export`] every file format on both sides,
//! [`count`] the exact counters, and [`options`] the option vocabulary the front ends share.
//! Modules import each other in one direction, with no cycle
//! (checked by `tests/it/module_graph.rs`); the direction is not the pipeline's order everywhere:
//! [`verify`] depends only on the board, instance, piece and symmetry modules, so [`encode`]
//! uses its acceptance check ([`encode::EncodeOptions::accept`]) for the constraints it adds.
//! The command line lives in the binary (`src/bin/queens-sat/`), never here.
//!
//! Cargo features (docs/design.md, "A lean core"): the library alone
//! (`default-features = false`) solves, encodes, counts and exports, and depends on neither
//! clap, csv, plotters nor indicatif. `harness` adds the benchmark harness (`bench`), the
//! benchmark suites and their plots (`suite`), the cluster jobs (`cluster`) and the progress
//! bar (`progress`); `cli`, on by default, adds clap and builds the `queens-sat` program.

#![warn(missing_docs)]

pub mod answer;
pub mod applies;
// Public with the harness, which the binary drives; inside the library otherwise.
#[cfg(feature = "harness")]
pub mod atomic;
#[cfg(not(feature = "harness"))]
mod atomic;
#[cfg(feature = "harness")]
pub mod bench;
pub mod board;
pub mod certify;
#[cfg(feature = "harness")]
pub mod cluster;
pub mod compress;
pub mod count;
pub mod cpu;
pub mod cube;
pub mod decode;
pub mod encode;
pub mod error;
pub mod export;
pub mod generate;
pub mod instance;
pub mod interrupt;
pub mod matching;
pub mod memory;
pub mod options;
pub mod piece;
pub mod presolve;
mod prng;
// Private: only the library runs child processes and shares out work (issue 44 §3).
mod process;
#[cfg(feature = "harness")]
pub mod progress;
pub mod report;
pub mod solve;
#[cfg(feature = "harness")]
pub mod suite;
pub mod svg;
pub mod symmetry;
pub mod varmap;
pub mod verify;
pub mod walk;
mod work;

pub use error::{Error, Result};
