//! DIMACS CNF, the `ExportFormat` of SAT solvers: writing a problem's CNF with its header to
//! any writer (`write_cnf`); to stdout or a file replaced atomically, in this or another
//! format, see [`crate::export::export`]. The answers are parsed by [`crate::export::output`].

use std::borrow::Cow;
use std::io::Write;

use super::{ExportFormat, FormatInfo, HeaderLine, header_vars, model_board};
use crate::answer::Answer;
use crate::board::Board;
use crate::encode::dimacs::DimacsWriter;
use crate::encode::{EncodeOptions, Encoder, Stats};
use crate::error::{Error, Result, clip};
use crate::export::header::{Header, write_header};
use crate::presolve::Problem;

/// DIMACS CNF: the encoder's clauses under a `c` comment header ending with `p cnf V C`.
pub struct Dimacs;

impl ExportFormat for Dimacs {
    const INFO: FormatInfo = FormatInfo {
        name: "dimacs",
        title: "DIMACS",
        help: "CNF, SAT solvers",
        answer_help: "SAT-competition `s`/`v` lines or a minisat result file",
        extension: "cnf",
        comment: 'c',
        stats_names: ("clauses", "literals"),
        cnf: true,
        cell_vars: true,
        size_line: "'p cnf' line",
        answer_example: "c a SAT solver\ns SATISFIABLE\nv -1 2 -3 -4 -5 -6 -7 8\nv 9 -10 -11 -12 -13 -14 15 -16 0\n",
    };

    fn write<W: Write>(
        w: W,
        problem: &Problem,
        options: EncodeOptions,
        instance_name: Option<&str>,
    ) -> Result<(W, WriteReport)> {
        write_cnf(w, problem, options, instance_name)
    }

    fn stats(problem: &Problem, options: EncodeOptions) -> Result<Stats> {
        Encoder::with_options(problem, options).stats()
    }

    fn decode(header: &Header, source: &str, text: &str) -> Result<Answer<Board>> {
        let vars = header_vars(header, source)?;
        let model = crate::export::output::parse_output(source, text, vars)?;
        Ok(model_board(header, model))
    }

    /// `c` comment lines up to and including `p cnf V C`; any other line is an error.
    fn header_line(line: &str) -> std::result::Result<HeaderLine<'_>, String> {
        if let Some(rest) = line.strip_prefix("p cnf") {
            return Ok(HeaderLine::Size {
                counts: Cow::Borrowed(rest),
                what: "'p cnf'",
                last: true,
            });
        }
        match line.strip_prefix('c') {
            Some(body) => Ok(HeaderLine::Comment(body.trim())),
            None => Err(format!(
                "expected a comment or 'p cnf' line, found '{}'",
                clip(line)
            )),
        }
    }
}

// `Output` and `WriteReport` are every format's; they live in the interface file
// (`export/mod.rs`), so that it does not import this format. Re-exported at their old path.
pub use super::{Output, WriteReport};

/// Writes `problem`'s CNF with header to `w`; checks that the header counts match what was
/// streamed.
#[cfg_attr(
    not(feature = "oracle"),
    visibility::make(pub(crate)),
    allow(dead_code)
)]
pub fn write_cnf<W: Write>(
    w: W,
    problem: &Problem,
    options: impl Into<EncodeOptions>,
    instance_name: Option<&str>,
) -> Result<(W, WriteReport)> {
    write_cnf_until(w, problem, options.into(), instance_name, None)
}

/// [`write_cnf`] that stops once `cancel` stops (raised, or its deadline passed) with
/// [`Error::Interrupted`]: counting the CNF polls it as [`Encoder::until`] does, and the writer
/// every few thousand clauses ([`DimacsWriter::until`]), so a CNF of hundreds of millions of
/// clauses (an external solver's input) stops within milliseconds.
pub(crate) fn write_cnf_until<W: Write>(
    w: W,
    problem: &Problem,
    options: EncodeOptions,
    instance_name: Option<&str>,
    cancel: Option<&crate::interrupt::Cancel>,
) -> Result<(W, WriteReport)> {
    let mut encoder = Encoder::with_options(problem, options);
    if let Some(c) = cancel {
        encoder = encoder.until(c);
    }
    let stats = encoder.stats()?;
    let mut writer = DimacsWriter::with_vars(w, stats.vars);
    if let Some(c) = cancel {
        writer = writer.until(c);
    }
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
        return Err(Error::Internal(format!(
            "header announced {stats:?} but the encoder emitted {emitted:?}"
        )));
    }
    Ok((w, WriteReport::plain(stats, bytes)))
}
