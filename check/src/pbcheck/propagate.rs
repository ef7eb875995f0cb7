//! Propagation: one constraint VeriPB's way, and the hinted and unhinted RUP checks.

use super::*;

pub(super) const UNDEF: u8 = 0;
pub(super) const TRUE: u8 = 1;
pub(super) const FALSE: u8 = 2;

pub(super) enum Prop {
    Nothing,
    Propagated,
    Conflict,
}

/// Unit propagation of one constraint, VeriPB's way: the slack over the literals that are not
/// false; below 0 a conflict, else every unassigned literal with a coefficient above the slack
/// becomes true. Never overflows: a stored constraint's coefficients sum within `i64`.
#[inline]
pub(super) fn propagate(
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

impl PbChecker {
    pub(super) fn rup_check(&mut self, k: Constr, hints: &[i64], hinted: bool) -> Res<()> {
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
    pub(super) fn reset_trail(&mut self) {
        for &v in &self.trail {
            self.val[2 * v as usize] = UNDEF;
            self.val[2 * v as usize + 1] = UNDEF;
        }
        self.trail.clear();
    }

    /// Hinted propagation over absolute IDs after the negated constraint's (already on the
    /// trail; `negation_propagated`: it assigned something, so the first pass counts as a
    /// change, as in [`PbChecker::propagate_hints`]); `Ok(true)` on a conflict.
    pub(super) fn propagate_ids(&mut self, hints: &[u64], negation_propagated: bool) -> Res<bool> {
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
    pub(super) fn propagate_hints(
        &mut self,
        hints: &[i64],
        neg_deg: i64,
        neg_coefs: &[i64],
    ) -> Res<bool> {
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
    pub(super) fn propagate_all(&mut self, neg_deg: i64, neg_coefs: &[i64]) -> Res<bool> {
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
}
