//! The certified route of the VeriPB search: the search's steps in batches to a checker thread
//! (the one certified run, [`crate::certify::pipeline`]), and the measuring run that makes the
//! batches and drops them (`write_only`, feature `oracle`).

use std::path::Path;
use std::time::{Duration, Instant};

use super::run;
use crate::answer::Answer;
#[cfg(feature = "oracle")]
use crate::board::Board;
use crate::certify::pb::{Geometry, Id, Operand, PbBatch, PbCheck, PbRoute, PolOp, Sink, model};
use crate::certify::pbcheck::PbChecker;
use crate::certify::pipeline::{self, Outlet};
use crate::error::{Error, Result};
use crate::interrupt::Cancel;
use crate::presolve::Problem;

/// A [`Sink`] that keeps nothing: [`write_only`]'s.
#[cfg(feature = "oracle")]
struct Discard(PbBatch);

#[cfg(feature = "oracle")]
impl Sink for Discard {
    fn header(&mut self, loaded: Id) {
        self.0.header(loaded);
    }

    fn rup(&mut self, path: &[u32], hints: &[Id]) {
        self.0.rup(path, hints);
        self.full();
    }

    fn pol(&mut self, ops: &[(Operand, i64)]) {
        self.0.pol(ops);
        self.full();
    }

    fn pol_rpn(&mut self, ops: &[PolOp]) {
        self.0.pol_rpn(ops);
        self.full();
    }

    fn delete(&mut self, ids: &[Id]) {
        self.0.delete(ids);
        self.full();
    }

    fn finish(&mut self, unsat: Option<Id>) {
        self.0.finish(unsat);
    }
}

#[cfg(feature = "oracle")]
impl Discard {
    fn full(&mut self) {
        if self.0.len() >= FLUSH_WORDS {
            self.0 = PbBatch::new();
        }
    }
}

/// For measuring: the search of [`search_certified_pb`] making its batches of steps and
/// dropping them (no checker): the answer, the nodes and the seconds. Feature `oracle` (the
/// example `veripb_spike` measures with it).
#[cfg(feature = "oracle")]
pub fn write_only(problem: &Problem) -> Result<(Answer<Board>, u64, f64)> {
    let t = Instant::now();
    let g = Geometry::new(problem)?;
    let (ran, _) = run(problem, &g, &Cancel::new(), Discard(PbBatch::new()))?;
    Ok((ran.answer, ran.stats.nodes, t.elapsed().as_secs_f64()))
}

/// Proof words handed to the checker at a time.
const FLUSH_WORDS: usize = 1 << 17;

/// The search's [`Sink`] in the certified route: steps go into a [`PbBatch`], handed to the
/// checker whenever it is full. A closed channel (the checker stopped on an error) raises
/// `stop`, so that the search ends soon; the checker's error is the one reported.
struct Channel<'t> {
    batch: PbBatch,
    outlet: Outlet<PbBatch>,
    stop: Cancel,
    /// The tests' hook: applied to every batch before it is sent.
    tamper: Option<&'t mut dyn FnMut(&mut PbBatch)>,
}

impl Channel<'_> {
    fn send(&mut self) {
        let next = self
            .outlet
            .reuse()
            .unwrap_or_else(|| PbBatch::with_capacity(FLUSH_WORDS + 1024));
        let mut batch = std::mem::replace(&mut self.batch, next);
        if let Some(f) = self.tamper.as_mut() {
            f(&mut batch);
        }
        if self.outlet.send(batch).is_err() {
            self.stop.cancel();
        }
    }

    #[inline]
    fn full(&mut self) {
        if self.batch.len() >= FLUSH_WORDS {
            self.send();
        }
    }
}

impl Sink for Channel<'_> {
    fn header(&mut self, loaded: Id) {
        self.batch.header(loaded);
    }

    fn rup(&mut self, path: &[u32], hints: &[Id]) {
        self.batch.rup(path, hints);
        self.full();
    }

    fn pol(&mut self, ops: &[(Operand, i64)]) {
        self.batch.pol(ops);
        self.full();
    }

    fn pol_rpn(&mut self, ops: &[PolOp]) {
        self.batch.pol_rpn(ops);
        self.full();
    }

    fn delete(&mut self, ids: &[Id]) {
        self.batch.delete(ids);
        self.full();
    }

    fn finish(&mut self, unsat: Option<Id>) {
        self.batch.finish(unsat);
        self.send();
    }
}

