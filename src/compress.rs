//! Compressed files as the SAT community keeps them: `.cnf.xz` (the SAT Competition's and GBD's
//! form), `.cnf.gz` and `.cnf.zst`.
//!
//! Writing picks the codec from the output name ([`Codec::from_path`]) and compresses while
//! streaming ([`Compressor`]); reading tells the codec from the file's first bytes
//! ([`Codec::sniff`]), never from its name, so a renamed file still reads ([`open`], [`read`]).
//!
//! The codecs are well-kept crates, built from their bundled C sources so that no system package
//! is needed: `liblzma` (the maintained fork of `xz2`; one thread, so that the bytes depend only
//! on the crate version and the preset), `flate2` (pure Rust) and `zstd`.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::Path;

use crate::error::{BadOption, Error, Opt, Result};

/// A compression format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Codec {
    /// Plain text.
    Plain,
    /// xz (LZMA2), `.xz`.
    Xz,
    /// gzip, `.gz`.
    Gzip,
    /// Zstandard, `.zst`.
    Zstd,
}

impl Codec {
    /// Every codec, plain first.
    pub const ALL: [Codec; 4] = [Codec::Plain, Codec::Xz, Codec::Gzip, Codec::Zstd];

    /// The name taken by `--compress` (`none`, `xz`, `gz`, `zst`).
    pub fn name(self) -> &'static str {
        match self {
            Codec::Plain => "none",
            Codec::Xz => "xz",
            Codec::Gzip => "gz",
            Codec::Zstd => "zst",
        }
    }

    /// The file-name suffix after `.cnf` (none for plain text).
    pub fn extension(self) -> Option<&'static str> {
        match self {
            Codec::Plain => None,
            c => Some(c.name()),
        }
    }

    /// The codec an output path asks for, by its last extension (`x.cnf.xz` is xz, `x.cnf` is
    /// plain).
    pub fn from_path(path: &Path) -> Codec {
        match path.extension().and_then(|e| e.to_str()) {
            Some("xz") => Codec::Xz,
            Some("gz") => Codec::Gzip,
            Some("zst") => Codec::Zstd,
            _ => Codec::Plain,
        }
    }

    /// The codec an output path asks for, refusing a compressed form this build does not write
    /// (`.bz2`, `.lzma`, `.lz4`, `.7z`): plain text under such a name would mislead every reader.
    pub fn for_output(path: &Path) -> Result<Codec> {
        match path.extension().and_then(|e| e.to_str()) {
            Some(ext @ ("bz2" | "lzma" | "lz4" | "7z" | "zip")) => Err(Error::Usage(format!(
                "{}: .{ext} output is not supported; use .xz, .gz or .zst (or no suffix for plain text)",
                path.display()
            ))),
            _ => Ok(Codec::from_path(path)),
        }
    }

    /// The codec named `name` (`none`, `xz`, `gz` or `zst`).
    pub fn parse(name: &str) -> Result<Codec> {
        Codec::ALL
            .into_iter()
            .find(|c| c.name() == name)
            .ok_or_else(|| {
                let known: Vec<&str> = Codec::ALL.iter().map(|c| c.name()).collect();
                BadOption::unknown(Opt::Compress, name, &known)
            })
    }

    /// The codec of data starting with `head` (its magic number; plain when none matches).
    pub fn sniff(head: &[u8]) -> Codec {
        if head.starts_with(&[0xFD, b'7', b'z', b'X', b'Z', 0x00]) {
            Codec::Xz
        } else if head.starts_with(&[0x1F, 0x8B]) {
            Codec::Gzip
        } else if head.starts_with(&[0x28, 0xB5, 0x2F, 0xFD]) {
            Codec::Zstd
        } else {
            Codec::Plain
        }
    }

    /// The default level: xz preset 1 (on queens CNFs, preset 6 takes 40x as long for a file
    /// 42 % smaller: see docs/benchmarks.md), gzip 6, zstd 3.
    pub fn default_level(self) -> u32 {
        match self {
            Codec::Plain => 0,
            Codec::Xz => 1,
            Codec::Gzip => 6,
            Codec::Zstd => 3,
        }
    }

    /// The levels the codec takes.
    pub fn levels(self) -> std::ops::RangeInclusive<u32> {
        match self {
            Codec::Plain => 0..=0,
            Codec::Xz => 0..=9,
            Codec::Gzip => 0..=9,
            Codec::Zstd => 1..=19,
        }
    }

    /// `level`, or the default, checked against [`Codec::levels`].
    pub fn level(self, level: Option<u32>) -> Result<u32> {
        let l = level.unwrap_or_else(|| self.default_level());
        if self.levels().contains(&l) || level.is_none() {
            return Ok(l);
        }
        let range = self.levels();
        Err(BadOption::invalid(
            Opt::Level,
            l,
            match self {
                Codec::Plain => "applies to compressed output (.xz, .gz, .zst) only".to_string(),
                c => format!(
                    "must be in {}..={} for {}",
                    range.start(),
                    range.end(),
                    c.name()
                ),
            },
        ))
    }
}

