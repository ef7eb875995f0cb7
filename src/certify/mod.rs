//! Certified UNSAT (`--certify`): an UNSAT answer is accepted only with a checked refutation.
//!
//! - In-process, varisat runs with self-checking enabled: every step of its proof is checked
//!   by `varisat-checker` as it is produced, and a failing step stops the solver with an error.
//! - Externally, cadical / kissat write a text DRAT proof, which `check_drat` replays with the
//!   `dratify` crate (forward RUP/RAT checking, no code shared with the solver; [`drat`]).
//! - The bitboard search and presolve write LRAT or VeriPB proofs, checked by [`lrat`] and
//!   [`pbcheck`].
//!
//! The checkers ([`drat`], [`lrat`], [`pbcheck`]) are the `queens-sat-check` crate (check/),
//! re-exported here: the trust boundary. That crate does not depend on this one, so a checker
//! cannot import the search or the encoder whose output it checks; the writers of the proofs
//! ([`pb`], the bitboard search) depend on it, never the reverse.

pub mod budget;
mod cnf;
pub mod pb;
pub(crate) mod pipeline;
pub mod presolved;

// The checkers live in the `queens-sat-check` crate (check/), which cannot import the search or
// the encoder. A user who checks proofs uses that crate; the library re-exports only the two
// types its own public items name (the error's format, an engine outcome's certificate).
// Public to the tests (`solve::bitboard::proof::pairwise` returns it), crate-private otherwise.
gated!(any(feature = "front", feature = "oracle") => use cnf::Cnf;);
pub use queens_sat_check::Certificate;
/// The format of a checked proof, as [`crate::Error::ProofRejected`] names it (DRAT, LRAT,
/// VeriPB; [`ProofFormat`] is the bitboard search's choice of the last two).
pub use queens_sat_check::Format as CheckedFormat;
#[allow(unused_imports)]
pub(crate) use queens_sat_check::drat::{parse_drat, parse_drat_line};
pub(crate) use queens_sat_check::{drat, lrat, pbcheck};

use std::path::Path;

use crate::encode::EncodeOptions;
use crate::error::{Error, Result};
use crate::presolve::Problem;

/// The proof the bitboard search writes and checks under `--certify` (`--proof-format`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ProofFormat {
    /// LRAT over the pairwise CNF (`encode --amo pairwise`): the search runs without its sum
    /// bounds, parity and forced diagonals, which clauses cannot express
    /// (`crate::solve::bitboard::proof`).
    Lrat,
    /// VeriPB cutting planes over the OPB model (`encode --to opb`): the search keeps every
    /// pruning (`crate::solve::bitboard::pbproof`).
    Veripb,
}

impl ProofFormat {
    /// Every format, in the order of [`ProofFormat::NAMES`].
    pub const ALL: [ProofFormat; 2] = [ProofFormat::Lrat, ProofFormat::Veripb];
    /// The names `--proof-format` takes.
    pub const NAMES: [&'static str; 2] = ["lrat", "veripb"];
    /// The format of a certified bitboard search when neither `--proof-format` nor the name of
    /// `--proof` says (docs/benchmarks.md, "Certified UNSAT", measured both).
    pub const DEFAULT: ProofFormat = ProofFormat::Lrat;

    /// The name `--proof-format` takes for this format.
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    /// The format called `name` (`lrat`, `veripb`).
    pub fn from_name(name: &str) -> Option<ProofFormat> {
        Self::ALL.into_iter().find(|f| f.name() == name)
    }

    /// The proofs `--certify` asks for, in the format `name` gives (`--proof-format`), else
    /// [`ProofFormat::DEFAULT`]; `None` without `certify`. Public for the program's `split
    /// solve --certify`.
    ///
    /// ```
    /// use queens_sat::certify::ProofFormat;
    /// assert_eq!(ProofFormat::certified(false, None).unwrap(), None);
    /// assert_eq!(ProofFormat::certified(true, None).unwrap(), Some(ProofFormat::DEFAULT));
    /// assert_eq!(ProofFormat::certified(true, Some("veripb")).unwrap(), Some(ProofFormat::Veripb));
    /// assert!(ProofFormat::certified(true, Some("drat")).is_err());
    /// ```
    pub fn certified(certify: bool, name: Option<&str>) -> Result<Option<ProofFormat>> {
        match (certify, name) {
            (false, _) => Ok(None),
            (true, None) => Ok(Some(ProofFormat::DEFAULT)),
            (true, Some(f)) => ProofFormat::parse(f).map(Some),
        }
    }

    /// [`ProofFormat::from_name`], or an error naming `--proof-format` / `proof_format=`, the
    /// value and the formats there are.
    pub fn parse(name: &str) -> Result<ProofFormat> {
        Self::from_name(name).ok_or_else(|| {
            crate::error::BadOption::unknown(crate::error::Opt::ProofFormat, name, &Self::NAMES)
        })
    }

    /// The format of a kept proof file: VeriPB for a name ending in `.pbp`, else LRAT.
    pub fn of_file(path: &Path) -> ProofFormat {
        match path.extension().is_some_and(|e| e == "pbp") {
            true => ProofFormat::Veripb,
            false => ProofFormat::Lrat,
        }
    }

    /// The format to write: `asked` (`--proof-format`), else the kept file's
    /// ([`ProofFormat::of_file`]), else [`ProofFormat::DEFAULT`].
    pub fn resolve(asked: Option<ProofFormat>, file: Option<&Path>) -> ProofFormat {
        asked
            .or_else(|| file.map(ProofFormat::of_file))
            .unwrap_or(ProofFormat::DEFAULT)
    }
}

/// An LRAT refutation, not yet checked: its steps over a CNF (the i-th clause has id i + 1).
#[cfg_attr(
    not(any(feature = "front", feature = "oracle")),
    visibility::make(pub(crate)),
    allow(dead_code)
)]
pub struct LratProof {
    /// The proof.
    pub steps: lrat::Steps,
    /// The CNF it refutes.
    pub cnf: Cnf,
}

