//! The memory budget: what an allocation that grows with n² or with a CNF may take
//! ([`available_memory`], overridden by [`MEMORY_ENV`]), and the one check against it
//! ([`check`]), made before anything is allocated so that a solve too big for the machine is
//! refused up front with its estimate instead of being killed (or aborting) halfway.

use crate::error::{Error, Result};

/// The environment variable that states the available memory in bytes instead of the kernel's
/// figure (for tests, and for a machine whose `MemAvailable` misleads, as in some containers).
pub const MEMORY_ENV: &str = "QUEENS_SAT_AVAILABLE_MEMORY";

/// The memory available for an in-process solve: [`MEMORY_ENV`] if set, else the smaller of
/// what the kernel reports as available (`MemAvailable`) and the process's address-space limit
/// (`ulimit -v`), if known.
pub fn available_memory() -> Option<u64> {
    if let Ok(v) = std::env::var(MEMORY_ENV) {
        return v.trim().parse().ok();
    }
    let kernel = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|info| {
            let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
            let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
            Some(kb * 1024)
        });
    match (kernel, address_space_limit()) {
        (Some(k), Some(l)) => Some(k.min(l)),
        (k, l) => k.or(l),
    }
}

/// The soft address-space limit (`ulimit -v`), less what the process has mapped already; `None`
/// when unlimited or unknown.
fn address_space_limit() -> Option<u64> {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes into the rlimit we own and pass by valid pointer; it has no other
    // effect.
    let rc = unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut lim) };
    if rc != 0 || lim.rlim_cur == libc::RLIM_INFINITY {
        return None;
    }
    // The address space already mapped (VmSize), which counts against the limit too.
    let mapped = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            let line = s.lines().find(|l| l.starts_with("VmSize:"))?;
            line.split_whitespace().nth(1)?.parse::<u64>().ok()
        })
        .map_or(0, |kb| kb * 1024);
    Some(lim.rlim_cur.saturating_sub(mapped))
}

/// Refuses work that needs an estimated `need` bytes when more than that is not available:
/// an [`Error::TooLarge`] that says what (`what`, e.g. "presolving 20000 x 20000 cells"), the
/// estimate and what is available, and `hint`, what to do instead.
pub fn check(need: u64, what: &str, hint: &str) -> Result<()> {
    match available_memory() {
        Some(have) if need > have => Err(Error::TooLarge(format!(
            "{what} needs an estimated {} but only {} is available{hint}",
            bytes(need),
            bytes(have)
        ))),
        _ => Ok(()),
    }
}

/// `need` bytes for a message: `1.2 GB`, `340 MB`.
pub fn bytes(need: u64) -> String {
    if need >= 1_000_000_000 {
        format!("{:.1} GB", need as f64 / 1e9)
    } else {
        format!("{:.0} MB", (need as f64 / 1e6).max(1.0))
    }
}

/// A vector of `len` copies of `value`, allocated with `try_reserve` (an allocation that fails is
/// an [`Error::TooLarge`] naming `what`, never an abort).
pub fn try_vec<T: Clone>(len: usize, value: T, what: &str) -> Result<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(len).map_err(|_| {
        Error::TooLarge(format!(
            "{what}: could not allocate {}",
            bytes((len as u64).saturating_mul(std::mem::size_of::<T>() as u64))
        ))
    })?;
    v.resize(len, value);
    Ok(v)
}
