//! The spike of issue 46: VeriPB proofs of UNSAT with the sum bounds, written by the reference
//! search (`certify::pb::refute`) on excluded-diagonal instances at the edge of UNSAT (for each
//! seed, the shortest prefix of the generated diagonals that is UNSAT) and checked by the
//! `veripb` crate. Prints, per instance, the proof with the bounds and without them: nodes,
//! steps per kind, bytes per node, the seconds to write and to check, and the checker's steps
//! per second.
//!
//! ```sh
//! cargo run --release --example veripb_spike -- [N_MIN] [N_MAX] [SEEDS]
//! cargo run --release --example veripb_spike -- bit N D SEED [check | pbcheck]
//! cargo run --release --example veripb_spike -- pipe N D SEED [file]   # the certified route
//! cargo run --release --example veripb_spike -- lrat N D SEED          # the LRAT route
//! cargo run --release --example veripb_spike -- writer N D SEED        # its search alone
//! ```
//!
//! `pipe` runs `pbproof::search_certified_pb` (the search hands its steps in batches to a
//! checker thread; with `file`, that thread also writes the text proof) and `lrat` the LRAT
//! route `proof::search_certified`: nodes, the search's seconds (writing the steps), the
//! checker's busy seconds, the wall seconds, and each per node.

use std::time::Instant;

use queens_sat::answer::Answer;
use queens_sat::certify::pb::refute;
use veripb_crate::check;

#[path = "../tests/support/veripb_crate.rs"]
mod veripb_crate;
use queens_sat::piece::QUEEN;
use queens_sat::presolve::Problem;

