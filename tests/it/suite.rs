//! End-to-end tests of `queens-sat suite`: manifest rows against their files (header counts and
//! SHA-256 computed here), statuses against this file's brute-force oracle, the SVG parsed as
//! XML, re-runs, external solvers, bad recipes, and the checked-in recipes.

use crate::common;

use std::collections::{BTreeSet, HashMap};
use std::fs;
use std::path::{Path, PathBuf};

use common::*;
use sha2::{Digest, Sha256};

fn tempdir() -> tempfile::TempDir {
    tempfile::TempDir::new().expect("temp dir")
}

/// A small suite over every generator, n <= 8 (the oracle's range).
const SMALL: &str = "\
# every generator, small boards
family plain
piece queen
n 1..8
amo all

family comp
n 8
generator completion m=0..5
seeds 1..4

family blk
n 6
generator blocked m=4..16:4 min-free=1
seeds 1..3

family diag
n 6
generator diagonals min-free=1 diags=0..8:2
seeds 1..2

family conv
n 5
generator diagonals min-free=1 diags=1..5:2 to=completion
seeds 1..2
";

/// Manifest rows as maps from column name to value.
fn read_manifest(path: &Path) -> Vec<HashMap<String, String>> {
    let mut reader = csv::Reader::from_path(path).expect("manifest");
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            header
                .iter()
                .cloned()
                .zip(r.iter().map(String::from))
                .collect()
        })
        .collect()
}

/// Checks every row against its file: size, SHA-256, `p cnf` counts and the clause lines; and
/// that the folder holds no other CNF.
fn check_rows_match_files(dir: &Path, rows: &[HashMap<String, String>]) {
    let mut listed = BTreeSet::new();
    for row in rows {
        let file = &row["file"];
        if !row["skipped"].is_empty() {
            // Recorded, not written: presolve decided it, or another row's file is its formula.
            assert!(!dir.join(file).exists(), "{file}: skipped but on disk");
            continue;
        }
        listed.insert(file.clone());
        let bytes = fs::read(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(bytes.len().to_string(), row["bytes"], "{file}: bytes");
        let digest: String = Sha256::digest(&bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(digest, row["sha256"], "{file}: sha256");
        let text = String::from_utf8(bytes).unwrap();
        let p = text
            .lines()
            .find(|l| l.starts_with("p cnf "))
            .unwrap_or_else(|| panic!("{file}: no p cnf line"));
        let nums: Vec<&str> = p.split_whitespace().collect();
        assert_eq!(nums[2], row["vars"], "{file}: vars");
        assert_eq!(nums[3], row["clauses"], "{file}: clauses");
        let clauses = text
            .lines()
            .skip_while(|l| !l.starts_with("p cnf "))
            .skip(1)
            .filter(|l| l.ends_with(" 0") || *l == "0")
            .count();
        assert_eq!(clauses.to_string(), row["clauses"], "{file}: clause lines");
    }
    let on_disk: BTreeSet<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|f| f.ends_with(".cnf"))
        .collect();
    assert_eq!(on_disk, listed, "the manifest lists exactly the CNF files");
}

/// Who a manifest row says answered it: presolve or unit propagation for the rows they decided
/// (recorded, no file), else `solver`.
fn answered_by<'a>(row: &HashMap<String, String>, solver: &'a str) -> &'a str {
    if row["skipped"].starts_with("presolve: ") {
        "presolve"
    } else if row["skipped"].starts_with("unit propagation: ") {
        "unit-propagation"
    } else {
        solver
    }
}

/// The oracle's verdict for a manifest row, from an instance regenerated through the CLI.
fn oracle_sat(
    dir: &Path,
    row: &HashMap<String, String>,
    cache: &mut HashMap<String, bool>,
) -> bool {
    let key = format!(
        "{} {} {} {}",
        row["generator"], row["n"], row["params"], row["seed"]
    );
    if let Some(&v) = cache.get(&key) {
        return v;
    }
    let params: HashMap<&str, &str> = row["params"]
        .split_whitespace()
        .map(|kv| kv.split_once('=').unwrap())
        .collect();
    let (n, seed) = (row["n"].as_str(), row["seed"].as_str());
    let inst = match row["generator"].as_str() {
        "plain" => Plain {
            n: n.parse().unwrap(),
            ..Plain::default()
        },
        "completion" => {
            let r = run_expect(
                dir,
                &[
                    "generate",
                    "completion",
                    "-n",
                    n,
                    "-m",
                    params["m"],
                    "--seed",
                    seed,
                ],
                0,
            );
            parse_plain(&r.stdout, None)
        }
        "blocked" => {
            let r = run_expect(
                dir,
                &[
                    "generate",
                    "blocked",
                    "-n",
                    n,
                    "-m",
                    params["m"],
                    "--min-free",
                    params["min-free"],
                    "--seed",
                    seed,
                ],
                0,
            );
            parse_plain(&r.stdout, None)
        }
        "diagonals" => {
            let r = run_expect(
                dir,
                &[
                    "generate",
                    "diagonals",
                    "-n",
                    n,
                    "--min-free",
                    params["min-free"],
                    "--seed",
                    seed,
                ],
                0,
            );
            // to=completion has the source's solutions (the reduction's claim, tested
            // separately by counting); the oracle judges the source.
            parse_plain(&r.stdout, params.get("diags").map(|d| d.parse().unwrap()))
        }
        other => panic!("unknown generator {other}"),
    };
    let sat = oracle_count(&inst) > 0;
    cache.insert(key, sat);
    sat
}

