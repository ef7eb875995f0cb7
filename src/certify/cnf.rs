//! The one form a formula takes from the encoder to the checkers (issue 65): a CNF in DIMACS
//! numbering, [`Cnf`]. The proofs' models (the pairwise CNF of a problem, presolved or not,
//! and a problem's encoding under any options), the coverage formulas of the certified cube
//! splits and the DRAT check's formula are all built here.

use crate::board::Cell;
use crate::encode::amo::AmoKind;
use crate::encode::{EncodeOptions, Encoder, VecSink};
use crate::error::Result;
use crate::instance::Instance;
use crate::piece::Piece;
use crate::presolve::Problem;
use crate::varmap::VarMap;

/// A CNF in DIMACS numbering (variable `v` is `v`, its negation `-v`; cell variables as the
/// problem's [`VarMap`] numbers them, auxiliary variables after them).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cnf {
    /// Variables.
    pub vars: u32,
    /// Clauses.
    pub clauses: Vec<Vec<i32>>,
}

impl Cnf {
    /// `problem` encoded with `options` (what `encode` writes for it): the model of a solver's
    /// DRAT proof and of a certified cube solver's proofs.
    pub(crate) fn encoded(problem: &Problem, options: EncodeOptions) -> Cnf {
        let mut sink = VecSink::default();
        let stats = Encoder::with_options(problem, options).encode(&mut sink);
        Cnf {
            vars: stats.vars as u32,
            clauses: sink
                .clauses
                .into_iter()
                .map(|c| c.iter().map(|l| l.to_dimacs()).collect())
                .collect(),
        }
    }

    /// `problem` with pairwise at-most-one and nothing else (what `encode --amo pairwise`
    /// writes): the CNF the LRAT proofs refute.
    pub(crate) fn pairwise(problem: &Problem) -> Cnf {
        Cnf::encoded(problem, EncodeOptions::from(AmoKind::Pairwise))
    }

    /// `instance` unpresolved with pairwise at-most-one (what `encode --amo pairwise
    /// --no-presolve` writes): the CNF a presolve proof refutes.
    pub(crate) fn full_pairwise(instance: &Instance, piece: Piece) -> Result<Cnf> {
        Ok(Cnf::pairwise(&Problem::full(instance, piece)?))
    }

    /// Adds, per cube (the cells its pieces stand on, numbered by `varmap`), the clause that no
    /// board holds all its pieces. A cube with a cell that is not live holds no board and adds
    /// nothing.
    pub(crate) fn exclude<'c>(
        &mut self,
        varmap: &VarMap,
        cubes: impl IntoIterator<Item = &'c [Cell]>,
    ) {
        for cells in cubes {
            let clause: Option<Vec<i32>> = cells
                .iter()
                .map(|&cell| varmap.var(cell).map(|v| -(v as i32)))
                .collect();
            self.clauses.extend(clause);
        }
    }
}
