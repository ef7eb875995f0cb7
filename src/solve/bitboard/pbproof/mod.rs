//! The bitboard search with its full tuning (the sum bounds, the parity and the forced-diagonal
//! branching), writing a VeriPB proof of an UNSAT answer (issue 46): the steps of
//! [`crate::certify::pb`] (a hinted `rup` per lemma; a `pol` per node a bound or the parity
//! refutes, the parity's with a division by 2; a `pol` per branch on a forced diagonal, showing
//! that the diagonal holds a piece) over the OPB model `encode --to opb` writes, logged by a
//! tracer of the one search (`trace.rs`) instead of the reference search. Unlike the LRAT writer ([`super::proof`]) the
//! search keeps every pruning ([`VERIPB_TUNING`]), so it visits the nodes of the uncertified
//! single-threaded search. A node refuted as its parent's only child (a forced move, a forced
//! diagonal with one cell) has no lemma of its own: its hints end its parent's, after the
//! parent's line has set its placement (as the LRAT writer inlines forced moves; 44-48 % of the
//! nodes at n = 22, a fifth of the proof's bytes). Every lemma negates its whole path: lemmas
//! over the placements they use, with backjumping, were tried and dropped (0.015 % fewer nodes
//! and 0.7 % fewer bytes on n22 d21 s18: the sum bounds, the parity and the forced diagonals
//! name nearly every placement, and the search's own checks leave little to backjump over).
//!
//! A dead cell is explained by the binary clause between it and the piece that attacks it,
//! derived once at the proof's start ([`crate::certify::pb`]). [`search_veripb`] writes the
//! OPB model and the proof's text to files (for the `veripb` crate, the tests and the spike);
//! [`search_certified_pb`] is the `--certify` route: the steps go to a checker thread in
//! compact batches and are checked as they come, the text written only when a proof file is
//! asked for. This file holds the search and its tracer; `certified.rs` the certified route.

use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

use super::core::{Core, core_rows};
use super::kernel::{Attacks, Search, Tuning, on_diagonal, shape};
use super::trace::{Abort, Failed, Failure, Flow, Fork, Node as At, Outcome, Tracer};
use crate::answer::Answer;
use crate::board::Board;
use crate::certify::pb::{Geometry, Id, ProofStats, Sink, Text, Writer, write_opb};
use crate::cpu::Isa;
use crate::error::{Error, Result};
use crate::interrupt::Cancel;
use crate::presolve::Problem;

mod certified;
pub use certified::search_certified_pb;
pub(crate) use certified::search_certified_pb_within;
#[cfg(feature = "oracle")]
pub use certified::{search_certified_pb_tampered, write_only};

/// The prunings of the VeriPB search: the full tuning of the uncertified search
/// ([`Tuning::default`]: the sum bounds, the parity and the forced-diagonal branching, key sets
/// of [`super::kernel::Words::Family`]), so that it visits the nodes the single-threaded search visits.
pub const VERIPB_TUNING: Tuning = Tuning::FULL;

#[cfg_attr(not(feature = "oracle"), allow(dead_code))] // for the tests and examples
/// What [`search_veripb`] did.
#[derive(Clone, Debug)]
pub struct PbSearched {
    /// A board (unverified), UNSAT (the proof is complete, not checked), or UNKNOWN.
    pub answer: Answer<Board>,
    /// Search nodes visited.
    pub nodes: u64,
    /// What the proof holds.
    pub stats: ProofStats,
    /// Seconds the search and its writing took.
    pub seconds: f64,
}

