//! Export to other solver families' formats, and decoding their answers.
//!
//! One [`Problem`], one format per file, each implementing `ExportFormat` and listed once in
//! the `formats!` registry at the end of this file: DIMACS CNF ([`dimacs`], the encoder's
//! clauses), OPB for pseudo-Boolean solvers ([`opb`]), CPLEX LP for MIP solvers ([`lp`]) and
//! MiniZinc for CP solvers ([`mzn`]). Every file starts with the same queens-sat comment header
//! (`crate::export::header::comment_header`) under its format's comment character, so
//! `crate::export::header::read_header` reads any of them back and `decode_answer` turns the
//! matching solver's output into a board.
//!
//! The 0-1 models (OPB and LP) use the cell variables of the DIMACS file, with the same
//! numbering (`x1..xL`, or `x_r_c` named after the cell in LP) and no auxiliaries: rows and
//! columns are `= 1`, the other lines with two or more live cells `<= 1`, and every pair of
//! live cells a leap apart `<= 1` over two variables. The MiniZinc model has one integer per row
//! (see [`mzn`]). Presolve's work carries over: the models range over the live cells only.
//!
//! # Adding a format
//!
//! Write one file, say `foo.rs`, with a unit type implementing `ExportFormat` (its
//! [`FormatInfo`]: `--to` name, extension, comment character, help lines...; its writer; its
//! solver's answer parser), declare it (`pub mod foo;`, beside the other formats' modules: a
//! plain declaration, so that rustfmt sees the file) and add one entry to the `formats!` list at
//! the end of this file:
//!
//! ```text
//! /// Doc comment of the Format variant.
//! Foo => foo::Foo,
//! ```
//!
//! The registry generates the `pub use`, the [`Format`] variant, [`Format::ALL`], the
//! `--to` parser ([`Format::parse`]) and help ([`Format::help`]), the `decode --model` help
//! ([`Format::answer_help`]), the dispatch of [`write()`], [`stats`], `decode_answer`, header
//! reading ([`Format::header_line`]) and detection ([`Format::detect`]). `bench --export` and the
//! tests walk [`Format::ALL`], so a registered format cannot be left out of them.

pub mod gbd;
pub mod header;
pub mod output;
pub mod pipe;

// The formats' modules, listed in the `formats!` table at the end of this file.
pub mod dimacs;
pub mod lp;
pub mod mzn;
pub mod opb;

use std::borrow::Cow;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::answer::{Answer, Model};
use crate::atomic_file::write_atomic;
use crate::board::Board;
use crate::encode::amo::AmoKind;
use crate::encode::text::TextOut;
use crate::encode::{EncodeOptions, Encoder, Lit, Stats};
use crate::error::{BadOption, Error, Opt, Result};
use crate::export::header::Header;
use crate::export::header::{HeaderFields, comment_header};
use crate::interrupt::{Cancel, CancelWrite};
use crate::piece::LineKind;
use crate::presolve::Problem;
pub use pipe::WriteOptions;

/// Where an exported file goes.
#[derive(Clone, Debug)]
pub enum Output {
    /// Standard output.
    Stdout,
    /// A file, written atomically (temp file in the same folder, then rename).
    File(PathBuf),
}

/// What writing a CNF (or another format) produced.
#[derive(Clone, Debug, Default)]
pub struct WriteReport {
    /// Variables, clauses and literals.
    pub stats: Stats,
    /// Bytes of text written (before any compression).
    pub bytes: u64,
    /// Bytes that reached the file: [`WriteReport::bytes`] after compression.
    pub file_bytes: u64,
    /// The GBD hash ([`crate::export::gbd`]), when it was asked for (DIMACS only).
    pub gbdhash: Option<String>,
}

impl WriteReport {
    /// The report of `bytes` of text written as they are (no compression, no hash).
    pub fn plain(stats: Stats, bytes: u64) -> WriteReport {
        WriteReport {
            stats,
            bytes,
            file_bytes: bytes,
            gbdhash: None,
        }
    }
}

