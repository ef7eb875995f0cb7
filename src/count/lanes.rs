//! The queens counting search in eight AVX-512 lanes: eight depth-first searches of different
//! subtrees of one task, advanced in lockstep, one node per lane per step, with no branch on
//! the board (issue 35 §1, "several subproblems per instruction").
//!
//! The scalar kernel of [`super::fast`] is limited by its branches: which cell comes next, whether
//! a row has cells left, whether to climb back. Here every step computes, for all eight lanes at
//! once, both the move down (place the lowest cell left, move the attacks onto the next free row)
//! and the move up, and keeps one of them per lane by a mask. The last two free rows are counted
//! by the same popcount formula as the scalar tail, in every step, under a mask.
//!
//! What makes the move up cheap: nothing but the placed column is pushed. A lane's stack is one
//! 64-bit word of 5-bit column indices (so at most 12 free rows between a lane's root and the
//! bottom row), and the masks of the row above are recomputed from the row below: the columns
//! less the placed bit, the difference diagonals shifted back, and the sum diagonals shifted back
//! too, which loses nothing because they are kept 32 bits up (board column `c` at bit `c + 32`)
//! so that shifting right never drops a bit. The cells still to try are the ones the row allows
//! above the placed bit (cells are tried from the lowest). Hence boards of at most 32 columns.
//!
//! An amazon's knight leaps are one more mask per lane, the leaps onto the next free row from
//! the piece above, rebuilt on the way up from the next two columns on the stack (or, at a
//! lane's root, kept from the root).
//!
//! A task's tree is cut at a root row by a plain scalar walk (the `Roots` walk); each lane takes
//! the next root when its own is done. The tables of the free rows (allowed columns, shifts,
//! knight offsets) are looked up per lane with one `vpermt2q` (16 rows) or two and a blend (32
//! rows).
//!
//! Processors with AVX-512 BW but no VPOPCNTDQ (Skylake-SP, Cascade Lake: issue 55) run the same
//! search with its popcounts by nibble table (`vpshufb`, `vpsadbw`; `count_no_vpopcnt`):
//! queens n = 17, one thread, 5.63 s against the BMI2 build's 7.36 s and VPOPCNTDQ's 4.01 s
//! (medians of 3 alternated runs on one AMD EPYC with both, `QUEENS_SAT_ISA` choosing).
//!
//! Measured (docs/benchmarks.md, Counting), `count --engine backtrack --jobs 1`, user seconds
//! against the BMI2 build: queens n = 16 1.04 -> 0.53, n = 17 6.95 -> 3.40; amazons n = 18
//! 3.60 -> 2.57, n = 19 26.7 -> 18.0.

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

/// The most free rows a lane may descend below its root (twelve 5-bit indices in one word).
const STACK_DEPTH: usize = 12;

/// The free rows of a task, top to bottom, as the scalar kernel's plan has them (at most 64).
pub(super) struct Rows {
    /// Allowed columns of each free row.
    pub allowed: [u64; 64],
    /// How many rows each free row lies below the one before (0 for the first).
    pub shift: [u32; 64],
    /// The column offset of the knight leap from the free row before (`3 - shift`, or 0).
    pub k: [u32; 64],
    /// All ones where that leap reaches the row (`shift <= 2`).
    pub leap: [u64; 64],
    /// All ones where the free row two up lies exactly two rows up.
    pub leap2: [u64; 64],
    /// How many free rows.
    pub len: usize,
}

impl Rows {
    /// Whether the lanes kernel takes these free rows: a board of at most 32 columns, at least
    /// five free rows (fewer is too little work to cut) and at most 32.
    pub(super) fn fit(&self) -> bool {
        (5..=32).contains(&self.len) && self.allowed[..self.len].iter().all(|&r| r >> 32 == 0)
    }
}

