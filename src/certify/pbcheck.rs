//! A streaming checker for the VeriPB 3.0 subset the proofs of [`crate::certify::pb`] use, in
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
//! same steps without lexing (a third faster on the proofs of [`crate::certify::pb`]);
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
//!   [`crate::certify::pb`] always give hints);
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

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::io::BufRead;
use std::path::Path;

use crate::error::{Error, Result};

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

/// A normalized constraint `sum coefs[i] * lits[i] >= degree`; a literal is `2 * var + negated`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Constr {
    lits: Vec<u32>,
    /// The coefficients, in the order of `lits`; empty when every coefficient is 1.
    coefs: Vec<i64>,
    degree: i64,
    /// The sum of the coefficients.
    sum: i64,
}

impl Constr {
    /// VeriPB's contradiction: no assignment reaches the degree.
    fn is_contradiction(&self) -> bool {
        self.degree > self.sum
    }

    /// The coefficient of the `i`-th term.
    #[cfg(test)]
    fn coef(&self, i: usize) -> i64 {
        if self.coefs.is_empty() {
            1
        } else {
            self.coefs[i]
        }
    }
}

/// A dense linear form `sum_v c[v] x_v >= d` over positive literals (a term `a ~x` is
/// `a - a x`), so that adding and multiplying are linear. Its normalized form has `|c_v|` on
/// `x_v` (`c_v > 0`) or on `~x_v` (`c_v < 0`), and the degree `d + sum_{c_v < 0} |c_v|`.
#[derive(Clone, Debug, Default)]
struct Dense {
    c: Vec<i64>,
    mark: Vec<bool>,
    touched: Vec<u32>,
    d: i64,
}

/// `ceil(a / d)` for `d > 0` (towards positive infinity, also for negative `a`).
fn div_ceil(a: i64, d: i64) -> i64 {
    let q = a / d;
    if a % d > 0 { q + 1 } else { q }
}

impl Dense {
    fn grow(&mut self, vars: usize) {
        if self.c.len() < vars {
            self.c.resize(vars, 0);
            self.mark.resize(vars, false);
        }
    }

    fn clear(&mut self) {
        for &v in &self.touched {
            self.c[v as usize] = 0;
            self.mark[v as usize] = false;
        }
        self.touched.clear();
        self.d = 0;
    }

    #[inline(always)]
    fn touch(&mut self, v: usize) {
        if !self.mark[v] {
            self.mark[v] = true;
            self.touched.push(v as u32);
        }
    }

    /// Adds `a * lit` (any sign) to the left-hand side.
    #[inline(always)]
    fn add(&mut self, lit: u32, a: i64) -> Option<()> {
        let v = (lit >> 1) as usize;
        self.touch(v);
        if lit & 1 == 1 {
            self.c[v] = self.c[v].checked_sub(a)?;
            self.d = self.d.checked_sub(a)?;
        } else {
            self.c[v] = self.c[v].checked_add(a)?;
        }
        Some(())
    }

    /// Adds `mult` times the constraint `c`: its terms over positive literals, and
    /// `mult * (degree - the coefficients of its negated literals)` to `d` (the coefficients
    /// sum within `i64`, so that sum does not overflow).
    fn add_constr(&mut self, c: &Constr, mult: i64) -> Option<()> {
        // Disjoint borrows, so that the loop keeps the arrays in registers.
        let (coef, mark, touched) = (&mut self.c[..], &mut self.mark[..], &mut self.touched);
        let mut neg: i64 = 0;
        let mut term = |l: u32, a: i64| -> Option<()> {
            let v = (l >> 1) as usize;
            if !mark[v] {
                mark[v] = true;
                touched.push(v as u32);
            }
            let x = &mut coef[v];
            *x = if l & 1 == 1 {
                x.checked_sub(a)?
            } else {
                x.checked_add(a)?
            };
            Some(())
        };
        if c.coefs.is_empty() {
            for &l in c.lits.iter() {
                term(l, mult)?;
                neg += i64::from(l & 1);
            }
        } else {
            for (&l, &a) in c.lits.iter().zip(c.coefs.iter()) {
                term(l, a.checked_mul(mult)?)?;
                if l & 1 == 1 {
                    neg += a;
                }
            }
        }
        let k = c.degree.checked_sub(neg)?.checked_mul(mult)?;
        self.d = self.d.checked_add(k)?;
        Some(())
    }

    /// Adds the form `other` (left clean).
    fn add_dense(&mut self, other: &mut Dense) -> Option<()> {
        for &v in &other.touched {
            let x = other.c[v as usize];
            if x != 0 {
                self.touch(v as usize);
                self.c[v as usize] = self.c[v as usize].checked_add(x)?;
            }
        }
        self.d = self.d.checked_add(other.d)?;
        other.clear();
        Some(())
    }

    fn multiply(&mut self, k: i64) -> Option<()> {
        for &v in &self.touched {
            let c = &mut self.c[v as usize];
            *c = c.checked_mul(k)?;
        }
        self.d = self.d.checked_mul(k)?;
        Some(())
    }

    /// The degree of the normalized form.
    fn degree(&self) -> Option<i64> {
        let mut n = self.d;
        for &v in &self.touched {
            let c = self.c[v as usize];
            if c < 0 {
                n = n.checked_sub(c)?;
            }
        }
        Some(n)
    }

    /// Maps the normalized coefficients by `f` (given the normalized degree) and sets the
    /// normalized degree to `deg`.
    fn renormalize(&mut self, deg: i64, f: impl Fn(u64) -> u64) -> Option<()> {
        let mut d = deg;
        for &v in &self.touched {
            let c = &mut self.c[v as usize];
            let m = i64::try_from(f(c.unsigned_abs())).ok()?;
            *c = if *c < 0 { -m } else { m };
            if *c < 0 {
                d = d.checked_add(*c)?;
            }
        }
        self.d = d;
        Some(())
    }

    /// Saturation: a coefficient above the degree becomes the degree; with a degree `<= 0`
    /// every term goes and the degree stays (VeriPB: the constraint is trivial).
    fn saturate(&mut self) -> Option<()> {
        let deg = self.degree()?;
        if deg <= 0 {
            self.renormalize(deg, |_| 0)
        } else {
            self.renormalize(deg, |a| a.min(deg as u64))
        }
    }

    /// Division of the normalized form by `k > 0`, rounding coefficients and degree up.
    fn divide(&mut self, k: i64) -> Option<()> {
        let deg = div_ceil(self.degree()?, k);
        self.renormalize(deg, |a| a.div_ceil(k as u64))
    }

    /// Weakening: the variable's term goes, and its coefficient off the normalized degree
    /// (over positive literals: `d` drops by a positive coefficient only).
    fn weaken(&mut self, var: u32) -> Option<()> {
        let c = &mut self.c[var as usize];
        if *c > 0 {
            self.d = self.d.checked_sub(*c)?;
        }
        *c = 0;
        Some(())
    }

    /// The normalized constraint.
    fn normalized(&mut self) -> Option<Constr> {
        let mut c = Constr::default();
        self.write_normalized(&mut c, false)?;
        Some(c)
    }

    /// The normalized constraint, into `out` (its buffers reused); the form is left clean
    /// (also on an overflow).
    fn take_constr_into(&mut self, out: &mut Constr) -> Option<()> {
        let r = self.write_normalized(out, true);
        if r.is_some() {
            self.touched.clear();
            self.d = 0;
        } else {
            self.clear();
        }
        r
    }

    /// The normalized constraint, into `out` (its buffers reused); with `reset`, every
    /// coefficient read is set back to 0 and unmarked on the way (the touched list stays).
    fn write_normalized(&mut self, out: &mut Constr, reset: bool) -> Option<()> {
        let (lits, coefs) = (&mut out.lits, &mut out.coefs);
        lits.clear();
        coefs.clear();
        lits.reserve(self.touched.len());
        // Filled only once a coefficient other than 1 shows.
        let mut sum: i64 = 0;
        let mut deg = self.d;
        let (cs, mark) = (&mut self.c[..], &mut self.mark[..]);
        for &v in &self.touched {
            let c = cs[v as usize];
            if reset {
                cs[v as usize] = 0;
                mark[v as usize] = false;
            }
            if c != 0 {
                let a = c.checked_abs()?;
                if c < 0 {
                    deg = deg.checked_add(a)?;
                }
                sum = sum.checked_add(a)?;
                if a != 1 && coefs.is_empty() {
                    coefs.reserve(self.touched.len());
                    coefs.resize(lits.len(), 1);
                }
                lits.push(2 * v + u32::from(c < 0));
                if !coefs.is_empty() || a != 1 {
                    coefs.push(a);
                }
            }
        }
        out.degree = deg;
        out.sum = sum;
        Some(())
    }
}

