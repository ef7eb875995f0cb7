//! The crate's error type: every failure is one line naming the file, line or value at fault.

use std::fmt;

/// A queens-sat error. `Display` gives the one-line message the CLI prints.
#[derive(Debug)]
pub enum Error {
    /// Bad input in a file (or stdin): the source name, the 1-based line if known, and what is wrong.
    Parse {
        /// File name (or `-` / `<input>`).
        file: String,
        /// 1-based line number, when the problem has one.
        line: Option<usize>,
        /// What is wrong, naming the offending value.
        msg: String,
    },
    /// A bad option value or combination.
    Usage(String),
    /// An I/O failure on a named path.
    Io {
        /// The path being read or written.
        path: String,
        /// The underlying error.
        source: std::io::Error,
    },
    /// An external or in-process solver misbehaved: crash, bad output, wrong model.
    Solver(String),
    /// An instance too large to encode (variable count beyond DIMACS' 32-bit range, etc.).
    TooLarge(String),
    /// SIGINT or SIGTERM arrived; the work was stopped cleanly.
    Interrupted,
}

impl Error {
    /// A parse error at `file:line`.
    pub fn parse(file: &str, line: usize, msg: impl Into<String>) -> Error {
        Error::Parse {
            file: file.to_string(),
            line: Some(line),
            msg: msg.into(),
        }
    }

    /// A parse error concerning a whole file.
    pub fn parse_file(file: &str, msg: impl Into<String>) -> Error {
        Error::Parse {
            file: file.to_string(),
            line: None,
            msg: msg.into(),
        }
    }

    /// An I/O error on `path`.
    pub fn io(path: impl Into<String>, source: std::io::Error) -> Error {
        Error::Io {
            path: path.into(),
            source,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Parse {
                file,
                line: Some(l),
                msg,
            } => write!(f, "{file}:{l}: {msg}"),
            Error::Parse {
                file,
                line: None,
                msg,
            } => write!(f, "{file}: {msg}"),
            Error::Usage(m) => write!(f, "{m}"),
            Error::Io { path, source } => write!(f, "{path}: {source}"),
            Error::Solver(m) => write!(f, "solver fault: {m}"),
            Error::TooLarge(m) => write!(f, "too large: {m}"),
            Error::Interrupted => write!(f, "interrupted; nothing was left half-written"),
        }
    }
}

impl std::error::Error for Error {}

/// Result with the crate's [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

/// How many characters of an offending value an error message quotes ([`clip`]).
pub const CLIP_CHARS: usize = 40;

/// An offending value as an error message quotes it: control characters shown as `?` (so the
/// message stays one line) and at most [`CLIP_CHARS`] characters, then `...`.
///
/// ```
/// use queens_sat::error::clip;
/// assert_eq!(clip("a\tb"), "a?b");
/// assert_eq!(clip(&"x".repeat(50)), format!("{}...", "x".repeat(40)));
/// ```
pub fn clip(s: &str) -> String {
    let mut out: String = s
        .chars()
        .take(CLIP_CHARS)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if s.chars().nth(CLIP_CHARS).is_some() {
        out.push_str("...");
    }
    out
}
