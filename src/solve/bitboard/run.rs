//! The search on one or more threads ([`search`], with its [`Options`]): on several, the tree is
//! split into subtrees ([`super::tree::split`]) that the threads take in index order.

use std::time::Duration;

use super::core::{Core, OnCore, Row, with_core};
use super::kernel::{Search, Tuning, shape};
use super::tree::{Subtree, split};
use crate::answer::Answer;
use crate::board::Board;
use crate::cpu::Isa;
use crate::error::Result;
use crate::interrupt::Cancel;
use crate::presolve::Problem;
use crate::work::Queue;

/// What [`search`] found, and how many nodes it visited.
#[derive(Clone, Debug)]
pub struct Found {
    /// A board (the fixed pieces plus the placed ones; not yet verified), UNSAT, or UNKNOWN
    /// when the time ran out or the search was cancelled.
    pub answer: Answer<Board>,
    /// Search nodes visited.
    pub nodes: u64,
}

/// How [`search`] runs, built from [`Options::default`] (no time limit, no cancel token, one
/// thread, the processor's fastest build, [`Tuning::default`]) by chained setters:
///
/// ```
/// use std::time::Duration;
/// use queens_sat::solve::bitboard::Options;
/// let o = Options::default().timeout(Duration::from_secs(5)).threads(2).deterministic(true);
/// # let _ = o;
/// ```
#[derive(Clone, Debug)]
pub struct Options {
    timeout: Option<Duration>,
    cancel: Option<Cancel>,
    threads: usize,
    deterministic: bool,
    isa: Isa,
    tuning: Tuning,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            timeout: None,
            cancel: None,
            threads: 1,
            deterministic: false,
            isa: Isa::current(),
            tuning: Tuning::default(),
        }
    }
}

impl Options {
    /// Stops with UNKNOWN after `timeout` (`None`: no limit, the default).
    pub fn timeout(self, timeout: impl Into<Option<Duration>>) -> Self {
        Options {
            timeout: timeout.into(),
            ..self
        }
    }

    /// Stops with UNKNOWN when `cancel` is raised (the search holds a clone of the token).
    pub fn cancel(self, cancel: &Cancel) -> Self {
        Options {
            cancel: Some(cancel.clone()),
            ..self
        }
    }

    /// Searches on `threads` threads (0 and 1: one, the default): the tree is split into about
    /// 64 subtrees a thread, taken in index order; the first board found stops the others.
    pub fn threads(self, threads: usize) -> Self {
        Options { threads, ..self }
    }

    /// With `deterministic`, the board found on several threads is the one of the lowest
    /// subtree index that has one (a thread stops only the subtrees after it), so the same
    /// problem gives the same board on every run. Off by default.
    pub fn deterministic(self, deterministic: bool) -> Self {
        Options {
            deterministic,
            ..self
        }
    }

    /// Runs the build `isa` of the search (the baseline build when the processor lacks its
    /// features; default: [`Isa::current`]): for tests and measurements that compare builds.
    pub fn isa(self, isa: Isa) -> Self {
        Options { isa, ..self }
    }

    /// Runs the prunings `tuning` switches on (default: [`Tuning::default`], the measured
    /// best; any tuning gives the same verdict).
    pub fn tuning(self, tuning: Tuning) -> Self {
        Options { tuning, ..self }
    }
}

/// Searches `problem` for one board, as `options` say. The problem must be presolved, with a
/// queen or an amazon, and leave a core of at most 128 open rows (whatever the side of the
/// board).
///
/// On several threads ([`Options::threads`]) the tree is split into subtrees (breadth-first
/// along the search's own branching, about 64 per thread; [`super::cubes`] cuts a cluster job's
/// cubes the same way) that the threads take in index order. The first board found stops the
/// others ([`Options::deterministic`]: those after it). The verdict never depends on the
/// threads: UNSAT only when every subtree is refuted.
///
/// ```
/// use queens_sat::{answer::Answer, instance::Instance, piece::QUEEN, presolve::Problem};
/// use queens_sat::solve::bitboard::{Options, search};
/// let p = Problem::presolve(&Instance::plain(8), QUEEN).unwrap();
/// let found = search(&p, &Options::default()).unwrap();
/// assert!(matches!(found.answer, Answer::Sat(ref b) if b.pieces.len() == 8));
/// let p3 = Problem::presolve(&Instance::plain(3), QUEEN).unwrap();
/// assert_eq!(search(&p3, &Options::default()).unwrap().answer, Answer::Unsat);
/// let p12 = Problem::presolve(&Instance::plain(12), QUEEN).unwrap();
/// let two = Options::default().threads(2).deterministic(true);
/// let a = search(&p12, &two).unwrap().answer;
/// assert!(matches!(a, Answer::Sat(_)));
/// assert_eq!(a, search(&p12, &two).unwrap().answer);
/// ```
pub fn search(problem: &Problem, options: &Options) -> Result<Found> {
    shape(problem)?;
    if problem.unsat.is_some() {
        return Ok(Found {
            answer: Answer::Unsat,
            nodes: 0,
        });
    }
    with_core(problem, options.tuning.wide, Run { problem, options })
}

