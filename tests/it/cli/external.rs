//! External DIMACS solvers: solving, encode / run / decode round trips, time limits and lying solvers.

use super::*;

// ---------------------------------------------------------------------------------------------
// 6. External solvers
// ---------------------------------------------------------------------------------------------

#[test_programs::requires(cadical, minisat, picosat, cryptominisat5)]
#[test]
fn external_solvers_solve() {
    let dir = tempdir();
    let d = dir.path();
    for name in SOLVERS {
        require_solver(name);
        let r = run_expect(d, &["solve", "-n", "8", "--solver", name], 10);
        assert_solution(&r.stdout, 8, false);
        assert!(
            r.stderr.contains(name),
            "{name} named in summary: {}",
            r.stderr
        );
        let r = run_expect(d, &["solve", "-n", "3", "--solver", name], 20);
        assert_eq!(r.stdout.trim(), "UNSAT", "{name}");
        // JSON names the solver.
        let r = run_expect(
            d,
            &["solve", "-n", "8", "--solver", name, "--format", "json"],
            10,
        );
        let v: Value = serde_json::from_str(r.stdout.trim()).expect("JSON");
        assert_eq!(v["solver"], name);
        assert_eq!(v["status"], "SAT");
    }
}

#[test_programs::requires(cadical, minisat, picosat, cryptominisat5)]
#[test]
fn external_solvers_solve_instances() {
    let dir = tempdir();
    let d = dir.path();
    write(
        d,
        "comp.param",
        "letting n = 8\nletting init = [[0,0],[1,4]]\nletting blocks = [[8,8]]\n",
    );
    let mut cols = vec![usize::MAX; 8];
    cols[1] = 2;
    write(d, "b.txt", &board_text(8, &cols).replacen('.', "x", 1));
    let comp_blocked: BTreeSet<Cell> = [(7, 7)].into();
    let b_blocked: BTreeSet<Cell> = [(0, 0)].into();
    for name in SOLVERS {
        require_solver(name);
        for presolve in [&[][..], &["--no-presolve"][..]] {
            let mut extra = vec!["--solver", name];
            extra.extend_from_slice(presolve);
            solve_and_verify_instance(d, "comp.param", &extra, 8, &[(0, 0), (1, 4)], &comp_blocked);
            solve_and_verify_instance(d, "b.txt", &extra, 8, &[(1, 2)], &b_blocked);
        }
        let r = run_expect(
            d,
            &["solve", "-n", "10", "--piece", "amazon", "--solver", name],
            10,
        );
        assert_solution(&r.stdout, 10, true);
    }
}

