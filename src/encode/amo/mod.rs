//! At-most-one (AMO) encodings, one file each, behind one small trait.
//!
//! Every encoding knows its exact cost ([`AtMostOne::cost`]) as a function of the number of
//! literals `k`; the encoder sums costs to write an exact DIMACS header before streaming clauses,
//! and tests check emitted counts against the formulas.

use super::{ClauseSink, Lit, VarAlloc};

pub mod auto;
pub mod bimander;
pub mod binary;
pub mod commander;
pub mod ladder;
pub mod pairwise;
pub mod product;
pub mod sequential;

pub use auto::Auto;
pub use bimander::Bimander;
pub use binary::Binary;
pub use commander::Commander;
pub use ladder::Ladder;
pub use pairwise::Pairwise;
pub use product::Product;
pub use sequential::Sequential;

/// Largest group size of [`Commander`] and [`Bimander`] (`--amo commander:G`).
pub const MAX_GROUP: usize = 64;

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
///
/// `Commander` and `Bimander` carry their group size, which must be in `2..=64` and `1..=64`
/// ([`AmoKind::by_name`] only builds valid ones; encoding with another size panics).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AmoKind {
    /// Binomial / pairwise: `k(k-1)/2` binary clauses, no auxiliaries.
    Pairwise,
    /// Sinz 2005 sequential counter: `3k-4` clauses, `k-1` auxiliaries.
    Sequential,
    /// Chen 2010 recursive 2-product: about `2k + 4 sqrt(k)` clauses, `2 sqrt(k)` auxiliaries.
    Product,
    /// Gent and Nightingale 2004 ladder: `4k-2` clauses, `k` auxiliaries, parsimonious.
    Ladder,
    /// Klieber and Kwon 2007 commander with this group size, recursive: about `3.5k` clauses
    /// and `k/2` auxiliaries for groups of 3, parsimonious.
    Commander(u8),
    /// Nguyen and Mai 2015 bimander with this group size: pairwise in groups, binary between
    /// them; about `k log2(k/g)` clauses, `log2(k/g)` auxiliaries.
    Bimander(u8),
    /// Binary / bitwise: `k ceil(log2 k)` clauses, `ceil(log2 k)` auxiliaries.
    Binary,
    /// Chosen per line by its length ([`Auto::pick`]).
    Auto,
}

impl AmoKind {
    /// All encodings with their default parameters, in `--amo` help order.
    pub const ALL: [AmoKind; 8] = [
        AmoKind::Pairwise,
        AmoKind::Sequential,
        AmoKind::Product,
        AmoKind::Ladder,
        AmoKind::Commander(commander::DEFAULT_GROUP),
        AmoKind::Bimander(bimander::DEFAULT_GROUP),
        AmoKind::Binary,
        AmoKind::Auto,
    ];

    /// The encoding's `--amo` name: the plain name for default parameters, `NAME:G` for another
    /// group size. [`AmoKind::by_name`] reads it back.
    ///
    /// ```
    /// use queens_sat::encode::amo::AmoKind;
    /// assert_eq!(AmoKind::Commander(3).name(), "commander");
    /// assert_eq!(AmoKind::Commander(4).name(), "commander:4");
    /// for amo in [AmoKind::Product, AmoKind::Commander(3), AmoKind::Bimander(5)] {
    ///     assert_eq!(AmoKind::by_name(&amo.name()), Some(amo));
    /// }
    /// ```
    pub fn name(self) -> String {
        match self {
            AmoKind::Commander(g) if g != commander::DEFAULT_GROUP => format!("commander:{g}"),
            AmoKind::Bimander(g) if g != bimander::DEFAULT_GROUP => format!("bimander:{g}"),
            _ => self.base_name().to_string(),
        }
    }

