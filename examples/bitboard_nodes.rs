//! Node counts of the bitboard search (`--solver bitboard`) on one thread, under a chosen
//! [`Tuning`]: the load-independent measure the search's pruning A/Bs are decided on
//! (docs/benchmarks.md). One line per instance: name, verdict, nodes, wall seconds, CPU seconds
//! of the process (steadier than wall time on a shared machine).
//!
//! ```sh
//! queens-sat generate diagonals -n 26 --min-free 1 --seed 13 -o g.txt
//! cargo run --release --example bitboard_nodes -- --timeout 60 --diagonals off g.txt:25 [FILE[:D] ...]
//! ```
//!
//! `--sums`, `--parity`, `--diagonals`, `--triples`, `--table` (the table kernel on every
//! core) and `--wide` (two-word rows on every core) take `on` or `off`, `--words` takes `one`,
//! `past32`, `two` or `family` (the key sets' width, [`Words`]) (default: [`Tuning::default`]);
//! `FILE:D` takes the first D excluded diagonals of an excluded-diagonals file.
//!
//! `--threads T` runs the search split over `T` threads ([`SearchOptions::threads`]; nodes and CPU
//! seconds then add up over the threads), `--split N` starts it from `N` subtrees, `--park B`
//! parks a subtree after `B` nodes (`none`: never, the static split) (default: the search's
//! own, [`SPLIT_ITEMS`] and [`PARK_AFTER`]), `--deterministic` asks for the deterministic
//! board. With `QUEENS_SAT_ITEM_TIMES` set the split search records its items for
//! `scripts/schedule-sim.py --split`.
//!
//! `--estimate PROBES` prints Knuth's estimate of the whole tree's size in nodes instead
//! ([`estimate`], `PROBES` random paths, seed 1), for trees too big to search to the end.
//!
//! `--write` runs the certified search's proof writer alone (its tuning, the proof dropped
//! unchecked; [`bitproof::write`]), `--certify` the whole certified search (proof written and
//! checked on a second thread; [`bitproof::search_certified`]). Their lines add the lemmas, the
//! hints and, for `--certify`, the checker's busy seconds.
//!
//! `--digest` prints, per instance, the answer and a digest of each proof's text (the LRAT
//! proof of [`bitproof::proof`], the VeriPB proof of [`pbproof::search_veripb`]) with their
//! node counts: a refactoring of the search or its tracers must leave every line unchanged.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use queens_sat::instance::read_instance_file;
use queens_sat::piece::QUEEN;
use queens_sat::presolve::Problem;
use queens_sat::solve::bitboard::{
    PARK_AFTER, SPLIT_ITEMS, SearchOptions, Tuning, Words, estimate, pbproof, proof as bitproof,
    search,
};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bitboard_nodes: {e}");
            ExitCode::from(1)
        }
    }
}

