//! How much work a cube is: Knuth's estimator of a backtrack tree's size (D. E. Knuth,
//! "Estimating the efficiency of backtrack programs", Math. Comp. 29, 1975).
//!
//! A probe walks one random path of the row-by-row search over the presolved cube's live cells,
//! one piece per row; the product of the branching factors met so far estimates the number of
//! nodes at each depth, and their sum the size of the tree. The mean over probes is an unbiased
//! estimate. It balances tasks; it need not be exact.

use crate::board::Cell;
use crate::presolve::Problem;
use crate::prng::Prng;

/// Estimated number of search nodes for `problem` (0 when presolve refuted it), the mean of
/// `probes` random probes drawn from the library's one generator (`Prng`, ChaCha8) seeded with
/// `seed`: the same value on every run and machine.
///
/// ```
/// use queens_sat::{cluster::estimate::tree_size, instance::Instance, piece::QUEEN, presolve::Problem};
/// let p8 = Problem::presolve(&Instance::plain(8), QUEEN).unwrap();
/// let p10 = Problem::presolve(&Instance::plain(10), QUEEN).unwrap();
/// assert!(tree_size(&p10, 64, 1) > tree_size(&p8, 64, 1));
/// ```
pub fn tree_size(problem: &Problem, probes: usize, seed: u64) -> f64 {
    if problem.unsat.is_some() {
        return 0.0;
    }
    let n = problem.n;
    let rows: Vec<Vec<Cell>> = (0..n)
        .map(|r| {
            problem
                .varmap
                .row_cols(r)
                .map(|c| Cell::new(r, c))
                .collect::<Vec<_>>()
        })
        .filter(|cells| !cells.is_empty())
        .collect();
    let mut rng = Prng::new(seed);
    let probes = probes.max(1);
    let mut sum = 0.0;
    let mut placed: Vec<Cell> = Vec::with_capacity(rows.len());
    let mut free: Vec<Cell> = Vec::new();
    for _ in 0..probes {
        placed.clear();
        let mut width = 1.0;
        let mut nodes = 1.0;
        for row in &rows {
            free.clear();
            free.extend(row.iter().copied().filter(|&x| {
                placed
                    .iter()
                    .all(|&y| problem.piece.attack(x, y, n).is_none())
            }));
            if free.is_empty() {
                break;
            }
            width *= free.len() as f64;
            nodes += width;
            placed.push(free[rng.below(free.len())]);
        }
        sum += nodes;
    }
    sum / probes as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instance::Instance;
    use crate::piece::{AMAZON, QUEEN};

    /// The estimate is a function of the problem, the probe count and the seed alone (the
    /// library's ChaCha8 [`Prng`]), pinned here: the values the split writes to `tasks.tsv`.
    /// (The pins changed when the estimate moved from its own xorshift to [`Prng`].)
    #[test]
    fn estimates_are_reproducible() {
        let p10 = Problem::presolve(&Instance::plain(10), QUEEN).unwrap();
        let a = tree_size(&p10, 64, 5);
        assert_eq!(a, tree_size(&p10, 64, 5));
        assert_ne!(a, tree_size(&p10, 64, 6));
        let p9 = Problem::presolve(&Instance::plain(9), AMAZON).unwrap();
        assert_eq!([a, tree_size(&p9, 16, 1)], PINNED);
    }

    const PINNED: [f64; 2] = [32447.5625, 273.25];
}
