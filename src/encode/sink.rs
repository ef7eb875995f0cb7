//! Clause sinks: where encoders send clauses. The encoder never knows which one it talks to.

use super::{Lit, Stats};

/// Receives clauses one by one (the hot path of every encoding).
///
/// Implemented by [`StatsSink`] (counts only), `crate::encode::dimacs::DimacsWriter` (DIMACS
/// text) and the in-process varisat solver (`crate::solve::varisat_backend`), in the spirit of
/// varisat's `ExtendFormula`.
pub trait ClauseSink {
    /// Adds one clause (a disjunction of `lits`).
    fn add_clause(&mut self, lits: &[Lit]);

    /// True once the sink cannot take more (an I/O error, an interrupt): the encoder then stops
    /// early. Polled once per line, not per clause.
    fn stopped(&self) -> bool {
        false
    }
}

/// Counts clauses and literals without storing anything.
///
/// ```
/// use queens_sat::encode::{ClauseSink, Lit, StatsSink};
/// let mut s = StatsSink::default();
/// s.add_clause(&[Lit::pos(1), Lit::neg(2)]);
/// assert_eq!((s.stats.clauses, s.stats.literals), (1, 2));
/// ```
#[derive(Clone, Debug, Default)]
pub struct StatsSink {
    /// Counts so far (`vars` is left for the caller to fill in).
    pub stats: Stats,
}

impl ClauseSink for StatsSink {
    #[inline]
    fn add_clause(&mut self, lits: &[Lit]) {
        self.stats.clauses += 1;
        self.stats.literals += lits.len() as u64;
    }
}

/// Collects clauses in memory; for tests and small formulas only (never for writing files).
#[derive(Clone, Debug, Default)]
pub struct VecSink {
    /// The clauses received, in order.
    pub clauses: Vec<Vec<Lit>>,
}

impl ClauseSink for VecSink {
    fn add_clause(&mut self, lits: &[Lit]) {
        self.clauses.push(lits.to_vec());
    }
}

impl<S: ClauseSink + ?Sized> ClauseSink for &mut S {
    #[inline]
    fn add_clause(&mut self, lits: &[Lit]) {
        (**self).add_clause(lits)
    }

    fn stopped(&self) -> bool {
        (**self).stopped()
    }
}
