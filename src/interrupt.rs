//! SIGINT / SIGTERM: a flag that long-running work polls, so that an interrupted run stops
//! cleanly (temp files removed, solver processes killed) instead of dying mid-write.

use std::sync::Arc;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();

fn flag() -> &'static Arc<AtomicBool> {
    FLAG.get_or_init(|| Arc::new(AtomicBool::new(false)))
}

/// Routes SIGINT and SIGTERM to the flag (instead of killing the process). Call once at start-up.
pub fn install() -> std::io::Result<()> {
    for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        signal_hook::flag::register(sig, Arc::clone(flag()))?;
    }
    Ok(())
}

/// True once SIGINT or SIGTERM arrived (after [`install`]).
#[inline]
pub fn interrupted() -> bool {
    flag().load(Ordering::Relaxed)
}

/// Sets the flag, as a signal would (for tests and for callers that cancel work).
pub fn raise() {
    flag().store(true, Ordering::Relaxed);
}

/// A cancellation flag shared between racing jobs (`--solver a,b`): the winner raises it and the
/// others stop (external solvers are killed, in-process searches are abandoned).
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A fresh, lowered flag.
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// Raises the flag.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// True once raised, or once SIGINT / SIGTERM arrived.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed) || interrupted()
    }
}

impl PartialEq for Cancel {
    fn eq(&self, other: &Cancel) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for Cancel {}
