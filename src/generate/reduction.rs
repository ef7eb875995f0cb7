//! The reduction from excluded diagonals to n-queens completion of Gent, Jefferson and
//! Nightingale, "Complexity of n-Queens Completion" (JAIR 59, 2017), as implemented in csplib
//! prob079 `diagtoqueens.py`.
//!
//! Two steps, with cells read as `(row, col)`:
//!
//! 1. **Excluded diagonals -> "problem 3"** (`reduce4to3`): on a board of side `n3 = 7n - 3`
//!    the source board sits at rows `3n-2 .. 4n-3`, columns `0 .. n-1`. An excluded
//!    difference diagonal `r - c = d` becomes a queen at `(6n-3-d, 3n-1-2d)`, an excluded sum
//!    diagonal `r + c = d` a queen at `(2n-2-d, n+2d)`: each attacks exactly its diagonal of
//!    the embedded board and no row or column of it. The queens still to place must use the
//!    embedded rows and columns.
//! 2. **Problem 3 -> completion** (`reduce3to2`): with `p = 2 n3 ± 1` (so `p mod 6` is 1 or 5)
//!    the board becomes `19p + m3` (`m3` = queens of problem 3, placed or not), tiled by
//!    `p x p` blocks that follow a 19-queens pattern; each block holds the modular solution
//!    `(i, 2i mod p)` (or its transpose). The blocks in block-column 0 and block-row 0 leave
//!    out the lines of problem 3, and two strips of `m3` extra lines take their place. Every
//!    line of the big board except the free rows and columns of problem 3 is then held by a
//!    pre-placed queen, and no pre-placed queen attacks a cell of problem 3's free region.
//!
//! Solutions correspond one to one: a source solution `(r, c)` is the completion solution
//! `(r + 3n - 2, c)` plus all pre-placed queens ([`Reduction::lift`], [`Reduction::project`]).
//!
//! Beyond the script, the source may also have pre-placed queens (they are carried to the
//! embedded board as pre-placed queens, exactly like problem 3 allows) and repeated diagonals
//! (counted once). When the pre-placed queens of problem 3 attack each other the script
//! returns them on the `n3` board, an unsatisfiable completion instance; so does this code.

use crate::board::{Board, Cell};
use crate::error::{Error, Result};
use crate::instance::{ExcludedDiagonal, Instance};
use crate::piece::LineKind;

/// The 19-queens block pattern of `diagtoqueens.py` (block row, block column). Block-column 0
/// and block-row 0 hold the partial blocks, index 19 the extra strips.
const BLOCK_COL0: (u64, u64) = (0, 8);
const BLOCK_COL19: (u64, u64) = (19, 8);
const BLOCK_ROW0: (u64, u64) = (17, 0);
const BLOCK_ROW19: (u64, u64) = (17, 19);
const BLOCKS_REST: [(u64, u64); 17] = [
    (1, 12),
    (2, 17),
    (3, 7),
    (4, 10),
    (5, 15),
    (6, 1),
    (7, 16),
    (8, 13),
    (9, 2),
    (10, 6),
    (11, 18),
    (12, 3),
    (13, 5),
    (14, 11),
    (15, 9),
    (16, 14),
    (18, 4),
];

/// A converted instance and the map between its solutions and the source's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reduction {
    /// The n-queens completion instance (pre-placed queens only).
    pub instance: Instance,
    /// Side of the source board.
    pub source_n: u32,
    /// Source cell `(r, c)` is converted cell `(r + row_offset, c)` (`row_offset = 3n - 2`).
    pub row_offset: u32,
}

impl Reduction {
    /// The completion solution of a source solution: the shifted source queens plus every
    /// pre-placed queen of the converted instance.
    pub fn lift(&self, source: &Board) -> Board {
        let mut pieces = self.instance.placed.clone();
        pieces.extend(
            source
                .pieces
                .iter()
                .map(|q| Cell::new(q.row + self.row_offset, q.col)),
        );
        pieces.sort_unstable();
        pieces.dedup();
        Board::new(self.instance.n, pieces)
    }

    /// The source solution of a completion solution: its queens on the embedded source board,
    /// shifted back.
    pub fn project(&self, converted: &Board) -> Board {
        let rows = self.row_offset..self.row_offset + self.source_n;
        let pieces = converted
            .pieces
            .iter()
            .filter(|q| rows.contains(&q.row) && q.col < self.source_n)
            .map(|q| Cell::new(q.row - self.row_offset, q.col))
            .collect();
        Board::new(self.source_n, pieces)
    }
}

