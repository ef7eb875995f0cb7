//! The specialised backtrack search (`count::fast`, issue 29) against the published tables, the
//! general row-by-row search, the SAT engine and the brute-force oracle.
//!
//! Coverage: queens n <= 15 and amazons n <= 16 against the published totals and unique counts
//! (and the published quarter- and half-turn fixed points of queens; no reflection fixes a
//! solution for n >= 2); the general search on every fixed point of every element for queens
//! n <= 13 and amazons n <= 15; the SAT engine on totals, fixed points and unique counts for
//! queens n <= 11 and amazons n <= 12 (the SAT engine is the slow part; `tests/it/count.rs` runs
//! all engines on queens to 12 and amazons to 13 as well); random instances n <= 9 with
//! pre-placed pieces, blocked cells and excluded diagonals against all three and the oracle.

use crate::common;

use std::collections::BTreeSet;

use common::XorShift as Rng;
use common::oracle::instance_solutions;

use crate::common::counting::{count, count_symmetric};
use queens_sat::board::Cell;
use queens_sat::count::CountEngine;
use queens_sat::count::backtrack::{Tally, count_fast, count_general};
use queens_sat::count::fast::{Shape, count_rows_with, full};
use queens_sat::count::reference::{AMAZONS, QUEENS};
use queens_sat::cpu::{ISA_ENV, Isa};
use queens_sat::encode::amo::AmoKind;
use queens_sat::instance::Instance;
use queens_sat::interrupt::Cancel;
use queens_sat::piece::{AMAZON, LineKind, Piece, QUEEN};
use queens_sat::presolve::Problem;
use queens_sat::symmetry::{Symmetry, stabiliser};

fn fast(inst: &Instance, piece: Piece) -> Tally {
    count_fast(inst, piece, &Symmetry::ALL, 2, &Cancel::new()).unwrap()
}

fn general(inst: &Instance, piece: Piece) -> Tally {
    count_general(inst, piece, &Symmetry::ALL, 2, &Cancel::new()).unwrap()
}

/// `fixed[i]` for `Symmetry::ALL[i]`.
fn fixed(t: &Tally, g: Symmetry) -> u64 {
    t.fixed[Symmetry::ALL.iter().position(|&x| x == g).unwrap()]
}

/// Burnside over the whole group: the classes of a plain board.
fn burnside(t: &Tally) -> u64 {
    let sum: u64 = t.fixed.iter().sum();
    assert_eq!(sum % 8, 0, "Burnside does not divide: {t:?}");
    sum / 8
}

#[test]
fn queens_match_the_published_tables_up_to_15() {
    for row in &QUEENS[..15] {
        let n = row.n;
        let t = fast(&Instance::plain(n), QUEEN);
        assert_eq!(t.total, row.total, "total n={n}");
        assert_eq!(fixed(&t, Symmetry::Id), row.total, "id n={n}");
        assert_eq!(Some(fixed(&t, Symmetry::R90)), row.r90, "r90 n={n}");
        assert_eq!(Some(fixed(&t, Symmetry::R270)), row.r90, "r270 n={n}");
        assert_eq!(Some(fixed(&t, Symmetry::R180)), row.r180, "r180 n={n}");
        for g in [
            Symmetry::FlipH,
            Symmetry::FlipV,
            Symmetry::FlipD,
            Symmetry::FlipA,
        ] {
            let want = if n == 1 { 1 } else { 0 };
            assert_eq!(fixed(&t, g), want, "{g} n={n}");
        }
        assert_eq!(Some(burnside(&t)), row.unique, "unique n={n}");
        // And through the public entry point, with its own Burnside check.
        let c = count(
            &Instance::plain(n),
            QUEEN,
            AmoKind::Product,
            CountEngine::Backtrack,
            2,
        )
        .unwrap();
        assert_eq!(
            (c.total, Some(c.unique)),
            (row.total, row.unique),
            "count n={n}"
        );
        assert_eq!(c.fixed, t.fixed, "count n={n}");
    }
}

#[test]
fn amazons_match_the_published_tables_up_to_16() {
    for row in &AMAZONS[..16] {
        let n = row.n;
        let t = fast(&Instance::plain(n), AMAZON);
        assert_eq!(t.total, row.total, "total n={n}");
        assert_eq!(Some(burnside(&t)), row.unique, "unique n={n}");
        // The quarter turns are inverse to each other: same fixed points.
        assert_eq!(fixed(&t, Symmetry::R90), fixed(&t, Symmetry::R270), "n={n}");
    }
}