/// Identity hashing of constraint IDs (they are distinct integers).
#[derive(Default)]
struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0.wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = x;
    }
}

const UNDEF: u8 = 0;
const TRUE: u8 = 1;
const FALSE: u8 = 2;

enum Prop {
    Nothing,
    Propagated,
    Conflict,
}

/// Unit propagation of one constraint, VeriPB's way: the slack over the literals that are not
/// false; below 0 a conflict, else every unassigned literal with a coefficient above the slack
/// becomes true. Never overflows: a stored constraint's coefficients sum within `i64`.
#[inline]
fn propagate(
    val: &mut [u8],
    trail: &mut Vec<u32>,
    lits: &[u32],
    coefs: &[i64],
    degree: i64,
) -> Prop {
    if degree <= 0 {
        return Prop::Nothing;
    }
    let slack;
    if coefs.is_empty() && degree as usize + 1 == lits.len() {
        // At most one variable true (`sum ~x >= len - 1`): one pass, setting the unassigned
        // literals true on the way; a second false literal is a conflict, none at all means
        // nothing propagates (the optimistic assignments are undone).
        let mark = trail.len();
        let mut falses = 0;
        for &l in lits {
            let l = l as usize;
            match val[l] {
                FALSE => {
                    falses += 1;
                    if falses == 2 {
                        return Prop::Conflict;
                    }
                }
                UNDEF => {
                    val[l] = TRUE;
                    val[l ^ 1] = FALSE;
                    trail.push((l >> 1) as u32);
                }
                _ => {}
            }
        }
        if falses == 0 {
            for &v in &trail[mark..] {
                val[2 * v as usize] = UNDEF;
                val[2 * v as usize + 1] = UNDEF;
            }
            trail.truncate(mark);
            return Prop::Nothing;
        }
        return if trail.len() > mark {
            Prop::Propagated
        } else {
            Prop::Nothing
        };
    } else if coefs.is_empty() {
        // Stops as soon as the literals that are not false exceed the degree (no propagation).
        let mut free = 0i64;
        for &l in lits {
            free += i64::from(val[l as usize] != FALSE);
            if free > degree {
                return Prop::Nothing;
            }
        }
        slack = free - degree;
        if slack != 0 {
            return if slack < 0 {
                Prop::Conflict
            } else {
                Prop::Nothing
            };
        }
    } else {
        let mut s = -degree;
        for (&l, &a) in lits.iter().zip(coefs) {
            if val[l as usize] != FALSE {
                s += a;
            }
        }
        if s < 0 {
            return Prop::Conflict;
        }
        slack = s;
    }
    let mut any = false;
    for (i, &l) in lits.iter().enumerate() {
        let a = if coefs.is_empty() { 1 } else { coefs[i] };
        let l = l as usize;
        if val[l] == UNDEF && a > slack {
            val[l] = TRUE;
            val[l ^ 1] = FALSE;
            trail.push((l >> 1) as u32);
            any = true;
        }
    }
    if any { Prop::Propagated } else { Prop::Nothing }
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

/// A token of a statement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tok<'a> {
    /// An integer; `signed` when written with `+` or `-`.
    Int {
        value: i128,
        signed: bool,
    },
    Ident(&'a [u8]),
    Tilde,
    Colon,
    Ge,
    Le,
    Eq,
    Plus,
    Star,
    /// Any other character (or operator outside the subset).
    Other(&'a [u8]),
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c == b'@' || c == b'$'
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'[' | b']' | b'{' | b'}' | b'^' | b'-')
}

/// The tokens of one statement (without its `;`).
#[derive(Clone, Copy)]
struct Lexer<'a> {
    s: &'a [u8],
    i: usize,
}

impl<'a> Lexer<'a> {
    fn new(s: &'a [u8]) -> Lexer<'a> {
        Lexer { s, i: 0 }
    }

    #[inline(always)]
    fn next(&mut self) -> Res<Option<Tok<'a>>> {
        let s = self.s;
        while self.i < s.len() && s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
        if self.i >= s.len() {
            return Ok(None);
        }
        let start = self.i;
        let c = s[start];
        self.i += 1;
        let digit_next = self.i < s.len() && s[self.i].is_ascii_digit();
        let tok = match c {
            b'0'..=b'9' => {
                self.i = start;
                self.int(false)?
            }
            b'+' | b'-' if digit_next => self.int(true)?,
            b'+' => Tok::Plus,
            b'*' => Tok::Star,
            b'~' => Tok::Tilde,
            b':' => Tok::Colon,
            b'>' | b'<' if s.get(self.i) == Some(&b'=') => {
                self.i += 1;
                if s.get(self.i) == Some(&b'=') {
                    self.i += 1;
                    Tok::Other(&s[start..self.i])
                } else if c == b'>' {
                    Tok::Ge
                } else {
                    Tok::Le
                }
            }
            b'=' => {
                while self.i < s.len() && matches!(s[self.i], b'=' | b'>') {
                    self.i += 1;
                }
                if self.i - start == 1 {
                    Tok::Eq
                } else {
                    Tok::Other(&s[start..self.i])
                }
            }
            c if is_ident_start(c) => {
                while self.i < s.len() && is_ident(s[self.i]) {
                    self.i += 1;
                }
                Tok::Ident(&s[start..self.i])
            }
            _ => Tok::Other(&s[start..self.i]),
        };
        Ok(Some(tok))
    }

    /// An integer from the current position (after its sign, when `signed`).
    #[inline(always)]
    fn int(&mut self, signed: bool) -> Res<Tok<'a>> {
        let neg = signed && self.s[self.i - 1] == b'-';
        let mut value: u64 = 0;
        let start = self.i;
        while self.i < self.s.len() && self.s[self.i].is_ascii_digit() && self.i - start < 18 {
            value = value * 10 + u64::from(self.s[self.i] - b'0');
            self.i += 1;
        }
        while self.i < self.s.len() && self.s[self.i].is_ascii_digit() {
            value = value
                .checked_mul(10)
                .and_then(|v| v.checked_add(u64::from(self.s[self.i] - b'0')))
                .ok_or_else(|| Fail::Syntax("an integer beyond 64 bits".into()))?;
            self.i += 1;
        }
        let value = if neg {
            -i128::from(value)
        } else {
            i128::from(value)
        };
        Ok(Tok::Int { value, signed })
    }

    /// The next token when it is one character standing alone (`*`, `d`, `w`, `-`, ...),
    /// without reading it.
    #[inline]
    fn peek_single(&self) -> Option<u8> {
        let s = self.s;
        let mut i = self.i;
        while i < s.len() && s[i].is_ascii_whitespace() {
            i += 1;
        }
        let b = *s.get(i)?;
        let alone = match s.get(i + 1) {
            None => true,
            Some(&n) => !is_ident(n) || (b == b'*' || b == b'+'),
        };
        (alone && b != b'~').then_some(b)
    }

    /// Reads the token [`Lexer::peek_single`] saw.
    fn skip_single(&mut self) {
        while self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
        self.i += 1;
    }

    fn peek(&self) -> Res<Option<Tok<'a>>> {
        let mut copy = *self;
        copy.next()
    }

    fn expect_end(&mut self, what: &str) -> Res<()> {
        match self.next()? {
            None => Ok(()),
            Some(t) => syntax(format!("expected `;` after {what}, found {}", show(t))),
        }
    }
}

fn show(t: Tok<'_>) -> String {
    match t {
        Tok::Int { value, .. } => format!("`{value}`"),
        Tok::Ident(s) | Tok::Other(s) => format!("`{}`", String::from_utf8_lossy(s)),
        Tok::Tilde => "`~`".into(),
        Tok::Colon => "`:`".into(),
        Tok::Ge => "`>=`".into(),
        Tok::Le => "`<=`".into(),
        Tok::Eq => "`=`".into(),
        Tok::Plus => "`+`".into(),
        Tok::Star => "`*`".into(),
    }
}

