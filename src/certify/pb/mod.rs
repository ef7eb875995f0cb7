//! VeriPB proofs of UNSAT with the search's sum bounds (issue 46): cutting-planes derivations
//! over the OPB file `encode --to opb` writes for the same instance, checked in process by
//! [`crate::certify::pbcheck`] and, in the tests, by the `veripb` crate and binary.
//!
//! # The proof
//! The OPB input has every open row and free column `= 1` (VeriPB loads each as two
//! constraints, `>=` first), every other rider line with two live cells or more `<= 1`, and a
//! `<= 1` per pair of cells a leap apart (amazons). A search node is the set `P` of pieces
//! placed on its path; its lemma is the clause `sum_{p in P} ~x_p >= 1` (the root's is the empty
//! clause, `>= 1` over nothing). Lemmas are written in post-order, each by one `rup` whose hints
//! name the constraints that propagate, in order, the way the LRAT hints of
//! `crate::solve::bitboard::proof` do, so that the checker never propagates over the whole
//! database:
//! - **an empty line** (an open row or a free column no allowed cell is left on): for each of
//!   its cells the line through which a placed piece attacks it, then the line's `>= 1`;
//! - **a branch** on the cells of a row: the children's lemmas, the attacking lines of the
//!   row's other cells, then the row's `>= 1`; the children's lemmas are deleted after it;
//! - **a sum bound** (the `k` open rows' pieces lie on `k` distinct diagonals of a family, so
//!   their keys sum to at least the `k` smallest reachable keys and at most the `k` largest,
//!   while the rows and columns fix the sum: `sum(open rows) + sum(free columns)` for the sum
//!   diagonals `r + c`): one `pol` step first derives a constraint `C` that is globally valid,
//!   then the `rup` of the lemma propagates the placed pieces' attacks into `C`. For the lower
//!   bound with `s` the `k`-th smallest reachable key and `a_r + b_c` a cell's key:
//!
//!   `C = sum_{open r} a_r (row r <= 1) + sum_{free c} b_c (column c <= 1)
//!        + s * sum_{open r} (row r >= 1) + sum_{reachable keys d < s} (s - d) (diagonal d <= 1)`
//!
//!   Every allowed cell has a coefficient `<= 0` in `C`, the placed pieces none, and `C`'s
//!   degree is `(sum of the k smallest keys) - target`, positive exactly when the bound refutes
//!   the node; the cells with a positive coefficient are attacked, and the hinted lines set them
//!   to 0 first. The upper bound is the mirror image (`>=` and `<=` swapped, the `k` largest).
//!   Both diagonal families use the same step (`a_r = r, b_c = c` for the sum keys,
//!   `a_r = r, b_c = n - 1 - c` for the difference keys `r - c + n - 1`). A row's two terms
//!   are written as the one linear form they make, `(s - a_r) (row r >= 1)` (or
//!   `(a_r - s) (row r <= 1)`), which derives the same `C`.
//!
//! The bitboard search's proofs (`crate::solve::bitboard::pbproof`) name, instead of a
//! dead cell's line, the binary clause `~x_p + ~x_v >= 1` of the piece `p` that attacks it,
//! derived once at the proof's start (`rup` with the line as hint): a hint then propagates
//! two literals instead of a whole line.
//!
//! A `Writer` numbers the steps and hands them to a `Sink`: `Text` writes the proof's text,
//! `PbBatch` (`batch.rs`) keeps the steps in memory for a checker thread (and the text of the
//! same steps, byte for byte, when a proof file is asked for). The files: `mod.rs` the geometry,
//! the `Writer` and the reference search; `text.rs` the text; `batch.rs` the batches;
//! `route.rs` the format's part in the certified run; `parity.rs` the steps of the parity and
//! the forced diagonals (below).
//!
//! The bitboard search (`crate::solve::bitboard::pbproof`) adds two steps, each a `pol`
//! deriving a globally valid `C` (`Writer::parity_pol`, `Writer::forced_pol`) and a `rup`
//! whose hints are the attacks on every cell that is not allowed in an open row or a free
//! column (those cells are 0 under the path; they have no other part in the argument), then
//! `C`. Below, "under the path" is `C` with those cells set to 0. It also inlines the
//! refutation of an only child into its parent's lemma: the child writes no `rup`, its hints
//! follow the parent's, whose line (a row's or column's `>= 1`, or a forced diagonal's `C`)
//! propagates the child's placement first.
//!
//! # The parity
//! A cell's sum key `r + c` and difference key `r - c + n - 1` differ by `2c - n + 1`, so the
//! allowed cells split into a class `E` (even sum key, difference key of the parity of
//! `n - 1`) and a class `O`; every reachable diagonal of either family holds cells of one class.
//! Let `e` (`o`) be the fewer of the two families' reachable diagonals of class `E` (`O`), `k`
//! the open rows, `T = sum(open r) + sum(free c)` the sum keys' target, `l = max(0, k - e)` and
//! `u = min(o, k)`. The `k` pieces take distinct diagonals, so `l <= sum_O x <= u`; their sum
//! keys add up to `T`, so `sum_O x = T (mod 2)`. The parity refutes the node when `l > u`, or
//! `l = u` and `l + T` is odd. With `L = sum_{open r} (row r >= 1) + sum_{E diagonals} (d <= 1)`
//! (`sum_O x >= k - e` under the path; when `l = 0`, `L` is the axioms `x >= 0` of the `O`
//! cells instead) and `U` the `O` diagonals' `<= 1` (`sum_O x <= o`; the open rows' `<= 1` when
//! `o > k`):
//!
//! `C = ((T>= + L) 2 d) 2 * + T<= + U`, with `T>= = sum_{open r} r (row r >= 1) + sum_{free c}
//! c (column c >= 1)` and `T<=` the same over the `<= 1`s.
//!
//! Under the path `T>= + L` is `sum_E key x + sum_O (key + 1) x >= T + l`: even coefficients,
//! an odd degree, so the division by 2 (rounding the degree up) and the doubling give
//! `>= T + l + 1`; `T<=` takes the keys away (`sum_O x >= l + 1`), and `U` (`sum_O x <= u = l`)
//! leaves `0 >= 1`. When `l > u` no division is needed: `C = L + U`. The division is exact
//! under the path only if no literal the path makes true has an odd coefficient before it: the
//! `E` diagonals' cells outside the open rows (their `~x` in `L`) are cancelled by their
//! `x >= 0` in `L`; every other cell that is not allowed is there as `x`, false under the path.
//!
//! # The forced diagonals
//! The search branches on which open row takes a diagonal `f` when the keys without it cannot
//! reach the target: the `k` smallest reachable keys other than `f` overshoot `T` (or there are
//! fewer than `k` of them), or the `k` largest fall short. `C` is the sum bound's constraint
//! (above) over the reachable keys without `f`, with `s` their `k`-th smallest (largest), or
//! past every key and `T` when there are fewer than `k`: `f`'s `<= 1` is left out, so under the
//! path `f`'s allowed cells have the coefficient `s - f > 0` (`f - s`), every other allowed cell
//! one `<= 0`, and the degree is positive: `C` says that `f` holds a piece. The branch lemma's
//! `rup` names the children's lemmas first (each sets one of `f`'s allowed cells to 0), then the
//! attacks, then `C`; the children's lemmas and `C` are deleted after it.
//!
//! `refute` (feature `oracle`, tests only) is the reference search that writes such proofs: rows with the fewest allowed
//! cells first, the empty-line checks, then both families' bounds at every node. It is the
//! spike of issue 46 (proof size and checking speed per step kind, docs/benchmarks.md) and the
//! oracle of the proof tests; the bitboard search logs the same steps.

