//! `bench hard`'s frontier set, its resumable CSV, the per-n table and the plot against n
//! (issue 28), on tiny runs (a few seconds each); the tail and frontier sets are the suite
//! recipes in encodings/.

use crate::common;
use queens_sat::interrupt::HANG_GUARD;

use std::collections::BTreeSet;
use std::path::Path;

use common::*;
use queens_sat::generate::Generator;
use queens_sat::instance::{InstanceFormat, write::write as write_instance};
use sha2::{Digest, Sha256};

/// The frontier set is 300 instances `diag-n{n}-d{d}-s{s}`: n = 22, 24, 26, 28, 30, three prefix
/// lengths each, seeds 1..=20; and an instance's file is the same bytes every time it is
/// generated, pinned by a digest so that a changed generator is caught.
#[test]
fn frontier_set_is_named_and_reproducible() {
    let dir = tempfile::tempdir().unwrap();
    let r = run_expect(dir.path(), &["bench", "hard", "--frontier", "--list"], 0);
    let names: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(names.len(), 300, "{}", r.stdout);
    assert_eq!(names.iter().collect::<BTreeSet<_>>().len(), 300, "repeats");
    let mut per_n: std::collections::BTreeMap<u32, BTreeSet<usize>> = Default::default();
    for name in &names {
        let parts: Vec<&str> = name.split('-').collect();
        assert_eq!(parts.len(), 4, "{name}");
        assert_eq!(parts[0], "diag", "{name}");
        let n: u32 = parts[1].strip_prefix('n').unwrap().parse().unwrap();
        let d: usize = parts[2].strip_prefix('d').unwrap().parse().unwrap();
        let s: u64 = parts[3].strip_prefix('s').unwrap().parse().unwrap();
        assert!((1..=20).contains(&s), "{name}");
        per_n.entry(n).or_default().insert(d);
    }
    assert_eq!(
        per_n.keys().copied().collect::<Vec<_>>(),
        vec![22, 24, 26, 28, 30]
    );
    assert!(per_n.values().all(|ds| ds.len() == 3), "{per_n:?}");
    // A sample of the set is a subset of it, and reproducible.
    let sample = |seed: &str| {
        run_expect(
            dir.path(),
            &[
                "bench",
                "hard",
                "--frontier",
                "--list",
                "--sample",
                "7",
                "--seeds",
                seed,
            ],
            0,
        )
        .stdout
    };
    let a = sample("3");
    assert_eq!(a.lines().count(), 7);
    assert!(a.lines().all(|l| names.contains(&l)), "{a}");
    assert_eq!(a, sample("3"));

    // The bench's instance file (the generator's first d diagonals, excluded-diagonals format),
    // twice from the library, and the generator's list twice from the CLI.
    let file = |n: u32, d: usize, seed: u64| {
        let g = Generator::Diagonals {
            min_free: 1,
            diags: Some(d),
            to_completion: false,
        };
        write_instance(
            &g.instance(n, seed).unwrap(),
            InstanceFormat::Diags,
            "frontier",
        )
        .unwrap()
    };
    let text = file(22, 18, 1);
    assert_eq!(text, file(22, 18, 1));
    let digest: String = Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(
        digest, "0a6e8832ff67e6eacb44fe9bfe2d4406b89a5bc3249b31b17dc6b44d6c603113",
        "diag-n22-d18-s1 changed:\n{text}"
    );
    let list = |n: &str, seed: &str| {
        run_expect(
            dir.path(),
            &[
                "generate",
                "diagonals",
                "-n",
                n,
                "--min-free",
                "1",
                "--seed",
                seed,
            ],
            0,
        )
        .stdout
    };
    let last = list("30", "20");
    assert_eq!(last, list("30", "20"));
    assert_ne!(last, list("30", "19"), "the seed is ignored");
    assert!(
        list("22", "1").contains("diags = [[10,1],[8,0],[1,0],[13,0],[31,0],[40,1],[36,0],"),
        "the generator's list for n = 22, seed 1 changed"
    );
}

/// The arguments of a tiny bench writing its rows to `csv` (2 quick instances, varisat).
fn tiny(csv: &Path) -> Vec<String> {
    tiny_amo(csv, "pairwise")
}

