//! Long library calls from Python: the work runs on a thread of its own with the GIL released,
//! while the calling thread waits, polls Python's signal handlers (so Ctrl-C raises
//! `KeyboardInterrupt` within one poll interval) and forwards progress to a callback.

use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

use pyo3::prelude::*;
use queens_sat::interrupt::Cancel;

use crate::errors;

/// How often the waiting thread looks at Python's signals and the progress counters.
const POLL: Duration = Duration::from_millis(20);

thread_local! {
    /// The SIGINT counter ([`crate::cancel::sigints`]) as this thread's last call left it
    /// (`None` before its first call): a thread other than the main one that finds the counter
    /// past it at its next call was interrupted between two calls.
    static SEEN: Cell<Option<u64>> = const { Cell::new(None) };
}

/// Whether the calling thread is Python's main thread, the one its signal handlers run on.
fn is_main_thread(py: Python<'_>) -> PyResult<bool> {
    let threading = py.import("threading")?;
    let main = threading.call_method0("main_thread")?.getattr("ident")?;
    let me = threading.call_method0("get_ident")?;
    main.eq(me)
}

/// Progress shared between the worker (writer) and the waiting thread (reader): `(done, total)`.
#[derive(Default)]
pub struct Progress {
    done: AtomicU64,
    total: AtomicU64,
}

impl Progress {
    /// Records that `done` of `total` steps are finished.
    pub fn update(&self, done: usize, total: usize) {
        self.total.store(total as u64, Ordering::Relaxed);
        self.done.store(done as u64, Ordering::Relaxed);
    }

    fn get(&self) -> (u64, u64) {
        (
            self.done.load(Ordering::Relaxed),
            self.total.load(Ordering::Relaxed),
        )
    }
}

/// Runs `work` with the GIL released, on a thread of its own, handing it a fresh cancel token.
///
/// While it runs, the calling thread checks Python's signals every [`POLL`]: a pending
/// `KeyboardInterrupt` (or any exception a signal handler raises) raises the token, waits for
/// the work to stop (the library polls its token; temp files are removed and solver processes
/// killed) and is returned. `progress` is a counter the work updates and a callback called with
/// `(done, total)` on the calling thread whenever it changed; an exception from the callback
/// stops the work the same way. A panic inside the work becomes `queens_sat.InternalError`.
pub fn run<T: Send>(
    py: Python<'_>,
    progress: Option<(&Progress, &Bound<'_, PyAny>)>,
    work: impl FnOnce(&Cancel) -> queens_sat::Result<T> + Send,
) -> PyResult<T> {
    run_with(py, progress, None, work)
}

/// [`run`], also stopped by the caller's token `user` (`cancel=`: the work gets a child of it)
/// and by Ctrl-C on any thread ([`crate::cancel::sigints`]): on the main thread Python's handler
/// raises `KeyboardInterrupt`, which is returned; on another thread the call raises
/// `queens_sat.CancelledError` saying so. The signals are checked at every poll whether the work
/// has ended or not, so a Ctrl-C during a call that ends within one poll still stops it (its
/// answer is dropped); off the main thread, a Ctrl-C between two calls stops the next one
/// before it starts. A call stopped by `user` raises `CancelledError` naming the token.
pub fn run_with<T: Send>(
    py: Python<'_>,
    progress: Option<(&Progress, &Bound<'_, PyAny>)>,
    user: Option<&crate::cancel::PyCancel>,
    work: impl FnOnce(&Cancel) -> queens_sat::Result<T> + Send,
) -> PyResult<T> {
    let cancel = user.map_or_else(Cancel::new, |u| u.inner.child());
    crate::cancel::ensure_hook();
    let now = crate::cancel::sigints();
    let main = is_main_thread(py)?;
    // Off the main thread, a Ctrl-C since this thread's last call ended (while it ran Python
    // code between two calls) stops this call before it starts: a loop of short calls stops
    // as one long call would. On the main thread Python's own handler raises
    // `KeyboardInterrupt` in that code already.
    let base = if main {
        now
    } else {
        SEEN.with(|seen| seen.get()).map_or(now, |s| s.min(now))
    };
    if base != now {
        SEEN.with(|seen| seen.set(Some(now)));
        return Err(errors::cancelled(
            "interrupted by Ctrl-C (SIGINT), which came while this thread ran Python code \
             between two calls; this call did not start",
        ));
    }
    let finished = (Mutex::new(false), Condvar::new());
    std::thread::scope(|s| {
        let worker = s.spawn(|| {
            let result = catch_unwind(AssertUnwindSafe(|| work(&cancel)));
            let (lock, cv) = &finished;
            *lock.lock().unwrap_or_else(|e| e.into_inner()) = true;
            cv.notify_all();
            result
        });
        let mut shown = (u64::MAX, u64::MAX);
        // The SIGINT counter as last checked: a signal after the last check is left for this
        // thread's next call.
        let mut seen = base;
        let stop = loop {
            let done = py.detach(|| {
                let (lock, cv) = &finished;
                let guard = lock.lock().unwrap_or_else(|e| e.into_inner());
                let (guard, _) = cv
                    .wait_timeout_while(guard, POLL, |done| !*done)
                    .unwrap_or_else(|e| e.into_inner());
                *guard
            });
            if let Some((counter, callback)) = progress {
                let now = counter.get();
                if now != shown && now.1 > 0 {
                    shown = now;
                    if let Err(e) = callback.call1(now) {
                        break Some(e);
                    }
                }
            }
            // Signals first, whether the work is done or not: a step that ends within one
            // poll must not hide the Ctrl-C that came during it (a loop of short calls, or of
            // `solutions` steps, would never see one).
            if let Err(e) = py.check_signals() {
                break Some(e);
            }
            // Python may have put its own handler back (`signal.signal`, `asyncio.run`).
            crate::cancel::ensure_hook();
            seen = crate::cancel::sigints();
            if seen != base {
                // On the main thread Python's handler may have raised meanwhile: that first.
                break Some(py.check_signals().err().unwrap_or_else(|| {
                    errors::cancelled(
                        "interrupted by Ctrl-C (SIGINT); nothing was left half-written",
                    )
                }));
            }
            if done {
                break None;
            }
        };
        if !main {
            SEEN.with(|s| s.set(Some(seen)));
        }
        if stop.is_some() {
            cancel.cancel();
        }
        let joined = py.detach(|| worker.join());
        if let Some(e) = stop {
            return Err(e);
        }
        match joined {
            Ok(Ok(Ok(v))) => Ok(v),
            Ok(Ok(Err(queens_sat::Error::Interrupted)))
                if user.is_some_and(|u| u.inner.is_cancelled()) =>
            {
                Err(errors::cancelled(
                    "cancelled by the Cancel token passed as cancel=; nothing was left half-written",
                ))
            }
            Ok(Ok(Err(e))) => Err(errors::to_py(e)),
            Ok(Err(payload)) | Err(payload) => Err(errors::panic_error(payload)),
        }
    })
}
