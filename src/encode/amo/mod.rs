//! At-most-one (AMO) encodings, one file each, behind one small trait, listed in one registry.
//!
//! Every encoding knows its exact cost (`AtMostOne::cost`) as a function of the number of
//! literals `k`; the encoder sums costs to write an exact DIMACS header before streaming clauses,
//! and tests check emitted counts against the formulas.
//!
//! # Adding an encoding
//!
//! Write one file, say `foo.rs`, with a type implementing `AtMostOne` and `Registered` (its
//! `--amo` name, its help line and, if it takes one, its group-size range), declare it
//! (`pub mod foo;`, beside the other encodings' modules: a plain declaration, so that rustfmt
//! sees the file) and add one entry to the `registry!` list in this file:
//!
//! ```text
//! /// Doc comment of the AmoKind variant.
//! Foo => foo::Foo,      // or `Foo(g) => foo::Foo,` for an encoding with a group size
//! ```
//!
//! The registry generates the `pub use`, the [`AmoKind`] variant, its name, the `--amo`
//! parser ([`AmoKind::by_name`], [`str::parse`]), the dispatch ([`AmoKind::encode`],
//! [`AmoKind::cost`]), [`AmoKind::ALL`] and the help text ([`AmoKind::help`]). The shared tests
//! walk [`AmoKind::ALL`], so a registered encoding cannot be left out of them, and a group size
//! declared in the entry but not in `Registered::GROUP` (or the reverse) fails to compile.

use super::{ClauseSink, Lit, VarAlloc};

// The encodings' modules, listed in the `registry!` table below.
pub mod auto;
pub mod bimander;
pub mod binary;
pub mod commander;
pub mod ladder;
pub mod pairwise;
pub mod product;
pub mod sequential;

/// Largest group size of [`Commander`] and [`Bimander`] (`--amo commander:G`).
pub(crate) const MAX_GROUP: usize = 64;

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

/// An at-most-one encoding: the one contract of the encodings in this module (public, so that a
/// user can encode at-most-one over literals of their own, `Pairwise.encode(&lits, &mut vars,
/// &mut sink)`, as with [`AmoKind::encode`]).
pub trait AtMostOne {
    /// Emits clauses allowing at most one of `lits` to be true, taking auxiliary variables from
    /// `vars`.
    fn encode<S: ClauseSink + ?Sized>(&self, lits: &[Lit], vars: &mut VarAlloc, sink: &mut S);

    /// Exact cost of [`AtMostOne::encode`] for `k` literals.
    fn cost(&self, k: usize) -> Cost;
}

/// The range and default of an encoding's group-size parameter (`--amo NAME:G`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GroupSize {
    /// Smallest valid group size.
    pub min: u8,
    /// Largest valid group size.
    pub max: u8,
    /// The size the plain name selects.
    pub default: u8,
}

/// What the registry needs to know about an encoding besides [`AtMostOne`].
pub(crate) trait Registered: AtMostOne + Sized {
    /// The `--amo` name (lower case, no `:`).
    const NAME: &'static str;
    /// One line for `--amo` help: what the encoding emits.
    const HELP: &'static str;
    /// The group-size parameter, for encodings registered as `Variant(g)`.
    const GROUP: Option<GroupSize> = None;

    /// The encoding with group size `group` (`None`: an encoding without the parameter).
    /// The registry only passes sizes inside [`Registered::GROUP`].
    fn build(group: Option<u8>) -> Self;
}

/// `GROUP.default`, at compile time (fails to compile for an encoding without a group size).
const fn default_group(group: Option<GroupSize>) -> u8 {
    match group {
        Some(g) => g.default,
        None => panic!("registered with a group size but Registered::GROUP is None"),
    }
}

/// `Some(g)` for an entry with a group size, `None` for one without.
macro_rules! group_value {
    () => {
        None
    };
    ($g:ident) => {
        Some($g)
    };
}

/// The field type of a variant with a group size.
macro_rules! group_field {
    ($g:ident) => {
        u8
    };
}

/// Whether an entry has a group size.
macro_rules! has_group {
    () => {
        false
    };
    ($g:ident) => {
        true
    };
}