#[test]
fn fast_and_general_searches_agree_on_every_fixed_point() {
    for n in 1..=13 {
        assert_eq!(
            fast(&Instance::plain(n), QUEEN),
            general(&Instance::plain(n), QUEEN),
            "queens n={n}"
        );
    }
    for n in 1..=15 {
        assert_eq!(
            fast(&Instance::plain(n), AMAZON),
            general(&Instance::plain(n), AMAZON),
            "amazons n={n}"
        );
    }
}

#[test]
fn fast_search_agrees_with_the_sat_engine() {
    let rows = (1..=11)
        .map(|n| (QUEEN, n))
        .chain((1..=12).map(|n| (AMAZON, n)));
    for (piece, n) in rows {
        let inst = Instance::plain(n);
        let t = fast(&inst, piece);
        let sat = count(&inst, piece, AmoKind::Product, CountEngine::Sat, 2).unwrap();
        let what = format!("{} n={n}", piece.name);
        assert_eq!(sat.group, Symmetry::ALL.to_vec(), "{what}");
        assert_eq!(sat.fixed, t.fixed, "{what}");
        assert_eq!(sat.unique, burnside(&t), "{what}");
        // The SAT engine's own symmetric encoding for the turns (a separate CNF).
        for g in [Symmetry::R90, Symmetry::R180] {
            let s = count_symmetric(&inst, piece, AmoKind::Sequential, g, 2, &Cancel::new());
            assert_eq!(s.unwrap(), fixed(&t, g), "{what} {g}");
        }
    }
}

/// From n = 14 the engine picks, per task, the image its estimate finds cheapest: on boards
/// with a partly broken symmetry (blocked cells symmetric under one element) it must still
/// count exactly what the general search counts.
#[test]
fn image_choice_on_symmetric_blocked_boards_keeps_counts() {
    let cases = [
        (QUEEN, 14, Symmetry::R180, vec![(0, 3), (2, 7), (5, 5)]),
        (QUEEN, 14, Symmetry::FlipV, vec![(1, 1), (6, 2)]),
        (QUEEN, 15, Symmetry::R90, vec![(0, 4)]),
        (AMAZON, 16, Symmetry::FlipD, vec![(3, 8), (0, 5)]),
    ];
    for (piece, n, g, cells) in cases {
        let mut inst = Instance::plain(n);
        for (r, c) in cells {
            let mut x = Cell::new(r, c);
            for _ in 0..4 {
                inst.blocked.push(x);
                x = g.apply(x, n);
            }
        }
        inst.blocked.sort_unstable();
        inst.blocked.dedup();
        let group = stabiliser(&inst, &piece);
        assert!(group.len() > 1, "{g} keeps a symmetry");
        let a = count_fast(&inst, piece, &group, 2, &Cancel::new()).unwrap();
        let b = count_general(&inst, piece, &group, 2, &Cancel::new()).unwrap();
        assert_eq!(a, b, "{} n={n} {g}", piece.name);
        assert!(a.total > 0, "{} n={n} {g}", piece.name);
    }
}

