//! The search tree cut into subtrees along the search's own branching: the split of
//! [`super::search`] over threads, the cubes of a cluster job ([`cubes`]) and Knuth's estimate of
//! a tree's size ([`estimate`]).

use super::core::{Core, OnCore, Row, with_core};
use super::kernel::{Branch, Parked, Search, Tuning, on_diagonal, shape};
use crate::board::Cell;
use crate::cpu::Isa;
use crate::error::Result;
use crate::interrupt::Cancel;
use crate::presolve::Problem;
use crate::prng::Prng;

/// One subtree of the search: the open rows, their allowed columns, the free columns, and the
/// placements (core row, column bit) that lead to it from the root.
#[derive(Clone, Debug)]
pub(super) struct Subtree<M: Row> {
    pub(super) open: Vec<u8>,
    pub(super) masks: M::Masks,
    pub(super) cols_free: M,
    pub(super) placed: Vec<(usize, u32)>,
}

impl<M: Row> Subtree<M> {
    /// The root: the core's rows and live cells.
    pub(super) fn root(core: &Core<M>) -> Subtree<M> {
        Subtree {
            open: (0..core.k()).map(|r| r as u8).collect(),
            masks: core.masks,
            cols_free: core.cols_free,
            placed: Vec::new(),
        }
    }

    /// The placements (an index into `open`, a column bit) the search branches on at this
    /// subtree's root ([`Search::branch_plain`], with `s`'s tuning): none when the root's
    /// checks refute it, or when it has no open row (a board). Together the children they make
    /// hold every solution of the subtree, and no two hold the same one.
    fn moves(&self, s: &Search<M>) -> Vec<(usize, M)> {
        if self.open.is_empty() {
            return Vec::new();
        }
        let (open, masks) = (&self.open[..], &self.masks);
        let rows = 0..open.len();
        match s.branch(open, masks, self.cols_free) {
            Branch::Fail(_) => Vec::new(),
            Branch::Row(i, mut cand) => {
                let mut out = Vec::with_capacity(cand.count_ones() as usize);
                while cand != M::ZERO {
                    let bit = cand.lowest();
                    cand = cand ^ bit;
                    out.push((i, bit));
                }
                out
            }
            Branch::Column(col) => rows
                .filter(|&i| masks[open[i] as usize] & col != M::ZERO)
                .map(|i| (i, col))
                .collect(),
            Branch::Diagonal(super::kernel::Line { anti, key }) => rows
                .filter_map(|i| on_diagonal(s.core, anti, key, open[i], masks).map(|c| (i, c)))
                .collect(),
        }
    }

    /// The subtree below placing a piece on the open row `open[i]`, column `bit`, as the
    /// search places it.
    fn child(&self, (i, bit): (usize, M), s: &Search<M>) -> Subtree<M> {
        let mut child = self.clone();
        let row = child.open.remove(i) as usize;
        child.cols_free &= !bit;
        for &r in &child.open {
            let r = r as usize;
            child.masks[r] &= !s.hit(bit, row, r);
        }
        child.placed.push((row, bit.trailing_zeros()));
        child
    }

    /// What a search of this subtree left to search when it parked ([`Search::park_after`]),
    /// as subtrees in the search's order: the node where it stopped, then the branches left at
    /// each node above it, deepest first. Searching them all is searching the rest of this
    /// subtree: every solution it holds that the parked search did not reach is in exactly one.
    pub(super) fn resume(&self, parked: Parked<M>, s: &Search<M>) -> Vec<Subtree<M>> {
        let Parked { nodes, mut path } = parked;
        path.reverse();
        let mut out = Vec::new();
        for node in nodes {
            let mut placed = self.placed.clone();
            placed.extend_from_slice(&path[..path.len() - node.up]);
            let at = Subtree {
                open: node.open,
                masks: node.masks,
                cols_free: node.cols_free,
                placed,
            };
            match node.moves {
                None => out.push(at),
                Some(moves) => out.extend(moves.into_iter().map(|m| at.child(m, s))),
            }
        }
        out
    }

    /// The children of this subtree: the search's branches at its root ([`Subtree::moves`]).
    fn children(&self, s: &Search<M>) -> Vec<Subtree<M>> {
        let moves = self.moves(s);
        moves.into_iter().map(|m| self.child(m, s)).collect()
    }

    /// Knuth's estimate of the subtree's size in search nodes (D. E. Knuth, "Estimating the
    /// efficiency of backtrack programs", Math. Comp. 29, 1975): the mean over `probes` random
    /// paths from its root, each following the search's branching ([`Subtree::moves`]), of
    /// the sum over depths of the product of the branching factors met. A refuted root counts
    /// one node, a board none (as [`Search`] counts them).
    fn estimate(&self, s: &Search<M>, probes: usize, rng: &mut Prng) -> f64 {
        let probes = probes.max(1);
        let mut sum = 0.0;
        for _ in 0..probes {
            let mut t = std::borrow::Cow::Borrowed(self);
            let (mut width, mut nodes) = (1.0, 0.0);
            while !t.open.is_empty() {
                nodes += width;
                let moves = t.moves(s);
                if moves.is_empty() {
                    break;
                }
                width *= moves.len() as f64;
                let next = t.child(moves[rng.below(moves.len())], s);
                t = std::borrow::Cow::Owned(next);
            }
            sum += nodes;
        }
        sum / probes as f64
    }
}

