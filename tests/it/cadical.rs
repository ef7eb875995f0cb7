//! The linked CaDiCaL and Kissat backends (`--solver lib:cadical`, `lib:kissat`) end to end; their verdicts against the
//! brute-force oracle are in tests/it/oracle.rs.

use crate::common;
use crate::common::php;
use queens_sat::interrupt::HANG_GUARD;

use std::time::{Duration, Instant};

use php::Pigeonhole;
use queens_sat::solve::Answer;

/// The linked solvers honour a time limit on a formula that is hard by construction (11
/// pigeons in 10 holes), whatever their version: UNKNOWN soon after the limit.
#[test]
fn linked_solvers_stop_at_their_time_limit() {
    let php = Pigeonhole {
        pigeons: 11,
        holes: 10,
    };
    let limit = Duration::from_millis(300);
    let t = Instant::now();
    let (answer, _) =
        queens_sat::solve::cadical_backend::solve_formula(&php, Some(limit), None, None).unwrap();
    assert!(matches!(answer, Answer::Unknown(_)), "cadical: {answer:?}");
    assert!(t.elapsed() < HANG_GUARD, "{:?}", t.elapsed());
    let t = Instant::now();
    let (answer, _) = queens_sat::solve::kissat_backend::solve_formula(&php, Some(limit), None);
    assert!(matches!(answer, Answer::Unknown(_)), "kissat: {answer:?}");
    assert!(t.elapsed() < HANG_GUARD, "{:?}", t.elapsed());
    // A raised cancel token stops them too.
    let cancel = queens_sat::interrupt::Cancel::new();
    let raiser = {
        let cancel = cancel.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            cancel.cancel();
        })
    };
    let t = Instant::now();
    let (answer, _) =
        queens_sat::solve::cadical_backend::solve_formula(&php, None, Some(&cancel), None).unwrap();
    raiser.join().unwrap();
    assert_eq!(answer, Answer::Unknown("cancelled".into()));
    assert!(t.elapsed() < HANG_GUARD, "{:?}", t.elapsed());
}

/// `--solver lib:cadical` (CaDiCaL linked in): a verified board, a certified UNSAT, and a
/// portfolio with varisat (the time limit: [`linked_solvers_stop_at_their_time_limit`]).
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
    assert_winner(&r.stdout, &["varisat", "lib:cadical"]);
}

/// `--solver lib:kissat` (Kissat linked in): a verified board, UNSAT, a portfolio with varisat,
/// and `--certify` refused (no proof tracing).
#[test]
fn cli_lib_kissat() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let r = common::run_expect(d, &["solve", "-n", "30", "--solver", "lib:kissat"], 10);
    assert_eq!(r.stdout.lines().count(), 30);
    common::run_expect(d, &["solve", "-n", "3", "--solver", "lib:kissat"], 20);
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
    assert_winner(&r.stdout, &["varisat", "lib:kissat"]);
    common::assert_one_line_error(
        d,
        &["solve", "-n", "3", "--solver", "lib:kissat", "--certify"],
        &["--certify", "lib:kissat"],
    );
}

/// The JSON record of a portfolio solve names exactly one of `entrants` as the winner (with the
/// default encoding), and its board is a verified 40-queens board.
fn assert_winner(json: &str, entrants: &[&str]) {
    let v: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    let solver = v["solver"].as_str().unwrap();
    let named: Vec<String> = entrants
        .iter()
        .map(|e| format!("portfolio winner: {e} --amo auto"))
        .collect();
    assert!(
        named.iter().any(|n| n == solver),
        "{solver} not in {named:?}"
    );
    assert_eq!(v["status"], "SAT");
    assert_eq!(v["queens"].as_array().unwrap().len(), 40);
}

/// The time limit covers loading the clauses too: pairwise 300-queens (about 45 M clauses,
/// seconds of loading into a linked solver; 400-queens' 106 M clauses no longer pass the
/// linked solvers' memory estimate with its margin on a 24 GB machine) stops loading and answers UNKNOWN soon after a
/// 0.5 s limit, instead of loading everything first.
#[test]
fn linked_solvers_stop_while_loading_a_huge_encoding() {
    let dir = tempfile::tempdir().unwrap();
    for solver in ["lib:cadical", "lib:kissat"] {
        let t = Instant::now();
        let r = common::run_expect(
            dir.path(),
            &[
                "solve",
                "-n",
                "300",
                "--amo",
                "pairwise",
                "--solver",
                solver,
                "--timeout",
                "0.5",
            ],
            1,
        );
        assert!(r.stdout.starts_with("UNKNOWN"), "{solver}: {}", r.stdout);
        assert!(r.stderr.contains("time limit"), "{solver}: {}", r.stderr);
        assert!(t.elapsed() < HANG_GUARD, "{solver}: {:?}", t.elapsed());
    }
}
