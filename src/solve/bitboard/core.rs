//! The board the search runs on: the presolved problem's open rows and open columns as a core
//! of `k` rows, whatever the side `n` of the big board (a completion of n = 5,500 with 21 rows
//! left is a core of 21). Each core row keeps the columns it may still take as the bits of one
//! [`Row`] word (`u64` up to 64 columns, `u128` up to 128).
//!
//! A column's bit is its position (its big-board column less the first open column) when the
//! open columns span at most the word, else its rank among the open columns. The search
//! computes a piece's attacks on another core row in one of two ways ([`Geometry`]):
//! - [`Shift`]: when the open rows are consecutive and the bits are positions, the big board's
//!   diagonals (and knight leaps) are shifts of the core's, as on a plain board;
//! - [`Table`]: any core. The attacked columns come from a table over the big board's columns
//!   ([`Core::table_hit`]), at the big board's row distance.
//!
//! The diagonal keys of the sum bounds are the big board's keys moved down by one common
//! offset: sum keys `r + c` as `(r - r0) + (c - c0)`, difference keys as `(c - c0) + (r_last -
//! r)`, which keeps every sum and every parity ([`Core::keys_fit`]). They need the bits to be
//! positions.

use std::fmt::Debug;
use std::ops::{Index, IndexMut};

use crate::board::Cell;
use crate::piece::Shape;
use crate::presolve::Problem;
use crate::solve::keys::Keys;

/// A core row's columns as bits: what the search needs of its row word, beyond what the key
/// sets of the sum bounds need of theirs ([`Keys`]: the same two integer types).
pub(super) trait Row: Keys + Send + Sync + 'static {
    /// Every core row's word, indexed by core row.
    type Masks: Copy
        + Debug
        + Send
        + Sync
        + Index<usize, Output = Self>
        + IndexMut<usize, Output = Self>
        + AsRef<[Self]>;
    /// Masks with no column.
    const EMPTY: Self::Masks;

    /// Column `j` alone.
    fn bit(j: u32) -> Self;
    /// The columns below 64, as one word.
    fn low_word(self) -> u64;
}

macro_rules! row {
    ($t:ty) => {
        impl Row for $t {
            type Masks = [$t; <$t>::BITS as usize];
            const EMPTY: Self::Masks = [0; <$t>::BITS as usize];

            #[inline(always)]
            fn bit(j: u32) -> Self {
                1 << j
            }
            #[inline(always)]
            fn low_word(self) -> u64 {
                self as u64
            }
        }
    };
}

row!(u64);
row!(u128);

/// The open rows and columns of a presolved problem, as the search sees them.
#[derive(Clone, Debug)]
pub(super) struct Core<M: Row> {
    /// The side of the big board.
    pub n: u32,
    /// The big board's row of each core row, ascending.
    pub rows: Vec<u32>,
    /// Each core row's distance from the first (`rows[i] - rows[0]`).
    pub pos: Vec<u32>,
    /// The big board's column of each bit (`u32::MAX`: no open column).
    pub col_of_bit: Vec<u32>,
    /// The live cells of each core row.
    pub masks: M::Masks,
    /// The open columns.
    pub cols_free: M,
    /// Whether the bits are positions (big column less the first open column).
    pub positions: bool,
    /// Whether the open rows are consecutive and the bits positions: [`Shift`] applies.
    pub shifts: bool,
    /// The last core row's distance from the first, and (positions) the last open column's.
    pub row_span: u32,
    pub col_span: u32,
    /// The bit of each big column `c` at `lut[n + c]` (none elsewhere): [`Core::table_hit`].
    lut: Vec<M>,
}

