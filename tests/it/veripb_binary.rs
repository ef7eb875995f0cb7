//! The independent check of issue 46: the `veripb` binary (installed by `.ci/run` with
//! `cargo install veripb --locked`), not queens-sat's own checker, verifies the proof that
//! `solve --certify --proof FILE.pbp` keeps for a frontier n = 22 instance, against the model
//! `encode --to opb` writes; the same proof with one hint dropped fails.

use std::path::Path;
use std::process::Command;

use crate::common::{BIN, require_solver};

/// Runs `veripb model proof`; its exit status and its output.
fn veripb(model: &Path, proof: &Path) -> (bool, String) {
    let out = Command::new("veripb")
        .arg(model)
        .arg(proof)
        .output()
        .expect("veripb runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

/// `diag-n22-d23-s16` of the frontier set (`encodings/frontier.suite`): UNSAT, and among the
/// set's n = 22 UNSAT instances the one with the smallest proof (about 10 MB).
#[test_programs::requires(veripb)]
#[test]
fn the_veripb_binary_verifies_a_frontier_n22_proof() {
    require_solver("veripb");
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("d16.txt");
    let (model, proof) = (dir.path().join("m.opb"), dir.path().join("p.pbp"));
    let run = |args: &[&str]| {
        let out = Command::new(BIN)
            .args(args)
            .output()
            .expect("queens-sat runs");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (list, model, proof) = (
        list.to_str().unwrap(),
        model.to_str().unwrap(),
        proof.to_str().unwrap(),
    );
    let (code, err) = run(&[
        "generate",
        "diagonals",
        "-n",
        "22",
        "--min-free",
        "1",
        "--seed",
        "16",
        "-o",
        list,
    ]);
    assert_eq!(code, Some(0), "{err}");
    let instance = ["--diags", "23", "--instance", list];
    let (code, err) = run(&[&["solve", "--certify", "--proof", proof][..], &instance].concat());
    assert_eq!(code, Some(20), "{err}");
    assert!(err.contains("VeriPB"), "{err}");
    assert!(!err.contains("no proof written"), "{err}");
    let (code, err) = run(&[&["encode", "--to", "opb", "-o", model][..], &instance].concat());
    assert_eq!(code, Some(0), "{err}");
    let (model, proof) = (Path::new(model), Path::new(proof));

    let (ok, text) = veripb(model, proof);
    assert!(ok, "{text}");
    assert!(text.contains("VERIFIED UNSATISFIABLE"), "{text}");

    // One hint dropped from the last lemma that has two or more: veripb refuses the proof.
    let body = std::fs::read_to_string(proof).unwrap();
    let mut lines: Vec<String> = body.lines().map(str::to_string).collect();
    let at = lines
        .iter()
        .rposition(|l| {
            l.starts_with("rup ")
                && l.split(" : ")
                    .nth(1)
                    .is_some_and(|h| h.split(' ').count() >= 3)
        })
        .expect("a hinted lemma");
    let (head, hints) = lines[at].split_once(" : ").unwrap();
    let kept: Vec<&str> = hints.trim_end_matches(" ;").split(' ').skip(1).collect();
    lines[at] = format!("{head} : {} ;", kept.join(" "));
    let bad = dir.path().join("bad.pbp");
    std::fs::write(&bad, format!("{}\n", lines.join("\n"))).unwrap();
    let (ok, text) = veripb(model, &bad);
    assert!(!ok && !text.contains("VERIFIED UNSATISFIABLE"), "{text}");
}
