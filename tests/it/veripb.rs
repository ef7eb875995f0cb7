//! VeriPB proofs with the sum bounds (src/certify/pb/, issue 46): the reference search's
//! verdicts and boards against the brute-force oracle, every UNSAT proof checked by the `veripb`
//! crate to `conclusion UNSAT`, and tampered proofs refused.

use std::path::{Path, PathBuf};

use crate::common;

use crate::veripb_crate::check;
use common::oracle::instance_solutions;
use queens_sat::answer::Answer;
use queens_sat::certify::pb::refute;
use queens_sat::instance::Instance;
use queens_sat::piece::QUEEN;
use queens_sat::presolve::Problem;

/// The OPB file and the proof of `problem`, in `dir`.
pub(super) fn files(dir: &Path, name: &str) -> (PathBuf, PathBuf) {
    (
        dir.join(format!("{name}.opb")),
        dir.join(format!("{name}.pbp")),
    )
}

/// Random instances n <= 9 (pre-placed, blocked, both, excluded diagonals), queens and amazons:
/// the oracle's verdict with the bounds and without; every board among the oracle's solutions;
/// every UNSAT proof checked by veripb to `conclusion UNSAT`. Presolve's own UNSAT answers have
/// no proof (presolve is trusted, docs/design.md) and are counted apart.
#[test]
fn every_unsat_proof_checks_and_every_board_is_a_solution() {
    let dir = tempfile::tempdir().unwrap();
    let (opb, pbp) = files(dir.path(), "case");
    let (mut sat, mut unsat, mut bound_steps, mut presolved) = (0, 0, 0, 0);
    for (i, inst) in common::random_instances(0x0E21_9B0F, 160, 9)
        .into_iter()
        .enumerate()
    {
        let (piece, name) = common::piece_of(i);
        let expected = instance_solutions(&inst, name);
        let problem = Problem::presolve(&inst, piece).unwrap();
        if problem.unsat.is_some() {
            assert!(expected.is_empty(), "case {i}: presolve's UNSAT");
            presolved += 1;
            continue;
        }
        for sums in [true, false] {
            let what = format!("case {i} ({name}, n={}, sums {sums})", inst.n);
            let r = refute(&problem, &opb, &pbp, sums).unwrap_or_else(|e| panic!("{what}: {e}"));
            match &r.answer {
                Answer::Sat(board) => {
                    common::oracle::assert_among(&expected, board, &what);
                    let c = check(&opb, &pbp).unwrap_or_else(|e| panic!("{what}: {e}"));
                    assert!(!c.unsat, "{what}: a SAT answer's proof concludes nothing");
                    sat += 1;
                }
                Answer::Unsat => {
                    assert!(expected.is_empty(), "{what}: UNSAT, the oracle disagrees");
                    let c = check(&opb, &pbp).unwrap_or_else(|e| panic!("{what}: {e}"));
                    assert!(c.unsat, "{what}: the checker verified `conclusion UNSAT`");
                    bound_steps += r.stats.bounds;
                    unsat += 1;
                }
                Answer::Unknown(why) => panic!("{what}: {why}"),
            }
        }
    }
    assert!(
        sat > 80 && unsat > 40 && bound_steps > 20 && presolved > 5,
        "{sat} SAT, {unsat} UNSAT ({bound_steps} bound steps), {presolved} by presolve"
    );
}

/// An UNSAT excluded-diagonal instance whose proof takes the bounds: the shortest UNSAT prefix
/// of a generated n = 10 list.
pub(super) fn bounded_instance() -> Problem {
    let full = queens_sat::generate::diagonals::generate(10, 1, 1).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (opb, pbp) = files(dir.path(), "find");
    (1..=full.excluded.len())
        .find_map(|d| {
            let mut inst = full.clone();
            inst.excluded.truncate(d);
            let p = Problem::presolve(&inst, QUEEN).unwrap();
            let r = refute(&p, &opb, &pbp, true).unwrap();
            (p.unsat.is_none() && r.answer == Answer::Unsat && r.stats.bounds > 5).then_some(p)
        })
        .expect("an UNSAT prefix refuted with bound steps")
}

