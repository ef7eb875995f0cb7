//! Chen's product encoding for at-most-one.

use super::{AtMostOne, Cost, Pairwise, Registered};
use crate::encode::{ClauseSink, Lit, VarAlloc};

/// Below this many literals the product encoding falls back to pairwise.
const PAIRWISE_UP_TO: usize = 4;

/// The 2-product AMO encoding (J. Chen, "A New SAT Encoding of the At-Most-One Constraint",
/// ModRef 2010), applied recursively.
///
/// The `k` literals are laid out on a `p x q` grid with `p = ceil(sqrt k)` and `q = ceil(k/p)`;
/// row variables `u_1..u_p` and column variables `v_1..v_q` get `(¬x_ij ∨ u_i)` and
/// `(¬x_ij ∨ v_j)`, and at-most-one is imposed on the `u` and on the `v` recursively. For
/// `k <= 4` it is pairwise. Cost: `c(k) = 2k + c(p) + c(q)` clauses (all binary) and
/// `a(k) = p + q + a(p) + a(q)` auxiliaries, about `2k + 4 sqrt(k)` clauses and `2 sqrt(k)`
/// auxiliaries. Not parsimonious (a row/column variable may be true over an empty row).
/// Implications are at most a few levels deep, which keeps conflict analysis cheap on long lines
/// where the sequential counter builds chains of length `k`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Product;

fn shape(k: usize) -> (usize, usize) {
    let mut p = (k as f64).sqrt().ceil() as usize;
    while p * p < k {
        p += 1;
    }
    while p > 1 && (p - 1) * (p - 1) >= k {
        p -= 1;
    }
    (p, k.div_ceil(p))
}

impl AtMostOne for Product {
    fn encode<S: ClauseSink + ?Sized>(&self, lits: &[Lit], vars: &mut VarAlloc, sink: &mut S) {
        let k = lits.len();
        if k <= PAIRWISE_UP_TO {
            return Pairwise.encode(lits, vars, sink);
        }
        let (p, q) = shape(k);
        let rows: Vec<Lit> = (0..p).map(|_| Lit::pos(vars.fresh())).collect();
        let cols: Vec<Lit> = (0..q).map(|_| Lit::pos(vars.fresh())).collect();
        for (i, &x) in lits.iter().enumerate() {
            sink.add_clause(&[!x, rows[i / q]]);
            sink.add_clause(&[!x, cols[i % q]]);
        }
        self.encode(&rows, vars, sink);
        self.encode(&cols, vars, sink);
    }

    fn cost(&self, k: usize) -> Cost {
        if k <= PAIRWISE_UP_TO {
            return Pairwise.cost(k);
        }
        let (p, q) = shape(k);
        let (cp, cq) = (self.cost(p), self.cost(q));
        Cost {
            clauses: 2 * k as u64 + cp.clauses + cq.clauses,
            aux_vars: (p + q) as u64 + cp.aux_vars + cq.aux_vars,
            literals: 4 * k as u64 + cp.literals + cq.literals,
        }
    }
}

impl Registered for Product {
    const NAME: &'static str = "product";
    const HELP: &'static str =
        "Chen 2-product: about 2k + 4 sqrt(k) clauses, 2 sqrt(k) auxiliaries";

    fn build(_group: Option<u8>) -> Product {
        Product
    }
}

#[cfg(test)]
mod tests {
    use crate::encode::amo::{AmoKind, tests};

    #[test]
    fn cost_matches_formula() {
        tests::check_cost_formula(AmoKind::Product);
    }

    #[test]
    fn admits_exactly_at_most_one() {
        tests::check_semantics(AmoKind::Product, 10);
    }

    #[test]
    fn with_at_least_one_admits_exactly_one() {
        tests::check_exactly_one(AmoKind::Product, 10);
    }

    #[test]
    fn is_not_parsimonious() {
        tests::check_parsimony(AmoKind::Product, 10, false);
    }

    #[test]
    fn long_lines_by_sat() {
        tests::check_semantics_sat(AmoKind::Product);
    }
}
