//! Solving a problem end to end: encode into a backend, solve within a time limit, decode and
//! verify the model ([`solve`]); or race several entrants and take the first answer ([`race`]).

use std::time::{Duration, Instant};

use crate::answer::Answer;
use crate::board::Board;
use crate::certify::Certificate;
use crate::decode::decode;
use crate::encode::amo::AmoKind;
use crate::encode::{EncodeOptions, Encoder, Stats};
use crate::error::{Error, Result};
use crate::export::dimacs::write_cnf;
use crate::presolve::Problem;
use crate::solve::cubes::CubeStats;
use crate::solve::{Backend, Entrant, varisat_backend};

/// Everything [`solve`] measured.
#[derive(Clone, Debug)]
pub struct SolveReport {
    /// The verdict; a board here has passed [`crate::verify::accept`].
    pub status: Answer<Board>,
    /// Size of the CNF.
    pub stats: Stats,
    /// Time to presolve and encode (seconds).
    pub encode_seconds: f64,
    /// Time in the solver (seconds).
    pub solve_seconds: f64,
    /// For a certified UNSAT (`--certify`): who checked the refutation.
    pub certificate: Option<Certificate>,
    /// Who answered, as `solve` prints it: a backend's name, `walk` (the local-search
    /// pre-pass), `portfolio winner: NAME --amo A`, or a cube-and-conquer summary.
    pub solver: String,
    /// The at-most-one encoding of the answering entrant (its `--amo` name).
    pub amo: String,
    /// Cube-and-conquer only: how the cubes went.
    pub cubes: Option<CubeStats>,
}

impl SolveReport {
    /// A report of `status` with no solver run yet (zero seconds, no certificate, no cubes).
    pub fn new(
        status: Answer<Board>,
        stats: Stats,
        solver: impl Into<String>,
        amo: AmoKind,
    ) -> SolveReport {
        SolveReport {
            status,
            stats,
            encode_seconds: 0.0,
            solve_seconds: 0.0,
            certificate: None,
            solver: solver.into(),
            amo: amo.name(),
            cubes: None,
        }
    }
}

/// How to run a solve: a time limit, whether UNSAT must come with a checked proof, and a flag
/// that abandons the solve (racing).
#[derive(Clone, Debug, Default)]
pub struct SolveSettings {
    /// Give up (UNKNOWN) after this long.
    pub timeout: Option<Duration>,
    /// `--certify`: accept UNSAT only with a checked refutation.
    pub certify: bool,
    /// When raised, stop and answer UNKNOWN.
    pub cancel: Option<crate::interrupt::Cancel>,
    /// Try local search ([`crate::walk`]) for up to this long before the backend (the default
    /// strategy's pre-pass; its budget is also capped by the problem's size).
    pub walk: Option<Duration>,
}

impl From<Option<Duration>> for SolveSettings {
    fn from(timeout: Option<Duration>) -> SolveSettings {
        SolveSettings {
            timeout,
            ..SolveSettings::default()
        }
    }
}

/// Why a certified UNSAT became UNKNOWN: the time limit or a cancel came during the proof check.
const PROOF_CHECK_STOPPED: &str = "time limit or cancel during the proof check";

/// Checks a DRAT proof for [`solve`], within what is left of `settings`' time limit (counted
/// from `t0`) and until its cancel token is raised: `None` when stopped.
fn check_proof(
    problem: &Problem,
    options: EncodeOptions,
    proof: &std::path::Path,
    t0: Instant,
    settings: &SolveSettings,
) -> Result<Option<Certificate>> {
    let stop = || {
        settings.timeout.is_some_and(|t| t0.elapsed() >= t)
            || settings.cancel.as_ref().is_some_and(|c| c.is_cancelled())
    };
    crate::certify::check_drat_until(problem, options, proof, &stop)
}

