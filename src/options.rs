//! The option vocabulary every front end shares, the command line and the Python package: the
//! option types with their valid values, and the parsers that turn what a user gave into the
//! library's types. Errors are typed ([`BadOption`]: which option, which value, what is
//! allowed), so each front end words them in its own terms: `--timeout` on the command line,
//! `timeout=` in Python.

// The front ends' vocabulary (feature `front`): without it, what only they use is unused.
#![cfg_attr(not(feature = "front"), allow(dead_code))]

use std::time::Duration;

use crate::board::MAX_N;
use crate::encode::EncodeOptions;
use crate::encode::amo::AmoKind;
use crate::encode::implied::Implied;
use crate::encode::lex::SymmetrySet;
use crate::error::{BadOption, Error, Opt, Result};
use crate::instance::Instance;
use crate::piece::Piece;
use crate::solve::AutoSymmetry;
use crate::symmetry::{Symmetry, count_group};

/// Symmetry handling (`--break-symmetry`, `break_symmetry=`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BreakSymmetry {
    /// No symmetry handling at all (the default strategy's cube solver included).
    None,
    /// Lex-leader constraints keep one board per class modulo the instance's symmetries.
    Lex,
    /// The default strategy's cube solver searches modulo the symmetries on every instance
    /// kind (`solve` only).
    Cubes,
}

impl BreakSymmetry {
    /// Every value, in help order.
    pub const ALL: [BreakSymmetry; 3] = [
        BreakSymmetry::Lex,
        BreakSymmetry::None,
        BreakSymmetry::Cubes,
    ];

    /// The value's name.
    pub fn name(self) -> &'static str {
        match self {
            BreakSymmetry::None => "none",
            BreakSymmetry::Lex => "lex",
            BreakSymmetry::Cubes => "cubes",
        }
    }

    /// The names of [`BreakSymmetry::ALL`].
    pub fn names() -> Vec<&'static str> {
        BreakSymmetry::ALL.iter().map(|b| b.name()).collect()
    }

    /// The value named `name`.
    pub fn parse(name: &str) -> Result<BreakSymmetry> {
        BreakSymmetry::ALL
            .into_iter()
            .find(|b| b.name() == name)
            .ok_or_else(|| BadOption::unknown(Opt::BreakSymmetry, name, &BreakSymmetry::names()))
    }
}

impl std::str::FromStr for BreakSymmetry {
    type Err = Error;

    fn from_str(name: &str) -> Result<BreakSymmetry> {
        BreakSymmetry::parse(name)
    }
}

/// A symmetry of the square by name (`--symmetric`, `symmetric=`).
pub fn symmetry(name: &str) -> Result<Symmetry> {
    Symmetry::by_name(name).ok_or_else(|| {
        let known: Vec<&str> = Symmetry::ALL.iter().map(|g| g.name()).collect();
        BadOption::unknown(Opt::Symmetric, name, &known)
    })
}

/// The finest time limit (`--timeout`, `timeout=`), in seconds: a limit below it is refused
/// (the stop checks poll at 10 ms, so a shorter limit could not be kept anyway).
pub const TIMEOUT_RESOLUTION: f64 = 1e-3;

/// A time limit in seconds (`--timeout`, `timeout=`), one rule for the command line and
/// Python: `inf` is no limit (`None`); otherwise positive, at least [`TIMEOUT_RESOLUTION`], and
/// no more than a [`Duration`] holds (about 1.8e19 s). Each refusal has its own message.
///
/// ```
/// use queens_sat::options::time_limit;
/// assert_eq!(time_limit(f64::INFINITY).unwrap(), None);
/// assert_eq!(time_limit(1.5).unwrap(), Some(std::time::Duration::from_millis(1500)));
/// assert!(time_limit(1e30).unwrap_err().to_string().contains("too large"));
/// assert!(time_limit(1e-10).unwrap_err().to_string().contains("below the resolution"));
/// assert!(time_limit(0.0).unwrap_err().to_string().contains("positive number of seconds"));
/// ```
pub fn time_limit(secs: f64) -> Result<Option<Duration>> {
    if secs == f64::INFINITY {
        return Ok(None);
    }
    // The value as a user writes it: 1e30 and 1e-10, not thirty zeros.
    let secs_text = match secs.abs() >= 1e9 || (secs != 0.0 && secs.abs() < 1e-4) {
        true => format!("{secs:e}"),
        false => secs.to_string(),
    };
    if secs.is_nan() || secs <= 0.0 {
        return Err(BadOption::invalid(
            Opt::Timeout,
            &secs_text,
            "must be a positive number of seconds",
        ));
    }
    if secs < TIMEOUT_RESOLUTION {
        return Err(BadOption::invalid(
            Opt::Timeout,
            &secs_text,
            format!("is below the resolution of {TIMEOUT_RESOLUTION} seconds (the shortest limit)"),
        ));
    }
    Duration::try_from_secs_f64(secs).map(Some).map_err(|_| {
        BadOption::invalid(
            Opt::Timeout,
            &secs_text,
            format!(
                "is too large: a limit holds at most {:.1e} seconds; give inf for no limit",
                Duration::MAX.as_secs_f64()
            ),
        )
    })
}

