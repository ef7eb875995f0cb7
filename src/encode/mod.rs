//! The encoder: walks a [`Problem`] and streams its clauses into a [`ClauseSink`].
//!
//! - every required line (rows and columns) gets an at-least-one clause plus AMO;
//! - every other rider line (diagonals) with two or more live cells gets AMO;
//! - every pair of live cells a leap apart gets a binary clause;
//! - without presolve, unit clauses fix pre-placed pieces and unavailable cells.
//!
//! Cell variables are `1..=L`; auxiliary variables are allocated after them, in emission order.
//! [`Encoder::stats`] computes the exact counts from the AMO cost formulas without emitting, so
//! a DIMACS header can be written before the clauses are streamed.

pub mod amo;
pub mod dimacs;
pub mod implied;
pub mod lex;
mod sink;
pub mod symmetric;
pub mod text;

pub use sink::{ClauseSink, StatsSink};
gated!(feature = "oracle" => use sink::VecSink;);

use crate::board::Cell;
use crate::error::{Error, Result};
use crate::piece::LineKind;
use crate::presolve::{MAX_VARS, Problem};
use crate::symmetry::Symmetry;
use amo::AmoKind;

/// A DIMACS literal: a non-zero `i32`, negative for negation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Lit(i32);

impl Lit {
    /// The positive literal of variable `var` (>= 1).
    #[inline]
    pub fn pos(var: u32) -> Lit {
        debug_assert!(var >= 1 && var as u64 <= MAX_VARS);
        Lit(var as i32)
    }

    /// The negative literal of variable `var` (>= 1).
    #[inline]
    pub fn neg(var: u32) -> Lit {
        Lit(-(var as i32))
    }

    /// From a non-zero DIMACS integer.
    #[inline]
    pub fn from_dimacs(x: i32) -> Lit {
        debug_assert!(x != 0);
        Lit(x)
    }

    /// The DIMACS integer.
    #[inline]
    pub fn to_dimacs(self) -> i32 {
        self.0
    }

    /// The variable (>= 1).
    #[inline]
    pub fn var(self) -> u32 {
        self.0.unsigned_abs()
    }

    /// True for a positive literal.
    #[inline]
    pub fn is_positive(self) -> bool {
        self.0 > 0
    }
}

impl std::ops::Not for Lit {
    type Output = Lit;
    #[inline]
    fn not(self) -> Lit {
        Lit(-self.0)
    }
}

/// Allocates auxiliary variables after the ones already in use.
#[derive(Clone, Debug)]
pub struct VarAlloc {
    used: u32,
}

impl VarAlloc {
    /// Variables `1..=used` are taken.
    pub fn new(used: u32) -> VarAlloc {
        VarAlloc { used }
    }

    /// A fresh variable.
    #[inline]
    pub fn fresh(&mut self) -> u32 {
        self.used += 1;
        self.used
    }

    /// `n` fresh consecutive variables; returns the first (the others follow it). For `n = 0`
    /// nothing is allocated and the next free variable is returned.
    #[inline]
    pub fn fresh_block(&mut self, n: u32) -> u32 {
        let first = self.used + 1;
        self.used += n;
        first
    }

    /// Number of variables in use.
    pub fn count(&self) -> u32 {
        self.used
    }
}

/// Size of a CNF.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Stats {
    /// Variables (cells plus auxiliaries).
    pub vars: u64,
    /// Clauses.
    pub clauses: u64,
    /// Literal occurrences.
    pub literals: u64,
}

/// How to encode: the AMO encoding and an optional symmetry the models must be invariant under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EncodeOptions {
    /// The at-most-one encoding used on every line.
    pub amo: AmoKind,
    /// `--symmetric`: only boards this element maps to themselves.
    pub symmetric: Option<Symmetry>,
    /// `--break-symmetry lex`: keep one board per class under this group (lex-leader).
    pub lex_leader: lex::SymmetrySet,
    /// `--implied`: redundant constraints every solution satisfies ([`implied`]).
    pub implied: implied::Implied,
}

