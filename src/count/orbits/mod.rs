//! Counting the boards a rotation maps to themselves from the rotation's orbits, not from the
//! board search (issue 62; the facts behind it in docs/symmetric.md).
//!
//! A board fixed by the quarter turn (n = 4k, or 4k + 1 with the centre) is k orbits of four
//! pieces. The rows pair up as {x, n-1-x}; an orbit joins two row pairs {a, b} (a, b < n/2,
//! the *couple*), and both of its two orientations occupy the same diagonals: the diagonal values
//! c - r of its four pieces are ±(b - a) and ±(n-1-a-b), and so are its anti-diagonal values
//! r + c - (n-1). A board fixed by the half turn takes, for each row i < n/2, a column j, and
//! row n-1-i takes n-1-j; the pair uses the column pair {j, n-1-j}, the diagonal values ±(j - i)
//! and the anti-diagonal values ±(i + j - (n-1)) (odd n: the centre cell is forced).
//!
//! Two independent formulations count the same [`Problem`]:
//! - [`pairs`]: by rows (the quarter turn: a matching of the row pairs, the most constrained row
//!   first, bit-parallel partner sets; the half turn: the row-by-row bitboard search from the
//!   outside in);
//! - [`values`]: by diagonal values (each value, largest first, unused or given to one couple /
//!   row), sharing no code with [`pairs`].
//!
//! A [`Problem`] may hold pre-placed pieces: each stands for its whole orbit. That is how a
//! count is cut into pieces ([`pairs::pieces`]) that either formulation recounts.

// `pairs` (the by-rows formulation) is restored on merge; this branch holds `values` alone.
// pub(crate) mod pairs;
pub(crate) mod values;

use crate::board::Cell;

/// Which rotation fixes the boards counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Turn {
    /// The quarter turn (r90; r270 fixes the same boards).
    Quarter,
    /// The half turn (r180).
    Half,
}

/// One count of rotation-fixed boards: a plain `n x n` board, queens or amazons, with
/// pre-placed pieces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Problem {
    /// Board side.
    pub(crate) n: u32,
    /// The rotation.
    pub(crate) turn: Turn,
    /// Amazons (queen + knight) when true, queens otherwise.
    pub(crate) knight: bool,
    /// Pre-placed pieces; each stands for its whole orbit under the rotation. Pieces that
    /// attack each other (or whose orbits do) give a count of 0.
    pub(crate) placed: Vec<Cell>,
}

impl Turn {
    /// The largest board either formulation counts under this rotation: the quarter turn keeps
    /// the n/2 row pairs in a `u64` and the values (below n) in a `u128`, so n <= 129; the half
    /// turn's bitboard search keeps a diagonal's 2n - 1 shifted columns in a `u128`, so n <= 64.
    pub(crate) fn max_n(self) -> u32 {
        match self {
            Turn::Quarter => 129,
            Turn::Half => 64,
        }
    }
}
