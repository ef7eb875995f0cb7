//! The map between live cells and CNF variables.
//!
//! Live cells are numbered `1..=L` in row-major order. A row is stored either as "every column
//! is live" or as its sorted live columns, so a plain board costs O(n) memory and a sparse
//! presolved board costs O(live cells).

use crate::board::Cell;

#[derive(Clone, Debug, PartialEq, Eq)]
enum RowCells {
    /// Every column `0..n` is live.
    All,
    /// These columns (sorted) are live.
    Cols(Box<[u32]>),
}

/// Cell <-> variable map of a [`crate::presolve::Problem`].
///
/// ```
/// use queens_sat::{board::Cell, varmap::VarMap};
/// let m = VarMap::row_major(8);
/// assert_eq!(m.var(Cell::new(2, 3)), Some(2 * 8 + 3 + 1));
/// assert_eq!(m.cell(20), Some(Cell::new(2, 3)));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VarMap {
    n: u32,
    /// `first[r]` = variable of row r's first live cell; `first[n]` = L + 1.
    first: Vec<u64>,
    rows: Vec<RowCells>,
}

impl VarMap {
    /// Every cell live: `var(r, c) = r*n + c + 1`.
    pub fn row_major(n: u32) -> VarMap {
        VarMap {
            n,
            first: (0..=n as u64).map(|r| r * n as u64 + 1).collect(),
            rows: vec![RowCells::All; n as usize],
        }
    }

    /// Builds a map from the live columns of each row (each sorted ascending, `rows.len() == n`).
    pub fn from_rows(n: u32, rows: Vec<Vec<u32>>) -> VarMap {
        assert_eq!(rows.len(), n as usize);
        let mut first = Vec::with_capacity(n as usize + 1);
        let mut next = 1u64;
        let rows = rows
            .into_iter()
            .map(|cols| {
                first.push(next);
                next += cols.len() as u64;
                debug_assert!(cols.windows(2).all(|w| w[0] < w[1]));
                if cols.len() == n as usize {
                    RowCells::All
                } else {
                    RowCells::Cols(cols.into_boxed_slice())
                }
            })
            .collect();
        first.push(next);
        VarMap { n, first, rows }
    }

    /// Board side.
    pub fn n(&self) -> u32 {
        self.n
    }

    /// Number of live cells L (the cell variables are `1..=L`).
    pub fn num_cells(&self) -> u64 {
        self.first[self.n as usize] - 1
    }

    /// True when every cell is live, so that `var(r, c) = r*n + c + 1`.
    pub fn is_row_major(&self) -> bool {
        self.rows.iter().all(|r| *r == RowCells::All)
    }

    /// The variable of `cell`, or `None` if it is not live.
    #[inline]
    pub fn var(&self, cell: Cell) -> Option<u32> {
        if cell.row >= self.n || cell.col >= self.n {
            return None;
        }
        let base = self.first[cell.row as usize];
        match &self.rows[cell.row as usize] {
            RowCells::All => Some((base + cell.col as u64) as u32),
            RowCells::Cols(cols) => cols
                .binary_search(&cell.col)
                .ok()
                .map(|i| (base + i as u64) as u32),
        }
    }

    /// The cell of cell variable `var`, or `None` for an auxiliary or out-of-range variable.
    pub fn cell(&self, var: u32) -> Option<Cell> {
        let v = var as u64;
        if v < 1 || v > self.num_cells() {
            return None;
        }
        // Last row whose first variable is <= v (and which is non-empty).
        let row = self.first.partition_point(|&f| f <= v) - 1;
        let i = v - self.first[row];
        let col = match &self.rows[row] {
            RowCells::All => i as u32,
            RowCells::Cols(cols) => cols[i as usize],
        };
        Some(Cell::new(row as u32, col))
    }

    /// The live columns of row `r`, ascending.
    pub fn row_cols(&self, r: u32) -> impl Iterator<Item = u32> + '_ {
        let (all, cols): (u32, &[u32]) = match &self.rows[r as usize] {
            RowCells::All => (self.n, &[]),
            RowCells::Cols(c) => (0, c),
        };
        (0..all).chain(cols.iter().copied())
    }

    /// The first variable of row `r` (its cells are consecutive from there).
    pub fn row_first_var(&self, r: u32) -> u32 {
        self.first[r as usize] as u32
    }

    /// Number of live cells in row `r`.
    pub fn row_len(&self, r: u32) -> u32 {
        (self.first[r as usize + 1] - self.first[r as usize]) as u32
    }

    /// All live cells with their variables, row-major (variable order).
    pub fn cells(&self) -> impl Iterator<Item = (Cell, u32)> + '_ {
        (0..self.n).flat_map(move |r| {
            let base = self.row_first_var(r);
            self.row_cols(r)
                .enumerate()
                .map(move |(i, c)| (Cell::new(r, c), base + i as u32))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sparse_map_round_trips() {
        let m = VarMap::from_rows(4, vec![vec![1, 3], vec![], vec![0, 1, 2, 3], vec![2]]);
        assert_eq!(m.num_cells(), 7);
        assert!(!m.is_row_major());
        let all: Vec<_> = m.cells().collect();
        assert_eq!(all.len(), 7);
        for (i, &(cell, var)) in all.iter().enumerate() {
            assert_eq!(var, i as u32 + 1);
            assert_eq!(m.var(cell), Some(var));
            assert_eq!(m.cell(var), Some(cell));
        }
        assert_eq!(m.var(Cell::new(0, 0)), None);
        assert_eq!(m.var(Cell::new(1, 2)), None);
        assert_eq!(m.cell(0), None);
        assert_eq!(m.cell(8), None);
        assert_eq!(m.cell(7), Some(Cell::new(3, 2)));
    }

    #[test]
    fn row_major_rule() {
        let m = VarMap::row_major(5);
        assert!(m.is_row_major());
        for (cell, var) in m.cells() {
            assert_eq!(var, cell.row * 5 + cell.col + 1);
            assert_eq!(m.cell(var), Some(cell));
        }
    }
}
