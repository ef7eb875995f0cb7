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
//! bottom row) above a marker bit (a stack of 1 is a lane back at its root), and the masks of
//! the row above are recomputed from the row below: the columns less the placed bit, the
//! difference diagonals shifted back, and the sum diagonals shifted back too, which loses nothing
//! because they are kept 32 bits up (board column `c` at bit `c + 32`) so that shifting right
//! never drops a bit. The cells still to try are the ones the row allows
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
//! Processors with AVX2 but no AVX-512 (AMD Zen 3 and older, Intel client chips) run it in four
//! 64-bit lanes (`count_avx2`, queens only): the same source, each build's vector operations in
//! a module of their own (`x8` and its two popcounts, `x4`), the search a macro over them.
//! AVX2 has no mask registers (masks are vectors, blends `vblendvpd`), no 64-bit popcount or
//! multiply (two values below 2^32 counted per lane by nibble table, then `vpsadbw`, or
//! `vpmaddubsw` + `vpmaddwd` and `vpmuludq`; three below 2^21 in one lane), no two-table permute
//! (row tables of 32-bit values, `vpermd` and blends; `vpgatherqq` measured slower), and the
//! placed column's index comes from the float exponent (`vcvtdq2ps`). Numbers in
//! docs/benchmarks.md ("The AVX2 lanes").
//!
//! Measured (docs/benchmarks.md, Counting), `count --engine backtrack --jobs 1`, user seconds
//! against the BMI2 build: queens n = 16 1.04 -> 0.53, n = 17 6.95 -> 3.40; amazons n = 18
//! 3.60 -> 2.57, n = 19 26.7 -> 18.0.

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
        (true, false) => count_vp::<false, false, false>(rows, stop),
        (false, false) => count_vp::<true, false, false>(rows, stop),
        (true, true) => count_vp::<false, true, false>(rows, stop),
        (false, true) => count_vp::<true, true, false>(rows, stop),
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
        (true, false) => count_bw::<false, false, false>(rows, stop),
        (false, false) => count_bw::<true, false, false>(rows, stop),
        (true, true) => count_bw::<false, true, false>(rows, stop),
        (false, true) => count_bw::<true, true, false>(rows, stop),
    }
}

/// [`count`] for queens in four AVX2 lanes ([`crate::cpu::AVX2_FEATURES`]): the same search,
/// its popcounts by nibble table, its row tables looked up by `vpermd`. (Amazons are not
/// counted here: in four lanes their leaps cost more than the scalar BMI2 build's search, 4.98 s
/// against 3.83 s at n = 18.)
///
/// # Safety
/// The processor has [`crate::cpu::AVX2_FEATURES`], and `rows.fit()`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2")]
pub(super) unsafe fn count_avx2(rows: &Rows, stop: &dyn Fn() -> bool) -> Option<u64> {
    // Boards of at most 21 columns count the last two rows' shared cells in one popcount
    // (`x4::pop_sum3`).
    let narrow = rows.allowed[..rows.len].iter().all(|&r| r >> 21 == 0);
    match (rows.len <= 16, narrow) {
        (true, true) => count_x4::<false, false, true>(rows, stop),
        (false, true) => count_x4::<true, false, true>(rows, stop),
        (true, false) => count_x4::<false, false, false>(rows, stop),
        (false, false) => count_x4::<true, false, false>(rows, stop),
    }
}

/// The lanes' state: row, cells to try, columns, difference diagonals (board bits), sum
/// diagonals (32 bits up), the knight leaps onto the next row from the piece above, stack of
/// placed columns, root row, the root's leaps and cells (vectors `V`, one 64-bit value per
/// lane); and the active lanes (a lane mask `M`).
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
struct Lanes<V, M> {
    d: V,
    free: V,
    cols: V,
    diag: V,
    anti: V,
    leaps: V,
    stack: V,
    base: V,
    base_leaps: V,
    base_free: V,
    active: M,
}

