//! `auto`: an at-most-one encoding chosen per line by its length.

use super::{AmoKind, AtMostOne, Cost, Registered};
use crate::encode::{ClauseSink, Lit, VarAlloc};

/// Lines up to this length are pairwise; longer ones are product.
pub(crate) const PAIRWISE_UP_TO: usize = 64;

/// Per-line choice by length `k`: pairwise for `k <= 64`, product (Chen) above. The default
/// `--amo`.
///
/// Cost, auxiliaries and literals are exactly those of the encoding picked for each length
/// (see [`super::Pairwise`], [`super::Product`]). Parsimonious on the pairwise lines; not
/// parsimonious overall.
///
/// Why, from `queens-sat bench hard` (hard blocked n = 28/48/56 and excluded-diagonal
/// n = 12..21 instances, direct and reduced to completion; 104 instances, 60 s limit): every
/// line of those boards has at most 56 live cells, and pairwise was the fastest encoding there
/// with cadical (total 82.9 s against product 99.0, auto-with-bimander 104.1, bimander 175.5)
/// and, with varisat, the only one to solve all 104 (product left 3 unsolved). Long lines are
/// where pairwise's `k(k-1)/2` clauses stop paying: on plain boards product was the best
/// single encoding from n = 400 up (n = 1000: 5.3 s against bimander's 8.9 s and 37 M
/// clauses), and pairwise needs ~n^3 clauses in all. An earlier rule (pairwise up to 6,
/// bimander up to 64, product above) was within the run-to-run spread of product on plain
/// boards and behind pairwise on the hard set.
#[derive(Clone, Copy, Debug, Default)]
pub struct Auto;

impl Auto {
    /// The encoding used for a line of `k` literals (never [`AmoKind::Auto`]).
    #[inline]
    pub fn pick(k: usize) -> AmoKind {
        if k <= PAIRWISE_UP_TO {
            AmoKind::Pairwise
        } else {
            AmoKind::Product
        }
    }
}

impl AtMostOne for Auto {
    #[inline]
    fn encode<S: ClauseSink + ?Sized>(&self, lits: &[Lit], vars: &mut VarAlloc, sink: &mut S) {
        Auto::pick(lits.len()).encode(lits, vars, sink)
    }

    fn cost(&self, k: usize) -> Cost {
        Auto::pick(k).cost(k)
    }
}

impl Registered for Auto {
    const NAME: &'static str = "auto";
    const HELP: &'static str = "pairwise for lines of <= 64 cells, product above (the winner of `bench hard` on hard instances)";

    fn build(_group: Option<u8>) -> Auto {
        Auto
    }
}

#[cfg(test)]
mod tests {
    use super::{Auto, PAIRWISE_UP_TO};
    use crate::encode::amo::{AmoKind, AtMostOne, tests};

    #[test]
    fn picks_by_length() {
        assert!((0..5000).all(|k| Auto::pick(k) != AmoKind::Auto));
        assert_eq!(Auto::pick(PAIRWISE_UP_TO), AmoKind::Pairwise);
        assert_eq!(Auto::pick(PAIRWISE_UP_TO + 1), AmoKind::Product);
        for k in [0, 3, 6, 7, 20, 32, 33, 64, 65, 100, 1000] {
            assert_eq!(Auto.cost(k), Auto::pick(k).cost(k), "k={k}");
        }
    }

    #[test]
    fn cost_matches_formula() {
        tests::check_cost_formula(AmoKind::Auto);
    }

    #[test]
    fn admits_exactly_at_most_one() {
        tests::check_semantics(AmoKind::Auto, 10);
    }

    #[test]
    fn with_at_least_one_admits_exactly_one() {
        tests::check_exactly_one(AmoKind::Auto, 10);
    }

    #[test]
    fn is_parsimonious_on_short_lines() {
        // Pairwise (parsimonious) up to 64; the exhaustive check reaches k = 10.
        tests::check_parsimony(AmoKind::Auto, 10, true);
    }

    #[test]
    fn long_lines_by_sat() {
        tests::check_semantics_sat(AmoKind::Auto);
    }
}
