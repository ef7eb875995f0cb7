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
//! When every clause is over cell variables and is a negative pair or a positive clause (the
//! clauses of `--amo pairwise`, which `auto` uses on lines of up to 64 cells), the same search
//! runs on bit masks (`Bits`): a cell set true clears its conflict mask from the open cells,
//! and the choice of the unsatisfied positive clause with the fewest open cells doubles as unit
//! propagation (none open: conflict; one: a single branch). Profiled on 15-queens, the
//! implication-list propagation took 70 % of the time; the masks made the count 4x faster.
//!
//! It knows nothing of attacks: every constraint comes from the CNF, so the counts check the
//! encodings, and the independent bitboard engine ([`super::backtrack`]) checks them.

use crate::encode::{ClauseSink, EncodeOptions, Encoder, Lit};
use crate::error::{Error, Result};
use crate::instance::Instance;
use crate::interrupt::Cancel;
use crate::piece::Piece;
use crate::presolve::Problem;

/// Literal code: `2 * var + (negative as u32)`.
type Code = u32;

#[inline]
fn code(l: Lit) -> Code {
    2 * l.var() + u32::from(!l.is_positive())
}

/// Collects the clauses of an encoding. It polls its token every 2^16 clauses and grows its
/// buffers with `try_reserve`: once the token stops or an allocation fails it keeps nothing
/// more and says so through [`ClauseSink::stopped`], which the encoder and the lex-leader
/// constraints look at, so a big board's encoding ends early instead of running on (or
/// aborting the process).
#[derive(Default)]
struct Collect {
    binary: Vec<[Code; 2]>,
    long: Vec<Code>,
    long_starts: Vec<u32>,
    units: Vec<Code>,
    empty: bool,
    max_var: u32,
    /// Polled every 2^16 clauses.
    cancel: Option<Cancel>,
    clauses: u64,
    /// The token stopped: nothing more is kept.
    stop: bool,
    /// An allocation failed (how many bytes were asked for): nothing more is kept.
    out_of_memory: Option<u64>,
}

/// Room for `more` elements in `v`, or `Err(bytes asked)` when the allocator refuses.
fn room<T>(v: &mut Vec<T>, more: usize) -> std::result::Result<(), u64> {
    if v.capacity() - v.len() >= more {
        return Ok(());
    }
    let grow = more.max(v.len()); // double, as push would
    v.try_reserve(grow)
        .map_err(|_| ((v.len() + grow) * std::mem::size_of::<T>()) as u64)
}

impl Collect {
    fn until(cancel: &Cancel) -> Collect {
        Collect {
            cancel: Some(cancel.clone()),
            ..Collect::default()
        }
    }

    /// Why the collection ended early: the token's stop, or the allocation that failed.
    fn check(&self, cells: u64) -> Result<()> {
        if let Some(bytes) = self.out_of_memory {
            return Err(Error::TooLarge(format!(
                "counting a cube of {cells} cells: its clauses could not grow by {}",
                crate::memory::bytes(bytes)
            )));
        }
        if self.stop {
            return Err(Error::Interrupted);
        }
        Ok(())
    }
}

impl ClauseSink for Collect {
    fn add_clause(&mut self, lits: &[Lit]) {
        if self.stop {
            return;
        }
        self.clauses += 1;
        if self.clauses & 0xFFFF == 0 && self.cancel.as_ref().is_some_and(|c| c.is_stopped()) {
            self.stop = true;
            return;
        }
        for l in lits {
            self.max_var = self.max_var.max(l.var());
        }
        let grown = match lits {
            [] => {
                self.empty = true;
                Ok(())
            }
            [a] => room(&mut self.units, 1).map(|()| self.units.push(code(*a))),
            [a, b] => room(&mut self.binary, 1).map(|()| self.binary.push([code(*a), code(*b)])),
            _ => room(&mut self.long_starts, 1)
                .and_then(|()| room(&mut self.long, lits.len()))
                .map(|()| {
                    self.long_starts.push(self.long.len() as u32);
                    self.long.extend(lits.iter().map(|&l| code(l)));
                }),
        };
        if let Err(bytes) = grown {
            self.out_of_memory = Some(bytes);
            self.stop = true;
        }
    }

    fn stopped(&self) -> bool {
        self.stop
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
    /// The search stops (counting nothing more) once raised.
    cancel: Cancel,
}

impl Dpll {
    #[cfg(feature = "oracle")] // a test entry point
    /// Loads `problem` encoded with `options`; an error if [`supports`] rejects its piece.
    pub fn new(problem: &Problem, options: EncodeOptions) -> Result<Dpll> {
        let mut c = Collect::default();
        let stats = Encoder::with_options(problem, options).encode(&mut c);
        Dpll::from_clauses(problem, c, stats.vars)
    }

