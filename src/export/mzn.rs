//! MiniZinc: the CP model with one integer per row, and MiniZinc's default output.
//!
//! ```text
//! % queens-sat 0.2.0
//! % format mzn
//! % ...                                    (the DIMACS header's lines, `%` instead of `c`)
//! % size 8 4                               (integer variables, constraint items)
//! include "all_different.mzn";
//! int: n = 8;
//! array[0..n-1] of var 0..n-1: q;          % q[r] = the column of row r's piece (0-based)
//! constraint q[3] in {0,1,2,5};            % a row's live cells, when not all are live
//! constraint q[2] = 5;                     % a pre-placed piece
//! constraint all_different(q);                          % columns
//! constraint all_different([q[r] - r | r in 0..n-1]);   % diagonals (r - c)
//! constraint all_different([q[r] + r | r in 0..n-1]);   % anti-diagonals (r + c)
//! constraint forall(r in 0..n-2)(q[r+1] - q[r] != 2);   % a leap (1, 2), e.g. the knight's
//! solve satisfy;
//! output ["q = \(q);\n"];
//! ```
//!
//! The model is exact: its solutions are the instance's boards. Every line family of the piece
//! is an `all_different` (rows by construction: one variable per row), every leap `(dr, dc)`
//! with `dr > 0` a disequality between rows `dr` apart, and the domains are presolve's live
//! cells (presolve keeps every solution and drops only cells in none), with pre-placed pieces
//! as fixed values; without presolve, the domains are the cells that no unit clause forbids.
//! `all_different.mzn` is included directly: `globals.mzn` fails on Debian's MiniZinc 2.6.4 with
//! Gecode 6.2 (a type error in `inverse`).

use std::io::Write;

use super::WriteReport;
use super::header::Header;
use super::{ExportFormat, FormatInfo, TextOut, header_text, refuse_cnf_options, write_text};
use crate::answer::Answer;
use crate::board::{Board, Cell};
use crate::encode::{EncodeOptions, Stats};
use crate::error::{BadOption, Error, Opt, Result};
use crate::piece::LineKind;
use crate::presolve::Problem;

/// MiniZinc: the CP model with one integer per row.
pub struct Mzn;

impl ExportFormat for Mzn {
    const INFO: FormatInfo = FormatInfo {
        name: "mzn",
        title: "MiniZinc",
        help: "MiniZinc",
        answer_help: "its default output",
        extension: "mzn",
        comment: '%',
        stats_names: ("constraints", "domain_values"),
        cell_vars: false,
        answer_example: "q = [1, 3, 0, 2];\n----------\n",
        ..FormatInfo::MODEL
    };

    fn write<W: Write>(
        w: W,
        problem: &Problem,
        options: EncodeOptions,
        instance_name: Option<&str>,
    ) -> Result<(W, WriteReport)> {
        refuse_cnf_options(Self::INFO.name, &options)?;
        if !rides_rows(problem.piece.lines) {
            return Err(BadOption::conflicts(
                Opt::To,
                "mzn",
                Opt::Piece,
                problem.piece.name,
                "MiniZinc's model has one variable per row, so its piece must attack along rows",
            ));
        }
        write_text(Self::INFO.name, w, |out| write(out, problem, instance_name))
    }

    fn decode(header: &Header, source: &str, text: &str) -> Result<Answer<Board>> {
        let out = parse_output(source, text, header.instance.n)?;
        Ok(out.first_answer().map(|q| board(&q)))
    }
}

/// Whether a piece with these line families attacks along rows (the model's one variable per
/// row stands for them). Every kind is named, so a new one must be placed here.
fn rides_rows(lines: &[LineKind]) -> bool {
    lines.iter().any(|&kind| match kind {
        LineKind::Row => true,
        LineKind::Column | LineKind::Diagonal | LineKind::AntiDiagonal => false,
    })
}

