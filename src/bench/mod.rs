//! The benchmark harness behind `queens-sat bench`: writing throughput, time to first solution,
//! memory and counting tables ([`throughput`]), and `bench hard`, the encoding x backend race on
//! generated hard instances ([`hard`]).
//!
//! The files import one way: [`types`] (shared data types) <- [`catalogue`] (instance sets),
//! [`runs_csv`] (the per-run CSV) and [`report`] (tables from results); [`child`] (one child
//! `solve` run) stands alone; [`hard`] uses them all, [`throughput`] uses [`child`]. This file
//! only dispatches; [`flags`] (the options of `bench` as given, checked into this file's
//! [`BenchTask`]) uses it and [`types`]. Every timed solve is a child process of the
//! `queens-sat` executable named in [`BenchSettings::exe`], which the caller supplies, as it
//! supplies the cancel token; the harness never parses command-line arguments (the program
//! hands [`flags::BenchFlags`] the values it parsed).

pub mod catalogue;
pub mod child;
pub mod flags;
pub mod hard;
pub mod report;
pub mod runs_csv;
pub mod throughput;
pub mod types;

use std::io::Write;
use std::path::PathBuf;

use crate::encode::amo::AmoKind;
use crate::error::Result;
use crate::interrupt::Cancel;

pub use types::{Config, Group, HardInstance, HardOptions, HardSet, RunResult};

/// What `queens-sat bench` measures.
#[derive(Clone, Debug)]
pub enum BenchTask {
    /// The standard tables ([`throughput::run`]); `quick`: smaller sizes.
    Tables {
        /// Smaller sizes.
        quick: bool,
    },
    /// Only the export throughput table ([`throughput::export_table`]).
    Export {
        /// Smaller sizes.
        quick: bool,
    },
    /// Peak memory of streaming export at these sides ([`throughput::memory`]).
    Memory {
        /// Board sides.
        ns: Vec<u32>,
    },
    /// Counting speed ([`throughput::count_table`]).
    Count {
        /// Queens `8..=max_queens`.
        max_queens: u32,
        /// Amazons `10..=max_amazons`.
        max_amazons: u32,
        /// Encoding of the SAT engine.
        amo: AmoKind,
        /// Thread counts of the specialised engine's columns (each at least 1).
        threads: Vec<usize>,
        /// Runs per timing, the fastest reported (at least 1).
        repeat: usize,
    },
    /// `bench hard` ([`hard::run`]).
    Hard(HardOptions),
    /// The DIMACS writer against `dd`, and the compressors ([`throughput::dd_table`]).
    Dd {
        /// Board sides of `encode --amo pairwise`.
        ns: Vec<u32>,
        /// Alternating runs per row (the median is reported).
        runs: usize,
    },
}

/// Everything one `bench` run needs.
#[derive(Clone, Debug)]
pub struct BenchSettings {
    /// The `queens-sat` executable the timed runs start as child processes.
    pub exe: PathBuf,
    /// Raised to stop the bench (the running children are stopped too).
    pub cancel: Cancel,
    /// What to measure.
    pub task: BenchTask,
}

/// Runs the bench `settings` describe and writes its tables to `out` (progress bars go to
/// stderr).
pub fn run(settings: &BenchSettings, out: &mut dyn Write) -> Result<()> {
    let (exe, cancel) = (settings.exe.as_path(), &settings.cancel);
    match &settings.task {
        BenchTask::Tables { quick } => throughput::run(*quick, exe, cancel, out),
        BenchTask::Export { quick } => throughput::export_table(*quick, out),
        BenchTask::Memory { ns } => throughput::memory(exe, ns, out),
        BenchTask::Count {
            max_queens,
            max_amazons,
            amo,
            threads,
            repeat,
        } => throughput::count_table(*max_queens, *max_amazons, *amo, threads, *repeat, out),
        BenchTask::Hard(opts) => hard::run(exe, cancel, opts, out),
        BenchTask::Dd { ns, runs } => throughput::dd_table(exe, ns, *runs, out),
    }
}
