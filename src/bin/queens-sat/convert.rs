//! `queens-sat convert`: rewrite an instance as board text or parameter file, or reduce excluded
//! diagonals to n-queens completion (Gent, Jefferson, Nightingale 2017).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use queens_sat::generate::reduction::diagonals_to_completion;
use queens_sat::instance::write::{write as write_instance, write_piece};
use queens_sat::instance::{InstanceFormat, read_instance_file_header};
use queens_sat::piece::QUEEN;
use queens_sat::{Error, Result};

use crate::args::emit;

/// Arguments of `convert`.
#[derive(Args)]
pub struct ConvertArgs {
    /// Instance file: board text, csplib param file, or excluded-diagonals file.
    #[arg(long, value_name = "FILE")]
    instance: PathBuf,
    /// Take only the first D excluded diagonals of an excluded-diagonals file.
    #[arg(long, value_name = "D")]
    diags: Option<usize>,
    /// Output: board, param, or completion (a parameter file; queens only).
    #[arg(long, value_enum)]
    to: ConvertTarget,
    /// Output file (written atomically); `-` or none for stdout.
    #[arg(short = 'o', long = "output", value_name = "PATH")]
    output: Option<String>,
}

/// What `convert` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum ConvertTarget {
    /// Board text (excluded diagonals become blocked cells).
    Board,
    /// csplib parameter file (excluded diagonals become blocked cells).
    Param,
    /// The n-queens completion instance of the Gent-Jefferson-Nightingale reduction, as a
    /// parameter file.
    Completion,
}

/// Runs `convert`.
pub fn run(a: ConvertArgs) -> Result<ExitCode> {
    // The source's `# piece:` header, if any, goes with it (the completion reduction is of
    // queens and refuses another piece).
    let (source, piece) = read_instance_file_header(&a.instance, a.diags)?;
    let mut command = format!("convert --instance {}", a.instance.display());
    if let Some(d) = a.diags {
        command += &format!(" --diags {d}");
    }
    let version = env!("CARGO_PKG_VERSION");
    let text = match a.to {
        ConvertTarget::Board | ConvertTarget::Param => {
            let format = if a.to == ConvertTarget::Board {
                InstanceFormat::Board
            } else {
                InstanceFormat::Param
            };
            let name = format.name();
            let comment = format!("queens-sat {version} {command} --to {name}");
            write_piece(&source, format, &comment, piece.unwrap_or(QUEEN))?
        }
        ConvertTarget::Completion => {
            if let Some(p) = piece.filter(|p| p.name != QUEEN.name) {
                return Err(Error::Usage(format!(
                    "--to completion reduces a queens instance; {} names the {}",
                    a.instance.display(),
                    p.name
                )));
            }
            let red = diagonals_to_completion(&source)?;
            let free = red.instance.n as usize - red.instance.placed.len();
            let comment = format!(
                "queens-sat {version} {command} --to completion\n\
                 n-queens completion reduction of Gent, Jefferson, Nightingale (JAIR 2017), csplib prob079 diagtoqueens.py\n\
                 queens only; source cell (r,c) is cell (r+{},c) here; {free} queens left to place",
                red.row_offset
            );
            eprintln!(
                "converted n = {} to n = {}: {} pre-placed, {free} to place; source (r,c) = (r+{},c)",
                source.n,
                red.instance.n,
                red.instance.placed.len(),
                red.row_offset
            );
            write_instance(&red.instance, InstanceFormat::Param, &comment)?
        }
    };
    emit(&text, a.output.as_deref())?;
    Ok(ExitCode::SUCCESS)
}
