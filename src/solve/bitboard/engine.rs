//! The bitboard search as an engine (`--solver bitboard`): the adapter between the engine
//! interface ([`crate::solve::engine`]) and the search ([`super::search`]) or, under
//! `--certify`, the proof-writing search ([`super::proof`]).

use std::time::Instant;

use super::kernel::shape;
use super::pbproof::search_certified_pb_within;
use super::proof::search_certified_within;
use super::run::{SearchOptions, search};
use super::split_proof::search_certified_split;
use crate::answer::Answer;
use crate::certify::ProofFormat;
use crate::encode::EncodeOptions;
use crate::error::Result;
use crate::interrupt::Cancel;
use crate::presolve::Problem;
use crate::solve::engine::{
    self, Capabilities, Engine, EngineInfo, Outcome, Settings, Unsupported,
};

/// Threads from which a certified search without a proof file is split into cubes
/// (coverage proof plus one proof per cube): each cube takes two (its search and its checker).
pub const SPLIT_THREADS: usize = 4;

/// The bitboard search as an engine (`--solver bitboard`): queens and amazons on presolved
/// problems whose core has at most 128 open rows, at any n, on [`Settings::threads`] threads
/// ([`search`]); under `--certify` the proof-writing search of [`super::proof`] on one thread,
/// its checker on another, or, on [`SPLIT_THREADS`] threads or more and without a proof file,
/// split into cubes with a checked coverage proof (`split_proof`).
pub struct Bitboard;

impl Engine for Bitboard {
    fn info(&self) -> EngineInfo {
        EngineInfo {
            name: super::NAME.into(),
            about: "in-process bit-parallel backtracking, queens and amazons, presolved cores of \
                    up to 128 open rows at any n (certified: cores up to 64, LRAT over the \
                    pairwise encoding, without the sum bounds)"
                .into(),
            caps: Capabilities {
                proofs: engine::Proofs::SelfChecked,
                threads: true,
                proof_format: true,
                ..Capabilities::SEARCH
            },
        }
    }

    fn supports(
        &self,
        problem: &Problem,
        _: &EncodeOptions,
    ) -> std::result::Result<(), Unsupported> {
        shape(problem).map(|_| ())
    }

    fn solve(&self, problem: &Problem, settings: &Settings, cancel: &Cancel) -> Result<Outcome> {
        let t0 = Instant::now();
        if settings.certify {
            // VeriPB (`--proof-format veripb`, or a proof named `.pbp`): the search with every
            // pruning. LRAT: the search without the sums. Either way one search thread, the
            // checker on another; on four threads or more without a proof file, cubes of the
            // tree on pairs of threads with a coverage proof (`split_proof`), unless the board
            // must not depend on the timing (`deterministic`: the one search's first board).
            let r = match settings.proof_format {
                format
                    if settings.threads >= SPLIT_THREADS
                        && settings.proof.is_none()
                        && !settings.deterministic =>
                {
                    search_certified_split(
                        problem,
                        format,
                        settings.threads,
                        settings.timeout,
                        cancel,
                    )?
                }
                ProofFormat::Veripb => search_certified_pb_within(
                    problem,
                    settings.timeout,
                    Some(cancel),
                    settings.proof,
                    settings.proof_budget,
                )?,
                ProofFormat::Lrat => search_certified_within(
                    problem,
                    settings.timeout,
                    Some(cancel),
                    settings.proof,
                    settings.proof_budget,
                )?,
            };
            let answer = match r.answer {
                Answer::Sat(board) => Answer::Sat(engine::Found::Board(board)),
                Answer::Unsat => Answer::Unsat,
                Answer::Unknown(why) => Answer::Unknown(why),
            };
            return Ok(Outcome {
                certificate: r.certificate,
                ..Outcome::new(answer, 0.0, t0.elapsed().as_secs_f64())
            });
        }
        let options = SearchOptions::default()
            .timeout(settings.timeout)
            .cancel(cancel)
            .threads(settings.threads)
            .deterministic(settings.deterministic);
        let found = search(problem, &options)?;
        let answer = match found.answer {
            Answer::Sat(board) => Answer::Sat(engine::Found::Board(board)),
            Answer::Unsat => Answer::Unsat,
            Answer::Unknown(why) => Answer::Unknown(why),
        };
        Ok(Outcome::new(answer, 0.0, t0.elapsed().as_secs_f64()))
    }
}