/// [`tiny`] with these encodings.
fn tiny_amo(csv: &Path, amo: &str) -> Vec<String> {
    [
        "bench",
        "hard",
        "--quick",
        "--seeds",
        "1",
        "--solvers",
        "varisat",
        "--amo",
        amo,
        "--sample",
        "2",
        "--timeout",
        "5",
        "--csv",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([csv.to_str().unwrap().to_string()])
    .collect()
}

/// `row` with its status field replaced.
fn with_status(row: &str, status: &str) -> String {
    let mut fields: Vec<&str> = row.split(',').collect();
    fields[6] = status;
    fields.join(",")
}

fn bench(dir: &Path, args: &[String], extra: &[&str], code: i32) -> Run {
    let mut all: Vec<&str> = args.iter().map(String::as_str).collect();
    all.extend_from_slice(extra);
    run_expect(dir, &all, code)
}

/// `--csv F --resume` runs nothing that F holds, reruns exactly a deleted row, reports old rows
/// with new ones, and stops with a one-line error naming file and line on a malformed F.
#[test]
fn resume_reruns_only_missing_rows() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("runs.csv");
    let args = tiny(&csv);
    let first = bench(dir.path(), &args, &[], 0);
    assert!(first.stdout.contains("2 instances x 1 configurations"));
    let text = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert_eq!(lines[0], "instance,group,n,seed,solver,amo,status,seconds");

    // Everything is there: nothing runs, the file is unchanged, the report has both runs.
    let t = std::time::Instant::now();
    let again = bench(dir.path(), &args, &["--resume"], 0);
    assert!(
        again
            .stdout
            .contains("2 earlier runs read back (--resume), 2 of this bench")
            && again.stdout.contains("; 0 to run"),
        "{}",
        again.stdout
    );
    assert!(t.elapsed() < HANG_GUARD, "took {:?}", t.elapsed());
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), text);
    // The same report as the first run's (seconds are kept in milliseconds, as in the CSV).
    assert_eq!(again.stdout.split_once('\n').unwrap().1, first.stdout);

    // One row deleted: exactly that run is done again.
    let kept = format!("{}\n{}\n", lines[0], lines[2]);
    std::fs::write(&csv, &kept).unwrap();
    let redo = bench(dir.path(), &args, &["--resume"], 0);
    assert!(redo.stdout.contains("; 1 to run"), "{}", redo.stdout);
    let after = std::fs::read_to_string(&csv).unwrap();
    let after: Vec<&str> = after.lines().collect();
    assert_eq!(after.len(), 3, "{after:?}");
    assert_eq!(&after[..2], &[lines[0], lines[2]]);
    let cols = |l: &str| l.split(',').take(7).collect::<Vec<_>>().join(",");
    assert_eq!(
        cols(after[2]),
        cols(lines[1]),
        "the deleted run, same answer"
    );

    // Without --resume the file starts over.
    std::fs::write(&csv, format!("{kept}{}\n", lines[1])).unwrap();
    bench(dir.path(), &args, &[], 0);
    assert_eq!(std::fs::read_to_string(&csv).unwrap().lines().count(), 3);

    // A malformed file: one line naming it and the line at fault, exit 1, nothing run.
    let name = csv.to_str().unwrap();
    for (bad, line, needle) in [
        (format!("{kept}x,y\n"), 3, "2 fields, expected 8"),
        (
            format!("{kept}{}\n", with_status(lines[1], "MAYBE")),
            3,
            "status \"MAYBE\"",
        ),
        (
            "instance,n\n".to_string(),
            1,
            "header is not instance,group,n,seed,solver,amo,status,seconds",
        ),
        (
            format!("{kept}{}", &lines[1][..lines[1].len() - 2]),
            3,
            "cut off",
        ),
    ] {
        std::fs::write(&csv, &bad).unwrap();
        let mut all: Vec<&str> = args.iter().map(String::as_str).collect();
        all.push("--resume");
        assert_one_line_error(dir.path(), &all, &[&format!("{name}:{line}:"), needle]);
        assert_eq!(std::fs::read_to_string(&csv).unwrap(), bad, "file touched");
    }
}

/// A SAT row in the CSV against a run that answers UNSAT fails the bench (old rows are
/// cross-checked like new ones).
#[test]
fn resume_cross_checks_old_rows() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("runs.csv");
    let args = tiny(&csv);
    bench(dir.path(), &args, &[], 0);
    let text = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // The same instance, claimed by another configuration with the opposite answer.
    let fields: Vec<&str> = lines[1].split(',').collect();
    let flipped = if fields[6] == "SAT" { "UNSAT" } else { "SAT" };
    let extra = format!(
        "{},{},{},{},varisat,product,{flipped},0.100\n",
        fields[0], fields[1], fields[2], fields[3]
    );
    std::fs::write(&csv, format!("{text}{extra}")).unwrap();
    let r = bench(
        dir.path(),
        &tiny_amo(&csv, "pairwise,product"),
        &["--resume"],
        1,
    );
    assert!(
        r.stderr.contains(&format!(
            "{}: varisat product answered {flipped} but another configuration",
            fields[0]
        )) || r
            .stderr
            .contains(&format!("{}: varisat pairwise answered", fields[0])),
        "{}",
        r.stderr
    );
}

