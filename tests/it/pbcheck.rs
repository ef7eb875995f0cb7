//! The in-house VeriPB checker (src/certify/pbcheck.rs) against the `veripb` crate: on the
//! random instances of tests/it/veripb.rs both accept every proof with the same conclusion; on
//! tampered proofs (a dropped hint, wrong pol coefficients, another instance, a wrong ID, a hint
//! at a deleted constraint, a wrong division, a rup that is not implied, no end line, an UNSAT
//! conclusion without a contradiction, removed lines) both reject, or both accept with the same
//! conclusion. Also the constraint API and chunked feeding.

use std::path::Path;

use crate::common;
use crate::veripb::{bounded_instance, files, tamper};

use crate::veripb_crate::check;
use queens_sat::answer::Answer;
use queens_sat::certify::pb::refute;
use queens_sat::instance::Instance;
use queens_sat::piece::QUEEN;
use queens_sat::presolve::Problem;
use queens_sat_check::pbcheck::{PbChecker, check_files, parse_opb};

/// Both checkers' verdicts: `Ok(unsat)` or the error.
fn both(opb: &Path, pbp: &Path) -> (Result<bool, String>, Result<bool, String>) {
    let ours = check_files(opb, pbp)
        .map(|v| v.unsat)
        .map_err(|e| e.to_string());
    let theirs = check(opb, pbp).map(|c| c.unsat).map_err(|e| e.to_string());
    (ours, theirs)
}

/// The proof line an error names: `file.pbp:N` (both checkers) or `at line N` (veripb's
/// syntax errors).
fn line_of(e: &str) -> Option<usize> {
    let digits = |s: &str| {
        let n: String = s.chars().take_while(char::is_ascii_digit).collect();
        n.parse().ok()
    };
    if let Some(i) = e.find(".pbp:") {
        return digits(&e[i + 5..]);
    }
    e.find("at line ").and_then(|i| digits(&e[i + 8..]))
}

/// Both errors name the same line (veripb names the line after the last at the end of the
/// file).
#[track_caller]
fn same_line(ours: &str, theirs: &str, what: &str) {
    let (a, b) = (line_of(ours), line_of(theirs));
    assert!(a.is_some(), "{what}: no line in {ours}");
    if !theirs.contains("EOF") {
        assert_eq!(a, b, "{what}: pbcheck {ours}, veripb {theirs}");
    }
}

/// Both checkers reject the proof, at the same line.
#[track_caller]
fn both_reject(opb: &Path, pbp: &Path, what: &str) {
    let (ours, theirs) = both(opb, pbp);
    // Shown with --nocapture: both checkers' reasons.
    eprintln!("{what}:\n  pbcheck: {ours:?}\n  veripb: {theirs:?}");
    match (&ours, &theirs) {
        (Err(a), Err(b)) => same_line(a, b, what),
        _ => panic!("{what}: pbcheck {ours:?}, veripb {theirs:?}"),
    }
}

/// Both checkers give the same verdict (an error on both sides counts as the same).
#[track_caller]
fn agree(opb: &Path, pbp: &Path, what: &str) -> Result<bool, String> {
    let (ours, theirs) = both(opb, pbp);
    match (&ours, &theirs) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "{what}: the conclusions differ"),
        (Err(a), Err(b)) => same_line(a, b, what),
        _ => panic!("{what}: pbcheck {ours:?}, veripb {theirs:?}"),
    }
    ours
}

