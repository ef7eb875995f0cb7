//! The one work queue: items shared out to `jobs` threads in order, results kept in item order,
//! the first error (or a raised cancel token) stops the hand-out. [`run`] serves the counting
//! engines' cubes and tasks, the suite's files and the benchmark's runs; [`Queue`], the same
//! queue with items that split and a first answer that stops everyone, serves cube-and-conquer
//! and the bitboard search's split.
//!
//! Why not rayon: every user needs three things rayon's iterators do not give directly: stop at
//! the first error *and* keep what finished before it (an interrupted suite records its
//! progress and resumes), poll a cancel token between items, and report progress in completion
//! order. With those, the queue is forty lines over `std::thread::scope`, and items are large
//! (a cube count, a solver run, a file), so work stealing would buy nothing.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};

use crate::error::{Error, Result};
use crate::interrupt::Cancel;

/// Threads for `jobs` (`--jobs`, `jobs=`): at least 1, `None` is every core; 0 is a typed
/// error, refused the same way by the command line, the library's solver and Python.
pub fn threads(jobs: Option<usize>) -> Result<usize> {
    match jobs {
        Some(0) => Err(crate::error::BadOption::invalid(
            crate::error::Opt::Jobs,
            0,
            "must be a positive number of threads",
        )),
        Some(j) => Ok(j),
        None => Ok(crate::cpu::cores()),
    }
}

/// The environment variable naming a file to which every [`run`] appends its items' seconds
/// (a `# items N` line, then `index<TAB>seconds<TAB>cpu seconds` per item run, in index order:
/// wall-clock seconds, and the running thread's CPU seconds, which waiting for a busy core
/// does not inflate), and the split bitboard search its subtrees (`# split-items N ...`, with
/// the subtrees each parked one left; `solve::bitboard::search`): the input of the scheduler
/// simulation, `scripts/schedule-sim.py` (issue 55 §2).
pub const ITEM_TIMES_ENV: &str = "QUEENS_SAT_ITEM_TIMES";

/// Runs `f` over `items` on `jobs` threads. Results come back in item order, `None` for items
/// not run. The first error (by item order among those that failed), or [`Error::Interrupted`]
/// once `cancel` is raised, stops the hand-out of further items and is returned with what
/// finished. `progress(done, total)` is called after each finished item, one call at a time
/// with `done` increasing by one each call.
pub fn run<T: Sync, R: Send>(
    items: &[T],
    jobs: usize,
    cancel: &Cancel,
    progress: &(dyn Fn(usize, usize) + Sync),
    f: impl Fn(&T) -> Result<R> + Sync,
) -> (Vec<Option<R>>, Option<Error>) {
    // Each item's seconds, for the scheduler simulation (`scripts/schedule-sim.py`), when asked.
    let trace = std::env::var_os(ITEM_TIMES_ENV).map(|path| (path, Mutex::new(Vec::new())));
    let f = |item: &T, i: usize| {
        // Untraced (the normal case), the item runs with no clock read around it.
        let Some((_, times)) = &trace else {
            return f(item);
        };
        let (t0, c0) = (std::time::Instant::now(), thread_cpu_seconds());
        let r = f(item);
        let secs = t0.elapsed().as_secs_f64();
        let cpu = thread_cpu_seconds() - c0;
        times
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push((i, secs, cpu));
        r
    };
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let reporting = Mutex::new(());
    let failed = AtomicBool::new(false);
    let results: Mutex<Vec<Option<R>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    let first_error: Mutex<Option<(usize, Error)>> = Mutex::new(None);
    let fail = |i: usize, e: Error| {
        failed.store(true, Ordering::Relaxed);
        let mut slot = first_error.lock().unwrap_or_else(|p| p.into_inner());
        if slot.as_ref().is_none_or(|(j, _)| i < *j) {
            *slot = Some((i, e));
        }
    };
    std::thread::scope(|scope| {
        for _ in 0..jobs.min(items.len()).max(1) {
            scope.spawn(|| {
                while !failed.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= items.len() {
                        return;
                    }
                    if let Err(e) = cancel.check() {
                        fail(i, e);
                        return;
                    }
                    match f(&items[i], i) {
                        Ok(r) => {
                            results.lock().unwrap_or_else(|p| p.into_inner())[i] = Some(r);
                            // One report at a time, in order: `done` never goes back.
                            let _order = reporting.lock().unwrap_or_else(|p| p.into_inner());
                            progress(done.fetch_add(1, Ordering::Relaxed) + 1, items.len());
                        }
                        Err(e) => {
                            fail(i, e);
                            return;
                        }
                    }
                }
            });
        }
    });
    if let Some((path, times)) = trace {
        let mut times = times.into_inner().unwrap_or_else(|p| p.into_inner());
        times.sort_by_key(|&(i, _, _)| i);
        let text: String = times
            .iter()
            .map(|(i, s, c)| format!("{i}\t{s:.9}\t{c:.9}\n"))
            .collect();
        // A measurement aid: a failed write loses only the trace.
        use std::io::Write as _;
        if let Ok(mut file) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
        {
            let _ = writeln!(file, "# items {}", items.len());
            let _ = file.write_all(text.as_bytes());
        }
    }
    let error = first_error
        .into_inner()
        .unwrap_or_else(|p| p.into_inner())
        .map(|(_, e)| e);
    (
        results.into_inner().unwrap_or_else(|p| p.into_inner()),
        error,
    )
}