/// Reduces an excluded-diagonals instance (optionally with pre-placed queens) to an n-queens
/// completion instance with the same solutions up to [`Reduction::lift`]. Valid for queens
/// only. Blocked cells cannot be reduced and are an error.
///
/// ```
/// use queens_sat::{generate::reduction::diagonals_to_completion, instance::parse_diags};
/// let src = parse_diags("d", "n = 10\nnumdiags = 2\ndiags = [[4,1],[14,0]]", None).unwrap();
/// let red = diagonals_to_completion(&src).unwrap();
/// // 7n-3 = 67, p = 133, 19p + (n + 2) = 2539; all but n queens pre-placed.
/// assert_eq!(red.instance.n, 2539);
/// assert_eq!(red.instance.placed.len(), 2539 - 10);
/// ```
pub fn diagonals_to_completion(source: &Instance) -> Result<Reduction> {
    if !source.blocked.is_empty() {
        return Err(Error::Usage(format!(
            "the reduction to completion takes excluded diagonals and pre-placed queens, not blocked cells ({} given)",
            source.blocked.len()
        )));
    }
    let n = u64::from(source.n);
    if n == 0 {
        return Err(Error::Usage("the source board is empty (n = 0)".into()));
    }
    // Step 1: problem 3 on side n3 = 7n - 3, source rows shifted by 3n - 2.
    let n3 = 7 * n - 3;
    let row_offset = 3 * n - 2;
    let mut seen = std::collections::HashSet::new();
    let excluded: Vec<ExcludedDiagonal> = source
        .excluded
        .iter()
        .copied()
        .filter(|e| seen.insert(*e))
        .collect();
    let mut p3: Vec<(u64, u64)> = Vec::new();
    // diagtoqueens lists the difference diagonals first, then the sum diagonals, each in file
    // order.
    for e in excluded.iter().filter(|e| e.kind == LineKind::Diagonal) {
        let d = i64::from(e.key) - (n as i64 - 1); // r - c
        p3.push((
            (6 * n as i64 - 3 - d) as u64,
            (3 * n as i64 - 1 - 2 * d) as u64,
        ));
    }
    for e in excluded.iter().filter(|e| e.kind == LineKind::AntiDiagonal) {
        let d = u64::from(e.key); // r + c
        p3.push((2 * n - 2 - d, n + 2 * d));
    }
    let mut placed: Vec<Cell> = source.placed.clone();
    placed.sort_unstable();
    placed.dedup();
    p3.extend(
        placed
            .iter()
            .map(|q| (u64::from(q.row) + row_offset, u64::from(q.col))),
    );
    let placed_rows: std::collections::HashSet<u32> = placed.iter().map(|q| q.row).collect();
    let placed_cols: std::collections::HashSet<u32> = placed.iter().map(|q| q.col).collect();
    // Free lines of problem 3 (rows first coordinate, as `C3`; columns as `R3`).
    let free_rows: Vec<u64> = (0..source.n)
        .filter(|r| !placed_rows.contains(r))
        .map(|r| u64::from(r) + row_offset)
        .collect();
    let free_cols: Vec<u64> = (0..source.n)
        .filter(|c| !placed_cols.contains(c))
        .map(u64::from)
        .collect();
    let to_cells = |v: &[(u64, u64)]| -> Result<Vec<Cell>> {
        v.iter()
            .map(|&(r, c)| {
                Ok(Cell::new(
                    u32::try_from(r).map_err(|_| too_large(source.n))?,
                    u32::try_from(c).map_err(|_| too_large(source.n))?,
                ))
            })
            .collect()
    };

    // The script returns problem 3's pre-placed queens on the n3 board when they attack
    // (there: on diagonals; here also rows and columns, which the script rejects by assertion).
    if !non_attacking(&p3) || free_rows.len() != free_cols.len() {
        let side = u32::try_from(n3).map_err(|_| too_large(source.n))?;
        check_board_side(n3, source.n)?;
        return Ok(Reduction {
            instance: Instance {
                n: side,
                placed: to_cells(&p3)?,
                ..Instance::default()
            },
            source_n: source.n,
            row_offset: row_offset as u32,
        });
    }

    // Step 2: problem 3 -> completion.
    let m3 = (p3.len() + free_rows.len()) as u64;
    let p = if n3 % 3 == 2 { 2 * n3 + 1 } else { 2 * n3 - 1 };
    let side = 19 * p + m3;
    check_board_side(side, source.n)?;
    let mut used_rows: Vec<u64> = free_rows
        .iter()
        .copied()
        .chain(p3.iter().map(|q| q.0))
        .collect();
    let mut used_cols: Vec<u64> = free_cols
        .iter()
        .copied()
        .chain(p3.iter().map(|q| q.1))
        .collect();
    used_rows.sort_unstable();
    used_cols.sort_unstable();
    let row_used: std::collections::HashSet<u64> = used_rows.iter().copied().collect();
    let col_used: std::collections::HashSet<u64> = used_cols.iter().copied().collect();
    let a = |i: u64| (i, (2 * i) % p); // An(p)
    let b = |i: u64| ((2 * i) % p, i); // Bn(p)
    let at = |block: (u64, u64), q: (u64, u64)| (block.0 * p + q.0, block.1 * p + q.1);

    let mut result = p3.clone();
    result.extend((0..m3).map(|i| at(BLOCK_COL19, (i, 2 * used_rows[i as usize]))));
    result.extend((0..m3).map(|i| at(BLOCK_ROW19, (2 * used_cols[i as usize], i))));
    result.extend(
        (0..p)
            .map(|i| at(BLOCK_COL0, a(i)))
            .filter(|q| !row_used.contains(&q.0)),
    );
    result.extend(
        (0..p)
            .map(|i| at(BLOCK_ROW0, b(i)))
            .filter(|q| !col_used.contains(&q.1)),
    );
    for &block in &BLOCKS_REST {
        result.extend((0..p).map(|i| at(block, a(i))));
    }
    if !non_attacking(&result) {
        return Err(Error::Internal(format!(
            "the reduction of an n = {} instance placed attacking queens",
            source.n
        )));
    }
    Ok(Reduction {
        instance: Instance {
            n: side as u32,
            placed: to_cells(&result)?,
            ..Instance::default()
        },
        source_n: source.n,
        row_offset: row_offset as u32,
    })
}