/// The row whose nodes are the lanes' roots: three rows down (enough roots to keep the lanes
/// full to the end of a task: against two rows down, 3 % less time on queens n = 17, 5-8 % on
/// amazons n = 18 and 19; four rows down costs more than it saves), and low enough that a lane descends at most [`STACK_DEPTH`] rows before the
/// bottom row (the free row above the last two).
fn root_level(m: usize) -> usize {
    let bottom = m - 3;
    3.max(bottom.saturating_sub(STACK_DEPTH)).min(bottom)
}

/// One node of the scalar walk: the cells to try on row `d` and the attacks moved onto it.
#[derive(Clone, Copy, Debug)]
struct Node {
    d: usize,
    free: u64,
    cols: u64,
    diag: u64,
    anti: u64,
    /// Knight leaps onto the next free row from the piece of the free row above this one.
    leaps: u64,
}

/// The nodes of row `level` with a cell to try, in search order: a depth-first walk from row 0
/// with an explicit stack, yielded one by one (a task at large `n` has millions of them).
struct Roots<'a, const KNIGHT: bool> {
    rows: &'a Rows,
    level: usize,
    stack: Vec<Node>,
}

impl<'a, const KNIGHT: bool> Roots<'a, KNIGHT> {
    fn new(rows: &'a Rows, level: usize) -> Roots<'a, KNIGHT> {
        let top = Node {
            d: 0,
            free: rows.allowed[0],
            cols: 0,
            diag: 0,
            anti: 0,
            leaps: 0,
        };
        Roots {
            rows,
            level,
            stack: if top.free != 0 { vec![top] } else { vec![] },
        }
    }
}

impl<const KNIGHT: bool> Iterator for Roots<'_, KNIGHT> {
    type Item = Node;

    fn next(&mut self) -> Option<Node> {
        while let Some(top) = self.stack.last_mut() {
            if top.d == self.level {
                return self.stack.pop();
            }
            if top.free == 0 {
                self.stack.pop();
                continue;
            }
            let bit = top.free & top.free.wrapping_neg();
            top.free ^= bit;
            let node = *top;
            let (d, r) = (node.d + 1, self.rows);
            let s = r.shift[d];
            let (cols, diag, anti) = (
                node.cols | bit,
                (node.diag | bit) << s,
                (node.anti | bit) >> s,
            );
            let mut block = cols | diag | anti;
            let mut leaps = 0;
            if KNIGHT {
                block |= node.leaps | ((bit << r.k[d] | bit >> r.k[d]) & r.leap[d]);
                leaps = (bit << 1 | bit >> 1) & r.leap2[(d + 1) & 63];
            }
            let free = r.allowed[d] & !block;
            if free != 0 {
                self.stack.push(Node {
                    d,
                    free,
                    cols,
                    diag,
                    anti,
                    leaps,
                });
            }
        }
        None
    }
}

/// Counts the completions of the free rows `rows` in eight AVX-512 lanes: queens, or amazons
/// (`knight`), asking `stop` whenever lanes are refilled (a lane is refilled when it has counted
/// one root's subtree, of up to [`STACK_DEPTH`] rows): `None` once it said yes.
///
/// # Safety
/// The processor has [`crate::cpu::AVX512_FEATURES`], and `rows.fit()`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx512f,avx512dq,avx512vpopcntdq")]
pub(super) unsafe fn count(rows: &Rows, knight: bool, stop: &dyn Fn() -> bool) -> Option<u64> {
    match (rows.len <= 16, knight) {
        (true, false) => count_vp::<false, false>(rows, stop),
        (false, false) => count_vp::<true, false>(rows, stop),
        (true, true) => count_vp::<false, true>(rows, stop),
        (false, true) => count_vp::<true, true>(rows, stop),
    }
}