impl<M: Row> Core<M> {
    /// The core of `problem` (presolved, not refuted), when its open columns fit a word of
    /// `M` (as positions or as ranks).
    pub fn new(problem: &Problem) -> Option<Core<M>> {
        let n = problem.n as usize;
        let (row_taken, col_taken) = taken(problem);
        let rows: Vec<u32> = (0..n as u32).filter(|&r| !row_taken[r as usize]).collect();
        let cols: Vec<u32> = (0..n as u32).filter(|&c| !col_taken[c as usize]).collect();
        if cols.len() > M::BITS as usize || rows.len() > M::BITS as usize {
            return None;
        }
        let (r0, c0) = (rows.first().copied(), cols.first().copied());
        let row_span = rows.last().map_or(0, |&r| r - r0.unwrap_or(0));
        let col_span = cols.last().map_or(0, |&c| c - c0.unwrap_or(0));
        let positions = col_span < M::BITS;
        let mut col_of_bit = vec![u32::MAX; M::BITS as usize];
        // The bit of each big column (u32::MAX: not open).
        let mut bit_of_col = vec![u32::MAX; n];
        for (j, &c) in cols.iter().enumerate() {
            let bit = if positions { c - cols[0] } else { j as u32 };
            col_of_bit[bit as usize] = c;
            bit_of_col[c as usize] = bit;
        }
        let mut row_of = vec![u32::MAX; n];
        for (i, &r) in rows.iter().enumerate() {
            row_of[r as usize] = i as u32;
        }
        let mut masks = M::EMPTY;
        for (cell, _) in problem.varmap.cells() {
            let (i, bit) = (row_of[cell.row as usize], bit_of_col[cell.col as usize]);
            debug_assert!(i != u32::MAX && bit != u32::MAX, "a live cell is open");
            masks[i as usize] |= M::bit(bit);
        }
        let cols_free = cols
            .iter()
            .fold(M::ZERO, |m, &c| m | M::bit(bit_of_col[c as usize]));
        let mut lut = vec![M::ZERO; 3 * n];
        for (c, &bit) in bit_of_col.iter().enumerate() {
            if bit != u32::MAX {
                lut[n + c] = M::bit(bit);
            }
        }
        let pos: Vec<u32> = rows.iter().map(|&r| r - rows[0]).collect();
        let consecutive = pos.iter().enumerate().all(|(i, &p)| p == i as u32);
        Some(Core {
            n: problem.n,
            rows,
            pos,
            col_of_bit,
            masks,
            cols_free,
            positions,
            shifts: positions && consecutive,
            row_span,
            col_span,
            lut,
        })
    }

    /// The number of core rows (and of open columns).
    pub fn k(&self) -> usize {
        self.rows.len()
    }

    /// The big board's cell of core row `i`, bit `bit`.
    pub fn cell(&self, i: usize, bit: u32) -> Cell {
        Cell::new(self.rows[i], self.col_of_bit[bit as usize])
    }

    /// Whether key sets of `bits` bits hold the sum and difference keys of every cell (the
    /// bits are positions, and each kind spans `row_span + col_span + 1` keys; a row's keys
    /// are its word moved by less than 64).
    pub fn keys_fit(&self, bits: u32) -> bool {
        self.positions
            && self.row_span < 64
            && self.col_span < 64
            && self.row_span + self.col_span < bits
    }

    /// The columns of core row `to` that a piece of `shape` on core row `from`, column `bit` (a
    /// single bit), attacks, at the big board's distances: the table kernel ([`Table`]).
    #[inline(always)]
    pub fn table_hit(&self, shape: Shape, bit: M, from: usize, to: usize) -> M {
        let c = self.n as usize + self.col_of_bit[bit.trailing_zeros() as usize] as usize;
        let d = self.rows[to].abs_diff(self.rows[from]) as usize;
        let mut hit = bit | self.lut[c + d] | self.lut[c - d];
        if shape == Shape::Amazon && d <= 2 {
            // A knight leap one row away moves 2 columns, two rows away 1.
            let k = 3 - d;
            hit |= self.lut[c + k] | self.lut[c - k];
        }
        hit
    }
}

/// How the search computes a piece's attacks on the other core rows, and a core row's
/// distance from the first: one build of the search each.
pub(super) trait Geometry<M: Row> {
    /// The columns of core row `to` attacked by a piece of `shape` on core row `from`, column
    /// `bit` (a single bit).
    fn hit(core: &Core<M>, shape: Shape, bit: M, from: usize, to: usize) -> M;
    /// Core row `i`'s distance from the first ([`Core::pos`]).
    fn pos(core: &Core<M>, i: usize) -> u32;
}

/// The shift kernel: consecutive open rows, bits as positions ([`Core::shifts`]).
pub(super) struct Shift;

/// The table kernel: any core.
pub(super) struct Table;

impl<M: Row> Geometry<M> for Shift {
    #[inline(always)]
    fn hit(_: &Core<M>, shape: Shape, bit: M, from: usize, to: usize) -> M {
        shift_hit(shape, bit, from.abs_diff(to) as u32)
    }
    #[inline(always)]
    fn pos(_: &Core<M>, i: usize) -> u32 {
        i as u32
    }
}

