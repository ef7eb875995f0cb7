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
    /// pre-pass), `portfolio winner: NAME --amo A`, or a cube-and-conquer summary.
    pub solver: String,
    /// The at-most-one encoding of the answering entrant (its `--amo` name).
    pub amo: String,
    /// Cube-and-conquer only: how the cubes went.
    pub cubes: Option<CubeStats>,
    /// For an UNSAT that presolve proved: why ([`Problem::unsat`], e.g. `pre-placed queens at
    /// (0,0) and (3,3) share a diagonal`); `None` when a solver refuted the problem.
    pub reason: Option<String>,
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
    /// Threads the engine may use (0 counts as 1).
    pub threads: usize,
    /// The same board on every run ([`Settings::deterministic`]).
    pub deterministic: bool,
    /// Under `certify`, where an engine that writes a proof of its own (the bitboard search)
    /// leaves it for other checkers ([`Settings::proof`]).
    pub proof: Option<std::path::PathBuf>,
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

/// Writes the checked proof of presolve's refutation of `problem` to `path`
/// ([`crate::certify::presolved`]): VeriPB over the model of `encode --to opb --no-presolve`
/// when the format (asked, or the file's name) is VeriPB, else LRAT over the CNF of `encode
/// --amo pairwise --no-presolve`. Written whole, and only then.
fn write_presolve_proof(
    problem: &Problem,
    path: &std::path::Path,
    asked: Option<crate::certify::ProofFormat>,
) -> Result<Certificate> {
    use crate::certify::{ProofFormat, presolved};
    match ProofFormat::resolve(asked, Some(path)) {
        ProofFormat::Lrat => {
            let (steps, clauses, how) = match presolved::lrat(&problem.instance, problem.piece) {
                Ok((steps, clauses)) => (steps, clauses, "unit propagation"),
                // A reason beyond unit propagation (presolve's matching of rows to columns):
                // CaDiCaL's LRAT refutation of the same CNF, checked the same way.
                Err(_) => {
                    let (steps, clauses) = cadical_presolve_proof(problem)?;
                    (steps, clauses, "CaDiCaL's refutation")
                }
            };
            crate::atomic::write_atomic(path, |f| {
                let mut w = std::io::BufWriter::new(f);
                steps
                    .write_text(&mut w)
                    .and_then(|()| std::io::Write::flush(&mut w))
                    .map_err(|e| Error::io(path.display().to_string(), e))
            })?;
            Ok(Certificate {
                checker: format!(
                    "LRAT proof of presolve's refutation ({how} over the {clauses} clauses of \
                     encode --amo pairwise --no-presolve), checked by queens-sat's LRAT checker"
                ),
                steps: steps.decode().len() as u64,
            })
        }
        ProofFormat::Veripb => {
            let full = Problem::full(&problem.instance, problem.piece)?;
            let (opb, _) = crate::export::write_piped(
                crate::export::Format::Opb,
                Vec::new(),
                &full,
                EncodeOptions::from(AmoKind::DEFAULT),
                None,
                crate::export::WriteOptions::default(),
            )?;
            let opb = String::from_utf8(opb).map_err(|e| Error::Solver(e.to_string()))?;
            let proof = presolved::veripb(&opb)?;
            crate::atomic::write_atomic(path, |f| {
                std::io::Write::write_all(f, proof.as_bytes())
                    .map_err(|e| Error::io(path.display().to_string(), e))
            })?;
            Ok(Certificate {
                checker: "VeriPB proof of presolve's refutation (rup over the model of encode \
                          --to opb --no-presolve), checked by pbcheck"
                    .into(),
                steps: 1,
            })
        }
    }
}

/// CaDiCaL's LRAT ids in the DIMACS numbering: CaDiCaL gives ids to the original clauses as
/// they are added, and a clause it shortens on the way (by root-level units) gets the next id
/// at once, so the originals after it are shifted. Here the originals get `1..=m` in the order
/// given and the derived clauses `m+1, m+2, ...` in the order the proof adds them.
fn renumber_cadical_lrat(text: &str, m: usize) -> String {
    let added: Vec<u64> = text
        .lines()
        .filter_map(|l| {
            let mut w = l.split_whitespace();
            let id = w.next()?.parse::<u64>().ok()?;
            (w.next() != Some("d")).then_some(id)
        })
        .collect();
    let derived: std::collections::HashSet<u64> = added.iter().copied().collect();
    let mut map: std::collections::HashMap<u64, u64> = std::collections::HashMap::new();
    let (mut id, mut original) = (1u64, 1u64);
    while original <= m as u64 {
        if !derived.contains(&id) {
            map.insert(id, original);
            original += 1;
        }
        id += 1;
    }
    for (k, &d) in added.iter().enumerate() {
        map.insert(d, m as u64 + 1 + k as u64);
    }
    let id_of = |w: &str| match w.parse::<u64>() {
        Ok(x) if x > 0 => map.get(&x).map_or(w.to_string(), |y| y.to_string()),
        _ => w.to_string(),
    };
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&head, rest)) = words.split_first() else {
            continue;
        };
        out.push_str(&id_of(head));
        if rest.first() == Some(&"d") {
            out.push_str(" d");
            for w in &rest[1..] {
                out.push(' ');
                out.push_str(&id_of(w));
            }
        } else {
            // Literals up to the first 0 stay; the hints after it are ids.
            let split = rest.iter().position(|w| *w == "0").unwrap_or(rest.len());
            for (i, w) in rest.iter().enumerate() {
                out.push(' ');
                if i > split {
                    out.push_str(&id_of(w))
                } else {
                    out.push_str(w)
                }
            }
        }
        out.push('\n');
    }
    out
}

