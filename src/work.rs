//! The one work queue: items shared out to `jobs` threads in order, results kept in item order,
//! the first error (or a raised cancel token) stops the hand-out. Used by the counting engines'
//! cubes and tasks, the suite's files and the benchmark's runs.
//!
//! Why not rayon: every user needs three things rayon's iterators do not give directly: stop at
//! the first error *and* keep what finished before it (an interrupted suite records its
//! progress and resumes), poll a cancel token between items, and report progress in completion
//! order. With those, the queue is forty lines over `std::thread::scope`, and items are large
//! (a cube count, a solver run, a file), so work stealing would buy nothing.
//!
//! ```
//! use queens_sat::{interrupt::Cancel, work::run_all};
//! let squares = run_all(&[1u64, 2, 3], 2, &Cancel::new(), &|_, _| {}, |&x| Ok(x * x)).unwrap();
//! assert_eq!(squares, vec![1, 4, 9]);
//! ```

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use crate::error::{Error, Result};
use crate::interrupt::Cancel;

/// Runs `f` over `items` on `jobs` threads. Results come back in item order, `None` for items
/// not run. The first error (by item order among those that failed), or [`Error::Interrupted`]
/// once `cancel` is raised, stops the hand-out of further items and is returned with what
/// finished. `progress(done, total)` is called after each finished item.
pub fn run<T: Sync, R: Send>(
    items: &[T],
    jobs: usize,
    cancel: &Cancel,
    progress: &(dyn Fn(usize, usize) + Sync),
    f: impl Fn(&T) -> Result<R> + Sync,
) -> (Vec<Option<R>>, Option<Error>) {
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
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
                    match f(&items[i]) {
                        Ok(r) => {
                            results.lock().unwrap_or_else(|p| p.into_inner())[i] = Some(r);
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
    let error = first_error
        .into_inner()
        .unwrap_or_else(|p| p.into_inner())
        .map(|(_, e)| e);
    (
        results.into_inner().unwrap_or_else(|p| p.into_inner()),
        error,
    )
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

#[cfg(test)]
mod tests {
    use super::*;

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
