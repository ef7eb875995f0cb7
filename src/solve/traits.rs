//! What every in-process backend shares: the [`StopSwitch`] that ends a search early, the
//! [`Timing`] of an in-process solve, and the [`AssumptionSolver`] trait (with its
//! [`SolverFactory`]) that cube-and-conquer drives. Backends import this module; it imports none
//! of them.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::answer::{Answer, Model};
use crate::encode::{ClauseSink, Lit};

/// A stop switch for a running varisat search.
///
/// varisat has no interrupt call, but it stops its search (with a proof I/O error) as soon as
/// writing its proof fails. [`super::varisat_backend::load`] gives every solver a binary DRAT proof that goes to this
/// writer: it discards the bytes until the switch is thrown, then fails. varisat buffers its
/// proof in 8 KiB blocks, so the search stops within a few hundred conflicts (milliseconds).
/// DRAT output only adds the serialisation of learned and deleted clauses; the search itself
/// is unchanged. That costs about 10 % CPU (n = 1000 product 5.0 -> 5.5 s, n = 400 sequential
/// 3.5 -> 3.9 s), so [`super::varisat_backend::solve`] only arms a switch when there is a time limit or a `cancel`.
#[derive(Clone, Debug, Default)]
pub struct StopSwitch(Arc<AtomicBool>);

impl StopSwitch {
    /// A switch that is not thrown.
    pub fn new() -> StopSwitch {
        StopSwitch::default()
    }

    /// Stops the solver this switch was given to.
    pub fn stop(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    /// Whether [`StopSwitch::stop`] was called.
    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

impl std::io::Write for StopSwitch {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.is_stopped() {
            Err(std::io::Error::other("search stopped"))
        } else {
            Ok(buf.len())
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Timings of an in-process solve (varisat here, and [`super::cadical_backend`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Timing {
    /// Seconds spent encoding into the solver.
    pub encode: f64,
    /// Seconds spent solving.
    pub solve: f64,
}

/// An incremental SAT solver that answers under assumptions and keeps what it learned between
/// calls. Clauses arrive through [`ClauseSink`] (DIMACS variables from 1).
pub trait AssumptionSolver: ClauseSink {
    /// Solves the clauses added so far with every literal of `assumptions` forced true. `Unsat`
    /// means no model extends the assumptions (the clause set stays usable); `Unknown` means
    /// the search was stopped (its [`StopSwitch`] thrown) or failed.
    fn solve_assuming(&mut self, assumptions: &[Lit]) -> Answer<Model>;
}

/// Builds one solver per worker thread (inside that thread, so solvers need not be `Send`); the solver must stop soon after the switch is thrown.
pub type SolverFactory = dyn Fn(&StopSwitch) -> Box<dyn AssumptionSolver> + Sync;

/// Why a linked solver stopped without an answer: `cancel` raised, else the time limit.
pub fn stopped_why(
    cancel: Option<&crate::interrupt::Cancel>,
    timeout: Option<std::time::Duration>,
) -> String {
    if cancel.is_some_and(|c| c.is_cancelled()) {
        "cancelled".into()
    } else {
        format!(
            "time limit of {} s reached",
            timeout.unwrap_or_default().as_secs_f64()
        )
    }
}

/// Clauses to load into a solver: the encoding of a problem ([`Encoded`]), or any CNF (the
/// tests load a pigeonhole formula, hard for CDCL by construction, to exercise the stop paths).
pub trait Formula: Send + Sync {
    /// Adds every clause to `sink`; returns the number of variables.
    fn load(&self, sink: &mut dyn ClauseSink) -> u64;
}

/// A problem with its encoding options, as a [`Formula`].
pub struct Encoded<'a> {
    /// The problem.
    pub problem: &'a crate::presolve::Problem,
    /// How to encode it.
    pub options: crate::encode::EncodeOptions,
}

impl Formula for Encoded<'_> {
    fn load(&self, sink: &mut dyn ClauseSink) -> u64 {
        crate::encode::Encoder::with_options(self.problem, self.options)
            .encode(sink)
            .vars
    }
}

/// A clause sink that reports itself stopped once `deadline` passes or `cancel` is raised, so
/// that loading a huge encoding into a linked solver ends early (the encoder polls
/// [`ClauseSink::stopped`] once per line).
pub struct Watched<'a> {
    /// Where the clauses go.
    pub inner: &'a mut dyn ClauseSink,
    /// Give up at this instant.
    pub deadline: Option<std::time::Instant>,
    /// Give up when raised.
    pub cancel: Option<&'a crate::interrupt::Cancel>,
}

impl Watched<'_> {
    /// Whether the time is up or the token raised.
    pub fn is_over(&self) -> bool {
        self.deadline
            .is_some_and(|d| std::time::Instant::now() >= d)
            || self.cancel.is_some_and(|c| c.is_cancelled())
    }
}

impl ClauseSink for Watched<'_> {
    #[inline]
    fn add_clause(&mut self, lits: &[Lit]) {
        self.inner.add_clause(lits);
    }

    fn stopped(&self) -> bool {
        self.inner.stopped() || self.is_over()
    }
}

/// Loads `formula` into `sink` until `deadline` or `cancel` ([`Watched`]): the number of
/// variables, and whether the load was cut short.
pub fn load_watched(
    formula: &dyn Formula,
    sink: &mut dyn ClauseSink,
    deadline: Option<std::time::Instant>,
    cancel: Option<&crate::interrupt::Cancel>,
) -> (u64, bool) {
    let mut watched = Watched {
        inner: sink,
        deadline,
        cancel,
    };
    let vars = formula.load(&mut watched);
    (vars, watched.is_over())
}
