//! The certified bitboard search (src/solve/bitboard/proof.rs, `--solver bitboard --certify`):
//! verdicts and boards against the brute-force oracle, its LRAT proofs checked again by an
//! independent DRAT checker (dratify, without the hints), corrupted proofs refused, and the
//! default strategy's race under `--certify`.

use crate::common;

use common::oracle::instance_solutions;
use queens_sat::answer::Answer;
use queens_sat::board::Cell;
use queens_sat::encode::EncodeOptions;
use queens_sat::encode::amo::AmoKind;
use queens_sat::instance::Instance;
use queens_sat::piece::QUEEN;
use queens_sat::presolve::Problem;
use queens_sat::solve::Solver;
use queens_sat::solve::bitboard::proof::{pairwise, proof, search_certified};
use queens_sat_check::lrat::{Lrat, Step, Steps};

/// Random instances n <= 9 (pre-placed, blocked, both, excluded diagonals), queens and amazons,
/// through `Solver` with `--solver bitboard --certify`: the oracle's verdict, a board among the
/// oracle's solutions, and every UNSAT with a certificate (presolve's UNSAT is re-proved on the
/// full encoding by varisat).
#[test]
fn certified_search_matches_the_oracle() {
    let (mut sat, mut unsat, mut by_search) = (0, 0, 0);
    for (i, inst) in common::random_instances(0xCE27_1F1E, 240, 9)
        .into_iter()
        .enumerate()
    {
        let (piece, name) = common::piece_of(i);
        let expected = instance_solutions(&inst, name);
        let what = format!("case {i} ({name}, n={})", inst.n);
        let report = Solver::new(&inst, piece)
            .solver("bitboard")
            .certify(true)
            .solve()
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        match &report.status {
            Answer::Sat(board) => {
                common::oracle::assert_among(&expected, board, &what);
                sat += 1;
            }
            Answer::Unsat => {
                assert!(expected.is_empty(), "{what}: UNSAT, oracle disagrees");
                let c = report.certificate.as_ref().expect("a certificate");
                by_search += usize::from(c.checker.contains("LRAT"));
                unsat += 1;
            }
            Answer::Unknown(why) => panic!("{what}: {why}"),
        }
    }
    assert!(
        sat > 60 && unsat > 30 && by_search > 10,
        "{sat} SAT, {unsat} UNSAT ({by_search} by the search's proof)"
    );
}

