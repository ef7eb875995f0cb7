//! A streaming checker for the VeriPB 3.0 subset the proofs of `queens_sat::certify::pb` use, in
//! the lean core: fast enough to check the search's proofs in process, while the `veripb` crate
//! and binary stay the independent checkers (in the tests: `tests/support/veripb_crate.rs`,
//! `tests/it/veripb_binary.rs`).
//!
//! # Input
//! The model is an OPB file ([`parse_opb`]: `* ` comment lines, `+1 x1 -2 ~x3 >= -1 ;`, `<=`,
//! `=`; general integer coefficients) or constraints handed over directly
//! ([`PbChecker::new`]). As in VeriPB, an equality loads as two constraints, `>=` first, and the
//! constraints get the IDs 1, 2, ... in order. Variables are named `x1`, `x2`, ... (no leading
//! zero: VeriPB names `x01` another variable, so such names are refused, as is any other name).
//!
//! The proof is fed line by line ([`PbChecker::check_line`], [`PbChecker::check_text`] for a
//! chunk of lines, [`PbChecker::check_reader`]), so a search can hand runs of steps to a
//! checking thread (the checker is `Send`); [`PbChecker::finish`] gives the verdict. A search
//! that holds its steps in memory can skip the text: [`PbChecker::rup`],
//! [`PbChecker::pol_sum`], [`PbChecker::delete`] and [`PbChecker::conclude_unsat`] check the
//! same steps without lexing (a third faster on the proofs of `queens_sat::certify::pb`);
//! [`PbChecker::rup_clause`] checks a `rup` of a clause of negated variables (the lemmas of
//! those proofs) without building it term by term.
//!
//! # The subset (VeriPB 3.0 semantics)
//! - the header `pseudo-Boolean proof version 3.0` on the first line; comments from `%` to the
//!   end of a line (VeriPB 3.0 comments: a line starting with `*` is an error, as in VeriPB);
//!   statements end with `;` and may span lines;
//! - `f N ;` (N: the live constraints);
//! - `pol` in reverse Polish notation over constraint IDs (negative: relative to the last ID),
//!   literal axioms `x5` / `~x5` (`x5 >= 0`), `+`, `k *` (k >= 1), `k d` (division in normalized
//!   form, rounding up coefficients and degree), `s` (saturation), `x5 w` (weakening away the
//!   variable);
//! - `rup C ;` and `rup C : h1 h2 ... ;`. With hints (`~` or a 0 after normalizing a relative ID:
//!   the negated constraint), the negated constraint is propagated first, then the hinted
//!   constraints in order, the whole list repeated until a conflict (the step checks) or a pass
//!   without any propagation (it fails); a hint is looked up only when propagation reaches it,
//!   as in VeriPB. Without hints, RUP is checked naively: every live constraint, in passes,
//!   until a conflict or a fixpoint (correct, but slow on a large database; the proofs of
//!   `queens_sat::certify::pb` always give hints);
//! - `del id a b c ;` (deleting an original constraint too: checked deletion is off; a
//!   deleted or unknown ID is an error);
//! - the footer `output NONE ;`, `conclusion UNSAT : id ;` (the constraint must be a
//!   contradiction: its coefficients sum below its degree), `conclusion UNSAT ;` (the database
//!   must hold a contradiction) or `conclusion NONE ;`, then `end pseudo-Boolean proof ;` and
//!   nothing else. A proof without the end line does not check.
//!
//! Anything else (labels, `pbc`, `red`, `del spec`, reified constraints, other conclusions, MIR,
//! ...) is an error naming the line. The lexer is more lenient than VeriPB's about whitespace
//! between tokens (`1~x1` reads as `1 ~x1`); that never changes what a step derives.
//!
//! # Arithmetic
//! Constraints are kept normalized (`sum a_i l_i >= d`, every `a_i > 0`, one term per
//! variable), which is unique, so the result of every rule is VeriPB's. Coefficients, sums of
//! coefficients and degrees are `i64`, with checked arithmetic throughout: an overflow is an
//! error, never a wrong answer.
//!
//! # Speed
//! Constraints are sparse `(literal, coefficient)` arrays with a flag for all-ones (cardinality)
//! constraints; the original ones and the first derived ones (up to 2^18 IDs: clauses a proof
//! derives once at its start for its hints) in a vector by ID, the later derived ones in a hash
//! map (the live set of the proofs stays small, however long the proof); a deleted
//! constraint's buffers are reused. A hinted `rup` works on an
//! assignment array with a trail reset per step and one slack computation per visited hint; a
//! `pol` adds constraints into dense per-variable scratch arrays with a touched list, so a step
//! costs the sizes of its operands. At-most-one constraints (`sum ~x >= len - 1` normalized)
//! propagate in one pass.
//!
//! Measured on the spike's proofs (`examples/pbcheck_speed.rs`, n = 14..16, two shared cores):
//! about 2.4 us per search node reading the text (1.6 us through the structured steps) against
//! about 10 us for the `veripb` crate; some 650k `rup` and 250k `pol` steps per second.