/// [`count`] on a processor with AVX-512 F, DQ and BW but no VPOPCNTDQ
/// ([`crate::cpu::AVX512BW_FEATURES`]): the same search, its popcounts by nibble table.
///
/// # Safety
/// The processor has [`crate::cpu::AVX512BW_FEATURES`], and `rows.fit()`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx512f,avx512dq,avx512bw")]
pub(super) unsafe fn count_no_vpopcnt(
    rows: &Rows,
    knight: bool,
    stop: &dyn Fn() -> bool,
) -> Option<u64> {
    match (rows.len <= 16, knight) {
        (true, false) => count_bw::<false, false>(rows, stop),
        (false, false) => count_bw::<true, false>(rows, stop),
        (true, true) => count_bw::<false, true>(rows, stop),
        (false, true) => count_bw::<true, true>(rows, stop),
    }
}

/// The eight lanes' state: row, cells to try, columns, difference diagonals (board bits),
/// sum diagonals (32 bits up), the knight leaps onto the next row from the piece above, stack
/// of placed columns, root row, the root's leaps and cells; and the active lanes.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
struct Lanes {
    d: __m512i,
    free: __m512i,
    cols: __m512i,
    diag: __m512i,
    anti: __m512i,
    leaps: __m512i,
    stack: __m512i,
    base: __m512i,
    base_leaps: __m512i,
    base_free: __m512i,
    active: u8,
}

/// A table of 32 values per row, in four vectors.
#[cfg(target_arch = "x86_64")]
type Table = [__m512i; 4];

/// The row tables, per lane: the entry of row `idx` of the 32 (`BIG`) or 16 rows in `t`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn lookup<const BIG: bool>(t: &Table, idx: __m512i) -> __m512i {
    // SAFETY: the intrinsics need AVX-512F, and the caller is compiled with it; they read only
    // their register arguments.
    unsafe {
        let low = _mm512_permutex2var_epi64(t[0], idx, t[1]);
        if BIG {
            let high = _mm512_permutex2var_epi64(t[2], idx, t[3]);
            _mm512_mask_mov_epi64(
                low,
                _mm512_test_epi64_mask(idx, _mm512_set1_epi64(16)),
                high,
            )
        } else {
            low
        }
    }
}

/// The first 32 values of `values` as a [`Table`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn table<T: Copy + Into<u64>>(values: &[T; 64]) -> Table {
    let mut t = [0i64; 32];
    for (x, &v) in t.iter_mut().zip(values.iter()) {
        *x = v.into() as i64;
    }
    // SAFETY: each load reads 8 of the 32 values.
    std::array::from_fn(|i| unsafe { _mm512_loadu_si512(t[8 * i..].as_ptr().cast()) })
}

/// Popcount per 64-bit lane with AVX-512 VPOPCNTDQ: one instruction.
#[cfg(target_arch = "x86_64")]
macro_rules! popcnt_vp {
    ($v:expr) => {
        _mm512_popcnt_epi64($v)
    };
}

/// Popcount per 64-bit lane with AVX-512 BW only (Skylake-SP, Cascade Lake: no VPOPCNTDQ): the
/// bits of each nibble by a table (`vpshufb`), the eight bytes of each lane summed by `vpsadbw`.
#[cfg(target_arch = "x86_64")]
macro_rules! popcnt_bw {
    ($v:expr) => {{
        let v = $v;
        let table = _mm512_broadcast_i32x4(_mm_setr_epi8(
            0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
        ));
        let low = _mm512_set1_epi8(0x0f);
        let lo = _mm512_and_si512(v, low);
        let hi = _mm512_and_si512(_mm512_srli_epi64(v, 4), low);
        let bytes = _mm512_add_epi8(
            _mm512_shuffle_epi8(table, lo),
            _mm512_shuffle_epi8(table, hi),
        );
        _mm512_sad_epu8(bytes, _mm512_setzero_si512())
    }};
}

