//! n-queens completion instances: `m` non-attacking pre-placed queens, drawn as csplib prob079
//! `queens-gen-fast.py` draws them.

use super::{Prng, check_side};
use crate::board::Cell;
use crate::error::{BadOption, Opt, Result};
use crate::instance::Instance;

/// Places `m` mutually non-attacking queens on an `n x n` board.
///
/// The procedure of `queens-gen-fast.py`: keep the rows and the columns without a queen in two
/// arrays of length `left` (initially `n`); for up to `n * n` attempts draw an index `i` into
/// the free rows and an index `j` into the free columns (`below(left)` each, rows first), and
/// if the cell `(rows[i], cols[j])` shares no diagonal with a placed queen, place it and move
/// the last free row and column into slots `i` and `j`. Rows and columns are distinct by
/// construction. The queens are listed in placement order. `m = 0` gives the empty board.
///
/// Fails with a one-line error when `m > n` or when `n * n` attempts place fewer than `m`.
///
/// ```
/// let inst = queens_sat::generate::completion::generate(8, 5, 1).unwrap();
/// assert_eq!((inst.n, inst.placed.len()), (8, 5));
/// ```
pub fn generate(n: u32, m: u32, seed: u64) -> Result<Instance> {
    check_side(n)?;
    if m > n {
        return Err(BadOption::invalid(
            Opt::M,
            m,
            format!("is too many: at most n = {n} queens fit on the {n}x{n} board"),
        ));
    }
    let mut inst = Instance::plain(n);
    if m == 0 {
        return Ok(inst);
    }
    let size = n as usize;
    let mut rng = Prng::new(seed);
    let mut sum_used = vec![false; 2 * size - 1];
    let mut diff_used = vec![false; 2 * size - 1];
    let mut rows: Vec<u32> = (0..n).collect();
    let mut cols: Vec<u32> = (0..n).collect();
    let mut left = size;
    for _ in 0..size * size {
        let i = rng.below(left);
        let j = rng.below(left);
        let (r, c) = (rows[i], cols[j]);
        let (s, d) = ((r + c) as usize, (r + n - 1 - c) as usize);
        if sum_used[s] || diff_used[d] {
            continue;
        }
        sum_used[s] = true;
        diff_used[d] = true;
        inst.placed.push(Cell::new(r, c));
        rows[i] = rows[left - 1];
        cols[j] = cols[left - 1];
        left -= 1;
        if inst.placed.len() == m as usize {
            return Ok(inst);
        }
    }
    Err(BadOption::invalid(
        Opt::M,
        m,
        format!(
            "queens could not be placed on the {n}x{n} board with seed {seed}: gave up after {} \
             attempts with {} placed (try another seed or a smaller m)",
            size * size,
            inst.placed.len()
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::piece::QUEEN;

    fn assert_non_attacking(inst: &Instance) {
        for (i, &a) in inst.placed.iter().enumerate() {
            assert!(a.row < inst.n && a.col < inst.n);
            for &b in &inst.placed[i + 1..] {
                assert!(
                    QUEEN.attack(a, b, inst.n).is_none(),
                    "{a} and {b} attack on n = {}",
                    inst.n
                );
            }
        }
    }

    #[test]
    fn queens_never_attack_over_many_seeds() {
        for seed in 0..300 {
            for (n, m) in [(1, 1), (4, 2), (8, 6), (12, 9), (20, 15), (50, 40)] {
                match generate(n, m, seed) {
                    Ok(inst) => {
                        assert_eq!((inst.n, inst.placed.len()), (n, m as usize));
                        assert!(inst.blocked.is_empty() && inst.excluded.is_empty());
                        assert_non_attacking(&inst);
                    }
                    Err(e) => assert!(e.to_string().contains("gave up"), "{e}"),
                }
            }
        }
        // Easy cases always succeed.
        for seed in 0..100 {
            assert_non_attacking(&generate(100, 60, seed).unwrap());
        }
    }

    #[test]
    fn same_seed_same_instance() {
        assert_eq!(generate(30, 20, 5).unwrap(), generate(30, 20, 5).unwrap());
        assert_ne!(
            generate(30, 20, 5).unwrap().placed,
            generate(30, 20, 6).unwrap().placed
        );
    }

    #[test]
    fn impossible_requests_fail_cleanly() {
        let e = generate(8, 9, 1).unwrap_err().to_string();
        assert!(e.contains("-m 9") && e.contains("8x8"), "{e}");
        // Three non-attacking queens never fit on 3x3: all n*n attempts are used.
        let e = generate(3, 3, 1).unwrap_err().to_string();
        assert!(e.contains("gave up after 9 attempts"), "{e}");
        assert!(generate(2, 2, 4).is_err());
        assert_eq!(generate(5, 0, 1).unwrap(), Instance::plain(5));
        assert!(generate(0, 0, 1).is_err());
    }
}
