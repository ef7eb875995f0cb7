//! Published counts (OEIS), for the tests, `bench --count` and the scale scripts to check
//! against, and for [`check`], which every count of a plain board passes before it is returned
//! ([`super::Counts::from_fixed`], `count` and `merge`); no engine reads them.
//!
//! Sources: A000170 (n-queens), A002562 (n-queens modulo the 8 symmetries of the square),
//! A033148 (fixed by a quarter turn), A032522 (fixed by a half turn, the quarter-turn ones
//! included), A051223 / A051224 (amazons, all / modulo symmetry). For n >= 2 no reflection fixes
//! a solution, so `unique = (total + fixed(r180) + 2 fixed(r90)) / 8`.

use crate::error::{Error, Result};
use crate::instance::Instance;
use crate::piece::Piece;
use crate::symmetry::Symmetry;

/// One published row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Published {
    /// Board side.
    pub n: u32,
    /// All solutions.
    pub total: u64,
    /// Solutions modulo the 8 symmetries of the square, where published.
    pub unique: Option<u64>,
    /// Solutions a quarter turn maps to themselves, where published.
    pub r90: Option<u64>,
    /// Solutions a half turn maps to themselves, where published.
    pub r180: Option<u64>,
}

const fn q(n: u32, total: u64, unique: u64, r90: u64, r180: u64) -> Published {
    Published {
        n,
        total,
        unique: Some(unique),
        r90: Some(r90),
        r180: Some(r180),
    }
}

const fn t(n: u32, total: u64, unique: u64) -> Published {
    Published {
        n,
        total,
        unique: Some(unique),
        r90: None,
        r180: None,
    }
}

/// A row with the total only.
const fn total_only(n: u32, total: u64) -> Published {
    Published {
        n,
        total,
        unique: None,
        r90: None,
        r180: None,
    }
}

/// N-queens, n = 1..=27: fixed points published to n = 18, unique counts to n = 25, totals to
/// n = 27 (n = 26 from 2009; n = 27 from Preusser et al. 2016, computed once, not independently
/// confirmed).
pub const QUEENS: [Published; 27] = [
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
    t(21, 314666222712, 39333324973),
    t(22, 2691008701644, 336376244042),
    t(23, 24233937684440, 3029242658210),
    t(24, 227514171973736, 28439272956934),
    t(25, 2207893435808352, 275986683743434),
    total_only(26, 22317699616364044),
    total_only(27, 234907967154122528),
];

/// N-amazons (queen + knight), n = 1..=26 (none for n = 2..=9; unique counts to n = 25; fixed
/// points not published).
pub const AMAZONS: [Published; 26] = [
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
    t(22, 34092182276, 4261538564),
    t(23, 306819842212, 38352532487),
    t(24, 2883202816808, 360400504834),
    t(25, 28144109776812, 3518014210402),
    total_only(26, 286022102245804),
];

/// The published row of `piece` (queen or amazon) on a plain `n x n` board, if any.
///
/// ```
/// use queens_sat::{count::reference::published, piece::{AMAZON, QUEEN}};
/// assert_eq!(published(&QUEEN, 8).map(|r| (r.total, r.unique)), Some((92, Some(12))));
/// assert_eq!(published(&AMAZON, 20).and_then(|r| r.unique), Some(61984976));
/// assert_eq!(published(&QUEEN, 27).map(|r| r.unique), Some(None));
/// assert!(published(&QUEEN, 28).is_none());
/// ```
pub fn published(piece: &Piece, n: u32) -> Option<Published> {
    let table: &[Published] = match piece.name {
        "queen" => &QUEENS,
        "amazon" => &AMAZONS,
        _ => return None,
    };
    table.iter().copied().find(|r| r.n == n)
}

