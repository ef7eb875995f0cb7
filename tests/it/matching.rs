//! The all-different (Régin) filter of presolve against exhaustive search.
//!
//! - On random bipartite graphs, [`regin`] keeps exactly the edges that lie in some
//!   left-saturating matching (brute force over all matchings).
//! - On random small boards (n <= 9; blocked, completion, excluded diagonals; queens and
//!   amazons), every filter keeps every cell that some solution occupies (brute-force oracle
//!   below, independent of the crate's geometry), declares UNSAT only when there is no solution,
//!   and the SAT verdict, the verified board and the count are unchanged.

use crate::common;
use crate::common::hall;

use common::Rng;
use std::collections::BTreeSet;

use crate::common::counting::count;
use hall::hall_clauses;
use queens_sat::board::Cell;
use queens_sat::count::CountEngine;
use queens_sat::encode::amo::AmoKind;
use queens_sat::instance::Instance;
use queens_sat::matching::{mandatory, max_matching, regin};
use queens_sat::piece::{AMAZON, LineKind, Piece, QUEEN};
use queens_sat::presolve::Problem;
use queens_sat::presolve::filter::{Filter, filter};
use queens_sat::solve::varisat_backend::Varisat;
use queens_sat::solve::{Status, solve};
use queens_sat::verify::verify;

// ---------------------------------------------------------------------------------------------
// Graph level.

/// Every left-saturating matching of `adj` (as right vertex per left vertex), by brute force.
fn all_matchings(adj: &[Vec<u32>], n_right: usize) -> Vec<Vec<u32>> {
    fn go(
        u: usize,
        adj: &[Vec<u32>],
        used: &mut [bool],
        cur: &mut Vec<u32>,
        out: &mut Vec<Vec<u32>>,
    ) {
        if u == adj.len() {
            out.push(cur.clone());
            return;
        }
        for &v in &adj[u] {
            if !used[v as usize] {
                used[v as usize] = true;
                cur.push(v);
                go(u + 1, adj, used, cur, out);
                cur.pop();
                used[v as usize] = false;
            }
        }
    }
    let mut out = Vec::new();
    go(0, adj, &mut vec![false; n_right], &mut Vec::new(), &mut out);
    out
}

/// The largest matching size, by brute force over subsets of left vertices being skipped.
fn max_matching_size(adj: &[Vec<u32>], n_right: usize) -> usize {
    fn go(u: usize, adj: &[Vec<u32>], used: &mut [bool]) -> usize {
        if u == adj.len() {
            return 0;
        }
        let mut best = go(u + 1, adj, used);
        for &v in &adj[u] {
            if !used[v as usize] {
                used[v as usize] = true;
                best = best.max(1 + go(u + 1, adj, used));
                used[v as usize] = false;
            }
        }
        best
    }
    go(0, adj, &mut vec![false; n_right])
}

#[test]
fn regin_keeps_exactly_the_edges_of_saturating_matchings() {
    let mut rng = Rng(0x5eed_0001);
    let mut filtered_some = 0;
    let mut infeasible = 0;
    for case in 0..3000 {
        let nl = 1 + rng.below(7) as usize;
        let nr = nl + rng.below(3) as usize * (case % 2);
        let density = 1 + rng.below(6);
        let adj: Vec<Vec<u32>> = (0..nl)
            .map(|_| (0..nr as u32).filter(|_| rng.below(8) < density).collect())
            .collect();
        let matchings = all_matchings(&adj, nr);
        // Hopcroft-Karp finds a maximum matching.
        let m = max_matching(&adj, nr);
        let size = m.iter().flatten().count();
        assert_eq!(size, max_matching_size(&adj, nr), "{adj:?}");
        for (u, v) in m.iter().enumerate() {
            if let Some(v) = v {
                assert!(adj[u].contains(v), "{adj:?}: not an edge");
            }
        }
        let mut rights: Vec<u32> = m.iter().flatten().copied().collect();
        rights.sort_unstable();
        rights.dedup();
        assert_eq!(rights.len(), size, "{adj:?}: right vertex used twice");
        match regin(&adj, nr) {
            Err(h) => {
                infeasible += 1;
                assert!(
                    matchings.is_empty(),
                    "{adj:?}: Hall set reported, but matchings exist"
                );
                // The Hall set is real: its neighbourhood is smaller than itself.
                let mut nb: Vec<u32> = h
                    .left
                    .iter()
                    .flat_map(|&u| adj[u as usize].clone())
                    .collect();
                nb.sort_unstable();
                nb.dedup();
                assert_eq!(nb, h.right, "{adj:?}");
                assert!(h.right.len() < h.left.len(), "{adj:?}");
            }
            Ok(keep) => {
                assert!(
                    !matchings.is_empty(),
                    "{adj:?}: no matching, but no Hall set"
                );
                for (u, vs) in adj.iter().enumerate() {
                    for (i, &v) in vs.iter().enumerate() {
                        let used = matchings.iter().any(|m| m[u] == v);
                        assert_eq!(keep[u][i], used, "{adj:?}: edge {u}-{v}");
                        filtered_some += usize::from(!used);
                    }
                }
            }
        }
    }
    // The random graphs exercise both outcomes and actual removals.
    assert!(infeasible > 100, "{infeasible}");
    assert!(filtered_some > 100, "{filtered_some}");
}