#[test_programs::requires(cadical, minisat, picosat, cryptominisat5)]
#[test]
fn external_solvers_encode_run_decode() {
    let dir = tempdir();
    let d = dir.path();
    write(
        d,
        "comp.param",
        "letting n = 8\nletting init = [[0,0],[1,4]]\n",
    );
    write(
        d,
        "unsat.param",
        "letting n = 8\nletting init = [[0,0],[3,3]]\n",
    );
    run_expect(d, &["encode", "-n", "8", "-o", "plain.cnf"], 0);
    run_expect(d, &["encode", "-n", "3", "-o", "three.cnf"], 0);
    run_expect(
        d,
        &["encode", "--instance", "comp.param", "-o", "comp.cnf"],
        0,
    );
    run_expect(
        d,
        &["encode", "--instance", "unsat.param", "-o", "unsat.cnf"],
        0,
    );
    write(
        d,
        "diags.txt",
        "n = 8\nnumdiags = 3\ndiags = [[7,1],[7,0],[3,1]]\n",
    );
    run_expect(
        d,
        &[
            "encode",
            "--instance",
            "diags.txt",
            "--diags",
            "2",
            "-o",
            "diags.cnf",
        ],
        0,
    );
    let diag_blocked: BTreeSet<Cell> = (0..8)
        .flat_map(|r| (0..8).map(move |c| (r, c)))
        .filter(|&(r, c)| r + c == 7 || r == c)
        .collect();
    let comp = fs::read_to_string(d.join("comp.cnf")).unwrap();
    assert!(
        !comp.lines().any(|l| l == "c cells rowmajor"),
        "the completion instance must use a presolved (non-row-major) variable map"
    );

    for name in SOLVERS {
        require_solver(name);
        // (cnf, expected solver/decode exit code, pre-placed queens, x cells)
        let none = BTreeSet::new();
        let cases: [(&str, i32, &[Cell], &BTreeSet<Cell>); 5] = [
            ("plain.cnf", 10, &[], &none),
            ("comp.cnf", 10, &[(0, 0), (1, 4)], &none),
            ("diags.cnf", 10, &[], &diag_blocked),
            ("three.cnf", 20, &[], &none),
            ("unsat.cnf", 20, &[], &none),
        ];
        for (cnf, code, placed, blocked) in cases {
            let out = format!("{name}-{cnf}.out");
            let solver_code = run_solver(d, name, cnf, &out);
            assert_eq!(solver_code, code, "{name} on {cnf}: solver exit code");
            let r = run_expect(d, &["decode", "--cnf", cnf, "--model", &out], code);
            if code == 10 {
                let b = assert_solution(&r.stdout, 8, false);
                for p in placed {
                    assert!(b.queens.contains(p), "{name} {cnf}: pre-placed {p:?} kept");
                }
                assert_eq!(&b.blocked, blocked, "{name} {cnf}: x cells");
                // The decoded board passes verify against the instance it came from.
                let board = format!("{name}-{cnf}.board");
                write(d, &board, &r.stdout);
                match cnf {
                    "comp.cnf" => {
                        run_expect(d, &["verify", &board, "--instance", "comp.param"], 0);
                    }
                    "diags.cnf" => {
                        let args = ["verify", &board, "--instance", "diags.txt", "--diags", "2"];
                        run_expect(d, &args, 0);
                    }
                    _ => {
                        run_expect(d, &["verify", &board], 0);
                    }
                }
            } else {
                assert_eq!(r.stdout.trim(), "UNSAT", "{name} {cnf}");
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 7. Timeouts and lying solvers
// ---------------------------------------------------------------------------------------------

/// The state letter of a live process, or `None` when it no longer exists.
fn process_state(pid: u32) -> Option<char> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // "pid (comm) S ..."; comm may contain spaces, so split after the last ')'.
    stat.rsplit_once(')')?.1.trim_start().chars().next()
}

#[test]
fn timeout_kills_a_hanging_solver() {
    let dir = tempdir();
    let d = dir.path();
    // The solver's child records its pid: it must not outlive the time limit either.
    write_executable(
        d,
        "fake.sh",
        "#!/bin/sh\nsleep 100 &\necho $! > sleep.pid\nwait\n",
    );
    let t0 = Instant::now();
    let r = run(
        d,
        &[
            "solve",
            "-n",
            "8",
            "--solver",
            "./fake.sh",
            "--timeout",
            "1",
        ],
    );
    let elapsed = t0.elapsed();

    // SIGKILL is delivered asynchronously: on a loaded machine the killed process may not have
    // been scheduled to die yet when `solve` returns, so give it a bounded moment to do so.
    let alive = |pid: u32| process_state(pid).is_some_and(|s| s != 'Z' && s != 'X');
    let leaked = fs::read_to_string(d.join("sleep.pid"))
        .ok()
        .and_then(|s| s.trim().parse::<u32>().ok())
        .filter(|&pid| {
            let until = Instant::now() + HANG_GUARD;
            while alive(pid) && Instant::now() < until {
                std::thread::sleep(Duration::from_millis(20));
            }
            alive(pid)
        });
    if let Some(pid) = leaked {
        // Clean up the one process this test started, by its id, before failing.
        let _ = Command::new("kill").arg("-9").arg(pid.to_string()).status();
        panic!("the solver's child process {pid} survived the time limit");
    }
    assert!(
        d.join("sleep.pid").exists(),
        "the fake solver never ran (no sleep.pid)"
    );
    assert_eq!(r.code, 1, "UNKNOWN is exit 1\n{r:?}");
    assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
    assert!(
        elapsed < HANG_GUARD,
        "took {elapsed:?} for a 1 s time limit"
    );
    assert!(
        elapsed >= Duration::from_millis(900),
        "returned too early: {elapsed:?}"
    );
    assert_eq!(r.stdout.trim(), "UNKNOWN", "{r:?}");
    assert!(
        r.stderr.contains("UNKNOWN") && r.stderr.contains("time limit of 1 s"),
        "stderr names the time limit: {}",
        r.stderr
    );

    // JSON: status UNKNOWN with the reason.
    let r = run(
        d,
        &[
            "solve",
            "-n",
            "8",
            "--solver",
            "./fake.sh",
            "--timeout",
            "1",
            "--format",
            "json",
        ],
    );
    assert_eq!(r.code, 1);
    let v: Value = serde_json::from_str(r.stdout.trim()).expect("JSON");
    assert_eq!(v["status"], "UNKNOWN");
    assert!(v["board"].is_null() && v["queens"].is_null(), "{v}");
    assert!(
        v["reason"]
            .as_str()
            .is_some_and(|s| s.contains("time limit")),
        "{v}"
    );
}

#[test]
fn lying_solver_model_is_rejected() {
    let dir = tempdir();
    let d = dir.path();
    write_executable(
        d,
        "liar.sh",
        "#!/bin/sh\necho 's SATISFIABLE'\necho 'v 1 2 3 0'\nexit 10\n",
    );
    let msg = assert_one_line_error(
        d,
        &["solve", "-n", "8", "--solver", "./liar.sh"],
        &["liar.sh", "not a solution"],
    );
    assert!(!msg.contains('Q'), "{msg}");
    // Same through decode: a hand-written model that is not a solution.
    run_expect(d, &["encode", "-n", "8", "-o", "q8.cnf"], 0);
    write(d, "liar.out", "s SATISFIABLE\nv 1 2 3 0\n");
    assert_one_line_error(
        d,
        &["decode", "--cnf", "q8.cnf", "--model", "liar.out"],
        &["liar.out", "not a solution"],
    );
}

#[test]
fn timeout_applies_to_the_builtin_solver() {
    let dir = tempdir();
    // Encoding a 300x300 board alone takes far longer than 1 ms (a named CNF solver: the
    // default strategy builds a plain board at once).
    let t0 = Instant::now();
    let r = run(
        dir.path(),
        &[
            "solve",
            "-n",
            "300",
            "--solver",
            "varisat",
            "--timeout",
            "0.001",
        ],
    );
    assert_eq!(r.code, 1, "{r:?}");
    assert_eq!(r.stdout.trim(), "UNKNOWN");
    assert!(r.stderr.contains("time limit"), "{}", r.stderr);
    assert!(t0.elapsed() < HANG_GUARD, "{:?}", t0.elapsed());
}