/// The lanes' search, compiled once per popcount (`$pc`) with its target features (`$attr`).
macro_rules! lanes_kernel {
    ($name:ident, $pc:ident, $attr:meta) => {
        #[cfg(target_arch = "x86_64")]
        #[$attr]
        fn $name<const BIG: bool, const KNIGHT: bool>(
            rows: &Rows,
            stop: &dyn Fn() -> bool,
        ) -> Option<u64> {
            let m = rows.len;
            let bottom = m - 3;
            let row_tab = table(&rows.allowed);
            let shift_tab = table(&rows.shift);
            let k_tab = table(&rows.k);
            let leap_tab = table(&rows.leap);
            let leap2_tab = table(&rows.leap2);
            let zero = _mm512_setzero_si512();
            let one = _mm512_set1_epi64(1);
            let two = _mm512_set1_epi64(2);
            let low5 = _mm512_set1_epi64(31);
            let bottom_v = _mm512_set1_epi64(bottom as i64);
            let last_row = _mm512_set1_epi64(rows.allowed[m - 1] as i64);
            let last_s = _mm512_set1_epi64(i64::from(rows.shift[m - 1]));
            let last_k = _mm512_set1_epi64(i64::from(rows.k[m - 1]));
            let last_leap = _mm512_set1_epi64(rows.leap[m - 1] as i64);
            let mut roots = Roots::<KNIGHT>::new(rows, root_level(m));
            let mut l = Lanes {
                d: zero,
                free: zero,
                cols: zero,
                diag: zero,
                anti: zero,
                leaps: zero,
                stack: zero,
                base: zero,
                base_leaps: zero,
                base_free: zero,
                active: 0,
            };
            let mut total = zero;
            let mut done: u8 = 0xff;
            // The knight leaps of a piece `b` one column either side, onto a row where `mask` says a
            // leap of one column reaches.
            let beside = |b: __m512i, mask: __m512i| {
                _mm512_and_si512(
                    _mm512_or_si512(_mm512_slli_epi64(b, 1), _mm512_srli_epi64(b, 1)),
                    mask,
                )
            };
            loop {
                if done != 0 {
                    if stop() {
                        return None;
                    }
                    refill(&mut l, done, &mut roots);
                    if l.active == 0 {
                        break;
                    }
                }
                let has = _mm512_mask_cmpneq_epi64_mask(l.active, l.free, zero);
                let back = l.active & !has;
                // Down (or along the bottom row): place the lowest cell left.
                let bit = _mm512_and_si512(l.free, _mm512_sub_epi64(zero, l.free));
                let idx = $pc!(_mm512_sub_epi64(bit, one));
                let d1 = _mm512_add_epi64(l.d, one);
                let row1 = lookup::<BIG>(&row_tab, d1);
                let s1 = lookup::<BIG>(&shift_tab, d1);
                let cols1 = _mm512_or_si512(l.cols, bit);
                let diag1 = _mm512_sllv_epi64(_mm512_or_si512(l.diag, bit), s1);
                let anti1 =
                    _mm512_srlv_epi64(_mm512_or_si512(l.anti, _mm512_slli_epi64(bit, 32)), s1);
                let mut blocked =
                    _mm512_or_si512(_mm512_or_si512(cols1, diag1), _mm512_srli_epi64(anti1, 32));
                let mut leaps1 = zero;
                if KNIGHT {
                    let k1 = lookup::<BIG>(&k_tab, d1);
                    let leap1 = lookup::<BIG>(&leap_tab, d1);
                    let near =
                        _mm512_or_si512(_mm512_sllv_epi64(bit, k1), _mm512_srlv_epi64(bit, k1));
                    blocked = _mm512_or_si512(
                        blocked,
                        _mm512_or_si512(l.leaps, _mm512_and_si512(near, leap1)),
                    );
                    let d2 = _mm512_add_epi64(l.d, two);
                    leaps1 = beside(bit, lookup::<BIG>(&leap2_tab, d2));
                }
                let cells = _mm512_andnot_si512(blocked, row1);
                // The last two free rows, as the scalar tail: |cells| |f| less the shared columns,
                // diagonals (and leaps); kept only in the lanes on the bottom row.
                let at_bottom = _mm512_mask_cmpeq_epi64_mask(has, l.d, bottom_v);
                let mut blocked2 = _mm512_or_si512(
                    _mm512_or_si512(cols1, _mm512_sllv_epi64(diag1, last_s)),
                    _mm512_srli_epi64(_mm512_srlv_epi64(anti1, last_s), 32),
                );
                if KNIGHT {
                    blocked2 = _mm512_or_si512(blocked2, leaps1);
                }
                let f = _mm512_andnot_si512(blocked2, last_row);
                let mut lost = _mm512_add_epi64(
                    _mm512_add_epi64(
                        $pc!(_mm512_and_si512(f, cells)),
                        $pc!(_mm512_and_si512(f, _mm512_sllv_epi64(cells, last_s))),
                    ),
                    $pc!(_mm512_and_si512(f, _mm512_srlv_epi64(cells, last_s))),
                );
                if KNIGHT {
                    let fl = _mm512_and_si512(f, last_leap);
                    lost = _mm512_add_epi64(
                        lost,
                        _mm512_add_epi64(
                            $pc!(_mm512_and_si512(fl, _mm512_sllv_epi64(cells, last_k))),
                            $pc!(_mm512_and_si512(fl, _mm512_srlv_epi64(cells, last_k))),
                        ),
                    );
                }
                let pairs = _mm512_mullo_epi64($pc!(cells), $pc!(f));
                total =
                    _mm512_mask_add_epi64(total, at_bottom, total, _mm512_sub_epi64(pairs, lost));
                let down = _mm512_mask_cmpneq_epi64_mask(has & !at_bottom, cells, zero);
                let along = has & !down;
                // Up: undo the column on top of the stack.
                let finished = _mm512_mask_cmpeq_epi64_mask(back, l.d, l.base);
                let up = back & !finished;
                let popped = _mm512_srli_epi64(l.stack, 5);
                let ub = _mm512_sllv_epi64(one, _mm512_and_si512(l.stack, low5));
                let s0 = lookup::<BIG>(&shift_tab, l.d);
                let d0 = _mm512_sub_epi64(l.d, one);
                let row0 = lookup::<BIG>(&row_tab, d0);
                let cols0 = _mm512_xor_si512(l.cols, ub);
                let diag0 = _mm512_xor_si512(_mm512_srlv_epi64(l.diag, s0), ub);
                let anti0 =
                    _mm512_xor_si512(_mm512_sllv_epi64(l.anti, s0), _mm512_slli_epi64(ub, 32));
                let mut blocked0 =
                    _mm512_or_si512(_mm512_or_si512(cols0, diag0), _mm512_srli_epi64(anti0, 32));
                let mut leaps0 = zero;
                let mut at_root = 0;
                if KNIGHT {
                    // The pieces of the two rows above d0 (the next two columns on the stack; above the
                    // root, the root's leaps stand for them, and the root's cells for row d0 itself).
                    let b1 = _mm512_sllv_epi64(one, _mm512_and_si512(popped, low5));
                    let b2 = _mm512_sllv_epi64(
                        one,
                        _mm512_and_si512(_mm512_srli_epi64(popped, 5), low5),
                    );
                    at_root = _mm512_cmpeq_epi64_mask(d0, l.base);
                    let two_up = _mm512_cmpgt_epi64_mask(d0, _mm512_add_epi64(l.base, one));
                    let k0 = lookup::<BIG>(&k_tab, d0);
                    let near =
                        _mm512_or_si512(_mm512_sllv_epi64(b1, k0), _mm512_srlv_epi64(b1, k0));
                    let onto_d0 = _mm512_mask_mov_epi64(
                        l.base_leaps,
                        two_up,
                        beside(b2, lookup::<BIG>(&leap2_tab, d0)),
                    );
                    blocked0 = _mm512_or_si512(
                        blocked0,
                        _mm512_or_si512(
                            _mm512_and_si512(near, lookup::<BIG>(&leap_tab, d0)),
                            onto_d0,
                        ),
                    );
                    leaps0 = _mm512_mask_mov_epi64(
                        beside(b1, lookup::<BIG>(&leap2_tab, l.d)),
                        at_root,
                        l.base_leaps,
                    );
                }
                let mut avail = _mm512_andnot_si512(blocked0, row0);
                if KNIGHT {
                    avail = _mm512_mask_mov_epi64(avail, at_root, l.base_free);
                }
                let free0 =
                    _mm512_and_si512(avail, _mm512_sub_epi64(zero, _mm512_slli_epi64(ub, 1)));
                // Keep one move per lane.
                let mut free = _mm512_mask_xor_epi64(l.free, along, l.free, bit);
                free = _mm512_mask_mov_epi64(free, down, cells);
                l.free = _mm512_mask_mov_epi64(free, up, free0);
                let pick = |now: __m512i, below: __m512i, above: __m512i| {
                    _mm512_mask_mov_epi64(_mm512_mask_mov_epi64(now, down, below), up, above)
                };
                l.cols = pick(l.cols, cols1, cols0);
                l.diag = pick(l.diag, diag1, diag0);
                l.anti = pick(l.anti, anti1, anti0);
                if KNIGHT {
                    l.leaps = pick(l.leaps, leaps1, leaps0);
                }
                l.d = pick(l.d, d1, d0);
                let pushed = _mm512_or_si512(_mm512_slli_epi64(l.stack, 5), idx);
                l.stack = pick(l.stack, pushed, popped);
                done = finished;
            }
            Some(_mm512_reduce_add_epi64(total) as u64)
        }
    };
}