/// Random instances n <= 9: pre-placed pieces (some attacking each other), blocked cells and
/// excluded diagonals, mixed; every fixed point against the oracle's solutions, and the totals
/// and unique counts against the general search and the SAT engine.
#[test]
fn random_instances_keep_their_counts() {
    let mut rng = Rng(0x0029_fa57_c0de);
    let mut nonzero = 0;
    let mut symmetric = 0;
    for i in 0..160 {
        let n = 4 + rng.below(6); // 4..=9
        let mut inst = Instance::plain(n);
        let cell = |rng: &mut Rng| Cell::new(rng.below(n), rng.below(n));
        if i % 2 == 0 {
            inst.placed = (0..rng.below(4)).map(|_| cell(&mut rng)).collect();
        }
        if i % 3 != 0 {
            inst.blocked = (0..rng.below(2 * n)).map(|_| cell(&mut rng)).collect();
        }
        if i % 5 < 2 {
            inst.excluded = {
                let k = rng.below(4);
                common::random_excluded(k, n, |m| rng.below(m))
            };
        }
        if i % 7 == 3 {
            // Symmetric obstacles: the images of the blocked cells under a random element.
            let g = Symmetry::ALL[rng.below(8) as usize];
            let images: Vec<Cell> = inst.blocked.iter().map(|&c| g.apply(c, n)).collect();
            inst.blocked.extend(images);
            inst.placed.clear();
            inst.excluded.clear();
        }
        inst.placed.sort_unstable();
        inst.placed.dedup();
        inst.blocked.sort_unstable();
        inst.blocked.dedup();
        inst.blocked.retain(|b| !inst.placed.contains(b));
        common::make_valid(&mut inst);
        let piece = if i % 3 == 1 { AMAZON } else { QUEEN };
        let sols = instance_solutions(&inst, piece.name);
        let t = fast(&inst, piece);
        let what = format!("{} {inst:?}", piece.name);
        assert_eq!(t.total, sols.len() as u64, "total {what}");
        for (g, &f) in Symmetry::ALL.iter().zip(&t.fixed) {
            let want = sols
                .iter()
                .filter(|s| {
                    let img: BTreeSet<(u32, u32)> = s
                        .iter()
                        .map(|&(r, c)| {
                            let x = g.apply(Cell::new(r, c), n);
                            (x.row, x.col)
                        })
                        .collect();
                    img == s.iter().copied().collect()
                })
                .count() as u64;
            assert_eq!(f, want, "fixed {g} {what}");
        }
        assert_eq!(t, general(&inst, piece), "general {what}");
        let c = count(&inst, piece, AmoKind::Product, CountEngine::Backtrack, 2).unwrap();
        let sat = count(&inst, piece, AmoKind::Product, CountEngine::Sat, 2).unwrap();
        assert_eq!(c, sat, "sat {what}");
        if t.total > 0 {
            nonzero += 1;
        }
        if stabiliser(&inst, &piece).len() > 1 {
            symmetric += 1;
        }
    }
    assert!(nonzero > 40, "too few instances with solutions: {nonzero}");
    assert!(symmetric > 20, "too few symmetric instances: {symmetric}");
}