#[cfg_attr(not(feature = "oracle"), allow(dead_code))] // for the tests and examples
/// Searches `problem` with [`VERIPB_TUNING`], writing its OPB model to `opb` and a VeriPB
/// proof to `proof` (concluding `UNSAT` for UNSAT, nothing otherwise). Nothing is checked here:
/// [`crate::certify::pbcheck::check_files`] (or the `veripb` program) checks the files. Cores of at most 64 open rows.
///
/// ```
/// use queens_sat::{answer::Answer, instance::Instance, piece::QUEEN, presolve::Problem};
/// use queens_sat::solve::bitboard::pbproof::search_veripb;
/// let dir = tempfile::tempdir().unwrap();
/// let (opb, pbp) = (dir.path().join("q3.opb"), dir.path().join("q3.pbp"));
/// let p = Problem::presolve(&Instance::plain(3), QUEEN).unwrap();
/// let r = search_veripb(&p, &opb, &pbp, None, None).unwrap();
/// assert_eq!(r.answer, Answer::Unsat);
/// ```
pub fn search_veripb(
    problem: &Problem,
    opb: &Path,
    proof: &Path,
    timeout: Option<Duration>,
    cancel: Option<&Cancel>,
) -> Result<PbSearched> {
    let t = Instant::now();
    let g = Geometry::new(problem)?;
    write_opb(problem, opb)?;
    let name = proof.display().to_string();
    let file = std::fs::File::create(proof).map_err(|e| Error::io(&name, e))?;
    let stop = cancel.cloned().unwrap_or_default().with_timeout(timeout);
    let out = Text::new(std::io::BufWriter::with_capacity(1 << 20, file));
    let (ran, mut out) = run(problem, &g, &stop, out)?;
    if let Some(e) = out.take_error() {
        return Err(Error::io(&name, e));
    }
    out.get_mut().flush().map_err(|e| Error::io(&name, e))?;
    Ok(PbSearched {
        answer: ran.answer,
        nodes: ran.stats.nodes,
        stats: ran.stats,
        seconds: t.elapsed().as_secs_f64(),
    })
}

/// How [`run`] ended.
struct Ran {
    answer: Answer<Board>,
    /// The lemma of the root, for UNSAT.
    root: Option<Id>,
    stats: ProofStats,
}

/// The search of `problem` (its geometry `g`) writing its proof into `sink`, finished
/// (`conclusion UNSAT` for UNSAT, `NONE` otherwise); returns the sink.
fn run<S: Sink>(problem: &Problem, g: &Geometry, stop: &Cancel, sink: S) -> Result<(Ran, S)> {
    let shape = shape(problem)?;
    let core = Core::<u64>::new(problem).ok_or_else(|| {
        Error::Usage(format!(
            "the VeriPB search takes cores of at most 64 open rows; this one has {}",
            core_rows(problem)
        ))
    })?;
    let mut var_of = vec![0u32; 64 * 64];
    for i in 0..core.k() {
        let mut m = core.masks[i];
        while m != 0 {
            let bit = m.trailing_zeros();
            m &= m - 1;
            var_of[i * 64 + bit as usize] = problem
                .varmap
                .var(core.cell(i, bit))
                .ok_or_else(|| Error::Internal("a core cell without a variable".into()))?;
        }
    }
    let mut s = Search::new(
        shape,
        Isa::current().usable(),
        VERIPB_TUNING.settled(problem),
        &core,
        Some(stop),
    );
    let mut prover = Prover {
        attacks: s.attacks(),
        core: &core,
        w: Writer::start(g, sink, true),
        var_of,
        path: Vec::new(),
        spots: Vec::new(),
        onlies: Vec::new(),
        kids: Vec::new(),
        seen: vec![0; g.loaded() as usize + 1],
        pend: Vec::new(),
        pend_dels: Vec::new(),
        stamp: 0,
        blocks: Vec::new(),
        by_row: vec![(0, 0); 64 * 64],
        by_row_var: vec![0; 64],
        key_scratch: Vec::new(),
        rows_scratch: Vec::new(),
        cols_scratch: Vec::new(),
        vars_scratch: Vec::new(),
        spares: Vec::new(),
        error: Failed::default(),
    };
    prover.derive_pairs()?;
    let open: Vec<u8> = (0..core.k()).map(|r| r as u8).collect();
    let outcome = s.trace(&mut prover, &open, &core.masks, core.cols_free);
    if let Some(e) = prover.error.take() {
        return Err(e);
    }
    let nodes = s.nodes;
    let stopped = s.stopped.take();
    let mut stats = prover.w.stats();
    stats.nodes = nodes;
    let path = std::mem::take(&mut prover.path);
    let root = match outcome {
        Outcome::Refuted(id) => Some(id),
        _ => None,
    };
    let sink = prover.w.finish(root);
    let answer = match outcome {
        Outcome::Refuted(_) => Answer::Unsat,
        Outcome::Board => {
            let mut pieces = problem.fixed.clone();
            pieces.extend(path.iter().map(|&v| g.cell(v)));
            Answer::Sat(Board::new(problem.n, pieces))
        }
        Outcome::Stopped => Answer::Unknown(stopped.unwrap_or_else(|| "stopped".into())),
    };
    Ok((
        Ran {
            answer,
            root,
            stats,
        },
        sink,
    ))
}