lanes_kernel!(
    count_vp,
    popcnt_vp,
    target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx512f,avx512dq,avx512vpopcntdq")
);
lanes_kernel!(
    count_bw,
    popcnt_bw,
    target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx512f,avx512dq,avx512bw")
);

/// Gives each lane of `done` the next root, or makes it inactive when there is none.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn refill<const KNIGHT: bool>(l: &mut Lanes, done: u8, roots: &mut Roots<'_, KNIGHT>) {
    let mut a = [[0i64; 8]; 10];
    let now = [
        l.d,
        l.free,
        l.cols,
        l.diag,
        l.anti,
        l.leaps,
        l.stack,
        l.base,
        l.base_leaps,
        l.base_free,
    ];
    for (v, out) in now.iter().zip(a.iter_mut()) {
        // SAFETY: stores 8 values into 8.
        unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), *v) };
    }
    for lane in 0..8 {
        if done >> lane & 1 == 0 {
            continue;
        }
        match roots.next() {
            Some(r) => {
                let d = r.d as i64;
                let leaps = r.leaps as i64;
                let anti = (r.anti << 32) as i64;
                let free = r.free as i64;
                let values = [
                    d,
                    free,
                    r.cols as i64,
                    r.diag as i64,
                    anti,
                    leaps,
                    0,
                    d,
                    leaps,
                    free,
                ];
                for (x, v) in a.iter_mut().zip(values) {
                    x[lane] = v;
                }
                l.active |= 1 << lane;
            }
            None => {
                a[1][lane] = 0;
                l.active &= !(1 << lane);
            }
        }
    }
    // SAFETY: loads 8 values from 8.
    let load = |x: &[i64; 8]| unsafe { _mm512_loadu_si512(x.as_ptr().cast()) };
    l.d = load(&a[0]);
    l.free = load(&a[1]);
    l.cols = load(&a[2]);
    l.diag = load(&a[3]);
    l.anti = load(&a[4]);
    l.leaps = load(&a[5]);
    l.stack = load(&a[6]);
    l.base = load(&a[7]);
    l.base_leaps = load(&a[8]);
    l.base_free = load(&a[9]);
}