/// Pieces the specialised search does not model are refused with a clear message, and the
/// engine's entry point counts them with the general search instead.
#[test]
fn other_pieces_fall_back_to_the_general_search() {
    let rook = Piece {
        name: "rook",
        lines: &[LineKind::Row, LineKind::Column],
        leaps: &[],
    };
    let e = count_fast(
        &Instance::plain(5),
        rook,
        &[Symmetry::Id],
        1,
        &Cancel::new(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("queens and amazons"), "{e}");
    let t =
        queens_sat::count::backtrack::count(&Instance::plain(6), rook, &Symmetry::ALL, 2).unwrap();
    assert_eq!(t.total, 720); // 6! permutations
    assert_eq!(t, general(&Instance::plain(6), rook));
}

/// The allowed columns per row of `inst` after presolve, with its pre-placed pieces' rows
/// (what the backtrack engine hands the kernel), or `None` when presolve refuted it.
fn kernel_rows(inst: &Instance, piece: Piece) -> Option<(Vec<u64>, Vec<bool>)> {
    let problem = Problem::presolve(inst, piece).unwrap();
    if problem.unsat.is_some() {
        return None;
    }
    let n = inst.n as usize;
    let mut allowed = vec![0u64; n];
    let mut fixed = vec![false; n];
    for (cell, _) in problem.varmap.cells() {
        allowed[cell.row as usize] |= 1 << cell.col;
    }
    for c in &problem.fixed {
        allowed[c.row as usize] = 1 << c.col;
        fixed[c.row as usize] = true;
    }
    Some((allowed, fixed))
}

/// Both builds of the counting kernel (baseline and BMI2, where the processor has it;
/// `cpu::Isa`): the published totals of plain boards, and the oracle's totals on random
/// instances n <= 9 with pre-placed pieces, blocked cells and excluded diagonals, in each build.
#[test]
fn both_builds_agree() {
    let isas = Isa::all_usable();
    for n in 1..=12usize {
        let rows = vec![full(n); n];
        for isa in &isas {
            let q = count_rows_with(&rows, &vec![false; n], Shape::Queen, *isa);
            assert_eq!(q, QUEENS[n - 1].total, "queens n={n} {isa:?}");
            let a = count_rows_with(&rows, &vec![false; n], Shape::Amazon, *isa);
            assert_eq!(a, AMAZONS[n - 1].total, "amazons n={n} {isa:?}");
        }
    }
    let mut searched = 0;
    for (i, inst) in common::random_instances(0xC0_0B1D5, 48, 9)
        .iter()
        .enumerate()
    {
        let (piece, shape) = if i % 3 == 2 {
            (AMAZON, Shape::Amazon)
        } else {
            (QUEEN, Shape::Queen)
        };
        let want = instance_solutions(inst, piece.name).len() as u64;
        let Some((allowed, fixed)) = kernel_rows(inst, piece) else {
            assert_eq!(want, 0, "case {i}: presolve refuted a solvable instance");
            continue;
        };
        searched += 1;
        for isa in &isas {
            let got = count_rows_with(&allowed, &fixed, shape, *isa);
            assert_eq!(got, want, "case {i} ({}, n={}) {isa:?}", piece.name, inst.n);
        }
    }
    assert!(searched > 24, "{searched}");
}

/// A solution of the `n`-queens problem by the explicit construction (Hoffman, Loessi and
/// Moore, 1969): one column per row.
fn constructed_solution(n: usize) -> Vec<usize> {
    if n % 2 == 1 {
        let mut s = constructed_solution(n - 1);
        s.push(n - 1);
        return s;
    }
    let h = n / 2;
    let mut cols = vec![0; n];
    if n % 6 != 2 {
        for i in 0..h {
            cols[i] = 2 * i + 1;
            cols[h + i] = 2 * i;
        }
    } else {
        for i in 0..h {
            let c = (2 * i + h - 1) % n;
            cols[i] = c;
            cols[n - 1 - i] = n - 1 - c;
        }
    }
    cols
}

/// Every build on boards with more free rows than the AVX-512 lanes keep in one table (16) and
/// more than a lane descends below its root (12): random queens boards n = 17..32 and amazons
/// boards n = 17..31 that keep a constructed solution's cells and a quarter or an eighth of the others, some rows pre-placed on
/// that solution (shifts of two rows and more), each build against the baseline build. Every
/// count is at least the constructed solution.
#[test]
fn every_build_agrees_on_large_sparse_boards() {
    let isas = Isa::all_usable();
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    // Queens on every size; amazons where n is prime to 6, on the solution (i, 3i mod n).
    let queens = [17usize, 18, 20, 22, 24, 26, 28, 30, 32].map(|n| (n, Shape::Queen));
    let amazons = [17usize, 19, 23, 25, 29, 31].map(|n| (n, Shape::Amazon));
    for (i, (n, shape)) in queens.into_iter().chain(amazons).enumerate() {
        let solution = match shape {
            Shape::Queen => constructed_solution(n),
            Shape::Amazon => (0..n).map(|r| 3 * r % n).collect(),
        };
        for (r, &c) in solution.iter().enumerate() {
            for (q, &d) in solution[..r].iter().enumerate() {
                let attacks = shape.attacks((q, d), r, n) >> c & 1 == 1;
                assert!(!attacks, "n={n} {shape:?}: rows {q} and {r} attack");
            }
        }
        for k in 0..3 {
            // A quarter of the other cells (an eighth from n = 28, to keep the baseline quick).
            let mut allowed: Vec<u64> = solution
                .iter()
                .map(|&c| {
                    let extra = next() & next() & if n >= 28 { next() } else { u64::MAX };
                    full(n) & (extra | 1 << c)
                })
                .collect();
            let mut fixed = vec![false; n];
            for j in 0..(i + k) % 4 {
                let r = (3 + 5 * j + k) % n;
                let c = solution[r];
                for (row, mask) in allowed.iter_mut().enumerate() {
                    *mask &= !shape.attacks((r, c), row, n);
                }
                allowed[r] = 1 << c;
                fixed[r] = true;
            }
            let want = count_rows_with(&allowed, &fixed, shape, Isa::Baseline);
            assert!(
                want >= 1,
                "n={n} k={k}: the constructed solution is on the board"
            );
            for isa in &isas {
                let got = count_rows_with(&allowed, &fixed, shape, *isa);
                assert_eq!(got, want, "n={n} {shape:?} k={k} {isa:?}");
            }
        }
    }
}

/// `QUEENS_SAT_ISA=baseline` runs the baseline build, `QUEENS_SAT_ISA=bmi2` the BMI2 build:
/// `count --engine backtrack` reports the same totals and fixed points as the dispatched build.
#[test]
fn baseline_env_counts_the_same() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        [
            "count",
            "-n",
            "10",
            "--engine",
            "backtrack",
            "--piece",
            "queen",
        ],
        [
            "count",
            "-n",
            "11",
            "--engine",
            "backtrack",
            "--piece",
            "amazon",
        ],
    ] {
        let run = |isa: Option<&str>| {
            let mut cmd = std::process::Command::new(common::BIN);
            cmd.args(args).current_dir(dir.path());
            match isa {
                Some(v) => cmd.env(ISA_ENV, v),
                None => cmd.env_remove(ISA_ENV),
            };
            let out = cmd.output().unwrap();
            assert!(out.status.success(), "{args:?} {isa:?}: {out:?}");
            let text = String::from_utf8(out.stdout).unwrap();
            // All but the time taken.
            text.lines()
                .filter(|l| !l.starts_with("seconds"))
                .collect::<Vec<_>>()
                .join("\n")
        };
        let native = run(None);
        assert!(native.contains("fixed id="), "{native}");
        assert_eq!(run(Some("baseline")), native, "{args:?}");
        assert_eq!(run(Some("bmi2")), native, "{args:?}");
        assert_eq!(run(Some("avx2")), native, "{args:?}");
        assert_eq!(run(Some("avx512bw")), native, "{args:?}");
    }
}