fn too_large(n: u32) -> Error {
    Error::TooLarge(format!(
        "the reduction of an n = {n} board exceeds the largest board side {}",
        crate::board::MAX_N
    ))
}

fn check_board_side(side: u64, n: u32) -> Result<()> {
    if side > u64::from(crate::board::MAX_N) {
        return Err(Error::TooLarge(format!(
            "the reduction of an n = {n} board needs side {side}, more than {}",
            crate::board::MAX_N
        )));
    }
    Ok(())
}

/// Whether no two of `queens` share a row, column or diagonal (linear time).
fn non_attacking(queens: &[(u64, u64)]) -> bool {
    let mut seen = std::collections::HashSet::with_capacity(4 * queens.len());
    queens.iter().all(|&(r, c)| {
        let (r, c) = (r as i64, c as i64);
        seen.insert((0u8, r))
            && seen.insert((1, c))
            && seen.insert((2, r - c))
            && seen.insert((3, r + c))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::piece::QUEEN;

    /// Checks `board` as a solution of the converted instance with the crate's verifier.
    fn verify_converted(red: &Reduction, board: &Board) -> bool {
        crate::verify::verify(board, &red.instance, QUEEN).is_ok()
    }
    use crate::count::{CountEngine, Counter, Counts};

    fn count(
        inst: &Instance,
        piece: crate::piece::Piece,
        amo: AmoKind,
        engine: CountEngine,
        jobs: usize,
    ) -> crate::Result<Counts> {
        let c = Counter::new(inst, piece).engine(engine).jobs(jobs);
        match engine {
            CountEngine::Sat | CountEngine::Cdcl => c.amo(amo),
            _ => c,
        }
        .counts()
    }
    use crate::encode::amo::AmoKind;
    use crate::generate::diagonals;
    use crate::instance::parse_diags;

    /// The worked example in csplib prob079 `AA-Excluded-Diagonals-Info.md`: `queens-diag-gen.py
    /// 10 4 1` with its first 13 diagonals converts to n = 2550 starting with these queens.
    #[test]
    fn matches_the_published_example() {
        let text = "n = 10\nnumdiags = 14\ndiags = [[4, 1], [2, 1], [14, 0], [8, 1], [8, 0], \
                    [7, 0], [3, 1], [12, 1], [18, 0], [5, 0], [14, 1], [0, 0], [15, 1], [17, 1]]";
        let src = parse_diags("doc", text, Some(13)).unwrap();
        let red = diagonals_to_completion(&src).unwrap();
        assert_eq!(red.instance.n, 2550);
        // One queen per excluded diagonal, in the order of the instance's diagonals, then the
        // rest: the reader sorts the diagonals (an instance's are a set), so the published
        // queens are compared as a set.
        let mut head: Vec<(u32, u32)> = red.instance.placed[..14]
            .iter()
            .map(|c| (c.row, c.col))
            .collect();
        head.sort_unstable();
        let mut published = vec![
            (52, 19),
            (58, 31),
            (59, 33),
            (48, 11),
            (61, 37),
            (66, 47),
            (14, 18),
            (16, 14),
            (10, 26),
            (15, 16),
            (6, 34),
            (4, 38),
            (3, 40),
            (2527, 1070),
        ];
        published.sort_unstable();
        assert_eq!(head, published);
        assert_eq!(red.instance.placed.len(), 2550 - 10);
        assert_eq!(red.row_offset, 28);
    }

    /// All solutions of an excluded-diagonals instance by brute force (n <= 8).
    fn source_solutions(inst: &Instance) -> Vec<Board> {
        let n = inst.n;
        let obstacles = inst.obstacles();
        let mut out = Vec::new();
        let mut cols: Vec<u32> = Vec::new();
        fn go(
            n: u32,
            obstacles: &crate::instance::Obstacles,
            placed: &[Cell],
            cols: &mut Vec<u32>,
            out: &mut Vec<Board>,
        ) {
            let r = cols.len() as u32;
            if r == n {
                let b = Board::new(
                    n,
                    cols.iter()
                        .enumerate()
                        .map(|(r, &c)| Cell::new(r as u32, c))
                        .collect(),
                );
                if placed.iter().all(|p| b.pieces.contains(p)) {
                    out.push(b);
                }
                return;
            }
            for c in 0..n {
                let cell = Cell::new(r, c);
                let ok = !obstacles.contains(cell)
                    && cols
                        .iter()
                        .enumerate()
                        .all(|(r2, &c2)| QUEEN.attack(Cell::new(r2 as u32, c2), cell, n).is_none());
                if ok {
                    cols.push(c);
                    go(n, obstacles, placed, cols, out);
                    cols.pop();
                }
            }
        }
        go(n, &obstacles, &inst.placed, &mut cols, &mut out);
        out
    }

    #[test]
    fn converted_instances_have_the_same_solutions() {
        let mut checked_sat = 0;
        for n in 4..=7u32 {
            for seed in 0..4u64 {
                let list = diagonals::generate(n, 1, seed).unwrap();
                for d in [0, list.excluded.len() / 4, list.excluded.len() / 2] {
                    let mut src = list.clone();
                    src.excluded.truncate(d);
                    let red = diagonals_to_completion(&src).unwrap();
                    let sols = source_solutions(&src);
                    // Every lifted source solution solves the converted instance and projects
                    // back to itself.
                    for s in &sols {
                        let lifted = red.lift(s);
                        assert!(verify_converted(&red, &lifted), "n={n} seed={seed} d={d}");
                        assert_eq!(&red.project(&lifted), s);
                    }
                    // And the converted instance has exactly as many solutions.
                    let counted =
                        count(&red.instance, QUEEN, AmoKind::Product, CountEngine::Sat, 2)
                            .unwrap()
                            .total;
                    assert_eq!(counted, sols.len() as u64, "n={n} seed={seed} d={d}");
                    // The crate's independent backtracking counter agrees on the source.
                    let source = count(&src, QUEEN, AmoKind::Product, CountEngine::Backtrack, 1)
                        .unwrap()
                        .total;
                    assert_eq!(source, counted, "n={n} seed={seed} d={d}");
                    checked_sat += usize::from(!sols.is_empty());
                }
            }
        }
        assert!(checked_sat > 10, "too few satisfiable cases: {checked_sat}");
    }

    #[test]
    fn preplaced_queens_and_unsat_sources() {
        // A pre-placed queen on an excluded diagonal: both sides have no solution.
        let mut src = parse_diags("d", "n = 6\nnumdiags = 1\ndiags = [[5,1]]", None).unwrap();
        src.placed.push(Cell::new(2, 3));
        let red = diagonals_to_completion(&src).unwrap();
        assert_eq!(red.instance.n, 39);
        let c = count(&red.instance, QUEEN, AmoKind::Product, CountEngine::Sat, 2).unwrap();
        assert_eq!(c.total, 0);
        // A pre-placed queen off the diagonals: counts agree with the source.
        src.placed = vec![Cell::new(1, 2)];
        let red = diagonals_to_completion(&src).unwrap();
        let expected = source_solutions(&src).len() as u64;
        let c = count(&red.instance, QUEEN, AmoKind::Product, CountEngine::Sat, 2).unwrap();
        assert_eq!(c.total, expected);
        assert!(expected > 0);
    }

    #[test]
    fn repeated_diagonals_count_once_and_blocked_cells_are_refused() {
        let a = parse_diags("d", "n = 5\nnumdiags = 2\ndiags = [[3,0],[3,0]]", None).unwrap();
        let b = parse_diags("d", "n = 5\nnumdiags = 1\ndiags = [[3,0]]", None).unwrap();
        assert_eq!(
            diagonals_to_completion(&a).unwrap(),
            diagonals_to_completion(&b).unwrap()
        );
        let mut c = b.clone();
        c.blocked.push(Cell::new(0, 0));
        let e = diagonals_to_completion(&c).unwrap_err().to_string();
        assert!(e.contains("not blocked cells"), "{e}");
    }

    #[test]
    fn large_sources_fit_or_fail_cleanly() {
        let red = diagonals_to_completion(&Instance::plain(16)).unwrap();
        assert!(red.instance.n > 4000);
        let e = diagonals_to_completion(&Instance::plain(300))
            .unwrap_err()
            .to_string();
        assert!(e.contains("too large"), "{e}");
    }
}
