//! The ladder (regular) encoding for at-most-one.

use super::{AtMostOne, Cost, Registered};
use crate::encode::{ClauseSink, Lit, VarAlloc};

/// Ladder AMO (I. P. Gent and P. Nightingale, "A New Encoding of AllDifferent into SAT",
/// ModRef workshop at CP 2004; the same order variables as the regular encoding of Ansótegui
/// and Manyà).
///
/// The `k` literals are the first `k` values of a domain variable with `k + 1` values, the last
/// one meaning "none is true". Ladder variable `y_i` (`1 <= i <= k`) means "the value is greater
/// than `i`". For `k >= 2` it emits
///
/// - validity: `(¬y_{i+1} ∨ y_i)` for `1 <= i < k` (the ladder never goes back up);
/// - channelling `x_1 <-> ¬y_1`: `(¬x_1 ∨ ¬y_1)`, `(x_1 ∨ y_1)`;
/// - channelling `x_i <-> (y_{i-1} ∧ ¬y_i)` for `2 <= i <= k`: `(¬x_i ∨ y_{i-1})`,
///   `(¬x_i ∨ ¬y_i)`, `(x_i ∨ ¬y_{i-1} ∨ y_i)`;
///
/// that is `4k - 2` clauses (`3k - 1` binary, `k - 1` ternary; `9k - 5` literals) and `k`
/// auxiliaries. For `k <= 1` nothing.
///
/// Parsimonious: the ladder is a staircase `1..1 0..0` whose step position is exactly the index
/// of the true literal (all ones when none is true), and the `←` channelling clauses force that
/// literal. Dropping those `k - 1` ternary clauses and the one binary `(x_1 ∨ y_1)` leaves the
/// one-directional "ladder" of RustSAT, which is Sinz's sequential counter with the auxiliaries
/// negated; the full channelling is what makes this one parsimonious and lets unit propagation
/// run from the ladder back to the inputs.
#[derive(Clone, Copy, Debug, Default)]
pub struct Ladder;

impl AtMostOne for Ladder {
    #[inline]
    fn encode<S: ClauseSink + ?Sized>(&self, lits: &[Lit], vars: &mut VarAlloc, sink: &mut S) {
        let k = lits.len();
        if k < 2 {
            return;
        }
        let first = vars.fresh_block(k as u32);
        // y(i) for i in 1..=k.
        let y = |i: usize| Lit::pos(first + i as u32 - 1);
        let x1 = lits[0];
        sink.add_clause(&[!x1, !y(1)]);
        sink.add_clause(&[x1, y(1)]);
        for (i, &x) in lits.iter().enumerate().skip(1) {
            // x is x_{i+1}: between y_i and y_{i+1}.
            let (lo, hi) = (y(i), y(i + 1));
            sink.add_clause(&[!hi, lo]);
            sink.add_clause(&[!x, lo]);
            sink.add_clause(&[!x, !hi]);
            sink.add_clause(&[x, !lo, hi]);
        }
    }

    fn cost(&self, k: usize) -> Cost {
        if k < 2 {
            return Cost::default();
        }
        let k = k as u64;
        Cost {
            clauses: 4 * k - 2,
            aux_vars: k,
            literals: 9 * k - 5,
        }
    }
}

impl Registered for Ladder {
    const NAME: &'static str = "ladder";
    const HELP: &'static str = "Gent-Nightingale ladder: 4k-2 clauses, k auxiliaries";

    fn build(_group: Option<u8>) -> Ladder {
        Ladder
    }
}

#[cfg(test)]
mod tests {
    use crate::encode::amo::{AmoKind, tests};

    #[test]
    fn cost_matches_formula() {
        tests::check_cost_formula(AmoKind::Ladder);
    }

    #[test]
    fn admits_exactly_at_most_one() {
        tests::check_semantics(AmoKind::Ladder, 10);
    }

    #[test]
    fn with_at_least_one_admits_exactly_one() {
        tests::check_exactly_one(AmoKind::Ladder, 10);
    }

    #[test]
    fn is_parsimonious() {
        tests::check_parsimony(AmoKind::Ladder, 10, true);
    }

    #[test]
    fn long_lines_by_sat() {
        tests::check_semantics_sat(AmoKind::Ladder);
    }
}