/// What the registry, the CLI and the header reader know about a format besides its code.
#[derive(Clone, Copy, Debug)]
pub struct FormatInfo {
    /// The `encode --to` name, also the header's `format NAME` line (lower case).
    pub name: &'static str,
    /// The format's name in prose (`MiniZinc`), for `decode --model` help.
    pub title: &'static str,
    /// What the format is for, in `--to` help: `opb (pseudo-Boolean)`.
    pub help: &'static str,
    /// What its solver's answer looks like, in `decode --model` help: `for OPB ...`.
    pub answer_help: &'static str,
    /// The file extension of default output names.
    pub extension: &'static str,
    /// The character that starts a comment line (every header line).
    pub comment: char,
    /// `encode --stats` names of [`Stats::clauses`] and [`Stats::literals`].
    pub stats_names: (&'static str, &'static str),
    /// Whether the file is the encoder's CNF: `--amo` (also part of default output names),
    /// `--symmetric`, `--break-symmetry` and `--implied` apply, and the header has neither a
    /// `format` line nor its name (it is "a CNF header"). The other formats state at-most-one
    /// natively and refuse those options.
    pub cnf: bool,
    /// Whether every live cell is a variable of the model (not in MiniZinc: one per row); the
    /// header reader bounds the cell map by the declared variables when so.
    pub cell_vars: bool,
    /// The header line that states the model's size, for "missing ..." errors.
    pub size_line: &'static str,
    /// A solver's answer to this format's model of the 4-queens problem (`encode -n 4 --to
    /// NAME`): the board `.Q.. / ...Q / Q... / ..Q.`. The tests decode it and fuzz its mutations.
    pub answer_example: &'static str,
}

impl FormatInfo {
    /// The defaults of a model that is not CNF: `constraints` and `terms`, every cell a
    /// variable, a `size V C` comment line. Formats fill the rest (`..FormatInfo::MODEL`).
    pub const MODEL: FormatInfo = FormatInfo {
        name: "",
        title: "",
        help: "",
        answer_help: "",
        extension: "",
        comment: '#',
        stats_names: ("constraints", "terms"),
        cnf: false,
        cell_vars: true,
        size_line: "'size' comment line",
        answer_example: "",
    };
}

/// One line of a file's header, as its format reads it (`ExportFormat::header_line`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HeaderLine<'a> {
    /// A header comment: its text after the comment character (`piece queen`).
    Comment(&'a str),
    /// The line stating the model's size: the text holding the two counts `V C`, the line's
    /// name in errors (`'p cnf'`), and whether the header ends with it.
    Size {
        /// The two counts (and nothing else but spaces).
        counts: Cow<'a, str>,
        /// The line's name in errors.
        what: &'static str,
        /// Whether this is the header's last line.
        last: bool,
    },
    /// The first line after the header (not read).
    End,
}

/// An export format: one file each, listed in the `formats!` registry of [`crate::export`].
pub(crate) trait ExportFormat {
    /// Names, help lines, extension, comment character (see [`FormatInfo`]).
    const INFO: FormatInfo;

    /// Writes `problem` with its header to `w`. `options` are the encoder's (see
    /// [`FormatInfo::cnf`]; other formats refuse them with [`refuse_cnf_options`]).
    fn write<W: Write>(
        w: W,
        problem: &Problem,
        options: EncodeOptions,
        instance_name: Option<&str>,
    ) -> Result<(W, WriteReport)>;

    /// Size of the model without writing it: variables, constraints (clauses) and terms
    /// (literals). By default the model is written to a sink.
    fn stats(problem: &Problem, options: EncodeOptions) -> Result<Stats> {
        Ok(Self::write(io::sink(), problem, options, None)?.1.stats)
    }

    /// The board in a solver's answer `text` (named `source` in errors) to the file whose header
    /// is `header` (not verified here).
    fn decode(header: &Header, source: &str, text: &str) -> Result<Answer<Board>>;

    /// Whether a file whose first line is `line` is in this format (by default: the line starts
    /// with the comment character). DIMACS is taken when no other format claims the line.
    fn detect(line: &str) -> bool {
        line.trim_start().starts_with(Self::INFO.comment)
    }

    /// What header line `line` (trimmed) is; `Err` is a parse error's message. By default the
    /// header is the leading block of comment lines, with a `size V C` comment
    /// ([`comment_header_line`]).
    fn header_line(line: &str) -> std::result::Result<HeaderLine<'_>, String> {
        Ok(comment_header_line(Self::INFO.comment, line))
    }
}

