//! The independent counting engine: a bitboard backtracking search, one piece per row, that knows
//! nothing of CNF. Used to cross-check the SAT engine (`--engine backtrack`, `--cross-check`).

use crate::board::Cell;
use crate::error::{Error, Result};
use crate::instance::Instance;
use crate::piece::{LineKind, Piece};
use crate::symmetry::Symmetry;

/// Largest board the bitboard engine handles (one `u64` per row).
pub const MAX_N: u32 = 64;

/// Per-solution tallies: the solution count and, per group element, how many solutions it fixes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Solutions found.
    pub total: u64,
    /// `fixed[i]` counts the solutions that `group[i]` maps to themselves.
    pub fixed: Vec<u64>,
}

struct Search<'a> {
    n: usize,
    full: u64,
    /// Allowed columns per row (blocked cells and excluded diagonals removed; a row holding a
    /// pre-placed piece allows only that column).
    allowed: Vec<u64>,
    cols_attack: bool,
    diag_attack: bool,
    anti_attack: bool,
    /// Forward leaps (dr > 0).
    leaps: Vec<(usize, i64)>,
    cols: Vec<usize>,
    group: &'a [Symmetry],
    tally: Tally,
}

impl Search<'_> {
    fn go(&mut self, r: usize, used_cols: u64, diag: u64, anti: u64) {
        if r == self.n {
            self.record();
            return;
        }
        // Bit c of `diag` marks column c of this row on an attacked difference diagonal; `anti`
        // likewise for sum diagonals. They shift by one column per row.
        let mut free = self.allowed[r] & !used_cols & !diag & !anti & self.full;
        for &(dr, dc) in &self.leaps {
            if r >= dr {
                let q = self.cols[r - dr] as i64 + dc;
                if (0..self.n as i64).contains(&q) {
                    free &= !(1u64 << q);
                }
            }
        }
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            self.cols[r] = bit.trailing_zeros() as usize;
            let c = if self.cols_attack { bit } else { 0 };
            let d = if self.diag_attack { bit } else { 0 };
            let a = if self.anti_attack { bit } else { 0 };
            self.go(
                r + 1,
                used_cols | c,
                ((diag | d) << 1) & self.full,
                (anti | a) >> 1,
            );
        }
    }

    fn record(&mut self) {
        self.tally.total += 1;
        let n = self.n as u32;
        for (i, g) in self.group.iter().enumerate() {
            let fixed = (0..self.n).all(|r| {
                let img = g.apply(Cell::new(r as u32, self.cols[r] as u32), n);
                self.cols[img.row as usize] == img.col as usize
            });
            if fixed {
                self.tally.fixed[i] += 1;
            }
        }
    }
}

/// Whether the bitboard search models `piece`, or why not: it places one piece per row, so the
/// piece must attack along rows, with leaps that change row (a leap within a row is not a row
/// attack), and [`Piece::validate`] must hold. Every [`LineKind`] is modelled (row, column and
/// both diagonals as bit masks).
///
/// ```
/// use queens_sat::{count::backtrack::supports, piece::{LineKind, Piece, AMAZON}};
/// assert!(supports(&AMAZON).is_ok());
/// let no_rows = Piece { name: "no-rows", lines: &[LineKind::Column], leaps: &[] };
/// assert!(supports(&no_rows).is_err());
/// ```
pub fn supports(piece: &Piece) -> Result<()> {
    piece.validate().map_err(Error::Usage)?;
    if !piece.lines.contains(&LineKind::Row) {
        return Err(Error::Usage(format!(
            "the backtrack engine needs a piece that attacks along rows ({} does not)",
            piece.name
        )));
    }
    if piece.leaps.iter().any(|&(dr, _)| dr == 0) {
        return Err(Error::Usage(format!(
            "the backtrack engine needs leaps that change row ({} has one that does not)",
            piece.name
        )));
    }
    Ok(())
}

/// Counts the solutions of `instance` for `piece` by backtracking, with the fixed-point count of
/// every element of `group`. Splits the first row's choices over `jobs` threads.
///
/// ```
/// use queens_sat::{count::backtrack::count, instance::Instance, piece::QUEEN, symmetry::Symmetry};
/// let t = count(&Instance::plain(8), QUEEN, &Symmetry::ALL, 1).unwrap();
/// assert_eq!(t.total, 92);
/// assert_eq!(t.fixed[2], 4); // r180
/// ```
pub fn count(instance: &Instance, piece: Piece, group: &[Symmetry], jobs: usize) -> Result<Tally> {
    let n = instance.n;
    if n > MAX_N {
        return Err(Error::Usage(format!(
            "the backtrack engine handles n <= {MAX_N}, not {n}"
        )));
    }
    supports(&piece)?;
    let nn = n as usize;
    let full = if nn == 64 { u64::MAX } else { (1u64 << nn) - 1 };
    let obstacles = instance.obstacles();
    let mut allowed = vec![full; nn];
    for (r, mask) in allowed.iter_mut().enumerate() {
        for c in 0..nn {
            if obstacles.contains(Cell::new(r as u32, c as u32)) {
                *mask &= !(1u64 << c);
            }
        }
    }
    for p in &instance.placed {
        let bit = 1u64 << p.col;
        // Two pre-placed pieces in one row leave the row empty.
        allowed[p.row as usize] &= bit;
    }
    let leaps: Vec<(usize, i64)> = piece
        .forward_leaps()
        .filter(|&(dr, _)| dr > 0)
        .map(|(dr, dc)| (dr as usize, dc as i64))
        .collect();
    let (mut cols_attack, mut diag_attack, mut anti_attack) = (false, false, false);
    for &kind in piece.lines {
        // No wildcard: a new line kind must be modelled here, or rejected in `supports`.
        match kind {
            LineKind::Row => {} // one piece per row is the search itself
            LineKind::Column => cols_attack = true,
            // A difference diagonal (r - c constant) moves one column right per row: shift left.
            LineKind::Diagonal => diag_attack = true,
            LineKind::AntiDiagonal => anti_attack = true,
        }
    }
    let mk = |allowed: Vec<u64>| Search {
        n: nn,
        full,
        allowed,
        cols_attack,
        diag_attack,
        anti_attack,
        leaps: leaps.clone(),
        cols: vec![0; nn],
        group,
        tally: Tally {
            total: 0,
            fixed: vec![0; group.len()],
        },
    };
    // Split on the first row's columns.
    let first: Vec<usize> = (0..nn).filter(|&c| allowed[0] >> c & 1 == 1).collect();
    let jobs = jobs.max(1);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let parts: Vec<Tally> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..jobs)
            .map(|_| {
                s.spawn(|| {
                    let mut acc = Tally {
                        total: 0,
                        fixed: vec![0; group.len()],
                    };
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(&c) = first.get(i) else { break };
                        if crate::interrupt::interrupted() {
                            break;
                        }
                        let mut a = allowed.clone();
                        a[0] = 1u64 << c;
                        let mut s = mk(a);
                        s.go(0, 0, 0, 0);
                        acc.total += s.tally.total;
                        for (x, y) in acc.fixed.iter_mut().zip(&s.tally.fixed) {
                            *x += y;
                        }
                    }
                    acc
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("backtrack worker"))
            .collect()
    });
    if crate::interrupt::interrupted() {
        return Err(Error::Interrupted);
    }
    let mut tally = Tally {
        total: 0,
        fixed: vec![0; group.len()],
    };
    for p in parts {
        tally.total += p.total;
        for (x, y) in tally.fixed.iter_mut().zip(&p.fixed) {
            *x += y;
        }
    }
    Ok(tally)
}
