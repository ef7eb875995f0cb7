//! Certified UNSAT from the bitboard search (`--solver bitboard --certify`, and the bitboard side
//! of the default strategy's race under `--certify`): a tracer of the one search
//! (`trace.rs`) writes an LRAT proof of its refutation over the problem's pairwise
//! encoding, and [`crate::certify::lrat`] checks it on another thread while the search goes on
//! (`certify::pipeline`).
//!
//! The proof is the search tree itself. Every node refuted gets one lemma, the negation of the
//! placements on its path, written after its children's (post-order); the root's lemma is the
//! empty clause. A lemma's hints follow the line the node fails on or branches on, a row or a
//! free column:
//! - each cell of the line that a child took: that child's lemma (its placement, false);
//! - each other live cell: the binary at-most-one clause between it and a placed piece that
//!   attacks it (same row, column, diagonal or knight leap), found with the search's own
//!   attack masks;
//! - then the line's at-least-one clause, now false.
//!
//! The children's lemmas are deleted once their parent's is written, so the checker holds
//! about one lemma per open branch.
//!
//! Only the prunings that unit propagation on that encoding justifies run ([`PROOF_TUNING`]):
//! a row without a cell, a free column no open row can take, forced moves, branching on rows and
//! columns. The diagonal-sum bounds, the parity and branching on forced diagonals are counting
//! arguments with no short clausal proof, so they are off (their node cost is measured in
//! docs/benchmarks.md, "Certified UNSAT"). The search stays
//! single-threaded: the checker takes the other core.

use std::path::Path;
use std::time::{Duration, Instant};

use super::core::{Core, core_rows};
use super::kernel::{Attacks, Search, Tuning, Words, shape};
use super::trace::{Abort, Failed, Failure, Flow, Fork, Node as At, Outcome, Tracer};
use crate::answer::Answer;
use crate::board::Board;
use crate::certify::lrat::{Lrat, Steps};
use crate::certify::pipeline;
use crate::certify::{Certificate, Cnf};
use crate::cpu::Isa;
use crate::error::{Error, Result};
use crate::interrupt::Cancel;
use crate::presolve::Problem;

/// The prunings of the certified search: those that unit propagation on the pairwise encoding
/// justifies (the diagonal-sum bounds, the parity and the forced-diagonal branching are off).
pub const PROOF_TUNING: Tuning = Tuning {
    sums: false,
    parity: false,
    diagonals: false,
    triples: true,
    // No key sets are used: one word costs nothing past n = 32.
    words: Words::One,
    table: false,
    wide: false,
};

/// Proof words handed to the checker at a time.
const FLUSH_WORDS: usize = 1 << 18;

/// What [`search_certified`] found.
#[derive(Clone, Debug)]
pub struct Certified {
    /// A board (unverified), UNSAT (with `certificate`), or UNKNOWN.
    pub answer: Answer<Board>,
    /// Search nodes visited.
    pub nodes: u64,
    /// For UNSAT: the checked proof.
    pub certificate: Option<Certificate>,
    /// Lemmas written (one per refuted node with more than one child, and the root's).
    pub lemmas: u64,
    /// Hints written (clause ids, over all lemmas): with `lemmas`, the proof's size.
    pub hints: u64,
    /// Seconds the checker spent checking (on its own thread, beside the search).
    pub check_seconds: f64,
    /// Seconds the search took, writing its proof steps (the checker overlapped).
    pub search_seconds: f64,
}