/// The variable of a name `x<N>` (N >= 1, no leading zero).
fn var_of(name: &[u8]) -> Res<u32> {
    let digits = match name.split_first() {
        Some((b'x', rest)) if !rest.is_empty() && rest[0] != b'0' => rest,
        _ => {
            return syntax(format!(
                "unsupported variable name `{}` (this checker reads x1, x2, ...)",
                String::from_utf8_lossy(name)
            ));
        }
    };
    let mut v: u32 = 0;
    for &d in digits {
        if !d.is_ascii_digit() {
            return syntax(format!(
                "unsupported variable name `{}` (this checker reads x1, x2, ...)",
                String::from_utf8_lossy(name)
            ));
        }
        v = v
            .checked_mul(10)
            .and_then(|v| v.checked_add(u32::from(d - b'0')))
            .filter(|&v| v <= MAX_VAR)
            .ok_or_else(|| {
                Fail::Syntax(format!(
                    "variable `{}` beyond this checker's limit x{MAX_VAR}",
                    String::from_utf8_lossy(name)
                ))
            })?;
    }
    Ok(v)
}

/// A literal (`~`? name) starting at `first`: `(var, negated)`.
fn literal(lex: &mut Lexer<'_>, first: Tok<'_>) -> Res<(u32, bool)> {
    match first {
        Tok::Ident(name) => Ok((var_of(name)?, false)),
        Tok::Tilde => match lex.next()? {
            Some(Tok::Ident(name)) => Ok((var_of(name)?, true)),
            Some(t) => syntax(format!("expected a variable after `~`, found {}", show(t))),
            None => syntax("expected a variable after `~`"),
        },
        t => syntax(format!("expected a literal, found {}", show(t))),
    }
}

fn to_i64(value: i128) -> Res<i64> {
    i64::try_from(value).map_err(|_| Fail::Syntax(format!("integer {value} beyond 64 bits")))
}

/// Parses the terms and relation of a linear constraint (`coef lit ... REL rhs`), up to and
/// including the right-hand side. The literals' variables are in `vars` order.
fn parse_linear(lex: &mut Lexer<'_>, eq_allowed: bool) -> Res<PbConstraint> {
    let mut terms = Vec::new();
    loop {
        match lex.next()? {
            Some(Tok::Int { value, .. }) => {
                let coef = to_i64(value)?;
                let first = lex
                    .next()?
                    .ok_or_else(|| Fail::Syntax("expected a literal after a coefficient".into()))?;
                let (v, neg) = literal(lex, first)?;
                let lit = v as i32;
                terms.push((coef, if neg { -lit } else { lit }));
            }
            Some(Tok::Ge) => break finish_linear(lex, terms, Relation::Ge),
            Some(Tok::Le) => break finish_linear(lex, terms, Relation::Le),
            Some(Tok::Eq) if eq_allowed => break finish_linear(lex, terms, Relation::Eq),
            Some(t @ (Tok::Ident(_) | Tok::Tilde)) if terms.is_empty() => {
                break syntax(format!(
                    "unsupported: a reified constraint or a term without coefficient ({})",
                    show(t)
                ));
            }
            Some(t) => {
                break syntax(format!(
                    "expected a coefficient or {}, found {}",
                    if eq_allowed {
                        "`>=`, `<=`, `=`"
                    } else {
                        "`>=`, `<=`"
                    },
                    show(t)
                ));
            }
            None => break syntax("expected a coefficient or a relation"),
        }
    }
}

fn finish_linear(
    lex: &mut Lexer<'_>,
    terms: Vec<(i64, i32)>,
    relation: Relation,
) -> Res<PbConstraint> {
    match lex.next()? {
        Some(Tok::Int { value, .. }) => Ok(PbConstraint {
            terms,
            relation,
            rhs: to_i64(value)?,
        }),
        Some(t) => syntax(format!("expected the right-hand side, found {}", show(t))),
        None => syntax("expected the right-hand side"),
    }
}

/// Parses an OPB text (`* ` comment lines, one or more constraints per `;`, general integer
/// coefficients, `>=`, `<=`, `=`; no objective): the highest variable index and the
/// constraints, in order. `source` names the text in errors.
pub fn parse_opb(text: &str, source: &str) -> Result<(u32, Vec<PbConstraint>)> {
    let mut out = Vec::new();
    let mut num_vars = 0u32;
    let mut pending = String::new();
    let mut start_line = 0;
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        if line.starts_with('*') {
            continue;
        }
        if pending.trim().is_empty() {
            start_line = line_no;
        }
        pending.push_str(line);
        pending.push(' ');
        while let Some(end) = pending.find(';') {
            let stmt: String = pending[..end].to_string();
            pending.drain(..=end);
            let mut lex = Lexer::new(stmt.as_bytes());
            if let Ok(Some(Tok::Ident(w))) = lex.peek()
                && (w == b"min" || w == b"max")
            {
                return Err(Error::parse(
                    source,
                    start_line,
                    "an objective (this checker reads decision problems)",
                ));
            }
            let c = parse_linear(&mut lex, true)
                .and_then(|c| lex.expect_end("the right-hand side").map(|()| c))
                .map_err(|f| match f {
                    Fail::Syntax(m) | Fail::Check(m) => Error::parse(source, start_line, m),
                })?;
            for &(_, l) in &c.terms {
                num_vars = num_vars.max(l.unsigned_abs());
            }
            out.push(c);
            start_line = line_no;
        }
    }
    if !pending.trim().is_empty() {
        return Err(Error::parse(
            source,
            start_line,
            "a constraint without its closing `;`",
        ));
    }
    Ok((num_vars, out))
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

