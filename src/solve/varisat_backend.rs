//! The in-process backend: the `varisat` CDCL solver as a [`ClauseSink`].

use std::sync::mpsc;
use std::time::{Duration, Instant};

use varisat::ExtendFormula;

use crate::answer::{Answer, Model};
use crate::encode::{ClauseSink, EncodeOptions, Lit};
use crate::presolve::Problem;

use super::engine::{Capabilities, Engine, EngineInfo, Outcome, Proofs, Settings};
use super::traits::{AssumptionSolver, Encoded, Formula, SolverFactory, load_watched};
pub(crate) use super::traits::{StopSwitch, Timing};
use crate::interrupt::{Cancel, recv_until};

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

/// Encodes `problem` with `options` into varisat and solves it, giving up after `timeout`
/// (encoding included).
///
/// varisat's solver cannot move between threads, so the whole job runs on its own thread (with a
/// copy of the problem) while this one waits for it or for the stop token (`cancel` with the
/// time limit, [`crate::interrupt::recv_until`]). Once the token stops, the search is stopped
/// through a [`StopSwitch`] and its thread is joined (it ends within milliseconds, so no CPU is
/// left burning in a suite, a portfolio or a Python session); only when the process's signal
/// token is the one way to stop ([`Cancel::ends_process`]) is the thread left to the exiting
/// process, sparing the switch's 10 %. Either way `Unknown` is returned.
pub fn solve(
    problem: &Problem,
    options: EncodeOptions,
    timeout: Option<Duration>,
    certify: bool,
    cancel: Option<&Cancel>,
) -> (Answer, Timing) {
    /// The problem, owned by the search thread.
    struct Owned(Problem, EncodeOptions);
    impl Formula for Owned {
        fn load(&self, sink: &mut dyn ClauseSink) -> u64 {
            Encoded {
                problem: &self.0,
                options: self.1,
            }
            .load(sink)
        }
    }
    solve_formula(
        std::sync::Arc::new(Owned(problem.clone(), options)),
        timeout,
        certify,
        cancel,
    )
}

/// [`solve`] on any [`Formula`] (shared with the search thread).
pub fn solve_formula(
    formula: std::sync::Arc<dyn Formula>,
    timeout: Option<Duration>,
    certify: bool,
    cancel: Option<&Cancel>,
) -> (Answer, Timing) {
    let stop = cancel.cloned().unwrap_or_default().with_timeout(timeout);
    // The process's SIGINT / SIGTERM token alone ends the wait, and the process exits right
    // after it: no switch, no proof overhead. A time limit or any other token (a race the search
    // may lose, a library caller going on) needs the switch, and the thread is waited for.
    let switch = (timeout.is_some() || cancel.is_some_and(|c| !c.ends_process()))
        .then(|| StopSwitch::new(&stop));
    let armed = switch.is_some();
    let loading = stop.clone();
    let job = move |formula: &dyn Formula| {
        let t0 = Instant::now();
        let mut solver = varisat::Solver::new();
        if let Some(switch) = switch {
            solver.write_proof(switch, varisat::ProofFormat::BinaryDrat);
        }
        if certify {
            solver.enable_self_checking();
        }
        let (vars, cut) = load_watched(formula, &mut VarisatSink::new(&mut solver), &loading);
        let encode = t0.elapsed().as_secs_f64();
        let t1 = Instant::now();
        let answer = if cut && armed {
            // Why it stopped, as every engine says it (the time limit as given).
            Answer::Unknown(
                loading
                    .stopped()
                    .map_or_else(|| "stopped while loading".into(), |s| s.to_string()),
            )
        } else {
            match run(solver, vars) {
                // The switch failed a proof write because the token stopped: say why, as
                // every engine does (not varisat's "Error writing proof file").
                Answer::Unknown(e) if armed => {
                    Answer::Unknown(loading.stopped().map_or(e, |s| s.to_string()))
                }
                answer => answer,
            }
        };
        let solve = t1.elapsed().as_secs_f64();
        (answer, Timing { encode, solve })
    };
    // varisat's solver cannot move between threads: the search runs on its own thread, so that
    // this one can notice SIGINT / SIGTERM (crate::interrupt) and the time limit.
    let (tx, rx) = mpsc::channel();
    let started = Instant::now();
    let thread = std::thread::spawn(move || {
        let _ = tx.send(job(formula.as_ref()));
    });
    match recv_until(&rx, &stop) {
        Ok(result) => {
            let _ = thread.join();
            result
        }
        Err(why) => {
            let why = why.map_or_else(|| "the solver thread failed".to_string(), |w| w.to_string());
            // The switch is thrown (its token stopped): the thread ends at its next proof
            // write, within milliseconds, and is joined. Without a switch the process is
            // exiting.
            let timing = if armed {
                let _ = thread.join();
                rx.try_recv().map(|r| r.1).unwrap_or_default()
            } else {
                Timing {
                    encode: 0.0,
                    solve: started.elapsed().as_secs_f64(),
                }
            };
            (Answer::Unknown(why), timing)
        }
    }
}

