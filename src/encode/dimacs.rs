//! DIMACS CNF: a streaming writer (a [`ClauseSink`]). The queens-sat comment header that lets any
//! model be decoded later from the file alone is written and read by [`crate::export::header`].

use std::io::{self, Write};

use super::text::TextOut;
use super::{ClauseSink, Lit};
use crate::interrupt::{Cancel, Cancelled};

/// Streams clauses as DIMACS text through a [`TextOut`] (1 MiB buffer, integers formatted
/// without allocation). I/O errors are sticky and reported by [`DimacsWriter::finish`].
///
/// Made with [`DimacsWriter::with_vars`], it formats no integer in the hot loop: every literal's
/// text (`-123 `) is looked up in a table built once, one 8-byte store per literal.
pub(crate) struct DimacsWriter<W: Write> {
    out: TextOut<W>,
    clauses: u64,
    table: Option<LitTable>,
    /// The token polled every [`POLL_CLAUSES`] clauses ([`DimacsWriter::until`]).
    stop: Option<Cancel>,
    /// Clauses since the token was last polled.
    since_poll: u32,
    /// The token stopped: every later clause is dropped, and [`DimacsWriter::finish`] fails.
    halted: bool,
}

/// How many clauses a [`DimacsWriter::until`] writes between two polls of its token: a line of
/// a big board can be millions of clauses (pairwise on 5,000 cells: 12.5 M), so the encoder's
/// poll per line is not enough. A poll is a clock read when the token has a deadline (tens of
/// nanoseconds), so every 4,096 clauses costs nothing measurable, and 4,096 clauses are well
/// under a millisecond of writing.
pub(crate) const POLL_CLAUSES: u32 = 4096;

/// The text of every literal `±v ` for `v <= vars`, as up to 8 bytes (little-endian) and a
/// length, indexed by `2v + sign`.
struct LitTable {
    text: Vec<u64>,
    len: Vec<u8>,
}

impl LitTable {
    /// The largest variable whose literals fit in 8 bytes (`-999999 `).
    const MAX_VAR: u32 = 999_999;

    fn new(vars: u32) -> Option<LitTable> {
        if vars > Self::MAX_VAR {
            return None;
        }
        let size = 2 * (vars as usize + 1);
        let mut table = LitTable {
            text: vec![0; size],
            len: vec![0; size],
        };
        let mut fmt = itoa::Buffer::new();
        for v in 1..=vars {
            let digits = fmt.format(v).as_bytes();
            for neg in [false, true] {
                let mut bytes = [0u8; 8];
                let mut k = 0;
                if neg {
                    bytes[0] = b'-';
                    k = 1;
                }
                bytes[k..k + digits.len()].copy_from_slice(digits);
                k += digits.len();
                bytes[k] = b' ';
                let i = 2 * v as usize + neg as usize;
                table.text[i] = u64::from_le_bytes(bytes);
                table.len[i] = (k + 1) as u8;
            }
        }
        Some(table)
    }
}

impl<W: Write> DimacsWriter<W> {
    /// A writer over `out` (the header is written separately, before any clause).
    pub fn new(out: W) -> DimacsWriter<W> {
        DimacsWriter {
            out: TextOut::new(out),
            clauses: 0,
            table: None,
            stop: None,
            since_poll: 0,
            halted: false,
        }
    }

    /// Stops writing once `cancel` stops (raised, or its deadline passed), polled every
    /// [`POLL_CLAUSES`] clauses and by the encoder once per line ([`ClauseSink::stopped`]): the
    /// clauses after it are dropped, and [`DimacsWriter::finish`] fails with
    /// [`crate::interrupt::Cancelled`] (see [`crate::interrupt::is_cancelled_io`]).
    pub(crate) fn until(mut self, cancel: &Cancel) -> DimacsWriter<W> {
        self.stop = Some(cancel.clone());
        self
    }

    /// Polls the token once [`POLL_CLAUSES`] clauses went by since the last poll.
    #[inline]
    fn poll(&mut self) -> bool {
        if let Some(stop) = &self.stop {
            self.since_poll += 1;
            if self.since_poll >= POLL_CLAUSES {
                self.since_poll = 0;
                self.halted = stop.is_stopped();
            }
        }
        self.halted
    }