/// What a branching node keeps while its children are searched.
struct Frame {
    /// Its refuted children's lemmas are [`Prover::kids`]`[base..]`.
    base: usize,
    /// It has one child.
    only: bool,
}

/// The VeriPB tracer: writes each refuted node's lemma, and the `pol` steps of the bounds,
/// the parity and the forced diagonals, as the search goes.
struct Prover<'s, 'g, W: Sink> {
    /// The search's attack masks.
    attacks: Attacks<'s, u64>,
    core: &'s Core<u64>,
    w: Writer<'g, W>,
    /// The variable of core cell (row, bit) at `row * 64 + bit`.
    var_of: Vec<u32>,
    /// The variables placed from the root.
    path: Vec<u32>,
    /// Their core cells (row, column bit).
    spots: Vec<(usize, u64)>,
    /// Whether each placement of the path is its node's only child.
    onlies: Vec<bool>,
    /// The lemmas of the refuted children of the open nodes.
    kids: Vec<Id>,
    /// Per model constraint, the lemma (`stamp`) whose hints last named it.
    seen: Vec<u32>,
    stamp: u32,
    /// The hints of the refutation of an only child, left for its parent's lemma to end with
    /// ([`PENDING`]), and the constraints to delete once that lemma is written.
    pend: Vec<Id>,
    pend_dels: Vec<Id>,
    /// Per variable `p` and core row `r`, at `(p - 1) * k + r`: the cells of row `r` the piece
    /// on `p` attacks (column bits), and the ID of the binary clause `~x_p + ~x_v >= 1` of the
    /// first of them, the others' following in bit order, derived at the proof's start
    /// ([`Prover::derive_pairs`]). Empty on boards with more than [`PAIR_VARS`] variables,
    /// whose lemmas name the attacking lines instead.
    blocks: Vec<(Id, u64)>,
    /// The blocks of the path's pieces by row: row `r`'s of the piece at depth `k` at
    /// `r * 64 + k`, filled for the variable `by_row_var[k]` ([`Prover::explain_pairs`]).
    by_row: Vec<(Id, u64)>,
    by_row_var: Vec<u32>,
    /// Scratch: the keys of the last bound.
    key_scratch: Vec<u64>,
    /// Scratch: the rows of a column's children, or a node's open rows and free columns (on
    /// the big board), and its allowed cells' variables.
    rows_scratch: Vec<usize>,
    cols_scratch: Vec<usize>,
    vars_scratch: Vec<u32>,
    /// Spare vectors of IDs for the lemmas' hints and deletions ([`Prover::ids`]).
    spares: Vec<Vec<Id>>,
    /// Why the tracer gave up ([`Abort`]).
    error: Failed,
}

/// The lemma ID of a node refuted as its parent's only child: no lemma of its own, its hints
/// are [`Prover::pend`] (IDs start at 1).
const PENDING: Id = 0;

/// The most variables for which the proof derives the binary clauses of attacking pairs (each
/// attacking pair twice, one clause per direction).
const PAIR_VARS: usize = 1024;

