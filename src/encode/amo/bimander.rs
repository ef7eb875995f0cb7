//! The bimander encoding for at-most-one.

use super::binary::bits_for;
use super::{AtMostOne, Cost, GroupSize, MAX_GROUP, Pairwise, Registered};
use crate::encode::{ClauseSink, Lit, VarAlloc};

/// Bimander AMO (V.-H. Nguyen and S. T. Mai, "A New Method to Encode the At-Most-One Constraint
/// into SAT", SoICT 2015): pairwise inside groups, binary between groups.
///
/// The `k` literals are cut, in order, into `m = ceil(k/g)` groups of `g` (the last one may be
/// shorter). Inside each group: pairwise. Between groups: `b = ceil(log2 m)` bit variables, and
/// every literal of group `i` implies the binary code of `i` (`(¬x ∨ B_j)` or `(¬x ∨ ¬B_j)`
/// for each bit `j`), so literals of two different groups cannot both be true.
///
/// The paper leaves the number of groups `m` free (`m = 1` is pairwise, `m = k` is the binary
/// encoding). Here `m` comes from a fixed group size `g`: `--amo bimander:G`, `1 <= G <= 64`.
/// The default `g = 2`, i.e. `m = ceil(k/2)`, has exactly `ceil(k/2)` fewer clauses and one
/// fewer auxiliary than binary (`ceil(log2 ceil(k/2)) = ceil(log2 k) - 1`), and groups of 3 or
/// 4 were no faster in our runs (N-queens n = 100..400 step 20, varisat: 14.8 s, 15.7 s and
/// 14.9 s in all for g = 2, 3, 4).
///
/// Cost for `k >= 2`, with `k = q g + r` (`0 <= r < g`): `q g(g-1)/2 + r(r-1)/2 + k b` binary
/// clauses (twice as many literals) and `b` auxiliaries; `k <= 1`: nothing. With `g = 2`:
/// `floor(k/2) + k ceil(log2 ceil(k/2))` clauses and `ceil(log2 ceil(k/2))` auxiliaries.
///
/// Not parsimonious when `m >= 2`: with no literal true the bits are free (`2^b` extensions).
#[derive(Clone, Copy, Debug)]
pub struct Bimander {
    group: usize,
}

/// The default group size (`--amo bimander`).
pub(crate) const DEFAULT_GROUP: u8 = 2;

impl Bimander {
    /// Bimander with groups of `group` literals.
    ///
    /// # Panics
    /// If `group` is not in `1..=64`.
    #[inline]
    pub fn new(group: usize) -> Bimander {
        assert!(
            (1..=MAX_GROUP).contains(&group),
            "bimander group size {group} not in 1..={MAX_GROUP}"
        );
        Bimander { group }
    }
}

impl AtMostOne for Bimander {
    #[inline]
    fn encode<S: ClauseSink + ?Sized>(&self, lits: &[Lit], vars: &mut VarAlloc, sink: &mut S) {
        if lits.len() < 2 {
            return;
        }
        let b = bits_for(lits.len().div_ceil(self.group));
        let first = vars.fresh_block(b);
        for (i, group) in lits.chunks(self.group).enumerate() {
            Pairwise.encode(group, vars, sink);
            for &x in group {
                for j in 0..b {
                    let bit = Lit::pos(first + j);
                    let code = if i >> j & 1 == 1 { bit } else { !bit };
                    sink.add_clause(&[!x, code]);
                }
            }
        }
    }

    fn cost(&self, k: usize) -> Cost {
        if k < 2 {
            return Cost::default();
        }
        let g = self.group;
        let b = bits_for(k.div_ceil(g)) as u64;
        let (q, r) = ((k / g) as u64, (k % g) as u64);
        let pairs = |s: u64| s * s.saturating_sub(1) / 2;
        let clauses = q * pairs(g as u64) + pairs(r) + k as u64 * b;
        Cost {
            clauses,
            aux_vars: b,
            literals: 2 * clauses,
        }
    }
}

impl Registered for Bimander {
    const NAME: &'static str = "bimander";
    const HELP: &'static str = "Nguyen-Mai bimander: pairwise in groups, binary between them";
    const GROUP: Option<GroupSize> = Some(GroupSize {
        min: 1,
        max: MAX_GROUP as u8,
        default: DEFAULT_GROUP,
    });

    fn build(group: Option<u8>) -> Bimander {
        Bimander::new(usize::from(group.unwrap_or(DEFAULT_GROUP)))
    }
}

#[cfg(test)]
mod tests {
    use super::Bimander;
    use crate::encode::amo::{AmoKind, AtMostOne, Binary, tests};

    #[test]
    fn groups_of_two_save_half_k_clauses_over_binary() {
        for k in 2..=2000usize {
            let (bi, bin) = (Bimander::new(2).cost(k), Binary.cost(k));
            assert_eq!(bi.clauses + k.div_ceil(2) as u64, bin.clauses, "k={k}");
            assert_eq!(bi.aux_vars + 1, bin.aux_vars, "k={k}");
        }
        // One group of size >= k is pairwise, groups of one are binary.
        for k in 1..=64 {
            assert_eq!(Bimander::new(64).cost(k), AmoKind::Pairwise.cost(k));
            assert_eq!(Bimander::new(1).cost(k), Binary.cost(k));
        }
    }

    const SIZES: [u8; 6] = [1, 2, 3, 4, 5, 64];

    #[test]
    fn cost_matches_formula() {
        for g in SIZES {
            tests::check_cost_formula(AmoKind::Bimander(g));
        }
    }

    #[test]
    fn admits_exactly_at_most_one() {
        for g in SIZES {
            tests::check_semantics(AmoKind::Bimander(g), 10);
        }
    }

    #[test]
    fn with_at_least_one_admits_exactly_one() {
        for g in SIZES {
            tests::check_exactly_one(AmoKind::Bimander(g), 10);
        }
    }

    #[test]
    fn is_not_parsimonious() {
        for g in SIZES {
            // With g = 64 and k <= 10 there is one group: pairwise, which is parsimonious.
            tests::check_parsimony(AmoKind::Bimander(g), 10, g == 64);
        }
    }

    #[test]
    fn long_lines_by_sat() {
        for g in [2, 3, 7] {
            tests::check_semantics_sat(AmoKind::Bimander(g));
        }
    }
}
