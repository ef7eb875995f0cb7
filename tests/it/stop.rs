//! A varisat search that hits its time limit really stops: its thread ends, so a suite or a
//! portfolio does not keep a core busy with abandoned searches.
//!
//! The test runs again in a child process of the test binary that runs this test alone (the
//! other modules' tests share the binary and start threads of their own), so the child's
//! thread count is this test's alone.

use queens_sat::interrupt::{Cancel, HANG_GUARD};
use std::time::{Duration, Instant};

use crate::common::php;

use php::Pigeonhole;
use queens_sat::solve::Answer;
use queens_sat::solve::varisat_backend::solve_formula;

fn threads() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("Threads:"))
        .and_then(|v| v.trim().parse().ok())
        .expect("Threads: line")
}

/// Set in the child process that runs [`timed_out_varisat_search_ends_its_thread`] alone.
const ALONE: &str = "QUEENS_SAT_TEST_STOP_ALONE";

#[test]
fn timed_out_varisat_search_ends_its_thread() {
    if std::env::var_os(ALONE).is_none() {
        // Run this test alone in a process of its own: the same test binary, this test only,
        // on one test thread.
        let out = std::process::Command::new(std::env::current_exe().expect("test binary"))
            .args([
                "--exact",
                "stop::timed_out_varisat_search_ends_its_thread",
                "--test-threads=1",
                "--nocapture",
            ])
            .env(ALONE, "1")
            .output()
            .expect("run the test binary");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(out.status.success(), "{text}");
        // It ran (a filter that matches nothing passes too).
        assert!(text.contains("1 passed"), "{text}");
        return;
    }
    // 11 pigeons in 10 holes: far beyond varisat in 0.3 s, on any machine and version.
    let php = std::sync::Arc::new(Pigeonhole {
        pigeons: 11,
        holes: 10,
    });
    let before = threads();
    let t = Instant::now();
    let (answer, _) = solve_formula(php, Some(Duration::from_millis(300)), false, None);
    assert!(matches!(answer, Answer::Unknown(_)), "{answer:?}");
    assert!(t.elapsed() < HANG_GUARD);
    // The search thread is joined before the call returns (it used to run on to the end).
    let deadline = Instant::now() + HANG_GUARD;
    while threads() > before {
        assert!(
            Instant::now() < deadline,
            "the varisat thread still runs after its time limit ({} threads, {before} before)",
            threads()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Runs the test `name` of this module again, alone, in a child process of the test binary
/// (one test thread), so that the child's thread count is that test's alone. True in the child
/// (go on with the test); false in the parent, once the child passed.
fn alone(name: &str) -> bool {
    if std::env::var_os(ALONE).is_some() {
        return true;
    }
    let out = std::process::Command::new(std::env::current_exe().expect("test binary"))
        .args([
            "--exact",
            &format!("stop::{name}"),
            "--test-threads=1",
            "--nocapture",
        ])
        .env(ALONE, "1")
        .output()
        .expect("run the test binary");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{text}");
    assert!(text.contains("1 passed"), "{text}");
    false
}

/// Waits until the process runs at most `before` threads; a hang past [`HANG_GUARD`] fails.
fn threads_back_to(before: usize, what: &str) {
    let deadline = Instant::now() + HANG_GUARD;
    while threads() > before {
        assert!(
            Instant::now() < deadline,
            "{what}: {} threads still run after the cancel ({before} before)",
            threads()
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Excluded diagonals n = 30, 31 diagonals, seed 101: every engine and strategy takes well
/// over a minute on it (the frontier set's family at its 50 % point; the bitboard tests and
/// Python's interrupt tests use it too), so a cancel 300 ms in always lands mid-work.
fn hard() -> queens_sat::instance::Instance {
    queens_sat::generate::Generator::Diagonals {
        min_free: 1,
        diags: Some(31),
        to_completion: false,
    }
    .instance(30, 101)
    .unwrap()
}

/// Raises `cancel` after 300 ms, from a thread that the caller joins.
fn raise_soon(cancel: &Cancel) -> std::thread::JoinHandle<()> {
    let cancel = cancel.clone();
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        cancel.cancel();
    })
}

/// One stop path (issue 44): for every engine and strategy, a cancel raised mid-work ends the
/// work with `Interrupted`, and nothing keeps running afterwards: every thread it started is
/// joined, and an external solver's process is reaped. The test asserts on that state, not on
/// how fast the stop came (the latencies are measured in docs/benchmarks.md).
#[test]
fn a_cancel_stops_every_engine_and_leaves_nothing_running() {
    use queens_sat::error::Error;
    use queens_sat::piece::QUEEN;
    use queens_sat::solve::Solver;
    if !alone("a_cancel_stops_every_engine_and_leaves_nothing_running") {
        return;
    }
    let inst = hard();
    // (label, solver, cube-and-conquer, certify, threads)
    let cases: &[(&str, &str, bool, bool, usize)] = &[
        ("varisat", "varisat", false, false, 1),
        ("linked CaDiCaL", "lib:cadical", false, false, 1),
        ("linked Kissat", "lib:kissat", false, false, 1),
        (
            "the bitboard search, one thread",
            "bitboard",
            false,
            false,
            1,
        ),
        ("the bitboard split", "bitboard", false, false, 2),
        ("the default strategy", "auto", false, false, 2),
        ("a portfolio", "varisat,lib:cadical", false, false, 2),
        ("cube-and-conquer", "lib:cadical", true, false, 2),
        ("certified cubes", "lib:cadical", true, true, 2),
        ("the certified bitboard search", "bitboard", false, true, 1),
    ];
    for &(label, solver, cubes, certify, jobs) in cases {
        let before = threads();
        let cancel = Cancel::new();
        let raiser = raise_soon(&cancel);
        let mut s = Solver::new(&inst, QUEEN)
            .solver(solver)
            .certify(certify)
            .jobs(Some(jobs))
            .cancel(cancel.clone());
        if cubes {
            s = s.cubes(256);
        }
        let r = s.solve();
        raiser.join().unwrap();
        assert!(
            matches!(r, Err(Error::Interrupted)),
            "{label}: {:?}",
            r.map(|r| r.status)
        );
        threads_back_to(before, label);
    }
    // An external solver: its process is reaped.
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("solver.pid");
    let script = crate::common::sleeping_solver(dir.path(), &pid_file);
    let before = threads();
    let cancel = Cancel::new();
    let raiser = raise_soon(&cancel);
    let r = Solver::new(&inst, QUEEN)
        .solver(script.to_str().unwrap())
        .cancel(cancel)
        .solve();
    raiser.join().unwrap();
    assert!(
        matches!(r, Err(Error::Interrupted)),
        "external: {:?}",
        r.map(|r| r.status)
    );
    crate::common::assert_pid_file_process_gone(&pid_file);
    threads_back_to(before, "external");
    // Counting (n = 17 takes minutes).
    let before = threads();
    let cancel = Cancel::new();
    let raiser = raise_soon(&cancel);
    let r = queens_sat::count::Counter::new(&queens_sat::instance::Instance::plain(17), QUEEN)
        .engine(queens_sat::count::CountEngine::Sat)
        .amo(queens_sat::encode::amo::AmoKind::Product)
        .jobs(2)
        .cancel(cancel.clone())
        .counts();
    raiser.join().unwrap();
    assert!(
        matches!(r, Err(Error::Interrupted)),
        "count: {:?}",
        r.map(|c| c.total)
    );
    threads_back_to(before, "count");
    // A suite that solves: it stops, keeping what finished.
    let recipe = dir.path().join("hard.suite");
    std::fs::write(
        &recipe,
        "family hard\nn 30\ngenerator diagonals min-free=1 diags=31\nseeds 101..102\n",
    )
    .unwrap();
    let before = threads();
    let cancel = Cancel::new();
    let raiser = raise_soon(&cancel);
    let r = queens_sat::suite::run(
        &recipe,
        &queens_sat::suite::Options {
            out_dir: Some(dir.path().join("out")),
            solve: Some(queens_sat::suite::SolveWith {
                solver: "auto".into(),
                timeout: None,
                certify: false,
            }),
            jobs: 2,
            plot: None,
            force: false,
            compress: queens_sat::compress::Codec::Plain,
            level: 0,
            pack: None,
            select: None,
            progress: false,
            cancel,
        },
    );
    raiser.join().unwrap();
    assert!(
        matches!(r, Err(Error::Interrupted)),
        "suite: {:?}",
        r.map(|_| ())
    );
    threads_back_to(before, "suite");
}

/// The bitboard split's `--deterministic` rule, on the work queue: a board found in subtree i
/// stops only the subtrees after i, so the board returned is the first subtree's board in the
/// fixed order, whatever the timing.
#[test]
fn the_deterministic_split_returns_the_first_subtrees_board() {
    use queens_sat::instance::Instance;
    use queens_sat::piece::QUEEN;
    use queens_sat::presolve::Problem;
    use queens_sat::solve::bitboard::{SearchOptions, search};
    for n in [12u32, 20, 31] {
        let p = Problem::presolve(&Instance::plain(n), QUEEN).unwrap();
        // The subtrees (the split, and the rest of each parked one) do not depend on the
        // thread count; each count is checked on its own.
        for threads in [2, 3, 4] {
            let one = search(
                &p,
                &SearchOptions::default()
                    .threads(threads)
                    .deterministic(true),
            )
            .unwrap()
            .answer;
            assert!(matches!(one, Answer::Sat(_)), "n = {n}");
            for _ in 0..3 {
                let again = search(
                    &p,
                    &SearchOptions::default()
                        .threads(threads)
                        .deterministic(true),
                )
                .unwrap()
                .answer;
                assert_eq!(again, one, "n = {n}, {threads} threads");
            }
        }
    }
}

/// A split search whose time limit has passed before it starts hands out no subtree: that is
/// UNKNOWN, never UNSAT (the queue stops before the work is done), on one thread or several.
#[test]
fn a_split_stopped_before_it_starts_is_unknown() {
    use queens_sat::piece::QUEEN;
    use queens_sat::presolve::Problem;
    use queens_sat::solve::bitboard::{SearchOptions, search};
    let p = Problem::presolve(&hard(), QUEEN).unwrap();
    for threads in [1, 2] {
        let found = search(
            &p,
            &SearchOptions::default()
                .threads(threads)
                .timeout(Duration::ZERO),
        )
        .unwrap();
        assert_eq!(
            found.answer,
            Answer::Unknown("time limit of 0 s reached".into()),
            "{threads} threads"
        );
    }
}

/// A time limit is reported in the caller's words, whichever engine or strategy ran into it
/// (issue 45 §4: the default strategy used to report what was left of it, `0.987776448 s`).
#[test]
fn the_time_limit_is_reported_as_given() {
    use queens_sat::piece::QUEEN;
    use queens_sat::solve::Solver;
    let inst = hard();
    for (solver, cubes) in [
        ("auto", false),
        ("varisat", false),
        ("lib:cadical", false),
        ("lib:kissat", false),
        ("bitboard", false),
        ("varisat,lib:cadical", false),
        ("lib:cadical", true),
    ] {
        let mut s = Solver::new(&inst, QUEEN)
            .solver(solver)
            .jobs(Some(2))
            .timeout(Some(Duration::from_millis(500)));
        if cubes {
            s = s.cubes(64);
        }
        let r = s.solve().unwrap();
        assert_eq!(
            r.status,
            Answer::Unknown("time limit of 0.5 s reached".into()),
            "{solver} (cubes: {cubes})"
        );
    }
}

/// Counting a lex-leader encoding's CNF (`Encoder::stats`, which runs the lex-leader
/// constraints into a counting sink, n² cells for each symmetry) stops with the encoder's
/// token: a raised token is `Interrupted`, not a count of the part walked. (It used to run to
/// the end: `solve -n 3000 --break-symmetry lex --timeout 1` spent 1 to 3 s past its limit
/// there before any solver started.)
#[test]
fn counting_a_lex_leader_cnf_stops_with_the_token() {
    use queens_sat::encode::lex::SymmetrySet;
    use queens_sat::encode::{EncodeOptions, Encoder, amo::AmoKind};
    use queens_sat::symmetry::Symmetry;
    let inst = queens_sat::instance::Instance::plain(300);
    let problem = queens_sat::presolve::Problem::presolve(&inst, queens_sat::piece::QUEEN).unwrap();
    let options = EncodeOptions {
        lex_leader: SymmetrySet::of(&Symmetry::ALL),
        ..EncodeOptions::from(AmoKind::DEFAULT)
    };
    let encoder = Encoder::with_options(&problem, options);
    let whole = encoder.stats().unwrap();
    assert!(whole.clauses > 0);
    let stop = Cancel::new();
    stop.cancel();
    let t = Instant::now();
    let cut = Encoder::with_options(&problem, options)
        .until(&stop)
        .stats();
    assert!(
        matches!(cut, Err(queens_sat::Error::Interrupted)),
        "{cut:?}"
    );
    assert!(t.elapsed() < HANG_GUARD, "{:?}", t.elapsed());
}
