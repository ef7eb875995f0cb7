//! The engine interface: one trait ([`Engine`]) for whatever answers a [`Problem`] (varisat, the
//! linked CaDiCaL and Kissat, an external DIMACS program, local search, the bitboard search).
//! The table that names the in-process ones (`super::ENGINES`, in `solve/mod.rs`) and the
//! lookups over it (`--solver NAME`, the help text) are in [`super::registry`]: this file is
//! the interface alone, and imports nothing that implements it.
//!
//! Adding an in-process engine is one file (a type that implements [`Engine`]), its `pub mod`
//! line in `solve/mod.rs` and one row of the `engines!` list there (`super::ENGINES`): `--solver
//! NAME`, the help text, portfolios, cube-and-conquer (when it declares
//! [`Capabilities::incremental`]), `bench` and the Python package all read the table. What is
//! common to every engine is written once, around the trait call, in [`super::solve`]: the
//! refusal of `--certify` by an engine without proofs, presolve's UNSAT, the local-search
//! pre-pass, the memory check, the proof check, decoding a model, the independent check of the
//! board, and turning UNKNOWN under cancel into [`crate::Error::Interrupted`].
//!
//! The shape follows RustSAT's solver traits: capabilities are declared data
//! ([`Capabilities`]), never a lookup by name.

use std::borrow::Cow;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use crate::answer::{Answer, Model};
use crate::board::Board;
use crate::certify::Certificate;
use crate::encode::{EncodeOptions, Stats};
use crate::error::{BadOption, Error, Opt, Result};
use crate::interrupt::Cancel;
use crate::presolve::Problem;
use crate::solve::traits::SolverFactory;

/// How an engine backs an UNSAT answer under `--certify`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proofs {
    /// It writes none (its UNSAT cannot be certified).
    None,
    /// It writes a text DRAT proof to [`Settings::proof`], which the caller checks.
    Drat,
    /// It checks its own proof while it searches and returns the [`Certificate`].
    SelfChecked,
}

/// What an engine can do, declared by the engine itself.
#[derive(Clone, Copy)]
pub struct Capabilities {
    /// Runs inside this process (no program to find on PATH).
    pub in_process: bool,
    /// Can prove UNSAT (local search cannot).
    pub unsat: bool,
    /// How its UNSAT is certified.
    pub proofs: Proofs,
    /// Incremental under assumptions: the `SolverFactory` of the cube workers, for a problem
    /// and its encoding options (`--cubes`).
    pub incremental: Option<fn(&Problem, EncodeOptions) -> &'static SolverFactory>,
    /// Its estimated peak memory in bytes for a CNF of this size, checked against the memory
    /// available before it starts ([`super::available_memory`]); `None`: not estimated.
    pub memory: Option<fn(&Stats) -> u64>,
    /// Answers over the CNF encoding, so the encoding's symmetry constraints (`--symmetric`,
    /// `--break-symmetry lex`) bind it. False for a search that places pieces itself (local
    /// search, the bitboard search): it needs a presolved problem without such constraints
    /// ([`Engine::accepts`]).
    pub encodes: bool,
    /// Splits its own search over the threads it is given (`--jobs`, with `--deterministic`
    /// the same board on every run): the bitboard search. Other engines run on one thread,
    /// so a plan gives them one.
    pub threads: bool,
    /// Writes its certified refutation in the format `--proof-format` chooses (LRAT or
    /// VeriPB), and to a `--proof` file: the bitboard search. Other engines certify by
    /// self-check or DRAT.
    pub proof_format: bool,
}

impl Capabilities {
    /// An in-process engine that proves UNSAT without proofs, not incremental, memory not
    /// estimated: the base the table rows change.
    pub const IN_PROCESS: Capabilities = Capabilities {
        in_process: true,
        unsat: true,
        proofs: Proofs::None,
        incremental: None,
        memory: None,
        encodes: true,
        threads: false,
        proof_format: false,
    };

    /// [`Capabilities::IN_PROCESS`] for a search that places pieces itself
    /// ([`Capabilities::encodes`] false).
    pub const SEARCH: Capabilities = Capabilities {
        encodes: false,
        ..Capabilities::IN_PROCESS
    };
}

