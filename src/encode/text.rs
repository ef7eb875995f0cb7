//! The buffered text writer behind every file the encoder and the exporters stream: one 1 MiB
//! buffer, allocation-free integer formatting, and sticky I/O errors reported once at the end
//! (`TextOut::finish`), so the hot path never branches on a `Result`.

use std::io::{self, Write};

const BUF_SIZE: usize = 1 << 20;

/// A buffered text writer with sticky I/O errors (reported by [`TextOut::finish`]) and
/// allocation-free integer formatting.
pub(crate) struct TextOut<W: Write> {
    out: W,
    buf: Vec<u8>,
    error: Option<io::Error>,
    bytes: u64,
    fmt: itoa::Buffer,
}

impl<W: Write> TextOut<W> {
    /// A writer over `out`.
    pub fn new(out: W) -> TextOut<W> {
        TextOut {
            out,
            buf: Vec::with_capacity(BUF_SIZE + 4096),
            error: None,
            bytes: 0,
            fmt: itoa::Buffer::new(),
        }
    }

    /// Whether a write failed (the rest is skipped).
    pub fn stopped(&self) -> bool {
        self.error.is_some()
    }

    /// Writes the buffer out (once an error happened, drops it).
    fn flush_buf(&mut self) {
        if self.error.is_none()
            && let Err(e) = self.out.write_all(&self.buf)
        {
            self.error = Some(e);
        }
        self.bytes += self.buf.len() as u64;
        self.buf.clear();
    }

    /// Appends raw text.
    #[inline]
    pub fn raw(&mut self, text: &[u8]) {
        self.buf.extend_from_slice(text);
        if self.buf.len() >= BUF_SIZE {
            self.flush_buf();
        }
    }

    /// Appends a short piece without the flush check: callers end each constraint with
    /// [`TextOut::raw`] (or [`TextOut::end_item`]), which flushes a full buffer.
    #[inline]
    pub fn push(&mut self, text: &[u8]) {
        self.buf.extend_from_slice(text);
    }

    /// Flushes the buffer when it is full (after a constraint written with [`TextOut::push`]).
    #[inline]
    pub fn end_item(&mut self) {
        if self.buf.len() >= BUF_SIZE {
            self.flush_buf();
        }
    }

    /// Appends a string.
    #[inline]
    pub fn str(&mut self, text: &str) {
        self.raw(text.as_bytes());
    }

    /// Appends the first `len` (at most 8) bytes of `word`, little-endian: one fixed-size copy,
    /// then the length is cut back.
    #[inline]
    pub fn word(&mut self, word: u64, len: usize) {
        let at = self.buf.len();
        self.buf.extend_from_slice(&word.to_le_bytes());
        self.buf.truncate(at + len.min(8));
    }

    /// Appends a signed decimal integer (a DIMACS literal).
    #[inline]
    pub fn int(&mut self, x: i32) {
        let s = self.fmt.format(x);
        self.buf.extend_from_slice(s.as_bytes());
    }

    /// Appends a decimal integer.
    #[inline]
    pub fn num(&mut self, x: u64) {
        let s = self.fmt.format(x);
        self.buf.extend_from_slice(s.as_bytes());
    }

    /// Flushes and returns the inner writer and the byte count, or the first I/O error.
    pub fn finish(mut self) -> io::Result<(W, u64)> {
        self.flush_buf();
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        self.out.flush()?;
        Ok((self.out, self.bytes))
    }
}
