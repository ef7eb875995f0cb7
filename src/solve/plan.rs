//! What a solve will do, as data (issue 65): a [`Plan`] is decided before anything runs
//! ([`Solver::plan`](super::Solver::plan)), from the validated request and the presolved
//! problem alone. Deciding runs no solver and reads no clock, so tests assert on plans, and
//! `solve --explain` prints one. One executor ([`Solver::solve`](super::Solver::solve)) runs
//! any plan: one arm per variant, one cancel token and deadline passed down, and the report of
//! whichever step answered.
//!
//! A new strategy is one new variant here, its line in [`Plan`]'s `Display` and JSON, and its
//! arm in the executor.

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use crate::certify::ProofFormat;
use crate::encode::EncodeOptions;
use crate::encode::implied::Implied;
use crate::symmetry::Symmetry;

use super::engine::{Backend, Engine};
use crate::error::{Error, Result};
use crate::presolve::Problem;

/// One engine of the table (or an external program) on the whole problem, with the settings a
/// plan gives it. The executor adds the time limit and the cancel token. Public as a step of the
/// [`Plan`] that [`Solver::plan`](super::Solver::plan) returns, for a caller that inspects it.
#[derive(Clone, Debug)]
pub struct EngineRun {
    /// Who solves.
    pub backend: Backend,
    /// How it encodes (engines that build no CNF ignore it).
    pub options: EncodeOptions,
    /// Threads it may use (0 counts as 1).
    pub threads: usize,
    /// Whether its UNSAT needs a checked refutation.
    pub certify: bool,
    /// The same board on every run.
    pub deterministic: bool,
    /// Local search for up to this long before the engine (a portfolio's pre-pass).
    pub walk: Option<Duration>,
    /// The file the bitboard search writes its certified refutation to.
    pub proof: Option<PathBuf>,
    /// The size budget of a proof file, in bytes.
    pub proof_budget: Option<u64>,
    /// The format of the bitboard search's proof.
    pub proof_format: Option<ProofFormat>,
}

impl EngineRun {
    /// `backend` with `options` and nothing else set (one thread, no certificate).
    pub(crate) fn plain(backend: Backend, options: EncodeOptions) -> EngineRun {
        EngineRun {
            backend,
            options,
            threads: 0,
            certify: false,
            deterministic: false,
            walk: None,
            proof: None,
            proof_budget: None,
            proof_format: None,
        }
    }

    /// The words after the engine's name: its encoding and settings.
    fn settings(&self) -> Vec<String> {
        let mut words = Vec::new();
        if self.threads > 1 {
            words.push(format!("{} threads", self.threads));
        }
        if self.certify {
            words.push("certified".into());
        }
        if let Some(format) = self.proof_format {
            words.push(format!("proof format {}", format.name()));
        }
        if let Some(path) = &self.proof {
            words.push(format!("proof to {}", path.display()));
        }
        if let Some(bytes) = self.proof_budget {
            words.push(format!("proof budget {bytes} bytes"));
        }
        if self.deterministic {
            words.push("deterministic".into());
        }
        if let Some(walk) = self.walk {
            words.push(format!("local search first for up to {}", seconds(walk)));
        }
        words
    }
}

/// Cube-and-conquer: a look-ahead split of the presolved problem into cubes, each conquered
/// by an engine. Public as a step of a [`Plan`].
#[derive(Clone, Debug)]
pub struct CubePlan {
    /// The engine that conquers the cubes (an in-process incremental one; under `certified`,
    /// any engine that certifies).
    pub conquer: Backend,
    /// How the cubes are encoded.
    pub options: EncodeOptions,
    /// Threads that conquer cubes.
    pub jobs: usize,
    /// The most cubes the split makes (0: the split's default).
    pub max_cubes: usize,
    /// Each cube's UNSAT checked, and a coverage proof.
    pub certified: bool,
    /// The symmetry group the encoding's lex-leader constraints search modulo (empty: none);
    /// the report's `solver` label ends in ` mod G`.
    pub modulo: Vec<Symmetry>,
}