impl<W: Sink> Prover<'_, '_, W> {
    /// Derives, once, the binary clause `~x_p + ~x_v >= 1` of every cell `p` and every cell
    /// `v` it attacks (a `rup` with the line through which it does as its hint), so that a lemma
    /// names one binary clause per dead cell: checking it propagates two literals per cell
    /// instead of whole lines. They come in blocks per `(p, core row)`, `v` in column-bit order,
    /// so that [`Prover::explain`] finds a clause's ID by counting bits ([`Prover::blocks`]).
    fn derive_pairs(&mut self) -> Result<()> {
        let g = self.w.geometry();
        let (vars, k) = (g.num_vars(), self.core.k());
        if vars > PAIR_VARS {
            return Ok(());
        }
        let mut blocks = vec![(0, 0); vars * k];
        for qr in 0..k {
            let mut cells = self.core.masks[qr];
            while cells != 0 {
                let qbit = cells & cells.wrapping_neg();
                cells ^= qbit;
                let p = self.var_of[qr * 64 + qbit.trailing_zeros() as usize];
                for r in 0..k {
                    let full = self.attacked(qr, qbit, r);
                    blocks[(p as usize - 1) * k + r] = (self.w.next_id(), full);
                    let mut m = full;
                    while m != 0 {
                        let bit = m.trailing_zeros() as usize;
                        m &= m - 1;
                        let v = self.var_of[r * 64 + bit];
                        let line = g
                            .attack(p, v)
                            .ok_or_else(|| internal("an attack mask without a line"))?;
                        self.w.rup(&[p, v], &[line]);
                        self.w.stats.pairs += 1;
                    }
                }
            }
        }
        self.blocks = blocks;
        Ok(())
    }

    /// The cells of core row `r` the piece on core row `qr`, column `qbit`, attacks.
    #[inline]
    fn attacked(&self, qr: usize, qbit: u64, r: usize) -> u64 {
        let live = self.core.masks[r];
        if qr == r {
            live & !qbit
        } else {
            self.attacks.hit(qbit, qr, r) & live
        }
    }

    /// Adds to `hints` the lines through which placed pieces attack the cells `dead` (column
    /// bits) of core row `r` (no line twice): the piece on the row itself attacks all of them
    /// along it; else the pieces of the path in order, each through the lines its attack masks
    /// say.
    fn explain(&mut self, r: usize, dead: u64, hints: &mut Vec<Id>) -> Result<()> {
        let g = self.w.geometry();
        let mut rest = dead & self.core.masks[r];
        if !self.blocks.is_empty() {
            return self.explain_pairs(r, rest, hints);
        }
        for (k, &(qr, qbit)) in self.spots.iter().enumerate() {
            if rest == 0 {
                break;
            }
            let hit = if qr == r {
                rest
            } else {
                self.attacks.hit(qbit, qr, r) & rest
            };
            rest &= !hit;
            let mut m = hit;
            while m != 0 {
                let bit = m.trailing_zeros() as usize;
                m &= m - 1;
                let id = g
                    .attack(self.path[k], self.var_of[r * 64 + bit])
                    .ok_or_else(|| internal("an attack mask without a line"))?;
                if self.seen[id as usize] != self.stamp {
                    self.seen[id as usize] = self.stamp;
                    hints.push(id);
                }
            }
        }
        if rest != 0 {
            return Err(internal("a dead cell no placed piece attacks"));
        }
        Ok(())
    }

    /// The hints of a bound's lemma before `C` (the bound [`Writer::bound_pol`] or the forced
    /// diagonal [`Writer::forced_pol`] just derived):
    /// the dead cells of the open rows, then the closed rows' cells in free columns (their
    /// pieces' rows), each when its coefficient in `C` is positive (the others need not be 0
    /// for `C` to conflict); all of them on boards whose lemmas name lines.
    fn explain_bound(
        &mut self,
        open: &[u8],
        masks: &[u64; 64],
        cols_free: u64,
        hints: &mut Vec<Id>,
    ) -> Result<()> {
        let all = self.blocks.is_empty();
        let core = self.core;
        // The bound's coefficients, copied out of the writer (its keys into `key_scratch`).
        let mut keys = std::mem::take(&mut self.key_scratch);
        keys.clear();
        let bound = self.w.last_bound().map(|(b, bits)| {
            keys.extend_from_slice(bits);
            b
        });
        let needed = |r: usize, cells: u64, open: bool| -> u64 {
            // Unknown (no bound): all kept, so that the rup shows the error.
            let Some(bound) = bound.filter(|_| !all) else {
                return cells;
            };
            if !open && bound.is_lower() {
                // `C` of a lower bound has no term of a closed row: such a cell gets `-b_c`
                // from its column and `-(s - d)` from its diagonal, never a positive sum.
                return 0;
            }
            let row = core.rows[r];
            let mut need = 0;
            let mut m = cells & core.masks[r];
            while m != 0 {
                let bit = m & m.wrapping_neg();
                m ^= bit;
                let col = core.col_of_bit[bit.trailing_zeros() as usize];
                if bound.coef(&keys, row, col, open, cols_free & bit != 0) > 0 {
                    need |= bit;
                }
            }
            need
        };
        let mut res = Ok(());
        for &r in open {
            let r = r as usize;
            let need = needed(r, !masks[r], true);
            res = res.and_then(|()| self.explain(r, need, hints));
        }
        for k in 0..self.spots.len() {
            let r = self.spots[k].0;
            let need = needed(r, cols_free, false);
            res = res.and_then(|()| self.explain(r, need, hints));
        }
        self.key_scratch = keys;
        res
    }

