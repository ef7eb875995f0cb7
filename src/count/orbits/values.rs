//! The rotation-fixed counts by diagonal values (the second, independent formulation of
//! [`super`]): the search goes over the values from the largest down, and each value is left
//! unused or given to one orbit whose largest value it is.
//!
//! - The quarter turn: a couple {a, b} (a < b < n/2) takes the values d = b - a and
//!   s = n-1-a-b > d, so a + b = n-1-s. At the value s the search leaves it unused or joins two
//!   free rows a < b with a + b = n-1-s whose difference d is a free value (d < s, decided
//!   later). The queens' orientation is free (2 boards per couple); the amazons' orientations
//!   are enumerated with the knight checks.
//! - The half turn: the pair of row i < n/2 takes the row pair x = i, the column pair y and the
//!   values δ = |j - i|, α = |i + j - (n-1)|. With v = max(δ, α) and w = min(δ, α), the row
//!   and column pairs are {x, y} = {low, high} with low + high = n-1-v and high - low = w. At
//!   the value v the search decides the diagonal value δ = v (unused, or paired with an
//!   anti-diagonal value w < v, the row taking low or high) and then the anti-diagonal value
//!   α = v the same way: the same shape as the quarter turn, with two sets of values and rows
//!   and columns apart.
//!
//! Pruning: per set of values, the free values at or below the current one must cover the
//! orbits left (and for the quarter turn of n = 4k, per parity: each couple takes one odd and
//! one even value); every orbit still to come has row (column) indices summing to at least
//! n-1-v, so the smallest free index plus the largest free partner must reach it.

use crate::board::Cell;
use crate::error::{Error, Result};
use crate::interrupt::Cancel;

use super::{Problem, Turn};

/// Nodes between two polls of the cancel token.
const POLL: u64 = 4096;

/// Counts the boards of `p` (every board the rotation maps to itself that holds `p.placed` —
/// each placed cell stands for its whole orbit), polling `cancel` every few thousand nodes
/// ([`Error::Interrupted`] once it is raised). Refuses n = 0, n > [`Turn::max_n`] and placed
/// cells off the board with an [`Error::Usage`].
pub(crate) fn count(p: &Problem, cancel: &Cancel) -> Result<u128> {
    let n = p.n;
    if n == 0 || n > p.turn.max_n() {
        return Err(Error::Usage(format!(
            "the {:?} turn's value count handles n from 1 to {}, not n = {n}",
            p.turn,
            p.turn.max_n()
        )));
    }
    if let Some(c) = p.placed.iter().find(|c| c.row >= n || c.col >= n) {
        return Err(Error::Usage(format!(
            "placed cell ({},{}) is off the {n} x {n} board",
            c.row, c.col
        )));
    }
    match p.turn {
        Turn::Quarter => Quarter::count(n as usize, p.knight, &p.placed, cancel),
        Turn::Half => Half::count(n as usize, p.knight, &p.placed, cancel),
    }
}

/// The lowest `h` bits of a `u64` (all of them from 64 on).
fn low_bits(h: usize) -> u64 {
    if h >= 64 { !0 } else { (1u64 << h) - 1 }
}

/// Bit `a` of the result is bit `sum - a` of `set` (bits that fall outside are dropped): the
/// partners that make `sum` with each index.
fn mirrored(set: u64, sum: usize) -> u64 {
    from_reversed(set.reverse_bits(), sum)
}

/// [`mirrored`] from the reversed set (bit 63 - x is bit x of the set), to reverse it once for
/// many sums.
fn from_reversed(rev: u64, sum: usize) -> u64 {
    if sum <= 63 {
        rev >> (63 - sum)
    } else {
        rev.checked_shl((sum - 63) as u32).unwrap_or(0)
    }
}

/// The bits 0..=v of a `u128`.
fn upto(v: usize) -> u128 {
    if v >= 127 { !0 } else { (2u128 << v) - 1 }
}

/// [`from_reversed`] on a `u128` (bit 127 - x is bit x of the set).
fn from_reversed128(rev: u128, sum: usize) -> u128 {
    if sum <= 127 {
        rev >> (127 - sum)
    } else {
        rev.checked_shl((sum - 127) as u32).unwrap_or(0)
    }
}

