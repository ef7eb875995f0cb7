//! The rotation-fixed counts by rows, the fast formulation ([`super`]).
//!
//! - Quarter turn: a perfect matching of the n/2 row representatives into couples whose values
//!   b - a and n-1-a-b are all distinct. Each node takes the free row with the fewest partners
//!   (of those, the highest: the rows near the board's middle are the most constrained),
//!   pruning where one has none. The partners of row a are one expression over bit sets: the
//!   rows at a distance that is a free value, `(values << a) | (rev >> (63 - a))` on the low
//!   64 values, and those with a free sum value, `rev >> (127 - (n-1-a))`, where `rev` holds
//!   the free values mirrored (bit 127 - v), so that subtracting a value is a right shift. The
//!   last four rows are paired directly. Queens: each couple's two orientations use the same
//!   lines, so the count is the matchings times 2 per couple; amazons: both orientations are
//!   tried, with the knight's attacks checked cell by cell.
//! - Half turn: the rows i < n/2 (row n-1-i mirrored), the open row with the fewest free columns
//!   first (of those, the highest). A piece at (i, j) takes the column pair {j, n-1-j}, the
//!   diagonal values ±(j - i) and the anti-diagonal values ±(i + j - (n-1)), kept as value sets
//!   (bit v + n-1): row r's columns blocked by them are the sets shifted by n-1-r and by r. The
//!   zero values, which a piece shares with its own mirror, are taken from the start. Amazons
//!   check the knight against the rows around.
//!
//! Both poll the cancel token every 2^14 nodes.

use crate::board::Cell;
use crate::error::{Error, Result};
use crate::interrupt::Cancel;

use super::{Part, Problem, Turn};

/// No piece in this row.
const EMPTY: u8 = u8::MAX;

/// Nodes between two looks at the cancel token.
const POLL: u64 = 1 << 14;

/// Counts the boards of `p` (every board the rotation maps to itself that holds `p.placed`),
/// on this thread; `Err(Interrupted)` once `cancel` is raised.
pub(crate) fn count(p: &Problem, cancel: &Cancel) -> Result<u128> {
    let Some(mut s) = Search::new(p, cancel)? else {
        return Ok(0);
    };
    let c = s.run();
    if s.stopped {
        return Err(Error::Interrupted);
    }
    c.checked_mul(s.weight)
        .ok_or_else(|| Error::TooLarge(format!("the {}-board count overflows u128", p.n)))
}

/// The parts of `p` whose counts add up to the count of `p`: the search's choices `depth`
/// levels down, each part the cells it adds, with the weight of the orientations it stands for
/// (queens under the quarter turn: 2 per couple chosen). A choice that prunes makes no part.
pub(crate) fn parts(p: &Problem, depth: usize, cancel: &Cancel) -> Result<Vec<Part>> {
    let Some(mut s) = Search::new(p, cancel)? else {
        return Ok(Vec::new());
    };
    s.split = Some((depth, Vec::new(), Vec::new()));
    s.run();
    if s.stopped {
        return Err(Error::Interrupted);
    }
    let (_, _, out) = s.split.take().expect("set above");
    Ok(out)
}

/// One search, with its state.
struct Search<'a> {
    n: usize,
    /// n - 1.
    m: usize,
    turn: Turn,
    knight: bool,
    /// The column of each row's piece on the whole board (amazons' knight checks), or EMPTY.
    col: Vec<u8>,
    /// The open row representatives (rows < n/2).
    free: u64,
    /// Quarter turn: the free values (bit v), and mirrored (bit 127 - v).
    values: u128,
    rev: u128,
    /// Half turn: the used columns, the used diagonal and anti-diagonal values (both signs; bit
    /// v + n-1 for the value v).
    cols: u64,
    diag: u128,
    anti: u128,
    /// The count's factor: 2 per couple the quarter-turn search forms, for queens.
    weight: u128,
    /// `parts`: the depth, the cells chosen so far, and the parts.
    split: Option<(usize, Vec<Cell>, Vec<Part>)>,
    /// Part weight so far (`parts`).
    part_weight: u64,
    cancel: &'a Cancel,
    nodes: u64,
    stopped: bool,
}

