//! Arithmetic: normalized constraints, the dense linear forms `pol` adds into, and the pool
//! of those forms.

use super::*;

/// A normalized constraint `sum coefs[i] * lits[i] >= degree`; a literal is `2 * var + negated`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Constr {
    pub(super) lits: Vec<u32>,
    /// The coefficients, in the order of `lits`; empty when every coefficient is 1.
    pub(super) coefs: Vec<i64>,
    pub(super) degree: i64,
    /// The sum of the coefficients.
    pub(super) sum: i64,
}

impl Constr {
    /// VeriPB's contradiction: no assignment reaches the degree.
    pub(super) fn is_contradiction(&self) -> bool {
        self.degree > self.sum
    }

    /// The coefficient of the `i`-th term.
    #[cfg(test)]
    pub(super) fn coef(&self, i: usize) -> i64 {
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
pub(super) struct Dense {
    pub(super) c: Vec<i64>,
    pub(super) mark: Vec<bool>,
    pub(super) touched: Vec<u32>,
    pub(super) d: i64,
}

/// `ceil(a / d)` for `d > 0` (towards positive infinity, also for negative `a`).
pub(super) fn div_ceil(a: i64, d: i64) -> i64 {
    let q = a / d;
    if a % d > 0 { q + 1 } else { q }
}

impl Dense {
    pub(super) fn grow(&mut self, vars: usize) {
        if self.c.len() < vars {
            self.c.resize(vars, 0);
            self.mark.resize(vars, false);
        }
    }

    pub(super) fn clear(&mut self) {
        for &v in &self.touched {
            self.c[v as usize] = 0;
            self.mark[v as usize] = false;
        }
        self.touched.clear();
        self.d = 0;
    }

    #[inline(always)]
    pub(super) fn touch(&mut self, v: usize) {
        if !self.mark[v] {
            self.mark[v] = true;
            self.touched.push(v as u32);
        }
    }

    /// Adds `a * lit` (any sign) to the left-hand side.
    #[inline(always)]
    pub(super) fn add(&mut self, lit: u32, a: i64) -> Option<()> {
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
    pub(super) fn add_constr(&mut self, c: &Constr, mult: i64) -> Option<()> {
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
    pub(super) fn add_dense(&mut self, other: &mut Dense) -> Option<()> {
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

    pub(super) fn multiply(&mut self, k: i64) -> Option<()> {
        for &v in &self.touched {
            let c = &mut self.c[v as usize];
            *c = c.checked_mul(k)?;
        }
        self.d = self.d.checked_mul(k)?;
        Some(())
    }

    /// The degree of the normalized form.
    pub(super) fn degree(&self) -> Option<i64> {
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
    pub(super) fn renormalize(&mut self, deg: i64, f: impl Fn(u64) -> u64) -> Option<()> {
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
    pub(super) fn saturate(&mut self) -> Option<()> {
        let deg = self.degree()?;
        if deg <= 0 {
            self.renormalize(deg, |_| 0)
        } else {
            self.renormalize(deg, |a| a.min(deg as u64))
        }
    }

    /// Division of the normalized form by `k > 0`, rounding coefficients and degree up.
    pub(super) fn divide(&mut self, k: i64) -> Option<()> {
        let deg = div_ceil(self.degree()?, k);
        self.renormalize(deg, |a| a.div_ceil(k as u64))
    }

    /// Weakening: the variable's term goes, and its coefficient off the normalized degree
    /// (over positive literals: `d` drops by a positive coefficient only).
    pub(super) fn weaken(&mut self, var: u32) -> Option<()> {
        let c = &mut self.c[var as usize];
        if *c > 0 {
            self.d = self.d.checked_sub(*c)?;
        }
        *c = 0;
        Some(())
    }

    /// The normalized constraint.
    pub(super) fn normalized(&mut self) -> Option<Constr> {
        let mut c = Constr::default();
        self.write_normalized(&mut c, false)?;
        Some(c)
    }

    /// The normalized constraint, into `out` (its buffers reused); the form is left clean
    /// (also on an overflow).
    pub(super) fn take_constr_into(&mut self, out: &mut Constr) -> Option<()> {
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
    pub(super) fn write_normalized(&mut self, out: &mut Constr, reset: bool) -> Option<()> {
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

impl PbChecker {
    /// A clean dense form of the pool.
    pub(super) fn take_dense(&mut self) -> usize {
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
    pub(super) fn materialize(&mut self, e: Elem) -> Res<usize> {
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

    /// A `pol` step: `eval` works the stack (the text's or the structured operations) into the
    /// new constraint, which is added; every scratch form goes back clean, whatever happened.
    pub(super) fn pol_step(
        &mut self,
        eval: impl FnOnce(&mut Self, &mut Vec<Elem>) -> Res<Constr>,
    ) -> Res<()> {
        let mut stack = std::mem::take(&mut self.stack);
        stack.clear();
        let res = eval(self, &mut stack);
        self.stack = stack;
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

    /// Pushes the live constraint `id` (absolute) onto a `pol` stack.
    pub(super) fn pol_push_id(&mut self, stack: &mut Vec<Elem>, id: u64) -> Res<()> {
        self.lookup(id)?;
        self.steps.pol_operands += 1;
        stack.push(Elem::Id { id, mult: 1 });
        Ok(())
    }

    /// Pushes the literal axiom `lit >= 0` (`2 * var + negated`, the arrays grown).
    pub(super) fn pol_push_axiom(&mut self, stack: &mut Vec<Elem>, lit: u32) {
        self.steps.pol_operands += 1;
        stack.push(Elem::Axiom { lit, mult: 1 });
    }

    /// `k *`: multiplies the top of a `pol` stack.
    pub(super) fn pol_mul(&mut self, stack: &mut [Elem], k: i64) -> Res<()> {
        let top = stack
            .last_mut()
            .ok_or_else(|| Fail::Syntax("`*` with nothing to multiply".into()))?;
        match top {
            Elem::Id { mult, .. } | Elem::Axiom { mult, .. } => {
                *mult = mult.checked_mul(k).ok_or_else(overflow)?;
            }
            Elem::Dense(i) => {
                self.pool[*i].multiply(k).ok_or_else(overflow)?;
            }
        }
        Ok(())
    }

    /// `k d`: divides the top of a `pol` stack.
    pub(super) fn pol_div(&mut self, stack: &mut Vec<Elem>, k: i64) -> Res<()> {
        let top = stack
            .pop()
            .ok_or_else(|| Fail::Syntax("`d` with nothing to divide".into()))?;
        let i = self.materialize(top)?;
        self.pool[i].divide(k).ok_or_else(overflow)?;
        stack.push(Elem::Dense(i));
        Ok(())
    }

    /// `+`: adds the two constraints on top of a `pol` stack.
    pub(super) fn pol_add(&mut self, stack: &mut Vec<Elem>) -> Res<()> {
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
        Ok(())
    }

    /// The constraint a finished `pol` stack derives (exactly one element left).
    pub(super) fn pol_result(&mut self, stack: &[Elem]) -> Res<Constr> {
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