/// Searches `problem` as [`super::search`] does, with [`PROOF_TUNING`], writing an
/// LRAT proof of an UNSAT answer over the problem's pairwise encoding; a checker thread checks
/// it as it comes, and the answer is UNSAT only when the check derived the empty clause (a proof
/// that fails to check is an error). With `proof`, the proof is also written there as text LRAT
/// (for the CNF `encode --amo pairwise` writes for the same instance). A board is returned
/// unverified; UNKNOWN when the time ran out or `cancel` was raised.
///
/// ```
/// use queens_sat::{answer::Answer, instance::Instance, piece::QUEEN, presolve::Problem};
/// use queens_sat::solve::bitboard::proof::search_certified;
/// let p = Problem::presolve(&Instance::plain(3), QUEEN).unwrap();
/// let r = search_certified(&p, None, None, None).unwrap();
/// assert_eq!(r.answer, Answer::Unsat);
/// assert!(r.certificate.unwrap().steps >= 1);
/// ```
pub fn search_certified(
    problem: &Problem,
    timeout: Option<Duration>,
    cancel: Option<&Cancel>,
    proof: Option<&Path>,
) -> Result<Certified> {
    search_certified_within(problem, timeout, cancel, proof, None)
}

/// [`search_certified`] with the proof file's size budget (`None`: the default of
/// [`crate::certify::budget`]).
pub(crate) fn search_certified_within(
    problem: &Problem,
    timeout: Option<Duration>,
    cancel: Option<&Cancel>,
    proof: Option<&Path>,
    budget: Option<u64>,
) -> Result<Certified> {
    let cnf = pairwise(problem)?;
    let stop = cancel.cloned().unwrap_or_default().with_timeout(timeout);
    let (num_vars, formula) = (cnf.vars, &cnf.clauses);
    let (searched, checked) = pipeline::run::<pipeline::LratRoute, _>(
        proof,
        budget,
        || Ok(Lrat::new(num_vars, formula.iter().cloned())?),
        |outlet| {
            // A closed channel: the checker stopped on an error, which is reported instead.
            let send = move |run: Steps| {
                outlet
                    .send(run)
                    .map_err(|_| Error::Internal("the proof checker stopped".into()))
            };
            let t = Instant::now();
            let searched = run(problem, formula, &stop, Box::new(send));
            searched.map(|d| (d, t.elapsed().as_secs_f64()))
        },
    )?;
    let (lrat, check_seconds, written) = (checked.checker, checked.busy, checked.file);
    let (done, search_seconds) = searched?;
    if let Node::Refuted = done.node
        && !lrat.refuted()
    {
        return Err(Error::proof_rejected(
            crate::certify::CheckedFormat::Lrat,
            None,
            "the bitboard search's proof checked but did not derive the empty clause",
        ));
    }
    if let (Node::Refuted, Some(pending)) = (done.node, written) {
        pending.keep()?;
    }
    let (answer, certificate) = match done.node {
        Node::Board => (Answer::Sat(done.board()), None),
        Node::Refuted => (
            Answer::Unsat,
            Some(Certificate {
                checker: format!(
                    "LRAT proof of the bitboard search over the pairwise encoding ({} \
                     lemmas), checked by queens-sat's LRAT checker",
                    done.lemmas
                ),
                steps: lrat.steps(),
            }),
        ),
        Node::Stopped => (
            Answer::Unknown(done.stopped.unwrap_or_else(|| "stopped".into())),
            None,
        ),
    };
    Ok(Certified {
        answer,
        nodes: done.nodes,
        certificate,
        lemmas: done.lemmas,
        hints: done.hints,
        check_seconds,
        search_seconds,
    })
}

/// Whether the certified search takes `problem`: a core of at most 64 open rows (the search
/// takes 128, its proof writer one-word rows).
pub fn certifies(problem: &Problem) -> bool {
    core_rows(problem) <= 64
}

/// The CNF the proofs refute: `problem` encoded with pairwise at-most-one and nothing else
/// (what `encode --amo pairwise` writes). Refuses a problem the search does not take and one
/// that presolve refuted.
pub fn pairwise(problem: &Problem) -> Result<Cnf> {
    shape(problem)?;
    if problem.unsat.is_some() {
        return Err(Error::Usage(
            "the certified bitboard search needs a problem that presolve did not refute".into(),
        ));
    }
    Ok(Cnf::pairwise(problem))
}

