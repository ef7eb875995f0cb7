//! The queens-sat comment header that lets any model be decoded later from the file alone: written
//! under each format's comment character (`comment_header`, `write_header`) and read back from
//! any of them (`read_header`).
//!
//! Header layout (all `c` lines come before `p cnf`):
//! ```text
//! c queens-sat 0.2.0
//! c piece queen
//! c n 8
//! c amo sequential
//! c instance boards/b8.txt          (or "none")
//! c presolve on                     (or "off")
//! c placed 0,0 1,4                  (pre-placed pieces, repeated lines of up to 16)
//! c blocked 2,3                     (blocked cells, likewise)
//! c excluded d:5 a:7                (excluded diagonals: d = r-c+n-1 = k, a = r+c = k)
//! c unsat row 3 has no free cell    (only when presolve proved UNSAT)
//! c cells rowmajor                  (var(r,c) = r*n+c+1) or: c cells L
//! c row 3 0-2,5,7                   (live columns of a row, numbered consecutively row-major)
//! c t pmc                         (the model-counting track: projected counting)
//! c p show 1 2 ... L 0              (projection onto the cell variables)
//! p cnf V C
//! ```

use std::io::{BufRead, Write};

use itertools::Itertools;

use super::{Format, HeaderLine};
use crate::board::Cell;
use crate::encode::dimacs::DimacsWriter;
use crate::encode::implied::Implied;
use crate::encode::{Encoder, Stats};
use crate::error::{Error, Result, clip};
use crate::instance::{ExcludedDiagonal, Instance};
use crate::piece::{LineKind, Piece};
use crate::presolve::Problem;
use crate::symmetry::Symmetry;
use crate::varmap::VarMap;

/// Everything the header records: enough to decode and verify a model from the file alone.
#[cfg_attr(
    not(any(feature = "front", feature = "oracle")),
    visibility::make(pub(crate)),
    allow(dead_code)
)]
#[derive(Clone, Debug)]
pub struct Header {
    /// The file's format, from its comment style (and its `format` line).
    pub format: Format,
    /// Tool version that wrote the file.
    pub version: String,
    /// The piece.
    pub piece: Piece,
    /// The AMO encoding's name.
    pub amo: String,
    /// The instance file name, if any.
    pub instance_name: Option<String>,
    /// Whether presolve was on.
    pub presolved: bool,
    /// The instance (pre-placed pieces, blocked cells, excluded diagonals).
    pub instance: Instance,
    /// Cell variables.
    pub varmap: VarMap,
    /// Presolve's UNSAT reason, if any.
    pub unsat: Option<String>,
    /// `--symmetric`: every model's board is mapped to itself by this element.
    pub symmetric: Option<Symmetry>,
    /// `--break-symmetry lex`: every model's board is the lex-leader of its class under these
    /// elements.
    pub lex_leader: Vec<Symmetry>,
    /// `p cnf` variable count.
    pub num_vars: u64,
    /// `p cnf` clause count.
    pub num_clauses: u64,
}

#[cfg_attr(not(any(feature = "front", feature = "harness")), allow(dead_code))]
impl Header {
    /// Whether `board` is a solution of the header's instance that also meets what the file
    /// demanded (`--symmetric`, `--break-symmetry lex`), so that a model decoded from any file
    /// is checked as that file's own answer ([`crate::verify::accept`]).
    pub fn accept(&self, board: &crate::board::Board) -> std::result::Result<(), String> {
        crate::verify::accept(
            board,
            &self.instance,
            self.piece,
            self.symmetric,
            &self.lex_leader,
        )
    }
}

