//! Property tests of two readers: the suite recipe parser (src/suite/recipe.rs) and the DRAT
//! proof reader behind `--certify` (src/certify.rs, tested through `check_drat`, which reads a
//! proof file). Each reader answers anything with `Ok` or a one-line error naming its file, and
//! reads back what a model of the format says it should.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use proptest::prelude::*;
use queens_sat::certify::{check_drat, check_drat_until};
use queens_sat::encode::amo::AmoKind;
use queens_sat::encode::{EncodeOptions, Encoder, VecSink};
use queens_sat::generate::Generator;
use queens_sat::instance::Instance;
use queens_sat::piece::{AMAZON, QUEEN};
use queens_sat::presolve::Problem;
use queens_sat::suite::recipe::{int_list, parse};
use varisat::ExtendFormula;

/// Asserts `Ok`, or an error on one line that starts with `file`.
fn clean<T>(file: &str, r: queens_sat::Result<T>) -> Option<T> {
    match r {
        Ok(v) => Some(v),
        Err(e) => {
            let msg = e.to_string();
            assert!(!msg.contains('\n'), "multi-line error: {msg:?}");
            assert!(msg.starts_with(file), "error does not name {file}: {msg:?}");
            None
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Recipes
// ---------------------------------------------------------------------------------------------

const RECIPE: &str = "# sample\nfamily a\npiece queen,amazon\nn 8..20:4\namo pairwise,commander:4\n\n\
                      family b-2\nn 12\ngenerator completion m=1..6\nseeds 1,5..7\n\
                      family c\nn 9\ngenerator diagonals min-free=1 diags=2..4 to=completion\n\
                      seeds 3\namo all   # every encoding\n";

/// One family as the test builds it; [`FamilySpec::render`] writes it as recipe text.
#[derive(Clone, Debug)]
struct FamilySpec {
    pieces: Vec<&'static str>,
    /// `n` values (plain) or the one `n` (completion).
    ns: Vec<u32>,
    /// Completion `m` values (empty: the plain generator).
    ms: Vec<u32>,
    seeds: Vec<u64>,
    amos: Vec<AmoKind>,
    /// Statement order (a permutation of 0..5) and the noise around them.
    order: Vec<usize>,
    comment: bool,
    pad: usize,
}

/// A list as recipe text: one item per value, or `A..B:S` when the values are such a range.
fn list_text(values: &[u64], as_range: bool) -> String {
    if as_range && values.len() >= 2 {
        let step = values[1] - values[0];
        if step > 0 && values.windows(2).all(|w| w[1] - w[0] == step) {
            return format!("{}..{}:{step}", values[0], values[values.len() - 1]);
        }
    }
    values
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

impl FamilySpec {
    fn render(&self, name: &str, out: &mut String) {
        let pad = " ".repeat(self.pad);
        out.push_str(&format!("{pad}family{pad} {name}\n"));
        let ns: Vec<u64> = self.ns.iter().map(|&n| u64::from(n)).collect();
        let ms: Vec<u64> = self.ms.iter().map(|&m| u64::from(m)).collect();
        let amos: Vec<String> = self.amos.iter().map(|a| a.name()).collect();
        let mut statements = [
            Some(format!("piece {}", self.pieces.join(","))),
            Some(format!("n {}", list_text(&ns, self.pad.is_multiple_of(2)))),
            (!self.ms.is_empty())
                .then(|| format!("generator completion m={}", list_text(&ms, self.pad > 1))),
            (!self.seeds.is_empty()).then(|| format!("seeds {}", list_text(&self.seeds, true))),
            Some(format!("amo {}", amos.join(","))),
        ];
        for &i in &self.order {
            if let Some(s) = statements[i].take() {
                out.push_str(&pad);
                out.push_str(&s);
                if self.comment {
                    out.push_str(" # note");
                }
                out.push('\n');
                if self.comment {
                    out.push_str("\n# a comment line\n");
                }
            }
        }
    }
}

fn distinct_sorted(
    range: std::ops::RangeInclusive<u32>,
    max: usize,
) -> impl Strategy<Value = Vec<u32>> {
    proptest::collection::btree_set(range, 1..=max).prop_map(|s| s.into_iter().collect())
}

fn family_spec() -> impl Strategy<Value = FamilySpec> {
    let pieces = prop_oneof![
        Just(vec!["queen"]),
        Just(vec!["amazon"]),
        Just(vec!["queen", "amazon"]),
    ];
    let amos = proptest::collection::btree_set(0..AmoKind::ALL.len(), 1..=3)
        .prop_map(|s| s.into_iter().map(|i| AmoKind::ALL[i]).collect::<Vec<_>>());
    let plain = distinct_sorted(1..=300, 5).prop_map(|ns| (ns, Vec::new(), Vec::new()));
    let completion = (4u32..=40)
        .prop_flat_map(|n| {
            (
                Just(vec![n]),
                distinct_sorted(0..=n, 4),
                proptest::collection::btree_set(0u64..1000, 1..=4),
            )
        })
        .prop_map(|(ns, ms, seeds)| (ns, ms, seeds.into_iter().collect()));
    (
        pieces,
        prop_oneof![plain, completion],
        amos,
        Just((0..5).collect::<Vec<usize>>()).prop_shuffle(),
        any::<bool>(),
        0usize..3,
    )
        .prop_map(
            |(pieces, (ns, ms, seeds), amos, order, comment, pad)| FamilySpec {
                pieces,
                ns,
                ms,
                seeds,
                amos,
                order,
                comment,
                pad,
            },
        )
}

/// The seed of every property test here: each run draws the same cases (ChaCha, seed fixed),
/// so CI cannot pass or fail by luck; a failure reproduces as it is, and no regression file is
/// written into the source tree. (`PROPTEST_RNG_SEED` and `PROPTEST_RNG_ALGORITHM` are
/// overridden; to explore other cases, change the seed here.)
const PROPTEST_SEED: u64 = 0x0033_5EED;

/// `cases` cases drawn from the fixed seed [`PROPTEST_SEED`].
pub(crate) fn fixed_config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        rng_algorithm: proptest::test_runner::RngAlgorithm::ChaCha,
        rng_seed: proptest::test_runner::RngSeed::Fixed(PROPTEST_SEED),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(fixed_config(400))]

    /// A recipe written from a model parses back to the model, whatever the statement order,
    /// comments and spacing.
    #[test]
    fn recipes_read_back_what_was_written(specs in proptest::collection::vec(family_spec(), 1..4)) {
        let mut text = String::from("# generated\n");
        for (i, spec) in specs.iter().enumerate() {
            spec.render(&format!("fam-{i}"), &mut text);
        }
        let recipe = parse("gen.suite", "gen", &text)
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
        prop_assert_eq!(recipe.name, "gen");
        prop_assert_eq!(recipe.families.len(), specs.len());
        for (i, (fam, spec)) in recipe.families.iter().zip(&specs).enumerate() {
            prop_assert_eq!(&fam.name, &format!("fam-{i}"));
            let pieces: Vec<&str> = fam.pieces.iter().map(|p| p.name).collect();
            prop_assert_eq!(&pieces, &spec.pieces);
            prop_assert_eq!(&fam.amos, &spec.amos);
            if spec.ms.is_empty() {
                prop_assert_eq!(&fam.seeds, &vec![None]);
                prop_assert_eq!(&fam.x_name, "n");
                let ns: Vec<u32> = fam.members.iter().map(|m| m.n).collect();
                prop_assert_eq!(&ns, &spec.ns);
                for m in &fam.members {
                    prop_assert_eq!(&m.generator, &Generator::Plain);
                    prop_assert_eq!(m.x, i64::from(m.n));
                }
            } else {
                let seeds: Vec<Option<u64>> = spec.seeds.iter().map(|&s| Some(s)).collect();
                prop_assert_eq!(&fam.seeds, &seeds);
                let ms: Vec<Generator> =
                    spec.ms.iter().map(|&m| Generator::Completion { m }).collect();
                let got: Vec<Generator> = fam.members.iter().map(|m| m.generator).collect();
                prop_assert_eq!(got, ms);
                prop_assert!(fam.members.iter().all(|m| m.n == spec.ns[0]));
                if spec.ms.len() > 1 {
                    prop_assert_eq!(&fam.x_name, "m");
                }
            }
        }
    }

    /// Arbitrary bytes, and mutations of a valid recipe: `Ok` or a one-line error that names
    /// the file (and a line, when it concerns one), never a panic.
    #[test]
    fn recipes_answer_anything_cleanly(
        bytes in proptest::collection::vec(any::<u8>(), 0..400),
        edits in proptest::collection::vec((any::<usize>(), any::<u8>(), any::<u8>()), 1..8),
    ) {
        clean("r.suite", parse("r.suite", "r", &String::from_utf8_lossy(&bytes)));
        clean("r.suite", parse("r.suite", "r", &mutate(RECIPE, b"family piecengrtosdam,.:=0123456789-_# \n", &edits)));
    }

    /// A bad statement is reported at its own line.
    #[test]
    fn recipe_errors_name_the_line(
        spec in family_spec(),
        bad in prop_oneof![
            Just("frobnicate 3"), Just("n 0"), Just("n 5..1"), Just("seeds -1"), Just("amo magic"),
            Just("piece knight"), Just("generator blocked m=3"), Just("n 1,1"),
        ],
        at in any::<prop::sample::Index>(),
    ) {
        let mut good = String::new();
        spec.render("f", &mut good);
        let mut lines: Vec<&str> = good.lines().collect();
        // After the family line, so the statement belongs to the family.
        let k = 1 + at.index(lines.len());
        lines.insert(k, bad);
        let text = lines.join("\n");
        let err = parse("e.suite", "e", &text).expect_err(&text).to_string();
        // Every inserted statement is wrong in itself (or repeats an earlier one), and every
        // line before it is valid: the error is at the inserted line.
        let want = format!("e.suite:{}: ", k + 1);
        prop_assert!(err.starts_with(&want), "{} (want {}):\n{}", err, want, text);
    }

    /// `A..B:S` expands to the arithmetic sequence; lists keep their order.
    #[test]
    fn int_lists_expand_ranges(a in -1000i64..1000, len in 1i64..50, step in 1i64..20, extra in -5000i64..-2000) {
        let b = a + (len - 1) * step;
        let want: Vec<i64> = (0..len).map(|i| a + i * step).collect();
        prop_assert_eq!(int_list(&format!("{a}..{b}:{step}"), "x").unwrap(), want.clone());
        let mut with_extra = want.clone();
        with_extra.push(extra);
        prop_assert_eq!(int_list(&format!("{a}..{b}:{step},{extra}"), "x").unwrap(), with_extra);
        // A value listed twice is refused.
        let err = int_list(&format!("{a}..{b}:{step},{a}"), "x").unwrap_err();
        prop_assert!(err.contains("listed twice"), "{}", err);
    }
}

/// Up to `edits.len()` replacements, insertions and deletions with bytes from `alphabet`.
fn mutate(sample: &str, alphabet: &[u8], edits: &[(usize, u8, u8)]) -> String {
    let mut bytes = sample.as_bytes().to_vec();
    for &(pos, op, ch) in edits {
        if bytes.is_empty() {
            break;
        }
        let i = pos % bytes.len();
        let c = alphabet[ch as usize % alphabet.len()];
        match op % 3 {
            0 => bytes[i] = c,
            1 => bytes.insert(i, c),
            _ => {
                bytes.remove(i);
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

#[test]
fn the_sample_recipe_parses() {
    let r = parse("s.suite", "s", RECIPE).unwrap();
    assert_eq!(r.families.len(), 3);
    assert_eq!(r.families[0].members.len(), 4);
    assert_eq!(r.families[1].members.len(), 6);
    assert_eq!(r.families[2].amos, AmoKind::ALL.to_vec());
    // Default encoding, when none is given.
    let r = parse("s.suite", "s", "family x\nn 5\n").unwrap();
    assert_eq!(r.families[0].amos, vec![AmoKind::DEFAULT]);
}

// ---------------------------------------------------------------------------------------------
// DRAT proofs
// ---------------------------------------------------------------------------------------------

/// 3-queens (unsatisfiable) and the options its proofs refute.
fn unsat_problem() -> (Problem, EncodeOptions) {
    (
        Problem::presolve(&Instance::plain(3), QUEEN).unwrap(),
        AmoKind::Pairwise.into(),
    )
}

/// A DRAT proof of `problem`'s CNF, written by varisat.
fn varisat_proof(problem: &Problem, options: EncodeOptions) -> String {
    let mut sink = VecSink::default();
    Encoder::with_options(problem, options).encode(&mut sink);
    let mut proof = Vec::new();
    {
        let mut solver = varisat::Solver::new();
        solver.write_proof(&mut proof, varisat::ProofFormat::Drat);
        for c in &sink.clauses {
            let lits: Vec<varisat::Lit> = c
                .iter()
                .map(|l| varisat::Lit::from_dimacs(l.to_dimacs() as isize))
                .collect();
            solver.add_clause(&lits);
        }
        assert!(!solver.solve().unwrap(), "expected UNSAT");
        solver.close_proof().unwrap();
    }
    String::from_utf8(proof).unwrap()
}

/// Writes `text` to a fresh file in `dir`.
fn proof_file(dir: &Path, text: &str) -> PathBuf {
    let path = dir.join("proof.drat");
    let mut f = std::fs::File::create(&path).unwrap();
    f.write_all(text.as_bytes()).unwrap();
    path
}

/// Re-spaces a proof: extra blanks between tokens and comment and empty lines between steps.
fn respace(proof: &str, noise: &[u8]) -> String {
    let mut out = String::new();
    let mut k = 0;
    let mut next = || {
        k += 1;
        noise.get(k % noise.len().max(1)).copied().unwrap_or(0)
    };
    for line in proof.lines() {
        match next() % 4 {
            0 => out.push_str("c a comment\n"),
            1 => out.push('\n'),
            _ => {}
        }
        let toks: Vec<&str> = line.split_whitespace().collect();
        for (i, t) in toks.iter().enumerate() {
            if i > 0 {
                out.push_str(if next() % 2 == 0 { " " } else { " \t " });
            }
            out.push_str(t);
        }
        out.push('\n');
    }
    out
}

#[test]
fn a_varisat_proof_checks_and_a_truncated_one_does_not() {
    let (problem, options) = unsat_problem();
    let proof = varisat_proof(&problem, options);
    assert!(proof.lines().count() > 2, "a trivial proof:\n{proof}");
    let dir = tempfile::tempdir().unwrap();
    let cert = check_drat(&problem, options, &proof_file(dir.path(), &proof))
        .unwrap_or_else(|e| panic!("{e}\n{proof}"));
    assert_eq!(cert.checker, "DRAT proof checked by dratify");
    // Without its empty clause (and what leads to it), the proof refutes nothing.
    assert!(check_drat(&problem, options, &proof_file(dir.path(), "")).is_err());
}

/// A solve's time limit and cancel cover the proof check: `check_drat_until` stops when asked
/// (`None`, never a certificate), and checks the same proof when not.
#[test]
fn a_proof_check_stops_when_asked() {
    let (problem, options) = unsat_problem();
    let proof = varisat_proof(&problem, options);
    let dir = tempfile::tempdir().unwrap();
    let path = proof_file(dir.path(), &proof);
    let stopped = check_drat_until(&problem, options, &path, &|| true).unwrap();
    assert!(stopped.is_none(), "a stopped check must not certify");
    let asked = std::cell::Cell::new(0);
    let cert = check_drat_until(&problem, options, &path, &|| {
        asked.set(asked.get() + 1);
        false
    })
    .unwrap()
    .expect("the proof checks");
    assert_eq!(cert.checker, "DRAT proof checked by dratify");
    assert!(asked.get() >= 1, "the check never asked whether to stop");
}

proptest! {
    #![proptest_config(fixed_config(200))]

    /// Blanks, tabs, empty lines and comment lines do not change what a proof says.
    #[test]
    fn drat_spacing_and_comments_do_not_matter(noise in proptest::collection::vec(any::<u8>(), 1..64)) {
        let (problem, options) = unsat_problem();
        let proof = respace(&varisat_proof(&problem, options), &noise);
        let dir = tempfile::tempdir().unwrap();
        let r = check_drat(&problem, options, &proof_file(dir.path(), &proof));
        prop_assert!(r.is_ok(), "{:?}\n{}", r.err(), proof);
    }

    /// Any text, mutations of a valid proof, and the valid proof itself, as the proof of a
    /// satisfiable formula (5-queens): never accepted, and every error is one line. The same
    /// texts against the unsatisfiable formula: a one-line error or a checked proof.
    #[test]
    fn drat_never_refutes_a_satisfiable_formula(
        bytes in proptest::collection::vec(any::<u8>(), 0..300),
        edits in proptest::collection::vec((any::<usize>(), any::<u8>(), any::<u8>()), 1..6),
    ) {
        let sat = Problem::presolve(&Instance::plain(5), QUEEN).unwrap();
        let (unsat, options) = unsat_problem();
        let valid = varisat_proof(&unsat, options);
        let dir = tempfile::tempdir().unwrap();
        for text in [
            String::from_utf8_lossy(&bytes).into_owned(),
            mutate(&valid, b"d0123456789- \nc", &edits),
            valid.clone(),
        ] {
            let path = proof_file(dir.path(), &text);
            let r = check_drat(&sat, options, &path);
            prop_assert!(r.is_err(), "a proof of a satisfiable formula checked:\n{}", text);
            let msg = r.unwrap_err().to_string();
            prop_assert!(!msg.contains('\n'), "multi-line error: {:?}", msg);
            // The mutated proof of the UNSAT formula: a clean answer either way.
            let r = check_drat(&unsat, options, &path);
            if let Err(e) = r {
                prop_assert!(!e.to_string().contains('\n'));
            }
        }
    }

    /// A malformed step is reported with the proof file and the step's line.
    #[test]
    fn drat_errors_name_the_line(
        bad in prop_oneof![Just("1 2"), Just("1 x 0"), Just("d 3"), Just("99999999999 0")],
        at in any::<prop::sample::Index>(),
    ) {
        let (problem, options) = unsat_problem();
        let proof = varisat_proof(&problem, options);
        let mut lines: Vec<&str> = proof.lines().collect();
        let k = at.index(lines.len() + 1);
        lines.insert(k, bad);
        let dir = tempfile::tempdir().unwrap();
        let path = proof_file(dir.path(), &lines.join("\n"));
        let err = check_drat(&problem, options, &path).unwrap_err().to_string();
        let want = format!("{}:{}: ", path.display(), k + 1);
        prop_assert!(err.starts_with(&want), "{} (want {})", err, want);
    }
}

#[test]
fn an_amazon_proof_checks_too() {
    // 5-amazons is unsatisfiable (A051223(5) = 0).
    let problem = Problem::presolve(&Instance::plain(5), AMAZON).unwrap();
    let options: EncodeOptions = AmoKind::Sequential.into();
    let proof = varisat_proof(&problem, options);
    let dir = tempfile::tempdir().unwrap();
    assert!(check_drat(&problem, options, &proof_file(dir.path(), &proof)).is_ok());
}

/// Defect 4 (issue 11): `check_drat` streams the proof in chunks of 65,536 steps instead of
/// reading it whole. A proof longer than one chunk (70,000 redundant lemmas, then the real
/// refutation) checks across the chunk boundary; the same padding without the refutation does
/// not; and a malformed line after the refutation is still reported.
#[test]
fn a_proof_longer_than_one_chunk_is_streamed() {
    let (problem, options) = unsat_problem();
    let mut sink = VecSink::default();
    Encoder::with_options(&problem, options).encode(&mut sink);
    let lemma: Vec<String> = sink.clauses[0]
        .iter()
        .map(|l| l.to_dimacs().to_string())
        .collect();
    let padding = format!("{} 0\n", lemma.join(" ")).repeat(70_000);
    let proof = varisat_proof(&problem, options);
    let dir = tempfile::tempdir().unwrap();
    let cert = check_drat(
        &problem,
        options,
        &proof_file(dir.path(), &(padding.clone() + proof.as_str())),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(cert.steps > 70_000, "{cert:?}");
    let err = check_drat(&problem, options, &proof_file(dir.path(), &padding)).unwrap_err();
    assert!(
        err.to_string().contains("never derives the empty clause"),
        "{err}"
    );
    // A proof that fails its check is typed as such, told apart from a solver's crash.
    assert!(
        matches!(
            err,
            queens_sat::Error::ProofRejected {
                format: queens_sat::certify::CheckedFormat::Drat,
                ..
            }
        ),
        "{err:?}"
    );
    let text = padding + proof.as_str() + "1 x 0\n";
    let path = proof_file(dir.path(), &text);
    let err = check_drat(&problem, options, &path)
        .unwrap_err()
        .to_string();
    let line = text.lines().count();
    assert!(
        err.starts_with(&format!("{}:{line}: ", path.display())),
        "{err}"
    );
}
