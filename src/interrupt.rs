//! Stopping: one [`Cancel`] token that every long operation polls, so that a stopped run ends
//! cleanly (temp files removed, solver processes killed, threads joined) instead of dying
//! mid-write. A time limit, Ctrl-C and a lost race all stop through it.
//!
//! There is no process-wide flag: each long operation takes a token, and only the operations
//! holding a raised token (or a [`Cancel::child`] of it) stop. A later call with a fresh token
//! runs normally. The command line creates the root token with [`install`], which routes SIGINT
//! and SIGTERM to it; a portfolio race gives its entrants a child token that the winner raises,
//! which stops the losers and nothing else. A time limit is a child with a deadline
//! ([`Cancel::with_timeout`]): polling it reads the clock, and [`Cancel::stopped`] says which of
//! the two ended the work, with the limit the caller gave.
//!
//! Where a solver cannot poll the token itself, `watch` runs `on_stop` (`kissat_terminate`, a
//! child process's kill) once the token stops, and `recv_until` waits for a result or the
//! token: the two are the only polling loops, with one interval, [`POLL`].
//!
//! ```
//! use queens_sat::interrupt::{Cancel, Stop};
//! use std::time::Duration;
//! let root = Cancel::new();
//! let race = root.child();
//! race.cancel();
//! assert!(race.is_cancelled() && !root.is_cancelled());
//! root.cancel();
//! assert!(root.child().is_cancelled());
//! assert!(!Cancel::new().is_cancelled()); // a fresh token is never affected
//! let limited = Cancel::new().with_timeout(Some(Duration::ZERO));
//! assert!(limited.is_stopped() && !limited.is_cancelled());
//! assert_eq!(limited.stopped(), Some(Stop::TimeLimit(Duration::ZERO)));
//! assert_eq!(limited.stopped().unwrap().to_string(), "time limit of 0 s reached");
//! ```

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, mpsc};
use std::time::{Duration, Instant};

use crate::error::{Error, Result};

/// How often `watch` and `recv_until` look at a token that nothing can wake them for (a
/// signal raises a flag; it cannot notify a condition variable). A deadline is waited for
/// exactly.
#[cfg_attr(not(feature = "front"), visibility::make(pub(crate)), allow(dead_code))]
pub const POLL: Duration = Duration::from_millis(10);

/// How long a test waits for work that was told to stop before it calls it a hang. A guard,
/// not a speed check: it costs nothing when the work stops, and a loaded machine cannot trip
/// it. Every test that waits for a stop uses this one constant; the measured stop latencies
/// are in docs/benchmarks.md.
#[cfg_attr(
    not(feature = "oracle"),
    visibility::make(pub(crate)),
    allow(dead_code)
)]
pub const HANG_GUARD: Duration = Duration::from_secs(60);

/// A time limit: when it ends, and the limit the caller gave (what a report says).
#[derive(Clone, Copy, Debug)]
struct Limit {
    at: Instant,
    given: Duration,
}

/// A cancellation token: raised by [`Cancel::cancel`] (or by a signal, for the token of
/// [`install`]), and seen as raised by every clone and every [`Cancel::child`]. A token may
/// also carry a deadline ([`Cancel::with_timeout`]); it and its children then stop at the
/// earliest deadline of the chain.
#[derive(Clone, Debug, Default)]
pub struct Cancel {
    flag: Arc<AtomicBool>,
    parent: Option<Arc<Cancel>>,
    /// The earliest time limit of this token and its ancestors.
    limit: Option<Limit>,
    /// Raised by a signal: the process ends right after (see [`Cancel::ends_process`]).
    signalled: bool,
}

/// Why a token stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// Raised: by the caller, a signal, or a race that was won elsewhere.
    Cancelled,
    /// A deadline passed; the limit is the one the caller gave.
    TimeLimit(Duration),
}

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stop::Cancelled => f.write_str("cancelled"),
            Stop::TimeLimit(t) => write!(f, "time limit of {} s reached", t.as_secs_f64()),
        }
    }
}