/// What a solve will do. Built by [`Solver::plan`](super::Solver::plan) (and by every solve
/// before it runs), run by one executor; public so that a caller can ask what a solve will do
/// without running it (`solve --explain`), and read what ran ([`super::SolveReport::plan`]).
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Plan {
    /// One engine on the whole problem.
    Run(EngineRun),
    /// Engines raced on the whole problem, each with its own encoding (`--solver a,b`, and the
    /// default strategy's large boards); local search first where `walk` is set.
    Portfolio {
        /// The entrants, each an engine with its encoding.
        entrants: Vec<(Backend, EncodeOptions)>,
        /// The settings every entrant shares (`backend` and `options` are the first's).
        settings: EngineRun,
    },
    /// The explicit construction (plain boards, any n); its board answers, and so does its
    /// UNSAT where `unsat_stands` (not under certify: it carries no proof); otherwise
    /// `otherwise` runs.
    Construct {
        /// The construction itself.
        run: EngineRun,
        /// Whether its UNSAT answers.
        unsat_stands: bool,
        /// What runs when it does not answer.
        otherwise: Box<Plan>,
    },
    /// Local search for up to `budget`; when it finds nothing, `then` with the time left.
    Prepass {
        /// The local search's budget.
        budget: Duration,
        /// How the local search encodes (it builds no CNF, but the options name the problem).
        options: EncodeOptions,
        /// What runs next.
        then: Box<Plan>,
    },
    /// Lanes on their own threads; the first definite answer wins and stops the others.
    Race(Vec<(String, Plan)>),
    /// Cube-and-conquer on the presolved problem.
    Cubes(CubePlan),
    /// Presolve refuted the instance: UNSAT without a search. `run` is the one engine call
    /// that reports it; under `run.certify` it backs the UNSAT with a checked refutation (the
    /// bitboard search's `--proof` file holds presolve's proof over the unpresolved model;
    /// otherwise `run`'s engine refutes the unpresolved encoding).
    Presolved {
        /// Presolve's reason (`pre-placed queens at (0,0) and (3,3) share a diagonal`).
        reason: String,
        /// Who reports the UNSAT, and certifies it where asked.
        run: EngineRun,
    },
}

