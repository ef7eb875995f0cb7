//! Explicit constructions for plain boards (`--solver construct`, and the default strategy's
//! first step on a plain board): a solution of any size in O(n) time and memory, without a CNF
//! or a search.
//!
//! - **Queens**, every n ≥ 4 (and n = 1), after Hoffman, Loessi and Moore (1969) and
//!   Bernhardsson (1991), in 1-based columns for rows 1..n: when n mod 6 is neither 2 nor 3, the
//!   even columns 2, 4, .., then the odd ones 1, 3, ..; when n mod 6 = 2, the evens, then
//!   3, 1, 7, 9, .., 5 (1 and 3 swapped, 5 moved to the end); when n mod 6 = 3, 4, 6, .., 2 (2
//!   moved to the end), then 5, 7, .., 1, 3 (1 and 3 moved to the end). n = 2 and 3 have no
//!   solution (a board so small is decided by looking at every placement, which is what the
//!   tests' brute-force oracle does).
//! - **Amazons** (queen + knight), the modular boards `q(i) = k·i mod m` (Pólya's toroidal
//!   queens): a solution on the torus, hence on the board, when `k`, `k - 1` and `k + 1` are
//!   prime to `m`; knight-free when the column steps of adjacent rows (`k`, or `k - m`) are not
//!   ±2 and those of rows two apart (`2k mod m`, or that less `m`) are not ±1. For n prime to 6
//!   (n ≡ ±1 mod 6) the smallest such `k` with `m = n`; for n ≡ 0 or 4 (mod 6) the board of
//!   `m = n + 1` without its row 0 and column 0 (`q(0) = 0`: a corner, so the rest is a
//!   solution of the smaller board, which keeps every attack-free pair). Other n (≡ 2, 3 mod 6)
//!   have no construction here: the engine answers UNKNOWN and the default strategy goes on to
//!   local search.
//!
//! Like every engine's, its boards pass the independent checker ([`crate::verify`], O(n) on such
//! boards) before they are returned.

use std::time::Instant;

use crate::answer::Answer;
use crate::board::{Board, Cell};
use crate::encode::EncodeOptions;
use crate::error::Result;
use crate::interrupt::Cancel;
use crate::piece::{LineKind, Piece};
use crate::presolve::Problem;
use crate::solve::engine::{
    Capabilities, Engine, EngineInfo, Found, Outcome, Settings, Unsupported,
};

/// The construction engine (`--solver construct`): plain queens boards of every n, plain
/// amazons boards of n ≡ 0, 1, 4, 5 (mod 6) from n = 10 on.
#[derive(Clone, Copy, Debug, Default)]
pub struct Construct;

/// The construction's columns, one per row (`cols[r]` is row r's column), for `piece` on a
/// plain `n x n` board: `Some` with a solution, or `None` where there is none (queens n = 2, 3)
/// or no construction is known here (amazons n ≡ 2, 3 mod 6, and n = 2..=9).
///
/// ```
/// use queens_sat::{board::{Board, Cell}, instance::Instance, piece::QUEEN, verify::verify};
/// use queens_sat::solve::construct::columns;
/// let cols = columns(8, QUEEN).unwrap();
/// let board = Board::new(8, cols.iter().enumerate().map(|(r, &c)| Cell::new(r as u32, c)).collect());
/// assert!(verify(&board, &Instance::plain(8), QUEEN).is_ok());
/// assert!(columns(3, QUEEN).is_none());
/// ```
pub fn columns(n: u32, piece: Piece) -> Option<Vec<u32>> {
    match Kind::of(piece)? {
        Kind::Queen => queens(n),
        Kind::Amazon => amazons(n),
    }
}

/// What the construction builds for a piece: the queen's board (for any piece that rides at
/// most rows, columns and diagonals and leaps nowhere), the amazon's (at most those lines and
/// the knight's leaps).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Queen,
    Amazon,
}

impl Kind {
    fn of(piece: Piece) -> Option<Kind> {
        // Every family named: a new one must be placed here (the construction's boards are
        // attack-free on rows, columns and both diagonals, nothing else).
        let lines_ok = piece.lines.iter().all(|&k| match k {
            LineKind::Row | LineKind::Column | LineKind::Diagonal | LineKind::AntiDiagonal => true,
        });
        let knight = |&(dr, dc): &(i32, i32)| {
            let (a, b) = (dr.unsigned_abs(), dc.unsigned_abs());
            (a, b) == (1, 2) || (a, b) == (2, 1)
        };
        match (lines_ok, piece.leaps.is_empty()) {
            (false, _) => None,
            (true, true) => Some(Kind::Queen),
            (true, false) if piece.leaps.iter().all(knight) => Some(Kind::Amazon),
            (true, false) => None,
        }
    }
}

/// Whether a piece rides every one of the four families (then n = 2, 3 have no board).
fn rides_all(piece: Piece) -> bool {
    LineKind::ALL.iter().all(|k| piece.lines.contains(k))
}

/// Whether a plain `n x n` board has no board for `piece` by the construction's argument:
/// queens (and any piece riding all four families) on n = 2, 3, where two pieces in adjacent
/// rows always share a column or a diagonal.
fn no_board(n: u32, piece: Piece) -> bool {
    (n == 2 || n == 3) && rides_all(piece)
}

/// What the construction answers on a plain `n x n` board of `piece`, known without running it
/// (a plan decides by it): `Some(true)` a board, `Some(false)` UNSAT ([`no_board`]: an argument,
/// not a checked proof), `None` nothing (no construction is known here).
pub(crate) fn answers(n: u32, piece: Piece) -> Option<bool> {
    match columns(n, piece) {
        Some(_) => Some(true),
        None if no_board(n, piece) => Some(false),
        None => None,
    }
}