impl Cancel {
    /// A fresh, lowered token.
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// A token raised when this one is, or on its own (raising it leaves this one lowered). It
    /// keeps this one's deadline.
    pub fn child(&self) -> Cancel {
        Cancel {
            flag: Arc::default(),
            parent: Some(Arc::new(self.clone())),
            limit: self.limit,
            signalled: false,
        }
    }

    /// A [`Cancel::child`] that also stops `timeout` from now; the earlier of its deadline and
    /// this token's counts. `None` (no new limit) gives this token itself, so the signal
    /// token stays recognisable ([`Cancel::ends_process`]).
    pub fn with_timeout(&self, timeout: Option<Duration>) -> Cancel {
        let Some(given) = timeout else {
            return self.clone();
        };
        let mut child = self.child();
        if let Some(at) = Instant::now().checked_add(given)
            && child.limit.is_none_or(|l| at < l.at)
        {
            child.limit = Some(Limit { at, given });
        }
        child
    }

    /// True for a token made by [`Cancel::child`] (a race's, a job's), false for a root token.
    pub fn is_child(&self) -> bool {
        self.parent.is_some()
    }

    /// True for the token of [`install`]: raising it means the process is about to end, so
    /// work that cannot be stopped cheaply may be left to the exit.
    pub fn ends_process(&self) -> bool {
        self.signalled
    }

    /// Raises the token.
    pub fn cancel(&self) {
        self.flag.store(true, Ordering::Relaxed);
    }

    /// True once this token or an ancestor was raised (a passed deadline does not count; see
    /// [`Cancel::is_stopped`]).
    #[inline]
    pub fn is_cancelled(&self) -> bool {
        self.flag.load(Ordering::Relaxed) || self.parent.as_ref().is_some_and(|p| p.is_cancelled())
    }

    /// The deadline of the token, if it has one (the earliest of its chain).
    pub fn deadline(&self) -> Option<Instant> {
        self.limit.map(|l| l.at)
    }

    /// True once the token was raised or its deadline passed: what long work polls. With a
    /// deadline this reads the clock.
    #[inline]
    pub fn is_stopped(&self) -> bool {
        self.is_cancelled() || self.limit.is_some_and(|l| Instant::now() >= l.at)
    }

    /// Why the token stopped, or `None` while it runs. Raised wins over a passed deadline.
    pub fn stopped(&self) -> Option<Stop> {
        if self.is_cancelled() {
            Some(Stop::Cancelled)
        } else {
            self.limit
                .filter(|l| Instant::now() >= l.at)
                .map(|l| Stop::TimeLimit(l.given))
        }
    }

    /// [`Error::Interrupted`] once raised (a passed deadline is not an error: the work reports
    /// an UNKNOWN instead).
    pub fn check(&self) -> Result<()> {
        if self.is_cancelled() {
            Err(Error::Interrupted)
        } else {
            Ok(())
        }
    }
}

impl PartialEq for Cancel {
    fn eq(&self, other: &Cancel) -> bool {
        Arc::ptr_eq(&self.flag, &other.flag)
    }
}

impl Eq for Cancel {}

/// A fresh root token that SIGINT and SIGTERM raise (instead of killing the process). The
/// command line calls this once at start-up and hands the token to every long operation.
#[cfg_attr(
    not(any(feature = "front", feature = "oracle")),
    visibility::make(pub(crate)),
    allow(dead_code)
)]
pub fn install() -> std::io::Result<Cancel> {
    let root = Cancel {
        signalled: true,
        ..Cancel::new()
    };
    for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        signal_hook::flag::register(sig, Arc::clone(&root.flag))?;
    }
    Ok(root)
}

/// How long to sleep before looking at `cancel` again: [`POLL`], or less when its deadline
/// comes first.
fn pause(cancel: &Cancel) -> Duration {
    cancel.deadline().map_or(POLL, |d| {
        d.saturating_duration_since(Instant::now()).min(POLL)
    })
}

