//! Answers that name their source and proofs for every UNSAT (issue 52 §4): when presolve
//! decides an instance, every front end names `presolve` (with its reason) on every run and for
//! every solver asked; `--certify --proof F` leaves a proof of presolve's refutation that an
//! independent checker accepts over the unpresolved model.

use std::path::Path;

use crate::common::run_expect;
use tempfile::TempDir;

/// Two pre-placed queens on one diagonal, and a row whose cells are all blocked.
const ATTACKING: &str =
    "Q.......\n........\n........\n...Q....\n........\n........\n........\n........\n";
const DEAD_ROW: &str =
    "x.......\nxxxxxxxx\n........\n........\n........\n........\n........\n........\n";

/// Checks an LRAT proof of the empty clause against a DIMACS CNF by its hints alone, written for
/// this test: each hinted clause, under the assignment so far, must be unit (its open literal
/// is set) or falsified (the refutation holds).
fn lrat_refutes(cnf: &str, lrat: &str) -> bool {
    let clauses: Vec<Vec<i64>> = cnf
        .lines()
        .filter(|l| !l.starts_with('c') && !l.starts_with('p') && !l.trim().is_empty())
        .map(|l| {
            l.split_whitespace()
                .map(|x| x.parse::<i64>().unwrap())
                .take_while(|&x| x != 0)
                .collect()
        })
        .collect();
    let line = lrat.lines().next().expect("one proof line");
    let words: Vec<i64> = line
        .split_whitespace()
        .map(|x| x.parse().unwrap())
        .collect();
    // `ID 0 HINTS 0`: the empty clause.
    assert_eq!(words[0] as usize, clauses.len() + 1, "{line}");
    assert_eq!(words[1], 0, "the derived clause is empty: {line}");
    let hints = &words[2..words.len() - 1];
    let mut truth = std::collections::HashMap::new();
    for &h in hints {
        let c = &clauses[h as usize - 1];
        let open: Vec<i64> = c
            .iter()
            .copied()
            .filter(|l| truth.get(&l.abs()).is_none_or(|&t: &bool| t == (*l > 0)))
            .collect();
        if open.iter().any(|l| truth.get(&l.abs()) == Some(&(*l > 0))) {
            return false; // a satisfied clause is no hint
        }
        match open.as_slice() {
            [] => return true,
            [l] => {
                truth.insert(l.abs(), *l > 0);
            }
            _ => return false,
        }
    }
    false
}

fn instance(dir: &Path, name: &str, text: &str) -> String {
    std::fs::write(dir.join(name), text).unwrap();
    name.to_string()
}

#[test]
fn presolve_answers_are_named_presolve_on_every_run() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let inst = instance(d, "a.txt", ATTACKING);
    for solver in ["auto", "varisat", "bitboard", "varisat,lib:cadical"] {
        for _ in 0..3 {
            let r = run_expect(
                d,
                &[
                    "solve",
                    "--instance",
                    &inst,
                    "--solver",
                    solver,
                    "--format",
                    "json",
                ],
                20,
            );
            let v: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap();
            assert_eq!(v["solver"], "presolve", "{solver}: {}", r.stdout);
            assert_eq!(
                v["reason"], "pre-placed queens at (0,0) and (3,3) share a diagonal",
                "{solver}"
            );
        }
    }
    let r = run_expect(d, &["solve", "--instance", &inst], 20);
    assert!(r.stderr.contains("solver=presolve"), "{}", r.stderr);
    // `encode` writes what it is asked, and says that presolve decided.
    let r = run_expect(d, &["encode", "--instance", &inst, "-o", "a.cnf"], 0);
    assert!(
        r.stderr
            .contains("presolve refuted the instance (pre-placed queens at (0,0)")
            && r.stderr.contains("--no-presolve writes the full encoding"),
        "{}",
        r.stderr
    );
    let r = run_expect(d, &["encode", "-n", "8", "-o", "q.cnf"], 0);
    assert!(!r.stderr.contains("presolve refuted"), "{}", r.stderr);
}

#[test]
fn presolve_refutations_leave_a_checked_proof() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    for (name, text) in [("a.txt", ATTACKING), ("r.txt", DEAD_ROW)] {
        let inst = instance(d, name, text);
        // LRAT, over the CNF of `encode --amo pairwise --no-presolve`.
        let r = run_expect(
            d,
            &[
                "solve",
                "--instance",
                &inst,
                "--certify",
                "--proof",
                "p.lrat",
            ],
            20,
        );
        assert!(r.stderr.contains("solver=presolve"), "{}", r.stderr);
        run_expect(
            d,
            &[
                "encode",
                "--instance",
                &inst,
                "--amo",
                "pairwise",
                "--no-presolve",
                "-o",
                "f.cnf",
            ],
            0,
        );
        let cnf = std::fs::read_to_string(d.join("f.cnf")).unwrap();
        let proof = std::fs::read_to_string(d.join("p.lrat")).unwrap();
        assert!(lrat_refutes(&cnf, &proof), "{name}: {proof}");
        // A proof with its last hint dropped (the conflicting clause) does not refute.
        let mut words: Vec<&str> = proof.split_whitespace().collect();
        words.remove(words.len() - 2);
        assert!(!lrat_refutes(&cnf, &words.join(" ")), "{name}: tampered");

        // VeriPB, over the model of `encode --to opb --no-presolve`, checked by the veripb
        // crate.
        run_expect(
            d,
            &[
                "solve",
                "--instance",
                &inst,
                "--certify",
                "--proof",
                "p.pbp",
            ],
            20,
        );
        run_expect(
            d,
            &[
                "encode",
                "--instance",
                &inst,
                "--to",
                "opb",
                "--no-presolve",
                "-o",
                "f.opb",
            ],
            0,
        );
        let c = crate::veripb_crate::check(&d.join("f.opb"), &d.join("p.pbp")).unwrap();
        assert!(c.unsat, "{name}");
    }
}
