//! `--solver bitboard`: a first-solution bit-parallel backtracking search for queens and amazons
//! on a presolved problem (pre-placed pieces, blocked cells and excluded diagonals are all
//! already folded into its live cells), the method of the dedicated solver of Gent, Jefferson and
//! Nightingale for the excluded-diagonal family, with the propagation a CDCL solver gets for free
//! from the at-least-one clauses:
//!
//! - every open row keeps the columns it may still take as one `u64`; a placement removes its
//!   column, its two diagonals (and its knight leaps) from every other open row with a few shifts;
//! - a row without a cell, or a free column that no open row can take, fails the node;
//! - a free column that only one open row can take is placed at once (a forced move); else the
//!   open row with the fewest cells is branched on (fail first), lowest column first, unless it
//!   has three or more and some free column only two rows can take: then those two rows are the
//!   branches (5-18 % fewer nodes on excluded-diagonal instances n = 20..24). Counting the live
//!   diagonals of each kind against the open rows cut only 2-9 % more nodes and cost more time
//!   than it saved;
//! - the implied diagonal sums (the SAT side's `--implied sums`, as bounds): the open rows'
//!   pieces take as many distinct diagonals of each kind as there are open rows, among those
//!   they can still reach, and those diagonals' keys must add up to what the open rows and free
//!   columns give; the node fails when the smallest (largest) reachable keys already overshoot
//!   (fall short of) that sum. On ten frontier instances n = 22..30: 1.5-22x fewer nodes, 2.5x
//!   fewer in all, 1.6x less time (docs/benchmarks.md). The keys of a board up to 32 fit one
//!   word; past 32 they take two ([`Words`], `super::keys`), which pays on excluded-diagonal
//!   instances (n = 34/36: 1.6-33x smaller trees by Knuth's estimate, for 2.6x the time per
//!   node) but not on blocked n = 56 (0.07 % fewer nodes, 2.15x the time), so by default they
//!   run past 32 on instances whose unavailable cells are excluded diagonals only;
//! - branching on a diagonal the sums force: when no choice of keys without the lowest (or the
//!   highest) reachable key of a kind reaches the sum, some open row must take that diagonal,
//!   and when it has fewer cells than the row or column the search would branch on, the
//!   branches are the rows that take it (one cell: a forced move). With a column that three
//!   rows can take as a branching line too (when every row has four cells or more) and the
//!   cross-kind parity (`r + c` and `c - r` have one parity, so the pieces on odd sum keys are
//!   at most the odd keys reachable in either kind, the even likewise, and their number has the
//!   sum target's parity): 0.56 and 0.52 of the nodes on two seeded 10-instance frontier
//!   samples (docs/benchmarks.md, "Branching on forced diagonals");
//! - the quadratic identity (the squares of the pieces' `r + c` and `c - r` add up to
//!   `2 Σ r² + 2 Σ c²` over the open rows and free columns) as a bound was measured and dropped:
//!   1-5 % fewer nodes at 1.3x the CPU seconds (docs/runs/history.md, "Measured and
//!   dropped").
//!
//! [`Tuning`] switches each of these (for the measurements and the soundness tests;
//! `examples/bitboard_nodes.rs` counts the nodes).
//!
//! The search is compiled twice, the second time with `popcnt`, `bmi1`, `bmi2` and `lzcnt`
//! ([`crate::cpu::BMI2_FEATURES`]); [`crate::cpu::Isa`] picks the build at run time, as for the
//! counting kernel ([`SearchOptions::isa`] runs a given one).
//!
//! [`cubes`] cuts the search's tree into subtrees for a cluster job (`split solve --cubes-from
//! bitboard`), with Knuth's estimate of each one's size in search nodes.
//!
//! The search is exhaustive, so it proves UNSAT as well. It keeps no learned facts, yet on the
//! tail set (blocked n <= 56, excluded diagonals n = 20/21) it answered faster than the CDCL
//! cube-and-conquer (docs/benchmarks.md, "The bitboard search in the default strategy"), so the
//! default strategy races the two ([`super::Solver`]); at the excluded-diagonal frontier
//! (n >= 26 near the 50 % point) both run out of time on some instances.
//!
//! **One search, many tracers.** The recursion exists once (`kernel`'s `searcher!`, compiled
//! per instruction set); it tells a tracer what it does in typed events (`trace`: a node its
//! checks refute and why, a branch on a row, a column or a forced diagonal, each placement and
//! each refuted child). The uncertified search and the split run it with `NoTrace`, which is
//! zero-sized and compiles away (the same nodes, and the same time within 1 %, as the search
//! before the tracers: docs/benchmarks.md, "One search, many tracers"). Under `--certify` the
//! proof writers are tracers of the same search: [`proof`] writes its tree as an LRAT proof
//! (without the sum bounds, which have no short clausal proof; it backjumps over placements a
//! refutation does not use), [`pbproof`] as a VeriPB proof with every pruning. A new tracer is
//! one file (see the test-only `counting.rs`) and one line that hands it to the search.
//!
//! The files import one way: `core` <- `trace` (the events and the `Tracer` trait) <- `kernel`
//! (the search's state and methods, the branching rule, the attack masks, [`Tuning`]) <- `tree`
//! (subtrees: the split over threads, [`cubes`], [`estimate`]) <- `run` ([`search`] and its
//! [`SearchOptions`]) <- `engine` ([`Bitboard`]); and `kernel` <- [`proof`] (the LRAT tracer) <-
//! [`pbproof`] (the VeriPB tracer) <- `engine`. This file only declares and re-exports.

/// The engine's `--solver` name, written once.
pub const NAME: &str = "bitboard";

mod core;
#[cfg(test)]
mod counting;
mod engine;
mod kernel;
pub mod pbproof;
pub mod proof;
mod run;
mod split_proof;
mod trace;
mod tree;

pub use core::diagonal_family;
#[cfg_attr(not(feature = "oracle"), allow(unused_imports))] // for the tests and examples
pub use engine::{Bitboard, SPLIT_THREADS};
#[cfg_attr(not(feature = "oracle"), allow(unused_imports))] // for the tests and examples
pub use kernel::{Tuning, Words};
#[cfg_attr(not(feature = "oracle"), allow(unused_imports))] // for the tests and examples
pub use run::{PARK_AFTER, SPLIT_ITEMS, SearchFound, SearchOptions, search};
#[cfg_attr(not(feature = "oracle"), allow(unused_imports))] // for the tests and examples
pub use tree::{TreeCube, cubes, estimate, proof_cubes};
