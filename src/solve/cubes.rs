//! Cube-and-conquer solving: split the instance on lines by look-ahead ([`crate::cube::lookahead`]),
//! then conquer the cubes on `jobs` threads, each thread with one incremental solver that holds
//! the whole encoding once and solves every cube it takes under assumptions (the cube's pieces
//! true, the root's live cells that the cube's presolve removed false), keeping its learned
//! clauses from cube to cube.
//!
//! SAT ends at the first model, decoded and verified against the root instance; the other threads
//! are stopped. UNSAT needs every cube refuted (by the split's presolve or by a solver). The cubes
//! partition the solutions (see [`crate::cube::lookahead`]), so this is exact.
//!
//! The solver is behind the small [`AssumptionSolver`] trait, so another incremental backend
//! plugs in with one implementation and one factory ([`SolverFactory`]).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, mpsc};
use std::time::{Duration, Instant};

use varisat::ExtendFormula;

use super::varisat_backend::StopSwitch;
use super::{Answer, Model, Status};
use crate::board::Board;
use crate::cube::{self, Split, SplitStats};
use crate::decode::decode;
use crate::encode::{ClauseSink, EncodeOptions, Encoder, Lit, Stats};
use crate::error::{Error, Result};
use crate::instance::Instance;
use crate::piece::Piece;
use crate::presolve::Problem;
use crate::verify::{verify, verify_symmetric};

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

/// varisat as an [`AssumptionSolver`].
pub struct VarisatAssuming {
    solver: varisat::Solver<'static>,
    num_vars: u32,
    buf: Vec<varisat::Lit>,
}