fn run(args: &[String]) -> queens_sat::Result<()> {
    let usage = || {
        queens_sat::Error::Usage(
            "usage: bitboard_nodes [--timeout S] [--threads T] [--split N] [--park B|none] [--deterministic] [--sums|--parity|--diagonals|--triples|--table|--wide on|off] [--words one|past32|two|family] [--write|--certify|--estimate PROBES] FILE[:D] ..."
                .into(),
        )
    };
    let mut tuning = Tuning::default();
    let mut timeout = None;
    let mut files = Vec::new();
    let (mut write, mut certify, mut digest) = (false, false, false);
    let mut probes = None;
    let (mut threads, mut split, mut park, mut deterministic) =
        (1usize, SPLIT_ITEMS, Some(PARK_AFTER), false);
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut switch = |flag: &mut bool| -> queens_sat::Result<()> {
            *flag = match it.next().map(String::as_str) {
                Some("on") => true,
                Some("off") => false,
                _ => return Err(usage()),
            };
            Ok(())
        };
        match arg.as_str() {
            "--sums" => switch(&mut tuning.sums)?,
            "--parity" => switch(&mut tuning.parity)?,
            "--diagonals" => switch(&mut tuning.diagonals)?,
            "--triples" => switch(&mut tuning.triples)?,
            "--table" => switch(&mut tuning.table)?,
            "--wide" => switch(&mut tuning.wide)?,
            "--words" => {
                tuning.words = match it.next().map(String::as_str) {
                    Some("one") => Words::One,
                    Some("past32") => Words::Past32,
                    Some("two") => Words::Two,
                    Some("family") => Words::Family,
                    _ => return Err(usage()),
                }
            }
            "--estimate" => {
                probes = Some(it.next().and_then(|v| v.parse().ok()).ok_or_else(usage)?);
            }
            "--threads" => {
                threads = it.next().and_then(|v| v.parse().ok()).ok_or_else(usage)?;
            }
            "--split" => split = it.next().and_then(|v| v.parse().ok()).ok_or_else(usage)?,
            "--park" => {
                park = match it.next().map(String::as_str) {
                    Some("none") => None,
                    Some(b) => Some(b.parse().map_err(|_| usage())?),
                    None => return Err(usage()),
                }
            }
            "--deterministic" => deterministic = true,
            "--write" => write = true,
            "--digest" => digest = true,
            "--certify" => certify = true,
            "--timeout" => {
                let secs: f64 = it.next().and_then(|v| v.parse().ok()).ok_or_else(usage)?;
                timeout = Some(Duration::from_secs_f64(secs));
            }
            _ => files.push(arg.clone()),
        }
    }
    if files.is_empty() {
        return Err(usage());
    }
    match (write, certify) {
        (false, false) => println!("# {tuning:?}"),
        _ => println!("# {:?}", bitproof::PROOF_TUNING),
    }
    for file in &files {
        let (path, diags) = match file.rsplit_once(':') {
            Some((p, d)) => (p, Some(d.parse::<usize>().map_err(|_| usage())?)),
            None => (file.as_str(), None),
        };
        let instance = read_instance_file(path.as_ref(), diags)?;
        let problem = Problem::presolve(&instance, QUEEN)?;
        let (t0, cpu0) = (Instant::now(), cpu_seconds());
        if digest {
            println!("{file}\t{}", digests(&problem)?);
            continue;
        }
        if let Some(probes) = probes {
            let e = estimate(&problem, tuning, probes, 1)?;
            println!(
                "{file}\testimate\t{e:.4e}\t{:.3}",
                t0.elapsed().as_secs_f64()
            );
            continue;
        }
        if write || certify {
            let (label, nodes, lemmas, hints, check) = if certify {
                let r = bitproof::search_certified(&problem, timeout, None, None)?;
                let check = format!("\t{:.3}", r.check_seconds);
                (r.answer.label(), r.nodes, r.lemmas, r.hints, check)
            } else {
                let r = bitproof::write(&problem, timeout, |_| Ok(()))?;
                (r.answer.label(), r.nodes, r.lemmas, r.hints, String::new())
            };
            println!(
                "{file}\t{label}\t{nodes}\t{:.3}\t{:.3}\t{lemmas}\t{hints}{check}",
                t0.elapsed().as_secs_f64(),
                cpu_seconds() - cpu0
            );
            continue;
        }
        let found = search(
            &problem,
            &SearchOptions::default()
                .timeout(timeout)
                .tuning(tuning)
                .threads(threads)
                .split(Some(split), park)
                .deterministic(deterministic),
        )?;
        println!(
            "{file}\t{}\t{}\t{:.3}\t{:.3}",
            found.answer.label(),
            found.nodes,
            t0.elapsed().as_secs_f64(),
            cpu_seconds() - cpu0
        );
    }
    Ok(())
}

/// The answer, nodes and a digest of the text of each proof of `problem` ([`run`]'s
/// `--digest`): LRAT (nodes, lemmas, hints, digest), then VeriPB (answer, nodes, lemmas,
/// hints, digest, seconds written).
fn digests(problem: &Problem) -> queens_sat::Result<String> {
    use std::hash::{DefaultHasher, Hasher};
    let digest = |bytes: &[u8]| {
        let mut h = DefaultHasher::new();
        h.write(bytes);
        format!("{:016x}", h.finish())
    };
    let written = bitproof::write(problem, None, |_| Ok(()))?;
    let lrat = match bitproof::proof(problem)? {
        Some(steps) => {
            let mut text = Vec::new();
            steps
                .write_text(&mut text)
                .map_err(|e| queens_sat::Error::io("the LRAT proof", e))?;
            digest(&text)
        }
        None => "-".into(),
    };
    let dir = tempfile::tempdir().map_err(|e| queens_sat::Error::io("a temporary folder", e))?;
    let (opb, pbp) = (dir.path().join("m.opb"), dir.path().join("p.pbp"));
    let pb = pbproof::search_veripb(problem, &opb, &pbp, None, None)?;
    let text = std::fs::read(&pbp).map_err(|e| queens_sat::Error::io("the VeriPB proof", e))?;
    Ok(format!(
        "{}\tlrat {} {} {} {lrat}\tveripb {} {} {} {} {} {:.2}\tempty {} bounds {} parity {} branches {} diagonals {}",
        written.answer.label(),
        written.nodes,
        written.lemmas,
        written.hints,
        pb.answer.label(),
        pb.nodes,
        pb.stats.lemmas(),
        pb.stats.hints,
        digest(&text),
        pb.seconds,
        pb.stats.empty,
        pb.stats.bounds,
        pb.stats.parity,
        pb.stats.branches,
        pb.stats.diagonals
    ))
}

/// User plus system CPU seconds of this process so far.
fn cpu_seconds() -> f64 {
    // SAFETY: `getrusage` fills the zeroed struct it is given.
    let usage = unsafe {
        let mut u: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut u);
        u
    };
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    secs(usage.ru_utime) + secs(usage.ru_stime)
}
