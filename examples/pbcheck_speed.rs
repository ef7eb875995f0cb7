//! Checking speed of the in-house VeriPB checker (`certify::pbcheck`) against the `veripb`
//! crate, on the same proofs: the spike's instances of issue 46 (for each seed, the shortest
//! UNSAT prefix of the generated excluded diagonals), proofs written by `certify::pb::refute`
//! with the sum bounds. Per instance: nodes and steps, the seconds of each checker (pbcheck:
//! best of three, reading the files; veripb: one run) and its microseconds per search node, then the in-house checker's speed per step kind (a second,
//! instrumented pass that times every line by its rule), and the seconds of a replay of the
//! same steps through the structured API (`PbChecker::rup`, `pol_sum`, `delete`: no text).
//!
//! ```sh
//! cargo run --release --example pbcheck_speed -- [N_MIN] [N_MAX] [SEEDS]
//! cargo run --release --example pbcheck_speed -- one N D SEED
//! cargo run --release --example pbcheck_speed -- write N D SEED PREFIX   # PREFIX.opb/.pbp kept
//! cargo run --release --example pbcheck_speed -- check OPB PBP [REPEAT]  # pbcheck only (perf)
//! ```
//! The `veripb` column runs the `veripb` crate (a dev-dependency: examples have it).

use std::io::BufRead;
use std::path::Path;
use std::time::Instant;

use queens_sat::answer::Answer;
use queens_sat::certify::pb::refute;
use queens_sat::piece::QUEEN;
use queens_sat::presolve::Problem;
use queens_sat_check::pbcheck::{Lit, Operand, PbChecker, Relation, check_files};

#[path = "../tests/support/veripb_crate.rs"]
mod veripb_crate;

/// Seconds of the veripb crate on the proof.
fn veripb_seconds(opb: &Path, pbp: &Path) -> f64 {
    let c = veripb_crate::check(opb, pbp).expect("veripb checks the proof");
    assert!(c.unsat);
    c.seconds
}

/// Per rule: lines and seconds, timing each line (the instrumented pass).
fn per_kind(opb: &Path, pbp: &Path) -> Vec<(String, u64, f64)> {
    let mut ck = PbChecker::from_opb_file(opb).expect("the OPB file");
    let file = std::io::BufReader::new(std::fs::File::open(pbp).expect("the proof"));
    let mut kinds: Vec<(String, u64, f64)> = Vec::new();
    for line in file.lines() {
        let line = line.expect("a line");
        let kind = line.split(' ').next().unwrap_or("").to_string();
        let t = Instant::now();
        ck.check_line(&line).expect("the proof checks");
        let dt = t.elapsed().as_secs_f64();
        match kinds.iter_mut().find(|k| k.0 == kind) {
            Some(k) => {
                k.1 += 1;
                k.2 += dt;
            }
            None => kinds.push((kind, 1, dt)),
        }
    }
    assert!(ck.finish().expect("the proof ends").unsat);
    kinds.retain(|k| matches!(k.0.as_str(), "rup" | "pol" | "del"));
    kinds
}

/// A proof step for the structured API.
enum Step {
    Rup(Vec<(i64, i32)>, i64, Vec<i64>),
    Pol(Vec<(Operand, i64)>),
    Del(Vec<i64>),
}

fn lit(word: &str) -> i32 {
    let (neg, name) = match word.strip_prefix('~') {
        Some(rest) => (true, rest),
        None => (false, word),
    };
    let v: i32 = name[1..].parse().expect("a variable");
    if neg { -v } else { v }
}

/// The steps of a proof written by `refute`, and the ID its conclusion names.
fn parse_steps(text: &str) -> (Vec<Step>, i64) {
    let mut steps = Vec::new();
    let mut unsat = 0;
    for line in text.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        match w.first().copied() {
            Some("rup") => {
                let ge = w.iter().position(|&x| x == ">=").expect(">=");
                let terms = w[1..ge]
                    .chunks(2)
                    .map(|p| (p[0].parse().unwrap(), lit(p[1])))
                    .collect();
                let rhs = w[ge + 1].parse().unwrap();
                let hints = w[ge + 3..w.len() - 1]
                    .iter()
                    .map(|h| h.parse().unwrap())
                    .collect();
                steps.push(Step::Rup(terms, rhs, hints));
            }
            Some("pol") => {
                let mut ops = Vec::new();
                let mut i = 1;
                while i < w.len() - 1 {
                    if w[i] == "+" {
                        i += 1;
                        continue;
                    }
                    let op = if w[i].starts_with(['x', '~']) {
                        Operand::Axiom(Lit::from_dimacs(lit(w[i])).unwrap())
                    } else {
                        Operand::Id(w[i].parse().unwrap())
                    };
                    if w.get(i + 2) == Some(&"*") {
                        ops.push((op, w[i + 1].parse().unwrap()));
                        i += 3;
                    } else {
                        ops.push((op, 1));
                        i += 1;
                    }
                }
                steps.push(Step::Pol(ops));
            }
            Some("del") => {
                steps.push(Step::Del(
                    w[2..w.len() - 1]
                        .iter()
                        .map(|h| h.parse().unwrap())
                        .collect(),
                ));
            }
            Some("conclusion") if w.get(1) == Some(&"UNSAT") => {
                unsat = w[3].parse().unwrap();
            }
            _ => {}
        }
    }
    (steps, unsat)
}