/// The pieces of a board, by row, for the knight checks (`None`: the row is empty so far).
struct Knights {
    /// The column of each row's piece.
    col: Vec<Option<usize>>,
}

impl Knights {
    /// An empty board of side `n`.
    fn new(n: usize) -> Knights {
        Knights { col: vec![None; n] }
    }

    /// Whether a piece at `(r, c)` is a knight's move from a piece on the board.
    fn attacked(&self, r: usize, c: usize) -> bool {
        let n = self.col.len();
        let hit = |dr: usize, dc: usize| {
            let rows = [r.checked_sub(dr), Some(r + dr).filter(|&x| x < n)];
            rows.into_iter()
                .flatten()
                .any(|x| self.col[x].is_some_and(|y| y.abs_diff(c) == dc))
        };
        hit(1, 2) || hit(2, 1)
    }

    /// Places `cells` one by one (their rows empty), unless one is a knight's move from a piece
    /// already there (also one placed just before from `cells`): then nothing is placed.
    fn place(&mut self, cells: &[(usize, usize)]) -> bool {
        for (i, &(r, c)) in cells.iter().enumerate() {
            if self.attacked(r, c) {
                self.remove(&cells[..i]);
                return false;
            }
            self.col[r] = Some(c);
        }
        true
    }

    /// Empties the rows of `cells`.
    fn remove(&mut self, cells: &[(usize, usize)]) {
        for &(r, _) in cells {
            self.col[r] = None;
        }
    }
}

/// The polling of the cancel token, shared by both searches.
struct Poll<'a> {
    /// The token.
    cancel: &'a Cancel,
    /// Nodes visited.
    nodes: u64,
    /// Raised once the token was seen raised: every node returns 0 from then on.
    stop: bool,
}

impl Poll<'_> {
    /// Counts a node; true when the search must stop.
    #[inline]
    fn stopped(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes.is_multiple_of(POLL) && self.cancel.is_cancelled() {
            self.stop = true;
        }
        self.stop
    }
}

/// The quarter turn's search over the values (n = 4k or 4k + 1; rows 0..2k are the row pairs).
struct Quarter<'a> {
    /// Board side.
    n: usize,
    /// Amazons: orientations enumerated, knight checks.
    knight: bool,
    /// Free row pairs (bits 0..2k).
    rows: u64,
    /// Free values (bits 1..=n-2).
    vals: u128,
    /// Values that may still be left unused: per parity for n = 4k (index `v & 1`), in index 0
    /// alone for n = 4k + 1.
    slack: [i32; 2],
    /// Whether `slack` is split by parity (n = 4k).
    split: bool,
    /// The pieces, for the amazons.
    knights: Knights,
    /// The cancel token.
    poll: Poll<'a>,
}

impl<'a> Quarter<'a> {
    /// The cells of the orbit of couple `a < b` in orientation `o`.
    fn orbit(n: usize, a: usize, b: usize, o: bool) -> [(usize, usize); 4] {
        let m = n - 1;
        if o {
            [(a, m - b), (m - b, m - a), (m - a, b), (b, a)]
        } else {
            [(a, b), (b, m - a), (m - a, m - b), (m - b, a)]
        }
    }

