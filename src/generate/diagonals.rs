//! Excluded-diagonals instances: an ordered list of diagonals whose prefixes are the instances,
//! drawn as csplib prob079 `queens-diag-gen.py` draws it.

use super::{Prng, check_side};
use crate::error::Result;
use crate::instance::{ExcludedDiagonal, Instance};
use crate::piece::LineKind;

/// The ordered list of excluded diagonals for an `n x n` board that keeps at least `min_free`
/// free cells in every row and column.
///
/// The procedure of `queens-diag-gen.py` (`generatediags_all`): shuffle the `2n - 1` sum
/// diagonals (keys `r + c`), then the `2n - 1` difference diagonals (keys `r - c + n - 1`),
/// each as `0..2n-1` with `Prng::shuffle`. While either list is non-empty, pick a family
/// (a `Prng::coin`: heads sum, tails difference, drawn only when both lists are non-empty)
/// and pop the last key of its list. The diagonal is excluded when every cell on it that is
/// still free (not on an already excluded diagonal) lies in a row and a column with more than
/// `min_free` free cells; then those rows and columns lose one free cell each. Otherwise it is
/// skipped for good.
///
/// Every prefix of the list is an instance; the whole list is returned in
/// [`Instance::excluded`], in order, all entries distinct.
///
/// ```
/// let inst = queens_sat::generate::diagonals::generate(10, 4, 1).unwrap();
/// assert!(!inst.excluded.is_empty() && inst.excluded.len() <= 38);
/// ```
pub fn generate(n: u32, min_free: u32, seed: u64) -> Result<Instance> {
    check_side(n)?;
    let size = n as usize;
    let lines = 2 * size - 1;
    let mut rng = Prng::new(seed);
    let mut sums: Vec<u32> = (0..lines as u32).collect();
    let mut diffs: Vec<u32> = (0..lines as u32).collect();
    rng.shuffle(&mut sums);
    rng.shuffle(&mut diffs);
    let mut row_free = vec![n; size];
    let mut col_free = vec![n; size];
    let mut sum_out = vec![false; lines];
    let mut diff_out = vec![false; lines];
    let mut inst = Instance::plain(n);
    let mut cells: Vec<(usize, usize)> = Vec::with_capacity(size);
    while !sums.is_empty() || !diffs.is_empty() {
        let sum = if sums.is_empty() {
            false
        } else if diffs.is_empty() {
            true
        } else {
            rng.coin()
        };
        let key = if sum { sums.pop() } else { diffs.pop() }.expect("non-empty list") as i64;
        cells.clear();
        let mut allowed = true;
        for r in 0..size as i64 {
            let c = if sum {
                key - r
            } else {
                r - key + size as i64 - 1
            };
            if !(0..size as i64).contains(&c) {
                continue;
            }
            let (ru, cu) = (r as usize, c as usize);
            if sum_out[ru + cu] || diff_out[ru + size - 1 - cu] {
                continue; // already unavailable
            }
            if row_free[ru] <= min_free || col_free[cu] <= min_free {
                allowed = false;
                break;
            }
            cells.push((ru, cu));
        }
        if !allowed {
            continue;
        }
        for &(r, c) in &cells {
            row_free[r] -= 1;
            col_free[c] -= 1;
        }
        let kind = if sum {
            sum_out[key as usize] = true;
            LineKind::AntiDiagonal
        } else {
            diff_out[key as usize] = true;
            LineKind::Diagonal
        };
        inst.excluded.push(ExcludedDiagonal {
            kind,
            key: key as u32,
        });
    }
    Ok(inst)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Cell;
    use std::collections::HashSet;

    #[test]
    fn distinct_diagonals_and_free_minimum_over_many_seeds() {
        for seed in 0..200 {
            for (n, k) in [(1, 0), (1, 1), (4, 1), (8, 2), (10, 4), (16, 3), (30, 10)] {
                let inst = generate(n, k, seed).unwrap();
                assert!(inst.placed.is_empty() && inst.blocked.is_empty());
                let set: HashSet<_> = inst.excluded.iter().collect();
                assert_eq!(set.len(), inst.excluded.len(), "distinct");
                assert!(inst.excluded.iter().all(|e| e.key < 2 * n - 1));
                // Every prefix keeps the minimum (the full list is the tightest prefix).
                let obstacles = inst.obstacles();
                for line in 0..n {
                    let row_free = (0..n)
                        .filter(|&c| !obstacles.contains(Cell::new(line, c)))
                        .count() as u32;
                    let col_free = (0..n)
                        .filter(|&r| !obstacles.contains(Cell::new(r, line)))
                        .count() as u32;
                    assert!(
                        row_free >= k.min(n) && col_free >= k.min(n),
                        "n={n} k={k} seed={seed} line {line}: {row_free} {col_free}"
                    );
                }
            }
        }
    }

    #[test]
    fn no_minimum_excludes_everything() {
        // min_free = 0 never refuses a diagonal: all 2(2n-1) are listed.
        let inst = generate(7, 0, 3).unwrap();
        assert_eq!(inst.excluded.len(), 26);
    }

    #[test]
    fn same_seed_same_list() {
        assert_eq!(generate(12, 3, 8).unwrap(), generate(12, 3, 8).unwrap());
        assert_ne!(generate(12, 3, 8).unwrap(), generate(12, 3, 9).unwrap());
    }
}
