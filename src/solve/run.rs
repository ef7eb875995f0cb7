//! Solving a problem end to end with one engine: encode, solve within a time limit, decode and
//! verify the answer ([`solve`]); or race a portfolio of engines ([`portfolio`]).

use std::time::{Duration, Instant};

use crate::answer::Answer;
use crate::board::Board;
use crate::certify::Certificate;
use crate::decode::decode;
use crate::encode::amo::AmoKind;
use crate::encode::{EncodeOptions, Encoder, Stats};
use crate::error::{BadOption, Error, Opt, Result};
use crate::interrupt::Cancel;
use crate::presolve::Problem;
use crate::solve::cubes::CubeStats;
use crate::solve::engine::{Engine, Found, Proofs, Settings};
use crate::solve::portfolio::Entrant;
use crate::solve::race::{Lane, race};
use crate::solve::walk_backend::Walk;

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
    /// pre-pass), `portfolio winner: NAME --amo A` (`portfolio of A, B (no winner)`
    /// when the race ended UNKNOWN), or a cube-and-conquer summary.
    pub solver: String,
    /// The at-most-one encoding of the answering entrant (its `--amo` name).
    pub amo: String,
    /// Cube-and-conquer only: how the cubes went.
    pub cubes: Option<CubeStats>,
    /// For an UNSAT that presolve proved: why ([`Problem::unsat`], e.g. `pre-placed queens at
    /// (0,0) and (3,3) share a diagonal`); `None` when a solver refuted the problem.
    pub reason: Option<String>,
    /// Why `stats` is not the CNF's size (all zero), when it was not counted: past the DIMACS
    /// variable limit, or a big board that is not plain for an engine that builds no CNF.
    pub size_omitted: Option<String>,
    /// A portfolio's winner, by its engine's name alone (`lib:cadical`), for front ends that
    /// word it themselves; `None` when no race ran or none answered (UNKNOWN).
    pub winner: Option<String>,
    /// The plan that ran ([`super::Solver::plan`]): set by [`super::Solver::solve`], `None`
    /// from a single engine's [`solve`].
    pub plan: Option<super::Plan>,
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
            reason: None,
            size_omitted: None,
            winner: None,
            plan: None,
        }
    }

    /// The one-line summary the program prints on stderr after the answer: the verdict and
    /// why (UNKNOWN's reason, presolve's refutation, who certified it and how many proof steps
    /// were checked), then the piece, `n`, the encoding, the solver, the CNF's size where one
    /// was built (not by the bitboard search, nor in a cluster job's merge, whose tasks each
    /// encode their own cubes) and the seconds. Public for the program, which prints it after
    /// every solve and merge, and for a caller that logs solves the same way.
    pub fn summary(&self, n: u32, piece: &str) -> String {
        let label = self.status.label();
        let why = match (&self.status, &self.certificate) {
            (Answer::Unknown(w), _) => format!(" ({w})"),
            // Presolve's refutation, and who re-proved it under --certify.
            (Answer::Unsat, Some(c)) if self.reason.is_some() => format!(
                " ({}; certified: {})",
                self.reason.as_deref().unwrap_or_default(),
                c.checker
            ),
            (Answer::Unsat, None) if self.reason.is_some() => {
                format!(" ({})", self.reason.as_deref().unwrap_or_default())
            }
            (_, Some(c)) if c.steps > 0 => format!(
                " (certified: {}; {} proof steps checked)",
                c.checker, c.steps
            ),
            (_, Some(c)) => format!(" (certified: {})", c.checker),
            _ => String::new(),
        };
        let cnf = if self.stats == Stats::default() {
            String::new()
        } else {
            format!(" vars={} clauses={}", self.stats.vars, self.stats.clauses)
        };
        format!(
            "{label}{why}: {piece} n={n} amo={} solver={}{cnf} encode={:.3}s solve={:.3}s",
            self.amo, self.solver, self.encode_seconds, self.solve_seconds
        )
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
    /// Try local search (`crate::local_search`) for up to this long before the backend (the default
    /// strategy's pre-pass; its budget is also capped by the problem's size).
    pub walk: Option<Duration>,
    /// Threads the engine may use (0 counts as 1).
    pub threads: usize,
    /// The same board on every run ([`Settings::deterministic`]).
    pub deterministic: bool,
    /// Under `certify`, where an engine that writes a proof of its own (the bitboard search)
    /// leaves it for other checkers ([`Settings::proof`]).
    pub proof: Option<std::path::PathBuf>,
    /// The size budget of [`SolveSettings::proof`] (`None`: the default of
    /// [`crate::certify::budget`]).
    pub proof_budget: Option<u64>,
    /// Under `certify`, `--proof-format` (`None`: the kept file's format, else the default;
    /// [`crate::certify::ProofFormat::resolve`]).
    pub proof_format: Option<crate::certify::ProofFormat>,
}