/// varisat as an [`AssumptionSolver`].
pub struct VarisatAssuming {
    solver: varisat::Solver<'static>,
    num_vars: u32,
    buf: Vec<varisat::Lit>,
}

impl VarisatAssuming {
    /// A fresh varisat solver that stops when `stop` stops (through its proof writer, see
    /// [`StopSwitch`]).
    pub fn new(stop: &Cancel) -> VarisatAssuming {
        let mut solver = varisat::Solver::new();
        // DRAT proofs reject assumptions; the native format takes them.
        solver.write_proof(StopSwitch::new(stop), varisat::ProofFormat::Varisat);
        VarisatAssuming {
            solver,
            num_vars: 0,
            buf: Vec::with_capacity(64),
        }
    }

    /// The [`SolverFactory`] of varisat.
    pub fn factory() -> &'static SolverFactory {
        &|stop| Box::new(VarisatAssuming::new(stop))
    }
}

impl ClauseSink for VarisatAssuming {
    fn add_clause(&mut self, lits: &[Lit]) {
        self.buf.clear();
        for l in lits {
            self.num_vars = self.num_vars.max(l.var());
            self.buf
                .push(varisat::Lit::from_dimacs(l.to_dimacs() as isize));
        }
        self.solver.add_clause(&self.buf);
    }
}

impl AssumptionSolver for VarisatAssuming {
    fn solve_assuming(&mut self, assumptions: &[Lit]) -> Answer<Model> {
        let lits: Vec<varisat::Lit> = assumptions
            .iter()
            .map(|l| varisat::Lit::from_dimacs(l.to_dimacs() as isize))
            .collect();
        self.solver.assume(&lits);
        match self.solver.solve() {
            Ok(true) => {
                let true_vars = self
                    .solver
                    .model()
                    .unwrap_or_default()
                    .into_iter()
                    .filter(|l| l.is_positive())
                    .map(|l| l.to_dimacs() as u32)
                    .filter(|&v| v <= self.num_vars);
                Answer::Sat(Model::from_true_vars(self.num_vars as usize, true_vars))
            }
            Ok(false) => Answer::Unsat,
            Err(e) => Answer::Unknown(format!("varisat stopped: {e}")),
        }
    }
}

/// Estimated peak memory of varisat holding a CNF of this size: about 8 bytes per literal
/// occurrence (clause storage and watches) plus 128 bytes per variable. Measured: pairwise
/// 200-queens (13.3 M clauses, 26.5 M literals) peaks at 179 MB; the estimate says 217 MB.
pub fn varisat_bytes(stats: &crate::encode::Stats) -> u64 {
    8 * stats.literals + 128 * stats.vars
}