    /// A writer over `out` for clauses over variables `1..=vars`, with the literal table (up
    /// to 999,999 variables; a literal past `vars` is formatted as usual). The bytes are the
    /// same as [`DimacsWriter::new`]'s.
    pub fn with_vars(out: W, vars: u64) -> DimacsWriter<W> {
        DimacsWriter {
            table: u32::try_from(vars).ok().and_then(LitTable::new),
            ..DimacsWriter::new(out)
        }
    }

    /// Writes raw header text (before clauses).
    pub fn write_raw(&mut self, text: &[u8]) {
        self.out.raw(text);
    }

    /// Flushes and returns the inner writer, the clause count and the byte count, or the first
    /// I/O error.
    pub fn finish(self) -> io::Result<(W, u64, u64)> {
        if self.halted || self.stop.as_ref().is_some_and(Cancel::is_stopped) {
            return Err(io::Error::other(Cancelled));
        }
        let (out, bytes) = self.out.finish()?;
        Ok((out, self.clauses, bytes))
    }
}

impl<W: Write> ClauseSink for DimacsWriter<W> {
    fn stopped(&self) -> bool {
        self.halted || self.out.stopped() || self.stop.as_ref().is_some_and(Cancel::is_stopped)
    }

    #[inline]
    fn add_clause(&mut self, lits: &[Lit]) {
        if self.poll() {
            return;
        }
        match &self.table {
            Some(t) => {
                for &l in lits {
                    let d = l.to_dimacs();
                    let i = 2 * d.unsigned_abs() as usize + (d < 0) as usize;
                    match (t.text.get(i), t.len.get(i)) {
                        (Some(&text), Some(&len)) => self.out.word(text, len as usize),
                        _ => {
                            self.out.int(d);
                            self.out.push(b" ");
                        }
                    }
                }
            }
            None => {
                for &l in lits {
                    self.out.int(l.to_dimacs());
                    self.out.push(b" ");
                }
            }
        }
        self.out.push(b"0\n");
        self.out.end_item();
        self.clauses += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_clauses_as_dimacs() {
        let mut w = DimacsWriter::new(Vec::new());
        w.add_clause(&[Lit::pos(1), Lit::neg(23), Lit::pos(i32::MAX as u32)]);
        w.add_clause(&[Lit::neg(1_000_000_000), Lit::pos(9), Lit::pos(10)]);
        w.add_clause(&[]);
        let (out, clauses, bytes) = w.finish().unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text, "1 -23 2147483647 0\n-1000000000 9 10 0\n0\n");
        assert_eq!((clauses, bytes), (3, text.len() as u64));
    }

    #[test]
    fn a_stopped_token_ends_the_writing_within_a_poll() {
        let cancel = Cancel::new();
        let mut w = DimacsWriter::new(Vec::new()).until(&cancel);
        w.add_clause(&[Lit::pos(1)]);
        assert!(!w.stopped());
        cancel.cancel();
        // Polled by the encoder between lines, and by the writer inside a long line.
        assert!(w.stopped());
        for _ in 0..2 * POLL_CLAUSES {
            w.add_clause(&[Lit::pos(1), Lit::neg(2)]);
        }
        assert!(w.clauses < u64::from(POLL_CLAUSES) + 1, "{}", w.clauses);
        let e = w.finish().unwrap_err();
        assert!(crate::interrupt::is_cancelled_io(&e), "{e}");
        // A deadline stops it likewise.
        let past = Cancel::new().with_timeout(Some(std::time::Duration::ZERO));
        let mut w = DimacsWriter::new(Vec::new()).until(&past);
        for _ in 0..2 * POLL_CLAUSES {
            w.add_clause(&[Lit::pos(1)]);
        }
        assert!(w.stopped() && w.finish().is_err());
    }

    #[test]
    fn the_literal_table_writes_the_same_bytes() {
        let clauses: Vec<Vec<Lit>> = (1..3000u32)
            .map(|v| {
                vec![
                    Lit::pos(v),
                    Lit::neg(v + 1),
                    Lit::neg(999_999),
                    Lit::pos(1_000_000),
                ]
            })
            .chain([vec![], vec![Lit::neg(1)]])
            .collect();
        let write = |mut w: DimacsWriter<Vec<u8>>| {
            for c in &clauses {
                w.add_clause(c);
            }
            w.finish().unwrap()
        };
        let plain = write(DimacsWriter::new(Vec::new()));
        for vars in [0, 1, 5000, 999_999, 1_000_000] {
            assert_eq!(
                write(DimacsWriter::with_vars(Vec::new(), vars)).0,
                plain.0,
                "{vars}"
            );
        }
    }
}
