//! What the one search ([`super::kernel`]) tells a tracer: typed events of its recursion, the
//! way CaDiCaL's `Tracer` hears of one search's steps. The search runs once for every use: with
//! [`NoTrace`] (zero-sized, `ON = false`, every call compiled away) for the uncertified search
//! and the split, with [`super::proof`]'s LRAT tracer or [`super::pbproof`]'s VeriPB tracer
//! for `--certify`. A tracer sees:
//!
//! - a node the search's checks refute, and why ([`Failure`]: an open row without a cell, a
//!   free column no open row can take, a sum bound of one kind, the parity);
//! - a node that branches ([`Tracer::branch`], on a [`Fork`]: every cell of an open row, which
//!   open row takes a free column, or which takes a forced diagonal), with whether it has one
//!   child only;
//! - each placement going on ([`Tracer::place`]) and, once its child is refuted, the child's
//!   refutation ([`Tracer::child_refuted`], which may end the node at once: a backjump)
//!   before the placement comes off again ([`Tracer::unplace`]);
//! - the refutation of a branching node, every child refuted ([`Tracer::refuted`]).
//!
//! A refuted node hands its parent a [`Tracer::Refuted`] (the LRAT tracer: the placements its
//! refutation uses; the VeriPB tracer: its lemma's ID), and a branching node keeps a
//! [`Tracer::Frame`] while its children are searched. A tracer that fails (a proof it cannot
//! write) records why and returns [`Abort`]: the search then ends as stopped, and the tracer's
//! driver reports the recorded error. A new tracer is one file (the impl) and the one line
//! that hands it to [`super::kernel::Search::trace`]. This file imports only the core's row
//! word: the kernel imports it, not the other way.

use super::core::Row;
use crate::error::Error;

/// A diagonal of the core: the sum keys' (`anti`) or the difference keys', `key` as
/// [`super::core::Core`] numbers them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Line {
    /// Of the sum keys (`r + c`) when true, of the difference keys otherwise.
    pub anti: bool,
    /// Its key.
    pub key: u32,
}

/// Why the search's checks refuted a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Failure<M> {
    /// The open row (core row) has no cell left: the first such, in the node's order.
    Row(usize),
    /// No open row can take this free column (a single bit: the lowest such).
    Column(M),
    /// The diagonal-sum bound of one kind fails (of the sum keys when `anti`): the keys the
    /// open rows reach cannot add up to what the open rows and free columns give.
    Bound {
        /// Of the sum keys (`r + c`) when true, of the difference keys otherwise.
        anti: bool,
    },
    /// The cross-kind parity fails.
    Parity,
}

/// The line a node branches on: its children are the placements on that line's cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Fork<M> {
    /// Every allowed cell of the open row (core row), lowest column first.
    Row(usize),
    /// Which open row takes the free column (a single bit), in the node's row order: every
    /// row that can, or the only one (a forced move).
    Column(M),
    /// Which open row takes the diagonal the sum bounds force.
    Diagonal(Line),
}

/// A node: its open rows (core rows, in the search's order), their allowed columns and the
/// free columns.
#[derive(Clone, Copy, Debug)]
pub(super) struct Node<'n, M: Row> {
    /// The open rows.
    pub open: &'n [u8],
    /// Every core row's allowed columns (those of the open rows matter).
    pub masks: &'n M::Masks,
    /// The free columns.
    pub cols_free: M,
}

/// A tracer gave up (its error recorded in it): the search ends as stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Abort;

/// Where a tracer records why it gave up ([`Abort`]), for its driver to report.
#[derive(Debug, Default)]
pub(super) struct Failed(Option<Error>);

impl Failed {
    /// Records `why` the tracer cannot go on, and stops the search.
    #[cold]
    pub(super) fn abort<T>(&mut self, why: Error) -> Result<T, Abort> {
        self.0 = Some(why);
        Err(Abort)
    }