/// varisat in-process (`--solver varisat`): self-checked proofs, incremental, memory estimated
/// by [`varisat_bytes`].
pub struct Varisat;

impl Engine for Varisat {
    fn info(&self) -> EngineInfo {
        EngineInfo {
            name: "varisat".into(),
            about: "in-process CDCL (pure Rust)".into(),
            caps: Capabilities {
                proofs: Proofs::SelfChecked,
                incremental: Some(|_, _| VarisatAssuming::factory()),
                memory: Some(varisat_bytes),
                ..Capabilities::IN_PROCESS
            },
        }
    }

    fn solve(
        &self,
        problem: &Problem,
        settings: &Settings,
        cancel: &crate::interrupt::Cancel,
    ) -> crate::Result<Outcome> {
        let certify = settings.certify;
        let (answer, timing) = solve(
            problem,
            settings.options,
            settings.timeout,
            certify,
            Some(cancel),
        );
        let mut outcome = Outcome::of_model(answer, timing);
        if certify && matches!(outcome.answer, Answer::Unsat) {
            outcome.certificate = Some(crate::certify::Certificate {
                checker: "varisat self-checking proof (varisat-checker)".into(),
                steps: 0,
            });
        }
        Ok(outcome)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pigeonhole PHP(p, p-1): every hole takes at most one pigeon, every pigeon a hole.
    /// Exponential for resolution, so CDCL runs for minutes at p = 13.
    fn pigeonhole(solver: &mut varisat::Solver<'_>, p: isize) {
        let h = p - 1;
        let var = |i: isize, j: isize| varisat::Lit::from_dimacs(i * h + j + 1);
        for i in 0..p {
            solver.add_clause(&(0..h).map(|j| var(i, j)).collect::<Vec<_>>());
        }
        for j in 0..h {
            for a in 0..p {
                for b in a + 1..p {
                    solver.add_clause(&[!var(a, j), !var(b, j)]);
                }
            }
        }
    }

    #[test]
    fn stop_switch_ends_a_running_search() {
        let stop = StopSwitch::new(&Cancel::new());
        let switch = stop.clone();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut solver = varisat::Solver::new();
            solver.write_proof(switch, varisat::ProofFormat::BinaryDrat);
            pigeonhole(&mut solver, 13);
            let _ = tx.send(run(solver, 13 * 12));
        });
        // Still searching after 300 ms (PHP(13,12) takes minutes) ...
        assert!(rx.recv_timeout(Duration::from_millis(300)).is_err());
        stop.stop();
        // ... and stopped once the switch is thrown (the guard only catches a hang).
        match rx.recv_timeout(crate::interrupt::HANG_GUARD) {
            Ok(Answer::Unknown(why)) => assert!(why.contains("stopped"), "{why}"),
            Ok(other) => panic!("expected Unknown, got {other:?}"),
            Err(_) => panic!("the search did not stop after the switch"),
        }
    }

    #[test]
    fn stop_switch_leaves_answers_alone() {
        // The DRAT sink does not change answers: a small UNSAT and a SAT formula.
        let mut solver = varisat::Solver::new();
        solver.write_proof(
            StopSwitch::new(&Cancel::new()),
            varisat::ProofFormat::BinaryDrat,
        );
        pigeonhole(&mut solver, 5);
        assert!(matches!(run(solver, 20), Answer::Unsat));
        let mut solver = varisat::Solver::new();
        solver.write_proof(
            StopSwitch::new(&Cancel::new()),
            varisat::ProofFormat::BinaryDrat,
        );
        solver.add_clause(&[varisat::Lit::from_dimacs(1), varisat::Lit::from_dimacs(2)]);
        solver.add_clause(&[varisat::Lit::from_dimacs(-1)]);
        match run(solver, 2) {
            Answer::Sat(m) => assert!(m.value(2) && !m.value(1)),
            other => panic!("expected SAT, got {other:?}"),
        }
    }
}