#[test]
fn small_suite_end_to_end_agrees_with_the_oracle() {
    let dir = tempdir();
    fs::write(dir.path().join("small.suite"), SMALL).unwrap();
    let t = std::time::Instant::now();
    let r = run_expect(
        dir.path(),
        &[
            "suite",
            "small.suite",
            "--solve",
            "--jobs",
            "2",
            "--plot",
            "small.svg",
        ],
        0,
    );
    let wall = t.elapsed().as_secs_f64();
    assert!(r.stdout.is_empty(), "suite prints its summary on stderr");
    let out = dir.path().join("cnf-out/small");
    let rows = read_manifest(&out.join("manifest.csv"));
    // plain: 8 n x 3+ amos; comp 6x4; blk 4x3; diag 5x2; conv 3x2.
    let amos = rows
        .iter()
        .filter(|r| r["family"] == "plain" && r["n"] == "8")
        .count();
    assert!(amos >= 3, "amo all: {amos}");
    assert_eq!(rows.len(), 8 * amos + 24 + 12 + 10 + 6);
    check_rows_match_files(&out, &rows);

    let mut cache = HashMap::new();
    let (mut sat, mut unsat) = (0, 0);
    for row in &rows {
        let expected = oracle_sat(dir.path(), row, &mut cache);
        let want = if expected { "SAT" } else { "UNSAT" };
        assert_eq!(row["status"], want, "{}", row["file"]);
        // `suite --solve` answers as `solve` does: the default strategy unless told otherwise
        // (presolve's verdicts are recorded as presolve's).
        assert_eq!(row["solver"], answered_by(row, "auto"));
        // A solve's time is part of the suite's run time.
        let seconds = row["seconds"].parse::<f64>().unwrap();
        assert!((0.0..=wall).contains(&seconds), "{seconds} s of {wall} s");
        if expected { sat += 1 } else { unsat += 1 }
    }
    assert!(
        sat > 10 && unsat > 10,
        "both verdicts exercised: {sat} SAT, {unsat} UNSAT"
    );
    assert!(
        r.stderr
            .contains(&format!("SAT {sat} UNSAT {unsat} UNKNOWN 0")),
        "{}",
        r.stderr
    );

    // The picture: well-formed XML, an <svg> root, axis labels and one legend entry per family.
    let svg = fs::read_to_string(dir.path().join("small.svg")).unwrap();
    let doc = roxmltree::Document::parse(&svg).expect("well-formed SVG");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let texts: Vec<&str> = doc
        .descendants()
        .filter_map(|n| n.text())
        .map(str::trim)
        .collect();
    for label in [
        "P(satisfiable)",
        "median solve time (s)",
        "plain",
        "comp",
        "blk",
        "diag",
        "conv",
    ] {
        assert!(
            texts.iter().any(|t| t.starts_with(label)),
            "no text {label:?} in the SVG ({} texts)",
            texts.len()
        );
    }
    assert!(
        doc.descendants()
            .filter(|n| n.tag_name().name() == "polyline" || n.tag_name().name() == "path")
            .count()
            >= 5
    );
}

