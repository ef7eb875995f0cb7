//! Small tests of one unit each, so that a failure names the place to look: presolve, the
//! encoder's special cases, `Encoder::stats` against `Encoder::encode` for every AMO encoding
//! (a drift test), the verifier, and the count cubes. Expected values come from the brute-force
//! oracle (tests/it/common/oracle.rs) or are worked out by hand in the comments.

use crate::common;

use std::collections::BTreeSet;

use common::Plain;
use common::oracle;
use queens_sat::board::{Board, Cell};
use queens_sat::encode::amo::AmoKind;
use queens_sat::encode::implied::Implied;
use queens_sat::encode::lex::SymmetrySet;
use queens_sat::encode::{EncodeOptions, Encoder, Lit, StatsSink, VecSink};
use queens_sat::instance::{ExcludedDiagonal, Instance};
use queens_sat::piece::{AMAZON, LineKind, Piece, QUEEN};
use queens_sat::presolve::Problem;
use queens_sat::symmetry::Symmetry;

fn cells(list: &[(u32, u32)]) -> Vec<Cell> {
    list.iter().map(|&(r, c)| Cell::new(r, c)).collect()
}

fn instance(n: u32, placed: &[(u32, u32)], blocked: &[(u32, u32)]) -> Instance {
    Instance {
        n,
        placed: cells(placed),
        blocked: cells(blocked),
        excluded: Vec::new(),
    }
}

/// The live cells of a presolved problem.
fn live(p: &Problem) -> BTreeSet<(u32, u32)> {
    p.varmap.cells().map(|(c, _)| (c.row, c.col)).collect()
}

/// The live cells by the oracle's geometry: not blocked, not on a placed piece's row or column,
/// not attacked by a placed piece.
fn expected_live(inst: &Instance, piece: &str) -> BTreeSet<(u32, u32)> {
    let plain = Plain::from_instance(inst);
    let attacks = oracle::Attacks::named(piece);
    let mut out = BTreeSet::new();
    for r in 0..plain.n {
        for c in 0..plain.n {
            let free_lines = plain.placed.iter().all(|p| p.0 != r && p.1 != c);
            let safe = plain.placed.iter().all(|&p| !attacks.attack(p, (r, c)));
            if free_lines && safe && !plain.blocked.contains(&(r, c)) {
                out.insert((r as u32, c as u32));
            }
        }
    }
    out
}

mod presolve {
    //! The attack propagation alone (`Filter::None`); tests/it/matching.rs tests the matching
    //! filter.
    use super::*;
    use queens_sat::presolve::Filter;

    #[test]
    fn a_placed_queen_removes_its_lines_and_attacked_cells() {
        let inst = instance(5, &[(2, 2)], &[]);
        let p = Problem::presolve_with(&inst, QUEEN, Filter::None).unwrap();
        assert_eq!(p.unsat, None);
        assert!(p.presolved);
        assert_eq!(p.fixed, cells(&[(2, 2)]));
        assert!(p.units.is_empty());
        // Rows and columns 0,1,3,4 minus the 8 diagonal cells through (2,2): 16 - 8.
        assert_eq!(live(&p).len(), 8);
        assert_eq!(live(&p), expected_live(&inst, "queen"));
    }

    #[test]
    fn a_placed_amazon_also_removes_its_knight_cells() {
        let inst = instance(5, &[(0, 0)], &[]);
        let q = Problem::presolve_with(&inst, QUEEN, Filter::None).unwrap();
        let a = Problem::presolve_with(&inst, AMAZON, Filter::None).unwrap();
        let gone: BTreeSet<_> = live(&q).difference(&live(&a)).copied().collect();
        assert_eq!(gone, [(1, 2), (2, 1)].into());
        assert_eq!(live(&a), expected_live(&inst, "amazon"));
    }

    #[test]
    fn blocked_cells_and_excluded_diagonals_are_not_live() {
        let mut inst = instance(6, &[], &[(0, 0), (5, 3)]);
        inst.excluded = vec![ExcludedDiagonal {
            kind: LineKind::AntiDiagonal,
            key: 5,
        }];
        let p = Problem::presolve_with(&inst, QUEEN, Filter::None).unwrap();
        assert_eq!(p.unsat, None);
        assert_eq!(live(&p), expected_live(&inst, "queen"));
        // 36 cells - 2 blocked - 6 on r + c = 5.
        assert_eq!(p.num_cells(), 28);
    }

