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

/// Runs `fill` on a temp file in `path`'s folder and renames it to `path` on success; on failure
/// the temp file is removed and any old file at `path` is untouched.
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
        .map_err(|e| Error::io(dir.display().to_string(), e))?;
    let value = fill(tmp.as_file_mut())?;
    tmp.as_file_mut()
        .sync_all()
        .map_err(|e| Error::io(&name, e))?;
    tmp.persist(path).map_err(|e| Error::io(&name, e.error))?;
    Ok(value)
}