/// Writes the comment header and the `p cnf` line for `problem`.
pub(crate) fn write_header<W: Write>(
    w: &mut DimacsWriter<W>,
    encoder: &Encoder,
    instance_name: Option<&str>,
    stats: &Stats,
) {
    let problem = encoder.problem();
    let lex: Vec<Symmetry> = encoder.lex_leader().elements().collect();
    let text = comment_header(
        "c ",
        &HeaderFields {
            format: None,
            amo: &encoder.amo().name(),
            symmetric: encoder.symmetry(),
            lex_leader: &lex,
            implied: encoder.implied(),
            instance_name,
        },
        problem,
    );
    w.write_raw(text.as_bytes());
    let map = &problem.varmap;
    let mut fmt = itoa::Buffer::new();
    // The model-counting competition's track line: the count to take is the projected one.
    w.write_raw(b"c t pmc\n");
    w.write_raw(b"c p show");
    for v in 1..=map.num_cells() {
        w.write_raw(b" ");
        w.write_raw(fmt.format(v).as_bytes());
    }
    w.write_raw(b" 0\n");
    w.write_raw(format!("p cnf {} {}\n", stats.vars, stats.clauses).as_bytes());
}

/// What a comment header records besides the problem itself.
#[derive(Clone, Copy, Debug)]
pub(crate) struct HeaderFields<'a> {
    /// The export format's name (`format opb`); `None` for DIMACS, whose header has no such line.
    pub format: Option<&'a str>,
    /// The AMO encoding's name (`none` for formats that state at-most-one natively).
    pub amo: &'a str,
    /// `--symmetric`.
    pub symmetric: Option<Symmetry>,
    /// `--break-symmetry lex`: the group's elements.
    pub lex_leader: &'a [Symmetry],
    /// `--implied`: redundant constraints in the file (a note: they change no model's board).
    pub implied: Implied,
    /// The instance file name, if any.
    pub instance_name: Option<&'a str>,
}

/// The queens-sat comment header of `problem`, every line starting with `prefix` (`"c "` for
/// DIMACS, `"* "` for OPB, `"\\ "` for LP, `"% "` for MiniZinc): tool and version, piece, n,
/// amo, instance, presolve, the placed / blocked / excluded lists, symmetry constraints,
/// presolve's UNSAT reason and the cell map. [`read_header`] reads it back under any of these
/// prefixes.
pub(crate) fn comment_header(prefix: &str, fields: &HeaderFields, problem: &Problem) -> String {
    let mut s = String::new();
    let inst = &problem.instance;
    let mut line = |text: &str| {
        s += prefix;
        s += text;
        s.push('\n');
    };
    line(&format!(
        "{} {}",
        env!("CARGO_PKG_NAME"),
        env!("CARGO_PKG_VERSION")
    ));
    if let Some(f) = fields.format {
        line(&format!("format {f}"));
    }
    line(&format!("piece {}", problem.piece.name));
    line(&format!("n {}", problem.n));
    line(&format!("amo {}", fields.amo));
    line(&format!(
        "instance {}",
        // A comment line must stay one line, whatever the file name holds.
        fields
            .instance_name
            .map_or("none".to_string(), |s| s.escape_debug().to_string())
    ));
    line(&format!(
        "presolve {}",
        if problem.presolved { "on" } else { "off" }
    ));
    let cell = |c: &Cell| format!("{},{}", c.row, c.col);
    let mut list = |key: &str, items: Vec<String>| {
        for chunk in items.chunks(16) {
            line(&format!("{key} {}", chunk.join(" ")));
        }
    };
    // The instance's canonical form (sorted, each once): one set of cells and diagonals, one
    // header, whatever the order they were given or generated in.
    let canonical = inst.canonical();
    list("placed", problem.fixed.iter().map(cell).collect());
    list("blocked", canonical.blocked.iter().map(cell).collect());
    list(
        "excluded",
        canonical
            .excluded
            .iter()
            .map(|e| {
                let t = if e.kind == LineKind::Diagonal {
                    'd'
                } else {
                    'a'
                };
                format!("{t}:{}", e.key)
            })
            .collect(),
    );
    if let Some(g) = fields.symmetric {
        line(&format!("symmetric {g}"));
    }
    if !fields.lex_leader.is_empty() {
        line(&format!(
            "lex-leader {}",
            fields.lex_leader.iter().map(|g| g.name()).join(" ")
        ));
    }
    if fields.implied != Implied::None {
        line(&format!("implied {}", fields.implied.name()));
    }
    if let Some(reason) = &problem.unsat {
        line(&format!("unsat {reason}"));
    }
    let map = &problem.varmap;
    if map.is_row_major() {
        line("cells rowmajor");
    } else {
        line(&format!("cells {}", map.num_cells()));
        for r in 0..problem.n {
            if map.row_len(r) > 0 {
                line(&format!("row {r} {}", ranges(map.row_cols(r))));
            }
        }
    }
    s
}

