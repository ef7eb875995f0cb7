//! [`PbBatch`]: the proof steps in memory, as a compact batch of words, that the search hands
//! to a checker thread (and to the text of a kept proof) instead of text.
//!
//! The batch is the crate's own; it is public only with the `oracle` feature, for the tests
//! that tamper with a batch on its way to the checker
//! (`solve::bitboard::pbproof::search_certified_pb_tampered`).

use super::{Operand, PolOp, Sink};
use crate::error::{Error, Result};

/// Proof steps in memory, in order, as [`Writer`](super::Writer) makes them: what the search hands to a
/// checker thread (and, when a proof file is asked for, to its text) instead of text. Compact:
/// a header word per step, the lemmas' variables in a `u32` array, IDs and factors in a `u64`
/// array. Read back with [`PbBatch::steps`]; a malformed batch reads as an error, never a
/// panic.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PbBatch {
    words: Vec<u64>,
    vars: Vec<u32>,
}

/// A step of a [`PbBatch`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PbStep<'a> {
    /// The header: the model's constraints.
    Header(u64),
    /// `rup` of `sum_{p in path} ~x_p >= 1` with the hints.
    Rup {
        /// The lemma's path: the variables placed.
        path: &'a [u32],
        /// The IDs of the constraints that propagate, in order.
        hints: &'a [u64],
    },
    /// `pol` of the sum of the operands: pairs of words, an operand ([`Operand::word`]) and
    /// its factor.
    Pol(&'a [u64]),
    /// `pol` in reverse Polish order: pairs of words, a tag and a value ([`PolOp::words`]).
    PolRpn(&'a [u64]),
    /// `del id` of the IDs.
    Delete(&'a [u64]),
    /// The end: `conclusion UNSAT` on the ID, or `NONE`.
    Finish(Option<u64>),
}

const K_HEADER: u64 = 1;
const K_RUP: u64 = 2;
const K_POL: u64 = 3;
const K_DEL: u64 = 4;
const K_FINISH: u64 = 5;
const K_RPN: u64 = 6;

/// A step's header word: its kind and two counts of 28 bits.
fn head(kind: u64, a: usize, b: usize) -> u64 {
    debug_assert!(a < 1 << 28 && b < 1 << 28);
    (kind << 56) | ((a as u64) << 28) | b as u64
}

impl PbBatch {
    /// An empty batch.
    #[cfg_attr(not(feature = "oracle"), allow(dead_code))] // the tests' and write_only's
    pub fn new() -> PbBatch {
        PbBatch::default()
    }

    /// An empty batch with room for `words` words.
    pub fn with_capacity(words: usize) -> PbBatch {
        PbBatch {
            words: Vec::with_capacity(words),
            vars: Vec::with_capacity(words),
        }
    }

    /// Empties the batch, keeping its room.
    pub fn clear(&mut self) {
        self.words.clear();
        self.vars.clear();
    }

    /// Words held (for flushing by size).
    pub fn len(&self) -> usize {
        self.words.len() + self.vars.len() / 2
    }

    /// No step.
    #[cfg_attr(not(feature = "oracle"), allow(dead_code))] // public with `oracle` beside len
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// The steps, in order (an error for a malformed batch).
    pub fn steps(&self) -> PbSteps<'_> {
        PbSteps {
            b: self,
            w: 0,
            v: 0,
        }
    }

    /// Test hook: drops the last hint of the `nth` `rup` step (from 0) of the batch; false when
    /// there is no such step or it has no hint. Feature `oracle`.
    #[cfg(feature = "oracle")]
    pub fn drop_last_hint(&mut self, nth: u64) -> bool {
        let (mut w, mut k) = (0, 0);
        while w < self.words.len() {
            let h = self.words[w];
            let (kind, a, b) = (
                h >> 56,
                ((h >> 28) & 0xFFF_FFFF) as usize,
                (h & 0xFFF_FFFF) as usize,
            );
            match kind {
                K_HEADER => w += 2,
                K_RUP => {
                    if k == nth {
                        if b == 0 || w + b >= self.words.len() {
                            return false;
                        }
                        self.words[w] = head(K_RUP, a, b - 1);
                        self.words.remove(w + b);
                        return true;
                    }
                    k += 1;
                    w += 1 + b;
                }
                K_POL | K_RPN => w += 1 + 2 * b,
                K_DEL => w += 1 + b,
                K_FINISH => w += 1 + b,
                _ => return false,
            }
        }
        false
    }

    /// The operations of a [`PbStep::PolRpn`] into `out` (an error for a malformed one).
    pub(crate) fn rpn_ops(words: &[u64], out: &mut Vec<PolOp>) -> Result<()> {
        out.clear();
        for pair in words.chunks_exact(2) {
            out.push(PolOp::from_words(pair[0], pair[1]).ok_or_else(bad_batch)?);
        }
        Ok(())
    }

    /// The operands and factors of a [`PbStep::Pol`] into `out` (an error for a malformed one).
    pub(crate) fn pol_ops(words: &[u64], out: &mut Vec<(Operand, i64)>) -> Result<()> {
        out.clear();
        for pair in words.chunks_exact(2) {
            let op = Operand::from_word(pair[0]).ok_or_else(bad_batch)?;
            let mult = i64::try_from(pair[1]).map_err(|_| bad_batch())?;
            out.push((op, mult));
        }
        Ok(())
    }

    /// Replays the steps into `sink` (the text of the same proof).
    pub(crate) fn replay(
        &self,
        sink: &mut impl Sink,
        ops: &mut Vec<(Operand, i64)>,
        rpn: &mut Vec<PolOp>,
    ) -> Result<()> {
        for step in self.steps() {
            match step? {
                PbStep::Header(loaded) => sink.header(loaded),
                PbStep::Rup { path, hints } => sink.rup(path, hints),
                PbStep::Pol(words) => {
                    PbBatch::pol_ops(words, ops)?;
                    sink.pol(ops);
                }
                PbStep::PolRpn(words) => {
                    PbBatch::rpn_ops(words, rpn)?;
                    sink.pol_rpn(rpn);
                }
                PbStep::Delete(ids) => sink.delete(ids),
                PbStep::Finish(unsat) => sink.finish(unsat),
            }
        }
        Ok(())
    }
}

impl Sink for PbBatch {
    fn header(&mut self, loaded: u64) {
        self.words.push(head(K_HEADER, 0, 1));
        self.words.push(loaded);
    }

    fn rup(&mut self, path: &[u32], hints: &[u64]) {
        self.words.push(head(K_RUP, path.len(), hints.len()));
        self.vars.extend_from_slice(path);
        self.words.extend_from_slice(hints);
    }

    fn pol(&mut self, ops: &[(Operand, i64)]) {
        self.words.push(head(K_POL, 0, ops.len()));
        for &(op, mult) in ops {
            self.words.push(op.word());
            self.words.push(mult as u64);
        }
    }

    fn pol_rpn(&mut self, ops: &[PolOp]) {
        self.words.push(head(K_RPN, 0, ops.len()));
        for &op in ops {
            self.words.extend_from_slice(&op.words());
        }
    }

    fn delete(&mut self, ids: &[u64]) {
        self.words.push(head(K_DEL, 0, ids.len()));
        self.words.extend_from_slice(ids);
    }

    fn finish(&mut self, unsat: Option<u64>) {
        self.words
            .push(head(K_FINISH, 0, usize::from(unsat.is_some())));
        self.words.extend(unsat);
    }
}

/// The steps of a [`PbBatch`] ([`PbBatch::steps`]).
pub struct PbSteps<'a> {
    b: &'a PbBatch,
    w: usize,
    v: usize,
}