    /// [`Prover::explain`] with the binary clauses: each dead cell of `rest` (core row `r`) by
    /// the first piece of the path that attacks it. The path's blocks are read through
    /// `by_row` (row `r`'s entry of depth `k` at `r * 64 + k`), a column refreshed when the
    /// piece at its depth changed, so that a row's walk along the path reads memory in order.
    fn explain_pairs(&mut self, r: usize, mut rest: u64, hints: &mut Vec<Id>) -> Result<()> {
        let k_rows = self.core.k();
        for k in 0..self.path.len() {
            if rest == 0 {
                return Ok(());
            }
            let p = self.path[k];
            if self.by_row_var[k] != p {
                let base = (p as usize - 1) * k_rows;
                for (r2, &block) in self.blocks[base..base + k_rows].iter().enumerate() {
                    self.by_row[r2 * 64 + k] = block;
                }
                self.by_row_var[k] = p;
            }
            // The binary clauses of the piece's block for row r: its first ID plus the
            // attacked cells before each one.
            let (first, full) = self.by_row[r * 64 + k];
            let hit = full & rest;
            rest &= !hit;
            let mut m = hit;
            while m != 0 {
                let low = m & m.wrapping_neg();
                m ^= low;
                hints.push(first + Id::from((full & (low - 1)).count_ones()));
            }
        }
        if rest != 0 {
            return Err(internal("a dead cell no placed piece attacks"));
        }
        Ok(())
    }