impl VarisatAssuming {
    /// A fresh varisat solver that stops when `stop` is thrown (through its proof writer, see
    /// [`StopSwitch`]).
    pub fn new(stop: &StopSwitch) -> VarisatAssuming {
        let mut solver = varisat::Solver::new();
        // DRAT proofs reject assumptions; the native format takes them.
        solver.write_proof(stop.clone(), varisat::ProofFormat::Varisat);
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

/// Settings of [`solve`].
#[derive(Clone, Debug, Default)]
pub struct CubeSettings {
    /// Worker threads (at least 1).
    pub jobs: usize,
    /// How to split.
    pub split: Split,
    /// Give up (UNKNOWN) after this long.
    pub timeout: Option<Duration>,
    /// When raised, stop and answer UNKNOWN.
    pub cancel: Option<crate::interrupt::Cancel>,
}

/// The result of [`solve`].
#[derive(Clone, Debug)]
pub struct CubeReport {
    /// The verified answer.
    pub status: Status,
    /// Size of the root encoding (each thread holds one copy).
    pub stats: Stats,
    /// Cubes handed to the solvers.
    pub cubes: usize,
    /// Cubes the solvers refuted (all of them when UNSAT).
    pub refuted: usize,
    /// What the split did (cubes refuted by presolve, presolves run).
    pub split: SplitStats,
    /// Seconds spent splitting.
    pub split_seconds: f64,
    /// Seconds spent conquering (wall clock).
    pub solve_seconds: f64,
}

/// The assumptions of a cube against the root's variables: its own pieces true, and every root
/// cell that the cube's presolve found dead false. `None` when a cube piece is not a live root
/// cell (no solution uses that cell, so the cube is empty).
fn assumptions(root: &Problem, cube: &Instance, piece: Piece) -> Result<Option<Vec<Lit>>> {
    let mut lits = Vec::new();
    for &c in &cube.placed[root.instance.placed.len()..] {
        match root.varmap.var(c) {
            Some(v) => lits.push(Lit::pos(v)),
            None => return Ok(None),
        }
    }
    let p = Problem::presolve(cube, piece)?;
    if p.unsat.is_some() {
        return Ok(None);
    }
    for (c, v) in root.varmap.cells() {
        if p.varmap.var(c).is_none() && !p.fixed.contains(&c) {
            lits.push(Lit::neg(v));
        }
    }
    Ok(Some(lits))
}

/// What a worker thread ended with.
enum Outcome {
    /// Every cube it took was refuted.
    Refuted(usize),
    /// A verified board.
    Found(Board),
    /// Stopped or failed.
    Stopped(String),
}

/// Solves `instance` by cube and conquer with the solvers of `factory`.
pub fn solve(
    instance: &Instance,
    piece: Piece,
    options: EncodeOptions,
    factory: &SolverFactory,
    settings: &CubeSettings,
) -> Result<CubeReport> {
    let t0 = Instant::now();
    let deadline = settings.timeout.map(|t| t0 + t);
    let root = Problem::presolve(instance, piece)?;
    let encoder = Encoder::with_options(&root, options);
    let stats = encoder.stats()?;
    let (cubes, split) = cube::lookahead(instance, piece, &settings.split)?;
    let split_seconds = t0.elapsed().as_secs_f64();
    let t1 = Instant::now();
    let report = |status, refuted| CubeReport {
        status,
        stats,
        cubes: cubes.len(),
        refuted,
        split,
        split_seconds,
        solve_seconds: t1.elapsed().as_secs_f64(),
    };
    if cubes.is_empty() {
        return Ok(report(Answer::Unsat, 0));
    }
    let jobs = settings.jobs.max(1).min(cubes.len());
    let switches: Vec<StopSwitch> = (0..jobs).map(|_| StopSwitch::new()).collect();
    let stop_all = || switches.iter().for_each(StopSwitch::stop);
    let next = AtomicUsize::new(0);
    let error: Mutex<Option<Error>> = Mutex::new(None);
    let (tx, rx) = mpsc::channel::<Outcome>();
    let outcomes: Vec<Outcome> = std::thread::scope(|s| {
        for stop in &switches {
            let tx = tx.clone();
            let (root, encoder, cubes, next, error) = (&root, &encoder, &cubes, &next, &error);
            s.spawn(move || {
                let outcome = (|| -> Result<Outcome> {
                    let mut solver = factory(stop);
                    encoder.encode(solver.as_mut());
                    let mut refuted = 0;
                    loop {
                        if stop.is_stopped() {
                            return Ok(Outcome::Stopped("stopped".into()));
                        }
                        let Some(cube) = cubes.get(next.fetch_add(1, Ordering::Relaxed)) else {
                            return Ok(Outcome::Refuted(refuted));
                        };
                        let Some(lits) = assumptions(root, &cube.instance, piece)? else {
                            refuted += 1;
                            continue;
                        };
                        match solver.solve_assuming(&lits) {
                            Answer::Unsat => refuted += 1,
                            Answer::Unknown(why) => return Ok(Outcome::Stopped(why)),
                            Answer::Sat(model) => {
                                let board = decode(&root.varmap, &root.fixed, &model);
                                verify(&board, &root.instance, piece)
                                    .and_then(|()| match options.symmetric {
                                        Some(g) => verify_symmetric(&board, g),
                                        None => Ok(()),
                                    })
                                    .map_err(|why| {
                                        Error::Solver(format!(
                                            "a cube solver returned a model that is not a solution: {why}"
                                        ))
                                    })?;
                                return Ok(Outcome::Found(board));
                            }
                        }
                    }
                })();
                let outcome = outcome.unwrap_or_else(|e| {
                    let why = e.to_string();
                    error.lock().expect("error slot").get_or_insert(e);
                    Outcome::Stopped(why)
                });
                let _ = tx.send(outcome);
            });
        }
        drop(tx);
        let mut outcomes = Vec::new();
        let mut stopped = false;
        while outcomes.len() < jobs {
            match rx.recv_timeout(Duration::from_millis(20)) {
                Ok(o) => {
                    if !matches!(o, Outcome::Refuted(_)) && !stopped {
                        stopped = true;
                        stop_all();
                    }
                    outcomes.push(o);
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            let late = deadline.is_some_and(|d| Instant::now() >= d);
            let cancelled = settings.cancel.as_ref().is_some_and(|c| c.is_cancelled())
                || crate::interrupt::interrupted();
            if (late || cancelled) && !stopped {
                stopped = true;
                stop_all();
            }
        }
        outcomes
    });
    if let Some(e) = error.into_inner().expect("error slot") {
        return Err(e);
    }
    let mut refuted = 0;
    let mut why = None;
    for o in outcomes {
        match o {
            Outcome::Found(board) => return Ok(report(Answer::Sat(board), refuted)),
            Outcome::Refuted(k) => refuted += k,
            Outcome::Stopped(w) => why = why.or(Some(w)),
        }
    }
    if crate::interrupt::interrupted() {
        return Err(Error::Interrupted);
    }
    match why {
        None => Ok(report(Answer::Unsat, refuted)),
        Some(_) if deadline.is_some_and(|d| Instant::now() >= d) => Ok(report(
            Answer::Unknown(format!(
                "time limit of {} s reached",
                settings.timeout.unwrap_or_default().as_secs_f64()
            )),
            refuted,
        )),
        Some(w) => Ok(report(Answer::Unknown(w), refuted)),
    }
}