/// The variant with the group size `$size`, or the plain variant (`$size` is then dropped).
macro_rules! with_group {
    ($variant:path, $size:expr;) => {
        $variant
    };
    ($variant:path, $size:expr; $g:ident) => {
        $variant($size)
    };
}

/// Generates the `pub use` of each encoding's type, [`AmoKind`] and its registry methods from one list of
/// `Variant[(g)] => module::Type` entries (see the module documentation).
macro_rules! registry {
    ($(
        $(#[$doc:meta])*
        $variant:ident $(($g:ident))? => $module:ident :: $ty:ident,
    )+) => {
        $(
            pub use $module::$ty;
            const _: () = assert!(
                <$ty as Registered>::GROUP.is_some() == has_group!($($g)?),
                concat!(
                    stringify!($variant),
                    ": the registry entry and Registered::GROUP disagree on the group size"
                )
            );
        )+

        /// The selectable encodings (`--amo`), generated from the registry in this module.
        ///
        /// Variants with a group size carry it; it must be inside the encoding's
        /// `Registered::GROUP` range ([`AmoKind::by_name`] only builds valid ones; encoding
        /// with another size panics).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum AmoKind {
            $( $(#[$doc])* $variant $((group_field!($g)))?, )+
        }

        impl AmoKind {
            /// All encodings with their default parameters, in registry (and `--amo` help)
            /// order.
            pub const ALL: [AmoKind; [$(stringify!($variant)),+].len()] = [$(
                with_group!(
                    AmoKind::$variant,
                    default_group(<$ty as Registered>::GROUP);
                    $($g)?
                ),
            )+];

            /// The encoding's name without parameters (its `Registered::NAME`).
            pub const fn base_name(self) -> &'static str {
                match self {
                    $( AmoKind::$variant { .. } => <$ty as Registered>::NAME, )+
                }
            }

            /// The encoding's `Registered::HELP` line.
            pub const fn summary(self) -> &'static str {
                match self {
                    $( AmoKind::$variant { .. } => <$ty as Registered>::HELP, )+
                }
            }

            /// The range of the group-size parameter, if the encoding has one.
            pub const fn group_size(self) -> Option<GroupSize> {
                match self {
                    $( AmoKind::$variant { .. } => <$ty as Registered>::GROUP, )+
                }
            }

            /// The group size this value carries, if the encoding has one.
            pub const fn group(self) -> Option<u8> {
                match self {
                    $( AmoKind::$variant $(($g))? => group_value!($($g)?), )+
                }
            }

            /// The same encoding with group size `size` (unchanged for an encoding without
            /// the parameter). The size is not checked here.
            const fn with_group(self, size: u8) -> AmoKind {
                match self {
                    $( AmoKind::$variant { .. } => with_group!(AmoKind::$variant, size; $($g)?), )+
                }
            }

            /// Emits the AMO clauses for `lits` with this encoding.
            #[inline]
            pub fn encode<S: ClauseSink + ?Sized>(
                self,
                lits: &[Lit],
                vars: &mut VarAlloc,
                sink: &mut S,
            ) {
                match self {
                    $( AmoKind::$variant $(($g))? => {
                        <$ty as Registered>::build(group_value!($($g)?)).encode(lits, vars, sink)
                    } )+
                }
            }

            /// Exact cost for `k` literals.
            pub fn cost(self, k: usize) -> Cost {
                match self {
                    $( AmoKind::$variant $(($g))? => {
                        <$ty as Registered>::build(group_value!($($g)?)).cost(k)
                    } )+
                }
            }
        }
    };
}

registry! {
    /// Binomial / pairwise: `k(k-1)/2` binary clauses, no auxiliaries.
    Pairwise => pairwise::Pairwise,
    /// Sinz 2005 sequential counter: `3k-4` clauses, `k-1` auxiliaries.
    Sequential => sequential::Sequential,
    /// Chen 2010 recursive 2-product: about `2k + 4 sqrt(k)` clauses, `2 sqrt(k)` auxiliaries.
    Product => product::Product,
    /// Gent and Nightingale 2004 ladder: `4k-2` clauses, `k` auxiliaries, parsimonious.
    Ladder => ladder::Ladder,
    /// Klieber and Kwon 2007 commander with this group size, recursive: about `3.5k` clauses
    /// and `k/2` auxiliaries for groups of 3, parsimonious.
    Commander(g) => commander::Commander,
    /// Nguyen and Mai 2015 bimander with this group size: pairwise in groups, binary between
    /// them; about `k log2(k/g)` clauses, `log2(k/g)` auxiliaries.
    Bimander(g) => bimander::Bimander,
    /// Binary / bitwise: `k ceil(log2 k)` clauses, `ceil(log2 k)` auxiliaries.
    Binary => binary::Binary,
    /// Chosen per line by its length ([`Auto::pick`]).
    Auto => auto::Auto,
}

