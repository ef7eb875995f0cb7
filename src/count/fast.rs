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
//! The search is compiled twice, once with the `popcnt`, BMI1, BMI2 and `lzcnt` instructions
//! ([`crate::cpu::BMI2_FEATURES`]; BMI2 shifts by a register without tying up `cl`) and once
//! without; [`crate::cpu::Isa`] picks the build at run time, as for the bitboard search
//! ([`count_rows_with`] runs a given one).

pub use crate::piece::{Shape, full};

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

/// [`count_rows`] in build `isa` of the search (the baseline build when the processor lacks
/// `isa`'s features): for tests and measurements that compare the builds. Uses this thread's
/// memo table ([`Memo::DEFAULT_BITS`], [`Memo::DEFAULT_ROWS`]).
pub fn count_rows_with(allowed: &[u64], fixed: &[bool], shape: Shape, isa: Isa) -> u64 {
    MEMO.with(|memo| match memo.try_borrow_mut() {
        Ok(mut memo) => count_rows_in(allowed, fixed, shape, isa, Some(&mut memo)),
        Err(_) => count_rows_in(allowed, fixed, shape, isa, None),
    })
}

/// [`count_rows`] in build `isa`, memoising the bottom free rows in `memo` (none: the plain
/// search). Any table, of any size, gives the same count: for tests that force a tiny or a full
/// table.
///
/// ```
/// use queens_sat::count::fast::{Memo, Shape, count_rows_in, full};
/// use queens_sat::cpu::Isa;
/// let n = 10;
/// let allowed = vec![full(n); n];
/// let fixed = vec![false; n];
/// let mut tiny = Memo::new(0, 3); // one entry: nearly every lookup evicts
/// assert_eq!(count_rows_in(&allowed, &fixed, Shape::Queen, Isa::current(), Some(&mut tiny)), 724);
/// assert_eq!(count_rows_in(&allowed, &fixed, Shape::Queen, Isa::current(), None), 724);
/// ```
pub fn count_rows_in(
    allowed: &[u64],
    fixed: &[bool],
    shape: Shape,
    isa: Isa,
    memo: Option<&mut Memo>,
) -> u64 {
    assert_eq!(allowed.len(), fixed.len(), "count_rows: one flag per row");
    assert!(allowed.len() <= 64, "count_rows: n <= 64");
    let plan = match Plan::new(allowed, fixed) {
        Ok(plan) => plan,
        Err(count) => return count,
    };
    if plan.len == 1 {
        return u64::from(plan.levels[0].row.count_ones());
    }
    search(&plan, shape, isa, memo)
}

thread_local! {
    /// Each thread's memo table (the backtrack engine counts one task at a time per thread; the
    /// entries hold for any task, so the table is never cleared).
    static MEMO: std::cell::RefCell<Memo> =
        std::cell::RefCell::new({
            let v: Vec<usize> = std::env::var("QS_MEMO").unwrap_or_default().split(',').filter_map(|x| x.parse().ok()).collect();
            if v.len() == 2 { Memo::new(v[0] as u32, v[1]) } else { Memo::new(Memo::DEFAULT_BITS, Memo::DEFAULT_ROWS) }
        });
}

/// One slot of a [`Memo`]: the key of a bottom-rows state and its completion count.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    /// The state's rows, packed ([`MemoPlan`]'s key).
    key: u64,
    /// The tag of the bottom rows' shape (high 32 bits; 0 for an empty slot) and the count
    /// (low 32 bits).
    val: u64,
}