    /// The count of [`count`] for the quarter turn.
    fn count(n: usize, knight: bool, placed: &[Cell], cancel: &'a Cancel) -> Result<u128> {
        if n % 4 > 1 {
            return Ok(0);
        }
        let half = n / 2; // 2k row pairs
        let mut q = Quarter {
            n,
            knight,
            rows: low_bits(half),
            vals: if n >= 3 {
                ((1u128 << (n - 2)) - 1) << 1
            } else {
                0
            },
            slack: [0; 2],
            split: n.is_multiple_of(4),
            knights: Knights::new(n),
            poll: Poll {
                cancel,
                nodes: 0,
                stop: false,
            },
        };
        if n % 2 == 1 {
            q.knights.col[half] = Some(half);
        }
        // The placed orbits: (a, b, orientation) each.
        let mut fixed: Vec<(usize, usize, bool)> = Vec::new();
        for c in placed {
            let (r, c) = (c.row as usize, c.col as usize);
            if n % 2 == 1 && (r == half || c == half) {
                if r == c {
                    continue; // the centre
                }
                return Ok(0);
            }
            let (x, y) = (r.min(n - 1 - r), c.min(n - 1 - c));
            if x == y {
                return Ok(0);
            }
            let (a, b) = (x.min(y), x.max(y));
            let o = Quarter::orbit(n, a, b, true).contains(&(r, c));
            if fixed.contains(&(a, b, o)) {
                continue;
            }
            let (d, s) = (b - a, n - 1 - a - b);
            let both = (1u64 << a) | (1u64 << b);
            let values = (1u128 << d) | (1u128 << s);
            if q.rows & both != both || q.vals & values != values {
                return Ok(0);
            }
            if knight && !q.knights.place(&Quarter::orbit(n, a, b, o)) {
                return Ok(0);
            }
            q.rows &= !both;
            q.vals &= !values;
            fixed.push((a, b, o));
        }
        let couples = q.rows.count_ones() as i32 / 2;
        if q.split {
            let odd = (q.vals & 0xAAAA_AAAA_AAAA_AAAA_AAAA_AAAA_AAAA_AAAA).count_ones() as i32;
            let even = q.vals.count_ones() as i32 - odd;
            q.slack = [even - couples, odd - couples];
        } else {
            q.slack = [q.vals.count_ones() as i32 - 2 * couples, 0];
        }
        if q.slack[0] < 0 || q.slack[1] < 0 {
            return Ok(0);
        }
        let matchings = if n >= 3 { q.go(n - 2) } else { 1 };
        if q.poll.stop {
            cancel.check()?;
        }
        Ok(if knight {
            matchings
        } else {
            matchings << couples
        })
    }

    /// The boards (queens: matchings, orientation left out) with the values above `v` decided.
    fn go(&mut self, v: usize) -> u128 {
        let rows = self.rows;
        if rows == 0 {
            return 1;
        }
        // The values above the largest free one up to `v` are taken: go straight to it.
        let up = self.vals & upto(v);
        if up == 0 || self.poll.stopped() {
            return 0;
        }
        let v = 127 - up.leading_zeros() as usize;
        let sum = self.n - 1 - v; // a + b of a couple whose s is v
        let first = rows.trailing_zeros() as usize;
        let last = 63 - rows.leading_zeros() as usize;
        if first + last < sum || !Quarter::matchable(rows, sum) || !self.partners(up) {
            return 0;
        }
        let mut total = 0;
        let side = if self.split { v & 1 } else { 0 };
        if self.slack[side] > 0 {
            self.slack[side] -= 1;
            self.vals &= !(1u128 << v);
            total += self.go(v - 1);
            self.vals |= 1u128 << v;
            self.slack[side] += 1;
        }
        let mut cand = rows & mirrored(rows, sum) & low_bits(sum.div_ceil(2));
        while cand != 0 {
            let a = cand.trailing_zeros() as usize;
            cand &= cand - 1;
            let b = sum - a;
            let d = b - a;
            if self.vals >> d & 1 == 0 {
                continue;
            }
            let both = (1u64 << a) | (1u64 << b);
            let values = (1u128 << d) | (1u128 << v);
            self.rows &= !both;
            self.vals &= !values;
            if self.knight {
                for o in [false, true] {
                    let cells = Quarter::orbit(self.n, a, b, o);
                    if self.knights.place(&cells) {
                        total += self.go(v - 1);
                        self.knights.remove(&cells);
                    }
                }
            } else {
                total += self.go(v - 1);
            }
            self.rows |= both;
            self.vals |= values;
        }
        total
    }

    /// Whether the free rows `rows` pair up with every couple's sum at least `sum`: the smallest
    /// row with the largest, the second smallest with the second largest, and so on.
    fn matchable(mut rows: u64, sum: usize) -> bool {
        while rows != 0 {
            let lo = rows.trailing_zeros() as usize;
            let hi = 63 - rows.leading_zeros() as usize;
            if lo + hi < sum {
                return false;
            }
            rows &= !((1u64 << lo) | (1u64 << hi));
        }
        true
    }