#[cfg_attr(not(feature = "oracle"), allow(dead_code))] // for the tests and examples
/// The whole proof of the search on `problem`, unchecked, in memory: `None` when the problem
/// has a board (for tests that hand the proof to another checker, or corrupt it). Small
/// problems only: nothing is streamed.
pub fn proof(problem: &Problem) -> Result<Option<Steps>> {
    let mut all = Steps::new();
    let written = write(problem, None, |run: Steps| {
        all.append(&run);
        Ok(())
    })?;
    Ok(matches!(written.answer, Answer::Unsat).then_some(all))
}

#[cfg_attr(not(feature = "oracle"), allow(dead_code))] // for the tests and examples
/// What [`write()`] did.
#[derive(Clone, Debug)]
pub struct Written {
    /// A board (unverified), UNSAT (the proof is complete, not checked), or UNKNOWN.
    pub answer: Answer<Board>,
    /// Search nodes visited.
    pub nodes: u64,
    /// Lemmas written.
    pub lemmas: u64,
    /// Hints written.
    pub hints: u64,
}

#[cfg_attr(not(feature = "oracle"), allow(dead_code))] // for the tests and examples
/// The proof-writing search alone, each run of steps handed to `send` and not checked: for
/// measuring the cost of writing a proof apart from checking it, and for [`proof`].
pub fn write(
    problem: &Problem,
    timeout: Option<Duration>,
    send: impl FnMut(Steps) -> Result<()>,
) -> Result<Written> {
    let formula = pairwise(problem)?.clauses;
    let stop = Cancel::new().with_timeout(timeout);
    let done = run(problem, &formula, &stop, Box::new(send))?;
    let answer = match done.node {
        Node::Board => Answer::Sat(done.board()),
        Node::Refuted => Answer::Unsat,
        Node::Stopped => Answer::Unknown(done.stopped.clone().unwrap_or_default()),
    };
    Ok(Written {
        answer,
        nodes: done.nodes,
        lemmas: done.lemmas,
        hints: done.hints,
    })
}

/// How [`run`] ended.
struct Done {
    node: Node,
    nodes: u64,
    lemmas: u64,
    hints: u64,
    /// The board of a [`Node::Board`] end: the fixed pieces and the path.
    board: Option<Board>,
    stopped: Option<String>,
}

impl Done {
    /// The board of a [`Node::Board`] end.
    fn board(&self) -> Board {
        self.board.clone().expect("a board end has a board")
    }
}

/// Runs the proof-writing search on `problem` (its pairwise CNF `formula`), handing the proof
/// to `send` in runs of steps.
fn run<'a>(
    problem: &Problem,
    formula: &[Vec<i32>],
    stop: &Cancel,
    send: Box<dyn FnMut(Steps) -> Result<()> + 'a>,
) -> Result<Done> {
    let shape = shape(problem)?;
    let core = Core::<u64>::new(problem).ok_or_else(|| {
        Error::Usage(format!(
            "the certified bitboard search takes cores of at most 64 open rows; this one has {}",
            core_rows(problem)
        ))
    })?;
    let index = Index::new(problem, &core, formula)?;
    let mut s = Search::new(
        shape,
        Isa::current().usable(),
        PROOF_TUNING,
        &core,
        Some(stop),
    );
    let mut prover = Prover {
        attacks: s.attacks(),
        index,
        path: Vec::new(),
        col_of_row: [u8::MAX; 64],
        depth_of_row: [0; 64],
        lits: Vec::new(),
        pend: Vec::new(),
        pend_vars: Vec::new(),
        pend_dels: Vec::new(),
        pend_forward: true,
        hints: Vec::new(),
        hint_vars: Vec::new(),
        dels: Vec::new(),
        mark: vec![0; problem.num_cells() as usize + 1],
        stamp: 0,
        kids: Vec::new(),
        next_id: formula.len() as u64 + 1,
        steps: Steps::new(),
        send,
        lemmas: 0,
        hints_written: 0,
        error: Failed::default(),
    };
    let root = prover.index.root;
    let open: Vec<u8> = (0..core.k()).map(|r| r as u8).collect();
    let outcome = s.trace(&mut prover, &open, &root, core.cols_free);
    if let Some(e) = prover.error.take() {
        return Err(e);
    }
    let node = match outcome {
        Outcome::Refuted(used) => {
            // The root's refutation: the empty clause (it uses no placement).
            debug_assert_eq!(used, 0);
            prover.emit(0)?;
            Node::Refuted
        }
        Outcome::Board => Node::Board,
        Outcome::Stopped => Node::Stopped,
    };
    prover.flush()?;
    let board = matches!(node, Node::Board).then(|| {
        let mut pieces = problem.fixed.clone();
        let path = prover.path.iter();
        pieces.extend(path.map(|&(i, bit)| core.cell(i.into(), bit.into())));
        Board::new(problem.n, pieces)
    });
    Ok(Done {
        node,
        nodes: s.nodes,
        lemmas: prover.lemmas,
        hints: prover.hints_written,
        board,
        stopped: s.stopped,
    })
}

