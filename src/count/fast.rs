//! The specialised inner search of the backtrack engine for queens and amazons.
//!
//! The engine splits a count into tasks that pre-place pieces (the border pieces of
//! [`super::backtrack`]'s split, and the instance's own pre-placed pieces). Every cell such a
//! piece attacks is already removed from the allowed columns of every row, so a row holding a
//! pre-placed piece needs no search at all: this module drops those rows and searches only the
//! *free* rows, moving the diagonal masks by the gap between consecutive free rows (two or more
//! columns across a dropped row). The search itself is an iterative bitwise depth-first search
//! (no recursion: the current free row's masks stay in registers, and a free row is pushed on a
//! small stack only when it has cells left to try, so the search never climbs back to a row with
//! nothing left), and counts the last two free rows at once, by a popcount formula without a
//! loop (see the tail function in `kernel!`). An amazon's knight leaps are two more masks: the
//! piece of the current free row and the one of the free row before it, shifted by the column
//! offset of the leap that reaches the next free row (if any).
//!
//! The free row above the last two tries each of its cells and hands the tail whatever that
//! leaves, without testing whether the next free row kept a cell: the tail of no cell is 0, and
//! the test mispredicted more than the tail costs (issue 35: 4-6 % less time at n = 16 and 17 for
//! 3.5 % more instructions).
//!
//! Tried for issue 35 and left out, by callgrind and by wall-clock medians (numbers in
//! `docs/benchmarks.md`): a table of the completions of the last `k` free rows, keyed by the
//! cells each of them still allows (packed by `pext` relative to their union and translated to
//! column 0, so one entry serves every task); those states seldom repeat: queens n = 15 with a
//! 2^16-slot table hit 96 % of the non-empty lookups at k = 3 (too little work saved per hit;
//! +6 % instructions), 32 % at k = 4 (+35 %), 3 % at k = 5 (+57 %), and even with 2^24 slots only
//! 59 % at k = 4 and 7 % at k = 5. Also slower: dropping the cells of a free row whose piece
//! would empty the next free row before trying them (a piece covers at most three cells of it),
//! at every depth (+21 % instructions, -25 % simulated mispredictions) or only in the last four
//! to six free rows; and a last-three-rows function called from the row above without a push
//! (+2 % instructions, as many mispredictions).
//!
//! The search is compiled twice, once with the `popcnt`, BMI1, BMI2 and `lzcnt` instructions
//! ([`crate::cpu::BMI2_FEATURES`]; BMI2 shifts by a register without tying up `cl`) and once
//! without; [`crate::cpu::Isa`] picks the build at run time, as for the bitboard search
//! ([`count_rows_with`] runs a given one). On a processor with AVX-512 ([`Isa::Avx512`],
//! [`Isa::Avx512Bw`]) a task of five to 32 free rows on a board of at most 32 columns is counted
//! by eight searches in the vector lanes instead ([`super::lanes`]), about twice as fast; on one
//! with AVX2 ([`Isa::Avx2`]) a queens task by four.

gated!(feature = "oracle" => use crate::piece::Shape;);
#[cfg(feature = "oracle")] // for the tests
pub use crate::piece::full;

use crate::cpu::Isa;

/// One free row of a task, with what the search needs to move the attacks onto it from the
/// free row above.
#[derive(Clone, Copy, Debug, Default)]
struct Level {
    /// Allowed columns.
    row: u64,
    /// How many rows this free row lies below the previous one: the shift of the diagonals.
    s: u32,
    /// The column offset of the knight leap from the previous free row's piece (`3 - s`).
    k: u32,
    /// All ones if that leap reaches this row (`s <= 2`), zero if not.
    leap: u64,
    /// All ones if the free row two up lies exactly two rows up (a knight leap of one column
    /// reaches this row from it), zero if not.
    leap2: u64,
}

/// The free rows of one task, top to bottom (at most 64).
struct Plan {
    levels: [Level; 64],
    len: usize,
}