/// The vector operations of the AVX-512 builds: eight 64-bit lanes, lane masks in `k`
/// registers, each operation one instruction. Every function is compiled with the features it
/// needs, within both AVX-512 lists, and always inlined into the kernel (whose features include
/// them).
#[cfg(target_arch = "x86_64")]
mod x8 {
    use std::arch::x86_64::*;

    /// Eight 64-bit lanes.
    pub type V = __m512i;
    /// A lane mask.
    pub type M = __mmask8;
    /// A table of 32 values per row, in four vectors.
    pub type Table = [__m512i; 4];
    /// How many lanes.
    pub const LANES: usize = 8;

    #[inline]
    #[target_feature(enable = "avx512f")]
    pub fn zero() -> V {
        _mm512_setzero_si512()
    }
    #[inline]
    #[target_feature(enable = "avx512f")]
    pub fn splat(x: i64) -> V {
        _mm512_set1_epi64(x)
    }
    #[inline]
    #[target_feature(enable = "avx512f")]
    pub fn and(a: V, b: V) -> V {
        _mm512_and_si512(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx512f")]
    pub fn or(a: V, b: V) -> V {
        _mm512_or_si512(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx512f")]
    pub fn xor(a: V, b: V) -> V {
        _mm512_xor_si512(a, b)
    }
    /// `!a & b`.
    #[inline]
    #[target_feature(enable = "avx512f")]
    pub fn andnot(a: V, b: V) -> V {
        _mm512_andnot_si512(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx512f")]
    pub fn add(a: V, b: V) -> V {
        _mm512_add_epi64(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx512f")]
    pub fn sub(a: V, b: V) -> V {
        _mm512_sub_epi64(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx512f")]
    pub fn sllv(a: V, s: V) -> V {
        _mm512_sllv_epi64(a, s)
    }
    #[inline]
    #[target_feature(enable = "avx512f")]
    pub fn srlv(a: V, s: V) -> V {
        _mm512_srlv_epi64(a, s)
    }
    #[inline]
    #[target_feature(enable = "avx512f")]
    pub fn slli<const N: u32>(a: V) -> V {
        _mm512_slli_epi64::<N>(a)
    }
    #[inline]
    #[target_feature(enable = "avx512f")]
    pub fn srli<const N: u32>(a: V) -> V {
        _mm512_srli_epi64::<N>(a)
    }
    /// The lanes of `m` where `a != b`.
    #[inline]
    #[target_feature(enable = "avx512f")]
    pub fn ne_in(m: M, a: V, b: V) -> M {
        _mm512_mask_cmpneq_epi64_mask(m, a, b)
    }
    /// The lanes of `m` where `a == b`.
    #[inline]
    #[target_feature(enable = "avx512f")]
    pub fn eq_in(m: M, a: V, b: V) -> M {
        _mm512_mask_cmpeq_epi64_mask(m, a, b)
    }
    #[inline]
    #[target_feature(enable = "avx512f")]
    pub fn eq(a: V, b: V) -> M {
        _mm512_cmpeq_epi64_mask(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx512f")]
    pub fn gt(a: V, b: V) -> M {
        _mm512_cmpgt_epi64_mask(a, b)
    }
    /// `b` in the lanes of `m`, `a` in the others.
    #[inline]
    #[target_feature(enable = "avx512f")]
    pub fn blend(a: V, m: M, b: V) -> V {
        _mm512_mask_mov_epi64(a, m, b)
    }
    /// `a ^ b` in the lanes of `m`, `a` in the others.
    #[inline]
    #[target_feature(enable = "avx512f")]
    pub fn xor_in(a: V, m: M, b: V) -> V {
        _mm512_mask_xor_epi64(a, m, a, b)
    }
    /// `a + b` in the lanes of `m`, `a` in the others.
    #[inline]
    #[target_feature(enable = "avx512f")]
    pub fn add_in(a: V, m: M, b: V) -> V {
        _mm512_mask_add_epi64(a, m, a, b)
    }
    /// `a & !b`.
    #[inline]
    pub fn mandn(a: M, b: M) -> M {
        a & !b
    }
    #[inline]
    pub fn any(m: M) -> bool {
        m != 0
    }
    /// Lane `i` of the mask as bit `i`.
    #[inline]
    pub fn bits(m: M) -> u8 {
        m
    }
    /// The mask of the lanes whose bits are set.
    #[inline]
    pub fn from_bits(b: u8) -> M {
        b
    }
    /// The product of small values (below 2^32) in each lane.
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    pub fn mul(a: V, b: V) -> V {
        _mm512_mullo_epi64(a, b)
    }
    /// The sum of the lanes.
    #[inline]
    #[target_feature(enable = "avx512f")]
    pub fn sum(a: V) -> u64 {
        _mm512_reduce_add_epi64(a) as u64
    }
    #[inline]
    #[target_feature(enable = "avx512f")]
    pub fn load(x: &[i64; 8]) -> V {
        // SAFETY: reads the 8 values of `x`.
        unsafe { _mm512_loadu_si512(x.as_ptr().cast()) }
    }
    #[inline]
    #[target_feature(enable = "avx512f")]
    pub fn store(v: V, x: &mut [i64; 8]) {
        // SAFETY: writes the 8 values of `x`.
        unsafe { _mm512_storeu_si512(x.as_mut_ptr().cast(), v) }
    }

    /// The first 32 values of `values` as a [`Table`].
    #[inline]
    #[target_feature(enable = "avx512f")]
    pub fn table<T: Copy + Into<u64>>(values: &[T; 64]) -> Table {
        let mut t = [[0i64; 8]; 4];
        for (i, &v) in values[..32].iter().enumerate() {
            t[i / 8][i % 8] = v.into() as i64;
        }
        t.map(|x| load(&x))
    }

    /// The row tables, per lane: the entry of row `idx` of the 32 (`BIG`) or 16 rows in `t`
    /// (one `vpermt2q`, or two and a blend).
    #[inline]
    #[target_feature(enable = "avx512f")]
    pub fn lookup<const BIG: bool>(t: Table, idx: V) -> V {
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

/// The AVX-512 build with VPOPCNTDQ: [`x8`] and popcounts of one instruction.
#[cfg(target_arch = "x86_64")]
mod x8vp {
    pub use super::x8::*;
    use std::arch::x86_64::*;

    #[inline]
    #[target_feature(enable = "avx512f,avx512vpopcntdq")]
    fn pc(a: V) -> V {
        _mm512_popcnt_epi64(a)
    }
    /// The index of the one bit of each lane (a lane of `bit` with one bit set).
    #[inline]
    #[target_feature(enable = "avx512f,avx512vpopcntdq")]
    pub fn index(bit: V) -> V {
        pc(sub(bit, splat(1)))
    }
    /// `popcount(a) * popcount(b)` per lane (`a`, `b` below 2^32).
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq,avx512vpopcntdq")]
    pub fn pop_product(a: V, b: V) -> V {
        mul(pc(a), pc(b))
    }
    /// The popcounts of `a`, `b` and `c` added, per lane (each below 2^32; `NARROW`, each below
    /// 2^21, changes nothing here).
    #[inline]
    #[target_feature(enable = "avx512f,avx512vpopcntdq")]
    pub fn pop_sum3<const NARROW: bool>(a: V, b: V, c: V) -> V {
        add(add(pc(a), pc(b)), pc(c))
    }
    /// The popcounts of five values added, per lane (each below 2^32).
    #[inline]
    #[target_feature(enable = "avx512f,avx512vpopcntdq")]
    pub fn pop_sum5(a: V, b: V, c: V, d: V, e: V) -> V {
        add(pop_sum3::<false>(a, b, c), add(pc(d), pc(e)))
    }
}

/// The AVX-512 build without VPOPCNTDQ (Skylake-SP, Cascade Lake): [`x8`] and popcounts by a
/// nibble table (`vpshufb`), the eight bytes of each lane summed by `vpsadbw`.
#[cfg(target_arch = "x86_64")]
mod x8bw {
    pub use super::x8::*;
    use std::arch::x86_64::*;

    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn pc(v: V) -> V {
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
    }
    /// The index of the one bit of each lane (a lane of `bit` with one bit set).
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    pub fn index(bit: V) -> V {
        pc(sub(bit, splat(1)))
    }
    /// `popcount(a) * popcount(b)` per lane (`a`, `b` below 2^32).
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq,avx512bw")]
    pub fn pop_product(a: V, b: V) -> V {
        mul(pc(a), pc(b))
    }
    /// The popcounts of `a`, `b` and `c` added, per lane (each below 2^32; `NARROW`, each below
    /// 2^21, changes nothing here).
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    pub fn pop_sum3<const NARROW: bool>(a: V, b: V, c: V) -> V {
        add(add(pc(a), pc(b)), pc(c))
    }
    /// The popcounts of five values added, per lane (each below 2^32).
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    pub fn pop_sum5(a: V, b: V, c: V, d: V, e: V) -> V {
        add(pop_sum3::<false>(a, b, c), add(pc(d), pc(e)))
    }
}

/// The vector operations of the AVX2 build: four 64-bit lanes, lane masks as vectors (all ones
/// or zero per lane). AVX2 has no 64-bit multiply, no 64-bit popcount and no two-table permute,
/// so the values that are popcounted (all below 2^32) are counted two to a lane: a nibble table
/// (`vpshufb`) counts the bits of each byte, and the byte counts are summed by `vpsadbw` where
/// only a sum is wanted, or per 32-bit half (`vpmaddubsw`, `vpmaddwd`) where two counts are
/// multiplied (`vpmuludq`). The row tables hold 32-bit values, eight to a vector, looked up by
/// `vpermd` and blends.
#[cfg(target_arch = "x86_64")]
mod x4 {
    use std::arch::x86_64::*;

    /// Four 64-bit lanes.
    pub type V = __m256i;
    /// A lane mask: all ones in the lanes it holds.
    pub type M = __m256i;
    /// A table of 32 values (below 2^32) per row, eight to a vector.
    pub type Table = [__m256i; 4];
    /// How many lanes.
    pub const LANES: usize = 4;

    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn zero() -> V {
        _mm256_setzero_si256()
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn splat(x: i64) -> V {
        _mm256_set1_epi64x(x)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn and(a: V, b: V) -> V {
        _mm256_and_si256(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn or(a: V, b: V) -> V {
        _mm256_or_si256(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn xor(a: V, b: V) -> V {
        _mm256_xor_si256(a, b)
    }
    /// `!a & b`.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn andnot(a: V, b: V) -> V {
        _mm256_andnot_si256(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn add(a: V, b: V) -> V {
        _mm256_add_epi64(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn sub(a: V, b: V) -> V {
        _mm256_sub_epi64(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn sllv(a: V, s: V) -> V {
        _mm256_sllv_epi64(a, s)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn srlv(a: V, s: V) -> V {
        _mm256_srlv_epi64(a, s)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn slli<const N: i32>(a: V) -> V {
        _mm256_slli_epi64::<N>(a)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn srli<const N: i32>(a: V) -> V {
        _mm256_srli_epi64::<N>(a)
    }
    /// The lanes of `m` where `a != b`.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn ne_in(m: M, a: V, b: V) -> M {
        _mm256_andnot_si256(_mm256_cmpeq_epi64(a, b), m)
    }
    /// The lanes of `m` where `a == b`.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn eq_in(m: M, a: V, b: V) -> M {
        _mm256_and_si256(_mm256_cmpeq_epi64(a, b), m)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn eq(a: V, b: V) -> M {
        _mm256_cmpeq_epi64(a, b)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn gt(a: V, b: V) -> M {
        _mm256_cmpgt_epi64(a, b)
    }
    /// `b` in the lanes of `m`, `a` in the others.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn blend(a: V, m: M, b: V) -> V {
        _mm256_castpd_si256(_mm256_blendv_pd(
            _mm256_castsi256_pd(a),
            _mm256_castsi256_pd(b),
            _mm256_castsi256_pd(m),
        ))
    }
    /// `a ^ b` in the lanes of `m`, `a` in the others.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn xor_in(a: V, m: M, b: V) -> V {
        xor(a, and(m, b))
    }
    /// `a + b` in the lanes of `m`, `a` in the others.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn add_in(a: V, m: M, b: V) -> V {
        add(a, and(m, b))
    }
    /// `a & !b`.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn mandn(a: M, b: M) -> M {
        _mm256_andnot_si256(b, a)
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn any(m: M) -> bool {
        _mm256_testz_si256(m, m) == 0
    }
    /// Lane `i` of the mask as bit `i`.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn bits(m: M) -> u8 {
        _mm256_movemask_pd(_mm256_castsi256_pd(m)) as u8
    }
    /// The mask of the lanes whose bits are set.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn from_bits(b: u8) -> M {
        let lanes = _mm256_setr_epi64x(1, 2, 4, 8);
        _mm256_cmpeq_epi64(_mm256_and_si256(splat(i64::from(b)), lanes), lanes)
    }
    /// The sum of the lanes.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn sum(a: V) -> u64 {
        let mut x = [0i64; 8];
        store(a, &mut x);
        x.iter().map(|&v| v as u64).sum()
    }
    /// The first four values of `x`.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn load(x: &[i64; 8]) -> V {
        // SAFETY: reads 4 of the 8 values of `x`.
        unsafe { _mm256_loadu_si256(x.as_ptr().cast()) }
    }
    /// Writes the lanes to the first four values of `x`.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn store(v: V, x: &mut [i64; 8]) {
        // SAFETY: writes 4 of the 8 values of `x`.
        unsafe { _mm256_storeu_si256(x.as_mut_ptr().cast(), v) }
    }

    /// The first 32 values of `values`, cut to 32 bits, as a [`Table`] (the lanes kernel's
    /// tables hold board rows of at most 32 columns, shifts, and all-ones masks whose upper
    /// half nothing needs), with 0 for row 0: the search never looks up row 0 (it looks up the
    /// rows below a lane's root, and its root row is at least 3), so [`lookup`] reads the
    /// upper half of every lane from there.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn table<T: Copy + Into<u64>>(values: &[T; 64]) -> Table {
        let mut t = [[0i32; 8]; 4];
        for (i, &v) in values[..32].iter().enumerate().skip(1) {
            t[i / 8][i % 8] = v.into() as u32 as i32;
        }
        // SAFETY: each load reads the 8 values of one array.
        t.map(|x| unsafe { _mm256_loadu_si256(x.as_ptr().cast()) })
    }

    /// The row tables, per lane: the entry of row `idx` (1 to 31) of the 32 (`BIG`) or 16 rows
    /// in `t`: `vpermd` of each vector of eight, and 32-bit blends by bits 3 and 4 of the row
    /// (the upper half of each lane has index 0, and keeps the first vector's entry 0, which is
    /// 0).
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn lookup<const BIG: bool>(t: Table, idx: V) -> V {
        let pick = |a: V, b: V, sign: V| {
            _mm256_castps_si256(_mm256_blendv_ps(
                _mm256_castsi256_ps(a),
                _mm256_castsi256_ps(b),
                _mm256_castsi256_ps(sign),
            ))
        };
        let r = pick(
            _mm256_permutevar8x32_epi32(t[0], idx),
            _mm256_permutevar8x32_epi32(t[1], idx),
            _mm256_slli_epi32::<28>(idx),
        );
        if BIG {
            let high = pick(
                _mm256_permutevar8x32_epi32(t[2], idx),
                _mm256_permutevar8x32_epi32(t[3], idx),
                _mm256_slli_epi32::<28>(idx),
            );
            pick(r, high, _mm256_slli_epi32::<27>(idx))
        } else {
            r
        }
    }

    /// The bits of each byte, by a nibble table (`vpshufb`).
    #[inline]
    #[target_feature(enable = "avx2")]
    fn bytes(v: V) -> V {
        let table = _mm256_setr_epi8(
            0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2,
            3, 3, 4,
        );
        let low = _mm256_set1_epi8(0x0f);
        _mm256_add_epi8(
            _mm256_shuffle_epi8(table, _mm256_and_si256(v, low)),
            _mm256_shuffle_epi8(table, _mm256_and_si256(_mm256_srli_epi16::<4>(v), low)),
        )
    }
    /// `a` in the lower half of each lane, `b` in the upper (both below 2^32).
    #[inline]
    #[target_feature(enable = "avx2")]
    fn pair(a: V, b: V) -> V {
        or(a, slli::<32>(b))
    }
    /// The sum of the byte counts of each lane.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn sad(b: V) -> V {
        _mm256_sad_epu8(b, _mm256_setzero_si256())
    }
    /// The index of the one bit of each lane (a lane of `bit` with one bit set, below 2^32):
    /// the exponent of the lower half of the lane converted to a float, less 127, mod 32 (bit
    /// 31 converts to -2^31).
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn index(bit: V) -> V {
        let e = srli::<23>(_mm256_castps_si256(_mm256_cvtepi32_ps(bit)));
        and(sub(e, splat(127)), splat(31))
    }
    /// `popcount(a) * popcount(b)` per lane (`a`, `b` below 2^32).
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn pop_product(a: V, b: V) -> V {
        let halves = _mm256_madd_epi16(
            _mm256_maddubs_epi16(bytes(pair(a, b)), _mm256_set1_epi8(1)),
            _mm256_set1_epi16(1),
        );
        _mm256_mul_epu32(halves, srli::<32>(halves))
    }
    /// The popcounts of `a`, `b` and `c` added, per lane (each below 2^32; with `NARROW`, each
    /// below 2^21, so that the three fit in one lane and are counted at once).
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn pop_sum3<const NARROW: bool>(a: V, b: V, c: V) -> V {
        if NARROW {
            sad(bytes(or(or(a, slli::<21>(b)), slli::<42>(c))))
        } else {
            sad(_mm256_add_epi8(bytes(pair(a, b)), bytes(c)))
        }
    }
    /// The popcounts of five values added, per lane (each below 2^32).
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn pop_sum5(a: V, b: V, c: V, d: V, e: V) -> V {
        sad(_mm256_add_epi8(
            _mm256_add_epi8(bytes(pair(a, b)), bytes(pair(c, d))),
            bytes(e),
        ))
    }
}

/// The lanes' search, compiled once per build: its vector operations (module `$v`), its target
/// features (`$attr`).
macro_rules! lanes_kernel {
    ($name:ident, $refill:ident, $v:ident, $attr:meta, $refill_attr:meta) => {
        #[cfg(target_arch = "x86_64")]
        /// Gives each lane of `done` the next root, or makes it inactive when there is none
        /// (compiled with the vector features alone, so that it stays out of line and the search
        /// keeps its lanes in registers).
        #[$refill_attr]
        #[inline(never)]
        fn $refill<const KNIGHT: bool>(
            l: &mut Lanes<$v::V, $v::M>,
            done: u8,
            roots: &mut Roots<'_, KNIGHT>,
        ) {
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
                $v::store(*v, out);
            }
            let mut active = $v::bits(l.active);
            for lane in 0..$v::LANES {
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
                            1,
                            d,
                            leaps,
                            free,
                        ];
                        for (x, v) in a.iter_mut().zip(values) {
                            x[lane] = v;
                        }
                        active |= 1 << lane;
                    }
                    None => {
                        a[1][lane] = 0;
                        active &= !(1 << lane);
                    }
                }
            }
            l.d = $v::load(&a[0]);
            l.free = $v::load(&a[1]);
            l.cols = $v::load(&a[2]);
            l.diag = $v::load(&a[3]);
            l.anti = $v::load(&a[4]);
            l.leaps = $v::load(&a[5]);
            l.stack = $v::load(&a[6]);
            l.base = $v::load(&a[7]);
            l.base_leaps = $v::load(&a[8]);
            l.base_free = $v::load(&a[9]);
            l.active = $v::from_bits(active);
        }

        #[cfg(target_arch = "x86_64")]
        #[$attr]
        fn $name<const BIG: bool, const KNIGHT: bool, const NARROW: bool>(
            rows: &Rows,
            stop: &dyn Fn() -> bool,
        ) -> Option<u64> {
            use $v as v;

            let m = rows.len;
            let bottom = m - 3;
            let row_tab = v::table(&rows.allowed);
            let shift_tab = v::table(&rows.shift);
            let k_tab = v::table(&rows.k);
            let leap_tab = v::table(&rows.leap);
            let leap2_tab = v::table(&rows.leap2);
            let zero = v::zero();
            let one = v::splat(1);
            let two = v::splat(2);
            let low5 = v::splat(31);
            let bottom_v = v::splat(bottom as i64);
            let last_row = v::splat(rows.allowed[m - 1] as i64);
            let last_s = v::splat(i64::from(rows.shift[m - 1]));
            let last_k = v::splat(i64::from(rows.k[m - 1]));
            let last_leap = v::splat(rows.leap[m - 1] as i64);
            let mut roots = Roots::<KNIGHT>::new(rows, root_level(m));
            // Called through a pointer, so that it stays out of the loop.
            let refill: fn(&mut Lanes<v::V, v::M>, u8, &mut Roots<'_, KNIGHT>) =
                std::hint::black_box($refill::<KNIGHT>);
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
                active: v::from_bits(0),
            };
            let mut total = zero;
            let mut done = v::from_bits(0xff);
            // The knight leaps of a piece `b` one column either side, onto a row where `mask`
            // says a leap of one column reaches.
            let beside =
                |b: v::V, mask: v::V| v::and(v::or(v::slli::<1>(b), v::srli::<1>(b)), mask);
            loop {
                if v::any(done) {
                    if stop() {
                        return None;
                    }
                    refill(&mut l, v::bits(done), &mut roots);
                    if !v::any(l.active) {
                        break;
                    }
                }
                let has = v::ne_in(l.active, l.free, zero);
                let back = v::mandn(l.active, has);
                // Down (or along the bottom row): place the lowest cell left.
                let bit = v::and(l.free, v::sub(zero, l.free));
                let idx = v::index(bit);
                let d1 = v::add(l.d, one);
                let row1 = v::lookup::<BIG>(row_tab, d1);
                let s1 = v::lookup::<BIG>(shift_tab, d1);
                let cols1 = v::or(l.cols, bit);
                let diag1 = v::sllv(v::or(l.diag, bit), s1);
                let anti1 = v::srlv(v::or(l.anti, v::slli::<32>(bit)), s1);
                let mut blocked = v::or(v::or(cols1, diag1), v::srli::<32>(anti1));
                let mut leaps1 = zero;
                if KNIGHT {
                    let k1 = v::lookup::<BIG>(k_tab, d1);
                    let leap1 = v::lookup::<BIG>(leap_tab, d1);
                    let near = v::or(v::sllv(bit, k1), v::srlv(bit, k1));
                    blocked = v::or(blocked, v::or(l.leaps, v::and(near, leap1)));
                    let d2 = v::add(l.d, two);
                    leaps1 = beside(bit, v::lookup::<BIG>(leap2_tab, d2));
                }
                let cells = v::andnot(blocked, row1);
                // The last two free rows, as the scalar tail: |cells| |f| less the shared
                // columns, diagonals (and leaps); kept only in the lanes on the bottom row.
                let at_bottom = v::eq_in(has, l.d, bottom_v);
                let mut blocked2 = v::or(
                    v::or(cols1, v::sllv(diag1, last_s)),
                    v::srli::<32>(v::srlv(anti1, last_s)),
                );
                if KNIGHT {
                    blocked2 = v::or(blocked2, leaps1);
                }
                let f = v::andnot(blocked2, last_row);
                let same = v::and(f, cells);
                let left = v::and(f, v::sllv(cells, last_s));
                let right = v::and(f, v::srlv(cells, last_s));
                let lost = if KNIGHT {
                    let fl = v::and(f, last_leap);
                    v::pop_sum5(
                        same,
                        left,
                        right,
                        v::and(fl, v::sllv(cells, last_k)),
                        v::and(fl, v::srlv(cells, last_k)),
                    )
                } else {
                    v::pop_sum3::<NARROW>(same, left, right)
                };
                let pairs = v::pop_product(cells, f);
                total = v::add_in(total, at_bottom, v::sub(pairs, lost));
                let down = v::ne_in(v::mandn(has, at_bottom), cells, zero);
                let along = v::mandn(has, down);
                // Up: undo the column on top of the stack.
                // A lane's stack holds a marker bit above its columns: 1 alone at its root.
                // (Queens test that, which frees the register of the root rows.)
                let finished = if KNIGHT {
                    v::eq_in(back, l.d, l.base)
                } else {
                    v::eq_in(back, l.stack, one)
                };
                let up = v::mandn(back, finished);
                let popped = v::srli::<5>(l.stack);
                let ub = v::sllv(one, v::and(l.stack, low5));
                let s0 = v::lookup::<BIG>(shift_tab, l.d);
                let d0 = v::sub(l.d, one);
                let row0 = v::lookup::<BIG>(row_tab, d0);
                let cols0 = v::xor(l.cols, ub);
                let diag0 = v::xor(v::srlv(l.diag, s0), ub);
                let anti0 = v::xor(v::sllv(l.anti, s0), v::slli::<32>(ub));
                let mut blocked0 = v::or(v::or(cols0, diag0), v::srli::<32>(anti0));
                let mut leaps0 = zero;
                let mut at_root = v::from_bits(0);
                if KNIGHT {
                    // The pieces of the two rows above d0 (the next two columns on the stack;
                    // above the root, the root's leaps stand for them, and the root's cells for
                    // row d0 itself).
                    let b1 = v::sllv(one, v::and(popped, low5));
                    let b2 = v::sllv(one, v::and(v::srli::<5>(popped), low5));
                    at_root = v::eq(d0, l.base);
                    let two_up = v::gt(d0, v::add(l.base, one));
                    let k0 = v::lookup::<BIG>(k_tab, d0);
                    let near = v::or(v::sllv(b1, k0), v::srlv(b1, k0));
                    let onto_d0 = v::blend(
                        l.base_leaps,
                        two_up,
                        beside(b2, v::lookup::<BIG>(leap2_tab, d0)),
                    );
                    blocked0 = v::or(
                        blocked0,
                        v::or(v::and(near, v::lookup::<BIG>(leap_tab, d0)), onto_d0),
                    );
                    leaps0 = v::blend(
                        beside(b1, v::lookup::<BIG>(leap2_tab, l.d)),
                        at_root,
                        l.base_leaps,
                    );
                }
                let mut avail = v::andnot(blocked0, row0);
                if KNIGHT {
                    avail = v::blend(avail, at_root, l.base_free);
                }
                let free0 = v::and(avail, v::sub(zero, v::slli::<1>(ub)));
                // Keep one move per lane.
                let mut free = v::xor_in(l.free, along, bit);
                free = v::blend(free, down, cells);
                l.free = v::blend(free, up, free0);
                let pick = |now: v::V, below: v::V, above: v::V| {
                    v::blend(v::blend(now, down, below), up, above)
                };
                l.cols = pick(l.cols, cols1, cols0);
                l.diag = pick(l.diag, diag1, diag0);
                l.anti = pick(l.anti, anti1, anti0);
                if KNIGHT {
                    l.leaps = pick(l.leaps, leaps1, leaps0);
                }
                l.d = pick(l.d, d1, d0);
                let pushed = v::or(v::slli::<5>(l.stack), idx);
                l.stack = pick(l.stack, pushed, popped);
                done = finished;
            }
            Some(v::sum(total))
        }
    };
}

lanes_kernel!(
    count_vp,
    refill_vp,
    x8vp,
    target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx512f,avx512dq,avx512vpopcntdq"),
    target_feature(enable = "avx512f")
);
lanes_kernel!(
    count_bw,
    refill_bw,
    x8bw,
    target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx512f,avx512dq,avx512bw"),
    target_feature(enable = "avx512f")
);
lanes_kernel!(
    count_x4,
    refill_x4,
    x4,
    target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2"),
    target_feature(enable = "avx2")
);