    /// `done`, or its error recorded and the search stopped.
    pub(super) fn or_abort<T>(&mut self, done: crate::error::Result<T>) -> Result<T, Abort> {
        done.or_else(|e| self.abort(e))
    }

    /// The recorded error, if the tracer gave up.
    pub(super) fn take(&mut self) -> Option<Error> {
        self.0.take()
    }
}

/// What a tracer asks of a node after one of its children was refuted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Flow<R> {
    /// Search the node's next child.
    Next,
    /// The node is refuted as well, by this refutation (which did not need the child's
    /// placement): its other children are not searched.
    Backjump(R),
}

/// How a node (a subtree) of the search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Outcome<R> {
    /// Every open row took a piece: the search's `placed` holds the placements.
    Board,
    /// Refuted, with what the tracer hands the parent.
    Refuted(R),
    /// The time limit, a cancel, or the tracer's [`Abort`].
    Stopped,
}

/// What listens to the search ([`super::kernel::Search::trace`]). Every call happens on the
/// search's thread, in the order of the recursion. A tracer that needs the search's attack
/// masks keeps its [`super::kernel::Attacks`].
pub(super) trait Tracer<M: Row> {
    /// Whether the search reports at all: `false` lets it skip what only the hooks need (the
    /// number of a node's children).
    const ON: bool;
    /// What a refuted node hands its parent.
    type Refuted: Copy;
    /// What a branching node keeps while its children are searched.
    type Frame;

    /// The search's checks refute `node`, for `why`.
    fn failed(&mut self, node: Node<'_, M>, why: Failure<M>) -> Result<Self::Refuted, Abort>;

    /// `node` branches on `fork`; `only`: it has one child.
    fn branch(
        &mut self,
        node: Node<'_, M>,
        fork: Fork<M>,
        only: bool,
    ) -> Result<Self::Frame, Abort>;

    /// A piece goes on core row `row`, column `bit` (a single bit), the node's only child when
    /// `only`; the child's node follows.
    fn place(&mut self, row: usize, bit: M, only: bool);

    /// The child of the placement on `row`, `bit` was refuted with `refuted` (the placement is
    /// still on).
    fn child_refuted(
        &mut self,
        frame: &mut Self::Frame,
        refuted: Self::Refuted,
        row: usize,
        bit: M,
        only: bool,
    ) -> Result<Flow<Self::Refuted>, Abort>;

    /// The placement on `row`, `bit` comes off (after its child was refuted).
    fn unplace(&mut self, row: usize, bit: M);

    /// Every child of `node`, which branched on `fork`, was refuted: the node's refutation.
    fn refuted(
        &mut self,
        node: Node<'_, M>,
        fork: Fork<M>,
        frame: Self::Frame,
    ) -> Result<Self::Refuted, Abort>;
}

/// The tracer of the uncertified search: hears nothing, costs nothing.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct NoTrace;

impl<M: Row> Tracer<M> for NoTrace {
    const ON: bool = false;
    type Refuted = ();
    type Frame = ();

    #[inline(always)]
    fn failed(&mut self, _: Node<'_, M>, _: Failure<M>) -> Result<(), Abort> {
        Ok(())
    }

    #[inline(always)]
    fn branch(&mut self, _: Node<'_, M>, _: Fork<M>, _: bool) -> Result<(), Abort> {
        Ok(())
    }

    #[inline(always)]
    fn place(&mut self, _: usize, _: M, _: bool) {}

    #[inline(always)]
    fn child_refuted(
        &mut self,
        _: &mut (),
        _: (),
        _: usize,
        _: M,
        _: bool,
    ) -> Result<Flow<()>, Abort> {
        Ok(Flow::Next)
    }

    #[inline(always)]
    fn unplace(&mut self, _: usize, _: M) {}

    #[inline(always)]
    fn refuted(&mut self, _: Node<'_, M>, _: Fork<M>, _: ()) -> Result<(), Abort> {
        Ok(())
    }
}