/// Compresses ascending columns into "0-2,5,7".
fn ranges(cols: impl Iterator<Item = u32>) -> String {
    let mut out = String::new();
    let mut run: Option<(u32, u32)> = None;
    let push = |out: &mut String, (a, b): (u32, u32)| {
        if !out.is_empty() {
            out.push(',');
        }
        if a == b {
            out.push_str(&a.to_string());
        } else {
            out.push_str(&format!("{a}-{b}"));
        }
    };
    for c in cols {
        run = match run {
            Some((a, b)) if c == b + 1 => Some((a, c)),
            Some(r) => {
                push(&mut out, r);
                Some((c, c))
            }
            None => Some((c, c)),
        };
    }
    if let Some(r) = run {
        push(&mut out, r);
    }
    out
}

/// Reads the queens-sat header of the file at `path` (see `read_header`), plain or compressed:
/// `.xz`, `.gz` and `.zst` are told by content, not by name.
#[cfg_attr(
    not(any(feature = "front", feature = "oracle")),
    visibility::make(pub(crate)),
    allow(dead_code)
)]
pub fn read_header_file(path: &std::path::Path) -> Result<Header> {
    read_header(&path.display().to_string(), crate::compress::open(path)?)
}

/// Reads a queens-sat header from `input`, named `file` in errors: a DIMACS file's `c` lines up
/// to and including `p cnf`, or an exported file's leading comment block (`*` OPB, `\\` LP, `%`
/// MiniZinc; see [`crate::export`]), told apart by the first line. Nothing after the header is
/// read.
#[cfg_attr(
    not(feature = "oracle"),
    visibility::make(pub(crate)),
    allow(dead_code)
)]
pub fn read_header(file: &str, input: impl BufRead) -> Result<Header> {
    let mut version = None;
    let mut piece = None;
    let mut n: Option<u32> = None;
    let mut amo = None;
    let mut instance_name = None;
    let mut presolved = None;
    let mut placed = Vec::new();
    let mut blocked = Vec::new();
    let mut excluded = Vec::new();
    let mut unsat = None;
    let mut symmetric = None;
    let mut lex_leader = Vec::new();
    let mut row_major = None;
    // (line number, row, column ranges)
    type RowRanges = (usize, u32, Vec<(u32, u32)>);
    let mut rows: Vec<RowRanges> = Vec::new();
    let mut declared_cells = None;
    let mut pcnf = None;
    // The comment style is the first line's: `c`/`p` DIMACS, `*` OPB, `\\` LP, `%` MiniZinc.
    let mut style: Option<Format> = None;
    let mut declared_format: Option<(usize, String)> = None;
    for (i, line) in input.lines().enumerate() {
        let ln = i + 1;
        let line = line.map_err(|e| Error::parse(file, ln, format!("cannot read: {e}")))?;
        let line = line.trim();
        let f = *style.get_or_insert_with(|| Format::detect(line));
        let body = match f
            .header_line(line)
            .map_err(|msg| Error::parse(file, ln, msg))?
        {
            HeaderLine::Comment(body) => body.trim(),
            HeaderLine::Size { counts, what, last } => {
                pcnf = Some(two_counts(file, ln, &counts, line, what)?);
                if last {
                    break;
                }
                continue;
            }
            HeaderLine::End => break,
        };
        let (key, val) = body.split_once(' ').unwrap_or((body, ""));
        let val = val.trim();
        let bad = |what: &str| Error::parse(file, ln, format!("bad {what} '{}'", clip(val)));
        let num = |s: &str, what: &str| s.parse::<u32>().map_err(|_| bad(what));
        let cell = |s: &str| -> Result<Cell> {
            let (r, c) = s.split_once(',').ok_or_else(|| bad("cell list"))?;
            Ok(Cell::new(num(r, "cell list")?, num(c, "cell list")?))
        };
        match key {
            "queens-sat" => version = Some(val.to_string()),
            "piece" => {
                piece = Some(Piece::by_name(val).ok_or_else(|| bad("piece"))?);
            }
            "n" => n = Some(num(val, "n")?),
            "amo" => amo = Some(val.to_string()),
            "instance" => instance_name = (val != "none").then(|| val.to_string()),
            "presolve" => {
                presolved = Some(match val {
                    "on" => true,
                    "off" => false,
                    _ => return Err(bad("presolve flag")),
                })
            }
            "placed" => placed.extend(
                val.split_whitespace()
                    .map(cell)
                    .collect::<Result<Vec<_>>>()?,
            ),
            "blocked" => blocked.extend(
                val.split_whitespace()
                    .map(cell)
                    .collect::<Result<Vec<_>>>()?,
            ),
            "excluded" => {
                for tok in val.split_whitespace() {
                    let (t, k) = tok
                        .split_once(':')
                        .ok_or_else(|| bad("excluded diagonal"))?;
                    let kind = match t {
                        "d" => LineKind::Diagonal,
                        "a" => LineKind::AntiDiagonal,
                        _ => return Err(bad("excluded diagonal")),
                    };
                    excluded.push(ExcludedDiagonal {
                        kind,
                        key: num(k, "excluded diagonal")?,
                    });
                }
            }
            "unsat" => unsat = Some(val.to_string()),
            "format" => declared_format = Some((ln, val.to_string())),
            "symmetric" => {
                symmetric = Some(Symmetry::by_name(val).ok_or_else(|| bad("symmetry element"))?);
            }
            "lex-leader" => {
                for name in val.split_whitespace() {
                    lex_leader
                        .push(Symmetry::by_name(name).ok_or_else(|| bad("lex-leader group"))?);
                }
            }
            "cells" if val == "rowmajor" => row_major = Some(true),
            "cells" => {
                row_major = Some(false);
                declared_cells = Some(val.parse::<u64>().map_err(|_| bad("cell count"))?);
            }
            "row" => {
                // Kept as ranges until the board size and cell count are known, so a hostile
                // header cannot make us allocate more than the cells it declares.
                let (r, spec) = val.split_once(' ').ok_or_else(|| bad("row map"))?;
                let mut ranges: Vec<(u32, u32)> = Vec::new();
                for part in spec.split(',') {
                    let (a, b) = match part.split_once('-') {
                        Some((a, b)) => (num(a, "row map")?, num(b, "row map")?),
                        None => (num(part, "row map")?, num(part, "row map")?),
                    };
                    if a > b || ranges.last().is_some_and(|&(_, l)| l >= a) {
                        return Err(bad("row map (columns must ascend)"));
                    }
                    ranges.push((a, b));
                }
                rows.push((ln, num(r, "row map")?, ranges));
            }
            _ => {} // other comments (p show, notes) are ignored
        }
    }
    let format = style.unwrap_or(Format::DEFAULT);
    let info = format.info();
    let missing = |what: &str| {
        let (kind, c) = match info.cnf {
            true => ("CNF", info.comment),
            false => (info.name, info.comment),
        };
        Error::parse_file(
            file,
            format!("not a queens-sat {kind} header: missing '{c} {what}' line"),
        )
    };
    let version = version.ok_or_else(|| missing(env!("CARGO_PKG_NAME")))?;
    let piece = piece.ok_or_else(|| missing("piece"))?;
    let n = n.ok_or_else(|| missing("n"))?;
    if !(1..=crate::board::MAX_N).contains(&n) {
        return Err(Error::parse_file(file, format!("n = {n} is out of range")));
    }
    match declared_format {
        Some((ln, name)) if name != format.name() => {
            return Err(Error::parse(
                file,
                ln,
                format!(
                    "format '{}' does not match the file's {} comment lines",
                    clip(&name),
                    format.name()
                ),
            ));
        }
        None if !info.cnf => {
            return Err(missing(&format!("format {}", format.name())));
        }
        _ => {}
    }
    let (num_vars, num_clauses) =
        pcnf.ok_or_else(|| Error::parse_file(file, format!("missing {}", info.size_line)))?;
    let in_range = |c: &Cell| c.row < n && c.col < n;
    if let Some(c) = placed.iter().chain(&blocked).find(|c| !in_range(c)) {
        return Err(Error::parse_file(
            file,
            format!("cell {c} is outside the {n}x{n} board"),
        ));
    }
    if let Some(e) = excluded.iter().find(|e| e.key > 2 * (n - 1)) {
        return Err(Error::parse_file(
            file,
            format!("excluded diagonal key {} is out of range", e.key),
        ));
    }
    // The instance's own invariants (a piece on a blocked cell or an excluded diagonal); the
    // lists become sets, sorted.
    let instance = Instance::new(n, placed, blocked, excluded)
        .map_err(|e| Error::parse_file(file, e.to_string()))?;
    // The cells are variables of the model, except in MiniZinc (one integer per row).
    let cell_limit = match info.cell_vars {
        true => num_vars,
        false => n as u64 * n as u64,
    };
    let varmap = match row_major.ok_or_else(|| missing("cells"))? {
        true => VarMap::row_major(n),
        false => {
            let mut per_row = vec![Vec::new(); n as usize];
            let listed: u64 = rows
                .iter()
                .flat_map(|(_, _, ranges)| ranges.iter().map(|&(a, b)| (b - a) as u64 + 1))
                .sum();
            if Some(listed) != declared_cells || listed > cell_limit {
                return Err(Error::parse_file(
                    file,
                    format!(
                        "row maps list {listed} cells but 'c cells' says {} and 'p cnf' {num_vars} variables",
                        declared_cells.unwrap_or(0)
                    ),
                ));
            }
            for (ln, r, ranges) in rows {
                if r >= n || ranges.last().is_some_and(|&(_, c)| c >= n) {
                    return Err(Error::parse(
                        file,
                        ln,
                        format!("row map for row {r} is outside the board"),
                    ));
                }
                if !per_row[r as usize].is_empty() {
                    return Err(Error::parse(file, ln, format!("row {r} is mapped twice")));
                }
                per_row[r as usize] = ranges.iter().flat_map(|&(a, b)| a..=b).collect();
            }
            VarMap::from_rows(n, per_row)
        }
    };
    if varmap.num_cells() > cell_limit && unsat.is_none() {
        return Err(Error::parse_file(
            file,
            format!(
                "{} cell variables but 'p cnf' declares only {num_vars}",
                varmap.num_cells()
            ),
        ));
    }
    Ok(Header {
        format,
        version,
        piece,
        amo: amo.ok_or_else(|| missing("amo"))?,
        instance_name,
        presolved: presolved.ok_or_else(|| missing("presolve"))?,
        instance,
        varmap,
        unsat,
        symmetric,
        lex_leader,
        num_vars,
        num_clauses,
    })
}

/// Two counts `V C` (a `p cnf`, `#variable=` or `size` line's numbers).
fn two_counts(file: &str, ln: usize, rest: &str, line: &str, what: &str) -> Result<(u64, u64)> {
    let nums: Vec<&str> = rest.split_whitespace().collect();
    let parse = |s: &str| {
        s.parse::<u64>()
            .map_err(|_| Error::parse(file, ln, format!("bad number '{}' in {what} line", clip(s))))
    };
    if nums.len() != 2 {
        return Err(Error::parse(
            file,
            ln,
            format!("malformed {what} line '{}'", clip(line)),
        ));
    }
    Ok((parse(nums[0])?, parse(nums[1])?))
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_compress_runs() {
        assert_eq!(ranges([0, 1, 2, 5, 7, 8].into_iter()), "0-2,5,7-8");
        assert_eq!(ranges([3].into_iter()), "3");
        assert_eq!(ranges(std::iter::empty()), "");
    }
}