/// Encodes `problem`, solves it with `backend` within `timeout`, decodes and verifies the model.
/// A model that fails verification is an [`Error::Solver`], never a board.
pub fn solve(
    problem: &Problem,
    options: impl Into<EncodeOptions>,
    backend: &Backend,
    settings: impl Into<SolveSettings>,
) -> Result<SolveReport> {
    let options = options.into();
    let settings = settings.into();
    let SolveSettings {
        timeout, certify, ..
    } = settings.clone();
    let t0 = Instant::now();
    let encoder = Encoder::with_options(problem, options);
    let stats = encoder.stats()?;
    // What a backend can certify is declared in its capabilities (local search never answers
    // UNSAT, so it needs no proof).
    let caps = backend.capabilities();
    if certify && caps.unsat && !caps.proofs {
        return Err(Error::Usage(match backend {
            Backend::External(ext) => format!(
                "--certify with an external solver needs one that writes DRAT proofs (cadical, kissat), not {}",
                ext.name()
            ),
            other => format!(
                "--certify needs a proof, and {} writes none; use {} or an external solver that writes DRAT (cadical, kissat)",
                other.name(),
                super::BackendInfo::names_with(|c| c.proofs)
            ),
        }));
    }
    if problem.unsat.is_some() {
        if certify && problem.presolved {
            // Presolve's argument is not a checked proof: refute the full encoding instead.
            let full = Problem::full(&problem.instance, problem.piece)?;
            return solve(&full, options, backend, settings);
        }
        return Ok(SolveReport {
            encode_seconds: t0.elapsed().as_secs_f64(),
            ..SolveReport::new(Answer::Unsat, stats, backend.name(), options.amo)
        });
    }
    let walkable = walkable(problem, options);
    let walk_budget = match backend {
        Backend::Walk if !walkable => {
            return Err(Error::Usage(
                "--solver walk needs a presolved problem without --symmetric or --break-symmetry"
                    .into(),
            ));
        }
        Backend::Walk => Some((
            timeout.unwrap_or(Duration::MAX),
            crate::walk::WalkSettings::default().max_tries,
        )),
        _ => settings
            .walk
            .filter(|_| walkable)
            .map(|budget| (budget, prepass_tries(problem))),
    };
    if let Some((budget, tries)) = walk_budget {
        let t1 = Instant::now();
        let found = walk_pass(problem, options, budget, tries, settings.cancel.as_ref())?;
        let walked = t1.elapsed().as_secs_f64();
        if let Some(board) = found {
            return Ok(SolveReport {
                encode_seconds: t0.elapsed().as_secs_f64() - walked,
                solve_seconds: walked,
                ..SolveReport::new(Answer::Sat(board), stats, "walk", options.amo)
            });
        }
        if matches!(backend, Backend::Walk) {
            if let Some(c) = &settings.cancel {
                c.check()?;
            }
            return Ok(SolveReport {
                encode_seconds: t0.elapsed().as_secs_f64() - walked,
                solve_seconds: walked,
                ..SolveReport::new(
                    Answer::Unknown("local search gave up".into()),
                    stats,
                    "walk",
                    options.amo,
                )
            });
        }
    }
    if matches!(backend, Backend::Bitboard) {
        return bitboard(problem, options, timeout, &settings, t0, stats);
    }
    let mut certificate = None;
    let (answer, encode_seconds, solve_seconds) = match backend {
        Backend::Walk | Backend::Bitboard => unreachable!("answered above"),
        Backend::LibCadical => {
            let dir = tempfile::tempdir().map_err(|e| Error::io("temp dir", e))?;
            let proof = certify.then(|| dir.path().join("proof.drat"));
            let (answer, timing) = crate::solve::cadical_backend::solve(
                problem,
                options,
                timeout,
                settings.cancel.as_ref(),
                proof.as_deref(),
            )?;
            let mut answer = answer;
            if let (Answer::Unsat, Some(proof)) = (&answer, &proof) {
                certificate = check_proof(problem, options, proof, t0, &settings)?;
                if certificate.is_none() {
                    answer = Answer::Unknown(PROOF_CHECK_STOPPED.into());
                }
            }
            (answer, timing.encode, timing.solve)
        }
        Backend::LibKissat => {
            let (answer, timing) = crate::solve::kissat_backend::solve(
                problem,
                options,
                timeout,
                settings.cancel.as_ref(),
            );
            (answer, timing.encode, timing.solve)
        }
        Backend::Varisat => {
            check_memory(&stats)?;
            let (answer, timing) = varisat_backend::solve(
                problem,
                options,
                timeout,
                certify,
                settings.cancel.as_ref(),
            );
            if certify && answer == Answer::Unsat {
                certificate = Some(Certificate {
                    checker: "varisat self-checking proof (varisat-checker)".into(),
                    steps: 0,
                });
            }
            (answer, timing.encode, timing.solve)
        }
        Backend::External(ext) => {
            let dir = tempfile::tempdir().map_err(|e| Error::io("temp dir", e))?;
            let cnf = dir.path().join("instance.cnf");
            let file =
                std::fs::File::create(&cnf).map_err(|e| Error::io(cnf.display().to_string(), e))?;
            write_cnf(std::io::BufWriter::new(file), problem, options, None)?;
            let enc = t0.elapsed().as_secs_f64();
            let t1 = Instant::now();
            let mut ext = ext.clone();
            if timeout.is_some() {
                ext.timeout = timeout;
            }
            ext.cancel = settings.cancel.clone();
            if certify {
                ext.proof = Some(dir.path().join("proof.drat"));
            }
            let mut answer = ext.solve_file(&cnf, stats.vars as usize)?;
            if let (true, Answer::Unsat, Some(proof)) = (certify, &answer, &ext.proof) {
                certificate = check_proof(problem, options, proof, t0, &settings)?;
                if certificate.is_none() {
                    answer = Answer::Unknown(PROOF_CHECK_STOPPED.into());
                }
            }
            (answer, enc, t1.elapsed().as_secs_f64())
        }
    };
    let status = match answer {
        Answer::Sat(model) => {
            let board = decode(&problem.varmap, &problem.fixed, &model);
            options
                .accept(&board, &problem.instance, problem.piece)
                .map_err(|why| {
                    Error::Solver(format!(
                        "{} returned a model that is not a solution: {why}",
                        backend.name()
                    ))
                })?;
            Answer::Sat(board)
        }
        Answer::Unsat => Answer::Unsat,
        // Stopped by the caller's token (a signal, or a race this entrant lost).
        Answer::Unknown(_) if settings.cancel.as_ref().is_some_and(|c| c.is_cancelled()) => {
            return Err(Error::Interrupted);
        }
        Answer::Unknown(why) => Answer::Unknown(why),
    };
    Ok(SolveReport {
        encode_seconds,
        solve_seconds,
        certificate,
        ..SolveReport::new(status, stats, backend.name(), options.amo)
    })
}