impl From<AmoKind> for EncodeOptions {
    fn from(amo: AmoKind) -> EncodeOptions {
        EncodeOptions {
            amo,
            symmetric: None,
            lex_leader: lex::SymmetrySet::default(),
            implied: implied::Implied::None,
        }
    }
}

impl EncodeOptions {
    /// The one acceptance check of an answered board ([`crate::verify::accept`]): the instance,
    /// and what these options demanded besides (`--symmetric`, the lex-leader group).
    pub fn accept(
        &self,
        board: &crate::board::Board,
        instance: &crate::instance::Instance,
        piece: crate::piece::Piece,
    ) -> std::result::Result<(), String> {
        let lex: Vec<Symmetry> = self.lex_leader.elements().collect();
        crate::verify::accept(board, instance, piece, self.symmetric, &lex)
    }
}

/// Encodes one [`Problem`] with one AMO encoding.
///
/// ```
/// use queens_sat::{encode::{Encoder, StatsSink, amo::AmoKind}, instance::Instance,
///                  piece::QUEEN, presolve::Problem};
/// let p = Problem::presolve(&Instance::plain(8), QUEEN).unwrap();
/// let enc = Encoder::new(&p, AmoKind::Pairwise);
/// let mut sink = StatsSink::default();
/// let stats = enc.encode(&mut sink);
/// assert_eq!(stats, enc.stats().unwrap());
/// assert_eq!(stats.vars, 64);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Encoder<'a> {
    problem: &'a Problem,
    amo: AmoKind,
    symmetric: Option<Symmetry>,
    lex_leader: lex::SymmetrySet,
    implied: implied::Implied,
    /// Stop counting ([`Encoder::stats`]) when this token stops.
    stop: Option<&'a crate::interrupt::Cancel>,
}

