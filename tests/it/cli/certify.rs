//! `--certify`, and the memory check before an in-process solve.

use super::*;

/// With the available memory stated (`QUEENS_SAT_AVAILABLE_MEMORY`, the same figure on every
/// host), an in-process solve that needs more is refused up front with a one-line error, and
/// one that fits runs.
#[test]
fn oversized_in_process_solve_is_refused_up_front() {
    let dir = tempdir();
    let with_memory = |bytes: &str, args: &[&str]| {
        std::process::Command::new(common::BIN)
            .args(args)
            .current_dir(dir.path())
            .env(queens_sat::solve::MEMORY_ENV, bytes)
            .output()
            .unwrap()
    };
    // Pairwise 200-queens: 13.3 M clauses, about 217 MB by the estimate.
    let args = [
        "solve", "-n", "200", "--amo", "pairwise", "--solver", "varisat",
    ];
    let t = std::time::Instant::now();
    let out = with_memory("100000000", &args);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(out.stdout.is_empty());
    assert_eq!(err.lines().count(), 1, "{err}");
    for needle in ["needs an estimated", "GB", "only 0.1 GB is available"] {
        assert!(err.contains(needle), "{needle}: {err}");
    }
    assert!(
        t.elapsed() < HANG_GUARD,
        "refusal must come before any allocation: {err}"
    );
    let out = with_memory("1000000000000", &args);
    assert_eq!(
        out.status.code(),
        Some(10),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn certified_unsat() {
    let dir = tempdir();
    let r = run_expect(
        dir.path(),
        &["solve", "-n", "3", "--certify", "--solver", "varisat"],
        20,
    );
    assert!(
        r.stderr.contains("certified: varisat self-checking"),
        "{}",
        r.stderr
    );
    // The default races varisat and the linked CaDiCaL: either winner certifies.
    let r = run_expect(dir.path(), &["solve", "-n", "3", "--certify"], 20);
    assert!(r.stderr.contains("certified: "), "{}", r.stderr);
    // Presolve's UNSAT (two pre-placed queens on a diagonal) is re-proved on the full encoding.
    let inst = write(dir.path(), "diag.txt", "Q...\n.Q..\n....\n....\n");
    let r = run_expect(
        dir.path(),
        &["solve", "--instance", inst.to_str().unwrap(), "--certify"],
        20,
    );
    assert!(r.stderr.contains("certified"), "{}", r.stderr);
    // A solver that claims UNSAT with a bogus proof: an error, never an UNSAT.
    let liar = write_executable(
        dir.path(),
        "cadical-liar",
        "#!/bin/sh\n# args: --no-binary CNF PROOF\necho '1 0' > \"$3\"\necho '0' >> \"$3\"\necho 's UNSATISFIABLE'\nexit 20\n",
    );
    let msg = assert_one_line_error(
        dir.path(),
        &[
            "solve",
            "-n",
            "8",
            "--solver",
            liar.to_str().unwrap(),
            "--certify",
        ],
        &["proof rejected (drat)", "does not check"],
    );
    assert!(!msg.contains("UNSAT\n"));
}

/// cadical's DRAT proof of an UNSAT answer is checked.
#[test_programs::requires(cadical)]
#[test]
fn certified_unsat_by_cadical() {
    require_solver("cadical");
    let dir = tempdir();
    let r = run_expect(
        dir.path(),
        &[
            "solve",
            "-n",
            "9",
            "--piece",
            "amazon",
            "--solver",
            "cadical",
            "--certify",
            "--format",
            "json",
        ],
        20,
    );
    let v: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap();
    assert_eq!(v["certified"], "DRAT proof checked by dratify");
}

/// minisat writes no DRAT proof: `--certify` with it is a one-line error naming DRAT.
#[test_programs::requires(minisat)]
#[test]
fn certify_refuses_a_solver_without_drat() {
    require_solver("minisat");
    let dir = tempdir();
    assert_one_line_error(
        dir.path(),
        &["solve", "-n", "3", "--solver", "minisat", "--certify"],
        &["DRAT"],
    );
}

/// `--proof-format` picks the certified bitboard search's proof: `veripb` certifies with the
/// VeriPB checker (no file kept without `--proof`), `lrat` with the LRAT one, on the same
/// UNSAT instance (3 queens). A format without `--certify`, an unknown one, or one the
/// `--proof` file's name contradicts is a one-line error.
#[test]
fn proof_format_picks_the_certificate() {
    let dir = tempdir();
    for (format, checker) in [("veripb", "VeriPB"), ("lrat", "LRAT")] {
        let r = run_expect(
            dir.path(),
            &[
                "solve",
                "-n",
                "3",
                "--certify",
                "--proof-format",
                format,
                "--solver",
                "bitboard",
                "--format",
                "json",
            ],
            20,
        );
        let v: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap();
        let certified = v["certified"].as_str().unwrap_or_default();
        assert!(certified.contains(checker), "{format}: {certified}");
    }
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "no proof file is left without --proof"
    );
    assert_one_line_error(
        dir.path(),
        &[
            "solve",
            "-n",
            "3",
            "--certify",
            "--proof-format",
            "lrat",
            "--proof",
            "p.pbp",
        ],
        &["--proof-format", "p.pbp"],
    );
    assert_one_line_error(
        dir.path(),
        &["solve", "-n", "3", "--certify", "--proof-format", "drat"],
        &["--proof-format", "drat", "lrat, veripb"],
    );
    assert_one_line_error(
        dir.path(),
        &["solve", "-n", "3", "--proof-format", "veripb"],
        &["--proof-format", "needs certify"],
    );
}
