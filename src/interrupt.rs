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
