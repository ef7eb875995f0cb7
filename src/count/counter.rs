//! [`Counter`]: the one entry point of counting, a settings builder like
//! [`Solver`](crate::solve::Solver). Every front end (the command line, Python, a Rust caller)
//! counts through it; the engines' own functions are private to [`count`](super).

use std::time::Duration;

use super::{CountEngine, CountOutcome, Counts, Request};
use crate::encode::amo::AmoKind;
use crate::error::{Error, Result};
use crate::instance::Instance;
use crate::interrupt::Cancel;
use crate::piece::Piece;
use crate::symmetry::Symmetry;

/// A progress callback: `(done, total)` over the SAT engines' cubes and the backtrack
/// engine's tasks.
type Progress<'a> = &'a (dyn Fn(usize, usize) + Sync);

/// Counts the solutions of an instance: every option that changes a count, set by a builder,
/// then [`Counter::counts`] (the breakdown) or [`Counter::run`] (every engine's answer, a time
/// limit as an outcome).
///
/// - [`engine`](Counter::engine): the counter; by default the fastest that applies
///   ([`Counter::engines`] says which).
/// - [`symmetric`](Counter::symmetric): only the boards a symmetry maps to themselves (the
///   rotations by their orbit structure, OEIS A032522 / A033148 / A037223).
/// - [`lex`](Counter::lex): the classes modulo symmetry counted directly, by lex-leader
///   constraints (the SAT engines).
/// - [`cross_check`](Counter::cross_check): a second, independent engine counts the same; a
///   difference is an [`Error::WrongAnswer`].
/// - [`amo`](Counter::amo): the at-most-one encoding of the SAT engines' CNF (refused with an
///   engine that encodes nothing).
/// - [`jobs`](Counter::jobs), [`timeout`](Counter::timeout), [`cancel`](Counter::cancel),
///   [`progress`](Counter::progress).
///
/// ```
/// use queens_sat::{Counter, Instance, QUEEN};
/// use queens_sat::count::{CountEngine, CountOutcome};
/// use queens_sat::{encode::amo::AmoKind, symmetry::Symmetry};
/// let board = Instance::plain(8);
/// let c = Counter::new(&board, QUEEN).counts().unwrap();
/// assert_eq!((c.total, c.unique), (92, 12));
/// // The classes of the half-turn-symmetric boards by lex-leader constraints on the SAT
/// // engine, cross-checked by the backtrack engine's Burnside count.
/// let counter = Counter::new(&board, QUEEN)
///     .symmetric(Symmetry::R180)
///     .lex(true)
///     .cross_check(true)
///     .amo(AmoKind::Pairwise)
///     .jobs(2);
/// assert_eq!(counter.engines(), [CountEngine::Sat, CountEngine::Backtrack]);
/// let CountOutcome::Counted(r) = counter.run().unwrap() else { panic!() };
/// assert_eq!((r.unique(), r.engine_name().as_str()), (1, "sat+backtrack"));
/// ```
#[derive(Clone)]
pub struct Counter<'a> {
    instance: &'a Instance,
    piece: Piece,
    request: Request,
    amo_given: bool,
    cancel: Cancel,
    progress: Option<Progress<'a>>,
}

/// The instance's side, the piece and every option that changes the count (the progress
/// callback and the cancel token do not): what a failing test or a log names.
impl std::fmt::Debug for Counter<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let r = &self.request;
        let mut d = f.debug_struct("Counter");
        d.field("n", &self.instance.n)
            .field("piece", &self.piece.name)
            .field("engine", &r.engine)
            .field("symmetric", &r.symmetric)
            .field("lex", &r.lex)
            .field("cross_check", &r.cross_check);
        if self.amo_given {
            d.field("amo", &r.amo);
        }
        d.field("jobs", &r.jobs)
            .field("timeout", &r.timeout)
            .finish()
    }
}