    #[test]
    fn duplicate_placed_pieces_count_once() {
        let p = Problem::presolve(&instance(6, &[(1, 3), (1, 3)], &[]), QUEEN).unwrap();
        assert_eq!(p.unsat, None);
        assert_eq!(p.fixed, cells(&[(1, 3)]));
    }

    /// Each contradiction presolve finds, with the sentence it gives; the problem keeps no cell.
    #[test]
    fn contradictions_are_unsat_with_a_reason() {
        let cases: [(Instance, Piece, &str); 5] = [
            (instance(8, &[(0, 0), (0, 5)], &[]), QUEEN, "share a row"),
            (instance(8, &[(0, 3), (6, 3)], &[]), QUEEN, "share a column"),
            (
                instance(8, &[(0, 0), (3, 3)], &[]),
                QUEEN,
                "share a diagonal",
            ),
            (
                instance(8, &[(0, 0), (1, 2)], &[]),
                AMAZON,
                "are a leap apart",
            ),
            (
                instance(5, &[], &[(0, 3), (1, 3), (2, 3), (3, 3), (4, 3)]),
                QUEEN,
                "column 3 has no free cell left for a queen",
            ),
        ];
        for (inst, piece, reason) in cases {
            let p = Problem::presolve_with(&inst, piece, Filter::None).unwrap();
            let why = p
                .unsat
                .as_deref()
                .unwrap_or_else(|| panic!("{inst:?}: not unsat"));
            assert!(why.contains(reason), "{inst:?}: {why}");
            assert_eq!(p.num_cells(), 0, "{inst:?}");
            assert_eq!(
                oracle::count(
                    &Plain::from_instance(&inst),
                    &oracle::Attacks::named(piece.name)
                ),
                0
            );
        }
        // A piece on a blocked cell is not an UNSAT instance but no instance at all: an error
        // naming the cell (issue 45).
        let e = Problem::presolve_with(&instance(8, &[(4, 4)], &[(4, 4)]), QUEEN, Filter::None)
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "pre-placed piece at (4,4) is on a blocked cell"
        );
    }

    #[test]
    fn the_full_encoding_keeps_every_cell_and_states_facts_as_units() {
        let inst = instance(4, &[(1, 3)], &[(0, 0)]);
        let p = Problem::full(&inst, QUEEN).unwrap();
        assert!(!p.presolved);
        assert!(p.varmap.is_row_major());
        assert_eq!(p.num_cells(), 16);
        // (1,3) is variable 1*4 + 3 + 1 = 8; (0,0) is variable 1.
        assert_eq!(p.units, vec![8, -1]);
        assert_eq!(p.unsat, None);
        let plain = Problem::full(&Instance::plain(4), QUEEN).unwrap();
        assert!(plain.units.is_empty());
    }
}

mod encoder {
    use super::*;

    fn clauses(p: &Problem, options: EncodeOptions) -> Vec<Vec<i32>> {
        let mut sink = VecSink::default();
        Encoder::with_options(p, options).encode(&mut sink);
        sink.clauses
            .iter()
            .map(|c| c.iter().map(|l| l.to_dimacs()).collect())
            .collect()
    }

    #[test]
    fn an_unsat_problem_is_one_fixed_contradiction() {
        let p = Problem::presolve(&instance(8, &[(0, 0), (0, 5)], &[]), QUEEN).unwrap();
        for amo in AmoKind::ALL {
            let enc = Encoder::new(&p, amo);
            assert_eq!(clauses(&p, amo.into()), vec![vec![1], vec![-1]], "{amo}");
            let stats = enc.stats().unwrap();
            assert_eq!(
                (stats.vars, stats.clauses, stats.literals),
                (1, 2, 2),
                "{amo}"
            );
        }
    }

    /// A one-cell line gets a unit clause when its family needs a piece per line (a family
    /// of exactly n lines), and nothing otherwise. n = 1: all four families are the one cell,
    /// and the row alone says it: one unit (not four copies). n = 3, completion with (1,1) placed: the corner cells' one-cell diagonals
    /// need nothing, and no unit appears.
    #[test]
    fn single_cell_lines_get_a_unit_only_when_they_need_a_piece() {
        let p = Problem::presolve(&Instance::plain(1), QUEEN).unwrap();
        for amo in AmoKind::ALL {
            assert_eq!(clauses(&p, amo.into()), vec![vec![1]], "{amo}");
        }
        // n = 4 plain: the corner diagonals hold one cell each; among 4 + 4 at-least-one
        // clauses of 4 literals, no unit clause.
        let p = Problem::presolve(&Instance::plain(4), QUEEN).unwrap();
        for amo in AmoKind::ALL {
            let got = clauses(&p, amo.into());
            assert!(got.iter().all(|c| c.len() >= 2), "{amo}: a unit clause");
            assert_eq!(
                got.iter().filter(|c| c.len() == 4 && c[0] > 0).count(),
                8,
                "{amo}"
            );
        }
    }

