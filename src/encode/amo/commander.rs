//! The commander encoding for at-most-one.

use super::{AtMostOne, Cost, GroupSize, MAX_GROUP, Pairwise, Registered};
use crate::encode::{ClauseSink, Lit, VarAlloc};

/// Commander AMO (W. Klieber and G. Kwon, "Efficient CNF Encoding for Selecting 1 from N
/// Objects", CFV 2007), applied recursively.
///
/// The `k` literals are cut, in order, into `m = ceil(k/g)` groups of `g` (the last one may be
/// shorter; default `g = 3`, `--amo commander:G` for `2 <= G <= 64`). A group of `s >= 2`
/// literals gets a commander variable `c` with
///
/// - at most one literal of the group: pairwise, `s(s-1)/2` clauses;
/// - `c` false forbids the group: `(¬x ∨ c)` for each literal, `s` clauses;
/// - `c` true needs one of the group: `(¬c ∨ x_1 ∨ .. ∨ x_s)`, one clause;
///
/// and a single-literal group is its own commander (no variable, no clause). Then at most one of
/// the `m` commanders, with the same encoding, recursively. The recursion stops where pairwise
/// is no more clauses than another level would be: with `g = 3` that is for `k <= 6`.
///
/// Cost: `c(k) = min(P(k), L(k) + c(m))` with `P(k) = k(k-1)/2` (pairwise, taken on ties) and
/// `L(k)` the group clauses above, `L(k) = q (g(g-1)/2 + g + 1) + [r >= 2] (r(r-1)/2 + r + 1)`
/// for `k = q g + r`. Auxiliaries: `a(k) = 0` when pairwise, else `q + [r >= 2] + a(m)`.
/// Literals: pairwise `k(k-1)`, a level `q (g(g-1) + 3g + 1) + [r >= 2] (r(r-1) + 3r + 1)`
/// plus the level below. For `g = 3` and large `k`: about `3.5 k` clauses and `k/2` auxiliaries.
///
/// Parsimonious: the two kinds of commander clauses make each commander equal to the
/// disjunction of its group, so every auxiliary is fixed by the inputs.
#[derive(Clone, Copy, Debug)]
pub struct Commander {
    group: usize,
}

/// The default group size (`--amo commander`).
pub(crate) const DEFAULT_GROUP: u8 = 3;

impl Commander {
    /// Commander with groups of `group` literals.
    ///
    /// # Panics
    /// If `group` is not in `2..=64`.
    #[inline]
    pub fn new(group: usize) -> Commander {
        assert!(
            (2..=MAX_GROUP).contains(&group),
            "commander group size {group} not in 2..={MAX_GROUP}"
        );
        Commander { group }
    }

    /// Cost of one group of `s` literals.
    fn group_cost(s: usize) -> Cost {
        if s < 2 {
            return Cost::default();
        }
        let s = s as u64;
        let pairs = s * (s - 1) / 2;
        Cost {
            clauses: pairs + s + 1,
            aux_vars: 1,
            literals: 2 * pairs + 2 * s + s + 1,
        }
    }

    /// Cost of one more level over `k` literals plus everything below it.
    fn grouped_cost(&self, k: usize) -> Cost {
        let g = self.group;
        let (q, r) = ((k / g) as u64, k % g);
        let full = Self::group_cost(g);
        let last = Self::group_cost(r);
        let below = self.cost(k.div_ceil(g));
        Cost {
            clauses: q * full.clauses + last.clauses + below.clauses,
            aux_vars: q * full.aux_vars + last.aux_vars + below.aux_vars,
            literals: q * full.literals + last.literals + below.literals,
        }
    }

    /// Pairwise for these `k` literals (no more clauses than grouping them)?
    #[inline]
    fn pairwise_here(&self, k: usize) -> bool {
        k <= self.group || Pairwise.cost(k).clauses <= self.grouped_cost(k).clauses
    }
}

impl Default for Commander {
    fn default() -> Commander {
        Commander::new(DEFAULT_GROUP as usize)
    }
}

impl AtMostOne for Commander {
    fn encode<S: ClauseSink + ?Sized>(&self, lits: &[Lit], vars: &mut VarAlloc, sink: &mut S) {
        if self.pairwise_here(lits.len()) {
            return Pairwise.encode(lits, vars, sink);
        }
        let mut commanders = Vec::with_capacity(lits.len().div_ceil(self.group));
        // The at-least-one clause of a group, built in place (no allocation per clause).
        let mut alo = [Lit::pos(1); MAX_GROUP + 1];
        for group in lits.chunks(self.group) {
            if let [x] = group {
                commanders.push(*x);
                continue;
            }
            let c = Lit::pos(vars.fresh());
            commanders.push(c);
            Pairwise.encode(group, vars, sink);
            for &x in group {
                sink.add_clause(&[!x, c]);
            }
            alo[0] = !c;
            alo[1..=group.len()].copy_from_slice(group);
            sink.add_clause(&alo[..=group.len()]);
        }
        self.encode(&commanders, vars, sink);
    }

    fn cost(&self, k: usize) -> Cost {
        if self.pairwise_here(k) {
            Pairwise.cost(k)
        } else {
            self.grouped_cost(k)
        }
    }
}

impl Registered for Commander {
    const NAME: &'static str = "commander";
    const HELP: &'static str =
        "Klieber-Kwon commander, recursive: about 3.5k clauses and k/2 auxiliaries for groups of 3";
    const GROUP: Option<GroupSize> = Some(GroupSize {
        min: 2,
        max: MAX_GROUP as u8,
        default: DEFAULT_GROUP,
    });

    fn build(group: Option<u8>) -> Commander {
        Commander::new(usize::from(group.unwrap_or(DEFAULT_GROUP)))
    }
}

#[cfg(test)]
mod tests {
    use super::Commander;
    use crate::encode::amo::{AmoKind, AtMostOne, tests};

    const SIZES: [u8; 6] = [2, 3, 4, 5, 8, 64];

    #[test]
    fn cost_matches_formula() {
        for g in SIZES {
            tests::check_cost_formula(AmoKind::Commander(g));
        }
    }

    #[test]
    fn recursion_stops_at_six_for_groups_of_three() {
        let c = Commander::default();
        assert!((0..=6).all(|k| c.pairwise_here(k)));
        assert!((7..=2000).all(|k| !c.pairwise_here(k)));
        // 1000 -> 334 -> 112 -> 38 -> 13 -> 5 (pairwise): 333 + 111 + 37 + 13 + 4 commanders
        // (each level ends in a group of one literal, which needs none, except 38 = 12*3 + 2).
        assert_eq!(c.cost(1000).aux_vars, 333 + 111 + 37 + 13 + 4);
    }

    #[test]
    fn admits_exactly_at_most_one() {
        for g in SIZES {
            tests::check_semantics(AmoKind::Commander(g), 10);
        }
    }

    #[test]
    fn with_at_least_one_admits_exactly_one() {
        for g in SIZES {
            tests::check_exactly_one(AmoKind::Commander(g), 10);
        }
    }

    #[test]
    fn is_parsimonious() {
        for g in SIZES {
            tests::check_parsimony(AmoKind::Commander(g), 10, true);
        }
    }

    #[test]
    fn long_lines_by_sat() {
        for g in [2, 3, 5] {
            tests::check_semantics_sat(AmoKind::Commander(g));
        }
    }
}