mod arith;
mod propagate;
mod structured;
mod syntax;
#[cfg(test)]
mod tests;
mod text;

use std::path::Path;

use crate::error::{Error, Format, Result};
use crate::ids::IdMap;
use arith::*;
use propagate::*;
use syntax::*;

pub use crate::vocab::{Id, Lit, Operand, PolOp};
pub use syntax::parse_opb;

/// Variables beyond this index are refused (the arrays are indexed by variable).
const MAX_VAR: u32 = 1 << 22;

/// [`PbChecker::binary`]'s mark of a slot without a binary clause.
const NOT_BINARY: [u32; 2] = [u32::MAX, u32::MAX];

/// The literals of `c` if it is a binary clause `l1 + l2 >= 1`, else [`NOT_BINARY`].
fn binary_of(c: &Constr) -> [u32; 2] {
    match (&c.lits[..], c.coefs.is_empty(), c.degree) {
        ([a, b], true, 1) => [*a, *b],
        _ => NOT_BINARY,
    }
}

/// Deleted constraints kept for their buffers.
const SPARE: usize = 64;

/// The IDs kept in a vector (`PbChecker::orig`); the derived constraints with larger IDs are in
/// a hash map.
const DENSE_IDS: usize = 1 << 18;

/// The relation of a constraint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Relation {
    /// `>=`
    Ge,
    /// `<=`
    Le,
    /// `=` (loaded as `>=` then `<=`).
    Eq,
}

/// A linear pseudo-Boolean constraint `sum coef * lit REL rhs`, as an OPB file holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PbConstraint {
    /// `(coefficient, literal)` pairs; a literal is a variable index from 1 (`x5` is 5), negated
    /// (`~x5` is -5). Coefficients may be negative and variables may repeat.
    pub terms: Vec<(i64, i32)>,
    /// The relation.
    pub relation: Relation,
    /// The right-hand side.
    pub rhs: i64,
}

/// Steps checked, per kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PbSteps {
    /// `rup` steps with hints.
    pub rup: u64,
    /// `rup` steps without hints (checked over the whole database).
    pub rup_unhinted: u64,
    /// Hinted constraints visited by the propagation of `rup` steps (the negated constraint
    /// included).
    pub hint_visits: u64,
    /// `pol` steps.
    pub pol: u64,
    /// Constraints and literal axioms combined by `pol` steps.
    pub pol_operands: u64,
    /// `del` steps.
    pub del: u64,
    /// Constraints deleted.
    pub deleted: u64,
}

/// What a finished proof established.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PbVerdict {
    /// The proof concluded `UNSAT` and the contradiction it names (or the database holds)
    /// was verified. A proof that concludes `NONE` checks but is not a refutation.
    pub unsat: bool,
    /// The ID of the verified contradiction.
    pub contradiction: Option<u64>,
    /// Steps checked.
    pub steps: PbSteps,
}

/// Why a statement failed: bad syntax (or a construct outside the subset), or a step that does
/// not check.
enum Fail {
    Syntax(String),
    Check(String),
}

type Res<T> = std::result::Result<T, Fail>;

fn syntax<T>(msg: impl Into<String>) -> Res<T> {
    Err(Fail::Syntax(msg.into()))
}

fn check_fail<T>(msg: impl Into<String>) -> Res<T> {
    Err(Fail::Check(msg.into()))
}

fn overflow() -> Fail {
    Fail::Check("integer overflow (coefficients, their sum or the degree beyond 64 bits)".into())
}

/// Where the proof is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Header,
    Steps,
    Output,
    Conclusion,
    Done,
}

