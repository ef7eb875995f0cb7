//! The default strategy modulo the instance's symmetries (issue 28): on random small instances
//! whose blocked cells, excluded diagonals and pre-placed pieces are closed under a random
//! element of the square's group, `auto` answers as the brute-force oracle does, and a board it
//! returns is one of the oracle's solutions. The cube solver it uses (look-ahead cubes,
//! lex-leader constraints for the stabiliser, implied diagonal sums) keeps exactly the
//! lex-leaders; an instance with a trivial stabiliser is solved as before.

use crate::common;

use std::collections::BTreeSet;

use common::Rng;
use common::oracle::instance_solutions;

use queens_sat::board::{Board, Cell};
use queens_sat::cube::Split;
use queens_sat::encode::EncodeOptions;
use queens_sat::encode::amo::AmoKind;
use queens_sat::encode::implied::Implied;
use queens_sat::encode::lex::SymmetrySet;
use queens_sat::instance::{ExcludedDiagonal, Instance};
use queens_sat::piece::{AMAZON, LineKind, Piece, QUEEN};
use queens_sat::presolve::Problem;
use queens_sat::solve::cadical_backend::CadicalAssuming;
use queens_sat::solve::cubes::{CubeSettings, solve};
use queens_sat::solve::{Answer, AutoSymmetry, Solver};
use queens_sat::symmetry::{Symmetry, stabiliser};
use queens_sat::verify::verify_lex_leader;

/// The cells of the line `(kind, key)` on an `n x n` board.
fn line_cells(kind: LineKind, key: u32, n: u32) -> Vec<Cell> {
    (0..n)
        .flat_map(|r| (0..n).map(move |c| Cell::new(r, c)))
        .filter(|&c| kind.key(c, n) == key)
        .collect()
}

/// The excluded diagonal that `g` maps `d` onto (a one-cell corner line keeps its kind's
/// one-cell line at the image corner).
fn image(g: Symmetry, d: ExcludedDiagonal, n: u32) -> ExcludedDiagonal {
    let cells: Vec<Cell> = line_cells(d.kind, d.key, n)
        .into_iter()
        .map(|c| g.apply(c, n))
        .collect();
    for kind in [LineKind::Diagonal, LineKind::AntiDiagonal] {
        let key = kind.key(cells[0], n);
        if cells.iter().all(|&c| kind.key(c, n) == key)
            && line_cells(kind, key, n).len() == cells.len()
        {
            return ExcludedDiagonal { kind, key };
        }
    }
    unreachable!("a diagonal's image is a diagonal")
}

/// Closes `items` under the cyclic group of `g` (applying it until nothing new appears).
fn close<T: Copy + Ord>(items: &mut Vec<T>, f: impl Fn(T) -> T) {
    let mut set: BTreeSet<T> = items.iter().copied().collect();
    loop {
        let more: Vec<T> = set
            .iter()
            .map(|&x| f(x))
            .filter(|x| !set.contains(x))
            .collect();
        if more.is_empty() {
            break;
        }
        set.extend(more);
    }
    *items = set.into_iter().collect();
}

/// `count` random instances with n in 4..=9 closed under a random non-identity element (also
/// returned): blocked cells, blocked cells with pre-placed pieces, or excluded diagonals.
fn symmetric_instances(seed: u64, count: usize) -> Vec<(Instance, Symmetry)> {
    let mut rng = Rng(seed);
    (0..count)
        .map(|i| {
            let n = 4 + rng.below(6);
            let g = Symmetry::ALL[1 + rng.below(7) as usize];
            let mut inst = Instance::plain(n);
            let cell = |rng: &mut Rng| Cell::new(rng.below(n), rng.below(n));
            match i % 3 {
                0 => inst.blocked = (0..rng.below(n * 2)).map(|_| cell(&mut rng)).collect(),
                1 => {
                    inst.placed = (0..1 + rng.below(2)).map(|_| cell(&mut rng)).collect();
                    inst.blocked = (0..rng.below(n)).map(|_| cell(&mut rng)).collect();
                }
                _ => {
                    inst.excluded = common::random_excluded(rng.below(n), n, |m| rng.below(m));
                }
            }
            close(&mut inst.blocked, |c| g.apply(c, n));
            close(&mut inst.placed, |c| g.apply(c, n));
            // Blocked cells under pieces stay free: both sets are closed, so is the difference.
            common::make_valid(&mut inst);
            let key = |d: ExcludedDiagonal| (d.kind == LineKind::AntiDiagonal, d.key);
            let mut keys: Vec<(bool, u32)> = inst.excluded.iter().map(|&d| key(d)).collect();
            let of = |(anti, k): (bool, u32)| ExcludedDiagonal {
                kind: if anti {
                    LineKind::AntiDiagonal
                } else {
                    LineKind::Diagonal
                },
                key: k,
            };
            close(&mut keys, |k| key(image(g, of(k), n)));
            inst.excluded = keys.into_iter().map(of).collect();
            assert!(
                stabiliser(&inst, &QUEEN).contains(&g),
                "{inst:?} is not closed under {g}"
            );
            (inst, g)
        })
        .collect()
}

