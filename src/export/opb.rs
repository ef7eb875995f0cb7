//! OPB, the pseudo-Boolean competition format, and the PB-competition answer.
//!
//! ```text
//! * #variable= 64 #constraint= 46
//! * queens-sat 0.2.0
//! * format opb
//! * ...                              (the DIMACS header's lines, `*` instead of `c`)
//! +1 x1 +1 x2 ... +1 x8 = 1 ;        (rows and columns: exactly one)
//! -1 x1 -1 x10 ... -1 x64 >= -1 ;    (other lines with >= 2 live cells: at most one)
//! -1 x1 -1 x11 >= -1 ;               (amazons: two cells a knight's move apart)
//! ```
//!
//! Variables are the DIMACS file's cell variables, numbered the same way, with no auxiliaries.
//! At-most-one is written as `>=` with negated coefficients, which every PB solver reads (clasp
//! rejects `<=`). A problem that presolve proved UNSAT is a fixed contradiction over `x1`.

use std::borrow::Cow;
use std::io::Write;

use super::WriteReport;
use super::header::Header;
use super::{
    Constraint, ExportFormat, FormatInfo, HeaderLine, TextOut, comment_header_line, count_01,
    header_text, header_vars, model_board, refuse_cnf_options, walk_01, write_text,
};
use crate::answer::{Answer, Model};
use crate::board::Board;
use crate::encode::{EncodeOptions, Stats};
use crate::error::{Error, Result};
use crate::presolve::Problem;

/// OPB: the 0-1 model over the cell variables, for pseudo-Boolean solvers.
pub struct Opb;

impl ExportFormat for Opb {
    const INFO: FormatInfo = FormatInfo {
        name: "opb",
        title: "OPB",
        help: "pseudo-Boolean",
        answer_help: "PB-competition `s`/`v` lines (clasp)",
        extension: "opb",
        comment: '*',
        size_line: "'* #variable= V #constraint= C' line",
        answer_example: "c clasp\nv -x1 x2 -x3 -x4 -x5 -x6 -x7 x8\nv x9 -x10 -x11 -x12 -x13 -x14 x15 -x16\n\
                         s SATISFIABLE\n",
        ..FormatInfo::MODEL
    };

    fn write<W: Write>(
        w: W,
        problem: &Problem,
        options: EncodeOptions,
        instance_name: Option<&str>,
    ) -> Result<(W, WriteReport)> {
        refuse_cnf_options(Self::INFO.name, &options)?;
        write_text(Self::INFO.name, w, |out| write(out, problem, instance_name))
    }

    fn decode(header: &Header, source: &str, text: &str) -> Result<Answer<Board>> {
        let model = parse_output(source, text, header_vars(header, source)?)?;
        Ok(model_board(header, model))
    }

    /// The leading `*` comments, `* #variable= V #constraint= C` among them.
    fn header_line(line: &str) -> std::result::Result<HeaderLine<'_>, String> {
        if let Some(body) = line.strip_prefix('*')
            && body.trim().starts_with("#variable=")
        {
            // `* #variable= V #constraint= C`
            let counts = body.replace("#variable=", " ").replace("#constraint=", " ");
            return Ok(HeaderLine::Size {
                counts: Cow::Owned(counts),
                what: "'#variable='",
                last: false,
            });
        }
        Ok(comment_header_line('*', line))
    }
}

/// Writes `problem` as OPB to `out`; returns variables, constraints and terms.
fn write<W: Write>(out: &mut TextOut<W>, problem: &Problem, instance_name: Option<&str>) -> Stats {
    let header = header_text(&Opb::INFO, problem, instance_name);
    if problem.unsat.is_some() {
        out.str("* #variable= 1 #constraint= 2\n");
        out.str(&header);
        out.str("+1 x1 >= 1 ;\n-1 x1 >= 0 ;\n");
        return Stats {
            vars: 1,
            clauses: 2,
            literals: 2,
        };
    }
    let vars = problem.num_cells();
    let constraints = count_01(problem);
    out.str("* #variable= ");
    out.num(vars);
    out.str(" #constraint= ");
    out.num(constraints);
    out.str("\n");
    out.str(&header);
    let stopped = std::cell::Cell::new(false);
    let (written, terms) = walk_01(problem, &|| stopped.get(), |c| {
        match c {
            Constraint::Line {
                exactly_one, vars, ..
            } => {
                let coef: &[u8] = if exactly_one { b"+1 x" } else { b"-1 x" };
                for (i, v) in vars.iter().enumerate() {
                    if i > 0 {
                        out.push(b" ");
                    }
                    out.push(coef);
                    out.num(v.var() as u64);
                }
                out.push(if exactly_one {
                    b" = 1 ;\n"
                } else {
                    b" >= -1 ;\n"
                });
            }
            Constraint::Leap { a, b, .. } => {
                out.push(b"-1 x");
                out.num(a as u64);
                out.push(b" -1 x");
                out.num(b as u64);
                out.push(b" >= -1 ;\n");
            }
            Constraint::Unit { var, value } => {
                out.push(b"+1 x");
                out.num(var as u64);
                out.push(if value { b" = 1 ;\n" } else { b" = 0 ;\n" });
            }
        }
        out.end_item();
        stopped.set(out.stopped());
    });
    debug_assert!(out.stopped() || written == constraints);
    Stats {
        vars,
        clauses: written,
        literals: terms,
    }
}

