//! Export to other solver families' formats, and decoding their answers.
//!
//! One [`Problem`], four formats ([`Format`]): DIMACS CNF (the encoder and [`crate::export::dimacs`]),
//! OPB for pseudo-Boolean solvers ([`opb`]), CPLEX LP for MIP solvers ([`lp`]) and MiniZinc for
//! CP solvers ([`mzn`]). Every file starts with the same queens-sat comment header
//! ([`crate::export::header::comment_header`]) under its format's comment character, so
//! [`crate::export::header::read_header`] reads any of them back and [`decode_answer`] turns the
//! matching solver's output into a board.
//!
//! The 0-1 models (OPB and LP) use the cell variables of the DIMACS file, with the same
//! numbering (`x1..xL`, or `x_r_c` named after the cell in LP) and no auxiliaries: rows and
//! columns are `= 1`, the other lines with two or more live cells `<= 1`, and every pair of
//! live cells a leap apart `<= 1` over two variables. The MiniZinc model has one integer per row
//! (see [`mzn`]). Presolve's work carries over: the models range over the live cells only.
//!
//! Adding a format is one file here plus one [`Format`] variant (with its name, extension and
//! comment character) and its arms in [`write()`] and [`decode_answer`].

pub mod dimacs;
pub mod header;
pub mod lp;
pub mod mzn;
pub mod opb;
pub mod output;

use std::io::{self, Write};
use std::path::Path;

use crate::answer::Answer;
use crate::atomic::write_atomic;
use crate::board::Board;
use crate::encode::amo::AmoKind;
use crate::encode::text::TextOut;
use crate::encode::{EncodeOptions, Encoder, Lit, Stats};
use crate::error::{Error, Result};
use crate::export::dimacs::{Output, WriteReport, write_cnf};
use crate::export::header::Header;
use crate::export::header::{HeaderFields, comment_header};
use crate::interrupt::{Cancel, CancelWrite};
use crate::piece::LineKind;
use crate::presolve::Problem;

/// An export format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// DIMACS CNF (SAT solvers).
    Dimacs,
    /// OPB, the pseudo-Boolean competition format (clasp, RoundingSat, ...).
    Opb,
    /// CPLEX LP, a 0-1 ILP (CBC, GLPK, HiGHS, SCIP, Gurobi, ...).
    Lp,
    /// MiniZinc, a CP model with one integer per row (Gecode, Chuffed, ...).
    Mzn,
}

impl Format {
    /// Every format, in `--to` order.
    pub const ALL: [Format; 4] = [Format::Dimacs, Format::Opb, Format::Lp, Format::Mzn];

