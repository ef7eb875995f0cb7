//! The search on one or more threads ([`search`], with its [`SearchOptions`]): on several, the tree is
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
use crate::work::{ITEM_TIMES_ENV, Queue};

/// What [`search`] found, and how many nodes it visited.
#[derive(Clone, Debug)]
pub struct SearchFound {
    /// A board (the fixed pieces plus the placed ones; not yet verified), UNSAT, or UNKNOWN
    /// when the time ran out or the search was cancelled.
    pub answer: Answer<Board>,
    #[cfg_attr(not(feature = "oracle"), allow(dead_code))] // for the tests and examples
    /// Search nodes visited.
    pub nodes: u64,
}

/// How [`search`] runs, built from [`SearchOptions::default`] (no time limit, no cancel token, one
/// thread, the processor's fastest build, [`Tuning::default`]) by chained setters:
///
/// ```
/// use std::time::Duration;
/// use queens_sat::solve::bitboard::SearchOptions;
/// let o = SearchOptions::default().timeout(Duration::from_secs(5)).threads(2).deterministic(true);
/// # let _ = o;
/// ```
#[derive(Clone, Debug)]
pub struct SearchOptions {
    timeout: Option<Duration>,
    cancel: Option<Cancel>,
    threads: usize,
    deterministic: bool,
    isa: Isa,
    tuning: Tuning,
    split: Option<usize>,
    park_after: Option<u64>,
}

/// The subtrees the split search starts from ([`SearchOptions::threads`]), whatever the threads: the
/// items any run hands out depend on the problem only (what the scheduler simulation replays).
pub const SPLIT_ITEMS: usize = 1024;

/// The nodes a subtree of the split search is searched for before it parks: what it left goes
/// first in line as subtrees of their own ([`SearchOptions::threads`]).
pub const PARK_AFTER: u64 = 1 << 16;

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            timeout: None,
            cancel: None,
            threads: 1,
            deterministic: false,
            isa: Isa::current(),
            tuning: Tuning::default(),
            split: None,
            park_after: Some(PARK_AFTER),
        }
    }
}

impl SearchOptions {
    /// Stops with UNKNOWN after `timeout` (`None`: no limit, the default).
    pub fn timeout(self, timeout: impl Into<Option<Duration>>) -> Self {
        SearchOptions {
            timeout: timeout.into(),
            ..self
        }
    }

    /// Stops with UNKNOWN when `cancel` is raised (the search holds a clone of the token).
    pub fn cancel(self, cancel: &Cancel) -> Self {
        SearchOptions {
            cancel: Some(cancel.clone()),
            ..self
        }
    }

    /// Searches on `threads` threads (0 and 1: one, the default): the tree is split into
    /// [`SPLIT_ITEMS`] subtrees, taken in order; a subtree still open after [`PARK_AFTER`]
    /// nodes parks, and what it left (the node where it stopped, the branches left above it)
    /// goes first in line, so that the threads stay busy to the end. The first board found
    /// stops the others.
    pub fn threads(self, threads: usize) -> Self {
        SearchOptions { threads, ..self }
    }

    /// With `deterministic`, the board found on several threads is the one of the first
    /// subtree that has one, in a fixed order (the split's, each parked subtree's rest in the
    /// search's order in its place; a thread stops only the subtrees after it), so the same
    /// problem gives the same board on every run. Off by default.
    pub fn deterministic(self, deterministic: bool) -> Self {
        SearchOptions {
            deterministic,
            ..self
        }
    }

    #[cfg_attr(not(feature = "oracle"), allow(dead_code))] // for the tests and examples
    /// Runs the build `isa` of the search (the baseline build when the processor lacks its
    /// features; default: [`Isa::current`]): for tests and measurements that compare builds.
    pub fn isa(self, isa: Isa) -> Self {
        SearchOptions { isa, ..self }
    }

    /// Splits into `items` subtrees (`None`: [`SPLIT_ITEMS`]) and parks a subtree after
    /// `park_after` nodes (`None`: never, the static split; the default [`PARK_AFTER`]): for the
    /// tests and the measurements (feature `oracle`). The verdict is the same whatever they are.
    #[cfg(feature = "oracle")]
    pub fn split(self, items: Option<usize>, park_after: Option<u64>) -> Self {
        SearchOptions {
            split: items,
            park_after,
            ..self
        }
    }