/// The default [`ExportFormat::header_line`]: a line starting with `comment` is a header comment
/// (`size V C` is the size line), any other line ends the header.
pub(crate) fn comment_header_line(comment: char, line: &str) -> HeaderLine<'_> {
    let Some(body) = line.strip_prefix(comment) else {
        return HeaderLine::End;
    };
    let body = body.trim();
    match body.split_once(' ').unwrap_or((body, "")) {
        ("size", val) => HeaderLine::Size {
            counts: Cow::Borrowed(val),
            what: "'size'",
            last: false,
        },
        _ => HeaderLine::Comment(body),
    }
}

/// Refuses the encoder's options for a format that is not CNF (a usage error).
pub(crate) fn refuse_cnf_options(name: &str, options: &EncodeOptions) -> Result<()> {
    let why = "it is DIMACS-only; this format writes the plain model";
    if let Some(g) = options.symmetric {
        return Err(BadOption::conflicts(
            Opt::Symmetric,
            g.name(),
            Opt::To,
            name,
            why,
        ));
    }
    if !options.lex_leader.is_empty() {
        return Err(BadOption::conflicts(
            Opt::BreakSymmetry,
            "lex",
            Opt::To,
            name,
            why,
        ));
    }
    if options.implied != crate::encode::implied::Implied::None {
        return Err(BadOption::conflicts(
            Opt::Implied,
            options.implied.name(),
            Opt::To,
            name,
            why,
        ));
    }
    Ok(())
}

/// Runs `body` over a text writer on `w` and finishes it: the written model's report, or its
/// I/O error named `<NAME output>` (cancellation is [`Error::Interrupted`]).
pub(crate) fn write_text<W: Write>(
    name: &str,
    w: W,
    body: impl FnOnce(&mut TextOut<W>) -> Stats,
) -> Result<(W, WriteReport)> {
    let mut out = TextOut::new(w);
    let stats = body(&mut out);
    let (w, bytes) = out.finish().map_err(|e| {
        if crate::interrupt::is_cancelled_io(&e) {
            Error::Interrupted
        } else {
            Error::io(format!("<{name} output>"), e)
        }
    })?;
    Ok((w, WriteReport::plain(stats, bytes)))
}

/// The board of a `model` over the header's cell variables.
pub(crate) fn model_board(header: &Header, model: Answer<Model>) -> Answer<Board> {
    model.map(|m| crate::decode::decode(&header.varmap, &header.instance.placed, &m))
}

/// The header's variable count as a length.
pub(crate) fn header_vars(header: &Header, source: &str) -> Result<usize> {
    usize::try_from(header.num_vars).map_err(|_| Error::parse_file(source, "too many variables"))
}

impl Format {
    /// The default `--to` format, and the format of a file no other format claims
    /// ([`Format::detect`]).
    pub const DEFAULT: Format = Format::Dimacs;

    /// The format's [`FormatInfo`].
    pub const fn info(self) -> &'static FormatInfo {
        self.registered()
    }

    /// The name used by `encode --to` and in headers (`format opb`).
    pub const fn name(self) -> &'static str {
        self.info().name
    }

    /// The file extension of default output names.
    pub const fn extension(self) -> &'static str {
        self.info().extension
    }

    /// The character that starts a comment line.
    pub const fn comment_char(self) -> char {
        self.info().comment
    }

    /// Whether the file is the encoder's CNF ([`FormatInfo::cnf`]).
    pub const fn is_cnf(self) -> bool {
        self.info().cnf
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
                crate::error::BadOption::unknown(crate::error::Opt::To, name, &known)
            })
    }

    /// The format of a file whose first line is `line`: the first format other than
    /// [`Format::DEFAULT`] that claims it (`ExportFormat::detect`: a leading `*`, `\` or `%`
    /// names OPB, LP or MiniZinc), else DIMACS.
    pub fn detect(line: &str) -> Format {
        Format::ALL
            .into_iter()
            .find(|&f| f != Format::DEFAULT && f.detects(line))
            .unwrap_or(Format::DEFAULT)
    }

    /// The `encode --to` help text, from the registry: `Output format: dimacs (...), ... or
    /// mzn (...)`, and which options are for the CNF.
    pub fn help() -> String {
        let items: Vec<String> = Format::ALL
            .iter()
            .map(|f| format!("{} ({})", f.name(), f.info().help))
            .collect();
        let (last, rest) = items.split_last().expect("formats are registered");
        let list = if rest.is_empty() {
            last.clone()
        } else {
            format!("{} or {last}", rest.join(", "))
        };
        let cnf: Vec<&str> = Format::ALL
            .iter()
            .filter(|f| f.is_cnf())
            .map(|f| f.name())
            .collect();
        format!(
            "Output format: {list}. `--amo`, `--symmetric` and `--break-symmetry` are for {}",
            cnf.join(", ")
        )
    }

    /// The `decode --model` help text, from the registry: what each format's solver answer is.
    pub fn answer_help() -> String {
        let items: Vec<String> = Format::ALL
            .iter()
            .map(|f| format!("for {} {}", f.info().title, f.info().answer_help))
            .collect();
        format!("The solver's output: {}", items.join("; "))
    }

    /// The `decode --cnf` help text: `DIMACS, or --to opb|lp|mzn`.
    pub fn file_help() -> String {
        let others: Vec<&str> = Format::ALL
            .iter()
            .filter(|f| !f.is_cnf())
            .map(|f| f.name())
            .collect();
        format!(
            "The file written by `queens-sat encode`: DIMACS, or `--to {}` (read by its header)",
            others.join("|")
        )
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
    format.write_to(w, problem, options.into(), instance_name)
}

