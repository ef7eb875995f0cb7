//! The size budget of a proof file (`solve --certify --proof FILE`): a proof of a hard instance
//! grows by gigabytes a minute, so it is written under a budget, warned about on stderr once it
//! passes [`WARN_PERCENT`] % of it and enforced: past it the run ends with an error naming the
//! budget, and the partial proof (a temporary file beside the target) is removed.
//!
//! The budget is the caller's ([`crate::solve::Solver::proof_budget`], `--proof-budget`), else
//! the environment's [`ENV`], else half the free space of the proof's folder when the run
//! starts. A budget is a byte count with an optional unit (`500M`, `10G`, `1.5T`: powers of
//! 1000, `Ki`/`Mi`/`Gi`/`Ti` powers of 1024), or `none` for no budget ([`parse`]).

use std::path::Path;

use crate::error::{Error, Result};

/// The environment variable holding the default budget of a proof file.
pub const ENV: &str = "QUEENS_SAT_PROOF_BUDGET";

/// The share of the budget at which a warning is printed.
pub const WARN_PERCENT: u64 = 80;

/// A budget as written: bytes with an optional unit (`k`, `M`, `G`, `T` powers of 1000; `Ki`,
/// `Mi`, `Gi`, `Ti` powers of 1024; a trailing `B` is allowed), or `none` / `inf` for no
/// budget (`u64::MAX`). The error says what is wrong with it.
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

/// The budget of a proof written to `proof`: `given`, else [`ENV`]'s, else half the free
/// space of its folder (no budget where that cannot be read). A bad [`ENV`] is an error
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

/// `bytes` for a message: `1.2 GB`, `340 MB`, `4096 bytes`; `no budget` for `u64::MAX`.
pub(crate) fn show(bytes: u64) -> String {
    match bytes {
        u64::MAX => "no budget".into(),
        b if b >= 1_000_000 => crate::memory::bytes(b),
        b => format!("{b} bytes"),
    }
}

/// The error of a proof file that reached its budget (inside the I/O error of the write that
/// would have passed it); its text names the budget and how to change it.
#[derive(Debug)]
pub(crate) struct OverBudget {
    /// The budget in bytes.
    pub budget: u64,
}

impl std::fmt::Display for OverBudget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the proof reached its size budget of {} before it was complete, and the partial \
             proof was removed (the budget: {ENV}, default half the free space of its folder)",
            show(self.budget)
        )
    }
}

impl std::error::Error for OverBudget {}

/// How much of its budget a proof file has used: counts the bytes written, warns once on
/// stderr past [`WARN_PERCENT`] %, and refuses the write that would pass the budget.
#[derive(Debug)]
pub(crate) struct Meter {
    budget: u64,
    written: u64,
    warned: bool,
    /// The file, as the warning names it.
    name: String,
}

impl Meter {
    pub(crate) fn new(budget: u64, name: String) -> Meter {
        Meter {
            budget,
            written: 0,
            warned: false,
            name,
        }
    }

    /// Admits `len` more bytes, or the error of the budget.
    pub(crate) fn admit(&mut self, len: usize) -> std::io::Result<()> {
        let after = self.written.saturating_add(len as u64);
        if after > self.budget {
            return Err(std::io::Error::other(OverBudget {
                budget: self.budget,
            }));
        }
        self.written = after;
        if !self.warned && after >= self.budget / 100 * WARN_PERCENT {
            self.warned = true;
            eprintln!(
                "queens-sat: warning: the proof for {} is {}, {WARN_PERCENT} % of its size \
                 budget of {}; it is removed if it passes the budget",
                self.name,
                show(after),
                show(self.budget)
            );
        }
        Ok(())
    }
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
    fn the_meter_warns_then_refuses() {
        let mut m = Meter::new(1000, "x.pbp".into());
        m.admit(700).unwrap();
        assert!(!m.warned);
        m.admit(100).unwrap();
        assert!(m.warned);
        m.admit(200).unwrap();
        let e = m.admit(1).unwrap_err();
        assert!(e.to_string().contains("size budget of 1000 bytes"), "{e}");
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
