//! `queens-sat bench`: DIMACS writing throughput and time to first solution, as a table.
//! Speed targets live here, never in timed tests.

use std::time::Instant;

use crate::encode::amo::AmoKind;
use crate::error::{Error, Result};
use crate::instance::Instance;
use crate::piece::QUEEN;
use crate::pipeline::{self, Backend, Output, Status};
use crate::presolve::Problem;

/// Runs the benchmark and prints its tables to stdout (`quick`: smaller sizes).
pub fn run(quick: bool) -> Result<()> {
    let dir = tempfile::tempdir().map_err(|e| Error::io("temp dir", e))?;
    println!("## DIMACS encode + write (atomic file, fsync included; best of 3)");
    println!("| n | amo | vars | clauses | MB | seconds | MB/s |");
    println!("|---|---|---|---|---|---|---|");
    let write_sizes: &[u32] = if quick { &[50, 100] } else { &[100, 200] };
    for &n in write_sizes {
        for amo in AmoKind::ALL {
            // Best of three: presolve + encode + write + fsync + rename.
            let path = dir.path().join(format!("q{n}-{amo}.cnf"));
            let mut best = f64::INFINITY;
            let mut report = None;
            for _ in 0..3 {
                let t = Instant::now();
                let problem = Problem::presolve(&Instance::plain(n), QUEEN)?;
                let r = pipeline::export_cnf(&Output::File(path.clone()), &problem, amo, None)?;
                best = best.min(t.elapsed().as_secs_f64());
                report = Some(r);
            }
            let (r, secs) = (report.expect("three runs"), best);
            let mb = r.bytes as f64 / 1e6;
            println!(
                "| {n} | {amo} | {} | {} | {mb:.1} | {secs:.3} | {:.0} |",
                r.stats.vars,
                r.stats.clauses,
                mb / secs
            );
            let _ = std::fs::remove_file(path);
        }
    }
    println!();
    println!("## Time to first solution, N-queens, varisat in-process");
    println!("| n | amo | vars | clauses | encode s | solve s | total s |");
    println!("|---|---|---|---|---|---|---|");
    let solve_sizes: &[u32] = if quick {
        &[50, 100, 200]
    } else {
        &[50, 100, 200, 400, 1000]
    };
    for &n in solve_sizes {
        for amo in AmoKind::ALL {
            if amo == AmoKind::Pairwise && n > 200 {
                continue; // quadratic clause count: ~n^3 clauses, gigabytes at n = 400
            }
            let t = Instant::now();
            let problem = Problem::presolve(&Instance::plain(n), QUEEN)?;
            let r = pipeline::solve(&problem, amo, &Backend::Varisat, None)?;
            let total = t.elapsed().as_secs_f64();
            let ok = matches!(r.status, Status::Sat(_));
            println!(
                "| {n} | {amo} | {} | {} | {:.3} | {:.3} | {total:.3}{} |",
                r.stats.vars,
                r.stats.clauses,
                r.encode_seconds,
                r.solve_seconds,
                if ok { "" } else { " (no solution!)" }
            );
        }
    }
    Ok(())
}

/// Peak memory of streaming DIMACS export: runs `encode -n N --amo sequential -o FILE` as a child
/// process for each `n` (ascending) and prints the file size, time and the child's peak RSS
/// (`getrusage(RUSAGE_CHILDREN)`, which is the maximum over the children so far).
pub fn memory(ns: &[u32]) -> Result<()> {
    let dir = tempfile::tempdir_in(".").map_err(|e| Error::io("temp dir in .", e))?;
    let exe = std::env::current_exe().map_err(|e| Error::io("current executable", e))?;
    println!("## Streaming export memory: encode --amo sequential -o FILE");
    println!("| n | file GB | seconds | MB/s | peak RSS MB |");
    println!("|---|---|---|---|---|");
    let mut sorted = ns.to_vec();
    sorted.sort_unstable();
    for n in sorted {
        let path = dir.path().join(format!("seq-{n}.cnf"));
        let t = Instant::now();
        let status = std::process::Command::new(&exe)
            .args(["encode", "-n", &n.to_string(), "--amo", "sequential", "-o"])
            .arg(&path)
            .stderr(std::process::Stdio::null())
            .status()
            .map_err(|e| Error::io(exe.display().to_string(), e))?;
        let secs = t.elapsed().as_secs_f64();
        if !status.success() {
            return Err(Error::Solver(format!("encode -n {n} failed: {status}")));
        }
        let bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        let _ = std::fs::remove_file(&path);
        // SAFETY: getrusage fills the struct we pass; RUSAGE_CHILDREN covers waited children.
        let rss_kb = unsafe {
            let mut usage: libc::rusage = std::mem::zeroed();
            libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage);
            usage.ru_maxrss
        };
        println!(
            "| {n} | {:.2} | {secs:.1} | {:.0} | {:.0} |",
            bytes as f64 / 1e9,
            bytes as f64 / 1e6 / secs,
            rss_kb as f64 / 1024.0
        );
    }
    Ok(())
}

/// Counting speed: total + unique with the SAT engine and the backtracking engine, for queens
/// `8..=max_queens` and amazons `10..=max_amazons` (`queens-sat bench --count`).
pub fn count_table(max_queens: u32, max_amazons: u32, amo: AmoKind) -> Result<()> {
    use crate::count::{Engine, count};
    use crate::piece::AMAZON;
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!("## Counting: total + unique (Burnside), {jobs} threads, sat engine with --amo {amo}");
    println!("| piece | n | total | unique | sat s | backtrack s |");
    println!("|---|---|---|---|---|---|");
    let rows = (8..=max_queens)
        .map(|n| (QUEEN, n))
        .chain((10..=max_amazons).map(|n| (AMAZON, n)));
    for (piece, n) in rows {
        let inst = Instance::plain(n);
        let t = Instant::now();
        let sat = count(&inst, piece, amo, Engine::Sat, jobs)?;
        let sat_s = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let bt = count(&inst, piece, amo, Engine::Backtrack, jobs)?;
        let bt_s = t.elapsed().as_secs_f64();
        if sat != bt {
            return Err(Error::Solver(format!(
                "{} n={n}: engines disagree: sat {sat:?} vs backtrack {bt:?}",
                piece.name
            )));
        }
        println!(
            "| {} | {n} | {} | {} | {sat_s:.3} | {bt_s:.3} |",
            piece.name, sat.total, sat.unique
        );
    }
    Ok(())
}
