//! The DRAT wrapper: text DRAT proofs (cadical, kissat) replayed with the `dratify` crate
//! (forward RUP/RAT checking, deletions; no code shared with any solver).
//!
//! Checker choice: `varisat-checker` reads only varisat's own proof format; `rate` is a binary,
//! not a library; `dratify` is a small dependency-free DRAT/DRUP checker library (forward
//! checking, RUP and RAT, deletions), differentially tested against an independent Python
//! implementation by its author. Forward checking verifies every lemma (no backward trimming as
//! in drat-trim), which is slower on long proofs but simple and strict.

use std::path::Path;

use crate::Certificate;
use crate::error::{Error, Format, Result};

/// A literal in dratify's encoding (`2 * (var - 1) + negated`).
pub type Lit = dratify::Lit;

/// A DIMACS literal in dratify's encoding.
pub fn to_dratify(l: i64) -> Lit {
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
) -> Result<Option<(bool, Vec<Lit>)>> {
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

/// Parses a whole text DRAT proof held in memory (see [`parse_drat_line`]); [`check_file`]
/// streams files instead.
pub fn parse_drat(source: &str, text: &str, num_vars: &mut u32) -> Result<Vec<(bool, Vec<Lit>)>> {
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

/// Proof steps checked between two questions to `stop`: a RUP step on a large formula can take
/// a fraction of a millisecond, so a whole chunk (tens of thousands of steps) kept a stop
/// waiting about a second; this many keep it to milliseconds.
const STOP_EVERY: usize = 1 << 10;

/// Checks that the DRAT proof in `proof_path` refutes the formula `clauses` (DIMACS literals
/// over `1..=num_vars`), streaming the proof, and asks `stop` between chunks of it (a time
/// limit, a cancel token): `Ok(None)` when it says so. A proof that does not check is
/// [`Error::Rejected`], never an UNSAT.
pub fn check_file(
    num_vars: u32,
    clauses: impl IntoIterator<Item = Vec<i32>>,
    proof_path: &Path,
    stop: &dyn Fn() -> bool,
) -> Result<Option<Certificate>> {
    use std::io::BufRead;
    let name = proof_path.display().to_string();
    let file = std::fs::File::open(proof_path).map_err(|e| Error::io(&name, e))?;
    let mut num_vars = num_vars;
    let formula: Vec<Vec<Lit>> = clauses
        .into_iter()
        .map(|c| c.iter().map(|&l| to_dratify(i64::from(l))).collect())
        .collect();
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
        // `check` resumes where the last part stopped; it reports ok once the empty clause is
        // derived, a failed step with its index, and otherwise "not yet refuted". The chunk is
        // checked in parts, `stop` asked before each.
        let mut parts = chunk.chunks(STOP_EVERY).peekable();
        let result = loop {
            if stop() {
                return Ok(None);
            }
            let r = checker.check(parts.next().unwrap_or(&[]));
            if r.ok || r.failed_step >= 0 || parts.peek().is_none() {
                break r;
            }
        };
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
            return Err(Error::rejected(
                Format::Drat,
                u64::try_from(result.failed_step).ok(),
                format!(
                    "the UNSAT proof does not check: {} (step {})",
                    result.reason, result.failed_step
                ),
            ));
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

    /// A proof of `steps` copies of the lemma (1 2) (RUP, and unit at no point), then (2) and
    /// the empty clause, for the formula of all four clauses over 1 and 2 (UNSAT, not by unit
    /// propagation alone), in a file.
    fn long_proof(steps: usize) -> (Vec<Vec<i32>>, std::path::PathBuf) {
        let path = std::env::temp_dir().join(format!(
            "queens-sat-check-drat-{}-{steps}.drat",
            std::process::id()
        ));
        std::fs::write(&path, "1 2 0\n".repeat(steps) + "2 0\n0\n").unwrap();
        (
            vec![vec![1, 2], vec![-1, 2], vec![1, -2], vec![-1, -2]],
            path,
        )
    }

    /// `stop` is asked every `STOP_EVERY` steps, not once per chunk: a stop is heard within a
    /// few milliseconds of checking, and a proof it stops is no verdict.
    #[test]
    fn stop_is_asked_between_parts_of_a_chunk() {
        let (formula, path) = long_proof(3 * STOP_EVERY);
        let asked = std::cell::Cell::new(0);
        let count = || {
            asked.set(asked.get() + 1);
            false
        };
        let done = check_file(2, formula.clone(), &path, &count).unwrap();
        assert_eq!(done.map(|c| c.steps), Some(3 * STOP_EVERY as u64 + 2));
        assert_eq!(asked.get(), 4, "three full parts, then the last two steps");
        let after_two = || {
            asked.set(asked.get() + 1);
            asked.get() > 6
        };
        asked.set(4);
        assert_eq!(check_file(2, formula, &path, &after_two).unwrap(), None);
        assert_eq!(asked.get(), 7);
        std::fs::remove_file(&path).unwrap();
    }
}
