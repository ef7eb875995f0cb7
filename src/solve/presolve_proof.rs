//! Proofs of presolve's refutations for `solve --certify --proof F` (issue 52 §4): the proof
//! ([`crate::certify::presolved`]: one unit-propagation step, or CaDiCaL's LRAT refutation
//! when presolve's reason is a matching of rows to columns), checked, then written whole.
//! Here rather than in `certify` because the CaDiCaL route needs a solver.

use std::path::Path;

use crate::answer::Answer;
use crate::certify::lrat::Steps;
use crate::certify::{Certificate, ProofFormat, presolved};
use crate::encode::Encoder;
use crate::encode::amo::AmoKind;
use crate::error::{Error, Result};
use crate::interrupt::Cancel;
use crate::presolve::Problem;

/// Refuses, with the estimate, a proof whose CNF (the unpresolved pairwise encoding, held
/// in memory with its checker's copy) does not fit the memory budget.
fn check_memory(problem: &Problem) -> Result<()> {
    let full = Problem::full(&problem.instance, problem.piece)?;
    let stats = Encoder::new(&full, AmoKind::Pairwise).stats()?;
    // The clauses as vectors (literals, and a vector header per clause), twice: the formula
    // and the checker's copy.
    let need = 2 * (4 * stats.literals + 32 * stats.clauses);
    crate::memory::check(
        need,
        &format!(
            "a proof of presolve's refutation ({} clauses unpresolved)",
            stats.clauses
        ),
        "; drop --proof (presolve's UNSAT is re-proved without a file)",
    )
}

/// Writes the checked proof of presolve's refutation of `problem` to `path`
/// ([`crate::certify::presolved`]): VeriPB over the model of `encode --to opb --no-presolve`
/// when the format (asked, or the file's name) is VeriPB, else LRAT over the CNF of `encode
/// --amo pairwise --no-presolve`. Written whole, and only then (with `path`; without, the
/// proof is only checked).
pub(crate) fn write_presolve_proof(
    problem: &Problem,
    path: Option<&Path>,
    asked: Option<ProofFormat>,
    stop: &Cancel,
) -> Result<Option<Certificate>> {
    check_memory(problem)?;
    match ProofFormat::resolve(asked, path) {
        ProofFormat::Lrat => {
            let (proof, how) = match presolved::lrat(&problem.instance, problem.piece) {
                Ok(proof) => (proof, "unit propagation"),
                // A reason beyond unit propagation (presolve's matching of rows to columns):
                // CaDiCaL's LRAT refutation of the same CNF, checked the same way.
                Err(_) => match cadical_presolve_proof(problem, stop)? {
                    Some(proof) => (proof, "CaDiCaL's refutation"),
                    None => return Ok(None),
                },
            };
            let (clauses, steps) = proof.certify(path, "the proof of presolve's refutation")?;
            Ok(Some(Certificate {
                checker: format!(
                    "LRAT proof of presolve's refutation ({how} over the {clauses} clauses of \
                     the unpresolved pairwise encoding), checked by queens-sat's LRAT checker"
                ),
                steps,
            }))
        }
        ProofFormat::Veripb => {
            let full = Problem::full(&problem.instance, problem.piece)?;
            let opb = presolved::opb_model(&full)?;
            let proof = presolved::veripb(&opb)?;
            if let Some(path) = path {
                crate::atomic_file::write_atomic(path, |f| {
                    std::io::Write::write_all(f, proof.as_bytes())
                        .map_err(|e| Error::io(path.display().to_string(), e))
                })?;
            }
            Ok(Some(Certificate {
                checker: "VeriPB proof of presolve's refutation (rup over the unpresolved OPB \
                          model), checked by pbcheck"
                    .into(),
                steps: 1,
            }))
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
/// `problem`'s instance, renumbered, unchecked ([`presolved::LratProof::certify`] checks it);
/// `None` when stopped.
fn cadical_presolve_proof(
    problem: &Problem,
    stop: &Cancel,
) -> Result<Option<presolved::LratProof>> {
    let cnf = crate::certify::Cnf::full_pairwise(&problem.instance, problem.piece)?;
    match cadical_lrat(cnf, stop)? {
        Refutation::Proof(proof) => Ok(Some(proof)),
        Refutation::Stopped => Ok(None),
        Refutation::Model => Err(Error::WrongAnswer(format!(
            "presolve refuted the instance ({}), but CaDiCaL found a model of its full encoding",
            problem.unsat.as_deref().unwrap_or("?")
        ))),
    }
}

/// A CNF as a [`Formula`](super::traits::Formula): its clauses in order, as DIMACS literals.
struct ClauseList<'a> {
    vars: u32,
    clauses: &'a [Vec<i32>],
}

impl super::traits::Formula for ClauseList<'_> {
    fn load(&self, sink: &mut dyn crate::encode::ClauseSink) -> u64 {
        let mut lits = Vec::new();
        for c in self.clauses {
            lits.clear();
            lits.extend(c.iter().map(|&l| crate::encode::Lit::from_dimacs(l)));
            sink.add_clause(&lits);
            if sink.stopped() {
                break;
            }
        }
        u64::from(self.vars)
    }
}

/// What [`cadical_lrat`] found.
pub(crate) enum Refutation {
    /// CaDiCaL refuted the CNF: its LRAT proof, renumbered, unchecked
    /// ([`presolved::LratProof::certify`] checks it).
    Proof(presolved::LratProof),
    /// CaDiCaL found a model: the CNF is satisfiable (what that means is the caller's: cubes
    /// that do not cover, a presolve that refuted a satisfiable instance).
    Model,
    /// The stop token stopped it first.
    Stopped,
}

/// CaDiCaL's LRAT refutation of the CNF of `vars` variables and `clauses`, renumbered to the
/// DIMACS order (the i-th clause has id i + 1): a [`Refutation`]; an error only when CaDiCaL
/// or the file system failed.
pub(crate) fn cadical_lrat(cnf: crate::certify::Cnf, stop: &Cancel) -> Result<Refutation> {
    let crate::certify::Cnf { vars, clauses } = cnf;
    let dir = tempfile::tempdir().map_err(|e| Error::io("temp dir", e))?;
    let path = dir.path().join("refutation.lrat");
    let formula = ClauseList {
        vars,
        clauses: &clauses,
    };
    match super::cadical_backend::lrat_refutation(&formula, stop, &path)? {
        Answer::Unsat => {}
        Answer::Sat(()) => return Ok(Refutation::Model),
        // Stopped (the time limit or a cancel): no proof.
        Answer::Unknown(_) if stop.is_stopped() => return Ok(Refutation::Stopped),
        Answer::Unknown(why) => {
            return Err(Error::Solver(format!(
                "CaDiCaL neither refuted the CNF nor found a model: {why}"
            )));
        }
    }
    let text = std::fs::read_to_string(&path).map_err(|e| Error::io("the LRAT proof", e))?;
    let steps = Steps::parse_text(
        &renumber_cadical_lrat(&text, clauses.len()),
        "CaDiCaL's LRAT proof",
    )?;
    Ok(Refutation::Proof(presolved::LratProof {
        steps,
        cnf: crate::certify::Cnf { vars, clauses },
    }))
}