/// Rewrites `proof` with `edit` applied to the first line for which it returns a new line.
pub(super) fn tamper(proof: &Path, out: &Path, mut edit: impl FnMut(&str) -> Option<String>) {
    let text = std::fs::read_to_string(proof).unwrap();
    let mut done = false;
    let lines: Vec<String> = text
        .lines()
        .map(|l| match (done, edit(l)) {
            (false, Some(new)) => {
                done = true;
                new
            }
            _ => l.to_string(),
        })
        .collect();
    assert!(done, "a line to tamper with");
    std::fs::write(out, lines.join("\n") + "\n").unwrap();
}

/// A proof with one step corrupted (a `rup` without its last hint, the line that fails), a
/// bound step with wrong coefficients, and a proof of another instance each fail to check.
#[test]
fn tampered_proofs_fail_to_check() {
    let dir = tempfile::tempdir().unwrap();
    let (opb, pbp) = files(dir.path(), "good");
    let problem = bounded_instance();
    assert_eq!(
        refute(&problem, &opb, &pbp, true).unwrap().answer,
        Answer::Unsat
    );
    assert!(check(&opb, &pbp).unwrap().unsat);
    let bad = dir.path().join("bad.pbp");

    // One step corrupted: the first lemma of a branch loses its last hint (the row's `>= 1`).
    tamper(&pbp, &bad, |l| {
        let (head, hints) = l.strip_prefix("rup ")?.split_once(" : ")?;
        let mut ids: Vec<&str> = hints.trim_end_matches(" ;").split(' ').collect();
        (ids.len() > 2).then(|| {
            ids.pop();
            format!("rup {head} : {} ;", ids.join(" "))
        })
    });
    let e = check(&opb, &bad).unwrap_err().to_string();
    assert!(e.contains("does not check"), "{e}");

    // A bound step with wrong coefficients: every multiplier of the first `pol` set to 1.
    tamper(&pbp, &bad, |l| {
        let body = l.strip_prefix("pol ")?;
        let words: Vec<&str> = body.split(' ').collect();
        let mut out = Vec::new();
        for (j, w) in words.iter().enumerate() {
            // `ID M *`: M becomes 1.
            if words.get(j + 1) == Some(&"*") {
                out.push("1");
            } else {
                out.push(w);
            }
        }
        Some(format!("pol {}", out.join(" ")))
    });
    let e = check(&opb, &bad).unwrap_err().to_string();
    assert!(e.contains("does not check"), "{e}");

    // The proof of another instance: one more excluded diagonal.
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
    let e = check(&other_opb, &pbp).unwrap_err().to_string();
    assert!(e.contains("does not check"), "{e}");
}

/// The plain boards n = 2, 3 are UNSAT (their proofs check); n = 4..8 give verified boards.
#[test]
fn plain_boards() {
    let dir = tempfile::tempdir().unwrap();
    let (opb, pbp) = files(dir.path(), "plain");
    for n in 2..=8 {
        let p = Problem::presolve(&Instance::plain(n), QUEEN).unwrap();
        let r = refute(&p, &opb, &pbp, true).unwrap();
        match r.answer {
            Answer::Unsat => {
                assert!(n <= 3, "n = {n}");
                assert!(check(&opb, &pbp).unwrap().unsat);
            }
            Answer::Sat(board) => {
                assert!(n >= 4);
                queens_sat::verify::verify(&board, &Instance::plain(n), QUEEN).unwrap();
            }
            Answer::Unknown(why) => panic!("{why}"),
        }
    }
}

/// What the bitboard search's proofs held over a set of instances.
#[derive(Default)]
struct Tally {
    sat: u64,
    unsat: u64,
    bounds: u64,
    parity: u64,
    diagonals: u64,
    inlined: u64,
}