impl<'a> Encoder<'a> {
    /// An encoder for `problem` using `amo` on every line.
    pub fn new(problem: &'a Problem, amo: AmoKind) -> Encoder<'a> {
        Encoder {
            problem,
            amo,
            symmetric: None,
            lex_leader: lex::SymmetrySet::default(),
            implied: implied::Implied::None,
            stop: None,
        }
    }

    /// Makes [`Encoder::stats`] stop when `cancel` stops (raised, or its deadline passed), with
    /// [`Error::Interrupted`]: counting a big board that is not plain walks all its live cells.
    pub fn until(mut self, cancel: &'a crate::interrupt::Cancel) -> Encoder<'a> {
        self.stop = Some(cancel);
        self
    }

    fn stopped(&self) -> bool {
        self.stop.is_some_and(|c| c.is_stopped())
    }

    /// An encoder for `problem` with `options`.
    pub fn with_options(problem: &'a Problem, options: EncodeOptions) -> Encoder<'a> {
        let mut e = Encoder::new(problem, options.amo).with_symmetry(options.symmetric);
        e.lex_leader = options.lex_leader;
        e.implied = options.implied;
        e
    }

    /// The implied constraints emitted ([`implied`]).
    pub fn implied(&self) -> implied::Implied {
        self.implied
    }

    /// The group whose lex-leader constraints are emitted (empty: none).
    pub fn lex_leader(&self) -> lex::SymmetrySet {
        self.lex_leader
    }

    /// Restricts the models to boards that `g` maps to themselves (`--symmetric`), through CNF
    /// equivalences between each cell and its image.
    pub fn with_symmetry(mut self, g: Option<Symmetry>) -> Encoder<'a> {
        self.symmetric = g;
        self
    }

    /// The symmetry the models are restricted to, if any.
    pub fn symmetry(&self) -> Option<Symmetry> {
        self.symmetric
    }

    /// The options this encoder was built with.
    pub fn options(&self) -> EncodeOptions {
        EncodeOptions {
            amo: self.amo,
            symmetric: self.symmetric,
            lex_leader: self.lex_leader,
            implied: self.implied,
        }
    }

    /// The problem being encoded.
    pub fn problem(&self) -> &'a Problem {
        self.problem
    }

    /// The AMO encoding in use.
    pub fn amo(&self) -> AmoKind {
        self.amo
    }

    /// Exact size of the CNF [`Encoder::encode`] emits, from the cost formulas (no clauses are
    /// built). Errors if the CNF would need more variables than DIMACS can address.
    pub fn stats(&self) -> Result<Stats> {
        let p = self.problem;
        let mut s = Stats {
            vars: p.num_cells(),
            ..Stats::default()
        };
        if p.unsat.is_some() {
            return Ok(Stats {
                vars: 1,
                clauses: 2,
                literals: 2,
            });
        }
        // Unit clauses go through the same filter as in [`Encoder::encode`]: each is counted
        // once, however many parts state it.
        let mut units = UnitFilter::default();
        for &u in &p.units {
            if units.first(&[Lit::from_dimacs(u)]) {
                s.clauses += 1;
                s.literals += 1;
            }
        }
        let mut line = |exactly_one: bool, lits: Option<&[Lit]>, len: usize| {
            if exactly_one && lits.is_none_or(|l| units.first(l)) {
                s.clauses += 1;
                s.literals += len as u64;
            }
            let c = self.amo.cost(len);
            s.clauses += c.clauses;
            s.literals += c.literals;
            s.vars += c.aux_vars;
        };
        // (A one-cell board has one-cell rows and columns, whose units are the same clause:
        // walked, so that the filter sees them.)
        let full = p.varmap.is_row_major() && p.n >= 2;
        if full {
            // Every cell live (a plain board, or the full encoding): the lines' lengths are
            // known, so the count is O(n), not O(n²) (the same lines as `for_each_line`).
            let n = p.n as usize;
            for &kind in p.piece.lines {
                let exactly_one = kind.needs_exactly_one(p.n);
                for k in 0..kind.count(p.n) as usize {
                    let len = match kind {
                        LineKind::Row | LineKind::Column => n,
                        LineKind::Diagonal | LineKind::AntiDiagonal => (k + 1).min(2 * n - 1 - k),
                    };
                    if len >= 2 || (exactly_one && len == 1) {
                        line(exactly_one, None, len);
                    }
                }
            }
        } else {
            self.for_each_line(|exactly_one, lits| line(exactly_one, Some(lits), lits.len()));
            if self.stopped() {
                return Err(Error::Interrupted);
            }
        }
        let leaps = match full {
            true => {
                let n = u64::from(p.n);
                p.piece
                    .forward_leaps()
                    .map(|(dr, dc)| {
                        let (a, b) = (u64::from(dr.unsigned_abs()), u64::from(dc.unsigned_abs()));
                        n.saturating_sub(a) * n.saturating_sub(b)
                    })
                    .sum()
            }
            false => self.leap_pairs(|_, _| ()),
        };
        // A walk of the leaps cut short by the token counted only some of them.
        if self.stopped() {
            return Err(Error::Interrupted);
        }
        s.clauses += leaps;
        s.literals += 2 * leaps;
        // Past the DIMACS limit already: no need to walk the symmetry and lex-leader parts (n²
        // cells on a big board).
        if s.vars > MAX_VARS {
            return Err(Error::TooLarge(format!(
                "{} variables exceed the DIMACS limit of {MAX_VARS}",
                s.vars
            )));
        }
        // Parts with auxiliaries are counted by running them into a counting sink.
        let mut add = |emit: &dyn Fn(&mut VarAlloc, &mut dyn ClauseSink)| {
            // Numbered as `encode` numbers them (after the cells and the AMO auxiliaries), so
            // that the unit filter sees the same literals.
            let mut sink = StatsSink::default();
            let mut vars = VarAlloc::new(s.vars as u32);
            emit(
                &mut vars,
                &mut Counting {
                    inner: &mut Polled {
                        inner: &mut sink,
                        stop: self.stop,
                    },
                    stats: Stats::default(),
                    units: &mut units,
                },
            );
            s.clauses += sink.stats.clauses;
            s.literals += sink.stats.literals;
            s.vars = vars.count() as u64;
        };
        if !self.lex_leader.is_empty() {
            add(&|vars, sink| lex::encode(p, self.lex_leader, vars, sink));
        }
        if self.implied != implied::Implied::None {
            add(&|vars, sink| implied::encode(p, self.implied, vars, sink));
        }
        if let Some(g) = self.symmetric {
            let feasible = symmetric::for_each_clause(p, g, |c| {
                if units.first(c) {
                    s.clauses += 1;
                    s.literals += c.len() as u64;
                }
            });
            if !feasible {
                for u in [Lit::pos(1), Lit::neg(1)] {
                    if units.first(&[u]) {
                        s.clauses += 1;
                        s.literals += 1;
                    }
                }
                s.vars = s.vars.max(1);
            }
        }
        // The lex-leader walk (n² cells per symmetry) stops with the token: its count is then
        // short.
        if self.stopped() {
            return Err(Error::Interrupted);
        }
        if s.vars > MAX_VARS {
            return Err(Error::TooLarge(format!(
                "{} variables exceed the DIMACS limit of {MAX_VARS}",
                s.vars
            )));
        }
        Ok(s)
    }

    /// Streams every clause into `sink` and returns the counts.
    pub fn encode<S: ClauseSink + ?Sized>(&self, sink: &mut S) -> Stats {
        let p = self.problem;
        let mut units = UnitFilter::default();
        let mut counter = Counting {
            inner: sink,
            stats: Stats::default(),
            units: &mut units,
        };
        if p.unsat.is_some() {
            // A fixed contradiction over one variable, so every solver reads the same verdict.
            counter.add_clause(&[Lit::pos(1)]);
            counter.add_clause(&[Lit::neg(1)]);
            counter.stats.vars = 1;
            return counter.stats;
        }
        for &u in &p.units {
            counter.add_clause(&[Lit::from_dimacs(u)]);
        }
        let mut vars = VarAlloc::new(p.num_cells() as u32);
        let amo = self.amo;
        self.for_each_line(|exactly_one, lits| {
            if counter.stopped() {
                return; // the sink failed: the caller reports its error
            }
            if exactly_one {
                counter.add_clause(lits);
            }
            amo.encode(lits, &mut vars, &mut counter);
        });
        self.leap_pairs(|a, b| counter.add_clause(&[Lit::neg(a), Lit::neg(b)]));
        lex::encode(p, self.lex_leader, &mut vars, &mut counter);
        implied::encode(p, self.implied, &mut vars, &mut counter);
        let mut total_vars = vars.count() as u64;
        if let Some(g) = self.symmetric
            && !symmetric::for_each_clause(p, g, |c| counter.add_clause(c))
        {
            // The fixed pieces themselves are not symmetric: no model.
            counter.add_clause(&[Lit::pos(1)]);
            counter.add_clause(&[Lit::neg(1)]);
            total_vars = total_vars.max(1);
        }
        counter.stats.vars = total_vars;
        counter.stats
    }

    /// Calls `f(exactly_one, lits)` for every rider line with at least one live cell (lines with
    /// one cell only when they need at-least-one), in kind order and then key order; literals
    /// run along the line in variable order.
    fn for_each_line(&self, mut f: impl FnMut(bool, &[Lit])) {
        self.for_each_line_keyed(|_, _, exactly_one, lits| f(exactly_one, lits));
    }

    /// [`Encoder::for_each_line`] with each line's kind and key: `f(kind, key, exactly_one,
    /// lits)`. The exporters (`crate::export`) walk the problem through this.
    pub(crate) fn for_each_line_keyed(&self, mut f: impl FnMut(LineKind, u32, bool, &[Lit])) {
        let p = self.problem;
        let n = p.n;
        let map = &p.varmap;
        let mut buf: Vec<Lit> = Vec::new();
        for &kind in p.piece.lines {
            let exactly_one = kind.needs_exactly_one(n);
            match kind {
                LineKind::Row => {
                    // Rows are runs of consecutive variables: no bucketing needed.
                    for r in 0..n {
                        let len = map.row_len(r);
                        if len >= 2 || (exactly_one && len == 1) {
                            let first = map.row_first_var(r);
                            buf.clear();
                            buf.extend((first..first + len).map(Lit::pos));
                            f(kind, r, exactly_one, &buf);
                        }
                    }
                    continue;
                }
                // Any other family is bucketed by its key below.
                LineKind::Column | LineKind::Diagonal | LineKind::AntiDiagonal => {}
            }
            // Counting sort of the live cells by line key; row-major order keeps each bucket
            // in variable order.
            let lines = kind.count(n) as usize;
            let mut start = vec![0u32; lines + 1];
            for (i, (cell, _)) in map.cells().enumerate() {
                if i % (1 << 16) == 0 && self.stopped() {
                    return;
                }
                start[kind.key(cell, n) as usize + 1] += 1;
            }
            for i in 0..lines {
                start[i + 1] += start[i];
            }
            let mut fill = start.clone();
            buf.clear();
            buf.resize(map.num_cells() as usize, Lit::pos(1));
            for (i, (cell, var)) in map.cells().enumerate() {
                if i % (1 << 16) == 0 && self.stopped() {
                    return;
                }
                let k = kind.key(cell, n) as usize;
                buf[fill[k] as usize] = Lit::pos(var);
                fill[k] += 1;
            }
            for k in 0..lines {
                let line = &buf[start[k] as usize..start[k + 1] as usize];
                if line.len() >= 2 || (exactly_one && line.len() == 1) {
                    f(kind, k as u32, exactly_one, line);
                }
            }
        }
    }

    /// Calls `f(a, b)` for every pair of live cells a leap apart; returns the pair count.
    pub(crate) fn leap_pairs(&self, mut f: impl FnMut(u32, u32)) -> u64 {
        let p = self.problem;
        let mut count = 0;
        if p.piece.leaps.is_empty() {
            return 0;
        }
        for (i, (cell, var)) in p.varmap.cells().enumerate() {
            if i % (1 << 16) == 0 && self.stopped() {
                return count;
            }
            for (dr, dc) in p.piece.forward_leaps() {
                if let Some(other) = cell.offset(dr, dc, p.n).and_then(|q: Cell| p.varmap.var(q)) {
                    f(var, other);
                    count += 1;
                }
            }
        }
        count
    }
}

/// The unit clauses emitted so far: several parts of an encoding can state the same unit (a
/// row and a column with one live cell each, the `--symmetric` equivalences of a cell with
/// two fixed images), and a written CNF holds each clause once. (Longer clauses are never
/// repeated: each part emits its own once, see [`symmetric`] and [`lex`].)
#[derive(Default)]
struct UnitFilter(std::collections::HashSet<Lit>);

impl UnitFilter {
    /// False for a unit clause seen before (drop it); true for anything else.
    #[inline]
    fn first(&mut self, lits: &[Lit]) -> bool {
        match lits {
            [u] => self.0.insert(*u),
            _ => true,
        }
    }
}

/// A sink that says it stopped once the encoder's token stopped ([`Encoder::until`]), so that
/// the parts [`Encoder::stats`] counts by running them (the lex-leader constraints, n² cells
/// per symmetry) end with the token.
struct Polled<'s, 'c, S: ClauseSink + ?Sized> {
    inner: &'s mut S,
    stop: Option<&'c crate::interrupt::Cancel>,
}

impl<S: ClauseSink + ?Sized> ClauseSink for Polled<'_, '_, S> {
    fn stopped(&self) -> bool {
        self.inner.stopped() || self.stop.is_some_and(|c| c.is_stopped())
    }

    #[inline]
    fn add_clause(&mut self, lits: &[Lit]) {
        self.inner.add_clause(lits);
    }
}

/// Wraps a sink and counts what passes through, dropping repeated unit clauses.
struct Counting<'s, 'u, S: ClauseSink + ?Sized> {
    inner: &'s mut S,
    stats: Stats,
    units: &'u mut UnitFilter,
}

impl<S: ClauseSink + ?Sized> ClauseSink for Counting<'_, '_, S> {
    fn stopped(&self) -> bool {
        self.inner.stopped()
    }

    #[inline]
    fn add_clause(&mut self, lits: &[Lit]) {
        if !self.units.first(lits) {
            return;
        }
        self.stats.clauses += 1;
        self.stats.literals += lits.len() as u64;
        self.inner.add_clause(lits);
    }
}
