//! Implied constraints (`--implied sums`): redundant clauses that every solution satisfies and
//! that CDCL cannot derive by itself with short resolution proofs.
//!
//! When every row and every column holds exactly one piece (queens and amazons place `n` pieces
//! on `n` rows and `n` columns), the pieces' rows and columns are both permutations of
//! `0..n`. Summing over the pieces, `Σ (r + c) = n(n-1)` and `Σ (r - c + n - 1) = n(n-1)`: the
//! keys of the used diagonals of each kind ([`LineKind::key`]) add up to `n(n-1)`, whatever the
//! board. An LP relaxation of the row/column equalities implies these sums already (so MIP and
//! PB solvers gain nothing from them), but a CDCL solver reasons on single lines, and on a board
//! whose diagonals are mostly excluded or blocked the sum is what refutes it: the free diagonals
//! cannot supply `n` distinct keys with the right total. This is the counting argument behind
//! the classic impossibility proofs for toroidal and modular queens (Pólya 1918).
//!
//! For each diagonal kind the encoding adds
//! - an indicator `u_k <-> OR(cells on diagonal k)` per diagonal with two or more live cells (a
//!   one-cell diagonal uses its cell); at most one of its cells is true, so `u_k` is its sum;
//! - the count `Σ_k u_k = n - (pre-placed pieces)` and the sum `Σ_k k·u_k = n(n-1) - Σ keys of
//!   the pre-placed pieces` together, as one reduced ordered BDD over the `u_k` (heaviest
//!   first) of `Σ_k (k·B + 1)·u_k = sum·B + count` (`B` exceeds any count, so no carry mixes
//!   the two), each node `v <-> ite(u_k, hi, lo)` by six clauses (Eén and Sörensson,
//!   "Translating pseudo-Boolean constraints into SAT", JSAT 2006): unit propagation on it is
//!   generalised arc consistent on the conjunction of both equalities.
//!
//! Why both, and in one BDD (external CaDiCaL 1.4.1, excluded diagonals n=20 with 16 of the
//! 78 diagonals out, UNSAT): 27.6 s plain, 34.7 s with the count alone, 33.7 s with the sum
//! alone, 0.64 s with both as two BDDs, 0.15 s with the one BDD.
//!
//! Every auxiliary is a function of the cell variables, so the model count over all variables
//! is unchanged. The BDD has about `diagonals × pieces × target / 8` nodes at most (n = 21:
//! ~4,000 per kind); one that would exceed `MAX_NODES` is left out, so large boards pay
//! nothing but the attempt.

use std::collections::HashMap;

use super::{ClauseSink, Lit, VarAlloc};
use crate::error::{BadOption, Opt, Result};
use crate::piece::LineKind;
use crate::presolve::Problem;

/// Which implied constraints to add.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Implied {
    /// None (the plain model).
    #[default]
    None,
    /// The diagonal key sums of each diagonal kind (see the module doc).
    Sums,
}

impl Implied {
    /// Every value, in `--implied` order.
    pub const ALL: [Implied; 2] = [Implied::None, Implied::Sums];

    /// The `--implied` name.
    pub fn name(self) -> &'static str {
        match self {
            Implied::None => "none",
            Implied::Sums => "sums",
        }
    }

    /// Parses an `--implied` name.
    ///
    /// ```
    /// use queens_sat::encode::implied::Implied;
    /// assert_eq!(Implied::parse("sums").unwrap(), Implied::Sums);
    /// assert!(Implied::parse("sum").is_err());
    /// ```
    pub fn parse(name: &str) -> Result<Implied> {
        Implied::ALL
            .into_iter()
            .find(|i| i.name() == name)
            .ok_or_else(|| BadOption::unknown(Opt::Implied, name, &Implied::names()))
    }

    /// The names of [`Implied::ALL`], in order.
    pub fn names() -> Vec<&'static str> {
        Implied::ALL.iter().map(|i| i.name()).collect()
    }
}

/// Largest BDD (nodes, per diagonal kind) that is emitted; a larger one is left out.
pub(crate) const MAX_NODES: usize = 10_000;