use std::path::Path;

use crate::board::Cell;
use crate::encode::EncodeOptions;
use crate::error::{Error, Result};
use crate::export::opb::Opb;
use crate::export::{Constraint, ExportFormat, walk_01};
use crate::piece::LineKind;
use crate::presolve::Problem;
// The vocabulary of the steps, shared with the batch codec below and the checker.
pub(crate) use queens_sat_check::vocab::{Lit, Operand, PolOp};

/// Constraint IDs (VeriPB numbering: the OPB file's constraints from 1, an equality as two).
pub(crate) use queens_sat_check::vocab::Id;

mod batch;
mod parity;
mod route;
mod text;
// The batch is public only for the tests that tamper with one (feature `oracle`).
#[cfg(not(feature = "oracle"))]
pub(crate) use batch::{PbBatch, PbStep};
#[cfg(feature = "oracle")]
pub use batch::{PbBatch, PbStep, PbSteps};
pub(crate) use route::{PbCheck, PbRoute};
pub(crate) use text::Text;

/// The geometry of a presolved problem and the VeriPB IDs of its OPB constraints.
pub(crate) struct Geometry {
    n: u32,
    /// The cell of each variable (index `var - 1`).
    cells: Vec<Cell>,
    /// The variables of each row (empty for rows without live cells).
    #[cfg_attr(not(feature = "oracle"), allow(dead_code))] // read by the reference search
    rows: Vec<Vec<u32>>,
    /// The variables of each column.
    #[cfg_attr(not(feature = "oracle"), allow(dead_code))] // read by the reference search
    cols: Vec<Vec<u32>>,
    /// Per row: the IDs of `>= 1` and `<= 1` (rows with live cells).
    pub(crate) row_ids: Vec<Option<(Id, Id)>>,
    /// Per column: the IDs of `>= 1` and `<= 1`.
    pub(crate) col_ids: Vec<Option<(Id, Id)>>,
    /// Per sum key `r + c`: the `<= 1` of the diagonal (two live cells or more).
    anti_ids: Vec<Option<Id>>,
    /// Per difference key `r - c + n - 1`: the `<= 1` of the diagonal.
    diff_ids: Vec<Option<Id>>,
    /// Per sum key, and per difference key: a live cell on the diagonal (the `<= 1` of a
    /// diagonal with one live cell is that cell's literal axiom `~x >= 0`).
    anti_cell: Vec<u32>,
    diff_cell: Vec<u32>,
    /// The leap pairs `(a, b)` (variables, `a < b`) and their `<= 1`, sorted.
    leaps: Vec<(u32, u32, Id)>,
    /// Constraints in the OPB file, equalities counted twice.
    loaded: Id,
}

