//! At-most-one (AMO) encodings, one file each, behind one small trait.
//!
//! Every encoding knows its exact cost ([`AtMostOne::cost`]) as a function of the number of
//! literals `k`; the encoder sums costs to write an exact DIMACS header before streaming clauses,
//! and tests check emitted counts against the formulas.

use super::{ClauseSink, Lit, VarAlloc};

pub mod pairwise;
pub mod product;
pub mod sequential;

pub use pairwise::Pairwise;
pub use product::Product;
pub use sequential::Sequential;

/// Size of an encoding of one constraint.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cost {
    /// Clauses emitted.
    pub clauses: u64,
    /// Auxiliary variables allocated.
    pub aux_vars: u64,
    /// Literal occurrences over all clauses.
    pub literals: u64,
}

/// An at-most-one encoding.
pub trait AtMostOne {
    /// Emits clauses allowing at most one of `lits` to be true, taking auxiliary variables from
    /// `vars`.
    fn encode<S: ClauseSink + ?Sized>(&self, lits: &[Lit], vars: &mut VarAlloc, sink: &mut S);

    /// Exact cost of [`AtMostOne::encode`] for `k` literals.
    fn cost(&self, k: usize) -> Cost;
}

/// The selectable encodings (`--amo`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AmoKind {
    /// Binomial / pairwise: `k(k-1)/2` binary clauses, no auxiliaries.
    Pairwise,
    /// Sinz 2005 sequential counter: `3k-4` clauses, `k-1` auxiliaries.
    Sequential,
    /// Chen 2010 recursive 2-product: about `2k + 4 sqrt(k)` clauses, `2 sqrt(k)` auxiliaries.
    Product,
}

impl AmoKind {
    /// All encodings, in `--amo` help order.
    pub const ALL: [AmoKind; 3] = [AmoKind::Pairwise, AmoKind::Sequential, AmoKind::Product];

    /// The encoding's `--amo` name.
    pub fn name(self) -> &'static str {
        match self {
            AmoKind::Pairwise => "pairwise",
            AmoKind::Sequential => "sequential",
            AmoKind::Product => "product",
        }
    }

    /// Looks an encoding up by `--amo` name.
    ///
    /// ```
    /// use queens_sat::encode::amo::AmoKind;
    /// assert_eq!(AmoKind::by_name("sequential"), Some(AmoKind::Sequential));
    /// assert_eq!(AmoKind::by_name("magic"), None);
    /// ```
    pub fn by_name(name: &str) -> Option<AmoKind> {
        AmoKind::ALL.into_iter().find(|a| a.name() == name)
    }

    /// Emits the AMO clauses for `lits` with this encoding.
    #[inline]
    pub fn encode<S: ClauseSink + ?Sized>(self, lits: &[Lit], vars: &mut VarAlloc, sink: &mut S) {
        match self {
            AmoKind::Pairwise => Pairwise.encode(lits, vars, sink),
            AmoKind::Sequential => Sequential.encode(lits, vars, sink),
            AmoKind::Product => Product.encode(lits, vars, sink),
        }
    }

    /// Exact cost for `k` literals.
    pub fn cost(self, k: usize) -> Cost {
        match self {
            AmoKind::Pairwise => Pairwise.cost(k),
            AmoKind::Sequential => Sequential.cost(k),
            AmoKind::Product => Product.cost(k),
        }
    }
}

impl std::fmt::Display for AmoKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::encode::{StatsSink, VecSink};

    /// Emitted counts equal the cost formula for k = 1..64.
    pub fn check_cost_formula(amo: AmoKind) {
        for k in 1..=64usize {
            let lits: Vec<Lit> = (1..=k as u32).map(Lit::pos).collect();
            let mut vars = VarAlloc::new(k as u32);
            let mut sink = StatsSink::default();
            amo.encode(&lits, &mut vars, &mut sink);
            let got = Cost {
                clauses: sink.stats.clauses,
                aux_vars: (vars.count() - k as u32) as u64,
                literals: sink.stats.literals,
            };
            assert_eq!(got, amo.cost(k), "{amo} k={k}");
        }
    }

    /// Projected on the inputs, the encoding admits exactly the assignments with <= 1 true literal
    /// (checked by brute force over inputs and auxiliaries), for k <= max_k.
    pub fn check_semantics(amo: AmoKind, max_k: usize) {
        for k in 1..=max_k {
            let lits: Vec<Lit> = (1..=k as u32).map(Lit::pos).collect();
            let mut vars = VarAlloc::new(k as u32);
            let mut sink = VecSink::default();
            amo.encode(&lits, &mut vars, &mut sink);
            let aux = (vars.count() - k as u32) as usize;
            assert!(aux <= 12, "too many aux vars to brute force");
            for input in 0u32..(1 << k) {
                let allowed = input.count_ones() <= 1;
                let extendable = (0u32..(1 << aux)).any(|a| {
                    let value = |v: u32| {
                        let i = v as usize - 1;
                        if i < k {
                            input >> i & 1 == 1
                        } else {
                            a >> (i - k) & 1 == 1
                        }
                    };
                    sink.clauses
                        .iter()
                        .all(|c| c.iter().any(|l| value(l.var()) == l.is_positive()))
                });
                assert_eq!(extendable, allowed, "{amo} k={k} input={input:b}");
            }
        }
    }
}