type Derived = HashMap<u64, Constr, BuildHasherDefault<IdHasher>>;

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
            derived: HashMap::default(),
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
            let bad = |m: String| Error::Usage(format!("PB constraint {}: {m}", i + 1));
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

    /// Checks the proof read from `reader`, line by line.
    pub fn check_reader(&mut self, mut reader: impl BufRead) -> Result<()> {
        let mut buf = Vec::with_capacity(256);
        loop {
            buf.clear();
            let n = reader
                .read_until(b'\n', &mut buf)
                .map_err(|e| Error::io(&self.source, e))?;
            if n == 0 {
                return Ok(());
            }
            self.check_line_bytes(&buf)?;
        }
    }

    /// Checks the complete lines of `text` (a chunk of the proof).
    pub fn check_text(&mut self, text: &str) -> Result<()> {
        for line in text.lines() {
            self.check_line_bytes(line.as_bytes())?;
        }
        Ok(())
    }

    /// Checks one line of the proof (with or without its line break).
    pub fn check_line(&mut self, line: &str) -> Result<()> {
        self.check_line_bytes(line.as_bytes())
    }

    /// Checks one line of the proof, as bytes.
    pub fn check_line_bytes(&mut self, line: &[u8]) -> Result<()> {
        self.line += 1;
        let line_no = self.line;
        let mut line = line;
        while let Some((&last, rest)) = line.split_last() {
            if last == b'\n' || last == b'\r' {
                line = rest;
            } else {
                break;
            }
        }
        if self.phase == Phase::Header {
            let trimmed = line.trim_ascii_end();
            if trimmed != b"pseudo-Boolean proof version 3.0" {
                return Err(Error::parse(
                    &self.source,
                    line_no,
                    "expected the header `pseudo-Boolean proof version 3.0`",
                ));
            }
            self.phase = Phase::Steps;
            return Ok(());
        }
        if self.phase == Phase::Done {
            // VeriPB: only whitespace after the end (not even comments).
            if !line.trim_ascii().is_empty() {
                return Err(Error::parse(
                    &self.source,
                    line_no,
                    "text after `end pseudo-Boolean proof`",
                ));
            }
            return Ok(());
        }
        let special = line.iter().position(|&b| b == b';' || b == b'%');
        if self.pending.is_empty()
            && let Some(i) = special
            && line[i] == b';'
        {
            // The common case: one statement on the line (and maybe a comment after it).
            let rest = line[i + 1..].trim_ascii_start();
            if rest.is_empty() || rest[0] == b'%' {
                return self.statement(&line[..i], line_no);
            }
        }
        if let Some(i) = line.iter().position(|&b| b == b'%') {
            line = &line[..i];
        }
        if self.pending.is_empty() {
            if line.trim_ascii().is_empty() {
                return Ok(());
            }
            self.pending_line = line_no;
        }
        self.pending.extend_from_slice(line);
        self.pending.push(b' ');
        while let Some(i) = self.pending.iter().position(|&b| b == b';') {
            let stmt: Vec<u8> = self.pending.drain(..=i).collect();
            let at = self.pending_line;
            self.pending_line = line_no;
            self.statement(&stmt[..stmt.len() - 1], at)?;
        }
        if self.pending.trim_ascii().is_empty() {
            self.pending.clear();
        } else if self.phase == Phase::Done {
            return Err(Error::parse(
                &self.source,
                line_no,
                "text after `end pseudo-Boolean proof`",
            ));
        }
        Ok(())
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

    fn statement(&mut self, stmt: &[u8], line_no: usize) -> Result<()> {
        let r = self.dispatch(stmt);
        r.map_err(|f| match f {
            Fail::Syntax(m) => Error::parse(&self.source, line_no, m),
            Fail::Check(m) => Error::Solver(format!(
                "VeriPB proof {}:{line_no}: the step does not check: {m}",
                self.source
            )),
        })
    }

    fn dispatch(&mut self, stmt: &[u8]) -> Res<()> {
        let mut lex = Lexer::new(stmt);
        let rule = match lex.next()? {
            Some(Tok::Ident(r)) => r,
            Some(t) => return syntax(format!("expected a rule name, found {}", show(t))),
            None => return syntax("an empty statement"),
        };
        let in_steps = self.phase == Phase::Steps;
        match rule {
            b"rup" if in_steps => self.rup_line(&mut lex),
            b"pol" if in_steps => self.pol(&mut lex),
            b"del" if in_steps => self.del(&mut lex),
            b"f" if in_steps => self.formula(&mut lex),
            b"output" if in_steps => {
                match lex.next()? {
                    Some(Tok::Ident(b"NONE")) => {}
                    _ => return syntax("unsupported output (this checker reads `output NONE ;`)"),
                }
                lex.expect_end("`output NONE`")?;
                self.phase = Phase::Output;
                Ok(())
            }
            b"conclusion" if self.phase == Phase::Output => self.conclusion(&mut lex),
            b"end" if self.phase == Phase::Conclusion => {
                for w in [&b"pseudo-Boolean"[..], b"proof"] {
                    match lex.next()? {
                        Some(Tok::Ident(x)) if x == w => {}
                        _ => return syntax("expected `end pseudo-Boolean proof ;`"),
                    }
                }
                lex.expect_end("`end pseudo-Boolean proof`")?;
                self.phase = Phase::Done;
                Ok(())
            }
            _ => {
                let what = String::from_utf8_lossy(rule);
                let expected = match self.phase {
                    Phase::Steps => "`rup`, `pol`, `del`, `f` or `output`",
                    Phase::Output => "`conclusion`",
                    _ => "`end pseudo-Boolean proof`",
                };
                syntax(format!(
                    "unsupported or misplaced rule `{what}` (this checker expects {expected} here)"
                ))
            }
        }
    }

    fn formula(&mut self, lex: &mut Lexer<'_>) -> Res<()> {
        let n = match lex.next()? {
            Some(Tok::Int {
                value,
                signed: false,
            }) => value,
            _ => return syntax("expected `f N ;` with an unsigned N"),
        };
        lex.expect_end("`f N`")?;
        if n != i128::from(self.live) {
            return check_fail(format!(
                "`f {n}`, but the database holds {} constraints",
                self.live
            ));
        }
        Ok(())
    }

    /// A constraint ID token: non-zero and unsigned, or negative (relative).
    fn id_token(t: Tok<'_>) -> Res<i64> {
        match t {
            Tok::Int {
                value,
                signed: false,
            } if value != 0 => to_i64(value),
            Tok::Int { value, .. } if value < 0 => to_i64(value),
            t => syntax(format!("expected a constraint ID, found {}", show(t))),
        }
    }

    fn del(&mut self, lex: &mut Lexer<'_>) -> Res<()> {
        match lex.next()? {
            Some(Tok::Ident(b"id")) => {}
            _ => return syntax("unsupported deletion (this checker reads `del id ... ;`)"),
        }
        let mut ids = std::mem::take(&mut self.ids);
        ids.clear();
        let res = (|| {
            while let Some(t) = lex.next()? {
                if t == Tok::Colon {
                    return syntax("unsupported: a deletion with a witness");
                }
                let raw = Self::id_token(t)?;
                ids.push(self.normalize_id(raw)?);
            }
            self.delete_ids(&mut ids)
        })();
        self.ids = ids;
        res
    }

    /// Deletes the (normalized) IDs `ids`, all or none.
    fn delete_ids(&mut self, ids: &mut Vec<u64>) -> Res<()> {
        ids.sort_unstable();
        ids.dedup();
        for &id in ids.iter() {
            self.lookup(id)?;
        }
        for &id in ids.iter() {
            let gone = if id as usize <= self.orig.len() {
                self.binary[id as usize - 1] = NOT_BINARY;
                self.orig[id as usize - 1].take()
            } else {
                self.derived.remove(&id)
            };
            if let Some(c) = gone
                && self.spare.len() < SPARE
            {
                self.spare.push(c);
            }
        }
        self.live -= ids.len() as u64;
        self.steps.del += 1;
        self.steps.deleted += ids.len() as u64;
        Ok(())
    }

    /// The contradiction `conclusion UNSAT` names (`Some(raw ID)`) or, without an ID, one in
    /// the database.
    fn contradiction_at(&self, raw: Option<i64>) -> Res<u64> {
        match raw {
            None => self
                .orig
                .iter()
                .enumerate()
                .filter_map(|(i, c)| c.as_ref().map(|c| (i as u64 + 1, c)))
                .chain(self.derived.iter().map(|(&id, c)| (id, c)))
                .filter(|(_, c)| c.is_contradiction())
                .map(|(id, _)| id)
                .min()
                .ok_or_else(|| {
                    Fail::Check(
                        "`conclusion UNSAT`, but the database holds no contradiction".into(),
                    )
                }),
            Some(raw) => {
                let id = self.normalize_id(raw)?;
                if !self.lookup(id)?.is_contradiction() {
                    return check_fail(format!(
                        "`conclusion UNSAT : {raw}`, but constraint {id} is no contradiction"
                    ));
                }
                Ok(id)
            }
        }
    }

    fn conclusion(&mut self, lex: &mut Lexer<'_>) -> Res<()> {
        match lex.next()? {
            Some(Tok::Ident(b"NONE")) => lex.expect_end("`conclusion NONE`")?,
            Some(Tok::Ident(b"UNSAT")) => {
                let raw = match lex.next()? {
                    None => None,
                    Some(Tok::Colon) => {
                        let t = lex
                            .next()?
                            .ok_or_else(|| Fail::Syntax("expected a constraint ID".into()))?;
                        let raw = Self::id_token(t)?;
                        lex.expect_end("the conclusion's constraint ID")?;
                        Some(raw)
                    }
                    Some(t) => return syntax(format!("expected `:` or `;`, found {}", show(t))),
                };
                let id = self.contradiction_at(raw)?;
                self.contradiction = Some(id);
                self.concluded_unsat = true;
            }
            _ => {
                return syntax("unsupported conclusion (this checker reads `NONE` and `UNSAT`)");
            }
        }
        self.phase = Phase::Conclusion;
        Ok(())
    }

    /// The constraint of a `rup` (`coef lit ... >= rhs` or `<= rhs`), normalized.
    fn rup_constraint(&mut self, lex: &mut Lexer<'_>) -> Res<Constr> {
        self.norm.clear();
        let res = self.rup_terms(lex);
        self.norm.clear();
        res
    }

    fn rup_terms(&mut self, lex: &mut Lexer<'_>) -> Res<Constr> {
        let mut first = true;
        let ge = loop {
            match lex.next()? {
                Some(Tok::Int { value, .. }) => {
                    let coef = to_i64(value)?;
                    let t = lex.next()?.ok_or_else(|| {
                        Fail::Syntax("expected a literal after a coefficient".into())
                    })?;
                    let (v, neg) = literal(lex, t)?;
                    self.grow(v);
                    self.norm
                        .add(2 * v + u32::from(neg), coef)
                        .ok_or_else(overflow)?;
                }
                Some(Tok::Ge) => break true,
                Some(Tok::Le) => break false,
                Some(t @ (Tok::Ident(_) | Tok::Tilde)) if first => {
                    return syntax(format!(
                        "unsupported: a reified constraint or a term without coefficient ({})",
                        show(t)
                    ));
                }
                Some(t) => {
                    return syntax(format!(
                        "expected a coefficient, `>=` or `<=`, found {}",
                        show(t)
                    ));
                }
                None => return syntax("expected a coefficient or a relation"),
            }
            first = false;
        };
        let rhs = match lex.next()? {
            Some(Tok::Int { value, .. }) => to_i64(value)?,
            Some(t) => return syntax(format!("expected the right-hand side, found {}", show(t))),
            None => return syntax("expected the right-hand side"),
        };
        // `sum a l >= rhs` over positive literals is `c.x >= rhs + d`; `<=` is its negation.
        let d = &mut self.norm;
        d.d = d.d.checked_add(rhs).ok_or_else(overflow)?;
        if !ge {
            d.multiply(-1).ok_or_else(overflow)?;
        }
        d.normalized().ok_or_else(overflow)
    }

    fn rup_line(&mut self, lex: &mut Lexer<'_>) -> Res<()> {
        let k = self.rup_constraint(lex)?;
        let mut hints = std::mem::take(&mut self.hints);
        hints.clear();
        hints.push(0);
        let hinted = match lex.next()? {
            None => false,
            Some(Tok::Colon) => {
                while let Some(t) = lex.next()? {
                    hints.push(if t == Tok::Tilde {
                        0
                    } else {
                        Self::id_token(t)?
                    });
                }
                hints.len() > 1
            }
            Some(t) => {
                self.hints = hints;
                return syntax(format!("expected `:` or `;`, found {}", show(t)));
            }
        };
        let res = self.rup_check(k, &hints, hinted);
        self.hints = hints;
        res
    }

    fn rup_check(&mut self, k: Constr, hints: &[i64], hinted: bool) -> Res<()> {
        // The negation: `sum a ~l >= 1 + sum - degree`.
        self.neg_lits.clear();
        self.neg_lits.extend(k.lits.iter().map(|&l| l ^ 1));
        let neg_deg = 1i64
            .checked_add(k.sum)
            .and_then(|x| x.checked_sub(k.degree))
            .ok_or_else(overflow)?;
        let res = if hinted {
            self.propagate_hints(hints, neg_deg, &k.coefs)
        } else {
            self.propagate_all(neg_deg, &k.coefs)
        };
        for &v in &self.trail {
            self.val[2 * v as usize] = UNDEF;
            self.val[2 * v as usize + 1] = UNDEF;
        }
        self.trail.clear();
        match res? {
            true => {
                if hinted {
                    self.steps.rup += 1;
                } else {
                    self.steps.rup_unhinted += 1;
                }
                self.add_derived(k);
                Ok(())
            }
            false => check_fail(if hinted {
                "rup: propagating the negated constraint and the hints reaches no conflict"
            } else {
                "rup: unit propagation over the database reaches no conflict"
            }),
        }
    }

    /// Unassigns the trail.
    fn reset_trail(&mut self) {
        for &v in &self.trail {
            self.val[2 * v as usize] = UNDEF;
            self.val[2 * v as usize + 1] = UNDEF;
        }
        self.trail.clear();
    }

    /// Hinted propagation over absolute IDs after the negated constraint's (already on the
    /// trail; `negation_propagated`: it assigned something, so the first pass counts as a
    /// change, as in [`PbChecker::propagate_hints`]); `Ok(true)` on a conflict.
    fn propagate_ids(&mut self, hints: &[u64], negation_propagated: bool) -> Res<bool> {
        let mut changed = negation_propagated;
        loop {
            self.steps.hint_visits += 1;
            for &id in hints {
                self.steps.hint_visits += 1;
                if id == 0 {
                    return check_fail("constraint ID 0 as a hint");
                }
                let pair = self
                    .binary
                    .get(id as usize - 1)
                    .copied()
                    .unwrap_or(NOT_BINARY);
                let p = if pair != NOT_BINARY {
                    // A live binary clause: what `propagate` does, without the loop.
                    let (a, b) = (pair[0] as usize, pair[1] as usize);
                    let val = &mut self.val;
                    match (val[a], val[b]) {
                        (FALSE, FALSE) => Prop::Conflict,
                        (FALSE, UNDEF) | (UNDEF, FALSE) => {
                            let l = if val[a] == UNDEF { a } else { b };
                            val[l] = TRUE;
                            val[l ^ 1] = FALSE;
                            self.trail.push((l >> 1) as u32);
                            Prop::Propagated
                        }
                        _ => Prop::Nothing,
                    }
                } else {
                    let Some(c) = find(&self.orig, &self.derived, self.last, id) else {
                        return Err(self.missing(id));
                    };
                    propagate(&mut self.val, &mut self.trail, &c.lits, &c.coefs, c.degree)
                };
                match p {
                    Prop::Conflict => return Ok(true),
                    Prop::Propagated => changed = true,
                    Prop::Nothing => {}
                }
            }
            if !changed {
                return Ok(false);
            }
            changed = false;
        }
    }

    /// Hinted propagation; `Ok(true)` on a conflict.
    fn propagate_hints(&mut self, hints: &[i64], neg_deg: i64, neg_coefs: &[i64]) -> Res<bool> {
        loop {
            let mut changed = false;
            for &raw in hints {
                self.steps.hint_visits += 1;
                let id = self.normalize_id(raw)?;
                let p = if id == 0 {
                    propagate(
                        &mut self.val,
                        &mut self.trail,
                        &self.neg_lits,
                        neg_coefs,
                        neg_deg,
                    )
                } else {
                    let Some(c) = find(&self.orig, &self.derived, self.last, id) else {
                        return Err(self.missing(id));
                    };
                    propagate(&mut self.val, &mut self.trail, &c.lits, &c.coefs, c.degree)
                };
                match p {
                    Prop::Conflict => return Ok(true),
                    Prop::Propagated => changed = true,
                    Prop::Nothing => {}
                }
            }
            if !changed {
                return Ok(false);
            }
        }
    }

    /// Unhinted propagation over every live constraint; `Ok(true)` on a conflict.
    fn propagate_all(&mut self, neg_deg: i64, neg_coefs: &[i64]) -> Res<bool> {
        loop {
            let mut changed = false;
            let mut step = |p: Prop| match p {
                Prop::Conflict => true,
                Prop::Propagated => {
                    changed = true;
                    false
                }
                Prop::Nothing => false,
            };
            if step(propagate(
                &mut self.val,
                &mut self.trail,
                &self.neg_lits,
                neg_coefs,
                neg_deg,
            )) {
                return Ok(true);
            }
            for c in self.orig.iter().flatten().chain(self.derived.values()) {
                if step(propagate(
                    &mut self.val,
                    &mut self.trail,
                    &c.lits,
                    &c.coefs,
                    c.degree,
                )) {
                    return Ok(true);
                }
            }
            if !changed {
                return Ok(false);
            }
        }
    }

    fn pol(&mut self, lex: &mut Lexer<'_>) -> Res<()> {
        let mut stack = std::mem::take(&mut self.stack);
        stack.clear();
        let res = self.pol_eval(lex, &mut stack);
        self.stack = stack;
        // Every scratch form back to clean and free, whatever happened.
        self.free.clear();
        for (i, d) in self.pool.iter_mut().enumerate() {
            d.clear();
            self.free.push(i);
        }
        let c = res?;
        self.steps.pol += 1;
        self.add_derived(c);
        Ok(())
    }

    /// A clean dense form of the pool.
    fn take_dense(&mut self) -> usize {
        match self.free.pop() {
            Some(i) => i,
            None => {
                let mut d = Dense::default();
                d.grow(self.vars);
                self.pool.push(d);
                self.pool.len() - 1
            }
        }
    }

    /// The element as a dense form.
    fn materialize(&mut self, e: Elem) -> Res<usize> {
        match e {
            Elem::Dense(i) => Ok(i),
            Elem::Id { id, mult } => {
                let i = self.take_dense();
                let c = find(&self.orig, &self.derived, self.last, id)
                    .ok_or_else(|| self.missing(id))?;
                self.pool[i].add_constr(c, mult).ok_or_else(overflow)?;
                Ok(i)
            }
            Elem::Axiom { lit, mult } => {
                let i = self.take_dense();
                self.pool[i].add(lit, mult).ok_or_else(overflow)?;
                Ok(i)
            }
        }
    }

    fn pol_eval(&mut self, lex: &mut Lexer<'_>, stack: &mut Vec<Elem>) -> Res<Constr> {
        while let Some(t) = lex.next()? {
            match t {
                Tok::Int {
                    value,
                    signed: false,
                } => {
                    if value == 0 {
                        return syntax("0 is neither a constraint ID nor a factor");
                    }
                    let k = to_i64(value)?;
                    match lex.peek_single() {
                        Some(b'*') => {
                            lex.skip_single();
                            let top = stack.last_mut().ok_or_else(|| {
                                Fail::Syntax("`*` with nothing to multiply".into())
                            })?;
                            match top {
                                Elem::Id { mult, .. } | Elem::Axiom { mult, .. } => {
                                    *mult = mult.checked_mul(k).ok_or_else(overflow)?;
                                }
                                Elem::Dense(i) => {
                                    self.pool[*i].multiply(k).ok_or_else(overflow)?;
                                }
                            }
                        }
                        Some(b'd') => {
                            lex.skip_single();
                            let top = stack
                                .pop()
                                .ok_or_else(|| Fail::Syntax("`d` with nothing to divide".into()))?;
                            let i = self.materialize(top)?;
                            self.pool[i].divide(k).ok_or_else(overflow)?;
                            stack.push(Elem::Dense(i));
                        }
                        Some(b'c' | b'n' | b'm' | b'-') => {
                            return syntax(
                                "unsupported pol operation (variable-form division, MIR, `-`)",
                            );
                        }
                        _ => {
                            let id = self.normalize_id(k)?;
                            self.lookup(id)?;
                            self.steps.pol_operands += 1;
                            stack.push(Elem::Id { id, mult: 1 });
                        }
                    }
                }
                Tok::Int { value, .. } if value < 0 => {
                    let id = self.normalize_id(to_i64(value)?)?;
                    self.lookup(id)?;
                    self.steps.pol_operands += 1;
                    stack.push(Elem::Id { id, mult: 1 });
                }
                Tok::Plus => {
                    if stack.len() < 2 {
                        return syntax("`+` needs two constraints on the stack");
                    }
                    let b = stack.pop().expect("two on the stack");
                    let a = stack.pop().expect("two on the stack");
                    let i = self.materialize(a)?;
                    match b {
                        Elem::Id { id, mult } => {
                            let c = find(&self.orig, &self.derived, self.last, id)
                                .ok_or_else(|| self.missing(id))?;
                            self.pool[i].add_constr(c, mult).ok_or_else(overflow)?;
                        }
                        Elem::Axiom { lit, mult } => {
                            self.pool[i].add(lit, mult).ok_or_else(overflow)?;
                        }
                        Elem::Dense(j) => {
                            let mut other = std::mem::take(&mut self.pool[j]);
                            let r = self.pool[i].add_dense(&mut other);
                            self.pool[j] = other;
                            r.ok_or_else(overflow)?;
                            self.free.push(j);
                        }
                    }
                    stack.push(Elem::Dense(i));
                }
                Tok::Ident(b"s") => {
                    let top = stack
                        .pop()
                        .ok_or_else(|| Fail::Syntax("`s` with nothing to saturate".into()))?;
                    let i = self.materialize(top)?;
                    self.pool[i].saturate().ok_or_else(overflow)?;
                    stack.push(Elem::Dense(i));
                }
                t @ (Tok::Ident(_) | Tok::Tilde) => {
                    if let Tok::Ident(w) = t
                        && matches!(w, b"d" | b"w" | b"c" | b"n" | b"m")
                    {
                        return syntax(format!(
                            "`{}` without its operand, or outside the subset",
                            String::from_utf8_lossy(w)
                        ));
                    }
                    let (var, negated) = literal(lex, t)?;
                    self.grow(var);
                    if !negated && lex.peek_single() == Some(b'w') {
                        lex.skip_single();
                        let top = stack
                            .pop()
                            .ok_or_else(|| Fail::Syntax("`w` with nothing to weaken".into()))?;
                        let i = self.materialize(top)?;
                        self.pool[i].weaken(var).ok_or_else(overflow)?;
                        stack.push(Elem::Dense(i));
                    } else {
                        self.steps.pol_operands += 1;
                        stack.push(Elem::Axiom {
                            lit: 2 * var + u32::from(negated),
                            mult: 1,
                        });
                    }
                }
                t => return syntax(format!("unexpected {} in a pol step", show(t))),
            }
        }
        if stack.len() != 1 {
            return syntax(format!(
                "a pol step must leave one constraint on the stack, not {}",
                stack.len()
            ));
        }
        let i = self.materialize(stack[0])?;
        self.pool[i].normalized().ok_or_else(overflow)
    }
}

