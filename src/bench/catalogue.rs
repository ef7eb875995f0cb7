//! The instance sets of `bench hard`: the standard set (in code, sized by `quick` and the seed
//! count), the tail and frontier sets (suite recipes `encodings/tail.suite` and
//! `encodings/frontier.suite`, embedded here, so that `queens-sat suite` generates the very same
//! instances), seeded samples of a set, and the instance file a run is given.

use crate::error::{Error, Result};
use crate::generate::Generator;
use crate::instance::{InstanceFormat, write::write as write_instance};
use crate::piece::QUEEN;
use crate::prng::Prng;
use crate::suite::recipe;

use super::types::{Group, HardInstance, HardOptions, HardSet};

/// Blocked n-queens of the standard set: `(n, blocked cell counts)`, all with at least one free
/// cell per row and column, straddling the satisfiable-to-unsatisfiable transition.
const BLOCKED: [(u32, [u32; 2]); 3] = [(28, [600, 610]), (48, [1960, 1970]), (56, [2690, 2720])];

/// Excluded diagonals of the standard set: `(n, prefix length)` at the measured 50 % point of
/// P(SAT) for `min-free = 1` (irregular in n, hence a table).
const DIAGONALS: [(u32, usize); 10] = [
    (12, 6),
    (13, 8),
    (14, 12),
    (15, 10),
    (16, 16),
    (17, 16),
    (18, 14),
    (19, 19),
    (20, 20),
    (21, 22),
];

/// The recipe of the tail set (`encodings/tail.suite`).
pub const TAIL_RECIPE: &str = include_str!("../../encodings/tail.suite");

/// The recipe of the frontier set (`encodings/frontier.suite`).
pub const FRONTIER_RECIPE: &str = include_str!("../../encodings/frontier.suite");

/// The standard set: blocked n = 28, 48, 56 (two blocked-cell counts) and excluded diagonals
/// n = 12..21 at their transition, each also reduced to completion, for generator seeds
/// `1..=seeds`: 26 instances per seed. `quick` keeps blocked n = 28, 48 and diagonals
/// n = 12..15: 12 per seed.
pub fn instances(quick: bool, seeds: u64) -> Vec<HardInstance> {
    let mut out = Vec::new();
    for (n, ms) in BLOCKED {
        if quick && n > 48 {
            continue;
        }
        for m in ms {
            for seed in 1..=seeds {
                out.push(HardInstance {
                    group: Group::Blocked,
                    n,
                    generator: Generator::Blocked { m, min_free: 1 },
                    seed,
                });
            }
        }
    }
    for to_completion in [false, true] {
        for (n, d) in DIAGONALS {
            if quick && n > 15 {
                continue;
            }
            for seed in 1..=seeds {
                out.push(HardInstance {
                    group: if to_completion {
                        Group::Completion
                    } else {
                        Group::Diagonals
                    },
                    n,
                    generator: Generator::Diagonals {
                        min_free: 1,
                        diags: Some(d),
                        to_completion,
                    },
                    seed,
                });
            }
        }
    }
    out
}

/// The instances of a suite recipe, in the order `queens-sat suite` generates them (family,
/// family-parameter value, seed). Every family must be of queens with a blocked or
/// excluded-diagonals generator; the recipe's `amo` statements are the suite's business and
/// are ignored here. `file` names the recipe in errors.
pub fn from_recipe(file: &str, text: &str) -> Result<Vec<HardInstance>> {
    let recipe = recipe::parse(file, "bench", text)?;
    let mut out = Vec::new();
    for fam in &recipe.families {
        if fam.pieces != [QUEEN] {
            return Err(Error::parse(
                file,
                fam.line,
                format!("family {}: a hard set holds queens only", fam.name),
            ));
        }
        for member in &fam.members {
            let group = Group::of(&member.generator).ok_or_else(|| {
                Error::parse(
                    file,
                    fam.line,
                    format!(
                        "family {}: a hard set holds blocked or diagonals instances, not {}",
                        fam.name,
                        member.generator.kind()
                    ),
                )
            })?;
            for seed in fam.seeds.iter().flatten() {
                out.push(HardInstance {
                    group,
                    n: member.n,
                    generator: member.generator,
                    seed: *seed,
                });
            }
        }
    }
    Ok(out)
}