/// The AVX2 build ([`Isa::Avx2`], where the processor has it): queens in its four lanes, and
/// amazons (which it hands to the BMI2 search), against the published totals of n = 13, past the
/// sizes of `both_builds_agree`; and boards with blocked cells against the BMI2 build. (The
/// backtrack engine's split, with pre-placed border pieces and so free rows two rows apart:
/// `avx2_env_counts_the_published_tables`.)
#[test]
fn avx2_build_counts_the_published_totals() {
    if Isa::Avx2.usable() != Isa::Avx2 {
        return; // not an AVX2 processor
    }
    let n = 13;
    let rows = vec![full(n); n];
    let q = count_rows_with(&rows, &vec![false; n], Shape::Queen, Isa::Avx2);
    assert_eq!(q, QUEENS[n - 1].total, "queens n={n}");
    let a = count_rows_with(&rows, &vec![false; n], Shape::Amazon, Isa::Avx2);
    assert_eq!(a, AMAZONS[n - 1].total, "amazons n={n}");
    // Blocked cells: every cell (r, c) with (r * 7 + c * 3) % 5 == 0 removed (boards wider
    // than 21 columns: `every_build_agrees_on_large_sparse_boards`).
    for n in [12usize, 13] {
        let rows: Vec<u64> = (0..n)
            .map(|r| {
                let blocked = (0..n).filter(|c| (r * 7 + c * 3) % 5 == 0);
                blocked.fold(full(n), |m, c| m & !(1 << c))
            })
            .collect();
        let fixed = vec![false; n];
        for shape in [Shape::Queen, Shape::Amazon] {
            let want = count_rows_with(&rows, &fixed, shape, Isa::Bmi2);
            assert!(
                want > 0 || shape == Shape::Amazon,
                "{shape:?} n={n}: no board"
            );
            assert_eq!(
                count_rows_with(&rows, &fixed, shape, Isa::Avx2),
                want,
                "{shape:?} n={n} blocked"
            );
        }
    }
}

/// `QUEENS_SAT_ISA=avx2`: `count` (the backtrack engine's split into tasks, each counted in the
/// AVX2 lanes) reports the published totals, unique counts and fixed points of queens n = 13 and
/// amazons n = 14.
#[test]
fn avx2_env_counts_the_published_tables() {
    let dir = tempfile::tempdir().unwrap();
    for (piece, n, total, unique) in [
        ("queen", 13usize, QUEENS[12].total, QUEENS[12].unique),
        ("amazon", 14, AMAZONS[13].total, AMAZONS[13].unique),
    ] {
        let out = std::process::Command::new(common::BIN)
            .args(["count", "-n", &n.to_string(), "--piece", piece])
            .args(["--engine", "backtrack"])
            .env(ISA_ENV, "avx2")
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert!(out.status.success(), "{piece} n={n}: {out:?}");
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(
            text.lines().any(|l| l == format!("total {total}")),
            "{piece} n={n}: {text}"
        );
        if let Some(u) = unique {
            assert!(
                text.lines().any(|l| l == format!("unique {u}")),
                "{piece} n={n}: {text}"
            );
        }
    }
}