/// A finite time limit (a limit that cannot be left out, e.g. `suite --reference-timeout`):
/// [`time_limit`]'s rule, and `inf` refused.
pub fn timeout(secs: f64) -> Result<Duration> {
    time_limit(secs)?.ok_or_else(|| {
        BadOption::invalid(
            Opt::Timeout,
            secs,
            "must be a finite number of seconds here",
        )
    })
}

/// A board side (`-n`, `n=`): `1..=MAX_N`.
pub fn side(n: i64) -> Result<u32> {
    u32::try_from(n)
        .ok()
        .filter(|n| (1..=MAX_N).contains(n))
        .ok_or_else(|| BadOption::invalid(Opt::N, n, format!("is out of range (1..={MAX_N})")))
}

/// Threads (`--jobs`, `jobs=`): at least 1; `None` is every core (`work::threads`,
/// the rule the solver applies too).
pub fn jobs(jobs: Option<usize>) -> Result<usize> {
    crate::work::threads(jobs)
}

/// The encoding choices as a user names them (`--amo`, `--implied`, `--symmetric`,
/// `--break-symmetry`; the same keyword arguments in Python).
#[derive(Clone, Copy, Debug, Default)]
pub struct Encoding<'a> {
    /// The at-most-one encoding (`None`: the default).
    pub amo: Option<&'a str>,
    /// Implied constraints (`None`: chosen by the strategy).
    pub implied: Option<&'a str>,
    /// Only boards this symmetry maps to themselves.
    pub symmetric: Option<&'a str>,
    /// Symmetry handling.
    pub break_symmetry: Option<&'a str>,
}

/// What [`Encoding::parse`] gives: the encoding options, whether implied constraints were
/// chosen, and the default strategy's symmetry handling.
#[derive(Clone, Debug)]
pub struct Parsed {
    /// How to encode (under `lex`, lex-leader constraints of the count's group,
    /// `crate::symmetry::count_group`).
    pub options: EncodeOptions,
    /// `--implied` as given (`None`: not chosen).
    pub implied: Option<Implied>,
    /// The default strategy's own symmetry handling (`none`: off, `cubes`: always).
    pub auto_symmetry: AutoSymmetry,
}

impl Encoding<'_> {
    /// Checks every name and builds the options for `instance` and `piece`. `cubes` is
    /// refused unless `for_solve` (it is the default strategy's).
    pub fn parse(&self, instance: &Instance, piece: &Piece, for_solve: bool) -> Result<Parsed> {
        let choice = self.break_symmetry.map(BreakSymmetry::parse).transpose()?;
        if choice == Some(BreakSymmetry::Cubes) && !for_solve {
            return Err(BadOption::invalid(
                Opt::BreakSymmetry,
                "cubes",
                "is for solving with the default strategy (its cube solver) only",
            ));
        }
        let symmetric = self.symmetric.map(symmetry).transpose()?;
        // The group of the count's classes: the instance's symmetries that keep the
        // `--symmetric` boards among themselves (all of them without it).
        let lex_leader = match choice {
            Some(BreakSymmetry::Lex) => SymmetrySet::of(&count_group(instance, piece, symmetric)),
            _ => SymmetrySet::default(),
        };
        let implied = self.implied.map(Implied::parse).transpose()?;
        let options = EncodeOptions {
            amo: AmoKind::parse(self.amo.unwrap_or(&AmoKind::DEFAULT.name()))?,
            symmetric,
            lex_leader,
            implied: implied.unwrap_or(Implied::None),
        };
        let auto_symmetry = match choice {
            Some(BreakSymmetry::None) => AutoSymmetry::Off,
            Some(BreakSymmetry::Cubes) => AutoSymmetry::Always,
            Some(BreakSymmetry::Lex) | None => AutoSymmetry::Measured,
        };
        Ok(Parsed {
            options,
            implied,
            auto_symmetry,
        })
    }
}

/// Every option's valid names, for front ends that list them (the Python package's
/// `names()`, its `Literal` types and their test). `solver` lists the built-in ones (`auto`
/// and the engine table); any other name is an external program.
pub fn names() -> Vec<(&'static str, Vec<&'static str>)> {
    vec![
        ("amo", AmoKind::names()),
        ("implied", Implied::names()),
        (
            "symmetric",
            Symmetry::ALL.iter().map(|g| g.name()).collect(),
        ),
        ("break_symmetry", BreakSymmetry::names()),
        (
            "piece",
            crate::piece::PIECES.iter().map(|p| p.name).collect(),
        ),
        ("engine", crate::count::CountEngine::names()),
        (
            "solver",
            std::iter::once("auto")
                .chain(crate::solve::registry::names())
                .collect(),
        ),
        (
            "format",
            crate::export::Format::ALL
                .iter()
                .map(|f| f.info().name)
                .collect(),
        ),
        ("instance_format", crate::instance::InstanceFormat::names()),
        ("proof_format", crate::certify::ProofFormat::NAMES.to_vec()),
    ]
}