/// The streaming checker: the database of constraints and the proof's state. See the module
/// docs for the subset it reads.
pub struct PbChecker {
    /// The constraints of the first IDs, ID `i + 1` at index `i` (`None`: deleted): the
    /// original ones, then the derived ones while every ID so far has a slot and there are at
    /// most [`DENSE_IDS`] (a proof's early steps, such as clauses it derives once for its
    /// hints, are found without hashing).
    orig: Vec<Option<Constr>>,
    /// The original constraints (the last original ID).
    loaded: u64,
    /// Per slot of `orig`: the two literals of a binary clause (`l1 + l2 >= 1`), else
    /// [`NOT_BINARY`] (also once deleted): the hinted `rup` propagates those without touching
    /// the constraint (a small, dense array).
    binary: Vec<[u32; 2]>,
    /// The live derived constraints by ID.
    derived: Derived,
    /// The last ID given.
    last: u64,
    /// Live constraints.
    live: u64,
    /// Variables the arrays hold (indices `0..vars`, 0 unused).
    vars: usize,
    /// Per literal `2 * var + negated`: UNDEF, TRUE or FALSE.
    val: Vec<u8>,
    trail: Vec<u32>,
    /// The negated constraint of the current `rup`.
    neg_lits: Vec<u32>,
    /// Scratch for normalizing a constraint.
    norm: Dense,
    /// Deleted constraints whose buffers new ones reuse.
    spare: Vec<Constr>,
    /// Scratch forms of `pol` steps, and the free ones.
    pool: Vec<Dense>,
    free: Vec<usize>,
    hints: Vec<i64>,
    ids: Vec<u64>,
    stack: Vec<Elem>,
    steps: PbSteps,
    phase: Phase,
    contradiction: Option<u64>,
    concluded_unsat: bool,
    /// The proof's name in errors.
    source: String,
    /// Lines read.
    line: usize,
    /// A statement spanning lines, and its first line.
    pending: Vec<u8>,
    pending_line: usize,
}

type Derived = IdMap<Constr>;

/// The live constraint `id`.
#[inline]
fn find<'a>(
    orig: &'a [Option<Constr>],
    derived: &'a Derived,
    last: u64,
    id: u64,
) -> Option<&'a Constr> {
    if id == 0 || id > last {
        None
    } else if id as usize <= orig.len() {
        orig[id as usize - 1].as_ref()
    } else {
        derived.get(&id)
    }
}

/// An element of a `pol` stack: a constraint or a literal axiom times a multiplier (not yet
/// materialized), or a dense form of the pool.
#[derive(Clone, Copy)]
enum Elem {
    Id { id: u64, mult: i64 },
    Axiom { lit: u32, mult: i64 },
    Dense(usize),
}

impl PbChecker {
    /// A checker over `constraints` (IDs from 1 in order, an equality as `>=` then `<=`), with
    /// variables `x1..=x{num_vars}` (a proof may name more).
    pub fn new(num_vars: u32, constraints: &[PbConstraint]) -> Result<PbChecker> {
        let mut ck = PbChecker {
            orig: Vec::with_capacity(constraints.len()),
            loaded: 0,
            binary: Vec::with_capacity(constraints.len()),
            derived: IdMap::default(),
            last: 0,
            live: 0,
            vars: 0,
            val: Vec::new(),
            trail: Vec::new(),
            neg_lits: Vec::new(),
            norm: Dense::default(),
            spare: Vec::new(),
            pool: Vec::new(),
            free: Vec::new(),
            hints: Vec::new(),
            ids: Vec::new(),
            stack: Vec::new(),
            steps: PbSteps::default(),
            phase: Phase::Header,
            contradiction: None,
            concluded_unsat: false,
            source: "<proof>".into(),
            line: 0,
            pending: Vec::new(),
            pending_line: 0,
        };
        if num_vars > MAX_VAR {
            return Err(Error::TooLarge(format!(
                "{num_vars} variables for the PB checker (at most {MAX_VAR})"
            )));
        }
        ck.grow(num_vars);
        for (i, c) in constraints.iter().enumerate() {
            let bad = |m: String| Error::Invalid(format!("PB constraint {}: {m}", i + 1));
            for &(_, l) in &c.terms {
                if l == 0 || l.unsigned_abs() > MAX_VAR {
                    return Err(bad(format!("literal {l} out of range")));
                }
                ck.grow(l.unsigned_abs());
            }
            let rels: &[bool] = match c.relation {
                Relation::Ge => &[true],
                Relation::Le => &[false],
                Relation::Eq => &[true, false],
            };
            for &ge in rels {
                let lits = c
                    .terms
                    .iter()
                    .map(|&(a, l)| (a, 2 * l.unsigned_abs() + u32::from(l < 0)));
                let k = ck
                    .normalize(lits, ge, c.rhs)
                    .map_err(|_| bad("integer overflow".into()))?;
                ck.binary.push(binary_of(&k));
                ck.orig.push(Some(k));
                ck.last += 1;
                ck.live += 1;
            }
        }
        ck.loaded = ck.last;
        Ok(ck)
    }