impl<'a> Search<'a> {
    /// The search at the root of `p`, with the placed pieces' orbits on the board, or `None`
    /// where they attack each other (no board).
    fn new(p: &Problem, cancel: &'a Cancel) -> Result<Option<Search<'a>>> {
        if p.n > p.turn.max_n() {
            return Err(Error::Usage(format!(
                "the orbit engines count the {} turn's boards for n <= {}, not {}",
                p.turn.name(),
                p.turn.max_n(),
                p.n
            )));
        }
        let n = p.n as usize;
        let m = n.saturating_sub(1);
        if p.turn == Turn::Quarter && n % 4 >= 2 {
            return Ok(None);
        }
        let Some(cells) = orbit_cells(p) else {
            return Ok(None);
        };
        let h = n / 2;
        let mut s = Search {
            n,
            m,
            turn: p.turn,
            knight: p.knight,
            col: vec![EMPTY; n],
            free: 0,
            values: 0,
            rev: 0,
            cols: 0,
            diag: 0,
            anti: 0,
            weight: 1,
            split: None,
            part_weight: 1,
            cancel,
            nodes: 0,
            stopped: false,
        };
        for c in &cells {
            s.col[c.row as usize] = c.col as u8;
        }
        match p.turn {
            Turn::Quarter => {
                s.free = low_bits(h);
                for v in 1..=m {
                    s.values |= 1u128 << v;
                    s.rev |= 1u128 << (127 - v);
                }
                let mut couples = h / 2;
                for c in cells
                    .iter()
                    .filter(|c| (c.row as usize) < h && (c.col as usize) < h)
                {
                    let (a, b) = (c.row as usize, c.col as usize);
                    s.free &= !(1u64 << a) & !(1u64 << b);
                    s.take_values(a.abs_diff(b), m - a - b);
                    couples -= 1;
                }
                if !p.knight {
                    s.weight = 1u128 << couples;
                }
            }
            Turn::Half => {
                // The zero values: a piece and its own mirror share them.
                s.diag = 1u128 << m;
                s.anti = 1u128 << m;
                s.free = low_bits(h);
                for c in &cells {
                    let (r, j) = (c.row as usize, c.col as usize);
                    if r < h {
                        s.free &= !(1u64 << r);
                    }
                    // The values of (r, j) and of its mirror (bit v + n-1 for the value v).
                    let d = j as i64 - r as i64;
                    let a = (r + j) as i64 - m as i64;
                    s.cols |= 1u64 << j;
                    s.diag |= (1u128 << (m as i64 + d)) | (1u128 << (m as i64 - d));
                    s.anti |= (1u128 << (m as i64 + a)) | (1u128 << (m as i64 - a));
                }
            }
        }
        Ok(Some(s))
    }

    fn run(&mut self) -> u128 {
        match self.turn {
            Turn::Quarter => self.quarter(0),
            Turn::Half => self.half(0),
        }
    }

    fn take_values(&mut self, d: usize, s: usize) {
        self.values &= !(1u128 << d) & !(1u128 << s);
        self.rev &= !(1u128 << (127 - d)) & !(1u128 << (127 - s));
    }

    /// Counts a node; false once the search must stop.
    #[inline]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes.is_multiple_of(POLL) && self.cancel.is_cancelled() {
            self.stopped = true;
        }
        !self.stopped
    }

    /// The partners of row `a`: free rows b with |b - a| and n-1-a-b free values.
    /// (Rows are below 64, so the distances need only the low 64 values: b = a + v is the low
    /// word shifted left, b = a - v the mirrored low values, bit 63 - v of `rev`'s high word,
    /// shifted right; no value is 0, so a is never its own partner.)
    #[inline]
    fn partners(&self, a: usize) -> u64 {
        let near = ((self.values as u64) << a) | (((self.rev >> 64) as u64) >> (63 - a));
        let sum = (self.rev >> (127 - (self.m - a))) as u64;
        near & sum & self.free
    }

    /// A whole board: 1, or under `parts` a part of its own.
    fn leaf(&mut self) -> u128 {
        let weight = self.part_weight;
        if let Some((_, cells, out)) = &mut self.split {
            out.push(Part {
                weight,
                cells: cells.clone(),
            });
        }
        1
    }

    /// Whether `parts` ends the search here: records the part and says so.
    fn cut(&mut self, depth: usize) -> bool {
        let weight = self.part_weight;
        match &mut self.split {
            Some((d, cells, out)) if *d == depth => {
                out.push(Part {
                    weight,
                    cells: cells.clone(),
                });
                true
            }
            _ => false,
        }
    }

    /// The start of every node: `Some(count)` where the node ends here (the search stops, a
    /// whole board, or a part recorded by `parts`), `None` to branch.
    fn enter(&mut self, depth: usize) -> Option<u128> {
        if !self.tick() {
            return Some(0);
        }
        if self.free == 0 {
            return Some(self.leaf());
        }
        self.cut(depth).then_some(0)
    }

    fn quarter(&mut self, depth: usize) -> u128 {
        if let Some(end) = self.enter(depth) {
            return end;
        }
        if !self.knight && self.split.is_none() && self.free.count_ones() == 4 {
            return self.last_four();
        }
        // The free row with the fewest partners; of those, the highest (the rows near the
        // board's middle are the most constrained: choosing them first visits 1.85x fewer
        // nodes at n = 48 than the lowest, 40.8 M against 75.7 M).
        let (mut best, mut fewest, mut partners) = (0, u32::MAX, 0);
        let mut rows = self.free;
        while rows != 0 {
            let a = 63 - rows.leading_zeros() as usize;
            rows &= !(1u64 << a);
            let p = self.partners(a);
            let k = p.count_ones();
            if k < fewest {
                (best, fewest, partners) = (a, k, p);
                if k <= 1 {
                    break;
                }
            }
        }
        let a = best;
        let mut total = 0u128;
        let (free, values, rev) = (self.free, self.values, self.rev);
        while partners != 0 {
            let b = partners.trailing_zeros() as usize;
            partners &= partners - 1;
            self.free = free & !(1u64 << a) & !(1u64 << b);
            self.take_values(a.abs_diff(b), self.m - a - b);
            let (lo, hi) = (a.min(b), a.max(b));
            if self.knight {
                for orientation in [false, true] {
                    let cells = self.orbit(lo, hi, orientation);
                    if self.place(&cells) {
                        total += self.descend(depth, cells[0], 1);
                        self.unplace(&cells);
                    }
                }
            } else {
                let cell = Cell::new(lo as u32, hi as u32);
                total += self.descend(depth, cell, 2);
            }
            (self.free, self.values, self.rev) = (free, values, rev);
        }
        total
    }

    /// The matchings of the last four free rows (queens): of the three ways to pair them, those
    /// whose four values are free and distinct.
    fn last_four(&self) -> u128 {
        let mut rows = [0usize; 4];
        let mut f = self.free;
        for r in &mut rows {
            *r = f.trailing_zeros() as usize;
            f &= f - 1;
        }
        let [w, x, y, z] = rows;
        let m = self.m;
        let fits = |a: usize, b: usize, c: usize, d: usize| {
            let v = [b - a, m - a - b, d - c, m - c - d];
            let mut bits = 0u128;
            for x in v {
                bits |= 1u128 << x;
            }
            bits.count_ones() == 4 && bits & !self.values == 0
        };
        u128::from(fits(w, x, y, z)) + u128::from(fits(w, y, x, z)) + u128::from(fits(w, z, x, y))
    }

    /// Goes one level down the quarter-turn search after choosing `cell`'s orbit, which stands
    /// for `weight` orientations (recorded only by `parts`).
    fn descend(&mut self, depth: usize, cell: Cell, weight: u64) -> u128 {
        if let Some((_, cells, _)) = &mut self.split {
            cells.push(cell);
            self.part_weight *= weight;
            self.quarter(depth + 1);
            self.part_weight /= weight;
            if let Some((_, cells, _)) = &mut self.split {
                cells.pop();
            }
            0
        } else {
            self.quarter(depth + 1)
        }
    }

    /// The four cells of couple (a < b)'s orbit in one of its two orientations, the top-left
    /// quadrant's cell first.
    fn orbit(&self, a: usize, b: usize, flipped: bool) -> [Cell; 4] {
        let m = self.m;
        let c = |r: usize, c: usize| Cell::new(r as u32, c as u32);
        if flipped {
            [c(b, a), c(a, m - b), c(m - b, m - a), c(m - a, b)]
        } else {
            [c(a, b), c(b, m - a), c(m - a, m - b), c(m - b, a)]
        }
    }

    /// Puts `cells` on the board if no knight's leap joins one to a piece already there (or to
    /// another of them); false (the board unchanged) otherwise.
    fn place(&mut self, cells: &[Cell]) -> bool {
        for (i, c) in cells.iter().enumerate() {
            if self.knight_attacked(c.row as usize, c.col as usize) {
                self.unplace(&cells[..i]);
                return false;
            }
            self.col[c.row as usize] = c.col as u8;
        }
        true
    }

    fn unplace(&mut self, cells: &[Cell]) {
        for c in cells {
            self.col[c.row as usize] = EMPTY;
        }
    }

    /// Whether a piece on the board is a knight's leap from (r, c).
    #[inline]
    fn knight_attacked(&self, r: usize, c: usize) -> bool {
        let at = |row: Option<usize>, cc: Option<usize>| match (row, cc) {
            (Some(row), Some(cc)) if row < self.n => self.col[row] as usize == cc,
            _ => false,
        };
        let (r1, r2) = (r.checked_sub(1), r.checked_sub(2));
        let (c1, c2) = (c.checked_sub(1), c.checked_sub(2));
        at(r1, c2)
            || at(r1, Some(c + 2))
            || at(r2, c1)
            || at(r2, Some(c + 1))
            || at(Some(r + 1), c2)
            || at(Some(r + 1), Some(c + 2))
            || at(Some(r + 2), c1)
            || at(Some(r + 2), Some(c + 1))
    }

    /// The columns row `r` can take: a free column pair, free diagonal and anti-diagonal values.
    #[inline]
    fn avail(&self, r: usize, full: u64) -> u64 {
        let taken = self.cols | (self.diag >> (self.m - r)) as u64 | (self.anti >> r) as u64;
        let mut a = !taken & full;
        if self.knight {
            a &= !self.knight_row(r);
        }
        a
    }

    /// The half-turn search: the open row (of `self.free`) with the fewest columns first.
    fn half(&mut self, depth: usize) -> u128 {
        if let Some(end) = self.enter(depth) {
            return end;
        }
        let m = self.m;
        let full = low_bits(self.n);
        // Of the rows with the fewest columns, the highest (nearest the middle): 1.57x fewer
        // nodes at n = 24 than the lowest, 67.6 M against 106.0 M.
        let (mut best, mut fewest, mut avail) = (0, u32::MAX, 0);
        let mut rows = self.free;
        while rows != 0 {
            let r = 63 - rows.leading_zeros() as usize;
            rows &= !(1u64 << r);
            let a = self.avail(r, full);
            let k = a.count_ones();
            if k < fewest {
                (best, fewest, avail) = (r, k, a);
                if k == 0 {
                    return 0;
                }
            }
        }
        let i = best;
        if self.free.count_ones() == 1 && !self.knight && self.split.is_none() {
            return avail.count_ones() as u128;
        }
        let (free, cols, diag, anti) = (self.free, self.cols, self.diag, self.anti);
        self.free = free & !(1u64 << i);
        let mut total = 0u128;
        while avail != 0 {
            let j = avail.trailing_zeros() as usize;
            avail &= avail - 1;
            self.cols = cols | (1u64 << j) | (1u64 << (m - j));
            self.diag = diag | (1u128 << (j + m - i)) | (1u128 << (i + m - j));
            self.anti = anti | (1u128 << (i + j)) | (1u128 << (2 * m - i - j));
            self.col[i] = j as u8;
            self.col[m - i] = (m - j) as u8;
            if let Some((_, cells, _)) = &mut self.split {
                cells.push(Cell::new(i as u32, j as u32));
            }
            total += self.half(depth + 1);
            if let Some((_, cells, _)) = &mut self.split {
                cells.pop();
            }
            self.col[i] = EMPTY;
            self.col[m - i] = EMPTY;
        }
        (self.free, self.cols, self.diag, self.anti) = (free, cols, diag, anti);
        total
    }

    /// Columns of row `i` a knight's leap from a piece on the board (rows i ± 1, i ± 2: the
    /// rows above, the mirrors near the middle, the centre).
    fn knight_row(&self, i: usize) -> u64 {
        let mut out = 0u64;
        let mut mark = |row: Option<usize>, reach: usize| {
            if let Some(row) = row.filter(|&r| r < self.n) {
                let c = self.col[row];
                if c != EMPTY {
                    let c = c as usize;
                    if c + reach < self.n {
                        out |= 1u64 << (c + reach);
                    }
                    if c >= reach {
                        out |= 1u64 << (c - reach);
                    }
                }
            }
        };
        mark(i.checked_sub(1), 2);
        mark(i.checked_sub(2), 1);
        mark(Some(i + 1), 2);
        mark(Some(i + 2), 1);
        out
    }
}

