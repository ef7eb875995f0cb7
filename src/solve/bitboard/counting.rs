//! A test-only tracer that counts the search's events ([`super::trace`]): what a new tracer
//! takes (this file, and its one `mod` line in `mod.rs`). The tests check the events against
//! the search's own node count, untraced, and against each other.

use super::core::{Core, OnCore, Row, core_rows, with_core};
use super::kernel::{Search, Tuning, shape};
use super::trace::{Abort, Failure, Flow, Fork, Node, Outcome, Tracer};
use crate::cpu::Isa;
use crate::piece::Shape;
use crate::presolve::Problem;

/// The events of one search, counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Counts {
    /// Nodes refuted by an empty row, an uncovered column, a sum bound, the parity.
    rows: u64,
    columns: u64,
    bounds: u64,
    parity: u64,
    /// Nodes branching on a row, a column, a forced diagonal; those with one child.
    on_rows: u64,
    on_columns: u64,
    on_diagonals: u64,
    only: u64,
    /// Placements put on, refuted children, placements taken off, branching nodes refuted.
    placed: u64,
    children_refuted: u64,
    unplaced: u64,
    refuted: u64,
    /// The deepest path.
    depth: usize,
    /// The current path.
    path: usize,
}

impl<M: Row> Tracer<M> for Counts {
    const ON: bool = true;
    type Refuted = ();
    /// The node's children so far.
    type Frame = u64;

    fn failed(&mut self, node: Node<'_, M>, why: Failure<M>) -> Result<(), Abort> {
        match why {
            Failure::Row(r) => {
                assert!(node.open.contains(&(r as u8)) && node.masks[r] == M::ZERO);
                self.rows += 1;
            }
            Failure::Column(col) => {
                assert_eq!(col.count_ones(), 1);
                assert!(node.cols_free & col != M::ZERO);
                assert!(
                    node.open
                        .iter()
                        .all(|&r| node.masks[r as usize] & col == M::ZERO)
                );
                self.columns += 1;
            }
            Failure::Bound { .. } => self.bounds += 1,
            Failure::Parity => self.parity += 1,
        }
        Ok(())
    }

    fn branch(&mut self, _: Node<'_, M>, fork: Fork<M>, only: bool) -> Result<u64, Abort> {
        match fork {
            Fork::Row(_) => self.on_rows += 1,
            Fork::Column(_) => self.on_columns += 1,
            Fork::Diagonal(_) => self.on_diagonals += 1,
        }
        self.only += u64::from(only);
        Ok(0)
    }

    fn place(&mut self, _: usize, bit: M, _: bool) {
        assert_eq!(bit.count_ones(), 1);
        self.placed += 1;
        self.path += 1;
        self.depth = self.depth.max(self.path);
    }

    fn child_refuted(
        &mut self,
        frame: &mut u64,
        _: (),
        _: usize,
        _: M,
        only: bool,
    ) -> Result<Flow<()>, Abort> {
        *frame += 1;
        assert!(!only || *frame == 1);
        self.children_refuted += 1;
        Ok(Flow::Next)
    }

    fn unplace(&mut self, _: usize, _: M) {
        self.unplaced += 1;
        self.path -= 1;
    }

    fn refuted(&mut self, _: Node<'_, M>, _: Fork<M>, children: u64) -> Result<(), Abort> {
        assert!(children >= 1);
        self.refuted += 1;
        Ok(())
    }
}

/// The search of `problem` under `tuning`, traced by [`Counts`] and untraced: the outcome,
/// the counts, and the node counts of both.
struct Both {
    shape: Shape,
    tuning: Tuning,
}

impl OnCore for Both {
    type Out = (Outcome<()>, Counts, u64, u64);

    fn run<M: Row>(self, core: Core<M>) -> Self::Out {
        let shape = self.shape;
        let mut traced = Search::new(shape, Isa::current().usable(), self.tuning, &core, None);
        let mut counts = Counts::default();
        let root = (0..core.k()).map(|r| r as u8).collect::<Vec<u8>>();
        let out = traced.trace(&mut counts, &root, &core.masks, core.cols_free);
        let mut plain = Search::new(shape, Isa::current().usable(), self.tuning, &core, None);
        plain.go(&root, &core.masks, core.cols_free);
        (out, counts, traced.nodes, plain.nodes)
    }
}