    /// A checker over the OPB text `text` (see [`parse_opb`]).
    pub fn from_opb(text: &str, source: &str) -> Result<PbChecker> {
        let (n, cs) = parse_opb(text, source)?;
        PbChecker::new(n, &cs)
    }

    /// A checker over the OPB file `path`.
    pub fn from_opb_file(path: &Path) -> Result<PbChecker> {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(&name, e))?;
        PbChecker::from_opb(&text, &name)
    }

    /// Names the proof in error messages (default `<proof>`).
    pub fn set_source(&mut self, name: &str) {
        self.source = name.to_string();
    }

    /// Steps checked so far.
    pub fn steps(&self) -> PbSteps {
        self.steps
    }

    /// Constraints loaded from the model (equalities twice): the last original ID.
    pub fn loaded(&self) -> u64 {
        self.loaded
    }

    /// The verdict, once the whole proof has been fed: an error when it did not end with
    /// `end pseudo-Boolean proof` (VeriPB refuses such a proof).
    pub fn finish(self) -> Result<PbVerdict> {
        if self.phase != Phase::Done {
            let what = if self.pending.trim_ascii().is_empty() {
                "the proof ends without `end pseudo-Boolean proof ;`"
            } else {
                "the proof ends inside a statement (no closing `;`)"
            };
            return Err(Error::parse(&self.source, self.line.max(1), what));
        }
        Ok(PbVerdict {
            unsat: self.concluded_unsat,
            contradiction: self.contradiction,
            steps: self.steps,
        })
    }

    fn grow(&mut self, var: u32) {
        let need = var as usize + 1;
        if need > self.vars {
            let vars = need.max(self.vars * 2).min(MAX_VAR as usize + 1);
            self.vars = vars;
            self.val.resize(2 * vars, UNDEF);
            self.norm.grow(vars);
            for d in &mut self.pool {
                d.grow(vars);
            }
        }
    }

    /// The normalized constraint `sum a * lit >= rhs` (`ge`) or `<= rhs`.
    fn normalize(
        &mut self,
        terms: impl Iterator<Item = (i64, u32)>,
        ge: bool,
        rhs: i64,
    ) -> Res<Constr> {
        let d = &mut self.norm;
        d.clear();
        // `<=`: the same over the negated coefficients, `>= -rhs`.
        let res = (|| {
            d.d = if ge { rhs } else { rhs.checked_neg()? };
            for (a, lit) in terms {
                d.add(lit, if ge { a } else { a.checked_neg()? })?;
            }
            d.normalized()
        })();
        d.clear();
        res.ok_or_else(overflow)
    }

    /// An ID as written (negative: relative to the last) normalized, VeriPB's way (0 may
    /// come out).
    fn normalize_id(&self, raw: i64) -> Res<u64> {
        if raw >= 0 {
            return Ok(raw as u64);
        }
        let n = (self.last as i128) + 1 + i128::from(raw);
        if n < 0 {
            return check_fail(format!("constraint ID {raw} before the first constraint"));
        }
        Ok(n as u64)
    }

    fn lookup(&self, id: u64) -> Res<&Constr> {
        find(&self.orig, &self.derived, self.last, id).ok_or_else(|| self.missing(id))
    }

    /// Why the constraint `id` is not there.
    fn missing(&self, id: u64) -> Fail {
        if id == 0 || id > self.last {
            Fail::Check(format!(
                "constraint ID {id} does not exist (the last is {})",
                self.last
            ))
        } else {
            Fail::Check(format!("constraint {id} was deleted"))
        }
    }

    fn add_derived(&mut self, c: Constr) -> u64 {
        if self.orig.len() as u64 == self.last && self.orig.len() < DENSE_IDS {
            self.binary.push(binary_of(&c));
            self.orig.push(Some(c));
        } else {
            self.derived.insert(self.last + 1, c);
        }
        self.last += 1;
        self.live += 1;
        self.last
    }
}

/// Checks the VeriPB proof `proof` of the OPB file `opb` with [`PbChecker`].
pub fn check_files(opb: &Path, proof: &Path) -> Result<PbVerdict> {
    let mut ck = PbChecker::from_opb_file(opb)?;
    let name = proof.display().to_string();
    ck.set_source(&name);
    let file = std::fs::File::open(proof).map_err(|e| Error::io(&name, e))?;
    ck.check_reader(std::io::BufReader::with_capacity(1 << 20, file))?;
    ck.finish()
}
