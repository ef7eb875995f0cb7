//! `queens-sat verify`: check a complete board; exit 0 if valid, 1 with the first violation.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use queens_sat::applies::{self, Command, Given};
use queens_sat::board::Board;
use queens_sat::error::Opt;
use queens_sat::instance::{Instance, agree, read_instance_file_header};
use queens_sat::piece::{Piece, QUEEN};
use queens_sat::report::{VerifyRecord, verdict_svg};
use queens_sat::verify::check;

use crate::args::OutputFormat;
use queens_sat::{Error, Result};

/// Arguments of `verify`.
#[derive(Args)]
pub struct VerifyArgs {
    /// Board text file (`Q` pieces, `.` free, `x` blocked).
    board: PathBuf,
    /// Piece: queen or amazon (default: the `# piece:` header of the instance file, else of
    /// the board file, else queen; a piece that differs from a header's is refused).
    #[arg(long)]
    piece: Option<String>,
    /// Instance the board must solve (pre-placed pieces, blocked cells).
    #[arg(long, value_name = "FILE")]
    instance: Option<PathBuf>,
    /// Take only the first D excluded diagonals of the instance.
    #[arg(long, value_name = "D")]
    diags: Option<usize>,
    /// `text` (the verdict on stderr); `json`: also one JSON object on stdout (`valid`, `n`,
    /// `piece`, `pieces`, `violation`, the violation's `cells` as [row, col]); `svg`: also the
    /// board as a picture on stdout, with the first violation drawn (a red line between two
    /// attacking pieces).
    #[arg(long, value_enum, default_value = "text")]
    format: OutputFormat,
}

/// Runs `verify`.
pub fn run(a: VerifyArgs) -> Result<ExitCode> {
    applies::check(
        Command::Verify,
        &Given::new()
            .maybe(Opt::Diags, a.diags.map(|d| d.to_string()))
            .maybe(
                Opt::Instance,
                a.instance.as_ref().map(|p| p.display().to_string()),
            ),
    )?;
    // The piece: --piece, else the instance file's header, else the board file's, else the
    // queen; any two of them that name different pieces are refused.
    let given = a.piece.as_deref().map(Piece::parse).transpose()?;
    let (drawn, board_header) = read_instance_file_header(&a.board, None)?;
    let (instance, piece) = match &a.instance {
        Some(p) => {
            let (instance, header) = read_instance_file_header(p, a.diags)?;
            let piece = agree(&p.display().to_string(), given, header)?;
            (instance, piece)
        }
        None => (
            Instance {
                n: drawn.n,
                blocked: drawn.blocked.clone(),
                ..Instance::default()
            },
            given,
        ),
    };
    let piece = agree(&a.board.display().to_string(), piece, board_header)?.unwrap_or(QUEEN);
    let b = Board::new(drawn.n, drawn.placed);
    let verdict = check(&b, &instance, piece);
    match a.format {
        OutputFormat::Json => {
            crate::args::print_json(&VerifyRecord::of(&b, piece, &verdict));
        }
        OutputFormat::Svg => print!("{}", verdict_svg(&b, &instance, piece, &verdict)),
        OutputFormat::Text => {}
    }
    match verdict.map_err(|v| v.message) {
        Ok(()) => {
            eprintln!(
                "valid: {} {}s on {}x{}",
                b.pieces.len(),
                piece.name,
                b.n,
                b.n
            );
            Ok(ExitCode::SUCCESS)
        }
        Err(why) => Err(Error::Usage(format!(
            "{}: invalid: {why}",
            queens_sat::compress::input_name(&a.board)
        ))),
    }
}