fn cells(board: &Board) -> Vec<(u32, u32)> {
    let mut v: Vec<(u32, u32)> = board.pieces.iter().map(|c| (c.row, c.col)).collect();
    v.sort_unstable();
    v
}

/// `auto` on symmetric instances, with the symmetry handling on every instance kind and as
/// measured (excluded diagonals only): the oracle's verdict and one of its boards; an answer
/// of the cube solver says which symmetries it searched modulo, and only those.
#[test]
fn auto_on_symmetric_instances_agrees_with_the_oracle() {
    let mut modulo = [0; 2];
    for (piece, seed) in [(QUEEN, 281), (AMAZON, 282)] {
        for (inst, g) in symmetric_instances(seed, 60) {
            let all = instance_solutions(&inst, piece.name);
            let problem = Problem::presolve(&inst, piece).unwrap();
            for (k, when) in [AutoSymmetry::Always, AutoSymmetry::Measured]
                .into_iter()
                .enumerate()
            {
                let report = Solver::new(&inst, piece)
                    .auto_symmetry(when)
                    .jobs(Some(1)) // no bitboard race: the cube side answers
                    .solve()
                    .unwrap();
                match &report.status {
                    Answer::Sat(b) => assert!(all.contains(&cells(b)), "{inst:?}: not a solution"),
                    Answer::Unsat => {
                        assert!(all.is_empty(), "{inst:?} ({g}): UNSAT, has solutions")
                    }
                    Answer::Unknown(w) => panic!("{inst:?}: unknown ({w})"),
                }
                let group = when.group(&problem);
                if k == 0 {
                    assert_eq!(group, stabiliser(&inst, &piece));
                } else {
                    assert_eq!(
                        group.is_empty(),
                        inst.excluded.is_empty() || !inst.blocked.is_empty()
                    );
                }
                if report.solver.contains("cubes") && group.len() > 1 {
                    let names: Vec<&str> = group[1..].iter().map(|g| g.name()).collect();
                    let suffix = format!(" mod {}", names.join(","));
                    assert!(
                        report.solver.ends_with(&suffix),
                        "{inst:?}: {} lacks {suffix}",
                        report.solver
                    );
                    modulo[k] += 1;
                } else {
                    assert!(!report.solver.contains(" mod "), "{}", report.solver);
                }
            }
        }
    }
    assert!(
        modulo[0] >= 10 && modulo[1] >= 3,
        "only {modulo:?} solves reached the cube solver modulo symmetries"
    );
}

/// The cube solver of the default strategy with the lex-leader constraints of the stabiliser
/// and the implied sums, on every split depth: SAT exactly when the oracle finds a solution, and
/// its board a solution that is its class's lex-leader; with `Split::max_cubes` 1 the solver
/// sees the whole problem, with many cubes the look-ahead split cuts it.
#[test]
fn lex_leader_cubes_with_implied_sums_agree_with_the_oracle() {
    for (piece, seed) in [(QUEEN, 283), (AMAZON, 284)] {
        for (inst, _) in symmetric_instances(seed, 45) {
            let all = instance_solutions(&inst, piece.name);
            let group = stabiliser(&inst, &piece);
            let root = Problem::presolve(&inst, piece).unwrap();
            for implied in [Implied::None, Implied::Sums] {
                for max_cubes in [1, 64] {
                    let options = EncodeOptions {
                        lex_leader: SymmetrySet::of(&group),
                        implied,
                        ..EncodeOptions::from(AmoKind::DEFAULT)
                    };
                    let settings = CubeSettings {
                        jobs: 2,
                        split: Split {
                            max_cubes,
                            easy_cells: 0,
                            ..Split::default()
                        },
                        ..CubeSettings::default()
                    };
                    let factory = CadicalAssuming::factory_for(&root, options);
                    let r = solve(&root, options, factory, &settings).unwrap();
                    match r.status {
                        Answer::Sat(b) => {
                            assert!(all.contains(&cells(&b)), "{inst:?}: not a solution");
                            verify_lex_leader(&b, &group).unwrap();
                        }
                        Answer::Unsat => assert!(all.is_empty(), "{inst:?}: UNSAT, has solutions"),
                        Answer::Unknown(w) => panic!("{inst:?}: unknown ({w})"),
                    }
                }
            }
        }
    }
}

