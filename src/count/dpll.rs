//! An exhaustive DPLL model counter over the CNF that [`Encoder`] emits, projected on the cell
//! variables: the SAT engine's counter for one cube.
//!
//! Enumerating with a CDCL solver and blocking clauses costs a full restart of the search per
//! solution and slows down as the blocking clauses pile up (about 60 us per solution on small
//! cubes, 730 us in one big solver; see [`super::sat`]). Model counters such as sharpSAT and
//! Cachet use DPLL instead: branch, propagate, count the leaves, backtrack; no clause is ever
//! added. This one:
//!
//! - reads the clauses of the encoding into a clause database: binary clauses as implication
//!   lists, longer ones with two watched literals; unit propagation is the only inference;
//! - branches on the *lines* of the board that still need their piece (every free row and column
//!   holds exactly one): it picks the line with the fewest open cells and tries each open cell in
//!   turn as the piece, then asserts it empty before the next one. The branches are disjoint
//!   and cover every model, so the leaves are counted without blocking clauses;
//! - at a leaf where every line has its piece, branches on any cell still open (both values:
//!   the count is exact whatever the AMO encoding propagates) and then checks that the auxiliary
//!   variables have an extension (first-solution search, auxiliaries tried false first). Models
//!   are counted projected on the cells, so auxiliaries never inflate the count.
//!
//! It knows nothing of attacks: every constraint comes from the CNF, so the counts check the
//! encodings, and the independent bitboard engine ([`super::backtrack`]) checks them.

use crate::encode::{ClauseSink, EncodeOptions, Encoder, Lit};
use crate::error::{Error, Result};
use crate::instance::Instance;
use crate::piece::{LineKind, Piece};
use crate::presolve::Problem;

/// Literal code: `2 * var + (negative as u32)`.
type Code = u32;

#[inline]
fn code(l: Lit) -> Code {
    2 * l.var() + u32::from(!l.is_positive())
}

/// Collects the clauses of an encoding.
#[derive(Default)]
struct Collect {
    binary: Vec<[Code; 2]>,
    long: Vec<Code>,
    long_starts: Vec<u32>,
    units: Vec<Code>,
    empty: bool,
    max_var: u32,
}

impl ClauseSink for Collect {
    fn add_clause(&mut self, lits: &[Lit]) {
        for l in lits {
            self.max_var = self.max_var.max(l.var());
        }
        match lits {
            [] => self.empty = true,
            [a] => self.units.push(code(*a)),
            [a, b] => self.binary.push([code(*a), code(*b)]),
            _ => {
                self.long_starts.push(self.long.len() as u32);
                self.long.extend(lits.iter().map(|&l| code(l)));
            }
        }
    }
}

/// The counter's state for one formula.
pub struct Dpll {
    /// `value[var]`: 0 open, 1 true, -1 false.
    value: Vec<i8>,
    /// `implied[c]`: literals implied when literal `c` becomes true (binary clauses).
    implied: Vec<Vec<Code>>,
    /// Long clauses, flat; `starts[i]..starts[i+1]` is clause `i`; its first two literals are
    /// the watched ones.
    lits: Vec<Code>,
    starts: Vec<u32>,
    /// `watches[c]`: long clauses watching literal `c` (visited when `c` becomes false).
    watches: Vec<Vec<u32>>,
    trail: Vec<Code>,
    head: usize,
    /// Number of cell variables (`1..=cells`).
    cells: u32,
    /// Lines (free rows and columns): their cell variables.
    lines: Vec<Vec<u32>>,
    /// `cell_lines[var]`: the two lines of a cell variable.
    cell_lines: Vec<[u32; 2]>,
    /// Per line: open cells, and cells set true.
    open: Vec<u32>,
    pieces: Vec<u32>,
    /// A unit or empty clause was contradictory at the top.
    conflict_at_top: bool,
}

