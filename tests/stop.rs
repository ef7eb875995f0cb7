//! A varisat search that hits its time limit really stops: its thread ends, so a suite or a
//! portfolio does not keep a core busy with abandoned searches.
//!
//! The only test in this binary, so the process's thread count is this test's alone.

use std::time::{Duration, Instant};

use queens_sat::encode::amo::AmoKind;
use queens_sat::generate::Generator;
use queens_sat::piece::QUEEN;
use queens_sat::presolve::Problem;
use queens_sat::solve::{self, Backend, Status};

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
    // Blocked 56-queens near the transition: varisat needs far more than the 0.3 s limit here
    // (40 s+ with product in the bench).
    let instance = Generator::Blocked {
        m: 2720,
        min_free: 1,
    }
    .instance(56, 3)
    .unwrap();
    let problem = Problem::presolve(&instance, QUEEN).unwrap();
    let before = threads();
    let t = Instant::now();
    let r = solve::solve(
        &problem,
        AmoKind::Product,
        &Backend::Varisat,
        Some(Duration::from_millis(300)),
    )
    .unwrap();
    assert!(matches!(r.status, Status::Unknown(_)), "{:?}", r.status);
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