/// Most items (diagonals) a BDD is built over: the construction recurses once per item, and a
/// board with that many diagonals is far over [`MAX_NODES`] anyway (n = 56 needs ~560,000).
const MAX_ITEMS: usize = 1_000;

/// Emits the implied constraints `implied` of `problem`, allocating auxiliaries from `vars`.
/// Nothing is emitted for [`Implied::None`], for a piece that does not need a piece on every
/// row and every column, or for a problem presolve proved unsatisfiable.
///
/// ```
/// use queens_sat::encode::{VarAlloc, VecSink, implied::{self, Implied}};
/// use queens_sat::{instance::Instance, piece::QUEEN, presolve::Problem};
/// let p = Problem::presolve(&Instance::plain(8), QUEEN).unwrap();
/// let mut vars = VarAlloc::new(64);
/// let mut sink = VecSink::default();
/// implied::encode(&p, Implied::Sums, &mut vars, &mut sink);
/// assert!(vars.count() > 64 && !sink.clauses.is_empty());
/// ```
pub fn encode<S: ClauseSink + ?Sized>(
    problem: &Problem,
    implied: Implied,
    vars: &mut VarAlloc,
    sink: &mut S,
) {
    if implied == Implied::None || problem.unsat.is_some() {
        return;
    }
    let n = problem.n;
    let lines = problem.piece.lines;
    // Every kind named: rows and columns make the permutation the sums rely on, each diagonal
    // family gets its sum (a new kind must be placed here).
    let (mut rows, mut cols) = (false, false);
    let mut diagonals = Vec::new();
    for &kind in lines {
        match kind {
            LineKind::Row => rows = kind.needs_exactly_one(n),
            LineKind::Column => cols = kind.needs_exactly_one(n),
            LineKind::Diagonal | LineKind::AntiDiagonal => diagonals.push(kind),
        }
    }
    if !(rows && cols) {
        return;
    }
    for kind in diagonals {
        diagonal_sum(problem, kind, vars, sink);
    }
}

/// For the diagonals of `kind`: `Σ u_k = pieces to place` and `Σ k·u_k = n(n-1) - Σ keys of
/// the fixed pieces`.
fn diagonal_sum<S: ClauseSink + ?Sized>(
    problem: &Problem,
    kind: LineKind,
    vars: &mut VarAlloc,
    sink: &mut S,
) {
    let n = problem.n;
    let mut cells: Vec<Vec<u32>> = vec![Vec::new(); kind.count(n) as usize];
    for (cell, var) in problem.varmap.cells() {
        cells[kind.key(cell, n) as usize].push(var);
    }
    let mut pieces = u64::from(n);
    let mut target = u64::from(n) * u64::from(n.saturating_sub(1));
    for &c in &problem.fixed {
        if problem.varmap.var(c).is_none() {
            // A fixed piece that is not a variable (presolve) holds its diagonal already.
            pieces = pieces.saturating_sub(1);
            target = target.saturating_sub(u64::from(kind.key(c, n)));
        }
    }
    // The diagonals with live cells, heaviest key first. One BDD states both equalities:
    // weight `k·B + 1` with `B` above any count adds up to `(Σ k)·B + (count)`, no carry.
    let diagonals: Vec<(u64, &[u32])> = cells
        .iter()
        .enumerate()
        .rev()
        .filter(|(_, vs)| !vs.is_empty())
        .map(|(k, vs)| (k as u64, vs.as_slice()))
        .collect();
    let b = diagonals.len() as u64 + 1;
    let weights: Vec<u64> = diagonals.iter().map(|&(k, _)| k * b + 1).collect();
    let Some(bdd) = Bdd::build(&weights, target * b + pieces, MAX_NODES) else {
        return;
    };
    // Indicators only once the BDD is known to fit.
    let lits: Vec<Lit> = diagonals
        .iter()
        .map(|&(_, vs)| indicator(vs, vars, sink))
        .collect();
    bdd.emit(&lits, vars, sink);
}