    /// The name without parameters.
    fn base_name(self) -> &'static str {
        match self {
            AmoKind::Pairwise => "pairwise",
            AmoKind::Sequential => "sequential",
            AmoKind::Product => "product",
            AmoKind::Ladder => "ladder",
            AmoKind::Commander(_) => "commander",
            AmoKind::Bimander(_) => "bimander",
            AmoKind::Binary => "binary",
            AmoKind::Auto => "auto",
        }
    }

    /// The default `--amo`: `auto` (pairwise for lines of <= 64 cells, product above; see the
    /// README for the measurements behind it).
    pub const DEFAULT: AmoKind = AmoKind::Auto;

    /// Looks up an encoding name, or a one-line usage error listing the known ones.
    pub fn parse(name: &str) -> crate::Result<AmoKind> {
        AmoKind::by_name(name).ok_or_else(|| {
            let known: Vec<String> = AmoKind::ALL.iter().map(|a| a.name()).collect();
            crate::Error::Usage(format!(
                "unknown --amo '{name}' (commander:G with 2 <= G <= {MAX_GROUP} and bimander:G with \
                 1 <= G <= {MAX_GROUP} set the group size; known: {})",
                known.join(", "),
            ))
        })
    }

    /// Looks an encoding up by `--amo` name: one of the [`AmoKind::ALL`] names, or
    /// `commander:G` (`2 <= G <= 64`) / `bimander:G` (`1 <= G <= 64`) for another group size.
    ///
    /// ```
    /// use queens_sat::encode::amo::AmoKind;
    /// assert_eq!(AmoKind::by_name("sequential"), Some(AmoKind::Sequential));
    /// assert_eq!(AmoKind::by_name("commander"), Some(AmoKind::Commander(3)));
    /// assert_eq!(AmoKind::by_name("commander:4"), Some(AmoKind::Commander(4)));
    /// assert_eq!(AmoKind::by_name("commander:1"), None);
    /// assert_eq!(AmoKind::by_name("magic"), None);
    /// ```
    pub fn by_name(name: &str) -> Option<AmoKind> {
        let (base, size) = match name.split_once(':') {
            Some((base, size)) => {
                // Digits only: no sign, no spaces, no leading '+'.
                if size.is_empty() || !size.bytes().all(|b| b.is_ascii_digit()) {
                    return None;
                }
                (base, Some(size.parse::<usize>().ok()?))
            }
            None => (name, None),
        };
        let kind = AmoKind::ALL.into_iter().find(|a| a.base_name() == base)?;
        match (kind, size) {
            (_, None) => Some(kind),
            (AmoKind::Commander(_), Some(g)) if (2..=MAX_GROUP).contains(&g) => {
                Some(AmoKind::Commander(g as u8))
            }
            (AmoKind::Bimander(_), Some(g)) if (1..=MAX_GROUP).contains(&g) => {
                Some(AmoKind::Bimander(g as u8))
            }
            _ => None,
        }
    }

    /// Emits the AMO clauses for `lits` with this encoding.
    #[inline]
    pub fn encode<S: ClauseSink + ?Sized>(self, lits: &[Lit], vars: &mut VarAlloc, sink: &mut S) {
        match self {
            AmoKind::Pairwise => Pairwise.encode(lits, vars, sink),
            AmoKind::Sequential => Sequential.encode(lits, vars, sink),
            AmoKind::Product => Product.encode(lits, vars, sink),
            AmoKind::Ladder => Ladder.encode(lits, vars, sink),
            AmoKind::Commander(g) => Commander::new(g as usize).encode(lits, vars, sink),
            AmoKind::Bimander(g) => Bimander::new(g as usize).encode(lits, vars, sink),
            AmoKind::Binary => Binary.encode(lits, vars, sink),
            AmoKind::Auto => Auto.encode(lits, vars, sink),
        }
    }

    /// Exact cost for `k` literals.
    pub fn cost(self, k: usize) -> Cost {
        match self {
            AmoKind::Pairwise => Pairwise.cost(k),
            AmoKind::Sequential => Sequential.cost(k),
            AmoKind::Product => Product.cost(k),
            AmoKind::Ladder => Ladder.cost(k),
            AmoKind::Commander(g) => Commander::new(g as usize).cost(k),
            AmoKind::Bimander(g) => Bimander::new(g as usize).cost(k),
            AmoKind::Binary => Binary.cost(k),
            AmoKind::Auto => Auto.cost(k),
        }
    }
}

