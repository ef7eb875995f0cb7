//! The counts the tests ask for, through the one entry point ([`Counter`]): a plain count by
//! one engine, the symmetric and the lex-leader counts, and a whole request as data (so that a
//! test can loop over every combination and print the one that failed).

use std::time::Duration;

use queens_sat::Result;
use queens_sat::count::{CountEngine, CountOutcome, Counter, Counts};
use queens_sat::encode::amo::AmoKind;
use queens_sat::instance::Instance;
use queens_sat::interrupt::Cancel;
use queens_sat::piece::Piece;
use queens_sat::symmetry::Symmetry;

/// Every option of a count, as data.
#[derive(Clone, Copy, Debug)]
pub struct Request {
    pub amo: AmoKind,
    pub symmetric: Option<Symmetry>,
    pub lex: bool,
    pub engine: Option<CountEngine>,
    pub cross_check: bool,
    pub jobs: usize,
    pub timeout: Option<Duration>,
}

impl Request {
    /// A plain count by the default engine.
    pub fn new(amo: AmoKind, jobs: usize) -> Request {
        Request {
            amo,
            symmetric: None,
            lex: false,
            engine: None,
            cross_check: false,
            jobs,
            timeout: None,
        }
    }

    /// The counter this request describes; the encoding is given only where it is not the
    /// default (a count by an engine that encodes nothing refuses one).
    pub fn counter<'a>(&self, inst: &'a Instance, piece: Piece) -> Counter<'a> {
        let c = Counter::new(inst, piece)
            .engine(self.engine)
            .symmetric(self.symmetric)
            .lex(self.lex)
            .cross_check(self.cross_check)
            .jobs(self.jobs)
            .timeout(self.timeout);
        if self.amo == AmoKind::DEFAULT {
            c
        } else {
            c.amo(self.amo)
        }
    }
}

/// Counts `inst` as `request` asks.
pub fn run(
    inst: &Instance,
    piece: Piece,
    request: &Request,
    cancel: &Cancel,
) -> Result<CountOutcome> {
    request.counter(inst, piece).cancel(cancel.clone()).run()
}

/// The breakdown of a count by `engine` (`amo`: the SAT engines' encoding).
pub fn count(
    inst: &Instance,
    piece: Piece,
    amo: AmoKind,
    engine: CountEngine,
    jobs: usize,
) -> Result<Counts> {
    let c = Counter::new(inst, piece).engine(engine).jobs(jobs);
    match engine {
        CountEngine::Sat | CountEngine::Cdcl => c.amo(amo),
        _ => c,
    }
    .counts()
}

/// The `g`-symmetric solutions, by the SAT engine.
pub fn count_symmetric(
    inst: &Instance,
    piece: Piece,
    amo: AmoKind,
    g: Symmetry,
    jobs: usize,
    cancel: &Cancel,
) -> Result<u64> {
    Counter::new(inst, piece)
        .engine(CountEngine::Sat)
        .amo(amo)
        .symmetric(g)
        .jobs(jobs)
        .cancel(cancel.clone())
        .counts()
        .map(|c| c.total)
}

/// The classes, counted by lex-leader constraints on the SAT engine.
pub fn count_lex_leaders(
    inst: &Instance,
    piece: Piece,
    amo: AmoKind,
    jobs: usize,
    cancel: &Cancel,
) -> Result<u64> {
    match Counter::new(inst, piece)
        .engine(CountEngine::Sat)
        .amo(amo)
        .lex(true)
        .jobs(jobs)
        .cancel(cancel.clone())
        .run()?
    {
        CountOutcome::Counted(r) => Ok(r.unique()),
        CountOutcome::TimeLimit(t) => Err(queens_sat::Error::TimeLimit(t)),
    }
}