/// Whether [`encode`] emits anything for `problem` (false for [`Implied::None`], for a piece
/// without the row/column permutation, and when every BDD is over [`MAX_NODES`]).
///
/// ```
/// use queens_sat::encode::implied::{emits, Implied};
/// use queens_sat::{instance::Instance, piece::QUEEN, presolve::Problem};
/// let small = Problem::presolve(&Instance::plain(8), QUEEN).unwrap();
/// assert!(emits(&small, Implied::Sums) && !emits(&small, Implied::None));
/// let large = Problem::presolve(&Instance::plain(200), QUEEN).unwrap();
/// assert!(!emits(&large, Implied::Sums));
/// ```
#[cfg_attr(
    not(feature = "oracle"),
    visibility::make(pub(crate)),
    allow(dead_code)
)]
pub fn emits(problem: &Problem, implied: Implied) -> bool {
    let mut sink = super::StatsSink::default();
    let mut vars = VarAlloc::new(0);
    encode(problem, implied, &mut vars, &mut sink);
    sink.stats.clauses > 0
}

/// `u <-> OR(cells)`; a one-cell diagonal is its cell.
fn indicator<S: ClauseSink + ?Sized>(cells: &[u32], vars: &mut VarAlloc, sink: &mut S) -> Lit {
    if let [one] = cells {
        return Lit::pos(*one);
    }
    let u = Lit::pos(vars.fresh());
    let mut clause: Vec<Lit> = Vec::with_capacity(cells.len() + 1);
    clause.push(!u);
    clause.extend(cells.iter().map(|&v| Lit::pos(v)));
    sink.add_clause(&clause);
    for &v in cells {
        sink.add_clause(&[u, Lit::neg(v)]);
    }
    u
}

/// A child of a BDD node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Child {
    True,
    False,
    Node(usize),
}

/// The reduced ordered BDD of `Σ w_i x_i = target` (`w_i > 0`), nodes in creation order (every
/// node's children come before it).
struct Bdd {
    /// Per node: the item it tests, its child when the item is true, and when false.
    nodes: Vec<(usize, Child, Child)>,
    root: Child,
}

impl Bdd {
    /// Builds the BDD, or `None` when it would have more than `max_nodes` nodes or has more
    /// than [`MAX_ITEMS`] items (the construction recurses once per item).
    fn build(weights: &[u64], target: u64, max_nodes: usize) -> Option<Bdd> {
        if weights.len() > MAX_ITEMS {
            return None;
        }
        let mut suffix = vec![0u64; weights.len() + 1];
        for i in (0..weights.len()).rev() {
            suffix[i] = suffix[i + 1] + weights[i];
        }
        let mut b = Builder {
            weights,
            suffix,
            target,
            memo: HashMap::new(),
            nodes: Vec::new(),
            max_nodes,
        };
        let root = b.node(0, 0)?;
        Some(Bdd {
            nodes: b.nodes,
            root,
        })
    }

    /// Emits the BDD over `lits` (one per weight) with the root asserted.
    fn emit<S: ClauseSink + ?Sized>(&self, lits: &[Lit], vars: &mut VarAlloc, sink: &mut S) {
        match self.root {
            Child::True => return,
            Child::False => {
                // No choice of diagonals adds up: a contradiction on the first cell.
                sink.add_clause(&[Lit::pos(1)]);
                sink.add_clause(&[Lit::neg(1)]);
                return;
            }
            Child::Node(_) => {}
        }
        let first = vars.fresh_block(self.nodes.len() as u32);
        let lit = |c: Child| match c {
            Child::Node(i) => Some(Lit::pos(first + i as u32)),
            _ => None,
        };
        for (i, &(item, hi, lo)) in self.nodes.iter().enumerate() {
            let v = Lit::pos(first + i as u32);
            let x = lits[item];
            // v -> (x ? hi : lo) and back.
            for (cond, child) in [(x, hi), (!x, lo)] {
                match child {
                    Child::False => sink.add_clause(&[!v, !cond]),
                    Child::True => sink.add_clause(&[v, !cond]),
                    Child::Node(_) => {
                        let c = lit(child).expect("node");
                        sink.add_clause(&[!v, !cond, c]);
                        sink.add_clause(&[v, !cond, !c]);
                    }
                }
            }
            // The two redundant clauses that make propagation arc consistent.
            if let (Some(h), Some(l)) = (lit(hi), lit(lo)) {
                sink.add_clause(&[!v, h, l]);
                sink.add_clause(&[v, !h, !l]);
            }
        }
        sink.add_clause(&[lit(self.root).expect("root is a node")]);
    }
}

