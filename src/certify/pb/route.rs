//! [`PbRoute`]: the VeriPB format's part in the one certified run
//! ([`crate::certify::pipeline`]): its batches, its checker and its text.

use std::io::BufWriter;

use super::{Operand, PbBatch, PbStep, PolOp, Text};
use crate::atomic_file::Pending;
use crate::certify::pbcheck::{PbChecker, PbVerdict};
use crate::certify::pipeline::{IntoInner, Route};
use crate::error::{Error, Result};

/// The VeriPB proof in a certified run ([`super::pipeline::run`]): [`PbBatch`]es, checked by
/// [`PbChecker`]'s structured steps (no text, no lexing), written as VeriPB text.
pub(crate) struct PbRoute;

/// The checker's state in [`PbRoute`].
pub(crate) struct PbCheck {
    /// `None` once the proof concluded.
    ck: Option<PbChecker>,
    /// The verdict of a proof that concluded `UNSAT`.
    pub(crate) verdict: Option<PbVerdict>,
    /// Scratch for the steps' operands.
    terms: Vec<(Operand, i64)>,
    rpn: Vec<PolOp>,
}

impl PbCheck {
    /// The state of a check with `checker`, before the proof's first step.
    pub(crate) fn new(checker: PbChecker) -> Result<PbCheck> {
        Ok(PbCheck {
            ck: Some(checker),
            verdict: None,
            terms: Vec::new(),
            rpn: Vec::new(),
        })
    }
}

impl Route for PbRoute {
    type Batch = PbBatch;
    type Checker = PbCheck;
    type Text = (Text<BufWriter<Pending>>, Vec<(Operand, i64)>, Vec<PolOp>);

    fn check(c: &mut PbCheck, batch: &PbBatch) -> Result<()> {
        for step in batch.steps() {
            let step = step?;
            let Some(ck) = c.ck.as_mut() else {
                return Err(pb_internal("a VeriPB step after the conclusion"));
            };
            match step {
                PbStep::Header(loaded) => ck.check_formula(loaded)?,
                PbStep::Rup { path, hints } => {
                    ck.rup_clause(path, hints)?;
                }
                PbStep::Pol(words) => {
                    PbBatch::pol_ops(words, &mut c.terms)?;
                    ck.pol_sum(&c.terms)?;
                }
                PbStep::PolRpn(words) => {
                    // The parity's and the forced diagonals' steps, in the same vocabulary.
                    PbBatch::rpn_ops(words, &mut c.rpn)?;
                    ck.pol_rpn(&c.rpn)?;
                }
                PbStep::Delete(del) => ck.delete_ids_abs(del)?,
                PbStep::Finish(None) => c.ck = None,
                PbStep::Finish(Some(id)) => {
                    let id = i64::try_from(id).map_err(|_| pb_internal("an ID out of range"))?;
                    let ck = c.ck.take().ok_or_else(|| pb_internal("two conclusions"))?;
                    c.verdict = Some(ck.conclude_unsat(Some(id))?);
                }
            }
        }
        Ok(())
    }

    fn text(file: BufWriter<Pending>) -> Self::Text {
        (Text::new(file), Vec::new(), Vec::new())
    }

    fn write(text: &mut Self::Text, batch: &PbBatch, name: &str) -> Result<()> {
        let (out, ops, rpn) = text;
        batch.replay(out, ops, rpn)?;
        match out.take_error() {
            Some(e) => Err(Error::io(name, e)),
            None => Ok(()),
        }
    }

    fn finish(text: Self::Text) -> IntoInner {
        text.0.into_inner().into_inner()
    }

    fn recycle(mut batch: PbBatch) -> Option<PbBatch> {
        batch.clear();
        Some(batch)
    }
}

#[cold]
fn pb_internal(why: &str) -> Error {
    Error::Internal(format!("the VeriPB check: {why}"))
}
