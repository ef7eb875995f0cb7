//! What every in-process backend shares: the `StopSwitch` that ends a search early, the
//! [`Timing`] of an in-process solve, and the [`AssumptionSolver`] trait (with its
//! `SolverFactory`) that cube-and-conquer drives. Backends import this module; it imports none
//! of them.

use crate::answer::{Answer, Model};
use crate::encode::{ClauseSink, Lit};
use crate::interrupt::Cancel;

/// The stop switch of a running varisat search: an adapter over a [`Cancel`] token.
///
/// varisat has no interrupt call, but it stops its search (with a proof I/O error) as soon as
/// writing its proof fails. `super::varisat_backend::load_stoppable` gives every solver a binary DRAT
/// proof that goes to this writer: it discards the bytes until its token stops (raised, or its
/// deadline passed), then fails. varisat buffers its proof in 8 KiB blocks, so the search
/// stops within a few hundred conflicts (milliseconds) with no watcher thread. DRAT output only
/// adds the serialisation of learned and deleted clauses; the search itself is unchanged. That
/// costs about 10 % CPU (n = 1000 product 5.0 -> 5.5 s, n = 400 sequential 3.5 -> 3.9 s), so
/// `super::varisat_backend::solve` only arms a switch when there is something to stop for.
#[cfg_attr(
    not(feature = "oracle"),
    visibility::make(pub(crate)),
    allow(dead_code)
)]
#[derive(Clone, Debug)]
pub struct StopSwitch(Cancel);

impl StopSwitch {
    /// A switch thrown when `cancel` stops, or by [`StopSwitch::stop`] (which leaves `cancel`
    /// alone).
    pub fn new(cancel: &Cancel) -> StopSwitch {
        StopSwitch(cancel.child())
    }

    /// Stops the solver this switch was given to (the unit tests throw it by hand).
    #[cfg(test)]
    pub fn stop(&self) {
        self.0.cancel();
    }

    /// Whether the switch was thrown (its token stopped).
    pub fn is_stopped(&self) -> bool {
        self.0.is_stopped()
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

/// A linked solver that polls a stop token while it searches (CaDiCaL's terminate callback),
/// after RustSAT's `Terminate`: the solver stops itself, no watcher thread.
pub(crate) trait Terminate {
    /// Solves until done or until `stop` stops; the IPASIR result (10, 20, or 0 when stopped).
    fn solve_until(&mut self, stop: &Cancel) -> std::os::raw::c_int;
}

/// A linked solver that another thread stops (`kissat_terminate`), after RustSAT's
/// `Interrupt`: [`crate::interrupt::watch`] calls the interrupter when the token stops.
pub(crate) trait Interrupt {
    /// A call that stops the running search from another thread; it must stay valid for as
    /// long as the solver lives.
    fn interrupter(&self) -> Box<dyn FnOnce() + Send>;
}

/// Adds the clause `lits` through a linked solver's IPASIR-style `add` (CaDiCaL's, Kissat's):
/// each DIMACS literal, then the 0 that ends the clause.
///
/// # Safety
/// `ptr` is a live solver of that `add`, in a state that takes clauses.
#[inline]
pub(crate) unsafe fn add_ipasir<P: Copy>(
    ptr: P,
    add: unsafe extern "C" fn(P, std::os::raw::c_int),
    lits: &[Lit],
) {
    for l in lits {
        // SAFETY: the caller's; DIMACS literals are non-zero and within i32.
        unsafe { add(ptr, l.to_dimacs() as std::os::raw::c_int) };
    }
    // SAFETY: as above; 0 ends the clause.
    unsafe { add(ptr, 0) };
}

/// Timings of an in-process solve (varisat here, and `super::cadical_backend`).
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
    /// the search was stopped (the token it was built with stopped) or failed.
    fn solve_assuming(&mut self, assumptions: &[Lit]) -> Answer<Model>;
}

/// Builds one solver per worker thread (inside that thread, so solvers need not be `Send`); the
/// solver must stop soon after the token stops (raised, or its deadline passed).
#[cfg_attr(
    not(feature = "oracle"),
    visibility::make(pub(crate)),
    allow(dead_code)
)]
pub type SolverFactory = dyn Fn(&Cancel) -> Box<dyn AssumptionSolver> + Sync;

/// Why a solver watching `stop` ended without an answer: the token's reason, or `fallback`
/// when the token still runs (the solver gave up on its own).
pub(crate) fn stopped_why(stop: &Cancel, fallback: &str) -> String {
    stop.stopped()
        .map_or_else(|| fallback.to_string(), |why| why.to_string())
}

/// Clauses to load into a solver: the encoding of a problem (`Encoded`), or any CNF (the
/// tests load a pigeonhole formula, hard for CDCL by construction, to exercise the stop paths).
pub trait Formula: Send + Sync {
    /// Adds every clause to `sink`; returns the number of variables.
    fn load(&self, sink: &mut dyn ClauseSink) -> u64;

    /// [`Formula::load`], ending early once `stop` stops (the clauses added are then only
    /// part of the formula). By default the sink's [`ClauseSink::stopped`] alone ends it.
    fn load_until(&self, sink: &mut dyn ClauseSink, stop: &Cancel) -> u64 {
        let _ = stop;
        self.load(sink)
    }
}

/// A problem with its encoding options, as a [`Formula`].
pub(crate) struct Encoded<'a> {
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

    /// The encoder polls `stop` in its own loops too (the bucketing of a line family walks
    /// every cell), not only the sink between lines.
    fn load_until(&self, sink: &mut dyn ClauseSink, stop: &Cancel) -> u64 {
        crate::encode::Encoder::with_options(self.problem, self.options)
            .until(stop)
            .encode(sink)
            .vars
    }
}

/// A clause sink that reports itself stopped once its token stops, so that loading a huge
/// encoding into a linked solver ends early (the encoder polls [`ClauseSink::stopped`] once per
/// line).
pub(crate) struct Watched<'a> {
    /// Where the clauses go.
    pub inner: &'a mut dyn ClauseSink,
    /// Give up when it stops.
    pub stop: &'a Cancel,
}

impl ClauseSink for Watched<'_> {
    #[inline]
    fn add_clause(&mut self, lits: &[Lit]) {
        self.inner.add_clause(lits);
    }

    fn stopped(&self) -> bool {
        self.inner.stopped() || self.stop.is_stopped()
    }
}

/// Loads `formula` into `sink` until `stop` stops ([`Watched`]): the number of variables, and
/// whether the load was cut short.
pub(crate) fn load_watched(
    formula: &dyn Formula,
    sink: &mut dyn ClauseSink,
    stop: &Cancel,
) -> (u64, bool) {
    let vars = formula.load_until(&mut Watched { inner: sink, stop }, stop);
    (vars, stop.is_stopped())
}
