//! Full disks, portfolios, `bench hard --quick` and cube-and-conquer with lex-leader constraints.

use super::*;

#[test]
fn full_disk_and_unwritable_targets_keep_the_old_file() {
    let dir = tempdir();
    let target = dir.path().join("t.cnf");
    std::fs::write(&target, "old\n").unwrap();
    // A file-size limit stands in for a full disk: the write fails part-way.
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -f 200; exec {BIN} encode -n 300 --amo pairwise -o t.cnf"
        ))
        .current_dir(dir.path())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("t.cnf") && err.contains("too large"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "old\n");
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    // A folder nobody can create files in (even root): /proc.
    assert_one_line_error(
        dir.path(),
        &["encode", "-n", "8", "-o", "/proc/q.cnf"],
        &["/proc"],
    );
}

#[test]
fn portfolio_race_first_verified_answer_wins_and_losers_stop() {
    let dir = tempdir();
    let pid_file = dir.path().join("child.pid");
    let hang = write_executable(
        dir.path(),
        "hang.sh",
        &format!(
            "#!/bin/sh\nsleep 1000 &\necho $! > {}\nwait\n",
            pid_file.display()
        ),
    );
    let liar = write_executable(
        dir.path(),
        "liar.sh",
        "#!/bin/sh\necho 's SATISFIABLE'\necho 'v 1 2 3 0'\nexit 10\n",
    );
    // The winner needs a moment (200-queens), so the loser has surely started its child.
    let solvers = format!(
        "{},{},varisat --amo product",
        hang.display(),
        liar.display()
    );
    let t = std::time::Instant::now();
    let r = run_expect(
        dir.path(),
        &[
            "solve", "-n", "200", "--solver", &solvers, "--format", "json",
        ],
        10,
    );
    assert!(t.elapsed() < HANG_GUARD);
    let v: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap();
    assert_eq!(v["solver"], "portfolio winner: varisat --amo product");
    assert_eq!(v["amo"], "product");
    let board: Vec<String> = v["board"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().to_string())
        .collect();
    assert_solution(&(board.join("\n") + "\n"), 200, false);
    // The hanging solver's process group is gone.
    common::assert_pid_file_process_gone(&pid_file);
    // UNSAT races too; a bad entry is a usage error.
    run_expect(
        dir.path(),
        &[
            "solve",
            "-n",
            "3",
            "--solver",
            "varisat --amo sequential,varisat --amo product",
        ],
        20,
    );
    assert_one_line_error(
        dir.path(),
        &["solve", "-n", "8", "--solver", "varisat --amo"],
        &["--solver 'varisat --amo' has an entry 'varisat --amo' that is not a solver name"],
    );
}

#[test_programs::requires(cadical)]
#[test]
fn bench_hard_quick_runs_and_cross_checks() {
    require_solver("cadical");
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("runs.csv");
    let r = run_expect(
        dir.path(),
        &[
            "bench",
            "hard",
            "--quick",
            "--amo",
            "pairwise,commander",
            "--solvers",
            "cadical",
            "--timeout",
            "60",
            "--jobs",
            "2",
            "--portfolio",
            "varisat --amo pairwise,cadical --amo product",
            "--csv",
            csv.to_str().unwrap(),
        ],
        0,
    );
    // 12 instances (blocked n = 28, 48; diagonals n = 12..15 direct and reduced) x 2 encodings
    // + 1 portfolio.
    assert!(
        r.stdout.contains("12 instances x 3 configurations"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("| cadical commander (csplib baseline) |"),
        "{}",
        r.stdout
    );
    for family in ["blocked n=28", "diagonals n=15", "diag->completion n=12"] {
        assert!(
            r.stdout.contains(&format!("| {family} ")),
            "{family}: {}",
            r.stdout
        );
    }
    // Every configuration is ranked with all 12 runs solved, and the winner is one of them
    // (which one depends on the machine's timing, so it is not checked).
    let labels = [
        "cadical pairwise",
        "cadical commander (csplib baseline)",
        "portfolio [varisat --amo pairwise,cadical --amo product]",
    ];
    for label in labels {
        let row = r
            .stdout
            .lines()
            .find(|l| l.starts_with(&format!("| {label} |")));
        assert!(
            row.is_some_and(|row| row.contains(" 12/12 | ")),
            "{label}: {}",
            r.stdout
        );
    }
    let winners: Vec<&str> = r
        .stdout
        .lines()
        .filter_map(|l| l.strip_prefix("Winner: "))
        .collect();
    assert!(
        matches!(winners.as_slice(), [w] if labels.contains(w)),
        "{winners:?}: {}",
        r.stdout
    );
    // The CSV parses (the portfolio's commas are quoted): 8 fields per row, 36 runs.
    let mut reader = csv::Reader::from_path(&csv).unwrap();
    assert_eq!(
        reader.headers().unwrap(),
        vec![
            "instance", "group", "n", "seed", "solver", "amo", "status", "seconds"
        ]
    );
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 36);
    let portfolio_rows = rows
        .iter()
        .filter(|r| &r[4] == "varisat --amo pairwise,cadical --amo product")
        .count();
    assert_eq!(portfolio_rows, 12, "one row per instance for the portfolio");
    // Every run answered, and a reduced instance has the answer of its source.
    for row in &rows {
        assert_eq!(row.len(), 8, "{row:?}");
        assert!(&row[6] == "SAT" || &row[6] == "UNSAT", "{row:?}");
        assert!(row[7].parse::<f64>().is_ok(), "{row:?}");
    }
    let answer = |name: &str| {
        rows.iter()
            .find(|r| &r[0] == name)
            .map(|r| &r[6] == "SAT")
            .unwrap()
    };
    for n in 12..=15 {
        let d = [(12, 6), (13, 8), (14, 12), (15, 10)]
            .iter()
            .find(|x| x.0 == n)
            .unwrap()
            .1;
        let direct = format!("diag-n{n}-d{d}-s1");
        assert_eq!(
            answer(&direct),
            answer(&format!("{direct}-completion")),
            "{direct}"
        );
    }
    // A bad encoding name is a one-line usage error before any run.
    let r = run_expect(dir.path(), &["bench", "hard", "--amo", "nope"], 1);
    assert!(r.stderr.contains("unknown --amo 'nope'"), "{}", r.stderr);
}

/// Regression (issue 26): `solve --cubes --break-symmetry lex` is accepted, answers the
/// lex-leader board of its class (checked here with the verifier's own lex test), and the
/// summary names the cube solver.
#[test]
fn solve_cubes_with_lex_leader_constraints() {
    use queens_sat::board::{self, Board};
    use queens_sat::symmetry::Symmetry;
    use queens_sat::verify::verify_lex_leader;
    let dir = tempdir();
    for solver in ["varisat", "lib:cadical"] {
        let r = run_expect(
            dir.path(),
            &[
                "solve",
                "-n",
                "8",
                "--cubes",
                "--solver",
                solver,
                "--break-symmetry",
                "lex",
            ],
            10,
        );
        let d = assert_solution(&r.stdout, 8, false);
        let board = Board::new(
            8,
            d.queens
                .iter()
                .map(|&(r, c)| board::Cell::new(r as u32, c as u32))
                .collect(),
        );
        verify_lex_leader(&board, &Symmetry::ALL).unwrap();
        assert!(
            r.stderr.contains(&format!("solver={solver} cubes (")),
            "{}",
            r.stderr
        );
    }
    run_expect(
        dir.path(),
        &["solve", "-n", "3", "--cubes", "--break-symmetry", "lex"],
        20,
    );
}