impl std::fmt::Debug for Capabilities {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Capabilities")
            .field("in_process", &self.in_process)
            .field("unsat", &self.unsat)
            .field("proofs", &self.proofs)
            .field("incremental", &self.incremental.is_some())
            .field("memory", &self.memory.is_some())
            .field("encodes", &self.encodes)
            .field("threads", &self.threads)
            .field("proof_format", &self.proof_format)
            .finish()
    }
}

/// Who an engine is: its `--solver` name, one line for the help text, and its capabilities.
/// The strings are borrowed for the table's engines (no allocation per lookup) and owned for
/// an external program, whose name the user gives at run time.
#[derive(Clone, Debug)]
pub struct EngineInfo {
    /// The `--solver` name (an external program: its file name).
    pub name: Cow<'static, str>,
    /// One line for the help text.
    pub about: Cow<'static, str>,
    /// What it can do.
    pub caps: Capabilities,
}

/// Why an engine cannot answer a problem (e.g. the bitboard search on a board over 64): the
/// caller words it for its front end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported {
    /// The engine's name.
    pub engine: String,
    /// What it needs, e.g. "needs a core of at most 128 open rows; this one has 129".
    pub needs: String,
    /// The option (and its value) that rules the engine out, when one does: the front end
    /// names it in its own words (`--symmetric r90`, `symmetric='r90'`).
    pub conflict: Option<(Opt, String)>,
}

impl std::fmt::Display for Unsupported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "--solver {} {}", self.engine, self.needs)
    }
}

impl From<Unsupported> for Error {
    /// A bad `--solver` value (`solver=` in Python), typed for each front end's words.
    fn from(u: Unsupported) -> Error {
        match u.conflict {
            Some((with, value)) => {
                BadOption::conflicts(Opt::Solver, u.engine, with, value, u.needs)
            }
            None => BadOption::invalid(Opt::Solver, u.engine, u.needs),
        }
    }
}

/// How one engine call runs.
#[derive(Clone, Copy, Debug)]
pub struct Settings<'a> {
    /// How to encode (CNF engines; the search engines ignore it).
    pub options: EncodeOptions,
    /// Give up (UNKNOWN) after this long; `None`: no limit.
    pub timeout: Option<Duration>,
    /// Threads the engine may use (at least 1).
    pub threads: usize,
    /// `--deterministic`: the same answer on every run, even on several threads (an engine
    /// that splits its search takes the first board in its fixed order, not the first found).
    pub deterministic: bool,
    /// `--certify`: UNSAT must come with a proof (a [`Proofs::SelfChecked`] engine checks its
    /// own and returns the certificate).
    pub certify: bool,
    /// Under `certify`, where a [`Proofs::Drat`] engine writes its proof (a file the caller
    /// then checks), or where a [`Proofs::SelfChecked`] engine that can leaves a copy of its
    /// checked proof for other checkers (the bitboard search: text LRAT, written only for an
    /// UNSAT whose proof checked).
    pub proof: Option<&'a Path>,
    /// The size budget of [`Settings::proof`] when the engine writes it itself (`None`: the
    /// default of [`crate::certify::budget`]).
    pub proof_budget: Option<u64>,
    /// Under `certify`, the proof a [`Proofs::SelfChecked`] engine that can write either
    /// writes and checks (the bitboard search: LRAT or VeriPB).
    pub proof_format: crate::certify::ProofFormat,
}

/// What an engine found: a model of its CNF (decoded by the caller through the problem's
/// variable map) or a board it built itself. Either way the caller checks it.
#[derive(Clone, Debug)]
pub enum Found {
    /// A model of the encoding.
    Model(Model),
    /// A board (fixed pieces included).
    Board(Board),
}

/// One engine call's answer and timings.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The verdict (unverified).
    pub answer: Answer<Found>,
    /// Seconds spent encoding into the engine.
    pub encode_seconds: f64,
    /// Seconds spent searching.
    pub solve_seconds: f64,
    /// A [`Proofs::SelfChecked`] engine's certificate of its UNSAT.
    pub certificate: Option<Certificate>,
}

impl Outcome {
    /// An outcome with no certificate.
    pub fn new(answer: Answer<Found>, encode_seconds: f64, solve_seconds: f64) -> Outcome {
        Outcome {
            answer,
            encode_seconds,
            solve_seconds,
            certificate: None,
        }
    }

