//! The coverage proof of every certified cube split (issue 65: one certified cube path). A
//! split's UNSAT rests on two kinds of checked proof: one per cube, and one that the cubes
//! cover the problem (no board avoids all of them). The bitboard search's certified split
//! (`bitboard/split_proof.rs`), certified cube-and-conquer (`certified_cubes.rs`) and certified
//! cluster jobs (`crate::cluster::proofs`) all prove coverage here, the same way: CaDiCaL's
//! LRAT refutation of the model's CNF plus one clause per cube that excludes it, checked by the
//! LRAT checker before it counts. What differs is only the model (the presolved problem's
//! pairwise CNF, the unpresolved instance's, or the root's encoding) and so which [`Cnf`] the
//! caller builds.

use std::path::Path;

use crate::board::Cell;
use crate::encode::{EncodeOptions, Encoder, VecSink};
use crate::error::{Error, Result};
use crate::interrupt::Cancel;
use crate::presolve::Problem;
use crate::varmap::VarMap;

use super::presolve_proof::{Refutation, cadical_lrat};

/// A CNF in DIMACS numbering (variable `v` is `v`, its negation `-v`; cell variables as the
/// problem's [`VarMap`] numbers them, auxiliary variables after them).
#[derive(Clone, Debug, Default)]
pub(crate) struct Cnf {
    /// Variables.
    pub(crate) vars: u32,
    /// Clauses.
    pub(crate) clauses: Vec<Vec<i32>>,
}

impl Cnf {
    /// `problem`'s CNF with pairwise at-most-one (what the certified search's and presolve's
    /// proofs are over).
    pub(crate) fn pairwise(problem: &Problem) -> Cnf {
        let (vars, clauses) = crate::certify::presolved::pairwise_clauses(problem);
        Cnf { vars, clauses }
    }

    /// `problem` encoded with `options` (what a certified cube solver's proofs are over).
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

/// What a coverage proof gave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Coverage {
    /// The cubes cover the model: the proof checked, in this many steps.
    Proved(u64),
    /// The stop token stopped it first.
    Stopped,
}

/// Proves that the cubes excluded in `cnf` ([`Cnf::exclude`]) cover its model: CaDiCaL's LRAT
/// refutation of `cnf`, checked by the LRAT checker (and then written to `path`, when given).
/// `cubes` names the cubes in the error of a split that leaves a board out, which is a
/// [`Error::WrongAnswer`] (a fault of the split, never an answer).
pub(crate) fn prove_coverage(
    cnf: Cnf,
    path: Option<&Path>,
    cubes: &str,
    stop: &Cancel,
) -> Result<Coverage> {
    match cadical_lrat(cnf.vars, cnf.clauses, stop)? {
        Refutation::Proof(proof) => {
            let (_, steps) = proof.certify(path, "the coverage proof")?;
            Ok(Coverage::Proved(steps))
        }
        Refutation::Stopped => Ok(Coverage::Stopped),
        Refutation::Model => Err(Error::WrongAnswer(format!(
            "{cubes} do not cover the problem: a board avoids every cube (a fault of the split)"
        ))),
    }
}