/// Longest excerpt of offending input quoted in an error message.
const MAX_QUOTE: usize = 40;

fn quote(s: &str) -> String {
    if s.chars().count() > MAX_QUOTE {
        format!("'{}...'", s.chars().take(MAX_QUOTE).collect::<String>())
    } else {
        format!("'{s}'")
    }
}

/// Parses a PB solver's answer (PB-competition conventions, as clasp prints them) for a model
/// over `num_vars` variables: `c` comments, one `s SATISFIABLE` / `s OPTIMUM FOUND` /
/// `s UNSATISFIABLE` / `s UNKNOWN` line, and for SAT `v` lines of literals `x5` / `-x5` (`~x5`
/// also reads as negative). Variables not mentioned are false. Anything else — another line
/// type, a bad or out-of-range literal, a variable given both signs, disagreeing `s` lines, SAT
/// without a `v` line, no `s` line — is an error naming `source` and the line.
///
/// ```
/// use queens_sat::export::opb::parse_output;
/// let a = parse_output("out", "c clasp\nv x1 -x2\nv x3\ns SATISFIABLE\n", 3).unwrap();
/// let m = a.sat().unwrap();
/// assert!(m.value(1) && !m.value(2) && m.value(3));
/// assert!(parse_output("out", "s SATISFIABLE\nv x9\n", 3).unwrap_err().to_string().contains("out:2"));
/// ```
#[cfg_attr(
    not(feature = "oracle"),
    visibility::make(pub(crate)),
    allow(dead_code)
)]
pub fn parse_output(source: &str, text: &str, num_vars: usize) -> Result<Answer> {
    let mut verdict: Option<(Answer<()>, usize)> = None;
    let mut model = Model::new(num_vars);
    let mut seen: Vec<u8> = vec![0; num_vars]; // 1 true, 2 false
    let mut any_v = false;
    for (i, raw) in text.lines().enumerate() {
        let ln = i + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('c') {
            continue;
        }
        let first = line.chars().next().map_or(1, char::len_utf8);
        let (tag, rest) = line.split_at(first);
        if !rest.is_empty() && !rest.starts_with(char::is_whitespace) {
            return Err(Error::parse(
                source,
                ln,
                format!("unexpected line {}", quote(line)),
            ));
        }
        match tag {
            "s" => {
                let this = match rest.trim() {
                    "SATISFIABLE" | "OPTIMUM FOUND" => Answer::Sat(()),
                    "UNSATISFIABLE" => Answer::Unsat,
                    "UNKNOWN" | "UNSUPPORTED" => {
                        Answer::Unknown(format!("solver answered {}", rest.trim()))
                    }
                    other => {
                        return Err(Error::parse(
                            source,
                            ln,
                            format!(
                                "unrecognised status {} (expected SATISFIABLE, OPTIMUM FOUND, \
                                 UNSATISFIABLE or UNKNOWN)",
                                quote(other)
                            ),
                        ));
                    }
                };
                if let Some((prev, prev_ln)) = &verdict
                    && prev.label() != this.label()
                {
                    return Err(Error::parse(
                        source,
                        ln,
                        format!(
                            "status {} contradicts the 's' line on line {prev_ln}",
                            quote(rest.trim())
                        ),
                    ));
                }
                verdict.get_or_insert((this, ln));
            }
            "v" => {
                any_v = true;
                for tok in rest.split_whitespace() {
                    let (neg, name) = match tok.strip_prefix(['-', '~']) {
                        Some(name) => (true, name),
                        None => (false, tok),
                    };
                    let var = name
                        .strip_prefix('x')
                        .and_then(|d| d.parse::<usize>().ok())
                        .filter(|&v| v >= 1)
                        .ok_or_else(|| {
                            Error::parse(source, ln, format!("bad literal {}", quote(tok)))
                        })?;
                    if var > num_vars {
                        return Err(Error::parse(
                            source,
                            ln,
                            format!(
                                "literal {} is out of range (the model has {num_vars} variables)",
                                quote(tok)
                            ),
                        ));
                    }
                    let mark = if neg { 2 } else { 1 };
                    if seen[var - 1] != 0 && seen[var - 1] != mark {
                        return Err(Error::parse(
                            source,
                            ln,
                            format!("variable x{var} is given both values"),
                        ));
                    }
                    seen[var - 1] = mark;
                    model.set(var as u32, !neg);
                }
            }
            _ => {
                return Err(Error::parse(
                    source,
                    ln,
                    format!("unexpected line {}", quote(line)),
                ));
            }
        }
    }
    match verdict {
        None => Err(Error::parse_file(
            source,
            "no 's' status line in the PB solver's output",
        )),
        Some((Answer::Sat(()), ln)) if !any_v => {
            Err(Error::parse(source, ln, "SATISFIABLE without a 'v' line"))
        }
        Some((v, _)) => Ok(v.map(|()| model)),
    }
}
