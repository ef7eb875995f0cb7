//! Cube and conquer with checked refutations (`solve --cubes --certify`, and the default strategy
//! under `--certify`): every cube solved on its own with a checked proof, plus a coverage proof.

use std::time::{Duration, Instant};

use super::cubes::{CubeSettings, CubeStats, check_cube_board};
use super::{Coverage, Engine, SolveReport, SolveSettings, prove_coverage};
use crate::answer::Answer;
use crate::board::Board;
use crate::certify::Cnf;
use crate::cube;
use crate::encode::{EncodeOptions, Encoder};
use crate::error::{Error, Result};
use crate::presolve::Problem;

/// Cube and conquer with checked refutations (`solve --cubes --certify`): each cube is solved
/// on its own by `backend` with `--certify` (varisat's self-checking proof, or CaDiCaL's DRAT
/// proof replayed by dratify), and UNSAT also needs the cubes shown to cover the search space:
/// the root encoding plus one clause per cube that excludes it (the negation of its pieces) must
/// be refuted too, by CaDiCaL's LRAT proof checked in process ([`super::coverage`], the one
/// coverage proof of every certified split). Cubes that the split dropped with
/// the matching filter are absent from that formula, so the coverage proof refutes them as well.
/// Presolve is trusted as in `solve --certify` (a presolve UNSAT is re-proved on the full
/// encoding).
///
/// The report's `certificate`, for UNSAT, names who checked the cube refutations and the
/// coverage, and the proof steps checked; its `encode_seconds` is the time spent splitting.
pub fn solve_certified(
    root: &Problem,
    options: EncodeOptions,
    backend: &dyn Engine,
    settings: &CubeSettings,
) -> Result<SolveReport> {
    let piece = root.piece;
    let t0 = Instant::now();
    let deadline = settings.timeout.map(|t| t0 + t);
    let left = || {
        deadline.map(|d| {
            d.saturating_duration_since(Instant::now())
                .max(Duration::from_millis(1))
        })
    };
    let cancel = settings.cancel.clone().unwrap_or_default();
    // The coverage check's stop: the caller's token with the time limit.
    let stop = cancel.with_timeout(settings.timeout);
    let encoder = Encoder::with_options(root, options);
    let stats = encoder.stats()?;
    let certified = |r: &SolveReport| -> Result<crate::certify::Certificate> {
        r.certificate.clone().ok_or_else(|| {
            Error::Internal(
                "an UNSAT answer under --certify came without a checked refutation".into(),
            )
        })
    };
    if root.unsat.is_some() {
        let r = super::solve(
            root,
            options,
            backend,
            SolveSettings {
                timeout: settings.timeout,
                certify: true,
                cancel: Some(cancel.clone()),
                ..SolveSettings::default()
            },
        )?;
        let certificate = match r.status {
            Answer::Unsat => Some(certified(&r)?),
            _ => None,
        };
        return Ok(SolveReport {
            solve_seconds: t0.elapsed().as_secs_f64(),
            reason: r.reason,
            certificate,
            cubes: Some(CubeStats {
                jobs: settings.jobs.max(1),
                ..CubeStats::default()
            }),
            ..SolveReport::new(r.status, stats, "cubes", options.amo)
        });
    }
    let (cubes, split) = cube::lookahead(root, &settings.split)?;
    let split_seconds = t0.elapsed().as_secs_f64();
    let t1 = Instant::now();
    let found = cancel.child();
    // Per cube: a board, a checked refutation (its checker and steps), or why not.
    enum Done {
        Board(Board),
        Refuted(crate::certify::Certificate),
        Open(String),
    }
    let results = crate::work::run_all(&cubes, settings.jobs.max(1), &cancel, &|_, _| {}, |c| {
        if found.is_cancelled() {
            return Ok(Done::Open("stopped: another cube found a board".into()));
        }
        let p = Problem::presolve(&c.instance, piece)?;
        let r = match super::solve(
            &p,
            options,
            backend,
            SolveSettings {
                timeout: left(),
                certify: true,
                cancel: Some(found.clone()),
                ..SolveSettings::default()
            },
        ) {
            // Stopped because another cube found a board (not by the caller).
            Err(Error::Interrupted) if !cancel.is_cancelled() => {
                return Ok(Done::Open("stopped: another cube found a board".into()));
            }
            r => r?,
        };
        Ok(match r.status {
            Answer::Sat(board) => {
                check_cube_board(&board, &root.instance, piece, options)?;
                found.cancel();
                Done::Board(board)
            }
            Answer::Unsat => Done::Refuted(certified(&r)?),
            Answer::Unknown(why) => Done::Open(why),
        })
    })?;
    let jobs = settings.jobs.max(1);
    let report = |status, refuted, certificate| SolveReport {
        encode_seconds: split_seconds,
        solve_seconds: t1.elapsed().as_secs_f64(),
        certificate,
        cubes: Some(CubeStats {
            cubes: cubes.len(),
            refuted,
            resplit: 0,
            split,
            jobs,
        }),
        ..SolveReport::new(status, stats, "cubes", options.amo)
    };
    let mut steps = 0;
    let mut checkers: Vec<String> = Vec::new();
    let mut open = None;
    let mut refuted = 0;
    for d in results {
        match d {
            Done::Board(b) => return Ok(report(Answer::Sat(b), refuted, None)),
            Done::Refuted(c) => {
                refuted += 1;
                steps += c.steps;
                if !checkers.contains(&c.checker) {
                    checkers.push(c.checker);
                }
            }
            Done::Open(why) => open = open.or(Some(why)),
        }
    }
    if let Some(why) = open {
        return Ok(report(Answer::Unknown(why), refuted, None));
    }
    // Coverage: the root encoding (what the cubes' proofs are over) plus "not this cube" for
    // every cube must be UNSAT, proved as every certified split proves it.
    let mut cnf = Cnf::encoded(root, options);
    let base = root.instance.placed.len();
    cnf.exclude(
        &root.varmap,
        cubes.iter().map(|c| &c.instance.placed[base..]),
    );
    let coverage = prove_coverage(cnf, None, "the cubes", &stop)?;
    cancel.check()?;
    match coverage {
        Coverage::Proved(coverage_steps) => {
            checkers.push("cube coverage: CaDiCaL's LRAT proof, checked".into());
            let certificate = crate::certify::Certificate {
                checker: format!("{} cubes refuted ({})", refuted, checkers.join("; ")),
                steps: steps + coverage_steps,
            };
            Ok(report(Answer::Unsat, refuted, Some(certificate)))
        }
        Coverage::Stopped => Ok(report(
            Answer::Unknown(format!(
                "coverage check: {}",
                stop.stopped()
                    .map_or_else(|| "stopped".into(), |s| s.to_string())
            )),
            refuted,
            None,
        )),
    }
}
