//! `--solver bitboard`: a first-solution bit-parallel backtracking search for queens and amazons
//! on a presolved problem (pre-placed pieces, blocked cells and excluded diagonals are all
//! already folded into its live cells), the method of the dedicated solver of Gent, Jefferson and
//! Nightingale for the excluded-diagonal family, with the propagation a CDCL solver gets for free
//! from the at-least-one clauses:
//!
//! - every open row keeps the columns it may still take as one `u64`; a placement removes its
//!   column, its two diagonals (and its knight leaps) from every other open row with a few shifts;
//! - a row without a cell, or a free column that no open row can take, fails the node;
//! - a free column that only one open row can take is placed at once (a forced move); else the
//!   open row with the fewest cells is branched on (fail first), lowest column first, unless it
//!   has three or more and some free column only two rows can take: then those two rows are the
//!   branches (5-18 % fewer nodes on excluded-diagonal instances n = 20..24). Counting the live
//!   diagonals of each kind against the open rows cut only 2-9 % more nodes and cost more time
//!   than it saved.
//!
//! The search is exhaustive, so it proves UNSAT as well. It keeps no learned facts, yet on the
//! tail set (blocked n <= 56, excluded diagonals n = 20/21) it answered faster than the CDCL
//! cube-and-conquer (docs/benchmarks.md, "The bitboard search in the default strategy"), so the
//! default strategy races the two ([`super::Solver`]); at the excluded-diagonal frontier
//! (n >= 26 near the 50 % point) both run out of time on some instances.

use std::time::{Duration, Instant};

use crate::answer::Answer;
use crate::board::{Board, Cell};
use crate::error::{Error, Result};
use crate::interrupt::Cancel;
use crate::piece::{Shape, full};
use crate::presolve::Problem;

/// Search nodes between two looks at the clock and the cancel token.
const CHECK_EVERY: u64 = 1 << 12;

/// What [`search`] found, and how many nodes it visited.
#[derive(Clone, Debug)]
pub struct Found {
    /// A board (the fixed pieces plus the placed ones; not yet verified), UNSAT, or UNKNOWN
    /// when the time ran out or the search was cancelled.
    pub answer: Answer<Board>,
    /// Search nodes visited.
    pub nodes: u64,
}

/// Searches `problem` for one board within `timeout` (none: no limit), stopping when `cancel`
/// is raised. The problem must be presolved, of side at most 64, with a queen or an amazon.
///
/// ```
/// use queens_sat::{answer::Answer, instance::Instance, piece::QUEEN, presolve::Problem};
/// use queens_sat::solve::bitboard::search;
/// let p = Problem::presolve(&Instance::plain(8), QUEEN).unwrap();
/// let found = search(&p, None, None).unwrap();
/// assert!(matches!(found.answer, Answer::Sat(ref b) if b.pieces.len() == 8));
/// let p3 = Problem::presolve(&Instance::plain(3), QUEEN).unwrap();
/// assert_eq!(search(&p3, None, None).unwrap().answer, Answer::Unsat);
/// ```
pub fn search(
    problem: &Problem,
    timeout: Option<Duration>,
    cancel: Option<&Cancel>,
) -> Result<Found> {
    let Some(shape) = Shape::of(&problem.piece) else {
        return Err(Error::Usage(format!(
            "--solver bitboard searches queens and amazons, not {}",
            problem.piece.name
        )));
    };
    let n = problem.n as usize;
    if n > 64 || !problem.presolved {
        return Err(Error::Usage(
            "--solver bitboard needs a presolved board of side at most 64".into(),
        ));
    }
    if problem.unsat.is_some() {
        return Ok(Found {
            answer: Answer::Unsat,
            nodes: 0,
        });
    }
    let mut masks = [0u64; 64];
    let mut filled = [false; 64];
    let mut cols_free = full(n);
    for c in &problem.fixed {
        filled[c.row as usize] = true;
        cols_free &= !(1u64 << c.col);
    }
    for (cell, _) in problem.varmap.cells() {
        masks[cell.row as usize] |= 1u64 << cell.col;
    }
    let open: Vec<u8> = (0..n).filter(|&r| !filled[r]).map(|r| r as u8).collect();
    let mut s = Search {
        shape,
        nodes: 0,
        deadline: timeout.map(|t| Instant::now() + t),
        cancel,
        stopped: None,
        placed: Vec::with_capacity(open.len()),
    };
    let found = s.go(&open, &masks, cols_free);
    let answer = if found {
        let mut pieces = problem.fixed.clone();
        pieces.extend(s.placed.iter().map(|&(r, c)| Cell::new(r as u32, c as u32)));
        Answer::Sat(Board::new(problem.n, pieces))
    } else if let Some(why) = s.stopped {
        Answer::Unknown(why)
    } else {
        Answer::Unsat
    };
    Ok(Found {
        answer,
        nodes: s.nodes,
    })
}