impl Geometry {
    /// The geometry of `problem` (presolved, not refuted by presolve; queens or amazons).
    pub(crate) fn new(problem: &Problem) -> Result<Geometry> {
        if problem.unsat.is_some() {
            return Err(Error::Usage(
                "a VeriPB proof needs a problem presolve did not refute".into(),
            ));
        }
        let n = problem.n;
        let mut cells = vec![Cell { row: 0, col: 0 }; problem.num_cells() as usize];
        let (mut rows, mut cols) = (vec![Vec::new(); n as usize], vec![Vec::new(); n as usize]);
        let (mut anti_cell, mut diff_cell) = (vec![0; 2 * n as usize], vec![0; 2 * n as usize]);
        for (cell, var) in problem.varmap.cells() {
            cells[var as usize - 1] = cell;
            rows[cell.row as usize].push(var);
            anti_cell[(cell.row + cell.col) as usize] = var;
            diff_cell[(cell.row + n - 1 - cell.col) as usize] = var;
            cols[cell.col as usize].push(var);
        }
        let mut g = Geometry {
            n,
            cells,
            rows,
            cols,
            row_ids: vec![None; n as usize],
            col_ids: vec![None; n as usize],
            anti_ids: vec![None; 2 * n as usize],
            diff_ids: vec![None; 2 * n as usize],
            anti_cell,
            diff_cell,
            leaps: Vec::new(),
            loaded: 0,
        };
        let mut next: Id = 1;
        let mut bad = None;
        walk_01(problem, &|| false, |c| match c {
            Constraint::Unit { .. } => {
                bad = Some("a unit");
                next += 2;
            }
            Constraint::Line {
                kind,
                key,
                exactly_one,
                ..
            } => {
                let k = key as usize;
                match (kind, exactly_one) {
                    (LineKind::Row, true) => g.row_ids[k] = Some((next, next + 1)),
                    (LineKind::Column, true) => g.col_ids[k] = Some((next, next + 1)),
                    (LineKind::AntiDiagonal, false) => g.anti_ids[k] = Some(next),
                    (LineKind::Diagonal, false) => g.diff_ids[k] = Some(next),
                    _ => bad = Some("a line of another kind"),
                }
                next += if exactly_one { 2 } else { 1 };
            }
            Constraint::Leap { a, b, .. } => {
                g.leaps.push((a.min(b), a.max(b), next));
                next += 1;
            }
        });
        if let Some(what) = bad {
            return Err(Error::Usage(format!(
                "a VeriPB proof needs a presolved queen or amazon problem ({what} in its model)"
            )));
        }
        g.leaps.sort_unstable();
        g.loaded = next - 1;
        Ok(g)
    }

    /// The constraints the model loads (equalities twice): the IDs `1..=loaded`.
    pub(crate) fn loaded(&self) -> Id {
        self.loaded
    }

    /// The model's variables (`x1..=x{num_vars}`, one per live cell).
    pub(crate) fn num_vars(&self) -> usize {
        self.cells.len()
    }

    /// The cell of variable `var`.
    pub(crate) fn cell(&self, var: u32) -> Cell {
        self.cells[var as usize - 1]
    }

    /// The `<= 1` through which the piece on `p` attacks the cell of `v`, if it does.
    pub(crate) fn attack(&self, p: u32, v: u32) -> Option<Id> {
        let (a, b) = (self.cell(p), self.cell(v));
        if a.row == b.row {
            return self.row_ids[a.row as usize].map(|(_, le)| le);
        }
        if a.col == b.col {
            return self.col_ids[a.col as usize].map(|(_, le)| le);
        }
        if a.row + a.col == b.row + b.col {
            return self.anti_ids[(a.row + a.col) as usize];
        }
        if a.row + b.col == b.row + a.col {
            return self.diff_ids[(a.row + self.n - 1 - a.col) as usize];
        }
        let (lo, hi) = (p.min(v), p.max(v));
        self.leaps
            .binary_search_by(|&(x, y, _)| (x, y).cmp(&(lo, hi)))
            .ok()
            .map(|i| self.leaps[i].2)
    }
}