/// The random instances of `every_unsat_proof_checks_and_every_board_is_a_solution`: every
/// proof, UNSAT or not, gets the same verdict from both checkers, and every UNSAT proof
/// checks to `conclusion UNSAT`.
#[test]
fn both_checkers_agree_on_random_instances() {
    let dir = tempfile::tempdir().unwrap();
    let (opb, pbp) = files(dir.path(), "case");
    let (mut sat, mut unsat, mut pol) = (0, 0, 0);
    for (i, inst) in common::random_instances(0x0E21_9B0F, 160, 9)
        .into_iter()
        .enumerate()
    {
        let (piece, name) = common::piece_of(i);
        let problem = Problem::presolve(&inst, piece).unwrap();
        if problem.unsat.is_some() {
            continue;
        }
        for sums in [true, false] {
            let what = format!("case {i} ({name}, n={}, sums {sums})", inst.n);
            let r = refute(&problem, &opb, &pbp, sums).unwrap_or_else(|e| panic!("{what}: {e}"));
            let (ours, theirs) = both(&opb, &pbp);
            let ours = ours.unwrap_or_else(|e| panic!("{what}: pbcheck: {e}"));
            let theirs = theirs.unwrap_or_else(|e| panic!("{what}: veripb: {e}"));
            assert_eq!(ours, theirs, "{what}");
            assert_eq!(ours, r.answer == Answer::Unsat, "{what}");
            if ours {
                let v = check_files(&opb, &pbp).unwrap();
                assert_eq!(v.steps.pol, r.stats.bounds, "{what}");
                assert_eq!(
                    v.steps.rup,
                    r.stats.empty + r.stats.bounds + r.stats.branches,
                    "{what}"
                );
                pol += v.steps.pol;
                unsat += 1;
            } else {
                sat += 1;
            }
        }
    }
    assert!(
        sat > 80 && unsat > 40 && pol > 20,
        "{sat} SAT, {unsat} UNSAT, {pol} pol"
    );
}

/// The first line of `pbp` for which `pick` holds, and its index.
fn find_line(pbp: &Path, pick: impl Fn(&str) -> bool) -> (usize, String) {
    let text = std::fs::read_to_string(pbp).unwrap();
    text.lines()
        .enumerate()
        .find(|(_, l)| pick(l))
        .map(|(i, l)| (i, l.to_string()))
        .expect("a line to tamper with")
}