/// `--solver bitboard`: the bit-parallel search on the presolved cells; its board passes the same
/// checks as a decoded model.
fn bitboard(
    problem: &Problem,
    options: EncodeOptions,
    timeout: Option<Duration>,
    settings: &SolveSettings,
    t0: Instant,
    stats: crate::encode::Stats,
) -> Result<SolveReport> {
    if !walkable(problem, options) {
        return Err(Error::Usage(
            "--solver bitboard needs a presolved problem without --symmetric or --break-symmetry"
                .into(),
        ));
    }
    let t1 = Instant::now();
    let found = super::bitboard::search(problem, timeout, settings.cancel.as_ref())?;
    let status = match found.answer {
        Answer::Sat(board) => {
            options
                .accept(&board, &problem.instance, problem.piece)
                .map_err(|why| {
                    Error::Solver(format!(
                        "bitboard found a board that is not a solution: {why}"
                    ))
                })?;
            Answer::Sat(board)
        }
        Answer::Unknown(_) if settings.cancel.as_ref().is_some_and(|c| c.is_cancelled()) => {
            return Err(Error::Interrupted);
        }
        Answer::Unknown(why) => Answer::Unknown(why),
        Answer::Unsat => Answer::Unsat,
    };
    Ok(SolveReport {
        encode_seconds: t1.duration_since(t0).as_secs_f64(),
        solve_seconds: t1.elapsed().as_secs_f64(),
        ..SolveReport::new(status, stats, "bitboard", options.amo)
    })
}

/// Local search finds unconstrained boards only: not under `--symmetric` or lex-leader
/// constraints, and it needs presolve's live cells (the full encoding keeps dead cells).
fn walkable(problem: &Problem, options: EncodeOptions) -> bool {
    options.symmetric.is_none() && options.lex_leader.is_empty() && problem.presolved
}

/// The default strategy's local-search pre-pass on its own ([`SolveSettings::walk`]): a report
/// with a verified board, or `None` when the search gave up or cannot apply (`--symmetric`,
/// lex-leader, no presolve, presolve UNSAT).
pub fn prepass(
    problem: &Problem,
    options: EncodeOptions,
    budget: Duration,
    cancel: Option<&crate::interrupt::Cancel>,
) -> Result<Option<SolveReport>> {
    if !walkable(problem, options) || problem.unsat.is_some() {
        return Ok(None);
    }
    let t0 = Instant::now();
    let Some(board) = walk_pass(problem, options, budget, prepass_tries(problem), cancel)? else {
        return Ok(None);
    };
    Ok(Some(SolveReport {
        solve_seconds: t0.elapsed().as_secs_f64(),
        ..SolveReport::new(
            Answer::Sat(board),
            Encoder::with_options(problem, options).stats()?,
            "walk",
            options.amo,
        )
    }))
}

/// The pre-pass's swap budget ([`SolveSettings::walk`]): about 200 attempts per live cell.
fn prepass_tries(problem: &Problem) -> u64 {
    200 * problem.varmap.num_cells().max(1000)
}