/// An operand of [`PbChecker::pol_sum`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PolTerm {
    /// A constraint by its ID (negative: relative to the last, as in the text).
    Id(i64),
    /// The literal axiom `lit >= 0` of a literal (`5` is `x5`, `-5` is `~x5`).
    Axiom(i32),
}

/// Structured steps: the checks of the proof lines without their text, for a search that holds
/// its steps in memory (no lexing). They may be mixed with text lines; the first one stands for
/// the header. The errors name the step kind and the last ID.
impl PbChecker {
    fn structured<T>(&mut self, kind: &str, f: impl FnOnce(&mut Self) -> Res<T>) -> Result<T> {
        if self.phase == Phase::Header {
            self.phase = Phase::Steps;
        }
        if self.phase != Phase::Steps {
            return Err(Error::Solver(format!(
                "VeriPB proof {}: a {kind} step after the proof's output section",
                self.source
            )));
        }
        f(self).map_err(|e| {
            let (Fail::Syntax(m) | Fail::Check(m)) = e;
            Error::Solver(format!(
                "VeriPB proof {}: the {kind} step after ID {} does not check: {m}",
                self.source, self.last
            ))
        })
    }

    /// A literal of the structured API, as `2 * var + negated` (the arrays grown).
    fn lit_of(&mut self, l: i32) -> Res<u32> {
        if l == 0 || l.unsigned_abs() > MAX_VAR {
            return syntax(format!("literal {l} out of range"));
        }
        self.grow(l.unsigned_abs());
        Ok(2 * l.unsigned_abs() + u32::from(l < 0))
    }