/// Tampered proofs of an UNSAT instance with bound steps: both checkers reject each.
#[test]
fn tampered_proofs_fail_in_both_checkers() {
    let dir = tempfile::tempdir().unwrap();
    let (opb, pbp) = files(dir.path(), "good");
    let problem = bounded_instance();
    assert_eq!(
        refute(&problem, &opb, &pbp, true).unwrap().answer,
        Answer::Unsat
    );
    assert_eq!(agree(&opb, &pbp, "the good proof"), Ok(true));
    let bad = dir.path().join("bad.pbp");
    let text = std::fs::read_to_string(&pbp).unwrap();
    let last_id: u64 = {
        let f: u64 = find_line(&pbp, |l| l.starts_with("f "))
            .1
            .trim_start_matches("f ")
            .trim_end_matches(" ;")
            .parse()
            .unwrap();
        f + text
            .lines()
            .filter(|l| l.starts_with("rup ") || l.starts_with("pol "))
            .count() as u64
    };

    // A branch's lemma without its last hint.
    tamper(&pbp, &bad, |l| {
        let (head, hints) = l.strip_prefix("rup ")?.split_once(" : ")?;
        let mut ids: Vec<&str> = hints.trim_end_matches(" ;").split(' ').collect();
        (ids.len() > 2).then(|| {
            ids.pop();
            format!("rup {head} : {} ;", ids.join(" "))
        })
    });
    both_reject(&opb, &bad, "a dropped hint");

    // A bound step with every multiplier 1.
    tamper(&pbp, &bad, |l| {
        let body = l.strip_prefix("pol ")?;
        let words: Vec<&str> = body.split(' ').collect();
        let out: Vec<&str> = (0..words.len())
            .map(|j| {
                if words.get(j + 1) == Some(&"*") {
                    "1"
                } else {
                    words[j]
                }
            })
            .collect();
        Some(format!("pol {}", out.join(" ")))
    });
    both_reject(&opb, &bad, "wrong pol coefficients");

    // A wrong ID: a hint beyond the last constraint.
    tamper(&pbp, &bad, |l| {
        let (head, hints) = l.strip_prefix("rup ")?.split_once(" : ")?;
        Some(format!("rup {head} : {} {hints}", last_id + 5))
    });
    both_reject(&opb, &bad, "a hint beyond the last ID");

    // A hint at a deleted constraint, visited in the first pass (right after the negation).
    let (del_at, del_line) = find_line(&pbp, |l| l.starts_with("del id "));
    let gone = del_line.split(' ').nth(2).unwrap().to_string();
    let mut seen = 0;
    tamper(&pbp, &bad, |l| {
        seen += 1;
        if seen <= del_at + 1 {
            return None;
        }
        let (head, hints) = l.strip_prefix("rup ")?.split_once(" : ")?;
        Some(format!("rup {head} : {gone} {hints}"))
    });
    both_reject(&opb, &bad, "a hint at a deleted constraint");

    // A pol dividing wrongly: the bound constraint divided by 1000 is too weak for its rup.
    tamper(&pbp, &bad, |l| {
        let body = l.strip_prefix("pol ")?.strip_suffix(" ;")?;
        Some(format!("pol {body} 1000 d ;"))
    });
    both_reject(&opb, &bad, "a division");
    // A division without its divisor, and by 0.
    tamper(&pbp, &bad, |l| {
        let body = l.strip_prefix("pol ")?.strip_suffix(" ;")?;
        Some(format!("pol {body} d ;"))
    });
    both_reject(&opb, &bad, "`d` alone");
    tamper(&pbp, &bad, |l| {
        let body = l.strip_prefix("pol ")?.strip_suffix(" ;")?;
        Some(format!("pol {body} 0 d ;"))
    });
    both_reject(&opb, &bad, "`0 d`");

    // A rup whose constraint is not implied: a lemma of two literals or more asks for all.
    tamper(&pbp, &bad, |l| {
        let (head, hints) = l.strip_prefix("rup ")?.split_once(" : ")?;
        let lits = head.matches('~').count();
        (lits >= 2).then(|| format!("rup {} >= {lits} : {hints}", head.trim_end_matches(" >= 1")))
    });
    both_reject(&opb, &bad, "a rup that is not implied");

    // No end line.
    let mut lines: Vec<&str> = text.lines().collect();
    assert!(lines.pop().unwrap().starts_with("end "));
    std::fs::write(&bad, lines.join("\n") + "\n").unwrap();
    both_reject(&opb, &bad, "no end line");

    // `conclusion UNSAT` naming a constraint that is no contradiction, and without any.
    tamper(&pbp, &bad, |l| {
        l.starts_with("conclusion UNSAT")
            .then(|| "conclusion UNSAT : 1 ;".to_string())
    });
    both_reject(&opb, &bad, "UNSAT at constraint 1");
    std::fs::write(
        &bad,
        "pseudo-Boolean proof version 3.0\noutput NONE ;\nconclusion UNSAT ;\nend pseudo-Boolean proof ;\n",
    )
    .unwrap();
    both_reject(&opb, &bad, "UNSAT without a contradiction");

    // An OPB-style comment (VeriPB 3.0 comments start with `%`), a deleted original hinted.
    tamper(&pbp, &bad, |l| {
        l.starts_with("f ").then(|| format!("{l}\n* a comment"))
    });
    both_reject(&opb, &bad, "a `*` comment");
    tamper(&pbp, &bad, |l| {
        l.starts_with("f ")
            .then(|| format!("{l}\ndel id 1 2 3 4 5 6 7 8 9 10 ;"))
    });
    both_reject(&opb, &bad, "originals deleted");

    // The proof of another instance.
    let mut other = problem.instance.clone();
    let extra = (0..19)
        .map(|key| queens_sat::instance::ExcludedDiagonal {
            kind: queens_sat::piece::LineKind::Diagonal,
            key,
        })
        .find(|d| !other.excluded.contains(d))
        .unwrap();
    other.excluded.push(extra);
    let other = Problem::presolve(&other, QUEEN).unwrap();
    let (other_opb, other_pbp) = files(dir.path(), "other");
    refute(&other, &other_opb, &other_pbp, true).unwrap();
    both_reject(&other_opb, &pbp, "another instance's proof");

    // Changes both accept: `%` comments, `conclusion NONE`, `conclusion UNSAT` without its ID.
    tamper(&pbp, &bad, |l| {
        l.starts_with("f ")
            .then(|| format!("% a comment\n{l} % and another"))
    });
    assert_eq!(agree(&opb, &bad, "comments"), Ok(true));
    tamper(&pbp, &bad, |l| {
        l.starts_with("conclusion UNSAT")
            .then(|| "conclusion NONE ;".to_string())
    });
    assert_eq!(agree(&opb, &bad, "conclusion NONE"), Ok(false));
    tamper(&pbp, &bad, |l| {
        l.starts_with("conclusion UNSAT")
            .then(|| "conclusion UNSAT ;".to_string())
    });
    assert_eq!(agree(&opb, &bad, "conclusion UNSAT without ID"), Ok(true));
}