/// A direct-mapped table of the completion counts of the last few free rows of a search, keyed
/// by what those rows still allow.
///
/// When the search enters the free row `m - k` (of `m`), the completions of the last `k` free
/// rows depend only on the cells each of them still allows (`A_0 .. A_k-1`, every attack from
/// the pieces above removed) and on the gaps between them (which decide the diagonal and knight
/// attacks among their own pieces) and on the piece. The key is exactly that: the union `U` of
/// the `A_j` moved to column 0 (the count is the same for any horizontal translate), each `A_j`
/// packed into `|U| <= k` bits by `pext(A_j, U)` (`|U| <= k`, since every piece takes a column
/// of its own), and a tag of the gaps, the piece and `k`. The count therefore holds for any task
/// of any instance and board size, so one table serves every task a thread counts. Each slot
/// keeps one state (full key verified on lookup); a new state evicts the old one.
#[derive(Clone, Debug)]
pub struct Memo {
    table: Vec<Entry>,
    /// `64 - log2(table size)`: the hash's top bits index the table.
    shift: u32,
    /// `k`, the free rows memoised (0: no memo).
    rows: usize,
    /// TEMP
    pub stats: [u64; 4],
}
impl Drop for Memo {
    fn drop(&mut self) {
        if std::env::var("QS_MEMO_STATS").is_ok() && self.stats[0] > 0 {
            eprintln!("memo rows {} bits {}: lookups {} hits {} empty {} direct {}", self.rows, 64 - self.shift, self.stats[0], self.stats[1], self.stats[2], self.stats[3]);
        }
    }
}

impl Memo {
    /// log2 of the slots of each thread's table (16 bytes each).
    pub const DEFAULT_BITS: u32 = 16;
    /// The free rows each thread's table memoises.
    pub const DEFAULT_ROWS: usize = 5;

    /// A table of `2^bits` slots (`bits` at most 28) for the last `rows` free rows (3 to 6;
    /// anything else memoises nothing).
    pub fn new(bits: u32, rows: usize) -> Memo {
        let bits = bits.min(28);
        Memo {
            table: vec![Entry::default(); 1 << bits],
            shift: 64 - bits,
            rows: if (3..=6).contains(&rows) { rows } else { 0 },
            stats: [0; 4],
        }
    }