/// Writes `problem` in `format` to `out`: stdout, or a file replaced atomically (nothing is left
/// at the target path when anything fails, including a raised `cancel`). A file is compressed
/// as its name says ([`crate::compress::Codec::for_output`], default level); see [`export_with`]
/// for the other choices.
pub fn export(
    out: &Output,
    format: Format,
    problem: &Problem,
    options: impl Into<EncodeOptions>,
    instance_name: Option<&str>,
    cancel: &Cancel,
) -> Result<WriteReport> {
    let write = match out {
        Output::Stdout => WriteOptions::default(),
        Output::File(path) => {
            let codec = crate::compress::Codec::for_output(path)?;
            WriteOptions {
                codec,
                level: codec.default_level(),
                gbdhash: false,
            }
        }
    };
    export_with(out, format, problem, options, instance_name, cancel, write)
}

/// [`export`] with the compression and the GBD hash as `write` says. The text is formatted on
/// this thread and compressed, written and hashed on others ([`pipe`]); the bytes are the same.
#[cfg_attr(not(feature = "front"), visibility::make(pub(crate)), allow(dead_code))]
pub fn export_with(
    out: &Output,
    format: Format,
    problem: &Problem,
    options: impl Into<EncodeOptions>,
    instance_name: Option<&str>,
    cancel: &Cancel,
    write: WriteOptions,
) -> Result<WriteReport> {
    let options = options.into();
    match out {
        Output::Stdout => {
            let stdout = CancelWrite::new(io::stdout(), cancel.clone());
            Ok(write_piped(format, stdout, problem, options, instance_name, write)?.1)
        }
        Output::File(path) => write_atomic(path, |f| {
            let fd = std::os::fd::AsRawFd::as_raw_fd(&*f);
            let f = CancelWrite::new(pipe::Writeback::new(f, fd), cancel.clone());
            let (_, report) = write_piped(format, f, problem, options, instance_name, write)
                .map_err(|e| match e {
                    // Name the real target instead of the writer's placeholder.
                    Error::Io { source, .. } => Error::io(path.display().to_string(), source),
                    other => other,
                })?;
            Ok(report)
        }),
    }
}

/// [`write()`] through the writer threads of [`pipe`]: compressed and hashed as `write` says
/// (the GBD hash for DIMACS only). Returns `w` and the report.
#[cfg_attr(
    not(any(feature = "front", feature = "oracle")),
    visibility::make(pub(crate)),
    allow(dead_code)
)]
pub fn write_piped<W: Write + Send>(
    format: Format,
    w: W,
    problem: &Problem,
    options: impl Into<EncodeOptions>,
    instance_name: Option<&str>,
    write_options: WriteOptions,
) -> Result<(W, WriteReport)> {
    let options = options.into();
    let write_options = WriteOptions {
        gbdhash: write_options.gbdhash && format.is_cnf(),
        ..write_options
    };
    let (written, piped) = pipe::with_pipe(w, write_options, |pipe| {
        write(format, pipe, problem, options, instance_name).map(|(_, report)| report)
    });
    let name = format!("<{format} output>");
    let io_error = |e: io::Error| {
        if crate::interrupt::is_cancelled_io(&e) {
            Error::Interrupted
        } else {
            Error::io(&name, e)
        }
    };
    // The writer thread's error (the first one, with its cause) before the formatter's "the
    // writer thread failed".
    let (w, file_bytes, gbdhash) = piped.map_err(io_error)?;
    let mut report = written?;
    report.file_bytes = file_bytes;
    report.gbdhash = gbdhash;
    Ok((w, report))
}