impl From<Option<Duration>> for SolveSettings {
    fn from(timeout: Option<Duration>) -> SolveSettings {
        SolveSettings {
            timeout,
            ..SolveSettings::default()
        }
    }
}

/// [`SolveReport::solver`] when presolve decided the instance (its reason in
/// [`SolveReport::reason`]): the same on every run, whichever engine or portfolio was asked.
pub const PRESOLVE: &str = "presolve";

/// Why a certified UNSAT became UNKNOWN: the time limit or a cancel came during the proof check.
const PROOF_CHECK_STOPPED: &str = "time limit or cancel during the proof check";

/// Checks a DRAT proof for [`solve`] until `stop` stops (what is left of the time limit, or a
/// cancel): `None` when stopped.
fn check_proof(
    problem: &Problem,
    options: EncodeOptions,
    proof: &std::path::Path,
    stop: &Cancel,
) -> Result<Option<Certificate>> {
    crate::certify::check_drat_until(problem, options, proof, &|| stop.is_stopped())
}

/// Solves `problem` with `engine` within the settings' time limit. Around the one trait call
/// ([`Engine::solve`]) it does what every engine shares: `--certify` refused by an engine
/// without proofs, presolve's UNSAT, the engine's [`Engine::supports`], the local-search
/// pre-pass (`SolveSettings::walk`), the memory check, the proof check, and [`accept`].
/// A model that fails verification is an [`Error::WrongAnswer`], never a board.
pub fn solve(
    problem: &Problem,
    options: impl Into<EncodeOptions>,
    engine: &dyn Engine,
    settings: impl Into<SolveSettings>,
) -> Result<SolveReport> {
    let options = options.into();
    let settings = settings.into();
    let t0 = Instant::now();
    let info = engine.info();
    let caps = info.caps;
    let deadline = settings
        .cancel
        .clone()
        .unwrap_or_default()
        .with_timeout(settings.timeout);
    // The CNF's size: what an engine that encodes builds, and, for a search that places pieces
    // itself, the size of the problem's CNF where counting it is cheap (O(n) on a plain board,
    // else up to 2^20 live cells; past the DIMACS limit it has none, and the search goes on).
    let encodes = caps.encodes || caps.memory.is_some();
    let cheap = problem.varmap.is_row_major() || problem.num_cells() <= 1 << 20;
    let mut size_omitted = None;
    let stats = match encodes || cheap {
        true => match Encoder::with_options(problem, options)
            .until(&deadline)
            .stats()
        {
            Err(Error::TooLarge(why)) if !encodes => {
                size_omitted = Some(format!("no CNF: {why}"));
                Stats::default()
            }
            Err(Error::Interrupted) if !deadline.is_cancelled() => {
                // The time limit passed while counting the CNF: UNKNOWN, as any engine says.
                let why = deadline
                    .stopped()
                    .map_or_else(|| "stopped".into(), |s| s.to_string());
                return Ok(SolveReport::new(
                    Answer::Unknown(why),
                    Stats::default(),
                    info.name,
                    options.amo,
                ));
            }
            other => other?,
        },
        false => {
            size_omitted = Some(format!(
                "not counted: {} live cells (this engine builds no CNF)",
                problem.num_cells()
            ));
            Stats::default()
        }
    };
    // Every engine without proofs is refused under certify, local search too (it never answers
    // UNSAT, but a certified solve asks for an engine that can back its UNSAT).
    if settings.certify && caps.proofs == Proofs::None {
        let why = match caps.in_process {
            false => "an external solver must write DRAT proofs (cadical, kissat)".to_string(),
            true => format!(
                "it writes no proof; use {} or an external solver that writes DRAT (cadical, \
                 kissat)",
                super::registry::names_with(|c| c.proofs != Proofs::None)
            ),
        };
        return Err(BadOption::excludes(
            Opt::Solver,
            &info.name,
            Opt::Certify,
            &why,
        ));
    }
    if problem.unsat.is_some() {
        if let (true, true, Some(path)) = (settings.certify, problem.presolved, &settings.proof) {
            // `--proof F`: presolve's reason as a checked proof over the unpresolved model.
            let stop = settings
                .cancel
                .clone()
                .unwrap_or_default()
                .with_timeout(settings.timeout);
            let certificate = super::presolve_proof::write_presolve_proof(
                problem,
                Some(path),
                settings.proof_format,
                &stop,
            )?;
            let status = match certificate {
                Some(_) => Answer::Unsat,
                None => Answer::Unknown(crate::solve::traits::stopped_why(&stop, "stopped")),
            };
            return Ok(SolveReport {
                encode_seconds: t0.elapsed().as_secs_f64(),
                reason: problem.unsat.clone(),
                certificate,
                ..SolveReport::new(status, stats, PRESOLVE, options.amo)
            });
        }
        if settings.certify && problem.presolved {
            // Presolve's argument is not a checked proof: refute the full encoding instead
            // (with varisat's self-checking proof when the engine takes presolved problems
            // only, as the bitboard search does).
            let full = Problem::full(&problem.instance, problem.piece)?;
            let engine: &dyn Engine = match engine.accepts(&full, &options) {
                Ok(()) => engine,
                Err(_) => &super::varisat_backend::Varisat,
            };
            let mut report = solve(&full, options, engine, settings)?;
            if matches!(report.status, Answer::Unsat) {
                // Presolve decided it (the engine only certified it): named `presolve`, as
                // without certify and with `--proof`, whichever engine checked.
                report.reason.clone_from(&problem.unsat);
                report.solver = PRESOLVE.into();
            }
            return Ok(report);
        }
        return Ok(SolveReport {
            encode_seconds: t0.elapsed().as_secs_f64(),
            reason: problem.unsat.clone(),
            ..SolveReport::new(Answer::Unsat, stats, PRESOLVE, options.amo)
        });
    }
    engine.accepts(problem, &options)?;
    // The one stop token of the solve: the caller's, with the time limit. The engine, the
    // pre-pass and the proof check all stop through it.
    let cancel = settings
        .cancel
        .clone()
        .unwrap_or_default()
        .with_timeout(settings.timeout);
    if let Some(budget) = settings.walk
        && let Some(found) = prepass(problem, options, budget, Some(&cancel))?
    {
        return Ok(found);
    }
    if let Some(need) = caps.memory {
        check_memory(crate::memory::with_margin(need(&stats)), &stats)?;
    }
    let dir = match settings.certify && caps.proofs == Proofs::Drat {
        true => Some(tempfile::tempdir().map_err(|e| Error::io("temp dir", e))?),
        false => None,
    };
    let proof = match &dir {
        Some(d) => Some(d.path().join("proof.drat")),
        None => settings.proof.clone().filter(|_| settings.certify),
    };
    let engine_settings = Settings {
        options,
        timeout: settings.timeout,
        threads: settings.threads.max(1),
        deterministic: settings.deterministic,
        certify: settings.certify,
        proof: proof.as_deref(),
        proof_budget: settings.proof_budget,
        proof_format: crate::certify::ProofFormat::resolve(
            settings.proof_format,
            settings.proof.as_deref(),
        ),
    };
    let before = t0.elapsed().as_secs_f64();
    // The DRAT proof the solver writes itself has the size budget of a proof file: watched
    // while it runs, and past the budget the solver is stopped (its own token, a child of the
    // solve's) and the solve ends with the budget's error; the temporary folder goes with it.
    let outcome = match (&dir, &proof) {
        (Some(_), Some(path)) => {
            let budget = crate::certify::budget::resolve(path, settings.proof_budget)?;
            let stop = cancel.child();
            let watch = (budget < u64::MAX).then(|| {
                crate::certify::budget::Watch::start(
                    path,
                    budget,
                    format!("the DRAT proof of {}", info.name),
                    stop.clone(),
                )
            });
            let outcome = engine.solve(problem, &engine_settings, &stop);
            let over = watch.is_some_and(crate::certify::budget::Watch::finish);
            if over {
                return Err(Error::Budget {
                    what: format!("the DRAT proof of {} (a temporary file)", info.name),
                    path: None,
                    limit: budget,
                    hint: crate::certify::budget::HINT.into(),
                });
            }
            outcome?
        }
        _ => engine.solve(problem, &engine_settings, &cancel)?,
    };
    let mut certificate = outcome.certificate;
    let mut answer = outcome.answer;
    if let (Answer::Unsat, None, Some(proof)) = (&answer, &certificate, &proof) {
        certificate = check_proof(problem, options, proof, &cancel)?;
        if certificate.is_none() {
            answer = Answer::Unknown(PROOF_CHECK_STOPPED.into());
        }
    }
    let status = accept(problem, options, &info.name, answer, &cancel)?;
    Ok(SolveReport {
        encode_seconds: before + outcome.encode_seconds,
        solve_seconds: outcome.solve_seconds,
        certificate,
        size_omitted,
        ..SolveReport::new(status, stats, info.name, options.amo)
    })
}

