//! The GBD hash: how the Global Benchmark Database (Iser & Sinz; `gbdc` on PyPI) names a CNF.
//!
//! It is the MD5 of the clause section with the header and the comment lines dropped and the
//! literals (the closing `0`s included) joined by single spaces, so that it does not change with
//! comments, line breaks or compression. `encode -n 8 --amo pairwise` has the hash
//! `781e91553a5502980a9bb7a54213c757`.
//!
//! Two ways in, one hash out:
//! - `GbdHasher::update` reads any DIMACS text (the normalisation in full: comment and `p`
//!   lines skipped, runs of white space collapsed, a missing final `0` added);
//! - `GbdHasher::update_clauses` is the writer's fast path: it takes clause text exactly as
//!   `crate::encode::dimacs::DimacsWriter` formats it (`l l 0\n`, single spaces), where the
//!   normalisation is only "a line break is a space", and runs at the speed of MD5.

use std::io::Read;

use md5::{Digest, Md5};

/// A streaming GBD hash.
#[derive(Clone)]
pub(crate) struct GbdHasher {
    md5: Md5,
    /// Fast path: a byte held back (the last of the text so far), written once more follows.
    held: Option<u8>,
    /// General path: white space seen since the last literal byte (outside skipped lines).
    space: bool,
    /// General path: inside a comment or `p` line.
    skip: bool,
    /// General path: no literal byte yet.
    start: bool,
    /// General path: the last number was a clause-closing `0`.
    closed: bool,
    /// Scratch for the fast path.
    scratch: Vec<u8>,
    /// [`GbdHasher::update_written`]: whether the `p cnf` line has been passed, and where the
    /// scan of the header stands (at a line start; on the `p` line).
    header: Option<(bool, bool)>,
}

impl Default for GbdHasher {
    fn default() -> Self {
        GbdHasher::new()
    }
}

impl GbdHasher {
    /// An empty hash.
    pub fn new() -> GbdHasher {
        GbdHasher {
            md5: Md5::new(),
            held: None,
            space: false,
            skip: false,
            start: true,
            closed: true,
            scratch: Vec::new(),
            header: Some((true, false)),
        }
    }

    /// Feeds a whole file as queens-sat's DIMACS writer formats it (comment lines, the `p cnf`
    /// line, then clause lines only): the header is skipped, the clauses go to
    /// [`GbdHasher::update_clauses`].
    pub fn update_written(&mut self, text: &[u8]) {
        let mut rest = text;
        if let Some((mut line_start, mut p_line)) = self.header {
            let mut end = None;
            for (i, &b) in text.iter().enumerate() {
                if line_start && b == b'p' {
                    p_line = true;
                }
                line_start = b == b'\n';
                if line_start && p_line {
                    end = Some(i + 1);
                    break;
                }
            }
            match end {
                Some(e) => {
                    self.header = None;
                    rest = &text[e..];
                }
                None => {
                    self.header = Some((line_start, p_line));
                    return;
                }
            }
        }
        self.update_clauses(rest);
    }

    /// Feeds clause text as the DIMACS writer formats it: lines `l l ... 0\n` with single
    /// spaces, nothing else (no header, no comment). Do not mix with [`GbdHasher::update`].
    pub fn update_clauses(&mut self, text: &[u8]) {
        let Some((&last, body)) = text.split_last() else {
            return;
        };
        if let Some(b) = self.held.take() {
            self.md5.update([if b == b'\n' { b' ' } else { b }]);
        }
        // Line breaks become spaces; the very last byte (a line break, at the end) is held back,
        // so that the hash has no trailing space.
        self.scratch.resize(1 << 16, 0);
        for chunk in body.chunks(1 << 16) {
            let out = &mut self.scratch[..chunk.len()];
            // A branch-free loop the compiler vectorises.
            for (o, &b) in out.iter_mut().zip(chunk) {
                *o = b ^ ((b == b'\n') as u8 * (b'\n' ^ b' '));
            }
            self.md5.update(&*out);
        }
        self.held = Some(last);
        self.start = false;
    }