/// The CPU seconds the calling thread has used (`CLOCK_THREAD_CPUTIME_ID`), for the item trace;
/// 0 where the clock cannot be read.
pub(crate) fn thread_cpu_seconds() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime only writes the struct it is given.
    if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } != 0 {
        return 0.0;
    }
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

/// [`run`] for callers that need every result: the first error, or all results in item order.
pub fn run_all<T: Sync, R: Send>(
    items: &[T],
    jobs: usize,
    cancel: &Cancel,
    progress: &(dyn Fn(usize, usize) + Sync),
    f: impl Fn(&T) -> Result<R> + Sync,
) -> Result<Vec<R>> {
    let (results, error) = run(items, jobs, cancel, progress, f);
    if let Some(e) = error {
        return Err(e);
    }
    Ok(results
        .into_iter()
        .map(|r| r.expect("every item ran"))
        .collect())
}

/// Work items shared out to worker threads, for work whose items split and whose first answer
/// ends the run (cube-and-conquer, the bitboard search's subtrees).
///
/// - Items are handed out in order, each with its key ([`Taken::index`]: by default its index
///   in the initial list, or one the caller gives, [`Queue::keyed`]) and a stop token of its
///   own ([`Taken::stop`]), a child of the queue's token ([`Queue::token`]), itself a child of
///   the token the queue was made with (a time limit, Ctrl-C, a lost race).
/// - A taken item may be replaced by the items it splits into ([`Taken::split`], keeping its
///   key, or [`Taken::split_keyed`], with keys of their own): they go to the front of the line
///   (depth first).
/// - [`Queue::take`] waits while the line is empty and another worker still holds an item (it
///   may split); the work is over when the line is empty and no item is held, or the queue's
///   token stops.
/// - The first answer stops everyone ([`Queue::close`]), or, for a deterministic answer, only
///   the items after its key ([`Queue::stop_after`]): the smallest key with an answer then
///   wins whatever the timing.
pub struct Queue<T, K = usize> {
    state: Mutex<Line<T, K>>,
    changed: Condvar,
    token: Cancel,
}

/// The items waiting and those held by workers.
struct Line<T, K> {
    waiting: VecDeque<(K, T)>,
    /// The key and token of each item a worker holds.
    held: Vec<(K, Cancel)>,
    /// Items with a larger key are dropped ([`Queue::stop_after`]).
    cutoff: Option<K>,
}

impl<T> Queue<T> {
    /// A queue of `items` (indexed from 0) that stops when `stop` does.
    pub fn new(items: impl IntoIterator<Item = T>, stop: &Cancel) -> Queue<T> {
        Queue::keyed(items.into_iter().enumerate(), stop)
    }
}

