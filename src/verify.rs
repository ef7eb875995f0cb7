//! The independent checker: judges a board against an instance by geometry alone, without the
//! CNF. Every board queens-sat prints has passed through [`verify`].

use std::collections::HashSet;

use crate::board::{Board, Cell};
use crate::instance::Instance;
use crate::piece::Piece;
use crate::symmetry::Symmetry;

/// "queens", "amazons": the checker words its sentences itself (it shares no code with presolve).
fn plural(piece: Piece) -> String {
    format!("{}s", piece.name)
}

/// The first thing wrong with a board: a sentence, and the cells it is about (the two attacking
/// pieces, the misplaced or missing one; none for a wrong count or size).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// What is wrong, as one sentence.
    pub message: String,
    /// The cells involved.
    pub cells: Vec<Cell>,
}

impl Violation {
    fn new(message: String, cells: &[Cell]) -> Violation {
        Violation {
            message,
            cells: cells.to_vec(),
        }
    }
}

/// [`check`], with the violation as its sentence.
///
/// ```
/// use queens_sat::{board::{Board, Cell}, instance::Instance, piece::QUEEN, verify::verify};
/// let ok = Board::new(4, vec![Cell::new(0, 1), Cell::new(1, 3), Cell::new(2, 0), Cell::new(3, 2)]);
/// assert!(verify(&ok, &Instance::plain(4), QUEEN).is_ok());
/// let bad = Board::new(4, vec![Cell::new(0, 0), Cell::new(1, 2), Cell::new(2, 1), Cell::new(3, 3)]);
/// assert_eq!(verify(&bad, &Instance::plain(4), QUEEN).unwrap_err(),
///            "queens at (0,0) and (3,3) share a diagonal");
/// ```
pub fn verify(board: &Board, instance: &Instance, piece: Piece) -> Result<(), String> {
    check(board, instance, piece).map_err(|v| v.message)
}

/// Checks that `board` is a complete solution of `instance` for `piece`: exactly `n` pieces on
/// the board, no two attacking each other, every pre-placed piece present and every blocked cell
/// (or cell of an excluded diagonal) empty. Returns the first [`Violation`].
///
/// Runs in O(n + pieces) time and memory (a slot per line of each family, a hash set of the
/// pieces), never an n x n grid, so it also checks boards of n = 65,536 at once.
///
/// ```
/// use queens_sat::{board::{Board, Cell}, instance::Instance, piece::QUEEN, verify::check};
/// let bad = Board::new(4, vec![Cell::new(0, 0), Cell::new(1, 2), Cell::new(2, 1), Cell::new(3, 3)]);
/// let v = check(&bad, &Instance::plain(4), QUEEN).unwrap_err();
/// assert_eq!(v.cells, vec![Cell::new(0, 0), Cell::new(3, 3)]);
/// ```
pub fn check(board: &Board, instance: &Instance, piece: Piece) -> Result<(), Violation> {
    let n = board.n;
    if n != instance.n {
        return Err(Violation::new(
            format!("board is {n}x{n} but the instance is {0}x{0}", instance.n),
            &[],
        ));
    }
    let pieces = plural(piece);
    if let Some(c) = board.pieces.iter().find(|c| c.row >= n || c.col >= n) {
        return Err(Violation::new(
            format!("{} at {c} is outside the {n}x{n} board", piece.name),
            &[],
        ));
    }
    let mut seen = HashSet::with_capacity(board.pieces.len());
    if let Some(c) = board.pieces.iter().find(|&&c| !seen.insert(c)) {
        return Err(Violation::new(
            format!("two {pieces} on the same cell {c}"),
            &[*c],
        ));
    }
    // One slot per line of each family (O(n), no n x n grid): the first piece seen on it.
    for &kind in piece.lines {
        const NONE: u32 = u32::MAX;
        let mut first = vec![NONE; kind.count(n) as usize];
        for (i, &c) in board.pieces.iter().enumerate() {
            let slot = &mut first[kind.key(c, n) as usize];
            if *slot != NONE {
                let prev = board.pieces[*slot as usize];
                return Err(Violation::new(
                    format!("{pieces} at {prev} and {c} share a {}", kind.name()),
                    &[prev, c],
                ));
            }
            *slot = i as u32;
        }
    }
    for &c in &board.pieces {
        for (dr, dc) in piece.forward_leaps() {
            if let Some(q) = c.offset(dr, dc, n).filter(|q| seen.contains(q)) {
                return Err(Violation::new(
                    format!("{pieces} at {c} and {q} are a leap apart"),
                    &[c, q],
                ));
            }
        }
    }
    if let Some(p) = instance.placed.iter().find(|p| !seen.contains(p)) {
        return Err(Violation::new(
            format!("pre-placed {} at {p} is missing", piece.name),
            &[*p],
        ));
    }
    let obstacles = instance.obstacles();
    if let Some(c) = board.pieces.iter().find(|&&c| obstacles.contains(c)) {
        return Err(Violation::new(
            format!("{} at {c} is on a blocked cell", piece.name),
            &[*c],
        ));
    }
    if board.pieces.len() != n as usize {
        return Err(Violation::new(
            format!(
                "the board has {} {pieces}, expected {n}",
                board.pieces.len()
            ),
            &[],
        ));
    }
    Ok(())
}

