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
//! When the instance turns out hard (the first split's cubes refuted so far took
//! [`Split::resplit_after_ms`] each on average), every cube of the first split that no worker has
//! started yet is split again by look-ahead before it is solved (into up to
//! [`Split::resplit_cubes`] cubes): smaller cubes cut the total refutation work on the hardest
//! excluded-diagonal instances, while easy instances never pay for a deeper split.
//!
//! The solver is behind the small [`AssumptionSolver`] trait, so another incremental backend
//! plugs in with one implementation and one factory ([`SolverFactory`]).

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, mpsc};
use std::time::{Duration, Instant};

use varisat::ExtendFormula;

use super::varisat_backend::StopSwitch;
use crate::answer::{Answer, Model, Status};
use crate::board::Board;
use crate::cube::{self, Cube, Split, SplitStats};
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
    /// Cubes of the first split that were split again ([`Split::resplit_after_ms`]; the
    /// certified solve does not re-split).
    pub resplit: usize,
    /// What the split did (cubes refuted by presolve, presolves run).
    pub split: SplitStats,
    /// Seconds spent splitting.
    pub split_seconds: f64,
    /// Seconds spent conquering (wall clock).
    pub solve_seconds: f64,
}

/// Checks a board found in a cube against the whole instance (not only the cube), and for the
/// symmetry that `options` asks for: a board that fails is a solver fault, never an answer.
pub(crate) fn check_cube_board(
    board: &Board,
    instance: &Instance,
    piece: Piece,
    options: EncodeOptions,
) -> Result<()> {
    verify(board, instance, piece)
        .and_then(|()| {
            options
                .symmetric
                .map_or(Ok(()), |g| verify_symmetric(board, g))
        })
        .map_err(|why| Error::Solver(format!("a cube's board is not a solution: {why}")))
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

/// What conquering one cube gave.
enum Step {
    /// No solution in the cube.
    Refuted,
    /// The cube was split again into these cubes.
    Split(Vec<Cube>),
    /// A verified board.
    Found(Board),
    /// Stopped or failed.
    Stopped(String),
}

/// Solves one cube on `solver` (holding the root encoding). With `resplit` set, the cube is first
/// split again by look-ahead into up to `split.resplit_cubes` cubes, which go back to the queue.
fn conquer(
    solver: &mut dyn AssumptionSolver,
    root: &Problem,
    cube: &Cube,
    piece: Piece,
    options: EncodeOptions,
    split: &Split,
    resplit: bool,
) -> Result<Step> {
    if resplit {
        let again = Split {
            max_cubes: split.resplit_cubes.max(2),
            jobs: 1,
            ..split.clone()
        };
        let (children, _) = cube::lookahead(&cube.instance, piece, &again)?;
        if children.is_empty() {
            return Ok(Step::Refuted);
        }
        if children.len() > 1 {
            return Ok(Step::Split(children));
        }
    }
    let Some(lits) = assumptions(root, &cube.instance, piece)? else {
        return Ok(Step::Refuted);
    };
    Ok(match solver.solve_assuming(&lits) {
        Answer::Unsat => Step::Refuted,
        Answer::Unknown(why) => Step::Stopped(why),
        Answer::Sat(model) => {
            let board = decode(&root.varmap, &root.fixed, &model);
            check_cube_board(&board, &root.instance, piece, options)?;
            Step::Found(board)
        }
    })
}

/// The cubes still to conquer, shared by the workers (each with whether it came from the first
/// split): a worker takes one, and may put back the cubes it split it into. The work is over
/// when the queue is empty and no worker holds a cube.
struct Queue {
    state: Mutex<QueueState>,
    changed: Condvar,
}

struct QueueState {
    cubes: VecDeque<(Cube, bool)>,
    busy: usize,
    closed: bool,
}

impl Queue {
    fn new(cubes: Vec<Cube>) -> Queue {
        Queue {
            state: Mutex::new(QueueState {
                cubes: cubes.into_iter().map(|c| (c, true)).collect(),
                busy: 0,
                closed: false,
            }),
            changed: Condvar::new(),
        }
    }

    /// The next cube, or `None` when every cube is done, the queue closed or `stop` thrown.
    fn take(&self, stop: &StopSwitch) -> Option<(Cube, bool)> {
        let mut st = self.state.lock().expect("cube queue");
        loop {
            if st.closed || stop.is_stopped() {
                return None;
            }
            if let Some(c) = st.cubes.pop_front() {
                st.busy += 1;
                return Some(c);
            }
            if st.busy == 0 {
                return None;
            }
            st = self
                .changed
                .wait_timeout(st, Duration::from_millis(20))
                .expect("cube queue")
                .0;
        }
    }

    /// Puts `cubes` first in line (depth first: a split cube's children come next).
    fn push_front(&self, cubes: Vec<Cube>) {
        let mut st = self.state.lock().expect("cube queue");
        for c in cubes.into_iter().rev() {
            st.cubes.push_front((c, false));
        }
    }

    /// The cube taken last by a worker is done (refuted or split).
    fn finish(&self) {
        let mut st = self.state.lock().expect("cube queue");
        st.busy -= 1;
        drop(st);
        self.changed.notify_all();
    }

    /// Ends the work for every worker (an answer or a failure).
    fn close(&self) {
        self.state.lock().expect("cube queue").closed = true;
        self.changed.notify_all();
    }
}

/// The solve times of the first split's cubes refuted so far (microseconds, count).
#[derive(Default)]
struct CubeCost {
    micros: AtomicU64,
    count: AtomicU64,
}

impl CubeCost {
    fn add(&self, d: Duration) {
        self.micros
            .fetch_add(d.as_micros() as u64, Ordering::Relaxed);
        self.count.fetch_add(1, Ordering::Relaxed);
    }

    /// Whether the cubes took at least `after_ms` milliseconds each on average (two or more refuted).
    fn is_hard(&self, after_ms: Option<u64>) -> bool {
        let Some(after_ms) = after_ms else {
            return false;
        };
        let n = self.count.load(Ordering::Relaxed);
        n >= 2 && self.micros.load(Ordering::Relaxed) >= after_ms * 1000 * n
    }
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
    let report = |status, refuted, handed: usize, resplit: usize| CubeReport {
        status,
        resplit,
        stats,
        cubes: handed,
        refuted,
        split,
        split_seconds,
        solve_seconds: t1.elapsed().as_secs_f64(),
    };
    if cubes.is_empty() {
        return Ok(report(Answer::Unsat, 0, 0, 0));
    }
    let jobs = settings.jobs.max(1).min(cubes.len());
    let switches: Vec<StopSwitch> = (0..jobs).map(|_| StopSwitch::new()).collect();
    let stop_all = || switches.iter().for_each(StopSwitch::stop);
    let handed = AtomicUsize::new(cubes.len());
    let queue = Queue::new(cubes);
    let cost = CubeCost::default();
    let resplit_count = AtomicUsize::new(0);
    let error: Mutex<Option<Error>> = Mutex::new(None);
    let (tx, rx) = mpsc::channel::<Outcome>();
    let outcomes: Vec<Outcome> = std::thread::scope(|s| {
        for stop in &switches {
            let tx = tx.clone();
            let (root, encoder, queue, handed, error, cost, resplit_count) = (
                &root,
                &encoder,
                &queue,
                &handed,
                &error,
                &cost,
                &resplit_count,
            );
            s.spawn(move || {
                let outcome = (|| -> Result<Outcome> {
                    let mut solver = factory(stop);
                    encoder.encode(solver.as_mut());
                    let mut refuted = 0;
                    loop {
                        let Some((cube, first)) = queue.take(stop) else {
                            return Ok(if stop.is_stopped() {
                                Outcome::Stopped("stopped".into())
                            } else {
                                Outcome::Refuted(refuted)
                            });
                        };
                        let resplit = first && cost.is_hard(settings.split.resplit_after_ms);
                        if resplit {
                            resplit_count.fetch_add(1, Ordering::Relaxed);
                        }
                        let t = Instant::now();
                        let step = conquer(
                            solver.as_mut(),
                            root,
                            &cube,
                            piece,
                            options,
                            &settings.split,
                            resplit,
                        );
                        if first && !resplit && matches!(step, Ok(Step::Refuted)) {
                            cost.add(t.elapsed());
                        }
                        let done = match step {
                            Err(e) => Err(e),
                            Ok(Step::Refuted) => {
                                refuted += 1;
                                Ok(None)
                            }
                            Ok(Step::Split(children)) => {
                                // The cube is replaced by its children (at least two).
                                handed.fetch_add(children.len() - 1, Ordering::Relaxed);
                                queue.push_front(children);
                                Ok(None)
                            }
                            Ok(Step::Found(board)) => Ok(Some(Outcome::Found(board))),
                            Ok(Step::Stopped(why)) => Ok(Some(Outcome::Stopped(why))),
                        };
                        queue.finish();
                        if let Some(outcome) = done? {
                            return Ok(outcome);
                        }
                    }
                })();
                let outcome = outcome.unwrap_or_else(|e| {
                    let why = e.to_string();
                    error.lock().expect("error slot").get_or_insert(e);
                    Outcome::Stopped(why)
                });
                if !matches!(outcome, Outcome::Refuted(_)) {
                    queue.close();
                }
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
            let cancelled = settings.cancel.as_ref().is_some_and(|c| c.is_cancelled());
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
    let handed = handed.into_inner();
    let resplit = resplit_count.into_inner();
    let mut refuted = 0;
    let mut why = None;
    for o in outcomes {
        match o {
            Outcome::Found(board) => {
                return Ok(report(Answer::Sat(board), refuted, handed, resplit));
            }
            Outcome::Refuted(k) => refuted += k,
            Outcome::Stopped(w) => why = why.or(Some(w)),
        }
    }
    if settings.cancel.as_ref().is_some_and(|c| c.is_cancelled()) {
        return Err(Error::Interrupted);
    }
    match why {
        None => Ok(report(Answer::Unsat, refuted, handed, resplit)),
        Some(_) if deadline.is_some_and(|d| Instant::now() >= d) => Ok(report(
            Answer::Unknown(format!(
                "time limit of {} s reached",
                settings.timeout.unwrap_or_default().as_secs_f64()
            )),
            refuted,
            handed,
            resplit,
        )),
        Some(w) => Ok(report(Answer::Unknown(w), refuted, handed, resplit)),
    }
}

/// What [`solve_certified`] established besides the answer.
#[derive(Clone, Debug)]
pub struct CertifiedReport {
    /// The answer, cubes, split and timings (as [`solve`]).
    pub report: CubeReport,
    /// For UNSAT: who checked the cube refutations and the coverage, and the proof steps checked.
    pub certificate: Option<crate::certify::Certificate>,
}

/// Cube and conquer with checked refutations (`solve --cubes --certify`): each cube is solved
/// on its own by `backend` with `--certify` (varisat's self-checking proof, or CaDiCaL's DRAT
/// proof replayed by dratify), and UNSAT also needs the cubes shown to cover the search space:
/// the root encoding plus one clause per cube that excludes it (the negation of its pieces) must
/// be refuted too, by varisat with its self-checking proof. Cubes that the split dropped with
/// the matching filter are absent from that formula, so the coverage proof refutes them as well.
/// Presolve is trusted as in `solve --certify` (a presolve UNSAT is re-proved on the full
/// encoding).
pub fn solve_certified(
    instance: &Instance,
    piece: Piece,
    options: EncodeOptions,
    backend: &super::Backend,
    settings: &CubeSettings,
) -> Result<CertifiedReport> {
    let t0 = Instant::now();
    let deadline = settings.timeout.map(|t| t0 + t);
    let left = || {
        deadline.map(|d| {
            d.saturating_duration_since(Instant::now())
                .max(Duration::from_millis(1))
        })
    };
    let cancel = settings.cancel.clone().unwrap_or_default();
    let root = Problem::presolve(instance, piece)?;
    let encoder = Encoder::with_options(&root, options);
    let stats = encoder.stats()?;
    let certified = |r: &super::SolveReport| -> Result<crate::certify::Certificate> {
        r.certificate.clone().ok_or_else(|| {
            Error::Solver(
                "an UNSAT answer under --certify came without a checked refutation".into(),
            )
        })
    };
    if root.unsat.is_some() {
        let r = super::run::solve(
            &root,
            options,
            backend,
            super::SolveSettings {
                timeout: settings.timeout,
                certify: true,
                cancel: Some(cancel.clone()),
                walk: None,
            },
        )?;
        let certificate = match r.status {
            Answer::Unsat => Some(certified(&r)?),
            _ => None,
        };
        return Ok(CertifiedReport {
            report: CubeReport {
                status: r.status,
                stats,
                cubes: 0,
                refuted: 0,
                resplit: 0,
                split: SplitStats::default(),
                split_seconds: 0.0,
                solve_seconds: t0.elapsed().as_secs_f64(),
            },
            certificate,
        });
    }
    let (cubes, split) = cube::lookahead(instance, piece, &settings.split)?;
    let split_seconds = t0.elapsed().as_secs_f64();
    let t1 = Instant::now();
    let found = cancel.child();
    // Per cube: a board, a checked refutation (its checker and steps), or why not.
    enum Done {
        Board(Board),
        Refuted(crate::certify::Certificate),
        Open(String),
    }
    let results = crate::work::run_all(&cubes, settings.jobs.max(1), &cancel, &|_, _| {}, |c| {
        if found.is_cancelled() {
            return Ok(Done::Open("stopped: another cube found a board".into()));
        }
        let p = Problem::presolve(&c.instance, piece)?;
        let r = match super::run::solve(
            &p,
            options,
            backend,
            super::SolveSettings {
                timeout: left(),
                certify: true,
                cancel: Some(found.clone()),
                walk: None,
            },
        ) {
            // Stopped because another cube found a board (not by the caller).
            Err(Error::Interrupted) if !cancel.is_cancelled() => {
                return Ok(Done::Open("stopped: another cube found a board".into()));
            }
            r => r?,
        };
        Ok(match r.status {
            Answer::Sat(board) => {
                check_cube_board(&board, &root.instance, piece, options)?;
                found.cancel();
                Done::Board(board)
            }
            Answer::Unsat => Done::Refuted(certified(&r)?),
            Answer::Unknown(why) => Done::Open(why),
        })
    })?;
    let mut steps = 0;
    let mut checkers: Vec<String> = Vec::new();
    let mut open = None;
    let mut refuted = 0;
    for d in results {
        match d {
            Done::Board(b) => {
                return Ok(CertifiedReport {
                    report: CubeReport {
                        status: Answer::Sat(b),
                        stats,
                        cubes: cubes.len(),
                        refuted,
                        resplit: 0,
                        split,
                        split_seconds,
                        solve_seconds: t1.elapsed().as_secs_f64(),
                    },
                    certificate: None,
                });
            }
            Done::Refuted(c) => {
                refuted += 1;
                steps += c.steps;
                if !checkers.contains(&c.checker) {
                    checkers.push(c.checker);
                }
            }
            Done::Open(why) => open = open.or(Some(why)),
        }
    }
    let report = |status| CubeReport {
        status,
        stats,
        cubes: cubes.len(),
        refuted,
        resplit: 0,
        split,
        split_seconds,
        solve_seconds: t1.elapsed().as_secs_f64(),
    };
    if let Some(why) = open {
        return Ok(CertifiedReport {
            report: report(Answer::Unknown(why)),
            certificate: None,
        });
    }
    // Coverage: root encoding + "not this cube" for every cube must be UNSAT.
    let stop = StopSwitch::new();
    let (mut solver, vars) =
        super::varisat_backend::load_stoppable(&encoder, true, Some(stop.clone()));
    for c in &cubes {
        let clause: Option<Vec<varisat::Lit>> = c.instance.placed[root.instance.placed.len()..]
            .iter()
            .map(|&cell| {
                root.varmap
                    .var(cell)
                    .map(|v| varisat::Lit::from_dimacs(-(v as isize)))
            })
            .collect();
        // A cube with a cell that is not live at the root is empty: it covers nothing.
        if let Some(clause) = clause {
            solver.add_clause(&clause);
        }
    }
    let watchdog = {
        let stop = stop.clone();
        let cancel = cancel.clone();
        std::thread::spawn(move || {
            while !stop.is_stopped() {
                if cancel.is_cancelled() || deadline.is_some_and(|d| Instant::now() >= d) {
                    stop.stop();
                    break;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        })
    };
    let coverage = super::varisat_backend::run(solver, vars);
    stop.stop();
    let _ = watchdog.join();
    cancel.check()?;
    match coverage {
        Answer::Unsat => {
            checkers.push("cube coverage: varisat self-checking proof".into());
            Ok(CertifiedReport {
                report: report(Answer::Unsat),
                certificate: Some(crate::certify::Certificate {
                    checker: format!("{} cubes refuted ({})", refuted, checkers.join("; ")),
                    steps,
                }),
            })
        }
        Answer::Sat(_) => Err(Error::Solver(
            "the cubes do not cover the search space: a model of the root encoding avoids every cube"
                .into(),
        )),
        Answer::Unknown(why) => Ok(CertifiedReport {
            report: report(Answer::Unknown(format!("coverage check: {why}"))),
            certificate: None,
        }),
    }
}