/// Step counts of a proof, per kind (for the spike's figures and the tests).
#[cfg_attr(
    not(feature = "oracle"),
    visibility::make(pub(crate)),
    allow(dead_code)
)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProofStats {
    /// Search nodes.
    pub nodes: u64,
    /// Lemmas of nodes refuted by an empty row or column (`rup`).
    pub empty: u64,
    /// Lemmas of nodes refuted by a sum bound (a `pol` and a `rup` each).
    pub bounds: u64,
    /// Lemmas of branching nodes (`rup` over the children's lemmas).
    pub branches: u64,
    /// Lemmas of nodes refuted by the cross-kind parity (a `pol` with a division and a `rup`
    /// each; the bitboard search only).
    pub parity: u64,
    /// Lemmas of nodes that branch on a forced diagonal (a `pol` and a `rup` over the
    /// children's lemmas each; the bitboard search only).
    pub diagonals: u64,
    /// Refutations of only children (forced moves) inlined into their parent's lemma: counted
    /// by kind above, but no `rup` of their own (the bitboard search only).
    pub inlined: u64,
    /// Binary clauses `~x_p + ~x_v >= 1` of attacking pairs derived at the proof's start (a
    /// `rup` each; the bitboard search only).
    pub pairs: u64,
    /// Hints written, over all `rup` steps.
    pub hints: u64,
    /// Constraints combined, over all `pol` steps.
    pub pol_terms: u64,
    /// Bytes of proof written.
    pub bytes: u64,
}

impl ProofStats {
    /// The lemmas written (`rup` steps): the refutations of every kind but the inlined ones.
    pub fn lemmas(&self) -> u64 {
        (self.empty + self.bounds + self.parity + self.branches + self.diagonals)
            .saturating_sub(self.inlined)
    }
}

/// Where a [`Writer`]'s steps go: the proof's text ([`Text`]) or compact in-memory batches
/// ([`PbBatch`]) that a checker takes without lexing. The writer numbers the constraints; a
/// sink only records the steps, in order.
pub(crate) trait Sink {
    /// The proof's start: the header and `f loaded ;`.
    fn header(&mut self, loaded: Id);
    /// `rup` of the lemma `sum_{p in path} ~x_p >= 1` with `hints`.
    fn rup(&mut self, path: &[u32], hints: &[Id]);
    /// `pol` of the sum of `mult * operand` over `ops` (every `mult >= 1`), in order.
    fn pol(&mut self, ops: &[(Operand, i64)]);
    /// `pol` of `ops` in reverse Polish order, with multiplications and divisions (the
    /// parity's and the forced diagonals' steps).
    fn pol_rpn(&mut self, ops: &[PolOp]);
    /// `del id` of `ids` (not empty).
    fn delete(&mut self, ids: &[Id]);
    /// The proof's end: `conclusion UNSAT` on `unsat`, or `conclusion NONE`.
    fn finish(&mut self, unsat: Option<Id>);
    /// Bytes of text written so far (0 for a sink that writes no text).
    fn bytes(&self) -> u64 {
        0
    }
}

/// The proof writer (and the reference search): numbers the constraints and counts the steps,
/// and hands every step to its [`Sink`].
pub(crate) struct Writer<'a, S: Sink> {
    g: &'a Geometry,
    out: S,
    next: Id,
    /// What the proof holds so far (`bytes`: see [`Writer::stats`]).
    pub(crate) stats: ProofStats,
    /// Scratch for the operands of a `pol` step.
    ops: Vec<(Operand, i64)>,
    /// Scratch for the keys of a bound (`key_bits`: those of the last bound, as a bit set).
    keys: Vec<i64>,
    key_bits: Vec<u64>,
    /// The last bound derived.
    bound: Option<LastBound>,
    /// Whether the reference search may refute a node by a sum bound.
    #[cfg_attr(not(feature = "oracle"), allow(dead_code))] // read by the reference search
    sums: bool,
}

/// The last bound [`Writer::bound_pol`] derived.
#[derive(Clone, Copy, Debug)]
struct LastBound {
    /// Its family: the sum keys (`r + c`) when true, the difference keys otherwise.
    anti: bool,
    /// Whether it is the lower bound.
    lower: bool,
    /// The sum it bounds.
    s: i64,
}