/// The tail set ([`TAIL_RECIPE`]): blocked n = 28, 48, 50, 56, 100 seeds each, and excluded
/// diagonals n = 20 with 16..=22 diagonals and n = 21 with 22..=27, 20 seeds per point: 660
/// instances.
pub fn tail_instances() -> Result<Vec<HardInstance>> {
    from_recipe("encodings/tail.suite", TAIL_RECIPE)
}

/// The frontier set ([`FRONTIER_RECIPE`]): excluded diagonals solved directly, n = 22, 24, 26,
/// 28, 30, three prefix lengths each at seeds `1..=20`: 300 instances.
pub fn frontier_instances() -> Result<Vec<HardInstance>> {
    from_recipe("encodings/frontier.suite", FRONTIER_RECIPE)
}

/// A seeded subset of `k` instances of `set` (all of them when `k >= set.len()`), in set order:
/// a Fisher-Yates shuffle driven by the library's `Prng` from `seed`, so a sample is
/// reproducible.
pub fn sample(set: Vec<HardInstance>, k: usize, seed: u64) -> Vec<HardInstance> {
    let mut idx: Vec<usize> = (0..set.len()).collect();
    Prng::new(seed).shuffle(&mut idx);
    idx.truncate(k);
    idx.sort_unstable();
    idx.into_iter().map(|i| set[i].clone()).collect()
}

/// The instances `opts` asks for: its set, then its sample (drawn with seed
/// `0x5EED ^ opts.seeds`).
pub fn select(opts: &HardOptions) -> Result<Vec<HardInstance>> {
    let set = match opts.set {
        HardSet::Standard => instances(opts.quick, opts.seeds),
        HardSet::Tail => tail_instances()?,
        HardSet::Frontier => frontier_instances()?,
    };
    Ok(match opts.sample {
        Some(k) => sample(set, k, 0x5EED_u64 ^ opts.seeds),
        None => set,
    })
}

