//! `suite --select` (issue 53 §2): selection by hardness end to end on tiny instances, with
//! budget solvers whose verdicts do not depend on timing (a script that always answers
//! UNKNOWN, one that sleeps past a small limit, MiniSat on instances it decides at once): what
//! is kept, the seeded balanced draw, the resumable runs file, the pack's description.

use std::collections::{BTreeSet, HashMap};
use std::fs;
use std::path::{Path, PathBuf};

use crate::common::{assert_one_line_error, run_expect};

/// 16 completion instances on 8x8 (4 of them presolve-decided), SAT and UNSAT both.
const TINY: &str =
    "author Recipe Author\nfamily comp\nn 8\ngenerator completion m=1..4\nseeds 1..4\n";

/// A budget solver that appends a line to `count` at every run and answers UNKNOWN at once.
pub(crate) fn undecided_solver(dir: &Path) -> PathBuf {
    script(
        dir,
        "undecided.sh",
        &format!(
            "#!/bin/sh\necho run >> {}\necho 's UNKNOWN'\nexit 0\n",
            dir.join("count").display()
        ),
    )
}

fn script(dir: &Path, name: &str, text: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    fs::write(&path, text).unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
    path
}

fn runs(dir: &Path) -> usize {
    fs::read_to_string(dir.join("count")).map_or(0, |t| t.lines().count())
}

/// Manifest rows as maps from column name to value.
pub(crate) fn manifest(path: &Path) -> Vec<HashMap<String, String>> {
    let mut reader = csv::Reader::from_path(path).expect("manifest");
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    reader
        .records()
        .map(|r| {
            header
                .iter()
                .cloned()
                .zip(r.unwrap().iter().map(String::from))
                .collect()
        })
        .collect()
}

/// The kept files, and the SAT and UNSAT counts among them.
fn kept(rows: &[HashMap<String, String>]) -> (BTreeSet<String>, usize, usize) {
    let kept: Vec<_> = rows.iter().filter(|r| r["selection"] == "kept").collect();
    let sat = kept.iter().filter(|r| r["status"] == "SAT").count();
    let names = kept.iter().map(|r| r["file"].clone()).collect();
    (names, sat, kept.len() - sat)
}

fn select_args<'a>(budget: &'a str, k: &'a str, seed: &'a str) -> Vec<&'a str> {
    vec![
        "suite",
        "tiny.suite",
        "--select",
        "--budget-solver",
        budget,
        "--budget-limit",
        "30",
        "--timeout",
        "60",
        "--per-family",
        k,
        "--select-seed",
        seed,
        "--jobs",
        "1",
    ]
}

