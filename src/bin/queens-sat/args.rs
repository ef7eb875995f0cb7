//! Arguments shared by several commands (instance, encoding, output format) and the small
//! parsers behind them. Each turns flags into the library's own types.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::Args;
use queens_sat::encode::EncodeOptions;
use queens_sat::encode::amo::AmoKind;
use queens_sat::encode::implied::Implied;
use queens_sat::instance::{Instance, read_instance_file_piece};
use queens_sat::options::Parsed;
use queens_sat::piece::Piece;
use queens_sat::{Error, Result};

/// Report format of `encode --stats`, `solve`, `decode` and `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputFormat {
    /// Board text on stdout, summary on stderr.
    Text,
    /// One JSON object on stdout.
    Json,
    /// The board as an SVG picture on stdout (`solve` and `decode`; summary on stderr). An
    /// answer without a board draws the empty instance, captioned with the verdict.
    Svg,
}

/// How the user names an instance: `-n N` or `--instance FILE`.
#[derive(Args, Clone, Debug)]
pub struct InstanceArgs {
    /// Board side of a plain board (1..=65536).
    #[arg(short = 'n', conflicts_with = "instance")]
    pub n: Option<u32>,
    /// Instance file: board text, csplib param file, or excluded-diagonals file.
    #[arg(long, value_name = "FILE")]
    pub instance: Option<PathBuf>,
    /// Take only the first D excluded diagonals of an excluded-diagonals file.
    #[arg(long, value_name = "D")]
    pub diags: Option<usize>,
    /// Piece: queen or amazon (default: the instance file's `# piece:` header, else queen;
    /// a piece that differs from the header's is refused).
    #[arg(long)]
    pub piece: Option<String>,
}

impl InstanceArgs {
    /// Reads the instance and the piece.
    pub fn load(&self) -> Result<(Instance, Piece)> {
        let given = self.piece.as_deref().map(Piece::parse).transpose()?;
        match (&self.instance, self.n) {
            (Some(path), _) => read_instance_file_piece(path, self.diags, given),
            (None, Some(n)) => {
                if self.diags.is_some() {
                    return Err(Error::Usage("--diags needs an --instance file".into()));
                }
                let instance = Instance::plain(queens_sat::options::side(i64::from(n))?);
                Ok((instance, given.unwrap_or(queens_sat::piece::QUEEN)))
            }
            (None, None) => Err(Error::Usage("give -n N or --instance FILE".into())),
        }
    }

    /// The instance file's stem, for default output names.
    pub fn stem(&self) -> Option<String> {
        self.instance
            .as_ref()
            .and_then(|p| p.file_stem())
            .map(|s| s.to_string_lossy().into_owned())
    }

    /// The instance file as given, for headers.
    pub fn name(&self) -> Option<String> {
        self.instance.as_ref().map(|p| p.display().to_string())
    }
}

/// How to encode: `--amo`, presolve, symmetry constraints.
#[derive(Args, Clone, Debug)]
pub struct EncodingArgs {
    /// `None` when not given (the default, [`AmoKind::DEFAULT`]): `encode --to opb` refuses
    /// an `--amo` it would not use ([`queens_sat::applies`]).
    #[arg(long, value_name = "AMO", help = amo_help())]
    pub amo: Option<String>,
    /// Keep the full n*n encoding with unit clauses instead of presolving.
    #[arg(long)]
    pub no_presolve: bool,
    /// Only boards this symmetry maps to themselves: r90, r180, r270, flip_h, flip_v, flip_d,
    /// flip_a (CNF equivalences between each cell and its image).
    #[arg(long, value_name = "ELEMENT")]
    pub symmetric: Option<String>,
    /// `lex`: lex-leader constraints keep one board per class modulo the instance's symmetries
    /// (with --symmetric g: those that map <g> onto itself, see `count --help`).
    /// `none`: no symmetry handling at all (by default the default strategy's cube solver
    /// searches modulo the symmetries of excluded-diagonal instances, reporting any board it
    /// finds). `cubes`: that on every instance kind (blocked and completion too).
    #[arg(long, value_name = "METHOD")]
    pub break_symmetry: Option<String>,
    /// Redundant constraints every solution satisfies: `sums` (the used diagonals' keys add up
    /// to n(n-1), one BDD per diagonal kind) or `none`. Default: `sums` in the default
    /// strategy's cube solver, `none` everywhere else.
    #[arg(long, value_name = "WHICH")]
    pub implied: Option<String>,
}

/// `--amo`'s help: the registry's list and the default.
fn amo_help() -> String {
    format!(
        "{}\n[default: {}; DIMACS only (other formats take only the default)]",
        AmoKind::help(),
        AmoKind::DEFAULT.name()
    )
}

impl EncodingArgs {
    /// For the commands that do not pass `--implied` on (`count`, `split`): a usage error
    /// unless it is absent or `none`, so it is never silently ignored.
    pub fn reject_implied(&self, command: &str) -> Result<()> {
        match self.implied.as_deref().map(Implied::parse).transpose()? {
            None | Some(Implied::None) => Ok(()),
            Some(other) => Err(Error::Usage(format!(
                "{command} does not take --implied {}: implied constraints change no count, only solve times (use it with solve or encode)",
                other.name()
            ))),
        }
    }

    /// The library's vocabulary ([`queens_sat::options::Encoding`]) for these flags.
    fn encoding(&self) -> queens_sat::options::Encoding<'_> {
        queens_sat::options::Encoding {
            amo: self.amo.as_deref(),
            implied: self.implied.as_deref(),
            symmetric: self.symmetric.as_deref(),
            break_symmetry: self.break_symmetry.as_deref(),
        }
    }

    /// Validates the names for `instance` and `piece` (`solve` also takes `--break-symmetry
    /// cubes`, for its default strategy).
    pub fn parse(&self, instance: &Instance, piece: &Piece, for_solve: bool) -> Result<Parsed> {
        self.encoding().parse(instance, piece, for_solve)
    }

    /// The encoding options of a command other than `solve`.
    pub fn options(&self, instance: &Instance, piece: &Piece) -> Result<EncodeOptions> {
        Ok(self.parse(instance, piece, false)?.options)
    }
}

/// Validates `--timeout SECS`: `inf` is no limit (`None`); the library's one rule
/// ([`queens_sat::options::time_limit`]).
pub fn parse_timeout(secs: f64) -> Result<Option<Duration>> {
    queens_sat::options::time_limit(secs)
}

/// `--jobs J`, defaulting to every core; 0 is refused, as in the library and Python
/// ([`queens_sat::options::jobs`]).
pub fn jobs_or_all_cores(jobs: Option<usize>) -> Result<usize> {
    queens_sat::options::jobs(jobs)
}

/// Writes `text` to stdout (`None` or `-`) or atomically to a file.
pub fn emit(text: &str, output: Option<&str>) -> Result<()> {
    match output {
        None | Some("-") => {
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes())
                .and_then(|()| out.flush())
                .map_err(|e| Error::io("<stdout>", e))
        }
        Some(path) => queens_sat::atomic_file::write_text_atomic(Path::new(path), text),
    }
}

/// Prints one JSON record on stdout.
pub fn print_json<T: serde::Serialize>(record: &T) {
    println!(
        "{}",
        serde_json::to_string(record).expect("report records serialise")
    );
}
