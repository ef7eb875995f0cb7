//! CPLEX LP: the 0-1 ILP model, and CBC's solution file.
//!
//! ```text
//! \ queens-sat 0.2.0
//! \ format lp
//! \ ...                              (the DIMACS header's lines, `\` instead of `c`)
//! \ size 64 46                       (binary variables, constraints)
//! Minimize
//!  obj: 0 x_0_0
//! Subject To
//!  row_0: x_0_0 + x_0_1 + ... = 1    (rows and columns: exactly one)
//!  diag_3: x_0_4 + x_1_5 + ... <= 1  (other lines with >= 2 live cells: at most one)
//!  leap_0: x_0_0 + x_1_2 <= 1        (amazons: two cells a knight's move apart)
//! Binary
//!  x_0_0 x_0_1 ...
//! End
//! ```
//!
//! Variables are named after their cells (`x_r_c`, 0-based) and are the live cells of the
//! DIMACS file; the objective is 0 (a feasibility problem). Long constraints are wrapped every
//! few terms, since some readers limit line length. A problem that presolve proved UNSAT is a
//! fixed contradiction over `x_0_0`.

use std::io::Write;

use super::WriteReport;
use super::header::Header;
use super::{
    Constraint, ExportFormat, FormatInfo, TextOut, count_01, header_text, line_tag, model_board,
    refuse_cnf_options, walk_01, write_text,
};
use crate::answer::{Answer, Model};
use crate::board::{Board, Cell};
use crate::encode::{EncodeOptions, Stats};
use crate::error::{Error, Result};
use crate::presolve::Problem;
use crate::varmap::VarMap;

/// CPLEX LP: the 0-1 model over the cell variables, for MIP solvers.
pub struct Lp;

impl ExportFormat for Lp {
    const INFO: FormatInfo = FormatInfo {
        name: "lp",
        title: "LP",
        help: "CPLEX LP, MIP solvers",
        answer_help: "CBC's solution file (`cbc F.lp solve solu OUT`)",
        extension: "lp",
        comment: '\\',
        answer_example: "Optimal - objective value 0.00000000\n      1 x_0_1   1   0\n      \
                         7 x_1_3   1   0\n      8 x_2_0   1   0\n     14 x_3_2   1   0\n",
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
        let model = parse_cbc(source, text, &header.varmap)?;
        Ok(model_board(header, model))
    }
}

/// Terms per output line in constraints and in the `Binary` section.
const TERMS_PER_LINE: usize = 8;

/// Writes `problem` as CPLEX LP to `out`; returns variables, constraints and terms.
fn write<W: Write>(out: &mut TextOut<W>, problem: &Problem, instance_name: Option<&str>) -> Stats {
    let mut header = header_text(&Lp::INFO, problem, instance_name);
    if problem.unsat.is_some() {
        header += "\\ size 1 2\n";
        out.str(&header);
        out.str(
            "Minimize\n obj: 0 x_0_0\nSubject To\n unsat_1: x_0_0 >= 1\n unsat_2: x_0_0 <= 0\n\
             Binary\n x_0_0\nEnd\n",
        );
        return Stats {
            vars: 1,
            clauses: 2,
            literals: 2,
        };
    }
    let vars = problem.num_cells();
    let constraints = count_01(problem);
    header += &format!("\\ size {vars} {constraints}\n");
    out.str(&header);
    // Cells by variable (index var - 1), and the names' two halves `x_R_` and `C` formatted
    // once per row and column: a term is then two copies (O(n) extra memory).
    let cells: Vec<Cell> = problem.varmap.cells().map(|(c, _)| c).collect();
    let row_part: Vec<Box<[u8]>> = (0..problem.n)
        .map(|r| format!("x_{r}_").into_bytes().into_boxed_slice())
        .collect();
    let col_part: Vec<Box<[u8]>> = (0..problem.n)
        .map(|c| c.to_string().into_bytes().into_boxed_slice())
        .collect();
    let name = |out: &mut TextOut<W>, c: Cell| {
        out.push(&row_part[c.row as usize]);
        out.push(&col_part[c.col as usize]);
    };
    out.str("Minimize\n obj:");
    if let Some(&c) = cells.first() {
        out.str(" 0 ");
        name(out, c);
    }
    out.str("\nSubject To\n");
    let stopped = std::cell::Cell::new(false);
    let (written, terms) = walk_01(problem, &|| stopped.get(), |con| {
        match con {
            Constraint::Line {
                kind,
                key,
                exactly_one,
                vars,
            } => {
                out.push(b" ");
                out.push(line_tag(kind).as_bytes());
                out.push(b"_");
                out.num(key as u64);
                out.push(b":");
                for (i, v) in vars.iter().enumerate() {
                    if i > 0 {
                        out.push(if i % TERMS_PER_LINE == 0 {
                            b"\n   + "
                        } else {
                            b" + "
                        });
                    } else {
                        out.push(b" ");
                    }
                    name(out, cells[v.var() as usize - 1]);
                }
                out.push(if exactly_one { b" = 1\n" } else { b" <= 1\n" });
            }
            Constraint::Leap { index, a, b } => {
                out.push(b" leap_");
                out.num(index);
                out.push(b": ");
                name(out, cells[a as usize - 1]);
                out.push(b" + ");
                name(out, cells[b as usize - 1]);
                out.push(b" <= 1\n");
            }
            Constraint::Unit { var, value } => {
                out.push(b" fix_");
                out.num(var as u64);
                out.push(b": ");
                name(out, cells[var as usize - 1]);
                out.push(if value { b" = 1\n" } else { b" = 0\n" });
            }
        }
        out.end_item();
        stopped.set(out.stopped());
    });
    if !cells.is_empty() {
        out.str("Binary\n");
        for chunk in cells.chunks(TERMS_PER_LINE) {
            for &c in chunk {
                out.raw(b" ");
                name(out, c);
            }
            out.raw(b"\n");
        }
    }
    out.str("End\n");
    debug_assert!(out.stopped() || written == constraints);
    Stats {
        vars,
        clauses: written,
        literals: terms,
    }
}

