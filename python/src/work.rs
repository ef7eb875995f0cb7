//! Long library calls from Python: the work runs on a thread of its own with the GIL released,
//! while the calling thread waits, polls Python's signal handlers (so Ctrl-C raises
//! `KeyboardInterrupt` within one poll interval) and forwards progress to a callback.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

use pyo3::prelude::*;
use queens_sat::interrupt::Cancel;

use crate::errors;

/// How often the waiting thread looks at Python's signals and the progress counters.
const POLL: Duration = Duration::from_millis(20);

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
    let cancel = Cancel::new();
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
            if done {
                break None;
            }
            if let Err(e) = py.check_signals() {
                break Some(e);
            }
        };
        if stop.is_some() {
            cancel.cancel();
        }
        let joined = py.detach(|| worker.join());
        if let Some(e) = stop {
            return Err(e);
        }
        match joined {
            Ok(Ok(Ok(v))) => Ok(v),
            Ok(Ok(Err(e))) => Err(errors::to_py(e)),
            Ok(Err(payload)) | Err(payload) => Err(errors::panic_error(payload)),
        }
    })
}
