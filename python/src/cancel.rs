//! Stopping calls from Python: the `queens_sat.Cancel` token, and Ctrl-C for every call in
//! flight, whichever thread runs it.
//!
//! Python runs its signal handlers on the main thread only, so a call running on another thread
//! (a `ThreadPoolExecutor`, `asyncio.to_thread`) never sees `KeyboardInterrupt`. To reach them,
//! the module hooks SIGINT at the C level, in front of Python's own handler: the hook bumps a
//! process-wide counter ([`sigints`]) and then calls the handler it replaced, so Python still
//! raises `KeyboardInterrupt` on the main thread. Every waiting call ([`crate::work::run`])
//! compares the counter with its value when the call began, and stops its work when it moved.
//!
//! Python may install its handler again (`signal.signal`, `asyncio.run`): each waiting call
//! re-installs the hook when it finds it gone ([`ensure_hook`], one `sigaction` per poll, with
//! the GIL held, as `signal.signal` runs). Where SIGINT is ignored (`SIG_IGN`) or has its
//! default action, nothing is hooked: an ignored Ctrl-C cancels nothing.

use std::sync::atomic::{AtomicU64, Ordering};

use pyo3::prelude::*;
use queens_sat::interrupt;

/// How many SIGINTs the hook saw since the module was loaded.
static SIGINTS: AtomicU64 = AtomicU64::new(0);

/// The number of SIGINTs seen so far: a call that began at `k` was interrupted once this is
/// more than `k`.
pub fn sigints() -> u64 {
    SIGINTS.load(Ordering::SeqCst)
}

#[cfg(unix)]
mod hook {
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// The handler the hook replaced (a `sa_sigaction` value) and its flags.
    static PREV: AtomicUsize = AtomicUsize::new(0);
    static PREV_FLAGS: AtomicUsize = AtomicUsize::new(0);

    /// The hook: async-signal-safe (two atomic operations and a call).
    extern "C" fn on_sigint(sig: libc::c_int, info: *mut libc::siginfo_t, ctx: *mut libc::c_void) {
        super::SIGINTS.fetch_add(1, Ordering::SeqCst);
        let prev = PREV.load(Ordering::SeqCst);
        if prev == libc::SIG_DFL || prev == libc::SIG_IGN || prev == 0 {
            return;
        }
        if PREV_FLAGS.load(Ordering::SeqCst) & libc::SA_SIGINFO as usize != 0 {
            // SAFETY: `prev` was read from `sigaction` as a handler installed with SA_SIGINFO,
            // so it has this signature.
            let f: extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void) =
                unsafe { std::mem::transmute(prev) };
            f(sig, info, ctx);
        } else {
            // SAFETY: `prev` was read from `sigaction` as a plain handler (no SA_SIGINFO).
            let f: extern "C" fn(libc::c_int) = unsafe { std::mem::transmute(prev) };
            f(sig);
        }
    }

    /// Puts the hook in front of SIGINT's handler unless it is there already, or SIGINT is
    /// ignored or has its default action. Called with the GIL held, as Python's own
    /// `signal.signal` is, so the two never interleave.
    pub fn ensure() {
        // SAFETY: a zeroed `sigaction` struct is a valid value of the C type.
        let mut cur: libc::sigaction = unsafe { std::mem::zeroed() };
        // SAFETY: with a null new action, `sigaction` only reads the current one into `cur`.
        if unsafe { libc::sigaction(libc::SIGINT, std::ptr::null(), &mut cur) } != 0 {
            return;
        }
        let ours = on_sigint as extern "C" fn(_, _, _) as usize;
        let handler = cur.sa_sigaction;
        if handler == ours || handler == libc::SIG_IGN || handler == libc::SIG_DFL {
            return;
        }
        PREV.store(handler, Ordering::SeqCst);
        PREV_FLAGS.store(cur.sa_flags as usize, Ordering::SeqCst);
        let mut new = cur;
        new.sa_sigaction = ours;
        new.sa_flags |= libc::SA_SIGINFO;
        // SAFETY: `new` is the current action with our handler, whose signature matches
        // SA_SIGINFO; the mask and the other flags are Python's own.
        unsafe {
            libc::sigaction(libc::SIGINT, &new, std::ptr::null_mut());
        }
    }
}

/// Makes sure SIGINT reaches [`sigints`] (see the module's documentation). A no-op off Unix,
/// where only the main thread's call sees Ctrl-C.
pub fn ensure_hook() {
    #[cfg(unix)]
    hook::ensure();
}

/// A token that cancels the calls it is passed to (`cancel=`), from any thread or asyncio task.
///
/// `cancel()` stops every call holding the token: each raises `queens_sat.CancelledError`
/// within a poll (tens of milliseconds) and leaves no thread running. A raised token stays
/// raised: a call given it later stops at once. One token may serve many calls.
#[pyclass(module = "queens_sat", name = "Cancel", frozen)]
#[derive(Clone, Default)]
pub struct PyCancel {
    pub(crate) inner: interrupt::Cancel,
}

#[pymethods]
impl PyCancel {
    #[new]
    fn new() -> PyCancel {
        PyCancel::default()
    }

    /// Raises the token: every call holding it stops.
    fn cancel(&self) {
        self.inner.cancel();
    }

    /// True once `cancel()` was called.
    #[getter]
    fn cancelled(&self) -> bool {
        self.inner.is_cancelled()
    }

    fn __repr__(&self) -> String {
        format!(
            "Cancel(cancelled={})",
            if self.cancelled() { "True" } else { "False" }
        )
    }
}