/// `--frontier` prints the per-n table; `--plot` writes an SVG (it parses) with one median and
/// one max line per configuration and the unsolved marks.
#[test]
fn frontier_per_n_table_and_plot() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("frontier.svg");
    let r = run_expect(
        dir.path(),
        &[
            "bench",
            "hard",
            "--frontier",
            "--sample",
            "3",
            "--seeds",
            "1",
            "--solvers",
            "varisat",
            "--amo",
            "pairwise",
            "--timeout",
            "2",
            "--plot",
            svg.to_str().unwrap(),
        ],
        0,
    );
    assert!(
        r.stdout.contains(
            "| configuration | family | n | instances | solved | SAT | UNSAT | median | p90 | max |"
        ),
        "{}",
        r.stdout
    );
    let rows: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| l.starts_with("| varisat pairwise | diagonals |"))
        .collect();
    assert!(!rows.is_empty(), "{}", r.stdout);
    let mut instances = 0;
    for row in &rows {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        assert_eq!(cells.len(), 12, "{row}");
        let n: u32 = cells[3].parse().unwrap();
        assert!([22, 24, 26, 28, 30].contains(&n), "{row}");
        let count: usize = cells[4].parse().unwrap();
        let solved: usize = cells[5].parse().unwrap();
        let (sat, unsat): (usize, usize) = (cells[6].parse().unwrap(), cells[7].parse().unwrap());
        assert_eq!(sat + unsat, solved, "{row}");
        instances += count;
    }
    assert_eq!(instances, 3);
    let text = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("the plot is SVG");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let texts: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text())
        .collect();
    for needle in [
        "varisat pairwise median",
        "varisat pairwise max",
        "timeout 2 s",
    ] {
        assert!(
            texts.iter().any(|t| t.contains(needle)),
            "{needle}: {texts:?}"
        );
    }
    assert!(r.stdout.contains("plot: "), "{}", r.stdout);
    // The standard set prints no per-n table.
    let csv = dir.path().join("runs.csv");
    let r = bench(dir.path(), &tiny(&csv), &[], 0);
    assert!(
        !r.stdout.contains("Per n, excluded diagonals"),
        "{}",
        r.stdout
    );
}

/// `--frontier` conflicts with `--tail` and `--quick`; `--resume` needs `--csv`.
#[test]
fn frontier_and_resume_flag_rules() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["bench", "hard", "--frontier", "--tail", "--list"][..],
        &["bench", "hard", "--frontier", "--quick", "--list"][..],
        &["bench", "hard", "--resume", "--list"][..],
    ] {
        // A flag clap refuses: one line, exit 1, like every other error.
        assert_one_line_error(dir.path(), args, &["--"]);
    }
}

/// The tail and frontier sets are the suite recipes `encodings/tail.suite` and
/// `encodings/frontier.suite`: `queens-sat suite` on a recipe generates the instances that
/// `bench hard --tail` / `--frontier` lists, in the same order, and every 37th one encodes to
/// the same CNF as the instance file the bench gives its runs (all but the `c instance` label).
#[test]
fn suite_recipes_are_the_bench_sets() {
    use queens_sat::bench::catalogue::{frontier_instances, instance_text, tail_instances};
    let dir = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (name, flag, set) in [
        ("tail", "--tail", tail_instances().unwrap()),
        ("frontier", "--frontier", frontier_instances().unwrap()),
    ] {
        let out = dir.path().join(name);
        let recipe = root.join(format!("encodings/{name}.suite"));
        run_expect(
            dir.path(),
            &[
                "suite",
                recipe.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
                "--jobs",
                "2",
            ],
            0,
        );
        let mut manifest = csv::Reader::from_path(out.join("manifest.csv")).unwrap();
        let rows: Vec<csv::StringRecord> = manifest.records().map(Result::unwrap).collect();
        // manifest columns: file, family, piece, n, generator, params, seed, ...
        let names: Vec<String> = rows
            .iter()
            .map(|r| {
                let param = |key: &str| {
                    r[5].split(' ')
                        .find_map(|kv| kv.strip_prefix(&format!("{key}=")))
                        .unwrap()
                        .to_string()
                };
                assert_eq!(param("min-free"), "1", "{r:?}");
                match &r[4] {
                    "blocked" => format!("blocked-n{}-m{}-s{}", &r[3], param("m"), &r[6]),
                    "diagonals" => format!("diag-n{}-d{}-s{}", &r[3], param("diags"), &r[6]),
                    other => panic!("{other}: {r:?}"),
                }
            })
            .collect();
        let listed = run_expect(dir.path(), &["bench", "hard", flag, "--list"], 0).stdout;
        assert_eq!(names, listed.lines().collect::<Vec<_>>(), "{name}");
        assert_eq!(names.len(), set.len());
        let strip = |cnf: String| {
            cnf.lines()
                .filter(|l| !l.starts_with("c instance "))
                .collect::<Vec<_>>()
                .join("\n")
        };
        for ((row, inst), listed) in rows.iter().zip(&set).zip(&names).step_by(37) {
            assert_eq!(&inst.name(), listed);
            let file = dir.path().join(format!("{}.txt", inst.name()));
            std::fs::write(&file, instance_text(inst).unwrap()).unwrap();
            let cnf = dir.path().join(format!("{}.cnf", inst.name()));
            run_expect(
                dir.path(),
                &[
                    "encode",
                    "--instance",
                    file.to_str().unwrap(),
                    "-o",
                    cnf.to_str().unwrap(),
                ],
                0,
            );
            let from_bench = strip(std::fs::read_to_string(&cnf).unwrap());
            let from_suite = strip(std::fs::read_to_string(out.join(&row[0])).unwrap());
            assert!(
                from_bench == from_suite,
                "{} differs from {}",
                inst.name(),
                &row[0]
            );
        }
    }
}