/// Where the hints come from: the formula's clause ids by what they say. Rows and columns are
/// the core's (core rows, column bits).
struct Index {
    n: usize,
    /// Live cells (variables) per core row, as column bits.
    root: [u64; 64],
    /// The variable of cell (r, c) at `r * 64 + c` (0: not live).
    var_of: Vec<u32>,
    /// Variables.
    vars: usize,
    /// The id of the binary clause (-a -b) at `a * (vars + 1) + b` (0: none).
    pair: Vec<u32>,
    /// The at-least-one clause of each row and column (0: none).
    row_alo: [u64; 64],
    col_alo: [u64; 64],
}

impl Index {
    fn new(problem: &Problem, core: &Core<u64>, formula: &[Vec<i32>]) -> Result<Index> {
        let n = core.k();
        let root = core.masks;
        let (mut row_of, mut bit_of) =
            (vec![0u8; problem.n as usize], vec![0u8; problem.n as usize]);
        for (i, &r) in core.rows.iter().enumerate() {
            row_of[r as usize] = i as u8;
        }
        for (bit, &c) in core.col_of_bit.iter().enumerate() {
            if c != u32::MAX {
                bit_of[c as usize] = bit as u8;
            }
        }
        let mut var_of = vec![0u32; 64 * 64];
        let mut cell_of = vec![(0u8, 0u8); problem.num_cells() as usize + 1];
        for (cell, var) in problem.varmap.cells() {
            let (r, c) = (row_of[cell.row as usize], bit_of[cell.col as usize]);
            var_of[r as usize * 64 + c as usize] = var;
            cell_of[var as usize] = (r, c);
        }
        let vars = problem.num_cells() as usize;
        let mut pair = vec![0u32; (vars + 1) * (vars + 1)];
        let (mut row_alo, mut col_alo) = ([0u64; 64], [0u64; 64]);
        let mut col_cells = [0u32; 64];
        for &rm in &root {
            let mut m = rm;
            while m != 0 {
                col_cells[m.trailing_zeros() as usize] += 1;
                m &= m - 1;
            }
        }
        for (k, c) in formula.iter().enumerate() {
            let id = k as u64 + 1;
            match c.as_slice() {
                &[a, b] if a < 0 && b < 0 => {
                    let (a, b) = (a.unsigned_abs() as usize, b.unsigned_abs() as usize);
                    if a <= vars && b <= vars && pair[a * (vars + 1) + b] == 0 {
                        let id = u32::try_from(id)
                            .map_err(|_| Error::TooLarge("over 2^32 clauses".into()))?;
                        pair[a * (vars + 1) + b] = id;
                        pair[b * (vars + 1) + a] = id;
                    }
                }
                lits if !lits.is_empty() && lits.iter().all(|&l| l > 0 && l as usize <= vars) => {
                    let cells: Vec<(u8, u8)> = lits.iter().map(|&l| cell_of[l as usize]).collect();
                    let (r, c) = (cells[0].0 as usize, cells[0].1 as usize);
                    let in_row = cells.iter().all(|x| x.0 as usize == r);
                    let in_col = cells.iter().all(|x| x.1 as usize == c);
                    if in_row && row_alo[r] == 0 && lits.len() == root[r].count_ones() as usize {
                        row_alo[r] = id;
                    } else if in_col && col_alo[c] == 0 && lits.len() == col_cells[c] as usize {
                        col_alo[c] = id;
                    }
                }
                _ => {}
            }
        }
        Ok(Index {
            n,
            root,
            var_of,
            vars,
            pair,
            row_alo,
            col_alo,
        })
    }