#[test]
fn select_keeps_what_the_budget_leaves_balanced_and_resumes() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    fs::write(dir.join("tiny.suite"), TINY).unwrap();
    let budget = undecided_solver(dir);
    let budget = budget.to_str().unwrap();
    let out = dir.join("cnf-out/tiny");
    let mut args = select_args(budget, "5", "7");
    args.extend(["--pack", "pack", "--author", "A. Author"]);
    let r = run_expect(dir, &args, 0);
    let rows = manifest(&out.join("manifest.csv"));
    let files: Vec<_> = rows.iter().filter(|r| r["skipped"].is_empty()).collect();
    // 16 instances: 4 decided by presolve and one by unit propagation (issue 63), 11 files.
    assert_eq!(files.len(), 11, "{}", r.stderr);
    assert_eq!(runs(dir), 11, "the budget solver ran once per file");
    for row in &files {
        assert_eq!(row["budget_status"], "UNKNOWN");
        assert_eq!(row["budget_limit"], "30.0");
        assert_eq!(row["limit"], "60.0");
        assert_eq!(row["solver"], "auto");
        assert!(
            ["SAT", "UNSAT"].contains(&row["status"].as_str()),
            "{row:?}"
        );
        assert!(["kept", "not-chosen"].contains(&row["selection"].as_str()));
        assert!(!row["cpu"].is_empty());
    }
    // Rows decided before solving (presolve, unit propagation) have no run and no selection.
    for row in rows.iter().filter(|r| !r["skipped"].is_empty()) {
        assert!(row["selection"].is_empty() && row["budget_status"].is_empty());
    }
    let (first, sat, unsat) = kept(&rows);
    let (all_sat, all_unsat) = (
        files.iter().filter(|r| r["status"] == "SAT").count(),
        files.len() - files.iter().filter(|r| r["status"] == "SAT").count(),
    );
    // As many as the balance allows out of what passed, within 2 of each other.
    let (want_sat, want_unsat) = queens_sat::suite::select::balanced(all_sat, all_unsat, 5);
    assert_eq!((sat, unsat), (want_sat, want_unsat));
    assert!(sat.abs_diff(unsat) <= 2);
    let shortfall = 5 - sat - unsat;
    assert!(
        r.stderr
            .contains(&format!("kept {} (SAT {sat} UNSAT {unsat})", sat + unsat)),
        "{}",
        r.stderr
    );
    if shortfall > 0 {
        assert!(
            r.stderr.contains(&format!("{shortfall} short of 5")),
            "{}",
            r.stderr
        );
    }

    // The pack holds the kept files and a description of them.
    let pack = dir.join("pack");
    let packed: Vec<String> = fs::read_dir(&pack)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".cnf.xz"))
        .collect();
    assert_eq!(packed.len(), first.len());
    let md = fs::read_to_string(pack.join("DESCRIPTION.md")).unwrap();
    for needle in [
        "## Selection by hardness",
        "undecided.sh",
        "| comp | 16 | 5 | 0 | 0 | 0 | 11 |",
        "CC BY 4.0",
        "Author: A. Author.",
        "![Instances solved against seconds, per solver](cactus.svg)",
        "queens-sat suite tiny.suite --select",
    ] {
        assert!(md.contains(needle), "{needle:?} not in\n{md}");
    }
    for row in rows.iter().filter(|r| r["selection"] == "kept") {
        assert!(
            md.contains(&format!("`{}`", row["gbdhash"])),
            "{}",
            row["gbdhash"]
        );
    }
    let html = fs::read_to_string(pack.join("description.html")).unwrap();
    assert!(html.contains("<h2>Selection by hardness</h2>") && html.contains("<table>"));
    let tex = fs::read_to_string(pack.join("description.tex")).unwrap();
    assert!(tex.starts_with("\\documentclass[conference]{IEEEtran}"));
    assert!(tex.contains("\\IEEEauthorblockN{A. Author}"));
    let json: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(pack.join("instances.json")).unwrap()).unwrap();
    for row in json.as_array().unwrap() {
        assert_eq!(row["budget_result"], "unknown");
        assert_eq!(row["budget_limit"], 30.0);
    }
    let cactus = fs::read_to_string(pack.join("cactus.svg")).unwrap();
    assert!(cactus.contains("undecided.sh, 30 s limit"));

    // A re-run runs nothing again and keeps the same files.
    let lines = fs::read_to_string(out.join("selection.jsonl")).unwrap();
    assert_eq!(lines.lines().count(), 11);
    let r = run_expect(dir, &select_args(budget, "5", "7"), 0);
    assert!(r.stderr.contains("ran 0 in"), "{}", r.stderr);
    assert_eq!(runs(dir), 11);
    assert_eq!(
        fs::read_to_string(out.join("selection.jsonl")).unwrap(),
        lines
    );
    assert_eq!(kept(&manifest(&out.join("manifest.csv"))).0, first);

    // A run killed while writing its last line: that instance (only) runs again.
    let cut = lines.len() - 20;
    fs::write(out.join("selection.jsonl"), &lines[..cut]).unwrap();
    let r = run_expect(dir, &select_args(budget, "5", "7"), 0);
    assert!(
        r.stderr.contains("dropping an unfinished last line"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("ran 1 in"), "{}", r.stderr);
    assert_eq!(runs(dir), 12);
    assert_eq!(kept(&manifest(&out.join("manifest.csv"))).0, first);

    // The draw depends on the seed only: another seed, then this one again.
    let seeds: BTreeSet<BTreeSet<String>> = (0..6)
        .map(|seed| {
            let seed = seed.to_string();
            run_expect(dir, &select_args(budget, "5", &seed), 0);
            let (names, sat, unsat) = kept(&manifest(&out.join("manifest.csv")));
            assert_eq!((sat, unsat), (want_sat, want_unsat));
            names
        })
        .collect();
    assert!(seeds.len() > 1, "six seeds drew one set");
    run_expect(dir, &select_args(budget, "5", "7"), 0);
    assert_eq!(kept(&manifest(&out.join("manifest.csv"))).0, first);
    assert_eq!(runs(dir), 12, "a new seed or quota runs no solver");
}

