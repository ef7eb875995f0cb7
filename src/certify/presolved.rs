//! Proofs of presolve's refutations (`solve --certify --proof F` on an instance presolve
//! refutes, issue 52 §4).
//!
//! Presolve refutes an instance for a reason a solver would find by unit propagation alone:
//! two pre-placed pieces that attack each other, or a row or column left without a free cell.
//! So the proof is over the *unpresolved* model, where the pre-placed pieces and the unavailable
//! cells are unit constraints, and it is one step:
//! - LRAT over the CNF of `encode --amo pairwise --no-presolve`: the empty clause, hinted by the
//!   clauses that propagate to the conflict, in propagation order ([`lrat`]);
//! - VeriPB over the model of `encode --to opb --no-presolve`: `rup >= 1 ;` (the checker finds
//!   the propagation itself), concluding `UNSAT` ([`veripb`]).
//!
//! Each proof is checked in process (the LRAT checker of [`crate::certify::lrat`], through the
//! certified pipeline of `certify::pipeline` that writes the file; the pbcheck of
//! [`crate::certify::pbcheck`]) before it is kept. A refutation that unit
//! propagation does not reach is an error, never a proof that does not check.

use crate::encode::amo::AmoKind;
use crate::error::{Error, Result};
use crate::instance::Instance;
use crate::piece::Piece;
use crate::presolve::Problem;

gated!(any(feature = "front", feature = "oracle") => use super::LratProof;);
use super::lrat::Steps;

/// `problem`'s OPB model as `encode --to opb` writes it (with `--no-presolve` for
/// [`Problem::full`]): the text the VeriPB proofs refer to.
pub(crate) fn opb_model(problem: &Problem) -> Result<String> {
    let (opb, _) = crate::export::write_piped(
        crate::export::Format::Opb,
        Vec::new(),
        problem,
        crate::encode::EncodeOptions::from(AmoKind::DEFAULT),
        None,
        crate::export::WriteOptions::default(),
    )?;
    String::from_utf8(opb).map_err(|e| Error::Internal(e.to_string()))
}

/// The clause ids (1-based, in the order of `clauses`) that unit propagation uses to reach a
/// conflict, in propagation order and ending with the conflicting clause: the hints of the
/// empty clause. `None` when propagation reaches a fixpoint without a conflict.
pub(crate) fn propagation_hints(num_vars: u32, clauses: &[Vec<i32>]) -> Option<Vec<u64>> {
    let var = |l: i32| l.unsigned_abs() as usize;
    // value[v]: 0 unassigned, 1 true, -1 false; reason[v]: the clause that set it.
    let mut value = vec![0i8; num_vars as usize + 1];
    let mut reason = vec![usize::MAX; num_vars as usize + 1];
    let mut trail: Vec<usize> = Vec::new();
    let mut occurs: Vec<Vec<usize>> = vec![Vec::new(); 2 * (num_vars as usize + 1)];
    let slot = |l: i32| 2 * var(l) + usize::from(l < 0);
    for (i, c) in clauses.iter().enumerate() {
        for &l in c {
            occurs[slot(l)].push(i);
        }
    }
    let lit_value = |value: &[i8], l: i32| {
        let v = value[var(l)];
        if l < 0 { -v } else { v }
    };
    // Scans clause `i`: Some(conflict) when every literal is false, or sets its one open
    // literal when the rest are false.
    let visit =
        |i: usize, value: &mut Vec<i8>, reason: &mut Vec<usize>, trail: &mut Vec<usize>| -> bool {
            let mut open = None;
            for &l in &clauses[i] {
                match lit_value(value, l) {
                    1 => return false,
                    0 if open.is_some() => return false,
                    0 => open = Some(l),
                    _ => {}
                }
            }
            match open {
                None => true,
                Some(l) => {
                    value[var(l)] = if l < 0 { -1 } else { 1 };
                    reason[var(l)] = i;
                    trail.push(var(l));
                    false
                }
            }
        };
    let mut conflict = None;
    // The unit clauses first, then what each assignment makes unit.
    for i in (0..clauses.len()).filter(|&i| clauses[i].len() <= 1) {
        if visit(i, &mut value, &mut reason, &mut trail) {
            conflict = Some(i);
            break;
        }
    }
    let mut head = 0;
    while conflict.is_none() && head < trail.len() {
        let v = trail[head];
        head += 1;
        // The clauses where v's literal is now false.
        let false_lit = if value[v] > 0 { -(v as i32) } else { v as i32 };
        for &i in &occurs[slot(false_lit)] {
            if visit(i, &mut value, &mut reason, &mut trail) {
                conflict = Some(i);
                break;
            }
        }
    }
    let conflict = conflict?;
    // Only the reasons the conflict depends on, in trail order.
    let mut needed = vec![false; num_vars as usize + 1];
    for &l in &clauses[conflict] {
        needed[var(l)] = true;
    }
    let mut hints = Vec::new();
    for &v in trail.iter().rev() {
        if needed[v] {
            let r = reason[v];
            hints.push(r as u64 + 1);
            for &l in &clauses[r] {
                needed[var(l)] = true;
            }
        }
    }
    hints.reverse();
    hints.push(conflict as u64 + 1);
    Some(hints)
}