impl<T, K: Ord + Clone> Queue<T, K> {
    /// A queue of `items`, each with its key, handed out in the order given, that stops when
    /// `stop` does.
    pub fn keyed(items: impl IntoIterator<Item = (K, T)>, stop: &Cancel) -> Queue<T, K> {
        Queue {
            state: Mutex::new(Line {
                waiting: items.into_iter().collect(),
                held: Vec::new(),
                cutoff: None,
            }),
            changed: Condvar::new(),
            token: stop.child(),
        }
    }

    fn line(&self) -> MutexGuard<'_, Line<T, K>> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The queue's token: stopped by [`Queue::close`] or by the token the queue was made with.
    /// A worker's solver that lives across items watches this one.
    pub fn token(&self) -> &Cancel {
        &self.token
    }

    /// The next item, or `None` once the work is over: nothing waits and nothing is held, or
    /// the queue's token stopped. In the second case items may be left unhandled, so a worker
    /// that gets `None` must ask [`Cancel::stopped`] of [`Queue::token`] before it reports that
    /// everything was done.
    pub fn take(&self) -> Option<Taken<'_, T, K>> {
        let mut line = self.line();
        loop {
            if self.token.is_stopped() {
                return None;
            }
            if let Some((index, item)) = line.waiting.pop_front() {
                if line.cutoff.as_ref().is_some_and(|c| index > *c) {
                    continue;
                }
                let stop = self.token.child();
                line.held.push((index.clone(), stop.clone()));
                return Some(Taken {
                    index,
                    item,
                    children: None,
                    stop,
                    queue: self,
                });
            }
            if line.held.is_empty() {
                return None;
            }
            // Woken when a held item is done (it may have split) or the queue closes. A raised
            // token (a signal cannot notify) is seen by the holders, whose items then end.
            line = self.changed.wait(line).unwrap_or_else(|p| p.into_inner());
        }
    }

    /// Ends the work for every worker: the queue's token is raised, held items stop.
    pub fn close(&self) {
        self.token.cancel();
        let _line = self.line();
        self.changed.notify_all();
    }

    /// An answer at `index`: items after it are not handed out, and held ones stop; items at or
    /// before it go on (one of them may hold an answer at a smaller key).
    pub fn stop_after(&self, index: K) {
        let mut line = self.line();
        let cutoff = match line.cutoff.take() {
            Some(c) if c < index => c,
            _ => index,
        };
        for (i, stop) in &line.held {
            if *i > cutoff {
                stop.cancel();
            }
        }
        line.cutoff = Some(cutoff);
        self.changed.notify_all();
    }

    fn done(&self, stop: &Cancel, children: Option<Vec<(K, T)>>) {
        let mut line = self.line();
        if let Some(at) = line.held.iter().position(|(_, s)| s == stop) {
            line.held.swap_remove(at);
        }
        if let Some(children) = children {
            for c in children.into_iter().rev() {
                line.waiting.push_front(c);
            }
        }
        drop(line);
        self.changed.notify_all();
    }
}

/// An item a worker holds; dropping it marks it done.
pub struct Taken<'q, T, K: Ord + Clone = usize> {
    /// Its key: its index in the queue's initial list (or its ancestor's, for an item split by
    /// [`Taken::split`]), or the one given ([`Queue::keyed`], [`Taken::split_keyed`]).
    pub index: K,
    item: T,
    /// What it splits into, put in line when it is dropped.
    children: Option<Vec<(K, T)>>,
    /// Stops when the queue closes, or an answer at a smaller key stops the items after it.
    pub stop: Cancel,
    queue: &'q Queue<T, K>,
}

impl<T, K: Ord + Clone> Taken<'_, T, K> {
    /// The item.
    pub fn item(&self) -> &T {
        &self.item
    }

    /// Replaces the item by `children`, first in line with its key.
    pub fn split(self, children: Vec<T>) {
        let index = self.index.clone();
        self.split_keyed(children.into_iter().map(|c| (index.clone(), c)).collect());
    }

    /// Replaces the item by `children`, first in line in the order given, each with its key.
    pub fn split_keyed(mut self, children: Vec<(K, T)>) {
        self.children = Some(children);
    }
}

