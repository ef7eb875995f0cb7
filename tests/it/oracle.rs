//! Cross-checks of the SAT pipeline against an independent brute-force oracle.
//!
//! The oracle (tests/it/common/oracle.rs) knows nothing of the crate's pieces, presolve or CNF: it
//! places one piece per row by backtracking and tests attacks with its own geometry.

use crate::common;

use common::Rng;

use std::collections::BTreeSet;

use common::oracle::instance_solutions;

use queens_sat::board::{Board, Cell};
use queens_sat::encode::amo::AmoKind;
use queens_sat::encode::{Encoder, VecSink};
use queens_sat::instance::Instance;
use queens_sat::piece::{AMAZON, Piece, QUEEN};
use queens_sat::presolve::Problem;
use queens_sat::solve::cadical_backend::LibCadical;
use queens_sat::solve::kissat_backend::LibKissat;
use queens_sat::solve::varisat_backend::Varisat;
use queens_sat::solve::{SolveSettings, Status, solve};
use queens_sat::verify::verify;
use varisat::ExtendFormula;

/// All solutions of the CNF, projected on the cell variables, by enumeration with blocking
/// clauses over the cell variables only.
fn cnf_solutions(problem: &Problem, amo: AmoKind) -> BTreeSet<Vec<(u32, u32)>> {
    let mut sink = VecSink::default();
    Encoder::new(problem, amo).encode(&mut sink);
    let mut solver = varisat::Solver::new();
    for c in &sink.clauses {
        let lits: Vec<varisat::Lit> = c
            .iter()
            .map(|l| varisat::Lit::from_dimacs(l.to_dimacs() as isize))
            .collect();
        solver.add_clause(&lits);
    }
    let cells = problem.num_cells() as usize;
    let mut out = BTreeSet::new();
    while solver.solve().unwrap() {
        let model = solver.model().unwrap();
        let true_cells: Vec<isize> = model
            .iter()
            .map(|l| l.to_dimacs())
            .filter(|&v| v > 0 && v as usize <= cells)
            .collect();
        let mut board: Vec<(u32, u32)> = problem.fixed.iter().map(|c| (c.row, c.col)).collect();
        for &v in &true_cells {
            let c = problem.varmap.cell(v as u32).unwrap();
            board.push((c.row, c.col));
        }
        board.sort_unstable();
        board.dedup();
        assert!(out.insert(board), "the same board twice: blocking failed");
        let block: Vec<varisat::Lit> = (1..=cells as isize)
            .map(|v| {
                let lit = varisat::Lit::from_dimacs(v);
                if true_cells.contains(&v) { !lit } else { lit }
            })
            .collect();
        if block.is_empty() {
            break;
        }
        solver.add_clause(&block);
    }
    out
}

fn random_instances(seed: u64, count: usize, max_n: u32) -> Vec<Instance> {
    let mut rng = Rng(seed);
    (0..count)
        .map(|i| {
            let n = 1 + rng.below(max_n);
            let mut inst = Instance::plain(n);
            let cell = |rng: &mut Rng| Cell::new(rng.below(n), rng.below(n));
            match i % 3 {
                0 => inst.placed = (0..rng.below(3)).map(|_| cell(&mut rng)).collect(),
                1 => inst.blocked = (0..rng.below(n * 2)).map(|_| cell(&mut rng)).collect(),
                _ => {
                    inst.placed = (0..rng.below(2)).map(|_| cell(&mut rng)).collect();
                    inst.blocked = (0..rng.below(n)).map(|_| cell(&mut rng)).collect();
                    // A piece on a blocked cell is no instance (issue 45): such a cell stays
                    // free (the same draws, so the other cases are unchanged).
                    let placed = inst.placed.clone();
                    inst.blocked.retain(|c| !placed.contains(c));
                }
            }
            inst
        })
        .collect()
}

