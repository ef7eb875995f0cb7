//! The brute-force oracle, the one copy every test file uses: it places one piece per row by
//! backtracking and tests attacks with its own geometry. It knows nothing of the crate's pieces,
//! presolve, encodings or counters; it reads an [`Instance`]'s data fields only (and expands
//! excluded diagonals with its own formula).

use std::collections::BTreeSet;

use queens_sat::instance::Instance;
use queens_sat::piece::LineKind;

use super::{Cell, Plain};

/// How a piece attacks, written out independently of `queens_sat::piece`: the directions of the
/// lines it rides along (any distance, both ways) and its leap offsets.
#[derive(Clone, Copy, Debug)]
pub struct Attacks {
    /// Line directions `(d_row, d_col)`.
    pub lines: &'static [Cell],
    /// Leap offsets `(d_row, d_col)`; the oracle adds the negations itself.
    pub leaps: &'static [Cell],
}

/// Row direction.
pub const ROW: Cell = (0, 1);
/// Column direction.
pub const COLUMN: Cell = (1, 0);
/// Difference-diagonal direction.
pub const DIAGONAL: Cell = (1, 1);
/// Sum-diagonal direction.
pub const ANTI_DIAGONAL: Cell = (1, -1);

/// The queen: rows, columns and both diagonals.
pub const QUEEN: Attacks = Attacks {
    lines: &[ROW, COLUMN, DIAGONAL, ANTI_DIAGONAL],
    leaps: &[],
};

/// The amazon: a queen that also leaps like a knight.
pub const AMAZON: Attacks = Attacks {
    lines: &[ROW, COLUMN, DIAGONAL, ANTI_DIAGONAL],
    leaps: &[(1, 2), (2, 1), (1, -2), (2, -1)],
};

impl Attacks {
    /// The oracle's own table for a piece the crate names (`queen`, `amazon`).
    pub fn named(name: &str) -> Attacks {
        match name {
            "queen" => QUEEN,
            "amazon" => AMAZON,
            other => panic!("the oracle has no table for piece {other:?}"),
        }
    }

    /// Whether pieces on `a` and `b` attack each other.
    pub fn attack(&self, a: Cell, b: Cell) -> bool {
        let (dr, dc) = (b.0 - a.0, b.1 - a.1);
        if (dr, dc) == (0, 0) {
            return false;
        }
        self.lines.iter().any(|&(x, y)| dr * y == dc * x)
            || self
                .leaps
                .iter()
                .any(|&(x, y)| (x, y) == (dr, dc) || (-x, -y) == (dr, dc))
    }
}

impl Plain {
    /// The oracle's view of an [`Instance`]: blocked cells plus the cells of its excluded
    /// diagonals (difference kind: `r - c + n - 1 = key`; sum kind: `r + c = key`).
    pub fn from_instance(inst: &Instance) -> Plain {
        let n = i64::from(inst.n);
        let mut blocked: BTreeSet<Cell> = inst
            .blocked
            .iter()
            .map(|c| (i64::from(c.row), i64::from(c.col)))
            .collect();
        for e in &inst.excluded {
            let key = i64::from(e.key);
            for r in 0..n {
                for c in 0..n {
                    let on = match e.kind {
                        LineKind::Diagonal => r - c + n - 1 == key,
                        LineKind::AntiDiagonal => r + c == key,
                        other => panic!("excluded {other:?} line"),
                    };
                    if on {
                        blocked.insert((r, c));
                    }
                }
            }
        }
        Plain {
            n,
            placed: inst
                .placed
                .iter()
                .map(|c| (i64::from(c.row), i64::from(c.col)))
                .collect(),
            blocked,
        }
    }
}

/// Calls `f` with every solution of `inst` (cells in row order): one piece per row, none on a
/// blocked cell, every pre-placed piece included, no two attacking. The piece must attack along
/// rows (the search places one per row).
pub fn for_each_solution(inst: &Plain, attacks: &Attacks, mut f: impl FnMut(&[Cell])) {
    assert!(
        attacks.lines.contains(&ROW),
        "the oracle places one piece per row: the piece must attack along rows"
    );
    fn go(
        r: i64,
        inst: &Plain,
        attacks: &Attacks,
        cur: &mut Vec<Cell>,
        f: &mut dyn FnMut(&[Cell]),
    ) {
        if r == inst.n {
            if inst.placed.iter().all(|p| cur.contains(p)) {
                f(cur);
            }
            return;
        }
        for c in 0..inst.n {
            if inst.blocked.contains(&(r, c))
                || inst.placed.iter().any(|&(pr, pc)| pr == r && pc != c)
                || cur.iter().any(|&q| attacks.attack(q, (r, c)))
            {
                continue;
            }
            cur.push((r, c));
            go(r + 1, inst, attacks, cur, f);
            cur.pop();
        }
    }
    go(0, inst, attacks, &mut Vec::new(), &mut f);
}

/// Every solution of `inst`, each as its cells in row order.
pub fn solutions(inst: &Plain, attacks: &Attacks) -> BTreeSet<Vec<Cell>> {
    let mut out = BTreeSet::new();
    for_each_solution(inst, attacks, |s| {
        out.insert(s.to_vec());
    });
    out
}

/// Number of solutions of `inst`.
pub fn count(inst: &Plain, attacks: &Attacks) -> u64 {
    let mut n = 0;
    for_each_solution(inst, attacks, |_| n += 1);
    n
}

/// Asserts that `board` is one of the oracle's `solutions` (`what` names the case).
#[allow(dead_code)]
pub fn assert_among(
    solutions: &BTreeSet<Vec<(u32, u32)>>,
    board: &queens_sat::board::Board,
    what: &str,
) {
    let cells: Vec<(u32, u32)> = board.pieces.iter().map(|c| (c.row, c.col)).collect();
    assert!(
        solutions.contains(&cells),
        "{what}: {cells:?} is not a solution"
    );
}

/// Every solution of `inst` for the crate's piece named `piece`, cells as `(row, col)` pairs of
/// `u32` (the crate's coordinates).
pub fn instance_solutions(inst: &Instance, piece: &str) -> BTreeSet<Vec<(u32, u32)>> {
    solutions(&Plain::from_instance(inst), &Attacks::named(piece))
        .into_iter()
        .map(|s| s.into_iter().map(|(r, c)| (r as u32, c as u32)).collect())
        .collect()
}