#[test]
fn mandatory_right_vertices_are_used_by_every_saturating_matching() {
    let mut rng = Rng(0x5eed_0002);
    let mut some = 0;
    for _ in 0..2000 {
        let nl = 1 + rng.below(6) as usize;
        let nr = nl + rng.below(4) as usize;
        let adj: Vec<Vec<u32>> = (0..nl)
            .map(|_| (0..nr as u32).filter(|_| rng.below(8) < 3).collect())
            .collect();
        let matchings = all_matchings(&adj, nr);
        match mandatory(&adj, nr) {
            Err(_) => assert!(matchings.is_empty(), "{adj:?}"),
            Ok(must) => {
                for v in 0..nr as u32 {
                    let always = matchings.iter().all(|m| m.contains(&v));
                    assert_eq!(must[v as usize], always, "{adj:?}: right {v}");
                    some += usize::from(always && nl < nr);
                }
            }
        }
    }
    assert!(some > 100, "{some}");
}

// ---------------------------------------------------------------------------------------------
// Board level.

/// Independent attack test: same row, column or diagonal; amazons also a knight move apart.
fn attacks(amazon: bool, a: (i64, i64), b: (i64, i64)) -> bool {
    let (dr, dc) = ((a.0 - b.0).abs(), (a.1 - b.1).abs());
    dr == 0 || dc == 0 || dr == dc || (amazon && ((dr == 1 && dc == 2) || (dr == 2 && dc == 1)))
}

/// All solutions (sorted cell lists) of an instance, by backtracking row by row.
fn oracle_solutions(inst: &Instance, amazon: bool) -> BTreeSet<Vec<(u32, u32)>> {
    let n = inst.n as i64;
    let unavailable = |r: i64, c: i64| {
        inst.blocked
            .iter()
            .any(|b| b.row as i64 == r && b.col as i64 == c)
            || inst.excluded.iter().any(|e| match e.kind {
                LineKind::Diagonal => r - c + n - 1 == e.key as i64,
                _ => r + c == e.key as i64,
            })
    };
    let placed: Vec<(i64, i64)> = inst
        .placed
        .iter()
        .map(|c| (c.row as i64, c.col as i64))
        .collect();
    let mut out = BTreeSet::new();
    fn go(
        r: i64,
        n: i64,
        amazon: bool,
        ok: &dyn Fn(i64, i64) -> bool,
        placed: &[(i64, i64)],
        cur: &mut Vec<(i64, i64)>,
        out: &mut BTreeSet<Vec<(u32, u32)>>,
    ) {
        if r == n {
            if placed.iter().all(|p| cur.contains(p)) {
                out.insert(cur.iter().map(|&(r, c)| (r as u32, c as u32)).collect());
            }
            return;
        }
        for c in 0..n {
            if !ok(r, c) || cur.iter().any(|&q| attacks(amazon, q, (r, c))) {
                continue;
            }
            cur.push((r, c));
            go(r + 1, n, amazon, ok, placed, cur, out);
            cur.pop();
        }
    }
    let ok = |r: i64, c: i64| !unavailable(r, c);
    go(0, n, amazon, &ok, &placed, &mut Vec::new(), &mut out);
    out
}

