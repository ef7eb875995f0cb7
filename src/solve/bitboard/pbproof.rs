//! The bitboard search with its full tuning (the sum bounds, the parity and the forced-diagonal
//! branching), writing a VeriPB proof of an UNSAT answer (issue 46): the steps of
//! [`crate::certify::pb`] (a hinted `rup` per lemma; a `pol` per node a bound or the parity
//! refutes, the parity's with a division by 2; a `pol` per branch on a forced diagonal, showing
//! that the diagonal holds a piece) over the OPB model `encode --to opb` writes, logged by the
//! search itself instead of the reference search. Unlike the LRAT writer ([`super::proof`]) the
//! search keeps every pruning ([`VERIPB_TUNING`]), so it visits the nodes of the uncertified
//! single-threaded search. A node refuted as its parent's only child (a forced move, a forced
//! diagonal with one cell) has no lemma of its own: its hints end its parent's, after the
//! parent's line has set its placement (as the LRAT writer inlines forced moves; 44-48 % of the
//! nodes at n = 22, a fifth of the proof's bytes). Every lemma negates its whole path: lemmas
//! over the placements they use, with backjumping, were tried and dropped (0.015 % fewer nodes
//! and 0.7 % fewer bytes on n22 d21 s18: the sum bounds, the parity and the forced diagonals
//! name nearly every placement, and the search's own checks leave little to backjump over).

use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

use super::core::{Core, core_rows};
use super::kernel::{Branch, CHECK_EVERY, MAX_CORE, Search, Tuning, Words, on_diagonal, shape};
use crate::answer::Answer;
use crate::board::Board;
use crate::certify::pb::{Geometry, Id, ProofStats, Writer, write_opb};
use crate::cpu::Isa;
use crate::error::{Error, Result};
use crate::interrupt::Cancel;
use crate::presolve::Problem;

/// The prunings of the VeriPB search: the full tuning of the uncertified search
/// ([`Tuning::default`]: the sum bounds, the parity and the forced-diagonal branching, key sets
/// of [`Words::Family`]), so that it visits the nodes the single-threaded search visits.
pub const VERIPB_TUNING: Tuning = Tuning {
    sums: true,
    parity: true,
    diagonals: true,
    triples: true,
    words: Words::Family,
    table: false,
    wide: false,
};

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

/// Searches `problem` with [`VERIPB_TUNING`], writing its OPB model to `opb` and a VeriPB
/// proof to `proof` (concluding `UNSAT` for UNSAT, nothing otherwise). Nothing is checked here:
/// [`crate::certify::pb::check`] checks the files. Cores of at most 64 open rows.
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
    let shape = shape(problem)?;
    let g = Geometry::new(problem)?;
    let core = Core::<u64>::new(problem).ok_or_else(|| {
        Error::Usage(format!(
            "the VeriPB search takes cores of at most 64 open rows; this one has {}",
            core_rows(problem)
        ))
    })?;
    write_opb(problem, opb)?;
    let name = proof.display().to_string();
    let file = std::fs::File::create(proof).map_err(|e| Error::io(&name, e))?;
    let stop = cancel.cloned().unwrap_or_default().with_timeout(timeout);
    let mut var_of = vec![0u32; 64 * 64];
    for i in 0..core.k() {
        let mut m = core.masks[i];
        while m != 0 {
            let bit = m.trailing_zeros();
            m &= m - 1;
            var_of[i * 64 + bit as usize] = problem
                .varmap
                .var(core.cell(i, bit))
                .ok_or_else(|| Error::Solver("a core cell without a variable".into()))?;
        }
    }
    let mut prover = Prover {
        s: Search::new(
            shape,
            Isa::current().usable(),
            VERIPB_TUNING.settled(problem),
            &core,
            Some(&stop),
        ),
        core: &core,
        w: Writer::start(&g, std::io::BufWriter::with_capacity(1 << 20, file), true),
        var_of,
        path: Vec::new(),
        spots: Vec::new(),
        seen: vec![0; g.loaded() as usize + 1],
        pend: Vec::new(),
        pend_dels: Vec::new(),
        stamp: 0,
    };
    let open: Vec<u8> = (0..core.k()).map(|r| r as u8).collect();
    let node = prover.node(&open, &core.masks, core.cols_free)?;
    let nodes = prover.s.nodes;
    let stopped = prover.s.stopped.take();
    let mut stats = prover.w.stats;
    stats.nodes = nodes;
    let path = std::mem::take(&mut prover.path);
    let unsat = match node {
        Node::Refuted(id) => Some(id),
        _ => None,
    };
    prover
        .w
        .finish(unsat)
        .flush()
        .map_err(|e| Error::io(&name, e))?;
    let answer = match node {
        Node::Refuted(_) => Answer::Unsat,
        Node::Board => {
            let mut pieces = problem.fixed.clone();
            pieces.extend(path.iter().map(|&v| g.cell(v)));
            Answer::Sat(Board::new(problem.n, pieces))
        }
        Node::Stopped => Answer::Unknown(stopped.unwrap_or_else(|| "stopped".into())),
    };
    Ok(PbSearched {
        answer,
        nodes,
        stats,
        seconds: t.elapsed().as_secs_f64(),
    })
}