impl<'a> Counter<'a> {
    /// A count of every solution of `instance` for `piece`, by the default engine, on every
    /// core, with no time limit.
    pub fn new(instance: &'a Instance, piece: Piece) -> Counter<'a> {
        Counter {
            instance,
            piece,
            request: Request::new(AmoKind::DEFAULT, crate::work::threads(None).unwrap_or(1)),
            amo_given: false,
            cancel: Cancel::new(),
            progress: None,
        }
    }

    /// The engine (`None`: the default, the fastest that applies).
    pub fn engine(mut self, engine: impl Into<Option<CountEngine>>) -> Self {
        self.request.engine = engine.into();
        self
    }

    /// The at-most-one encoding of the SAT engines' CNF.
    pub fn amo(mut self, amo: AmoKind) -> Self {
        self.request.amo = amo;
        self.amo_given = true;
        self
    }

    /// Count only the solutions `g` maps to themselves (`None`: all).
    pub fn symmetric(mut self, g: impl Into<Option<Symmetry>>) -> Self {
        self.request.symmetric = g.into();
        self
    }

    /// Count the classes directly, one lex-leader board per class (the SAT engines).
    pub fn lex(mut self, on: bool) -> Self {
        self.request.lex = on;
        self
    }

    /// A second, independent engine counts the same ([`Counter::engines`]).
    pub fn cross_check(mut self, on: bool) -> Self {
        self.request.cross_check = on;
        self
    }

    /// Worker threads (at least 1).
    pub fn jobs(mut self, jobs: usize) -> Self {
        self.request.jobs = jobs.max(1);
        self
    }

    /// The time limit (`None`: none).
    pub fn timeout(mut self, limit: impl Into<Option<Duration>>) -> Self {
        self.request.timeout = limit.into();
        self
    }

    /// A token that stops the count ([`Error::Interrupted`]) once raised.
    pub fn cancel(mut self, cancel: Cancel) -> Self {
        self.cancel = cancel;
        self
    }

    /// Called with `(done, total)` as cubes and tasks finish; `done` never goes back.
    pub fn progress(mut self, progress: Progress<'a>) -> Self {
        self.progress = Some(progress);
        self
    }

    /// The engines that will count, without counting: the chosen (or default) engine, then
    /// under [`cross_check`](Counter::cross_check) the second one.
    pub fn engines(&self) -> Vec<CountEngine> {
        let r = &self.request;
        let first = r
            .engine
            .unwrap_or_else(|| super::auto_engine(self.instance, &self.piece, r.symmetric, r.lex));
        let mut engines = vec![first];
        if r.cross_check {
            engines.push(super::second_engine(self.instance, &self.piece, first));
        }
        engines
    }

    /// Counts: what every engine that ran counted, or [`CountOutcome::TimeLimit`] when the time
    /// limit passed first (nothing was counted).
    pub fn run(&self) -> Result<CountOutcome> {
        if self.amo_given {
            // The encoding shapes the SAT engines' CNF only: an encoding given to a count
            // that encodes nothing is refused, not ignored.
            let engines = self.engines();
            let encodes = engines
                .iter()
                .find(|e| matches!(e, CountEngine::Sat | CountEngine::Cdcl))
                .unwrap_or(&engines[0]);
            crate::applies::check(
                crate::applies::Command::Count,
                &crate::applies::Given::new()
                    .value(crate::error::Opt::Amo, self.request.amo.name())
                    .value(crate::error::Opt::Engine, encodes.name()),
            )?;
        }
        let none = |_: usize, _: usize| {};
        super::run(
            self.instance,
            self.piece,
            &self.request,
            self.progress.unwrap_or(&none),
            &self.cancel,
        )
    }

    /// Counts and gives the first engine's breakdown: total, the fixed points of each
    /// symmetry, the classes. A time limit that passes is [`Error::TimeLimit`]; a lex-leader
    /// count, which sees one board per class and no breakdown, is refused (take
    /// [`Counter::run`] and its `unique`).
    pub fn counts(&self) -> Result<Counts> {
        match self.run()? {
            CountOutcome::Counted(report) => report.runs[0].counts.clone().ok_or_else(|| {
                Error::Usage(
                    "a lex-leader count gives the classes only, no breakdown: take \
                     Counter::run and its unique"
                        .into(),
                )
            }),
            CountOutcome::TimeLimit(given) => Err(Error::TimeLimit(given)),
        }
    }
}