#[test]
fn a_budget_run_past_its_limit_is_undecided() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    fs::write(
        dir.join("tiny.suite"),
        "family c\nn 8\ngenerator completion m=2\nseeds 1..2\n",
    )
    .unwrap();
    let sleeper = script(dir, "sleeper.sh", "#!/bin/sh\nexec sleep 1000\n");
    let args = [
        "suite",
        "tiny.suite",
        "--select",
        "--budget-solver",
        sleeper.to_str().unwrap(),
        "--budget-limit",
        "0.2",
        "--per-family",
        "1",
    ];
    run_expect(dir, &args, 0);
    let rows = manifest(&dir.join("cnf-out/tiny/manifest.csv"));
    assert_eq!(rows.len(), 2);
    for row in &rows {
        assert_eq!(row["budget_status"], "UNKNOWN");
        assert_eq!(row["limit"], "3600.0", "the reference's default limit");
        let secs: f64 = row["budget_seconds"].parse().unwrap();
        assert!(secs >= 0.2, "{secs}");
    }
    assert_eq!(kept(&rows).0.len(), 1);
}

#[test_programs::requires(minisat)]
#[test]
fn minisat_easy_instances_are_dropped() {
    crate::common::require_solver("minisat");
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    fs::write(dir.join("tiny.suite"), TINY).unwrap();
    let r = run_expect(
        dir,
        &["suite", "tiny.suite", "--select", "--budget-limit", "60"],
        0,
    );
    let rows = manifest(&dir.join("cnf-out/tiny/manifest.csv"));
    for row in rows.iter().filter(|r| r["skipped"].is_empty()) {
        // MiniSat decides an 8x8 completion at once: every file is easy, and its answer is
        // the oracle's (a SAT model was checked against the file's header).
        assert_eq!(row["selection"], "easy", "{row:?}");
        assert_eq!(row["budget_solver"], "minisat");
        assert!(row["status"].is_empty(), "the reference did not run");
    }
    assert!(
        r.stderr
            .contains("11 easy, 0 too hard, 0 passed; kept 0 (SAT 0 UNSAT 0), 20 short of 20"),
        "{}",
        r.stderr
    );
}

