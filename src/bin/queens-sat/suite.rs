//! `queens-sat suite`: a benchmark suite from a recipe (cnf-out/NAME/*.cnf and manifest.csv),
//! optionally solved and plotted.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use queens_sat::Result;
use queens_sat::compress::Codec;
use queens_sat::solve::registry;
use queens_sat::suite::SolveWith;
use queens_sat::suite::pack::PackOptions;

use crate::args::{jobs_or_all_cores, parse_timeout};

/// Arguments of `suite`.
#[derive(Args)]
pub struct SuiteArgs {
    /// The recipe, e.g. encodings/queens-amo.suite (format in encodings/README.md).
    recipe: PathBuf,
    /// Output folder (default cnf-out/NAME).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Solve every instance and record status and seconds (models are verified).
    #[arg(long)]
    solve: bool,
    /// Solver for --solve, as for `solve` (default `auto`, the default strategy).
    #[arg(long, default_value = "auto", requires = "solve", help = registry::help())]
    solver: String,
    /// Time limit per instance for --solve (UNKNOWN when reached).
    #[arg(long, value_name = "SECS", requires = "solve")]
    timeout: Option<f64>,
    /// Worker threads for writing and solving (default: all cores).
    #[arg(long, value_name = "J")]
    jobs: Option<usize>,
    /// Draw P(satisfiable) and median solve time per family to this SVG file.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
    /// Regenerate and re-solve every file, even when its sha256 matches the manifest.
    #[arg(long)]
    force: bool,
    /// Compress the CNF files: `xz` (FILE.cnf.xz, as the SAT Competition and GBD keep
    /// benchmarks), `gz`, `zst`, or `none`.
    #[arg(long, value_name = "CODEC", default_value = "none")]
    compress: String,
    /// Compression level (xz 0-9, default 1; gz 0-9, default 6; zst 1-19, default 3); also
    /// the xz level of --pack.
    #[arg(long, value_name = "N")]
    level: Option<u32>,
    /// With --solve: accept UNSAT only with a checked refutation (as `solve --certify`), and
    /// record it in the manifest's `certified` column.
    #[arg(long, requires = "solve")]
    certify: bool,
    /// With --solve: write a submission pack to DIR: every instance as
    /// NAME-GBDHASH.cnf.xz, instances.csv / .json, DESCRIPTION.md, phase.svg, cactus.svg.
    #[arg(long, value_name = "DIR", requires = "solve")]
    pack: Option<PathBuf>,
    /// With --pack: a reference CDCL solver (kissat, cadical, a path) run on every packed
    /// file, to grade hardness as benchmark tracks do.
    #[arg(long, value_name = "SOLVER", requires = "pack")]
    reference: Option<String>,
    /// With --reference: its time limit per instance, seconds.
    #[arg(
        long,
        value_name = "SECS",
        default_value = "60",
        requires = "reference"
    )]
    reference_timeout: f64,
}

/// Runs `suite`.
pub fn run(a: SuiteArgs) -> Result<ExitCode> {
    let timeout = a.timeout.map(parse_timeout).transpose()?.flatten();
    let solve = match a.solve {
        true => Some(SolveWith {
            certify: a.certify,
            ..SolveWith::new(&a.solver, timeout)?
        }),
        false => None,
    };
    let compress = Codec::parse(&a.compress)?;
    let pack = match &a.pack {
        Some(dir) => Some(PackOptions {
            dir: dir.clone(),
            reference: a.reference.clone(),
            reference_timeout: queens_sat::options::timeout(a.reference_timeout)?,
            level: Codec::Xz.level(a.level)?,
            command: std::iter::once("queens-sat".to_string())
                .chain(std::env::args().skip(1))
                .map(|w| {
                    if w.chars()
                        .all(|c| c.is_ascii_alphanumeric() || "-_./=,:".contains(c))
                    {
                        w
                    } else {
                        format!("'{}'", w.replace('\'', r"'\''"))
                    }
                })
                .collect::<Vec<_>>()
                .join(" "),
        }),
        None => None,
    };
    let options = queens_sat::suite::Options {
        compress,
        level: compress.level(a.level)?,
        pack,
        out_dir: a.out,
        solve,
        jobs: jobs_or_all_cores(a.jobs)?,
        plot: a.plot.clone(),
        force: a.force,
        progress: true,
        cancel: crate::cancel().clone(),
    };
    let s = queens_sat::suite::run(&a.recipe, &options)?;
    eprintln!(
        "{}: {} files, {} bytes; wrote {} ({} bytes) in {:.2}s, kept {} (sha256 unchanged)",
        s.out_dir.display(),
        s.files,
        s.bytes,
        s.written,
        s.bytes_written,
        s.write_seconds,
        s.skipped
    );
    if s.presolved + s.duplicates > 0 {
        eprintln!(
            "not written: {} decided by presolve, {} duplicates (listed in the manifest's \
             skipped column)",
            s.presolved, s.duplicates
        );
    }
    if options.solve.is_some() {
        eprintln!(
            "solved {} in {:.2}s; SAT {} UNSAT {} UNKNOWN {}",
            s.solved, s.solve_seconds, s.statuses[0], s.statuses[1], s.statuses[2]
        );
    }
    if let Some(p) = a.plot {
        eprintln!("plot {}", p.display());
    }
    if let Some(dir) = &a.pack {
        eprintln!("pack {}: {} instances", dir.display(), s.packed);
    }
    Ok(ExitCode::SUCCESS)
}