/// Seconds of the structured replay of the proof (the OPB file loaded first, not timed).
fn structured_seconds(opb: &Path, pbp: &Path) -> f64 {
    let (steps, unsat) = parse_steps(&std::fs::read_to_string(pbp).expect("the proof"));
    let mut ck = PbChecker::from_opb_file(opb).expect("the OPB file");
    let t = Instant::now();
    for step in &steps {
        match step {
            Step::Rup(terms, rhs, hints) => {
                ck.rup(terms, Relation::Ge, *rhs, hints)
                    .expect("rup checks");
            }
            Step::Pol(ops) => {
                ck.pol_sum(ops).expect("pol checks");
            }
            Step::Del(ids) => ck.delete(ids).expect("del checks"),
        }
    }
    let v = ck.conclude_unsat(Some(unsat)).expect("a contradiction");
    assert!(v.unsat);
    t.elapsed().as_secs_f64()
}

fn measure(name: &str, problem: &Problem, dir: &Path) {
    let (opb, pbp) = (dir.join("i.opb"), dir.join("i.pbp"));
    let t = Instant::now();
    let r = refute(problem, &opb, &pbp, true).expect("refute");
    let write = t.elapsed().as_secs_f64();
    assert_eq!(r.answer, Answer::Unsat);
    let s = r.stats;
    let steps = s.empty + 2 * s.bounds + s.branches;
    // Best of three (the machine may be shared).
    let ours = (0..3)
        .map(|_| {
            let t = Instant::now();
            let v = check_files(&opb, &pbp).expect("pbcheck checks the proof");
            assert!(v.unsat);
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min);
    let theirs = veripb_seconds(&opb, &pbp);
    let structured = (0..3)
        .map(|_| structured_seconds(&opb, &pbp))
        .fold(f64::INFINITY, f64::min);
    let us = |sec: f64| sec * 1e6 / s.nodes as f64;
    let kinds = per_kind(&opb, &pbp);
    let rate = |k: &str| {
        kinds
            .iter()
            .find(|x| x.0 == k)
            .map_or("-".to_string(), |x| {
                format!("{:.0}", x.1 as f64 / x.2.max(1e-9))
            })
    };
    println!(
        "| {name} | {} | {} | {} | {:.2} | {:.3} | {:.2} | {:.2} | {:.3} | {:.2} | {:.1}x | {} | {} | {:.0} |",
        s.nodes,
        steps,
        s.bounds,
        s.bytes as f64 / 1e6,
        write,
        us(ours),
        us(structured),
        theirs,
        us(theirs),
        theirs / ours,
        rate("rup"),
        rate("pol"),
        steps as f64 / ours,
    );
}

fn header() {
    println!(
        "| instance | nodes | steps | bound (pol) | MB | write s | pbcheck us/node | structured us/node | veripb s | veripb us/node | ratio | pbcheck rup/s | pbcheck pol/s | pbcheck steps/s |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
}

fn main() {
    let all: Vec<String> = std::env::args().skip(1).collect();
    let dir = tempfile::tempdir_in(".").expect("temp dir");
    if all.first().map(String::as_str) == Some("write") {
        // `write N D SEED PREFIX`: PREFIX.opb and PREFIX.pbp, kept.
        let num = |i: usize| all[i].parse::<u64>().expect("write N D SEED PREFIX");
        let (n, d, seed) = (num(1) as u32, num(2) as usize, num(3));
        let mut inst = queens_sat::generate::diagonals::generate(n, 1, seed).expect("generate");
        inst.excluded.truncate(d);
        let problem = Problem::presolve(&inst, QUEEN).expect("presolve");
        let (opb, pbp) = (format!("{}.opb", all[4]), format!("{}.pbp", all[4]));
        let r = refute(&problem, Path::new(&opb), Path::new(&pbp), true).expect("refute");
        println!("{:?} {:?}", r.answer == Answer::Unsat, r.stats);
        return;
    }
    if all.first().map(String::as_str) == Some("check") {
        // `check OPB PBP [REPEAT]`: the in-house checker only, REPEAT times (for profiling).
        let repeat: u32 = all.get(3).map_or(1, |r| r.parse().expect("REPEAT"));
        let t = Instant::now();
        for _ in 0..repeat {
            let v = check_files(Path::new(&all[1]), Path::new(&all[2])).expect("checks");
            assert!(v.unsat);
        }
        println!(
            "{:.4} s per check",
            t.elapsed().as_secs_f64() / f64::from(repeat)
        );
        let v = check_files(Path::new(&all[1]), Path::new(&all[2])).expect("checks");
        println!("{:?}", v.steps);
        return;
    }
    if all.first().map(String::as_str) == Some("one") {
        let num = |i: usize| all[i].parse::<u64>().expect("one N D SEED");
        let (n, d, seed) = (num(1) as u32, num(2) as usize, num(3));
        let mut inst = queens_sat::generate::diagonals::generate(n, 1, seed).expect("generate");
        inst.excluded.truncate(d);
        let problem = Problem::presolve(&inst, QUEEN).expect("presolve");
        header();
        measure(&format!("n{n} d{d} s{seed}"), &problem, dir.path());
        return;
    }
    let mut args = all.into_iter();
    let n_min: u32 = args.next().map_or(12, |a| a.parse().expect("N_MIN"));
    let n_max: u32 = args.next().map_or(14, |a| a.parse().expect("N_MAX"));
    let seeds: u64 = args.next().map_or(2, |a| a.parse().expect("SEEDS"));
    header();
    let (opb, pbp) = (dir.path().join("f.opb"), dir.path().join("f.pbp"));
    for n in n_min..=n_max {
        for seed in 1..=seeds {
            let full = queens_sat::generate::diagonals::generate(n, 1, seed).expect("generate");
            // The shortest UNSAT prefix (without the bounds' proof: only the answer matters).
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
            measure(&format!("n{n} d{d} s{seed}"), &problem, dir.path());
        }
    }
}