impl AmoKind {
    /// The default `--amo` (see README for the measurement behind it). It has no parameters,
    /// so its [`AmoKind::name`] is its [`AmoKind::base_name`].
    pub const DEFAULT: AmoKind = AmoKind::Auto;

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
        match (self.group(), self.group_size()) {
            (Some(g), Some(range)) if g != range.default => format!("{}:{g}", self.base_name()),
            _ => self.base_name().to_string(),
        }
    }

    /// The names of [`AmoKind::ALL`], in order.
    pub fn names() -> Vec<&'static str> {
        AmoKind::ALL.iter().map(|a| a.base_name()).collect()
    }

    /// Looks up an encoding name, or a one-line usage error (the registry's [`UnknownAmo`]
    /// message, which lists the known names).
    pub fn parse(name: &str) -> crate::Result<AmoKind> {
        name.parse::<AmoKind>().map_err(|e| {
            crate::error::BadOption::unknown_because(crate::error::Opt::Amo, name, e.allowed())
        })
    }

    /// Looks an encoding up by `--amo` name: one of the [`AmoKind::ALL`] names, or `NAME:G` for
    /// an encoding with a group size `G` inside its [`AmoKind::group_size`] range
    /// (`commander:G`, `2 <= G <= 64`; `bimander:G`, `1 <= G <= 64`).
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
                (base, Some(size.parse::<u64>().ok()?))
            }
            None => (name, None),
        };
        let kind = AmoKind::ALL.into_iter().find(|a| a.base_name() == base)?;
        match (size, kind.group_size()) {
            (None, _) => Some(kind),
            (Some(g), Some(range))
                if (u64::from(range.min)..=u64::from(range.max)).contains(&g) =>
            {
                Some(kind.with_group(g as u8))
            }
            _ => None,
        }
    }

    /// The `--amo` help text, one line per registered encoding, from the registry: name (with
    /// `[:G]` and the group-size range for encodings that take one) and [`AmoKind::summary`].
    pub fn help() -> String {
        let mut text = String::from("At-most-one encoding:");
        for kind in AmoKind::ALL {
            text.push_str("\n  ");
            text.push_str(kind.base_name());
            if let Some(range) = kind.group_size() {
                text.push_str(&format!(
                    "[:G] (group size {}..={}, default {})",
                    range.min, range.max, range.default
                ));
            }
            text.push_str(": ");
            text.push_str(kind.summary());
        }
        text
    }
}

/// An `--amo` name that is not registered; its message lists the known names and the
/// group-size ranges.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownAmo(pub String);

impl UnknownAmo {
    /// What is allowed: the group-size ranges and the known names.
    pub fn allowed(&self) -> String {
        let groups: Vec<String> = AmoKind::ALL
            .iter()
            .filter_map(|k| {
                let r = k.group_size()?;
                Some(format!(
                    "{}:G with {} <= G <= {}",
                    k.base_name(),
                    r.min,
                    r.max
                ))
            })
            .collect();
        let mut text = String::new();
        if !groups.is_empty() {
            text = format!("{} set the group size; ", groups.join(" and "));
        }
        text.push_str(&format!("known: {}", AmoKind::names().join(", ")));
        text
    }
}

impl std::fmt::Display for UnknownAmo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "unknown --amo '{}' ({})", self.0, self.allowed())
    }
}

impl std::error::Error for UnknownAmo {}

impl std::str::FromStr for AmoKind {
    type Err = UnknownAmo;