    /// n = 2, pairwise: 2 row + 2 column at-least-one clauses, one AMO pair per row, column
    /// and two-cell diagonal (2 + 2 + 1 + 1); the one-cell diagonals give nothing.
    #[test]
    fn two_by_two_pairwise_by_hand() {
        let p = Problem::presolve(&Instance::plain(2), QUEEN).unwrap();
        let mut got = clauses(&p, AmoKind::Pairwise.into());
        got.sort();
        let mut want = vec![
            vec![1, 2],
            vec![3, 4],
            vec![1, 3],
            vec![2, 4],
            vec![-1, -2],
            vec![-3, -4],
            vec![-1, -3],
            vec![-2, -4],
            vec![-1, -4],
            vec![-2, -3],
        ];
        want.sort();
        assert_eq!(got, want);
    }

    /// The leap clauses of an amazon: one binary clause per pair of cells a knight move apart
    /// (3 x 3: eight pairs), on top of the queen's clauses.
    #[test]
    fn leap_pairs_are_one_clause_each() {
        let q = Problem::presolve(&Instance::plain(3), QUEEN).unwrap();
        let a = Problem::presolve(&Instance::plain(3), AMAZON).unwrap();
        for amo in AmoKind::ALL {
            let cq = clauses(&q, amo.into());
            let ca = clauses(&a, amo.into());
            assert_eq!(ca.len(), cq.len() + 8, "{amo}");
            assert_eq!(
                ca[..cq.len()],
                cq[..],
                "{amo}: leap clauses come after the lines"
            );
            for c in &ca[cq.len()..] {
                assert_eq!(c.len(), 2, "{amo}");
                let cell = |l: i32| p_cell(&a, l);
                let (x, y) = (cell(-c[0]), cell(-c[1]));
                let d = (x.row.abs_diff(y.row), x.col.abs_diff(y.col));
                assert!(d == (1, 2) || d == (2, 1), "{amo}: {x} {y}");
            }
        }
    }

    fn p_cell(p: &Problem, lit: i32) -> Cell {
        assert!(lit > 0, "negative literal expected");
        p.varmap.cell(lit as u32).unwrap()
    }

    #[test]
    fn the_full_encoding_starts_with_its_unit_clauses() {
        let inst = instance(5, &[(2, 0)], &[(4, 4), (0, 1)]);
        let p = Problem::full(&inst, QUEEN).unwrap();
        let got = clauses(&p, AmoKind::Sequential.into());
        let units: Vec<Vec<i32>> = p.units.iter().map(|&u| vec![u]).collect();
        assert_eq!(units.len(), 3);
        assert_eq!(got[..3], units[..]);
    }

    /// A fixed piece whose image under the symmetry is blocked: no model, stated as a
    /// contradiction on variable 1 after the other clauses, each unit once (here `-1 0` is
    /// already there: cell 1's image is empty, so the equivalences state it, and only `1 0`
    /// comes last).
    #[test]
    fn an_infeasible_symmetry_ends_in_a_contradiction() {
        // r180 maps (0,1) to (4,3) on a 5-board; (4,3) is blocked.
        let p = Problem::presolve(&instance(5, &[(0, 1)], &[(4, 3)]), QUEEN).unwrap();
        assert_eq!(p.unsat, None);
        let options = EncodeOptions {
            amo: AmoKind::Pairwise,
            symmetric: Some(Symmetry::R180),
            lex_leader: SymmetrySet::default(),
            implied: Default::default(),
        };
        let got = clauses(&p, options);
        assert_eq!(got.last(), Some(&vec![1]));
        for unit in [vec![1], vec![-1]] {
            assert_eq!(got.iter().filter(|&c| *c == unit).count(), 1, "{unit:?}");
        }
        let enc = Encoder::with_options(&p, options);
        let mut sink = StatsSink::default();
        assert_eq!(enc.encode(&mut sink), enc.stats().unwrap());
    }