    #[inline]
    fn var(&self, r: usize, c: usize) -> u32 {
        self.var_of[r * 64 + c]
    }

    /// The id of the binary clause between cells `a` and `b`.
    #[inline(always)]
    fn pair(&self, a: (usize, usize), b: (usize, usize)) -> Result<u64> {
        let (x, y) = (self.var(a.0, a.1) as usize, self.var(b.0, b.1) as usize);
        match self.pair[x * (self.vars + 1) + y] {
            0 => Err(no_pair(a, b)),
            id => Ok(u64::from(id)),
        }
    }
}

#[cold]
fn no_pair(a: (usize, usize), b: (usize, usize)) -> Error {
    internal(format!(
        "no at-most-one clause between cells {a:?} and {b:?}"
    ))
}

fn internal(why: String) -> Error {
    Error::Internal(format!("the bitboard search's proof: {why}"))
}

/// How the search ended.
#[derive(Clone, Copy, Debug)]
enum Node {
    /// Refuted: the root's lemma, the empty clause, is written.
    Refuted,
    /// A board: the path is its placements.
    Board,
    /// The time limit or cancel.
    Stopped,
}

/// The refutation of a node's only child, pending: its hints are [`Prover::pend`], not yet
/// written as a lemma.
#[derive(Clone, Copy, Debug)]
struct OnlyChild {
    /// Its placements, as a mask of depths.
    used: u64,
    /// The child's row and column.
    row: u8,
    col: u8,
}

/// What a branching node keeps while its children are searched.
struct Frame {
    /// Its refuted children are [`Prover::kids`]`[base..]`.
    base: usize,
    /// Its only child's pending refutation.
    only: Option<OnlyChild>,
}

/// The line a node fails or branches on.
#[derive(Clone, Copy)]
enum Line {
    Row(usize),
    Column(u64),
}

/// A refuted child of an open node, its lemma written.
#[derive(Clone, Copy, Debug)]
struct RefutedChild {
    /// The lemma's id.
    lemma: u64,
    /// The child's row and column.
    row: u8,
    col: u8,
    /// The lemma's placements, as a mask of depths.
    used: u64,
}

/// The LRAT tracer: writes each refuted node's lemma as the search goes.
struct Prover<'s, 'a> {
    /// The search's attack masks.
    attacks: Attacks<'s, u64>,
    index: Index,
    /// The placements (row, column) from the root.
    path: Vec<(u8, u8)>,
    /// The column placed on each row of the path (`u8::MAX`: none).
    col_of_row: [u8; 64],
    /// The depth (index in `path`) of each row's placement.
    depth_of_row: [u8; 64],
    lits: Vec<i32>,
    /// The hints of the pending refutation (the last node refuted), last hint first (a node
    /// puts its own hints after those of its only child), with the variable each binary hint
    /// makes false (0: another kind of hint), and the lemmas to delete once it is written.
    pend: Vec<u64>,
    pend_vars: Vec<u32>,
    pend_dels: Vec<u64>,
    /// Whether `pend` is in checking order instead (nothing inlined: no hint to drop).
    pend_forward: bool,
    /// Scratch for a node's own hints, likewise.
    hints: Vec<u64>,
    hint_vars: Vec<u32>,
    dels: Vec<u64>,
    /// Per variable, the generation (`stamp`, one per lemma written) in which a hint made it
    /// false.
    mark: Vec<u32>,
    stamp: u32,
    /// The refuted children of the open nodes.
    kids: Vec<RefutedChild>,
    next_id: u64,
    steps: Steps,
    /// Where the proof goes, a run of steps at a time.
    send: Box<dyn FnMut(Steps) -> Result<()> + 'a>,
    lemmas: u64,
    hints_written: u64,
    /// Why the tracer gave up ([`Abort`]).
    error: Failed,
}

