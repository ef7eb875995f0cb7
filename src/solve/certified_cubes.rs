//! Cube and conquer with checked refutations (`solve --cubes --certify`, and the default strategy
//! under `--certify`): every cube solved on its own with a checked proof, plus a coverage proof.

use std::time::{Duration, Instant};

use super::cubes::{CubeSettings, CubeStats, check_cube_board};
use super::{CertifiedCubes, CoverageModel, Cube, Engine, SolveReport, SolveSettings, Verdict};
use crate::answer::Answer;
use crate::certify::Certificate;
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
    let certified_by = |r: &SolveReport| -> Result<Certificate> {
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
            Answer::Unsat => Some(certified_by(&r)?),
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
    let jobs = settings.jobs.max(1);
    // Coverage is over the root encoding, which the cubes' proofs are over too.
    let base = root.instance.placed.len();
    let mut certified = CertifiedCubes::new(
        format!(
            "cube and conquer into {} cubes, each solved by {} with --certify",
            cubes.len(),
            backend.info().name
        ),
        CoverageModel::Encoded(root, options),
        cubes.iter().map(|c| c.instance.placed[base..].to_vec()),
    );
    let (board, _) = certified.conquer(&cubes, jobs, &cancel, |c, found| {
        let p = Problem::presolve(&c.instance, piece)?;
        let r = super::solve(
            &p,
            options,
            backend,
            SolveSettings {
                timeout: left(),
                certify: true,
                cancel: Some(found.clone()),
                ..SolveSettings::default()
            },
        )?;
        Ok(match r.status {
            Answer::Sat(board) => {
                check_cube_board(&board, &root.instance, piece, options)?;
                Cube::Board(board)
            }
            Answer::Unsat => {
                // Named by its checker ("DRAT proof checked by dratify"), which an engine words
                // the same for every cube.
                Cube::Refuted(certified_by(&r)?, ())
            }
            Answer::Unknown(why) => Cube::Open(why),
        })
    })?;
    let refuted = certified.refuted_cubes();
    let report = |status, certificate| SolveReport {
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
    if let Some(board) = board {
        return Ok(report(Answer::Sat(board), None));
    }
    if !certified.is_open() && certified.prove_coverage(None, &stop)?.is_none() {
        cancel.check()?;
        return Ok(report(
            Answer::Unknown(format!(
                "coverage check: {}",
                crate::solve::traits::stopped_why(&stop, "stopped")
            )),
            None,
        ));
    }
    cancel.check()?;
    Ok(match certified.verdict()? {
        Verdict::Unsat(certificate) => report(Answer::Unsat, Some(certificate)),
        Verdict::Unknown(why) => report(Answer::Unknown(why), None),
    })
}