impl Plan {
    /// The plan as JSON (`solve --explain --format json`, and the `plan` field of a solve's
    /// JSON record): `{"step": "run" | "portfolio" | "construct" | "prepass" | "race" |
    /// "cubes" | "presolved", ...}`.
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::json;
        let run = |r: &EngineRun| {
            let mut v = json!({
                "step": "run",
                "engine": r.backend.name(),
                "threads": r.threads.max(1),
                "certify": r.certify,
                "deterministic": r.deterministic,
                "walk_seconds": r.walk.map(|d| d.as_secs_f64()),
                "proof": r.proof.as_ref().map(|p| p.display().to_string()),
                "proof_budget": r.proof_budget,
                "proof_format": r.proof_format.map(|f| f.name()),
            });
            // The encoding only where the engine builds a CNF.
            if r.backend.info().caps.encodes {
                v["amo"] = json!(r.options.amo.name());
                v["implied"] = json!(r.options.implied.name());
            }
            v
        };
        match self {
            Plan::Run(r) => run(r),
            Plan::Portfolio { entrants, settings } => {
                let mut v = run(settings);
                v["step"] = json!("portfolio");
                v["entrants"] = entrants
                    .iter()
                    .map(|(b, o)| match b.info().caps.encodes {
                        true => json!({"engine": b.name(), "amo": o.amo.name()}),
                        false => json!({"engine": b.name()}),
                    })
                    .collect();
                if let Some(o) = v.as_object_mut() {
                    for key in ["engine", "amo", "implied"] {
                        o.remove(key);
                    }
                }
                v
            }
            Plan::Construct {
                run: r,
                unsat_stands,
                otherwise,
            } => json!({
                "step": "construct",
                "engine": r.backend.name(),
                "unsat_stands": unsat_stands,
                "otherwise": otherwise.to_json(),
            }),
            Plan::Prepass { budget, then, .. } => json!({
                "step": "prepass",
                "engine": "walk",
                "budget_seconds": budget.as_secs_f64(),
                "then": then.to_json(),
            }),
            Plan::Race(lanes) => json!({
                "step": "race",
                "lanes": lanes
                    .iter()
                    .map(|(label, p)| json!({"label": label, "plan": p.to_json()}))
                    .collect::<Vec<_>>(),
            }),
            Plan::Presolved { reason, run: r } => json!({
                "step": "presolved",
                "reason": reason,
                "then": run(r),
            }),
            Plan::Cubes(c) => {
                let mut v = json!({
                "step": "cubes",
                "conquer": c.conquer.name(),
                "jobs": c.jobs,
                "max_cubes": (c.max_cubes > 0).then_some(c.max_cubes),
                "certified": c.certified,
                "modulo": c.modulo.iter().filter(|&&g| g != Symmetry::Id).map(|g| g.name()).collect::<Vec<_>>(),
                });
                // The encoding only where the conquering engine builds a CNF (certified cubes
                // may be conquered by the bitboard search).
                if c.conquer.info().caps.encodes {
                    v["amo"] = json!(c.options.amo.name());
                    v["implied"] = json!(c.options.implied.name());
                }
                v
            }
        }
    }

    /// The plan for `problem`, which presolve refuted, from `self`, the plan its search would
    /// have had ([`Plan::Presolved`]): the one engine call of it that reports the UNSAT (no
    /// race, split or local search), which under `certify` backs it with a checked refutation.
    pub(crate) fn refuted(self, problem: &Problem, certify: bool) -> Result<Plan> {
        let Some(reason) = &problem.unsat else {
            return Err(Error::Internal(
                "a refuted plan for a problem presolve did not refute".into(),
            ));
        };
        let run = match self {
            Plan::Run(run) => run,
            // No race: under certify, the first entrant that writes proofs certifies it (the
            // same one on every run), else the first reports it.
            Plan::Portfolio { entrants, settings } => {
                let i = match certify {
                    true => entrants
                        .iter()
                        .position(|(b, _)| b.info().caps.proofs != super::engine::Proofs::None)
                        .unwrap_or(0),
                    false => 0,
                };
                let (backend, options) = entrants
                    .into_iter()
                    .nth(i)
                    .ok_or_else(|| Error::Internal("a portfolio without entrants".into()))?;
                EngineRun {
                    backend,
                    options,
                    ..settings
                }
            }
            // No split: the conquering engine reports it (certifies it, under certify).
            Plan::Cubes(c) => EngineRun {
                certify: c.certified,
                ..EngineRun::plain(c.conquer, c.options)
            },
            other => {
                return Err(Error::Internal(format!(
                    "a plan for a problem presolve refuted: {other}"
                )));
            }
        };
        // Certified without a proof file: the unpresolved encoding is refuted by the engine,
        // or by varisat (self-checking) where the engine takes presolved problems only (the
        // bitboard search), as the engine layer does it.
        let run = match run.certify && run.proof.is_none() && problem.presolved {
            true => {
                let full = Problem::full(&problem.instance, problem.piece)?;
                match run.backend.accepts(&full, &run.options) {
                    Ok(()) => run,
                    Err(_) => EngineRun {
                        backend: Backend::from(&super::varisat_backend::Varisat as &dyn Engine),
                        proof_format: None,
                        threads: 0,
                        deterministic: false,
                        ..run
                    },
                }
            }
            false => run,
        };
        // No local search first (it finds no board where presolve found none), and threads
        // only for an engine that uses them.
        let threads = run.backend.info().caps.threads;
        let run = EngineRun {
            walk: None,
            threads: if threads { run.threads } else { 0 },
            deterministic: run.deterministic && threads,
            ..run
        };
        Ok(Plan::Presolved {
            reason: reason.clone(),
            run,
        })
    }

    /// Every step of the plan, this one first, then its children depth first.
    pub fn steps(&self) -> Vec<&Plan> {
        let mut all = vec![self];
        match self {
            Plan::Construct { otherwise, .. } => all.extend(otherwise.steps()),
            Plan::Prepass { then, .. } => all.extend(then.steps()),
            Plan::Race(lanes) => lanes.iter().for_each(|(_, p)| all.extend(p.steps())),
            Plan::Run(_) | Plan::Portfolio { .. } | Plan::Cubes(_) | Plan::Presolved { .. } => {}
        }
        all
    }

    /// The engines the plan may run, in the order they appear (the construction and the local
    /// search included, by their table names).
    pub fn engines(&self) -> Vec<String> {
        let mut names = Vec::new();
        for step in self.steps() {
            match step {
                Plan::Run(r) | Plan::Presolved { run: r, .. } => names.push(r.backend.name()),
                Plan::Portfolio { entrants, .. } => {
                    names.extend(entrants.iter().map(|(b, _)| b.name()))
                }
                Plan::Construct { run, .. } => names.push(run.backend.name()),
                Plan::Prepass { .. } => names.push("walk".into()),
                Plan::Cubes(c) => names.push(c.conquer.name()),
                Plan::Race(_) => {}
            }
        }
        names
    }

    fn write(&self, f: &mut fmt::Formatter<'_>, depth: usize) -> fmt::Result {
        let pad = "  ".repeat(depth);
        let encoding = |o: &EncodeOptions| {
            let mut s = format!("--amo {}", o.amo);
            if o.implied != Implied::None {
                s.push_str(&format!(", implied {}", o.implied.name()));
            }
            s
        };
        match self {
            Plan::Run(r) => {
                let mut words = Vec::new();
                if r.backend.info().caps.encodes {
                    words.push(encoding(&r.options));
                }
                words.extend(r.settings());
                if words.is_empty() {
                    return writeln!(f, "{pad}{}", r.backend.name());
                }
                writeln!(f, "{pad}{} ({})", r.backend.name(), words.join(", "))
            }
            Plan::Portfolio { entrants, settings } => {
                let names: Vec<String> = entrants
                    .iter()
                    .map(|(b, o)| match b.info().caps.encodes {
                        true => format!("{} --amo {}", b.name(), o.amo),
                        false => b.name(),
                    })
                    .collect();
                let words = settings.settings();
                let tail = match words.is_empty() {
                    true => String::new(),
                    false => format!(" ({})", words.join(", ")),
                };
                writeln!(f, "{pad}a portfolio race of {}{tail}", names.join(", "))
            }
            Plan::Construct {
                unsat_stands,
                otherwise,
                ..
            } => {
                writeln!(
                    f,
                    "{pad}the construction: its board answers{}; otherwise:",
                    match unsat_stands {
                        true => ", and so does its UNSAT",
                        false => " (its UNSAT carries no proof)",
                    }
                )?;
                otherwise.write(f, depth + 1)
            }
            Plan::Prepass { budget, then, .. } => {
                writeln!(
                    f,
                    "{pad}local search for up to {}; when it finds nothing:",
                    seconds(*budget)
                )?;
                then.write(f, depth + 1)
            }
            Plan::Race(lanes) => {
                writeln!(f, "{pad}a race, the first definite answer wins:")?;
                for (label, p) in lanes {
                    writeln!(f, "{pad}  {label}:")?;
                    p.write(f, depth + 2)?;
                }
                Ok(())
            }
            Plan::Presolved { reason, run } => match (&run.proof, run.certify) {
                (_, false) => writeln!(f, "{pad}presolve refutes it ({reason}): UNSAT, no search"),
                (Some(path), true) => writeln!(
                    f,
                    "{pad}presolve refutes it ({reason}): UNSAT, its proof over the unpresolved \
                     model written to {} and checked",
                    path.display()
                ),
                (None, true) => {
                    writeln!(
                        f,
                        "{pad}presolve refutes it ({reason}): UNSAT, certified by refuting the \
                         unpresolved encoding with:"
                    )?;
                    Plan::Run(run.clone()).write(f, depth + 1)
                }
            },
            Plan::Cubes(c) => {
                let mut words = Vec::new();
                if c.conquer.info().caps.encodes {
                    words.push(encoding(&c.options));
                }
                words.push(format!(
                    "{} thread{}",
                    c.jobs,
                    if c.jobs == 1 { "" } else { "s" }
                ));
                if c.max_cubes > 0 {
                    words.push(format!("at most {} cubes", c.max_cubes));
                }
                if c.certified {
                    words.push("certified (a proof per cube and a coverage proof)".into());
                }
                if c.modulo.len() > 1 {
                    words.push(format!("searched{}", modulo(&c.modulo)));
                }
                writeln!(
                    f,
                    "{pad}cube-and-conquer, the cubes conquered by {} ({})",
                    c.conquer.name(),
                    words.join(", ")
                )
            }
        }
    }
}

/// The plan as `solve --explain` prints it: one step per line, what a step runs next indented
/// under it.
impl fmt::Display for Plan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f, 0)
    }
}

/// The suffix of a report's `solver` label for a search modulo `group`: ` mod r180`,
/// ` mod r90,r180,r270` (the non-identity elements).
pub(crate) fn modulo(group: &[Symmetry]) -> String {
    let names: Vec<&str> = group
        .iter()
        .filter(|&&g| g != Symmetry::Id)
        .map(|g| g.name())
        .collect();
    format!(" mod {}", names.join(","))
}

/// `1 s`, `0.5 s`.
fn seconds(d: Duration) -> String {
    format!("{} s", d.as_secs_f64())
}