/// CaDiCaL's LRAT refutation of the CNF of `encode --amo pairwise --no-presolve` for
/// `problem`'s instance, checked by queens-sat's LRAT checker: its steps and the clause count.
fn cadical_presolve_proof(problem: &Problem) -> Result<(crate::certify::lrat::Steps, usize)> {
    use crate::certify::lrat::{Lrat, Steps};
    let full = Problem::full(&problem.instance, problem.piece)?;
    let (vars, clauses) =
        crate::certify::presolved::full_pairwise(&problem.instance, problem.piece)?;
    let dir = tempfile::tempdir().map_err(|e| Error::io("temp dir", e))?;
    let path = dir.path().join("presolve.lrat");
    let formula = crate::solve::traits::Encoded {
        problem: &full,
        options: EncodeOptions::from(AmoKind::Pairwise),
    };
    let answer = super::cadical_backend::lrat_refutation(&formula, None, &path)?;
    if !matches!(answer, Answer::Unsat) {
        return Err(Error::Solver(format!(
            "no proof of presolve's refutation ({}): CaDiCaL did not refute the full encoding",
            problem.unsat.as_deref().unwrap_or("?")
        )));
    }
    let text = std::fs::read_to_string(&path).map_err(|e| Error::io("the LRAT proof", e))?;
    let steps = Steps::parse_text(
        &renumber_cadical_lrat(&text, clauses.len()),
        "CaDiCaL's LRAT proof",
    )?;
    let count = clauses.len();
    let mut checker = Lrat::new(vars, clauses)?;
    checker.check(&steps)?;
    if !checker.refuted() {
        return Err(Error::Solver(
            "CaDiCaL's proof of presolve's refutation does not derive the empty clause".into(),
        ));
    }
    Ok((steps, count))
}

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
/// pre-pass ([`SolveSettings::walk`]), the memory check, the proof check, and [`accept`].
/// A model that fails verification is an [`Error::Solver`], never a board.
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
    let stats = match encodes || cheap {
        true => match Encoder::with_options(problem, options)
            .until(&deadline)
            .stats()
        {
            Err(Error::TooLarge(_)) if !encodes => Stats::default(),
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
        false => Stats::default(),
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
            let certificate = write_presolve_proof(problem, path, settings.proof_format)?;
            return Ok(SolveReport {
                encode_seconds: t0.elapsed().as_secs_f64(),
                reason: problem.unsat.clone(),
                certificate: Some(certificate),
                ..SolveReport::new(Answer::Unsat, stats, PRESOLVE, options.amo)
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
                report.reason.clone_from(&problem.unsat);
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
        check_memory(need(&stats), &stats)?;
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
        proof_format: crate::certify::ProofFormat::resolve(
            settings.proof_format,
            settings.proof.as_deref(),
        ),
    };
    let before = t0.elapsed().as_secs_f64();
    let outcome = engine.solve(problem, &engine_settings, &cancel)?;
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
        ..SolveReport::new(status, stats, info.name, options.amo)
    })
}

/// The one place where an engine's answer becomes a report's: a model is decoded through the
/// problem's variable map, and a board is kept only if the independent checks
/// ([`EncodeOptions::accept`]) pass (else [`Error::Solver`], naming `who`); UNKNOWN under a
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
                    Error::Solver(format!(
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
/// the local-search pre-pass ([`SolveSettings::walk`]) runs once, before the race. Returns the
/// winner's index and report, labelled `portfolio winner: NAME --amo A`.
pub fn portfolio(
    problem: &Problem,
    entrants: &[Entrant],
    settings: SolveSettings,
) -> Result<(usize, SolveReport)> {
    // Presolve decided: no race, the same answer (named `presolve`) on every run. Under
    // certify the entrants race on the full encoding as usual.
    if let (Some(_), false, Some(first)) = (&problem.unsat, settings.certify, entrants.first()) {
        return Ok((0, solve(problem, first.options, &first.backend, settings)?));
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
            Some(estimate) => estimate(
                &Encoder::with_options(problem, e.options)
                    .until(&deadline)
                    .stats()?,
            ),
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
    r.solver = format!("portfolio winner: {}", entrants[i].label());
    if !skipped.is_empty() {
        r.solver
            .push_str(&format!("; left out for memory: {}", skipped.join(", ")));
    }
    Ok((i, r))
}
