//! The integration tests, one test binary (`cargo test --release --test it`): one module per
//! area, each named in the test names (`cargo test --release --test it cli::` runs the CLI
//! tests). One binary links the library once instead of once per file; see the modules' own
//! docs for what each checks. Helpers shared by the modules are in [`common`].
//!
//! Tests whose external program is missing are `#[ignore]`d by `#[test_programs::requires(...)]`
//! (the test-only crate tests/programs probes `PATH`; the library's build never does).

mod common;

mod applies;
mod auto_symmetry;
mod bench_hard;
mod bitboard;
mod bitboard_core;
mod bitproof;
mod cadical;
mod cli;
mod cluster;
mod compress;
mod count;
mod count_fast;
mod count_matrix;
mod cubes;
mod errors;
mod export;
mod fuzz_parsers;
mod generate;
mod hygiene;
mod ignored;
mod implied;
mod instances;
mod lean;
mod local_search;
mod matching;
mod module_graph;
mod names;
mod options;
mod oracle;
mod pbcheck;
mod phases;
mod pieces;
mod plan;
mod presolve_proof;
mod properties;
mod readers;
mod registry;
mod select;
mod signals;
mod sizes;
mod solutions;
mod stop;
mod suite;
mod svg;
mod units;
mod veripb;
mod veripb_binary;
#[path = "../support/veripb_crate.rs"]
mod veripb_crate;
