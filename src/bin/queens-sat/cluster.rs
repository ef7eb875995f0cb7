//! `queens-sat split`, `work` and `merge`: cube-and-conquer jobs for Slurm, GNU parallel or a
//! shell loop (the library's `cluster` module does the work).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Subcommand};
use queens_sat::certify::ProofFormat;
use queens_sat::cluster::merge::{MergeOutput, merge_until, status};
use queens_sat::cluster::source::CubeSource;
use queens_sat::cluster::split::{SlurmOptions, SplitOptions, cube_engine, split};
use queens_sat::cluster::task::{task_number, work};
use queens_sat::cluster::{Folder, Kind};
use queens_sat::{Error, Result};

use crate::args::{EncodingArgs, InstanceArgs, OutputFormat};

/// Arguments of `split`.
#[derive(Args)]
pub struct SplitArgs {
    #[command(subcommand)]
    what: SplitWhat,
}

#[derive(Subcommand)]
enum SplitWhat {
    /// Split a count: border-first cubes merged by symmetry, plus one fixed-point line per
    /// symmetry of the instance.
    Count(SplitCountArgs),
    /// Split a solve: subtrees of the bitboard search's tree (where the default strategy splits
    /// it: excluded diagonals and completions, queens and amazons, cores up to 128 rows) or
    /// look-ahead cubes, as `solve --cubes` (elsewhere).
    Solve(SplitSolveArgs),
}

/// Options every split takes: where, how many tasks, Slurm resources.
#[derive(Args)]
struct JobArgs {
    /// The job folder to write (must not exist, or be empty).
    #[arg(short = 'o', long = "output", value_name = "DIR")]
    output: PathBuf,
    /// Number of tasks (Slurm array tasks / parallel jobs), balanced by estimated work.
    #[arg(long, value_name = "T", default_value_t = 16)]
    tasks: usize,
    /// Number of cubes to aim for (count: at least, default 64 per task, in whole rings of
    /// border lines, but no ring that would make over 16 times that or 2^20 cubes; solve: at
    /// most for look-ahead cubes, about for bitboard cubes, default 16 per task).
    #[arg(long, value_name = "K")]
    cubes: Option<usize>,
    /// Slurm: `#SBATCH --time` of each array task (default: the partition's).
    #[arg(long, value_name = "TIME")]
    time: Option<String>,
    /// Slurm: `#SBATCH --mem` of each array task (default: the partition's).
    #[arg(long, value_name = "MEM")]
    mem: Option<String>,
    /// Slurm: `#SBATCH --partition`.
    #[arg(long, value_name = "NAME")]
    partition: Option<String>,
    /// Slurm: `#SBATCH --cpus-per-task`, the threads of each task.
    #[arg(long, value_name = "C", default_value_t = 1)]
    cpus_per_task: usize,
}

/// Arguments of `split count`.
#[derive(Args)]
struct SplitCountArgs {
    #[command(flatten)]
    inst: InstanceArgs,
    #[command(flatten)]
    enc: EncodingArgs,
    /// CountEngine of each cube: auto (the default: backtrack, the fastest, where it can count the
    /// instance, as `count`'s auto; else sat, and sat with --symmetric), sat, cdcl or backtrack.
    #[arg(long, default_value = "auto", value_parser = crate::count::engine_choice_parser())]
    engine: crate::count::EngineChoice,
    #[command(flatten)]
    job: JobArgs,
}

/// Arguments of `split solve`.
#[derive(Args)]
struct SplitSolveArgs {
    #[command(flatten)]
    inst: InstanceArgs,
    #[command(flatten)]
    enc: EncodingArgs,
    /// Where the cubes come from: `bitboard`, subtrees of the bitboard search's own tree
    /// (balanced by Knuth's estimate of each subtree's nodes; subtrees its bounds refute are
    /// left out), or `lookahead`, look-ahead cubes of the CNF. Default: bitboard where the
    /// default strategy splits the bitboard search (excluded diagonals and completions,
    /// queens or amazons, cores of up to 128 open rows at any n), lookahead elsewhere.
    #[arg(long, value_name = "SOURCE")]
    cubes_from: Option<String>,
    /// Solver of each cube, as `solve --solver` (default: `bitboard` for bitboard cubes, the
    /// library's default strategy `auto` for look-ahead cubes).
    #[arg(long)]
    solver: Option<String>,
    /// Time limit per cube (seconds); a cube that reaches it leaves the job UNKNOWN.
    #[arg(long, value_name = "SECS")]
    timeout: Option<f64>,
    /// An UNSAT made of checked proofs: the split proves that its cubes cover the instance
    /// (coverage.lrat, CaDiCaL's LRAT refutation, checked), the bitboard search solves each
    /// cube and keeps its checked proof (proofs/L.lrat or .pbp), and merge checks them all
    /// again, refusing a missing or failing one.
    #[arg(long)]
    certify: bool,
    /// With `--certify`: the cubes' proof format, `lrat` (over the pairwise CNF) or `veripb`
    /// (over the OPB model, with the search's sum bounds). Default: lrat.
    #[arg(long, value_name = "FORMAT", requires = "certify")]
    proof_format: Option<String>,
    #[command(flatten)]
    job: JobArgs,
}