/// Every line of a proof removed in turn (a sample of them, with the header, the footer and
/// the `f` line): the checkers agree on each.
#[test]
fn removed_lines_get_the_same_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let (opb, pbp) = files(dir.path(), "good");
    let problem = bounded_instance();
    refute(&problem, &opb, &pbp, true).unwrap();
    let text = std::fs::read_to_string(&pbp).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let bad = dir.path().join("bad.pbp");
    let step = (lines.len() / 40).max(1);
    let mut picks: Vec<usize> = (0..lines.len()).step_by(step).collect();
    picks.extend([1, lines.len() - 1, lines.len() - 2, lines.len() - 3]);
    let (mut rejected, mut accepted) = (0, 0);
    for drop in picks {
        let kept: Vec<&str> = lines
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != drop)
            .map(|(_, l)| *l)
            .collect();
        std::fs::write(&bad, kept.join("\n") + "\n").unwrap();
        match agree(&opb, &bad, &format!("line {} removed", drop + 1)) {
            Ok(_) => accepted += 1,
            Err(_) => rejected += 1,
        }
    }
    eprintln!("{rejected} rejected, {accepted} accepted");
    assert!(rejected > 10, "{rejected} rejected, {accepted} accepted");
}

/// The constraint API gives the OPB file's verdict; a proof fed in chunks of lines, or line by
/// line, checks the same; the plain boards n = 2, 3 are refuted.
#[test]
fn constraint_api_and_chunks() {
    let dir = tempfile::tempdir().unwrap();
    let (opb, pbp) = files(dir.path(), "api");
    for n in [2, 3] {
        let p = Problem::presolve(&Instance::plain(n), QUEEN).unwrap();
        refute(&p, &opb, &pbp, true).unwrap();
        assert!(check_files(&opb, &pbp).unwrap().unsat, "n = {n}");
    }
    let problem = bounded_instance();
    refute(&problem, &opb, &pbp, true).unwrap();
    let model = std::fs::read_to_string(&opb).unwrap();
    let proof = std::fs::read_to_string(&pbp).unwrap();
    let (num_vars, constraints) = parse_opb(&model, "api.opb").unwrap();
    let whole = check_files(&opb, &pbp).unwrap();
    assert!(whole.unsat);

    let mut ck = PbChecker::new(num_vars, &constraints).unwrap();
    let lines: Vec<&str> = proof.lines().collect();
    for chunk in lines.chunks(7) {
        ck.check_text(&chunk.join("\n")).unwrap();
    }
    assert_eq!(ck.finish().unwrap(), whole);

    let mut ck = PbChecker::new(num_vars, &constraints).unwrap();
    for l in &lines {
        ck.check_line(l).unwrap();
    }
    assert_eq!(ck.finish().unwrap(), whole);

    // The error names the line.
    let mut ck = PbChecker::new(num_vars, &constraints).unwrap();
    ck.set_source("p.pbp");
    let e = ck
        .check_text("pseudo-Boolean proof version 3.0\nf 1 ;\n")
        .unwrap_err()
        .to_string();
    assert!(e.contains("p.pbp:2"), "{e}");
}

