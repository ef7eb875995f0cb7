//! Certified UNSAT (`--certify`): an UNSAT answer is accepted only with a checked refutation.
//!
//! - In-process, varisat runs with self-checking enabled: every step of its proof is checked
//!   by `varisat-checker` as it is produced, and a failing step stops the solver with an error.
//! - Externally, cadical / kissat write a text DRAT proof, which [`check_drat`] replays with the
//!   `dratify` crate (forward RUP/RAT checking, no code shared with the solver).
//!
//! Checker choice: `varisat-checker` reads only varisat's own proof format; `rate` is a binary,
//! not a library; `dratify` is a small dependency-free DRAT/DRUP checker library (forward
//! checking, RUP and RAT, deletions), differentially tested against an independent Python
//! implementation by its author. Forward checking verifies every lemma (no backward trimming as
//! in drat-trim), which is slower on long proofs but simple and strict.

pub mod lrat;
pub mod pb;
pub mod pbcheck;
pub mod presolved;

use std::path::Path;

use crate::encode::{EncodeOptions, Encoder, VecSink};
use crate::error::{Error, Result};
use crate::presolve::Problem;

/// The proof the bitboard search writes and checks under `--certify` (`--proof-format`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ProofFormat {
    /// LRAT over the pairwise CNF (`encode --amo pairwise`): the search runs without its sum
    /// bounds, parity and forced diagonals, which clauses cannot express
    /// ([`crate::solve::bitboard::proof`]).
    Lrat,
    /// VeriPB cutting planes over the OPB model (`encode --to opb`): the search keeps every
    /// pruning ([`crate::solve::bitboard::pbproof`]).
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

/// What a successful check established.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certificate {
    /// Who checked the refutation.
    pub checker: String,
    /// Proof steps checked (0 when not counted).
    pub steps: u64,
}

fn to_dratify(l: i64) -> dratify::Lit {
    let v = l.unsigned_abs() as u32 - 1;
    2 * v + u32::from(l < 0)
}

/// Parses one line of a text DRAT proof (`[d] lit ... 0`; `c` lines and blank lines give
/// `None`), line `line_no` of `source`, into dratify's literal encoding. Literals beyond
/// `num_vars` are allowed (RAT extension variables) and widen the variable count.
pub fn parse_drat_line(
    source: &str,
    line_no: usize,
    line: &str,
    num_vars: &mut u32,
) -> Result<Option<(bool, Vec<dratify::Lit>)>> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('c') {
        return Ok(None);
    }
    let (del, body) = match line.strip_prefix('d') {
        Some(rest) => (true, rest),
        None => (false, line),
    };
    let mut lits = Vec::new();
    for tok in body.split_whitespace() {
        let l: i64 = tok
            .parse()
            .map_err(|_| Error::parse(source, line_no, format!("bad DRAT literal '{tok}'")))?;
        if l == 0 {
            return Ok(Some((del, lits)));
        }
        if l.unsigned_abs() > i32::MAX as u64 {
            return Err(Error::parse(
                source,
                line_no,
                format!("DRAT literal {l} out of range"),
            ));
        }
        *num_vars = (*num_vars).max(l.unsigned_abs() as u32);
        lits.push(to_dratify(l));
    }
    Err(Error::parse(
        source,
        line_no,
        "DRAT step not terminated by 0",
    ))
}

/// Parses a whole text DRAT proof held in memory (see [`parse_drat_line`]); [`check_drat`]
/// streams files instead.
pub fn parse_drat(
    source: &str,
    text: &str,
    num_vars: &mut u32,
) -> Result<Vec<(bool, Vec<dratify::Lit>)>> {
    let mut steps = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if let Some(step) = parse_drat_line(source, i + 1, line, num_vars)? {
            steps.push(step);
        }
    }
    Ok(steps)
}

/// Proof steps handed to the checker at a time: the proof is streamed from its file in chunks
/// of this many steps, so memory holds the checker's clause database and one chunk, never the
/// whole proof text.
const CHUNK: usize = 1 << 16;

/// Checks that the DRAT proof in `proof_path` refutes the CNF that `options` encodes for
/// `problem`. A proof that does not check is an error, never an UNSAT. The proof is streamed.
pub fn check_drat(
    problem: &Problem,
    options: EncodeOptions,
    proof_path: &Path,
) -> Result<Certificate> {
    check_drat_until(problem, options, proof_path, &|| false)?
        .ok_or_else(|| Error::Solver("the proof check was stopped".into()))
}

/// [`check_drat`] that asks `stop` between chunks of the proof (a time limit, a cancel token)
/// and gives `Ok(None)` when it says so: checking a long proof can take longer than finding it,
/// and a solve's time limit and cancel cover the check too.
pub fn check_drat_until(
    problem: &Problem,
    options: EncodeOptions,
    proof_path: &Path,
    stop: &dyn Fn() -> bool,
) -> Result<Option<Certificate>> {
    use std::io::BufRead;
    let name = proof_path.display().to_string();
    let file = std::fs::File::open(proof_path).map_err(|e| Error::io(&name, e))?;
    let mut clauses = VecSink::default();
    let stats = Encoder::with_options(problem, options).encode(&mut clauses);
    let mut num_vars = stats.vars as u32;
    let formula: Vec<Vec<dratify::Lit>> = clauses
        .clauses
        .iter()
        .map(|c| c.iter().map(|l| to_dratify(l.to_dimacs() as i64)).collect())
        .collect();
    drop(clauses);
    let mut checker = dratify::Checker::new(num_vars, &formula, true, true);
    drop(formula);
    let mut lines = std::io::BufReader::new(file).lines().enumerate();
    let mut chunk = Vec::with_capacity(CHUNK);
    loop {
        chunk.clear();
        let mut eof = true;
        for (i, line) in lines.by_ref() {
            let line = line.map_err(|e| Error::io(&name, e))?;
            if let Some(step) = parse_drat_line(&name, i + 1, &line, &mut num_vars)? {
                chunk.push(step);
                if chunk.len() == CHUNK {
                    eof = false;
                    break;
                }
            }
        }
        if stop() {
            return Ok(None);
        }
        // `check` resumes where the last chunk stopped; it reports ok once the empty clause is
        // derived, a failed step with its index, and otherwise "not yet refuted".
        let result = checker.check(&chunk);
        if result.ok {
            // The rest of the file is not needed for the refutation, but a malformed line there
            // is still an error, as when the whole file was read.
            for (i, line) in lines {
                let line = line.map_err(|e| Error::io(&name, e))?;
                parse_drat_line(&name, i + 1, &line, &mut num_vars)?;
            }
            return Ok(Some(Certificate {
                checker: "DRAT proof checked by dratify".into(),
                steps: result.steps,
            }));
        }
        if result.failed_step >= 0 || eof {
            return Err(Error::Solver(format!(
                "the UNSAT proof does not check: {} (step {})",
                result.reason, result.failed_step
            )));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_text_drat() {
        let mut nv = 2;
        let steps = parse_drat("p", "c x\n1 0\nd 1 2 0\n3 -1 0\n0\n", &mut nv).unwrap();
        assert_eq!(nv, 3);
        assert_eq!(steps.len(), 4);
        assert_eq!(steps[1], (true, vec![0, 2]));
        assert_eq!(steps[2], (false, vec![4, 1]));
        assert_eq!(steps[3], (false, vec![]));
        assert!(parse_drat("p", "1 2\n", &mut nv).is_err());
        assert!(parse_drat("p", "1 x 0\n", &mut nv).is_err());
    }
}
