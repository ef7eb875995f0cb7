//! The text checker: proof lines, statements and their rules.

use super::*;
use std::io::BufRead;

/// Proof lines checked between two questions to `stop` in [`PbChecker::check_reader_until`]: a
/// line (a `pol` derivation over long constraints) can take a fraction of a millisecond.
const STOP_EVERY_LINES: usize = 256;

impl PbChecker {
    /// Checks the proof read from `reader`, line by line.
    pub fn check_reader(&mut self, reader: impl BufRead) -> Result<()> {
        self.check_reader_until(reader, &|| false).map(|_| ())
    }

    /// [`PbChecker::check_reader`] that asks `stop` every 256 lines (a time
    /// limit, a cancel token): `Ok(false)` when it said stop before the end (no verdict),
    /// `Ok(true)` when every line was read and checked.
    pub fn check_reader_until(
        &mut self,
        mut reader: impl BufRead,
        stop: &dyn Fn() -> bool,
    ) -> Result<bool> {
        let mut buf = Vec::with_capacity(256);
        for read in 0usize.. {
            if read % STOP_EVERY_LINES == 0 && stop() {
                return Ok(false);
            }
            buf.clear();
            let n = reader
                .read_until(b'\n', &mut buf)
                .map_err(|e| Error::io(&self.source, e))?;
            if n == 0 {
                break;
            }
            self.check_line_bytes(&buf)?;
        }
        Ok(true)
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

    pub(super) fn statement(&mut self, stmt: &[u8], line_no: usize) -> Result<()> {
        let r = self.dispatch(stmt);
        r.map_err(|f| match f {
            Fail::Syntax(m) => Error::parse(&self.source, line_no, m),
            Fail::Check(m) => Error::rejected(
                Format::Veripb,
                Some(line_no as u64),
                format!(
                    "VeriPB proof {}:{line_no}: the step does not check: {m}",
                    self.source
                ),
            ),
        })
    }

    pub(super) fn dispatch(&mut self, stmt: &[u8]) -> Res<()> {
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

    pub(super) fn formula(&mut self, lex: &mut Lexer<'_>) -> Res<()> {
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
    pub(super) fn id_token(t: Tok<'_>) -> Res<i64> {
        match t {
            Tok::Int {
                value,
                signed: false,
            } if value != 0 => to_i64(value),
            Tok::Int { value, .. } if value < 0 => to_i64(value),
            t => syntax(format!("expected a constraint ID, found {}", show(t))),
        }
    }

    pub(super) fn del(&mut self, lex: &mut Lexer<'_>) -> Res<()> {
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
    pub(super) fn delete_ids(&mut self, ids: &mut Vec<u64>) -> Res<()> {
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
    pub(super) fn contradiction_at(&self, raw: Option<i64>) -> Res<u64> {
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

    pub(super) fn conclusion(&mut self, lex: &mut Lexer<'_>) -> Res<()> {
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
    pub(super) fn rup_constraint(&mut self, lex: &mut Lexer<'_>) -> Res<Constr> {
        self.norm.clear();
        let res = self.rup_terms(lex);
        self.norm.clear();
        res
    }

    pub(super) fn rup_terms(&mut self, lex: &mut Lexer<'_>) -> Res<Constr> {
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

    pub(super) fn rup_line(&mut self, lex: &mut Lexer<'_>) -> Res<()> {
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
    pub(super) fn pol(&mut self, lex: &mut Lexer<'_>) -> Res<()> {
        self.pol_step(|ck, stack| ck.pol_eval(lex, stack))
    }

    pub(super) fn pol_eval(&mut self, lex: &mut Lexer<'_>, stack: &mut Vec<Elem>) -> Res<Constr> {
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
                            self.pol_mul(stack, k)?;
                        }
                        Some(b'd') => {
                            lex.skip_single();
                            self.pol_div(stack, k)?;
                        }
                        Some(b'c' | b'n' | b'm' | b'-') => {
                            return syntax(
                                "unsupported pol operation (variable-form division, MIR, `-`)",
                            );
                        }
                        _ => {
                            let id = self.normalize_id(k)?;
                            self.pol_push_id(stack, id)?;
                        }
                    }
                }
                Tok::Int { value, .. } if value < 0 => {
                    let id = self.normalize_id(to_i64(value)?)?;
                    self.pol_push_id(stack, id)?;
                }
                Tok::Plus => self.pol_add(stack)?,
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
                        self.pol_push_axiom(stack, 2 * var + u32::from(negated));
                    }
                }
                t => return syntax(format!("unexpected {} in a pol step", show(t))),
            }
        }
        self.pol_result(stack)
    }
}
