//! Lex-leader symmetry breaking (`--break-symmetry lex`): keeps exactly one board per class of
//! boards under a group of symmetries, the lexicographically largest in row-major order (a
//! piece counts as 1; equivalently the board whose first differing cell holds the piece).
//!
//! For each non-identity element `g`, with `x_i` the cells in row-major order and
//! `y_i = x_{g^-1(i)}` the same cells of the image board, the constraint `x >=_lex y` is encoded
//! with equality-prefix auxiliaries `e_i <-> e_{i-1} ∧ (x_i <-> y_i)` (fully defined, so the
//! encoding is parsimonious) and `e_{i-1} -> (y_i -> x_i)` (Aloul, Markov, Sakallah 2003 style).
//! Cells that are pre-placed or dead are constants, expressed through one auxiliary forced true.

use super::{ClauseSink, Lit, VarAlloc};
use crate::board::Cell;
use crate::presolve::Problem;
use crate::symmetry::Symmetry;

/// A set of symmetries, as a bit mask over [`Symmetry::ALL`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SymmetrySet(u8);

impl SymmetrySet {
    /// The set of `elements`.
    pub fn of(elements: &[Symmetry]) -> SymmetrySet {
        SymmetrySet(elements.iter().fold(0, |m, &g| m | 1 << g as u8))
    }

    /// The members, in [`Symmetry::ALL`] order.
    pub fn elements(self) -> impl Iterator<Item = Symmetry> {
        Symmetry::ALL
            .into_iter()
            .filter(move |&g| self.0 >> g as u8 & 1 == 1)
    }

    /// True for the empty set.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
}

/// Emits the lex-leader constraints of every non-identity element of `group` for `problem`'s
/// cells, allocating auxiliaries from `vars`. Calls `emit` for every clause.
pub fn encode<S: ClauseSink + ?Sized>(
    problem: &Problem,
    group: SymmetrySet,
    vars: &mut VarAlloc,
    sink: &mut S,
) {
    let n = problem.n;
    let elements: Vec<Symmetry> = group.elements().filter(|&g| g != Symmetry::Id).collect();
    if elements.is_empty() {
        return;
    }
    let t = Lit::pos(vars.fresh());
    sink.add_clause(&[t]);
    let value = |c: Cell| -> Lit {
        if let Some(v) = problem.varmap.var(c) {
            Lit::pos(v)
        } else if problem.fixed.binary_search(&c).is_ok() {
            t
        } else {
            !t
        }
    };
    // Each clause is written once: the first step of every element has e_0 = t, so two
    // elements whose first differing cells agree would state `t -> (y -> x)` twice; and a step
    // whose pair is the previous step's swapped (`g` an involution) would repeat the previous
    // `e -> (x -> y)` as its `e -> (y -> x)`.
    let mut first_steps: Vec<(Lit, Lit)> = Vec::new();
    for g in elements {
        let inv = g.inverse();
        let mut prev = t; // e_0: the empty prefix is equal
        let mut last: Option<(Lit, Lit)> = None;
        'cells: for r in 0..n {
            if sink.stopped() {
                return; // the sink failed or was stopped: its owner reports why
            }
            for c in 0..n {
                let cell = Cell::new(r, c);
                let x = value(cell);
                let y = value(inv.apply(cell, n));
                if x == y {
                    continue; // equal by construction: e_i = e_{i-1}
                }
                if [t, !t].contains(&x) && [t, !t].contains(&y) {
                    // Two constants that differ decide the comparison: every later e_i is
                    // false, and their clauses (tautologies over t) say nothing. x < y: the
                    // prefix before must differ already.
                    if x == !t {
                        sink.add_clause(&[!prev]);
                    }
                    break 'cells;
                }
                // e_{i-1} -> (y -> x)
                let stated = match last {
                    None => first_steps.contains(&(x, y)),
                    Some(step) => step == (y, x),
                };
                if !stated {
                    sink.add_clause(&[!prev, !y, x]);
                }
                if last.is_none() {
                    first_steps.push((x, y));
                }
                last = Some((x, y));
                let e = Lit::pos(vars.fresh());
                // e <-> prev ∧ (x <-> y)
                sink.add_clause(&[!e, prev]);
                sink.add_clause(&[!e, !x, y]);
                sink.add_clause(&[!e, x, !y]);
                sink.add_clause(&[e, !prev, x, y]);
                sink.add_clause(&[e, !prev, !x, !y]);
                prev = e;
            }
        }
    }
}