    /// A new lemma's hints: no model line named yet.
    fn next_stamp(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.fill(0);
            self.stamp = 1;
        }
    }

    /// [`Prover::explain`] for the cells of column `col` (a single bit) outside the rows `skip`.
    fn explain_col(&mut self, col: u64, skip: &[usize], hints: &mut Vec<Id>) -> Result<()> {
        for i in 0..self.core.k() {
            if self.core.masks[i] & col != 0 && !skip.contains(&i) {
                self.explain(i, col, hints)?;
            }
        }
        Ok(())
    }

    /// Whether the node at the end of the path is its parent's only child: then a refutation
    /// writes no lemma, its hints are left in [`Prover::pend`] for the parent's lemma, which
    /// propagates the node's placement first ([`PENDING`]).
    fn inline(&self) -> bool {
        self.onlies.last().copied().unwrap_or(false)
    }

    /// The hints of the lemma of a branching node on a row or a column whose children were
    /// all refuted, and the constraints to delete once it is written.
    fn branched(
        &mut self,
        node: At<'_, u64>,
        fork: Fork<u64>,
        frame: &Frame,
    ) -> Result<(Vec<Id>, Vec<Id>)> {
        let g = self.w.geometry();
        let mut hints = self.ids();
        hints.extend_from_slice(&self.kids[frame.base..]);
        self.next_stamp();
        match fork {
            Fork::Row(r) => {
                // The row's other cells are attacked.
                self.explain(r, !node.masks[r], &mut hints)?;
                let row = self.core.rows[r] as usize;
                hints.push(g.row_ids[row].ok_or_else(|| no_line("row", row))?.0);
            }
            Fork::Column(col) => {
                // The column's cells outside the children's rows are attacked.
                let mut rows = std::mem::take(&mut self.rows_scratch);
                rows.clear();
                let masks = node.masks;
                rows.extend(
                    node.open
                        .iter()
                        .map(|&r| r as usize)
                        .filter(|&r| masks[r] & col != 0),
                );
                let explained = self.explain_col(col, &rows, &mut hints);
                self.rows_scratch = rows;
                explained?;
                hints.push(self.col_ge(col)?);
            }
            Fork::Diagonal(_) => return Err(internal("a diagonal is not a row or a column")),
        }
        self.w.stats.branches += 1;
        let dels = if frame.only {
            // The line's `>= 1` sets the only child's placement: its hints follow.
            hints.append(&mut self.pend);
            std::mem::take(&mut self.pend_dels)
        } else {
            let mut dels = self.ids();
            dels.extend_from_slice(&self.kids[frame.base..]);
            dels
        };
        Ok((hints, dels))
    }

    /// Ends a refuted node whose lemma has the hints `hints`, after which the constraints
    /// `dels` are no longer needed: with `inline` both are left pending for the parent
    /// ([`PENDING`]), else the lemma is written and they are deleted. Returns the lemma's ID.
    fn conclude(&mut self, hints: Vec<Id>, dels: Vec<Id>, inline: bool) -> Id {
        if inline {
            let pend = std::mem::replace(&mut self.pend, hints);
            self.give(pend);
            let pend_dels = std::mem::replace(&mut self.pend_dels, dels);
            self.give(pend_dels);
            self.w.stats.inlined += 1;
            return PENDING;
        }
        let id = self.w.rup(&self.path, &hints);
        self.w.delete(&dels);
        self.give(hints);
        self.give(dels);
        id
    }

    /// The `>= 1` of the column of `col` (a single bit).
    fn col_ge(&self, col: u64) -> Result<Id> {
        let c = self.core.col_of_bit[col.trailing_zeros() as usize] as usize;
        Ok(self
            .w
            .geometry()
            .col_ids
            .get(c)
            .copied()
            .flatten()
            .ok_or_else(|| no_line("column", c))?
            .0)
    }

    /// The hints of the lemma of a node the search's checks refute (`why`: an open row without
    /// a cell, a free column no open row can take, a sum bound, the parity), and the
    /// constraints to delete once it is written (a `pol` step's).
    fn failed(&mut self, node: At<'_, u64>, why: Failure<u64>) -> Result<(Vec<Id>, Vec<Id>)> {
        let (open, cols_free) = (node.open, node.cols_free);
        self.next_stamp();
        let g = self.w.geometry();
        let mut hints = self.ids();
        match why {
            Failure::Row(r) => {
                self.explain(r, u64::MAX, &mut hints)?;
                let row = self.core.rows[r] as usize;
                hints.push(g.row_ids[row].ok_or_else(|| no_line("row", row))?.0);
                self.w.stats.empty += 1;
                return Ok((hints, self.ids()));
            }
            Failure::Column(col) => {
                self.explain_col(col, &[], &mut hints)?;
                hints.push(self.col_ge(col)?);
                self.w.stats.empty += 1;
                return Ok((hints, self.ids()));
            }
            // The bound of the sum keys is tried first, as the search checks it.
            Failure::Bound { .. } | Failure::Parity => {}
        }
        let (rows, cols) = self.lines(open, cols_free);
        let pol = self.bound_or_parity(node, &rows, &cols, &mut hints);
        self.rows_scratch = rows;
        self.cols_scratch = cols;
        let c_id = pol?;
        let mut dels = self.ids();
        dels.push(c_id);
        Ok((hints, dels))
    }

    /// The `pol` step of a node a sum bound refutes, else the parity ([`Prover::failed`]): its
    /// constraint's ID, after the hints of the lemma's `rup` that come before it.
    fn bound_or_parity(
        &mut self,
        node: At<'_, u64>,
        rows: &[usize],
        cols: &[usize],
        hints: &mut Vec<Id>,
    ) -> Result<Id> {
        let At {
            open,
            masks,
            cols_free,
        } = node;
        // A sum bound: the allowed cells, open rows and free columns on the big board.
        let core = self.core;
        let allowed = || {
            open.iter().flat_map(move |&r| {
                let (r, mut m) = (r as usize, masks[r as usize]);
                std::iter::from_fn(move || {
                    (m != 0).then(|| {
                        let bit = m.trailing_zeros();
                        m &= m - 1;
                        core.cell(r, bit)
                    })
                })
            })
        };
        for anti in [true, false] {
            if let Some(c_id) = self.w.bound_pol(allowed(), rows, cols, anti) {
                // The dead cells of the open rows, then the closed rows' cells in free
                // columns (their pieces' rows), then C.
                self.explain_bound(open, masks, cols_free, hints)?;
                hints.push(c_id);
                self.w.stats.bounds += 1;
                return Ok(c_id);
            }
        }
        // The parity.
        let vars = self.allowed_vars(open, masks);
        let parity = self.w.parity_pol(&vars, rows, cols);
        self.vars_scratch = vars;
        if let Some(c_id) = parity {
            self.explain_dead(open, masks, cols_free, hints)?;
            hints.push(c_id);
            self.w.stats.parity += 1;
            return Ok(c_id);
        }
        Err(Error::Internal(
            "the VeriPB search: a node failed on no line, no bound and no parity".into(),
        ))
    }

    /// Adds to `hints` the attacks on every cell that is not allowed in an open row or a free
    /// column (and is not placed): the dead cells of the open rows, then the closed rows'
    /// cells in free columns (attacked by their pieces' rows). What the `rup` of a lemma over a
    /// `pol` step's constraint propagates first.
    fn explain_dead(
        &mut self,
        open: &[u8],
        masks: &[u64; 64],
        cols_free: u64,
        hints: &mut Vec<Id>,
    ) -> Result<()> {
        for &r in open {
            let r = r as usize;
            self.explain(r, !masks[r], hints)?;
        }
        for k in 0..self.spots.len() {
            self.explain(self.spots[k].0, cols_free, hints)?;
        }
        Ok(())
    }

    /// The variables of the allowed cells of the open rows `open` (in the scratch vector, to
    /// be put back in `vars_scratch`).
    fn allowed_vars(&mut self, open: &[u8], masks: &[u64; 64]) -> Vec<u32> {
        let mut vars = std::mem::take(&mut self.vars_scratch);
        vars.clear();
        for &r in open {
            let (r, mut m) = (r as usize, masks[r as usize]);
            while m != 0 {
                vars.push(self.var_of[r * 64 + m.trailing_zeros() as usize]);
                m &= m - 1;
            }
        }
        vars
    }

    /// The open rows and the free columns of a node, on the big board (in the scratch
    /// vectors, to be put back in `rows_scratch` and `cols_scratch`).
    fn lines(&mut self, open: &[u8], cols_free: u64) -> (Vec<usize>, Vec<usize>) {
        let (mut rows, mut cols) = (
            std::mem::take(&mut self.rows_scratch),
            std::mem::take(&mut self.cols_scratch),
        );
        rows.clear();
        cols.clear();
        rows.extend(open.iter().map(|&r| self.core.rows[r as usize] as usize));
        let mut m = cols_free;
        while m != 0 {
            cols.push(self.core.col_of_bit[m.trailing_zeros() as usize] as usize);
            m &= m - 1;
        }
        (rows, cols)
    }

    /// An empty vector of IDs, from the spares ([`Prover::give`]): no allocation per node.
    fn ids(&mut self) -> Vec<Id> {
        self.spares.pop().unwrap_or_default()
    }

    /// Keeps `ids` as a spare for [`Prover::ids`].
    fn give(&mut self, mut ids: Vec<Id>) {
        if self.spares.len() < 64 {
            ids.clear();
            self.spares.push(ids);
        }
    }

    /// The hints of the lemma of a node that branched on which open row takes the forced
    /// diagonal `line` (of the sum keys when `anti`, as the core numbers them), every child
    /// refuted, and the constraints to delete once it is written: a `pol` deriving that the
    /// diagonal holds a piece under the path ([`Writer::forced_pol`]), then a `rup` over the
    /// children's lemmas, the attacks on the cells that are not allowed, and that constraint
    /// (an only child's hints after it).
    fn diagonal(
        &mut self,
        node: At<'_, u64>,
        line: super::kernel::Line,
        frame: &Frame,
    ) -> Result<(Vec<Id>, Vec<Id>)> {
        let At {
            open,
            masks,
            cols_free,
        } = node;
        let super::kernel::Line { anti, key } = line;
        // The diagonal's cell in the last open row that has one.
        let on = open
            .iter()
            .rev()
            .find_map(|&r| {
                on_diagonal(self.core, anti, key, r, masks)
                    .map(|col| self.var_of[r as usize * 64 + col.trailing_zeros() as usize])
            })
            .ok_or_else(|| internal("a forced diagonal without an allowed cell"))?;
        let (rows, cols) = self.lines(open, cols_free);
        let vars = self.allowed_vars(open, masks);
        let forced = self.w.forced_pol(&vars, &rows, &cols, anti, on);
        (self.rows_scratch, self.cols_scratch, self.vars_scratch) = (rows, cols, vars);
        let c_id = forced.ok_or_else(|| internal("a diagonal the sum bounds do not force"))?;
        let mut hints = self.ids();
        hints.extend_from_slice(&self.kids[frame.base..]);
        self.next_stamp();
        // The dead cells with a positive coefficient in `C` (the children's lemmas set the
        // diagonal's own cells to 0).
        self.explain_bound(open, masks, cols_free, &mut hints)?;
        hints.push(c_id);
        self.w.stats.diagonals += 1;
        let mut dels = if frame.only {
            // `C` sets the only cell: the child's hints follow.
            hints.append(&mut self.pend);
            std::mem::take(&mut self.pend_dels)
        } else {
            let mut dels = self.ids();
            dels.extend_from_slice(&self.kids[frame.base..]);
            dels
        };
        dels.push(c_id);
        Ok((hints, dels))
    }
}