/// Writes `problem` as MiniZinc to `out`; returns variables (one per row), constraint items and
/// domain values listed. The piece must ride along rows (checked by [`Mzn::write`]).
fn write<W: Write>(out: &mut TextOut<W>, problem: &Problem, instance_name: Option<&str>) -> Stats {
    let n = problem.n;
    let domains = domains(problem);
    let mut items: Vec<String> = Vec::new();
    let mut listed = 0u64;
    let full = (0..n).collect::<Vec<u32>>();
    for (r, d) in domains.iter().enumerate() {
        if *d == full {
            continue;
        }
        listed += d.len() as u64;
        if let [c] = d[..] {
            items.push(format!("constraint q[{r}] = {c};"));
        } else {
            let cols: Vec<String> = d.iter().map(u32::to_string).collect();
            items.push(format!("constraint q[{r}] in {{{}}};", cols.join(",")));
        }
    }
    for &kind in problem.piece.lines {
        match kind {
            LineKind::Row => {} // one variable per row
            LineKind::Column => items.push("constraint all_different(q);  % columns".into()),
            LineKind::Diagonal => items.push(
                "constraint all_different([q[r] - r | r in 0..n-1]);  % diagonals (r - c)".into(),
            ),
            LineKind::AntiDiagonal => items.push(
                "constraint all_different([q[r] + r | r in 0..n-1]);  % anti-diagonals (r + c)"
                    .into(),
            ),
        }
    }
    for (dr, dc) in problem.piece.forward_leaps() {
        if dr > 0 && (dr as u32) < n {
            items.push(format!(
                "constraint forall(r in 0..n-{})(q[r+{dr}] - q[r] != {dc});  % leap ({dr}, {dc})",
                dr + 1
            ));
        }
    }
    if let Some(why) = &problem.unsat {
        items.push(format!(
            "constraint false;  % presolve: {}",
            why.escape_debug()
        ));
    }
    let mut text = header_text(&Mzn::INFO, problem, instance_name);
    text += &format!("% size {n} {}\n", items.len());
    text += "include \"all_different.mzn\";\n";
    text += &format!("int: n = {n};\n");
    text += "array[0..n-1] of var 0..n-1: q;\n";
    for item in &items {
        text += item;
        text.push('\n');
    }
    text += "solve satisfy;\noutput [\"q = \\(q);\\n\"];\n";
    out.str(&text);
    Stats {
        vars: n as u64,
        clauses: items.len() as u64,
        literals: listed,
    }
}

/// Each row's allowed columns, ascending.
fn domains(problem: &Problem) -> Vec<Vec<u32>> {
    let n = problem.n;
    let map = &problem.varmap;
    let mut d: Vec<Vec<u32>> = (0..n).map(|r| map.row_cols(r).collect()).collect();
    if problem.presolved {
        // Presolve removed the pre-placed pieces' rows (and proved any clash UNSAT).
        for c in &problem.fixed {
            d[c.row as usize] = vec![c.col];
        }
    } else {
        for &u in &problem.units {
            let cell = map
                .cell(u.unsigned_abs())
                .expect("units are cell variables");
            let row = &mut d[cell.row as usize];
            row.retain(|&c| if u > 0 { c == cell.col } else { c != cell.col });
        }
    }
    d
}

/// What MiniZinc's default output says.
#[cfg_attr(
    not(feature = "oracle"),
    visibility::make(pub(crate)),
    allow(dead_code)
)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MznOutput {
    /// The solutions, each as `q` (row `r`'s piece is at column `q[r]`), in output order.
    pub solutions: Vec<Vec<u32>>,
    /// The final status line.
    pub status: MznStatus,
}

/// MiniZinc's final status.
#[cfg_attr(
    not(feature = "oracle"),
    visibility::make(pub(crate)),
    allow(dead_code)
)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MznStatus {
    /// `==========`: the search finished (every solution was printed, with `--all-solutions`).
    Complete,
    /// `=====UNSATISFIABLE=====`.
    Unsatisfiable,
    /// No status line after the solutions (the search was stopped after one, or cut short).
    Open,
    /// `=====UNKNOWN=====`, `=====ERROR=====` and the like: the line.
    Other(String),
}

impl MznOutput {
    /// The first solution as an answer: SAT with it, UNSAT, or UNKNOWN.
    pub fn first_answer(&self) -> Answer<Vec<u32>> {
        match (self.solutions.first(), &self.status) {
            (Some(q), _) => Answer::Sat(q.clone()),
            (None, MznStatus::Unsatisfiable) => Answer::Unsat,
            (None, MznStatus::Other(s)) => Answer::Unknown(format!("MiniZinc: {s}")),
            (None, _) => Answer::Unknown("MiniZinc printed no solution".into()),
        }
    }
}