/// The one place where an engine's answer becomes a report's: a model is decoded through the
/// problem's variable map, and a board is kept only if the independent checks
/// ([`EncodeOptions::accept`]) pass (else [`Error::WrongAnswer`], naming `who`); UNKNOWN under a
/// raised `cancel` is [`Error::Interrupted`] (stopped by the caller or by a race this engine
/// lost).
pub fn accept(
    problem: &Problem,
    options: EncodeOptions,
    who: &str,
    answer: Answer<Found>,
    cancel: &Cancel,
) -> Result<Answer<Board>> {
    match answer {
        Answer::Sat(found) => {
            let board = match found {
                Found::Model(model) => decode(&problem.varmap, &problem.fixed, &model),
                Found::Board(board) => board,
            };
            options
                .accept(&board, &problem.instance, problem.piece)
                .map_err(|why| {
                    Error::WrongAnswer(format!(
                        "{who} returned a model that is not a solution: {why}"
                    ))
                })?;
            Ok(Answer::Sat(board))
        }
        Answer::Unsat => Ok(Answer::Unsat),
        Answer::Unknown(_) if cancel.is_cancelled() => Err(Error::Interrupted),
        Answer::Unknown(why) => Ok(Answer::Unknown(why)),
    }
}

/// The default strategy's local-search pre-pass on its own ([`SolveSettings::walk`]): a report
/// with a verified board, or `None` when the search gave up or cannot apply (`--symmetric`,
/// lex-leader, no presolve, presolve UNSAT).
pub fn prepass(
    problem: &Problem,
    options: EncodeOptions,
    budget: Duration,
    cancel: Option<&Cancel>,
) -> Result<Option<SolveReport>> {
    if Walk::PREPASS.accepts(problem, &options).is_err() || problem.unsat.is_some() {
        return Ok(None);
    }
    let settings = SolveSettings {
        timeout: Some(budget),
        cancel: cancel.cloned(),
        ..SolveSettings::default()
    };
    let report = solve(problem, options, &Walk::PREPASS, settings)?;
    Ok(matches!(report.status, Answer::Sat(_)).then_some(report))
}

