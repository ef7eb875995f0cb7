//! The crate's error type: every failure is one line naming the file, line or value at fault.

use std::fmt;

mod bad_instance;
pub use bad_instance::{BadInstance, Part};

/// A queens-sat error. `Display` gives the one-line message the CLI prints.
///
/// Each kind of failure has its own variant, so that a caller (and Python's exception classes,
/// converted once in the Python crate) can tell what happened without reading the message:
/// bad input ([`Error::Parse`], [`Error::Usage`], [`Error::Option`], [`Error::Instance`]), the
/// file system ([`Error::Io`]), a solver that gave no answer ([`Error::Solver`]), an answer that
/// failed a check ([`Error::WrongAnswer`]), a proof that failed its check
/// ([`Error::ProofRejected`]), a resource limit ([`Error::TooLarge`]), a time limit
/// ([`Error::TimeLimit`]), a signal ([`Error::Interrupted`]) and a fault of queens-sat itself ([`Error::Internal`]). New kinds
/// may come, hence `#[non_exhaustive]`.
#[derive(Debug)]
#[non_exhaustive]
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
    /// A bad value of one option, typed so that each front end names the option in its own
    /// terms (`--timeout` on the command line, `timeout=` in Python).
    Option(BadOption),
    /// Cells and diagonals that are not an instance (a pre-placed piece on a blocked cell, a
    /// cell off the board), or an instance a file format cannot hold; typed so that each front
    /// end words it in its own terms (see [`BadInstance::message`]).
    Instance(BadInstance),
    /// An I/O failure on a named path.
    Io {
        /// The path being read or written.
        path: String,
        /// The underlying error.
        source: std::io::Error,
    },
    /// A solver gave no answer: it could not start, crashed, was killed by a signal or wrote
    /// output that cannot be read. Not an answer that failed a check ([`Error::WrongAnswer`]).
    Solver(String),
    /// An answer that failed a check, so it is not given: a model the independent checker
    /// rejects, two engines' verdicts or counts that differ, a count that differs from a
    /// published one or fails Burnside's check, cubes that do not cover their instance.
    WrongAnswer(String),
    /// A proof that fails its check (`--certify`): a step that does not follow, or a proof
    /// that ends without refuting the formula. The answer it was to certify is not given.
    ProofRejected {
        /// The proof's format.
        format: queens_sat_check::Format,
        /// The step at fault where known (see [`queens_sat_check::Error::Rejected`]: a line of
        /// a text VeriPB proof, the last constraint ID before a structured VeriPB step, the
        /// number of an LRAT step, dratify's index of a DRAT step); `None` when the proof as a
        /// whole falls short (no refutation at its end).
        step: Option<u64>,
        /// Why, in one line naming the step.
        reason: String,
    },
    /// An instance too large to encode (variable count beyond DIMACS' 32-bit range, etc.).
    TooLarge(String),
    /// A resource budget was exceeded: a file written under a size budget (a proof file, see
    /// [`crate::certify::budget`]) grew past it before it was complete, and was removed.
    Budget {
        /// What passed its budget, as the message names it (`the proof`, `the DRAT proof of
        /// cadical (a temporary file)`).
        what: String,
        /// The file it was written for; `None` for a temporary file of the run's own (the DRAT
        /// proof a solver writes under `--certify`, which `what` names).
        path: Option<String>,
        /// The budget, in bytes.
        limit: u64,
        /// How to change the budget, the message's last words.
        hint: String,
    },
    /// SIGINT or SIGTERM arrived; the work was stopped cleanly.
    Interrupted,
    /// The time limit given (here) passed before the work ended, where the work has no
    /// "unknown" answer to give (a count): nothing was counted.
    TimeLimit(std::time::Duration),
    /// A fault of queens-sat itself (a bug): a thread that panicked, a broken invariant between
    /// two of its parts. The message says where; please report it.
    Internal(String),
}