impl<T, K: Ord + Clone> std::ops::Deref for Taken<'_, T, K> {
    type Target = T;

    fn deref(&self) -> &T {
        self.item()
    }
}

impl<T, K: Ord + Clone> Drop for Taken<'_, T, K> {
    fn drop(&mut self) {
        self.queue.done(&self.stop, self.children.take());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_all_keeps_item_order() {
        let squares =
            run_all(&[1u64, 2, 3], 2, &Cancel::new(), &|_, _| {}, |&x| Ok(x * x)).unwrap();
        assert_eq!(squares, vec![1, 4, 9]);
    }

    #[test]
    fn queue_splits_first_in_line_and_stops_after_an_answer() {
        let queue = Queue::new([10u32, 20, 30], &Cancel::new());
        let first = queue.take().unwrap();
        assert_eq!((first.index, *first), (0, 10));
        first.split(vec![11, 12]); // 10 becomes 11 and 12, first in line, with index 0
        let next = queue.take().unwrap();
        assert_eq!((next.index, *next), (0, 11));
        queue.stop_after(0); // an answer at index 0: items 1 and 2 are dropped
        drop(next);
        assert_eq!(queue.take().map(|t| *t), Some(12));
        assert!(queue.take().is_none());
        // A closed queue hands nothing out, and its token stops.
        let queue = Queue::new([1u8, 2], &Cancel::new());
        queue.close();
        assert!(queue.take().is_none() && queue.token().is_stopped());
    }

    #[test]
    fn keyed_items_split_under_their_own_keys_and_stop_after_the_smallest_answer() {
        let queue = Queue::keyed([(vec![0u32], 'a'), (vec![1], 'b')], &Cancel::new());
        let a = queue.take().unwrap();
        a.split_keyed(vec![(vec![0, 0], 'c'), (vec![0, 1], 'd')]);
        let c = queue.take().unwrap();
        assert_eq!((c.index.clone(), *c), (vec![0, 0], 'c'));
        let d = queue.take().unwrap();
        // An answer at [0, 1], then one at [0, 0]: the cutoff is the smaller; `b` is dropped.
        queue.stop_after(vec![0, 1]);
        queue.stop_after(vec![0, 0]);
        assert!(d.stop.is_stopped() && !c.stop.is_stopped());
        drop((c, d));
        assert!(queue.take().is_none());
    }

    #[test]
    fn keeps_order_and_partial_results() {
        let never = Cancel::new();
        let items: Vec<u32> = (0..100).collect();
        let (out, e) = run(&items, 3, &never, &|_, _| {}, |&i| Ok(i * 2));
        assert!(e.is_none());
        assert_eq!(out, (0..100).map(|i| Some(i * 2)).collect::<Vec<_>>());
        let (out, e) = run(&items, 1, &never, &|_, _| {}, |&i| {
            if i >= 10 {
                Err(Error::Usage(format!("bad {i}")))
            } else {
                Ok(i)
            }
        });
        assert_eq!(e.unwrap().to_string(), "bad 10");
        assert_eq!(out.iter().flatten().count(), 10);
        assert!(out[..10].iter().all(Option::is_some));
        let (out, e) = run(&Vec::<u32>::new(), 2, &never, &|_, _| {}, |&i| Ok(i));
        assert!(out.is_empty() && e.is_none());
    }

    #[test]
    fn a_raised_token_stops_the_hand_out_and_a_fresh_one_runs() {
        let cancel = Cancel::new();
        let items: Vec<u32> = (0..100).collect();
        let (out, e) = run(&items, 1, &cancel, &|_, _| {}, |&i| {
            if i == 4 {
                cancel.cancel();
            }
            Ok(i)
        });
        assert!(matches!(e, Some(Error::Interrupted)));
        assert_eq!(out.iter().flatten().count(), 5);
        // Defect 5 (issue 11): a raised token stops only its own work.
        let again = run_all(&items, 2, &Cancel::new(), &|_, _| {}, |&i| Ok(i)).unwrap();
        assert_eq!(again.len(), 100);
    }
}
