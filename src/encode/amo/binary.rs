//! The binary (bitwise) encoding for at-most-one.

use super::{AtMostOne, Cost, Registered};
use crate::encode::{ClauseSink, Lit, VarAlloc};

/// `ceil(log2 k)`: bits needed to number `k` items (0 for `k <= 1`).
#[inline]
pub(crate) fn bits_for(k: usize) -> u32 {
    if k <= 1 {
        0
    } else {
        usize::BITS - (k - 1).leading_zeros()
    }
}

/// Binary AMO (A. M. Frisch, T. J. Peugniez, A. J. Doggett and P. W. Nightingale, "Solving
/// Non-Boolean Satisfiability Problems with Stochastic Local Search: A Comparison of
/// Encodings", J. Automated Reasoning 2005), also known as the bitwise encoding (S. D.
/// Prestwich, SAT 2007).
///
/// With `b = ceil(log2 k)` bit variables `B_0..B_{b-1}`, literal `x_i` (`0 <= i < k`) implies
/// the binary code of `i`: `(¬x_i ∨ B_j)` if bit `j` of `i` is 1, `(¬x_i ∨ ¬B_j)` otherwise.
/// Two true literals would need two codes at once. For `k` literals: `k * b` binary clauses
/// (`2 k b` literals) and `b` auxiliaries (`k = 1`: nothing).
///
/// Not parsimonious: when no literal is true the bits are free (`2^b` extensions). A true
/// literal fixes every bit, and each other literal disagrees with it on some bit, so unit
/// propagation falsifies the rest in two steps.
#[derive(Clone, Copy, Debug, Default)]
pub struct Binary;

impl AtMostOne for Binary {
    #[inline]
    fn encode<S: ClauseSink + ?Sized>(&self, lits: &[Lit], vars: &mut VarAlloc, sink: &mut S) {
        let b = bits_for(lits.len());
        let first = vars.fresh_block(b);
        for (i, &x) in lits.iter().enumerate() {
            for j in 0..b {
                let bit = Lit::pos(first + j);
                let code = if i >> j & 1 == 1 { bit } else { !bit };
                sink.add_clause(&[!x, code]);
            }
        }
    }

    fn cost(&self, k: usize) -> Cost {
        let clauses = k as u64 * bits_for(k) as u64;
        Cost {
            clauses,
            aux_vars: bits_for(k) as u64,
            literals: 2 * clauses,
        }
    }
}

impl Registered for Binary {
    const NAME: &'static str = "binary";
    const HELP: &'static str = "binary/bitwise: k ceil(log2 k) clauses, ceil(log2 k) auxiliaries";

    fn build(_group: Option<u8>) -> Binary {
        Binary
    }
}

#[cfg(test)]
mod tests {
    use super::bits_for;
    use crate::encode::amo::{AmoKind, tests};

    #[test]
    fn bits() {
        let want = [
            (0, 0),
            (1, 0),
            (2, 1),
            (3, 2),
            (4, 2),
            (5, 3),
            (8, 3),
            (9, 4),
            (1000, 10),
        ];
        for (k, b) in want {
            assert_eq!(bits_for(k), b, "k={k}");
        }
    }

    #[test]
    fn cost_matches_formula() {
        tests::check_cost_formula(AmoKind::Binary);
    }

    #[test]
    fn admits_exactly_at_most_one() {
        tests::check_semantics(AmoKind::Binary, 10);
    }

    #[test]
    fn with_at_least_one_admits_exactly_one() {
        tests::check_exactly_one(AmoKind::Binary, 10);
    }

    #[test]
    fn is_not_parsimonious() {
        tests::check_parsimony(AmoKind::Binary, 10, false);
    }

    #[test]
    fn long_lines_by_sat() {
        tests::check_semantics_sat(AmoKind::Binary);
    }
}
