//! The memory budget: what an allocation that grows with n² or with a CNF may take
//! ([`available_memory`], overridden by [`MEMORY_ENV`]), and the one check against it
//! ([`check`]), made before anything is allocated so that a solve too big for the machine is
//! refused up front with its estimate instead of being killed (or aborting) halfway.

use crate::error::{Error, Result};

/// The environment variable that states the available memory in bytes instead of the kernel's
/// figure (for tests, and for a machine whose `MemAvailable` misleads, as in some containers).
pub const MEMORY_ENV: &str = "QUEENS_SAT_AVAILABLE_MEMORY";

/// The memory available for an in-process solve: [`MEMORY_ENV`] if set, else the smallest of
/// what the kernel reports as available (`MemAvailable`), the process's address-space limit
/// (`ulimit -v`) and its memory cgroup's room (`memory.max`, v1 or v2), where known.
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
    [kernel, address_space_limit(), cgroup_room()]
        .into_iter()
        .flatten()
        .min()
}

/// What the process's memory cgroup still allows: its limit less what it uses (cgroup v2
/// `memory.max` and `memory.current`, or v1 `memory.limit_in_bytes` and
/// `memory.usage_in_bytes`); `None` when unlimited or not found. This is what bounds a notebook
/// in a container, where `MemAvailable` shows the whole host.
fn cgroup_room() -> Option<u64> {
    let groups = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    cgroup_room_in(&groups, std::path::Path::new("/sys/fs/cgroup"))
}

/// [`cgroup_room`] from the text of `/proc/self/cgroup` and the cgroup filesystem's root.
fn cgroup_room_in(groups: &str, root: &std::path::Path) -> Option<u64> {
    let read = |p: std::path::PathBuf| -> Option<u64> {
        std::fs::read_to_string(p).ok()?.trim().parse().ok()
    };
    for line in groups.lines() {
        // hierarchy-id:controllers:path; v2 is "0::/path", v1 names "memory" among controllers.
        let mut parts = line.splitn(3, ':');
        let (Some(_), Some(controllers), Some(path)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let rel = path.trim_start_matches('/');
        let (base, limit, usage) = if controllers.is_empty() {
            (root.to_path_buf(), "memory.max", "memory.current")
        } else if controllers.split(',').any(|c| c == "memory") {
            (
                root.join("memory"),
                "memory.limit_in_bytes",
                "memory.usage_in_bytes",
            )
        } else {
            continue;
        };
        // The group's own folder; inside a container, whose cgroup namespace shows the host's
        // path, the mount's root is the group itself.
        let Some(dir) = [base.join(rel), base]
            .into_iter()
            .find(|d| d.join(limit).exists())
        else {
            continue;
        };
        // "max" (v2) or a huge number (v1) means no limit: the parse fails or the room is vast.
        if let Some(max) = read(dir.join(limit)).filter(|&m| m < 1 << 60) {
            let used = read(dir.join(usage)).unwrap_or(0);
            return Some(max.saturating_sub(used));
        }
    }
    None
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

/// What a linked solver (varisat, CaDiCaL, Kissat) is admitted under: its estimate `need` with
/// a stated margin of half again plus 512 MB. It allocates on its own, where an allocation that
/// fails aborts the process: its vectors grow by doubling, and the allocator's per-thread arenas
/// and the threads' stacks count against an address-space cap (`ulimit -v`) beyond what it
/// holds (varisat on n = 1000 with lex-leader constraints: 1.6 GB resident, estimated 2.3 GB,
/// aborted under a 3 GiB cap).
pub(crate) fn with_margin(need: u64) -> u64 {
    need.saturating_add(need / 2).saturating_add(512 << 20)
}

/// `need` bytes for a message: `1.2 GB`, `340 MB`.
pub fn bytes(need: u64) -> String {
    crate::error::rounded(need)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cgroup_limit_is_read_for_v1_and_v2() {
        let dir = std::env::temp_dir().join(format!("qs-cgroup-{}", std::process::id()));
        let v2 = dir.join("user.slice/nb");
        std::fs::create_dir_all(&v2).unwrap();
        std::fs::write(v2.join("memory.max"), "6000000000\n").unwrap();
        std::fs::write(v2.join("memory.current"), "1000000000\n").unwrap();
        assert_eq!(
            cgroup_room_in("0::/user.slice/nb\n", &dir),
            Some(5_000_000_000)
        );
        std::fs::write(v2.join("memory.max"), "max\n").unwrap();
        assert_eq!(cgroup_room_in("0::/user.slice/nb\n", &dir), None);
        let v1 = dir.join("memory/docker/abc");
        std::fs::create_dir_all(&v1).unwrap();
        std::fs::write(v1.join("memory.limit_in_bytes"), "2147483648").unwrap();
        std::fs::write(v1.join("memory.usage_in_bytes"), "147483648").unwrap();
        let groups = "5:cpu,cpuacct:/docker/abc\n4:memory:/docker/abc\n";
        assert_eq!(cgroup_room_in(groups, &dir), Some(2_000_000_000));
        // a container sees the host's path in /proc/self/cgroup: the mount root is its group
        let groups = "4:memory:/host/path/abc\n";
        std::fs::write(dir.join("memory/memory.limit_in_bytes"), "1000").unwrap();
        assert_eq!(cgroup_room_in(groups, &dir), Some(1000));
        // v1 "unlimited" is a huge page-rounded number
        std::fs::write(v1.join("memory.limit_in_bytes"), "9223372036854771712").unwrap();
        assert_eq!(cgroup_room_in("4:memory:/docker/abc\n", &dir), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