/// The instance file a run of `inst` is given: board text for blocked, the excluded-diagonals
/// format for diagonals, a csplib param file for completion (sides of ~266 n).
pub fn instance_text(inst: &HardInstance) -> Result<String> {
    let instance = inst.generator.instance(inst.n, inst.seed)?;
    let format = match inst.group {
        Group::Blocked => InstanceFormat::Board,
        Group::Diagonals => InstanceFormat::Diags,
        Group::Completion => InstanceFormat::Param,
    };
    let comment = format!("queens-sat bench hard: {}", inst.name());
    write_instance(&instance, format, &comment)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(v: &[HardInstance]) -> Vec<String> {
        v.iter().map(HardInstance::name).collect()
    }

    #[test]
    fn instance_set_is_generated_and_named_uniquely() {
        for quick in [true, false] {
            let set = instances(quick, 2);
            let mut names = names(&set);
            names.sort();
            names.dedup();
            assert_eq!(names.len(), set.len());
            for inst in &set {
                let i = inst.generator.instance(inst.n, inst.seed).unwrap();
                match inst.group {
                    Group::Blocked => assert!(!i.blocked.is_empty()),
                    Group::Diagonals => assert!(!i.excluded.is_empty()),
                    Group::Completion => assert!(i.n > 200 && !i.placed.is_empty()),
                }
            }
        }
        assert_eq!(instances(false, 2).len(), 2 * 26);
        assert_eq!(instances(true, 1).len(), 12);
    }

    #[test]
    fn tail_set_and_samples() {
        let set = tail_instances().unwrap();
        assert_eq!(set.len(), 4 * 100 + (7 + 6) * 20);
        let mut sorted = names(&set);
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), set.len());
        let a = sample(set.clone(), 30, 7);
        assert_eq!(a.len(), 30);
        assert_eq!(
            names(&a),
            names(&sample(set.clone(), 30, 7)),
            "not reproducible"
        );
        assert_ne!(
            names(&a),
            names(&sample(set.clone(), 30, 8)),
            "the seed is ignored"
        );
        assert_eq!(sample(set.clone(), 10_000, 7).len(), set.len());
        let one = &set[set.len() - 1];
        let inst = one.generator.instance(one.n, one.seed).unwrap();
        assert_eq!((inst.n, inst.excluded.len()), (21, 27));
    }

    #[test]
    fn frontier_set_is_named_and_generates() {
        let set = frontier_instances().unwrap();
        assert_eq!(set.len(), 300);
        let mut names = names(&set);
        assert_eq!(names[0], "diag-n22-d21-s1");
        names.sort();
        names.dedup();
        assert_eq!(names.len(), set.len());
        for inst in &set {
            assert_eq!(inst.group, Group::Diagonals);
            let i = inst.generator.instance(inst.n, inst.seed).unwrap();
            let Generator::Diagonals { diags: Some(d), .. } = inst.generator else {
                panic!("{inst:?}")
            };
            assert_eq!((i.n, i.excluded.len()), (inst.n, d));
        }
    }

    /// The names the tail and frontier sets had when they were tables in code (blocked
    /// `(n, m, seeds)`, diagonals `(n, prefix lengths, seeds)`, instance-major within a family).
    fn former(blocked: &[(u32, u32, u64)], diagonals: &[(u32, &[usize], u64)]) -> Vec<String> {
        let mut out = Vec::new();
        for &(n, m, seeds) in blocked {
            out.extend((1..=seeds).map(|s| format!("blocked-n{n}-m{m}-s{s}")));
        }
        for &(n, ds, seeds) in diagonals {
            for d in ds {
                out.extend((1..=seeds).map(|s| format!("diag-n{n}-d{d}-s{s}")));
            }
        }
        out
    }

    #[test]
    fn recipes_give_the_former_tables() {
        let tail = former(
            &[
                (28, 595, 100),
                (48, 1962, 100),
                (50, 2142, 100),
                (56, 2734, 100),
            ],
            &[
                (20, &[16, 17, 18, 19, 20, 21, 22], 20),
                (21, &[22, 23, 24, 25, 26, 27], 20),
            ],
        );
        assert_eq!(names(&tail_instances().unwrap()), tail);
        let frontier = former(
            &[],
            &[
                (22, &[21, 22, 23], 20),
                (24, &[24, 25, 26], 20),
                (26, &[24, 25, 26], 20),
                (28, &[31, 32, 33], 20),
                (30, &[31, 32, 33], 20),
            ],
        );
        assert_eq!(names(&frontier_instances().unwrap()), frontier);
        for inst in tail_instances().unwrap() {
            if let Generator::Blocked { min_free, .. } | Generator::Diagonals { min_free, .. } =
                inst.generator
            {
                assert_eq!(min_free, 1, "{inst:?}");
            }
        }
    }

    /// `queens-sat suite` reads the same recipe files into the same instances, in the same
    /// order: generator, side and seed of every manifest row match the harness's instance.
    #[test]
    fn suite_plan_matches_the_harness_sets() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        for (file, set) in [
            ("encodings/tail.suite", tail_instances().unwrap()),
            ("encodings/frontier.suite", frontier_instances().unwrap()),
        ] {
            let rows = crate::suite::plan(&root.join(file)).unwrap();
            assert_eq!(rows.len(), set.len(), "{file}");
            for (row, inst) in rows.iter().zip(&set) {
                let params = match inst.generator {
                    Generator::Blocked { m, min_free } => format!("m={m} min-free={min_free}"),
                    Generator::Diagonals {
                        min_free,
                        diags: Some(d),
                        ..
                    } => format!("min-free={min_free} diags={d}"),
                    other => panic!("{other:?}"),
                };
                assert_eq!(
                    (row.n, row.generator.as_str(), row.params.as_str(), row.seed),
                    (
                        inst.n,
                        inst.generator.kind(),
                        params.as_str(),
                        Some(inst.seed)
                    ),
                    "{file}: {}",
                    inst.name()
                );
                assert_eq!((row.piece.as_str(), row.amo.as_str()), ("queen", "auto"));
            }
        }
    }

    #[test]
    fn recipes_other_than_hard_sets_are_refused() {
        let plain = from_recipe("x.suite", "family a\nn 8\n").unwrap_err();
        assert!(plain.to_string().contains("not plain"), "{plain}");
        let amazons = from_recipe(
            "x.suite",
            "family a\npiece amazon\nn 8\ngenerator blocked m=3 min-free=1\nseeds 1\n",
        )
        .unwrap_err();
        assert!(amazons.to_string().contains("queens only"), "{amazons}");
    }
}
