//! Local search: min-conflicts repair by swaps over the presolved problem, an incomplete solver
//! that answers SAT (with a board) or gives up.
//!
//! Every row and column holds one piece, so a candidate board is a perfect matching of the free
//! rows onto the free columns over live cells (the starting point is a random one, from
//! [`crate::matching::max_matching`] over shuffled edges). Swapping the columns of two rows keeps
//! it a matching; the search swaps to lower the number of attacking pairs along diagonals and
//! leaps, with a little noise and restarts, until no pair attacks. This is the permutation
//! method of Sosič and Gu ("3,000,000 queens in less than one minute", SIGART Bulletin 2(2),
//! 1991), generalised to blocked cells, excluded diagonals, pre-placed pieces and leapers.
//!
//! It finds plain and lightly constrained boards in milliseconds (a plain 1000 x 1000 board
//! takes about 10 ms, against seconds of encoding and CDCL search), and cannot prove
//! anything UNSAT: the default solve strategy tries it with a small budget before the complete
//! solver. The caller verifies every board it returns.
//!
//! ```
//! use queens_sat::{instance::Instance, piece::QUEEN, presolve::Problem, verify::verify};
//! use queens_sat::local_search::{walk, WalkSettings};
//! let inst = Instance::plain(200);
//! let p = Problem::presolve(&inst, QUEEN).unwrap();
//! let board = walk(&p, &WalkSettings::default()).expect("a 200-queens board");
//! assert!(verify(&board, &inst, QUEEN).is_ok());
//! ```

use crate::board::{Board, Cell};
use crate::piece::LineKind;
use crate::presolve::Problem;

/// Budget and seed of one [`walk`].
#[derive(Clone, Debug)]
pub struct WalkSettings {
    /// Give up after this many swap attempts, over all restarts.
    pub max_tries: u64,
    /// Seed of the pseudo-random choices (the search is deterministic for a seed).
    pub seed: u64,
    /// Give up when this token stops (raised, or its deadline passed:
    /// [`crate::interrupt::Cancel::with_timeout`]).
    pub cancel: Option<crate::interrupt::Cancel>,
}

impl Default for WalkSettings {
    fn default() -> WalkSettings {
        WalkSettings {
            max_tries: 20_000_000,
            seed: 0x5eed,
            cancel: None,
        }
    }
}

/// The search state: one piece per free row, attack counters per line and the number of
/// attacking pairs. Rows are indexed among the free rows and columns among the live columns
/// (the core), so the state and each restart cost what the core costs; only the attack
/// counters (O(n), by board line) and `at` (O(n), for leaps) are board-sized, allocated once
/// and emptied by [`State::clear`].
struct State<'a> {
    n: usize,
    /// Free rows (rows with live cells), and the live-column index of each one's piece.
    rows: &'a [usize],
    col: Vec<usize>,
    /// The live columns (board columns, ascending).
    cols: &'a [u32],
    /// Whether row i has a piece (between [`State::add`] and [`State::remove`]).
    placed: Vec<bool>,
    /// `at[r]`: the board column of row r's piece, or `usize::MAX`.
    at: Vec<usize>,
    /// Live cells, one bit per (free row, live column), `words` u64 per free row; empty when
    /// every cell is live (`full`: a plain board, which then costs O(n) memory).
    live: &'a [u64],
    full: bool,
    words: usize,
    diag: Vec<u32>,
    anti: Vec<u32>,
    use_diag: bool,
    use_anti: bool,
    leaps: &'a [(i32, i32)],
    /// Attacking pairs among the placed pieces.
    conflicts: u64,
}

