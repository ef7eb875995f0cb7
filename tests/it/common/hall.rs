//! Redundant clauses from Hall sets on the diagonals, for the tests and the `matching_stats`
//! example (not part of the library: the solver gains nothing from them, see docs/benchmarks.md).

use queens_sat::matching::mandatory;
use queens_sat::piece::LineKind;
use queens_sat::presolve::Problem;

/// A diagonal that every solution of the rows-x-diagonals (or columns-x-diagonals) all-different
/// relaxation uses must hold a piece, so one of its live cells is occupied. Returns each such
/// clause as the (positive) cell variables of `problem`, deduplicated. Sound: every solution is
/// a solution of the relaxation. Nothing for a full or unsatisfiable problem, or a piece without
/// rows, columns and diagonals.
pub fn hall_clauses(problem: &Problem) -> Vec<Vec<u32>> {
    let lines = problem.piece.lines;
    if !problem.presolved
        || problem.unsat.is_some()
        || !lines.contains(&LineKind::Row)
        || !lines.contains(&LineKind::Column)
    {
        return Vec::new();
    }
    let n = problem.n;
    let mut out: Vec<Vec<u32>> = Vec::new();
    for &kind in lines
        .iter()
        .filter(|k| matches!(k, LineKind::Diagonal | LineKind::AntiDiagonal))
    {
        for by_row in [true, false] {
            // One left vertex per row (or column) with live cells, adjacent to its cells' diagonals.
            let mut adj: Vec<Vec<u32>> = vec![Vec::new(); n as usize];
            for (c, _) in problem.varmap.cells() {
                let line = if by_row { c.row } else { c.col };
                adj[line as usize].push(kind.key(c, n));
            }
            adj.retain(|a| !a.is_empty());
            let Ok(must) = mandatory(&adj, kind.count(n) as usize) else {
                continue;
            };
            for (d, _) in must.iter().enumerate().filter(|(_, m)| **m) {
                let clause: Vec<u32> = problem
                    .varmap
                    .cells()
                    .filter(|(c, _)| kind.key(*c, n) as usize == d)
                    .map(|(_, v)| v)
                    .collect();
                out.push(clause);
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}