/// Checks that `g` maps `board` to itself (for `--symmetric` answers).
///
/// ```
/// use queens_sat::{board::{Board, Cell}, symmetry::Symmetry, verify::verify_symmetric};
/// let b = Board::new(4, vec![Cell::new(0, 1), Cell::new(1, 3), Cell::new(2, 0), Cell::new(3, 2)]);
/// assert!(verify_symmetric(&b, Symmetry::R90).is_ok());
/// assert!(verify_symmetric(&b, Symmetry::FlipV).is_err());
/// ```
#[cfg_attr(
    not(feature = "oracle"),
    visibility::make(pub(crate)),
    allow(dead_code)
)]
pub fn verify_symmetric(board: &Board, g: Symmetry) -> Result<(), String> {
    let set: HashSet<Cell> = board.pieces.iter().copied().collect();
    match board
        .pieces
        .iter()
        .find(|&&c| !set.contains(&g.apply(c, board.n)))
    {
        Some(c) => Err(format!(
            "the board is not {g}-symmetric: the image of {c} is {}, which is empty",
            g.apply(*c, board.n)
        )),
        None => Ok(()),
    }
}

/// Checks that `board` is the lex-leader of its class under `elements`: for every element `g`,
/// the board is at least as large as its image in row-major order, where a piece counts as 1
/// (the first cell where the board and its image differ holds the board's piece). This is the
/// order that `--break-symmetry lex` encodes.
///
/// ```
/// use queens_sat::{board::{Board, Cell}, symmetry::Symmetry, verify::verify_lex_leader};
/// let b = Board::new(4, vec![Cell::new(0, 1), Cell::new(1, 3), Cell::new(2, 0), Cell::new(3, 2)]);
/// let mirror = Board::new(4, vec![Cell::new(0, 2), Cell::new(1, 0), Cell::new(2, 3), Cell::new(3, 1)]);
/// assert!(verify_lex_leader(&b, &[Symmetry::FlipV]).is_ok());
/// assert!(verify_lex_leader(&mirror, &[Symmetry::FlipV]).is_err());
/// ```
#[cfg_attr(
    not(feature = "oracle"),
    visibility::make(pub(crate)),
    allow(dead_code)
)]
pub fn verify_lex_leader(board: &Board, elements: &[Symmetry]) -> Result<(), String> {
    let mut own = board.pieces.clone();
    own.sort_unstable();
    for &g in elements {
        let mut image: Vec<Cell> = own.iter().map(|&c| g.apply(c, board.n)).collect();
        image.sort_unstable();
        if let Some((a, b)) = own.iter().zip(&image).find(|(a, b)| a != b)
            && b < a
        {
            return Err(format!(
                "the board is not the lex-leader of its class: its {g} image has a piece on {b}, \
                 before the board's first differing piece on {a}"
            ));
        }
    }
    Ok(())
}

/// The one acceptance check of every answered board (solve, cubes, cluster merge, decode): the
/// instance ([`verify`]), and what the encoding demanded besides: `symmetric` (`--symmetric`,
/// `verify_symmetric`) and the lex-leader group (`--break-symmetry lex`,
/// `verify_lex_leader`; empty for none).
///
/// ```
/// use queens_sat::{board::{Board, Cell}, instance::Instance, piece::QUEEN, symmetry::Symmetry,
///                  verify::accept};
/// let mirror = Board::new(4, vec![Cell::new(0, 2), Cell::new(1, 0), Cell::new(2, 3), Cell::new(3, 1)]);
/// assert!(accept(&mirror, &Instance::plain(4), QUEEN, Some(Symmetry::R90), &[]).is_ok());
/// assert!(accept(&mirror, &Instance::plain(4), QUEEN, None, &[Symmetry::FlipV]).is_err());
/// ```
pub fn accept(
    board: &Board,
    instance: &Instance,
    piece: Piece,
    symmetric: Option<Symmetry>,
    lex_leader: &[Symmetry],
) -> Result<(), String> {
    verify(board, instance, piece)?;
    if let Some(g) = symmetric {
        verify_symmetric(board, g)?;
    }
    verify_lex_leader(board, lex_leader)
}
