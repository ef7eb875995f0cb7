//! Sinz's sequential counter for at-most-one.

use super::{AtMostOne, Cost, Registered};
use crate::encode::{ClauseSink, Lit, VarAlloc};

/// Sequential counter AMO (C. Sinz, "Towards an Optimal CNF Encoding of Boolean Cardinality
/// Constraints", CP 2005, the `LT_SEQ` encoding for `k = 1`).
///
/// Auxiliary `s_i` means "one of `x_1..x_i` is true". For `k >= 2` literals it emits
/// `(¬x_1 ∨ s_1)`, then for `1 < i < k`: `(¬x_i ∨ s_i)`, `(¬s_{i-1} ∨ s_i)`, `(¬x_i ∨ ¬s_{i-1})`,
/// and finally `(¬x_k ∨ ¬s_{k-1})`: `3k-4` binary clauses (`6k-8` literals) and `k-1`
/// auxiliaries. For `k = 1` nothing. Not parsimonious: when all `x` are false the `s_i` are free
/// to become true from some point on, so model counts must be projected on the inputs.
#[derive(Clone, Copy, Debug, Default)]
pub struct Sequential;

impl AtMostOne for Sequential {
    #[inline]
    fn encode<S: ClauseSink + ?Sized>(&self, lits: &[Lit], vars: &mut VarAlloc, sink: &mut S) {
        let k = lits.len();
        if k < 2 {
            return;
        }
        let mut prev = Lit::pos(vars.fresh());
        sink.add_clause(&[!lits[0], prev]);
        for &x in &lits[1..k - 1] {
            let s = Lit::pos(vars.fresh());
            sink.add_clause(&[!x, s]);
            sink.add_clause(&[!prev, s]);
            sink.add_clause(&[!x, !prev]);
            prev = s;
        }
        sink.add_clause(&[!lits[k - 1], !prev]);
    }

    fn cost(&self, k: usize) -> Cost {
        if k < 2 {
            return Cost::default();
        }
        let k = k as u64;
        Cost {
            clauses: 3 * k - 4,
            aux_vars: k - 1,
            literals: 2 * (3 * k - 4),
        }
    }
}

impl Registered for Sequential {
    const NAME: &'static str = "sequential";
    const HELP: &'static str = "Sinz sequential counter: 3k-4 clauses, k-1 auxiliaries";

    fn build(_group: Option<u8>) -> Sequential {
        Sequential
    }
}

#[cfg(test)]
mod tests {
    use crate::encode::amo::{AmoKind, tests};

    #[test]
    fn cost_matches_formula() {
        tests::check_cost_formula(AmoKind::Sequential);
    }

    #[test]
    fn admits_exactly_at_most_one() {
        tests::check_semantics(AmoKind::Sequential, 10);
    }

    #[test]
    fn with_at_least_one_admits_exactly_one() {
        tests::check_exactly_one(AmoKind::Sequential, 10);
    }

    #[test]
    fn is_not_parsimonious() {
        tests::check_parsimony(AmoKind::Sequential, 10, false);
    }

    #[test]
    fn long_lines_by_sat() {
        tests::check_semantics_sat(AmoKind::Sequential);
    }
}