fn check_against_oracle(inst: &Instance, piece: Piece) {
    let expected = instance_solutions(inst, piece.name);
    for amo in AmoKind::ALL {
        for presolve in [true, false] {
            let problem = Problem::new(inst, piece, presolve).unwrap();
            let what = format!("{} {inst:?} amo={amo} presolve={presolve}", piece.name);
            // The verdict and the verified board.
            let report = solve(&problem, amo, &Varisat, None).unwrap();
            match &report.status {
                Status::Sat(board) => {
                    assert!(
                        !expected.is_empty(),
                        "SAT but the oracle finds none: {what}"
                    );
                    let cells: Vec<(u32, u32)> =
                        board.pieces.iter().map(|c| (c.row, c.col)).collect();
                    assert!(
                        expected.contains(&cells),
                        "board not among the oracle's solutions: {what}"
                    );
                    assert!(verify(board, inst, piece).is_ok());
                }
                Status::Unsat => assert!(
                    expected.is_empty(),
                    "UNSAT but the oracle finds {}: {what}",
                    expected.len()
                ),
                Status::Unknown(w) => panic!("unknown ({w}): {what}"),
            }
            // The whole solution set, for boards small enough to enumerate.
            if inst.n <= 6 {
                assert_eq!(
                    cnf_solutions(&problem, amo),
                    expected,
                    "solution sets differ: {what}"
                );
            }
        }
    }
}

#[test]
fn plain_boards_match_oracle_up_to_8() {
    for n in 1..=8 {
        for piece in [QUEEN, AMAZON] {
            check_against_oracle(&Instance::plain(n), piece);
        }
    }
}

#[test]
fn random_completion_and_blocked_instances_match_oracle() {
    for (i, inst) in random_instances(0x5eed_0001, 90, 8).iter().enumerate() {
        check_against_oracle(inst, if i % 2 == 0 { QUEEN } else { AMAZON });
    }
}

#[test]
fn random_small_instances_have_identical_solution_sets() {
    // n <= 6: full enumeration with and without presolve against the oracle.
    for inst in random_instances(0x5eed_0002, 60, 6) {
        check_against_oracle(&inst, QUEEN);
    }
}

#[test]
fn queens_verdicts() {
    for n in 1..=30 {
        let problem = Problem::presolve(&Instance::plain(n), QUEEN).unwrap();
        let r = solve(&problem, AmoKind::Sequential, &Varisat, None).unwrap();
        let sat = matches!(r.status, Status::Sat(_));
        assert_eq!(sat, n == 1 || n >= 4, "queens n={n}");
    }
}

#[test]
fn amazon_verdicts() {
    for n in 1..=11 {
        for amo in AmoKind::ALL {
            let problem = Problem::presolve(&Instance::plain(n), AMAZON).unwrap();
            let r = solve(&problem, amo, &Varisat, None).unwrap();
            let sat = matches!(r.status, Status::Sat(_));
            assert_eq!(sat, n == 1 || n >= 10, "amazons n={n} amo={amo}");
        }
    }
}

/// The classic explicit construction for n = 0 or 4 (mod 6): (i, 2i+1) and (n/2+i, 2i).
fn explicit_solution(n: u32) -> Vec<Cell> {
    assert!(n.is_multiple_of(6) || n % 6 == 4);
    (0..n / 2)
        .flat_map(|i| [Cell::new(i, 2 * i + 1), Cell::new(n / 2 + i, 2 * i)])
        .collect()
}

#[test]
fn large_sparse_completion_solves_via_presolve() {
    let n = 2004;
    let full = explicit_solution(n);
    assert!(verify(&Board::new(n, full.clone()), &Instance::plain(n), QUEEN).is_ok());
    // Keep all but 12 queens: drop every 167th.
    let mut inst = Instance::plain(n);
    inst.placed = full
        .iter()
        .enumerate()
        .filter(|(i, _)| i % 167 != 0)
        .map(|(_, &c)| c)
        .collect();
    assert_eq!(n as usize - inst.placed.len(), 12);
    let problem = Problem::presolve(&inst, QUEEN).unwrap();
    // Proportional to the live cells: at most 12 x 12 candidates remain.
    assert!(
        problem.num_cells() <= 144,
        "{} live cells",
        problem.num_cells()
    );
    let stats = Encoder::new(&problem, AmoKind::Sequential).stats().unwrap();
    assert!(stats.vars < 2000 && stats.clauses < 5000, "{stats:?}");
    let r = solve(&problem, AmoKind::Sequential, &Varisat, None).unwrap();
    match r.status {
        Status::Sat(board) => assert!(verify(&board, &inst, QUEEN).is_ok()),
        other => panic!("expected SAT (the removed queens fit back), got {other:?}"),
    }
}