impl std::fmt::Display for Codec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A writer that compresses into `W` while streaming; [`Compressor::finish`] writes the end of
/// the stream and returns `W`.
pub enum Compressor<W: Write> {
    /// No compression.
    Plain(W),
    /// xz, one thread.
    Xz(liblzma::write::XzEncoder<W>),
    /// gzip.
    Gzip(flate2::write::GzEncoder<W>),
    /// Zstandard.
    Zstd(zstd::stream::write::Encoder<'static, W>),
}

impl<W: Write> Compressor<W> {
    /// Compresses into `w` with `codec` at `level` (see [`Codec::level`]).
    pub fn new(codec: Codec, level: u32, w: W) -> io::Result<Compressor<W>> {
        Ok(match codec {
            Codec::Plain => Compressor::Plain(w),
            Codec::Xz => Compressor::Xz(liblzma::write::XzEncoder::new(w, level)),
            Codec::Gzip => Compressor::Gzip(flate2::write::GzEncoder::new(
                w,
                flate2::Compression::new(level),
            )),
            Codec::Zstd => {
                let mut e = zstd::stream::write::Encoder::new(w, level as i32)?;
                e.include_checksum(true)?;
                Compressor::Zstd(e)
            }
        })
    }

    /// Ends the compressed stream and returns the inner writer (flushed).
    pub fn finish(self) -> io::Result<W> {
        let mut w = match self {
            Compressor::Plain(w) => w,
            Compressor::Xz(e) => e.finish()?,
            Compressor::Gzip(e) => e.finish()?,
            Compressor::Zstd(e) => e.finish()?,
        };
        w.flush()?;
        Ok(w)
    }
}

impl<W: Write> Write for Compressor<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Compressor::Plain(w) => w.write(buf),
            Compressor::Xz(e) => e.write(buf),
            Compressor::Gzip(e) => e.write(buf),
            Compressor::Zstd(e) => e.write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match self {
            Compressor::Plain(w) => w.write_all(buf),
            Compressor::Xz(e) => e.write_all(buf),
            Compressor::Gzip(e) => e.write_all(buf),
            Compressor::Zstd(e) => e.write_all(buf),
        }
    }

    /// Flushes the inner writer only: a compressor's own flush would end a block early and
    /// change the bytes.
    fn flush(&mut self) -> io::Result<()> {
        match self {
            Compressor::Plain(w) => w.flush(),
            Compressor::Xz(e) => e.get_mut().flush(),
            Compressor::Gzip(e) => e.get_mut().flush(),
            Compressor::Zstd(e) => e.get_mut().flush(),
        }
    }
}

/// Decompresses `input` by its content: the codec is told by the first bytes.
pub fn decoder<'a, R: BufRead + Send + 'a>(
    mut input: R,
) -> io::Result<Box<dyn BufRead + Send + 'a>> {
    let head = input.fill_buf()?;
    Ok(match Codec::sniff(head) {
        Codec::Plain => Box::new(input),
        Codec::Xz => Box::new(BufReader::with_capacity(
            1 << 16,
            liblzma::bufread::XzDecoder::new_multi_decoder(input),
        )),
        Codec::Gzip => Box::new(BufReader::with_capacity(
            1 << 16,
            flate2::bufread::MultiGzDecoder::new(input),
        )),
        Codec::Zstd => Box::new(BufReader::with_capacity(
            1 << 16,
            zstd::stream::read::Decoder::with_buffer(input)?,
        )),
    })
}

/// Whether `path` is `-`, standard input, wherever a file is read.
pub fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// How a message names the input at `path`: `<stdin>` for `-`, else the path.
pub fn input_name(path: &Path) -> String {
    match is_stdin(path) {
        true => "<stdin>".to_string(),
        false => path.display().to_string(),
    }
}

/// Opens `path` (`-`: standard input) for reading, decompressed by content (see [`decoder`]).
pub fn open(path: &Path) -> Result<Box<dyn BufRead + Send>> {
    let name = input_name(path);
    if is_stdin(path) {
        return decoder(BufReader::with_capacity(1 << 16, io::stdin()))
            .map_err(|e| Error::io(&name, e));
    }
    let file = std::fs::File::open(path).map_err(|e| Error::io(&name, e))?;
    decoder(BufReader::with_capacity(1 << 16, file)).map_err(|e| Error::io(&name, e))
}

/// The most bytes [`read`] takes from one input, after decompression: 1 GiB (a board text of
/// side 32,000; a compressed bomb or an endless device stops here).
pub const MAX_INPUT_BYTES: u64 = 1 << 30;

/// Whether a byte can appear in a text input the tool reads (instances, models, solver
/// answers): anything but the ASCII control characters other than tab, line feed and carriage
/// return. UTF-8 is checked by the parsers.
fn is_text_byte(b: u8) -> bool {
    (b >= 0x20 || matches!(b, b'\t' | b'\n' | b'\r')) && b != 0x7F
}