impl std::fmt::Display for AmoKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::encode::{StatsSink, VecSink};
    use varisat::ExtendFormula;

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

    /// Largest number of auxiliaries [`extensions`] enumerates.
    const MAX_BRUTE_AUX: usize = 12;

    /// For every assignment of the `k` inputs (bit `i` of the index = `x_{i+1}`), the number of
    /// assignments of the auxiliaries that satisfy the AMO encoding of `x_1..x_k`, preceded by
    /// the at-least-one clause `(x_1 ∨ .. ∨ x_k)` if `with_alo`. Counts stop at 2 (enough to
    /// tell "none", "exactly one" and "several"). Brute force over bitmask clauses.
    fn extensions(amo: AmoKind, k: usize, with_alo: bool) -> Vec<u8> {
        let lits: Vec<Lit> = (1..=k as u32).map(Lit::pos).collect();
        let mut vars = VarAlloc::new(k as u32);
        let mut sink = VecSink::default();
        if with_alo {
            sink.add_clause(&lits);
        }
        amo.encode(&lits, &mut vars, &mut sink);
        let aux = (vars.count() - k as u32) as usize;
        assert!(
            aux <= MAX_BRUTE_AUX,
            "{amo} k={k}: {aux} aux vars, too many to brute force"
        );
        // Clause as (positive mask, negative mask) over bit v-1 for variable v.
        let masks: Vec<(u64, u64)> = sink
            .clauses
            .iter()
            .map(|c| {
                c.iter().fold((0, 0), |(p, n), l| {
                    let bit = 1u64 << (l.var() - 1);
                    if l.is_positive() {
                        (p | bit, n)
                    } else {
                        (p, n | bit)
                    }
                })
            })
            .collect();
        (0u64..1 << k)
            .map(|input| {
                let mut count = 0u8;
                for a in 0u64..1 << aux {
                    let v = input | a << k;
                    if masks.iter().all(|&(p, n)| v & p != 0 || !v & n != 0) {
                        count += 1;
                        if count == 2 {
                            break;
                        }
                    }
                }
                count
            })
            .collect()
    }

    /// Projected on the inputs, the encoding admits exactly the assignments with <= 1 true literal
    /// (checked by brute force over inputs and auxiliaries), for k <= max_k.
    pub fn check_semantics(amo: AmoKind, max_k: usize) {
        for k in 1..=max_k {
            for (input, n) in extensions(amo, k, false).into_iter().enumerate() {
                let allowed = input.count_ones() <= 1;
                assert_eq!(n > 0, allowed, "{amo} k={k} input={input:b}");
            }
        }
    }

    /// With the at-least-one clause added, the encoding admits exactly the assignments with
    /// exactly one true literal (brute force, k <= max_k).
    pub fn check_exactly_one(amo: AmoKind, max_k: usize) {
        for k in 1..=max_k {
            for (input, n) in extensions(amo, k, true).into_iter().enumerate() {
                let allowed = input.count_ones() == 1;
                assert_eq!(n > 0, allowed, "{amo} k={k} input={input:b} with ALO");
            }
        }
    }

    /// `parsimonious`: for every k <= max_k every admitted input has exactly one extension to
    /// the auxiliaries. Otherwise: for some k <= max_k some admitted input has several.
    pub fn check_parsimony(amo: AmoKind, max_k: usize, parsimonious: bool) {
        let mut several = None;
        for k in 1..=max_k {
            for (input, n) in extensions(amo, k, false).into_iter().enumerate() {
                if input.count_ones() <= 1 && n > 1 {
                    several.get_or_insert((k, input));
                }
            }
        }
        match several {
            Some((k, input)) if parsimonious => {
                panic!("{amo} k={k} input={input:b}: several extensions")
            }
            None if !parsimonious => panic!("{amo}: parsimonious up to k={max_k}"),
            _ => {}
        }
    }

    /// Lengths [`check_semantics_sat`] checks: past the brute-force range, around powers of two
    /// and squares, and the longest lines of a 100-board.
    const SAT_LENGTHS: [usize; 12] = [11, 15, 16, 17, 24, 25, 26, 31, 33, 50, 64, 100];

    /// For longer lines, with varisat under assumptions: no input true, and each single input
    /// true with the others false, are satisfiable; every pair of inputs true is not.
    pub fn check_semantics_sat(amo: AmoKind) {
        for k in SAT_LENGTHS {
            let lits: Vec<Lit> = (1..=k as u32).map(Lit::pos).collect();
            let mut vars = VarAlloc::new(k as u32);
            let mut sink = VecSink::default();
            amo.encode(&lits, &mut vars, &mut sink);
            let mut solver = varisat::Solver::new();
            let v = |l: Lit| varisat::Lit::from_dimacs(l.to_dimacs() as isize);
            for c in &sink.clauses {
                solver.add_clause(&c.iter().map(|&l| v(l)).collect::<Vec<_>>());
            }
            let mut solve = |assume: &[varisat::Lit]| {
                solver.assume(assume);
                solver.solve().expect("varisat")
            };
            let all_false: Vec<_> = lits.iter().map(|&l| v(!l)).collect();
            assert!(solve(&all_false), "{amo} k={k}: none true rejected");
            for i in 0..k {
                let mut one = all_false.clone();
                one[i] = v(lits[i]);
                assert!(solve(&one), "{amo} k={k}: only x{} rejected", i + 1);
                for j in i + 1..k {
                    assert!(
                        !solve(&[v(lits[i]), v(lits[j])]),
                        "{amo} k={k}: x{} and x{} both admitted",
                        i + 1,
                        j + 1
                    );
                }
            }
        }
    }

    #[test]
    fn names_round_trip() {
        let mut kinds: Vec<AmoKind> = AmoKind::ALL.to_vec();
        kinds.extend((2..=64).map(AmoKind::Commander));
        kinds.extend((1..=64).map(AmoKind::Bimander));
        for amo in kinds {
            assert_eq!(AmoKind::by_name(&amo.name()), Some(amo), "{amo}");
            assert_eq!(amo.to_string(), amo.name());
        }
        let names: Vec<String> = AmoKind::ALL.iter().map(|a| a.name()).collect();
        assert_eq!(
            names,
            [
                "pairwise",
                "sequential",
                "product",
                "ladder",
                "commander",
                "bimander",
                "binary",
                "auto"
            ]
        );
        // Explicit default sizes name the same encoding.
        assert_eq!(AmoKind::by_name("commander:3"), Some(AmoKind::Commander(3)));
        for bad in [
            "commander:",
            "commander:1",
            "commander:65",
            "commander:+4",
            "commander:-4",
            "commander: 4",
            "commander:4:4",
            "commander:99999999999999999999999",
            "bimander:0",
            "product:3",
            "auto:2",
            ":3",
            "Product",
            "",
        ] {
            assert_eq!(AmoKind::by_name(bad), None, "{bad:?}");
        }
    }
}