impl Plan {
    /// The free rows of `allowed`, or `Err(count)` when the count needs no search: a pre-placed
    /// piece is attacked (0), or every row is pre-placed (1).
    fn new(allowed: &[u64], fixed: &[bool]) -> Result<Plan, u64> {
        let mut plan = Plan {
            levels: [Level::default(); 64],
            len: 0,
        };
        let mut last: Option<usize> = None;
        let mut gap_before = 0; // the gap above the previous free row
        for (r, (&mask, &f)) in allowed.iter().zip(fixed).enumerate() {
            if f {
                if mask.count_ones() != 1 {
                    return Err(0); // the pre-placed piece is attacked (or two share the row)
                }
                continue;
            }
            let s = last.map_or(0, |p| (r - p) as u32);
            let ones = |on: bool| if on { u64::MAX } else { 0 };
            plan.levels[plan.len] = Level {
                row: mask,
                s,
                k: if (1..=2).contains(&s) { 3 - s } else { 0 },
                leap: ones((1..=2).contains(&s)),
                leap2: ones(s == 1 && gap_before == 1),
            };
            plan.len += 1;
            gap_before = s;
            last = Some(r);
        }
        if plan.len == 0 { Err(1) } else { Ok(plan) }
    }
}

#[cfg(feature = "oracle")] // a test entry point
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
    count_rows_with(allowed, fixed, shape, Isa::current())
}

/// How many free rows lie below the deepest row at which the scalar search asks its `stop`
/// function ([`count_rows_until`]): a subtree of that many rows lies between two questions.
const POLL_ROWS: usize = 8;

/// The scalar search asks `stop` only on tasks of at least this many free rows. The question
/// costs 4 % of the time of queens n = 17 (BMI2 build, one thread: 7.70 s against 7.40 s),
/// whose tasks have fewer free rows and end within tenths of a second anyway (a count of
/// n = 19 with `--timeout 0.3` ends at 0.36 s); from queens n = 20 on, a task can run for
/// seconds.
const POLL_FROM: usize = 16;

/// [`count_rows`], asking `stop` now and then (on a task of 16 or more free rows, between
/// subtrees of 8 free rows; in the AVX-512 lanes, whenever a lane takes a new root): `None`
/// once it said yes. A count that a time limit or Ctrl-C must be able to end passes the
/// cancel token's test here, so that no task runs on for seconds after the stop.
///
/// ```
/// use queens_sat::count::fast::{Shape, count_rows_until};
/// let n = 16;
/// let allowed = vec![(1u64 << n) - 1; n];
/// assert_eq!(count_rows_until(&allowed, &vec![false; n], Shape::Queen, &|| true), None);
/// let n = 8;
/// let allowed = vec![(1u64 << n) - 1; n];
/// assert_eq!(count_rows_until(&allowed, &vec![false; n], Shape::Queen, &|| false), Some(92));
/// ```
pub fn count_rows_until(
    allowed: &[u64],
    fixed: &[bool],
    shape: Shape,
    stop: &dyn Fn() -> bool,
) -> Option<u64> {
    rows_with(allowed, fixed, shape, Isa::current(), stop)
}

#[cfg(feature = "oracle")] // a test entry point
/// [`count_rows`] in build `isa` of the search (the baseline build when the processor lacks
/// `isa`'s features): for tests and measurements that compare the builds.
pub fn count_rows_with(allowed: &[u64], fixed: &[bool], shape: Shape, isa: Isa) -> u64 {
    rows_with(allowed, fixed, shape, isa, &|| false).unwrap_or_default()
}

fn rows_with(
    allowed: &[u64],
    fixed: &[bool],
    shape: Shape,
    isa: Isa,
    stop: &dyn Fn() -> bool,
) -> Option<u64> {
    assert_eq!(allowed.len(), fixed.len(), "count_rows: one flag per row");
    assert!(allowed.len() <= 64, "count_rows: n <= 64");
    let plan = match Plan::new(allowed, fixed) {
        Ok(plan) => plan,
        Err(count) => return Some(count),
    };
    if plan.len == 1 {
        return Some(u64::from(plan.levels[0].row.count_ones()));
    }
    search(&plan, shape, isa, stop)
}