/// One local-search pass within `budget` and `tries`: a board that passed [`EncodeOptions::accept`], or
/// `None` when the search gave up.
fn walk_pass(
    problem: &Problem,
    options: EncodeOptions,
    budget: Duration,
    tries: u64,
    cancel: Option<&crate::interrupt::Cancel>,
) -> Result<Option<Board>> {
    let found = crate::walk::walk(
        problem,
        &crate::walk::WalkSettings {
            deadline: Instant::now().checked_add(budget),
            max_tries: tries,
            cancel: cancel.cloned(),
            ..crate::walk::WalkSettings::default()
        },
    );
    if let Some(board) = &found {
        options
            .accept(board, &problem.instance, problem.piece)
            .map_err(|why| Error::Solver(format!("local search returned a non-solution: {why}")))?;
    }
    Ok(found)
}

/// Estimated peak memory of varisat holding a CNF of this size: about 8 bytes per literal
/// occurrence (clause storage and watches) plus 128 bytes per variable. Measured: pairwise
/// 200-queens (13.3 M clauses, 26.5 M literals) peaks at 179 MB; the estimate says 217 MB.
pub fn varisat_bytes(stats: &Stats) -> u64 {
    8 * stats.literals + 128 * stats.vars
}

/// The environment variable that states the available memory in bytes instead of the kernel's
/// figure (for tests, and for a machine whose `MemAvailable` misleads, as in some containers).
pub const MEMORY_ENV: &str = "QUEENS_SAT_AVAILABLE_MEMORY";

/// The memory available for an in-process solve: [`MEMORY_ENV`] if set, else what the kernel
/// reports as available (`MemAvailable`), if known.
pub fn available_memory() -> Option<u64> {
    if let Ok(v) = std::env::var(MEMORY_ENV) {
        return v.trim().parse().ok();
    }
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Refuses an in-process solve that would not fit in memory, before anything is allocated, so
/// it is never killed halfway.
fn check_memory(stats: &Stats) -> Result<()> {
    let need = varisat_bytes(stats);
    match available_memory() {
        Some(have) if need > have => Err(Error::TooLarge(format!(
            "solving in-process needs an estimated {:.1} GB ({} clauses, {} literals) but only {:.1} GB is available; use a smaller encoding (--amo product) or write the CNF with `encode` for an external solver",
            need as f64 / 1e9,
            stats.clauses,
            stats.literals,
            have as f64 / 1e9
        ))),
        _ => Ok(()),
    }
}

/// Races `entrants` on their own threads (`--solver a,b`): the first verified SAT or UNSAT wins,
/// the others are cancelled (external solvers killed, in-process searches abandoned). Returns
/// the winner's index and report; when nobody wins, the first error, or UNKNOWN.
pub fn race(
    problem: &Problem,
    entrants: &[Entrant],
    settings: SolveSettings,
) -> Result<(usize, SolveReport)> {
    // The local-search pre-pass runs once, before the race, not in every entrant.
    if let (Some(budget), Some(first)) = (settings.walk, entrants.first())
        && let Some(r) = prepass(problem, first.options, budget, settings.cancel.as_ref())?
    {
        return Ok((0, r));
    }
    let settings = SolveSettings {
        walk: None,
        ..settings
    };
    // The winner raises the race's token, a child of the caller's: it stops the losers only.
    let cancel = settings.cancel.clone().unwrap_or_default().child();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::scope(|s| {
        for (i, e) in entrants.iter().enumerate() {
            let tx = tx.clone();
            let settings = SolveSettings {
                cancel: Some(cancel.clone()),
                ..settings.clone()
            };
            s.spawn(move || {
                let _ = tx.send((i, solve(problem, e.options, &e.backend, settings)));
            });
        }
        drop(tx);
        let mut first_error = None;
        let mut unknown = None;
        for (i, result) in rx.iter() {
            match result {
                Ok(r) if !matches!(r.status, Answer::Unknown(_)) => {
                    cancel.cancel();
                    return Ok((i, winner(r, &entrants[i])));
                }
                Ok(r) => {
                    unknown.get_or_insert((i, r));
                }
                Err(Error::Interrupted) => {
                    cancel.cancel();
                    return Err(Error::Interrupted);
                }
                Err(e) => {
                    first_error
                        .get_or_insert(Error::Solver(format!("{}: {e}", entrants[i].label())));
                }
            }
        }
        match (unknown, first_error) {
            (Some((i, r)), _) => Ok((i, winner(r, &entrants[i]))),
            (None, Some(e)) => Err(e),
            (None, None) => Err(Error::Usage("no solver to race".into())),
        }
    })
}

/// A race's report names its winner (unless the pre-pass answered).
fn winner(mut r: SolveReport, entrant: &Entrant) -> SolveReport {
    r.solver = format!("portfolio winner: {}", entrant.label());
    r
}