#[test]
fn events_add_up_to_the_nodes_of_the_untraced_search() {
    use crate::piece::{AMAZON, QUEEN};
    let mut seen = Counts::default();
    let mut instances = Vec::new();
    for n in [2, 3, 6, 8] {
        instances.push(crate::instance::Instance::plain(n));
    }
    // Prefixes of `generate diagonals -n N --min-free 1 --seed S` (N, S: 18, 2; 18, 5; 14, 1;
    // 16, 2; 12, 3), UNSAT and SAT, where the bounds, the parity and the forced diagonals act.
    for text in [
        "n = 18\nnumdiags = 15\ndiags = [[11,0],[21,0],[34,0],[13,1],[4,0],[23,0],[17,1],[9,1],[15,0],[5,1],[20,0],[29,0],[2,0],[8,1],[22,1]]\n",
        "n = 18\nnumdiags = 18\ndiags = [[3,0],[12,0],[26,0],[16,1],[0,1],[14,0],[19,1],[9,1],[33,0],[18,0],[17,1],[18,1],[31,0],[8,0],[30,1],[6,1],[23,1],[27,0]]\n",
        "n = 14\nnumdiags = 10\ndiags = [[6,1],[4,1],[8,1],[24,0],[10,1],[9,1],[22,0],[3,0],[7,0],[0,1]]\n",
        "n = 16\nnumdiags = 14\ndiags = [[20,0],[2,1],[21,0],[21,1],[29,1],[9,1],[16,1],[3,0],[30,0],[15,0],[9,0],[6,1],[16,0],[12,0]]\n",
        "n = 12\nnumdiags = 9\ndiags = [[14,1],[21,1],[15,1],[14,0],[9,1],[6,0],[17,1],[1,0],[5,0]]\n",
    ] {
        instances.push(crate::instance::read_instance("diags", text, None).unwrap());
    }
    let amazons = [9, 10].map(|n| (crate::instance::Instance::plain(n), AMAZON));
    let queens = instances.into_iter().map(|i| (i, QUEEN));
    for (inst, piece) in queens.chain(amazons) {
        let problem = Problem::presolve(&inst, piece).unwrap();
        if problem.unsat.is_some() {
            continue;
        }
        let shape = shape(&problem).unwrap();
        for (tuning, wide) in [
            (Tuning::default(), false),
            (super::proof::PROOF_TUNING, false),
            (Tuning::default(), true),
        ] {
            let tuning = tuning.settled(&problem);
            let (out, c, nodes, plain) = with_core(&problem, wide, Both { shape, tuning });
            // The tracer changes nothing the search does.
            assert_eq!(nodes, plain, "{tuning:?}");
            let failed = c.rows + c.columns + c.bounds + c.parity;
            let branched = c.on_rows + c.on_columns + c.on_diagonals;
            // Every node either fails its checks or branches.
            assert_eq!(failed + branched, nodes);
            match out {
                Outcome::Refuted(()) => {
                    // Every placement came off again, every child was refuted, and every
                    // branching node too.
                    assert_eq!(c.placed, c.unplaced);
                    assert_eq!(c.placed, c.children_refuted);
                    assert_eq!(c.refuted, branched);
                    assert_eq!(c.path, 0);
                }
                Outcome::Board => {
                    // The path to the board stays on.
                    assert_eq!(c.placed - c.unplaced, core_rows(&problem) as u64);
                }
                Outcome::Stopped => panic!("no limit was set"),
            }
            for (a, b) in [
                (&mut seen.bounds, c.bounds),
                (&mut seen.parity, c.parity),
                (&mut seen.on_diagonals, c.on_diagonals),
                (&mut seen.on_columns, c.on_columns),
                (&mut seen.only, c.only),
                (&mut seen.columns, c.columns),
            ] {
                *a += b;
            }
        }
    }
    // Every kind of event happened somewhere.
    for (what, count) in [
        ("bound", seen.bounds),
        ("parity", seen.parity),
        ("forced diagonal", seen.on_diagonals),
        ("column branch", seen.on_columns),
        ("only child", seen.only),
        ("uncovered column", seen.columns),
    ] {
        assert!(count > 0, "no {what} event");
    }
}