/// A small xorshift generator for the random proofs.
struct Prng(u64);

impl Prng {
    fn new(seed: u64) -> Prng {
        Prng(seed | 1)
    }

    fn below(&mut self, k: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % k as u64) as usize
    }

    fn coin(&mut self) -> bool {
        self.below(2) == 1
    }
}

/// Random small models and random steps (pol with `*`, `d`, `s`, `w`, literal axioms and
/// relative IDs; rup of random constraints, `>=` and `<=`, with random hints or none; random
/// deletions; `conclusion UNSAT` or `NONE`): both checkers give the same verdict, failing at the
/// same line. A pol whose arithmetic differed would show in the verdicts of the rups after it.
#[test]
fn random_steps_get_the_same_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let (opb, pbp) = files(dir.path(), "fuzz");
    let mut rng = Prng::new(0x9B_C4EC);
    let (mut ok, mut failed, mut unsat) = (0, 0, 0);
    for case in 0..300 {
        let n = 3 + rng.below(3);
        let var = |rng: &mut Prng| 1 + rng.below(n);
        let mut model = String::new();
        let mut last = 0i64;
        for _ in 0..2 + rng.below(4) {
            for _ in 0..1 + rng.below(3) {
                let c = rng.below(7) as i64 - 3;
                model += &format!("{c:+} x{} ", var(&mut rng));
            }
            let (rel, ids) = [(">=", 1), ("<=", 1), ("=", 2)][rng.below(3)];
            model += &format!("{rel} {} ;\n", rng.below(6) as i64 - 2);
            last += ids;
        }
        std::fs::write(&opb, format!("* #variable= {n} #constraint= 5\n{model}")).unwrap();
        let mut proof = String::from("pseudo-Boolean proof version 3.0\n");
        let mut live: Vec<i64> = (1..=last).collect();
        for _ in 0..10 {
            let pick = |rng: &mut Prng, live: &[i64]| live[rng.below(live.len())];
            let operand = |rng: &mut Prng, live: &[i64], last: i64| match rng.below(5) {
                0 => format!("x{}", var(rng)),
                1 => format!("~x{}", var(rng)),
                2 => "-1".to_string(),
                _ => {
                    let _ = last;
                    pick(rng, live).to_string()
                }
            };
            match rng.below(5) {
                0 | 1 => {
                    let mut rpn = operand(&mut rng, &live, last);
                    for _ in 0..1 + rng.below(3) {
                        rpn += &format!(" {}", operand(&mut rng, &live, last));
                        if rng.coin() {
                            rpn += &format!(" {} *", 1 + rng.below(3));
                        }
                        rpn += " +";
                        match rng.below(5) {
                            0 => rpn += &format!(" {} d", 1 + rng.below(3)),
                            1 => rpn += " s",
                            2 => rpn += &format!(" x{} w", var(&mut rng)),
                            _ => {}
                        }
                    }
                    proof += &format!("pol {rpn} ;\n");
                    last += 1;
                    live.push(last);
                }
                2 | 3 => {
                    let mut c = String::new();
                    for _ in 0..1 + rng.below(2) {
                        let neg = if rng.coin() { "~" } else { "" };
                        c += &format!("{} {neg}x{} ", 1 + rng.below(2), var(&mut rng));
                    }
                    let rel = if rng.below(4) == 0 { "<=" } else { ">=" };
                    c += &format!("{rel} {}", rng.below(3));
                    let hints = if rng.below(3) == 0 {
                        String::new()
                    } else {
                        // Most often every live constraint, in a random order.
                        let k = if rng.coin() {
                            live.len()
                        } else {
                            1 + rng.below(4)
                        };
                        let mut h: Vec<String> =
                            (0..k).map(|_| pick(&mut rng, &live).to_string()).collect();
                        if rng.coin() {
                            h.insert(rng.below(h.len()), "~".into());
                        }
                        format!(" : {}", h.join(" "))
                    };
                    proof += &format!("rup {c}{hints} ;\n");
                    last += 1;
                    live.push(last);
                }
                _ => {
                    if live.len() > 2 {
                        let i = rng.below(live.len());
                        proof += &format!("del id {} ;\n", live.remove(i));
                    }
                }
            }
        }
        let conclusion = if rng.coin() { "UNSAT" } else { "NONE" };
        proof += &format!("output NONE ;\nconclusion {conclusion} ;\nend pseudo-Boolean proof ;\n");
        std::fs::write(&pbp, &proof).unwrap();
        match agree(&opb, &pbp, &format!("case {case}:\n{model}{proof}")) {
            Ok(true) => unsat += 1,
            Ok(false) => ok += 1,
            Err(_) => failed += 1,
        }
    }
    eprintln!("{ok} checked, {unsat} UNSAT, {failed} failed");
    assert!(
        ok > 15 && failed > 15 && unsat > 5,
        "{ok} checked, {unsat} UNSAT, {failed} failed"
    );
}

