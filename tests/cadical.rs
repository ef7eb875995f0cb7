//! The linked CaDiCaL and Kissat backends (`--solver lib:cadical`, `lib:kissat`) end to end; their verdicts against the
//! brute-force oracle are in tests/oracle.rs.

mod common;

/// `--solver lib:cadical` (CaDiCaL linked in): a verified board, a certified UNSAT, the time
/// limit honoured on a hard instance, and a portfolio with varisat.
#[test]
fn cli_lib_cadical() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let r = common::run_expect(d, &["solve", "-n", "30", "--solver", "lib:cadical"], 10);
    assert_eq!(r.stdout.lines().count(), 30);
    let r = common::run_expect(
        d,
        &[
            "solve",
            "-n",
            "3",
            "--solver",
            "lib:cadical",
            "--certify",
            "--format",
            "json",
        ],
        20,
    );
    assert!(
        r.stdout
            .contains("\"certified\":\"DRAT proof checked by dratify\""),
        "{}",
        r.stdout
    );
    // A hard blocked 56-queens instance (seed 18 is UNSAT; CaDiCaL 2.1.3 alone needs ~44 s on the
    // 2-core CI machine, seed 1 only ~1 s, which made an earlier 1 s limit flaky): UNKNOWN after
    // a 0.5 s limit.
    common::run_expect(
        d,
        &[
            "generate",
            "blocked",
            "-n",
            "56",
            "-m",
            "2734",
            "--min-free",
            "1",
            "--seed",
            "18",
            "--format",
            "board",
            "-o",
            "hard.txt",
        ],
        0,
    );
    let t = std::time::Instant::now();
    let r = common::run_expect(
        d,
        &[
            "solve",
            "--instance",
            "hard.txt",
            "--solver",
            "lib:cadical",
            "--timeout",
            "0.5",
        ],
        1,
    );
    assert!(r.stdout.starts_with("UNKNOWN"), "{}", r.stdout);
    assert!(
        t.elapsed() < std::time::Duration::from_secs(5),
        "{:?}",
        t.elapsed()
    );
    let r = common::run_expect(
        d,
        &[
            "solve",
            "-n",
            "40",
            "--solver",
            "varisat,lib:cadical",
            "--format",
            "json",
        ],
        10,
    );
    assert!(r.stdout.contains("portfolio winner"), "{}", r.stdout);
}

/// `--solver lib:kissat` (Kissat linked in): a verified board, UNSAT, the time limit honoured on
/// a hard instance (blocked n=56 seed 18: Kissat alone ~37 s), a portfolio with varisat, and
/// `--certify` refused (no proof tracing).
#[test]
fn cli_lib_kissat() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let r = common::run_expect(d, &["solve", "-n", "30", "--solver", "lib:kissat"], 10);
    assert_eq!(r.stdout.lines().count(), 30);
    common::run_expect(d, &["solve", "-n", "3", "--solver", "lib:kissat"], 20);
    common::run_expect(
        d,
        &[
            "generate",
            "blocked",
            "-n",
            "56",
            "-m",
            "2734",
            "--min-free",
            "1",
            "--seed",
            "18",
            "--format",
            "board",
            "-o",
            "hard.txt",
        ],
        0,
    );
    let t = std::time::Instant::now();
    let r = common::run_expect(
        d,
        &[
            "solve",
            "--instance",
            "hard.txt",
            "--solver",
            "lib:kissat",
            "--timeout",
            "0.05",
        ],
        1,
    );
    assert!(r.stdout.starts_with("UNKNOWN"), "{}", r.stdout);
    assert!(
        t.elapsed() < std::time::Duration::from_secs(5),
        "{:?}",
        t.elapsed()
    );
    let r = common::run_expect(
        d,
        &[
            "solve",
            "-n",
            "40",
            "--solver",
            "varisat,lib:kissat",
            "--format",
            "json",
        ],
        10,
    );
    assert!(r.stdout.contains("portfolio winner"), "{}", r.stdout);
    common::assert_one_line_error(
        d,
        &["solve", "-n", "3", "--solver", "lib:kissat", "--certify"],
        &["--certify", "lib:kissat"],
    );
}