/// Excluded-diagonal instances n = 10..14 near the 50 % point: the certified search gives the
/// plain search's verdict, and its UNSAT proofs, stripped of their hints, check as DRAT with
/// dratify against the pairwise CNF.
#[test]
fn proofs_check_with_an_independent_drat_checker() {
    let mut rng = common::XorShift(0x0D2A_71F5);
    let mut refuted = 0;
    for i in 0..24 {
        let n = 10 + i % 5;
        let mut inst = Instance::plain(n);
        inst.excluded = common::random_excluded(n + rng.below(n / 2), n, |m| rng.below(m));
        let p = Problem::presolve(&inst, QUEEN).unwrap();
        if p.unsat.is_some() {
            continue;
        }
        let plain = queens_sat::solve::bitboard::search(&p, &Default::default()).unwrap();
        let certified = search_certified(&p, None, None, None).unwrap();
        assert_eq!(
            plain.answer.label(),
            certified.answer.label(),
            "case {i} (n = {n})"
        );
        let Some(steps) = proof(&p).unwrap() else {
            assert!(matches!(certified.answer, Answer::Sat(_)), "case {i}");
            continue;
        };
        refuted += 1;
        let mut drat = String::new();
        for step in steps.decode() {
            match step {
                Step::Add { lits, .. } => {
                    for l in lits {
                        drat.push_str(&format!("{l} "));
                    }
                    drat.push_str("0\n");
                }
                Step::Delete(ids) => {
                    // DRAT deletes by clause, not id: deletions are left out (they only
                    // shrink the checker's database).
                    let _ = ids;
                }
            }
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("proof.drat");
        std::fs::write(&path, drat).unwrap();
        let cert =
            queens_sat::certify::check_drat(&p, EncodeOptions::from(AmoKind::Pairwise), &path)
                .unwrap_or_else(|e| panic!("case {i} (n = {n}): {e}"));
        assert!(cert.steps > 0);
    }
    assert!(refuted >= 4, "only {refuted} UNSAT cases");
}

/// `proof::pairwise` is the CNF `encode --amo pairwise` writes for the presolved problem (one
/// `certify::Cnf`), and refuses what the certified search does not take: an unpresolved
/// problem, and one that presolve refuted (two pre-placed queens on one diagonal).
#[test]
fn pairwise_is_the_encoded_cnf_and_refuses_what_the_search_does_not_take() {
    let p = Problem::presolve(&Instance::plain(6), QUEEN).unwrap();
    let cnf = pairwise(&p).unwrap();
    let mut sink = queens_sat::encode::VecSink::default();
    let stats = queens_sat::Encoder::with_options(&p, EncodeOptions::from(AmoKind::Pairwise))
        .encode(&mut sink);
    assert_eq!(u64::from(cnf.vars), stats.vars);
    assert_eq!(cnf.vars, 36, "plain 6: one variable a cell, no auxiliaries");
    let clauses: Vec<Vec<i32>> = sink
        .clauses
        .iter()
        .map(|c| c.iter().map(|l| l.to_dimacs()).collect())
        .collect();
    assert_eq!(cnf.clauses, clauses);

    let full = Problem::full(&Instance::plain(6), QUEEN).unwrap();
    assert!(pairwise(&full).is_err(), "an unpresolved problem");
    let clash = Instance::new(6, vec![Cell::new(0, 0), Cell::new(2, 2)], vec![], vec![]).unwrap();
    let refuted = Problem::presolve(&clash, QUEEN).unwrap();
    assert!(refuted.unsat.is_some());
    let e = pairwise(&refuted).unwrap_err();
    assert!(e.to_string().contains("presolve did not refute"), "{e}");
}

/// A proof corrupted in one step fails to check: a lemma without its last hint (the clause that
/// ends in a conflict), a lemma with one literal fewer, and a proof with a lemma left out (a
/// later step names it).
#[test]
fn corrupted_proofs_fail_to_check() {
    let p = Problem::presolve(&Instance::plain(6), queens_sat::piece::AMAZON).unwrap();
    let cnf = pairwise(&p).unwrap();
    let steps = proof(&p).unwrap().expect("no 6-amazons solution").decode();
    let check = |steps: &[Step]| -> Result<bool, String> {
        let mut c = Lrat::new(cnf.vars, cnf.clauses.iter().cloned()).map_err(|e| e.to_string())?;
        c.check(&Steps::encode(steps)).map_err(|e| e.to_string())?;
        Ok(c.refuted())
    };
    assert_eq!(check(&steps), Ok(true));
    let adds: Vec<usize> = (0..steps.len())
        .filter(|&k| matches!(&steps[k], Step::Add { hints, .. } if !hints.is_empty()))
        .collect();
    assert!(adds.len() > 10);
    let mut rng = common::XorShift(0xBAD_5EED);
    for _ in 0..12 {
        let k = adds[rng.below(adds.len() as u32) as usize];
        let mut no_hint = steps.clone();
        if let Step::Add { hints, .. } = &mut no_hint[k] {
            hints.pop();
        }
        let e = check(&no_hint).unwrap_err();
        assert!(e.contains("does not end in a conflict"), "step {k}: {e}");
        let mut short = steps.clone();
        if let Step::Add { lits, .. } = &mut short[k]
            && !lits.is_empty()
        {
            lits.remove(rng.below(lits.len() as u32) as usize);
            let e = check(&short).unwrap_err();
            assert!(
                e.contains("not unit") || e.contains("conflict"),
                "step {k}: {e}"
            );
        }
        // Leave a lemma out: whoever names it later fails (the last one is the empty clause).
        if k + 1 < steps.len() {
            let mut gone = steps.clone();
            gone.remove(k);
            assert_ne!(check(&gone), Ok(true), "step {k} left out");
        }
    }
}

/// The default strategy under `--certify` on two cores: on excluded-diagonal instances the
/// certified bitboard search alone (its UNSAT certificate is the LRAT proof), on blocked ones its
/// race against certified cubes; either way the verdict of the uncertified default, and a
/// certificate for every UNSAT.
#[test]
fn certify_under_the_default_strategy() {
    let mut rng = common::XorShift(0x0CE2_71F7);
    let (mut unsat, mut lrat) = (0, 0);
    for i in 0..12 {
        let n = 11 + i as u32 % 3;
        let mut inst = Instance::plain(n);
        if i % 2 == 0 {
            inst.excluded = common::random_excluded(n + 2, n, |m| rng.below(m));
        } else {
            inst.blocked = (0..n * 3)
                .map(|_| queens_sat::board::Cell::new(rng.below(n), rng.below(n)))
                .collect();
        }
        let plain = Solver::new(&inst, QUEEN).jobs(Some(2)).solve().unwrap();
        let certified = Solver::new(&inst, QUEEN)
            .jobs(Some(2))
            .certify(true)
            .solve()
            .unwrap();
        assert_eq!(plain.status.label(), certified.status.label(), "case {i}");
        if matches!(certified.status, Answer::Unsat) {
            let c = certified.certificate.as_ref().expect("a certificate");
            unsat += 1;
            lrat += usize::from(c.checker.contains("LRAT"));
            let p = Problem::presolve(&inst, QUEEN).unwrap();
            if i % 2 == 0 && p.unsat.is_none() {
                assert!(c.checker.contains("LRAT"), "case {i}: {}", c.checker);
            }
        }
    }
    assert!(unsat >= 3 && lrat >= 1, "{unsat} UNSAT, {lrat} by LRAT");
}

/// The certified search split over threads (`--solver bitboard --certify --jobs 4`, no proof
/// file: cubes on pairs of threads with a coverage proof): over random instances n <= 10
/// (pre-placed, blocked, excluded diagonals; queens and amazons), both proof formats, the
/// verdict is the brute-force oracle's, a board is one of its solutions, and an UNSAT names
/// the split in its certificate; with a proof file the search stays on one thread.
#[test]
fn certified_split_matches_the_oracle() {
    use queens_sat::certify::ProofFormat;
    let (mut sat, mut unsat) = (0, 0);
    for (i, inst) in common::random_instances(0x5B11_7CE2, 60, 10)
        .into_iter()
        .enumerate()
    {
        let (piece, name) = common::piece_of(i);
        let format = [ProofFormat::Lrat, ProofFormat::Veripb][i % 2];
        let expected = instance_solutions(&inst, name);
        let r = Solver::new(&inst, piece)
            .solver("bitboard")
            .jobs(Some(4 + i % 3))
            .certify(true)
            .proof_format(Some(format))
            .solve()
            .unwrap_or_else(|e| panic!("case {i} ({name}): {e}"));
        match &r.status {
            Answer::Sat(board) => {
                common::oracle::assert_among(&expected, board, &format!("case {i} ({name})"));
                sat += 1;
            }
            Answer::Unsat => {
                assert!(expected.is_empty(), "case {i} ({name}): UNSAT, oracle SAT");
                let c = r.certificate.as_ref().expect("a certificate");
                let presolved = Problem::presolve(&inst, piece).unwrap().unsat.is_some();
                assert!(
                    presolved || c.checker.contains("split into"),
                    "case {i}: {}",
                    c.checker
                );
                unsat += 1;
            }
            other => panic!("case {i}: {other:?}"),
        }
    }
    assert!(sat > 10 && unsat > 10, "{sat} SAT, {unsat} UNSAT");
    // With a proof file: one search, one proof.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("q6.lrat");
    let mut inst = Instance::plain(6);
    inst.placed.push(queens_sat::board::Cell::new(0, 0));
    let r = Solver::new(&inst, QUEEN)
        .solver("bitboard")
        .jobs(Some(4))
        .certify(true)
        .proof(Some(file.clone()))
        .solve()
        .unwrap();
    assert!(matches!(r.status, Answer::Unsat));
    let c = r.certificate.unwrap();
    assert!(
        !c.checker.contains("split into") && file.is_file(),
        "{}",
        c.checker
    );
    // --deterministic: the one search's board (its first), on any threads, and no split.
    let certified = |inst: &Instance, jobs: usize| {
        Solver::new(inst, QUEEN)
            .solver("bitboard")
            .jobs(Some(jobs))
            .certify(true)
            .deterministic(true)
            .solve()
            .unwrap()
    };
    let sat = Instance::plain(10);
    let one = certified(&sat, 1).status;
    assert!(matches!(one, Answer::Sat(_)));
    assert_eq!(certified(&sat, 4).status, one);
    let r = certified(&inst, 4);
    let c = r.certificate.expect("a certificate");
    assert!(!c.checker.contains("split into"), "{}", c.checker);
}

/// Parses text LRAT (`id lits 0 hints 0`, `id d ids 0`) into steps: written here, apart from
/// the crate's writer.
fn parse_lrat(text: &str) -> Vec<Step> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let t: Vec<&str> = line.split_whitespace().collect();
            let num = |s: &str| s.parse::<i64>().unwrap_or_else(|_| panic!("{line}"));
            if t[1] == "d" {
                return Step::Delete(t[2..t.len() - 1].iter().map(|&s| num(s) as u64).collect());
            }
            let nums: Vec<i64> = t[1..].iter().map(|&s| num(s)).collect();
            let zero = nums
                .iter()
                .position(|&x| x == 0)
                .expect("a 0 after the literals");
            Step::Add {
                id: num(t[0]) as u64,
                lits: nums[..zero].iter().map(|&l| l as i32).collect(),
                hints: nums[zero + 1..nums.len() - 1]
                    .iter()
                    .map(|&h| h as u64)
                    .collect(),
            }
        })
        .collect()
}

