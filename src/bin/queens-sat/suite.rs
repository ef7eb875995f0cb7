//! `queens-sat suite`: a benchmark suite from a recipe (cnf-out/NAME/*.cnf and manifest.csv),
//! optionally solved and plotted.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use queens_sat::Result;
use queens_sat::applies::{self, Given};
use queens_sat::compress::Codec;
use queens_sat::error::Opt;
use queens_sat::solve::registry;
use queens_sat::suite::SolveWith;
use queens_sat::suite::pack::{self, PackOptions};
use queens_sat::suite::select::{self, SelectOptions};

use crate::args::{jobs_or_all_cores, parse_timeout};

/// Arguments of `suite`.
#[derive(Args)]
#[command(group(clap::ArgGroup::new("solving").args(["solve", "select"]).multiple(true)))]
pub struct SuiteArgs {
    /// The recipe, e.g. encodings/queens-amo.suite (format in encodings/README.md).
    recipe: PathBuf,
    /// Output folder (default cnf-out/NAME).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Solve every instance and record status and seconds (models are verified).
    #[arg(long)]
    solve: bool,
    /// Keep the instances a budget solver (--budget-solver, MiniSat) does not decide within
    /// --budget-limit and --solver decides within --timeout (default 3600 here), up to
    /// --per-family per family, SAT and UNSAT balanced; resumable (selection.jsonl).
    #[arg(long)]
    select: bool,
    /// With --select: the budget solver, a name on PATH or a path (default minisat).
    #[arg(long, value_name = "SOLVER")]
    budget_solver: Option<String>,
    /// With --select: the budget solver's limit per instance, seconds (default 60).
    #[arg(long, value_name = "SECS")]
    budget_limit: Option<f64>,
    /// With --select: instances kept per family (default 20).
    #[arg(long, value_name = "K")]
    per_family: Option<usize>,
    /// With --select: keep at most N instances over the whole selection, SAT and UNSAT balanced
    /// over the whole selection instead of within each family (each family still keeps at most
    /// --per-family); trimmed from the families that keep the most.
    #[arg(long, value_name = "N")]
    total: Option<usize>,
    /// With --select: select by this model counter's time instead (a name on PATH or a path;
    /// it prints `c s exact arb int N` or `s mc N`): counted under --budget-limit is easy,
    /// within --timeout passes; the exact count goes to the manifest.
    #[arg(long, value_name = "COUNTER")]
    counter: Option<String>,
    /// With --select: the seed of the draw within each family (default 0).
    #[arg(long, value_name = "SEED")]
    select_seed: Option<u64>,
    /// Solver for --solve, and --select's reference solver, as for `solve` (default `auto`, the
    /// default strategy).
    #[arg(long, default_value = "auto", requires = "solving", help = registry::help())]
    solver: String,
    /// Time limit per instance for --solve and --select's reference solver (UNKNOWN when
    /// reached; default: none for --solve, 3600 for --select).
    #[arg(long, value_name = "SECS", requires = "solving")]
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
    #[arg(long, requires = "solving")]
    certify: bool,
    /// With --solve or --select (the kept instances): write a submission pack to DIR: every
    /// instance as NAME-GBDHASH.cnf.xz, instances.csv / .json, DESCRIPTION.md,
    /// description.html / .tex (IEEE Proceedings; .pdf when tectonic or pdflatex is on PATH),
    /// phase.svg, cactus.svg.
    #[arg(long, value_name = "DIR", requires = "solving")]
    pack: Option<PathBuf>,
    /// With --pack: the author named in the description (default: the recipe's `author`).
    #[arg(long, value_name = "TEXT", requires = "pack")]
    author: Option<String>,
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
    applies::check(
        applies::Command::Suite,
        &Given::new()
            .switch_if(Opt::Select, a.select)
            .switch_if(Opt::Solve, a.solve)
            .maybe(Opt::PerFamily, a.per_family.map(|k| k.to_string()))
            .maybe(Opt::Total, a.total.map(|k| k.to_string()))
            .maybe(Opt::BudgetSolver, a.budget_solver.clone())
            .maybe(Opt::BudgetLimit, a.budget_limit.map(|s| s.to_string()))
            .maybe(Opt::SelectSeed, a.select_seed.map(|s| s.to_string()))
            .maybe(Opt::Counter, a.counter.clone()),
    )?;
    let timeout = match (a.timeout, a.select) {
        (None, true) => Some(select::DEFAULT_REFERENCE_LIMIT),
        (t, _) => t.map(parse_timeout).transpose()?.flatten(),
    };
    let select = match a.select {
        true => Some(SelectOptions::from_flags(
            a.counter.as_deref(),
            a.budget_solver.as_deref(),
            a.budget_limit,
            a.per_family,
            a.select_seed,
            a.total,
        )?),
        false => None,
    };
    let solve = match a.solve || a.select {
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
            command: pack::shell_command(
                std::iter::once("queens-sat".to_string()).chain(std::env::args().skip(1)),
            ),
            author: a.author.clone(),
        }),
        None => None,
    };
    let options = queens_sat::suite::Options {
        compress,
        level: compress.level(a.level)?,
        pack,
        out_dir: a.out,
        solve,
        select,
        jobs: jobs_or_all_cores(a.jobs)?,
        plot: a.plot.clone(),
        force: a.force,
        progress: true,
        cancel: crate::cancel().clone(),
    };
    let s = queens_sat::suite::run(&a.recipe, &options)?;
    eprint!("{}", s.text(&options));
    Ok(ExitCode::SUCCESS)
}