/// The result of `refute` (the reference search, feature `oracle`).
#[cfg(feature = "oracle")]
#[derive(Clone, Debug)]
pub struct Refutation {
    /// A board (unverified) or UNSAT; the proof concludes UNSAT only for UNSAT.
    pub answer: crate::answer::Answer<crate::board::Board>,
    /// What the proof holds.
    pub stats: ProofStats,
}

/// Writes `problem`'s OPB model to `opb`, as `encode --to opb` does: the input the proofs
/// refer to.
pub(crate) fn write_opb(problem: &Problem, opb: &Path) -> Result<()> {
    let name = opb.display().to_string();
    let file = std::fs::File::create(opb).map_err(|e| Error::io(&name, e))?;
    let (w, _) = Opb::write(
        std::io::BufWriter::new(file),
        problem,
        EncodeOptions::from(crate::encode::amo::AmoKind::DEFAULT),
        None,
    )?;
    w.into_inner()
        .map_err(|e| Error::io(&name, e.into_error()))?;
    Ok(())
}

/// Writes `problem`'s OPB model to `opb` (as `encode --to opb`) and searches it, writing a
/// VeriPB proof of an UNSAT answer to `proof` (with `sums`, the sum bounds refute nodes; without,
/// only empty lines do). For SAT the proof ends `conclusion NONE`. The reference search of the
/// proof format, for boards up to a few dozen rows.
///
/// ```
/// use queens_sat::{answer::Answer, instance::Instance, piece::QUEEN, presolve::Problem};
/// let dir = tempfile::tempdir().unwrap();
/// let (opb, pbp) = (dir.path().join("q3.opb"), dir.path().join("q3.pbp"));
/// let p = Problem::presolve(&Instance::plain(3), QUEEN).unwrap();
/// let r = queens_sat::certify::pb::refute(&p, &opb, &pbp, true).unwrap();
/// assert_eq!(r.answer, Answer::Unsat);
/// assert!(std::fs::read_to_string(&pbp).unwrap().contains("conclusion UNSAT"));
/// ```
///
/// A test oracle: compiled only with the feature `oracle`, which the tests and examples turn
/// on (never the program or the Python module).
#[cfg(feature = "oracle")]
pub fn refute(problem: &Problem, opb: &Path, proof: &Path, sums: bool) -> Result<Refutation> {
    use crate::answer::Answer;
    use crate::board::Board;
    let g = Geometry::new(problem)?;
    write_opb(problem, opb)?;
    let pname = proof.display().to_string();
    let file = std::fs::File::create(proof).map_err(|e| Error::io(&pname, e))?;
    let out = Text::new(std::io::BufWriter::with_capacity(1 << 20, file));
    let mut wr = Writer::start(&g, out, sums);
    // Index 0 is no variable.
    let mut allowed = vec![true; g.cells.len() + 1];
    allowed[0] = false;
    let mut path = Vec::new();
    let root = wr.node(&mut path, &allowed);
    let stats = wr.stats();
    let answer = match root {
        Some(_) => Answer::Unsat,
        None => {
            let mut pieces = problem.fixed.clone();
            pieces.extend(path.iter().map(|&v| g.cell(v)));
            Answer::Sat(Board::new(problem.n, pieces))
        }
    };
    let mut text = wr.finish(root);
    if let Some(e) = text.take_error() {
        return Err(Error::io(&pname, e));
    }
    text.into_inner()
        .into_inner()
        .map_err(|e| Error::io(&pname, e.into_error()))?;
    Ok(Refutation { answer, stats })
}

impl<'a, S: Sink> Writer<'a, S> {
    /// A proof of `g`'s model into `out`, its header written; `sums`: bound steps allowed.
    pub(crate) fn start(g: &'a Geometry, mut out: S, sums: bool) -> Writer<'a, S> {
        out.header(g.loaded);
        Writer {
            g,
            out,
            next: g.loaded + 1,
            stats: ProofStats::default(),
            ops: Vec::new(),
            keys: Vec::new(),
            key_bits: Vec::new(),
            bound: None,
            sums,
        }
    }

    /// Ends the proof: `conclusion UNSAT` on the contradiction `id`, or with `None` no
    /// conclusion; returns the sink.
    pub(crate) fn finish(mut self, unsat: Option<Id>) -> S {
        self.out.finish(unsat);
        self.out
    }

    /// What the proof holds so far, with the bytes of text its sink wrote.
    pub(crate) fn stats(&self) -> ProofStats {
        ProofStats {
            bytes: self.out.bytes(),
            ..self.stats
        }
    }

    /// The geometry the proof is over.
    pub(crate) fn geometry(&self) -> &'a Geometry {
        self.g
    }

    /// The ID the next derived constraint gets.
    pub(crate) fn next_id(&self) -> Id {
        self.next
    }