    /// Whether every free row still has a partner: a free row with which it makes a couple
    /// whose two values are free, s among `up` (the free values up to the current one).
    fn partners(&self, up: u128) -> bool {
        let rows = self.rows;
        let rev = up.reverse_bits();
        let mut left = rows;
        while left != 0 {
            let x = left.trailing_zeros() as usize;
            left &= left - 1;
            // y with n-1-x-y in `up` and |x - y| free (up holds every free value below s).
            let by_s = from_reversed128(rev, self.n - 1 - x) as u64;
            let above = (up << x) as u64 & !low_bits(x + 1);
            let below = from_reversed128(rev, x) as u64 & low_bits(x);
            if rows & by_s & (above | below) == 0 {
                return false;
            }
        }
        true
    }
}

/// The half turn's search over the values (n = 2k or 2k + 1; rows and columns 0..k are the row
/// and column pairs).
struct Half<'a> {
    /// Board side.
    n: usize,
    /// Amazons: knight checks.
    knight: bool,
    /// Free row pairs (bits 0..k).
    rows: u64,
    /// Free column pairs (bits 0..k).
    cols: u64,
    /// Free diagonal values |j - i| (bits 1..=n-2).
    diag: u64,
    /// Free anti-diagonal values |i + j - (n-1)| (bits 1..=n-2).
    anti: u64,
    /// Diagonal values that may still be left unused.
    diag_slack: i32,
    /// Anti-diagonal values that may still be left unused.
    anti_slack: i32,
    /// The pieces, for the amazons.
    knights: Knights,
    /// The cancel token.
    poll: Poll<'a>,
}

impl<'a> Half<'a> {
    /// The count of [`count`] for the half turn.
    fn count(n: usize, knight: bool, placed: &[Cell], cancel: &'a Cancel) -> Result<u128> {
        let k = n / 2;
        let values = if n >= 3 { low_bits(n - 2) << 1 } else { 0 };
        let mut h = Half {
            n,
            knight,
            rows: low_bits(k),
            cols: low_bits(k),
            diag: values,
            anti: values,
            diag_slack: 0,
            anti_slack: 0,
            knights: Knights::new(n),
            poll: Poll {
                cancel,
                nodes: 0,
                stop: false,
            },
        };
        if n % 2 == 1 {
            h.knights.col[k] = Some(k);
        }
        let mut fixed: Vec<(usize, usize)> = Vec::new();
        for c in placed {
            let (r, c) = (c.row as usize, c.col as usize);
            if n % 2 == 1 && (r == k || c == k) {
                if r == c {
                    continue; // the centre
                }
                return Ok(0);
            }
            let (i, j) = if r < k {
                (r, c)
            } else {
                (n - 1 - r, n - 1 - c)
            };
            if fixed.contains(&(i, j)) {
                continue;
            }
            let y = j.min(n - 1 - j);
            let (dv, av) = (j.abs_diff(i), (i + j).abs_diff(n - 1));
            if dv == 0 || av == 0 {
                return Ok(0);
            }
            if h.rows >> i & 1 == 0
                || h.cols >> y & 1 == 0
                || h.diag >> dv & 1 == 0
                || h.anti >> av & 1 == 0
            {
                return Ok(0);
            }
            if knight && !h.knights.place(&[(i, j), (n - 1 - i, n - 1 - j)]) {
                return Ok(0);
            }
            h.rows &= !(1 << i);
            h.cols &= !(1 << y);
            h.diag &= !(1 << dv);
            h.anti &= !(1 << av);
            fixed.push((i, j));
        }
        let left = h.rows.count_ones() as i32;
        h.diag_slack = h.diag.count_ones() as i32 - left;
        h.anti_slack = h.anti.count_ones() as i32 - left;
        if h.diag_slack < 0 || h.anti_slack < 0 {
            return Ok(0);
        }
        let boards = if n >= 3 {
            h.go(n - 2)
        } else {
            u128::from(left == 0)
        };
        if h.poll.stop {
            cancel.check()?;
        }
        Ok(boards)
    }

    /// The boards with the values above `v` decided (both kinds).
    fn go(&mut self, v: usize) -> u128 {
        let (rows, cols) = (self.rows, self.cols);
        if rows == 0 {
            return 1;
        }
        // Straight to the largest value up to `v` free in either set.
        let up = (self.diag | self.anti) & low_bits(v + 1);
        if up == 0 || self.poll.stopped() {
            return 0;
        }
        let v = 63 - up.leading_zeros() as usize;
        let sum = self.n - 1 - v; // low + high of a pair whose larger value is v
        if !Half::matchable(rows, cols, sum) || !self.partners(v) {
            return 0;
        }
        self.diagonal(v)
    }