impl State<'_> {
    /// Whether free row `i` has a live cell in live column `k`.
    fn is_live(&self, i: usize, k: usize) -> bool {
        self.full || self.live[i * self.words + k / 64] >> (k % 64) & 1 == 1
    }

    /// Pieces that a piece at board cell (r, c) would attack (itself not counted).
    fn cost(&self, r: usize, c: usize) -> u64 {
        let mut k = 0;
        if self.use_diag {
            k += u64::from(self.diag[r + self.n - 1 - c]);
        }
        if self.use_anti {
            k += u64::from(self.anti[r + c]);
        }
        for &(dr, dc) in self.leaps {
            let (r2, c2) = (r as i64 + i64::from(dr), c as i64 + i64::from(dc));
            // Both coordinates on the board: a column left of it, cast, would be
            // `usize::MAX`, the mark of a row without a piece.
            let on = |x: i64| (0..self.n as i64).contains(&x);
            if on(r2) && on(c2) && self.at[r2 as usize] == c2 as usize {
                k += 1;
            }
        }
        k
    }

    /// Places row i's piece on live column `k`.
    fn add(&mut self, i: usize, k: usize) {
        let (r, c) = (self.rows[i], self.cols[k] as usize);
        self.conflicts += self.cost(r, c);
        self.col[i] = k;
        self.placed[i] = true;
        self.at[r] = c;
        self.diag[r + self.n - 1 - c] += 1;
        self.anti[r + c] += 1;
    }

    fn remove(&mut self, i: usize) {
        let (r, c) = (self.rows[i], self.cols[self.col[i]] as usize);
        self.diag[r + self.n - 1 - c] -= 1;
        self.anti[r + c] -= 1;
        self.at[r] = usize::MAX;
        self.placed[i] = false;
        self.conflicts -= self.cost(r, c);
    }

    /// Takes every piece off (the counters back to zero), in O(free rows).
    fn clear(&mut self) {
        for i in 0..self.rows.len() {
            if self.placed[i] {
                self.remove(i);
            }
        }
        debug_assert_eq!(self.conflicts, 0);
    }

    /// Attacks on row i's piece from the others.
    fn conflict_of(&mut self, i: usize) -> u64 {
        let k = self.col[i];
        self.remove(i);
        let cost = self.cost(self.rows[i], self.cols[k] as usize);
        self.add(i, k);
        cost
    }

    /// Swaps the columns of rows i and j and returns the change in attacking pairs.
    fn swap(&mut self, i: usize, j: usize) -> i64 {
        let before = self.conflicts;
        let (ci, cj) = (self.col[i], self.col[j]);
        self.remove(i);
        self.remove(j);
        self.add(i, cj);
        self.add(j, ci);
        self.conflicts as i64 - before as i64
    }
}

/// How the walk handles each line family of a piece, worked out once before the search: rows
/// and columns are the permutation itself (both are required), the two diagonal families are
/// counted per move. The `match` names every [`LineKind`], so a new family fails to compile here
/// until the walk counts it (or refuses pieces that ride it): it is never silently ignored.
#[derive(Clone, Copy, Debug, Default)]
struct Lines {
    rows: bool,
    cols: bool,
    diag: bool,
    anti: bool,
}

impl Lines {
    fn of(lines: &[LineKind]) -> Lines {
        let mut l = Lines::default();
        for &kind in lines {
            match kind {
                LineKind::Row => l.rows = true,
                LineKind::Column => l.cols = true,
                LineKind::Diagonal => l.diag = true,
                LineKind::AntiDiagonal => l.anti = true,
            }
        }
        l
    }
}

/// The walk's estimated peak memory in bytes on `problem`: on a plain board O(n) (a few
/// counters per row and line); elsewhere the live cells listed per free row twice (4 bytes
/// each) and the bitmap of free rows x live columns.
pub fn walk_bytes(problem: &Problem) -> u64 {
    let n = u64::from(problem.n);
    let board = 64 * n;
    if problem.varmap.is_row_major() {
        return board;
    }
    let cells = problem.varmap.num_cells();
    board + 8 * cells + n * n.div_ceil(64) * 8
}

