//! Pieces as data: the rider lines a piece attacks along, plus its leaps.
//!
//! Adding a new piece is a new [`Piece`] constant and an entry in `PIECES`; nothing downstream
//! branches on the piece's name. Each piece lists its line families explicitly (never
//! [`LineKind::ALL`], which grows with every new kind). Engines that cannot model a piece
//! reject it with an error instead of miscounting: [`Piece::validate`] holds for every engine,
//! and the counters add their own requirements (`crate::count::backtrack::supports`,
//! `crate::count::dpll::supports`). Every consumer of a line family dispatches through a
//! `match` that names each [`LineKind`] (no wildcard, no `contains` test that could skip a kind),
//! so a new variant fails to compile wherever lines are handled until each engine handles or
//! rejects it; `tests/pieces.rs` runs every engine on pieces with and without each family.

use crate::board::Cell;

/// A family of board lines along which a rider attacks.
///
/// Every line family partitions the board; [`LineKind::key`] names the line a cell lies on and
/// [`LineKind::count`] how many lines the family has on an `n x n` board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LineKind {
    /// Cells with the same row.
    Row,
    /// Cells with the same column.
    Column,
    /// Difference diagonal: cells with the same `r - c` (key `r - c + n - 1`).
    Diagonal,
    /// Sum (anti-)diagonal: cells with the same `r + c` (key `r + c`).
    AntiDiagonal,
}

impl LineKind {
    /// All line kinds. Pieces list their own families explicitly (see [`QUEEN`]).
    pub const ALL: [LineKind; 4] = [
        LineKind::Row,
        LineKind::Column,
        LineKind::Diagonal,
        LineKind::AntiDiagonal,
    ];

    /// The key of the line through `cell` on an `n x n` board, in `0..self.count(n)`.
    ///
    /// ```
    /// use queens_sat::{board::Cell, piece::LineKind};
    /// assert_eq!(LineKind::Diagonal.key(Cell::new(0, 7), 8), 0);
    /// assert_eq!(LineKind::AntiDiagonal.key(Cell::new(2, 3), 8), 5);
    /// ```
    #[inline]
    pub fn key(self, cell: Cell, n: u32) -> u32 {
        match self {
            LineKind::Row => cell.row,
            LineKind::Column => cell.col,
            LineKind::Diagonal => cell.row + (n - 1) - cell.col,
            LineKind::AntiDiagonal => cell.row + cell.col,
        }
    }

    /// Number of lines of this kind on an `n x n` board.
    pub fn count(self, n: u32) -> u32 {
        match self {
            LineKind::Row | LineKind::Column => n,
            LineKind::Diagonal | LineKind::AntiDiagonal => 2 * n - 1,
        }
    }

    /// Whether each line of this kind must hold exactly one of the `n` pieces.
    ///
    /// A family of exactly `n` lines that covers the board must hold one piece per line when `n`
    /// mutually non-attacking pieces are placed (pigeonhole); other families only get at-most-one.
    /// On the one-cell board every family is that cell: the row alone says it (so the CNF of
    /// n = 1 is one clause, not four copies of it).
    ///
    /// ```
    /// use queens_sat::piece::LineKind;
    /// assert!(LineKind::Diagonal.needs_exactly_one(1) == false && LineKind::Row.needs_exactly_one(1));
    /// assert!(LineKind::Column.needs_exactly_one(8) && !LineKind::Diagonal.needs_exactly_one(8));
    /// ```
    pub fn needs_exactly_one(self, n: u32) -> bool {
        self.count(n) == n && (n > 1 || self == LineKind::Row)
    }

    /// Human name of the line kind, used in messages ("share a diagonal").
    pub fn name(self) -> &'static str {
        match self {
            LineKind::Row => "row",
            LineKind::Column => "column",
            LineKind::Diagonal => "diagonal",
            LineKind::AntiDiagonal => "anti-diagonal",
        }
    }
}

/// A chess-like piece: rider lines plus leaps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    /// Name used on the command line and in file headers.
    pub name: &'static str,
    /// Line families the piece rides along (unbounded distance).
    pub lines: &'static [LineKind],
    /// Leap offsets `(d_row, d_col)`, closed under negation.
    pub leaps: &'static [(i32, i32)],
}

const KNIGHT: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (1, -2),
    (2, -1),
    (-1, 2),
    (-2, 1),
    (-1, -2),
    (-2, -1),
];

/// The queen's line families: rows, columns and both diagonals.
const QUEEN_LINES: [LineKind; 4] = [
    LineKind::Row,
    LineKind::Column,
    LineKind::Diagonal,
    LineKind::AntiDiagonal,
];