/// Queens a quarter turn maps to themselves (A033148) for n = 19..63, past the rows of
/// [`QUEENS`] (Hsiang and Shieh 2002 past n = 28; 0 unless n = 4k or 4k + 1).
pub(crate) const QUEENS_R90: &[(u32, u64)] = &[
    (1, 1),
    (10, 4),
    (11, 44),
    (12, 156),
    (13, 1876),
    (14, 5180),
    (15, 32516),
    (16, 202900),
    (17, 1330622),
    (18, 8924976),
    (19, 0),
    (20, 480),
    (21, 704),
    (22, 0),
    (23, 0),
    (24, 3328),
    (25, 3264),
    (26, 0),
    (27, 0),
    (28, 32896),
    (29, 43776),
    (30, 0),
    (31, 0),
    (32, 406784),
    (33, 667904),
    (34, 0),
    (35, 0),
    (36, 5845504),
    (37, 8650752),
    (38, 0),
    (39, 0),
    (40, 77184000),
    (41, 101492736),
    (42, 0),
    (43, 0),
    (44, 1261588480),
    (45, 1795233792),
    (46, 0),
    (47, 0),
    (48, 21517426688),
    (49, 35028172800),
    (50, 0),
    (51, 0),
    (52, 406875119616),
    (53, 652044443648),
    (54, 0),
    (55, 0),
    (56, 8613581094912),
    (57, 12530550128640),
    (58, 0),
    (59, 0),
    (60, 194409626533888),
    (61, 291826098503680),
    (62, 0),
    (63, 0),
];

/// Queens a half turn maps to themselves (A032522) for n = 19..32, past the rows of [`QUEENS`].
pub(crate) const QUEENS_R180: &[(u32, u64)] = &[
    (1, 1),
    (10, 1),
    (11, 6),
    (12, 22),
    (13, 239),
    (14, 653),
    (15, 4089),
    (16, 25411),
    (17, 166463),
    (18, 1115871),
    (19, 44184),
    (20, 144620),
    (21, 375664),
    (22, 1250692),
    (23, 3581240),
    (24, 11675080),
    (25, 34132592),
    (26, 115718268),
    (27, 320403024),
    (28, 1250901440),
    (29, 3600075088),
    (30, 14589438024),
    (31, 43266334696),
    (32, 181254386312),
];

/// The published count of queens on a plain n x n board that `g` (a rotation) maps to
/// themselves, from [`QUEENS`] or the longer tables [`QUEENS_R90`] and [`QUEENS_R180`].
pub(crate) fn published_rotation(n: u32, g: Symmetry) -> Option<(&'static str, u64)> {
    let (seq, row, long) = match g {
        Symmetry::R90 | Symmetry::R270 => (
            "A033148",
            published(&crate::piece::QUEEN, n).and_then(|r| r.r90),
            QUEENS_R90,
        ),
        Symmetry::R180 => (
            "A032522",
            published(&crate::piece::QUEEN, n).and_then(|r| r.r180),
            QUEENS_R180,
        ),
        _ => return None,
    };
    row.or_else(|| long.iter().find(|&&(m, _)| m == n).map(|&(_, c)| c))
        .map(|c| (seq, c))
}

/// The OEIS sequences a piece's published counts come from (total, unique).
fn sequences(piece: &Piece) -> (&'static str, &'static str) {
    match piece.name {
        "amazon" => ("A051223", "A051224"),
        _ => ("A000170", "A002562"),
    }
}

/// Checks a count of `instance` against the published table: on a plain board with a published
/// row, the total, the unique count and the fixed points of r90 and r180 that are published
/// must match; anything else passes. A difference is an [`Error::WrongAnswer`]: a miscount, never a
/// result.
///
/// ```
/// use queens_sat::count::{reference::check, Counts};
/// use queens_sat::{instance::Instance, piece::QUEEN, symmetry::Symmetry};
/// let c = |total, unique| Counts { total, unique, group: vec![Symmetry::Id], fixed: vec![total] };
/// assert!(check(&Instance::plain(8), &QUEEN, &c(92, 12)).is_ok());
/// assert!(check(&Instance::plain(8), &QUEEN, &c(90, 12)).is_err());
/// assert!(check(&Instance::plain(30), &QUEEN, &c(1, 1)).is_ok()); // nothing published
/// ```
pub fn check(instance: &Instance, piece: &Piece, counts: &super::Counts) -> Result<()> {
    let Some(row) = published(piece, instance.n).filter(|_| instance.is_plain()) else {
        return Ok(());
    };
    let (total_seq, unique_seq) = sequences(piece);
    let fixed = |g: Symmetry| {
        counts
            .group
            .iter()
            .position(|&h| h == g)
            .map(|i| counts.fixed[i])
    };
    let pairs = [
        ("total", total_seq, Some(counts.total), Some(row.total)),
        ("unique", unique_seq, Some(counts.unique), row.unique),
        ("fixed r90", "A033148", fixed(Symmetry::R90), row.r90),
        ("fixed r180", "A032522", fixed(Symmetry::R180), row.r180),
    ];
    for (what, seq, got, want) in pairs {
        if let (Some(got), Some(want)) = (got, want)
            && got != want
        {
            return Err(Error::WrongAnswer(format!(
                "{n}-{p}s: counted {what} {got} but the published count ({seq}) is {want}",
                n = instance.n,
                p = piece.name
            )));
        }
    }
    Ok(())
}

