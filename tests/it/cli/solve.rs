//! `solve` on plain boards, its JSON output, and instance files (board text, csplib parameter files, excluded diagonals).

use super::*;

// ---------------------------------------------------------------------------------------------
// 1. solve: plain boards
// ---------------------------------------------------------------------------------------------

#[test]
fn solve_plain_8_prints_valid_board_exit_10() {
    let dir = tempdir();
    let r = run_expect(dir.path(), &["solve", "-n", "8"], 10);
    let d = assert_solution(&r.stdout, 8, false);
    assert!(d.blocked.is_empty(), "a plain board has no x cells");
    // The summary line on stderr, with the exact verdict ("UNSAT: ..." would not do).
    assert!(
        r.stderr.lines().any(|l| l.starts_with("SAT: ")),
        "summary on stderr: {}",
        r.stderr
    );
}

#[test]
fn solve_unsat_sizes_exit_20() {
    let dir = tempdir();
    for n in ["2", "3"] {
        let r = run_expect(dir.path(), &["solve", "-n", n], 20);
        assert_eq!(r.stdout.trim(), "UNSAT", "-n {n}");
    }
    // n = 1 is the smallest satisfiable board.
    let r = run_expect(dir.path(), &["solve", "-n", "1"], 10);
    assert_eq!(r.stdout, "Q\n");
}

#[test]
fn solve_amazons() {
    let dir = tempdir();
    let r = run_expect(dir.path(), &["solve", "-n", "10", "--piece", "amazon"], 10);
    let d = assert_solution(&r.stdout, 10, true);
    for (i, &a) in d.queens.iter().enumerate() {
        for &b in &d.queens[i + 1..] {
            assert!(!is_knight_move(a, b), "knight pair {a:?} {b:?}");
        }
    }
    let r = run_expect(dir.path(), &["solve", "-n", "9", "--piece", "amazon"], 20);
    assert_eq!(r.stdout.trim(), "UNSAT");
}

