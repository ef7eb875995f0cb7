//! Clauses that restrict solutions to those a symmetry maps to themselves (`--symmetric`).

use super::Lit;
use crate::board::Cell;
use crate::presolve::Problem;
use crate::symmetry::Symmetry;

/// The truth of a cell in the encoding: a pre-placed piece, a variable, or known empty.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CellValue {
    Piece,
    Var(Lit),
    Empty,
}

fn value(problem: &Problem, c: Cell) -> CellValue {
    if let Some(v) = problem.varmap.var(c) {
        CellValue::Var(Lit::pos(v))
    } else if problem.fixed.binary_search(&c).is_ok() {
        CellValue::Piece
    } else {
        CellValue::Empty
    }
}

/// Calls `f` with every clause of `x(c) <-> x(g(c))` over the board (CNF equivalences between a
/// cell and its image; cells known full or empty become unit clauses). Returns `false` when the
/// constraint contradicts the fixed pieces outright (no clause can express that without a
/// variable; the caller emits a contradiction).
pub fn for_each_clause(problem: &Problem, g: Symmetry, mut f: impl FnMut(&[Lit])) -> bool {
    let n = problem.n;
    let mut feasible = true;
    let mut pair = |a: CellValue, b: CellValue, f: &mut dyn FnMut(&[Lit])| match (a, b) {
        (CellValue::Var(x), CellValue::Var(y)) if x != y => {
            f(&[!x, y]);
        }
        (CellValue::Var(x), CellValue::Piece) => f(&[x]),
        (CellValue::Var(x), CellValue::Empty) => f(&[!x]),
        (CellValue::Piece, CellValue::Empty) | (CellValue::Empty, CellValue::Piece) => {
            feasible = false
        }
        _ => {}
    };
    // x(c) <-> x(g(c)) for all c. Only cells that are live or fixed can be true, so it suffices
    // to visit those cells c and pair each with its image and its pre-image, both directions.
    // (Walked, never collected: a big board has n² live cells.)
    let cells = problem
        .varmap
        .cells()
        .map(|(c, _)| c)
        .chain(problem.fixed.iter().copied());
    for c in cells {
        let vc = value(problem, c);
        for other in [g.apply(c, n), g.inverse().apply(c, n)] {
            let vo = value(problem, other);
            pair(vc, vo, &mut f);
            pair(vo, vc, &mut f);
        }
    }
    feasible
}
