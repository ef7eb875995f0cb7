//! Stop latencies of every engine and strategy (issue 44): how long a solve takes to return
//! after its cancel token is raised, and how far past its time limit it returns. The tests
//! only assert that a stop happens and leaves nothing running (`tests/it/stop.rs`); the speed
//! of the stop is measured here, and the table is in docs/benchmarks.md.
//!
//! ```sh
//! cargo run --release --example stop_latency -- [--runs 5]
//! ```
//!
//! Every run works on excluded diagonals n = 30, 31 diagonals, seed 101, which every engine
//! takes well over a minute on. The cancel comes after a delay from a fixed spread (200-700 ms,
//! the same delays on every run of the benchmark), so it lands in different
//! phases of the work; the time limit is 0.5 s. One line per engine: the median, p90 and max
//! of the latency in milliseconds over the runs.

use std::time::{Duration, Instant};

use queens_sat::generate::Generator;
use queens_sat::interrupt::Cancel;
use queens_sat::piece::QUEEN;
use queens_sat::solve::Solver;

/// (label, solver, cube-and-conquer, certify, threads)
const CASES: &[(&str, &str, bool, bool, usize)] = &[
    ("varisat", "varisat", false, false, 1),
    ("lib:cadical", "lib:cadical", false, false, 1),
    ("lib:kissat", "lib:kissat", false, false, 1),
    ("bitboard, 1 thread", "bitboard", false, false, 1),
    ("bitboard split, 2 threads", "bitboard", false, false, 2),
    ("bitboard --certify", "bitboard", false, true, 1),
    ("auto (default strategy)", "auto", false, false, 2),
    (
        "portfolio varisat,lib:cadical",
        "varisat,lib:cadical",
        false,
        false,
        2,
    ),
    ("cubes lib:cadical", "lib:cadical", true, false, 2),
    ("cubes lib:cadical --certify", "lib:cadical", true, true, 2),
];

fn quantile(sorted: &[f64], q: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * q).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let runs: usize = match args.as_slice() {
        [] => 5,
        [flag, k] if flag == "--runs" => k.parse().expect("--runs takes a number"),
        _ => {
            eprintln!("usage: stop_latency [--runs K]");
            std::process::exit(2);
        }
    };
    let inst = Generator::Diagonals {
        min_free: 1,
        diags: Some(31),
        to_completion: false,
    }
    .instance(30, 101)
    .expect("the instance");
    // The same delays on every run of the benchmark: 200-700 ms, spread by a fixed stride.
    let delays: Vec<Duration> = (0..runs as u64)
        .map(|i| Duration::from_millis(200 + (i * 317 + 90) % 500))
        .collect();
    let limit = Duration::from_millis(500);
    println!(
        "| engine | after a cancel, ms: median | p90 | max | past a {} s limit, ms: median | p90 | max |",
        limit.as_secs_f64()
    );
    println!("|---|---|---|---|---|---|---|");
    for &(label, solver, cubes, certify, jobs) in CASES {
        let make = || {
            let s = Solver::new(&inst, QUEEN)
                .solver(solver)
                .certify(certify)
                .jobs(Some(jobs));
            if cubes { s.cubes(256) } else { s }
        };
        let mut after_cancel = Vec::new();
        let mut past_limit = Vec::new();
        for &delay in &delays {
            let cancel = Cancel::new();
            let raiser = {
                let cancel = cancel.clone();
                std::thread::spawn(move || {
                    std::thread::sleep(delay);
                    let raised = Instant::now();
                    cancel.cancel();
                    raised
                })
            };
            let r = make().cancel(cancel).solve();
            let back = Instant::now();
            let raised = raiser.join().expect("the raiser");
            assert!(r.is_err(), "{label}: answered before the cancel");
            after_cancel.push(back.saturating_duration_since(raised).as_secs_f64() * 1e3);
            let t = Instant::now();
            let r = make().timeout(Some(limit)).solve().expect("a solve");
            assert_eq!(r.status.label(), "UNKNOWN", "{label}");
            past_limit.push((t.elapsed().as_secs_f64() - limit.as_secs_f64()) * 1e3);
        }
        after_cancel.sort_by(f64::total_cmp);
        past_limit.sort_by(f64::total_cmp);
        println!(
            "| {label} | {:.1} | {:.1} | {:.1} | {:.1} | {:.1} | {:.1} |",
            quantile(&after_cancel, 0.5),
            quantile(&after_cancel, 0.9),
            after_cancel[after_cancel.len() - 1],
            quantile(&past_limit, 0.5),
            quantile(&past_limit, 0.9),
            past_limit[past_limit.len() - 1],
        );
    }
}
