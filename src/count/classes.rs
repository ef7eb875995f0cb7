//! One representative board per symmetry class (`count --format svg`): varisat enumerates
//! solutions and, after each one, blocks it together with all its images under the instance's
//! stabiliser, so every new solution starts a new class.

use varisat::ExtendFormula;

use crate::answer::Model;
use crate::board::{Board, Cell};
use crate::decode::decode;
use crate::encode::{EncodeOptions, Encoder, VecSink};
use crate::error::Result;
use crate::instance::Instance;
use crate::interrupt::Cancel;
use crate::piece::Piece;
use crate::presolve::Problem;
use crate::symmetry::{Symmetry, stabiliser};
use crate::verify::verify;

/// Up to `max` boards of `instance`, one per class modulo the instance's symmetries (restricted
/// to boards `options.symmetric` maps to themselves, when set), each verified; and whether
/// more classes exist beyond them.
///
/// ```
/// use queens_sat::{count::representatives, instance::Instance, piece::QUEEN};
/// use queens_sat::{encode::amo::AmoKind, interrupt::Cancel};
/// let amo = AmoKind::Pairwise.into();
/// let (boards, more) =
///     representatives(&Instance::plain(8), QUEEN, amo, 20, &Cancel::new()).unwrap();
/// assert_eq!((boards.len(), more), (12, false)); // the 12 classes of 8-queens
/// ```
#[cfg_attr(not(any(feature = "front", feature = "oracle")), allow(dead_code))]
pub fn representatives(
    instance: &Instance,
    piece: Piece,
    options: EncodeOptions,
    max: usize,
    cancel: &Cancel,
) -> Result<(Vec<Board>, bool)> {
    let problem = Problem::presolve(instance, piece)?;
    if problem.unsat.is_some() {
        return Ok((Vec::new(), false));
    }
    let group: Vec<Symmetry> = stabiliser(instance, &piece);
    let mut sink = VecSink::default();
    let stats = Encoder::with_options(&problem, options).encode(&mut sink);
    let mut solver = varisat::Solver::new();
    let lit = |d: i64| varisat::Lit::from_dimacs(d as isize);
    for c in &sink.clauses {
        let lits: Vec<varisat::Lit> = c.iter().map(|l| lit(l.to_dimacs() as i64)).collect();
        solver.add_clause(&lits);
    }
    let n = instance.n;
    let mut boards = Vec::new();
    loop {
        cancel.check()?;
        if !solver
            .solve()
            .map_err(|e| crate::Error::Solver(format!("varisat: {e}")))?
        {
            return Ok((boards, false));
        }
        if boards.len() == max {
            return Ok((boards, true));
        }
        let true_vars = solver
            .model()
            .unwrap_or_default()
            .into_iter()
            .filter(|l| l.is_positive())
            .map(|l| l.to_dimacs() as u32);
        let model = Model::from_true_vars(stats.vars as usize, true_vars);
        let board = decode(&problem.varmap, &problem.fixed, &model);
        verify(&board, instance, piece)
            .map_err(|why| crate::Error::WrongAnswer(format!("a class representative: {why}")))?;
        // Block the board and each of its images (over the live cells: fixed ones never vary).
        for g in &group {
            let image: Vec<Cell> = board.pieces.iter().map(|&c| g.apply(c, n)).collect();
            let vars: Vec<u32> = image
                .iter()
                .filter_map(|&c| problem.varmap.var(c))
                .collect();
            let clause: Vec<varisat::Lit> = vars.iter().map(|&v| lit(-(v as i64))).collect();
            if clause.is_empty() {
                return Ok((vec![board], false)); // everything fixed: one board
            }
            solver.add_clause(&clause);
        }
        boards.push(board);
    }
}