impl Prover<'_, '_> {
    fn flush(&mut self) -> Result<()> {
        if self.steps.is_empty() {
            return Ok(());
        }
        let next = Steps::starting_after(&self.steps);
        let run = std::mem::replace(&mut self.steps, next);
        (self.send)(run)
    }

    /// Writes the pending refutation as a lemma over the placements `used`, deletes the
    /// lemmas it was the last to name, and returns its id.
    fn emit(&mut self, used: u64) -> Result<u64> {
        self.lits.clear();
        let mut set = used;
        while set != 0 {
            let k = set.trailing_zeros() as usize;
            set &= set - 1;
            let (r, c) = self.path[k];
            self.lits.push(-(self.index.var(r.into(), c.into()) as i32));
        }
        if self.pend_forward {
            std::mem::swap(&mut self.hints, &mut self.pend);
            return self.add();
        }
        // In checking order, but for a binary hint on a cell an earlier hint already made false
        // (where a node's line crosses one below it): a checker refuses a hint already true.
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.mark.fill(0);
            self.stamp = 1;
        }
        self.hints.clear();
        for (&h, &v) in self.pend.iter().zip(&self.pend_vars).rev() {
            if v != 0 {
                if self.mark[v as usize] == self.stamp {
                    continue;
                }
                self.mark[v as usize] = self.stamp;
            }
            self.hints.push(h);
        }
        self.add()
    }

    /// Writes the lemma of `lits` with the hints `hints`, deletes `pend_dels`, and clears the
    /// pending refutation.
    fn add(&mut self) -> Result<u64> {
        let id = self.next_id;
        self.next_id += 1;
        self.lemmas += 1;
        self.hints_written += self.hints.len() as u64;
        self.steps.add(id, &self.lits, &self.hints);
        self.steps.delete(&self.pend_dels);
        self.pend.clear();
        self.pend_vars.clear();
        self.pend_dels.clear();
        self.pend_forward = true;
        if self.steps.words() >= FLUSH_WORDS {
            self.flush()?;
        }
        Ok(id)
    }

    /// The placement (its depth) among `first`, then among the rest of the path, earliest
    /// first, whose piece attacks the cell (r, c): the one a hint names.
    fn attacker(&self, first: u64, r: usize, col: u64) -> Option<usize> {
        let all = (1u64 << self.path.len()) - 1;
        for mut set in [first & all, all & !first] {
            while set != 0 {
                let k = set.trailing_zeros() as usize;
                set &= set - 1;
                let (qr, qc) = self.path[k];
                if self.attacks.hit(1u64 << qc, qr as usize, r) & col != 0 {
                    return Some(k);
                }
            }
        }
        None
    }

    /// Makes the refutation of the node at the end of the path, on `line`, the pending one:
    /// its hints name the children's lemmas `kids[base..]` (to be deleted once it is
    /// written), or are followed by its only child's pending hints (`only`: the child's
    /// placements, row and column; the line's at-least-one clause then makes the child's
    /// placement true), after the at-most-one clauses that rule out the line's other cells.
    /// Returns the placements it uses (a mask of depths): the lemma negates only those.
    fn refute(&mut self, line: Line, base: usize, only: Option<OnlyChild>) -> Result<u64> {
        let depth = self.path.len();
        self.hints.clear();
        self.hint_vars.clear();
        self.dels.clear();
        let mut used = 0u64;
        for k in &self.kids[base..] {
            self.hints.push(k.lemma);
            self.hint_vars.push(0);
            self.dels.push(k.lemma);
            used |= k.used & !(1u64 << depth);
        }
        // The line's cells taken by children (their lemmas, or the only child's placement).
        let kids = &self.kids[base..];
        let only_row = only.map_or(u8::MAX, |o| o.row);
        if let Some(o) = only {
            used |= o.used & !(1u64 << depth);
        }
        let ix = &self.index;
        match line {
            Line::Row(r) => {
                let mut rest = ix.root[r];
                for k in kids {
                    rest &= !(1u64 << k.col);
                }
                if let Some(o) = only {
                    rest &= !(1u64 << o.col);
                }
                // Attackers already used first, then the earliest.
                let all = (1u64 << depth) - 1;
                let first = used;
                for mut set in [first & all, all & !first] {
                    while set != 0 && rest != 0 {
                        let k = set.trailing_zeros() as usize;
                        set &= set - 1;
                        let (qr, qc) = (self.path[k].0 as usize, self.path[k].1 as usize);
                        let mut att = self.attacks.hit(1u64 << qc, qr, r) & rest;
                        if att == 0 {
                            continue;
                        }
                        used |= 1u64 << k;
                        rest &= !att;
                        while att != 0 {
                            let c = att.trailing_zeros() as usize;
                            att &= att - 1;
                            self.hints.push(ix.pair((qr, qc), (r, c))?);
                            self.hint_vars.push(ix.var(r, c));
                        }
                    }
                }
                if rest != 0 {
                    return Err(internal(format!("row {r}: cells {rest:#x} not explained")));
                }
                match ix.row_alo[r] {
                    0 => return Err(internal(format!("row {r} has no at-least-one clause"))),
                    id => self.hints.push(id),
                }
                self.hint_vars.push(0);
            }
            Line::Column(col) => {
                let c = col.trailing_zeros() as usize;
                for r in 0..ix.n {
                    if ix.root[r] & col == 0
                        || r == only_row as usize
                        || kids.iter().any(|k| k.row as usize == r)
                    {
                        continue;
                    }
                    let q = if self.col_of_row[r] != u8::MAX {
                        self.depth_of_row[r] as usize
                    } else {
                        self.attacker(used, r, col)
                            .ok_or_else(|| internal(format!("cell ({r}, {c}) not explained")))?
                    };
                    used |= 1u64 << q;
                    let (qr, qc) = self.path[q];
                    self.hints
                        .push(ix.pair((qr as usize, qc as usize), (r, c))?);
                    self.hint_vars.push(ix.var(r, c));
                }
                match ix.col_alo[c] {
                    0 => return Err(internal(format!("column {c} has no at-least-one clause"))),
                    id => self.hints.push(id),
                }
                self.hint_vars.push(0);
            }
        }
        if only.is_none() {
            // Its own hints alone, in checking order (every child's lemma is written).
            std::mem::swap(&mut self.pend, &mut self.hints);
            std::mem::swap(&mut self.pend_vars, &mut self.hint_vars);
            std::mem::swap(&mut self.pend_dels, &mut self.dels);
            self.pend_forward = true;
        } else {
            // This node's hints go before its only child's: stored last hint first, so that
            // each ancestor adds its own at the end.
            if self.pend_forward {
                self.pend.reverse();
                self.pend_vars.reverse();
                self.pend_forward = false;
            }
            self.pend.extend(self.hints.iter().rev());
            self.pend_vars.extend(self.hint_vars.iter().rev());
            self.pend_dels.extend_from_slice(&self.dels);
        }
        Ok(used)
    }
}