fn quote(s: &str) -> String {
    format!("'{}'", crate::error::clip(s))
}

/// Parses CBC's solution file (`cbc FILE.lp solve solu OUT`) for the model whose cells are
/// `varmap`: the first line is the status (`Optimal - objective value 0.00000000`), then one
/// line per column, `index name value reduced-cost`.
///
/// `Optimal` is SAT and its columns are read: each `x_r_c` must be 0 or 1 (within 1e-6), and a
/// 1 must be a live cell; columns not listed are 0. `Infeasible` and `Integer infeasible` are
/// UNSAT; `Stopped on ...`, `Status unknown` and `Unbounded` are UNKNOWN. Anything else is an
/// error naming `source` and the line.
///
/// ```
/// use queens_sat::{export::lp::parse_cbc, varmap::VarMap};
/// let text = "Optimal - objective value 0.00000000\n      0 x_0_1   1   0\n      1 x_1_0   1   0\n";
/// let m = parse_cbc("solu", text, &VarMap::row_major(2)).unwrap();
/// assert!(m.sat().unwrap().value(2) && m.sat().unwrap().value(3));
/// let bad = parse_cbc("solu", "Optimal - objective value 0\n 0 x_0_1 0.5 0\n", &VarMap::row_major(2));
/// assert!(bad.unwrap_err().to_string().starts_with("solu:2:"));
/// ```
#[cfg_attr(
    not(feature = "oracle"),
    visibility::make(pub(crate)),
    allow(dead_code)
)]
pub fn parse_cbc(source: &str, text: &str, varmap: &VarMap) -> Result<Answer> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty());
    let Some((ln, status_line)) = lines.next() else {
        return Err(Error::parse_file(source, "empty CBC solution file"));
    };
    let status = status_line
        .split_once(" - ")
        .map_or(status_line, |(s, _)| s)
        .trim();
    match status {
        "Optimal" => {}
        "Infeasible" | "Integer infeasible" => return Ok(Answer::Unsat),
        s if s.starts_with("Stopped on") || s == "Status unknown" || s.contains("nbounded") => {
            return Ok(Answer::Unknown(format!("CBC: {s}")));
        }
        _ => {
            return Err(Error::parse(
                source,
                ln,
                format!(
                    "unrecognised CBC status {} (expected Optimal, Infeasible, Integer \
                     infeasible or Stopped on ...)",
                    quote(status_line)
                ),
            ));
        }
    }
    let num_vars = varmap.num_cells() as usize;
    let mut model = Model::new(num_vars);
    for (ln, line) in lines {
        let toks: Vec<&str> = line.split_whitespace().collect();
        let bad = |what: &str| Error::parse(source, ln, format!("{what} in {}", quote(line)));
        if toks.len() < 3 || toks[0].parse::<u64>().is_err() {
            return Err(bad("expected 'index name value reduced-cost'"));
        }
        let name = toks[1];
        let value: f64 = toks[2].parse().map_err(|_| bad("bad value"))?;
        let rounded = value.round();
        if (value - rounded).abs() > 1e-6 || !(rounded == 0.0 || rounded == 1.0) {
            return Err(bad(&format!("value {} is not 0 or 1", toks[2])));
        }
        let cell = name
            .strip_prefix("x_")
            .and_then(|rc| rc.split_once('_'))
            .and_then(|(r, c)| Some(Cell::new(r.parse().ok()?, c.parse().ok()?)))
            .ok_or_else(|| bad(&format!("column {} is not a cell 'x_R_C'", quote(name))))?;
        if rounded == 1.0 {
            let var = varmap
                .var(cell)
                .ok_or_else(|| bad(&format!("cell {cell} is not a live cell of the model")))?;
            model.set(var, true);
        }
    }
    Ok(Answer::Sat(model))
}