    /// `rup` of `sum coef * lit REL rhs` (`>=` or `<=`) with the hints `hints` (none: RUP over
    /// the whole database); the new constraint's ID.
    pub fn rup(
        &mut self,
        terms: &[(i64, i32)],
        relation: Relation,
        rhs: i64,
        hints: &[i64],
    ) -> Result<u64> {
        self.structured("rup", |ck| {
            if relation == Relation::Eq {
                return syntax("a rup of an equality");
            }
            let mut lits = Vec::with_capacity(terms.len());
            for &(a, l) in terms {
                lits.push((a, ck.lit_of(l)?));
            }
            let k = ck.normalize(lits.into_iter(), relation == Relation::Ge, rhs)?;
            let mut all = std::mem::take(&mut ck.hints);
            all.clear();
            all.push(0);
            all.extend_from_slice(hints);
            let res = ck.rup_check(k, &all, !hints.is_empty());
            ck.hints = all;
            res.map(|()| ck.last)
        })
    }

    /// `pol` of the sum of `mult * operand` over `ops` (every `mult >= 1`), the form
    /// `op1 m1 * op2 m2 * + ... ;` of the text; the new constraint's ID.
    pub fn pol_sum(&mut self, ops: &[(PolTerm, i64)]) -> Result<u64> {
        self.structured("pol", |ck| {
            let res = ck.pol_sum_inner(ops);
            ck.free.clear();
            for (i, d) in ck.pool.iter_mut().enumerate() {
                d.clear();
                ck.free.push(i);
            }
            let c = res?;
            ck.steps.pol += 1;
            ck.steps.pol_operands += ops.len() as u64;
            Ok(ck.add_derived(c))
        })
    }

