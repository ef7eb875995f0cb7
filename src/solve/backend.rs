//! Who answers: the backends ([`Backend`]) and portfolio entries ([`Entrant`]), and how their
//! names are parsed (`--solver varisat`, `--solver cadical`, `--solver "a --amo x,b"`).

use crate::encode::EncodeOptions;
use crate::encode::amo::AmoKind;
use crate::error::{Error, Result};
use crate::presolve::Problem;
use crate::solve::cadical_backend::CadicalAssuming;
use crate::solve::external::ExternalSolver;
use crate::solve::traits::SolverFactory;
use crate::solve::varisat_backend::VarisatAssuming;

/// Which solver answers.
#[derive(Clone, Debug)]
pub enum Backend {
    /// varisat, in-process.
    Varisat,
    /// An external DIMACS solver.
    External(ExternalSolver),
    /// Local search ([`crate::walk`]), in-process: answers SAT or gives up (UNKNOWN), never
    /// UNSAT.
    Walk,
    /// CaDiCaL linked into the binary ([`super::cadical_backend`]), `lib:cadical`.
    LibCadical,
    /// Kissat linked into the binary ([`super::kissat_backend`]), `lib:kissat`.
    LibKissat,
    /// The bit-parallel backtracking search ([`super::bitboard`]), in-process, queens and
    /// amazons on boards up to 64.
    Bitboard,
}

impl Backend {
    /// Display name ("varisat" or the program's file name).
    pub fn name(&self) -> String {
        match self {
            Backend::Varisat => "varisat".into(),
            Backend::External(s) => s.name(),
            Backend::Walk => "walk".into(),
            Backend::LibCadical => "lib:cadical".into(),
            Backend::LibKissat => "lib:kissat".into(),
            Backend::Bitboard => "bitboard".into(),
        }
    }
}

impl Backend {
    /// The backend a `--solver` name stands for: a name of the [`BACKENDS`] table (the
    /// in-process ones), else an external DIMACS solver on PATH or a path to one.
    pub fn from_name(name: &str) -> Result<Backend> {
        match BackendInfo::find(name) {
            Some(info) => Ok((info.make)()),
            None => Ok(Backend::External(ExternalSolver::new(name)?)),
        }
    }

    /// What this backend can do: its row of [`BACKENDS`], or an external solver's.
    pub fn capabilities(&self) -> Capabilities {
        match self {
            Backend::External(ext) => Capabilities {
                in_process: false,
                unsat: true,
                proofs: ext.writes_drat(),
                incremental: None,
            },
            other => {
                BackendInfo::find(&other.name())
                    .expect("every in-process backend has a row in BACKENDS")
                    .caps
            }
        }
    }
}

/// What a backend can do, declared in its [`BACKENDS`] row instead of being matched on names.
#[derive(Clone, Copy)]
pub struct Capabilities {
    /// Runs inside this process (no program to find on PATH).
    pub in_process: bool,
    /// Can prove UNSAT (local search cannot).
    pub unsat: bool,
    /// `--certify`: its UNSAT comes with a checked proof.
    pub proofs: bool,
    /// Incremental under assumptions: the [`SolverFactory`] of the cube workers, for a problem
    /// and its encoding options (`--cubes`).
    pub incremental: Option<fn(&Problem, EncodeOptions) -> &'static SolverFactory>,
}

/// One row of the backend table: a `--solver` name, a one-line description, a constructor and
/// what the backend can do. `--solver`, the cube path, `bench` and the help text read it;
/// adding an in-process backend is one module plus one row.
pub struct BackendInfo {
    /// The `--solver` name.
    pub name: &'static str,
    /// One line for the help text.
    pub about: &'static str,
    /// Builds the backend.
    pub make: fn() -> Backend,
    /// What it can do.
    pub caps: Capabilities,
}