    /// Runs the prunings `tuning` switches on (default: [`Tuning::default`], the measured
    /// best; any tuning gives the same verdict).
    #[cfg_attr(not(feature = "oracle"), allow(dead_code))] // for the tests and examples
    pub fn tuning(self, tuning: Tuning) -> Self {
        SearchOptions { tuning, ..self }
    }
}

/// Searches `problem` for one board, as `options` say. The problem must be presolved, with a
/// queen or an amazon, and leave a core of at most 128 open rows (whatever the side of the
/// board).
///
/// On several threads ([`SearchOptions::threads`]) the tree is split into subtrees (breadth-first
/// along the search's own branching, [`SPLIT_ITEMS`] of them; [`super::cubes`] cuts a cluster
/// job's cubes the same way) that the threads take in order. A subtree searched for
/// [`PARK_AFTER`] nodes without an end parks: the node where it stopped and the branches left
/// on the path to it become subtrees of their own, first in line, so no thread is left with a
/// long subtree while the others idle. The first board found stops the others
/// ([`SearchOptions::deterministic`]: those after it). The verdict never depends on the threads:
/// UNSAT only when every subtree is refuted.
///
/// ```
/// use queens_sat::{answer::Answer, instance::Instance, piece::QUEEN, presolve::Problem};
/// use queens_sat::solve::bitboard::{SearchOptions, search};
/// let p = Problem::presolve(&Instance::plain(8), QUEEN).unwrap();
/// let found = search(&p, &SearchOptions::default()).unwrap();
/// assert!(matches!(found.answer, Answer::Sat(ref b) if b.pieces.len() == 8));
/// let p3 = Problem::presolve(&Instance::plain(3), QUEEN).unwrap();
/// assert_eq!(search(&p3, &SearchOptions::default()).unwrap().answer, Answer::Unsat);
/// let p12 = Problem::presolve(&Instance::plain(12), QUEEN).unwrap();
/// let two = SearchOptions::default().threads(2).deterministic(true);
/// let a = search(&p12, &two).unwrap().answer;
/// assert!(matches!(a, Answer::Sat(_)));
/// assert_eq!(a, search(&p12, &two).unwrap().answer);
/// ```
pub fn search(problem: &Problem, options: &SearchOptions) -> Result<SearchFound> {
    shape(problem)?;
    if problem.unsat.is_some() {
        return Ok(SearchFound {
            answer: Answer::Unsat,
            nodes: 0,
        });
    }
    with_core(problem, options.tuning.wide, Run { problem, options })
}

/// [`search`] on a core.
struct Run<'a> {
    problem: &'a Problem,
    options: &'a SearchOptions,
}

