//! Atomic file writes: fill a temp file in the target's folder, then rename it over the target.
//! A failed or interrupted write never leaves a partial file at the target path, and an old file
//! there stays untouched.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::{Error, OverBudget, Result};

/// Writes `text` to `path` atomically (see [`write_atomic`]).
// The binary and the harness write text files with it; the core writes through `write_atomic`.
#[cfg_attr(not(feature = "harness"), allow(dead_code))]
pub fn write_text_atomic(path: &Path, text: &str) -> Result<()> {
    write_atomic(path, |f| {
        f.write_all(text.as_bytes())
            .map_err(|e| Error::io(path.display().to_string(), e))
    })
}

/// The error of making the temp file in `dir`, without the temp file's name that `tempfile`
/// adds to it (`... at path ".queens-sat-XXXX.tmp"`): errors name the caller's path, not an
/// internal one. A folder that cannot be looked at gives the OS error of looking at it
/// (`No such file or directory`, `Not a directory`).
fn plain(dir: &Path, e: std::io::Error) -> std::io::Error {
    if let Err(os) = std::fs::metadata(dir) {
        return os;
    }
    let text = e.to_string();
    match text.split_once(" at path ") {
        Some((what, _)) => std::io::Error::new(e.kind(), what.to_string()),
        None => e,
    }
}

/// Runs `fill` on a temp file in `path`'s folder and renames it to `path` on success; on failure
/// the temp file is removed and any old file at `path` is untouched. Errors name `path` (a
/// missing folder is `path: No such file or directory`), never the temp file.
pub fn write_atomic<T>(
    path: &Path,
    fill: impl FnOnce(&mut std::fs::File) -> Result<T>,
) -> Result<T> {
    let mut pending = Pending::new(path)?;
    let value = fill(pending.file())?;
    pending.keep()?;
    Ok(value)
}

/// A file being written for `path` that may be dropped: a temp file in `path`'s folder,
/// renamed over `path` by [`Pending::keep`] (a certified run's proof, kept only once it
/// checked), removed when dropped. [`write_atomic`] in two steps, for a writer on another
/// thread (a `Pending` is `Send`).
pub struct Pending {
    tmp: tempfile::NamedTempFile,
    path: PathBuf,
    /// The size budget of a proof file ([`crate::certify::budget`]), when it has one.
    meter: Option<Box<Meter>>,
}

impl Pending {
    /// A temp file for `path` (errors name `path`, never the temp file).
    pub fn new(path: &Path) -> Result<Pending> {
        let name = path.display().to_string();
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let tmp = tempfile::Builder::new()
            .prefix(".queens-sat-")
            .suffix(".tmp")
            // Like any new file: 0666 minus the umask (tempfile's default 0600 would leak
            // through the rename).
            .permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666))
            .tempfile_in(&dir)
            .map_err(|e| Error::io(&name, plain(&dir, e)))?;
        Ok(Pending {
            tmp,
            path: path.to_path_buf(),
            meter: None,
        })
    }

    /// Refuses the write that would take the file past `budget` bytes ([`OverBudget`], its
    /// text naming the file as `what`, e.g. "the proof", and ending with `hint`), after a
    /// warning on stderr past [`WARN_PERCENT`] % of it (a proof file:
    /// [`crate::certify::budget`]). `u64::MAX` is no budget.
    pub(crate) fn with_budget(
        mut self,
        budget: u64,
        what: &'static str,
        hint: &'static str,
    ) -> Pending {
        if budget < u64::MAX {
            self.meter = Some(Box::new(Meter {
                budget,
                written: 0,
                warned: false,
                name: self.name(),
                what,
                hint,
            }));
        }
        self
    }

    /// The temp file, to write into.
    pub fn file(&mut self) -> &mut std::fs::File {
        self.tmp.as_file_mut()
    }

    /// The path the file is for, as errors name it.
    pub fn name(&self) -> String {
        self.path.display().to_string()
    }

    /// Syncs the file and renames it over the path.
    pub fn keep(mut self) -> Result<()> {
        let name = self.name();
        self.tmp
            .as_file_mut()
            .sync_all()
            .map_err(|e| Error::io(&name, e))?;
        self.tmp
            .persist(&self.path)
            .map_err(|e| Error::io(&name, e.error))?;
        Ok(())
    }
}

impl Write for Pending {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if let Some(meter) = &mut self.meter {
            meter.admit(buf.len())?;
        }
        self.tmp.as_file_mut().write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.tmp.as_file_mut().flush()
    }
}

/// The share of its budget at which a [`Pending::with_budget`] file is warned about.
pub(crate) const WARN_PERCENT: u64 = 80;

/// `bytes` for a message: `1.2 GB`, `340 MB`, `4096 bytes`; `no budget` for `u64::MAX`.
pub(crate) fn show(bytes: u64) -> String {
    crate::error::size(bytes)
}

/// How much of its budget a [`Pending`] file has used: counts the bytes written, warns once
/// on stderr past [`WARN_PERCENT`] %, and refuses the write that would pass the budget.
#[derive(Debug)]
struct Meter {
    budget: u64,
    written: u64,
    warned: bool,
    /// The file, as the warning names it.
    name: String,
    what: &'static str,
    hint: &'static str,
}

impl Meter {
    /// Admits `len` more bytes, or the error of the budget.
    fn admit(&mut self, len: usize) -> std::io::Result<()> {
        let after = self.written.saturating_add(len as u64);
        if after > self.budget {
            return Err(std::io::Error::other(OverBudget {
                budget: self.budget,
                what: self.what,
                hint: self.hint,
            }));
        }
        self.written = after;
        if !self.warned && after >= self.budget / 100 * WARN_PERCENT {
            self.warned = true;
            eprintln!(
                "queens-sat: warning: {} for {} is {}, {WARN_PERCENT} % of its size budget of \
                 {}; it is removed if it passes the budget",
                self.what,
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
    fn a_budget_warns_then_refuses() {
        let dir = tempfile::TempDir::new().unwrap();
        let path = dir.path().join("x.pbp");
        let mut p = Pending::new(&path)
            .unwrap()
            .with_budget(1000, "the proof", "(hint)");
        p.write_all(&[b'x'; 700]).unwrap();
        assert!(!p.meter.as_ref().unwrap().warned);
        p.write_all(&[b'x'; 100]).unwrap();
        assert!(p.meter.as_ref().unwrap().warned);
        p.write_all(&[b'x'; 200]).unwrap();
        let e = p.write_all(b"x").unwrap_err();
        assert_eq!(
            e.to_string(),
            "the proof reached its size budget of 1000 bytes before it was complete, and was \
             removed (hint)"
        );
        // The crate's error for it is the typed one, with the same words.
        let typed = Error::io("x.pbp", e);
        assert!(
            matches!(&typed, Error::Budget { limit: 1000, what, .. } if what == "the proof"),
            "{typed:?}"
        );
        assert_eq!(
            typed.to_string(),
            "x.pbp: the proof reached its size budget of 1000 bytes before it was complete, \
             and was removed (hint)"
        );
        drop(p);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn a_missing_folder_names_the_callers_path() {
        let dir = tempfile::TempDir::new().unwrap();
        let path = dir.path().join("no").join("x.cnf");
        let e = write_text_atomic(&path, "x").unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("{}: No such file or directory (os error 2)", path.display())
        );
        assert!(
            matches!(e, Error::Io { source, .. } if source.kind() == std::io::ErrorKind::NotFound)
        );
    }
}