/// `--solver bitboard --certify` with a proof named `.pbp` (or none asked for, from the API):
/// the bitboard search with its sum bounds ([`VERIPB_TUNING`](super::VERIPB_TUNING)) hands its VeriPB steps, in
/// compact batches, to a checker thread that checks them as they come with the in-house VeriPB
/// checker ([`crate::certify::pbcheck`], its structured steps: no text), over the constraints of
/// the OPB model `encode --to opb` writes for the same instance. An UNSAT answer needs the
/// check to verify `conclusion UNSAT` on the root's lemma (a step that does not check is an
/// error, never UNSAT). With `proof`, a third thread writes the proof's text from the batches
/// the checker is done with, to a temporary file beside it, renamed to `proof` only once it checked (never a half-written proof
/// under that name); `veripb MODEL.opb FILE.pbp` checks it again. A board is returned
/// unverified; UNKNOWN when the time ran out or `cancel` was raised.
///
/// ```
/// use queens_sat::{answer::Answer, instance::Instance, piece::QUEEN, presolve::Problem};
/// use queens_sat::solve::bitboard::pbproof::search_certified_pb;
/// let p = Problem::presolve(&Instance::plain(3), QUEEN).unwrap();
/// let r = search_certified_pb(&p, None, None, None).unwrap();
/// assert_eq!(r.answer, Answer::Unsat);
/// assert!(r.certificate.unwrap().steps >= 1);
/// ```
pub fn search_certified_pb(
    problem: &Problem,
    timeout: Option<Duration>,
    cancel: Option<&Cancel>,
    proof: Option<&Path>,
) -> Result<crate::solve::bitboard::proof::Certified> {
    certified(problem, timeout, cancel, proof, None, None)
}

/// [`search_certified_pb`] with the proof file's size budget (`None`: the default of
/// [`crate::certify::budget`]).
pub(crate) fn search_certified_pb_within(
    problem: &Problem,
    timeout: Option<Duration>,
    cancel: Option<&Cancel>,
    proof: Option<&Path>,
    budget: Option<u64>,
) -> Result<crate::solve::bitboard::proof::Certified> {
    certified(problem, timeout, cancel, proof, budget, None)
}

/// Test hook: [`search_certified_pb`] with `tamper` applied to every batch of steps before the
/// checker (and the text) gets it. Feature `oracle` (tests/it/veripb.rs).
#[cfg(feature = "oracle")]
pub fn search_certified_pb_tampered(
    problem: &Problem,
    proof: Option<&Path>,
    tamper: &mut dyn FnMut(&mut PbBatch),
) -> Result<crate::solve::bitboard::proof::Certified> {
    certified(problem, None, None, proof, None, Some(tamper))
}

fn certified(
    problem: &Problem,
    timeout: Option<Duration>,
    cancel: Option<&Cancel>,
    proof: Option<&Path>,
    budget: Option<u64>,
    tamper: Option<&mut dyn FnMut(&mut PbBatch)>,
) -> Result<crate::solve::bitboard::proof::Certified> {
    let g = Geometry::new(problem)?;
    // A child token: a stopped checker raises it without raising the caller's.
    let stop = cancel
        .cloned()
        .unwrap_or_default()
        .child()
        .with_timeout(timeout);
    let checker = || {
        let (num_vars, constraints) = model(problem)?;
        PbCheck::new(PbChecker::new(num_vars, &constraints)?)
    };
    let (searched, checked) = pipeline::run::<PbRoute, _>(proof, budget, checker, |outlet| {
        let sink = Channel {
            batch: PbBatch::with_capacity(FLUSH_WORDS + 1024),
            outlet,
            stop: stop.clone(),
            tamper,
        };
        // The sink (and its outlet) dropped at the end: the checker sees the end.
        let t = Instant::now();
        run(problem, &g, &stop, sink).map(|(ran, _)| (ran, t.elapsed()))
    })?;
    let (ran, search_time) = searched?;
    let written = checked.file;
    let mut certificate = None;
    if let Answer::Unsat = ran.answer {
        let verdict = match checked.checker.verdict {
            Some(v) if v.unsat && v.contradiction == ran.root => v,
            _ => {
                return Err(Error::proof_rejected(
                    crate::certify::CheckedFormat::Veripb,
                    None,
                    "the VeriPB search's proof checked but did not conclude UNSAT",
                ));
            }
        };
        if let Some(pending) = written {
            pending.keep()?;
        }
        let s = verdict.steps;
        certificate = Some(crate::certify::Certificate {
            checker: format!(
                "VeriPB proof of the bitboard search with its sum bounds over the OPB model ({} \
                 bound steps), checked by queens-sat's VeriPB checker",
                ran.stats.bounds
            ),
            steps: s.rup + s.rup_unhinted + s.pol,
        });
    }
    Ok(crate::solve::bitboard::proof::Certified {
        answer: ran.answer,
        nodes: ran.stats.nodes,
        certificate,
        lemmas: ran.stats.lemmas(),
        hints: ran.stats.hints,
        check_seconds: checked.busy,
        search_seconds: search_time.as_secs_f64(),
    })
}