    /// The name used by `encode --to` and in headers (`format opb`).
    pub fn name(self) -> &'static str {
        match self {
            Format::Dimacs => "dimacs",
            Format::Opb => "opb",
            Format::Lp => "lp",
            Format::Mzn => "mzn",
        }
    }

    /// Looks a format up by name, or a one-line usage error listing the known ones.
    ///
    /// ```
    /// use queens_sat::export::Format;
    /// assert_eq!(Format::parse("opb").unwrap(), Format::Opb);
    /// assert!(Format::parse("xml").unwrap_err().to_string().contains("dimacs, opb, lp, mzn"));
    /// ```
    pub fn parse(name: &str) -> Result<Format> {
        Format::ALL
            .into_iter()
            .find(|f| f.name() == name)
            .ok_or_else(|| {
                let known: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
                Error::Usage(format!(
                    "unknown --to format '{name}' (known: {})",
                    known.join(", ")
                ))
            })
    }

    /// The file extension of default output names.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Dimacs => "cnf",
            Format::Opb => "opb",
            Format::Lp => "lp",
            Format::Mzn => "mzn",
        }
    }

    /// The character that starts a comment line.
    pub fn comment_char(self) -> char {
        match self {
            Format::Dimacs => 'c',
            Format::Opb => '*',
            Format::Lp => '\\',
            Format::Mzn => '%',
        }
    }

    /// The format of a file whose first line is `line`: a leading `*`, `\` or `%` names OPB, LP
    /// or MiniZinc; anything else is taken for DIMACS.
    pub fn detect(line: &str) -> Format {
        match line.trim_start().chars().next() {
            Some('*') => Format::Opb,
            Some('\\') => Format::Lp,
            Some('%') => Format::Mzn,
            _ => Format::Dimacs,
        }
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Writes `problem` in `format` to `w` with its header. `options` matter for DIMACS only (the
/// AMO encoding, symmetry and implied constraints); the other formats state at-most-one natively
/// and reject `--symmetric`, `--break-symmetry` and `--implied` with a usage error.
pub fn write<W: Write>(
    format: Format,
    w: W,
    problem: &Problem,
    options: impl Into<EncodeOptions>,
    instance_name: Option<&str>,
) -> Result<(W, WriteReport)> {
    let options = options.into();
    if format == Format::Dimacs {
        return write_cnf(w, problem, options, instance_name);
    }
    if options.symmetric.is_some()
        || !options.lex_leader.is_empty()
        || options.implied != crate::encode::implied::Implied::None
    {
        return Err(Error::Usage(format!(
            "--symmetric, --break-symmetry and --implied are DIMACS-only; --to {format} writes the plain model"
        )));
    }
    if format == Format::Mzn && !problem.piece.lines.contains(&LineKind::Row) {
        return Err(Error::Usage(format!(
            "--to mzn needs a piece that attacks along rows (one variable per row); {} does not",
            problem.piece.name
        )));
    }
    let mut out = TextOut::new(w);
    let stats = match format {
        Format::Opb => opb::write(&mut out, problem, instance_name),
        Format::Lp => lp::write(&mut out, problem, instance_name),
        Format::Mzn => mzn::write(&mut out, problem, instance_name),
        Format::Dimacs => unreachable!("handled above"),
    };
    let (w, bytes) = out.finish().map_err(|e| {
        if crate::interrupt::is_cancelled_io(&e) {
            Error::Interrupted
        } else {
            Error::io(format!("<{format} output>"), e)
        }
    })?;
    Ok((w, WriteReport { stats, bytes }))
}

/// Writes `problem` in `format` to `out`: stdout, or a file replaced atomically (nothing is left
/// at the target path when anything fails, including a raised `cancel`).
pub fn export(
    out: &Output,
    format: Format,
    problem: &Problem,
    options: impl Into<EncodeOptions>,
    instance_name: Option<&str>,
    cancel: &Cancel,
) -> Result<WriteReport> {
    let options = options.into();
    match out {
        Output::Stdout => {
            let stdout = CancelWrite::new(io::stdout().lock(), cancel.clone());
            Ok(write(format, stdout, problem, options, instance_name)?.1)
        }
        Output::File(path) => write_atomic(path, |f| {
            let f = CancelWrite::new(f, cancel.clone());
            let (_, report) =
                write(format, f, problem, options, instance_name).map_err(|e| match e {
                    // Name the real target instead of the writer's placeholder.
                    Error::Io { source, .. } => Error::io(path.display().to_string(), source),
                    other => other,
                })?;
            Ok(report)
        }),
    }
}

/// Size of `problem`'s model in `format` without writing it: variables, constraints (clauses
/// for DIMACS) and terms (literals).
pub fn stats(
    format: Format,
    problem: &Problem,
    options: impl Into<EncodeOptions>,
) -> Result<Stats> {
    let options = options.into();
    if format == Format::Dimacs {
        return Encoder::with_options(problem, options).stats();
    }
    let (_, report) = write(format, io::sink(), problem, options, None)?;
    Ok(report.stats)
}

/// The board in a solver's answer `text` (named `source` in errors) to the file whose header is
/// `header`, read in the header's format:
///
/// - DIMACS: SAT-competition `s`/`v` lines or a minisat result file
///   ([`crate::export::output::parse_output`]);
/// - OPB: PB-competition `s`/`v` lines with `x5` / `-x5` literals (clasp's output);
/// - LP: CBC's solution file (`cbc FILE.lp solve solu OUT`), see [`lp::parse_cbc`];
/// - MiniZinc: the default output of `minizinc` (the first solution), see [`mzn::parse_output`].
///
/// The board is not verified here: callers check it against `header.instance`.
pub fn decode_answer(header: &Header, source: &str, text: &str) -> Result<Answer<Board>> {
    let vars = usize::try_from(header.num_vars)
        .map_err(|_| Error::parse_file(source, "too many variables"))?;
    let model = match header.format {
        Format::Dimacs => crate::export::output::parse_output(source, text, vars)?,
        Format::Opb => opb::parse_output(source, text, vars)?,
        Format::Lp => lp::parse_cbc(source, text, &header.varmap)?,
        Format::Mzn => {
            let out = mzn::parse_output(source, text, header.instance.n)?;
            return Ok(out.first_answer().map(|q| mzn::board(&q)));
        }
    };
    Ok(model.map(|m| crate::decode::decode(&header.varmap, &header.instance.placed, &m)))
}

/// [`decode_answer`] for a file; invalid UTF-8 is a parse error naming its line.
pub fn decode_answer_file(header: &Header, path: &Path) -> Result<Answer<Board>> {
    let source = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| Error::io(source.clone(), e))?;
    let text = std::str::from_utf8(&bytes).map_err(|e| {
        let valid = e.valid_up_to();
        let line = 1 + bytes[..valid].iter().filter(|&&b| b == b'\n').count();
        Error::parse(
            &source,
            line,
            format!("invalid UTF-8 at byte offset {valid}"),
        )
    })?;
    decode_answer(header, &source, text)
}

/// The header of an exported (non-DIMACS) file: the DIMACS header's lines under the format's
/// comment character, with `format NAME` and, for LP and MiniZinc, `size V C`.
fn header_text(format: Format, problem: &Problem, instance_name: Option<&str>) -> String {
    let prefix = format!("{} ", format.comment_char());
    comment_header(
        &prefix,
        &HeaderFields {
            format: Some(format.name()),
            amo: "none",
            symmetric: None,
            lex_leader: &[],
            implied: crate::encode::implied::Implied::None,
            instance_name,
        },
        problem,
    )
}

/// One constraint of the 0-1 model, as the OPB and LP writers see it.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Constraint<'a> {
    /// A rider line: `= 1` when `exactly_one`, else `<= 1`.
    Line {
        kind: LineKind,
        key: u32,
        exactly_one: bool,
        vars: &'a [Lit],
    },
    /// Two live cells a leap apart (the `index`-th pair): `a + b <= 1`.
    Leap { index: u64, a: u32, b: u32 },
    /// A fixed cell of the full encoding (DIMACS unit clause): `x = 1` or `x = 0`.
    Unit { var: u32, value: bool },
}