impl LratProof {
    /// Checks the proof through the certified pipeline (`certify::pipeline`), writing it to
    /// `path` (kept only once it checked, when one is given): the CNF's clause count and the
    /// steps checked. `what` names the proof in the error when the check fails or does not
    /// derive the empty clause ([`Error::ProofRejected`]).
    pub fn certify(self, path: Option<&Path>, what: &str) -> Result<(usize, u64)> {
        let LratProof {
            steps,
            cnf: Cnf { vars, clauses },
        } = self;
        let count = clauses.len();
        let (_, checked) = pipeline::run::<pipeline::LratRoute, _>(
            path,
            None,
            || Ok(lrat::Lrat::new(vars, clauses)?),
            // A closed channel: the checker's error is the one reported.
            |outlet| outlet.send(steps).ok(),
        )?;
        if !checked.checker.refuted() {
            return Err(Error::proof_rejected(
                CheckedFormat::Lrat,
                None,
                format!("{what} does not derive the empty clause"),
            ));
        }
        if let Some(file) = checked.file {
            file.keep()?;
        }
        Ok((count, checked.checker.steps()))
    }
}

/// Checks the text LRAT proof in `path` against `cnf`, streamed in chunks; `what` names it in errors. The steps checked once it derives the empty
/// clause, `Ok(None)` when `stop` said stop first, and [`Error::ProofRejected`] when a step
/// fails or the proof ends without the empty clause.
#[cfg_attr(not(feature = "harness"), allow(dead_code))]
pub(crate) fn check_lrat_file(
    cnf: Cnf,
    path: &Path,
    what: &str,
    stop: &dyn Fn() -> bool,
) -> Result<Option<u64>> {
    let name = path.display().to_string();
    let file = std::fs::File::open(path).map_err(|e| Error::io(&name, e))?;
    let mut checker = lrat::Lrat::new(cnf.vars, cnf.clauses)?;
    if !checker.check_reader(std::io::BufReader::new(file), &name, stop)? {
        return Ok(None);
    }
    if !checker.refuted() {
        return Err(Error::proof_rejected(
            CheckedFormat::Lrat,
            None,
            format!("{what} ({name}) does not derive the empty clause"),
        ));
    }
    Ok(Some(checker.steps()))
}

/// Checks that the DRAT proof in `proof_path` refutes the CNF that `options` encodes for
/// `problem`. A proof that does not check is an error, never an UNSAT. The proof is streamed.
#[cfg_attr(
    not(feature = "oracle"),
    visibility::make(pub(crate)),
    allow(dead_code)
)]
pub fn check_drat(
    problem: &Problem,
    options: EncodeOptions,
    proof_path: &Path,
) -> Result<Certificate> {
    check_drat_until(problem, options, proof_path, &|| false)?
        .ok_or_else(|| Error::Internal("the proof check was stopped".into()))
}

/// [`check_drat`] that asks `stop` between chunks of the proof (a time limit, a cancel token)
/// and gives `Ok(None)` when it says so: checking a long proof can take longer than finding it,
/// and a solve's time limit and cancel cover the check too. The encoder builds the formula;
/// [`drat::check_file`] checks the proof against it.
#[cfg_attr(
    not(feature = "oracle"),
    visibility::make(pub(crate)),
    allow(dead_code)
)]
pub fn check_drat_until(
    problem: &Problem,
    options: EncodeOptions,
    proof_path: &Path,
    stop: &dyn Fn() -> bool,
) -> Result<Option<Certificate>> {
    // The proof file must exist before the formula is encoded (as before the checker moved).
    std::fs::metadata(proof_path).map_err(|e| Error::io(proof_path.display().to_string(), e))?;
    let cnf = Cnf::encoded(problem, options);
    Ok(drat::check_file(cnf.vars, cnf.clauses, proof_path, stop)?)
}