/// The state of one search.
struct Search<'a> {
    shape: Shape,
    nodes: u64,
    deadline: Option<Instant>,
    cancel: Option<&'a Cancel>,
    /// Why the search stopped early (time limit, cancel).
    stopped: Option<String>,
    /// The placements of the solution, deepest first (filled on the way back up).
    placed: Vec<(usize, usize)>,
}

impl Search<'_> {
    /// Whether the open rows `open` (their allowed columns in `masks`) can all be filled, every
    /// column of `cols_free` taken once.
    fn go(&mut self, open: &[u8], masks: &[u64; 64], cols_free: u64) -> bool {
        if open.is_empty() {
            return true;
        }
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK_EVERY) && self.should_stop() {
            return false;
        }
        // Fail first: the row with the fewest cells; columns taken by no row (fail) or one.
        let (mut once, mut twice, mut thrice) = (0u64, 0u64, 0u64);
        let mut best = (u32::MAX, 0usize);
        for (i, &r) in open.iter().enumerate() {
            let m = masks[r as usize];
            let k = m.count_ones();
            if k == 0 {
                return false;
            }
            if k < best.0 {
                best = (k, i);
            }
            thrice |= twice & m;
            twice |= once & m;
            once |= m;
        }
        if cols_free & !once != 0 {
            return false;
        }
        let single = cols_free & once & !twice;
        let double = cols_free & twice & !thrice;
        let col = if best.0 > 1 && single != 0 {
            single
        } else if best.0 > 2 && double != 0 {
            double
        } else {
            0
        };
        let (i, mut cand) = if col != 0 {
            // A column only one (two) rows can take: branch on who takes it.
            let col = col & col.wrapping_neg();
            let i = open
                .iter()
                .position(|&r| masks[r as usize] & col != 0)
                .expect("a column in `once` lies in some row");
            if col & single != 0 {
                (i, col)
            } else {
                (usize::MAX, col)
            }
        } else {
            (best.1, masks[open[best.1] as usize])
        };
        if i == usize::MAX {
            return self.column(open, masks, cols_free, cand);
        }
        while cand != 0 {
            let bit = cand & cand.wrapping_neg();
            cand ^= bit;
            if self.place(open, i, bit, masks, cols_free) {
                return true;
            }
            if self.stopped.is_some() {
                return false;
            }
        }
        false
    }

    /// Branches on which open row takes column `col` (a single bit).
    fn column(&mut self, open: &[u8], masks: &[u64; 64], cols_free: u64, col: u64) -> bool {
        for i in 0..open.len() {
            if masks[open[i] as usize] & col == 0 {
                continue;
            }
            if self.place(open, i, col, masks, cols_free) {
                return true;
            }
            if self.stopped.is_some() {
                return false;
            }
        }
        false
    }

    /// Places a piece on open row `open[i]`, column `bit`, and searches on.
    fn place(
        &mut self,
        open: &[u8],
        i: usize,
        bit: u64,
        masks: &[u64; 64],
        cols_free: u64,
    ) -> bool {
        let row = open[i] as usize;
        let mut rest = [0u8; 64];
        let k = open.len() - 1;
        rest[..i].copy_from_slice(&open[..i]);
        rest[i..k].copy_from_slice(&open[i + 1..]);
        let rest = &rest[..k];
        let mut next = *masks;
        for &r in rest {
            let r = r as usize;
            let d = r.abs_diff(row) as u32;
            let mut hit = bit | bit << d | bit >> d;
            if self.shape == Shape::Amazon && d <= 2 {
                let k = 3 - d; // a knight leap one row away moves 2 columns, two rows away 1
                hit |= bit << k | bit >> k;
            }
            next[r] = masks[r] & !hit;
        }
        if self.go(rest, &next, cols_free & !bit) {
            self.placed.push((row, bit.trailing_zeros() as usize));
            return true;
        }
        false
    }

    /// Whether the time limit passed or the caller cancelled (recording why).
    fn should_stop(&mut self) -> bool {
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.stopped = Some("time limit reached".into());
        } else if self.cancel.is_some_and(Cancel::is_cancelled) {
            self.stopped = Some("cancelled".into());
        }
        self.stopped.is_some()
    }
}