    /// Every value of every registered encoding (ALL, and the group sizes 1..=8 and the largest).
    fn every_amo() -> Vec<AmoKind> {
        let mut out = Vec::new();
        for kind in AmoKind::ALL {
            out.push(kind);
            if let Some(r) = kind.group_size() {
                for g in (r.min..=8).chain([r.max]) {
                    let name = format!("{}:{g}", kind.base_name());
                    out.push(AmoKind::by_name(&name).unwrap());
                }
            }
        }
        out
    }

    /// `Encoder::stats` (from the cost formulas) equals what `encode` emits, for every AMO
    /// encoding, on plain, completion, blocked and excluded-diagonal instances, presolved and
    /// full, with and without `--symmetric` and lex-leader constraints; auxiliary variables are
    /// numbered after the cells and within the declared count.
    #[test]
    fn stats_match_the_emitted_cnf_for_every_amo_encoding() {
        let mut diags = Instance::plain(9);
        diags.excluded = vec![
            ExcludedDiagonal {
                kind: LineKind::Diagonal,
                key: 3,
            },
            ExcludedDiagonal {
                kind: LineKind::AntiDiagonal,
                key: 10,
            },
        ];
        let instances = [
            Instance::plain(1),
            Instance::plain(7),
            Instance::plain(70),
            instance(10, &[(0, 4), (9, 5)], &[]),
            instance(12, &[], &[(0, 0), (3, 5), (11, 11), (6, 6)]),
            instance(8, &[(0, 0), (0, 5)], &[]),
            diags,
        ];
        let group = SymmetrySet::of(&Symmetry::ALL);
        for amo in every_amo() {
            for inst in &instances {
                for piece in [QUEEN, AMAZON] {
                    for presolve in [true, false] {
                        let p = Problem::new(inst, piece, presolve).unwrap();
                        for (symmetric, lex_leader, implied) in [
                            (None, SymmetrySet::default(), Implied::None),
                            (None, SymmetrySet::default(), Implied::Sums),
                            (Some(Symmetry::R180), SymmetrySet::default(), Implied::None),
                            (Some(Symmetry::FlipD), SymmetrySet::default(), Implied::Sums),
                            (None, group, Implied::None),
                        ] {
                            let options = EncodeOptions {
                                amo,
                                symmetric,
                                lex_leader,
                                implied,
                            };
                            let enc = Encoder::with_options(&p, options);
                            let mut sink = VecSink::default();
                            let emitted = enc.encode(&mut sink);
                            let what = format!(
                                "{amo} {} n={} presolve={presolve} {options:?}",
                                piece.name, inst.n
                            );
                            assert_eq!(enc.stats().unwrap(), emitted, "{what}");
                            assert_eq!(sink.clauses.len() as u64, emitted.clauses, "{what}");
                            let literals: usize = sink.clauses.iter().map(Vec::len).sum();
                            assert_eq!(literals as u64, emitted.literals, "{what}");
                            let max = sink.clauses.iter().flatten().map(|l| l.var()).max();
                            assert!(u64::from(max.unwrap_or(0)) <= emitted.vars, "{what}");
                        }
                    }
                }
            }
        }
    }