/// Runs `split`.
pub fn run_split(a: SplitArgs) -> Result<ExitCode> {
    let command: Vec<String> = std::env::args().collect();
    let exe = std::env::current_exe().map_err(|e| Error::io("<current executable>", e))?;
    let (kind, inst, enc, job, engine, solver, timeout, cubes_from, certify) = match a.what {
        SplitWhat::Count(c) => (
            Kind::Count,
            c.inst,
            c.enc,
            c.job,
            c.engine.0,
            None,
            None,
            None,
            None,
        ),
        SplitWhat::Solve(s) => (
            Kind::Solve,
            s.inst,
            s.enc,
            s.job,
            None,
            s.solver,
            s.timeout,
            s.cubes_from.as_deref().map(CubeSource::parse).transpose()?,
            ProofFormat::certified(s.certify, s.proof_format.as_deref())?,
        ),
    };
    if enc.no_presolve {
        return Err(Error::Usage(
            "split always presolves its cubes; drop --no-presolve".into(),
        ));
    }
    if let Some(t) = timeout {
        crate::args::parse_timeout(t)?;
    }
    enc.reject_implied("split")?;
    let (instance, piece) = inst.load()?;
    let options = enc.options(&instance, &piece)?;
    // As `count`: `--amo` shapes only the SAT engines' CNF (checked against the engine each
    // cube runs, auto's choice included).
    let amo = enc.amo.as_deref().filter(|_| kind == Kind::Count);
    let engine = cube_engine(&instance, piece, &options, engine, amo)?;
    let cubes = job.cubes.unwrap_or(kind.default_cubes(job.tasks));
    let o = SplitOptions {
        kind,
        instance,
        piece,
        options,
        engine,
        solver,
        cubes_from,
        timeout,
        certify,
        tasks: job.tasks,
        cubes,
        slurm: SlurmOptions {
            time: job.time,
            mem: job.mem,
            partition: job.partition,
            cpus: job.cpus_per_task,
        },
        exe,
        command,
        cancel: crate::cancel().clone(),
    };
    let r = split(&job.output, &o)?;
    eprint!("{}", r.text(&job.output, job.tasks));
    Ok(ExitCode::SUCCESS)
}

/// Arguments of `work`.
#[derive(Args)]
pub struct WorkArgs {
    /// The job folder (written by `split`).
    #[arg(value_name = "DIR")]
    dir: PathBuf,
    /// The task to run (default: $SLURM_ARRAY_TASK_ID).
    #[arg(long, value_name = "I")]
    task: Option<usize>,
    /// Threads for the task's cubes (default: 1).
    #[arg(long, value_name = "J", default_value_t = 1)]
    jobs: usize,
    /// Run the task even when a valid result exists (the rewritten result is equivalent).
    #[arg(long)]
    redo: bool,
    /// Solve jobs: the time limit per cube for this run, seconds (`inf`: none), instead of the
    /// job's `--timeout`. A task whose result holds UNKNOWN cube lines (`merge --status` lists
    /// them) runs those lines again with it, keeping the other lines' answers (`--redo`: the
    /// whole task); a task without any is already done.
    #[arg(long, value_name = "SECS")]
    timeout: Option<f64>,
}

/// Runs `work`.
pub fn run_work(a: WorkArgs) -> Result<ExitCode> {
    let slurm = std::env::var("SLURM_ARRAY_TASK_ID").ok();
    let task = task_number(a.task, slurm.as_deref())?;
    let mut folder = Folder::open(&a.dir)?;
    let jobs = queens_sat::options::jobs(Some(a.jobs))?;
    let done = work(&mut folder, task, jobs, a.redo, a.timeout, crate::cancel())?;
    eprintln!("{done}");
    Ok(ExitCode::SUCCESS)
}

/// Arguments of `merge`.
#[derive(Args)]
pub struct MergeArgs {
    /// The job folder.
    #[arg(value_name = "DIR")]
    dir: PathBuf,
    /// Print progress instead: tasks done, running, failed, waiting, and an ETA.
    #[arg(long)]
    status: bool,
    /// Output format: text, or json (with `--status`: `kind`, `job_id`, `cubes`, `tasks` and
    /// `progress` with `done`, `running`, `failed`, `waiting`, `eta_core_seconds`, `problems`).
    #[arg(long, value_enum, default_value = "text")]
    format: OutputFormat,
}

/// Runs `merge`. Exit 10 when there are solutions (a count > 0, or a board), 20 when there are
/// none, 1 on missing, failed, corrupt, duplicate or foreign results, or an UNKNOWN solve.
pub fn run_merge(a: MergeArgs) -> Result<ExitCode> {
    let folder = Folder::open(&a.dir)?;
    if a.format == OutputFormat::Svg && (a.status || folder.job.kind == Kind::Count) {
        return Err(Error::Usage(format!(
            "--format svg draws a solve job's board; {} prints text or json",
            if a.status {
                "--status"
            } else {
                "merging a count job"
            }
        )));
    }
    if a.status {
        let s = status(&folder)?;
        match a.format {
            OutputFormat::Json => crate::args::print_json(&s.record(&folder)),
            OutputFormat::Text | OutputFormat::Svg => print!("{}", s.text(&folder)),
        }
        return Ok(ExitCode::SUCCESS);
    }
    let m = merge_until(&folder, crate::cancel())?;
    if !m.problems.is_empty() {
        for p in &m.problems {
            eprintln!("queens-sat: merge: {}", p.0);
        }
        eprintln!(
            "queens-sat: error: {} problem(s) in {}; nothing merged",
            m.problems.len(),
            folder.dir.display()
        );
        return Ok(ExitCode::from(1));
    }
    Ok(match m.output(&folder).expect("no problems: an answer") {
        MergeOutput::Count { record, solutions } => {
            crate::count::print_record(record, a.format);
            ExitCode::from(if solutions { 10 } else { 20 })
        }
        MergeOutput::Solve(report) => {
            crate::solve::print_answer(&report, &folder.instance, folder.job.piece()?, a.format)
        }
    })
}