/// What placing a piece on `bit` of the current free row leaves for the next free row.
struct Step {
    /// Attacked columns.
    c: u64,
    /// Attacked difference diagonals, moved onto the next free row.
    dg: u64,
    /// Attacked sum diagonals, moved onto the next free row.
    an: u64,
    /// The knight leaps from `bit` onto the free row after the next.
    to_after: u64,
    /// The next free row's cells left to try.
    cells: u64,
}

/// Places a piece on `bit` of the current free row (its attacked columns and diagonals `cols`,
/// `diag`, `anti`, the knight leaps onto it `leaps_in`): what is left for the free row `next`
/// (and the leaps onto `after`, the one below it). Always inlined, so each build of `kernel!`
/// compiles it with its own instructions.
#[inline(always)]
fn step<const KNIGHT: bool>(
    bit: u64,
    cols: u64,
    diag: u64,
    anti: u64,
    leaps_in: u64,
    next: &Level,
    after: &Level,
) -> Step {
    let c = cols | bit;
    let dg = (diag | bit) << next.s;
    let an = (anti | bit) >> next.s;
    let mut block = c | dg | an;
    let mut to_after = 0;
    if KNIGHT {
        block |= leaps_in | ((bit << next.k | bit >> next.k) & next.leap);
        to_after = (bit << 1 | bit >> 1) & after.leap2;
    }
    Step {
        c,
        dg,
        an,
        to_after,
        cells: next.row & !block,
    }
}