impl Tracer<u64> for Prover<'_, '_> {
    const ON: bool = true;
    /// The placements the refutation uses, as a mask of the path's depths (bit d: the d-th
    /// placement): the lemma negates only those. The refutation is pending: its hints are
    /// [`Prover::pend`], written as a lemma by the parent ([`Prover::emit`]).
    type Refuted = u64;
    type Frame = Frame;

    /// The line a node the search refutes fails on: the first open row without a cell, else
    /// the first free column no open row can take (choosing the line with the fewest live
    /// cells instead saved 0.7 % of the hints and cost 10 % of the time).
    fn failed(&mut self, _: At<'_, u64>, why: Failure<u64>) -> std::result::Result<u64, Abort> {
        let line = match why {
            Failure::Row(r) => Line::Row(r),
            Failure::Column(col) => Line::Column(col),
            Failure::Bound { .. } | Failure::Parity => {
                return self
                    .error
                    .abort(internal("the sum bounds and the parity are off".into()));
            }
        };
        let base = self.kids.len();
        let used = self.refute(line, base, None);
        self.error.or_abort(used)
    }

    fn branch(
        &mut self,
        _: At<'_, u64>,
        fork: Fork<u64>,
        _: bool,
    ) -> std::result::Result<Frame, Abort> {
        if let Fork::Diagonal(_) = fork {
            return self
                .error
                .abort(internal("branching on a diagonal is off".into()));
        }
        Ok(Frame {
            base: self.kids.len(),
            only: None,
        })
    }