/// `PbChecker::rup_clause` (the certified route's lemmas: a clause of negated variables, with
/// its fast paths for binary clauses and the negation) against `PbChecker::rup` of the same
/// constraint, on random models of binary clauses, clauses and at-most-one lines, random
/// lemmas (a variable twice now and then) and random hints, deleted ones included: the same
/// verdict and the same ID every time.
#[test]
fn rup_clause_agrees_with_rup() {
    use queens_sat_check::pbcheck::{PbConstraint, Relation};
    let mut rng = Prng::new(0x0C1A_05E5);
    let (mut ok, mut failed) = (0, 0);
    for _ in 0..400 {
        let n = 3 + rng.below(4);
        let var = |rng: &mut Prng| 1 + rng.below(n) as i32;
        let mut model = Vec::new();
        for _ in 0..2 + rng.below(5) {
            let len = 2 + rng.below(2);
            let lits: Vec<i32> = (0..len).map(|_| var(&mut rng)).collect();
            model.push(match rng.below(3) {
                0 => PbConstraint {
                    terms: lits.iter().map(|&v| (1, -v)).collect(),
                    relation: Relation::Ge,
                    rhs: 1,
                },
                1 => PbConstraint {
                    terms: lits.iter().map(|&v| (1, v)).collect(),
                    relation: Relation::Ge,
                    rhs: 1,
                },
                _ => PbConstraint {
                    terms: lits.iter().map(|&v| (1, v)).collect(),
                    relation: Relation::Le,
                    rhs: 1,
                },
            });
        }
        let mut fast = PbChecker::new(n as u32, &model).unwrap();
        let mut slow = PbChecker::new(n as u32, &model).unwrap();
        for _ in 0..12 {
            let last = fast.last_id();
            assert_eq!(last, slow.last_id());
            if rng.below(5) == 0 {
                let id = 1 + rng.below(last as usize) as i64;
                assert_eq!(fast.delete(&[id]).is_ok(), slow.delete(&[id]).is_ok());
                continue;
            }
            let path: Vec<u32> = (0..rng.below(4)).map(|_| var(&mut rng) as u32).collect();
            let hints: Vec<u64> = (0..1 + rng.below(5))
                .map(|_| 1 + rng.below(last as usize) as u64)
                .collect();
            let a = fast.rup_clause(&path, &hints);
            let terms: Vec<(i64, i32)> = path.iter().map(|&v| (1, -(v as i32))).collect();
            let h: Vec<i64> = hints.iter().map(|&h| h as i64).collect();
            let b = slow.rup(&terms, Relation::Ge, 1, &h);
            match (&a, &b) {
                (Ok(x), Ok(y)) => {
                    assert_eq!(x, y);
                    ok += 1;
                }
                (Err(_), Err(_)) => failed += 1,
                _ => panic!("{path:?} {hints:?}: {a:?} against {b:?}\n{model:?}"),
            }
        }
    }
    assert!(ok > 100 && failed > 100, "{ok} checked, {failed} failed");
}