/// `suite --solve --solver X` takes every value `solve --solver` takes: an in-process engine
/// by name and a portfolio; each verdict agrees with the oracle.
#[test]
fn suite_solves_with_any_solver_value() {
    for solver in ["lib:kissat", "bitboard,varisat --amo product"] {
        let dir = tempdir();
        fs::write(dir.path().join("small.suite"), SMALL).unwrap();
        run_expect(
            dir.path(),
            &["suite", "small.suite", "--solve", "--solver", solver],
            0,
        );
        let rows = read_manifest(&dir.path().join("cnf-out/small/manifest.csv"));
        let mut cache = HashMap::new();
        for row in &rows {
            let want = match oracle_sat(dir.path(), row, &mut cache) {
                true => "SAT",
                false => "UNSAT",
            };
            assert_eq!(row["status"], want, "{solver}: {}", row["file"]);
            assert_eq!(row["solver"], answered_by(row, solver));
        }
    }
    // An unknown name fails before anything is written.
    let dir = tempdir();
    fs::write(dir.path().join("small.suite"), SMALL).unwrap();
    let r = run_expect(
        dir.path(),
        &[
            "suite",
            "small.suite",
            "--solve",
            "--solver",
            "no-such-solver",
        ],
        1,
    );
    assert!(r.stderr.contains("no-such-solver"), "{}", r.stderr);
    assert!(!dir.path().join("cnf-out/small").exists());
}
#[test]
fn rerun_keeps_matching_files_and_force_rewrites() {
    let dir = tempdir();
    let recipe = "family c\nn 8\ngenerator completion m=2..4\nseeds 1..3\namo all\n";
    fs::write(dir.path().join("re.suite"), recipe).unwrap();
    let first = run_expect(dir.path(), &["suite", "re.suite", "--solve"], 0);
    let out = dir.path().join("cnf-out/re");
    let rows = read_manifest(&out.join("manifest.csv"));
    // The files: rows presolve decided, or duplicates of another row, have none.
    let total = rows.iter().filter(|r| r["skipped"].is_empty()).count();
    let v = rows.iter().position(|r| r["skipped"].is_empty()).unwrap();
    assert!(
        first.stderr.contains(&format!("wrote {total} (")),
        "{}",
        first.stderr
    );

    // Second run: nothing written, results kept.
    let second = run_expect(dir.path(), &["suite", "re.suite"], 0);
    assert!(
        second.stderr.contains("wrote 0 (0 bytes)")
            && second.stderr.contains(&format!("kept {total}")),
        "{}",
        second.stderr
    );
    assert_eq!(read_manifest(&out.join("manifest.csv")), rows);

    // A damaged file is rewritten (and loses its result); the others stay.
    let victim = out.join(&rows[v]["file"]);
    let mut bytes = fs::read(&victim).unwrap();
    bytes.extend_from_slice(b"c tampered\n");
    fs::write(&victim, &bytes).unwrap();
    let third = run_expect(dir.path(), &["suite", "re.suite"], 0);
    assert!(
        third.stderr.contains("wrote 1 (") && third.stderr.contains(&format!("kept {}", total - 1)),
        "{}",
        third.stderr
    );
    let after = read_manifest(&out.join("manifest.csv"));
    check_rows_match_files(&out, &after);
    assert_eq!(after[v]["status"], "");
    for (i, (a, b)) in after.iter().zip(&rows).enumerate() {
        let dup_of_victim = a["skipped"].contains(&format!("duplicate of {} ", rows[v]["file"]));
        if i != v && !dup_of_victim {
            assert_eq!(a["status"], b["status"], "{}", a["file"]);
        }
    }
    // --plot needs every result.
    assert_one_line_error(
        dir.path(),
        &["suite", "re.suite", "--plot", "p.svg"],
        &["--plot needs", &rows[v]["file"]],
    );
    assert!(!dir.path().join("p.svg").exists());

    // --force rewrites everything; the bytes are the same.
    let forced = run_expect(dir.path(), &["suite", "re.suite", "--force"], 0);
    assert!(
        forced.stderr.contains(&format!("wrote {total} (")),
        "{}",
        forced.stderr
    );
    let again = read_manifest(&out.join("manifest.csv"));
    for (a, b) in again.iter().zip(&rows) {
        assert_eq!(a["sha256"], b["sha256"], "deterministic output");
    }
}

#[test_programs::requires(minisat)]
#[test]
fn external_solver_agrees_with_varisat() {
    require_solver("minisat");
    let dir = tempdir();
    let recipe = "family b\nn 7\ngenerator blocked m=5..25:5 min-free=1\nseeds 1..3\n\
                  family c\nn 8\ngenerator completion m=1..4\nseeds 5..6\n";
    fs::write(dir.path().join("ext.suite"), recipe).unwrap();
    run_expect(
        dir.path(),
        &["suite", "ext.suite", "--solve", "--out", "a"],
        0,
    );
    run_expect(
        dir.path(),
        &[
            "suite",
            "ext.suite",
            "--solve",
            "--solver",
            "minisat",
            "--timeout",
            "30",
            "--out",
            "b",
        ],
        0,
    );
    let a = read_manifest(&dir.path().join("a/manifest.csv"));
    let b = read_manifest(&dir.path().join("b/manifest.csv"));
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(x["sha256"], y["sha256"]);
        assert_eq!(x["status"], y["status"], "{}", x["file"]);
        assert_eq!(y["solver"], answered_by(y, "minisat"));
    }
}

#[test]
fn bad_recipes_are_one_line_errors_and_write_nothing() {
    let dir = tempdir();
    let cases: [(&str, &[&str]); 6] = [
        (
            "family a\nn 8\ngenerator completion m=9\nseeds 1\n",
            &["bad.suite:3:", "m = 9"],
        ),
        ("family a\nn 8\namo magic\n", &["bad.suite:3:", "'magic'"]),
        ("n 8\n", &["bad.suite:1:", "family NAME"]),
        ("family a\nn 8..x\n", &["bad.suite:2:", "'8..x'"]),
        (
            "family a\nn 8\ngenerator blocked m=60 min-free=1\nseeds 1\n",
            &["bad.suite:1:", "family a", "at most"],
        ),
        (
            "family a\nn 3\ngenerator completion m=3\nseeds 1\n",
            &["bad.suite:1:", "gave up"],
        ),
    ];
    for (text, needles) in cases {
        fs::write(dir.path().join("bad.suite"), text).unwrap();
        assert_one_line_error(dir.path(), &["suite", "bad.suite"], needles);
        assert!(
            !dir.path().join("cnf-out/bad").exists(),
            "{text:?} wrote files"
        );
    }
    assert_one_line_error(dir.path(), &["suite", "missing.suite"], &["missing.suite"]);
    fs::write(dir.path().join("bad name.suite"), "family a\nn 4\n").unwrap();
    assert_one_line_error(dir.path(), &["suite", "bad name.suite"], &["suite name"]);
    assert_one_line_error(
        dir.path(),
        &["suite", "bad.suite", "--timeout", "5"],
        &["--solve"],
    );
}

fn recipe_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("encodings")
}

