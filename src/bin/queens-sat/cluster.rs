//! `queens-sat split`, `work` and `merge`: cube-and-conquer jobs for Slurm, GNU parallel or a
//! shell loop (the library's `cluster` module does the work).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Subcommand};
use queens_sat::cluster::merge::{Merged, merge_until, status};
use queens_sat::cluster::source::CubeSource;
use queens_sat::cluster::split::{SlurmOptions, SplitOptions, split};
use queens_sat::cluster::task::{Ran, is_unknown, run_task};
use queens_sat::cluster::{Folder, Kind};
use queens_sat::count::CountEngine;
use queens_sat::encode::Stats;
use queens_sat::encode::amo::AmoKind;
use queens_sat::report::CountRecord;
use queens_sat::solve::SolveReport;
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
            match (s.certify, s.proof_format.as_deref()) {
                (false, _) => None,
                (true, None) => Some(queens_sat::certify::ProofFormat::DEFAULT),
                (true, Some(f)) => Some(queens_sat::certify::ProofFormat::parse(f)?),
            },
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
    let engine = engine.unwrap_or(
        match queens_sat::count::Counter::new(&instance, piece)
            .symmetric(options.symmetric)
            .engines()[0]
        {
            // split count --symmetric counts with the orbits or a SAT engine.
            CountEngine::Backtrack if options.symmetric.is_some() => CountEngine::Sat,
            e => e,
        },
    );
    if let (Kind::Count, Some(amo)) = (kind, &enc.amo) {
        // As `count`: `--amo` shapes only the SAT engines' CNF (checked against the engine
        // each cube runs, auto's choice included).
        queens_sat::applies::check(
            queens_sat::applies::Command::Count,
            &queens_sat::applies::Given::new()
                .value(queens_sat::error::Opt::Amo, amo.clone())
                .value(queens_sat::error::Opt::Engine, engine.name()),
        )?;
    }
    let cubes = job.cubes.unwrap_or(match kind {
        Kind::Count => 64 * job.tasks,
        Kind::Solve => 16 * job.tasks,
    });
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
    if r.job.tasks < job.tasks {
        eprintln!(
            "note: --tasks {} capped at {}: there are only {} cube lines, and a task without one would do nothing",
            job.tasks, r.job.tasks, r.job.cubes
        );
    }
    let est = &r.task_estimates;
    let max = est.iter().copied().fold(0.0, f64::max);
    let min = est.iter().copied().fold(f64::INFINITY, f64::min);
    let source = r.job.cube_source().map_or(String::new(), |s| {
        format!(" ({} cubes, solver {})", s.name(), r.job.solver_name())
    });
    eprintln!(
        "{}: {} job {}: {} cube lines{source} in {} tasks; estimated work {:.3e} (per task min {:.3e}, max {:.3e})",
        job.output.display(),
        kind.name(),
        r.job.job_id,
        r.job.cubes,
        r.job.tasks,
        r.job.estimate,
        min,
        max
    );
    eprintln!(
        "run: sbatch --wait {0}/run-slurm.sbatch, or {0}/run-parallel.sh, or queens-sat work {0} --task I for I in 0..{1}; then queens-sat merge {0}",
        job.output.display(),
        r.job.tasks - 1
    );
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
    let task = match a.task {
        Some(t) => t,
        None => {
            let v = std::env::var("SLURM_ARRAY_TASK_ID").map_err(|_| {
                Error::Usage("give --task I (or run inside a Slurm array job)".into())
            })?;
            v.parse().map_err(|_| {
                Error::Usage(format!("SLURM_ARRAY_TASK_ID='{v}' is not a task number"))
            })?
        }
    };
    let mut folder = Folder::open(&a.dir)?;
    let jobs = queens_sat::options::jobs(Some(a.jobs))?;
    let redo = a.redo;
    if let Some(secs) = a.timeout {
        if folder.job.kind != Kind::Solve {
            return Err(Error::Usage(format!(
                "--timeout '{secs}' is for solve jobs: a count job's cubes have no time limit"
            )));
        }
        let limit = crate::args::parse_timeout(secs)?;
        folder.job.timeout = limit.map(|d| d.as_secs_f64());
        // Rerun what timed out: the UNKNOWN cube lines of the task's result, the others kept.
        if !redo
            && let Some(Ran::Done(r)) =
                queens_sat::cluster::task::retry_unknown(&folder, task, jobs, crate::cancel())?
        {
            let left = r.answers.iter().flatten().filter(|a| is_unknown(a)).count();
            eprintln!(
                "task {task}: the cube lines that were UNKNOWN ran again, {left} still UNKNOWN \
                 ({} cube lines, {:.3} s in all) -> {}",
                r.lines.len(),
                r.seconds,
                folder.result_path(task).display()
            );
            return Ok(ExitCode::SUCCESS);
        }
    }
    match run_task(&folder, task, jobs, redo, crate::cancel())? {
        Ran::Done(r) => eprintln!(
            "task {task}: {} cube lines in {:.3} s -> {}",
            r.lines.len(),
            r.seconds,
            folder.result_path(task).display()
        ),
        Ran::AlreadyDone(_) => eprintln!(
            "task {task}: already done ({}{}); --redo runs it again",
            folder.result_path(task).display(),
            if a.timeout.is_some() {
                ", no UNKNOWN cube line"
            } else {
                ""
            }
        ),
    }
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
        if a.format == OutputFormat::Json {
            crate::args::print_json(&serde_json::json!({
                "kind": folder.job.kind.name(),
                "job_id": folder.job.job_id,
                "cubes": folder.job.cube_source().map(|s| s.name()),
                "tasks": folder.tasks.len(),
                "progress": s,
            }));
            return Ok(ExitCode::SUCCESS);
        }
        let eta = match s.eta_core_seconds {
            Some(secs) => {
                let running = s.running.max(1) as f64;
                format!(
                    "; about {:.1} core-seconds left (~{:.1} s at {} running)",
                    secs,
                    secs / running,
                    s.running.max(1)
                )
            }
            None => String::from("; no ETA before a task finishes"),
        };
        let source = folder
            .job
            .cube_source()
            .map_or(String::new(), |s| format!(" ({} cubes)", s.name()));
        let unknown: usize = s.unknown.iter().map(|&(_, lines)| lines).sum();
        let done = match unknown {
            0 => format!("{} done", s.done),
            k => format!(
                "{} done ({} of them with {k} UNKNOWN cube line(s))",
                s.done,
                s.unknown.len()
            ),
        };
        println!(
            "{} job {}{source}: {} tasks: {done}, {} running, {} failed, {} waiting{eta}",
            folder.job.kind.name(),
            folder.job.job_id,
            folder.tasks.len(),
            s.running,
            s.failed,
            s.waiting
        );
        for p in &s.problems {
            println!("  {}", p.0);
        }
        // Done tasks whose cubes timed out: merge says UNKNOWN until they are rerun.
        for &(task, lines) in &s.unknown {
            println!(
                "  task {task}: {lines} cube line(s) UNKNOWN (time limit reached): rerun with a \
                 longer limit: queens-sat work {} --task {task} --timeout SECS",
                folder.dir.display()
            );
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
    let engine = folder.job.engine.clone().unwrap_or_default();
    Ok(match m.answer.expect("no problems: an answer") {
        Merged::Count(c) => {
            let record = CountRecord::of(&c, &format!("{engine} (cluster)"), m.seconds);
            crate::count::print_record(record, a.format);
            ExitCode::from(if c.total > 0 { 10 } else { 20 })
        }
        Merged::Symmetric(total, g, counts) => {
            // As `count --symmetric g` prints it: the breakdown where the job's cube lines
            // held the fixed points, else the total a job of an older split has.
            let record = match &counts {
                Some(c) => CountRecord::of(c, &format!("{engine} (cluster)"), m.seconds),
                None => CountRecord {
                    total: Some(total),
                    seconds: m.seconds,
                    engine: engine.clone(),
                    ..CountRecord::default()
                },
            };
            let record = CountRecord {
                symmetric: Some(g.name().into()),
                ..record
            };
            crate::count::print_record(record, a.format);
            ExitCode::from(if total > 0 { 10 } else { 20 })
        }
        Merged::Solve(status) => {
            let piece = folder.job.piece()?;
            let report = SolveReport {
                solve_seconds: m.seconds,
                amo: folder.job.amo.clone(),
                certificate: m.certificate,
                ..SolveReport::new(
                    status,
                    Stats::default(),
                    format!(
                        "{} (cluster) on {} cubes",
                        folder.job.solver_name(),
                        folder
                            .job
                            .cube_source()
                            .unwrap_or(CubeSource::Lookahead)
                            .name()
                    ),
                    AmoKind::DEFAULT,
                )
            };
            crate::solve::print_answer(&report, &folder.instance, piece, a.format)
        }
    })
}