    /// Whether every free row pair still has a free column pair to take, and every free column
    /// pair a row pair: the pair's larger value n-1-x-y (at most `v`) free in one set and its
    /// smaller value |x - y| in the other.
    fn partners(&self, v: usize) -> bool {
        let (diag, anti) = (self.diag, self.anti);
        let (diag_up, anti_up) = (diag & low_bits(v + 1), anti & low_bits(v + 1));
        let (rev_diag_up, rev_anti_up) = (diag_up.reverse_bits(), anti_up.reverse_bits());
        let (rev_diag, rev_anti) = (diag.reverse_bits(), anti.reverse_bits());
        let apart = |set: u64, rev: u64, x: usize| {
            (set << x & !low_bits(x + 1)) | (from_reversed(rev, x) & low_bits(x))
        };
        let n = self.n;
        let with = |x: usize| {
            (from_reversed(rev_diag_up, n - 1 - x) & apart(anti, rev_anti, x))
                | (from_reversed(rev_anti_up, n - 1 - x) & apart(diag, rev_diag, x))
        };
        for (mine, theirs) in [(self.rows, self.cols), (self.cols, self.rows)] {
            let mut left = mine;
            while left != 0 {
                let x = left.trailing_zeros() as usize;
                left &= left - 1;
                if theirs & with(x) == 0 {
                    return false;
                }
            }
        }
        true
    }

    /// Whether the free row pairs `rows` and column pairs `cols` match with every pair's row
    /// and column adding up to at least `sum`: the smallest row with the largest column, and so
    /// on.
    fn matchable(mut rows: u64, mut cols: u64, sum: usize) -> bool {
        while rows != 0 {
            let r = rows.trailing_zeros() as usize;
            let c = 63 - cols.leading_zeros() as usize;
            if r + c < sum {
                return false;
            }
            rows &= rows - 1;
            cols &= !(1u64 << c);
        }
        true
    }

    /// The diagonal value `v` decided, then [`Half::anti_diagonal`].
    fn diagonal(&mut self, v: usize) -> u128 {
        if self.diag >> v & 1 == 0 {
            return self.anti_diagonal(v);
        }
        let mut total = 0;
        if self.diag_slack > 0 {
            self.diag_slack -= 1;
            self.diag &= !(1 << v);
            total += self.anti_diagonal(v);
            self.diag |= 1 << v;
            self.diag_slack += 1;
        }
        self.diag &= !(1 << v);
        total += self.pairs(v, true);
        self.diag |= 1 << v;
        total
    }

    /// The anti-diagonal value `v` decided, then the values below `v`.
    fn anti_diagonal(&mut self, v: usize) -> u128 {
        if self.anti >> v & 1 == 0 {
            return self.go(v - 1);
        }
        let mut total = 0;
        if self.anti_slack > 0 {
            self.anti_slack -= 1;
            self.anti &= !(1 << v);
            total += self.go(v - 1);
            self.anti |= 1 << v;
            self.anti_slack += 1;
        }
        self.anti &= !(1 << v);
        total += self.pairs(v, false);
        self.anti |= 1 << v;
        total
    }

    /// The pairs whose larger value is `v` (already taken from its set): the diagonal one when
    /// `diagonal`, the smaller value w then being anti-diagonal (and the other way round).
    fn pairs(&mut self, v: usize, diagonal: bool) -> u128 {
        let n = self.n;
        let sum = n - 1 - v;
        let (rows, cols) = (self.rows, self.cols);
        let low = low_bits(sum.div_ceil(2));
        let mut total = 0;
        // The row takes low and the column high, then the other way round.
        for row_low in [true, false] {
            let mut cand = if row_low {
                rows & mirrored(cols, sum)
            } else {
                cols & mirrored(rows, sum)
            } & low;
            while cand != 0 {
                let lo = cand.trailing_zeros() as usize;
                cand &= cand - 1;
                let hi = sum - lo;
                let w = hi - lo;
                let other = if diagonal { self.anti } else { self.diag };
                if other >> w & 1 == 0 {
                    continue;
                }
                let (x, y) = if row_low { (lo, hi) } else { (hi, lo) };
                let next = if diagonal {
                    self.anti &= !(1 << w);
                    Half::anti_diagonal
                } else {
                    self.diag &= !(1 << w);
                    Half::go_below
                };
                self.rows &= !(1 << x);
                self.cols &= !(1 << y);
                if self.knight {
                    // |j - x| is v for the diagonal pair, w (= |y - x|) for the other.
                    let j = if diagonal { n - 1 - y } else { y };
                    let cells = [(x, j), (n - 1 - x, n - 1 - j)];
                    if self.knights.place(&cells) {
                        total += next(self, v);
                        self.knights.remove(&cells);
                    }
                } else {
                    total += next(self, v);
                }
                self.rows |= 1 << x;
                self.cols |= 1 << y;
                if diagonal {
                    self.anti |= 1 << w;
                } else {
                    self.diag |= 1 << w;
                }
            }
        }
        total
    }

