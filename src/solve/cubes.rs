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

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::SolveReport;
use super::traits::{AssumptionSolver, SolverFactory, stopped_why};
use crate::answer::Answer;
use crate::board::Board;
use crate::cube::{self, Cube, Split, SplitStats};
use crate::decode::decode;
use crate::encode::{EncodeOptions, Encoder, Lit};
use crate::error::{Error, Result};
use crate::instance::Instance;
use crate::piece::Piece;
use crate::presolve::Problem;
use crate::work::Queue;

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

/// How a cube-and-conquer solve went ([`SolveReport::cubes`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CubeStats {
    /// Cubes handed to the solvers.
    pub cubes: usize,
    /// Cubes the solvers refuted (all of them when UNSAT).
    pub refuted: usize,
    /// Cubes of the first split that were split again ([`Split::resplit_after_ms`]; the
    /// certified solve does not re-split).
    pub resplit: usize,
    /// What the split did (cubes refuted by presolve, presolves run).
    pub split: SplitStats,
    /// Worker threads.
    pub jobs: usize,
}

impl CubeStats {
    /// The `solver` text of a cube-and-conquer report: who conquered, and how the cubes went.
    pub fn describe(&self, backend: &str, certified: bool) -> String {
        if certified {
            format!(
                "{backend} cubes, certified ({} cubes, {} refuted by presolve in the split, {} jobs)",
                self.cubes, self.split.refuted, self.jobs
            )
        } else {
            format!(
                "{backend} cubes ({} cubes, {} of the first split split again, {} refuted by \
                 presolve in the split, {} jobs)",
                self.cubes, self.resplit, self.split.refuted, self.jobs
            )
        }
    }
}

/// Checks a board found in a cube against the whole instance (not only the cube), and for what
/// `options` demand ([`EncodeOptions::accept`]): a board that fails is a solver fault, never an
/// answer.
pub(crate) fn check_cube_board(
    board: &Board,
    instance: &Instance,
    piece: Piece,
    options: EncodeOptions,
) -> Result<()> {
    options
        .accept(board, instance, piece)
        .map_err(|why| Error::WrongAnswer(format!("a cube's board is not a solution: {why}")))
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
    // `fixed` is sorted: O(core log pieces), not O(core x pieces) on a completion board.
    for (c, v) in root.varmap.cells() {
        if p.varmap.var(c).is_none() && p.fixed.binary_search(&c).is_err() {
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
        let (children, _) = cube::lookahead(&Problem::presolve(&cube.instance, piece)?, &again)?;
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

/// Solves the presolved `root` by cube and conquer with the solvers of `factory`. The report's
/// `encode_seconds` is the time spent splitting; its `solver` says `cubes` (the caller names the
/// backend, see [`CubeStats::describe`]).
pub fn solve(
    root: &Problem,
    options: EncodeOptions,
    factory: &SolverFactory,
    settings: &CubeSettings,
) -> Result<SolveReport> {
    let t0 = Instant::now();
    // One token for the whole run, split included: the caller's, with the time limit. Every
    // worker's solver watches the queue's child of it, which the first answer (or failure)
    // raises.
    let stop = settings
        .cancel
        .clone()
        .unwrap_or_default()
        .with_timeout(settings.timeout);
    let piece = root.piece;
    let encoder = Encoder::with_options(root, options);
    let stats = encoder.stats()?;
    // The split stops at the time limit too (its own token, with the deadline).
    let splitting = Split {
        cancel: settings.split.cancel.with_timeout(
            stop.deadline()
                .map(|d| d.saturating_duration_since(Instant::now())),
        ),
        ..settings.split.clone()
    };
    let (cubes, split) = cube::lookahead(root, &splitting)?;
    let split_seconds = t0.elapsed().as_secs_f64();
    let t1 = Instant::now();
    let jobs = settings.jobs.max(1).min(cubes.len().max(1));
    let report = |status, refuted, handed: usize, resplit: usize| SolveReport {
        encode_seconds: split_seconds,
        solve_seconds: t1.elapsed().as_secs_f64(),
        cubes: Some(CubeStats {
            cubes: handed,
            refuted,
            resplit,
            split,
            jobs,
        }),
        ..SolveReport::new(status, stats, "cubes", options.amo)
    };
    if cubes.is_empty() {
        return Ok(SolveReport {
            reason: root.unsat.clone(),
            ..report(Answer::Unsat, 0, 0, 0)
        });
    }
    let handed = AtomicUsize::new(cubes.len());
    let queue = Queue::new(cubes.into_iter().map(|c| (c, true)), &stop);
    let cost = CubeCost::default();
    let resplit_count = AtomicUsize::new(0);
    let error: Mutex<Option<Error>> = Mutex::new(None);
    let outcomes: Vec<Outcome> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..jobs)
            .map(|_| {
                let (encoder, queue, handed, error, cost, resplit_count) =
                    (&encoder, &queue, &handed, &error, &cost, &resplit_count);
                s.spawn(move || {
                    let outcome = (|| -> Result<Outcome> {
                        let mut solver = factory(queue.token());
                        encoder.encode(solver.as_mut());
                        let mut refuted = 0;
                        loop {
                            let Some(taken) = queue.take() else {
                                return Ok(match queue.token().stopped() {
                                    Some(why) => Outcome::Stopped(why.to_string()),
                                    None => Outcome::Refuted(refuted),
                                });
                            };
                            let (cube, first) = &*taken;
                            let resplit = *first && cost.is_hard(settings.split.resplit_after_ms);
                            if resplit {
                                resplit_count.fetch_add(1, Ordering::Relaxed);
                            }
                            let t = Instant::now();
                            let step = conquer(
                                solver.as_mut(),
                                root,
                                cube,
                                piece,
                                options,
                                &settings.split,
                                resplit,
                            );
                            if *first && !resplit && matches!(step, Ok(Step::Refuted)) {
                                cost.add(t.elapsed());
                            }
                            match step? {
                                Step::Refuted => refuted += 1,
                                Step::Split(children) => {
                                    // The cube is replaced by its children (at least two).
                                    handed.fetch_add(children.len() - 1, Ordering::Relaxed);
                                    taken.split(children.into_iter().map(|c| (c, false)).collect());
                                }
                                Step::Found(board) => return Ok(Outcome::Found(board)),
                                Step::Stopped(why) => return Ok(Outcome::Stopped(why)),
                            }
                        }
                    })();
                    let outcome = outcome.unwrap_or_else(|e| {
                        let why = e.to_string();
                        error.lock().expect("error slot").get_or_insert(e);
                        Outcome::Stopped(why)
                    });
                    // The first answer or failure stops everyone.
                    if !matches!(outcome, Outcome::Refuted(_)) {
                        queue.close();
                    }
                    outcome
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("a cube worker does not panic"))
            .collect()
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
    stop.check()?;
    match why {
        None => Ok(report(Answer::Unsat, refuted, handed, resplit)),
        // The time limit, in the caller's words; else the solver's own reason.
        Some(w) => Ok(report(
            Answer::Unknown(stopped_why(&stop, &w)),
            refuted,
            handed,
            resplit,
        )),
    }
}
