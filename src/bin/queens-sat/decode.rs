//! `queens-sat decode`: rebuild and verify a board from any solver's answer, using only the
//! header of the file it solved (DIMACS, OPB, LP or MiniZinc, told apart by the header).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use queens_sat::encode::Stats;
use queens_sat::encode::amo::AmoKind;
use queens_sat::export::header::read_header_file;
use queens_sat::export::{Format, decode_answer_file};
use queens_sat::solve::Answer;
use queens_sat::solve::SolveReport;
use queens_sat::{Error, Result};

use crate::args::OutputFormat;
use crate::solve::print_answer;

/// Arguments of `decode`.
#[derive(Args)]
pub struct DecodeArgs {
    /// The file written by `queens-sat encode` ([`Format::file_help`]).
    #[arg(long, visible_alias = "file", value_name = "FILE", help = Format::file_help())]
    cnf: PathBuf,
    /// The solver's output, in the file's format ([`Format::answer_help`]).
    #[arg(long, value_name = "OUTPUT", help = Format::answer_help())]
    model: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: OutputFormat,
}

/// Runs `decode`.
pub fn run(a: DecodeArgs) -> Result<ExitCode> {
    let header = read_header_file(&a.cnf)?;
    let board = decode_answer_file(&header, &a.model)?;
    if let Answer::Sat(b) = &board {
        // The instance, and what the header says the CNF also demanded.
        // Not a solver's fault: the model and the file's header disagree (a model of another
        // file, or a header changed by hand).
        header.accept(b).map_err(|why| {
            Error::Usage(format!(
                "the model in {} is not a solution of {}: {why} (a model of another file, or a \
                 changed header?)",
                queens_sat::compress::input_name(&a.model),
                queens_sat::compress::input_name(&a.cnf)
            ))
        })?;
    }
    let stats = Stats {
        vars: header.num_vars,
        clauses: header.num_clauses,
        ..Stats::default()
    };
    let report = SolveReport {
        amo: header.amo.clone(),
        ..SolveReport::new(board, stats, "external", AmoKind::DEFAULT)
    };
    Ok(print_answer(
        &report,
        &header.instance,
        header.piece,
        a.format,
    ))
}