/// Searches `problem` with the VeriPB search (`pbproof::search_veripb`, the full tuning) and
/// holds it to the uncertified single-threaded search: the same verdict and the same nodes.
/// A board is returned for the caller to judge; an UNSAT proof must check to `conclusion
/// UNSAT` with the veripb crate and with pbcheck, and its steps are tallied.
fn search_and_check(
    problem: &Problem,
    dir: &Path,
    what: &str,
    tally: &mut Tally,
) -> Answer<queens_sat::board::Board> {
    use queens_sat::solve::bitboard::pbproof::search_veripb;
    use queens_sat::solve::bitboard::{SearchOptions, search};
    use queens_sat_check::pbcheck::check_files;
    let (opb, pbp) = files(dir, "bit");
    let r =
        search_veripb(problem, &opb, &pbp, None, None).unwrap_or_else(|e| panic!("{what}: {e}"));
    let plain = search(problem, &SearchOptions::default()).unwrap();
    assert_eq!(
        r.nodes, plain.nodes,
        "{what}: the nodes of the uncertified search"
    );
    assert_eq!(
        matches!(r.answer, Answer::Unsat),
        matches!(plain.answer, Answer::Unsat),
        "{what}"
    );
    match &r.answer {
        Answer::Sat(_) => tally.sat += 1,
        Answer::Unsat => {
            assert!(check(&opb, &pbp).unwrap().unsat, "{what}: veripb");
            let v = check_files(&opb, &pbp).unwrap_or_else(|e| panic!("{what}: pbcheck: {e}"));
            assert!(v.unsat, "{what}: pbcheck");
            let s = r.stats;
            assert_eq!(v.steps.pol, s.bounds + s.parity + s.diagonals, "{what}");
            assert_eq!(v.steps.rup, s.lemmas() + s.pairs, "{what}");
            // The certified route checks the same steps from its batches on a second thread
            // (the parity's and forced diagonals' steps through their text).
            let c = queens_sat::solve::bitboard::pbproof::search_certified_pb(
                problem, None, None, None,
            )
            .unwrap_or_else(|e| panic!("{what}: the certified route: {e}"));
            assert_eq!(c.answer, Answer::Unsat, "{what}: the certified route");
            assert!(c.certificate.is_some(), "{what}: the certified route");
            tally.inlined += s.inlined;
            tally.unsat += 1;
            tally.bounds += s.bounds;
            tally.parity += s.parity;
            tally.diagonals += s.diagonals;
        }
        Answer::Unknown(why) => panic!("{what}: {why}"),
    }
    r.answer
}

/// The excluded-diagonal instances n = 10..14 at the edge of UNSAT: per n and seed 1..=2, the
/// shortest UNSAT prefix (by the reference search) and the SAT one before it, with the
/// prefix's length and whether it is the UNSAT one.
fn edge_instances() -> Vec<(String, Instance, Problem, bool)> {
    let dir = tempfile::tempdir().unwrap();
    let (ref_opb, ref_pbp) = files(dir.path(), "ref");
    let mut out = Vec::new();
    for n in 10..=14 {
        for seed in 1..=2 {
            let full = queens_sat::generate::diagonals::generate(n, 1, seed).unwrap();
            let prefix = |d: usize| {
                let mut inst = full.clone();
                inst.excluded.truncate(d);
                let problem = Problem::presolve(&inst, QUEEN).unwrap();
                (inst, problem)
            };
            let Some(edge) = (1..=full.excluded.len()).find(|&d| {
                let (_, p) = prefix(d);
                p.unsat.is_none()
                    && refute(&p, &ref_opb, &ref_pbp, true).unwrap().answer == Answer::Unsat
            }) else {
                continue;
            };
            for d in [edge - 1, edge] {
                let (inst, problem) = prefix(d);
                out.push((format!("n{n} d{d} s{seed}"), inst, problem, d == edge));
            }
        }
    }
    out
}