/// Memoised construction of [`Bdd`].
struct Builder<'w> {
    weights: &'w [u64],
    suffix: Vec<u64>,
    target: u64,
    memo: HashMap<(usize, u64), Child>,
    nodes: Vec<(usize, Child, Child)>,
    max_nodes: usize,
}

impl Builder<'_> {
    /// The node for items `i..` with `sum` reached so far; `None` past the node budget.
    fn node(&mut self, i: usize, sum: u64) -> Option<Child> {
        if sum > self.target || sum + self.suffix[i] < self.target {
            return Some(Child::False);
        }
        if sum == self.target && i == self.weights.len() {
            return Some(Child::True);
        }
        if let Some(&c) = self.memo.get(&(i, sum)) {
            return Some(c);
        }
        let hi = self.node(i + 1, sum + self.weights[i])?;
        let lo = self.node(i + 1, sum)?;
        let c = if hi == lo {
            hi
        } else {
            if self.nodes.len() >= self.max_nodes {
                return None;
            }
            self.nodes.push((i, hi, lo));
            Child::Node(self.nodes.len() - 1)
        };
        self.memo.insert((i, sum), c);
        Some(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::VecSink;

    /// Every 0/1 assignment of `weights` satisfies the BDD's clauses (with some auxiliary
    /// values) exactly when its weighted sum is `target`: brute force over items and nodes.
    #[test]
    fn bdd_accepts_exactly_the_assignments_with_the_target_sum() {
        let weights = [7u64, 5, 4, 3, 3, 1];
        for target in 0..=24 {
            let bdd = Bdd::build(&weights, target, 1000).unwrap();
            let items = weights.len();
            let lits: Vec<Lit> = (1..=items as u32).map(Lit::pos).collect();
            let mut vars = VarAlloc::new(items as u32);
            let mut sink = VecSink::default();
            bdd.emit(&lits, &mut vars, &mut sink);
            let total = vars.count() as usize;
            for x in 0u32..1 << items {
                let sum: u64 = (0..items)
                    .filter(|&i| x >> i & 1 == 1)
                    .map(|i| weights[i])
                    .sum();
                // The auxiliaries are functions of the items: evaluate the nodes bottom up.
                let mut value = vec![false; total + 1];
                for i in 0..items {
                    value[i + 1] = x >> i & 1 == 1;
                }
                let child = |c: Child, value: &[bool]| match c {
                    Child::True => true,
                    Child::False => false,
                    Child::Node(j) => value[items + 1 + j],
                };
                for (j, &(item, hi, lo)) in bdd.nodes.iter().enumerate() {
                    value[items + 1 + j] = if value[item + 1] {
                        child(hi, &value)
                    } else {
                        child(lo, &value)
                    };
                }
                let sat = sink
                    .clauses
                    .iter()
                    .all(|c| c.iter().any(|l| value[l.var() as usize] == l.is_positive()));
                assert_eq!(sat, sum == target, "target {target}, assignment {x:b}");
            }
        }
    }

    #[test]
    fn a_bdd_over_the_budget_is_left_out() {
        let weights: Vec<u64> = (1..=60).collect();
        assert!(Bdd::build(&weights, 900, 100).is_none());
        assert!(Bdd::build(&weights, 900, 1_000_000).is_some());
        // Many items: refused before any recursion (a 20,000-queens board has 39,999).
        let many = vec![1u64; MAX_ITEMS + 1];
        assert!(Bdd::build(&many, 0, usize::MAX).is_none());
    }
}
