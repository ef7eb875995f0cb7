//! Atomic file writes: fill a temp file in the target's folder, then rename it over the target.
//! A failed or interrupted write never leaves a partial file at the target path, and an old file
//! there stays untouched.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

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
    let name = path.display().to_string();
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let mut tmp = tempfile::Builder::new()
        .prefix(".queens-sat-")
        .suffix(".tmp")
        // Like any new file: 0666 minus the umask (tempfile's default 0600 would leak through
        // the rename).
        .permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666))
        .tempfile_in(&dir)
        .map_err(|e| Error::io(&name, plain(&dir, e)))?;
    let value = fill(tmp.as_file_mut())?;
    tmp.as_file_mut()
        .sync_all()
        .map_err(|e| Error::io(&name, e))?;
    tmp.persist(path).map_err(|e| Error::io(&name, e.error))?;
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

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