    /// The outcome of a CNF solver: its model, timed.
    pub fn of_model(answer: Answer<Model>, timing: super::traits::Timing) -> Outcome {
        let answer = match answer {
            Answer::Sat(m) => Answer::Sat(Found::Model(m)),
            Answer::Unsat => Answer::Unsat,
            Answer::Unknown(why) => Answer::Unknown(why),
        };
        Outcome::new(answer, timing.encode, timing.solve)
    }
}

/// Whatever answers a [`Problem`]: SAT with a model or a board, UNSAT, or UNKNOWN.
///
/// An engine must stop soon after `cancel` is raised (then answer UNKNOWN) and after its time
/// limit. It does not check its answer: [`super::solve`] decodes and verifies it.
pub trait Engine: Send + Sync {
    /// Its name, help line and capabilities.
    fn info(&self) -> EngineInfo;

    /// Whether it can answer `problem` encoded with `options`, beyond what its capabilities
    /// say (default: any). Callers ask [`Engine::accepts`], which checks both.
    fn supports(
        &self,
        problem: &Problem,
        options: &EncodeOptions,
    ) -> std::result::Result<(), Unsupported> {
        let _ = (problem, options);
        Ok(())
    }

    /// Answers `problem` (presolve's UNSAT has been answered before the call).
    fn solve(&self, problem: &Problem, settings: &Settings, cancel: &Cancel) -> Result<Outcome>;

    /// Whether it answers `problem` under `options`: a search that places pieces itself
    /// ([`Capabilities::encodes`] false) needs a presolved problem without symmetry
    /// constraints; then [`Engine::supports`].
    fn accepts(
        &self,
        problem: &Problem,
        options: &EncodeOptions,
    ) -> std::result::Result<(), Unsupported> {
        if !self.info().caps.encodes {
            let conflict = match options.symmetric {
                Some(g) => Some((Opt::Symmetric, g.name().to_string())),
                None if !options.lex_leader.is_empty() => {
                    Some((Opt::BreakSymmetry, "lex".to_string()))
                }
                None => None,
            };
            let needs = match &conflict {
                Some(_) => "it places the pieces itself, without the CNF's symmetry constraints",
                None if !problem.presolved => "needs a presolved problem",
                None => "",
            };
            if !needs.is_empty() {
                return Err(Unsupported {
                    engine: self.info().name.into_owned(),
                    needs: needs.into(),
                    conflict,
                });
            }
        }
        self.supports(problem, options)
    }
}

/// A handle on an engine: a row of `super::ENGINES` or an engine of the caller's (an external
/// program). Cheap to clone; dereferences to the [`Engine`].
#[derive(Clone)]
pub struct Backend(Handle);

#[derive(Clone)]
enum Handle {
    Table(&'static dyn Engine),
    Owned(Arc<dyn Engine>),
}

impl Backend {
    /// A handle on a row of [`super::ENGINES`]. (`Backend::from_name`, which also makes
    /// external programs, is in [`super::registry`], so that this interface file does not
    /// import what implements it.)
    pub(super) fn row(engine: &'static dyn Engine) -> Backend {
        Backend(Handle::Table(engine))
    }

    /// A handle on `engine`.
    pub fn new(engine: impl Engine + 'static) -> Backend {
        Backend(Handle::Owned(Arc::new(engine)))
    }

    /// The engine's name.
    pub fn name(&self) -> String {
        self.info().name.into_owned()
    }
}

impl std::ops::Deref for Backend {
    type Target = dyn Engine;

    fn deref(&self) -> &(dyn Engine + 'static) {
        match &self.0 {
            Handle::Table(e) => *e,
            Handle::Owned(e) => e.as_ref(),
        }
    }
}

/// A handle answers as its engine does.
impl Engine for Backend {
    fn info(&self) -> EngineInfo {
        (**self).info()
    }

    fn supports(
        &self,
        problem: &Problem,
        options: &EncodeOptions,
    ) -> std::result::Result<(), Unsupported> {
        (**self).supports(problem, options)
    }

    fn solve(&self, problem: &Problem, settings: &Settings, cancel: &Cancel) -> Result<Outcome> {
        (**self).solve(problem, settings, cancel)
    }
}

impl std::fmt::Debug for Backend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Backend({})", self.name())
    }
}

impl From<&'static dyn Engine> for Backend {
    fn from(e: &'static dyn Engine) -> Backend {
        Backend(Handle::Table(e))
    }
}
