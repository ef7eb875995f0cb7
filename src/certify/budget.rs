//! The size budget of a proof file (`solve --certify --proof FILE`): a proof of a hard instance
//! grows by gigabytes a minute, so it is written under a budget, warned about on stderr once it
//! passes 80 % of it and enforced: past it the run ends with an error naming the
//! budget, and the partial proof (a temporary file beside the target) is removed.
//!
//! The DRAT proof that CaDiCaL or Kissat (external, or linked as `lib:cadical`) writes under
//! `--certify` into a temporary file has the same budget: a watcher thread looks at its size
//! while the solver runs, and past the budget the solver is stopped and the solve ends with the
//! same error ([`crate::Error::Budget`]).
//!
//! The budget is the caller's ([`crate::solve::Solver::proof_budget`], `--proof-budget`), else
//! the environment's `QUEENS_SAT_PROOF_BUDGET`, else half the free space of the proof's folder when the run
//! starts. A budget is a byte count with an optional unit (`500M`, `10G`, `1.5T`: powers of
//! 1000, `Ki`/`Mi`/`Gi`/`Ti` powers of 1024), or `none` for no budget ([`parse`]).

use std::path::Path;

use crate::error::{Error, Result};

/// The environment variable holding the default budget of a proof file.
pub(crate) const ENV: &str = "QUEENS_SAT_PROOF_BUDGET";

/// What the error of a proof past its budget adds: how to change the budget.
pub(crate) const HINT: &str = "(the budget: --proof-budget, else QUEENS_SAT_PROOF_BUDGET, \
                               default half the free space of its folder)";

/// A budget as written: bytes with an optional unit (`k`, `M`, `G`, `T` powers of 1000; `Ki`,
/// `Mi`, `Gi`, `Ti` powers of 1024; a trailing `B` is allowed), or `none` / `inf` for no
/// budget (`u64::MAX`). The error says what is wrong with it. Public so that the command
/// line (`--proof-budget`) and Python (`proof_budget=`) read the same words; a Rust caller
/// gives [`crate::solve::Solver::proof_budget`] bytes.
///
/// ```
/// use queens_sat::certify::budget::parse;
/// assert_eq!(parse("10G"), Ok(10_000_000_000));
/// assert_eq!(parse("1.5MiB"), Ok(1_572_864));
/// assert_eq!(parse("4096"), Ok(4096));
/// assert_eq!(parse("none"), Ok(u64::MAX));
/// assert!(parse("lots").is_err() && parse("0").is_err());
/// ```
pub fn parse(text: &str) -> std::result::Result<u64, String> {
    let t = text.trim();
    if matches!(t.to_ascii_lowercase().as_str(), "none" | "inf") {
        return Ok(u64::MAX);
    }
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let unit = unit.trim();
    let unit = unit.strip_suffix('B').unwrap_or(unit);
    let scale: f64 = match unit {
        "" => 1.0,
        "k" | "K" => 1e3,
        "M" => 1e6,
        "G" => 1e9,
        "T" => 1e12,
        "Ki" => 1024.0,
        "Mi" => 1024.0 * 1024.0,
        "Gi" => 1024.0 * 1024.0 * 1024.0,
        "Ti" => 1024.0 * 1024.0 * 1024.0 * 1024.0,
        _ => {
            return Err(format!(
                "'{text}' is not a size: a number of bytes with an optional unit (500M, 10G, \
                 1.5T, 2GiB) or none"
            ));
        }
    };
    let value: f64 = number.parse().map_err(|_| {
        format!("'{text}' is not a size: a number of bytes with an optional unit (10G) or none")
    })?;
    let bytes = value * scale;
    if bytes.is_nan() || bytes < 1.0 {
        return Err(format!("'{text}' must be at least one byte (or none)"));
    }
    Ok(if bytes >= u64::MAX as f64 {
        u64::MAX
    } else {
        bytes as u64
    })
}

/// The budget of a proof written to `proof`: `given`, else `QUEENS_SAT_PROOF_BUDGET`'s, else half the free
/// space of its folder (no budget where that cannot be read). A bad `QUEENS_SAT_PROOF_BUDGET` is an error
/// naming it.
pub(crate) fn resolve(proof: &Path, given: Option<u64>) -> Result<u64> {
    if let Some(b) = given {
        return Ok(b);
    }
    if let Some(text) = std::env::var_os(ENV) {
        let text = text.to_string_lossy();
        return parse(&text).map_err(|why| Error::Usage(format!("{ENV}: {why}")));
    }
    let dir = match proof.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    Ok(free_space(dir).map_or(u64::MAX, |free| (free / 2).max(1)))
}