/// A watcher started by [`watch`]; dropping it ends the watcher (joining its thread), and
/// `on_stop` has then either run to the end or will never run.
pub(crate) struct Watch {
    done: Arc<(Mutex<bool>, Condvar)>,
    thread: Option<std::thread::JoinHandle<bool>>,
}

impl Watch {
    /// Ends the watcher; whether `on_stop` ran.
    pub fn finish(mut self) -> bool {
        self.end()
    }

    fn end(&mut self) -> bool {
        let (lock, cvar) = &*self.done;
        *lock.lock().unwrap_or_else(|p| p.into_inner()) = true;
        cvar.notify_all();
        self.thread
            .take()
            .is_some_and(|t| t.join().unwrap_or(false))
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        self.end();
    }
}

/// Runs `on_stop` on a thread of its own once `cancel` stops (raised, or its deadline passed),
/// unless the returned [`Watch`] is dropped first. For solvers that another thread must stop
/// (`kissat_terminate`, varisat's proof switch, a child process): one watcher, one interval.
pub(crate) fn watch(cancel: &Cancel, on_stop: impl FnOnce() + Send + 'static) -> Watch {
    let done = Arc::new((Mutex::new(false), Condvar::new()));
    let cancel = cancel.clone();
    let flag = Arc::clone(&done);
    let thread = std::thread::spawn(move || {
        let (lock, cvar) = &*flag;
        let mut finished = lock.lock().unwrap_or_else(|p| p.into_inner());
        loop {
            if *finished {
                return false;
            }
            if cancel.is_stopped() {
                drop(finished);
                on_stop();
                return true;
            }
            finished = cvar
                .wait_timeout(finished, pause(&cancel))
                .unwrap_or_else(|p| p.into_inner())
                .0;
        }
    });
    Watch {
        done,
        thread: Some(thread),
    }
}

/// Waits for a message on `rx` until `cancel` stops: `Ok` with the message, or `Err` with why
/// the token stopped (`None` when the sender hung up without a message).
pub(crate) fn recv_until<T>(
    rx: &mpsc::Receiver<T>,
    cancel: &Cancel,
) -> std::result::Result<T, Option<Stop>> {
    loop {
        if let Some(why) = cancel.stopped() {
            return rx.try_recv().map_err(|_| Some(why));
        }
        match rx.recv_timeout(pause(cancel)) {
            Ok(v) => return Ok(v),
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => return Err(None),
        }
    }
}

/// The error a [`CancelWrite`] returns once its token is raised.
#[derive(Debug)]
pub struct Cancelled;

impl std::fmt::Display for Cancelled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("cancelled")
    }
}

impl std::error::Error for Cancelled {}

/// Whether `e` is the error of a [`CancelWrite`] whose token was raised.
#[cfg_attr(not(feature = "front"), visibility::make(pub(crate)), allow(dead_code))]
pub fn is_cancelled_io(e: &std::io::Error) -> bool {
    e.get_ref().is_some_and(|inner| inner.is::<Cancelled>())
}

/// A writer that fails (with [`Cancelled`], see [`is_cancelled_io`]) once its token is raised,
/// so streaming a large file stops at the next buffer flush. It is also how varisat is stopped
/// (see `crate::solve::traits::StopSwitch`).
#[cfg_attr(not(feature = "front"), visibility::make(pub(crate)), allow(dead_code))]
pub struct CancelWrite<W> {
    inner: W,
    cancel: Cancel,
}

impl<W> CancelWrite<W> {
    /// Wraps `inner`.
    pub fn new(inner: W, cancel: Cancel) -> Self {
        CancelWrite { inner, cancel }
    }
}

impl<W: std::io::Write> std::io::Write for CancelWrite<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.cancel.is_cancelled() {
            return Err(std::io::Error::other(Cancelled));
        }
        self.inner.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}