/// Searches for a board of `problem` by min-conflicts swaps; `None` when the budget runs out,
/// the problem is UNSAT by presolve, or its piece is not one per row and column.
pub fn walk(problem: &Problem, settings: &WalkSettings) -> Option<Board> {
    let lines = Lines::of(problem.piece.lines);
    if problem.unsat.is_some() || !lines.rows || !lines.cols {
        return None;
    }
    let n = problem.n as usize;
    let map = &problem.varmap;
    // A plain board (every cell live): no lists and no bitmap, O(n) memory at any n.
    let full = map.is_row_major();
    let (rows, cols, live, words, mut adj) = if full {
        let all: Vec<usize> = (0..n).collect();
        (
            all,
            (0..n as u32).collect::<Vec<u32>>(),
            Vec::new(),
            0,
            None,
        )
    } else {
        if walk_bytes(problem) > crate::memory::available_memory().unwrap_or(u64::MAX) {
            return None;
        }
        // The core: the free rows (with live cells) and the live columns, numbered 0.. in
        // order.
        let mut rows = Vec::new();
        let mut by_row: Vec<Vec<u32>> = Vec::new();
        let stopped = || settings.cancel.as_ref().is_some_and(|c| c.is_stopped());
        for r in 0..n {
            // Listing a big core's cells takes a while: the stop reaches into it.
            if r % 64 == 0 && stopped() {
                return None;
            }
            let cols: Vec<u32> = map.row_cols(r as u32).collect();
            if !cols.is_empty() {
                rows.push(r);
                by_row.push(cols);
            }
        }
        let mut cols: Vec<u32> = by_row.iter().flatten().copied().collect();
        cols.sort_unstable();
        cols.dedup();
        let words = cols.len().div_ceil(64);
        // One bit per (free row, live column): 2^27 bits (16 MiB) at most.
        if (rows.len() as u64) * (words as u64) > 1 << 21 {
            return None;
        }
        let mut live = vec![0u64; rows.len() * words];
        let adj: Vec<Vec<u32>> = by_row
            .iter()
            .enumerate()
            .map(|(i, row)| {
                row.iter()
                    .map(|c| {
                        let k = cols.binary_search(c).expect("a live column");
                        live[i * words + k / 64] |= 1 << (k % 64);
                        k as u32
                    })
                    .collect()
            })
            .collect();
        (rows, cols, live, words, Some(adj))
    };
    let mut leaps: Vec<(i32, i32)> = problem.piece.leaps.to_vec();
    leaps.sort_unstable();
    leaps.dedup();
    let mut rng = crate::prng::Prng::new(settings.seed);
    let mut tries = 0u64;
    let out_of_time = |tries: u64| {
        settings.cancel.as_ref().is_some_and(|c| c.is_stopped()) || tries >= settings.max_tries
    };
    let m = rows.len();
    let mut s = State {
        n,
        rows: &rows,
        col: vec![0; m],
        cols: &cols,
        placed: vec![false; m],
        at: vec![usize::MAX; n],
        live: &live,
        full,
        words,
        diag: vec![0; 2 * n - 1],
        anti: vec![0; 2 * n - 1],
        use_diag: lines.diag,
        use_anti: lines.anti,
        leaps: &leaps,
        conflicts: 0,
    };
    // owner[k]: the free row whose piece stands in live column k.
    let mut owner = vec![usize::MAX; cols.len()];
    while !out_of_time(tries) {
        tries += 1;
        // A random perfect matching of the free rows onto the free columns (on a plain board,
        // a random permutation).
        s.clear();
        match adj.as_mut() {
            Some(adj) => {
                for (i, a) in adj.iter_mut().enumerate() {
                    if i % 64 == 0 && out_of_time(tries) {
                        return None;
                    }
                    for k in (1..a.len()).rev() {
                        a.swap(k, rng.index(k + 1));
                    }
                }
                let matching = crate::matching::max_matching(adj, cols.len());
                if matching.iter().any(Option::is_none) {
                    return None; // no perfect matching: UNSAT, for the complete solver to show
                }
                for (i, c) in matching.iter().enumerate() {
                    s.add(i, c.expect("perfect matching") as usize);
                }
            }
            None => {
                let mut perm: Vec<usize> = (0..m).collect();
                for k in (1..m).rev() {
                    perm.swap(k, rng.index(k + 1));
                }
                for (i, &c) in perm.iter().enumerate() {
                    s.add(i, c);
                }
            }
        }
        owner.fill(usize::MAX);
        for (i, &k) in s.col.iter().enumerate() {
            owner[k] = i;
        }
        let mut best = s.conflicts;
        let mut stale = 0u32;
        while s.conflicts > 0 && stale < 50 && !out_of_time(tries) {
            let conflicted: Vec<usize> = (0..m).filter(|&i| s.conflict_of(i) > 0).collect();
            for &i in &conflicted {
                if s.conflicts == 0 {
                    break;
                }
                tries += 1;
                if s.conflict_of(i) == 0 {
                    continue;
                }
                // Move row i's piece to another of its live columns, whose owner takes row i's
                // column (if that cell is live): the best of up to 32 such swaps.
                let len = adj.as_ref().map_or(m, |a| a[i].len());
                let ci = s.col[i];
                let mut choice: Option<(i64, usize)> = None;
                for t in 0..len.min(32) {
                    let pick = if len <= 32 { t } else { rng.index(len) };
                    let c2 = match &adj {
                        Some(a) => a[i][pick] as usize,
                        None => pick,
                    };
                    let j = owner[c2];
                    if j == usize::MAX || j == i || !s.is_live(j, ci) {
                        continue;
                    }
                    let delta = s.swap(i, j);
                    s.swap(i, j);
                    let better = match choice {
                        None => true,
                        Some((d, _)) => delta < d || (delta == d && rng.index(2) == 0),
                    };
                    if better {
                        choice = Some((delta, j));
                    }
                }
                if let Some((delta, j)) = choice {
                    // Keep improvements, sideways moves now and then, and rare uphill moves.
                    if delta < 0 || (delta == 0 && rng.index(2) == 0) || rng.index(50) == 0 {
                        let (a, b) = (s.col[i], s.col[j]);
                        s.swap(i, j);
                        owner[a] = j;
                        owner[b] = i;
                    }
                }
            }
            if s.conflicts < best {
                best = s.conflicts;
                stale = 0;
            } else {
                stale += 1;
            }
        }
        if s.conflicts == 0 {
            let mut pieces: Vec<Cell> = problem.fixed.clone();
            pieces.extend(
                rows.iter()
                    .zip(&s.col)
                    .map(|(&r, &k)| Cell::new(r as u32, cols[k])),
            );
            return Some(Board::new(problem.n, pieces));
        }
    }
    None
}