/// Presolve of a completion board of n ~ 5,000 with ~4,980 queens pre-placed builds a problem
/// the size of its core, the 19 x 19 excluded-diagonal board it was reduced from (Gent,
/// Jefferson, Nightingale 2017, `convert --to completion`): the same live cells (shifted), the
/// same CNF, the same look-ahead split, so nothing downstream of presolve is sized by n. Sizes,
/// not times: the work and memory follow them (issue 43 §2; the binary takes ~2 ms to read and
/// presolve it).
#[test]
fn presolve_of_a_5000_completion_board_is_the_size_of_its_core() {
    use queens_sat::cube::{Split, lookahead};
    use queens_sat::generate::{diagonals, reduction::diagonals_to_completion};
    let mut source = diagonals::generate(19, 1, 3).unwrap();
    source.excluded.truncate(19);
    let conv = diagonals_to_completion(&source).unwrap();
    let big = &conv.instance;
    assert!((4900..=5100).contains(&big.n), "n = {}", big.n);
    assert_eq!(big.n as usize - big.placed.len(), 19, "19 queens to place");
    let core = Problem::presolve(&source, QUEEN).unwrap();
    let p = Problem::presolve(big, QUEEN).unwrap();
    assert!(core.unsat.is_none() && p.unsat.is_none());
    // The live cells are the source's, shifted: at most 19 x 19, whatever n is.
    let shifted: Vec<Cell> = core
        .varmap
        .cells()
        .map(|(c, _)| Cell::new(c.row + conv.row_offset, c.col))
        .collect();
    let live: Vec<Cell> = p.varmap.cells().map(|(c, _)| c).collect();
    assert_eq!(live, shifted);
    assert!(
        (100..=19 * 19).contains(&live.len()),
        "{} live cells",
        live.len()
    );
    // Free rows and columns: the core's 19 each (every other line holds a pre-placed queen).
    let rows: BTreeSet<u32> = live.iter().map(|c| c.row).collect();
    let cols: BTreeSet<u32> = live.iter().map(|c| c.col).collect();
    assert_eq!((rows.len(), cols.len()), (19, 19));
    assert_eq!(p.fixed.len(), big.placed.len());
    // The same CNF: variables, clauses and literals (no line or auxiliary sized by n).
    for amo in [AmoKind::DEFAULT, AmoKind::Sequential] {
        let want = Encoder::new(&core, amo).stats().unwrap();
        let got = Encoder::new(&p, amo).stats().unwrap();
        assert_eq!(got, want, "{amo:?}");
        // A few auxiliaries per live cell (the sequential counter's), far below n.
        assert!(got.vars <= 5 * live.len() as u64, "{got:?}");
    }
    // The same look-ahead split (the children are presolved from the core): cubes, children
    // presolved and refuted.
    let split = Split::default();
    let (cubes, stats) = lookahead(&p, &split).unwrap();
    let (want_cubes, want_stats) = lookahead(&core, &split).unwrap();
    assert_eq!(stats, want_stats);
    assert_eq!(cubes.len(), want_cubes.len());
    assert!(stats.presolves > 100, "{stats:?}");
    for (c, w) in cubes.iter().zip(&want_cubes) {
        let extra = &c.instance.placed[big.placed.len()..];
        let want: Vec<Cell> = w.instance.placed[source.placed.len()..]
            .iter()
            .map(|c| Cell::new(c.row + conv.row_offset, c.col))
            .collect();
        assert_eq!(extra, want.as_slice());
    }
}

#[test]
fn presolve_detects_trivial_unsat() {
    // Two pre-placed queens in one row.
    let mut inst = Instance::plain(8);
    inst.placed = vec![Cell::new(0, 0), Cell::new(0, 5)];
    let p = Problem::presolve(&inst, QUEEN).unwrap();
    assert!(
        p.unsat.as_deref().unwrap().contains("share a row"),
        "{:?}",
        p.unsat
    );
    // A row with every cell blocked.
    let mut inst = Instance::plain(5);
    inst.blocked = (0..5).map(|c| Cell::new(3, c)).collect();
    let p = Problem::presolve(&inst, QUEEN).unwrap();
    assert_eq!(
        p.unsat.as_deref(),
        Some("row 3 has no free cell left for a queen")
    );
    // The full encoding reaches the same verdict through the solver.
    let full = Problem::full(&inst, QUEEN).unwrap();
    assert!(full.unsat.is_none());
    let r = solve(&full, AmoKind::Pairwise, &Varisat, None).unwrap();
    assert_eq!(r.status, Status::Unsat);
}

