//! How much work a cube is: Knuth's estimator of a backtrack tree's size (D. E. Knuth,
//! "Estimating the efficiency of backtrack programs", Math. Comp. 29, 1975).
//!
//! A probe walks one random path of the row-by-row search over the presolved cube's live cells,
//! one piece per row; the product of the branching factors met so far estimates the number of
//! nodes at each depth, and their sum the size of the tree. The mean over probes is an unbiased
//! estimate. It balances tasks; it need not be exact.

use crate::board::Cell;
use crate::presolve::Problem;

/// Estimated number of search nodes for `problem` (0 when presolve refuted it), the mean of
/// `probes` random probes seeded with `seed` (reproducible).
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
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
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
            placed.push(free[(next() % free.len() as u64) as usize]);
        }
        sum += nodes;
    }
    sum / probes as f64
}