    /// Deletes the constraints `ids` (lemmas no longer needed).
    pub(crate) fn delete(&mut self, ids: &[Id]) {
        if !ids.is_empty() {
            self.out.delete(ids);
        }
    }

    /// `pol` of the sum of `mult * operand` over `ops` (every `mult >= 1`); returns the ID of
    /// the constraint it derives.
    pub(crate) fn pol(&mut self, ops: &[(Operand, i64)]) -> Id {
        self.out.pol(ops);
        self.stats.pol_terms += ops.len() as u64;
        self.next += 1;
        self.next - 1
    }

    /// `rup` of the lemma of `path` with `hints`; returns its ID.
    pub(crate) fn rup(&mut self, path: &[u32], hints: &[Id]) -> Id {
        self.out.rup(path, hints);
        self.stats.hints += hints.len() as u64;
        self.next += 1;
        self.next - 1
    }

    /// For each of `vars` (not allowed), the line through which a piece of `path` attacks it,
    /// into `hints` (no repeats).
    #[cfg_attr(not(feature = "oracle"), allow(dead_code))] // read by the reference search
    pub(crate) fn attacks(
        &self,
        path: &[u32],
        vars: impl Iterator<Item = u32>,
        hints: &mut Vec<Id>,
    ) {
        for v in vars {
            let id = path
                .iter()
                .find_map(|&p| self.g.attack(p, v))
                .expect("a cell that is not allowed is attacked by a placed piece");
            if !hints.contains(&id) {
                hints.push(id);
            }
        }
    }

    /// Searches the node of `path` (placed variables) with the allowed cells `allowed`; `None`
    /// when it found a solution (left in `path`), else the ID of the node's lemma. The
    /// reference search of `refute` (feature `oracle`).
    #[cfg(feature = "oracle")]
    fn node(&mut self, path: &mut Vec<u32>, allowed: &[bool]) -> Option<Id> {
        self.stats.nodes += 1;
        let g = self.g;
        let n = g.n as usize;
        let placed_rows: Vec<bool> = {
            let mut v = vec![false; n];
            for &p in path.iter() {
                v[g.cell(p).row as usize] = true;
            }
            v
        };
        let placed_cols: Vec<bool> = {
            let mut v = vec![false; n];
            for &p in path.iter() {
                v[g.cell(p).col as usize] = true;
            }
            v
        };
        let open: Vec<usize> = (0..n)
            .filter(|&r| !g.rows[r].is_empty() && !placed_rows[r])
            .collect();
        let free: Vec<usize> = (0..n)
            .filter(|&c| !g.cols[c].is_empty() && !placed_cols[c])
            .collect();
        // Empty lines.
        for (is_row, lines) in [(true, &open), (false, &free)] {
            for &l in lines.iter() {
                let vars = if is_row { &g.rows[l] } else { &g.cols[l] };
                if vars.iter().all(|&v| !allowed[v as usize]) {
                    let mut hints = Vec::new();
                    self.attacks(path, vars.iter().copied(), &mut hints);
                    let ge = if is_row { g.row_ids[l] } else { g.col_ids[l] };
                    hints.push(ge.expect("an open line is `= 1`").0);
                    self.stats.empty += 1;
                    return Some(self.rup(path, &hints));
                }
            }
        }
        if open.is_empty() {
            return None;
        }
        // The sum bounds, both families.
        if self.sums {
            for anti in [true, false] {
                if let Some(id) = self.bound(path, allowed, &open, &free, anti) {
                    self.stats.bounds += 1;
                    return Some(id);
                }
            }
        }
        // Branch on the row with the fewest allowed cells.
        let r = *open
            .iter()
            .min_by_key(|&&r| g.rows[r].iter().filter(|&&v| allowed[v as usize]).count())
            .expect("open rows");
        let mut children = Vec::new();
        for &v in &g.rows[r] {
            if !allowed[v as usize] {
                continue;
            }
            let mut next = allowed.to_vec();
            for (w, a) in next.iter_mut().enumerate().skip(1) {
                if *a && (w as u32 == v || g.attack(v, w as u32).is_some()) {
                    *a = false;
                }
            }
            path.push(v);
            match self.node(path, &next) {
                None => return None,
                Some(id) => children.push(id),
            }
            path.pop();
        }
        let mut hints = children.clone();
        self.attacks(
            path,
            g.rows[r].iter().copied().filter(|&v| !allowed[v as usize]),
            &mut hints,
        );
        hints.push(g.row_ids[r].expect("an open row is `= 1`").0);
        self.stats.branches += 1;
        let id = self.rup(path, &hints);
        self.delete(&children);
        Some(id)
    }

