//! Writing a problem's CNF with its header to any writer ([`write_cnf`]); to stdout or a file
//! replaced atomically, in this or another format, see [`crate::export::export`].

use std::io::Write;
use std::path::PathBuf;

use crate::encode::dimacs::DimacsWriter;
use crate::encode::{EncodeOptions, Encoder, Stats};
use crate::error::{Error, Result};
use crate::export::header::write_header;
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