/// Asserts that the text LRAT proof `lrat` refutes the DIMACS CNF `cnf` (both read back from
/// their files, checked by the crate's LRAT checker).
fn assert_refutes(lrat: &std::path::Path, cnf: &std::path::Path) {
    let cnf = std::fs::read_to_string(cnf).unwrap();
    let mut vars = 0;
    let mut clauses = Vec::new();
    for line in cnf.lines() {
        if let Some(p) = line.strip_prefix("p cnf ") {
            vars = p.split_whitespace().next().unwrap().parse().unwrap();
        } else if !line.starts_with('c') && !line.trim().is_empty() {
            let lits: Vec<i32> = line
                .split_whitespace()
                .map(|t| t.parse().unwrap())
                .collect();
            clauses.push(lits[..lits.len() - 1].to_vec());
        }
    }
    let steps = parse_lrat(&std::fs::read_to_string(lrat).unwrap());
    let mut checker = Lrat::new(vars, clauses).unwrap();
    checker.check(&Steps::encode(&steps)).unwrap();
    assert!(checker.refuted());
}

/// `--certify` on the reduction of an excluded-diagonal instance to completion (a board of
/// n = 1,500 with 12 rows left): the certified search's LRAT proof, written by `--proof`,
/// refutes the big board's pairwise CNF as `encode --amo pairwise` writes it.
#[test]
fn certify_a_converted_instance() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let generate = [
        "generate",
        "diagonals",
        "-n",
        "12",
        "--min-free",
        "1",
        "--seed",
        "1",
    ];
    common::run_expect(d, &[&generate[..], &["-o", "g.txt"]].concat(), 0);
    let to = [
        "convert",
        "--instance",
        "g.txt",
        "--diags",
        "17",
        "--to",
        "completion",
    ];
    common::run_expect(d, &[&to[..], &["-o", "c.param"]].concat(), 0);
    let solve = [
        "solve",
        "--instance",
        "c.param",
        "--solver",
        "bitboard",
        "--certify",
    ];
    common::run_expect(d, &[&solve[..], &["--proof", "p.lrat"]].concat(), 20);
    let encode = [
        "encode",
        "--instance",
        "c.param",
        "--amo",
        "pairwise",
        "-o",
        "f.cnf",
    ];
    common::run_expect(d, &encode, 0);
    assert_refutes(&d.join("p.lrat"), &d.join("f.cnf"));
}

