//! DIMACS CNF: a streaming writer (a [`ClauseSink`]). The queens-sat comment header that lets any
//! model be decoded later from the file alone is written and read by [`crate::export::header`].

use std::io::{self, Write};

use super::{ClauseSink, Lit};

const BUF_SIZE: usize = 1 << 20;

/// Streams clauses as DIMACS text through a 1 MiB buffer, formatting integers without
/// allocation. I/O errors are sticky and reported by [`DimacsWriter::finish`].
pub struct DimacsWriter<W: Write> {
    out: W,
    buf: Vec<u8>,
    error: Option<io::Error>,
    clauses: u64,
    bytes: u64,
}

impl<W: Write> DimacsWriter<W> {
    /// A writer over `out` (the header is written separately, before any clause).
    pub fn new(out: W) -> DimacsWriter<W> {
        DimacsWriter {
            out,
            buf: Vec::with_capacity(BUF_SIZE + 4096),
            error: None,
            clauses: 0,
            bytes: 0,
        }
    }

    fn flush_buf(&mut self) {
        if self.error.is_none()
            && let Err(e) = self.out.write_all(&self.buf)
        {
            self.error = Some(e);
        }
        self.bytes += self.buf.len() as u64;
        self.buf.clear();
    }

    /// Writes raw header text (before clauses).
    pub fn write_raw(&mut self, text: &[u8]) {
        self.buf.extend_from_slice(text);
        if self.buf.len() >= BUF_SIZE {
            self.flush_buf();
        }
    }

    /// Flushes and returns the inner writer, the clause count and the byte count, or the first
    /// I/O error.
    pub fn finish(mut self) -> io::Result<(W, u64, u64)> {
        self.flush_buf();
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        self.out.flush()?;
        Ok((self.out, self.clauses, self.bytes))
    }
}

impl<W: Write> ClauseSink for DimacsWriter<W> {
    fn stopped(&self) -> bool {
        self.error.is_some()
    }

    #[inline]
    fn add_clause(&mut self, lits: &[Lit]) {
        // itoa formats on the stack; measured faster than formatting in place into a resized
        // buffer (0.25 s vs 0.30 s for the 181 MB product n=1000 file to /dev/null).
        let mut fmt = itoa::Buffer::new();
        for &l in lits {
            self.buf
                .extend_from_slice(fmt.format(l.to_dimacs()).as_bytes());
            self.buf.push(b' ');
        }
        self.buf.extend_from_slice(b"0\n");
        self.clauses += 1;
        if self.buf.len() >= BUF_SIZE {
            self.flush_buf();
        }
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
