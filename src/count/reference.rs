//! Published counts (OEIS), for the tests, `bench --count` and the scale scripts to check
//! against; no engine reads them.
//!
//! Sources: A000170 (n-queens), A002562 (n-queens modulo the 8 symmetries of the square),
//! A033148 (fixed by a quarter turn), A032522 (fixed by a half turn, the quarter-turn ones
//! included), A051223 / A051224 (amazons, all / modulo symmetry). For n >= 2 no reflection fixes
//! a solution, so `unique = (total + fixed(r180) + 2 fixed(r90)) / 8`.

use crate::piece::Piece;

/// One published row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    /// Board side.
    pub n: u32,
    /// All solutions.
    pub total: u64,
    /// Solutions modulo the 8 symmetries of the square.
    pub unique: u64,
    /// Solutions a quarter turn maps to themselves, where published.
    pub r90: Option<u64>,
    /// Solutions a half turn maps to themselves, where published.
    pub r180: Option<u64>,
}

const fn q(n: u32, total: u64, unique: u64, r90: u64, r180: u64) -> Row {
    Row {
        n,
        total,
        unique,
        r90: Some(r90),
        r180: Some(r180),
    }
}

const fn t(n: u32, total: u64, unique: u64) -> Row {
    Row {
        n,
        total,
        unique,
        r90: None,
        r180: None,
    }
}

/// N-queens, n = 1..=20 (fixed points published to n = 18).
pub const QUEENS: [Row; 20] = [
    q(1, 1, 1, 1, 1),
    q(2, 0, 0, 0, 0),
    q(3, 0, 0, 0, 0),
    q(4, 2, 1, 2, 2),
    q(5, 10, 2, 2, 2),
    q(6, 4, 1, 0, 4),
    q(7, 40, 6, 0, 8),
    q(8, 92, 12, 0, 4),
    q(9, 352, 46, 0, 16),
    q(10, 724, 92, 0, 12),
    q(11, 2680, 341, 0, 48),
    q(12, 14200, 1787, 8, 80),
    q(13, 73712, 9233, 8, 136),
    q(14, 365596, 45752, 0, 420),
    q(15, 2279184, 285053, 0, 1240),
    q(16, 14772512, 1846955, 64, 3000),
    q(17, 95815104, 11977939, 128, 8152),
    q(18, 666090624, 83263591, 0, 18104),
    t(19, 4968057848, 621012754),
    t(20, 39029188884, 4878666808),
];

/// N-amazons (queen + knight), n = 1..=21 (none for n = 2..=9; fixed points not published).
pub const AMAZONS: [Row; 21] = [
    t(1, 1, 1),
    t(2, 0, 0),
    t(3, 0, 0),
    t(4, 0, 0),
    t(5, 0, 0),
    t(6, 0, 0),
    t(7, 0, 0),
    t(8, 0, 0),
    t(9, 0, 0),
    t(10, 4, 1),
    t(11, 44, 6),
    t(12, 156, 22),
    t(13, 1876, 239),
    t(14, 5180, 653),
    t(15, 32516, 4089),
    t(16, 202900, 25411),
    t(17, 1330622, 166463),
    t(18, 8924976, 1115871),
    t(19, 64492432, 8062150),
    t(20, 495864256, 61984976),
    t(21, 3977841852, 497236090),
];

/// The published row of `piece` (queen or amazon) on a plain `n x n` board, if any.
///
/// ```
/// use queens_sat::{count::reference::published, piece::{AMAZON, QUEEN}};
/// assert_eq!(published(&QUEEN, 8).map(|r| (r.total, r.unique)), Some((92, 12)));
/// assert_eq!(published(&AMAZON, 20).map(|r| r.unique), Some(61984976));
/// assert!(published(&QUEEN, 21).is_none());
/// ```
pub fn published(piece: &Piece, n: u32) -> Option<Row> {
    let table: &[Row] = match piece.name {
        "queen" => &QUEENS,
        "amazon" => &AMAZONS,
        _ => return None,
    };
    table.iter().copied().find(|r| r.n == n)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rows are consistent: in order, and Burnside's formula holds where the fixed points
    /// are published.
    #[test]
    fn rows_are_consistent() {
        for (i, r) in QUEENS.iter().enumerate() {
            assert_eq!(r.n as usize, i + 1);
            if let (Some(r90), Some(r180)) = (r.r90, r.r180)
                && r.n >= 2
            {
                assert_eq!(r.total + r180 + 2 * r90, 8 * r.unique, "n={}", r.n);
            }
        }
        for (i, r) in AMAZONS.iter().enumerate() {
            assert_eq!(r.n as usize, i + 1);
        }
    }
}
