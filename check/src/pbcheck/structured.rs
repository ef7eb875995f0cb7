//! The structured API: the checks of the proof lines without their text.

use super::*;

/// Structured steps: the checks of the proof lines without their text, for a search that holds
/// its steps in memory (no lexing). They may be mixed with text lines; the first one stands for
/// the header. The errors name the step kind and the last ID.
impl PbChecker {
    fn structured<T>(&mut self, kind: &str, f: impl FnOnce(&mut Self) -> Res<T>) -> Result<T> {
        if self.phase == Phase::Header {
            self.phase = Phase::Steps;
        }
        if self.phase != Phase::Steps {
            return Err(Error::rejected(
                Format::Veripb,
                Some(self.last),
                format!(
                    "VeriPB proof {}: a {kind} step after the proof's output section",
                    self.source
                ),
            ));
        }
        f(self).map_err(|e| {
            let (Fail::Syntax(m) | Fail::Check(m)) = e;
            Error::rejected(
                Format::Veripb,
                Some(self.last),
                format!(
                    "VeriPB proof {}: the {kind} step after ID {} does not check: {m}",
                    self.source, self.last
                ),
            )
        })
    }

    /// A literal of the structured API, as `2 * var + negated` (the arrays grown).
    fn lit_of(&mut self, l: i32) -> Res<u32> {
        match Lit::from_dimacs(l) {
            Some(lit) => self.lit_code(lit),
            None => syntax(format!("literal {l} out of range")),
        }
    }

    /// A [`Lit`] as `2 * var + negated` (the arrays grown).
    fn lit_code(&mut self, l: Lit) -> Res<u32> {
        if l.var == 0 || l.var > MAX_VAR {
            return syntax(format!("literal {} out of range", l.to_dimacs()));
        }
        self.grow(l.var);
        Ok(2 * l.var + u32::from(l.negated))
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
    pub fn pol_sum(&mut self, ops: &[(Operand, i64)]) -> Result<u64> {
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

    fn pol_sum_inner(&mut self, ops: &[(Operand, i64)]) -> Res<Constr> {
        if ops.is_empty() {
            return syntax("a pol step without operands");
        }
        let i = self.take_dense();
        for &(op, mult) in ops {
            if mult < 1 {
                return syntax(format!("the factor {mult} (factors are positive)"));
            }
            match op {
                Operand::Id(id) => {
                    if id == 0 {
                        return syntax("0 is no constraint ID");
                    }
                    let c = find(&self.orig, &self.derived, self.last, id)
                        .ok_or_else(|| self.missing(id))?;
                    self.pool[i].add_constr(c, mult).ok_or_else(overflow)?;
                }
                Operand::Axiom(l) => {
                    let lit = self.lit_code(l)?;
                    self.pool[i].add(lit, mult).ok_or_else(overflow)?;
                }
            }
        }
        let mut c = self.spare.pop().unwrap_or_default();
        self.pool[i].take_constr_into(&mut c).ok_or_else(overflow)?;
        Ok(c)
    }

    /// `pol` of `ops` in reverse Polish order (the operations the text's `pol` takes but
    /// saturation and weakening): the same check as the text of the step, without lexing; the
    /// new constraint's ID.
    pub fn pol_rpn(&mut self, ops: &[PolOp]) -> Result<u64> {
        self.structured("pol", |ck| {
            ck.pol_step(|ck, stack| {
                for &op in ops {
                    match op {
                        PolOp::Id(0) => return syntax("0 is no constraint ID"),
                        PolOp::Id(id) => ck.pol_push_id(stack, id)?,
                        PolOp::Axiom(l) => {
                            let lit = ck.lit_code(l)?;
                            ck.pol_push_axiom(stack, lit);
                        }
                        PolOp::Add => ck.pol_add(stack)?,
                        PolOp::Mul(k) if k >= 1 => ck.pol_mul(stack, k)?,
                        PolOp::Div(k) if k >= 1 => ck.pol_div(stack, k)?,
                        PolOp::Mul(k) | PolOp::Div(k) => {
                            return syntax(format!("the factor {k} (factors are positive)"));
                        }
                    }
                }
                ck.pol_result(stack)
            })?;
            Ok(ck.last)
        })
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
