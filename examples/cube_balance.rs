//! How well a cluster job's bitboard cubes (`split solve --cubes-from bitboard`) balance, in
//! search nodes, which do not depend on the machine's load: the instance is cut into cubes
//! (`solve::bitboard::cubes`), every cube is searched to the end on one thread (its nodes
//! counted), the cubes are shared out over the tasks by their estimates with `split`'s
//! longest-first rule, and the tasks' real node counts are compared. One line per cube count:
//! cubes, nodes in all, the largest task over the mean task (1.00 is perfect balance), the same
//! when the cubes are shared out by their real node counts (the best the cubes allow), and the
//! largest cube over the mean task.
//!
//! ```sh
//! queens-sat generate diagonals -n 28 --min-free 1 --seed 8 -o g28.txt
//! cargo run --release --example cube_balance -- --tasks 16 --probes 128 g28.txt:31 256 512 1024
//! ```

use std::process::ExitCode;

use queens_sat::answer::Answer;
use queens_sat::cluster::split::balance;
use queens_sat::instance::read_instance_file;
use queens_sat::piece::QUEEN;
use queens_sat::presolve::Problem;
use queens_sat::solve::bitboard::{SearchOptions, cubes, search};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("cube_balance: {e}");
            ExitCode::from(1)
        }
    }
}

fn run(args: &[String]) -> queens_sat::Result<()> {
    let usage = || {
        queens_sat::Error::Usage(
            "usage: cube_balance [--tasks T] [--probes P] FILE[:D] CUBES ...".into(),
        )
    };
    let (mut tasks, mut probes, mut file, mut counts) = (16usize, 128usize, None, Vec::new());
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut number = || -> queens_sat::Result<usize> {
            it.next().and_then(|v| v.parse().ok()).ok_or_else(usage)
        };
        match arg.as_str() {
            "--tasks" => tasks = number()?,
            "--probes" => probes = number()?,
            _ if file.is_none() => file = Some(arg.clone()),
            _ => counts.push(arg.parse::<usize>().map_err(|_| usage())?),
        }
    }
    let file = file.ok_or_else(usage)?;
    let (path, diags) = match file.rsplit_once(':') {
        Some((p, d)) => (p, Some(d.parse::<usize>().map_err(|_| usage())?)),
        None => (file.as_str(), None),
    };
    let instance = read_instance_file(path.as_ref(), diags)?;
    let root = Problem::presolve(&instance, QUEEN)?;
    println!("# {file}, {tasks} tasks, {probes} probes per cube");
    println!("# cubes\tnodes\tmax/mean task\tby real nodes\tmax cube/mean task\tverdict");
    for want in counts {
        let cut = cubes(&root, want, probes, &Default::default())?;
        let mut real = Vec::with_capacity(cut.len());
        let mut sat = false;
        for c in &cut {
            let mut cube = instance.clone();
            cube.placed.extend(c.cells.iter().copied());
            let found = search(&Problem::presolve(&cube, QUEEN)?, &SearchOptions::default())?;
            sat |= matches!(found.answer, Answer::Sat(_));
            real.push(found.nodes.max(1) as f64);
        }
        let total: f64 = real.iter().sum();
        let mean = total / tasks as f64;
        let worst = |by: &[f64]| {
            let t = balance(by, tasks);
            let loads = t
                .iter()
                .map(|t| t.lines.iter().map(|&i| real[i]).sum::<f64>());
            loads.fold(0.0, f64::max) / mean
        };
        let estimates: Vec<f64> = cut.iter().map(|c| c.nodes).collect();
        println!(
            "{}\t{total:.0}\t{:.2}\t{:.2}\t{:.2}\t{}",
            cut.len(),
            worst(&estimates),
            worst(&real),
            real.iter().copied().fold(0.0, f64::max) / mean,
            if sat { "SAT" } else { "UNSAT" }
        );
    }
    Ok(())
}
