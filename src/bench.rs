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