/// The in-process backends. Any other `--solver` name is an external DIMACS program.
pub const BACKENDS: &[BackendInfo] = &[
    BackendInfo {
        name: "varisat",
        about: "in-process CDCL (pure Rust)",
        make: || Backend::Varisat,
        caps: Capabilities {
            in_process: true,
            unsat: true,
            proofs: true,
            incremental: Some(|_, _| VarisatAssuming::factory()),
        },
    },
    BackendInfo {
        name: "lib:cadical",
        about: "CaDiCaL 2.1.3 linked in",
        make: || Backend::LibCadical,
        caps: Capabilities {
            in_process: true,
            unsat: true,
            proofs: true,
            incremental: Some(CadicalAssuming::factory_for),
        },
    },
    BackendInfo {
        name: "lib:kissat",
        about: "Kissat 3.1.1 linked in (no proofs, not incremental)",
        make: || Backend::LibKissat,
        caps: Capabilities {
            in_process: true,
            unsat: true,
            proofs: false,
            incremental: None,
        },
    },
    BackendInfo {
        name: "bitboard",
        about: "in-process bit-parallel backtracking, queens and amazons, n <= 64 (no proofs)",
        make: || Backend::Bitboard,
        caps: Capabilities {
            in_process: true,
            unsat: true,
            proofs: false,
            incremental: None,
        },
    },
    BackendInfo {
        name: "walk",
        about: "in-process local search (SAT or UNKNOWN)",
        make: || Backend::Walk,
        caps: Capabilities {
            in_process: true,
            unsat: false,
            proofs: false,
            incremental: None,
        },
    },
];

impl BackendInfo {
    /// The row named `name`, if it is an in-process backend.
    pub fn find(name: &str) -> Option<&'static BackendInfo> {
        BACKENDS.iter().find(|b| b.name == name)
    }

    /// The names of the rows that have `cap`, joined for an error message.
    pub fn names_with(cap: impl Fn(&Capabilities) -> bool) -> String {
        let names: Vec<&str> = BACKENDS
            .iter()
            .filter(|b| cap(&b.caps))
            .map(|b| b.name)
            .collect();
        names.join(", ")
    }

    /// The `--solver` help text: the default strategy, every row, and external programs.
    pub fn help() -> String {
        let rows: Vec<String> = BACKENDS
            .iter()
            .map(|b| format!("`{}` ({})", b.name, b.about))
            .collect();
        format!(
            "Solver: `auto` (the default strategy: local search, then cube-and-conquer on the \
             linked CaDiCaL for small boards, varisat and lib:cadical raced for large ones), {}, \
             or an external DIMACS solver name or path; a comma-separated list races a \
             portfolio, each entry optionally with its own `--amo`",
            rows.join(", ")
        )
    }
}

/// One entry of a portfolio: a backend with its own encoding.
#[derive(Clone, Debug)]
pub struct Entrant {
    /// How this entrant encodes.
    pub options: EncodeOptions,
    /// Who solves.
    pub backend: Backend,
}

impl Entrant {
    /// "varisat --amo product" style label.
    pub fn label(&self) -> String {
        format!("{} --amo {}", self.backend.name(), self.options.amo)
    }
}

/// Parses `--solver`: one backend, or a comma-separated portfolio whose entries may carry their
/// own `--amo`, e.g. `varisat,cadical` or `varisat --amo product,varisat --amo pairwise`.
/// Entries without `--amo` use `options`.
///
/// ```
/// use queens_sat::{encode::{EncodeOptions, amo::AmoKind}, solve::parse_portfolio};
/// let p = parse_portfolio("varisat,varisat --amo pairwise", EncodeOptions::from(AmoKind::DEFAULT)).unwrap();
/// assert_eq!(p[1].label(), "varisat --amo pairwise");
/// ```
pub fn parse_portfolio(solver: &str, options: EncodeOptions) -> Result<Vec<Entrant>> {
    solver
        .split(',')
        .map(|entry| {
            let words: Vec<&str> = entry.split_whitespace().collect();
            let (name, amo) = match words.as_slice() {
                [name] => (*name, None),
                [name, "--amo", amo] => (*name, Some(AmoKind::parse(amo)?)),
                _ => {
                    return Err(Error::Usage(format!(
                        "bad --solver entry '{}' (expected NAME or NAME --amo ENCODING)",
                        entry.trim()
                    )));
                }
            };
            Ok(Entrant {
                options: EncodeOptions {
                    amo: amo.unwrap_or(options.amo),
                    ..options
                },
                backend: Backend::from_name(name)?,
            })
        })
        .collect()
}