    /// The slot of `key` with tag `tag`.
    #[inline(always)]
    fn slot(&self, key: u64, tag: u64) -> usize {
        let h = (key ^ tag.wrapping_mul(0xD6E8_FEB8_6659_FD93)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        // `shift` is 36..=64; a one-slot table takes slot 0.
        h.checked_shr(self.shift).unwrap_or(0) as usize
    }
}

/// How a search over a [`Plan`] uses a [`Memo`]: its level `level = m - k` and the rows below.
#[derive(Clone, Copy, Debug)]
struct MemoPlan {
    /// The first memoised free row.
    level: usize,
    /// `k`.
    rows: usize,
    /// `cum[j]`: how many rows free row `level + j` lies below free row `level`.
    cum: [u32; 8],
    /// The gaps, the piece and `k`, with bit 31 set (never 0, the empty slot's tag).
    tag: u64,
}

impl MemoPlan {
    /// The memo plan of `plan` for `memo`'s `k` rows, if it has one: at least one free row above
    /// the memoised ones, gaps of at most 15 rows, and the diagonals moved by under 64 columns.
    fn new(plan: &Plan, memo: &Memo, shape: Shape) -> Option<MemoPlan> {
        let k = memo.rows;
        if k < 3 || plan.len < k + 1 {
            return None;
        }
        let level = plan.len - k;
        let mut cum = [0u32; 8];
        let mut tag = 1u64 << 31 | (k as u64) << 24 | u64::from(shape == Shape::Amazon) << 23;
        for j in 1..k {
            let s = plan.levels[level + j].s;
            if s > 15 {
                return None;
            }
            cum[j] = cum[j - 1] + s;
            tag |= u64::from(s) << (4 * (j - 1));
        }
        if cum[k - 1] >= 64 {
            return None;
        }
        Some(MemoPlan {
            level,
            rows: k,
            cum,
            tag,
        })
    }
}

/// Parallel bit extract: the bits of `x` at the set bits of `mask`, packed at the bottom.
#[inline(always)]
fn pext_soft(x: u64, mut mask: u64) -> u64 {
    let mut out = 0;
    let mut i = 0;
    while mask != 0 {
        let b = mask & mask.wrapping_neg();
        out |= u64::from(x & b != 0) << i;
        i += 1;
        mask ^= b;
    }
    out
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

/// The search, compiled once per instruction set (`$attr`), with the bit extract `$pext`.
macro_rules! kernel {
    ($name:ident, $dfs:ident, $leaf:ident, $tail:ident, $pext:expr $(, $attr:meta)?) => {
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

        /// The completions of the memoised free rows from `mp.level` down, entered with the
        /// cells `cells` to try there, the attacks `c`, `dg`, `an` on it and the leaps
        /// `to_after` onto the free row below: looked up in `memo`, else searched and stored.
        $(#[$attr])?
        #[inline]
        fn $leaf<const KNIGHT: bool>(
            lv: &[Level; 64],
            m: usize,
            mp: &MemoPlan,
            memo: &mut Memo,
            state: (u64, u64, u64, u64, u64),
        ) -> u64 {
            let (cells, c, dg, an, to_after) = state;
            let l = mp.level;
            let k = mp.rows;
            let mut a = [0u64; 8];
            a[0] = cells;
            let s1 = lv[(l + 1) & 63].s;
            a[1] = lv[(l + 1) & 63].row & !(c | dg << s1 | an >> s1 | to_after);
            let mut u = a[0] | a[1];
            let mut empty = a[1] == 0;
            for j in 2..k {
                let s = mp.cum[j];
                let aj = lv[(l + j) & 63].row & !(c | dg << s | an >> s);
                a[j] = aj;
                u |= aj;
                empty |= aj == 0;
            }
            memo.stats[0] += 1;
            if empty {
                memo.stats[2] += 1;
                return 0; // a memoised row with no cell left: no completion
            }
            let t = u.trailing_zeros();
            let un = u >> t;
            let kk = (k * k) as u32;
            if u.count_ones() as usize > k || un >> (64 - kk) != 0 {
                // Does not pack into a key (never for queens and amazons on n <= 28).
                return $dfs::<KNIGHT, false>(lv, m, l, state, mp, memo);
            }
            let mut key = un << kk;
            for (j, &aj) in a[..k].iter().enumerate() {
                key |= $pext(aj, u) << (j * k);
            }
            let i = memo.slot(key, mp.tag);
            let e = memo.table[i];
            if e.key == key && e.val >> 32 == mp.tag {
                memo.stats[1] += 1;
                return e.val & 0xFFFF_FFFF;
            }
            let count = $dfs::<KNIGHT, false>(lv, m, l, state, mp, memo);
            // At most k! <= 720 completions: fits the low 32 bits.
            memo.table[i] = Entry {
                key,
                val: mp.tag << 32 | count,
            };
            count
        }

        /// The depth-first search over the free rows `d0..m` of `plan` (at least two), entered
        /// with `state` = (the cells to try on free row `d0`, the attacked columns and
        /// diagonals on it, the leaps onto the free row below), iterative: the current free
        /// row's state lives in registers; a free row with cells left to try is pushed on a
        /// small stack before the search moves down (a row's last cell replaces it, so no row
        /// is revisited to find nothing left). With `MEMO` the search stops above free row
        /// `mp.level` and takes the rest from `memo` ([`$leaf`]); without, the last two free
        /// rows go to the tail.
        $(#[$attr])?
        fn $dfs<const KNIGHT: bool, const MEMO: bool>(
            lv: &[Level; 64],
            m: usize,
            d0: usize,
            state: (u64, u64, u64, u64, u64),
            mp: &MemoPlan,
            memo: &mut Memo,
        ) -> u64 {
            let (mut free, mut cols, mut diag, mut anti, mut leaps_in) = state;
            if !MEMO && m - d0 == 2 {
                return $tail::<KNIGHT>(free, cols, diag, anti, leaps_in, &lv[(d0 + 1) & 63]);
            }
            // The free row whose pieces leave the rest to the memo or to the tail.
            let bottom = if MEMO { mp.level - 1 } else { m - 3 };
            let mut st_free = [0u64; 64];
            let mut st_cols = [0u64; 64];
            let mut st_diag = [0u64; 64];
            let mut st_anti = [0u64; 64];
            let mut st_leaps = [0u64; 64];
            let mut st_d = [0usize; 64];
            let mut sp = 0usize;
            let mut d = d0;
            let mut total = 0u64;
            'level: loop {
                let next = &lv[(d + 1) & 63];
                let after = &lv[(d + 2) & 63];
                if d == bottom {
                    while free != 0 {
                        let bit = free & free.wrapping_neg();
                        free ^= bit;
                        let Step { c, dg, an, to_after, cells } =
                            step::<KNIGHT>(bit, cols, diag, anti, leaps_in, next, after);
                        if cells != 0 {
                            total += if MEMO {
                                $leaf::<KNIGHT>(lv, m, mp, memo, (cells, c, dg, an, to_after))
                            } else {
                                $tail::<KNIGHT>(cells, c, dg, an, to_after, after)
                            };
                        }
                    }
                } else {
                    while free != 0 {
                        let bit = free & free.wrapping_neg();
                        free ^= bit;
                        let Step { c, dg, an, to_after, cells } =
                            step::<KNIGHT>(bit, cols, diag, anti, leaps_in, next, after);
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
                    return total;
                }
                sp -= 1;
                let i = sp & 63;
                (free, cols, diag, anti, d) = (st_free[i], st_cols[i], st_diag[i], st_anti[i], st_d[i]);
                if KNIGHT {
                    leaps_in = st_leaps[i];
                }
            }
        }

        /// The search over `plan` (at least two free rows), with `memo` if it has a plan for
        /// it.
        $(#[$attr])?
        fn $name<const KNIGHT: bool>(plan: &Plan, shape: Shape, memo: Option<&mut Memo>) -> u64 {
            let start = (plan.levels[0].row, 0, 0, 0, 0);
            let mut none = Memo::new(0, 0);
            let (mp, memo) = match memo.and_then(|m| MemoPlan::new(plan, m, shape).map(|p| (p, m))) {
                Some((mp, memo)) => {
                    return $dfs::<KNIGHT, true>(&plan.levels, plan.len, 0, start, &mp, memo);
                }
                None => (MemoPlan { level: 0, rows: 0, cum: [0; 8], tag: 0 }, &mut none),
            };
            $dfs::<KNIGHT, false>(&plan.levels, plan.len, 0, start, &mp, memo)
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
        _ => search(&plan, Shape::Queen, Isa::current(), None),
    };
    if total >= limit { u64::MAX } else { total }
}

/// The search over `plan` (at least two free rows) in build `isa` (one the processor has),
/// memoised in `memo` if given.
fn search(plan: &Plan, shape: Shape, isa: Isa, memo: Option<&mut Memo>) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if isa.usable() == Isa::Bmi2 {
        // SAFETY: `Isa::usable` said the processor has `cpu::BMI2_FEATURES`, the features the
        // functions are compiled with.
        return unsafe {
            match shape {
                Shape::Queen => search_bmi2::<false>(plan, shape, memo),
                Shape::Amazon => search_bmi2::<true>(plan, shape, memo),
            }
        };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = isa;
    match shape {
        Shape::Queen => search_plain::<false>(plan, shape, memo),
        Shape::Amazon => search_plain::<true>(plan, shape, memo),
    }
}

#[cfg(target_arch = "x86_64")]
kernel!(
    search_bmi2,
    dfs_bmi2,
    leaf_bmi2,
    tail_bmi2,
    |x, m| std::arch::x86_64::_pext_u64(x, m),
    target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")
);
kernel!(search_plain, dfs_plain, leaf_plain, tail_plain, pext_soft);

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