    /// The sum bound of one family at the node, when it refutes it: writes the `pol` and the
    /// `rup` and returns the lemma's ID.
    #[cfg_attr(not(feature = "oracle"), allow(dead_code))] // read by the reference search
    pub(crate) fn bound(
        &mut self,
        path: &[u32],
        allowed: &[bool],
        open: &[usize],
        free: &[usize],
        anti: bool,
    ) -> Option<Id> {
        let g = self.g;
        let cells = (1..allowed.len())
            .filter(|&v| allowed[v])
            .map(|v| g.cell(v as u32));
        let c_id = self.bound_pol(cells, open, free, anti)?;
        // rup: the attacks on the cells with a positive coefficient in C, then C. Those are
        // cells of open rows that are not allowed (lower) and, for the upper bound, the cells
        // of closed rows in free columns too: every cell that is not allowed and lies in an
        // open row or a free column, to keep it simple.
        let mut is_open = vec![false; g.n as usize];
        for &r in open {
            is_open[r] = true;
        }
        let mut is_free = vec![false; g.n as usize];
        for &c in free {
            is_free[c] = true;
        }
        let mut hints = Vec::new();
        let cand: Vec<u32> = (1..allowed.len() as u32)
            .filter(|&v| {
                let cell = g.cell(v);
                !allowed[v as usize]
                    && !path.contains(&v)
                    && (is_open[cell.row as usize] || is_free[cell.col as usize])
            })
            .collect();
        self.attacks(path, cand.into_iter(), &mut hints);
        hints.push(c_id);
        let id = self.rup(path, &hints);
        self.delete(&[c_id]);
        Some(id)
    }

    /// The `pol` step of a sum bound of one family (`anti`: the sum diagonals) at a node whose
    /// allowed cells are `allowed`, open rows `open` and free columns `free`, when the bound
    /// refutes the node: writes it and returns the ID of the constraint `C` it derives (see the
    /// module docs), which a `rup` of the node's lemma then names after the lines that attack
    /// every cell that is not allowed in an open row or a free column (and is not placed).
    pub(crate) fn bound_pol(
        &mut self,
        allowed: impl Iterator<Item = Cell>,
        open: &[usize],
        free: &[usize],
        anti: bool,
    ) -> Option<Id> {
        let g = self.g;
        let n = g.n as i64;
        let a = |r: usize| r as i64;
        let b = |c: usize| if anti { c as i64 } else { n - 1 - c as i64 };
        let key = |cell: Cell| a(cell.row as usize) + b(cell.col as usize);
        let target: i64 =
            open.iter().map(|&r| a(r)).sum::<i64>() + free.iter().map(|&c| b(c)).sum::<i64>();
        // The reachable keys, sorted without repeats (they lie in `0..2n`: a bit set).
        let mut bits = std::mem::take(&mut self.key_bits);
        bits.clear();
        bits.resize((2 * g.n as usize).div_ceil(64).max(1), 0);
        for cell in allowed {
            let d = key(cell) as usize;
            bits[d / 64] |= 1 << (d % 64);
        }
        let mut keys = std::mem::take(&mut self.keys);
        keys.clear();
        for (w, &word) in bits.iter().enumerate() {
            let mut m = word;
            while m != 0 {
                keys.push((w * 64) as i64 + i64::from(m.trailing_zeros()));
                m &= m - 1;
            }
        }
        self.key_bits = bits;
        let found = self.bound_of(&keys, open, free, anti, target);
        self.keys = keys;
        found
    }