impl<W: Sink> Tracer<u64> for Prover<'_, '_, W> {
    const ON: bool = true;
    /// The ID of the node's lemma ([`PENDING`]: none, its hints left for the parent's).
    type Refuted = Id;
    type Frame = Frame;

    fn failed(&mut self, node: At<'_, u64>, why: Failure<u64>) -> std::result::Result<Id, Abort> {
        let inline = self.inline();
        let lemma = self.failed(node, why);
        let (hints, dels) = self.error.or_abort(lemma)?;
        Ok(self.conclude(hints, dels, inline))
    }

    fn branch(
        &mut self,
        _: At<'_, u64>,
        _: Fork<u64>,
        only: bool,
    ) -> std::result::Result<Frame, Abort> {
        Ok(Frame {
            base: self.kids.len(),
            only,
        })
    }

    fn place(&mut self, row: usize, bit: u64, only: bool) {
        self.path
            .push(self.var_of[row * 64 + bit.trailing_zeros() as usize]);
        self.spots.push((row, bit));
        self.onlies.push(only);
    }

    fn child_refuted(
        &mut self,
        _: &mut Frame,
        lemma: Id,
        _: usize,
        _: u64,
        _: bool,
    ) -> std::result::Result<Flow<Id>, Abort> {
        if lemma != PENDING {
            self.kids.push(lemma);
        }
        Ok(Flow::Next)
    }

    fn unplace(&mut self, _: usize, _: u64) {
        self.path.pop();
        self.spots.pop();
        self.onlies.pop();
    }

    fn refuted(
        &mut self,
        node: At<'_, u64>,
        fork: Fork<u64>,
        frame: Frame,
    ) -> std::result::Result<Id, Abort> {
        let inline = self.inline();
        let lemma = match fork {
            Fork::Diagonal(line) => self.diagonal(node, line, &frame),
            _ => self.branched(node, fork, &frame),
        };
        let (hints, dels) = self.error.or_abort(lemma)?;
        self.kids.truncate(frame.base);
        Ok(self.conclude(hints, dels, inline))
    }
}

#[cold]
fn internal(why: &str) -> Error {
    Error::Internal(format!("the VeriPB search's proof: {why}"))
}

#[cold]
fn no_line(what: &str, index: usize) -> Error {
    Error::Internal(format!(
        "the VeriPB search: {what} {index} has no `= 1` constraint"
    ))
}