impl Dpll {
    /// Loads `problem` encoded with `options`; an error if [`supports`] rejects its piece.
    pub fn new(problem: &Problem, options: EncodeOptions) -> Result<Dpll> {
        supports(&problem.piece)?;
        let mut c = Collect::default();
        let stats = Encoder::with_options(problem, options).encode(&mut c);
        let vars = (stats.vars as u32).max(c.max_var) as usize;
        let cells = problem.num_cells() as u32;
        let n_codes = 2 * (vars + 1);
        let mut implied = vec![Vec::new(); n_codes];
        for [a, b] in c.binary {
            implied[(a ^ 1) as usize].push(b);
            implied[(b ^ 1) as usize].push(a);
        }
        let mut watches = vec![Vec::new(); n_codes];
        let mut starts = c.long_starts;
        for (i, &s) in starts.iter().enumerate() {
            watches[c.long[s as usize] as usize].push(i as u32);
            watches[c.long[s as usize + 1] as usize].push(i as u32);
        }
        starts.push(c.long.len() as u32);
        // Lines: free rows from the variable map, free columns from the cells.
        let map = &problem.varmap;
        let n = map.n();
        let mut row_line = vec![u32::MAX; n as usize];
        let mut col_line = vec![u32::MAX; n as usize];
        let mut lines: Vec<Vec<u32>> = Vec::new();
        let mut cell_lines = vec![[0u32; 2]; cells as usize + 1];
        for (cell, var) in map.cells() {
            for (k, (table, idx)) in [(&mut row_line, cell.row), (&mut col_line, cell.col)]
                .into_iter()
                .enumerate()
            {
                let slot = &mut table[idx as usize];
                if *slot == u32::MAX {
                    *slot = lines.len() as u32;
                    lines.push(Vec::new());
                }
                lines[*slot as usize].push(var);
                cell_lines[var as usize][k] = *slot;
            }
        }
        let open = lines.iter().map(|l| l.len() as u32).collect();
        let pieces = vec![0; lines.len()];
        let mut d = Dpll {
            value: vec![0; vars + 1],
            implied,
            lits: c.long,
            starts,
            watches,
            trail: Vec::with_capacity(vars),
            head: 0,
            cells,
            lines,
            cell_lines,
            open,
            pieces,
            conflict_at_top: c.empty,
        };
        for u in c.units {
            match d.lit_value(u) {
                1 => {}
                -1 => d.conflict_at_top = true,
                _ => d.assign(u),
            }
        }
        if !d.conflict_at_top && !d.propagate() {
            d.conflict_at_top = true;
        }
        Ok(d)
    }

    #[inline]
    fn lit_value(&self, c: Code) -> i8 {
        let v = self.value[(c >> 1) as usize];
        if c & 1 == 0 { v } else { -v }
    }

    #[inline]
    fn assign(&mut self, c: Code) {
        let var = c >> 1;
        let positive = c & 1 == 0;
        self.value[var as usize] = if positive { 1 } else { -1 };
        self.trail.push(c);
        if var <= self.cells {
            for line in self.cell_lines[var as usize] {
                self.open[line as usize] -= 1;
                if positive {
                    self.pieces[line as usize] += 1;
                }
            }
        }
    }

    /// Undoes the trail down to `mark` entries.
    fn undo(&mut self, mark: usize) {
        while self.trail.len() > mark {
            let c = self.trail.pop().expect("trail");
            let var = c >> 1;
            self.value[var as usize] = 0;
            if var <= self.cells {
                for line in self.cell_lines[var as usize] {
                    self.open[line as usize] += 1;
                    if c & 1 == 0 {
                        self.pieces[line as usize] -= 1;
                    }
                }
            }
        }
        self.head = self.head.min(mark);
    }

    /// Unit propagation; false on a conflict.
    fn propagate(&mut self) -> bool {
        while self.head < self.trail.len() {
            let p = self.trail[self.head];
            self.head += 1;
            // Binary clauses: p true implies each of implied[p].
            for k in 0..self.implied[p as usize].len() {
                let q = self.implied[p as usize][k];
                match self.lit_value(q) {
                    1 => {}
                    -1 => return false,
                    _ => self.assign(q),
                }
            }
            // Long clauses watching the literal that just became false.
            let f = p ^ 1;
            let mut ws = std::mem::take(&mut self.watches[f as usize]);
            let mut i = 0;
            let mut ok = true;
            while i < ws.len() {
                let cl = ws[i] as usize;
                let (s, e) = (self.starts[cl] as usize, self.starts[cl + 1] as usize);
                // Keep the false literal in slot 1.
                if self.lits[s] == f {
                    self.lits.swap(s, s + 1);
                }
                let other = self.lits[s];
                if self.lit_value(other) == 1 {
                    i += 1;
                    continue;
                }
                // Look for a new watch.
                let mut moved = false;
                for j in s + 2..e {
                    if self.lit_value(self.lits[j]) != -1 {
                        self.lits.swap(s + 1, j);
                        self.watches[self.lits[s + 1] as usize].push(cl as u32);
                        ws.swap_remove(i);
                        moved = true;
                        break;
                    }
                }
                if moved {
                    continue;
                }
                match self.lit_value(other) {
                    -1 => {
                        ok = false;
                        break;
                    }
                    0 => self.assign(other),
                    _ => {}
                }
                i += 1;
            }
            // Put back (the conflict case keeps every remaining watch too).
            let back = std::mem::replace(&mut self.watches[f as usize], ws);
            self.watches[f as usize].extend(back);
            if !ok {
                return false;
            }
        }
        true
    }

    /// The models of the formula, projected on the cell variables.
    pub fn count(&mut self) -> u64 {
        if self.conflict_at_top {
            return 0;
        }
        let mark = self.trail.len();
        let n = self.search();
        self.undo(mark);
        n
    }