pub use crate::memory::{MEMORY_ENV, available_memory};

/// Refuses an in-process solve that needs `need` bytes (an engine's estimate for a CNF of
/// `stats`' size) when that is more than is available, before anything is allocated, so it is
/// never killed halfway.
fn check_memory(need: u64, stats: &Stats) -> Result<()> {
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

/// Races a portfolio (`--solver a,b`) through [`race`]: each entrant with its own encoding;
/// the local-search pre-pass (`SolveSettings::walk`) runs once, before the race. Returns the
/// winner's index and report, labelled `portfolio winner: NAME --amo A`.
pub fn portfolio(
    problem: &Problem,
    entrants: &[Entrant],
    settings: SolveSettings,
) -> Result<(usize, SolveReport)> {
    // Presolve decided: no race, the same answer (named `presolve`) on every run. Under
    // certify, the first entrant that writes proofs certifies it on the full encoding (the
    // same one on every run).
    if problem.unsat.is_some() && !entrants.is_empty() {
        let i = match settings.certify {
            true => entrants
                .iter()
                .position(|e| e.backend.info().caps.proofs != Proofs::None)
                .unwrap_or(0),
            false => 0,
        };
        let e = &entrants[i];
        return Ok((i, solve(problem, e.options, &e.backend, settings)?));
    }
    if let (Some(budget), Some(first)) = (settings.walk, entrants.first())
        && let Some(r) = prepass(problem, first.options, budget, settings.cancel.as_ref())?
    {
        return Ok((0, r));
    }
    // The entrants run at once, so their memory adds up: each one's estimate is checked
    // against what is left, in order, and an entrant that does not fit is left out of the race
    // (named in the winner's label), so that no linked solver is handed a CNF it cannot hold.
    let have = available_memory();
    let deadline = settings
        .cancel
        .clone()
        .unwrap_or_default()
        .with_timeout(settings.timeout);
    let (mut kept, mut skipped, mut total) = (Vec::new(), Vec::new(), 0u64);
    for (i, e) in entrants.iter().enumerate() {
        let need = match e.backend.info().caps.memory {
            Some(estimate) => crate::memory::with_margin(estimate(
                &Encoder::with_options(problem, e.options)
                    .until(&deadline)
                    .stats()?,
            )),
            None => 0,
        };
        match have {
            Some(h) if need > 0 && total.saturating_add(need) > h => {
                skipped.push(format!(
                    "{} (an estimated {})",
                    e.label(),
                    crate::memory::bytes(need)
                ));
            }
            _ => {
                total = total.saturating_add(need);
                kept.push(i);
            }
        }
    }
    if kept.is_empty() {
        return Err(Error::TooLarge(format!(
            "no entrant of the portfolio fits in the {} available: {}; use a smaller encoding \
             (--amo product) or write the CNF with `encode` for an external solver",
            crate::memory::bytes(have.unwrap_or(0)),
            skipped.join(", ")
        )));
    }
    // The entrants share the threads.
    let threads = (settings.threads / kept.len().max(1)).max(1);
    let lanes = kept
        .iter()
        .map(|&i| &entrants[i])
        .map(|e| {
            let settings = SolveSettings {
                walk: None,
                threads,
                ..settings.clone()
            };
            Lane::new(e.label(), move |cancel: &Cancel| {
                let settings = SolveSettings {
                    cancel: Some(cancel.clone()),
                    ..settings
                };
                solve(problem, e.options, &e.backend, settings)
            })
        })
        .collect();
    let (k, mut r) = race(lanes, &settings.cancel.clone().unwrap_or_default())?;
    let i = kept[k];
    if matches!(r.status, Answer::Unknown(_)) {
        // Nobody answered (a time limit, a stop): no winner to name.
        let raced: Vec<String> = kept.iter().map(|&j| entrants[j].label()).collect();
        r.solver = format!("portfolio of {} (no winner)", raced.join(", "));
        r.winner = None;
    } else {
        r.solver = format!("portfolio winner: {}", entrants[i].label());
        r.winner = Some(entrants[i].backend.name().to_string());
    }
    if !skipped.is_empty() {
        r.solver
            .push_str(&format!("; left out for memory: {}", skipped.join(", ")));
    }
    Ok((i, r))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The summary names the verdict's reason and the CNF's size only where a CNF was built.
    #[test]
    fn the_summary_says_why_and_the_size_where_there_is_one() {
        let mut r = SolveReport::new(
            Answer::Unknown("time limit of 1 s reached".into()),
            Stats::default(),
            "varisat",
            AmoKind::Pairwise,
        );
        assert_eq!(
            r.summary(8, "queen"),
            "UNKNOWN (time limit of 1 s reached): queen n=8 amo=pairwise solver=varisat \
             encode=0.000s solve=0.000s"
        );
        r.status = Answer::Unsat;
        r.reason = Some("row 3 has no free cell".into());
        r.stats = Stats {
            vars: 64,
            clauses: 736,
            ..Stats::default()
        };
        assert_eq!(
            r.summary(8, "queen"),
            "UNSAT (row 3 has no free cell): queen n=8 amo=pairwise solver=varisat vars=64 \
             clauses=736 encode=0.000s solve=0.000s"
        );
    }
}
