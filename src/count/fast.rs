//! The specialised inner search of the backtrack engine for queens and amazons.
//!
//! The engine splits a count into tasks that pre-place pieces (the border pieces of
//! [`super::backtrack`]'s split, and the instance's own pre-placed pieces). Every cell such a
//! piece attacks is already removed from the allowed columns of every row, so a row holding a
//! pre-placed piece needs no search at all: this module drops those rows and searches only the
//! *free* rows, moving the diagonal masks by the gap between consecutive free rows (two or more
//! columns across a dropped row). The search itself is a recursive bitwise depth-first search
//! that prunes a placement as soon as the next free row or the one after it has no free cell,
//! and counts the last two free rows at once, by a popcount formula without a loop (see the
//! tail function in `recursive!`). An amazon's knight leaps are two
//! more masks: the piece of the current free row and the one of the free row before it, shifted
//! by the column offset of the leap that reaches the next free row (if any).
//!
//! The search is compiled twice, once with the `popcnt` and BMI1 instructions (chosen at run
//! time when the processor has them) and once without.

use crate::piece::{LineKind, Piece};

/// The attack shapes the specialised search models.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Rows, columns and both diagonals (the queen).
    Queen,
    /// A queen's lines plus the eight knight leaps (the amazon).
    Amazon,
}

impl Shape {
    /// The shape of `piece`, if the specialised search models it: all four line kinds, and no
    /// leaps or exactly the eight knight leaps.
    ///
    /// ```
    /// use queens_sat::count::fast::Shape;
    /// use queens_sat::piece::{AMAZON, LineKind, Piece, QUEEN};
    /// assert_eq!(Shape::of(&QUEEN), Some(Shape::Queen));
    /// assert_eq!(Shape::of(&AMAZON), Some(Shape::Amazon));
    /// let rook = Piece { name: "rook", lines: &[LineKind::Row, LineKind::Column], leaps: &[] };
    /// assert_eq!(Shape::of(&rook), None);
    /// ```
    pub fn of(piece: &Piece) -> Option<Shape> {
        if !LineKind::ALL.iter().all(|k| piece.lines.contains(k)) {
            return None;
        }
        let knight =
            |(dr, dc): (i32, i32)| (dr.abs(), dc.abs()) == (1, 2) || (dr.abs(), dc.abs()) == (2, 1);
        let mut leaps: Vec<(i32, i32)> = piece.leaps.to_vec();
        leaps.sort_unstable();
        leaps.dedup();
        match leaps.len() {
            0 => Some(Shape::Queen),
            8 if leaps.iter().all(|&l| knight(l)) => Some(Shape::Amazon),
            _ => None,
        }
    }

    /// The columns of row `r` that a piece of this shape on `x = (row, col)` attacks (its own
    /// cell included), on a board of side `n <= 64`.
    pub fn attacks(self, (xr, xc): (usize, usize), r: usize, n: usize) -> u64 {
        if r == xr {
            return full(n);
        }
        let d = r.abs_diff(xr);
        let mut m = 1u64 << xc;
        if xc + d < n {
            m |= 1 << (xc + d);
        }
        if xc >= d {
            m |= 1 << (xc - d);
        }
        if self == Shape::Amazon && d <= 2 {
            let k = 3 - d; // a knight leap one row away moves 2 columns, two rows away 1
            if xc + k < n {
                m |= 1 << (xc + k);
            }
            if xc >= k {
                m |= 1 << (xc - k);
            }
        }
        m
    }
}

/// The mask of an `n`-column row.
pub fn full(n: usize) -> u64 {
    if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
}

/// The free rows of one task: their allowed columns and the gaps between them.
#[derive(Clone, Debug, Default)]
struct Plan {
    /// Allowed columns of each free row, top to bottom.
    rows: Vec<u64>,
    /// `gap[i]`: how many rows free row `i + 1` lies below free row `i`.
    gap: Vec<u32>,
}