    /// [`Writer::bound_pol`] once the reachable keys `keys` (sorted, no repeats) and the
    /// target are known.
    fn bound_of(
        &mut self,
        keys: &[i64],
        open: &[usize],
        free: &[usize],
        anti: bool,
        target: i64,
    ) -> Option<Id> {
        let g = self.g;
        let n = g.n as i64;
        let a = |r: usize| r as i64;
        let b = |c: usize| if anti { c as i64 } else { n - 1 - c as i64 };
        let k = open.len();
        // The lower bound with `s` the k-th smallest key, the upper with the k-th largest; with
        // fewer reachable keys than open rows (k pieces on fewer diagonals), the lower bound
        // with `s` past every key and the target: its degree is `s (k - |K|) + sum(K) - target`.
        let (lower, s) = if keys.len() < k {
            let sum: i64 = keys.iter().sum();
            let past = keys.last().map_or(0, |&m| m + 1);
            (true, past.max(target - sum + 1))
        } else {
            let low: i64 = keys[..k].iter().sum();
            let high: i64 = keys[keys.len() - k..].iter().sum();
            if low > target {
                (true, keys[k - 1])
            } else if high < target {
                (false, keys[keys.len() - k])
            } else {
                return None;
            }
        };
        // A diagonal's `<= 1`: its constraint, or with one live cell that cell's `~x >= 0`.
        let amo = |key: i64| {
            let k = key as usize;
            let (id, cell) = if anti {
                (g.anti_ids[k], g.anti_cell[k])
            } else {
                (g.diff_ids[k], g.diff_cell[k])
            };
            id.map_or(Operand::Axiom(Lit::neg(cell)), Operand::Id)
        };
        // pol: the rows' and columns' weighted identity, s times the rows, the diagonals.
        let mut ops = std::mem::take(&mut self.ops);
        ops.clear();
        let mut add = |op: Operand, mult: i64| {
            if mult != 0 {
                ops.push((op, mult));
            }
        };
        for &r in open {
            let (ge, le) = g.row_ids[r].expect("open row");
            // Lower: a_r (row <= 1) + s (row >= 1); upper: a_r (row >= 1) + s (row <= 1).
            // Both are the same line: `a_r (row <= 1) + s (row >= 1)` is the linear form
            // `(s - a_r) (row >= 1)`, written as one term (the mirror image for the upper).
            let m = if lower { s - a(r) } else { a(r) - s };
            if m >= 0 {
                add(Operand::Id(ge), m);
            } else {
                add(Operand::Id(le), -m);
            }
        }
        for &c in free {
            let (ge, le) = g.col_ids[c].expect("free column");
            add(Operand::Id(if lower { le } else { ge }), b(c));
        }
        for &d in keys {
            let gap = if lower { s - d } else { d - s };
            if gap > 0 {
                add(amo(d), gap);
            }
        }
        let c_id = self.pol(&ops);
        self.ops = ops;
        self.bound = Some(LastBound { anti, lower, s });
        Some(c_id)
    }

    /// The last bound [`Writer::bound_pol`] or [`Writer::forced_pol`] derived (`None` before
    /// any; a forced diagonal's is the bound over the keys without it): what
    /// [`BoundCoefs::coef`] needs, with the bit set of its reachable keys.
    pub(crate) fn last_bound(&self) -> Option<(BoundCoefs, &[u64])> {
        let LastBound { anti, lower, s } = self.bound?;
        let n = i64::from(self.g.n);
        Some((BoundCoefs { anti, lower, s, n }, &self.key_bits))
    }
}

/// A bound's `C` as far as its cells' coefficients go ([`Writer::last_bound`]): the family
/// (`anti`), lower or upper, `s`, and the board's `n`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BoundCoefs {
    anti: bool,
    lower: bool,
    s: i64,
    n: i64,
}

impl BoundCoefs {
    /// Whether it is a lower bound: then no cell of a closed row has a positive coefficient.
    pub(crate) fn is_lower(&self) -> bool {
        self.lower
    }

    /// The coefficient of the cell `(row, col)` (board coordinates; `open`: its row is open,
    /// `free`: its column is free) in `C`, over the positive literal, `keys` the bit set of
    /// the bound's reachable keys: the cells the lemma's `rup` must set to 0 first are those
    /// with a positive one.
    #[inline]
    pub(crate) fn coef(&self, keys: &[u64], row: u32, col: u32, open: bool, free: bool) -> i64 {
        let (s, a) = (self.s, i64::from(row));
        let b = if self.anti {
            i64::from(col)
        } else {
            self.n - 1 - i64::from(col)
        };
        let d = a + b;
        let reached = usize::try_from(d)
            .ok()
            .and_then(|d| keys.get(d / 64).map(|w| w >> (d % 64) & 1 == 1))
            .unwrap_or(false);
        if self.lower {
            // (s - a_r)(row >= 1) - b_c (column <= 1) - (s - d)(diagonal d <= 1), over x.
            let diag = if reached && d < s { s - d } else { 0 };
            i64::from(open) * (s - a) - i64::from(free) * b - diag
        } else {
            let diag = if reached && d > s { d - s } else { 0 };
            i64::from(open) * (a - s) + i64::from(free) * b - diag
        }
    }
}

/// The constraints of `problem`'s OPB model as `encode --to opb` writes it (the text parsed
/// back, so that a checker loads exactly the file's constraints): the highest variable and the
/// constraints, in order.
pub(crate) fn model(
    problem: &Problem,
) -> Result<(u32, Vec<crate::certify::pbcheck::PbConstraint>)> {
    let (w, _) = Opb::write(
        Vec::new(),
        problem,
        EncodeOptions::from(crate::encode::amo::AmoKind::DEFAULT),
        None,
    )?;
    let text =
        String::from_utf8(w).map_err(|_| Error::Internal("an OPB model not in UTF-8".into()))?;
    Ok(crate::certify::pbcheck::parse_opb(&text, "the OPB model")?)
}