#[test]
fn checked_in_recipes_plan_without_errors() {
    let amos: Vec<String> = queens_sat::encode::amo::AmoKind::ALL
        .iter()
        .map(|a| a.name().to_string())
        .collect();
    let plan = |name: &str| {
        queens_sat::suite::plan(&recipe_dir().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
    };
    let amo_rows = plan("queens-amo.suite");
    for piece in ["queen", "amazon"] {
        for n in (8..=200).step_by(8) {
            for amo in &amos {
                let hits = amo_rows
                    .iter()
                    .filter(|r| {
                        r.piece == piece && r.n == n && &r.amo == amo && r.generator == "plain"
                    })
                    .count();
                assert_eq!(hits, 1, "queens-amo: {piece} n={n} {amo}");
            }
        }
    }
    let phase = plan("completion-phase.suite");
    for delta in [5, 10, 15, 20] {
        let ns: Vec<u32> = phase
            .iter()
            .filter(|r| r.params.starts_with(&format!("delta={delta} ")))
            .map(|r| r.n)
            .collect();
        let t = 0.19 * f64::from(delta * delta);
        let (lo, hi) = (*ns.iter().min().unwrap(), *ns.iter().max().unwrap());
        // From as low as possible (n = delta: nothing pre-placed) to well above.
        assert!(
            (lo == delta || f64::from(lo) <= t) && f64::from(hi) >= 2.5 * t,
            "delta {delta}: {lo}..{hi}"
        );
    }
    let blocked = plan("blocked-phase.suite");
    assert!(blocked.iter().any(|r| r.n == 28) && blocked.iter().any(|r| r.n == 48));
    assert!(blocked.iter().all(|r| r.generator == "blocked"));
    let hard = plan("completion-hard.suite");
    let ns: BTreeSet<u32> = hard.iter().map(|r| r.n).collect();
    assert_eq!(ns, (10..=16).collect());
    assert!(hard.iter().all(|r| r.params.ends_with("to=completion")));
}

/// Writes the recipe `name` into a temporary folder, checks it has `count` files, and that each
/// file of `pinned` has its GBD hash.
fn assert_pinned(name: &str, count: usize, pinned: &[(&str, &str)]) {
    let tmp = tempdir();
    let d = tmp.path();
    let recipe = recipe_dir().join(name);
    run_expect(d, &["suite", recipe.to_str().unwrap(), "--out", "s"], 0);
    let rows = queens_sat::suite::manifest::read(&d.join("s/manifest.csv")).unwrap();
    assert_eq!(rows.len(), count, "{name}");
    for &(file, hash) in pinned {
        let row = rows
            .iter()
            .find(|r| r.file == file)
            .unwrap_or_else(|| panic!("no {file}"));
        assert_eq!(row.gbdhash, hash, "{file}");
    }
}

/// The big blocked set (`blocked-big.suite`, issue 43) is reproducible: 240 instances, and the
/// first seed of each of its twelve points has the GBD hash it had when the set was made,
/// except the three n = 72 ones: their boards have rows and columns whose one live cell is the
/// same cell, and that unit clause was written twice until issue 63 (each clause once since;
/// the hashes here are of the files without the repeats).
#[test]
fn blocked_big_recipe_has_pinned_gbd_hashes() {
    let pinned = [
        (
            "blocked72-queen-n72-m4666-k1-s1-auto.cnf",
            "3967a7b10ccbaee1216793f9fb6789f8",
        ),
        (
            "blocked72-queen-n72-m4692-k1-s1-auto.cnf",
            "7eeece4ea3cfcec946534651945cbfd3",
        ),
        (
            "blocked72-queen-n72-m4717-k1-s1-auto.cnf",
            "170d3e3eb014673084eabcca8c101f0b",
        ),
        (
            "blocked80-queen-n80-m5760-k1-s1-auto.cnf",
            "e8415b6dbac27809769279dae5d45856",
        ),
        (
            "blocked80-queen-n80-m5792-k1-s1-auto.cnf",
            "f536f7263fb5e59fd7a80d68996564a9",
        ),
        (
            "blocked80-queen-n80-m5824-k1-s1-auto.cnf",
            "bda19583ba3bb8cb41d41c7f79bb9556",
        ),
        (
            "blocked96-queen-n96-m8340-k1-s1-auto.cnf",
            "f5156ec58a06b577207b0345a0bc794c",
        ),
        (
            "blocked96-queen-n96-m8387-k1-s1-auto.cnf",
            "50cf481e596116e65d21397fb64487dc",
        ),
        (
            "blocked96-queen-n96-m8433-k1-s1-auto.cnf",
            "46f26a67b6f198365fa6e33ac2141d6a",
        ),
        (
            "blocked128-queen-n128-m14909-k1-s1-auto.cnf",
            "acfe6861df6854e67cff4dfebbaad1c2",
        ),
        (
            "blocked128-queen-n128-m14991-k1-s1-auto.cnf",
            "c8f9b253ceaf22e312384a778882f726",
        ),
        (
            "blocked128-queen-n128-m15073-k1-s1-auto.cnf",
            "2037140df817e8d6b93b316cca5f70d7",
        ),
    ];
    assert_pinned("blocked-big.suite", 240, &pinned);
}

/// The n = 32-36 frontier set is reproducible: the first seed of each of its nine families has
/// the GBD hash it had when the set was made (the CNF text, so the generator and the encoder,
/// byte for byte), and the frontier pack's recipe writes the same instances as the frontier set.
#[test]
fn frontier_recipes_have_pinned_gbd_hashes() {
    let pinned = [
        (
            "diag32-queen-n32-k1-diags33-s1-auto.cnf",
            "8a2792c0b7bc5a2417f4d654cf8e1dd5",
        ),
        (
            "diag32-queen-n32-k1-diags34-s1-auto.cnf",
            "4f4ae95dc50268a48d3e1f1231172ecd",
        ),
        (
            "diag32-queen-n32-k1-diags35-s1-auto.cnf",
            "0146e062f29ca05924a720e5dffb159c",
        ),
        (
            "diag34-queen-n34-k1-diags35-s1-auto.cnf",
            "ebf3b0816e495f441e877ca1a79a513b",
        ),
        (
            "diag34-queen-n34-k1-diags36-s1-auto.cnf",
            "7531351693ee2fbdeede267b23a17075",
        ),
        (
            "diag34-queen-n34-k1-diags37-s1-auto.cnf",
            "da27e3a46860dbc3916220f8269d1f70",
        ),
        (
            "diag36-queen-n36-k1-diags37-s1-auto.cnf",
            "5b7600f7f5a15ac05a41f4ad7598a745",
        ),
        (
            "diag36-queen-n36-k1-diags38-s1-auto.cnf",
            "83c1e6a152d030768ed06b4aaeda9be9",
        ),
        (
            "diag36-queen-n36-k1-diags39-s1-auto.cnf",
            "60383c5a0ea1212fc211b13357460880",
        ),
    ];
    assert_pinned("frontier-32-36.suite", 180, &pinned);
    // The pack's recipe is the frontier set's seeds 1..4: the same instances, the same hashes.
    let frontier = queens_sat::suite::plan(&recipe_dir().join("frontier.suite")).unwrap();
    let pack = queens_sat::suite::plan(&recipe_dir().join("frontier-pack.suite")).unwrap();
    assert_eq!(pack.len(), 60);
    for row in &pack {
        assert!(
            frontier
                .iter()
                .any(|f| f.file == row.file && f.params == row.params),
            "{} is not in frontier.suite",
            row.file
        );
    }
}

/// Issue 53 §1: a suite writes only what is worth a file. Instances presolve decides are
/// recorded (verdict, reason) and not written unless the family says `presolve off`; an
/// instance that is a rotation or mirror of another, or whose formula has another's GBD hash,
/// is written once, the manifest naming its duplicates; a pack holds each hash once.
#[test]
fn suites_write_no_trivial_or_duplicate_formula() {
    let dir = tempdir();
    let d = dir.path();
    // Completions with many pre-placed queens: most are refuted by presolve. A plain board
    // family with one seed-less n repeated under two names would be refused, so the duplicates
    // come from the random family itself (small n: seeds give mirrored or equal instances).
    fs::write(
        d.join("t.suite"),
        "family dense\nn 6\ngenerator completion delta=1\nseeds 1..12\n\n\
         family dense_full\nn 6\ngenerator completion delta=1\nseeds 1..3\npresolve off\n\n\
         family empty\nn 5\ngenerator blocked m=0 min-free=1\nseeds 1..4\n",
    )
    .unwrap();
    let r = run_expect(d, &["suite", "t.suite", "--solve", "--jobs", "2"], 0);
    let out = d.join("cnf-out/t");
    let rows = read_manifest(&out.join("manifest.csv"));
    check_rows_match_files(&out, &rows);
    let presolved: Vec<_> = rows
        .iter()
        .filter(|r| r["skipped"].starts_with("presolve: "))
        .collect();
    assert!(!presolved.is_empty(), "{}", r.stderr);
    for row in &presolved {
        assert_eq!(
            (row["status"].as_str(), row["solver"].as_str()),
            ("UNSAT", "presolve")
        );
        assert_eq!(row["family"], "dense", "presolve off writes every instance");
    }
    // `presolve off`: every instance written unpresolved (36 cell variables at least), but
    // one whose unpresolved formula unit propagation decides (issue 63).
    for row in rows.iter().filter(|r| r["family"] == "dense_full") {
        assert!(
            row["skipped"].is_empty() || row["skipped"].starts_with("unit propagation: "),
            "{row:?}"
        );
        if row["skipped"].is_empty() {
            assert!(row["vars"].parse::<u32>().unwrap() >= 36, "{row:?}");
        }
    }
    // The four empty 5x5 boards are one instance: one file, three duplicates naming it, each
    // with its verdict.
    let empty: Vec<_> = rows.iter().filter(|r| r["family"] == "empty").collect();
    let kept: Vec<_> = empty.iter().filter(|r| r["skipped"].is_empty()).collect();
    assert_eq!(kept.len(), 1, "{empty:?}");
    let listed: BTreeSet<&str> = kept[0]["duplicates"].split(' ').collect();
    for row in empty.iter().filter(|r| !r["skipped"].is_empty()) {
        assert!(
            row["skipped"].starts_with(&format!("duplicate of {}", kept[0]["file"])),
            "{row:?}"
        );
        assert!(listed.contains(row["file"].as_str()), "{listed:?}");
        assert_eq!(row["status"], "SAT");
    }
    // No two files of the suite share a GBD hash.
    let hashes: Vec<&str> = rows
        .iter()
        .filter(|r| r["skipped"].is_empty())
        .map(|r| r["gbdhash"].as_str())
        .collect();
    let distinct: BTreeSet<&str> = hashes.iter().copied().collect();
    assert_eq!(distinct.len(), hashes.len());
    assert!(r.stderr.contains("not written:"), "{}", r.stderr);
}

/// `orbit_key`: an instance and each of its 8 images share a key; moving one piece changes it.
#[test]
fn orbit_keys_identify_rotations_and_mirrors() {
    use queens_sat::board::Cell;
    use queens_sat::instance::Instance;
    use queens_sat::symmetry::{Symmetry, orbit_key};
    let mut inst = Instance::plain(9);
    inst.placed = vec![Cell::new(0, 1), Cell::new(4, 7)];
    inst.blocked = vec![Cell::new(8, 8), Cell::new(2, 3)];
    let key = orbit_key(&inst);
    for g in Symmetry::ALL {
        let mut image = Instance::plain(9);
        image.placed = inst.placed.iter().map(|&c| g.apply(c, 9)).collect();
        image.blocked = inst.blocked.iter().map(|&c| g.apply(c, 9)).collect();
        assert_eq!(orbit_key(&image), key, "{g:?}");
    }
    let mut moved = inst.clone();
    moved.placed[1] = Cell::new(4, 6);
    assert_ne!(orbit_key(&moved), key);
}

/// The SAT Competition 2026 submission family (`submission-2026.suite`, issue 53 §3) is
/// reproducible: 49 instances, and the 20 that `--select --total 20` kept (docs/submission-2026/)
/// have the GBD hashes they had when the family was selected, except blocked72 m=4614 s1, which
/// had two unit clauses twice (6,756 clauses; written once since issue 63: 6,754, a new hash).
#[test]
fn submission_recipe_has_pinned_gbd_hashes() {
    let pinned = [
        (
            "blocked72-queen-n72-m4562-k1-s2-auto.cnf",
            "c9342bd3e80cd3dd0a4c77625ce8a069",
        ),
        (
            "blocked72-queen-n72-m4562-k1-s4-auto.cnf",
            "c4a3bd030f14c73d1296d34b07a1ce75",
        ),
        (
            "blocked72-queen-n72-m4614-k1-s1-auto.cnf",
            "9d4ccd447f0e9f61ac96aa6bdd699e4f",
        ),
        (
            "blocked72-queen-n72-m4614-k1-s2-auto.cnf",
            "9a6669a391bd050a8eb5b11d70f17339",
        ),
        (
            "compl26-queen-n26-k1-diags24-completion-s2-auto.cnf",
            "d95e7193b68869eee6f0fc6964c636e6",
        ),
        (
            "compl26-queen-n26-k1-diags24-completion-s3-auto.cnf",
            "b26a8a19cab9e596dd7f533a89e6e3d6",
        ),
        (
            "compl26-queen-n26-k1-diags25-completion-s3-auto.cnf",
            "ec675c79a02ae6d1ccfcd9fdf8affb5a",
        ),
        (
            "compl28-queen-n28-k1-diags30-completion-s3-auto.cnf",
            "004e5a8256f80ddd2b2d11ffc418742a",
        ),
        (
            "compl28-queen-n28-k1-diags31-completion-s2-auto.cnf",
            "885ec7a1d265f4c2645830f35303bd17",
        ),
        (
            "compl28-queen-n28-k1-diags32-completion-s2-auto.cnf",
            "c2bac908917dc0f4ff5021a377c2bd14",
        ),
        (
            "blocked56-queen-n56-m2734-k1-s3-auto.cnf",
            "8300fabc7ac6f91e7a453d656db38bb3",
        ),
        (
            "blocked56-queen-n56-m2734-k1-s4-auto.cnf",
            "b49b4f2d4747a2e7cba48baa24fc5f3a",
        ),
        (
            "blocked80-queen-n80-m5632-k1-s1-auto.cnf",
            "d00569b2751ccfa62725cd0ad34c70bb",
        ),
        (
            "blocked80-queen-n80-m5632-k1-s2-auto.cnf",
            "187091645b4f9ac0d3bb122ab4ec984a",
        ),
        (
            "blocked80-queen-n80-m5632-k1-s3-auto.cnf",
            "33119ac61f723b6e3e3dde710cb2e282",
        ),
        (
            "diag26-queen-n26-k1-diags24-s4-auto.cnf",
            "30680818efa8536ebc7fc6dae864a485",
        ),
        (
            "diag26-queen-n26-k1-diags24-s6-auto.cnf",
            "04049afbb7b887791f37107cfb7dae01",
        ),
        (
            "diag26-queen-n26-k1-diags25-s6-auto.cnf",
            "2a04dc74bfe41bc5439a2beb20c131a2",
        ),
        (
            "diag28-queen-n28-k1-diags32-s5-auto.cnf",
            "9b25503a16bfba4f74dbf47e7b2bfdd9",
        ),
        (
            "diag28-queen-n28-k1-diags32-s12-auto.cnf",
            "4030e25cff46c12dec89a87e6c43185c",
        ),
    ];
    assert_pinned("submission-2026.suite", 49, &pinned);
}

/// The clauses of a DIMACS text, each as its sorted literals.
fn clauses_of(text: &str) -> Vec<Vec<i32>> {
    text.lines()
        .filter(|l| !l.starts_with('c') && !l.starts_with('p') && !l.trim().is_empty())
        .map(|l| {
            let mut c: Vec<i32> = l
                .split_whitespace()
                .map(|x| x.parse().unwrap())
                .filter(|&x| x != 0)
                .collect();
            c.sort_unstable();
            c
        })
        .collect()
}

/// What unit propagation alone decides (a fixpoint over the clauses, written here apart from the
/// library's): `Some(false)` on a conflict, `Some(true)` when every clause is satisfied.
fn unit_propagation(clauses: &[Vec<i32>]) -> Option<bool> {
    let mut value: HashMap<u32, bool> = HashMap::new();
    loop {
        let mut changed = false;
        let mut all_true = true;
        for c in clauses {
            let truth = |l: &i32| value.get(&l.unsigned_abs()).map(|&v| v == (*l > 0));
            if c.iter().any(|l| truth(l) == Some(true)) {
                continue;
            }
            all_true = false;
            let open: Vec<i32> = c.iter().copied().filter(|l| truth(l).is_none()).collect();
            match open.as_slice() {
                [] => return Some(false),
                [u] => {
                    value.insert(u.unsigned_abs(), *u > 0);
                    changed = true;
                }
                _ => {}
            }
        }
        if all_true {
            return Some(true);
        }
        if !changed {
            return None;
        }
    }
}

/// Issue 63: a suite of completion instances (n = 6..30, 12 seeds, 6 queens left to place, the
/// issue's case) writes no formula twice (no two files with one GBD hash, nor one set of
/// clauses in another order), no formula that unit propagation alone decides (each such row is
/// recorded with the reason, its verdict and the solver `unit-propagation`, and the verdict is
/// `solve`'s), and no file with a clause twice.
#[test]
fn suites_drop_formulas_that_unit_propagation_decides_or_that_repeat() {
    let dir = tempdir();
    let d = dir.path();
    fs::write(
        d.join("c.suite"),
        "family d6\nn 6..30\ngenerator completion delta=6\nseeds 1..12\n",
    )
    .unwrap();
    let r = run_expect(d, &["suite", "c.suite", "--jobs", "2"], 0);
    let out = d.join("cnf-out/c");
    let rows = read_manifest(&out.join("manifest.csv"));
    assert_eq!(rows.len(), 25 * 12);
    check_rows_match_files(&out, &rows);
    let mut hashes = BTreeSet::new();
    let mut formulas = BTreeSet::new();
    for row in rows.iter().filter(|r| r["skipped"].is_empty()) {
        let file = &row["file"];
        let text = fs::read_to_string(out.join(file)).unwrap();
        let mut clauses = clauses_of(&text);
        assert_eq!(unit_propagation(&clauses), None, "{file}");
        let distinct: BTreeSet<&Vec<i32>> = clauses.iter().collect();
        assert_eq!(distinct.len(), clauses.len(), "{file}: a clause twice");
        assert!(
            hashes.insert(row["gbdhash"].clone()),
            "{file}: GBD hash twice"
        );
        clauses.sort();
        assert!(formulas.insert(clauses), "{file}: another file's clauses");
    }
    let propagated: Vec<_> = rows
        .iter()
        .filter(|r| r["skipped"].starts_with("unit propagation: "))
        .collect();
    assert!(!propagated.is_empty(), "{}", r.stderr);
    for row in &propagated {
        assert_eq!(row["solver"], "unit-propagation", "{row:?}");
        // The formula, written apart, is decided by unit propagation, as the row says; and
        // the verdict is the solver's.
        let m = row["params"].split("m=").nth(1).unwrap();
        let inst = run_expect(
            d,
            &[
                "generate",
                "completion",
                "-n",
                &row["n"],
                "-m",
                m,
                "--seed",
                &row["seed"],
                "-o",
                "i.param",
            ],
            0,
        );
        assert!(inst.stdout.is_empty());
        let cnf = run_expect(d, &["encode", "--instance", "i.param", "-o", "-"], 0);
        let sat = unit_propagation(&clauses_of(&cnf.stdout)).expect("decided by propagation");
        assert_eq!(row["status"], if sat { "SAT" } else { "UNSAT" }, "{row:?}");
        let solved = run(d, &["solve", "--instance", "i.param"]);
        assert_eq!(solved.code, if sat { 10 } else { 20 }, "{row:?}");
    }
    assert!(
        r.stderr.contains("decided by presolve or unit propagation"),
        "{}",
        r.stderr
    );
}

/// Issue 63: with `presolve off` too, a suite writes no formula that unit propagation alone
/// decides: the unpresolved formula states the pre-placed queens as unit clauses, and their
/// propagation decides many a completion (every pair that attacks each other, among others).
/// Such a row is recorded with the reason, its verdict (`solve --no-presolve`'s) and the solver
/// `unit-propagation`; the files written are unpresolved and undecided by propagation. (They
/// used to be written: the recipe's `presolve off` kept every instance.)
#[test]
fn suites_without_presolve_drop_formulas_that_unit_propagation_decides() {
    let dir = tempdir();
    let d = dir.path();
    fs::write(
        d.join("c.suite"),
        "family raw\nn 6..14\ngenerator completion delta=6\nseeds 1..6\npresolve off\n",
    )
    .unwrap();
    let r = run_expect(d, &["suite", "c.suite", "--jobs", "2"], 0);
    let out = d.join("cnf-out/c");
    let rows = read_manifest(&out.join("manifest.csv"));
    assert_eq!(rows.len(), 9 * 6);
    check_rows_match_files(&out, &rows);
    for row in rows.iter().filter(|r| r["skipped"].is_empty()) {
        let file = &row["file"];
        let clauses = clauses_of(&fs::read_to_string(out.join(file)).unwrap());
        assert_eq!(unit_propagation(&clauses), None, "{file}");
        let n: u32 = row["n"].parse().unwrap();
        assert!(
            row["vars"].parse::<u32>().unwrap() >= n * n,
            "{row:?}: unpresolved"
        );
    }
    let propagated: Vec<_> = rows
        .iter()
        .filter(|r| r["skipped"].starts_with("unit propagation: "))
        .collect();
    assert!(!propagated.is_empty(), "{}", r.stderr);
    assert!(
        rows.iter().all(|r| !r["skipped"].starts_with("presolve: ")),
        "presolve off: nothing is decided by presolve"
    );
    for row in &propagated {
        assert_eq!(row["solver"], "unit-propagation", "{row:?}");
        let m = row["params"].split("m=").nth(1).unwrap();
        let generate = [
            "generate",
            "completion",
            "-n",
            &row["n"],
            "-m",
            m,
            "--seed",
            &row["seed"],
            "-o",
            "i.param",
        ];
        run_expect(d, &generate, 0);
        let cnf = run_expect(
            d,
            &[
                "encode",
                "--instance",
                "i.param",
                "--no-presolve",
                "-o",
                "-",
            ],
            0,
        );
        let sat = unit_propagation(&clauses_of(&cnf.stdout)).expect("decided by propagation");
        assert_eq!(row["status"], if sat { "SAT" } else { "UNSAT" }, "{row:?}");
        let solved = run(d, &["solve", "--instance", "i.param", "--no-presolve"]);
        assert_eq!(solved.code, if sat { 10 } else { 20 }, "{row:?}");
    }
}

/// Issue 63: `suite --solve` reports numbers that add up, and `certified` means one thing in
/// the manifest and the pack: the verdict is checked (a SAT board verified against the instance,
/// always; an UNSAT refutation checked, under `--certify`, presolve's included). Before,
/// presolve-decided UNSAT rows stayed `certified=false` under `--certify`, SAT rows were false
/// in the manifest but true in the pack, and the summary's SAT + UNSAT counted the whole suite
/// against a `solved` of this run's files.
#[test]
fn suite_summary_adds_up_and_certified_means_a_checked_verdict() {
    let dir = tempdir();
    let d = dir.path();
    fs::write(
        d.join("t.suite"),
        "family c\nn 8\ngenerator completion m=1..5\nseeds 1..4\n",
    )
    .unwrap();
    let summary = |stderr: &str| -> Vec<usize> {
        let line = stderr
            .lines()
            .find(|l| l.starts_with("solved "))
            .unwrap_or_else(|| panic!("{stderr}"));
        line.split(|c: char| !c.is_ascii_digit() && c != '.')
            .filter(|w| !w.is_empty() && !w.contains('.'))
            .map(|w| w.parse().unwrap())
            .collect()
    };
    for certify in [false, true] {
        let out = format!("s{certify}");
        let mut args = vec!["suite", "t.suite", "--out", &out, "--solve", "--jobs", "2"];
        if certify {
            args.push("--certify");
        }
        let r = run_expect(d, &args, 0);
        let rows = read_manifest(&d.join(&out).join("manifest.csv"));
        assert_eq!(rows.len(), 20);
        // solved S in T s; the suite's N instances: SAT a UNSAT b UNKNOWN c (p decided ... and
        // k duplicates among them)
        let nums = summary(&r.stderr);
        let [solved, total, sat, unsat, unknown, decided, duplicates] = nums[..] else {
            panic!("{nums:?}: {}", r.stderr)
        };
        assert_eq!(total, rows.len(), "{}", r.stderr);
        assert_eq!(sat + unsat + unknown, total, "{}", r.stderr);
        let count =
            |f: &dyn Fn(&HashMap<String, String>) -> bool| rows.iter().filter(|r| f(r)).count();
        assert_eq!(sat, count(&|r| r["status"] == "SAT"));
        assert_eq!(unsat, count(&|r| r["status"] == "UNSAT"));
        assert_eq!(
            decided,
            count(&|r| r["skipped"].starts_with("presolve: ")
                || r["skipped"].starts_with("unit propagation: "))
        );
        assert_eq!(
            duplicates,
            count(&|r| r["skipped"].starts_with("duplicate of "))
        );
        let files = count(&|r| r["skipped"].is_empty());
        assert!(solved >= files, "{}", r.stderr);
        assert!(decided > 0 && sat > 0, "{}", r.stderr);
        for row in &rows {
            let want = row["status"] == "SAT" || (certify && row["status"] == "UNSAT");
            assert_eq!(
                row["certified"],
                want.to_string(),
                "certify={certify}: {row:?}"
            );
        }
    }
}
