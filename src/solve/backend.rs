//! Who answers: the backends ([`Backend`]) and portfolio entries ([`Entrant`]), and how their
//! names are parsed (`--solver varisat`, `--solver cadical`, `--solver "a --amo x,b"`).

use crate::encode::EncodeOptions;
use crate::encode::amo::AmoKind;
use crate::error::{Error, Result};
use crate::solve::external::ExternalSolver;

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
        }
    }
}

impl Backend {
    /// The backend a `--solver` name stands for: `varisat` is the in-process CDCL solver,
    /// `walk` the in-process local search, `lib:cadical` the linked CaDiCaL, `lib:kissat` the linked
    /// Kissat, anything else an
    /// external DIMACS solver on PATH or a path to one.
    pub fn from_name(name: &str) -> Result<Backend> {
        match name {
            "varisat" => Ok(Backend::Varisat),
            "walk" => Ok(Backend::Walk),
            "lib:cadical" => Ok(Backend::LibCadical),
            "lib:kissat" => Ok(Backend::LibKissat),
            _ => Ok(Backend::External(ExternalSolver::new(name)?)),
        }
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