impl<M: Row> Geometry<M> for Table {
    #[inline(always)]
    fn hit(core: &Core<M>, shape: Shape, bit: M, from: usize, to: usize) -> M {
        core.table_hit(shape, bit, from, to)
    }
    #[inline(always)]
    fn pos(core: &Core<M>, i: usize) -> u32 {
        core.pos[i]
    }
}

/// The columns of a row `d >= 1` rows away that a piece of `shape` on the column `bit` (a
/// single bit) attacks, on a board whose columns are the bits: [`Shape::attacks`] from the bit
/// itself, without the column index and the board-edge tests (bits past the board fall off the
/// end or land on columns no mask holds). Measured against calling [`Shape::attacks`] in the
/// search: 3-4 % less time on three excluded-diagonal instances n = 26 (7.36 against 7.59 s
/// user, 3 runs each, the same nodes).
#[inline(always)]
pub(super) fn shift_hit<M: Row>(shape: Shape, bit: M, d: u32) -> M {
    let mut hit = bit | bit << d | bit >> d;
    if shape == Shape::Amazon && d <= 2 {
        // A knight leap one row away moves 2 columns, two rows away 1.
        let k = 3 - d;
        hit |= bit << k | bit >> k;
    }
    hit
}

/// A job on a core of either row word: [`with_core`] calls it with the core it builds.
pub(super) trait OnCore {
    /// What the job returns.
    type Out;
    /// Runs the job on `core`.
    fn run<M: Row>(self, core: Core<M>) -> Self::Out;
}

/// Runs `job` on the core of `problem` (presolved, not refuted, of at most 128 open rows), on
/// one-word rows where they hold it, two-word rows elsewhere or when `wide`.
pub(super) fn with_core<J: OnCore>(problem: &Problem, wide: bool, job: J) -> J::Out {
    if !wide && let Some(core) = Core::<u64>::new(problem) {
        return job.run(core);
    }
    let core = Core::<u128>::new(problem).expect("a core of at most 128 rows fits two words");
    job.run(core)
}

/// Whether the core of `problem` is of the diagonal family: some cell of an open row and an
/// open column is not live, and no blocked cell lies in one, so that what closes its cells
/// is excluded diagonals and pre-placed pieces (a queen closes her whole diagonals), and what
/// presolve deduced from them. Excluded-diagonal instances and completions are, blocked boards
/// are not (a blocked cell in a row or column a pre-placed piece closes does not count). The
/// family where the search's sum bounds cut most
/// ([`super::Words::Family`]) and where the default strategy splits the search over every core
/// (`crate::solve::strategy`).
///
/// ```
/// use queens_sat::{generate::Generator, instance::Instance, piece::QUEEN, presolve::Problem};
/// use queens_sat::solve::bitboard::diagonal_family;
/// for to_completion in [false, true] {
///     let g = Generator::Diagonals { min_free: 1, diags: Some(12), to_completion };
///     let p = Problem::presolve(&g.instance(12, 1).unwrap(), QUEEN).unwrap();
///     assert!(diagonal_family(&p));
/// }
/// assert!(!diagonal_family(&Problem::presolve(&Instance::plain(8), QUEEN).unwrap()));
/// ```
pub fn diagonal_family(problem: &Problem) -> bool {
    let (row_taken, col_taken) = taken(problem);
    let k = core_rows(problem) as u64;
    let in_core = |c: &Cell| !row_taken[c.row as usize] && !col_taken[c.col as usize];
    problem.num_cells() < k * k && !problem.instance.blocked.iter().any(in_core)
}

/// The rows and the columns the fixed pieces of `problem` take (indexed by row, by column).
fn taken(problem: &Problem) -> (Vec<bool>, Vec<bool>) {
    let n = problem.n as usize;
    let (mut rows, mut cols) = (vec![false; n], vec![false; n]);
    for c in &problem.fixed {
        rows[c.row as usize] = true;
        cols[c.col as usize] = true;
    }
    (rows, cols)
}

/// The number of open rows of `problem`'s core: the rows no fixed piece takes (fixed pieces
/// are deduplicated and, in a problem presolve did not refute, on distinct rows).
pub(super) fn core_rows(problem: &Problem) -> usize {
    (problem.n as usize).saturating_sub(problem.fixed.len())
}