/// Checks the count of `g`-symmetric solutions of a plain board against the published fixed
/// points (A033148 for `r90` / `r270`, A032522 for `r180`; queens only); an
/// [`Error::WrongAnswer`] on a difference, `Ok` where nothing is published.
///
/// ```
/// use queens_sat::{count::reference::check_symmetric, instance::Instance, piece::QUEEN};
/// use queens_sat::symmetry::Symmetry;
/// assert!(check_symmetric(&Instance::plain(12), &QUEEN, Symmetry::R90, 8).is_ok());
/// assert!(check_symmetric(&Instance::plain(12), &QUEEN, Symmetry::R180, 79).is_err());
/// ```
pub fn check_symmetric(instance: &Instance, piece: &Piece, g: Symmetry, total: u64) -> Result<()> {
    if !instance.is_plain() || piece.name != crate::piece::QUEEN.name {
        return Ok(());
    }
    match published_rotation(instance.n, g) {
        Some((seq, want)) if want != total => Err(Error::WrongAnswer(format!(
            "{n}-{p}s: counted {total} {g}-symmetric solutions but the published count ({seq}) is {want}",
            n = instance.n,
            p = piece.name
        ))),
        _ => Ok(()),
    }
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
                assert_eq!(r.total + r180 + 2 * r90, 8 * r.unique.unwrap(), "n={}", r.n);
            }
        }
        for (i, r) in AMAZONS.iter().enumerate() {
            assert_eq!(r.n as usize, i + 1);
        }
    }

    /// Every published row passes [`check`] as counted, and each published figure off by one
    /// fails it, naming the figure.
    #[test]
    fn check_accepts_the_rows_and_catches_a_miscount() {
        use crate::piece::{AMAZON, QUEEN};
        use crate::symmetry::stabiliser;
        for (piece, table) in [(QUEEN, &QUEENS[..]), (AMAZON, &AMAZONS[..])] {
            for r in table {
                let inst = Instance::plain(r.n);
                let group = stabiliser(&inst, &piece);
                let fixed: Vec<u64> = group
                    .iter()
                    .map(|g| match g {
                        Symmetry::Id => r.total,
                        Symmetry::R90 | Symmetry::R270 => r.r90.unwrap_or(0),
                        Symmetry::R180 => r.r180.unwrap_or(0),
                        _ => 0,
                    })
                    .collect();
                let counts = super::super::Counts {
                    total: r.total,
                    unique: r.unique.unwrap_or(0),
                    group,
                    fixed,
                };
                assert!(
                    check(&inst, &piece, &counts).is_ok(),
                    "{} n={}",
                    piece.name,
                    r.n
                );
                let mut wrong = counts.clone();
                wrong.total += 1;
                let e = check(&inst, &piece, &wrong).unwrap_err().to_string();
                assert!(e.contains("counted total"), "{e}");
                if r.unique.is_some() {
                    let mut wrong = counts.clone();
                    wrong.unique += 1;
                    assert!(check(&inst, &piece, &wrong).is_err());
                }
                if let (Some(_), Some(i)) = (
                    r.r180,
                    counts.group.iter().position(|&g| g == Symmetry::R180),
                ) {
                    let mut wrong = counts.clone();
                    wrong.fixed[i] += 1;
                    let e = check(&inst, &piece, &wrong).unwrap_err().to_string();
                    assert!(e.contains("A032522"), "{e}");
                }
                // A board that is not plain is not checked against the table.
                let blocked = Instance {
                    blocked: vec![crate::board::Cell::new(0, 0)],
                    ..inst
                };
                assert!(check(&blocked, &piece, &wrong).is_ok());
            }
        }
    }
}