    fn search(&mut self) -> u64 {
        if crate::interrupt::interrupted() {
            return 0; // the caller reports the interrupt
        }
        // The line that still needs its piece with the fewest open cells.
        let mut best: Option<(u32, usize)> = None;
        for (line, &open) in self.open.iter().enumerate() {
            if self.pieces[line] == 0 {
                if open == 0 {
                    return 0;
                }
                if best.is_none_or(|(o, _)| open < o) {
                    best = Some((open, line));
                    if open == 1 {
                        break;
                    }
                }
            }
        }
        let Some((_, line)) = best else {
            return self.leaf();
        };
        let start = self.trail.len();
        let mut total = 0;
        for k in 0..self.lines[line].len() {
            let var = self.lines[line][k];
            match self.value[var as usize] {
                0 => {}
                // Asserting the earlier cells empty forced this one: its branch is the state
                // as it stands, and the line's other cells are empty in it.
                1 => {
                    total += self.search();
                    break;
                }
                _ => continue,
            }
            let mark = self.trail.len();
            self.assign(2 * var);
            if self.propagate() {
                total += self.search();
            }
            self.undo(mark);
            // Later branches have this cell empty (disjoint branches); asserting it helps
            // propagation and ends the loop early on a conflict.
            self.assign(2 * var + 1);
            if !self.propagate() {
                break;
            }
        }
        self.undo(start);
        total
    }

    /// Every line has its piece: count the remaining cell assignments that extend.
    fn leaf(&mut self) -> u64 {
        match (1..=self.cells).find(|&v| self.value[v as usize] == 0) {
            Some(var) => {
                let mut total = 0;
                for c in [2 * var, 2 * var + 1] {
                    let mark = self.trail.len();
                    self.assign(c);
                    if self.propagate() {
                        total += self.leaf();
                    }
                    self.undo(mark);
                }
                total
            }
            None => u64::from(self.extend()),
        }
    }

    /// Whether the auxiliary variables have a satisfying extension (first-solution DPLL).
    fn extend(&mut self) -> bool {
        let Some(var) = (self.cells as usize + 1..self.value.len()).find(|&v| self.value[v] == 0)
        else {
            return true; // every variable set without conflict: all clauses hold
        };
        let var = var as u32;
        for c in [2 * var + 1, 2 * var] {
            let mark = self.trail.len();
            self.assign(c);
            if self.propagate() && self.extend() {
                self.undo(mark);
                return true;
            }
            self.undo(mark);
        }
        false
    }
}

/// Whether the counter models `piece`, or why not: it branches on the rows and columns that
/// still need their piece, so the piece must attack along both (then each of them holds exactly
/// one of the `n` pieces), and [`Piece::validate`] must hold. The cube builder
/// ([`crate::cube::cubes`]) places cube pieces on rows and columns and relies on the same.
///
/// ```
/// use queens_sat::{count::dpll::supports, piece::{LineKind, Piece, QUEEN}};
/// assert!(supports(&QUEEN).is_ok());
/// let rook_less = Piece { name: "no-columns", lines: &[LineKind::Row, LineKind::Diagonal], leaps: &[] };
/// assert!(supports(&rook_less).is_err());
/// ```
pub fn supports(piece: &Piece) -> Result<()> {
    piece.validate().map_err(Error::Usage)?;
    for kind in [LineKind::Row, LineKind::Column] {
        if !piece.lines.contains(&kind) {
            return Err(Error::Usage(format!(
                "the SAT counting engine needs a piece that attacks along rows and columns ({} \
                 has no {} lines)",
                piece.name,
                kind.name()
            )));
        }
    }
    Ok(())
}

/// Counts the models of one cube (a completion instance), projected on the cell variables.
pub fn count_cube(instance: &Instance, piece: Piece, options: EncodeOptions) -> Result<u64> {
    supports(&piece)?;
    let problem = Problem::presolve(instance, piece)?;
    if problem.unsat.is_some() {
        return Ok(0);
    }
    let n = Dpll::new(&problem, options)?.count();
    if crate::interrupt::interrupted() {
        return Err(Error::Interrupted);
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::amo::AmoKind;
    use crate::piece::{AMAZON, QUEEN};

    fn count(n: u32, piece: Piece, amo: AmoKind) -> u64 {
        count_cube(&Instance::plain(n), piece, EncodeOptions::from(amo)).unwrap()
    }

    #[test]
    fn counts_queens_and_amazons_with_every_encoding() {
        // A000170 and A051223.
        let queens = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724];
        let amazons = [1, 0, 0, 0, 0, 0, 0, 0, 0, 4, 44];
        for amo in AmoKind::ALL {
            for (i, &want) in queens.iter().enumerate() {
                assert_eq!(
                    count(i as u32 + 1, QUEEN, amo),
                    want,
                    "queens n={} {amo}",
                    i + 1
                );
            }
            for (i, &want) in amazons.iter().enumerate() {
                assert_eq!(
                    count(i as u32 + 1, AMAZON, amo),
                    want,
                    "amazons n={} {amo}",
                    i + 1
                );
            }
        }
    }
}