impl OnCore for Run<'_> {
    type Out = Result<SearchFound>;

    fn run<M: Row>(self, core: Core<M>) -> Result<SearchFound> {
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
            return Ok(SearchFound {
                answer,
                nodes: s.nodes,
            });
        }
        let splitter = Search::new(shape, isa, tuning, &core, None);
        let trace = std::env::var_os(ITEM_TIMES_ENV);
        let t0 = trace.is_some().then(thread_seconds);
        let want = options.split.unwrap_or(SPLIT_ITEMS);
        let subtrees = split(root, &splitter, want);
        let split_seconds = t0.map_or(0.0, |t0| thread_seconds() - t0);
        let budget = options.park_after;
        // Each subtree's key is its path of positions: its index in the split, then its
        // position among what its parent left when it parked, and so on; keys compare
        // lexicographically. A board at key i stops the subtrees after i (deterministic: the
        // first key with a board wins whatever the timing) or every other one.
        let queue = Queue::keyed(
            subtrees
                .into_iter()
                .enumerate()
                .map(|(i, t)| (vec![i as u32], t)),
            &stop,
        );
        let worker = || {
            let mut w = Worker::default();
            while let Some(t) = queue.take() {
                let t1 = trace
                    .is_some()
                    .then(|| (thread_seconds(), std::time::Instant::now()));
                let mut s = Search::new(shape, isa, tuning, &core, Some(&t.stop));
                if let Some(nodes) = budget {
                    s.park_after(nodes);
                }
                let found = s.go(&t.open, &t.masks, t.cols_free);
                w.nodes += s.visited();
                let mut left = 0;
                if found {
                    if deterministic {
                        queue.stop_after(t.index.clone());
                    } else {
                        queue.close();
                    }
                    w.boards.push((t.index.clone(), board(&t, &s)));
                } else if let Some(parked) = s.parked.take() {
                    // Its budget spent: what it left goes first in line, each under a key
                    // of its own below the item's.
                    let rest = t.resume(parked, &splitter);
                    left = rest.len();
                    let keyed = rest.into_iter().enumerate().map(|(j, c)| {
                        let mut key = t.index.clone();
                        key.push(j as u32);
                        (key, c)
                    });
                    let keyed = keyed.collect();
                    if let Some(t1) = t1 {
                        w.record(&t.index, t1, s.visited(), left);
                    }
                    t.split_keyed(keyed);
                    continue;
                } else if let Some(why) = s.stopped.take() {
                    // The time limit, the caller, or a board at another key.
                    w.stopped.get_or_insert(why);
                }
                if let Some(t1) = t1 {
                    w.record(&t.index, t1, s.visited(), left);
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
        if let Some(path) = trace {
            record_items(&path, &workers, split_seconds, want, budget);
        }
        let nodes = workers.iter().map(|w| w.nodes).sum();
        let first = workers
            .iter()
            .flat_map(|w| &w.boards)
            .min_by(|a, b| a.0.cmp(&b.0))
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
        Ok(SearchFound { answer, nodes })
    }
}

/// Appends the split search's items to the file at `path` ([`ITEM_TIMES_ENV`]), for the
/// scheduler simulation (`scripts/schedule-sim.py --split`): a `# split-items N
/// split-seconds S want W budget B` line, then per item searched `key<TAB>seconds<TAB>nodes
/// <TAB>left<TAB>wall`, keys (dot-separated paths) in lexicographic order, `seconds` the
/// thread's CPU seconds on it (the split's likewise), `left` the number of subtrees it left
/// when it parked (their keys: its own and `.0`, `.1`, ...; 0 when it ended), `wall` its wall
/// seconds.
fn record_items(
    path: &std::ffi::OsStr,
    workers: &[Worker],
    split_seconds: f64,
    want: usize,
    budget: Option<u64>,
) {
    let mut items: Vec<&Item> = workers.iter().flat_map(|w| &w.items).collect();
    items.sort_by(|a, b| a.0.cmp(&b.0));
    let mut text = format!(
        "# split-items {} split-seconds {split_seconds:.9} want {want} budget {}\n",
        items.len(),
        budget.map_or("none".to_string(), |b| b.to_string())
    );
    for (key, cpu, wall, nodes, left) in items {
        let key: Vec<String> = key.iter().map(u32::to_string).collect();
        let key = key.join(".");
        text.push_str(&format!("{key}\t{cpu:.9}\t{nodes}\t{left}\t{wall:.9}\n"));
    }
    // A measurement aid: a failed write loses only the record.
    use std::io::Write as _;
    if let Ok(mut file) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
    {
        let _ = file.write_all(text.as_bytes());
    }
}

/// The CPU seconds of the calling thread so far (the item times of [`ITEM_TIMES_ENV`]: on a
/// loaded machine a thread's wall time counts the time others ran; its CPU time does not).
fn thread_seconds() -> f64 {
    #[cfg(unix)]
    {
        let mut t = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: clock_gettime only writes the struct it is given.
        if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0 {
            return t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9;
        }
    }
    // Elsewhere (or if the clock fails) the wall time since the first call.
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START
        .get_or_init(std::time::Instant::now)
        .elapsed()
        .as_secs_f64()
}

/// What one thread of [`search`] did.
#[derive(Default)]
struct Worker {
    nodes: u64,
    /// Boards found, with their subtree's key.
    boards: Vec<(Vec<u32>, Board)>,
    /// Each item searched, when recorded ([`ITEM_TIMES_ENV`]): its key, seconds, nodes, and
    /// how many subtrees it left when it parked.
    items: Vec<Item>,
    /// Why a subtree stopped unfinished, when one did.
    stopped: Option<String>,
}

/// One item of the split search's record ([`ITEM_TIMES_ENV`]): its key, CPU and wall seconds,
/// nodes, and how many subtrees it left when it parked.
type Item = (Vec<u32>, f64, f64, u64, usize);

impl Worker {
    /// Records the item `key`, begun at `t1` (thread CPU seconds, wall clock).
    fn record(&mut self, key: &[u32], t1: (f64, std::time::Instant), nodes: u64, left: usize) {
        let (cpu, wall) = (thread_seconds() - t1.0, t1.1.elapsed().as_secs_f64());
        self.items.push((key.to_vec(), cpu, wall, nodes, left));
    }
}
