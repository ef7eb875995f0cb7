//! The coverage proof of every certified cube split (issue 65: one certified cube path). A
//! split's UNSAT rests on two kinds of checked proof: one per cube, and one that the cubes
//! cover the problem (no board avoids all of them). The bitboard search's certified split
//! (`bitboard/split_proof.rs`), certified cube-and-conquer (`certified_cubes.rs`) and certified
//! cluster jobs (`crate::cluster::proofs`) all prove coverage here, the same way: CaDiCaL's
//! LRAT refutation of the model's CNF plus one clause per cube that excludes it, checked by the
//! LRAT checker before it counts. What differs is only the model (the presolved problem's
//! pairwise CNF, the unpresolved instance's, or the root's encoding) and so which [`Cnf`] the
//! caller builds ([`Cnf::pairwise`], [`Cnf::encoded`], then [`Cnf::exclude`]).

use std::path::Path;

use crate::certify::Cnf;
use crate::error::{Error, Result};
use crate::interrupt::Cancel;

use super::presolve_proof::{Refutation, cadical_lrat};

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
    match cadical_lrat(cnf, stop)? {
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
