//! `queens-sat generate KIND`: one random instance (csplib prob079 / prob080 procedures, seeded
//! ChaCha8); the same command gives the same bytes on every run and machine.

use clap::builder::{PossibleValuesParser, TypedValueParser};
use std::process::ExitCode;

use clap::{Args, Subcommand};
use queens_sat::Result;
use queens_sat::generate::Generator;
use queens_sat::instance::InstanceFormat;
use queens_sat::instance::write::write as write_instance;

use crate::args::emit;

/// Arguments of `generate`.
#[derive(Args)]
pub struct GenerateArgs {
    #[command(subcommand)]
    kind: GenerateKind,
}

#[derive(Args)]
struct GenerateOutput {
    /// Seed of the ChaCha8 generator.
    #[arg(long)]
    seed: u64,
    /// Output file (written atomically); `-` or none for stdout.
    #[arg(short = 'o', long = "output", value_name = "PATH")]
    output: Option<String>,
}

#[derive(Subcommand)]
enum GenerateKind {
    /// M non-attacking pre-placed queens (prob079 queens-gen-fast.py).
    Completion {
        /// Board side.
        #[arg(short = 'n')]
        n: u32,
        /// Pre-placed queens.
        #[arg(short = 'm')]
        m: u32,
        #[command(flatten)]
        out: GenerateOutput,
        /// Instance format (param: init 0-based).
        #[arg(long, default_value = "param", value_parser = instance_format())]
        format: InstanceFormat,
    },
    /// M blocked cells, at least K free cells in every row and column (prob080 blocked-gen.py).
    Blocked {
        /// Board side.
        #[arg(short = 'n')]
        n: u32,
        /// Blocked cells.
        #[arg(short = 'm')]
        m: u32,
        /// Free cells kept in every row and column.
        #[arg(long, value_name = "K")]
        min_free: u32,
        #[command(flatten)]
        out: GenerateOutput,
        /// Instance format (param: blocks 1-based).
        #[arg(long, default_value = "param", value_parser = instance_format())]
        format: InstanceFormat,
    },
    /// An ordered list of excluded diagonals, written as an excluded-diagonals file; its
    /// prefixes are the instances (`--diags D`) (prob079 queens-diag-gen.py).
    Diagonals {
        /// Board side.
        #[arg(short = 'n')]
        n: u32,
        /// Free cells kept in every row and column.
        #[arg(long, value_name = "K")]
        min_free: u32,
        #[command(flatten)]
        out: GenerateOutput,
    },
}

/// `--format`: the library's instance formats that a generated board can be written in
/// (board text or a parameter file; the excluded-diagonals format holds no board), by the
/// library's names.
fn instance_format() -> impl TypedValueParser<Value = InstanceFormat> {
    let writable = [InstanceFormat::Board, InstanceFormat::Param].map(InstanceFormat::name);
    PossibleValuesParser::new(writable)
        .map(|name| InstanceFormat::parse(&name).expect("a possible value is a format"))
}

/// Runs `generate`: one instance on stdout or in the output file. The diagonals kind always
/// writes the excluded-diagonals format.
pub fn run(a: GenerateArgs) -> Result<ExitCode> {
    let (generator, n, out, format) = match a.kind {
        GenerateKind::Completion { n, m, out, format } => {
            (Generator::Completion { m }, n, out, format)
        }
        GenerateKind::Blocked {
            n,
            m,
            min_free,
            out,
            format,
        } => (Generator::Blocked { m, min_free }, n, out, format),
        GenerateKind::Diagonals { n, min_free, out } => (
            Generator::Diagonals {
                min_free,
                diags: None,
                to_completion: false,
            },
            n,
            out,
            InstanceFormat::Diags,
        ),
    };
    let seed = out.seed;
    let instance = generator.instance(n, seed)?;
    let command = match generator {
        Generator::Completion { m } => format!("completion -n {n} -m {m}"),
        Generator::Blocked { m, min_free } => {
            format!("blocked -n {n} -m {m} --min-free {min_free}")
        }
        Generator::Diagonals { min_free, .. } => format!("diagonals -n {n} --min-free {min_free}"),
        Generator::Plain => format!("plain -n {n}"),
    };
    let mut comment = format!(
        "queens-sat {} generate {command} --seed {seed} (ChaCha8 seed {seed})",
        env!("CARGO_PKG_VERSION")
    );
    if let Generator::Diagonals { .. } = generator {
        comment += "\nevery prefix is an instance: --diags D takes the first D";
    }
    let text = write_instance(&instance, format, &comment)?;
    emit(&text, out.output.as_deref())?;
    Ok(ExitCode::SUCCESS)
}