impl Error {
    /// The same error with `what` in front of its message (`what: message`), where the
    /// message is free text ([`Error::Solver`], [`Error::WrongAnswer`], [`Error::Internal`],
    /// [`Error::TooLarge`]); other variants as they are. The kind never changes, so callers and
    /// Python's exception classes see the same variant with or without the context.
    pub fn context(self, what: impl std::fmt::Display) -> Error {
        match self {
            Error::Solver(m) => Error::Solver(format!("{what}: {m}")),
            Error::WrongAnswer(m) => Error::WrongAnswer(format!("{what}: {m}")),
            Error::Internal(m) => Error::Internal(format!("{what}: {m}")),
            Error::TooLarge(m) => Error::TooLarge(format!("{what}: {m}")),
            other => other,
        }
    }

    /// A proof of `format` that fails its check as a whole (`step`: where, if known).
    pub fn proof_rejected(
        format: queens_sat_check::Format,
        step: Option<u64>,
        reason: impl Into<String>,
    ) -> Error {
        Error::ProofRejected {
            format,
            step,
            reason: reason.into(),
        }
    }

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

    /// An I/O error on `path`; a write refused by a file's size budget (inside the I/O error
    /// of a budgeted file, see [`crate::certify::budget`]) is [`Error::Budget`].
    pub fn io(path: impl Into<String>, source: std::io::Error) -> Error {
        if let Some(over) = source
            .get_ref()
            .and_then(|e| e.downcast_ref::<OverBudget>())
        {
            return over.error(path.into());
        }
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
            Error::Option(b) => write!(f, "{}", b.message(Naming::Flag)),
            Error::Instance(b) => write!(f, "{}", b.message(Naming::Flag)),
            Error::Io { path, source } => write!(f, "{path}: {source}"),
            Error::Solver(m) => write!(f, "solver fault: {m}"),
            Error::WrongAnswer(m) => write!(f, "wrong answer caught: {m}"),
            Error::Internal(m) => write!(f, "internal error (a bug): {m}"),
            Error::ProofRejected { format, reason, .. } => {
                write!(f, "proof rejected ({format}): {reason}")
            }
            Error::TooLarge(m) => write!(f, "too large: {m}"),
            Error::Budget {
                what,
                path,
                limit,
                hint,
            } => {
                if let Some(path) = path {
                    write!(f, "{path}: ")?;
                }
                write!(
                    f,
                    "{what} reached its size budget of {} before it was complete, and was \
                     removed {hint}",
                    size(*limit)
                )
            }
            Error::Interrupted => write!(f, "interrupted; nothing was left half-written"),
            Error::TimeLimit(given) => write!(
                f,
                "time limit of {} s reached before the end; nothing was counted",
                given.as_secs_f64()
            ),
        }
    }
}

/// A checker's error (the `queens-sat-check` crate's checkers) as the
/// crate's: a rejected proof is [`Error::ProofRejected`].
impl From<queens_sat_check::Error> for Error {
    fn from(e: queens_sat_check::Error) -> Error {
        use queens_sat_check::Error as E;
        match e {
            E::Parse { file, line, msg } => Error::Parse { file, line, msg },
            E::Io { path, source } => Error::Io { path, source },
            E::Invalid(m) => Error::Usage(m),
            E::TooLarge(m) => Error::TooLarge(m),
            E::Rejected {
                format,
                step,
                reason,
            } => Error::ProofRejected {
                format,
                step,
                reason,
            },
        }
    }
}