/// Counts the completions of a board whose allowed columns per row are `allowed`, where the rows
/// with `fixed[r]` hold a pre-placed piece whose attacks are already removed from every other
/// row's allowed columns (such a row allows exactly that piece's column, or nothing if the piece
/// is attacked). Every other row takes one piece of `shape`.
///
/// ```
/// use queens_sat::count::fast::{Shape, count_rows};
/// let n = 8;
/// let allowed = vec![(1u64 << n) - 1; n];
/// assert_eq!(count_rows(&allowed, &vec![false; n], Shape::Queen), 92);
/// ```
pub fn count_rows(allowed: &[u64], fixed: &[bool], shape: Shape) -> u64 {
    assert_eq!(allowed.len(), fixed.len(), "count_rows: one flag per row");
    assert!(allowed.len() <= 64, "count_rows: n <= 64");
    let mut plan = Plan::default();
    let mut last: Option<usize> = None;
    for (r, (&mask, &f)) in allowed.iter().zip(fixed).enumerate() {
        if f {
            if mask.count_ones() != 1 {
                return 0; // the pre-placed piece is attacked (or two share the row)
            }
            continue;
        }
        if let Some(p) = last {
            plan.gap.push((r - p) as u32);
        }
        plan.rows.push(mask);
        last = Some(r);
    }
    if plan.rows.is_empty() {
        return 1; // every row is pre-placed, and no piece is attacked
    }
    if plan.rows.len() == 1 {
        return u64::from(plan.rows[0].count_ones());
    }
    plan.gap.push(0); // never read: the last free row is counted by popcount
    let (rows, gap, first) = (&plan.rows[1..], &plan.gap[..], plan.rows[0]);
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("bmi1")
        {
            // SAFETY: the processor has the features the functions are compiled with.
            return unsafe {
                match shape {
                    Shape::Queen => rec_popcnt::<false>(rows, gap, first, 0, 0, 0, 0),
                    Shape::Amazon => rec_popcnt::<true>(rows, gap, first, 0, 0, 0, 0),
                }
            };
        }
    }
    match shape {
        Shape::Queen => rec_plain::<false>(rows, gap, first, 0, 0, 0, 0),
        Shape::Amazon => rec_plain::<true>(rows, gap, first, 0, 0, 0, 0),
    }
}

/// The knight leaps from a piece `bit` onto a row `dist` rows below: two columns away one row
/// down, one column away two rows down, none further.
#[inline(always)]
fn leap(bit: u64, dist: u32) -> u64 {
    match dist {
        1 => bit << 2 | bit >> 2,
        2 => bit << 1 | bit >> 1,
        _ => 0,
    }
}

