//! A varisat search that hits its time limit really stops: its thread ends, so a suite or a
//! portfolio does not keep a core busy with abandoned searches.
//!
//! The only test in this binary, so the process's thread count is this test's alone.

use std::time::{Duration, Instant};

#[path = "common/php.rs"]
mod php;

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

#[test]
fn timed_out_varisat_search_ends_its_thread() {
    // 11 pigeons in 10 holes: far beyond varisat in 0.3 s, on any machine and version.
    let php = std::sync::Arc::new(Pigeonhole {
        pigeons: 11,
        holes: 10,
    });
    let before = threads();
    let t = Instant::now();
    let (answer, _) = solve_formula(php, Some(Duration::from_millis(300)), false, None);
    assert!(matches!(answer, Answer::Unknown(_)), "{answer:?}");
    assert!(t.elapsed() < Duration::from_secs(5));
    // The search thread must be gone within a moment (it used to run on to the end).
    let deadline = Instant::now() + Duration::from_secs(5);
    while threads() > before {
        assert!(
            Instant::now() < deadline,
            "the varisat thread still runs 5 s after its time limit ({} threads, {before} before)",
            threads()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}