impl std::error::Error for Error {
    /// The I/O error under an [`Error::Io`]; the other variants carry no underlying error.
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// An option the front ends take. The library names it through [`Opt::flag`] (the command
/// line's) in its own messages; another front end renders a [`BadOption`] with its own names
/// ([`Opt::argument`], Python's keyword arguments).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Opt {
    /// The board side (`-n`, `n`).
    N,
    /// The piece.
    Piece,
    /// The at-most-one encoding.
    Amo,
    /// Implied constraints.
    Implied,
    /// Only boards a symmetry maps to themselves.
    Symmetric,
    /// Symmetry handling.
    BreakSymmetry,
    /// The time limit in seconds.
    Timeout,
    /// Threads.
    Jobs,
    /// The counting engine.
    Engine,
    /// An export format (`--to`, Python's `format=`).
    To,
    /// The prefix of an excluded-diagonals file to take.
    Diags,
    /// Accept UNSAT only with a checked refutation.
    Certify,
    /// The compression of written CNFs (`--compress`; Python's `compress=`).
    Compress,
    /// The compression level (`--level`, `level=`).
    Level,
    /// Where the checked proof of a certified UNSAT goes (`--proof`, `proof=`).
    Proof,
    /// The proof the certified bitboard search writes (`--proof-format`, `proof_format=`).
    ProofFormat,
    /// The size budget of a proof file (`--proof-budget`, `proof_budget=`).
    ProofBudget,
    /// The solver, portfolio or external program (`--solver`, `solver=`).
    Solver,
    /// An instance file format (`--format` of `generate` / `convert`, Python's `format=` of
    /// `Instance.to_text` and `Instance.parse`).
    InstanceFormat,
    /// A generator's count of pieces or blocked cells (`-m`, `m=`).
    M,
    /// A generator's free cells kept per line (`--min-free`, `min_free=`).
    MinFree,
    /// Cube-and-conquer (`--cubes`, `cubes=`).
    Cubes,
    /// Presolve (`--no-presolve`, `presolve=False`).
    Presolve,
    /// The instance file (`--instance`; Python's instance argument).
    Instance,
    /// Where `encode` writes (`-o`; Python's `path`).
    Output,
    /// `encode --stats`: the size only, no file.
    Stats,
    /// The GBD hash of the written CNF (`--gbdhash`).
    Gbdhash,
    /// The same board on every run of the split bitboard search (`--deterministic`).
    Deterministic,
    /// `count --boards K`: print boards instead of counting (Python's `limit` of
    /// `solutions`).
    Boards,
    /// `suite --select`: keep what a budget solver finds hard and a reference solver decides.
    Select,
    /// `suite --per-family`: how many instances `--select` keeps per family.
    PerFamily,
    /// `suite --total`: how many instances `--select` keeps over the whole selection.
    Total,
    /// `suite --budget-solver`: the budget solver of `--select` (MiniSat by default).
    BudgetSolver,
    /// `suite --budget-limit`: its time limit per instance, seconds.
    BudgetLimit,
    /// `suite --select-seed`: the seed of `--select`'s choice within a family.
    SelectSeed,
    /// `suite --counter`: select by a model counter's time.
    Counter,
    /// `suite --solve`: solve every instance.
    Solve,
}