/// The `n` low bits.
fn low_bits(n: usize) -> u64 {
    if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
}

/// Every cell of the placed pieces' orbits (and the centre, which every odd board fixed by a
/// rotation holds), or `None` where two of them attack each other.
fn orbit_cells(p: &Problem) -> Option<Vec<Cell>> {
    let n = p.n;
    let m = n.saturating_sub(1);
    let mut cells: Vec<Cell> = Vec::new();
    let mut add = |c: Cell| {
        if !cells.contains(&c) {
            cells.push(c);
        }
    };
    if n % 2 == 1 {
        add(Cell::new(n / 2, n / 2));
    }
    for &c in &p.placed {
        if c.row >= n || c.col >= n {
            return None;
        }
        add(c);
        add(Cell::new(m - c.row, m - c.col));
        if p.turn == Turn::Quarter {
            add(Cell::new(c.col, m - c.row));
            add(Cell::new(m - c.col, c.row));
        }
    }
    for (i, a) in cells.iter().enumerate() {
        for b in &cells[..i] {
            let (dr, dc) = (a.row.abs_diff(b.row), a.col.abs_diff(b.col));
            if dr == 0 || dc == 0 || dr == dc || (p.knight && dr.min(dc) == 1 && dr.max(dc) == 2) {
                return None;
            }
        }
    }
    Some(cells)
}