/// `solve --certify --proof FILE` leaves text LRAT that refutes the CNF `encode --amo pairwise`
/// writes for the same instance (both read back from their files); a SAT answer leaves no file
/// (nor a temporary one); `--proof` needs `--certify` and the bitboard search.
#[test]
fn proof_file_refutes_the_written_cnf() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let args = ["-n", "6", "--piece", "amazon"];
    common::run_expect(
        d,
        &[&["solve"], &args[..], &["--certify", "--proof", "p.lrat"]].concat(),
        20,
    );
    common::run_expect(
        d,
        &[
            &["encode"],
            &args[..],
            &["--amo", "pairwise", "-o", "f.cnf"],
        ]
        .concat(),
        0,
    );
    assert_refutes(&d.join("p.lrat"), &d.join("f.cnf"));
    common::run_expect(
        d,
        &["solve", "-n", "8", "--certify", "--proof", "q.lrat"],
        10,
    );
    let left: Vec<String> = std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "p.lrat" && n != "f.cnf")
        .collect();
    assert!(left.is_empty(), "{left:?}");
    common::assert_one_line_error(
        d,
        &["solve", "-n", "6", "--proof", "r.lrat"],
        &["--certify"],
    );
    common::assert_one_line_error(
        d,
        &[
            "solve",
            "-n",
            "6",
            "--certify",
            "--solver",
            "varisat",
            "--proof",
            "r.lrat",
        ],
        &["--proof 'r.lrat'", "bitboard search"],
    );
    let args = [
        "solve",
        "-n",
        "6",
        "--piece",
        "amazon",
        "--certify",
        "--proof",
        "no/r.lrat",
    ];
    common::assert_one_line_error(
        d,
        &args,
        &["--proof 'no/r.lrat'", "folder that does not exist"],
    );
}
