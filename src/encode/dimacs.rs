//! DIMACS CNF: a streaming writer (a [`ClauseSink`]). The queens-sat comment header that lets any
//! model be decoded later from the file alone is written and read by [`crate::export::header`].

use std::io::{self, Write};

use super::text::TextOut;
use super::{ClauseSink, Lit};

/// Streams clauses as DIMACS text through a [`TextOut`] (1 MiB buffer, integers formatted
/// without allocation). I/O errors are sticky and reported by [`DimacsWriter::finish`].
pub struct DimacsWriter<W: Write> {
    out: TextOut<W>,
    clauses: u64,
}

impl<W: Write> DimacsWriter<W> {
    /// A writer over `out` (the header is written separately, before any clause).
    pub fn new(out: W) -> DimacsWriter<W> {
        DimacsWriter {
            out: TextOut::new(out),
            clauses: 0,
        }
    }

    /// Writes raw header text (before clauses).
    pub fn write_raw(&mut self, text: &[u8]) {
        self.out.raw(text);
    }

    /// Flushes and returns the inner writer, the clause count and the byte count, or the first
    /// I/O error.
    pub fn finish(self) -> io::Result<(W, u64, u64)> {
        let (out, bytes) = self.out.finish()?;
        Ok((out, self.clauses, bytes))
    }
}

impl<W: Write> ClauseSink for DimacsWriter<W> {
    fn stopped(&self) -> bool {
        self.out.stopped()
    }

    #[inline]
    fn add_clause(&mut self, lits: &[Lit]) {
        for &l in lits {
            self.out.int(l.to_dimacs());
            self.out.push(b" ");
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
}