#[test]
fn plain_board_variables_follow_the_row_major_rule() {
    for presolve in [true, false] {
        let p = Problem::new(&Instance::plain(7), QUEEN, presolve).unwrap();
        assert!(p.varmap.is_row_major());
        for (cell, var) in p.varmap.cells() {
            assert_eq!(var, cell.row * 7 + cell.col + 1);
        }
    }
}

#[test]
fn header_stats_equal_emitted_counts() {
    for inst in random_instances(0x5eed_0003, 40, 12) {
        for piece in [QUEEN, AMAZON] {
            for amo in AmoKind::ALL {
                for presolve in [true, false] {
                    let p = Problem::new(&inst, piece, presolve).unwrap();
                    let enc = Encoder::new(&p, amo);
                    let mut sink = queens_sat::encode::StatsSink::default();
                    let emitted = enc.encode(&mut sink);
                    assert_eq!(enc.stats().unwrap(), emitted);
                    // Auxiliary variables come after the cell variables.
                    let mut all = VecSink::default();
                    enc.encode(&mut all);
                    let max = all
                        .clauses
                        .iter()
                        .flatten()
                        .map(|l| l.var())
                        .max()
                        .unwrap_or(0);
                    assert!(max as u64 <= emitted.vars);
                }
            }
        }
    }
}

/// The linked CaDiCaL (`--solver lib:cadical`) against the oracle, with and without presolve,
/// every UNSAT certified by CaDiCaL's own DRAT proof replayed by the independent checker.
#[test]
fn lib_cadical_matches_oracle_and_certifies_unsat() {
    let (mut sat, mut unsat) = (0, 0);
    for (i, inst) in random_instances(0x5eed_0003, 80, 8).iter().enumerate() {
        let piece = if i % 2 == 0 { QUEEN } else { AMAZON };
        let expected = instance_solutions(inst, piece.name);
        for amo in [AmoKind::Pairwise, AmoKind::Product, AmoKind::Sequential] {
            for presolve in [true, false] {
                let problem = Problem::new(inst, piece, presolve).unwrap();
                let what = format!("{} {inst:?} amo={amo} presolve={presolve}", piece.name);
                let settings = SolveSettings {
                    certify: true,
                    ..SolveSettings::default()
                };
                let r = solve(&problem, amo, &LibCadical, settings).unwrap();
                match &r.status {
                    Status::Sat(board) => {
                        let cells: Vec<(u32, u32)> =
                            board.pieces.iter().map(|c| (c.row, c.col)).collect();
                        assert!(expected.contains(&cells), "not an oracle solution: {what}");
                        assert!(verify(board, inst, piece).is_ok());
                        sat += 1;
                    }
                    Status::Unsat => {
                        assert!(expected.is_empty(), "UNSAT but solutions exist: {what}");
                        let cert = r.certificate.as_ref().expect("certified");
                        assert_eq!(cert.checker, "DRAT proof checked by dratify", "{what}");
                        unsat += 1;
                    }
                    Status::Unknown(w) => panic!("unknown ({w}): {what}"),
                }
            }
        }
    }
    assert!(sat > 100 && unsat > 100, "{sat} SAT, {unsat} UNSAT");
}

/// The linked Kissat (`--solver lib:kissat`) against the oracle, with and without presolve.
#[test]
fn lib_kissat_matches_oracle() {
    let (mut sat, mut unsat) = (0, 0);
    for (i, inst) in random_instances(0x5eed_0004, 60, 8).iter().enumerate() {
        let piece = if i % 2 == 0 { QUEEN } else { AMAZON };
        let expected = instance_solutions(inst, piece.name);
        for amo in [AmoKind::Pairwise, AmoKind::Product, AmoKind::Sequential] {
            for presolve in [true, false] {
                let problem = Problem::new(inst, piece, presolve).unwrap();
                let what = format!("{} {inst:?} amo={amo} presolve={presolve}", piece.name);
                let r = solve(&problem, amo, &LibKissat, None).unwrap();
                match &r.status {
                    Status::Sat(board) => {
                        let cells: Vec<(u32, u32)> =
                            board.pieces.iter().map(|c| (c.row, c.col)).collect();
                        assert!(expected.contains(&cells), "not an oracle solution: {what}");
                        sat += 1;
                    }
                    Status::Unsat => {
                        assert!(expected.is_empty(), "UNSAT but solutions exist: {what}");
                        unsat += 1;
                    }
                    Status::Unknown(w) => panic!("unknown ({w}): {what}"),
                }
            }
        }
    }
    assert!(sat > 50 && unsat > 50, "{sat} SAT, {unsat} UNSAT");
}