    /// Issue 63: no encoding writes a clause twice (as a set of literals, in any order): a
    /// row and a column whose one live cell is the same cell state its unit once, the
    /// `--symmetric` equivalences of an involution (r180, the mirrors) once per pair of cells,
    /// the lex-leader steps of two elements or of a swapped pair once; and `stats` still counts
    /// exactly what is emitted. On plain boards, random completions (n = 10, 4 queens placed:
    /// single-cell rows and columns), a blocked board and excluded diagonals, presolved and
    /// full, queens and amazons, every symmetry element, lex-leader, implied sums.
    #[test]
    fn no_encoding_writes_a_clause_twice() {
        let mut instances = vec![
            Instance::plain(1),
            Instance::plain(2),
            Instance::plain(5),
            Instance::plain(8),
            Instance::plain(12),
            instance(10, &[(0, 4), (9, 5)], &[]),
            instance(12, &[], &[(0, 0), (3, 5), (11, 11), (6, 6)]),
            instance(9, &[(4, 4)], &[(0, 1), (8, 7)]),
        ];
        for seed in 1..=12 {
            instances.push(queens_sat::generate::completion::generate(10, 4, seed).unwrap());
        }
        let mut diags = Instance::plain(9);
        diags.excluded = vec![ExcludedDiagonal {
            kind: LineKind::Diagonal,
            key: 3,
        }];
        instances.push(diags);
        let group = SymmetrySet::of(&Symmetry::ALL);
        let mut options: Vec<(Option<Symmetry>, SymmetrySet, Implied)> = vec![
            (None, SymmetrySet::default(), Implied::None),
            (None, SymmetrySet::default(), Implied::Sums),
            (None, group, Implied::None),
            (
                Some(Symmetry::R180),
                SymmetrySet::of(&[Symmetry::R180, Symmetry::FlipH]),
                Implied::None,
            ),
        ];
        for g in Symmetry::ALL.into_iter().filter(|&g| g != Symmetry::Id) {
            options.push((Some(g), SymmetrySet::default(), Implied::None));
        }
        for amo in [AmoKind::Pairwise, AmoKind::Sequential, AmoKind::DEFAULT] {
            for inst in &instances {
                for piece in [QUEEN, AMAZON] {
                    for presolve in [true, false] {
                        let p = Problem::new(inst, piece, presolve).unwrap();
                        for &(symmetric, lex_leader, implied) in &options {
                            let options = EncodeOptions {
                                amo,
                                symmetric,
                                lex_leader,
                                implied,
                            };
                            let what = format!(
                                "{amo} {} n={} placed={:?} presolve={presolve} {options:?}",
                                piece.name, inst.n, inst.placed
                            );
                            let enc = Encoder::with_options(&p, options);
                            let mut sink = VecSink::default();
                            let emitted = enc.encode(&mut sink);
                            assert_eq!(enc.stats().unwrap(), emitted, "{what}");
                            let mut seen = BTreeSet::new();
                            for clause in &sink.clauses {
                                let mut key: Vec<i32> =
                                    clause.iter().map(|l| l.to_dimacs()).collect();
                                key.sort_unstable();
                                assert!(seen.insert(key), "{what}: {clause:?} twice");
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn literals_round_trip_through_dimacs() {
        for v in [1i32, 2, 1000, i32::MAX] {
            for d in [v, -v] {
                assert_eq!(Lit::from_dimacs(d).to_dimacs(), d);
            }
        }
        assert_eq!((!Lit::pos(7)).to_dimacs(), -7);
    }
}

mod verify {
    use super::*;
    use queens_sat::verify::{verify, verify_symmetric};

    /// A 6-queens solution: (0,1) (1,3) (2,5) (3,0) (4,2) (5,4).
    fn six() -> Vec<(u32, u32)> {
        vec![(0, 1), (1, 3), (2, 5), (3, 0), (4, 2), (5, 4)]
    }

    fn board(n: u32, list: &[(u32, u32)]) -> Board {
        Board::new(n, cells(list))
    }

    #[test]
    fn a_solution_passes_with_its_placed_and_blocked_cells() {
        let inst = instance(6, &[(2, 5)], &[(0, 0), (5, 5)]);
        assert_eq!(verify(&board(6, &six()), &inst, QUEEN), Ok(()));
    }

    /// Each violation gives its own sentence (the first one found).
    #[test]
    fn each_violation_is_named() {
        let plain = Instance::plain(6);
        let mut moved = six();
        moved[5] = (5, 5); // column 5 with (2,5)
        let cases: Vec<(Board, Instance, Piece, &str)> = vec![
            (
                board(5, &six()[..5]),
                plain.clone(),
                QUEEN,
                "board is 5x5 but the instance is 6x6",
            ),
            (
                board(6, &[(0, 1), (1, 3), (2, 5), (3, 0), (4, 2), (6, 4)]),
                plain.clone(),
                QUEEN,
                "outside the 6x6 board",
            ),
            (
                Board {
                    n: 6,
                    pieces: cells(&[(0, 1), (0, 1)]),
                },
                plain.clone(),
                QUEEN,
                "two queens on the same cell",
            ),
            (
                board(6, &[(0, 1), (0, 4)]),
                plain.clone(),
                QUEEN,
                "share a row",
            ),
            (board(6, &moved), plain.clone(), QUEEN, "share a column"),
            (
                board(6, &[(0, 0), (3, 3)]),
                plain.clone(),
                QUEEN,
                "share a diagonal",
            ),
            (
                board(6, &[(0, 4), (3, 1)]),
                plain.clone(),
                QUEEN,
                "share a anti-diagonal",
            ),
            (
                board(6, &[(0, 0), (2, 1)]),
                plain.clone(),
                AMAZON,
                "are a leap apart",
            ),
            (
                board(6, &six()),
                instance(6, &[(0, 0)], &[]),
                QUEEN,
                "pre-placed queen at (0,0) is missing",
            ),
            (
                board(6, &six()),
                instance(6, &[], &[(4, 2)]),
                QUEEN,
                "on a blocked cell",
            ),
            (
                board(6, &six()),
                Instance {
                    excluded: vec![ExcludedDiagonal {
                        kind: LineKind::AntiDiagonal,
                        key: 3,
                    }],
                    ..Instance::plain(6)
                },
                QUEEN,
                "on a blocked cell",
            ),
            (
                board(6, &six()[..5]),
                plain.clone(),
                QUEEN,
                "the board has 5 queens, expected 6",
            ),
        ];
        for (b, inst, piece, needle) in cases {
            let err = verify(&b, &inst, piece).expect_err(needle);
            assert!(err.contains(needle), "{needle:?} not in {err:?}");
        }
    }

    #[test]
    fn symmetric_boards() {
        // The 4-queens solution is r90-symmetric; the 6-queens one above is r180-symmetric only.
        let four = board(4, &[(0, 1), (1, 3), (2, 0), (3, 2)]);
        assert_eq!(verify_symmetric(&four, Symmetry::R90), Ok(()));
        let b = board(6, &six());
        assert_eq!(verify_symmetric(&b, Symmetry::R180), Ok(()));
        let err = verify_symmetric(&b, Symmetry::FlipH).unwrap_err();
        assert!(err.contains("not flip_h-symmetric"), "{err}");
    }
}

mod cubes {
    use super::*;
    use queens_sat::count::{dpll, sat};

    /// The cubes of an instance partition its solutions: every cube extends the instance, no two
    /// cubes are equal, and the oracle's counts over the cubes sum to the instance's.
    #[test]
    fn cubes_partition_the_solutions() {
        let instances = [
            (Instance::plain(6), QUEEN),
            (Instance::plain(8), QUEEN),
            (instance(8, &[(3, 4)], &[(0, 0)]), QUEEN),
            (Instance::plain(10), AMAZON),
        ];
        for (inst, piece) in instances {
            let attacks = oracle::Attacks::named(piece.name);
            let total = oracle::count(&Plain::from_instance(&inst), &attacks);
            for target in [1, 2, 7, 64, 10_000] {
                let cubes = sat::cubes(&inst, piece, target, &queens_sat::interrupt::Cancel::new())
                    .unwrap();
                let what = format!("{} n={} target={target}", piece.name, inst.n);
                let mut seen = BTreeSet::new();
                let mut sum = 0;
                for cube in &cubes {
                    assert_eq!(cube.n, inst.n, "{what}");
                    assert_eq!(cube.blocked, inst.blocked, "{what}");
                    assert_eq!(cube.placed[..inst.placed.len()], inst.placed[..], "{what}");
                    let mut key = cube.placed.clone();
                    key.sort_unstable();
                    assert!(seen.insert(key), "{what}: a cube twice");
                    sum += oracle::count(&Plain::from_instance(cube), &attacks);
                }
                assert_eq!(sum, total, "{what}");
                // At most half of the free rows carry cube pieces.
                let free_rows = inst.n as usize - inst.placed.len();
                for cube in &cubes {
                    assert!(
                        cube.placed.len() - inst.placed.len() <= free_rows / 2,
                        "{what}"
                    );
                }
                if target == 1 {
                    assert_eq!(
                        cubes,
                        vec![inst.clone()],
                        "{what}: one cube is the instance"
                    );
                }
            }
        }
    }

    /// The first cube level branches on row 0 (the border first), one cube per live cell.
    #[test]
    fn the_first_level_branches_on_row_zero() {
        let cubes = sat::cubes(
            &Instance::plain(8),
            QUEEN,
            2,
            &queens_sat::interrupt::Cancel::new(),
        )
        .unwrap();
        let firsts: Vec<Cell> = cubes.iter().map(|c| c.placed[0]).collect();
        assert_eq!(firsts, (0..8).map(|c| Cell::new(0, c)).collect::<Vec<_>>());
    }

    /// The DPLL counter on each cube sums to the published 8-queens count.
    #[test]
    fn dpll_counts_over_the_cubes_sum_to_the_total() {
        for amo in AmoKind::ALL {
            let cubes = sat::cubes(
                &Instance::plain(8),
                QUEEN,
                30,
                &queens_sat::interrupt::Cancel::new(),
            )
            .unwrap();
            assert!(cubes.len() >= 30, "{}", cubes.len());
            let sum: u64 = cubes
                .iter()
                .map(|c| dpll::count_cube(c, QUEEN, amo.into()).unwrap())
                .sum();
            assert_eq!(sum, 92, "{amo}"); // A000170(8)
        }
    }
}