/// Splits `root` breadth-first along the search's branching (`s`, [`Subtree::children`])
/// until there are at least `want` subtrees (or none is left to split), in a fixed order: the
/// index of a subtree is the same on every run. A subtree whose root the search's checks
/// refute is dropped when it is split (it holds no solution).
pub(super) fn split<M: Row>(root: Subtree<M>, s: &Search<M>, want: usize) -> Vec<Subtree<M>> {
    let mut queue = std::collections::VecDeque::from([root]);
    // Every subtree that has open rows can be split; a leaf (no open row) is a board.
    while queue.len() < want {
        let Some(pos) = queue.iter().position(|t| !t.open.is_empty()) else {
            break;
        };
        let t = queue.remove(pos).expect("a position in the queue");
        let children = t.children(s);
        if children.is_empty() && queue.is_empty() {
            break;
        }
        queue.extend(children);
    }
    queue.into()
}

/// One subtree of the search cut by [`cubes`]: a cube of a cluster job (`split solve
/// --cubes-from bitboard`).
#[derive(Clone, Debug, PartialEq)]
pub struct TreeCube {
    /// The pieces the search placed on the path from the root to the subtree (the rows,
    /// columns and diagonals it branched on, and its forced moves), in the order placed; the
    /// problem's fixed pieces are not among them.
    pub cells: Vec<Cell>,
    /// Knuth's estimate of the subtree's size in search nodes (at least 1).
    pub nodes: f64,
}

#[cfg_attr(not(feature = "oracle"), allow(dead_code))] // for the tests and examples
/// Cuts the search tree of `problem` into about `want` subtrees along the search's own
/// branching: breadth-first to half of `want` (the split [`super::search`] gives its threads),
/// then the subtree of the largest estimated size (Knuth's estimator, `probes` random probes
/// per subtree, in search nodes) is split until there are `want` (or none is left to split).
/// The cubes are in a fixed order with fixed estimates (each subtree's probes are seeded with
/// its path): the same problem gives the same cubes on every run.
///
/// Every solution of `problem` lies in exactly one cube. A subtree whose root the search's
/// checks refute (a row without a cell, a free column no row can take, the diagonal-sum and
/// parity bounds) holds no solution and is not returned; so an UNSAT verdict on every cube
/// (none at all when the root is refuted) is an UNSAT verdict on `problem`.
///
/// ```
/// use queens_sat::{instance::Instance, piece::QUEEN, presolve::Problem};
/// use queens_sat::solve::bitboard::cubes;
/// let p = Problem::presolve(&Instance::plain(10), QUEEN).unwrap();
/// let c = cubes(&p, 32, 16, &Default::default()).unwrap();
/// assert!(c.len() >= 32 && c.iter().all(|c| c.nodes >= 1.0));
/// assert_eq!(c, cubes(&p, 32, 16, &Default::default()).unwrap());
/// ```
pub fn cubes(
    problem: &Problem,
    want: usize,
    probes: usize,
    cancel: &Cancel,
) -> Result<Vec<TreeCube>> {
    cut(problem, want, probes, Tuning::default(), cancel)
}

/// [`cubes`] along the branching of the certified search
/// ([`PROOF_TUNING`](super::proof::PROOF_TUNING)): every subtree left out is one that unit
/// propagation on the pairwise encoding refutes (a row without a cell, a free column no row
/// can take), never one only the sum bounds or the parity refute. So the CNF of `encode --amo
/// pairwise` plus one clause excluding each cube has a refutation a CDCL solver finds at once:
/// the coverage proof of a certified cluster solve (`split solve --certify`).
///
/// ```
/// use queens_sat::{instance::Instance, piece::QUEEN, presolve::Problem};
/// use queens_sat::solve::bitboard::proof_cubes;
/// let p = Problem::presolve(&Instance::plain(10), QUEEN).unwrap();
/// let c = proof_cubes(&p, 32, 16, &Default::default()).unwrap();
/// assert!(c.len() >= 32);
/// ```
pub fn proof_cubes(
    problem: &Problem,
    want: usize,
    probes: usize,
    cancel: &Cancel,
) -> Result<Vec<TreeCube>> {
    cut(problem, want, probes, super::proof::PROOF_TUNING, cancel)
}