/// The LRAT proof of presolve's refutation of `instance` over `full_pairwise`'s CNF by unit
/// propagation, unchecked ([`LratProof::certify`] checks it). An error when unit propagation
/// does not refute the CNF (presolve's reason needs more).
#[cfg_attr(
    not(any(feature = "front", feature = "oracle")),
    visibility::make(pub(crate)),
    allow(dead_code)
)]
pub fn lrat(instance: &Instance, piece: Piece) -> Result<LratProof> {
    let super::Cnf { vars, clauses } = super::Cnf::full_pairwise(instance, piece)?;
    let hints = propagation_hints(vars, &clauses).ok_or_else(|| {
        Error::Internal(
            "no proof of presolve's refutation: unit propagation does not refute the full \
             encoding"
                .into(),
        )
    })?;
    let mut steps = Steps::new();
    steps.add(clauses.len() as u64 + 1, &[], &hints);
    Ok(LratProof {
        steps,
        cnf: super::Cnf { vars, clauses },
    })
}

/// The VeriPB proof of presolve's refutation of `instance` over the model of `encode --to opb
/// --no-presolve` (given as `opb`, its text), checked by pbcheck: the proof's text.
#[cfg_attr(
    not(any(feature = "front", feature = "oracle")),
    visibility::make(pub(crate)),
    allow(dead_code)
)]
pub fn veripb(opb: &str) -> Result<String> {
    let mut checker = super::pbcheck::PbChecker::from_opb(opb, "the unpresolved OPB model")?;
    let (_, constraints) = super::pbcheck::parse_opb(opb, "the unpresolved OPB model")?;
    // VeriPB loads an `=` as two constraints.
    let loaded: usize = constraints
        .iter()
        .map(|c| match c.relation {
            super::pbcheck::Relation::Eq => 2,
            _ => 1,
        })
        .sum();
    let proof = format!(
        "pseudo-Boolean proof version 3.0\nf {loaded} ;\nrup >= 1 ;\noutput NONE ;\n\
         conclusion UNSAT : -1 ;\nend pseudo-Boolean proof ;\n"
    );
    checker.set_source("the proof of presolve's refutation");
    checker.check_reader(proof.as_bytes()).map_err(|_| {
        Error::Usage(
            "no VeriPB proof of presolve's refutation: it needs more than propagation (a \
             matching of rows to columns); an LRAT proof (--proof F.lrat) covers it"
                .into(),
        )
    })?;
    let verdict = checker.finish()?;
    if !verdict.unsat {
        return Err(Error::proof_rejected(
            super::CheckedFormat::Veripb,
            None,
            "the VeriPB proof of presolve's refutation does not conclude UNSAT",
        ));
    }
    Ok(proof)
}