fn main() {
    let all: Vec<String> = std::env::args().skip(1).collect();
    if matches!(
        all.first().map(String::as_str),
        Some("pipe" | "lrat" | "writer")
    ) {
        let num = |i: usize| all[i].parse::<u64>().expect("N D SEED");
        let (n, d, seed) = (num(1) as u32, num(2) as usize, num(3));
        let mut inst = queens_sat::generate::diagonals::generate(n, 1, seed).expect("generate");
        inst.excluded.truncate(d);
        let problem = Problem::presolve(&inst, QUEEN).expect("presolve");
        let dir = tempfile::tempdir_in(".").expect("temp dir");
        let pbp = dir.path().join("i.pbp");
        let file = all.get(4).map(String::as_str) == Some("file");
        if all[0] == "writer" {
            let (answer, nodes, secs) =
                queens_sat::solve::bitboard::pbproof::write_only(&problem).expect("the search");
            println!(
                "writer n{n} d{d} s{seed}: unsat {} nodes {nodes} write {secs:.2} s ({:.2} us/node)",
                matches!(answer, Answer::Unsat),
                secs * 1e6 / nodes as f64
            );
            return;
        }
        let t = Instant::now();
        let r = if all[0] == "pipe" {
            queens_sat::solve::bitboard::pbproof::search_certified_pb(
                &problem,
                None,
                None,
                file.then_some(pbp.as_path()),
            )
        } else {
            queens_sat::solve::bitboard::proof::search_certified(&problem, None, None, None)
        }
        .expect("the certified search");
        let wall = t.elapsed().as_secs_f64();
        let per = |s: f64| s * 1e6 / r.nodes as f64;
        // The process's CPU seconds (both threads): on a shared machine, with the writer's
        // alone (`writer`), the checker's share.
        let cpu = {
            // SAFETY: rusage is plain data for which all-zero is valid.
            let mut u: libc::rusage = unsafe { std::mem::zeroed() };
            // SAFETY: getrusage only writes the struct it is given.
            unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) };
            let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
            tv(u.ru_utime) + tv(u.ru_stime)
        };
        println!(
            "{} n{n} d{d} s{seed}{}: unsat {} nodes {} write {:.2} s ({:.2} us/node) check {:.2} s ({:.2} us/node) wall {wall:.2} s ({:.2} us/node) cpu {cpu:.2} s hints/lemma {:.1}{}",
            all[0],
            if file { " +file" } else { "" },
            r.certificate.is_some(),
            r.nodes,
            r.search_seconds,
            per(r.search_seconds),
            r.check_seconds,
            per(r.check_seconds),
            per(wall),
            r.hints as f64 / r.lemmas.max(1) as f64,
            if file {
                format!(
                    " proof {} bytes",
                    std::fs::metadata(&pbp).map_or(0, |m| m.len())
                )
            } else {
                String::new()
            }
        );
        return;
    }
    if all.first().map(String::as_str) == Some("bit") {
        // `bit N D SEED [check]`: the bitboard search's VeriPB proof of one instance.
        let num = |i: usize| all[i].parse::<u64>().expect("N D SEED");
        let (n, d, seed) = (num(1) as u32, num(2) as usize, num(3));
        let mut inst = queens_sat::generate::diagonals::generate(n, 1, seed).expect("generate");
        inst.excluded.truncate(d);
        let problem = Problem::presolve(&inst, QUEEN).expect("presolve");
        let dir = tempfile::tempdir_in(".").expect("temp dir");
        let (opb, pbp) = (dir.path().join("i.opb"), dir.path().join("i.pbp"));
        let r =
            queens_sat::solve::bitboard::pbproof::search_veripb(&problem, &opb, &pbp, None, None)
                .expect("search");
        let s = r.stats;
        println!(
            "n{n} d{d} s{seed}: unsat {} nodes {} empty {} bounds {} parity {} branches {} diagonals {} inlined {} bytes {} ({:.0}/node) write {:.2} s ({:.2} us/node)",
            matches!(r.answer, Answer::Unsat),
            r.nodes,
            s.empty,
            s.bounds,
            s.parity,
            s.branches,
            s.diagonals,
            s.inlined,
            s.bytes,
            s.bytes as f64 / r.nodes as f64,
            r.seconds,
            r.seconds * 1e6 / r.nodes as f64
        );
        if all.get(4).map(String::as_str) == Some("pbcheck") {
            let t = Instant::now();
            let v = queens_sat_check::pbcheck::check_files(&opb, &pbp).expect("the proof checks");
            let secs = t.elapsed().as_secs_f64();
            println!(
                "pbcheck: unsat {} in {secs:.2} s ({:.2} us/node)",
                v.unsat,
                secs * 1e6 / r.nodes as f64
            );
        }
        if all.get(4).map(String::as_str) == Some("check") {
            let c = check(&opb, &pbp).expect("the proof checks");
            println!(
                "checked {} in {:.1} s ({:.1} us/node)",
                c.unsat,
                c.seconds,
                c.seconds * 1e6 / r.nodes as f64
            );
        }
        return;
    }
    if all.first().map(String::as_str) == Some("one") {
        // `one N D SEED`: one instance, the given prefix, bounds only.
        let num = |i: usize| all[i].parse::<u64>().expect("N D SEED");
        let (n, d, seed) = (num(1) as u32, num(2) as usize, num(3));
        let mut inst = queens_sat::generate::diagonals::generate(n, 1, seed).expect("generate");
        inst.excluded.truncate(d);
        let problem = Problem::presolve(&inst, QUEEN).expect("presolve");
        let dir = tempfile::tempdir_in(".").expect("temp dir");
        let (opb, pbp) = (dir.path().join("i.opb"), dir.path().join("i.pbp"));
        let t = Instant::now();
        let r = refute(&problem, &opb, &pbp, true).expect("refute");
        let write = t.elapsed().as_secs_f64();
        let s = r.stats;
        println!(
            "n{n} d{d} s{seed}: {:?} {s:?} write {write:.1} s",
            matches!(r.answer, Answer::Unsat)
        );
        let c = check(&opb, &pbp).expect("the proof checks");
        let steps = s.empty + 2 * s.bounds + s.branches;
        println!(
            "checked {} in {:.1} s: {:.0} steps/s, {:.1} us/node",
            c.unsat,
            c.seconds,
            steps as f64 / c.seconds,
            c.seconds * 1e6 / s.nodes as f64
        );
        return;
    }
    let mut args = all.into_iter();
    let n_min: u32 = args.next().map_or(8, |a| a.parse().expect("N_MIN"));
    let n_max: u32 = args.next().map_or(12, |a| a.parse().expect("N_MAX"));
    let seeds: u64 = args.next().map_or(3, |a| a.parse().expect("SEEDS"));
    let dir = tempfile::tempdir().expect("temp dir");
    let (opb, pbp) = (dir.path().join("i.opb"), dir.path().join("i.pbp"));
    println!(
        "| instance | bounds | nodes | empty | bound | branch | pol terms/bound | hints/rup | bytes/node | write s | check s | steps/s |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|");
    for n in n_min..=n_max {
        for seed in 1..=seeds {
            let full = queens_sat::generate::diagonals::generate(n, 1, seed).expect("generate");
            // The shortest UNSAT prefix.
            let Some((d, problem)) = (1..=full.excluded.len()).find_map(|d| {
                let mut inst = full.clone();
                inst.excluded.truncate(d);
                let p = Problem::presolve(&inst, QUEEN).ok()?;
                if p.unsat.is_some() {
                    return None;
                }
                let r = refute(&p, &opb, &pbp, true).expect("refute");
                matches!(r.answer, Answer::Unsat).then_some((d, p))
            }) else {
                continue;
            };
            for sums in [true, false] {
                let t = Instant::now();
                let r = refute(&problem, &opb, &pbp, sums).expect("refute");
                let write = t.elapsed().as_secs_f64();
                assert_eq!(r.answer, Answer::Unsat);
                let c = check(&opb, &pbp).expect("the proof checks");
                assert!(c.unsat);
                let s = r.stats;
                let steps = s.empty + 2 * s.bounds + s.branches;
                println!(
                    "| n{n} d{d} s{seed} | {} | {} | {} | {} | {} | {:.1} | {:.1} | {:.0} | {:.3} | {:.3} | {:.0} |",
                    if sums { "yes" } else { "no" },
                    s.nodes,
                    s.empty,
                    s.bounds,
                    s.branches,
                    s.pol_terms as f64 / s.bounds.max(1) as f64,
                    s.hints as f64 / (s.empty + s.bounds + s.branches).max(1) as f64,
                    s.bytes as f64 / s.nodes as f64,
                    write,
                    c.seconds,
                    steps as f64 / c.seconds,
                );
            }
        }
    }
}
