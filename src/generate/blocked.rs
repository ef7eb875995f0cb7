//! Blocked n-queens instances: `m` blocked cells with at least `min_free` free cells left in
//! every row and column, drawn as csplib prob080 `blocked-gen.py` draws them.

use super::{Prng, check_side};
use crate::board::Cell;
use crate::error::{BadOption, Opt, Result};
use crate::instance::Instance;

/// Attempts `blocked-gen.py` makes before giving up.
pub(crate) const ATTEMPTS: usize = 1000;

/// Blocks `m` cells of an `n x n` board, keeping at least `min_free` free cells in every row
/// and column.
///
/// The procedure of `blocked-gen.py`: for up to `ATTEMPTS` attempts, shuffle the list of all
/// `n * n` cells (row-major before the shuffle, `Prng::shuffle`) and walk it, blocking a cell
/// when its row and its column both still have more than `min_free` free cells, until `m` are
/// blocked. The cells are returned sorted row-major (the script sorts its answer). `m = 0`
/// gives the empty board.
///
/// Fails with a one-line error when `m > n * (n - min_free)` (no attempt can succeed) or when
/// every attempt stalls below `m`.
///
/// ```
/// let inst = queens_sat::generate::blocked::generate(8, 20, 2, 1).unwrap();
/// assert_eq!(inst.blocked.len(), 20);
/// ```
pub fn generate(n: u32, m: u32, min_free: u32, seed: u64) -> Result<Instance> {
    check_side(n)?;
    let capacity = u64::from(n) * u64::from(n.saturating_sub(min_free));
    if u64::from(m) > capacity {
        return Err(BadOption::invalid(
            Opt::M,
            m,
            format!(
                "is too many: at most n*(n-min_free) = {capacity} cells can be blocked (n = {n}, \
                 min_free = {min_free})"
            ),
        ));
    }
    let mut inst = Instance::plain(n);
    if m == 0 {
        return Ok(inst);
    }
    let size = n as usize;
    let mut rng = Prng::new(seed);
    let cells: Vec<Cell> = (0..n)
        .flat_map(|r| (0..n).map(move |c| Cell::new(r, c)))
        .collect();
    for _ in 0..ATTEMPTS {
        let mut order = cells.clone();
        rng.shuffle(&mut order);
        let mut row_free = vec![n; size];
        let mut col_free = vec![n; size];
        let mut answer = Vec::with_capacity(m as usize);
        for q in order {
            let (r, c) = (q.row as usize, q.col as usize);
            if row_free[r] > min_free && col_free[c] > min_free {
                row_free[r] -= 1;
                col_free[c] -= 1;
                answer.push(q);
                if answer.len() == m as usize {
                    answer.sort_unstable();
                    inst.blocked = answer;
                    return Ok(inst);
                }
            }
        }
    }
    Err(BadOption::invalid(
        Opt::M,
        m,
        format!(
            "cells could not be blocked on the {n}x{n} board keeping min_free = {min_free} with \
             seed {seed}: gave up after {ATTEMPTS} attempts (try a smaller m or min_free)"
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn free_counts(inst: &Instance) -> (Vec<u32>, Vec<u32>) {
        let n = inst.n as usize;
        let mut rows = vec![inst.n; n];
        let mut cols = vec![inst.n; n];
        for b in &inst.blocked {
            rows[b.row as usize] -= 1;
            cols[b.col as usize] -= 1;
        }
        (rows, cols)
    }

    #[test]
    fn free_minimum_kept_over_many_seeds() {
        for seed in 0..200 {
            for (n, m, k) in [(1, 0, 1), (4, 8, 2), (8, 40, 3), (10, 90, 1), (28, 300, 5)] {
                let inst = generate(n, m, k, seed).unwrap();
                assert_eq!(inst.blocked.len(), m as usize);
                assert!(
                    inst.blocked.windows(2).all(|w| w[0] < w[1]),
                    "sorted, distinct"
                );
                assert!(inst.placed.is_empty() && inst.excluded.is_empty());
                let (rows, cols) = free_counts(&inst);
                assert!(
                    rows.iter().chain(&cols).all(|&f| f >= k),
                    "n={n} m={m} k={k} seed={seed}: {rows:?} {cols:?}"
                );
            }
        }
    }

    #[test]
    fn full_capacity_is_reachable_sometimes_and_never_exceeded() {
        // n*(n-k) blocks leave exactly k free everywhere; greedy may stall but must never cheat.
        for seed in 0..20 {
            if let Ok(inst) = generate(6, 24, 2, seed) {
                let (rows, cols) = free_counts(&inst);
                assert!(rows.iter().chain(&cols).all(|&f| f == 2));
            }
        }
    }

    #[test]
    fn same_seed_same_instance() {
        assert_eq!(
            generate(20, 100, 3, 11).unwrap(),
            generate(20, 100, 3, 11).unwrap()
        );
        assert_ne!(
            generate(20, 100, 3, 11).unwrap(),
            generate(20, 100, 3, 12).unwrap()
        );
    }

    #[test]
    fn impossible_requests_fail_cleanly() {
        let e = generate(8, 57, 1, 1).unwrap_err().to_string();
        assert!(
            e.contains("-m 57 is too many: at most n*(n-min_free) = 56"),
            "{e}"
        );
        assert!(generate(8, 1, 8, 1).is_err());
        assert_eq!(generate(8, 0, 8, 1).unwrap(), Instance::plain(8));
    }
}
