//! Cube-and-conquer solving (`solve --cubes`) against the brute-force oracle: the look-ahead
//! cubes partition the solutions, and the cube solver's verdicts and boards agree with the oracle
//! on random small instances (completion, blocked, excluded diagonals; queens and amazons).

use crate::common;

use common::random_instances;

use std::collections::BTreeSet;

use common::oracle::instance_solutions;

use queens_sat::board::Cell;
use queens_sat::cube::{Split, lookahead};
use queens_sat::encode::EncodeOptions;
use queens_sat::encode::amo::AmoKind;
use queens_sat::instance::Instance;
use queens_sat::piece::{AMAZON, Piece, QUEEN};
use queens_sat::presolve::Problem;
use queens_sat::solve::Answer;
use queens_sat::solve::SolveReport;
use queens_sat::solve::cadical_backend::CadicalAssuming;
use queens_sat::solve::cubes::{CubeSettings, solve};
use queens_sat::solve::traits::SolverFactory;
use queens_sat::solve::varisat_backend::VarisatAssuming;
use queens_sat::verify::verify;

/// Splits that cut deep (every cube split down to single cells when allowed) and shallow.
fn splits() -> [Split; 3] {
    [
        Split {
            max_cubes: 1,
            ..Split::default()
        },
        Split {
            max_cubes: 6,
            easy_cells: 0,
            candidates: 2,
            jobs: 1,
            ..Split::default()
        },
        Split {
            max_cubes: 10_000,
            easy_cells: 0,
            candidates: 20,
            jobs: 3,
            ..Split::default()
        },
    ]
}

fn sorted(cells: &[Cell]) -> Vec<(u32, u32)> {
    let mut v: Vec<(u32, u32)> = cells.iter().map(|c| (c.row, c.col)).collect();
    v.sort_unstable();
    v.dedup();
    v
}

#[test]
fn lookahead_cubes_partition_the_solutions() {
    for (piece, seed) in [(QUEEN, 11), (AMAZON, 12)] {
        for inst in random_instances(seed, 40, 8) {
            let all = instance_solutions(&inst, piece.name);
            for split in splits() {
                let root = Problem::presolve(&inst, piece).unwrap();
                let (cubes, _) = lookahead(&root, &split).unwrap();
                // Splitting stops once there are max_cubes cubes; the last split adds at most
                // one line's worth.
                assert!(cubes.len() < split.max_cubes.max(1) + inst.n as usize);
                let mut union = BTreeSet::new();
                for cube in &cubes {
                    assert_eq!(cube.weight, 1);
                    for s in instance_solutions(&cube.instance, piece.name) {
                        assert!(all.contains(&s), "a cube solution is not a solution");
                        assert!(union.insert(s), "two cubes share a solution: {inst:?}");
                    }
                }
                assert_eq!(
                    union, all,
                    "the cubes miss solutions of {inst:?} ({split:?})"
                );
            }
        }
    }
}

fn check(inst: &Instance, piece: Piece, split: Split, jobs: usize) {
    check_with(inst, piece, split, jobs, VarisatAssuming::factory());
}

/// Solves `inst` by cubes and checks the answer against the oracle; returns the report.
fn check_with(
    inst: &Instance,
    piece: Piece,
    split: Split,
    jobs: usize,
    factory: &SolverFactory,
) -> SolveReport {
    let expected = instance_solutions(inst, piece.name);
    let settings = CubeSettings {
        jobs,
        split,
        ..CubeSettings::default()
    };
    let options = EncodeOptions::from(AmoKind::Pairwise);
    let root = Problem::presolve(inst, piece).unwrap();
    let r = solve(&root, options, factory, &settings).unwrap();
    match &r.status {
        Answer::Sat(board) => {
            verify(board, inst, piece).unwrap();
            assert!(
                expected.contains(&sorted(&board.pieces)),
                "{inst:?}: a board the oracle does not know"
            );
        }
        Answer::Unsat => assert!(
            expected.is_empty(),
            "{inst:?}: UNSAT but the oracle has solutions"
        ),
        Answer::Unknown(why) => panic!("{inst:?}: UNKNOWN without a time limit: {why}"),
    }
    r
}

