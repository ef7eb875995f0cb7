//! `auto`: an at-most-one encoding chosen per line by its length.

use super::{AmoKind, AtMostOne, Cost, bimander};
use crate::encode::{ClauseSink, Lit, VarAlloc};

/// Lines up to this length are pairwise.
pub const PAIRWISE_UP_TO: usize = 6;

/// Lines longer than [`PAIRWISE_UP_TO`] and up to this length are bimander (groups of 2);
/// longer ones are product.
pub const BIMANDER_UP_TO: usize = 64;

/// Per-line choice by length `k`: pairwise for `k <= 6`, bimander (groups of 2) for
/// `7 <= k <= 64`, product for `k > 64`.
///
/// Cost, auxiliaries and literals are exactly those of the encoding picked for each length
/// (see [`super::Pairwise`], [`super::Bimander`], [`super::Product`]). Parsimonious only on the
/// pairwise lines; not parsimonious overall.
///
/// The thresholds come from time-to-first-solution runs of N-queens with varisat, in CPU
/// seconds summed over many board sizes, because a single run is dominated by the luck of the
/// search (one encoding took 5 s at n = 900 and 16 s at n = 1000):
///
/// - pairwise up to 5 / 6 / 8 / 10, product above, n = 100..400 step 5 (61 boards): 28.7 /
///   29.0 / 31.4 / 32.2 s, product alone 32.3 s;
/// - pairwise up to 6, bimander up to 16 / 32 / 64, product above, interleaved with product
///   over n = 105..395 step 10 and 512..1012 step 25 (51 boards): 123.5 / 105.3 / 103.3 s,
///   product 117.6 s; the last one was faster than product on 32 of the 51 boards.
///
/// Long lines (rows, columns, long diagonals) stay product: bimander's `k log k` clauses make
/// it slow to load at n = 1000 (37 M clauses against 9 M).
#[derive(Clone, Copy, Debug, Default)]
pub struct Auto;

impl Auto {
    /// The encoding used for a line of `k` literals (never [`AmoKind::Auto`]).
    #[inline]
    pub fn pick(k: usize) -> AmoKind {
        if k <= PAIRWISE_UP_TO {
            AmoKind::Pairwise
        } else if k <= BIMANDER_UP_TO {
            AmoKind::Bimander(bimander::DEFAULT_GROUP)
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

#[cfg(test)]
mod tests {
    use super::{Auto, BIMANDER_UP_TO, PAIRWISE_UP_TO};
    use crate::encode::amo::{AmoKind, AtMostOne, tests};

    #[test]
    fn picks_by_length() {
        assert!((0..5000).all(|k| Auto::pick(k) != AmoKind::Auto));
        assert_eq!(Auto::pick(PAIRWISE_UP_TO), AmoKind::Pairwise);
        assert_eq!(Auto::pick(PAIRWISE_UP_TO + 1), AmoKind::Bimander(2));
        assert_eq!(Auto::pick(BIMANDER_UP_TO), AmoKind::Bimander(2));
        assert_eq!(Auto::pick(BIMANDER_UP_TO + 1), AmoKind::Product);
        for k in [0, 3, 6, 7, 20, 32, 33, 100, 1000] {
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
    fn is_not_parsimonious() {
        // Pairwise (parsimonious) up to 6, bimander from 7.
        tests::check_parsimony(AmoKind::Auto, 6, true);
        tests::check_parsimony(AmoKind::Auto, 10, false);
    }

    #[test]
    fn long_lines_by_sat() {
        tests::check_semantics_sat(AmoKind::Auto);
    }
}