impl Opt {
    /// The command line's name: `-n`, `--timeout`, ...
    pub fn flag(self) -> &'static str {
        match self {
            Opt::N => "-n",
            Opt::Piece => "--piece",
            Opt::Amo => "--amo",
            Opt::Implied => "--implied",
            Opt::Symmetric => "--symmetric",
            Opt::BreakSymmetry => "--break-symmetry",
            Opt::Timeout => "--timeout",
            Opt::Jobs => "--jobs",
            Opt::Engine => "--engine",
            Opt::To => "--to format",
            Opt::Diags => "--diags",
            Opt::Certify => "--certify",
            Opt::Compress => "--compress",
            Opt::Level => "--level",
            Opt::Proof => "--proof",
            Opt::ProofFormat => "--proof-format",
            Opt::ProofBudget => "--proof-budget",
            Opt::Solver => "--solver",
            Opt::InstanceFormat => "--format",
            Opt::M => "-m",
            Opt::MinFree => "--min-free",
            Opt::Cubes => "--cubes",
            Opt::Presolve => "--no-presolve",
            Opt::Instance => "--instance",
            Opt::Output => "-o",
            Opt::Stats => "--stats",
            Opt::Gbdhash => "--gbdhash",
            Opt::Deterministic => "--deterministic",
            Opt::Boards => "--boards",
            Opt::Select => "--select",
            Opt::PerFamily => "--per-family",
            Opt::Total => "--total",
            Opt::BudgetSolver => "--budget-solver",
            Opt::BudgetLimit => "--budget-limit",
            Opt::SelectSeed => "--select-seed",
            Opt::Counter => "--counter",
            Opt::Solve => "--solve",
        }
    }

    /// The keyword argument's name in the Python package: `n`, `timeout`, ...
    pub fn argument(self) -> &'static str {
        match self {
            Opt::N => "n",
            Opt::Piece => "piece",
            Opt::Amo => "amo",
            Opt::Implied => "implied",
            Opt::Symmetric => "symmetric",
            Opt::BreakSymmetry => "break_symmetry",
            Opt::Timeout => "timeout",
            Opt::Jobs => "jobs",
            Opt::Engine => "engine",
            Opt::To => "format",
            Opt::Diags => "diags",
            Opt::Certify => "certify",
            Opt::Compress => "compress",
            Opt::Level => "level",
            Opt::Proof => "proof",
            Opt::ProofFormat => "proof_format",
            Opt::ProofBudget => "proof_budget",
            Opt::Solver => "solver",
            Opt::InstanceFormat => "format",
            Opt::M => "m",
            Opt::MinFree => "min_free",
            Opt::Cubes => "cubes",
            Opt::Presolve => "presolve",
            Opt::Instance => "instance",
            Opt::Output => "path",
            Opt::Stats => "stats",
            Opt::Gbdhash => "gbdhash",
            Opt::Deterministic => "deterministic",
            Opt::Boards => "limit",
            Opt::Select => "select",
            Opt::PerFamily => "per_family",
            Opt::Total => "total",
            Opt::BudgetSolver => "budget_solver",
            Opt::BudgetLimit => "budget_limit",
            Opt::SelectSeed => "select_seed",
            Opt::Counter => "counter",
            Opt::Solve => "solve",
        }
    }

    /// Whether the option's value is text (a name, a path, a spec), which messages quote
    /// (`solver='x'`, `--proof 'p.lrat'`), rather than a number or a switch, which they do not
    /// (`jobs=-1`). Python's `.value` of the error is the value's `repr` accordingly.
    pub fn takes_text(self) -> bool {
        matches!(
            self,
            Opt::Piece
                | Opt::Amo
                | Opt::Implied
                | Opt::Symmetric
                | Opt::BreakSymmetry
                | Opt::Engine
                | Opt::To
                | Opt::Compress
                | Opt::Proof
                | Opt::ProofFormat
                | Opt::Solver
                | Opt::InstanceFormat
                | Opt::Instance
                | Opt::Output
                | Opt::BudgetSolver
                | Opt::Counter
        )
    }

    /// Whether the option is a switch, given or not, with no value of its own (`--stats`,
    /// `--certify`; Python's `certify=True`).
    pub fn is_switch(self) -> bool {
        matches!(
            self,
            Opt::Certify
                | Opt::Cubes
                | Opt::Presolve
                | Opt::Stats
                | Opt::Gbdhash
                | Opt::Deterministic
                | Opt::Select
                | Opt::Solve
        )
    }

    /// How a message names the option set in a [`Wrong::Excludes`]: the flag, or Python's
    /// `argument=True` (`presolve=False` for `--no-presolve`).
    fn set(self, naming: Naming) -> String {
        match (naming, self) {
            (Naming::Flag, _) => self.flag().to_string(),
            (Naming::Argument, Opt::Presolve) => "presolve=False".into(),
            (Naming::Argument, _) => format!("{}=True", self.argument()),
        }
    }
}

/// What is wrong with an option's value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Wrong {
    /// Not one of the known names; the text lists them (`known: a, b`).
    Unknown(String),
    /// Out of its range; the text says what it must be (`must be a positive number of
    /// seconds`).
    Invalid(String),
    /// Not allowed together with a (boolean) option that was set; the text says why.
    Excludes(Opt, String),
    /// Not allowed together with another option's value (the option, its value as given,
    /// why).
    Conflicts(Opt, String, String),
    /// Needs another option that was not given; the text says why.
    Needs(Opt, String),
}

/// How a message names an option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Naming {
    /// The command line's flags: `unknown --amo 'x' (known: ...)`, `--timeout -1 must be ...`.
    Flag,
    /// Python's keyword arguments: `unknown amo='x' (known: ...)`, `timeout=-1 must be ...`.
    Argument,
}

