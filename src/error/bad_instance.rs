//! [`BadInstance`]: cells and diagonals that are not an instance, or an instance a file format
//! cannot hold (the invariants are `crate::instance`'s). Plain data (cells, a diagonal's kind
//! by name, a format by name), so that this module imports nothing that imports it back.

use std::fmt;

use super::{Error, Naming};
use crate::board::{Cell, MAX_N};

/// Which list of an instance a cell belongs to, for messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The pre-placed pieces (`placed`).
    Placed,
    /// The blocked cells (`blocked`).
    Blocked,
}

impl Part {
    /// The Python argument (and `Instance` field): `placed` or `blocked`.
    pub fn argument(self) -> &'static str {
        match self {
            Part::Placed => "placed",
            Part::Blocked => "blocked",
        }
    }

    fn words(self) -> &'static str {
        match self {
            Part::Placed => "pre-placed piece at",
            Part::Blocked => "blocked cell",
        }
    }
}

/// Why a board side, cells and diagonals are not an `Instance`, or why a file format cannot
/// hold one: the typed error behind [`Error::Instance`]. Each front end words it in its own
/// terms ([`BadInstance::message`]); readers report it at the file's line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadInstance {
    /// A board side outside `1..=MAX_N`.
    Side {
        /// The side given.
        n: u64,
    },
    /// A cell outside the `n x n` board.
    CellOutside {
        /// The list it is in.
        part: Part,
        /// The cell.
        cell: Cell,
        /// The board side.
        n: u32,
    },
    /// An excluded diagonal whose key is not below `2n - 1`.
    DiagonalOutside {
        /// The diagonal's kind: `diagonal` or `anti-diagonal` (`LineKind::name`).
        kind: &'static str,
        /// Its key (csplib's `k`).
        key: u32,
        /// The board side.
        n: u32,
    },
    /// A pre-placed piece on a blocked cell.
    PieceOnBlocked {
        /// The cell, both pre-placed and blocked.
        cell: Cell,
    },
    /// A pre-placed piece on an excluded diagonal.
    PieceOnExcluded {
        /// The piece's cell.
        cell: Cell,
        /// The kind of the excluded diagonal through it: `diagonal` or `anti-diagonal`.
        kind: &'static str,
        /// Its key (csplib's `k`).
        key: u32,
    },
    /// A file format that cannot hold the instance: an excluded-diagonals file holds excluded
    /// diagonals only, no pre-placed pieces or blocked cells.
    Unwritable {
        /// The format's name (`diags`).
        format: &'static str,
        /// Pre-placed pieces in the instance.
        placed: usize,
        /// Blocked cells in the instance.
        blocked: usize,
    },
}

impl BadInstance {
    /// The Python argument at fault: `n`, `placed`, `blocked`, `excluded` or `format`.
    pub fn argument(&self) -> &'static str {
        match self {
            BadInstance::Side { .. } => "n",
            BadInstance::CellOutside { part, .. } => part.argument(),
            BadInstance::DiagonalOutside { .. } => "excluded",
            BadInstance::PieceOnBlocked { .. } | BadInstance::PieceOnExcluded { .. } => "placed",
            BadInstance::Unwritable { .. } => "format",
        }
    }

    /// The offending value as Python writes it: `(0, 0)`, `('anti-diagonal', 5)`, `'diags'`.
    pub fn value(&self) -> String {
        let cell = |c: &Cell| format!("({}, {})", c.row, c.col);
        match self {
            BadInstance::Side { n } => n.to_string(),
            BadInstance::CellOutside { cell: c, .. }
            | BadInstance::PieceOnBlocked { cell: c }
            | BadInstance::PieceOnExcluded { cell: c, .. } => cell(c),
            BadInstance::DiagonalOutside { kind, key, .. } => format!("('{kind}', {key})"),
            BadInstance::Unwritable { format, .. } => format!("'{format}'"),
        }
    }

    /// The one-line message: with [`Naming::Flag`] in the command line's and the files' words
    /// (cells `(row,col)`, 0-based), with [`Naming::Argument`] naming the Python argument.
    ///
    /// ```
    /// use queens_sat::{board::Cell, error::{BadInstance, Naming}};
    /// let bad = BadInstance::PieceOnBlocked { cell: Cell::new(0, 3) };
    /// assert_eq!(bad.message(Naming::Flag), "pre-placed piece at (0,3) is on a blocked cell");
    /// assert_eq!(bad.message(Naming::Argument), "placed=(0, 3) is on a blocked cell (blocked holds it too)");
    /// ```
    pub fn message(&self, naming: Naming) -> String {
        let named = format!("{}={}", self.argument(), self.value());
        match (self, naming) {
            (BadInstance::Side { n }, Naming::Flag) => {
                format!("n = {n} is out of range (1..={MAX_N})")
            }
            (BadInstance::Side { .. }, Naming::Argument) => {
                format!("{named} is out of range (1..={MAX_N})")
            }
            (BadInstance::CellOutside { part, cell, n }, Naming::Flag) => format!(
                "{} {cell} is outside the {n}x{n} board (rows and columns 0..={})",
                part.words(),
                n - 1
            ),
            (BadInstance::CellOutside { n, .. }, Naming::Argument) => format!(
                "{named} is outside the {n}x{n} board (rows and columns 0..={})",
                n - 1
            ),
            (BadInstance::DiagonalOutside { kind, key, n }, Naming::Flag) => format!(
                "excluded {kind} {key} is out of range for n = {n} (keys 0..={})",
                2 * u64::from(*n) - 2
            ),
            (BadInstance::DiagonalOutside { n, .. }, Naming::Argument) => format!(
                "{named} is out of range for n = {n} (keys 0..={})",
                2 * u64::from(*n) - 2
            ),
            (BadInstance::PieceOnBlocked { cell }, Naming::Flag) => {
                format!("pre-placed piece at {cell} is on a blocked cell")
            }
            (BadInstance::PieceOnBlocked { .. }, Naming::Argument) => {
                format!("{named} is on a blocked cell (blocked holds it too)")
            }
            (BadInstance::PieceOnExcluded { cell, kind, key }, Naming::Flag) => {
                format!("pre-placed piece at {cell} is on excluded {kind} {key}")
            }
            (BadInstance::PieceOnExcluded { kind, key, .. }, Naming::Argument) => {
                format!("{named} is on an excluded diagonal, excluded=('{kind}', {key})")
            }
            (
                BadInstance::Unwritable {
                    placed, blocked, ..
                },
                Naming::Flag,
            ) => format!(
                "an excluded-diagonals file cannot hold pre-placed pieces or blocked cells \
                 (the instance has {placed} pre-placed, {blocked} blocked; write board or param)"
            ),
            (
                BadInstance::Unwritable {
                    placed, blocked, ..
                },
                Naming::Argument,
            ) => format!(
                "{named} cannot hold pre-placed pieces or blocked cells \
                 (the instance has {placed} placed, {blocked} blocked; use 'board' or 'param')"
            ),
        }
    }
}

impl fmt::Display for BadInstance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(Naming::Flag))
    }
}

impl From<BadInstance> for Error {
    fn from(b: BadInstance) -> Error {
        Error::Instance(b)
    }
}