    fn pol_sum_inner(&mut self, ops: &[(PolTerm, i64)]) -> Res<Constr> {
        if ops.is_empty() {
            return syntax("a pol step without operands");
        }
        let i = self.take_dense();
        for &(op, mult) in ops {
            if mult < 1 {
                return syntax(format!("the factor {mult} (factors are positive)"));
            }
            match op {
                PolTerm::Id(raw) => {
                    if raw == 0 {
                        return syntax("0 is no constraint ID");
                    }
                    let id = self.normalize_id(raw)?;
                    let c = find(&self.orig, &self.derived, self.last, id)
                        .ok_or_else(|| self.missing(id))?;
                    self.pool[i].add_constr(c, mult).ok_or_else(overflow)?;
                }
                PolTerm::Axiom(l) => {
                    let lit = self.lit_of(l)?;
                    self.pool[i].add(lit, mult).ok_or_else(overflow)?;
                }
            }
        }
        let mut c = self.spare.pop().unwrap_or_default();
        self.pool[i].take_constr_into(&mut c).ok_or_else(overflow)?;
        Ok(c)
    }

    /// `del id` of `ids`.
    pub fn delete(&mut self, ids: &[i64]) -> Result<()> {
        self.structured("del", |ck| {
            let mut norm = std::mem::take(&mut ck.ids);
            norm.clear();
            let res = (|| {
                for &raw in ids {
                    if raw == 0 {
                        return syntax("0 is no constraint ID");
                    }
                    norm.push(ck.normalize_id(raw)?);
                }
                ck.delete_ids(&mut norm)
            })();
            ck.ids = norm;
            res
        })
    }

    /// `f n ;`: the database holds `n` constraints.
    pub fn check_formula(&mut self, n: u64) -> Result<()> {
        self.structured("f", |ck| {
            if n != ck.live {
                return check_fail(format!(
                    "`f {n}`, but the database holds {} constraints",
                    ck.live
                ));
            }
            Ok(())
        })
    }

    /// `rup` of the clause `sum_{v in negated} 1 ~x_v >= 1` with the hints `hints` (IDs, not
    /// relative, at least one): the same check as [`PbChecker::rup`] of that constraint, without
    /// building it term by term; the new constraint's ID.
    pub fn rup_clause(&mut self, negated: &[u32], hints: &[u64]) -> Result<u64> {
        self.structured("rup", |ck| {
            if hints.is_empty() {
                return syntax("a rup clause without hints");
            }
            for &v in negated {
                if v == 0 || v > MAX_VAR {
                    return syntax(format!("variable {v} out of range"));
                }
                ck.grow(v);
            }
            // The negation `sum x_v >= |negated|` sets every x_v true; a variable twice takes the
            // general route (its normalized form has a coefficient 2).
            for &v in negated {
                let l = 2 * v as usize;
                if ck.val[l] != UNDEF {
                    ck.reset_trail();
                    let terms: Vec<(i64, i32)> =
                        negated.iter().map(|&v| (1, -(v as i32))).collect();
                    let hints: Vec<i64> = hints
                        .iter()
                        .map(|&h| h.min(i64::MAX as u64) as i64)
                        .collect();
                    let k = ck.normalize(
                        terms
                            .iter()
                            .map(|&(a, l)| (a, 2 * l.unsigned_abs() + u32::from(l < 0))),
                        true,
                        1,
                    )?;
                    let mut all = vec![0];
                    all.extend_from_slice(&hints);
                    ck.rup_check(k, &all, true)?;
                    return Ok(ck.last);
                }
                ck.val[l] = TRUE;
                ck.val[l + 1] = FALSE;
                ck.trail.push(v);
            }
            let res = ck.propagate_ids(hints, !negated.is_empty());
            ck.reset_trail();
            if !res? {
                return check_fail(
                    "rup: propagating the negated constraint and the hints reaches no conflict",
                );
            }
            ck.steps.rup += 1;
            let mut c = ck.spare.pop().unwrap_or_default();
            c.lits.clear();
            c.lits.extend(negated.iter().map(|&v| 2 * v + 1));
            c.coefs.clear();
            c.degree = 1;
            c.sum = negated.len() as i64;
            Ok(ck.add_derived(c))
        })
    }

    /// `del id` of `ids` (IDs, not relative).
    pub fn delete_ids_abs(&mut self, ids: &[u64]) -> Result<()> {
        self.structured("del", |ck| {
            let mut norm = std::mem::take(&mut ck.ids);
            norm.clear();
            norm.extend_from_slice(ids);
            let res = ck.delete_ids(&mut norm);
            ck.ids = norm;
            res
        })
    }

    /// The last constraint ID given (the model's, then one per `rup` and `pol`).
    pub fn last_id(&self) -> u64 {
        self.last
    }