/// [`cubes`] with the search's `tuning`.
fn cut(
    problem: &Problem,
    want: usize,
    probes: usize,
    tuning: Tuning,
    cancel: &Cancel,
) -> Result<Vec<TreeCube>> {
    shape(problem)?;
    if problem.unsat.is_some() {
        return Ok(Vec::new());
    }
    with_core(
        problem,
        false,
        Cut {
            problem,
            want,
            probes,
            tuning,
            cancel,
        },
    )
}

/// [`cubes`] on a core.
struct Cut<'a> {
    problem: &'a Problem,
    want: usize,
    probes: usize,
    tuning: Tuning,
    cancel: &'a Cancel,
}

impl OnCore for Cut<'_> {
    type Out = Result<Vec<TreeCube>>;

    fn run<M: Row>(self, core: Core<M>) -> Result<Vec<TreeCube>> {
        let Cut {
            problem,
            want,
            probes,
            tuning,
            cancel,
        } = self;
        let shape = shape(problem)?;
        let tuning = tuning.settled(problem);
        let s = Search::new(shape, Isa::current().usable(), tuning, &core, None);
        let estimate = |t: &Subtree<M>| -> Result<f64> {
            cancel.check()?;
            // The seed is the path (in the big board's cells): an estimate does not depend on
            // where the subtree is listed.
            let seed = t
                .placed
                .iter()
                .fold(0x9E37_79B9_7F4A_7C15u64, |h, &(i, bit)| {
                    let cell = core.cell(i, bit);
                    (h ^ (u64::from(cell.row) * 64 + u64::from(cell.col)))
                        .wrapping_mul(0x0100_0000_01B3)
                });
            Ok(t.estimate(&s, probes, &mut Prng::new(seed)).max(1.0))
        };
        let live = |t: &Subtree<M>| {
            t.open.is_empty()
                || !matches!(s.branch(&t.open, &t.masks, t.cols_free), Branch::Fail(_))
        };
        let mut cut: Vec<(Subtree<M>, f64)> = Vec::new();
        for t in split(Subtree::root(&core), &s, want.div_ceil(2)) {
            if live(&t) {
                let e = estimate(&t)?;
                cut.push((t, e));
            }
        }
        while cut.len() < want {
            // The largest subtree that can be split (the first of equal ones), in place.
            let Some(at) = (0..cut.len())
                .filter(|&i| !cut[i].0.open.is_empty())
                .max_by(|&a, &b| cut[a].1.total_cmp(&cut[b].1).then(b.cmp(&a)))
            else {
                break;
            };
            let children = cut[at].0.children(&s);
            let mut parts = Vec::with_capacity(children.len());
            for t in children {
                if live(&t) {
                    let e = estimate(&t)?;
                    parts.push((t, e));
                }
            }
            cut.splice(at..=at, parts);
        }
        Ok(cut
            .into_iter()
            .map(|(t, nodes)| TreeCube {
                cells: t.placed.iter().map(|&(i, bit)| core.cell(i, bit)).collect(),
                nodes,
            })
            .collect())
    }
}

#[cfg_attr(not(feature = "oracle"), allow(dead_code))] // for the tests and examples
/// Knuth's estimate of the size in search nodes of the whole search tree of `problem` under
/// `tuning` (the mean of `probes` random paths from the root, seeded with `seed`; see
/// [`cubes`]): the load-independent measure of a pruning on trees too big to search to the end.
///
/// ```
/// use queens_sat::{instance::Instance, piece::QUEEN, presolve::Problem};
/// use queens_sat::solve::bitboard::estimate;
/// let p = Problem::presolve(&Instance::plain(10), QUEEN).unwrap();
/// let e = estimate(&p, Default::default(), 100, 1).unwrap();
/// assert!(e >= 1.0 && e == estimate(&p, Default::default(), 100, 1).unwrap());
/// ```
pub fn estimate(problem: &Problem, tuning: Tuning, probes: usize, seed: u64) -> Result<f64> {
    shape(problem)?;
    if problem.unsat.is_some() {
        return Ok(0.0);
    }
    with_core(
        problem,
        tuning.wide,
        Estimate {
            problem,
            tuning,
            probes,
            seed,
        },
    )
}

#[cfg_attr(not(feature = "oracle"), allow(dead_code))] // for the tests and examples
/// [`estimate`] on a core.
struct Estimate<'a> {
    problem: &'a Problem,
    tuning: Tuning,
    probes: usize,
    seed: u64,
}

impl OnCore for Estimate<'_> {
    type Out = Result<f64>;

    fn run<M: Row>(self, core: Core<M>) -> Result<f64> {
        let shape = shape(self.problem)?;
        let tuning = self.tuning.settled(self.problem);
        let s = Search::new(shape, Isa::current().usable(), tuning, &core, None);
        let root = Subtree::root(&core);
        Ok(root.estimate(&s, self.probes, &mut Prng::new(self.seed)))
    }
}
