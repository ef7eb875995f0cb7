//! The per-run CSV of `bench hard --csv FILE`: one row per finished run, appended and flushed as
//! the run ends (so the rows survive a kill), and read back by `--resume`.
//!
//! Columns: `instance, group, n, seed, solver, amo, status, seconds`; status is `SAT`, `UNSAT`,
//! `UNKNOWN` (time limit or no answer) or `ERROR` (the run failed). Written with `csv::Writer`,
//! so fields holding commas (portfolio names such as `varisat,cadical`) are quoted.

use std::fs::{File, OpenOptions};
use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::error::{Error, Result};
use crate::solve::Answer;

use super::types::{Config, HardInstance, RunResult};

/// The header row.
pub const HEADER: [&str; 8] = [
    "instance", "group", "n", "seed", "solver", "amo", "status", "seconds",
];

/// The key a row is matched by: instance name, solver and amo columns.
pub type Key = (String, String, String);

/// The key of `inst` under `config`, as its row spells it.
pub fn key(inst: &HardInstance, config: &Config) -> Key {
    (inst.name(), config.solver.clone(), config.amo.to_string())
}

/// One row read back from an existing CSV.
#[derive(Clone, Debug)]
pub struct OldRow {
    /// Instance, solver and amo columns.
    pub key: Key,
    /// Status and seconds (an `ERROR` row has lost its message: it says where it came from).
    pub result: RunResult,
}

/// Reads the rows of `path` for `--resume` (none when the file does not exist or is empty). A
/// header other than [`HEADER`], a row without 8 fields, an unknown status, seconds that are not a
/// non-negative number, or a last row without its end of line (a cut-off write) is a parse error
/// naming the file and line.
pub fn read(path: &Path) -> Result<Vec<OldRow>> {
    let name = path.display().to_string();
    let mut text = String::new();
    match File::open(path) {
        Ok(mut f) => f
            .read_to_string(&mut text)
            .map_err(|e| Error::io(&name, e))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Error::io(&name, e)),
    };
    if text.is_empty() {
        return Ok(Vec::new());
    }
    if !text.ends_with('\n') {
        return Err(Error::parse(
            &name,
            text.lines().count(),
            "the last row is cut off (no end of line); delete it to resume",
        ));
    }
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    let mut rows = Vec::new();
    for (k, record) in reader.records().enumerate() {
        let record = record.map_err(|e| {
            let line = e.position().map_or(k + 1, |p| p.line() as usize);
            Error::parse(&name, line, format!("not a CSV row: {e}"))
        })?;
        let line = record.position().map_or(k + 1, |p| p.line() as usize);
        let bad = |msg: String| Error::parse(&name, line, msg);
        if k == 0 {
            if record.iter().ne(HEADER) {
                return Err(bad(format!(
                    "header is not {}: {:?}",
                    HEADER.join(","),
                    record.iter().collect::<Vec<_>>()
                )));
            }
            continue;
        }
        if record.len() != HEADER.len() {
            return Err(bad(format!(
                "{} fields, expected {}",
                record.len(),
                HEADER.len()
            )));
        }
        for (i, what) in [(0, "instance"), (4, "solver"), (5, "amo")] {
            if record[i].is_empty() {
                return Err(bad(format!("empty {what}")));
            }
        }
        for (i, what) in [(2, "n"), (3, "seed")] {
            if record[i].parse::<u64>().is_err() {
                return Err(bad(format!("{what} {:?} is not a number", &record[i])));
            }
        }
        let seconds: f64 = record[7]
            .parse()
            .ok()
            .filter(|s: &f64| s.is_finite() && *s >= 0.0)
            .ok_or_else(|| bad(format!("seconds {:?} is not a number >= 0", &record[7])))?;
        let outcome = match &record[6] {
            "SAT" => Ok(Answer::Sat(())),
            "UNSAT" => Ok(Answer::Unsat),
            "UNKNOWN" => Ok(Answer::Unknown(format!("{name}:{line}"))),
            "ERROR" => Err(format!("ERROR in {name}:{line}")),
            other => {
                return Err(bad(format!(
                    "status {other:?} is not SAT, UNSAT, UNKNOWN or ERROR"
                )));
            }
        };
        rows.push(OldRow {
            key: (
                record[0].to_string(),
                record[4].to_string(),
                record[5].to_string(),
            ),
            result: RunResult { outcome, seconds },
        });
    }
    Ok(rows)
}

/// The open CSV: rows are appended one `write` each, under a lock, as runs finish.
pub struct Log {
    path: PathBuf,
    file: Mutex<File>,
}

impl Log {
    /// Opens `path`: appending when `resume` (the header written only if the file is new or
    /// empty), else replaced by a file holding just the header.
    pub fn open(path: &Path, resume: bool) -> Result<Log> {
        let name = path.display().to_string();
        let mut file = if resume {
            OpenOptions::new().create(true).append(true).open(path)
        } else {
            File::create(path)
        }
        .map_err(|e| Error::io(&name, e))?;
        let empty = file.metadata().map_err(|e| Error::io(&name, e))?.len() == 0;
        if empty {
            let bytes = record_bytes(&HEADER.map(str::to_string))?;
            file.write_all(&bytes)
                .and_then(|()| file.flush())
                .map_err(|e| Error::io(&name, e))?;
        }
        Ok(Log {
            path: path.to_path_buf(),
            file: Mutex::new(file),
        })
    }

    /// Appends the row of one finished run (one `write`, then flush).
    pub fn append(&self, inst: &HardInstance, config: &Config, r: &RunResult) -> Result<()> {
        let status = match &r.outcome {
            Ok(answer) => answer.label(),
            Err(_) => "ERROR",
        };
        let bytes = record_bytes(&[
            inst.name(),
            inst.group.title().to_string(),
            inst.n.to_string(),
            inst.seed.to_string(),
            config.solver.clone(),
            config.amo.to_string(),
            status.to_string(),
            format!("{:.3}", r.seconds),
        ])?;
        let mut file = self.file.lock().unwrap_or_else(|p| p.into_inner());
        file.write_all(&bytes)
            .and_then(|()| file.flush())
            .map_err(|e| Error::io(self.path.display().to_string(), e))
    }
}

/// One CSV record, with its end of line.
fn record_bytes(fields: &[String]) -> Result<Vec<u8>> {
    let fail = |e: String| Error::Internal(format!("CSV row: {e}"));
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(fields).map_err(|e| fail(e.to_string()))?;
    w.into_inner().map_err(|e| fail(e.to_string()))
}
