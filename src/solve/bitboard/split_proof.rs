//! The certified search split over threads (`solve --certify --jobs J` with J >= 4 and no
//! `--proof` file): certification on every core, as the uncertified search splits its tree.
//!
//! The tree is cut into cubes along the certified search's own branching
//! ([`super::proof_cubes`], so every subtree left out is refuted by unit propagation), and the
//! UNSAT verdict rests on checked proofs only:
//! - **coverage**: CaDiCaL's LRAT refutation of the problem's pairwise CNF plus one clause per
//!   cube that excludes it, checked by the LRAT checker (no board avoids every cube);
//! - **each cube**: the cube's instance (the problem's plus the cube's pieces) presolved and
//!   refuted by the certified search in the asked format ([`super::proof::search_certified`],
//!   [`super::pbproof::search_certified_pb`]), its proof checked on its own thread beside it; a
//!   cube that presolve refutes gets presolve's checked LRAT proof over its unpresolved CNF.
//!
//! Each cube's search uses two threads (the search, its checker), so J threads run J / 2 cubes
//! at once. Presolve of the whole problem is trusted as in the one-thread route (whose proof is
//! over the presolved CNF too). The first board found stops the other cubes.

use std::time::Duration;

use super::proof::Certified;
use crate::answer::Answer;
use crate::certify::{Certificate, ProofFormat};
use crate::error::Result;
use crate::interrupt::Cancel;
use crate::presolve::Problem;
use crate::solve::{CertifiedCubes, CoverageModel, Cube, Verdict};

/// Cubes per pair of threads: enough that the pairs stay busy to the end.
const CUBES_PER_WORKER: usize = 8;
/// Random probes per cube for Knuth's estimate that balances the cut.
const PROBES: usize = 16;

/// Searches `problem` for one board on `threads` threads with checked proofs in `format` (see
/// the module's documentation): UNSAT only when the coverage proof and every cube's proof
/// checked ([`CertifiedCubes`], the one certified cube path). A board is returned unverified
/// (the caller's accept checks it); UNKNOWN when `timeout` or `cancel` stopped it.
pub(super) fn search_certified_split(
    problem: &Problem,
    format: ProofFormat,
    threads: usize,
    timeout: Option<Duration>,
    cancel: &Cancel,
) -> Result<Certified> {
    let stop = cancel.with_timeout(timeout);
    let workers = (threads / 2).max(1);
    let cubes = super::proof_cubes(problem, CUBES_PER_WORKER * workers, PROBES, &stop)?;
    let proof = match format {
        ProofFormat::Lrat => "LRAT",
        ProofFormat::Veripb => "VeriPB",
    };
    // Coverage is over the problem's pairwise CNF, which the cubes' proofs are over too.
    let mut split = CertifiedCubes::new(
        format!(
            "the bitboard search split into {} cubes on {workers} x 2 threads, each cube's \
             proof checked beside its search",
            cubes.len()
        ),
        CoverageModel::Pairwise(problem),
        cubes.iter().map(|c| c.cells.clone()),
    );
    let (board, refuted) = split.conquer(&cubes, workers, &stop, |c, found| {
        let mut instance = problem.instance.clone();
        instance.placed.extend(c.cells.iter().copied());
        let p = Problem::presolve(&instance, problem.piece)?;
        if p.unsat.is_some() {
            let certificate =
                crate::solve::write_presolve_proof(&p, None, Some(ProofFormat::Lrat), found)?;
            return Ok(match certificate {
                Some(c) => Cube::Refuted(
                    checked("presolve's LRAT proof", c.steps),
                    nothing(Answer::Unsat),
                ),
                None => Cube::Open("stopped".into()),
            });
        }
        let mut r = match format {
            ProofFormat::Lrat => super::proof::search_certified(&p, None, Some(found), None)?,
            ProofFormat::Veripb => {
                super::pbproof::search_certified_pb(&p, None, Some(found), None)?
            }
        };
        Ok(match &r.answer {
            Answer::Sat(_) => Cube::Board(r),
            Answer::Unsat => match r.certificate.take() {
                Some(c) => {
                    Cube::Refuted(checked(&format!("the search's {proof} proof"), c.steps), r)
                }
                None => Cube::Open("a refutation without its checked proof".into()),
            },
            Answer::Unknown(why) => Cube::Open(why.clone()),
        })
    })?;
    let mut total = nothing(Answer::Unsat);
    for r in &refuted {
        total.nodes += r.nodes;
        total.lemmas += r.lemmas;
        total.hints += r.hints;
        total.check_seconds += r.check_seconds;
        total.search_seconds += r.search_seconds;
    }
    if let Some(r) = board {
        total.nodes += r.nodes;
        total.answer = r.answer;
        return Ok(total);
    }
    if !split.is_open() && split.prove_coverage(None, &stop)?.is_none() {
        return Ok(unknown(&stop));
    }
    match split.verdict()? {
        Verdict::Unsat(certificate) => total.certificate = Some(certificate),
        Verdict::Unknown(why) => total.answer = Answer::Unknown(why),
    }
    Ok(total)
}

/// A cube's refutation by `by`, its proof checked in `steps` steps.
fn checked(by: &str, steps: u64) -> Certificate {
    Certificate {
        checker: by.to_string(),
        steps,
    }
}

/// UNKNOWN, saying why `stop` stopped.
fn unknown(stop: &Cancel) -> Certified {
    nothing(Answer::Unknown(crate::solve::traits::stopped_why(
        stop, "stopped",
    )))
}

/// `answer` with no nodes, proof or time counted yet.
fn nothing(answer: Answer<crate::board::Board>) -> Certified {
    Certified {
        answer,
        nodes: 0,
        certificate: None,
        lemmas: 0,
        hints: 0,
        check_seconds: 0.0,
        search_seconds: 0.0,
    }
}