#[test]
fn cube_solve_agrees_with_the_oracle() {
    // Amazons have no solution below n = 10, so their instances go up to 11.
    for (piece, seed, count, max_n) in [(QUEEN, 21, 60, 9), (AMAZON, 22, 24, 11)] {
        let instances = random_instances(seed, count, max_n);
        let unsat = instances
            .iter()
            .filter(|i| instance_solutions(i, piece.name).is_empty())
            .count();
        // The random set must exercise both answers.
        assert!(
            unsat > 0 && unsat < instances.len(),
            "{unsat} UNSAT of {}",
            instances.len()
        );
        for inst in &instances {
            for (k, split) in splits().into_iter().enumerate() {
                check(inst, piece, split, 1 + k % 2);
            }
        }
    }
}

/// The cubes conquered by the linked CaDiCaL (`solve --cubes --solver lib:cadical`).
#[test]
fn cube_solve_with_lib_cadical_agrees_with_the_oracle() {
    for (piece, seed, count, max_n) in [(QUEEN, 23, 40, 9), (AMAZON, 24, 16, 11)] {
        for inst in &random_instances(seed, count, max_n) {
            for (k, split) in splits().into_iter().enumerate() {
                check_with(inst, piece, split, 1 + k % 2, CadicalAssuming::factory());
            }
        }
    }
}

/// Re-splitting (`Split::resplit_after_ms`): with a threshold of 0 ms, every cube of the first
/// split that a worker takes after the first two refuted ones is split again. The answers still
/// agree with the oracle, with both solvers and 1 or 2 workers, and some runs really re-split:
/// counted on one worker, where which cubes come after two refuted ones does not depend on
/// timing (with two, it depends on which worker finishes first).
#[test]
fn re_split_cubes_agree_with_the_oracle() {
    let mut resplit_runs = 0;
    for (piece, seed, count, max_n) in [(QUEEN, 25, 40, 9), (AMAZON, 26, 12, 11)] {
        for inst in &random_instances(seed, count, max_n) {
            for (jobs, factory) in [
                (1, VarisatAssuming::factory()),
                (2, CadicalAssuming::factory()),
            ] {
                let split = Split {
                    max_cubes: 6,
                    easy_cells: 0,
                    resplit_after_ms: Some(0),
                    resplit_cubes: 3,
                    ..Split::default()
                };
                let resplit = check_with(inst, piece, split, jobs, factory)
                    .cubes
                    .unwrap()
                    .resplit;
                if jobs == 1 && resplit > 0 {
                    resplit_runs += 1;
                }
            }
        }
    }
    // 5 of the 52 one-worker runs re-split, on every run.
    assert!(
        resplit_runs >= 5,
        "only {resplit_runs} one-worker runs re-split a cube"
    );
}

/// `solve --cubes --certify`: every answer agrees with the oracle, and every UNSAT carries a
/// certificate naming the cube refutations and the coverage proof.
#[test]
fn certified_cube_solve_agrees_with_the_oracle() {
    use queens_sat::solve::Backend;
    use queens_sat::solve::certified_cubes::solve_certified;
    let mut covered = 0;
    for (piece, seed, count, max_n, backend) in [
        (QUEEN, 25, 24, 9, "varisat"),
        (QUEEN, 26, 16, 9, "lib:cadical"),
        (AMAZON, 27, 8, 11, "lib:cadical"),
    ] {
        let backend = Backend::from_name(backend).unwrap();
        for inst in &random_instances(seed, count, max_n) {
            let expected = instance_solutions(inst, piece.name);
            let settings = CubeSettings {
                jobs: 2,
                split: Split {
                    easy_cells: 4,
                    max_cubes: 16,
                    ..Split::default()
                },
                ..CubeSettings::default()
            };
            let options = EncodeOptions::from(AmoKind::Pairwise);
            let root = Problem::presolve(inst, piece).unwrap();
            let c = solve_certified(&root, options, &backend, &settings).unwrap();
            match c.status.clone() {
                Answer::Sat(board) => {
                    assert!(expected.contains(&sorted(&board.pieces)), "{inst:?}");
                    assert!(c.certificate.is_none());
                }
                Answer::Unsat => {
                    assert!(
                        expected.is_empty(),
                        "{inst:?}: UNSAT but the oracle has solutions"
                    );
                    let cert = c.certificate.expect("a certified UNSAT");
                    assert!(
                        c.cubes.unwrap().cubes == 0 || cert.checker.contains("cube coverage"),
                        "{cert:?}"
                    );
                    covered += usize::from(c.cubes.unwrap().cubes > 0);
                }
                Answer::Unknown(why) => panic!("{inst:?}: UNKNOWN: {why}"),
            }
        }
    }
    // Plain amazons have no solution for n = 2..9 (A051223), and these boards are split.
    for n in 7..=9 {
        for backend in ["varisat", "lib:cadical"].map(|b| Backend::from_name(b).unwrap()) {
            let settings = CubeSettings {
                jobs: 2,
                split: Split {
                    max_cubes: 64,
                    ..Split::default()
                },
                ..CubeSettings::default()
            };
            let options = EncodeOptions::from(AmoKind::Pairwise);
            let root = Problem::presolve(&Instance::plain(n), AMAZON).unwrap();
            let c = solve_certified(&root, options, &backend, &settings).unwrap();
            assert_eq!(c.status, Answer::Unsat, "amazons n={n}");
            let cert = c.certificate.expect("a certified UNSAT");
            if c.cubes.unwrap().cubes > 0 {
                assert!(cert.checker.contains("cube coverage"), "{cert:?}");
                covered += 1;
            }
        }
    }
    assert!(covered > 0, "no UNSAT instance was split into cubes");
}