/// The codec of the file at `path`, by content.
pub fn codec_of(path: &Path) -> Result<Codec> {
    let name = path.display().to_string();
    let mut head = [0u8; 6];
    let mut file = std::fs::File::open(path).map_err(|e| Error::io(&name, e))?;
    let mut got = 0;
    while got < head.len() {
        match file.read(&mut head[got..]) {
            Ok(0) => break,
            Ok(k) => got += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(Error::io(&name, e)),
        }
    }
    Ok(Codec::sniff(&head[..got]))
}

/// The whole content of `path` (`-`: standard input), decompressed by content. A corrupt
/// compressed file is an error naming the file. Read in chunks and refused at the first byte
/// that is not text (naming its line and column) or past [`MAX_INPUT_BYTES`], so that a binary
/// file or an endless device (`/dev/urandom`) gets one line within a second and memory stays
/// bounded.
pub fn read(path: &Path) -> Result<Vec<u8>> {
    read_limited(path, MAX_INPUT_BYTES)
}

/// [`read`] with the limit `limit` bytes.
pub fn read_limited(path: &Path, limit: u64) -> Result<Vec<u8>> {
    let name = input_name(path);
    let mut input = open(path)?;
    let mut out: Vec<u8> = Vec::new();
    let (mut line, mut line_start) = (1usize, 0usize);
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Error::io(&name, e)),
        };
        if chunk.is_empty() {
            return Ok(out);
        }
        if out.len() as u64 + chunk.len() as u64 > limit {
            return Err(Error::parse_file(
                &name,
                format!("longer than {limit} bytes, the input limit"),
            ));
        }
        for (i, &b) in chunk.iter().enumerate() {
            if b == b'\n' {
                line += 1;
                line_start = out.len() + i + 1;
            } else if !is_text_byte(b) {
                return Err(Error::parse(
                    &name,
                    line,
                    format!(
                        "byte 0x{b:02X} at column {} is not text (a binary file?)",
                        out.len() + i + 1 - line_start
                    ),
                ));
            }
        }
        let k = chunk.len();
        out.try_reserve(k).map_err(|_| {
            Error::TooLarge(format!("{name}: no memory for {} bytes", out.len() + k))
        })?;
        out.extend_from_slice(chunk);
        input.consume(k);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roundtrip(codec: Codec, level: u32, text: &[u8]) -> Vec<u8> {
        let mut c = Compressor::new(codec, level, Vec::new()).unwrap();
        c.write_all(text).unwrap();
        let bytes = c.finish().unwrap();
        assert_eq!(Codec::sniff(&bytes), codec, "{codec}");
        let mut back = Vec::new();
        decoder(&bytes[..]).unwrap().read_to_end(&mut back).unwrap();
        back
    }

    #[test]
    fn every_codec_round_trips_and_is_told_by_content() {
        let text = b"c header\np cnf 3 2\n1 -2 0\n2 3 0\n".repeat(1000);
        for codec in Codec::ALL {
            for level in [codec.levels().start(), &codec.default_level()] {
                assert_eq!(roundtrip(codec, *level, &text), text, "{codec} {level}");
            }
        }
        assert_eq!(roundtrip(Codec::Xz, 1, b""), b"");
    }

    #[test]
    fn names_paths_and_levels() {
        for codec in Codec::ALL {
            assert_eq!(Codec::parse(codec.name()).unwrap(), codec);
            let path = format!(
                "a.cnf{}",
                codec
                    .extension()
                    .map(|e| format!(".{e}"))
                    .unwrap_or_default()
            );
            assert_eq!(Codec::from_path(Path::new(&path)), codec);
            assert!(codec.levels().contains(&codec.default_level()));
        }
        let e = Codec::for_output(Path::new("a.cnf.bz2"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("a.cnf.bz2") && e.contains(".xz"), "{e}");
        assert_eq!(
            Codec::for_output(Path::new("a.cnf.zst")).unwrap(),
            Codec::Zstd
        );
        let e = Codec::parse("bz2").unwrap_err().to_string();
        assert!(e.contains("bz2") && e.contains("xz"), "{e}");
        let e = Codec::Xz.level(Some(12)).unwrap_err().to_string();
        assert!(e.contains("12") && e.contains("0..=9"), "{e}");
        let e = Codec::Plain.level(Some(3)).unwrap_err().to_string();
        assert!(e.contains("compressed"), "{e}");
        assert_eq!(Codec::Zstd.level(None).unwrap(), 3);
    }

    #[test]
    fn a_corrupt_file_is_an_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bad.cnf.xz");
        let mut c = Compressor::new(Codec::Xz, 1, Vec::new()).unwrap();
        c.write_all(&b"1 2 0\n".repeat(10_000)).unwrap();
        let mut bytes = c.finish().unwrap();
        let mid = bytes.len() / 2;
        bytes[mid] ^= 0xFF;
        bytes.truncate(bytes.len() - 4);
        std::fs::write(&path, &bytes).unwrap();
        let e = read(&path).unwrap_err().to_string();
        assert!(e.contains("bad.cnf.xz"), "{e}");
        assert_eq!(codec_of(&path).unwrap(), Codec::Xz);
    }
}