impl<'a> Iterator for PbSteps<'a> {
    type Item = Result<PbStep<'a>>;

    fn next(&mut self) -> Option<Result<PbStep<'a>>> {
        let words = &self.b.words;
        let &h = words.get(self.w)?;
        let (kind, a, b) = (
            h >> 56,
            ((h >> 28) & 0xFFF_FFFF) as usize,
            (h & 0xFFF_FFFF) as usize,
        );
        let body = self.w + 1;
        let len = if kind == K_POL || kind == K_RPN {
            2 * b
        } else {
            b
        };
        let Some(tail) = words.get(body..body + len) else {
            self.w = words.len();
            return Some(Err(bad_batch()));
        };
        let step = match kind {
            K_HEADER if b == 1 => PbStep::Header(tail[0]),
            K_RUP => {
                let Some(path) = self.b.vars.get(self.v..self.v + a) else {
                    self.w = words.len();
                    return Some(Err(bad_batch()));
                };
                self.v += a;
                PbStep::Rup { path, hints: tail }
            }
            K_POL => PbStep::Pol(tail),
            K_RPN => PbStep::PolRpn(tail),
            K_DEL => PbStep::Delete(tail),
            K_FINISH if b <= 1 => PbStep::Finish(tail.first().copied()),
            _ => {
                self.w = words.len();
                return Some(Err(bad_batch()));
            }
        };
        self.w = body + tail.len();
        Some(Ok(step))
    }
}

#[cold]
fn bad_batch() -> Error {
    Error::Internal("a malformed batch of VeriPB proof steps".into())
}