/// An instance with only the identity in its stabiliser is solved as before (no lex-leader
/// constraints, no ` mod` in the label), and [`AutoSymmetry::Off`] never adds them.
#[test]
fn trivial_stabiliser_and_switched_off_solve_as_before() {
    let mut checked = 0;
    for (inst, _) in symmetric_instances(285, 60) {
        let piece: Piece = QUEEN;
        let all = instance_solutions(&inst, piece.name);
        let off = Solver::new(&inst, piece)
            .auto_symmetry(AutoSymmetry::Off)
            .jobs(Some(1))
            .solve()
            .unwrap();
        assert!(!off.solver.contains(" mod "), "{}", off.solver);
        assert_eq!(matches!(off.status, Answer::Unsat), all.is_empty());
        // Break the symmetry with one more blocked cell, where the stabiliser allows it.
        let mut broken = inst.clone();
        let free: Vec<Cell> = (0..inst.n)
            .flat_map(|r| (0..inst.n).map(move |c| Cell::new(r, c)))
            .filter(|c| !inst.blocked.contains(c) && !inst.placed.contains(c))
            .collect();
        if let Some(&c) = free.iter().find(|&&c| {
            let mut b = broken.clone();
            b.blocked.push(c);
            stabiliser(&b, &piece).len() == 1
        }) {
            broken.blocked.push(c);
            let all = instance_solutions(&broken, piece.name);
            let r = Solver::new(&broken, piece)
                .auto_symmetry(AutoSymmetry::Always)
                .jobs(Some(1))
                .solve()
                .unwrap();
            assert!(!r.solver.contains(" mod "), "{}", r.solver);
            match &r.status {
                Answer::Sat(b) => assert!(all.contains(&cells(b))),
                Answer::Unsat => assert!(all.is_empty()),
                Answer::Unknown(w) => panic!("{broken:?}: unknown ({w})"),
            }
            checked += 1;
        }
    }
    assert!(
        checked >= 20,
        "only {checked} instances had their symmetry broken"
    );
}

/// `solve` names the symmetries in its summary (one job: on two the bitboard search races the
/// cubes and answers these small instances first); `--break-symmetry none` turns them off and
/// `cubes` on for every instance kind. 6-queens without the diagonals and anti-diagonals of
/// keys 2 and 3 (flip_v maps each diagonal onto the anti-diagonal of its key) is UNSAT, and
/// presolve does not see it; plain 3-queens is UNSAT and has the whole group.
#[test]
fn cli_names_the_symmetries_and_none_turns_them_off() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("d.txt");
    std::fs::write(
        &f,
        "n = 6\nnumdiags = 4\ndiags = [[2,0],[2,1],[3,0],[3,1]]\n",
    )
    .unwrap();
    let f = f.to_str().unwrap();
    let r = common::run_expect(dir.path(), &["solve", "--instance", f, "--jobs", "1"], 20);
    assert!(
        r.stderr.contains("cubes") && r.stderr.contains(" mod ") && r.stderr.contains("flip_v"),
        "{}",
        r.stderr
    );
    let none = [
        "solve",
        "--instance",
        f,
        "--break-symmetry",
        "none",
        "--jobs",
        "1",
    ];
    let r = common::run_expect(dir.path(), &none, 20);
    assert!(
        r.stderr.contains("cubes") && !r.stderr.contains(" mod "),
        "{}",
        r.stderr
    );
    // Under --certify the certificate covers the plain model: no symmetry handling.
    let r = common::run_expect(dir.path(), &["solve", "--instance", f, "--certify"], 20);
    assert!(!r.stderr.contains(" mod "), "{}", r.stderr);
    // A plain board is not an excluded-diagonal instance: only `cubes` adds the constraints
    // (without it, the construction answers a plain board).
    let r = common::run_expect(dir.path(), &["solve", "-n", "3", "--jobs", "1"], 20);
    assert!(
        r.stderr.contains("construct") && !r.stderr.contains(" mod "),
        "{}",
        r.stderr
    );
    let r = common::run_expect(
        dir.path(),
        &[
            "solve",
            "-n",
            "3",
            "--break-symmetry",
            "cubes",
            "--jobs",
            "1",
        ],
        20,
    );
    assert!(
        r.stderr
            .contains(" mod r90,r180,r270,flip_h,flip_v,flip_d,flip_a "),
        "{}",
        r.stderr
    );
    // Only solve takes `cubes`.
    common::assert_one_line_error(
        dir.path(),
        &["count", "-n", "5", "--break-symmetry", "cubes"],
        &["cubes"],
    );
}
