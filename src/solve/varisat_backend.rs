//! The in-process backend: the `varisat` CDCL solver as a [`ClauseSink`].

use std::sync::mpsc;
use std::time::{Duration, Instant};

use varisat::ExtendFormula;

use super::{Answer, Model};
use crate::encode::{ClauseSink, EncodeOptions, Encoder, Lit};
use crate::presolve::Problem;

/// Adapts a varisat solver to [`ClauseSink`], converting literals through one reused buffer.
pub struct VarisatSink<'s, 'a> {
    solver: &'s mut varisat::Solver<'a>,
    buf: Vec<varisat::Lit>,
}

impl<'s, 'a> VarisatSink<'s, 'a> {
    /// Wraps `solver`.
    pub fn new(solver: &'s mut varisat::Solver<'a>) -> Self {
        VarisatSink {
            solver,
            buf: Vec::with_capacity(64),
        }
    }
}

impl ClauseSink for VarisatSink<'_, '_> {
    #[inline]
    fn add_clause(&mut self, lits: &[Lit]) {
        self.buf.clear();
        self.buf.extend(
            lits.iter()
                .map(|l| varisat::Lit::from_dimacs(l.to_dimacs() as isize)),
        );
        self.solver.add_clause(&self.buf);
    }
}

/// Encodes into a fresh varisat solver, returning it with the variable count.
pub fn load(encoder: &Encoder, certify: bool) -> (varisat::Solver<'static>, u64) {
    let mut solver = varisat::Solver::new();
    if certify {
        // varisat-checker verifies every proof step as it is produced; a failure stops the
        // solver with an error instead of an UNSAT.
        solver.enable_self_checking();
    }
    let stats = encoder.encode(&mut VarisatSink::new(&mut solver));
    (solver, stats.vars)
}

/// Runs a loaded solver to the end.
pub fn run(mut solver: varisat::Solver<'static>, num_vars: u64) -> Answer {
    match solver.solve() {
        Ok(true) => {
            let mut model = Model::new(num_vars as usize);
            for l in solver.model().unwrap_or_default() {
                let v = l.to_dimacs();
                if v > 0 && (v as u64) <= num_vars {
                    model.set(v as u32, true);
                }
            }
            Answer::Sat(model)
        }
        Ok(false) => Answer::Unsat,
        Err(e) => Answer::Unknown(format!("varisat stopped: {e}")),
    }
}

/// Timings of [`solve`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Timing {
    /// Seconds spent encoding into the solver.
    pub encode: f64,
    /// Seconds spent solving.
    pub solve: f64,
}

/// Encodes `problem` with `options` into varisat and solves it, giving up after `timeout`
/// (encoding included).
///
/// varisat has no interrupt and its solver cannot move between threads, so with a timeout the
/// whole job runs on its own thread (with a copy of the problem); on expiry that thread is left
/// to finish in the background (the CLI exits right after) and `Unknown` is returned.
pub fn solve(
    problem: &Problem,
    options: EncodeOptions,
    timeout: Option<Duration>,
    certify: bool,
    cancel: Option<&crate::interrupt::Cancel>,
) -> (Answer, Timing) {
    let job = move |problem: &Problem| {
        let t0 = Instant::now();
        let (solver, vars) = load(&Encoder::with_options(problem, options), certify);
        let encode = t0.elapsed().as_secs_f64();
        let t1 = Instant::now();
        let answer = run(solver, vars);
        let solve = t1.elapsed().as_secs_f64();
        (answer, Timing { encode, solve })
    };
    // The search runs on its own thread so that this one can notice the time limit and
    // SIGINT / SIGTERM (crate::interrupt) while varisat, which has no interrupt, keeps going.
    let (tx, rx) = mpsc::channel();
    let owned = problem.clone();
    let started = Instant::now();
    std::thread::spawn(move || {
        let _ = tx.send(job(&owned));
    });
    let unknown = |why: String| {
        (
            Answer::Unknown(why),
            Timing {
                encode: 0.0,
                solve: started.elapsed().as_secs_f64(),
            },
        )
    };
    loop {
        let slice = Duration::from_millis(50);
        let wait = match timeout {
            Some(limit) => match limit.checked_sub(started.elapsed()) {
                Some(left) => left.min(slice),
                None => {
                    return unknown(format!("time limit of {} s reached", limit.as_secs_f64()));
                }
            },
            None => slice,
        };
        match rx.recv_timeout(wait) {
            Ok(result) => return result,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if crate::interrupt::interrupted() {
                    return unknown("interrupted".into());
                }
                if cancel.is_some_and(|c| c.is_cancelled()) {
                    return unknown("cancelled".into());
                }
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return unknown("the solver thread failed".into());
            }
        }
    }
}