    fn place(&mut self, row: usize, bit: u64, _: bool) {
        let col = bit.trailing_zeros() as u8;
        self.depth_of_row[row] = self.path.len() as u8;
        self.path.push((row as u8, col));
        self.col_of_row[row] = col;
    }

    /// A refutation that did not use the child's own placement refutes the node as well: a
    /// backjump, the node's other children are not searched. Else an only child's refutation
    /// stays pending, any other is written as a lemma (while the path still holds the child's
    /// placement) and pushed on `kids`.
    fn child_refuted(
        &mut self,
        frame: &mut Frame,
        used: u64,
        row: usize,
        bit: u64,
        only: bool,
    ) -> std::result::Result<Flow<u64>, Abort> {
        let depth = self.path.len() - 1;
        if used >> depth & 1 == 0 {
            self.dels.clear();
            self.dels
                .extend(self.kids[frame.base..].iter().map(|k| k.lemma));
            self.steps.delete(&self.dels);
            self.kids.truncate(frame.base);
            return Ok(Flow::Backjump(used));
        }
        let (row, col) = (row as u8, bit.trailing_zeros() as u8);
        if only {
            frame.only = Some(OnlyChild { used, row, col });
        } else {
            let lemma = self.emit(used);
            let lemma = self.error.or_abort(lemma)?;
            self.kids.push(RefutedChild {
                lemma,
                row,
                col,
                used,
            });
        }
        Ok(Flow::Next)
    }

    fn unplace(&mut self, row: usize, _: u64) {
        self.path.pop();
        self.col_of_row[row] = u8::MAX;
    }

    fn refuted(
        &mut self,
        _: At<'_, u64>,
        fork: Fork<u64>,
        frame: Frame,
    ) -> std::result::Result<u64, Abort> {
        let line = match fork {
            Fork::Row(r) => Line::Row(r),
            Fork::Column(col) => Line::Column(col),
            Fork::Diagonal(_) => {
                return self
                    .error
                    .abort(internal("branching on a diagonal is off".into()));
            }
        };
        let used = self.refute(line, frame.base, frame.only);
        let used = self.error.or_abort(used)?;
        self.kids.truncate(frame.base);
        Ok(used)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instance::Instance;
    use crate::piece::{AMAZON, QUEEN};

    #[test]
    fn plain_boards_certify_as_the_tables_say() {
        // n = 2, 3 have no queens solution; amazons none for n = 2..9.
        for (n, piece, sat) in [
            (2, QUEEN, false),
            (3, QUEEN, false),
            (4, QUEEN, true),
            (6, QUEEN, true),
            (6, AMAZON, false),
            (9, AMAZON, false),
            (10, AMAZON, true),
        ] {
            let p = Problem::presolve(&Instance::plain(n), piece).unwrap();
            let r = search_certified(&p, None, None, None).unwrap();
            match r.answer {
                Answer::Sat(b) => {
                    assert!(sat, "n = {n}");
                    crate::verify::accept(&b, &p.instance, piece, None, &[]).unwrap();
                }
                Answer::Unsat => {
                    assert!(!sat, "n = {n}");
                    assert!(r.certificate.is_some() && r.lemmas > 0);
                }
                Answer::Unknown(why) => panic!("{why}"),
            }
        }
    }
}