/// Calls `f` with every constraint of `problem`'s 0-1 model (units, lines, leaps) and returns
/// how many there were and their total number of terms. `stop` is polled between constraints
/// (a failed writer ends the walk early). Presolve's UNSAT is the caller's business.
pub(crate) fn walk_01(
    problem: &Problem,
    stop: &dyn Fn() -> bool,
    mut f: impl FnMut(Constraint),
) -> (u64, u64) {
    let encoder = Encoder::new(problem, AmoKind::DEFAULT);
    let (mut count, mut terms) = (0u64, 0u64);
    for &u in &problem.units {
        f(Constraint::Unit {
            var: u.unsigned_abs(),
            value: u > 0,
        });
        count += 1;
        terms += 1;
    }
    encoder.for_each_line_keyed(|kind, key, exactly_one, vars| {
        if stop() {
            return;
        }
        f(Constraint::Line {
            kind,
            key,
            exactly_one,
            vars,
        });
        count += 1;
        terms += vars.len() as u64;
    });
    let mut index = 0;
    encoder.leap_pairs(|a, b| {
        f(Constraint::Leap { index, a, b });
        index += 1;
    });
    (count + index, terms + 2 * index)
}

/// Number of constraints [`walk_01`] calls back with, for headers written before the body:
/// line sizes are counted per key (no line is built) and leap pairs are counted.
pub(crate) fn count_01(problem: &Problem) -> u64 {
    let n = problem.n;
    let map = &problem.varmap;
    let mut count = problem.units.len() as u64;
    let wanted = |len: u32, exactly_one: bool| len >= 2 || (exactly_one && len == 1);
    for &kind in problem.piece.lines {
        let exactly_one = kind.needs_exactly_one(n);
        if kind == LineKind::Row {
            count += (0..n)
                .filter(|&r| wanted(map.row_len(r), exactly_one))
                .count() as u64;
            continue;
        }
        let mut len = vec![0u32; kind.count(n) as usize];
        for (cell, _) in map.cells() {
            len[kind.key(cell, n) as usize] += 1;
        }
        count += len.iter().filter(|&&l| wanted(l, exactly_one)).count() as u64;
    }
    count + Encoder::new(problem, AmoKind::DEFAULT).leap_pairs(|_, _| ())
}

/// A line's short name in LP constraint names and MiniZinc comments.
pub(crate) fn line_tag(kind: LineKind) -> &'static str {
    match kind {
        LineKind::Row => "row",
        LineKind::Column => "col",
        LineKind::Diagonal => "diag",
        LineKind::AntiDiagonal => "anti",
    }
}
