//! `queens-sat decode`: rebuild and verify a board from any solver's answer, using only the
//! header of the file it solved (DIMACS, OPB, LP or MiniZinc, told apart by the header).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use queens_sat::encode::Stats;
use queens_sat::export::decode_answer_file;
use queens_sat::export::header::read_header;
use queens_sat::solve::Answer;
use queens_sat::verify::{verify, verify_lex_leader, verify_symmetric};
use queens_sat::{Error, Result};

use crate::args::OutputFormat;
use crate::solve::{Reported, print_answer};

/// Arguments of `decode`.
#[derive(Args)]
pub struct DecodeArgs {
    /// The file written by `queens-sat encode`: DIMACS, or `--to opb|lp|mzn` (read by its header).
    #[arg(long, visible_alias = "file", value_name = "FILE")]
    cnf: PathBuf,
    /// The solver's output: for DIMACS SAT-competition `s`/`v` lines or a minisat result file;
    /// for OPB PB-competition `s`/`v` lines (clasp); for LP CBC's solution file (`cbc F.lp solve
    /// solu OUT`); for MiniZinc its default output.
    #[arg(long, value_name = "OUTPUT")]
    model: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: OutputFormat,
}

/// Runs `decode`.
pub fn run(a: DecodeArgs) -> Result<ExitCode> {
    let name = a.cnf.display().to_string();
    let file = std::fs::File::open(&a.cnf).map_err(|e| Error::io(&name, e))?;
    let header = read_header(&name, std::io::BufReader::new(file))?;
    let board = decode_answer_file(&header, &a.model)?;
    if let Answer::Sat(b) = &board {
        // The instance, and what the header says the CNF also demanded.
        verify(b, &header.instance, header.piece)
            .and_then(|()| match header.symmetric {
                Some(g) => verify_symmetric(b, g),
                None => Ok(()),
            })
            .and_then(|()| verify_lex_leader(b, &header.lex_leader))
            .map_err(|why| {
                Error::Solver(format!(
                    "the model in {} is not a solution: {why}",
                    a.model.display()
                ))
            })?;
    }
    let what = Reported {
        instance: &header.instance,
        piece: header.piece,
        amo: &header.amo,
        solver: "external",
        stats: Stats {
            vars: header.num_vars,
            clauses: header.num_clauses,
            ..Stats::default()
        },
        seconds: (0.0, 0.0),
        certificate: None,
    };
    Ok(print_answer(&board, &what, a.format))
}