/// How a node ended.
#[derive(Clone, Copy)]
enum Node {
    /// Refuted: the ID of its lemma.
    Refuted(Id),
    /// A board: the path is its placements.
    Board,
    /// The time limit or cancel.
    Stopped,
}

struct Prover<'s, 'g, W: Write> {
    s: Search<'s, u64>,
    core: &'s Core<u64>,
    w: Writer<'g, W>,
    /// The variable of core cell (row, bit) at `row * 64 + bit`.
    var_of: Vec<u32>,
    /// The variables placed from the root.
    path: Vec<u32>,
    /// Their core cells (row, column bit).
    spots: Vec<(usize, u64)>,
    /// Per model constraint, the lemma (`stamp`) whose hints last named it.
    seen: Vec<u32>,
    stamp: u32,
    /// The hints of the refutation of an only child, left for its parent's lemma to end with
    /// ([`PENDING`]), and the constraints to delete once that lemma is written.
    pend: Vec<Id>,
    pend_dels: Vec<Id>,
}

/// The lemma ID of a node refuted as its parent's only child: no lemma of its own, its hints
/// are [`Prover::pend`] (IDs start at 1).
const PENDING: Id = 0;

impl<W: Write> Prover<'_, '_, W> {
    /// Adds to `hints` the lines through which placed pieces attack the cells `dead` (column
    /// bits) of core row `r` (no line twice): the piece on the row itself attacks all of them
    /// along it; else the pieces of the path in order, each through the lines its attack masks
    /// say.
    fn explain(&mut self, r: usize, dead: u64, hints: &mut Vec<Id>) -> Result<()> {
        let g = self.w.geometry();
        let mut rest = dead & self.core.masks[r];
        for (k, &(qr, qbit)) in self.spots.iter().enumerate() {
            if rest == 0 {
                break;
            }
            let hit = if qr == r {
                rest
            } else {
                self.s.hit(qbit, qr, r) & rest
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

    /// Searches the node of the open rows `open` (their allowed columns `masks`, the free
    /// columns `cols_free`) at the end of the path and writes its lemma.
    fn node(&mut self, open: &[u8], masks: &[u64; 64], cols_free: u64) -> Result<Node> {
        self.node_in(open, masks, cols_free, false)
    }

    /// [`Prover::node`]; with `inline` (the node is its parent's only child) a refutation
    /// writes no lemma: its hints are left in [`Prover::pend`] for the parent's lemma, which
    /// propagates the node's placement first, and it returns [`PENDING`].
    fn node_in(
        &mut self,
        open: &[u8],
        masks: &[u64; 64],
        cols_free: u64,
        inline: bool,
    ) -> Result<Node> {
        if open.is_empty() {
            return Ok(Node::Board);
        }
        self.s.nodes += 1;
        if self.s.nodes.is_multiple_of(CHECK_EVERY) && self.s.should_stop() {
            return Ok(Node::Stopped);
        }
        let mut kids: Vec<Id> = Vec::new();
        let mut hints: Vec<Id> = Vec::new();
        let g = self.w.geometry();
        let single = match self.s.branch(open, masks, cols_free) {
            Branch::Fail => {
                let (hints, dels) = self.failed(open, masks, cols_free)?;
                return Ok(self.conclude(hints, dels, inline));
            }
            Branch::Row(i, cand) => {
                let r = open[i] as usize;
                let single = cand.count_ones() == 1;
                let mut left = cand;
                while left != 0 {
                    let bit = left & left.wrapping_neg();
                    left ^= bit;
                    match self.place(open, i, bit, masks, cols_free, single)? {
                        Node::Refuted(PENDING) => {}
                        Node::Refuted(id) => kids.push(id),
                        other => return Ok(other),
                    }
                }
                hints.extend_from_slice(&kids);
                self.next_stamp();
                if cand == masks[r] {
                    // The row's other cells are attacked.
                    self.explain(r, !cand, &mut hints)?;
                    let row = self.core.rows[r] as usize;
                    hints.push(g.row_ids[row].ok_or_else(|| no_line("row", row))?.0);
                } else {
                    // A column only this row can take.
                    self.explain_col(cand, &[r], &mut hints)?;
                    hints.push(self.col_ge(cand)?);
                }
                single
            }
            Branch::Column(col) => {
                let mut rows = Vec::new();
                let single = open.iter().filter(|&&r| masks[r as usize] & col != 0).count() == 1;
                for i in 0..open.len() {
                    let r = open[i] as usize;
                    if masks[r] & col != 0 {
                        match self.place(open, i, col, masks, cols_free, single)? {
                            Node::Refuted(PENDING) => {}
                            Node::Refuted(id) => kids.push(id),
                            other => return Ok(other),
                        }
                        rows.push(r);
                    }
                }
                hints.extend_from_slice(&kids);
                self.next_stamp();
                self.explain_col(col, &rows, &mut hints)?;
                hints.push(self.col_ge(col)?);
                single
            }
            Branch::Diagonal(anti, key) => {
                return self.diagonal(open, masks, cols_free, anti, key, inline);
            }
        };
        self.w.stats.branches += 1;
        let dels = if single {
            // The line's `>= 1` sets the only child's placement: its hints follow.
            hints.append(&mut self.pend);
            std::mem::take(&mut self.pend_dels)
        } else {
            kids
        };
        Ok(self.conclude(hints, dels, inline))
    }

    /// Ends a refuted node whose lemma has the hints `hints`, after which the constraints
    /// `dels` are no longer needed: with `inline` both are left pending for the parent
    /// ([`PENDING`]), else the lemma is written and they are deleted.
    fn conclude(&mut self, hints: Vec<Id>, dels: Vec<Id>, inline: bool) -> Node {
        if inline {
            self.pend = hints;
            self.pend_dels = dels;
            self.w.stats.inlined += 1;
            return Node::Refuted(PENDING);
        }
        let id = self.w.rup(&self.path, &hints);
        self.w.delete(&dels);
        Node::Refuted(id)
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

    /// Places a piece on `open[i]`, column `bit`, and searches below (`inline`: as the node's
    /// only child, [`Prover::node_in`]); the path keeps the placement only when the child found
    /// a board.
    fn place(
        &mut self,
        open: &[u8],
        i: usize,
        bit: u64,
        masks: &[u64; 64],
        cols_free: u64,
        inline: bool,
    ) -> Result<Node> {
        let r = open[i] as usize;
        let (mut rest, mut next) = ([0u8; MAX_CORE], *masks);
        self.s.child_into(open, i, bit, masks, &mut rest, &mut next);
        let rest = &rest[..open.len() - 1];
        self.path
            .push(self.var_of[r * 64 + bit.trailing_zeros() as usize]);
        self.spots.push((r, bit));
        let node = self.node_in(rest, &next, cols_free & !bit, inline)?;
        if !matches!(node, Node::Board) {
            self.path.pop();
            self.spots.pop();
        }
        Ok(node)
    }

    /// The hints of the lemma of a node the search's checks refute (an open row without a
    /// cell, a free column no open row can take, a sum bound, else the parity), and the
    /// constraints to delete once it is written (a `pol` step's).
    fn failed(
        &mut self,
        open: &[u8],
        masks: &[u64; 64],
        cols_free: u64,
    ) -> Result<(Vec<Id>, Vec<Id>)> {
        self.next_stamp();
        let g = self.w.geometry();
        let mut hints = Vec::new();
        if let Some(&r) = open.iter().find(|&&r| masks[r as usize] == 0) {
            let r = r as usize;
            self.explain(r, u64::MAX, &mut hints)?;
            let row = self.core.rows[r] as usize;
            hints.push(g.row_ids[row].ok_or_else(|| no_line("row", row))?.0);
            self.w.stats.empty += 1;
            return Ok((hints, Vec::new()));
        }
        let once = open.iter().fold(0, |m, &r| m | masks[r as usize]);
        let missing = cols_free & !once;
        if missing != 0 {
            let col = missing & missing.wrapping_neg();
            self.explain_col(col, &[], &mut hints)?;
            hints.push(self.col_ge(col)?);
            self.w.stats.empty += 1;
            return Ok((hints, Vec::new()));
        }
        // A sum bound: the allowed cells, open rows and free columns on the big board.
        let core = self.core;
        let (rows, cols) = self.lines(open, cols_free);
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
            if let Some(c_id) = self.w.bound_pol(allowed(), &rows, &cols, anti) {
                self.explain_dead(open, masks, cols_free, &mut hints)?;
                hints.push(c_id);
                self.w.stats.bounds += 1;
                return Ok((hints, vec![c_id]));
            }
        }
        // The parity.
        let vars = self.allowed_vars(open, masks);
        if let Some(c_id) = self.w.parity_pol(&vars, &rows, &cols) {
            self.explain_dead(open, masks, cols_free, &mut hints)?;
            hints.push(c_id);
            self.w.stats.parity += 1;
            return Ok((hints, vec![c_id]));
        }
        Err(Error::Solver(
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

    /// The variables of the allowed cells of the open rows `open`.
    fn allowed_vars(&self, open: &[u8], masks: &[u64; 64]) -> Vec<u32> {
        let mut vars = Vec::new();
        for &r in open {
            let (r, mut m) = (r as usize, masks[r as usize]);
            while m != 0 {
                vars.push(self.var_of[r * 64 + m.trailing_zeros() as usize]);
                m &= m - 1;
            }
        }
        vars
    }

    /// The open rows and the free columns of a node, on the big board.
    fn lines(&self, open: &[u8], cols_free: u64) -> (Vec<usize>, Vec<usize>) {
        let rows = open
            .iter()
            .map(|&r| self.core.rows[r as usize] as usize)
            .collect();
        let mut cols = Vec::new();
        let mut m = cols_free;
        while m != 0 {
            cols.push(self.core.col_of_bit[m.trailing_zeros() as usize] as usize);
            m &= m - 1;
        }
        (rows, cols)
    }

    /// Branches on which open row takes the forced diagonal `key` (of the sum keys when
    /// `anti`, as the core numbers them), then writes the node's lemma: a `pol` deriving that
    /// the diagonal holds a piece under the path ([`Writer::forced_pol`]), and a `rup` over the
    /// children's lemmas, the attacks on the cells that are not allowed, and that constraint
    /// (an only child's hints after it); `inline` as in [`Prover::node_in`].
    fn diagonal(
        &mut self,
        open: &[u8],
        masks: &[u64; 64],
        cols_free: u64,
        anti: bool,
        key: u32,
        inline: bool,
    ) -> Result<Node> {
        let mut kids = Vec::new();
        let mut on = None;
        let cells = (0..open.len())
            .filter(|&i| on_diagonal(self.core, anti, key, open[i], masks).is_some())
            .count();
        let single = cells == 1;
        for i in 0..open.len() {
            let Some(col) = on_diagonal(self.core, anti, key, open[i], masks) else {
                continue;
            };
            on = Some(self.var_of[open[i] as usize * 64 + col.trailing_zeros() as usize]);
            match self.place(open, i, col, masks, cols_free, single)? {
                Node::Refuted(PENDING) => {}
                Node::Refuted(id) => kids.push(id),
                other => return Ok(other),
            }
        }
        let on = on.ok_or_else(|| internal("a forced diagonal without an allowed cell"))?;
        let (rows, cols) = self.lines(open, cols_free);
        let vars = self.allowed_vars(open, masks);
        let c_id = self
            .w
            .forced_pol(&vars, &rows, &cols, anti, on)
            .ok_or_else(|| internal("a diagonal the sum bounds do not force"))?;
        let mut hints = kids.clone();
        self.next_stamp();
        self.explain_dead(open, masks, cols_free, &mut hints)?;
        hints.push(c_id);
        self.w.stats.diagonals += 1;
        let mut dels = if single {
            // `C` sets the only cell: the child's hints follow.
            hints.append(&mut self.pend);
            std::mem::take(&mut self.pend_dels)
        } else {
            kids
        };
        dels.push(c_id);
        Ok(self.conclude(hints, dels, inline))
    }
}

#[cold]
fn internal(why: &str) -> Error {
    Error::Solver(format!("the VeriPB search's proof: {why}"))
}

#[cold]
fn no_line(what: &str, index: usize) -> Error {
    Error::Solver(format!(
        "the VeriPB search: {what} {index} has no `= 1` constraint"
    ))
}

/// `--solver bitboard --certify --proof FILE.pbp`: [`search_veripb`] with the OPB model in a
/// temporary file and the proof in a temporary file beside `proof`, checked by the in-house
/// VeriPB checker ([`crate::certify::pbcheck`]) after the search; an UNSAT answer needs the
/// check to verify `conclusion UNSAT`, and only then is the proof renamed to `proof` (never a
/// half-written proof under that name). The proof is over the model `encode --to opb` writes
/// for the same instance; `veripb MODEL.opb FILE.pbp` checks it again.
pub fn search_certified_pb(
    problem: &Problem,
    timeout: Option<Duration>,
    cancel: Option<&Cancel>,
    proof: &Path,
) -> Result<super::proof::Certified> {
    let tmp = super::proof::beside(proof)?;
    let model = tempfile::Builder::new()
        .suffix(".opb")
        .tempfile()
        .map_err(|e| Error::io("a temporary OPB model", e))?;
    let r = search_veripb(problem, model.path(), tmp.path(), timeout, cancel)?;
    let mut check_seconds = 0.0;
    let certificate = match r.answer {
        Answer::Unsat => {
            let t = Instant::now();
            let verdict = crate::certify::pbcheck::check_files(model.path(), tmp.path())?;
            check_seconds = t.elapsed().as_secs_f64();
            if !verdict.unsat {
                return Err(internal("the VeriPB proof checked but concluded nothing"));
            }
            super::proof::keep(tmp, proof)?;
            let s = verdict.steps;
            Some(crate::certify::Certificate {
                checker: format!(
                    "VeriPB proof of the bitboard search with its sum bounds over the OPB \
                     model ({} bound steps), checked by queens-sat's VeriPB checker",
                    r.stats.bounds
                ),
                steps: s.rup + s.rup_unhinted + s.pol,
            })
        }
        _ => None,
    };
    Ok(super::proof::Certified {
        answer: r.answer,
        nodes: r.nodes,
        certificate,
        lemmas: r.stats.lemmas(),
        hints: r.stats.hints,
        check_seconds,
    })
}
