//! The local search (`src/local_search.rs`, `--solver walk`, the `auto` pre-pass) against the
//! brute-force oracle: every board it returns is a solution the oracle knows, it never answers
//! an instance without solutions, and it finds plain boards.

use crate::common;

use common::XorShift as Rng;

use common::oracle::instance_solutions;

use queens_sat::board::Cell;
use queens_sat::instance::Instance;
use queens_sat::local_search::{WalkSettings, walk};
use queens_sat::piece::{AMAZON, QUEEN};
use queens_sat::presolve::Problem;
use queens_sat::verify::verify;

fn settings(seed: u64) -> WalkSettings {
    WalkSettings {
        max_tries: 50_000,
        seed,
        ..WalkSettings::default()
    }
}

#[test]
fn boards_are_oracle_solutions_and_unsat_is_never_answered() {
    let mut rng = Rng(0x00a1_1ce5);
    let (mut found, mut sat, mut unsat) = (0, 0, 0);
    for i in 0..300u64 {
        let n = 4 + rng.below(6); // 4..=9
        let mut inst = Instance::plain(n);
        let cell = |rng: &mut Rng| Cell::new(rng.below(n), rng.below(n));
        match i % 4 {
            0 => inst.placed = vec![cell(&mut rng)],
            1 => inst.blocked = (0..rng.below(2 * n)).map(|_| cell(&mut rng)).collect(),
            2 => {
                inst.excluded = {
                    let k = 1 + rng.below(3);
                    common::random_excluded(k, n, |m| rng.below(m))
                }
            }
            _ => {}
        }
        inst.blocked.sort_unstable();
        inst.blocked.dedup();
        inst.blocked.retain(|b| !inst.placed.contains(b));
        let piece = if i % 3 == 0 { AMAZON } else { QUEEN };
        let solutions = instance_solutions(&inst, piece.name);
        let problem = Problem::presolve(&inst, piece).unwrap();
        if let Some(board) = walk(&problem, &settings(i)) {
            verify(&board, &inst, piece).unwrap();
            let cells: Vec<(u32, u32)> = board.pieces.iter().map(|c| (c.row, c.col)).collect();
            assert!(
                solutions.contains(&cells),
                "{inst:?}: {cells:?} unknown to the oracle"
            );
            found += 1;
        }
        if solutions.is_empty() {
            unsat += 1;
        } else {
            sat += 1;
        }
    }
    // Small boards with solutions are easy for local search: it must find most of them.
    assert!(
        unsat > 30 && sat > 100,
        "too few of a kind: {sat} SAT, {unsat} UNSAT"
    );
    assert!(
        found * 10 >= sat * 9,
        "found {found} of {sat} satisfiable instances"
    );
}

#[test]
fn plain_boards_are_found() {
    for n in (4..=60).chain([100, 500, 1000, 2000]) {
        let inst = Instance::plain(n);
        let board = walk(
            &Problem::presolve(&inst, QUEEN).unwrap(),
            &WalkSettings::default(),
        )
        .unwrap_or_else(|| panic!("no {n}-queens board"));
        verify(&board, &inst, QUEEN).unwrap();
    }
    for n in [12, 20, 30, 50] {
        let inst = Instance::plain(n);
        let board = walk(
            &Problem::presolve(&inst, AMAZON).unwrap(),
            &WalkSettings::default(),
        )
        .unwrap_or_else(|| panic!("no {n}-amazons board"));
        verify(&board, &inst, AMAZON).unwrap();
    }
}

#[test]
fn no_board_without_solutions() {
    for n in [2, 3] {
        let p = Problem::presolve(&Instance::plain(n), QUEEN).unwrap();
        assert!(
            walk(&p, &settings(1)).is_none(),
            "{n}-queens has no solution"
        );
    }
    for n in 4..=9 {
        // Amazons have no solution below n = 10 (A051223).
        let p = Problem::presolve(&Instance::plain(n), AMAZON).unwrap();
        assert!(
            walk(&p, &settings(1)).is_none(),
            "{n}-amazons has no solution"
        );
    }
}

#[test]
fn cli_walk_answers_sat_or_unknown_never_unsat() {
    let dir = tempfile::tempdir().unwrap();
    let r = common::run_expect(dir.path(), &["solve", "-n", "50", "--solver", "walk"], 10);
    assert_eq!(r.stdout.lines().count(), 50, "{}", r.stdout);
    // 3-queens has no solution: local search cannot say so, but a board this tiny (at most 64
    // live cells) the walk decides at once with the exhaustive bitboard search.
    let r = common::run_expect(
        dir.path(),
        &["solve", "-n", "3", "--solver", "walk", "--timeout", "1"],
        20,
    );
    assert!(r.stdout.starts_with("UNSAT"), "{}", r.stdout);
    // The default strategy falls through to varisat, which proves it.
    common::run_expect(dir.path(), &["solve", "-n", "3"], 20);
    // Local search cannot honour --symmetric: a usage error, not a wrong board.
    common::assert_one_line_error(
        dir.path(),
        &[
            "solve",
            "-n",
            "8",
            "--solver",
            "walk",
            "--symmetric",
            "r180",
        ],
        &["walk"],
    );
}