/// A bad value of one option: which option, the value as given, and what is allowed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadOption {
    /// The option.
    pub option: Opt,
    /// The value as given.
    pub value: String,
    /// What is wrong with it.
    pub wrong: Wrong,
}

impl Error {
    /// The same error, naming `option` when it is a [`BadOption`] (a value checked by a rule
    /// shared with another option, e.g. `--budget-limit` by `--timeout`'s); other errors as
    /// they are.
    pub fn for_option(self, option: Opt) -> Error {
        match self {
            Error::Option(bad) => Error::Option(BadOption { option, ..bad }),
            other => other,
        }
    }
}

impl BadOption {
    /// A name that is not among `known` (listed in the message).
    pub fn unknown<S: AsRef<str>>(option: Opt, value: &str, known: &[S]) -> Error {
        let known: Vec<&str> = known.iter().map(AsRef::as_ref).collect();
        BadOption::unknown_because(option, value, format!("known: {}", known.join(", ")))
    }

    /// A name that is not known, with `allowed` saying what is.
    pub fn unknown_because(option: Opt, value: &str, allowed: String) -> Error {
        Error::Option(BadOption {
            option,
            value: value.to_string(),
            wrong: Wrong::Unknown(allowed),
        })
    }

    /// A value out of range: `must` says what it must be.
    pub fn invalid(option: Opt, value: impl fmt::Display, must: impl Into<String>) -> Error {
        Error::Option(BadOption {
            option,
            value: value.to_string(),
            wrong: Wrong::Invalid(must.into()),
        })
    }

    /// A value that cannot be used with the option `with` (set), because of `why`.
    pub fn excludes(option: Opt, value: impl fmt::Display, with: Opt, why: &str) -> Error {
        Error::Option(BadOption {
            option,
            value: value.to_string(),
            wrong: Wrong::Excludes(with, why.to_string()),
        })
    }

    /// An option that needs the option `needs`, which was not given, because of `why`.
    pub fn needs(option: Opt, value: impl fmt::Display, needs: Opt, why: &str) -> Error {
        Error::Option(BadOption {
            option,
            value: value.to_string(),
            wrong: Wrong::Needs(needs, why.to_string()),
        })
    }

    /// A value that cannot be used with the value `with_value` of the option `with`, because
    /// of `why`.
    pub fn conflicts(
        option: Opt,
        value: impl fmt::Display,
        with: Opt,
        with_value: impl fmt::Display,
        why: impl Into<String>,
    ) -> Error {
        Error::Option(BadOption {
            option,
            value: value.to_string(),
            wrong: Wrong::Conflicts(with, with_value.to_string(), why.into()),
        })
    }