/// Every encoding through a CNF solver (the default strategy answers a plain board by the
/// construction and refuses `--amo` there: tests/it/ignored.rs).
#[test]
fn solve_every_amo_encoding() {
    let dir = tempdir();
    let d = dir.path();
    for amo in known_amos(d) {
        let amo = amo.as_str();
        for n in [1usize, 4, 5, 8, 12] {
            let ns = n.to_string();
            let r = run_expect(
                d,
                &["solve", "-n", &ns, "--amo", amo, "--solver", "varisat"],
                10,
            );
            assert_solution(&r.stdout, n, false);
        }
        for n in ["2", "3"] {
            let r = run_expect(
                d,
                &["solve", "-n", n, "--amo", amo, "--solver", "varisat"],
                20,
            );
            assert_eq!(r.stdout.trim(), "UNSAT", "--amo {amo} -n {n}");
        }
        let r = run_expect(
            d,
            &[
                "solve", "-n", "11", "--piece", "amazon", "--amo", amo, "--solver", "varisat",
            ],
            10,
        );
        assert_solution(&r.stdout, 11, true);
        for n in ["8", "9"] {
            run_expect(
                d,
                &[
                    "solve", "-n", n, "--piece", "amazon", "--amo", amo, "--solver", "varisat",
                ],
                20,
            );
        }
        for presolve in [&[][..], &["--no-presolve"][..]] {
            let mut args = vec!["solve", "-n", "8", "--amo", amo, "--solver", "varisat"];
            args.extend_from_slice(presolve);
            let r = run_expect(d, &args, 10);
            assert_solution(&r.stdout, 8, false);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 2. solve --format json
// ---------------------------------------------------------------------------------------------

#[test]
fn solve_json_fields_agree() {
    let dir = tempdir();
    let r = run_expect(dir.path(), &["solve", "-n", "8", "--format", "json"], 10);
    let lines: Vec<&str> = r.stdout.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 1, "one JSON object on stdout:\n{}", r.stdout);
    let v: Value = serde_json::from_str(lines[0]).expect("stdout is JSON");
    for key in [
        "status",
        "n",
        "piece",
        "amo",
        "solver",
        "queens",
        "board",
        "vars",
        "clauses",
        "encode_seconds",
        "solve_seconds",
    ] {
        assert!(v.get(key).is_some(), "missing key {key}: {v}");
    }
    assert_eq!(v["status"], "SAT");
    assert_eq!(v["n"], 8);
    assert_eq!(v["piece"], "queen");
    assert_eq!(v["amo"].as_str(), Some(default_amo(dir.path()).as_str()));
    // The default strategy (`--solver auto`): a plain board is built by the construction.
    assert_eq!(v["solver"], "construct", "{}", v["solver"]);
    let r = run_expect(
        dir.path(),
        &[
            "solve", "-n", "8", "--solver", "varisat", "--format", "json",
        ],
        10,
    );
    let w: Value = serde_json::from_str(r.stdout.trim()).expect("stdout is JSON");
    assert_eq!(w["solver"], "varisat");
    assert!(w["vars"].as_u64().unwrap() >= 64, "{w}");

    let queens: Vec<Cell> = v["queens"]
        .as_array()
        .expect("queens is an array")
        .iter()
        .map(|q| {
            let q = q.as_array().expect("queen is [r,c]");
            assert_eq!(q.len(), 2);
            (
                q[0].as_u64().unwrap() as usize,
                q[1].as_u64().unwrap() as usize,
            )
        })
        .collect();
    let mut sorted = queens.clone();
    sorted.sort();
    assert_eq!(queens, sorted, "queens sorted by row");
    let rows: Vec<String> = v["board"]
        .as_array()
        .expect("board is an array")
        .iter()
        .map(|s| s.as_str().expect("board row is a string").to_string())
        .collect();
    let text: String = rows.iter().map(|r| format!("{r}\n")).collect();
    let d = assert_solution(&text, 8, false);
    assert_eq!(d.queens, queens, "board and queens agree");

    let (vars, clauses) = stats(dir.path(), &["-n", "8"]);
    assert_eq!(v["vars"].as_u64(), Some(vars), "vars as in encode --stats");
    assert_eq!(
        v["clauses"].as_u64(),
        Some(clauses),
        "clauses as in encode --stats"
    );
    for key in ["encode_seconds", "solve_seconds"] {
        let s = v[key]
            .as_f64()
            .unwrap_or_else(|| panic!("{key} is a number"));
        assert!(s.is_finite() && (0.0..60.0).contains(&s), "{key} = {s}");
    }

    // --amo is reported as given.
    for amo in known_amos(dir.path()) {
        let r = run_expect(
            dir.path(),
            &[
                "solve", "-n", "6", "--amo", &amo, "--solver", "varisat", "--format", "json",
            ],
            10,
        );
        let v: Value = serde_json::from_str(r.stdout.trim()).expect("stdout is JSON");
        assert_eq!(v["amo"].as_str(), Some(amo.as_str()));
        let rows: String = v["board"]
            .as_array()
            .expect("board")
            .iter()
            .map(|s| format!("{}\n", s.as_str().unwrap()))
            .collect();
        assert_solution(&rows, 6, false);
    }

    // UNSAT: no board, null queens, exit 20.
    let r = run_expect(dir.path(), &["solve", "-n", "3", "--format", "json"], 20);
    let v: Value = serde_json::from_str(r.stdout.trim()).expect("stdout is JSON");
    assert_eq!(v["status"], "UNSAT");
    assert_eq!(v["n"], 3);
    assert!(v["queens"].is_null() && v["board"].is_null(), "{v}");
}

// ---------------------------------------------------------------------------------------------
// 3. Instance files
// ---------------------------------------------------------------------------------------------

#[test]
fn instance_board_text() {
    let dir = tempdir();
    let text = "# an 8x8 completion instance\n\
                Q . . . . . . .\n\
                . . . x . . . .\n\
                \n\
                # blocked corner below\n\
                . . . . . . . .\n\
                . . . . . . . .\n\
                . . . . . . . .\n\
                . . . . . . . .\n\
                . . . . . . . .\n\
                . . . . . . . x\n";
    write(dir.path(), "b.txt", text);
    let blocked: BTreeSet<Cell> = [(1, 3), (7, 7)].into();
    solve_and_verify_instance(dir.path(), "b.txt", &[], 8, &[(0, 0)], &blocked);
}

#[test]
fn instance_param_prob079_init() {
    let dir = tempdir();
    write(
        dir.path(),
        "init.param",
        "$ completion\nletting n = 8\nletting init = [[0,0],\n  [1, 4]]\n",
    );
    solve_and_verify_instance(
        dir.path(),
        "init.param",
        &[],
        8,
        &[(0, 0), (1, 4)],
        &BTreeSet::new(),
    );
}

#[test]
fn instance_param_prob080_blocks() {
    let dir = tempdir();
    write(
        dir.path(),
        "blocks.param",
        "language ESSENCE' 1.0\nletting n be 8\nletting blocks be [[1,1],[2,3]]\n",
    );
    // 1-based [1,1] and [2,3] are the 0-based cells (0,0) and (1,2).
    let blocked: BTreeSet<Cell> = [(0, 0), (1, 2)].into();
    solve_and_verify_instance(dir.path(), "blocks.param", &[], 8, &[], &blocked);
}

#[test]
fn instance_excluded_diagonals() {
    let dir = tempdir();
    write(
        dir.path(),
        "diags.txt",
        "n = 8\nnumdiags = 3\ndiags = [[7,1],[7,0],[3,1]]\n",
    );
    // With --diags 2 only [7,1] (r + c = 7) and [7,0] (r - c = 7 - (n-1) = 0) are excluded.
    let blocked: BTreeSet<Cell> = (0..8)
        .flat_map(|r| (0..8).map(move |c| (r, c)))
        .filter(|&(r, c)| r + c == 7 || r == c)
        .collect();
    let d = solve_and_verify_instance(dir.path(), "diags.txt", &["--diags", "2"], 8, &[], &blocked);
    // The third diagonal (r + c = 3) is not excluded by --diags 2; verify against all three
    // rejects the board exactly when it has a queen there.
    let on_third = d.queens.iter().any(|&(r, c)| r + c == 3);
    let r = run(
        dir.path(),
        &["verify", "diags.txt.solution", "--instance", "diags.txt"],
    );
    assert_eq!(r.code, if on_third { 1 } else { 0 }, "{}", r.stderr);

    // Without --diags all three are excluded, which leaves no solution (by the oracle).
    let blocked3: BTreeSet<Cell> = blocked
        .iter()
        .copied()
        .chain((0..=3).map(|r| (r, 3 - r)))
        .collect();
    assert!(oracle_sat(8, false, &blocked, &[]));
    assert!(!oracle_sat(8, false, &blocked3, &[]));
    assert!(on_third, "every solution with two diagonals uses the third");
    let r = run_expect(dir.path(), &["solve", "--instance", "diags.txt"], 20);
    assert_eq!(r.stdout.trim(), "UNSAT");
    // Only the first diagonal: still satisfiable, and the x cells follow.
    let blocked1: BTreeSet<Cell> = (0..8).map(|r| (r, 7 - r)).collect();
    assert!(oracle_sat(8, false, &blocked1, &[]));
    solve_and_verify_instance(
        dir.path(),
        "diags.txt",
        &["--diags", "1"],
        8,
        &[],
        &blocked1,
    );
}

#[test]
fn instance_unsat_exit_20() {
    let dir = tempdir();
    // Two pre-placed queens on one diagonal, as board text and as a param file.
    let mut cols = vec![usize::MAX; 8];
    cols[0] = 0;
    cols[3] = 3;
    write(dir.path(), "diag.txt", &board_text(8, &cols));
    write(
        dir.path(),
        "diag.param",
        "letting n = 8\nletting init = [[0,0],[3,3]]\n",
    );
    for file in ["diag.txt", "diag.param"] {
        let r = run_expect(dir.path(), &["solve", "--instance", file], 20);
        assert_eq!(r.stdout.trim(), "UNSAT", "{file}");
        let r = run_expect(
            dir.path(),
            &["solve", "--instance", file, "--no-presolve"],
            20,
        );
        assert_eq!(r.stdout.trim(), "UNSAT", "{file} --no-presolve");
    }
}

/// Issue 63: a portfolio whose entrants all run out of time names no winner (it printed
/// `portfolio winner: ...` for an UNKNOWN). Two solvers that never answer, a one-second limit.
#[test]
fn an_unknown_portfolio_names_no_winner() {
    let dir = tempdir();
    let d = dir.path();
    let sleeper = crate::common::sleeping_solver(d, &d.join("pid"));
    let solvers = format!("{0},{0}", sleeper.display());
    for format in ["text", "json"] {
        let r = run(
            d,
            &[
                "solve",
                "-n",
                "8",
                "--solver",
                &solvers,
                "--timeout",
                "1",
                "--format",
                format,
            ],
        );
        assert!(r.code != 10 && r.code != 20, "{}", r.stderr);
        let out = format!("{}{}", r.stdout, r.stderr);
        assert!(out.contains("UNKNOWN"), "{out}");
        assert!(!out.contains("winner:"), "{out}");
        assert!(out.contains("no winner"), "{out}");
    }
}

/// Issue 63: past the DIMACS variable limit (n = 46,341 plain: 2,263,537,673 variables with the
/// default encoding) the construction answers without a CNF, and JSON says so: `vars` and
/// `clauses` null with the reason, never a size of 0; below it, the size is the CNF's.
#[test]
fn json_size_is_null_with_a_reason_past_the_dimacs_limit() {
    let dir = tempdir();
    let d = dir.path();
    let r = run_expect(d, &["solve", "-n", "46341", "--format", "json"], 10);
    let v: Value = serde_json::from_str(r.stdout.trim()).unwrap();
    assert!(
        v["vars"].is_null() && v["clauses"].is_null(),
        "{}",
        v["vars"]
    );
    let why = v["size_omitted"].as_str().unwrap();
    assert!(
        why.contains("2263537673 variables exceed the DIMACS limit"),
        "{why}"
    );
    let r = run_expect(d, &["solve", "-n", "1000", "--format", "json"], 10);
    let v: Value = serde_json::from_str(r.stdout.trim()).unwrap();
    let stats = run_expect(
        d,
        &["encode", "-n", "1000", "--stats", "--format", "json"],
        0,
    );
    let s: Value = serde_json::from_str(stats.stdout.trim()).unwrap();
    assert_eq!((&v["vars"], &v["clauses"]), (&s["vars"], &s["clauses"]));
    assert!(v.get("size_omitted").is_none());
}