    /// Ends a proof fed as structured steps with `conclusion UNSAT` (on the constraint `id`,
    /// or on any contradiction of the database): the verdict, `unsat` when the contradiction
    /// checks, else an error.
    pub fn conclude_unsat(mut self, id: Option<i64>) -> Result<PbVerdict> {
        let found = self.structured("conclusion", |ck| ck.contradiction_at(id))?;
        Ok(PbVerdict {
            unsat: true,
            contradiction: Some(found),
            steps: self.steps,
        })
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

#[cfg(test)]
mod tests {
    use super::*;

    fn constr(text: &str) -> Constr {
        // A checker over nothing, with the constraint read like a `rup`'s.
        let mut ck = PbChecker::new(10, &[]).unwrap();
        let mut lex = Lexer::new(text.as_bytes());
        let c = parse_linear(&mut lex, false).ok().unwrap();
        let lits = c
            .terms
            .iter()
            .map(|&(a, l)| (a, 2 * l.unsigned_abs() + u32::from(l < 0)));
        ck.normalize(lits, c.relation == Relation::Ge, c.rhs)
            .ok()
            .unwrap()
    }

    /// `(coef, dimacs literal)` sorted by variable, and the degree.
    fn show(c: &Constr) -> (Vec<(i64, i32)>, i64) {
        let mut t: Vec<(i64, i32)> = (0..c.lits.len())
            .map(|i| {
                let l = c.lits[i];
                let v = (l >> 1) as i32;
                (c.coef(i), if l & 1 == 1 { -v } else { v })
            })
            .collect();
        t.sort_by_key(|&(_, l)| l.abs());
        (t, c.degree)
    }

    #[test]
    fn normalization_of_x_and_not_x_terms() {
        // 3 x1 + 2 ~x1 >= 2  ->  x1 + 2 >= 2  ->  x1 >= 0.
        assert_eq!(show(&constr("3 x1 2 ~x1 >= 2")), (vec![(1, 1)], 0));
        // 1 x1 + 3 ~x1 >= 2  ->  2 ~x1 + 1 >= 2  ->  2 ~x1 >= 1.
        assert_eq!(show(&constr("1 x1 3 ~x1 >= 2")), (vec![(2, -1)], 1));
        // -2 x1 + 1 x2 >= -1  ->  2 ~x1 + x2 >= 1.
        assert_eq!(
            show(&constr("-2 x1 1 x2 >= -1")),
            (vec![(2, -1), (1, 2)], 1)
        );
        // x1 + x2 <= 1  ->  ~x1 + ~x2 >= 1.
        assert_eq!(show(&constr("1 x1 1 x2 <= 1")), (vec![(1, -1), (1, -2)], 1));
        // 2 x1 - 2 x1 >= 1: nothing left, degree 1 (a contradiction).
        let c = constr("2 x1 -2 x1 >= 1");
        assert_eq!(show(&c), (vec![], 1));
        assert!(c.is_contradiction());
        // Repeated literals add up; -3 ~x2 is 3 x2 - 3.
        assert_eq!(show(&constr("1 x2 1 x2 -3 ~x2 >= 2")), (vec![(5, 2)], 5));
    }

    fn dense_of(text: &str) -> Dense {
        let c = constr(text);
        let mut d = Dense::default();
        d.grow(11);
        d.add_constr(&c, 1).unwrap();
        d
    }

    #[test]
    fn saturation_division_weakening() {
        // 5 x1 + 2 ~x2 + x3 >= 3, saturated: 3 x1 + 2 ~x2 + x3 >= 3.
        let mut d = dense_of("5 x1 2 ~x2 1 x3 >= 3");
        d.saturate().unwrap();
        assert_eq!(
            show(&d.normalized().unwrap()),
            (vec![(3, 1), (2, -2), (1, 3)], 3)
        );
        // A trivial constraint loses its terms and keeps its degree.
        let mut d = dense_of("5 x1 2 ~x2 >= -4");
        d.saturate().unwrap();
        assert_eq!(show(&d.normalized().unwrap()), (vec![], -4));
        // Division by 2 rounds up: 5 x1 + 2 ~x2 + x3 >= 3 -> 3 x1 + ~x2 + x3 >= 2.
        let mut d = dense_of("5 x1 2 ~x2 1 x3 >= 3");
        d.divide(2).unwrap();
        assert_eq!(
            show(&d.normalized().unwrap()),
            (vec![(3, 1), (1, -2), (1, 3)], 2)
        );
        // A negative degree rounds up too: -3 / 2 -> -1.
        let mut d = dense_of("4 x1 >= -3");
        d.divide(2).unwrap();
        assert_eq!(show(&d.normalized().unwrap()), (vec![(2, 1)], -1));
        // Weakening x2 away: 3 x1 + 2 ~x2 + x3 >= 4 -> 3 x1 + x3 >= 2.
        let mut d = dense_of("3 x1 2 ~x2 1 x3 >= 4");
        d.weaken(2).unwrap();
        d.weaken(7).unwrap();
        assert_eq!(show(&d.normalized().unwrap()), (vec![(3, 1), (1, 3)], 2));
    }

    #[test]
    fn addition_cancels_opposite_literals() {
        // (2 x1 + x2 >= 2) + 3 (~x1 + x3 >= 1) = 2 x1 + 3 ~x1 + x2 + 3 x3 >= 5
        //   = ~x1 + x2 + 3 x3 >= 3.
        let mut d = dense_of("2 x1 1 x2 >= 2");
        d.add_constr(&constr("1 ~x1 1 x3 >= 1"), 3).unwrap();
        assert_eq!(
            show(&d.normalized().unwrap()),
            (vec![(1, -1), (1, 2), (3, 3)], 3)
        );
    }

    #[test]
    fn overflow_is_an_error() {
        let mut d = dense_of("4611686018427387904 x1 >= 1");
        assert!(d.multiply(2).is_none());
        d.clear();
        let mut ck = PbChecker::new(2, &[]).unwrap();
        let big = 1i64 << 62;
        let r = ck.normalize([(big, 2), (big, 4)].into_iter(), true, 1);
        assert!(r.is_err(), "the coefficients' sum overflows");
        let r = ck.normalize([(big, 2), (big, 3)].into_iter(), true, 1);
        assert!(r.is_ok(), "x1 and ~x1 cancel");
        let r = ck.normalize([(i64::MIN, 2)].into_iter(), false, 0);
        assert!(r.is_err(), "-(-2^63) overflows");
    }

    fn run(opb: &str, proof: &str) -> Result<PbVerdict> {
        let mut ck = PbChecker::from_opb(opb, "t.opb")?;
        ck.check_text(proof)?;
        ck.finish()
    }

    const OPB: &str = "* #variable= 2 #constraint= 2\n+1 x1 +1 x2 >= 1 ;\n+1 x1 +1 x2 <= 0 ;\n";

    #[test]
    fn a_small_refutation() {
        let head = "pseudo-Boolean proof version 3.0\nf 2 ;\n";
        let tail = "output NONE ;\nconclusion UNSAT : -1 ;\nend pseudo-Boolean proof ;\n";
        // Hinted rup, then pol, then both without the hints' order mattering.
        let v = run(OPB, &format!("{head}rup >= 1 : 1 2 ;\n{tail}")).unwrap();
        assert!(v.unsat);
        assert_eq!(v.contradiction, Some(3));
        let v = run(OPB, &format!("{head}pol 1 2 + ;\n{tail}")).unwrap();
        assert!(v.unsat);
        let v = run(OPB, &format!("{head}rup >= 1 ;\n% a comment\n{tail}")).unwrap();
        assert_eq!(v.steps.rup_unhinted, 1);
        // Statements over several lines, two on one line.
        let v = run(
            OPB,
            &format!("{head}rup\n >= 1 :\n 1 2 ; del id 2 ;\n{tail}"),
        )
        .unwrap();
        assert!(v.unsat);
        // A proof that concludes nothing is no refutation.
        let v = run(
            OPB,
            &format!("{head}output NONE ;\nconclusion NONE ;\nend pseudo-Boolean proof ;\n"),
        )
        .unwrap();
        assert!(!v.unsat);
    }

    #[test]
    fn the_checker_can_move_to_another_thread() {
        fn send<T: Send>() {}
        send::<PbChecker>();
    }

    #[test]
    fn structured_steps() {
        let mut ck = PbChecker::from_opb(OPB, "t.opb").unwrap();
        // `pol 1 ~x1 + ;` is x2 >= 0... then the refutation of the text test.
        assert_eq!(
            ck.pol_sum(&[(PolTerm::Id(1), 1), (PolTerm::Axiom(-1), 2)])
                .unwrap(),
            3
        );
        assert_eq!(ck.rup(&[(1, -2)], Relation::Ge, 1, &[2]).unwrap(), 4);
        assert!(ck.rup(&[(1, 2)], Relation::Ge, 1, &[4]).is_err());
        ck.delete(&[3, -1]).unwrap();
        assert!(ck.delete(&[3]).unwrap_err().to_string().contains("deleted"));
        assert!(ck.pol_sum(&[(PolTerm::Id(1), 0)]).is_err());
        assert_eq!(ck.rup(&[], Relation::Ge, 1, &[1, 2]).unwrap(), 5);
        let v = ck.conclude_unsat(None).unwrap();
        assert!(v.unsat);
        assert_eq!(v.contradiction, Some(5));
        assert_eq!((v.steps.rup, v.steps.pol, v.steps.deleted), (2, 1, 2));
        // No contradiction: an error.
        let ck = PbChecker::from_opb(OPB, "t.opb").unwrap();
        assert!(ck.conclude_unsat(Some(1)).is_err());
    }

    #[test]
    fn bad_proofs_fail() {
        let head = "pseudo-Boolean proof version 3.0\n";
        let tail = "output NONE ;\nconclusion UNSAT : -1 ;\nend pseudo-Boolean proof ;\n";
        for (proof, what) in [
            (format!("{head}rup >= 1 : 1 ;\n{tail}"), "does not check"),
            (format!("{head}rup >= 1 : 1 3 ;\n{tail}"), "does not exist"),
            (
                format!("{head}del id 2 ;\nrup >= 1 : 1 2 ;\n{tail}"),
                "deleted",
            ),
            (format!("{head}pol 1 ;\n{tail}"), "no contradiction"),
            (format!("{head}rup >= 1 : 1 2 ;\n"), "without `end"),
            (format!("{head}* a comment\n{tail}"), "rule name"),
            (format!("{head}f 3 ;\n{tail}"), "database holds 2"),
            (format!("{head}pol 1 2 ;\n{tail}"), "one constraint"),
            (format!("{head}pol 1 0 * ;\n{tail}"), "neither"),
            (format!("{head}rup 1 x01 >= 1 : 1 ;\n{tail}"), "x01"),
            (format!("{head}del id 1 ; del id 1 ;\n{tail}"), "deleted"),
            (tail.to_string(), "header"),
            (format!("{head}rup >= 1 : 1 2 ;\n{tail}% late\n"), "after"),
            (
                format!("{head}output NONE ;\nconclusion UNSAT ;\nend pseudo-Boolean proof ;\n"),
                "no contradiction",
            ),
        ] {
            let e = run(OPB, &proof).unwrap_err().to_string();
            assert!(e.contains(what), "{proof:?}: {e}");
        }
    }
}