/// The queens construction (module docs), 0-based columns.
fn queens(n: u32) -> Option<Vec<u32>> {
    if n == 2 || n == 3 {
        return None;
    }
    // 1-based column lists, as the construction states them.
    let evens = (1..=n / 2).map(|k| 2 * k);
    let odds = (0..n.div_ceil(2)).map(|k| 2 * k + 1);
    let cols: Vec<u32> = match n % 6 {
        2 => {
            // 3, 1, 7, 9, ..., 5
            let mut o: Vec<u32> = odds.collect();
            o.swap(0, 1);
            if let Some(pos) = o.iter().position(|&c| c == 5) {
                let five = o.remove(pos);
                o.push(five);
            }
            evens.chain(o).collect()
        }
        3 => {
            // 4, 6, ..., 2 then 5, 7, ..., 1, 3
            let e = evens.filter(|&c| c != 2).chain(std::iter::once(2));
            let o = odds
                .filter(|&c| c != 1 && c != 3)
                .chain([1, 3].into_iter().filter(|&c| c <= n));
            e.chain(o).collect()
        }
        _ => evens.chain(odds).collect(),
    };
    Some(cols.into_iter().map(|c| c - 1).collect())
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// The multiplier `k` of a knight-free modular amazons board of side `m` (module docs), if any.
fn amazon_step(m: u64) -> Option<u64> {
    (2..m.saturating_sub(1)).find(|&k| {
        let coprime = |x: u64| gcd(x, m) == 1;
        let two = (2 * k) % m;
        coprime(k)
            && coprime(k - 1)
            && coprime(k + 1)
            && k != 2
            && k != m - 2
            && two != 1
            && two != m - 1
    })
}

/// The amazons construction (module docs), 0-based columns.
fn amazons(n: u32) -> Option<Vec<u32>> {
    if n == 1 {
        return Some(vec![0]);
    }
    let n64 = u64::from(n);
    match n % 6 {
        1 | 5 => {
            let k = amazon_step(n64)?;
            Some((0..n64).map(|i| (k * i % n64) as u32).collect())
        }
        0 | 4 => {
            let m = n64 + 1;
            let k = amazon_step(m)?;
            // Rows 1..m of the board of side m, whose row 0 holds the corner (0, 0).
            Some((1..m).map(|i| (k * i % m - 1) as u32).collect())
        }
        _ => None,
    }
}

impl Engine for Construct {
    fn info(&self) -> EngineInfo {
        EngineInfo {
            name: "construct".into(),
            about: "explicit O(n) construction of a plain board (queens: every n; amazons: n ≡ \
                    0, 1, 4, 5 mod 6); no search"
                .into(),
            // UNSAT only on n = 2, 3 (every placement fails); elsewhere it builds or gives up,
            // so it does not count as an engine that decides.
            caps: Capabilities {
                unsat: false,
                ..Capabilities::SEARCH
            },
        }
    }

    fn supports(
        &self,
        problem: &Problem,
        options: &EncodeOptions,
    ) -> std::result::Result<(), Unsupported> {
        let _ = options;
        let unsupported = |needs: &str| Unsupported {
            engine: "construct".into(),
            needs: needs.into(),
            conflict: None,
        };
        if !problem.instance.is_plain() {
            return Err(unsupported(
                "builds plain boards only (no pre-placed pieces, blocked cells or excluded \
                 diagonals)",
            ));
        }
        if Kind::of(problem.piece).is_none() {
            return Err(unsupported(
                "builds boards for queens and amazons (rows, columns, diagonals, knight leaps)",
            ));
        }
        Ok(())
    }

    fn solve(&self, problem: &Problem, settings: &Settings, cancel: &Cancel) -> Result<Outcome> {
        let _ = (settings, cancel);
        let t0 = Instant::now();
        let (n, piece) = (problem.n, problem.piece);
        let answer = match columns(n, piece) {
            Some(cols) => {
                let pieces = cols
                    .iter()
                    .enumerate()
                    .map(|(r, &c)| Cell::new(r as u32, c))
                    .collect();
                Answer::Sat(Found::Board(Board::new(n, pieces)))
            }
            None if no_board(n, piece) => Answer::Unsat,
            None => Answer::Unknown(format!(
                "no construction of a plain {n}-{} board is known here",
                piece.name
            )),
        };
        Ok(Outcome::new(answer, 0.0, t0.elapsed().as_secs_f64()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instance::Instance;
    use crate::piece::{AMAZON, QUEEN};
    use crate::verify::verify;

    fn board(n: u32, cols: &[u32]) -> Board {
        let pieces = cols
            .iter()
            .enumerate()
            .map(|(r, &c)| Cell::new(r as u32, c))
            .collect();
        Board::new(n, pieces)
    }

    #[test]
    fn queens_small() {
        for n in 1..=200 {
            match columns(n, QUEEN) {
                Some(c) => verify(&board(n, &c), &Instance::plain(n), QUEEN).unwrap(),
                None => assert!(n == 2 || n == 3, "n = {n}"),
            }
        }
    }

    #[test]
    fn amazons_small() {
        for n in 1..=300 {
            if let Some(c) = columns(n, AMAZON) {
                verify(&board(n, &c), &Instance::plain(n), AMAZON)
                    .unwrap_or_else(|e| panic!("n = {n}: {e}"));
            } else {
                assert!(n % 6 == 2 || n % 6 == 3 || n < 12, "n = {n}");
            }
        }
    }
}