    /// [`Half::go`] on the value below `v`.
    fn go_below(&mut self, v: usize) -> u128 {
        self.go(v - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::backtrack::fixed_by;
    use crate::instance::Instance;
    use crate::piece::{AMAZON, QUEEN};
    use crate::prng::Prng;
    use crate::symmetry::{Symmetry, generated};

    /// A033148: the n-queens boards fixed by the quarter turn, n = 1..63 (0 for n = 4k+2, 4k+3).
    const A033148: [(u32, u128); 32] = [
        (1, 1),
        (4, 2),
        (5, 2),
        (8, 0),
        (9, 0),
        (12, 8),
        (13, 8),
        (16, 64),
        (17, 128),
        (20, 480),
        (21, 704),
        (24, 3328),
        (25, 3264),
        (28, 32896),
        (29, 43776),
        (32, 406784),
        (33, 667904),
        (36, 5845504),
        (37, 8650752),
        (40, 77184000),
        (41, 101492736),
        (44, 1261588480),
        (45, 1795233792),
        (48, 21517426688),
        (49, 35028172800),
        (52, 406875119616),
        (53, 652044443648),
        (56, 8613581094912),
        (57, 12530550128640),
        (60, 194409626533888),
        (61, 291826098503680),
        (64, 0), // unknown: never counted here
    ];

    /// A032522: the n-queens boards fixed by the half turn, n = 1..32.
    const A032522: [u128; 32] = [
        1,
        0,
        0,
        2,
        2,
        4,
        8,
        4,
        16,
        12,
        48,
        80,
        136,
        420,
        1240,
        3000,
        8152,
        18104,
        44184,
        144620,
        375664,
        1250692,
        3581240,
        11675080,
        34132592,
        115718268,
        320403024,
        1250901440,
        3600075088,
        14589438024,
        43266334696,
        181254386312,
    ];

    /// A051223 (amazons) and A051224 (amazons modulo symmetry) for n = 10..=21.
    const AMAZONS: [(u32, u128, u128); 12] = [
        (10, 4, 1),
        (11, 44, 6),
        (12, 156, 22),
        (13, 1876, 239),
        (14, 5180, 653),
        (15, 32516, 4089),
        (16, 202900, 25411),
        (17, 1330622, 166463),
        (18, 8924976, 1115871),
        (19, 64492432, 8062150),
        (20, 495864256, 61984976),
        (21, 3977841852, 497236090),
    ];

    /// The amazons' boards fixed by the quarter turn: R = 2 A352661, n = 1..=21.
    fn amazons_quarter(n: u32) -> u128 {
        match n {
            1 => 1,
            12 | 13 => 4,
            16 => 24,
            17 => 34,
            20 => 120,
            21 => 164,
            _ => 0,
        }
    }

    fn problem(n: u32, turn: Turn, knight: bool, placed: Vec<Cell>) -> Problem {
        Problem {
            n,
            turn,
            knight,
            placed,
        }
    }

    fn plain(n: u32, turn: Turn, knight: bool) -> u128 {
        count(&problem(n, turn, knight, vec![]), &Cancel::new()).unwrap()
    }

    #[test]
    fn quarter_queens_match_a033148() {
        for n in 1..=41 {
            let want = A033148
                .iter()
                .find(|&&(m, _)| m == n)
                .map_or(0, |&(_, c)| c);
            assert_eq!(plain(n, Turn::Quarter, false), want, "n = {n}");
        }
    }

    #[test]
    fn half_queens_match_a032522() {
        for n in 1..=20 {
            let want = A032522[n as usize - 1];
            assert_eq!(plain(n, Turn::Half, false), want, "n = {n}");
        }
    }

    #[test]
    fn amazons_match_the_published_classes() {
        for n in 1..=21 {
            assert_eq!(plain(n, Turn::Quarter, true), amazons_quarter(n), "n = {n}");
        }
        assert_eq!(plain(32, Turn::Quarter, true), 120_736);
        // P + 2R = 8 A051224 - A051223 (no amazons for n = 2..9).
        assert_eq!(plain(1, Turn::Half, true), 1);
        for n in 2..=9 {
            assert_eq!(plain(n, Turn::Half, true), 0, "n = {n}");
        }
        for &(n, total, unique) in &AMAZONS[..9] {
            let p = plain(n, Turn::Half, true);
            assert_eq!(p + 2 * amazons_quarter(n), 8 * unique - total, "n = {n}");
        }
    }

    /// The brute-force orbit search of the backtrack engine (placed pieces that attack each
    /// other count 0 there too: its presolve finds the instance unsatisfiable).
    fn brute(n: u32, turn: Turn, knight: bool, placed: &[Cell]) -> u128 {
        let inst = Instance {
            n,
            placed: placed.to_vec(),
            blocked: vec![],
            excluded: vec![],
        };
        let piece = if knight { AMAZON } else { QUEEN };
        let g = match turn {
            Turn::Quarter => Symmetry::R90,
            Turn::Half => Symmetry::R180,
        };
        u128::from(fixed_by(&inst, piece, &generated(&[g]), &Cancel::new()).unwrap())
    }

    /// Random boards and placed cells (0 to 3), the count against the board search's. Every
    /// other case places its cells where this count says a board is left (trying up to 30
    /// cells each), so that the placed couples and orientations are checked on boards that
    /// exist, not only on contradictions.
    #[test]
    fn random_placements_match_the_board_search() {
        let mut rng = Prng::new(62);
        let mut nonzero = [0; 2];
        for case in 0..320 {
            let turn = if case % 2 == 0 {
                Turn::Quarter
            } else {
                Turn::Half
            };
            let knight = case % 4 >= 2;
            let guided = case % 8 >= 4;
            let n = match turn {
                Turn::Quarter => [4, 5, 8, 9, 12, 13, 16, 17][rng.below(8)],
                Turn::Half => 4 + rng.below(11) as u32,
            };
            let mut placed: Vec<Cell> = Vec::new();
            for _ in 0..rng.below(4) {
                for _ in 0..if guided { 30 } else { 1 } {
                    let cell =
                        Cell::new(rng.below(n as usize) as u32, rng.below(n as usize) as u32);
                    let mut more = placed.clone();
                    more.push(cell);
                    let p = problem(n, turn, knight, more.clone());
                    if !guided || count(&p, &Cancel::new()).unwrap() > 0 {
                        placed = more;
                        break;
                    }
                }
            }
            let ours = count(&problem(n, turn, knight, placed.clone()), &Cancel::new()).unwrap();
            let theirs = brute(n, turn, knight, &placed);
            assert_eq!(
                ours, theirs,
                "n = {n}, {turn:?}, knight {knight}, placed {placed:?}"
            );
            nonzero[usize::from(turn == Turn::Half)] += usize::from(ours > 0);
        }
        assert!(
            nonzero[0] >= 30 && nonzero[1] >= 60,
            "nonzero cases: {nonzero:?}"
        );
    }

    #[test]
    fn refuses_large_boards() {
        let e = count(&problem(130, Turn::Quarter, false, vec![]), &Cancel::new()).unwrap_err();
        assert!(matches!(&e, Error::Usage(m) if m.contains("130")), "{e}");
        let e = count(&problem(65, Turn::Half, false, vec![]), &Cancel::new()).unwrap_err();
        assert!(matches!(&e, Error::Usage(m) if m.contains("65")), "{e}");
    }

    #[test]
    fn a_raised_cancel_stops_a_big_count() {
        let cancel = Cancel::new();
        cancel.cancel();
        let e = count(&problem(48, Turn::Quarter, false, vec![]), &cancel).unwrap_err();
        assert!(matches!(e, Error::Interrupted), "{e}");
    }
}
