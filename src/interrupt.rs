//! Cancellation: a [`Cancel`] token that long operations poll, so that a stopped run ends
//! cleanly (temp files removed, solver processes killed) instead of dying mid-write.
//!
//! There is no process-wide flag: each long operation takes a token, and only the operations
//! holding a raised token (or a [`Cancel::child`] of it) stop. A later call with a fresh token
//! runs normally. The command line creates the root token with [`install`], which routes SIGINT
//! and SIGTERM to it; a portfolio race gives its entrants a child token that the winner raises,
//! which stops the losers and nothing else.
//!
//! ```
//! use queens_sat::interrupt::Cancel;
//! let root = Cancel::new();
//! let race = root.child();
//! race.cancel();
//! assert!(race.is_cancelled() && !root.is_cancelled());
//! root.cancel();
//! assert!(root.child().is_cancelled());
//! assert!(!Cancel::new().is_cancelled()); // a fresh token is never affected
//! ```

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::error::{Error, Result};

/// A cancellation token: raised by [`Cancel::cancel`] (or by a signal, for the token of
/// [`install`]), and seen as raised by every clone and every [`Cancel::child`].
#[derive(Clone, Debug, Default)]
pub struct Cancel {
    flag: Arc<AtomicBool>,
    parent: Option<Arc<Cancel>>,
}

impl Cancel {
    /// A fresh, lowered token.
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// A token raised when this one is, or on its own (raising it leaves this one lowered).
    pub fn child(&self) -> Cancel {
        Cancel {
            flag: Arc::default(),
            parent: Some(Arc::new(self.clone())),
        }
    }

    /// True for a token made by [`Cancel::child`] (a race's, a job's), false for a root token.
    pub fn is_child(&self) -> bool {
        self.parent.is_some()
    }

    /// Raises the token.
    pub fn cancel(&self) {
        self.flag.store(true, Ordering::Relaxed);
    }

    /// True once this token or an ancestor was raised.
    #[inline]
    pub fn is_cancelled(&self) -> bool {
        self.flag.load(Ordering::Relaxed) || self.parent.as_ref().is_some_and(|p| p.is_cancelled())
    }

    /// [`Error::Interrupted`] once raised.
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
pub fn install() -> std::io::Result<Cancel> {
    let root = Cancel::new();
    for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        signal_hook::flag::register(sig, Arc::clone(&root.flag))?;
    }
    Ok(root)
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
pub fn is_cancelled_io(e: &std::io::Error) -> bool {
    e.get_ref().is_some_and(|inner| inner.is::<Cancelled>())
}

/// A writer that fails (with [`Cancelled`], see [`is_cancelled_io`]) once its token is raised,
/// so streaming a large file stops at the next buffer flush.
pub struct CancelWrite<W> {
    inner: W,
    cancel: Cancel,
}

impl<W> CancelWrite<W> {
    /// Wraps `inner`.
    pub fn new(inner: W, cancel: Cancel) -> Self {
        CancelWrite { inner, cancel }
    }

    /// The wrapped writer.
    pub fn into_inner(self) -> W {
        self.inner
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