#[test]
fn a_total_balances_the_whole_selection() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    fs::write(
        dir.join("tiny.suite"),
        "family a\nn 8\ngenerator completion m=1..2\nseeds 1..4\n\
         family b\nn 8\ngenerator completion m=3..4\nseeds 1..4\n",
    )
    .unwrap();
    let budget = undecided_solver(dir);
    let budget = budget.to_str().unwrap();
    for total in ["3", "7", "40"] {
        let mut args = select_args(budget, "20", "1");
        args.extend(["--total", total]);
        let r = run_expect(dir, &args, 0);
        let rows = manifest(&dir.join("cnf-out/tiny/manifest.csv"));
        let passed: Vec<_> = rows
            .iter()
            .filter(|r| ["kept", "not-chosen"].contains(&r["selection"].as_str()))
            .collect();
        let all_sat = passed.iter().filter(|r| r["status"] == "SAT").count();
        let (_, sat, unsat) = kept(&rows);
        // As many as the total and the balance over both families allow.
        let (want_sat, want_unsat) = queens_sat::suite::select::balanced(
            all_sat,
            passed.len() - all_sat,
            total.parse().unwrap(),
        );
        assert_eq!(sat + unsat, want_sat + want_unsat, "{}", r.stderr);
        assert!(sat.abs_diff(unsat) <= 2);
        assert!(
            r.stderr.contains(&format!(
                "kept {} of --total {total} (SAT {sat} UNSAT {unsat})",
                sat + unsat
            )),
            "{}",
            r.stderr
        );
    }
    let rows = manifest(&dir.join("cnf-out/tiny/manifest.csv"));
    let files = rows.iter().filter(|r| r["skipped"].is_empty()).count();
    assert!(files > 3);
    assert_eq!(
        runs(dir),
        files,
        "each file ran once, in the first selection"
    );
}

#[test]
fn bad_selection_options_are_one_line_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    fs::write(dir.join("tiny.suite"), TINY).unwrap();
    let base = ["suite", "tiny.suite", "--select"];
    let with = |extra: &[&'static str]| {
        let mut v = base.to_vec();
        v.extend_from_slice(extra);
        v
    };
    assert_one_line_error(
        dir,
        &with(&["--budget-solver", "/no/such/minisat"]),
        &["--budget-solver '/no/such/minisat'"],
    );
    assert_one_line_error(dir, &with(&["--budget-limit", "0"]), &["--budget-limit 0"]);
    assert_one_line_error(dir, &with(&["--budget-limit=-1"]), &["--budget-limit -1"]);
    assert_one_line_error(dir, &with(&["--per-family", "0"]), &["--per-family 0"]);
    assert_one_line_error(dir, &with(&["--total", "0"]), &["--total 0"]);
    assert!(
        !dir.join("cnf-out").exists(),
        "a refused selection wrote nothing"
    );
}

#[test]
fn a_counter_selects_by_its_time_and_records_the_count() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    fs::write(dir.join("tiny.suite"), TINY).unwrap();
    // Counts every file in at least 0.3 s (past the 0.1 s "easy" limit), the count 92 in the
    // Model Counting Competition's format; or at once (easy).
    let slow = script(
        dir,
        "slow-counter.sh",
        "#!/bin/sh\nsleep 0.3\necho 'c s type pmc'\necho 'c s exact arb int 92'\n",
    );
    let args = [
        "suite",
        "tiny.suite",
        "--select",
        "--counter",
        slow.to_str().unwrap(),
        "--budget-limit",
        "0.1",
        "--per-family",
        "4",
        "--pack",
        "pack",
    ];
    let r = run_expect(dir, &args, 0);
    let rows = manifest(&dir.join("cnf-out/tiny/manifest.csv"));
    let files: Vec<_> = rows.iter().filter(|r| r["skipped"].is_empty()).collect();
    for row in &files {
        assert_eq!(row["count"], "92");
        assert_eq!(row["status"], "SAT");
        assert!(row["budget_solver"].is_empty(), "no budget solver ran");
    }
    assert_eq!(kept(&rows).0.len(), 4, "{}", r.stderr);
    // Every file carries the model-counting track's header.
    for row in &files {
        let text = fs::read_to_string(dir.join("cnf-out/tiny").join(&row["file"])).unwrap();
        assert!(text.contains("\nc t pmc\nc p show "), "{}", row["file"]);
    }
    let md = fs::read_to_string(dir.join("pack/DESCRIPTION.md")).unwrap();
    assert!(
        md.contains("Model Counting Competition") && md.contains("| sat | 92 |"),
        "{md}"
    );
    let json = fs::read_to_string(dir.join("pack/instances.json")).unwrap();
    assert!(json.contains("\"count\": \"92\""), "{json}");
}
