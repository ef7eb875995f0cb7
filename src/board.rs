//! Cells and boards: coordinates, the board text format, and rendering.

use std::fmt::Write as _;

/// Largest supported board side.
#[cfg_attr(not(feature = "front"), visibility::make(pub(crate)), allow(dead_code))]
pub const MAX_N: u32 = 65536;

/// A cell `(row, col)`, 0-based; row 0 is the first text line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    /// Row, 0-based from the top.
    pub row: u32,
    /// Column, 0-based from the left.
    pub col: u32,
}

impl Cell {
    /// Makes a cell.
    pub const fn new(row: u32, col: u32) -> Cell {
        Cell { row, col }
    }

    /// The cell at offset `(dr, dc)` if it is on an `n x n` board.
    #[inline]
    pub fn offset(self, dr: i32, dc: i32, n: u32) -> Option<Cell> {
        let r = self.row as i64 + dr as i64;
        let c = self.col as i64 + dc as i64;
        if r < 0 || c < 0 || r >= n as i64 || c >= n as i64 {
            None
        } else {
            Some(Cell::new(r as u32, c as u32))
        }
    }
}

impl std::fmt::Display for Cell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({},{})", self.row, self.col)
    }
}

/// A placement of pieces on an `n x n` board: the answer of a solver, or a board read for `verify`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// Side of the board.
    pub n: u32,
    /// The pieces, sorted row-major.
    pub pieces: Vec<Cell>,
}

impl Board {
    /// Makes a board, sorting the pieces row-major.
    pub fn new(n: u32, mut pieces: Vec<Cell>) -> Board {
        pieces.sort_unstable();
        Board { n, pieces }
    }

    /// Renders the board in board-text format: `Q` piece, `x` blocked (per `is_blocked`), `.` free.
    ///
    /// ```
    /// use queens_sat::board::{Board, Cell};
    /// let b = Board::new(2, vec![Cell::new(0, 1)]);
    /// assert_eq!(b.rows(|c| c == Cell::new(1, 1)), vec![".Q".to_string(), "..x".chars().skip(1).collect::<String>()]);
    /// ```
    pub fn rows(&self, is_blocked: impl Fn(Cell) -> bool) -> Vec<String> {
        let n = self.n as usize;
        let mut rows = Vec::with_capacity(n);
        let mut next = self.pieces.iter().peekable();
        for r in 0..self.n {
            let mut line = String::with_capacity(n);
            for c in 0..self.n {
                let cell = Cell::new(r, c);
                if next.peek() == Some(&&cell) {
                    next.next();
                    line.push('Q');
                } else if is_blocked(cell) {
                    line.push('x');
                } else {
                    line.push('.');
                }
            }
            rows.push(line);
        }
        rows
    }

    /// The board as text, one row per line, ending in a newline.
    pub fn to_text(&self, is_blocked: impl Fn(Cell) -> bool) -> String {
        let mut s = String::new();
        for row in self.rows(is_blocked) {
            let _ = writeln!(s, "{row}");
        }
        s
    }

    /// Writes the board's text (as [`Board::to_text`]) to `out` one row at a time, holding one
    /// row in memory (a completion board of n = 6,000 is 36 MB of text, which `to_text` would
    /// build whole): `mark(r, line)` writes `x` on row `r`'s unavailable cells (the line holds
    /// `.` on every cell when it is called; pieces are written after it).
    ///
    /// ```
    /// use queens_sat::board::{Board, Cell};
    /// let b = Board::new(3, vec![Cell::new(0, 1), Cell::new(2, 0)]);
    /// let mut out = Vec::new();
    /// b.write_text(&mut out, |r, line| if r == 1 { line[2] = b'x' }).unwrap();
    /// assert_eq!(out, b.to_text(|c| c == Cell::new(1, 2)).into_bytes());
    /// ```
    pub fn write_text(
        &self,
        out: &mut impl std::io::Write,
        mark: impl Fn(u32, &mut [u8]),
    ) -> std::io::Result<()> {
        let n = self.n as usize;
        let mut line = vec![b'.'; n + 1];
        line[n] = b'\n';
        let mut next = self.pieces.iter().peekable();
        for r in 0..self.n {
            line[..n].fill(b'.');
            mark(r, &mut line[..n]);
            while let Some(p) = next.next_if(|p| p.row == r) {
                line[p.col as usize] = b'Q';
            }
            out.write_all(&line)?;
        }
        Ok(())
    }
}
