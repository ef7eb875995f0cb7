//! The implied diagonal-sum constraints (`--implied sums`, `queens_sat::encode::implied`)
//! against the brute-force oracle: they remove no solution (counts equal the oracle's, with the
//! enumerating and the DPLL counter, so their auxiliaries are functions of the cells), they keep
//! every SAT / UNSAT verdict (direct solves on presolved and full encodings, cube-and-conquer
//! with CaDiCaL), and they are really emitted on these instances.

use crate::common;

use common::oracle::instance_solutions;
use common::random_instances;

use queens_sat::cube::Split;
use queens_sat::encode::amo::AmoKind;
use queens_sat::encode::implied::Implied;
use queens_sat::encode::{EncodeOptions, Encoder};
use queens_sat::instance::Instance;
use queens_sat::interrupt::Cancel;
use queens_sat::piece::{AMAZON, Piece, QUEEN};
use queens_sat::presolve::Problem;
use queens_sat::solve::cadical_backend::CadicalAssuming;
use queens_sat::solve::cubes::{self, CubeSettings};
use queens_sat::solve::varisat_backend::Varisat;
use queens_sat::solve::{self as solving, Answer};
use queens_sat::verify::verify;

fn sums(amo: AmoKind) -> EncodeOptions {
    EncodeOptions {
        implied: Implied::Sums,
        ..EncodeOptions::from(amo)
    }
}

/// The random instances of both pieces (amazons have no solution below n = 10).
fn cases(seed: u64) -> Vec<(Piece, Instance)> {
    let mut out = Vec::new();
    for (piece, count, max_n) in [(QUEEN, 48, 9), (AMAZON, 16, 11)] {
        for inst in random_instances(seed + max_n as u64, count, max_n) {
            out.push((piece, inst));
        }
    }
    out
}

/// Variables the implied constraints add to `problem`'s encoding.
fn added_vars(problem: &Problem) -> u64 {
    let with = Encoder::with_options(problem, sums(AmoKind::Pairwise));
    let without = Encoder::new(problem, AmoKind::Pairwise);
    with.stats().unwrap().vars - without.stats().unwrap().vars
}

#[test]
fn implied_sums_keep_every_solution_and_count() {
    let cancel = Cancel::default();
    let mut emitted = 0;
    for (piece, inst) in cases(31) {
        let expected = instance_solutions(&inst, piece.name).len() as u64;
        let problem = Problem::presolve(&inst, piece).unwrap();
        if problem.unsat.is_none() && added_vars(&problem) > 0 {
            emitted += 1;
        }
        for (conquer, amo) in [
            (queens_sat::count::sat::Conquer::Cdcl, AmoKind::Sequential),
            (queens_sat::count::sat::Conquer::Dpll, AmoKind::Pairwise),
        ] {
            let got = queens_sat::count::sat::count(
                &inst,
                piece,
                sums(amo),
                &[],
                2,
                conquer,
                &|_, _| {},
                &cancel,
            )
            .unwrap();
            assert_eq!(got, expected, "{} {inst:?} ({conquer:?})", piece.name);
        }
    }
    // The constraints must really be there: most presolved instances get them.
    assert!(
        emitted >= 40,
        "implied constraints emitted on {emitted} instances only"
    );
}

/// Direct solves, presolved and full (pre-placed pieces as unit clauses), with varisat.
#[test]
fn implied_sums_keep_every_verdict() {
    let mut seen = [0, 0];
    for (piece, inst) in cases(41) {
        let expected = instance_solutions(&inst, piece.name);
        for presolve in [true, false] {
            let problem = Problem::new(&inst, piece, presolve).unwrap();
            let r = solving::solve(&problem, sums(AmoKind::Product), &Varisat, None).unwrap();
            match &r.status {
                Answer::Sat(board) => {
                    verify(board, &inst, piece).unwrap();
                    seen[0] += 1;
                }
                Answer::Unsat => {
                    assert!(expected.is_empty(), "{inst:?}: UNSAT with solutions");
                    seen[1] += 1;
                }
                Answer::Unknown(why) => panic!("{inst:?}: {why}"),
            }
            assert_eq!(
                matches!(r.status, Answer::Sat(_)),
                !expected.is_empty(),
                "{} {inst:?} presolve {presolve}",
                piece.name
            );
        }
    }
    assert!(seen[0] > 10 && seen[1] > 10, "SAT/UNSAT runs: {seen:?}");
}

/// Cube-and-conquer with the linked CaDiCaL, as the default strategy runs it.
#[test]
fn cube_solve_with_implied_sums_agrees_with_the_oracle() {
    for (piece, inst) in cases(51) {
        let expected = instance_solutions(&inst, piece.name);
        let settings = CubeSettings {
            jobs: 2,
            split: Split {
                max_cubes: 6,
                easy_cells: 0,
                jobs: 1,
                ..Split::default()
            },
            ..CubeSettings::default()
        };
        let root = queens_sat::presolve::Problem::presolve(&inst, piece).unwrap();
        let r = cubes::solve(
            &root,
            sums(AmoKind::Pairwise),
            CadicalAssuming::factory(),
            &settings,
        )
        .unwrap();
        match &r.status {
            Answer::Sat(board) => verify(board, &inst, piece).unwrap(),
            Answer::Unsat => assert!(expected.is_empty(), "{inst:?}: UNSAT with solutions"),
            Answer::Unknown(why) => panic!("{inst:?}: {why}"),
        }
        assert_eq!(matches!(r.status, Answer::Sat(_)), !expected.is_empty());
    }
}

