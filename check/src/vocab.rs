//! The vocabulary of the pseudo-Boolean proofs, shared by their writer (`queens_sat::certify::pb`),
//! its batch codec and the checker ([`crate::pbcheck`]): constraint IDs, literals, and the
//! operands and operations of a `pol` step, with their word form in a batch.

/// A constraint ID: the model's constraints are 1, 2, ... in order, each derived constraint
/// takes the next.
pub type Id = u64;

/// A literal: a variable (`x1` is 1) and its sign.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Lit {
    /// The variable, from 1.
    pub var: u32,
    /// `~x` when true.
    pub negated: bool,
}

impl Lit {
    /// The literal `x_var`.
    pub fn pos(var: u32) -> Lit {
        Lit {
            var,
            negated: false,
        }
    }

    /// The literal `~x_var`.
    pub fn neg(var: u32) -> Lit {
        Lit { var, negated: true }
    }

    /// The literal of a DIMACS-style integer (`5` is `x5`, `-5` is `~x5`; 0 is none).
    pub fn from_dimacs(l: i32) -> Option<Lit> {
        (l != 0).then(|| Lit {
            var: l.unsigned_abs(),
            negated: l < 0,
        })
    }

    /// The DIMACS-style integer of the literal (`~x5` is -5).
    pub fn to_dimacs(self) -> i64 {
        if self.negated {
            -i64::from(self.var)
        } else {
            i64::from(self.var)
        }
    }
}

/// An operand of a weighted `pol` sum (`op1 m1 * op2 m2 * + ...`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operand {
    /// A constraint by its (absolute) ID.
    Id(Id),
    /// The literal axiom `lit >= 0`.
    Axiom(Lit),
}

/// In an [`Operand`]'s word, the flag of a literal axiom; the variable is in the low 32 bits.
const AXIOM: u64 = 1 << 63;
/// In a literal axiom's word, the flag of a negated literal.
const NEGATED: u64 = 1 << 62;

impl Operand {
    /// The operand as one word of a batch: an ID below 2^62 as itself, a literal axiom flagged.
    pub fn word(self) -> u64 {
        match self {
            Operand::Id(id) => {
                debug_assert!(id < NEGATED);
                id
            }
            Operand::Axiom(l) => AXIOM | if l.negated { NEGATED } else { 0 } | u64::from(l.var),
        }
    }

    /// The operand of a word written by [`Operand::word`] (`None` for a malformed one).
    pub fn from_word(w: u64) -> Option<Operand> {
        if w & AXIOM == 0 {
            return (w & NEGATED == 0).then_some(Operand::Id(w));
        }
        let var = u32::try_from(w & !(AXIOM | NEGATED)).ok()?;
        Some(Operand::Axiom(Lit {
            var,
            negated: w & NEGATED != 0,
        }))
    }
}

/// An operand or an operation of a `pol` step in reverse Polish order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PolOp {
    /// Pushes a constraint by its (absolute) ID.
    Id(Id),
    /// Pushes the literal axiom `lit >= 0`.
    Axiom(Lit),
    /// Adds the two constraints on top.
    Add,
    /// Multiplies the top by a factor (at least 1).
    Mul(i64),
    /// Divides the top by a divisor (at least 1), rounding up in normalized form.
    Div(i64),
}

const R_ID: u64 = 0;
const R_POS: u64 = 1;
const R_NEG: u64 = 2;
const R_ADD: u64 = 3;
const R_MUL: u64 = 4;
const R_DIV: u64 = 5;

impl PolOp {
    /// The operation as two words of a batch: a tag and a value.
    pub fn words(self) -> [u64; 2] {
        match self {
            PolOp::Id(id) => [R_ID, id],
            PolOp::Axiom(Lit {
                var,
                negated: false,
            }) => [R_POS, u64::from(var)],
            PolOp::Axiom(Lit { var, negated: true }) => [R_NEG, u64::from(var)],
            PolOp::Add => [R_ADD, 0],
            PolOp::Mul(k) => [R_MUL, k as u64],
            PolOp::Div(k) => [R_DIV, k as u64],
        }
    }

    /// The operation of two words written by [`PolOp::words`] (`None` for malformed ones).
    pub fn from_words(tag: u64, v: u64) -> Option<PolOp> {
        let int = || i64::try_from(v).ok();
        let var = || u32::try_from(v).ok();
        Some(match tag {
            R_ID => PolOp::Id(v),
            R_POS => PolOp::Axiom(Lit::pos(var()?)),
            R_NEG => PolOp::Axiom(Lit::neg(var()?)),
            R_ADD => PolOp::Add,
            R_MUL => PolOp::Mul(int()?),
            R_DIV => PolOp::Div(int()?),
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_round_trip() {
        for op in [
            Operand::Id(1),
            Operand::Id((1 << 62) - 1),
            Operand::Axiom(Lit::neg(7)),
            Operand::Axiom(Lit::pos(u32::MAX)),
        ] {
            assert_eq!(Operand::from_word(op.word()), Some(op));
        }
        assert_eq!(Operand::from_word(1 << 62), None);
        for op in [
            PolOp::Id(3),
            PolOp::Axiom(Lit::pos(2)),
            PolOp::Axiom(Lit::neg(2)),
            PolOp::Add,
            PolOp::Mul(4),
            PolOp::Div(2),
        ] {
            let [t, v] = op.words();
            assert_eq!(PolOp::from_words(t, v), Some(op));
        }
        assert_eq!(PolOp::from_words(9, 0), None);
        assert_eq!(Lit::from_dimacs(-5), Some(Lit::neg(5)));
        assert_eq!(Lit::neg(5).to_dimacs(), -5);
    }
}
