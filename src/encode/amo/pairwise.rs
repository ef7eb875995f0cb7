//! The pairwise (binomial) at-most-one encoding.

use super::{AtMostOne, Cost, Registered};
use crate::encode::{ClauseSink, Lit, VarAlloc};

/// Pairwise / binomial AMO: one binary clause `(¬a ∨ ¬b)` for every pair of literals.
///
/// Folklore (the "naive" encoding). For `k` literals: `k(k-1)/2` clauses, `k(k-1)` literal
/// occurrences, no auxiliary variables. Parsimonious (trivially: no auxiliaries). Arc-consistent
/// under unit propagation, but quadratic: a 1000-cell row alone is half a million clauses.
#[derive(Clone, Copy, Debug, Default)]
pub struct Pairwise;

impl AtMostOne for Pairwise {
    #[inline]
    fn encode<S: ClauseSink + ?Sized>(&self, lits: &[Lit], _vars: &mut VarAlloc, sink: &mut S) {
        for (i, &a) in lits.iter().enumerate() {
            for &b in &lits[i + 1..] {
                sink.add_clause(&[!a, !b]);
            }
        }
    }

    fn cost(&self, k: usize) -> Cost {
        let k = k as u64;
        let clauses = k * k.saturating_sub(1) / 2;
        Cost {
            clauses,
            aux_vars: 0,
            literals: 2 * clauses,
        }
    }
}

impl Registered for Pairwise {
    const NAME: &'static str = "pairwise";
    const HELP: &'static str = "k(k-1)/2 binary clauses, no auxiliaries";

    fn build(_group: Option<u8>) -> Pairwise {
        Pairwise
    }
}

#[cfg(test)]
mod tests {
    use crate::encode::amo::{AmoKind, tests};

    #[test]
    fn cost_matches_formula() {
        tests::check_cost_formula(AmoKind::Pairwise);
    }

    #[test]
    fn admits_exactly_at_most_one() {
        tests::check_semantics(AmoKind::Pairwise, 10);
    }

    #[test]
    fn with_at_least_one_admits_exactly_one() {
        tests::check_exactly_one(AmoKind::Pairwise, 10);
    }

    #[test]
    fn is_parsimonious() {
        tests::check_parsimony(AmoKind::Pairwise, 10, true);
    }

    #[test]
    fn long_lines_by_sat() {
        tests::check_semantics_sat(AmoKind::Pairwise);
    }
}