/// The board of a solution `q`.
pub fn board(q: &[u32]) -> Board {
    let cells = q
        .iter()
        .enumerate()
        .map(|(r, &c)| Cell::new(r as u32, c))
        .collect();
    Board::new(q.len() as u32, cells)
}

fn quote(s: &str) -> String {
    format!("'{}'", crate::error::clip(s))
}

/// Parses MiniZinc's default output for the model of an `n x n` board: solutions
/// `q = [c0, c1, ...];` each closed by `----------`, then `==========` (search complete) or
/// `=====UNSATISFIABLE=====` (or another `=====...=====` status); `%` comment lines are
/// skipped. A `q` line must list `n` columns in `0..n`. Anything else, a solution not closed by
/// `----------`, solutions together with UNSATISFIABLE, or output with neither a solution nor a
/// status is an error naming `source` and the line.
///
/// ```
/// use queens_sat::export::mzn::{parse_output, MznStatus};
/// let out = parse_output("o", "q = [1, 3, 0, 2];\n----------\n==========\n", 4).unwrap();
/// assert_eq!((out.solutions, out.status), (vec![vec![1, 3, 0, 2]], MznStatus::Complete));
/// assert!(parse_output("o", "q = [1, 3];\n", 4).unwrap_err().to_string().starts_with("o:1:"));
/// ```
#[cfg_attr(
    not(feature = "oracle"),
    visibility::make(pub(crate)),
    allow(dead_code)
)]
pub fn parse_output(source: &str, text: &str, n: u32) -> Result<MznOutput> {
    let mut solutions = Vec::new();
    let mut pending: Option<(usize, Vec<u32>)> = None;
    let mut status: Option<(usize, MznStatus)> = None;
    for (i, raw) in text.lines().enumerate() {
        let ln = i + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('%') {
            continue;
        }
        let err = |msg: String| Error::parse(source, ln, msg);
        if let Some((prev, _)) = &status {
            return Err(err(format!(
                "{} after the final status on line {prev}",
                quote(line)
            )));
        }
        if line == "----------" {
            let (_, q) = pending
                .take()
                .ok_or_else(|| err("'----------' without a 'q = [...]' line before it".into()))?;
            solutions.push(q);
        } else if line == "==========" {
            status = Some((ln, MznStatus::Complete));
        } else if line == "=====UNSATISFIABLE=====" {
            if !solutions.is_empty() {
                return Err(err("UNSATISFIABLE after a solution".into()));
            }
            status = Some((ln, MznStatus::Unsatisfiable));
        } else if line.starts_with("=====") && line.ends_with("=====") && line.len() > 10 {
            status = Some((ln, MznStatus::Other(line.trim_matches('=').to_string())));
        } else if let Some(rest) = line.strip_prefix("q =") {
            if let Some((prev, _)) = &pending {
                return Err(err(format!(
                    "a second 'q' line before the '----------' that closes line {prev}"
                )));
            }
            let list = rest
                .trim()
                .trim_end_matches(';')
                .trim()
                .strip_prefix('[')
                .and_then(|s| s.strip_suffix(']'))
                .ok_or_else(|| err(format!("expected 'q = [...];', found {}", quote(line))))?;
            let q = list
                .split(',')
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .map(|t| {
                    t.parse::<u32>()
                        .ok()
                        .filter(|&c| c < n)
                        .ok_or_else(|| err(format!("column {} is not in 0..{n}", quote(t))))
                })
                .collect::<Result<Vec<u32>>>()?;
            if q.len() != n as usize {
                return Err(err(format!("{} columns for a {n}-row board", q.len())));
            }
            pending = Some((ln, q));
        } else {
            return Err(err(format!("unexpected line {}", quote(line))));
        }
    }
    if let Some((ln, _)) = pending {
        return Err(Error::parse(
            source,
            ln,
            "solution not closed by '----------' (truncated output?)",
        ));
    }
    let status = match status {
        Some((_, s)) => s,
        None if !solutions.is_empty() => MznStatus::Open,
        None => {
            return Err(Error::parse_file(
                source,
                "neither a solution nor a status line in MiniZinc's output",
            ));
        }
    };
    Ok(MznOutput { solutions, status })
}