/// Random instances: blocked, completion, mixed and excluded diagonals, n <= 9, dense enough
/// that the filter often has work to do.
fn random_instances(seed: u64, count: usize) -> Vec<Instance> {
    let mut rng = Rng(seed);
    (0..count)
        .map(|i| {
            let n = 1 + rng.below(9);
            let mut inst = Instance::plain(n);
            let cell = |rng: &mut Rng| Cell::new(rng.below(n), rng.below(n));
            match i % 4 {
                0 => inst.placed = (0..1 + rng.below(3)).map(|_| cell(&mut rng)).collect(),
                1 => {
                    inst.blocked = (0..rng.below(n * n / 2 + 1))
                        .map(|_| cell(&mut rng))
                        .collect()
                }
                2 => {
                    inst.placed = (0..rng.below(2)).map(|_| cell(&mut rng)).collect();
                    inst.blocked = (0..rng.below(n * n / 3 + 1))
                        .map(|_| cell(&mut rng))
                        .collect();
                    // A piece on a blocked cell is no instance (issue 45): such a cell stays
                    // free (the same draws, so the other cases are unchanged).
                    let placed = inst.placed.clone();
                    inst.blocked.retain(|c| !placed.contains(c));
                }
                _ => {
                    inst.excluded = {
                        let k = rng.below(n + 1);
                        common::random_excluded(k, n, |m| rng.below(m))
                    };
                    inst.blocked = (0..rng.below(n)).map(|_| cell(&mut rng)).collect();
                }
            }
            inst
        })
        .collect()
}

/// Totals over a batch, to show the filters are exercised.
#[derive(Default, Debug)]
struct Tally {
    removed: u64,
    filter_unsat: usize,
    hall: usize,
    sat: usize,
    unsat: usize,
}

fn check(inst: &Instance, piece: Piece, tally: &mut Tally) {
    let amazon = !piece.leaps.is_empty();
    let expected = oracle_solutions(inst, amazon);
    let used: BTreeSet<(u32, u32)> = expected.iter().flatten().copied().collect();
    let base = Problem::presolve_with(inst, piece, Filter::None).unwrap();
    if expected.is_empty() {
        tally.unsat += 1;
    } else {
        tally.sat += 1;
    }
    for which in [Filter::RowsColumns, Filter::AllDifferent] {
        let what = format!("{} {inst:?} filter={}", piece.name, which.name());
        let problem = Problem::presolve_with(inst, piece, which).unwrap();
        // The same problem as filtering the unfiltered presolve by hand.
        let mut again = base.clone();
        let stats = filter(&mut again, which);
        assert_eq!(again.varmap, problem.varmap, "{what}");
        assert_eq!(again.unsat, problem.unsat, "{what}");
        assert_eq!(
            stats.removed,
            base.num_cells() - problem.num_cells(),
            "{what}"
        );
        if let Some(why) = &problem.unsat {
            assert!(
                expected.is_empty(),
                "filter says UNSAT ({why}) but the oracle finds solutions: {what}"
            );
            if base.unsat.is_none() {
                tally.filter_unsat += 1;
            }
            continue;
        }
        // Only cells in no solution are removed: every cell a solution uses is still live
        // (or pre-placed), and every live cell was live before.
        for &(r, c) in &used {
            let cell = Cell::new(r, c);
            assert!(
                problem.varmap.var(cell).is_some() || problem.fixed.contains(&cell),
                "cell {cell} of a solution was removed: {what}"
            );
        }
        for (cell, _) in problem.varmap.cells() {
            assert!(base.varmap.var(cell).is_some(), "{what}: {cell} appeared");
        }
        // Variables stay row-major over the live cells.
        for (i, (_, v)) in problem.varmap.cells().enumerate() {
            assert_eq!(v, i as u32 + 1, "{what}");
        }
        if which == Filter::AllDifferent {
            tally.removed += base.num_cells() - problem.num_cells();
            // Hall-set clauses hold in every solution.
            for clause in hall_clauses(&problem) {
                tally.hall += 1;
                for sol in &expected {
                    assert!(
                        clause.iter().any(|&v| {
                            let c = problem.varmap.cell(v).unwrap();
                            sol.contains(&(c.row, c.col))
                        }),
                        "Hall clause {clause:?} violated by {sol:?}: {what}"
                    );
                }
            }
        }
        // Verdict and board.
        let report = solve(&problem, AmoKind::Pairwise, &Varisat, None).unwrap();
        match &report.status {
            Status::Sat(board) => {
                let cells: Vec<(u32, u32)> = board.pieces.iter().map(|c| (c.row, c.col)).collect();
                assert!(expected.contains(&cells), "board not a solution: {what}");
                assert!(verify(board, inst, piece).is_ok(), "{what}");
            }
            Status::Unsat => assert!(expected.is_empty(), "UNSAT but solutions exist: {what}"),
            Status::Unknown(w) => panic!("unknown ({w}): {what}"),
        }
    }
}

