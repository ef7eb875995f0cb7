//! The checkers' error type: a proof that does not check ([`Error::Rejected`]) is told apart
//! from input that cannot be read.

use std::fmt;

/// A proof format a checker of this crate reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// Text DRAT (external solvers), checked by `dratify` ([`crate::drat`]).
    Drat,
    /// LRAT ([`crate::lrat`]).
    Lrat,
    /// The VeriPB 3.0 subset of [`crate::pbcheck`].
    Veripb,
}

impl Format {
    /// The format's name: `drat`, `lrat`, `veripb`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Drat => "drat",
            Format::Lrat => "lrat",
            Format::Veripb => "veripb",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A checker's error. `Display` gives one line naming the file, line or step at fault.
#[derive(Debug)]
pub enum Error {
    /// Bad input text (a formula, a proof line outside the format): the source name, the
    /// 1-based line if known, and what is wrong.
    Parse {
        /// File name (or another name for the text).
        file: String,
        /// 1-based line number, when the problem has one.
        line: Option<usize>,
        /// What is wrong.
        msg: String,
    },
    /// An I/O failure on a named path.
    Io {
        /// The path being read.
        path: String,
        /// The underlying error.
        source: std::io::Error,
    },
    /// A formula handed over that the checker cannot take (a literal out of range).
    Invalid(String),
    /// A formula too large for the checker's arrays.
    TooLarge(String),
    /// The proof was read but does not check: a step that does not follow, or a proof that
    /// ends without refuting the formula. Never an UNSAT.
    Rejected {
        /// The proof's format.
        format: Format,
        /// The step at fault where known: the line of a text VeriPB proof, the last constraint
        /// ID before a structured VeriPB step, the number of the LRAT step (added clauses from
        /// 1), dratify's index of the DRAT step.
        step: Option<u64>,
        /// Why, in one line naming the step (the whole message).
        reason: String,
    },
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

    /// An I/O error on `path`.
    pub fn io(path: impl Into<String>, source: std::io::Error) -> Error {
        Error::Io {
            path: path.into(),
            source,
        }
    }

    /// A proof of `format` rejected at `step`, for `reason` (the whole message).
    pub fn rejected(format: Format, step: Option<u64>, reason: impl Into<String>) -> Error {
        Error::Rejected {
            format,
            step,
            reason: reason.into(),
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
            Error::Io { path, source } => write!(f, "{path}: {source}"),
            Error::Invalid(m) | Error::TooLarge(m) => write!(f, "{m}"),
            Error::Rejected { reason, .. } => write!(f, "{reason}"),
        }
    }
}

impl std::error::Error for Error {
    /// The I/O error under an [`Error::Io`].
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// A checker's result.
pub type Result<T> = std::result::Result<T, Error>;
