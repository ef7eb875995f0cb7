//! Writing a problem's CNF with its header: to any writer ([`write_cnf`]), or to stdout or a file
//! replaced atomically ([`export_cnf`]).

use std::io::Write;
use std::path::PathBuf;

use crate::atomic::write_atomic;
use crate::encode::dimacs::{DimacsWriter, write_header};
use crate::encode::{EncodeOptions, Encoder, Stats};
use crate::error::{Error, Result};
use crate::interrupt::{Cancel, CancelWrite};
use crate::presolve::Problem;

/// Where a DIMACS file goes.
#[derive(Clone, Debug)]
pub enum Output {
    /// Standard output.
    Stdout,
    /// A file, written atomically (temp file in the same folder, then rename).
    File(PathBuf),
}

/// What writing a CNF produced.
#[derive(Clone, Copy, Debug)]
pub struct WriteReport {
    /// Variables, clauses and literals.
    pub stats: Stats,
    /// Bytes written.
    pub bytes: u64,
}

/// Writes `problem`'s CNF with header to `w`; checks that the header counts match what was
/// streamed.
pub fn write_cnf<W: Write>(
    w: W,
    problem: &Problem,
    options: impl Into<EncodeOptions>,
    instance_name: Option<&str>,
) -> Result<(W, WriteReport)> {
    let encoder = Encoder::with_options(problem, options.into());
    let stats = encoder.stats()?;
    let mut writer = DimacsWriter::new(w);
    write_header(&mut writer, &encoder, instance_name, &stats);
    let emitted = encoder.encode(&mut writer);
    let (w, _, bytes) = writer.finish().map_err(|e| {
        if crate::interrupt::is_cancelled_io(&e) {
            Error::Interrupted
        } else {
            Error::io("<cnf output>", e)
        }
    })?;
    if emitted != stats {
        return Err(Error::Solver(format!(
            "internal error: header announced {stats:?} but the encoder emitted {emitted:?}"
        )));
    }
    Ok((w, WriteReport { stats, bytes }))
}

/// Writes the CNF to `out`; a file target is replaced atomically, and nothing is left at the
/// target path when anything fails, including a raised `cancel` ([`Error::Interrupted`]).
pub fn export_cnf(
    out: &Output,
    problem: &Problem,
    options: impl Into<EncodeOptions>,
    instance_name: Option<&str>,
    cancel: &Cancel,
) -> Result<WriteReport> {
    let options = options.into();
    match out {
        Output::Stdout => {
            let stdout = CancelWrite::new(std::io::stdout().lock(), cancel.clone());
            Ok(write_cnf(stdout, problem, options, instance_name)?.1)
        }
        Output::File(path) => write_atomic(path, |f| {
            let f = CancelWrite::new(f, cancel.clone());
            let (_, report) =
                write_cnf(f, problem, options, instance_name).map_err(|e| match e {
                    // Name the real target instead of the writer's placeholder.
                    Error::Io { source, .. } => Error::io(path.display().to_string(), source),
                    other => other,
                })?;
            Ok(report)
        }),
    }
}
