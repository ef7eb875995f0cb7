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
pub(crate) fn for_each_clause(problem: &Problem, g: Symmetry, mut f: impl FnMut(&[Lit])) -> bool {
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
    // x(d) <-> x(g(d)) for every cell d; only live or fixed cells can be true, so only the d
    // where d or g(d) is live or fixed give clauses. Each such d is visited once: from c = d
    // when d is live or fixed, else from c = g(d) (d = g⁻¹(c) is then neither). The pairs
    // {d, g(d)} and {g(d), g²(d)} are one equivalence when g²(d) = d (an involution, and the
    // orbits of size 2 of any element): only the one from the smaller cell is stated, so that
    // no clause is written twice. (Walked, never collected: a big board has n² live cells.)
    let live = |c: Cell| value(problem, c) != CellValue::Empty;
    let cells = problem
        .varmap
        .cells()
        .map(|(c, _)| c)
        // (without presolve a fixed cell is also a variable: visited once)
        .chain(
            problem
                .fixed
                .iter()
                .copied()
                .filter(|&c| problem.varmap.var(c).is_none()),
        );
    for c in cells {
        let pre = g.inverse().apply(c, n);
        for d in [Some(c), (!live(pre)).then_some(pre)].into_iter().flatten() {
            let image = g.apply(d, n);
            if image != d && g.apply(image, n) == d && image < d {
                continue; // stated from `image`
            }
            let (vd, vi) = (value(problem, d), value(problem, image));
            pair(vd, vi, &mut f);
            pair(vi, vd, &mut f);
        }
    }
    feasible
}