    /// The counter over clauses already collected from `problem`'s encoding (`vars` variables).
    fn from_clauses(problem: &Problem, c: Collect, vars: u64) -> Result<Dpll> {
        supports(&problem.piece)?;
        let vars = (vars as u32).max(c.max_var) as usize;
        let cells = problem.num_cells() as u32;
        let n_codes = 2 * (vars + 1);
        let mut implied = crate::memory::try_vec(n_codes, Vec::new(), "the DPLL counter's lists")?;
        for (i, [a, b]) in c.binary.into_iter().enumerate() {
            if i & 0xF_FFFF == 0 && c.cancel.as_ref().is_some_and(|c| c.is_stopped()) {
                return Err(Error::Interrupted);
            }
            implied[(a ^ 1) as usize].push(b);
            implied[(b ^ 1) as usize].push(a);
        }
        let mut watches = crate::memory::try_vec(n_codes, Vec::new(), "the DPLL counter's lists")?;
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
            cancel: Cancel::new(),
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
        if self.cancel.is_cancelled() {
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
            if self.cancel.is_cancelled() {
                // Unwind without trying the other branches: each costs a propagation, and a
                // deep search on a big board would spend seconds on them after the stop.
                break;
            }
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
    piece
        .rows_and_columns("the SAT counting engine")
        .map_err(Error::Usage)
}

#[cfg(feature = "oracle")] // a test entry point
/// Counts the models of one cube (a completion instance), projected on the cell variables.
pub fn count_cube(instance: &Instance, piece: Piece, options: EncodeOptions) -> Result<u64> {
    count_cube_with(instance, piece, options, &Cancel::new())
}

#[cfg(any(feature = "harness", feature = "oracle"))] // the cluster jobs and the benchmarks
/// [`count_cube`], stopped (with [`Error::Interrupted`]) once `cancel` is raised.
pub fn count_cube_with(
    instance: &Instance,
    piece: Piece,
    options: EncodeOptions,
    cancel: &Cancel,
) -> Result<u64> {
    count_cube_fixed(instance, piece, options, &[], cancel)
}

/// [`count_cube_with`], restricted besides `options.symmetric` to the boards that every
/// element of `also` maps to themselves (the same CNF equivalences, one set per element): the
/// fixed points of a subgroup that one element does not generate.
pub fn count_cube_fixed(
    instance: &Instance,
    piece: Piece,
    options: EncodeOptions,
    also: &[crate::symmetry::Symmetry],
    cancel: &Cancel,
) -> Result<u64> {
    supports(&piece)?;
    let problem = Problem::presolve(instance, piece)?;
    if problem.unsat.is_some() {
        return Ok(0);
    }
    let mut c = Collect::until(cancel);
    let stats = Encoder::with_options(&problem, options)
        .until(cancel)
        .encode(&mut c);
    for &g in also {
        if !crate::encode::symmetric::for_each_clause(&problem, g, |cl| c.add_clause(cl)) {
            return Ok(0); // g moves a pre-placed piece onto a cell that must stay empty
        }
    }
    c.check(problem.num_cells())?;
    let cells = problem.num_cells() as u32;
    let n = match Bits::new(cells, &c) {
        // Cell clauses only (pairwise AMO, no auxiliaries): the bit-parallel counter.
        Some(mut bits) => {
            bits.cancel = cancel.clone();
            bits.count()
        }
        None => {
            let mut counter = Dpll::from_clauses(&problem, c, stats.vars)?;
            cancel.check()?;
            counter.cancel = cancel.clone();
            counter.count()
        }
    };
    cancel.check()?;
    Ok(n)
}

/// Words of a cell mask in [`Bits`]: cubes with at most `64 * WORDS` live cells.
const WORDS: usize = 8;
type Mask = [u64; WORDS];

/// The counter's fast path, for an encoding whose clauses are all over the cell variables and
/// are either *negative pairs* (`-a -b`: pairwise at-most-one, leaps) or *positive* (`a b c ...`:
/// at-least-one per line; units either way): the clauses of `--amo pairwise`, which `auto`
/// picks for lines of up to 64 cells. The same DPLL search as [`Dpll`] (branch on the
/// unsatisfied positive clause with the fewest open cells, each open cell in turn, then assert
/// it false; unit propagation on the positive clauses), with the state as bit masks: setting a
/// cell true removes its conflict mask from the open cells in a few word operations instead of
/// walking implication lists. Still built from the CNF alone, not from the board's geometry.
struct Bits {
    /// `conflicts[v]`: the cells that cannot be true with cell `v` (bit `v` included).
    conflicts: Vec<Mask>,
    /// Positive clauses.
    clauses: Vec<Mask>,
    /// Cells a negative unit clause sets false.
    falses: Mask,
    /// `satisfies[v]`: the positive clauses (bit per clause) that cell `v` satisfies.
    satisfies: Vec<u128>,
    /// Words in use (`ceil(cells / 64)`).
    nw: usize,
    cancel: Cancel,
    nodes: u64,
    /// Set once `cancel` was seen raised: every open node then returns at once (the token
    /// itself is only polled every 65536 nodes).
    stopped: bool,
}

impl Bits {
    /// The fast counter for `c`, or `None` when a clause is of another kind (auxiliary
    /// variables, mixed signs) or there are more than `64 * WORDS` cells.
    fn new(cells: u32, c: &Collect) -> Option<Bits> {
        if c.empty || c.max_var > cells || cells as usize > 64 * WORDS {
            return None;
        }
        let bit = |m: &mut Mask, code: Code| {
            let i = (code >> 1) as usize - 1;
            m[i / 64] |= 1 << (i % 64);
        };
        let mut conflicts = vec![[0u64; WORDS]; cells as usize];
        for (v, m) in conflicts.iter_mut().enumerate() {
            bit(m, 2 * (v as u32 + 1));
        }
        let mut clauses = Vec::new();
        let mut falses = [0u64; WORDS];
        for &[a, b] in &c.binary {
            match (a & 1, b & 1) {
                (1, 1) => {
                    bit(&mut conflicts[(a >> 1) as usize - 1], b);
                    bit(&mut conflicts[(b >> 1) as usize - 1], a);
                }
                (0, 0) => {
                    let mut m = [0; WORDS];
                    bit(&mut m, a);
                    bit(&mut m, b);
                    clauses.push(m);
                }
                _ => return None,
            }
        }
        for (i, &s) in c.long_starts.iter().enumerate() {
            let e = c
                .long_starts
                .get(i + 1)
                .map_or(c.long.len(), |&e| e as usize);
            let mut m = [0; WORDS];
            for &l in &c.long[s as usize..e] {
                if l & 1 == 1 {
                    return None;
                }
                bit(&mut m, l);
            }
            clauses.push(m);
        }
        for &u in &c.units {
            if u & 1 == 1 {
                bit(&mut falses, u);
            } else {
                let mut m = [0; WORDS];
                bit(&mut m, u);
                clauses.push(m);
            }
        }
        if clauses.len() > 128 {
            return None;
        }
        let mut satisfies = vec![0u128; cells as usize];
        for (k, m) in clauses.iter().enumerate() {
            for (v, s) in satisfies.iter_mut().enumerate() {
                if m[v / 64] >> (v % 64) & 1 == 1 {
                    *s |= 1 << k;
                }
            }
        }
        Some(Bits {
            satisfies,
            nw: (cells as usize).div_ceil(64),
            conflicts,
            clauses,
            falses,
            cancel: Cancel::new(),
            nodes: 0,
            stopped: false,
        })
    }

    fn count(&mut self) -> u64 {
        let mut open = [0u64; WORDS];
        for v in 0..self.conflicts.len() {
            open[v / 64] |= 1 << (v % 64);
        }
        for (o, f) in open.iter_mut().zip(&self.falses) {
            *o &= !f;
        }
        let all = if self.clauses.len() == 128 {
            u128::MAX
        } else {
            (1u128 << self.clauses.len()) - 1
        };
        self.search(open, all)
    }

    #[inline]
    fn choose(&self, open: &mut Mask, unsat: &mut u128, v: usize) {
        *unsat &= !self.satisfies[v];
        let c = &self.conflicts[v];
        for w in 0..self.nw {
            open[w] &= !c[w];
        }
    }

    /// The count below the state: `open` cells may still be true, `unsat` (bit per positive
    /// clause) are the clauses no true cell satisfies yet.
    fn search(&mut self, open: Mask, unsat: u128) -> u64 {
        self.nodes += 1;
        if self.stopped || (self.nodes & 0xFFFF == 0 && self.cancel.is_cancelled()) {
            self.stopped = true;
            return 0; // the caller reports the interrupt
        }
        // The unsatisfied positive clause with the fewest open cells: none is a conflict, one is
        // a unit (a single branch), so this choice is also the unit propagation.
        let mut best: Option<(u32, usize)> = None;
        let mut left = unsat;
        while left != 0 {
            let i = left.trailing_zeros() as usize;
            left &= left - 1;
            let c = &self.clauses[i];
            let k: u32 = (0..self.nw).map(|w| (c[w] & open[w]).count_ones()).sum();
            if k == 0 {
                return 0;
            }
            if best.is_none_or(|(b, _)| k < b) {
                best = Some((k, i));
                if k == 1 {
                    break;
                }
            }
        }
        let Some((_, i)) = best else {
            return self.leaf(open);
        };
        let clause = self.clauses[i];
        let mut open = open;
        let mut total = 0;
        for w in 0..self.nw {
            let mut bits = clause[w] & open[w];
            while bits != 0 {
                let v = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let (mut o, mut u) = (open, unsat);
                self.choose(&mut o, &mut u, v);
                total += self.search(o, u);
                if self.stopped {
                    return 0; // unwind at once (the caller reports the interrupt)
                }
                // Later branches have this cell false (the branches are disjoint).
                open[w] &= !(1 << (v % 64));
            }
        }
        total
    }

    /// Every positive clause holds: each remaining open cell may be true or false, as long as
    /// no two true cells conflict.
    fn leaf(&self, open: Mask) -> u64 {
        let Some(w) = (0..self.nw).find(|&w| open[w] != 0) else {
            return 1;
        };
        let v = w * 64 + open[w].trailing_zeros() as usize;
        let mut without = open;
        without[w] &= !(1 << (v % 64));
        let mut with = without;
        for (x, c) in with.iter_mut().zip(&self.conflicts[v]).take(self.nw) {
            *x &= !c;
        }
        self.leaf(without) + self.leaf(with)
    }
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