/// The bitboard search logging VeriPB under the full tuning (`solve::bitboard::pbproof`: the
/// sum bounds, the parity, the forced diagonals) on random instances n <= 10 (queens and
/// amazons; pre-placed, blocked, excluded diagonals) and on excluded-diagonal instances
/// n = 10..14 at the edge of UNSAT: the oracle's verdict (n <= 10) or the reference search's
/// (larger), boards among the oracle's solutions or verified, the nodes of the uncertified
/// search, every UNSAT proof checked to `conclusion UNSAT` by the veripb crate and by
/// pbcheck, and parity steps and diagonal branches among them (so the test cannot pass
/// without them).
#[test]
fn the_bitboard_search_logs_proofs_that_check() {
    let dir = tempfile::tempdir().unwrap();
    let mut tally = Tally::default();
    for (i, inst) in common::random_instances(0x0B17_B0A2, 160, 10)
        .into_iter()
        .enumerate()
    {
        let (piece, name) = common::piece_of(i);
        let problem = Problem::presolve(&inst, piece).unwrap();
        if problem.unsat.is_some() {
            continue;
        }
        let expected = instance_solutions(&inst, name);
        let what = format!("case {i} ({name}, n={})", inst.n);
        match search_and_check(&problem, dir.path(), &what, &mut tally) {
            Answer::Sat(board) => common::oracle::assert_among(&expected, &board, &what),
            _ => assert!(expected.is_empty(), "{what}: UNSAT, the oracle disagrees"),
        }
    }
    assert!(
        tally.sat > 40 && tally.unsat > 20,
        "{} SAT, {} UNSAT",
        tally.sat,
        tally.unsat
    );
    let random = tally.unsat;
    for (what, inst, problem, unsat) in edge_instances() {
        match search_and_check(&problem, dir.path(), &what, &mut tally) {
            Answer::Sat(board) => {
                assert!(!unsat, "{what}: SAT, the reference search says UNSAT");
                queens_sat::verify::verify(&board, &inst, QUEEN).unwrap();
            }
            _ => assert!(unsat, "{what}: UNSAT, the reference search says SAT"),
        }
    }
    eprintln!(
        "{} SAT, {} UNSAT ({random} random): {} bound steps, {} parity steps, {} diagonal \
         branches, {} inlined",
        tally.sat, tally.unsat, tally.bounds, tally.parity, tally.diagonals, tally.inlined
    );
    assert!(
        tally.unsat - random >= 8
            && tally.bounds > 20
            && tally.parity > 0
            && tally.diagonals > 0
            && tally.inlined > 0,
        "{} UNSAT, {} bound steps, {} parity steps, {} diagonal branches",
        tally.unsat - random,
        tally.bounds,
        tally.parity,
        tally.diagonals
    );
}

/// A parity step tampered with fails to check (veripb and pbcheck): its division by 2 made a
/// division by 3, or dropped with the doubling after it (the lift by one is then missing).
#[test]
fn tampered_parity_steps_fail_to_check() {
    use queens_sat::solve::bitboard::pbproof::search_veripb;
    use queens_sat_check::pbcheck::check_files;
    let dir = tempfile::tempdir().unwrap();
    let (opb, pbp) = files(dir.path(), "good");
    let bad = dir.path().join("bad.pbp");
    let mut tried = 0;
    for (what, _, problem, unsat) in edge_instances() {
        if !unsat {
            continue;
        }
        let r = search_veripb(&problem, &opb, &pbp, None, None).unwrap();
        if r.stats.parity == 0 {
            continue;
        }
        for edit in [(" 2 d ", " 3 d "), (" 2 d 2 * ", " ")] {
            tamper(&pbp, &bad, |l| {
                (l.starts_with("pol ") && l.contains(edit.0)).then(|| l.replacen(edit.0, edit.1, 1))
            });
            let e = check(&opb, &bad).unwrap_err().to_string();
            assert!(e.contains("does not check"), "{what}: {e}");
            assert!(
                check_files(&opb, &bad).map_or(true, |v| !v.unsat),
                "{what}: pbcheck took {edit:?}"
            );
        }
        tried += 1;
        if tried == 3 {
            break;
        }
    }
    assert!(tried > 0, "an instance with parity steps");
}

/// `solve --certify --proof F.pbp` on an UNSAT excluded-diagonal instance the bounds refute:
/// exit 20, a VeriPB proof in F.pbp that the veripb crate checks to `conclusion UNSAT` against
/// the model `encode --to opb` writes; on a SAT instance, a verified board and no proof file.
#[test]
fn solve_certify_writes_a_veripb_proof_for_a_pbp_name() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let problem = bounded_instance();
    let text = queens_sat::instance::write::write(
        &problem.instance,
        queens_sat::instance::InstanceFormat::Board,
        "an UNSAT prefix",
    )
    .unwrap();
    std::fs::write(d.join("unsat.txt"), text).unwrap();
    let r = common::run_expect(
        d,
        &[
            "solve",
            "--instance",
            "unsat.txt",
            "--certify",
            "--proof",
            "p.pbp",
        ],
        20,
    );
    assert!(r.stderr.contains("VeriPB"), "{}", r.stderr);
    common::run_expect(
        d,
        &[
            "encode",
            "--instance",
            "unsat.txt",
            "--to",
            "opb",
            "-o",
            "m.opb",
        ],
        0,
    );
    assert!(check(&d.join("m.opb"), &d.join("p.pbp")).unwrap().unsat);
    // SAT: a board, no proof.
    let r = common::run_expect(
        d,
        &["solve", "-n", "8", "--certify", "--proof", "q.pbp"],
        10,
    );
    assert!(r.stdout.contains('Q'), "{}", r.stdout);
    assert!(!d.join("q.pbp").exists());
}