#[test]
fn cube_solve_answers_plain_boards_and_unsat_sizes() {
    for n in 1..=11 {
        for piece in [QUEEN, AMAZON] {
            check(&Instance::plain(n), piece, Split::default(), 2);
        }
    }
}

#[test]
fn cli_solve_cubes_answers_verified_boards_and_certifies() {
    let dir = tempfile::TempDir::new().unwrap();
    let d = dir.path();
    // A completion instance: the printed board must be one of the oracle's solutions.
    std::fs::write(
        d.join("c.txt"),
        "..Q.....\n........\n........\n........\n........\n........\n........\n........\n",
    )
    .unwrap();
    let inst = queens_sat::instance::read_instance_file(&d.join("c.txt"), None).unwrap();
    let r = common::run_expect(
        d,
        &["solve", "--instance", "c.txt", "--cubes", "--jobs", "2"],
        10,
    );
    let board = queens_sat::instance::read_instance("stdout", &r.stdout, None).unwrap();
    assert!(
        instance_solutions(&inst, "queen").contains(&sorted(&board.placed)),
        "not a solution:\n{}",
        r.stdout
    );
    common::run_expect(d, &["solve", "-n", "3", "--cubes", "--max-cubes", "4"], 20);
    common::run_expect(d, &["solve", "-n", "9", "--piece", "amazon", "--cubes"], 20);
    common::run_expect(
        d,
        &["solve", "-n", "10", "--piece", "amazon", "--cubes"],
        10,
    );
    // --certify: UNSAT comes with the cube refutations and the coverage checked.
    for solver in ["varisat", "lib:cadical"] {
        let r = common::run_expect(
            d,
            &[
                "solve",
                "-n",
                "9",
                "--piece",
                "amazon",
                "--cubes",
                "--certify",
                "--solver",
                solver,
                "--format",
                "json",
            ],
            20,
        );
        let v: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap();
        let how = v["certified"].as_str().unwrap_or_default();
        assert!(how.contains("cube coverage"), "{solver}: {}", r.stdout);
        common::run_expect(
            d,
            &[
                "solve",
                "--instance",
                "c.txt",
                "--cubes",
                "--certify",
                "--solver",
                solver,
            ],
            10,
        );
    }
    common::assert_one_line_error(
        d,
        &["solve", "-n", "8", "--cubes", "--solver", "cadical"],
        &["--cubes", "cadical"],
    );
    // A lying cube refutation: an external "cadical" that answers UNSAT for every cube with a
    // proof that does not refute it. --certify must end in an error, never UNSAT.
    let liar = d.join("cadical-liar");
    std::fs::write(
        &liar,
        "#!/bin/sh\n# args: --no-binary CNF PROOF\necho '1 0' > \"$3\"\necho '0' >> \"$3\"\necho 's UNSATISFIABLE'\nexit 20\n",
    )
    .unwrap();
    std::fs::set_permissions(&liar, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let liar = liar.display().to_string();
    for n in ["8", "9"] {
        let msg = common::assert_one_line_error(
            d,
            &[
                "solve",
                "-n",
                n,
                "--piece",
                "amazon",
                "--cubes",
                "--certify",
                "--solver",
                &liar,
            ],
            &["does not check"],
        );
        assert!(!msg.contains("UNSAT:"), "{msg}");
    }
}

/// A solver that ignores its clauses and assumptions and always answers one fixed model.
struct Liar {
    model: queens_sat::answer::Model,
}

impl queens_sat::encode::ClauseSink for Liar {
    fn add_clause(&mut self, _: &[queens_sat::encode::Lit]) {}
}

impl queens_sat::solve::traits::AssumptionSolver for Liar {
    fn solve_assuming(&mut self, _: &[queens_sat::encode::Lit]) -> Answer {
        Answer::Sat(self.model.clone())
    }
}

/// Regression (issue 26): the cube path checked a found board against the instance and
/// `--symmetric` but not against the lex-leader constraints. A solver that answers the 4-queens
/// board that is not its class's lex-leader must be caught as a solver fault under
/// `--break-symmetry lex`, and accepted without it.
#[test]
fn cube_solve_checks_lex_leader_boards() {
    use queens_sat::board::{Board, Cell};
    use queens_sat::encode::lex::SymmetrySet;
    use queens_sat::symmetry::{Symmetry, stabiliser};
    use queens_sat::verify::verify_lex_leader;
    let inst = Instance::plain(4);
    let root = Problem::presolve(&inst, QUEEN).unwrap();
    let group = stabiliser(&inst, &QUEEN);
    let elements: Vec<Symmetry> = SymmetrySet::of(&group).elements().collect();
    let a = Board::new(
        4,
        [(0, 1), (1, 3), (2, 0), (3, 2)]
            .map(|(r, c)| Cell::new(r, c))
            .into(),
    );
    let b = Board::new(
        4,
        [(0, 2), (1, 0), (2, 3), (3, 1)]
            .map(|(r, c)| Cell::new(r, c))
            .into(),
    );
    let follower = [a, b]
        .into_iter()
        .find(|x| verify_lex_leader(x, &elements).is_err())
        .expect("one of the two 4-queens boards is not the leader");
    let vars: Vec<u32> = follower
        .pieces
        .iter()
        .map(|&c| root.varmap.var(c).unwrap())
        .collect();
    let num_vars = root.num_cells() as usize;
    let liar = move |_: &queens_sat::interrupt::Cancel| {
        Box::new(Liar {
            model: queens_sat::answer::Model::from_true_vars(num_vars, vars.clone()),
        }) as Box<dyn queens_sat::solve::traits::AssumptionSolver>
    };
    let settings = CubeSettings {
        jobs: 1,
        split: Split {
            max_cubes: 1,
            ..Split::default()
        },
        ..CubeSettings::default()
    };
    let plain = EncodeOptions::from(AmoKind::Pairwise);
    let r = solve(&root, plain, &liar, &settings).unwrap();
    assert_eq!(r.status, Answer::Sat(follower.clone()));
    let lex = EncodeOptions {
        lex_leader: SymmetrySet::of(&group),
        ..plain
    };
    let err = solve(&root, lex, &liar, &settings).unwrap_err();
    assert!(
        err.to_string().contains("lex-leader"),
        "not caught as a lex-leader fault: {err}"
    );
}

/// `solve --cubes --break-symmetry lex` through the library call, with both incremental
/// backends: every answer is its class's lex-leader and agrees with the oracle's verdict.
#[test]
fn cube_solve_with_lex_leader_constraints_agrees_with_the_oracle() {
    use queens_sat::encode::lex::SymmetrySet;
    use queens_sat::solve::Solver;
    use queens_sat::symmetry::{Symmetry, stabiliser};
    use queens_sat::verify::verify_lex_leader;
    for n in 1..=9 {
        let inst = Instance::plain(n);
        for piece in [QUEEN, AMAZON] {
            let group = stabiliser(&inst, &piece);
            let options = EncodeOptions {
                lex_leader: SymmetrySet::of(&group),
                ..EncodeOptions::from(AmoKind::Pairwise)
            };
            let elements: Vec<Symmetry> = options.lex_leader.elements().collect();
            let expected = !instance_solutions(&inst, piece.name).is_empty();
            for solver in ["varisat", "lib:cadical"] {
                let r = Solver::new(&inst, piece)
                    .options(options)
                    .solver(solver)
                    .cubes(8)
                    .jobs(Some(2))
                    .solve()
                    .unwrap();
                match &r.status {
                    Answer::Sat(board) => {
                        assert!(expected, "{} n={n}: SAT against the oracle", piece.name);
                        verify_lex_leader(board, &elements).unwrap();
                    }
                    Answer::Unsat => assert!(!expected, "{} n={n}: UNSAT", piece.name),
                    Answer::Unknown(why) => panic!("{} n={n}: {why}", piece.name),
                }
                assert!(
                    r.solver.starts_with(&format!("{solver} cubes (")),
                    "{}",
                    r.solver
                );
            }
        }
    }
}