/// How often [`Watch`] looks at the size of a proof that a solver writes itself.
pub(crate) const WATCH_EVERY: std::time::Duration = std::time::Duration::from_millis(50);

/// The size budget of a proof file that a solver writes itself (the DRAT proof of `--certify`
/// from CaDiCaL or Kissat, external or linked): a thread looks at the file's size every
/// [`WATCH_EVERY`], warns on stderr once past [`crate::atomic_file::WARN_PERCENT`] % of `budget` and,
/// past it, raises `stop` (the solver's token: an external solver is killed, a linked one
/// ends its search). [`Watch::finish`] then says whether the budget was passed (a last look at
/// the size included, for a solver that ended between two looks); the caller removes the file.
pub(crate) struct Watch {
    done: std::sync::mpsc::Sender<()>,
    thread: std::thread::JoinHandle<()>,
    over: std::sync::Arc<std::sync::atomic::AtomicBool>,
    path: std::path::PathBuf,
    budget: u64,
}

impl Watch {
    /// Watches `path` (which may not exist yet) under `budget` bytes; `who` names the file in
    /// the warning (`the DRAT proof of cadical`).
    pub(crate) fn start(
        path: &Path,
        budget: u64,
        who: String,
        stop: crate::interrupt::Cancel,
    ) -> Watch {
        use std::sync::atomic::Ordering;
        let (done, rx) = std::sync::mpsc::channel::<()>();
        let over = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let thread = {
            let (path, over) = (path.to_path_buf(), over.clone());
            std::thread::spawn(move || {
                let mut warned = false;
                while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
                    rx.recv_timeout(WATCH_EVERY)
                {
                    let size = std::fs::metadata(&path).map_or(0, |m| m.len());
                    if size > budget {
                        over.store(true, Ordering::SeqCst);
                        stop.cancel();
                        return;
                    }
                    if !warned && size >= budget / 100 * crate::atomic_file::WARN_PERCENT {
                        warned = true;
                        eprintln!(
                            "queens-sat: warning: {who} is {}, {} % of its size budget of {}; \
                             the solve stops if it passes the budget",
                            crate::atomic_file::show(size),
                            crate::atomic_file::WARN_PERCENT,
                            crate::atomic_file::show(budget)
                        );
                    }
                }
            })
        };
        Watch {
            done,
            thread,
            over,
            path: path.to_path_buf(),
            budget,
        }
    }

    /// Stops watching: whether the file passed its budget.
    pub(crate) fn finish(self) -> bool {
        let _ = self.done.send(());
        let _ = self.thread.join();
        self.over.load(std::sync::atomic::Ordering::SeqCst)
            || std::fs::metadata(&self.path).is_ok_and(|m| m.len() > self.budget)
    }
}

/// The bytes an unprivileged process may still write in `dir`'s file system.
fn free_space(dir: &Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    let path = std::ffi::CString::new(dir.as_os_str().as_bytes()).ok()?;
    // SAFETY: statvfs is plain old data; all zeroes is a valid value.
    let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: a NUL-terminated path and a statvfs struct the call fills in.
    if unsafe { libc::statvfs(path.as_ptr(), &mut st) } != 0 {
        return None;
    }
    #[allow(clippy::unnecessary_cast)] // the field types differ between platforms
    Some((st.f_bavail as u64).saturating_mul(st.f_frsize as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse("500M"), Ok(500_000_000));
        assert_eq!(parse("2 GiB"), Ok(2 << 30));
        assert_eq!(parse("1k"), Ok(1000));
        assert_eq!(parse("12B"), Ok(12));
        assert_eq!(parse("INF"), Ok(u64::MAX));
        for bad in ["", "G", "-1", "1X", "0.1", "1e9", "1..2G"] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_default_is_half_the_free_space() {
        let dir = tempfile::tempdir().unwrap();
        let free = free_space(dir.path()).unwrap();
        if std::env::var_os(ENV).is_none() {
            let b = resolve(&dir.path().join("x.pbp"), None).unwrap();
            // The free space moves with other writers: within a few percent.
            assert!(
                b.abs_diff(free / 2) < free / 20 + (1 << 20),
                "{b} vs {free}"
            );
        }
        assert_eq!(resolve(&dir.path().join("x.pbp"), Some(5)).unwrap(), 5);
    }
}