/// Size of `problem`'s model in `format` without writing it: variables, constraints (clauses
/// for DIMACS) and terms (literals).
pub fn stats(
    format: Format,
    problem: &Problem,
    options: impl Into<EncodeOptions>,
) -> Result<Stats> {
    format.stats(problem, options.into())
}

/// The default output name of `encode` (in `cnf-out/`): `PIECE-N[-AMO][-SYM][-STEM][-HASH].EXT`.
/// The piece, side, encoding (DIMACS only) and symmetry name the plain board's formula; `stem`
/// is the instance file's stem, if any. Whenever something else shapes the formula (`shaped`:
/// an instance file, `--diags`, `--break-symmetry`, `--implied` given; or no `presolve`), HASH
/// is 8 hex digits of an MD5 over the canonical instance and every such option, so two
/// different formulas never share a name and the same command always gives the same one
/// (reruns find their file). Public for the program's `encode`; the Python module may name
/// its files the same way.
pub fn default_name(
    instance: &crate::instance::Instance,
    piece: &str,
    format: Format,
    options: EncodeOptions,
    presolve: bool,
    stem: Option<&str>,
    shaped: bool,
) -> String {
    let mut file = format!("{piece}-{}", instance.n);
    if format.is_cnf() {
        file += &format!("-{}", options.amo.name().replace(':', ""));
    }
    if let Some(g) = options.symmetric {
        file += &format!("-{g}");
    }
    if let Some(stem) = stem {
        file += &format!("-{stem}");
    }
    if shaped || !presolve {
        use md5::{Digest, Md5};
        let key = format!(
            "{:?}|{piece}|{}|{:?}|{:?}|{:?}|{}|{}",
            instance.canonical(),
            format.name(),
            options.amo,
            options.symmetric,
            options.implied,
            !options.lex_leader.is_empty(),
            presolve
        );
        let digest = Md5::digest(key.as_bytes());
        let hex: String = digest[..4].iter().map(|b| format!("{b:02x}")).collect();
        file += &format!("-{hex}");
    }
    file + "." + format.extension()
}

/// The board in a solver's answer `text` (named `source` in errors) to the file whose header is
/// `header`, read in the header's format ([`ExportFormat::decode`]):
///
/// - DIMACS: SAT-competition `s`/`v` lines or a minisat result file
///   ([`crate::export::output::parse_output`]);
/// - OPB: PB-competition `s`/`v` lines with `x5` / `-x5` literals (clasp's output);
/// - LP: CBC's solution file (`cbc FILE.lp solve solu OUT`), see [`lp::parse_cbc`];
/// - MiniZinc: the default output of `minizinc` (the first solution), see [`mzn::parse_output`].
///
/// The board is not verified here: callers check it against `header.instance`.
#[cfg_attr(
    not(feature = "oracle"),
    visibility::make(pub(crate)),
    allow(dead_code)
)]
pub fn decode_answer(header: &Header, source: &str, text: &str) -> Result<Answer<Board>> {
    header.format.decode(header, source, text)
}

