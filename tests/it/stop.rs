//! A varisat search that hits its time limit really stops: its thread ends, so a suite or a
//! portfolio does not keep a core busy with abandoned searches.
//!
//! The test runs again in a child process of the test binary that runs this test alone (the
//! other modules' tests share the binary and start threads of their own), so the child's
//! thread count is this test's alone.

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
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
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