/// The certified route (`pbproof::search_certified_pb`: the steps checked on a checker thread
/// from in-memory batches) without a proof file and with one: the same answer, nodes and steps;
/// the file is byte for byte the proof `search_veripb` writes, and veripb and pbcheck check it.
/// On random small instances, every UNSAT answer carries a certificate and every board is the
/// same in both routes.
#[test]
fn the_certified_route_checks_the_same_steps_with_and_without_a_file() {
    use queens_sat::solve::bitboard::pbproof::{search_certified_pb, search_veripb};
    let dir = tempfile::tempdir().unwrap();
    let problem = bounded_instance();
    let only = search_certified_pb(&problem, None, None, None).unwrap();
    let pbp = dir.path().join("route.pbp");
    let filed = search_certified_pb(&problem, None, None, Some(&pbp)).unwrap();
    assert_eq!(only.answer, Answer::Unsat);
    assert_eq!(filed.answer, Answer::Unsat);
    assert_eq!(only.nodes, filed.nodes);
    assert_eq!(only.certificate, filed.certificate);
    assert!(only.certificate.is_some());
    assert_eq!((only.lemmas, only.hints), (filed.lemmas, filed.hints));
    let (opb, text) = files(dir.path(), "text");
    let r = search_veripb(&problem, &opb, &text, None, None).unwrap();
    assert_eq!(r.nodes, only.nodes);
    assert_eq!(std::fs::read(&text).unwrap(), std::fs::read(&pbp).unwrap());
    assert!(check(&opb, &pbp).unwrap().unsat);
    assert!(
        queens_sat_check::pbcheck::check_files(&opb, &pbp)
            .unwrap()
            .unsat
    );
    let (mut sat, mut unsat) = (0, 0);
    for (i, inst) in common::random_instances(0x9199_0E11, 60, 8)
        .into_iter()
        .enumerate()
    {
        let problem = Problem::presolve(&inst, common::piece_of(i).0).unwrap();
        if problem.unsat.is_some() {
            continue;
        }
        let a = search_certified_pb(&problem, None, None, None).unwrap();
        let b = search_veripb(&problem, &opb, &text, None, None).unwrap();
        assert_eq!(a.answer, b.answer, "case {i}");
        assert_eq!(
            a.certificate.is_some(),
            a.answer == Answer::Unsat,
            "case {i}"
        );
        match a.answer {
            Answer::Unsat => unsat += 1,
            _ => sat += 1,
        }
    }
    assert!(sat > 5 && unsat > 5, "{sat} SAT, {unsat} UNSAT");
}

/// A tampered step on its way to the checker (the last hint of a `rup` dropped, for several
/// steps in turn) makes the certified route fail, with a file or without, and leaves no proof
/// under the name asked for; it never answers UNSAT.
#[test]
fn a_tampered_batch_makes_the_certified_route_fail() {
    use queens_sat::solve::bitboard::pbproof::search_certified_pb_tampered;
    let dir = tempfile::tempdir().unwrap();
    let problem = bounded_instance();
    let pbp = dir.path().join("bad.pbp");
    for nth in [0, 1, 5, 20] {
        for file in [false, true] {
            let mut dropped = false;
            let r = search_certified_pb_tampered(
                &problem,
                file.then_some(pbp.as_path()),
                &mut |batch| dropped |= batch.drop_last_hint(nth),
            );
            assert!(dropped, "step {nth}");
            let e = r.map(|c| c.answer).expect_err("a tampered proof fails");
            assert!(e.to_string().contains("does not check"), "{e}");
            // Typed: the step after which it failed, never a solver fault.
            assert!(
                matches!(
                    e,
                    queens_sat::Error::ProofRejected {
                        format: queens_sat::certify::CheckedFormat::Veripb,
                        step: Some(_),
                        ..
                    }
                ),
                "{e:?}"
            );
            assert!(!pbp.exists());
        }
    }
    // A malformed batch: an error too.
    let r = search_certified_pb_tampered(&problem, None, &mut |batch| {
        *batch = queens_sat::certify::pb::PbBatch::new()
    });
    assert!(r.is_err());
}