/// `decode_answer` for a file; invalid UTF-8 is a parse error naming its line.
#[cfg_attr(not(feature = "front"), visibility::make(pub(crate)), allow(dead_code))]
pub fn decode_answer_file(header: &Header, path: &Path) -> Result<Answer<Board>> {
    let source = crate::compress::input_name(path);
    let bytes = crate::compress::read(path)?;
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
/// comment character, with `format NAME` (the format's own lines, such as `size V C`, follow).
pub(crate) fn header_text(
    info: &FormatInfo,
    problem: &Problem,
    instance_name: Option<&str>,
) -> String {
    let prefix = format!("{} ", info.comment);
    comment_header(
        &prefix,
        &HeaderFields {
            format: Some(info.name),
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
        match kind {
            // Rows are runs of consecutive variables, as in `Encoder::for_each_line_keyed`.
            LineKind::Row => {
                count += (0..n)
                    .filter(|&r| wanted(map.row_len(r), exactly_one))
                    .count() as u64;
            }
            LineKind::Column | LineKind::Diagonal | LineKind::AntiDiagonal => {
                let mut len = vec![0u32; kind.count(n) as usize];
                for (cell, _) in map.cells() {
                    len[kind.key(cell, n) as usize] += 1;
                }
                count += len.iter().filter(|&&l| wanted(l, exactly_one)).count() as u64;
            }
        }
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

/// Generates the `pub use` of each format's type, [`Format`] and its dispatch from one list of
/// `Variant => module::Type` entries (see the module documentation).
macro_rules! formats {
    ($(
        $(#[$doc:meta])*
        $variant:ident => $module:ident :: $ty:ident,
    )+) => {
        $(
            pub use $module::$ty;
        )+

        /// An export format, generated from the registry in [`crate::export`].
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Format {
            $( $(#[$doc])* $variant, )+
        }

        impl Format {
            /// Every format, in registry (and `--to`) order.
            pub const ALL: [Format; [$(stringify!($variant)),+].len()] = [$(Format::$variant),+];

            /// The format's [`ExportFormat::INFO`].
            const fn registered(self) -> &'static FormatInfo {
                match self {
                    $( Format::$variant => &<$ty as ExportFormat>::INFO, )+
                }
            }

            /// [`ExportFormat::write`].
            fn write_to<W: Write>(
                self,
                w: W,
                problem: &Problem,
                options: EncodeOptions,
                instance_name: Option<&str>,
            ) -> Result<(W, WriteReport)> {
                match self {
                    $( Format::$variant => {
                        <$ty as ExportFormat>::write(w, problem, options, instance_name)
                    } )+
                }
            }

            /// [`ExportFormat::stats`].
            fn stats(self, problem: &Problem, options: EncodeOptions) -> Result<Stats> {
                match self {
                    $( Format::$variant => <$ty as ExportFormat>::stats(problem, options), )+
                }
            }

            /// [`ExportFormat::decode`].
            fn decode(self, header: &Header, source: &str, text: &str) -> Result<Answer<Board>> {
                match self {
                    $( Format::$variant => <$ty as ExportFormat>::decode(header, source, text), )+
                }
            }

            /// `ExportFormat::detect`: whether a file whose first line is `line` is in this
            /// format.
            pub fn detects(self, line: &str) -> bool {
                match self {
                    $( Format::$variant => <$ty as ExportFormat>::detect(line), )+
                }
            }

            /// `ExportFormat::header_line`: what header line `line` (trimmed) is in this
            /// format; `Err` is a parse error's message.
            pub fn header_line(self, line: &str) -> std::result::Result<HeaderLine<'_>, String> {
                match self {
                    $( Format::$variant => <$ty as ExportFormat>::header_line(line), )+
                }
            }
        }
    };
}

formats! {
    /// DIMACS CNF (SAT solvers).
    Dimacs => dimacs::Dimacs,
    /// OPB, the pseudo-Boolean competition format (clasp, RoundingSat, ...).
    Opb => opb::Opb,
    /// CPLEX LP, a 0-1 ILP (CBC, GLPK, HiGHS, SCIP, Gurobi, ...).
    Lp => lp::Lp,
    /// MiniZinc, a CP model with one integer per row (Gecode, Chuffed, ...).
    Mzn => mzn::Mzn,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::amo::AmoKind;
    use crate::instance::Instance;

    /// A plain board's name says piece, side and encoding; anything that shapes the formula
    /// adds a hash of it, the same for the same formula and different for another.
    #[test]
    fn default_name_hashes_what_shapes_the_formula() {
        let plain = Instance::plain(8);
        let pairwise = EncodeOptions::from(AmoKind::Pairwise);
        let name = |presolve, stem, shaped| {
            default_name(
                &plain,
                "queen",
                Format::DEFAULT,
                pairwise,
                presolve,
                stem,
                shaped,
            )
        };
        assert_eq!(name(true, None, false), "queen-8-pairwise.cnf");
        let shaped = name(true, Some("q8"), true);
        assert!(shaped.starts_with("queen-8-pairwise-q8-"), "{shaped}");
        let hash = &shaped["queen-8-pairwise-q8-".len()..shaped.len() - ".cnf".len()];
        assert_eq!(hash.len(), 8, "{shaped}");
        assert!(hash.bytes().all(|b| b.is_ascii_hexdigit()), "{shaped}");
        assert_eq!(name(true, Some("q8"), true), shaped);
        let unpresolved = name(false, Some("q8"), false);
        assert_ne!(unpresolved, shaped);
        assert!(
            unpresolved.starts_with("queen-8-pairwise-q8-"),
            "{unpresolved}"
        );
    }
}