/// The queen: rows, columns and both diagonals.
pub const QUEEN: Piece = Piece {
    name: "queen",
    lines: &QUEEN_LINES,
    leaps: &[],
};

/// The amazon: a queen that also moves like a knight.
pub const AMAZON: Piece = Piece {
    name: "amazon",
    lines: &QUEEN_LINES,
    leaps: &KNIGHT,
};

/// Every piece queens-sat knows, by name.
#[cfg_attr(
    not(feature = "oracle"),
    visibility::make(pub(crate)),
    allow(dead_code)
)]
pub const PIECES: &[Piece] = &[QUEEN, AMAZON];

impl Piece {
    /// Looks a piece up by its name.
    ///
    /// ```
    /// assert_eq!(queens_sat::piece::Piece::by_name("amazon").unwrap().leaps.len(), 8);
    /// ```
    pub fn by_name(name: &str) -> Option<Piece> {
        PIECES.iter().copied().find(|p| p.name == name)
    }

    /// Looks up a piece name, or a one-line usage error listing the known ones.
    pub fn parse(name: &str) -> crate::Result<Piece> {
        Piece::by_name(name).ok_or_else(|| {
            let known: Vec<&str> = PIECES.iter().map(|p| p.name).collect();
            crate::error::BadOption::unknown(crate::error::Opt::Piece, name, &known)
        })
    }

    /// Checks that the piece attacks along rows and columns (besides [`Piece::validate`]), so that a
    /// solution holds exactly one piece per row and per column: what the cube split and the SAT
    /// counter branch on. `engine` names the caller in the error.
    ///
    /// ```
    /// use queens_sat::piece::{LineKind, Piece, QUEEN};
    /// assert!(QUEEN.rows_and_columns("the split").is_ok());
    /// let rook_less = Piece { name: "no-columns", lines: &[LineKind::Row, LineKind::Diagonal], leaps: &[] };
    /// assert!(rook_less.rows_and_columns("the split").unwrap_err().contains("no column lines"));
    /// ```
    pub fn rows_and_columns(&self, engine: &str) -> Result<(), String> {
        self.validate()?;
        let (mut rows, mut columns) = (false, false);
        for &kind in self.lines {
            // Every kind named: a new one must be placed here.
            match kind {
                LineKind::Row => rows = true,
                LineKind::Column => columns = true,
                LineKind::Diagonal | LineKind::AntiDiagonal => {}
            }
        }
        for (kind, has) in [(LineKind::Row, rows), (LineKind::Column, columns)] {
            if !has {
                return Err(format!(
                    "{engine} needs a piece that attacks along rows and columns ({} has no {} lines)",
                    self.name,
                    kind.name()
                ));
            }
        }
        Ok(())
    }

    /// Checks what every engine relies on: the piece attacks along rows or columns (a family of
    /// `n` lines, so placing `n` pieces fills each of its lines once), no line family is listed
    /// twice, no leap is `(0, 0)`, and the leaps are closed under negation (attacks are mutual).
    ///
    /// ```
    /// use queens_sat::piece::{Piece, LineKind, QUEEN};
    /// assert!(QUEEN.validate().is_ok());
    /// let lopsided = Piece { name: "lopsided", lines: &[LineKind::Row], leaps: &[(1, 2)] };
    /// assert!(lopsided.validate().unwrap_err().contains("(-1, -2)"));
    /// ```
    pub fn validate(&self) -> Result<(), String> {
        let name = self.name;
        // Every kind named: is it a family of `n` lines that `n` pieces fill?
        let fills = |kind: LineKind| match kind {
            LineKind::Row | LineKind::Column => true,
            LineKind::Diagonal | LineKind::AntiDiagonal => false,
        };
        if !self.lines.iter().any(|&k| fills(k)) {
            return Err(format!(
                "piece {name} attacks along neither rows nor columns: nothing makes n of them \
                 fill the board"
            ));
        }
        for (i, kind) in self.lines.iter().enumerate() {
            if self.lines[..i].contains(kind) {
                return Err(format!(
                    "piece {name} lists its {} lines twice",
                    kind.name()
                ));
            }
        }
        for &(dr, dc) in self.leaps {
            if (dr, dc) == (0, 0) {
                return Err(format!("piece {name} has the leap (0, 0)"));
            }
            if !self.leaps.contains(&(-dr, -dc)) {
                return Err(format!(
                    "piece {name} has the leap ({dr}, {dc}) but not ({}, {}): attacks must be mutual",
                    -dr, -dc
                ));
            }
        }
        Ok(())
    }