    /// [`AmoKind::by_name`], with an error naming the known encodings.
    fn from_str(name: &str) -> Result<AmoKind, UnknownAmo> {
        AmoKind::by_name(name).ok_or_else(|| UnknownAmo(name.to_string()))
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

    /// The input literals `x_1..x_k`, variable `i` negated where bit `i-1` of `neg` is set.
    fn inputs(k: usize, neg: u64) -> Vec<Lit> {
        (1..=k as u32)
            .map(|v| match neg >> (v - 1) & 1 {
                0 => Lit::pos(v),
                _ => Lit::neg(v),
            })
            .collect()
    }

    /// The polarities every encoding is checked on, as in pindakaas's shared encoder suite: all
    /// literals positive, all negated, and mixed (every other one negated), as masks for `k`
    /// inputs ([`inputs`]).
    fn polarities(k: usize) -> [u64; 3] {
        let all = if k >= 64 { u64::MAX } else { (1u64 << k) - 1 };
        [0, all, 0x5555_5555_5555_5555 & all]
    }

    /// Largest number of auxiliaries [`extensions`] enumerates.
    const MAX_BRUTE_AUX: usize = 12;

    /// For every assignment of the `k` input literals (bit `i` of the index: literal `i+1` is
    /// true; its variable is negated where bit `i` of `neg` is set), the number of assignments
    /// of the auxiliaries that satisfy the AMO encoding of the literals, preceded by the
    /// at-least-one clause over them if `with_alo`. Counts stop at 2 (enough to tell "none",
    /// "exactly one" and "several"). Brute force over bitmask clauses.
    fn extensions(amo: AmoKind, k: usize, with_alo: bool, neg: u64) -> Vec<u8> {
        let lits = inputs(k, neg);
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
                    // The variables' values: literal truth flipped where the literal is negated.
                    let v = (input ^ neg) | a << k;
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
            for neg in polarities(k) {
                for (input, n) in extensions(amo, k, false, neg).into_iter().enumerate() {
                    let allowed = input.count_ones() <= 1;
                    assert_eq!(n > 0, allowed, "{amo} k={k} neg={neg:b} input={input:b}");
                }
            }
        }
    }

    /// With the at-least-one clause added, the encoding admits exactly the assignments with
    /// exactly one true literal (brute force, k <= max_k).
    pub fn check_exactly_one(amo: AmoKind, max_k: usize) {
        for k in 1..=max_k {
            for neg in polarities(k) {
                for (input, n) in extensions(amo, k, true, neg).into_iter().enumerate() {
                    let allowed = input.count_ones() == 1;
                    assert_eq!(
                        n > 0,
                        allowed,
                        "{amo} k={k} neg={neg:b} input={input:b} with ALO"
                    );
                }
            }
        }
    }