    /// The one-line message, naming the option as `naming` says. A text value is quoted
    /// ([`Opt::takes_text`]), and so is any value that is not a known name; on the command
    /// line also any value that is not out of range (`--jobs '2' cannot be used with ...`),
    /// while Python's words show a number bare (`jobs=2 cannot be used with ...`).
    ///
    /// ```
    /// use queens_sat::error::{BadOption, Error, Naming, Opt};
    /// let Error::Option(b) = BadOption::invalid(Opt::Timeout, -1, "must be positive") else {
    ///     unreachable!()
    /// };
    /// assert_eq!(b.message(Naming::Flag), "--timeout -1 must be positive");
    /// assert_eq!(b.message(Naming::Argument), "timeout=-1 must be positive");
    /// let Error::Option(c) = BadOption::conflicts(Opt::Jobs, 2, Opt::Solver, "varisat", "why")
    /// else {
    ///     unreachable!()
    /// };
    /// assert_eq!(c.message(Naming::Flag), "--jobs '2' cannot be used with --solver 'varisat': why");
    /// assert_eq!(c.message(Naming::Argument), "jobs=2 cannot be used with solver='varisat': why");
    /// ```
    pub fn message(&self, naming: Naming) -> String {
        let value = clip(&self.value);
        // Python's words show a number as Python writes it (`jobs=2`, not `jobs='2'`): only
        // text, and a name that is not known, is quoted there.
        let quoted = match naming {
            Naming::Flag => !matches!(self.wrong, Wrong::Invalid(_)) || self.option.takes_text(),
            Naming::Argument => matches!(self.wrong, Wrong::Unknown(_)) || self.option.takes_text(),
        };
        let name = |option: Opt, value: &str, quoted: bool| match (naming, quoted) {
            (Naming::Flag, true) => format!("{} '{value}'", option.flag()),
            (Naming::Flag, false) => format!("{} {value}", option.flag()),
            (Naming::Argument, true) => format!("{}='{value}'", option.argument()),
            (Naming::Argument, false) => format!("{}={value}", option.argument()),
        };
        // A switch (`--stats`, `deterministic=True`) has no value to show.
        let named = if self.option.is_switch() {
            self.option.set(naming)
        } else {
            name(self.option, &value, quoted)
        };
        match &self.wrong {
            Wrong::Unknown(allowed) => format!("unknown {named} ({allowed})"),
            Wrong::Invalid(must) => format!("{named} {must}"),
            Wrong::Excludes(with, why) => {
                format!("{named} cannot be used with {}: {why}", with.set(naming))
            }
            Wrong::Conflicts(with, with_value, why) => format!(
                "{named} cannot be used with {}: {why}",
                name(
                    *with,
                    &clip(with_value),
                    naming == Naming::Flag || with.takes_text()
                )
            ),
            Wrong::Needs(with, why) => {
                let with = match naming {
                    Naming::Flag => with.flag(),
                    Naming::Argument => with.argument(),
                };
                format!("{named} needs {with}: {why}")
            }
        }
    }
}

/// The error of a write that would take a budgeted file (`atomic::Pending::with_budget`) past
/// its size budget, inside the I/O error of that write: [`Error::io`] makes it the typed
/// [`Error::Budget`]; its text names the budget.
#[derive(Debug)]
pub(crate) struct OverBudget {
    /// The budget, in bytes.
    pub(crate) budget: u64,
    /// What the file is (`the proof`).
    pub(crate) what: &'static str,
    /// How to change the budget.
    pub(crate) hint: &'static str,
}

impl fmt::Display for OverBudget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} reached its size budget of {} before it was complete, and was removed {}",
            self.what,
            size(self.budget),
            self.hint
        )
    }
}

impl std::error::Error for OverBudget {}

impl OverBudget {
    /// The crate's error for the file at `path` ([`Error::Budget`]).
    fn error(&self, path: String) -> Error {
        Error::Budget {
            what: self.what.to_string(),
            path: Some(path),
            limit: self.budget,
            hint: self.hint.to_string(),
        }
    }
}

/// `bytes` for a message: `1.2 GB`, `340 MB` (rounded), `4096 bytes` below a megabyte;
/// `no budget` for `u64::MAX` (a budget of none).
pub(crate) fn size(bytes: u64) -> String {
    match bytes {
        u64::MAX => "no budget".into(),
        b if b >= 1_000_000 => rounded(b),
        b => format!("{b} bytes"),
    }
}

/// `bytes` rounded for a message: `1.2 GB` from a gigabyte on, else `340 MB` (at least `1 MB`).
pub(crate) fn rounded(bytes: u64) -> String {
    if bytes >= 1_000_000_000 {
        format!("{:.1} GB", bytes as f64 / 1e9)
    } else {
        format!("{:.0} MB", (bytes as f64 / 1e6).max(1.0))
    }
}

/// Result with the crate's [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

/// How many characters of an offending value an error message quotes ([`clip`]).
pub(crate) const CLIP_CHARS: usize = 40;

/// An offending value as an error message quotes it: control characters shown as `?` (so the
/// message stays one line) and at most `CLIP_CHARS` characters, then `...`.
///
/// ```
/// use queens_sat::error::clip;
/// assert_eq!(clip("a\tb"), "a?b");
/// assert_eq!(clip(&"x".repeat(50)), format!("{}...", "x".repeat(40)));
/// ```
#[cfg_attr(not(feature = "front"), visibility::make(pub(crate)), allow(dead_code))]
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