/// [`search`] on a core.
struct Run<'a> {
    problem: &'a Problem,
    options: &'a Options,
}

impl OnCore for Run<'_> {
    type Out = Result<Found>;

    fn run<M: Row>(self, core: Core<M>) -> Result<Found> {
        let Run { problem, options } = self;
        let isa = options.isa.usable();
        let shape = shape(problem)?;
        let tuning = options.tuning.settled(problem);
        let (threads, deterministic) = (options.threads, options.deterministic);
        // One token: the caller's with the time limit.
        let stop = options
            .cancel
            .clone()
            .unwrap_or_default()
            .with_timeout(options.timeout);
        let root = Subtree::root(&core);
        let board = |t: &Subtree<M>, s: &Search<M>| {
            let mut pieces = problem.fixed.clone();
            pieces.extend(
                t.placed
                    .iter()
                    .chain(&s.placed)
                    .map(|&(i, bit)| core.cell(i, bit)),
            );
            Board::new(problem.n, pieces)
        };
        if threads <= 1 {
            let mut s = Search::new(shape, isa, tuning, &core, Some(&stop));
            let answer = if s.go(&root.open, &root.masks, root.cols_free) {
                Answer::Sat(board(&root, &s))
            } else if let Some(why) = s.stopped {
                Answer::Unknown(why)
            } else {
                Answer::Unsat
            };
            return Ok(Found {
                answer,
                nodes: s.nodes,
            });
        }
        let splitter = Search::new(shape, isa, tuning, &core, None);
        let subtrees = split(root, &splitter, 64 * threads);
        // A board in subtree i stops the subtrees after i (deterministic: the first subtree
        // with a board wins whatever the timing) or every other one.
        let queue = Queue::new(subtrees.iter(), &stop);
        let worker = || {
            let mut w = Worker::default();
            while let Some(t) = queue.take() {
                let mut s = Search::new(shape, isa, tuning, &core, Some(&t.stop));
                let found = s.go(&t.open, &t.masks, t.cols_free);
                w.nodes += s.nodes;
                if found {
                    if deterministic {
                        queue.stop_after(t.index);
                    } else {
                        queue.close();
                    }
                    w.boards.push((t.index, board(&t, &s)));
                } else if let Some(why) = s.stopped {
                    // The time limit, the caller, or a board at another index.
                    w.stopped.get_or_insert(why);
                }
            }
            w
        };
        let workers: Vec<Worker> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads).map(|_| scope.spawn(worker)).collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a search thread does not panic"))
                .collect()
        });
        let nodes = workers.iter().map(|w| w.nodes).sum();
        let first = workers
            .iter()
            .flat_map(|w| &w.boards)
            .min_by_key(|(i, _)| *i)
            .map(|(_, b)| b.clone());
        let answer = match first {
            Some(b) => Answer::Sat(b),
            // UNSAT only when every subtree was searched to the end: a subtree that stopped,
            // or a queue that stopped before handing every subtree out, is UNKNOWN.
            None => match workers
                .into_iter()
                .find_map(|w| w.stopped)
                .or_else(|| queue.token().stopped().map(|why| why.to_string()))
            {
                Some(why) => Answer::Unknown(why),
                None => Answer::Unsat,
            },
        };
        Ok(Found { answer, nodes })
    }
}

/// What one thread of [`search`] did.
#[derive(Default)]
struct Worker {
    nodes: u64,
    /// Boards found, with their subtree index.
    boards: Vec<(usize, Board)>,
    /// Why a subtree stopped unfinished, when one did.
    stopped: Option<String>,
}