    /// `parsimonious`: for every k <= max_k every admitted input has exactly one extension to
    /// the auxiliaries. Otherwise: for some k <= max_k some admitted input has several.
    pub fn check_parsimony(amo: AmoKind, max_k: usize, parsimonious: bool) {
        let mut several = None;
        for k in 1..=max_k {
            for (input, n) in extensions(amo, k, false, 0).into_iter().enumerate() {
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
    /// true with the others false, are satisfiable; every pair of inputs true is not. On
    /// positive, negated and mixed literals ([`polarities`]).
    pub fn check_semantics_sat(amo: AmoKind) {
        for (k, neg) in SAT_LENGTHS
            .into_iter()
            .flat_map(|k| polarities(k).map(|neg| (k, neg)))
        {
            let lits = inputs(k, neg);
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

    /// Every value of every registered encoding: [`AmoKind::ALL`] and, for encodings with a
    /// group size, every size in its range.
    fn every_value() -> Vec<AmoKind> {
        let mut kinds = Vec::new();
        for kind in AmoKind::ALL {
            match kind.group_size() {
                Some(r) => kinds.extend((r.min..=r.max).map(|g| kind.with_group(g))),
                None => kinds.push(kind),
            }
        }
        kinds
    }

    #[test]
    fn every_registered_encoding_is_reachable_by_name_and_round_trips() {
        let names = AmoKind::names();
        let mut distinct = names.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), names.len(), "duplicate names in {names:?}");
        for kind in AmoKind::ALL {
            let name = kind.base_name();
            assert!(!name.is_empty() && !name.contains(':'), "{name:?}");
            assert_eq!(AmoKind::by_name(name), Some(kind), "{name}");
            assert_eq!(name.parse::<AmoKind>(), Ok(kind));
            assert_eq!(kind.name(), name, "ALL holds default parameters");
            if let Some(r) = kind.group_size() {
                assert!(
                    1 <= r.min && r.min <= r.default && r.default <= r.max,
                    "{name}"
                );
                assert_eq!(kind.group(), Some(r.default), "{name}");
                assert!(usize::from(r.max) <= MAX_GROUP, "{name}");
            } else {
                assert_eq!(kind.group(), None, "{name}");
            }
        }
        for amo in every_value() {
            assert_eq!(AmoKind::by_name(&amo.name()), Some(amo), "{amo}");
            assert_eq!(amo.to_string(), amo.name());
            // Explicit default sizes name the same encoding.
            if let Some(g) = amo.group() {
                let explicit = format!("{}:{g}", amo.base_name());
                assert_eq!(AmoKind::by_name(&explicit), Some(amo), "{explicit}");
            }
            // Dispatch reaches an encoding that emits a correct AMO (cost and semantics on
            // short lines; the per-encoding files test longer ones).
            let k = 5;
            assert_eq!(amo.cost(k), {
                let lits: Vec<Lit> = (1..=k as u32).map(Lit::pos).collect();
                let mut vars = VarAlloc::new(k as u32);
                let mut sink = crate::encode::StatsSink::default();
                amo.encode(&lits, &mut vars, &mut sink);
                Cost {
                    clauses: sink.stats.clauses,
                    aux_vars: u64::from(vars.count()) - k as u64,
                    literals: sink.stats.literals,
                }
            });
        }
    }

    #[test]
    fn every_registered_encoding_is_a_correct_amo() {
        for amo in AmoKind::ALL {
            check_cost_formula(amo);
            check_semantics(amo, 8);
        }
    }

    #[test]
    fn sizes_outside_the_range_and_malformed_names_are_rejected() {
        for kind in AmoKind::ALL {
            let base = kind.base_name();
            match kind.group_size() {
                Some(r) => {
                    for g in [u64::from(r.min) - 1, u64::from(r.max) + 1, 256, 1 << 40] {
                        let name = format!("{base}:{g}");
                        assert_eq!(AmoKind::by_name(&name), None, "{name}");
                    }
                }
                None => assert_eq!(AmoKind::by_name(&format!("{base}:2")), None, "{base}:2"),
            }
            for bad in [":", ":+4", ":-4", ": 4", ":4:4", ":99999999999999999999999"] {
                let name = format!("{base}{bad}");
                assert_eq!(AmoKind::by_name(&name), None, "{name:?}");
            }
            assert_eq!(AmoKind::by_name(&base.to_uppercase()), None, "{base}");
        }
        for bad in [":3", "", "magic"] {
            assert_eq!(AmoKind::by_name(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn the_default_is_registered_without_parameters() {
        assert!(AmoKind::ALL.contains(&AmoKind::DEFAULT));
        assert_eq!(AmoKind::DEFAULT.name(), AmoKind::DEFAULT.base_name());
        assert_eq!(
            AmoKind::by_name(AmoKind::DEFAULT.base_name()),
            Some(AmoKind::DEFAULT)
        );
    }

    #[test]
    fn help_and_errors_come_from_the_registry() {
        let help = AmoKind::help();
        assert_eq!(help.lines().count(), AmoKind::ALL.len() + 1, "{help}");
        for (kind, line) in AmoKind::ALL.iter().zip(help.lines().skip(1)) {
            let line = line.trim_start();
            assert!(line.starts_with(kind.base_name()), "{line}");
            assert!(line.ends_with(kind.summary()), "{line}");
            assert_eq!(line.contains("[:G]"), kind.group_size().is_some(), "{line}");
        }
        let err = "nope".parse::<AmoKind>().unwrap_err().to_string();
        let known = err
            .split_once("known: ")
            .and_then(|(_, rest)| rest.strip_suffix(')'))
            .unwrap_or_else(|| panic!("{err}"));
        assert_eq!(known.split(", ").collect::<Vec<_>>(), AmoKind::names());
        assert!(err.starts_with("unknown --amo 'nope' ("), "{err}");
        assert!(err.contains("commander:G with 2 <= G <= 64"), "{err}");
        assert!(err.contains("bimander:G with 1 <= G <= 64"), "{err}");
    }
}
