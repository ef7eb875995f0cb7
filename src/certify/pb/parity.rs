//! The steps of the bitboard search's full tuning: the parity and the forced diagonals
//! (`Writer::parity_pol`, `Writer::forced_pol`; the module docs of [`super`] give the
//! arguments), and `pol` steps in reverse Polish (`Writer::pol_rpn`).

use super::{Id, LastBound, Lit, PolOp, Sink, Writer};

/// A weighted sum of `pol` operands under construction.
#[derive(Default)]
struct PolSum {
    ops: Vec<PolOp>,
}

impl PolSum {
    /// Adds `mult` times `op` (nothing for a multiplier below 1).
    fn add(&mut self, op: PolOp, mult: i64) {
        if mult < 1 {
            return;
        }
        let first = self.ops.is_empty();
        self.ops.push(op);
        if mult != 1 {
            self.ops.push(PolOp::Mul(mult));
        }
        if !first {
            self.ops.push(PolOp::Add);
        }
    }

    /// Applies `op` ([`PolOp::Mul`], [`PolOp::Div`]) to the sum so far (nothing when empty).
    fn apply(&mut self, op: PolOp) {
        if !self.ops.is_empty() {
            self.ops.push(op);
        }
    }
}

/// The steps of the parity and of the forced diagonals (the bitboard search's full tuning).
impl<S: Sink> Writer<'_, S> {
    /// Writes a `pol` step over `ops` (reverse Polish) and returns the ID of what it derives.
    pub(crate) fn pol_rpn(&mut self, ops: &[PolOp]) -> Id {
        let terms = ops
            .iter()
            .filter(|op| matches!(op, PolOp::Id(_) | PolOp::Axiom(_)))
            .count();
        self.out.pol_rpn(ops);
        self.stats.pol_terms += terms as u64;
        self.next += 1;
        self.next - 1
    }

    /// The key of the cell of `var` on the sum diagonals (`anti`: `r + c`) or the difference
    /// diagonals (`r - c + n - 1`).
    fn key_of(&self, var: u32, anti: bool) -> i64 {
        let c = self.g.cell(var);
        if anti {
            i64::from(c.row + c.col)
        } else {
            i64::from(c.row) - i64::from(c.col) + i64::from(self.g.n) - 1
        }
    }

    /// The `<= 1` of diagonal `key` of a family: its constraint, or with one live cell that
    /// cell's `~x >= 0`.
    fn amo_op(&self, anti: bool, key: i64) -> PolOp {
        let k = key as usize;
        let (id, cell) = if anti {
            (self.g.anti_ids[k], self.g.anti_cell[k])
        } else {
            (self.g.diff_ids[k], self.g.diff_cell[k])
        };
        id.map_or(PolOp::Axiom(Lit::neg(cell)), PolOp::Id)
    }

    /// The `>= 1` (`ge`) or the `<= 1` of open row `r` and of free column `c`, as operands.
    fn row_op(&self, r: usize, ge: bool) -> Option<PolOp> {
        let (a, b) = self.g.row_ids.get(r).copied().flatten()?;
        Some(PolOp::Id(if ge { a } else { b }))
    }

    fn col_op(&self, c: usize, ge: bool) -> Option<PolOp> {
        let (a, b) = self.g.col_ids.get(c).copied().flatten()?;
        Some(PolOp::Id(if ge { a } else { b }))
    }

    /// The cross-kind parity at a node whose allowed cells are the variables `allowed`, open
    /// rows `open` and free columns `free`, when it refutes the node: writes the `pol` step
    /// (module docs, "The parity") and returns the ID of the constraint `C` it derives, which a
    /// `rup` of the node's lemma names after the lines that attack every cell that is not
    /// allowed in an open row or a free column (and is not placed). `None` when the parity
    /// holds (or a line has no constraint).
    pub(crate) fn parity_pol(
        &mut self,
        allowed: &[u32],
        open: &[usize],
        free: &[usize],
    ) -> Option<Id> {
        let n = self.g.n as usize;
        // Per class (0: even sum keys, 1: odd), the reachable keys of both families.
        let mut reach = [
            [vec![false; 2 * n], vec![false; 2 * n]],
            [vec![false; 2 * n], vec![false; 2 * n]],
        ];
        for &v in allowed {
            let a = self.key_of(v, true);
            let q = (a % 2) as usize;
            reach[q][0][a as usize] = true;
            reach[q][1][self.key_of(v, false) as usize] = true;
        }
        let count = |keys: &Vec<bool>| keys.iter().filter(|&&x| x).count();
        // Per class: the cap and the family giving it (`true`: the sum diagonals).
        let cap = |q: usize| {
            let (a, d) = (count(&reach[q][0]), count(&reach[q][1]));
            if a <= d { (a, true) } else { (d, false) }
        };
        let ((even, even_anti), (odd, odd_anti)) = (cap(0), cap(1));
        let k = open.len();
        let target: usize = open.iter().sum::<usize>() + free.iter().sum::<usize>();
        let least = k.saturating_sub(even);
        let most = odd.min(k);
        let divide = if least > most {
            false
        } else if least == most && (least + target) % 2 == 1 {
            true
        } else {
            return None;
        };
        let mut is_open = vec![false; n];
        for &r in open {
            is_open[r] = true;
        }
        let family = usize::from(!even_anti);
        let mut sum = PolSum::default();
        if divide {
            // T>=: sum_r r (row r >= 1) + sum_c c (column c >= 1).
            for &r in open {
                sum.add(self.row_op(r, true)?, r as i64);
            }
            for &c in free {
                sum.add(self.col_op(c, true)?, c as i64);
            }
        }
        // L: the odd-key cells hold at least `least` pieces, with coefficient 1 each.
        if least > 0 {
            for &r in open {
                sum.add(self.row_op(r, true)?, 1);
            }
            for (key, _) in reach[0][family].iter().enumerate().filter(|d| *d.1) {
                sum.add(self.amo_op(even_anti, key as i64), 1);
            }
            // Cancel those diagonals' cells outside the open rows with their `x >= 0`: false
            // under the path, their `~x` would not divide exactly.
            for v in 1..=self.g.cells.len() as u32 {
                if !is_open[self.g.cell(v).row as usize]
                    && reach[0][family][self.key_of(v, even_anti) as usize]
                {
                    sum.add(PolOp::Axiom(Lit::pos(v)), 1);
                }
            }
        } else if divide {
            for &v in allowed {
                if self.key_of(v, true) % 2 == 1 {
                    sum.add(PolOp::Axiom(Lit::pos(v)), 1);
                }
            }
        }
        if divide {
            // Every allowed cell's coefficient is even now, the degree odd: halve, double,
            // and take the identity's other side (T<=) away.
            sum.apply(PolOp::Div(2));
            sum.apply(PolOp::Mul(2));
            for &r in open {
                sum.add(self.row_op(r, false)?, r as i64);
            }
            for &c in free {
                sum.add(self.col_op(c, false)?, c as i64);
            }
        }
        // U: the odd-key cells hold at most `most` pieces.
        if odd <= k {
            let odd_keys = &reach[1][usize::from(!odd_anti)];
            for (key, _) in odd_keys.iter().enumerate().filter(|d| *d.1) {
                sum.add(self.amo_op(odd_anti, key as i64), 1);
            }
        } else {
            for &r in open {
                sum.add(self.row_op(r, false)?, 1);
            }
        }
        if sum.ops.is_empty() {
            return None;
        }
        Some(self.pol_rpn(&sum.ops))
    }

    /// The forced diagonal through the cell of `on` (of the sum diagonals when `anti`) at a
    /// node whose allowed cells are the variables `allowed`, open rows `open` and free columns
    /// `free`: when every choice of distinct keys for the open rows' pieces without it misses
    /// the target, writes the `pol` step (module docs, "The forced diagonals") and returns the
    /// ID of the constraint `C` it derives, in which, under the path, only the diagonal's
    /// allowed cells have a positive coefficient and the degree is positive. A `rup` of the
    /// node's lemma then names the children's lemmas, the attacks on every cell that is not
    /// allowed in an open row or a free column, and `C`.
    pub(crate) fn forced_pol(
        &mut self,
        allowed: &[u32],
        open: &[usize],
        free: &[usize],
        anti: bool,
        on: u32,
    ) -> Option<Id> {
        let n = i64::from(self.g.n);
        let forced = self.key_of(on, anti);
        let a = |r: usize| r as i64;
        let b = |c: usize| if anti { c as i64 } else { n - 1 - c as i64 };
        let target: i64 =
            open.iter().map(|&r| a(r)).sum::<i64>() + free.iter().map(|&c| b(c)).sum::<i64>();
        let mut keys: Vec<i64> = allowed.iter().map(|&v| self.key_of(v, anti)).collect();
        keys.sort_unstable();
        keys.dedup();
        let top = *keys.last()?;
        keys.retain(|&d| d != forced);
        let k = open.len();
        let (lower, s) = if keys.len() < k {
            let sum: i64 = keys.iter().sum();
            (true, (top.max(forced) + 1).max(target - sum + 1))
        } else if keys[..k].iter().sum::<i64>() > target && forced < keys[k - 1] {
            (true, keys[k - 1])
        } else if keys[keys.len() - k..].iter().sum::<i64>() < target
            && forced > keys[keys.len() - k]
        {
            (false, keys[keys.len() - k])
        } else {
            return None;
        };
        // Its coefficients are a bound's over the keys without the forced one: the lemma's
        // `rup` names the attacks on the cells with a positive one only ([`Writer::last_bound`]).
        let mut bits = std::mem::take(&mut self.key_bits);
        bits.clear();
        bits.resize((2 * self.g.n as usize).div_ceil(64).max(1), 0);
        for &d in &keys {
            bits[d as usize / 64] |= 1 << (d % 64);
        }
        self.key_bits = bits;
        self.bound = Some(LastBound { anti, lower, s });
        // The sum bound's constraint over the keys without the forced one (module docs).
        let mut sum = PolSum::default();
        for &r in open {
            sum.add(self.row_op(r, !lower)?, a(r));
            sum.add(self.row_op(r, lower)?, s);
        }
        for &c in free {
            sum.add(self.col_op(c, !lower)?, b(c));
        }
        for &d in &keys {
            sum.add(self.amo_op(anti, d), if lower { s - d } else { d - s });
        }
        if sum.ops.is_empty() {
            return None;
        }
        Some(self.pol_rpn(&sum.ops))
    }
}
