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
use crate::certify::Cnf;
use crate::certify::{Certificate, ProofFormat};
use crate::error::Result;
use crate::interrupt::Cancel;
use crate::presolve::Problem;
use crate::solve::{Coverage, prove_coverage};

/// Cubes per pair of threads: enough that the pairs stay busy to the end.
const CUBES_PER_WORKER: usize = 8;
/// Random probes per cube for Knuth's estimate that balances the cut.
const PROBES: usize = 16;

/// What one cube gave.
enum CubeResult {
    /// A board (unverified) and the cube's statistics.
    Board(Certified),
    /// Refuted, with its checked proof.
    Refuted(Certified),
    /// Stopped (time limit, cancel, or a board in another cube), or UNKNOWN.
    Open(String),
}

/// Searches `problem` for one board on `threads` threads with checked proofs in `format` (see
/// the module's documentation): UNSAT only when the coverage proof and every cube's proof
/// checked. A board is returned unverified (the caller's accept checks it); UNKNOWN when
/// `timeout` or `cancel` stopped it.
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
    // Coverage first (over the problem's pairwise CNF, which the cubes' proofs are over too): a
    // cut that left a board out is a fault, found before any cube runs.
    let mut cnf = Cnf::pairwise(problem);
    cnf.exclude(&problem.varmap, cubes.iter().map(|c| c.cells.as_slice()));
    let coverage_steps = match prove_coverage(cnf, None, "the certified split's cubes", &stop)? {
        Coverage::Proved(steps) => steps,
        Coverage::Stopped => return Ok(unknown(&stop)),
    };
    let found = stop.child();
    let results = crate::work::run_all(&cubes, workers, &stop, &|_, _| {}, |c| {
        if found.is_cancelled() {
            return Ok(CubeResult::Open(
                "stopped: another cube found a board".into(),
            ));
        }
        let mut instance = problem.instance.clone();
        instance.placed.extend(c.cells.iter().copied());
        let p = Problem::presolve(&instance, problem.piece)?;
        if p.unsat.is_some() {
            let certificate =
                crate::solve::write_presolve_proof(&p, None, Some(ProofFormat::Lrat), &found)?;
            return Ok(match certificate {
                Some(certificate) => CubeResult::Refuted(Certified {
                    certificate: Some(certificate),
                    ..nothing(Answer::Unsat)
                }),
                None => CubeResult::Open("stopped".into()),
            });
        }
        let r = match format {
            ProofFormat::Lrat => super::proof::search_certified(&p, None, Some(&found), None)?,
            ProofFormat::Veripb => {
                super::pbproof::search_certified_pb(&p, None, Some(&found), None)?
            }
        };
        Ok(match &r.answer {
            Answer::Sat(_) => {
                found.cancel();
                CubeResult::Board(r)
            }
            Answer::Unsat => CubeResult::Refuted(r),
            Answer::Unknown(why) => CubeResult::Open(why.clone()),
        })
    })?;
    let mut total = nothing(Answer::Unsat);
    let (mut steps, mut refuted, mut open) = (coverage_steps, 0, None);
    for cube in results {
        match cube {
            CubeResult::Board(r) => {
                total.nodes += r.nodes;
                total.answer = r.answer;
                return Ok(total);
            }
            CubeResult::Refuted(r) => {
                refuted += 1;
                steps += r.certificate.as_ref().map_or(0, |c| c.steps);
                total.nodes += r.nodes;
                total.lemmas += r.lemmas;
                total.hints += r.hints;
                total.check_seconds += r.check_seconds;
                total.search_seconds += r.search_seconds;
            }
            CubeResult::Open(why) => open = open.or(Some(why)),
        }
    }
    if let Some(why) = open {
        total.answer = Answer::Unknown(why);
        return Ok(total);
    }
    total.certificate = Some(Certificate {
        checker: format!(
            "the bitboard search split into {refuted} cubes on {workers} x 2 threads: each \
             cube's {} proof and the coverage proof (CaDiCaL's LRAT refutation of the pairwise \
             CNF without the cubes) checked in process",
            match format {
                ProofFormat::Lrat => "LRAT",
                ProofFormat::Veripb => "VeriPB",
            }
        ),
        steps,
    });
    Ok(total)
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
