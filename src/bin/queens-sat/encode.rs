//! `queens-sat encode`: write the DIMACS CNF of an instance (or its OPB, LP or MiniZinc model,
//! `--to`), or only its size (`--stats`).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use queens_sat::applies::{Command, Given, check};
use queens_sat::compress::Codec;
use queens_sat::error::Opt;
use queens_sat::export::dimacs::Output;
use queens_sat::export::{self, Format, WriteOptions};
use queens_sat::presolve::Problem;
use queens_sat::report::{StatsRecord, WriteRecord};
use queens_sat::{Error, Result};

use crate::args::{EncodingArgs, InstanceArgs, OutputFormat, print_json};

/// Arguments of `encode`.
#[derive(Args)]
pub struct EncodeArgs {
    #[command(flatten)]
    inst: InstanceArgs,
    #[command(flatten)]
    enc: EncodingArgs,
    /// Output path; `-` for stdout.
    #[arg(short = 'o', long = "output", value_name = "PATH")]
    output: Option<String>,
    /// Print variable, clause and literal counts without writing a file (for --to opb/lp/mzn:
    /// variables, constraints and terms).
    #[arg(long)]
    stats: bool,
    /// Output format (the registry's list, [`Format::help`]).
    #[arg(long, value_name = "FORMAT", default_value = Format::DEFAULT.name(), help = Format::help())]
    to: String,
    /// Report format (json: the size, or after writing a file, a record with its GBD hash).
    #[arg(long, value_enum, default_value = "text")]
    format: OutputFormat,
    /// Compression level of a compressed output (`-o FILE.cnf.xz`, `.gz`, `.zst`, told by the
    /// name): xz 0-9 (default 1), gz 0-9 (default 6), zst 1-19 (default 3).
    #[arg(long, value_name = "N")]
    level: Option<u32>,
    /// Compute the GBD hash of the DIMACS text while writing (on other threads) and report it.
    #[arg(long)]
    gbdhash: bool,
}

/// Runs `encode`.
pub fn run(a: EncodeArgs) -> Result<ExitCode> {
    if a.format == OutputFormat::Svg {
        return Err(Error::Usage(
            "--format svg draws boards: it is for solve and decode".into(),
        ));
    }
    let format = Format::parse(&a.to)?;
    check(
        Command::Encode,
        &Given::new()
            .maybe(Opt::Output, a.output.as_deref())
            .switch_if(Opt::Stats, a.stats)
            .maybe(Opt::Level, a.level.map(|l| l.to_string()))
            .switch_if(Opt::Gbdhash, a.gbdhash)
            .value(Opt::To, format.name())
            .maybe(Opt::Amo, a.enc.amo.as_deref()),
    )?;
    let (instance, piece) = a.inst.load()?;
    let options = a.enc.options(&instance, &piece)?;
    let amo = options.amo;
    let problem = Problem::new(&instance, piece, !a.enc.no_presolve)?;
    if a.stats {
        let record = StatsRecord {
            n: instance.n,
            piece: piece.name.into(),
            amo: amo.name(),
            stats: export::stats(format, &problem, options)?,
            cell_vars: problem.num_cells(),
            unsat: problem.unsat.clone(),
        };
        match a.format {
            OutputFormat::Json => print_json(&record),
            OutputFormat::Text | OutputFormat::Svg => print!("{}", record.text(format)),
        }
        return Ok(ExitCode::SUCCESS);
    }
    let out = match a.output.as_deref() {
        Some("-") => Output::Stdout,
        Some(path) => Output::File(PathBuf::from(path)),
        None => {
            let dir = PathBuf::from("cnf-out");
            std::fs::create_dir_all(&dir).map_err(|e| Error::io("cnf-out", e))?;
            // Anything given besides side, piece, encoding and symmetry shapes the formula.
            let shaped = a.inst.instance.is_some()
                || a.inst.diags.is_some()
                || a.enc.break_symmetry.is_some()
                || a.enc.implied.is_some();
            let presolve = !a.enc.no_presolve;
            let stem = a.inst.stem();
            let name = export::default_name(
                &instance,
                piece.name,
                format,
                options,
                presolve,
                stem.as_deref(),
                shaped,
            );
            Output::File(dir.join(name))
        }
    };
    if let Some(why) = &problem.unsat {
        // What is written is presolve's fixed contradiction, not the instance's encoding.
        eprintln!(
            "note: presolve refuted the instance ({why}): the formula is a fixed contradiction \
             over one variable; --no-presolve writes the full encoding"
        );
    }
    let codec = match &out {
        Output::File(path) => Codec::for_output(path)?,
        Output::Stdout => Codec::Plain,
    };
    if matches!(out, Output::Stdout) && a.format == OutputFormat::Json {
        return Err(Error::Usage(
            "--format json reports a written file: give -o FILE (stdout has the CNF)".into(),
        ));
    }
    let write = WriteOptions {
        codec,
        level: codec.level(a.level)?,
        gbdhash: a.gbdhash,
    };
    let report = export::export_with(
        &out,
        format,
        &problem,
        options,
        a.inst.name().as_deref(),
        crate::cancel(),
        write,
    )?;
    if let (Output::Stdout, Some(h)) = (&out, &report.gbdhash) {
        // stdout holds the CNF: the hash goes to stderr, as the file route's summary does.
        eprintln!("gbdhash {h}");
    }
    if let Output::File(path) = &out {
        if a.format == OutputFormat::Json {
            print_json(&WriteRecord {
                path: path.display().to_string(),
                format: format.name().into(),
                n: instance.n,
                piece: piece.name.into(),
                amo: amo.name(),
                stats: report.stats,
                bytes: report.bytes,
                compress: codec.name().into(),
                file_bytes: report.file_bytes,
                gbdhash: report.gbdhash.clone(),
            });
        }
        let mut extra = String::new();
        if codec != Codec::Plain {
            extra += &format!(", {} {} bytes", codec, report.file_bytes);
        }
        if let Some(h) = &report.gbdhash {
            extra += &format!(", gbdhash {h}");
        }
        eprintln!(
            "wrote {} ({} vars, {} {}, {} bytes{extra})",
            path.display(),
            report.stats.vars,
            report.stats.clauses,
            format.info().stats_names.0,
            report.bytes
        );
    }
    Ok(ExitCode::SUCCESS)
}