/// The recursive depth-first search, compiled once per instruction set (`$attr`): `free` are
/// the cells to try on the current free row; `rows[0]` is the next free row, `gap[0]` rows
/// below the current one. `leaps_in` are the knight leaps onto `rows[0]` from the piece two free
/// rows up (zero without `KNIGHT`).
macro_rules! recursive {
    ($name:ident, $tail:ident $(, $attr:meta)?) => {
        /// The last two free rows at once: `free` are the cells to try on the next-to-last free
        /// row, `row` the last free row, `s` rows below it. Each cell `b` of `free` takes from
        /// the last row's free cells `f` its own column and its two diagonals (and two knight
        /// leaps), distinct columns: the completions are `|free| |f|` less, per shift `t` of
        /// those, `|f & (free shifted by t)|`. No loop, no branch.
        $(#[$attr])?
        #[inline]
        fn $tail<const KNIGHT: bool>(
            free: u64,
            cols: u64,
            diag: u64,
            anti: u64,
            leaps_in: u64,
            s: u32,
            row: u64,
        ) -> u64 {
            let f = row & !(cols | diag << s | anti >> s | leaps_in);
            let mut lost = (f & free).count_ones() + (f & free << s).count_ones() + (f & free >> s).count_ones();
            if KNIGHT && s <= 2 {
                let k = 3 - s;
                lost += (f & free << k).count_ones() + (f & free >> k).count_ones();
            }
            u64::from(free.count_ones()) * u64::from(f.count_ones()) - u64::from(lost)
        }

        $(#[$attr])?
        fn $name<const KNIGHT: bool>(
            rows: &[u64],
            gap: &[u32],
            mut free: u64,
            cols: u64,
            diag: u64,
            anti: u64,
            leaps_in: u64,
        ) -> u64 {
            let s = gap[0];
            let row = rows[0];
            if rows.len() == 1 {
                return $tail::<KNIGHT>(free, cols, diag, anti, leaps_in, s, row);
            }
            let mut total = 0u64;
            let s2 = gap[1];
            let row2 = rows[1];
            let two = KNIGHT && s == 1 && s2 == 1;
            let deeper = rows.len() > 2;
            while free != 0 {
                let bit = free & free.wrapping_neg();
                free ^= bit;
                let c = cols | bit;
                let dg = (diag | bit) << s;
                let an = (anti | bit) >> s;
                let mut block = c | dg | an;
                let mut from_prev = 0;
                if KNIGHT {
                    block |= leap(bit, s) | leaps_in;
                    if two {
                        from_prev = bit << 1 | bit >> 1;
                    }
                }
                let next = row & !block;
                if next == 0 {
                    continue;
                }
                if !deeper {
                    total += $tail::<KNIGHT>(next, c, dg, an, from_prev, s2, row2);
                } else if row2 & !(c | dg << s2 | an >> s2 | from_prev) != 0 {
                    // Looked one free row further: the pieces so far leave it a cell.
                    total += $name::<KNIGHT>(&rows[1..], &gap[1..], next, c, dg, an, from_prev);
                }
            }
            total
        }
    };
}

/// A cheap estimate of the work of [`count_rows`] on the same board: the number of placements
/// of the first `depth` free rows (queen attacks only; an amazon's leaps are left out), or
/// `u64::MAX` beyond `limit` (counting stops there). Of several images of one task under the
/// instance's symmetries (the same count), the engine searches the one with the smallest estimate.
pub fn estimate(allowed: &[u64], fixed: &[bool], depth: usize, limit: u64) -> u64 {
    let mut rows = Vec::new();
    let mut gaps = Vec::new();
    let mut last: Option<usize> = None;
    for (r, (&mask, &f)) in allowed.iter().zip(fixed).enumerate() {
        if f {
            if mask.count_ones() != 1 {
                return 0;
            }
            continue;
        }
        gaps.push(last.map_or(0, |p| (r - p) as u32));
        rows.push(mask);
        last = Some(r);
    }
    let depth = depth.min(rows.len());
    if depth == 0 {
        return 1;
    }
    /// Placements of free rows `d..`: `free` the cells of row `d`, `at` the columns and both
    /// diagonals attacked on it.
    fn go(
        rows: &[u64],
        gaps: &[u32],
        d: usize,
        free: u64,
        at: (u64, u64, u64),
        left: &mut u64,
    ) -> u64 {
        if d + 1 == rows.len() {
            let n = u64::from(free.count_ones());
            *left = left.saturating_sub(n);
            return n;
        }
        let (c, dg, an) = at;
        let mut total = 0;
        let mut f = free;
        let s = gaps[d + 1];
        while f != 0 && *left > 0 {
            let bit = f & f.wrapping_neg();
            f ^= bit;
            let next = (c | bit, (dg | bit) << s, (an | bit) >> s);
            let cells = rows[d + 1] & !(next.0 | next.1 | next.2);
            total += go(rows, gaps, d + 1, cells, next, left);
        }
        total
    }
    let mut left = limit;
    let total = go(
        &rows[..depth],
        &gaps[..depth],
        0,
        rows[0],
        (0, 0, 0),
        &mut left,
    );
    if left == 0 { u64::MAX } else { total }
}

#[cfg(target_arch = "x86_64")]
recursive!(
    rec_popcnt,
    tail_popcnt,
    target_feature(enable = "popcnt,bmi1")
);
recursive!(rec_plain, tail_plain);

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain search (no pre-placed rows) against the published totals.
    #[test]
    fn plain_boards() {
        let queens = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680];
        for (i, &want) in queens.iter().enumerate() {
            let n = i + 1;
            let a = vec![full(n); n];
            assert_eq!(count_rows(&a, &vec![false; n], Shape::Queen), want, "n={n}");
        }
        let amazons = [(10, 4), (11, 44), (12, 156)];
        for (n, want) in amazons {
            let a = vec![full(n); n];
            assert_eq!(
                count_rows(&a, &vec![false; n], Shape::Amazon),
                want,
                "n={n}"
            );
        }
    }

    #[test]
    fn attack_masks() {
        assert_eq!(Shape::Queen.attacks((0, 0), 2, 8), 0b101);
        assert_eq!(Shape::Amazon.attacks((0, 0), 1, 8), 0b111);
        assert_eq!(Shape::Amazon.attacks((3, 4), 1, 8), 0b0111_1100);
        assert_eq!(Shape::Amazon.attacks((3, 4), 2, 8), 0b0111_1100);
        assert_eq!(Shape::Amazon.attacks((3, 4), 0, 8), 0b1001_0010);
        assert_eq!(Shape::Queen.attacks((3, 4), 3, 8), 0xff);
    }
}