/// The constraints refute by themselves what presolve's matching filter cannot see (found by a
/// random search over small excluded-diagonal boards): on this 7x7 board no choice of free
/// diagonals has the right count and key sum, so the BDD is empty and the CNF holds the fixed
/// contradiction `1`, `-1`. The oracle agrees that it has no solution.
#[test]
fn infeasible_sums_are_refuted_at_the_root() {
    use queens_sat::encode::VecSink;
    use queens_sat::instance::ExcludedDiagonal;
    use queens_sat::piece::LineKind;
    let mut inst = Instance::plain(7);
    let excluded = [
        (LineKind::Diagonal, [0, 2, 7, 9].as_slice()),
        (LineKind::AntiDiagonal, [0, 7, 8, 10, 11].as_slice()),
    ];
    for (kind, keys) in excluded {
        inst.excluded
            .extend(keys.iter().map(|&key| ExcludedDiagonal { kind, key }));
    }
    assert!(instance_solutions(&inst, "queen").is_empty());
    let problem = Problem::presolve(&inst, QUEEN).unwrap();
    assert!(problem.unsat.is_none(), "presolve alone must not see it");
    let lone = |implied| {
        let mut sink = VecSink::default();
        let options = EncodeOptions {
            implied,
            ..EncodeOptions::from(AmoKind::Pairwise)
        };
        Encoder::with_options(&problem, options).encode(&mut sink);
        let units: Vec<i32> = sink
            .clauses
            .iter()
            .filter(|c| c.len() == 1)
            .map(|c| c[0].to_dimacs())
            .collect();
        units.contains(&1) && units.contains(&-1)
    };
    assert!(lone(Implied::Sums), "expected the empty-BDD contradiction");
    assert!(!lone(Implied::None));
}

/// The command line: `encode --implied sums` writes the constraints and says so in the header,
/// `solve` answers the same with and without them (the default strategy uses them on this
/// board), and the commands that cannot use them refuse them in one line.
#[test]
fn cli_implied_sums() {
    use common::{assert_one_line_error, run_expect};
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Excluded diagonals on n = 12 (12 out: UNSAT, 4 out: SAT; the oracle decides below).
    run_expect(
        d,
        &[
            "generate",
            "diagonals",
            "-n",
            "12",
            "--min-free",
            "1",
            "--seed",
            "3",
            "-o",
            "d.txt",
        ],
        0,
    );
    let text = std::fs::read_to_string(d.join("d.txt")).unwrap();
    let inst = queens_sat::instance::read_instance("d.txt", &text, Some(12)).unwrap();
    let expected = instance_solutions(&inst, "queen");
    let with = &["--instance", "d.txt", "--diags", "12", "--implied", "sums"];
    let mut args = vec!["encode", "-o", "s.cnf"];
    args.extend(with);
    run_expect(d, &args, 0);
    let cnf = std::fs::read_to_string(d.join("s.cnf")).unwrap();
    assert!(cnf.lines().any(|l| l == "c implied sums"), "header");
    run_expect(
        d,
        &[
            "encode",
            "--instance",
            "d.txt",
            "--diags",
            "12",
            "-o",
            "p.cnf",
        ],
        0,
    );
    let plain = std::fs::read_to_string(d.join("p.cnf")).unwrap();
    let p_line = |t: &str| -> Vec<u64> {
        let l = t.lines().find(|l| l.starts_with("p cnf")).unwrap();
        l.split_whitespace()
            .skip(2)
            .map(|x| x.parse().unwrap())
            .collect()
    };
    assert!(p_line(&cnf)[0] > p_line(&plain)[0], "no auxiliaries added");
    assert!(!plain.contains("c implied"));
    assert!(expected.is_empty(), "12 diagonals out: UNSAT by the oracle");
    // Every backend, with and without the sums, on the UNSAT prefix and on a SAT one (4
    // diagonals out), each verdict the oracle's.
    let mut verdicts = Vec::new();
    for diags in [12, 4] {
        let inst = queens_sat::instance::read_instance("d.txt", &text, Some(diags)).unwrap();
        let code = if instance_solutions(&inst, "queen").is_empty() {
            20
        } else {
            10
        };
        verdicts.push(code);
        let diags = diags.to_string();
        for solver in ["auto", "varisat", "lib:cadical"] {
            for implied in ["none", "sums"] {
                run_expect(
                    d,
                    &[
                        "solve",
                        "--instance",
                        "d.txt",
                        "--diags",
                        &diags,
                        "--solver",
                        solver,
                        "--implied",
                        implied,
                    ],
                    code,
                );
            }
        }
    }
    assert_eq!(verdicts, [20, 10], "one UNSAT and one SAT prefix");
    assert_one_line_error(
        d,
        &["count", "-n", "6", "--implied", "sums"],
        &["count", "--implied"],
    );
    assert_one_line_error(
        d,
        &["split", "count", "-n", "8", "-o", "q8", "--implied", "sums"],
        &["split", "--implied"],
    );
    assert!(!d.join("q8").exists(), "a refused split writes nothing");
    assert_one_line_error(
        d,
        &["count", "-n", "6", "--implied", "bogus"],
        &["bogus", "none, sums"],
    );
    assert_one_line_error(
        d,
        &["solve", "-n", "6", "--certify", "--implied", "sums"],
        &["--certify", "--implied"],
    );
    assert_one_line_error(
        d,
        &["solve", "-n", "6", "--implied", "sum"],
        &["sum", "sums"],
    );
    assert_one_line_error(
        d,
        &[
            "encode",
            "-n",
            "8",
            "--to",
            "opb",
            "--implied",
            "sums",
            "-o",
            "x.opb",
        ],
        &["DIMACS-only", "--implied"],
    );
    assert!(!d.join("x.opb").exists());
}