    /// One leap of each `{d, -d}` pair: the offsets with `d_row > 0`, or `d_row == 0 && d_col > 0`.
    /// Walking them from every cell visits every leaping pair once.
    pub fn forward_leaps(&self) -> impl Iterator<Item = (i32, i32)> + '_ {
        self.leaps
            .iter()
            .copied()
            .filter(|&(dr, dc)| dr > 0 || (dr == 0 && dc > 0))
    }

    /// Why `a` and `b` attack each other, or `None` if they do not.
    ///
    /// ```
    /// use queens_sat::{board::Cell, piece::{AMAZON, QUEEN}};
    /// assert_eq!(QUEEN.attack(Cell::new(0, 0), Cell::new(3, 3), 8), Some("share a diagonal".into()));
    /// assert_eq!(QUEEN.attack(Cell::new(0, 0), Cell::new(1, 2), 8), None);
    /// assert!(AMAZON.attack(Cell::new(0, 0), Cell::new(1, 2), 8).is_some());
    /// ```
    pub fn attack(&self, a: Cell, b: Cell, n: u32) -> Option<String> {
        for &kind in self.lines {
            if kind.key(a, n) == kind.key(b, n) {
                return Some(format!("share a {}", kind.name()));
            }
        }
        let (dr, dc) = (b.row as i64 - a.row as i64, b.col as i64 - a.col as i64);
        if self
            .leaps
            .iter()
            .any(|&(lr, lc)| lr as i64 == dr && lc as i64 == dc)
        {
            return Some("are a leap apart".into());
        }
        None
    }
}

/// The attack shapes the bitboard searches model (the specialised counter
/// `crate::count::fast` and the first-solution search `solve::bitboard`).
#[cfg_attr(
    not(feature = "oracle"),
    visibility::make(pub(crate)),
    allow(dead_code)
)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Rows, columns and both diagonals (the queen).
    Queen,
    /// A queen's lines plus the eight knight leaps (the amazon).
    Amazon,
}

impl Shape {
    /// The shape of `piece`, if the specialised search models it: all four line kinds, and no
    /// leaps or exactly the eight knight leaps.
    ///
    /// ```
    /// use queens_sat::piece::Shape;
    /// use queens_sat::piece::{AMAZON, LineKind, Piece, QUEEN};
    /// assert_eq!(Shape::of(&QUEEN), Some(Shape::Queen));
    /// assert_eq!(Shape::of(&AMAZON), Some(Shape::Amazon));
    /// let rook = Piece { name: "rook", lines: &[LineKind::Row, LineKind::Column], leaps: &[] };
    /// assert_eq!(Shape::of(&rook), None);
    /// ```
    pub fn of(piece: &Piece) -> Option<Shape> {
        // Exactly the four families the specialised search models, each named (a new kind
        // fails to compile here instead of being taken for a queen's line or ignored).
        let mut seen = [false; 4];
        for &kind in piece.lines {
            let i = match kind {
                LineKind::Row => 0,
                LineKind::Column => 1,
                LineKind::Diagonal => 2,
                LineKind::AntiDiagonal => 3,
            };
            seen[i] = true;
        }
        if seen != [true; 4] {
            return None;
        }
        let knight =
            |(dr, dc): (i32, i32)| (dr.abs(), dc.abs()) == (1, 2) || (dr.abs(), dc.abs()) == (2, 1);
        let mut leaps: Vec<(i32, i32)> = piece.leaps.to_vec();
        leaps.sort_unstable();
        leaps.dedup();
        match leaps.len() {
            0 => Some(Shape::Queen),
            8 if leaps.iter().all(|&l| knight(l)) => Some(Shape::Amazon),
            _ => None,
        }
    }

    /// The columns of row `r` that a piece of this shape on `x = (row, col)` attacks (its own
    /// cell included), on a board of side `n <= 64`.
    pub fn attacks(self, (xr, xc): (usize, usize), r: usize, n: usize) -> u64 {
        if r == xr {
            return full(n);
        }
        let d = r.abs_diff(xr);
        let mut m = 1u64 << xc;
        if xc + d < n {
            m |= 1 << (xc + d);
        }
        if xc >= d {
            m |= 1 << (xc - d);
        }
        if self == Shape::Amazon && d <= 2 {
            let k = 3 - d; // a knight leap one row away moves 2 columns, two rows away 1
            if xc + k < n {
                m |= 1 << (xc + k);
            }
            if xc >= k {
                m |= 1 << (xc - k);
            }
        }
        m
    }
}

/// The bit mask of an `n`-column row (bit `c` for column `c`).
#[cfg_attr(
    not(any(feature = "front", feature = "oracle")),
    visibility::make(pub(crate)),
    allow(dead_code)
)]
pub fn full(n: usize) -> u64 {
    if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
}