fn run_batch(seed: u64, count: usize, piece: Piece) -> Tally {
    let mut tally = Tally::default();
    for inst in random_instances(seed, count) {
        check(&inst, piece, &mut tally);
    }
    tally
}

#[test]
fn queens_filter_removes_only_dead_cells() {
    let t = run_batch(0x9e3779b97f4a7c15, 400, QUEEN);
    // The batch has both verdicts, and the filter both removes cells and decides UNSAT.
    assert!(t.sat > 20 && t.unsat > 20, "{t:?}");
    assert!(t.removed > 50, "{t:?}");
    assert!(t.filter_unsat > 5, "{t:?}");
    assert!(t.hall > 20, "{t:?}");
}

#[test]
fn amazons_filter_removes_only_dead_cells() {
    let t = run_batch(0xdead_beef_1234, 400, AMAZON);
    assert!(t.sat > 10 && t.unsat > 20, "{t:?}");
    assert!(t.removed > 50, "{t:?}");
    assert!(t.filter_unsat > 5, "{t:?}");
}

#[test]
fn counts_are_unchanged_by_the_filter() {
    // `count` presolves with the default filter; compare with the oracle's solution count.
    let mut rng = Rng(77);
    for (i, inst) in random_instances(0x0c0u64 << 8 | 7, 120)
        .into_iter()
        .enumerate()
    {
        let piece = if rng.below(3) == 0 { AMAZON } else { QUEEN };
        let expected = oracle_solutions(&inst, piece == AMAZON).len() as u64;
        let engine = if i % 2 == 0 {
            CountEngine::Sat
        } else {
            CountEngine::Cdcl
        };
        let got = count(&inst, piece, AmoKind::Pairwise, engine, 1).unwrap();
        assert_eq!(got.total, expected, "{} {inst:?} {engine:?}", piece.name);
    }
}

#[test]
fn hall_set_unsat_needs_no_solver() {
    // Rows 0..3 keep only columns 0 and 1: three rows, two columns, a Hall set.
    let n = 6;
    let mut inst = Instance::plain(n);
    for r in 0..3 {
        for c in 2..n {
            inst.blocked.push(Cell::new(r, c));
        }
    }
    let plain = Problem::presolve_with(&inst, QUEEN, Filter::None).unwrap();
    assert!(plain.unsat.is_none());
    for which in [Filter::RowsColumns, Filter::AllDifferent] {
        let p = Problem::presolve_with(&inst, QUEEN, which).unwrap();
        let why = p.unsat.clone().expect("Hall set");
        assert!(
            why.contains("3 rows (0, 1, 2)") && why.contains("2 columns (0, 1)"),
            "{why}"
        );
        assert_eq!(p.num_cells(), 0);
    }
}

#[test]
fn forced_row_removes_what_it_attacks() {
    // Row 0 has one free cell (0,2): it is forced, so column 2 and both diagonals through it
    // drop out of the other rows.
    let n = 5;
    let mut inst = Instance::plain(n);
    inst.blocked = (0..n)
        .filter(|&c| c != 2)
        .map(|c| Cell::new(0, c))
        .collect();
    let p = Problem::presolve_with(&inst, QUEEN, Filter::RowsColumns).unwrap();
    assert!(p.unsat.is_none());
    assert!(p.varmap.var(Cell::new(0, 2)).is_some());
    for (cell, _) in p.varmap.cells() {
        if cell != Cell::new(0, 2) {
            assert!(QUEEN.attack(Cell::new(0, 2), cell, n).is_none(), "{cell}");
        }
    }
    // 5-queens with the row-0 queen at (0,2) has two solutions; their cells are all live.
    let sols = oracle_solutions(&inst, false);
    assert_eq!(sols.len(), 2);
    for &(r, c) in sols.iter().flatten() {
        assert!(p.varmap.var(Cell::new(r, c)).is_some(), "({r},{c})");
    }
}

#[test]
fn plain_boards_are_left_alone() {
    for n in [1, 4, 8, 50] {
        let p = Problem::presolve(&Instance::plain(n), QUEEN).unwrap();
        assert!(p.varmap.is_row_major());
        assert_eq!(p.num_cells(), n as u64 * n as u64);
    }
}