    /// Feeds any DIMACS text (header, comments, clauses, in pieces of any size).
    pub fn update(&mut self, text: &[u8]) {
        for &b in text {
            if !self.skip && (b.is_ascii_digit() || b == b'-') {
                // A literal byte: a `0` right after white space (or at the start) closes a clause.
                if self.space {
                    self.md5.update(b" ");
                }
                self.closed = b == b'0' && (self.space || self.start);
                self.space = false;
                self.start = false;
                self.md5.update([b]);
            } else if b <= b' ' {
                self.space = !self.start;
                if b == b'\n' {
                    self.skip = false;
                }
            } else {
                self.space = false;
                self.skip = true;
            }
        }
    }

    /// The hash, lowercase hex.
    pub fn finish(mut self) -> String {
        if self.held.is_none() && !self.start && !self.closed {
            // General path: a last clause without its `0`.
            self.md5.update(b" 0");
        }
        // Fast path: the held-back byte is the final line break, which is dropped.
        let digest = self.md5.finalize();
        digest.iter().map(|b| format!("{b:02x}")).collect()
    }
}

/// The GBD hash of DIMACS text read from `input` (any header, comments and spacing).
#[cfg_attr(
    not(feature = "oracle"),
    visibility::make(pub(crate)),
    allow(dead_code)
)]
pub fn gbdhash_reader(mut input: impl Read) -> std::io::Result<String> {
    let mut h = GbdHasher::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        match input.read(&mut buf) {
            Ok(0) => break,
            Ok(k) => h.update(&buf[..k]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(h.finish())
}

/// The GBD hash of the CNF file at `path`, plain or compressed (told by content).
#[cfg_attr(
    not(feature = "oracle"),
    visibility::make(pub(crate)),
    allow(dead_code)
)]
pub fn gbdhash_file(path: &std::path::Path) -> crate::error::Result<String> {
    let input = crate::compress::open(path)?;
    gbdhash_reader(input).map_err(|e| crate::error::Error::io(path.display().to_string(), e))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn general(text: &[u8]) -> String {
        gbdhash_reader(text).unwrap()
    }

    fn fast(pieces: &[&[u8]]) -> String {
        let mut h = GbdHasher::new();
        for p in pieces {
            h.update_clauses(p);
        }
        h.finish()
    }

    #[test]
    fn normalises_as_gbd_does() {
        // `md5 -s "1 2 0 -1 0"`; the four spellings are the ones gbdc hashes alike.
        let want = "c6ce184c63bd60d30c531eac029fd725";
        assert_eq!(general(b"1 2 0\n-1 0\n"), want);
        assert_eq!(general(b"c x 5 6\np cnf 2 2\n  1   2 0 -1\n 0\n"), want);
        assert_eq!(general(b"p cnf 2 2\n1 2 0\n-1\n"), want);
        assert_eq!(general(b"p cnf 2 2\r\n1\t2 0\r\n-1 0"), want);
        assert_eq!(fast(&[b"1 2 0\n-1 0\n"]), want);
        // The empty formula is the MD5 of nothing.
        assert_eq!(general(b"p cnf 0 0\n"), "d41d8cd98f00b204e9800998ecf8427e");
        assert_eq!(fast(&[]), "d41d8cd98f00b204e9800998ecf8427e");
    }

    #[test]
    fn the_fast_path_equals_the_general_one_however_the_text_is_cut() {
        let text: Vec<u8> = (1..500)
            .map(|i| format!("{} -{} {} 0\n", i, i + 1, i * 7))
            .collect::<String>()
            .into_bytes();
        let want = general(&text);
        for cut in [1, 2, 3, 7, 64, 1000, text.len()] {
            let pieces: Vec<&[u8]> = text.chunks(cut).collect();
            assert_eq!(fast(&pieces), want, "cut {cut}");
            let mut h = GbdHasher::new();
            for p in &pieces {
                h.update(p);
            }
            assert_eq!(h.finish(), want, "general, cut {cut}");
            let file = [b"c p show 1 2 0\np cnf 3000 499\n".as_slice(), &text].concat();
            let mut h = GbdHasher::new();
            for p in file.chunks(cut) {
                h.update_written(p);
            }
            assert_eq!(h.finish(), want, "written, cut {cut}");
        }
    }
}