/// The search, compiled once per instruction set (`$attr`).
macro_rules! kernel {
    ($name:ident, $tail:ident $(, $attr:meta)?) => {
        /// The last two free rows at once: `free` are the cells to try on the next-to-last free
        /// row (whose attacked columns and diagonals are `cols`, `diag`, `anti`), `last` the
        /// last free row, `leaps_in` the knight leaps onto it from the free row above `free`'s.
        /// Each cell `b` of `free` takes from the last row's free cells `f` its own column and
        /// its two diagonals (and two knight leaps), distinct columns: the completions are
        /// `|free| |f|` less, per shift `t` of those, `|f & (free shifted by t)|`. No loop, no
        /// branch.
        $(#[$attr])?
        #[inline]
        fn $tail<const KNIGHT: bool>(
            free: u64,
            cols: u64,
            diag: u64,
            anti: u64,
            leaps_in: u64,
            last: &Level,
        ) -> u64 {
            let s = last.s;
            let f = last.row & !(cols | diag << s | anti >> s | leaps_in);
            let mut lost = (f & free).count_ones()
                + (f & free << s).count_ones()
                + (f & free >> s).count_ones();
            if KNIGHT {
                let k = last.k;
                lost += (f & last.leap & free << k).count_ones()
                    + (f & last.leap & free >> k).count_ones();
            }
            u64::from(free.count_ones()) * u64::from(f.count_ones()) - u64::from(lost)
        }

        /// The depth-first search over the free rows of `plan` (at least two), iterative: the
        /// current free row's state lives in registers; a free row with cells left to try is
        /// pushed on a small stack before the search moves down (a row's last cell replaces
        /// it, so no row is revisited to find nothing left).
        ///
        /// With `POLL`, `stop` is asked whenever the search climbs back to a free row at least
        /// [`POLL_ROWS`] above the last (rarely: a subtree of that many rows lies between two
        /// questions); `None` once it said yes. Without, it is never asked.
        $(#[$attr])?
        fn $name<const KNIGHT: bool, const POLL: bool>(
            plan: &Plan,
            stop: &dyn Fn() -> bool,
        ) -> Option<u64> {
            let lv = &plan.levels;
            let m = plan.len;
            if m == 2 {
                return Some($tail::<KNIGHT>(lv[0].row, 0, 0, 0, 0, &lv[1]));
            }
            // The free row whose pieces leave the last two free rows to the tail.
            let bottom = m - 3;
            // Climbing back above this free row asks `stop`.
            let shallow = m.saturating_sub(POLL_ROWS);
            let mut st_free = [0u64; 64];
            let mut st_cols = [0u64; 64];
            let mut st_diag = [0u64; 64];
            let mut st_anti = [0u64; 64];
            let mut st_leaps = [0u64; 64];
            let mut st_d = [0usize; 64];
            let mut sp = 0usize;
            let (mut free, mut cols, mut diag, mut anti, mut leaps_in) = (lv[0].row, 0, 0, 0, 0);
            let mut d = 0usize;
            let mut total = 0u64;
            'level: loop {
                let next = &lv[(d + 1) & 63];
                let after = &lv[(d + 2) & 63];
                if d == bottom {
                    while free != 0 {
                        let bit = free & free.wrapping_neg();
                        free ^= bit;
                        let Step {
                            c,
                            dg,
                            an,
                            to_after,
                            cells,
                        } = step::<KNIGHT>(bit, cols, diag, anti, leaps_in, next, after);
                        // No test of `cells`: the tail of no cell is 0, and a branch on it
                        // mispredicts more than the tail costs (5 % less time at n = 16,
                        // 3.5 % more instructions).
                        total += $tail::<KNIGHT>(cells, c, dg, an, to_after, after);
                    }
                } else {
                    while free != 0 {
                        let bit = free & free.wrapping_neg();
                        free ^= bit;
                        let Step {
                            c,
                            dg,
                            an,
                            to_after,
                            cells,
                        } = step::<KNIGHT>(bit, cols, diag, anti, leaps_in, next, after);
                        if cells == 0 {
                            continue;
                        }
                        // The row goes on the stack if it has cells left: written always,
                        // kept by moving `sp` (no branch to mispredict).
                        let i = sp & 63;
                        st_free[i] = free;
                        st_cols[i] = cols;
                        st_diag[i] = diag;
                        st_anti[i] = anti;
                        if KNIGHT {
                            st_leaps[i] = leaps_in;
                        }
                        st_d[i] = d;
                        sp += usize::from(free != 0);
                        d += 1;
                        (free, cols, diag, anti, leaps_in) = (cells, c, dg, an, to_after);
                        continue 'level;
                    }
                }
                if sp == 0 {
                    return Some(total);
                }
                sp -= 1;
                let i = sp & 63;
                (free, cols, diag, anti, d) =
                    (st_free[i], st_cols[i], st_diag[i], st_anti[i], st_d[i]);
                if KNIGHT {
                    leaps_in = st_leaps[i];
                }
                if POLL && d < shallow && stop() {
                    return None;
                }
            }
        }
    };
}

/// A cheap estimate of the work of [`count_rows`] on the same board: the number of placements
/// of the first `depth` free rows (queen attacks only; an amazon's leaps are left out), counted
/// by the same search as [`count_rows`], or `u64::MAX` if it reaches `limit`. Of several images
/// of one task under the instance's symmetries (the same count), the engine searches the one
/// with the smallest estimate.
///
/// ```
/// use queens_sat::count::fast::estimate;
/// let n = 8;
/// let allowed = vec![(1u64 << n) - 1; n];
/// // Two queens on the first two rows: 8 * 8 less 8 shared columns less 14 diagonal pairs.
/// assert_eq!(estimate(&allowed, &vec![false; n], 2, u64::MAX), 42);
/// assert_eq!(estimate(&allowed, &vec![false; n], 2, 42), u64::MAX);
/// ```
pub fn estimate(allowed: &[u64], fixed: &[bool], depth: usize, limit: u64) -> u64 {
    assert_eq!(allowed.len(), fixed.len(), "estimate: one flag per row");
    assert!(allowed.len() <= 64, "estimate: n <= 64");
    let mut plan = match Plan::new(allowed, fixed) {
        Ok(plan) => plan,
        Err(count) => return count,
    };
    plan.len = plan.len.min(depth);
    let total = match plan.len {
        0 => 1,
        1 => u64::from(plan.levels[0].row.count_ones()),
        _ => search(&plan, Shape::Queen, Isa::current(), &|| false).unwrap_or(u64::MAX),
    };
    if total >= limit { u64::MAX } else { total }
}

/// The search over `plan` (at least two free rows) in build `isa` (one the processor has).
fn search(plan: &Plan, shape: Shape, isa: Isa, stop: &dyn Fn() -> bool) -> Option<u64> {
    #[cfg(target_arch = "x86_64")]
    // The AVX2 lanes count queens only (amazons run the BMI2 build there: faster).
    if isa.usable() >= Isa::Avx512Bw || (isa.usable() == Isa::Avx2 && shape == Shape::Queen) {
        let mut rows = super::lanes::Rows {
            allowed: [0; 64],
            shift: [0; 64],
            k: [0; 64],
            leap: [0; 64],
            leap2: [0; 64],
            len: plan.len,
        };
        for (i, level) in plan.levels[..plan.len].iter().enumerate() {
            rows.allowed[i] = level.row;
            rows.shift[i] = level.s;
            rows.k[i] = level.k;
            rows.leap[i] = level.leap;
            rows.leap2[i] = level.leap2;
        }
        if rows.fit() {
            let knight = shape == Shape::Amazon;
            // SAFETY: `Isa::usable` said the processor has `cpu::AVX512_FEATURES` (Avx512),
            // `cpu::AVX512BW_FEATURES` (Avx512Bw) or `cpu::AVX2_FEATURES` (Avx2, queens only),
            // and the rows fit the lanes.
            return unsafe {
                match isa.usable() {
                    Isa::Avx512 => super::lanes::count(&rows, knight, stop),
                    Isa::Avx512Bw => super::lanes::count_no_vpopcnt(&rows, knight, stop),
                    _ => super::lanes::count_avx2(&rows, stop),
                }
            };
        }
    }
    #[cfg(target_arch = "x86_64")]
    if isa.usable().has_bmi2() {
        // SAFETY: `Isa::usable` said the processor has `cpu::BMI2_FEATURES`, the features the
        // functions are compiled with.
        return unsafe {
            match (shape, plan.len >= POLL_FROM) {
                (Shape::Queen, false) => search_bmi2::<false, false>(plan, stop),
                (Shape::Queen, true) => search_bmi2::<false, true>(plan, stop),
                (Shape::Amazon, false) => search_bmi2::<true, false>(plan, stop),
                (Shape::Amazon, true) => search_bmi2::<true, true>(plan, stop),
            }
        };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = isa;
    match (shape, plan.len >= POLL_FROM) {
        (Shape::Queen, false) => search_plain::<false, false>(plan, stop),
        (Shape::Queen, true) => search_plain::<false, true>(plan, stop),
        (Shape::Amazon, false) => search_plain::<true, false>(plan, stop),
        (Shape::Amazon, true) => search_plain::<true, true>(plan, stop),
    }
}

#[cfg(target_arch = "x86_64")]
kernel!(
    search_bmi2,
    tail_bmi2,
    target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")
);
kernel!(search_plain, tail_plain);

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

    /// The build without `popcnt`/BMI (the fallback) gives the counts of the dispatched one,
    /// on boards with pre-placed rows (gaps of two and three rows between free rows).
    #[test]
    fn plain_build_agrees() {
        for shape in [Shape::Queen, Shape::Amazon] {
            let n = 11;
            for placed in [
                vec![],
                vec![(0, 3)],
                vec![(0, 2), (4, 0)],
                vec![(5, 10), (6, 0)],
            ] {
                let mut allowed = vec![full(n); n];
                let mut fixed = vec![false; n];
                for &(r, c) in &placed {
                    for (row, mask) in allowed.iter_mut().enumerate() {
                        *mask &= !shape.attacks((r, c), row, n);
                    }
                }
                for &(r, c) in &placed {
                    allowed[r] = 1 << c;
                    fixed[r] = true;
                }
                assert!(Plan::new(&allowed, &fixed).is_ok(), "a search");
                let plain = count_rows_with(&allowed, &fixed, shape, Isa::Baseline);
                for isa in Isa::all_usable() {
                    assert_eq!(
                        plain,
                        count_rows_with(&allowed, &fixed, shape, isa),
                        "{shape:?} {placed:?} {isa:?}"
                    );
                }
            }
        }
    }

    /// Counts by trying every cell of every row, checking each pair of pieces with
    /// [`Shape::attacks`]: the reference for the kernel on arbitrary masks.
    fn naive(allowed: &[u64], shape: Shape, placed: &mut Vec<(usize, usize)>) -> u64 {
        let n = allowed.len();
        let r = placed.len();
        if r == n {
            return 1;
        }
        let mut total = 0;
        for c in (0..n).filter(|&c| allowed[r] >> c & 1 == 1) {
            if placed.iter().all(|&x| shape.attacks(x, r, n) >> c & 1 == 0) {
                placed.push((r, c));
                total += naive(allowed, shape, placed);
                placed.pop();
            }
        }
        total
    }

    /// 160 random boards n <= 9 (random cells removed, up to three pre-placed rows, so gaps of
    /// one to three rows between free rows and bottom rows that a piece above leaves empty): both
    /// builds of the kernel against the naive count. The bottom free row hands the tail cells
    /// whose next row may be empty without a test, so the empty case is exercised here.
    #[test]
    fn random_boards_match_a_naive_count() {
        let mut x = 0x35c0_ffee_u64;
        let mut next = |m: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % m
        };
        let (mut empty_rows, mut nonzero) = (0, 0);
        for i in 0..160 {
            let n = 4 + next(6) as usize; // 4..=9
            let shape = if i % 3 == 1 {
                Shape::Amazon
            } else {
                Shape::Queen
            };
            let mut board = vec![full(n); n];
            for _ in 0..next(2 * n as u64) {
                board[next(n as u64) as usize] &= !(1 << next(n as u64));
            }
            let mut pre: Vec<(usize, usize)> = (0..next(4))
                .map(|_| (next(n as u64) as usize, next(n as u64) as usize))
                .collect();
            pre.sort_unstable();
            pre.dedup_by_key(|p| p.0);
            // The reference board: each pre-placed row allows its cell alone.
            let mut want_rows = board.clone();
            for &(r, c) in &pre {
                want_rows[r] &= 1 << c;
            }
            let want = naive(&want_rows, shape, &mut Vec::new());
            nonzero += usize::from(want > 0);
            // The kernel's input: the pre-placed pieces' attacks removed from the other rows.
            let mut allowed = board.clone();
            let mut fixed = vec![false; n];
            for &(r, c) in &pre {
                for (row, mask) in allowed.iter_mut().enumerate() {
                    if row != r {
                        *mask &= !shape.attacks((r, c), row, n);
                    }
                }
            }
            for &(r, c) in &pre {
                let attacked = pre
                    .iter()
                    .any(|&(r2, c2)| r2 != r && shape.attacks((r2, c2), r, n) >> c & 1 == 1);
                allowed[r] = if attacked { 0 } else { board[r] & 1 << c };
                fixed[r] = true;
            }
            empty_rows += usize::from(allowed.contains(&0));
            for isa in Isa::all_usable() {
                assert_eq!(
                    count_rows_with(&allowed, &fixed, shape, isa),
                    want,
                    "case {i}: {shape:?} n={n} {allowed:?} {fixed:?} {isa:?}"
                );
            }
        }
        assert!(
            empty_rows < 80,
            "too many boards with an empty row: {empty_rows}"
        );
        assert!(nonzero > 40, "too few boards with a solution: {nonzero}");
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
