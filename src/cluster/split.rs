//! `split`: write a job folder (see [`super`]) for a count or a solve.
//!
//! - Counts use the border-first cubes of [`crate::cube::cubes`], merged by symmetry with
//!   [`crate::cube::classes`] (each cube line carries its class size as weight), plus one `fixed
//!   g` line per non-identity element of the instance's stabiliser (its fixed points, counted on
//!   the whole instance by the orbit search or the symmetric encoding).
//! - Solves use the cubes of a [`CubeSource`]: subtrees of the bitboard search's tree, or the
//!   look-ahead cubes of [`crate::cube::lookahead`] (the ones `solve --cubes` conquers
//!   locally); by default the first where the default strategy splits the bitboard search,
//!   the second elsewhere ([`CubeSource::default_for`]).
//!
//! Tasks are balanced by estimated work with the longest-first greedy rule (each cube to the
//! least-loaded task, largest cubes first): Knuth's estimate of each cube's tree, the
//! row-by-row tree of [`super::estimate`], or for bitboard cubes the bitboard search's own
//! subtree in its nodes.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::cluster::estimate::tree_size;
use crate::cluster::source::CubeSource;
use crate::cluster::{
    CUBES_FILE, CubeLine, ICNF_FILE, INSTANCE_FILE, JOB_FILE, Job, Kind, LOGS_DIR, PARALLEL_FILE,
    RESULTS_DIR, SLURM_FILE, TASKS_FILE, Task, job_id, tasks_text,
};
use crate::count::CountEngine;
use crate::cube;
use crate::encode::EncodeOptions;
use crate::error::{Error, Result};
use crate::instance::Instance;
use crate::interrupt::Cancel;
use crate::piece::Piece;
use crate::presolve::Problem;
use crate::symmetry::{Symmetry, stabiliser};

/// Probes per cube for the work estimate.
const PROBES: usize = 32;

/// Slurm resources written into `run-slurm.sbatch` as `#SBATCH` options (default: the
/// partition's, one CPU a task).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlurmOptions {
    /// `--time` (for example `2:00:00`); absent: the partition's default.
    pub time: Option<String>,
    /// `--mem` (for example `2G`); absent: the partition's default.
    pub mem: Option<String>,
    /// `--partition`; absent: the default partition.
    pub partition: Option<String>,
    /// `--cpus-per-task`: threads of each task (`work --jobs`).
    pub cpus: usize,
}

impl Default for SlurmOptions {
    fn default() -> SlurmOptions {
        SlurmOptions {
            time: None,
            mem: None,
            partition: None,
            cpus: 1,
        }
    }
}

impl SlurmOptions {
    /// Refuses, in one line naming the option, any value that Slurm would not take or that
    /// could change the script beyond its one `#SBATCH` line: nothing reaches
    /// `run-slurm.sbatch` unchecked. `--time`: `MM`, `MM:SS`, `HH:MM:SS`, `D-HH`, `D-HH:MM`,
    /// `D-HH:MM:SS` (digits), or `UNLIMITED` / `INFINITE`; `--mem`: digits with an optional
    /// unit `K`, `M`, `G` or `T`; `--partition`: names of `[A-Za-z0-9_.-]`, separated by
    /// commas; `--cpus-per-task`: at least 1.
    ///
    /// ```
    /// use queens_sat::cluster::split::SlurmOptions;
    /// let ok = SlurmOptions { time: Some("1-12:00".into()), mem: Some("4G".into()),
    ///     partition: Some("short,long".into()), cpus: 2 };
    /// assert!(ok.check().is_ok());
    /// let bad = SlurmOptions { partition: Some("a b;rm -rf /".into()), ..ok };
    /// assert!(bad.check().unwrap_err().to_string().starts_with("--partition 'a b;rm -rf /'"));
    /// ```
    pub fn check(&self) -> Result<()> {
        let bad = |flag: &str, value: &str, why: &str| {
            Err(Error::Usage(format!(
                "{flag} '{}' {why}",
                value.escape_debug()
            )))
        };
        if self.cpus == 0 {
            return Err(Error::Usage(
                "--cpus-per-task 0 must be at least 1 (the threads of each task)".into(),
            ));
        }
        if let Some(t) = &self.time
            && !slurm_time(t)
        {
            return bad(
                "--time",
                t,
                "is not a Slurm time (MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS or UNLIMITED)",
            );
        }
        if let Some(m) = &self.mem
            && !slurm_mem(m)
        {
            return bad(
                "--mem",
                m,
                "is not a Slurm memory size (megabytes, or a number with K, M, G or T: 4000, 500M, 4G)",
            );
        }
        if let Some(p) = &self.partition
            && !p.split(',').all(|name| {
                !name.is_empty()
                    && name
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c))
            })
        {
            return bad(
                "--partition",
                p,
                "is not a Slurm partition name (letters, digits, _ . -; several separated by commas)",
            );
        }
        Ok(())
    }
}

/// Whether `t` is a Slurm time limit: `MM`, `MM:SS`, `HH:MM:SS`, `D-HH`, `D-HH:MM`,
/// `D-HH:MM:SS`, `UNLIMITED` or `INFINITE`.
fn slurm_time(t: &str) -> bool {
    let digits = |s: &str| !s.is_empty() && s.len() <= 9 && s.bytes().all(|b| b.is_ascii_digit());
    if t == "UNLIMITED" || t == "INFINITE" {
        return true;
    }
    let (days, rest) = match t.split_once('-') {
        Some((d, rest)) => (Some(d), rest),
        None => (None, t),
    };
    let parts: Vec<&str> = rest.split(':').collect();
    if !parts.iter().all(|p| digits(p)) || days.is_some_and(|d| !digits(d)) {
        return false;
    }
    (1..=3).contains(&parts.len())
}

/// Whether `m` is a Slurm memory size: digits with an optional unit `K`, `M`, `G` or `T`.
fn slurm_mem(m: &str) -> bool {
    let number = m
        .strip_suffix(['K', 'M', 'G', 'T', 'k', 'm', 'g', 't'])
        .unwrap_or(m);
    !number.is_empty() && number.len() <= 18 && number.bytes().all(|b| b.is_ascii_digit())
}

/// What to split and how.
#[derive(Clone, Debug)]
pub struct SplitOptions {
    /// Count or solve.
    pub kind: Kind,
    /// The instance.
    pub instance: Instance,
    /// The piece.
    pub piece: Piece,
    /// Encoding (AMO, `--symmetric`); lex-leader constraints are refused.
    pub options: EncodeOptions,
    /// Count: the engine of each cube.
    pub engine: CountEngine,
    /// Solve: the solver of each cube, as `solve --solver` (`auto`, a backend, a portfolio);
    /// `None`: the cube source's ([`CubeSource::default_solver`]).
    pub solver: Option<String>,
    /// Solve: where the cubes come from; `None`: [`CubeSource::default_for`] the instance.
    pub cubes_from: Option<CubeSource>,
    /// Solve: the time limit per cube, seconds.
    pub timeout: Option<f64>,
    /// Solve, `--certify`: the format of the cubes' proofs. The split then proves that its
    /// cubes cover the instance (`coverage.lrat`), each task keeps the checked proof of every
    /// cube it refutes, and `merge` checks them all again ([`super::proofs`]).
    pub certify: Option<crate::certify::ProofFormat>,
    /// Number of tasks (chunks of cubes).
    pub tasks: usize,
    /// Cubes to aim for (count: at least; solve: at most, about for bitboard cubes).
    pub cubes: usize,
    /// Slurm resources.
    pub slurm: SlurmOptions,
    /// The queens-sat binary the scripts run (overridable with `QUEENS_SAT=` at run time).
    pub exe: PathBuf,
    /// The command line, recorded in `job.json`.
    pub command: Vec<String>,
    /// Stops the split once raised.
    pub cancel: Cancel,
}

/// What [`split`] wrote.
#[derive(Clone, Debug, PartialEq)]
pub struct SplitReport {
    /// The job.
    pub job: Job,
    /// Estimated work per task.
    pub task_estimates: Vec<f64>,
}

impl SplitReport {
    /// What `split` prints on stderr after writing the job folder `dir`, each line ending in a
    /// newline: a note when `asked` tasks (`--tasks`) were capped at the cube lines, the job's
    /// size and estimated work per task, and how to run and merge it. Public for the program's
    /// `split`.
    pub fn text(&self, dir: &Path, asked: usize) -> String {
        use std::fmt::Write as _;
        let job = &self.job;
        let mut out = String::new();
        if job.tasks < asked {
            let _ = writeln!(
                out,
                "note: --tasks {asked} capped at {}: there are only {} cube lines, and a task without one would do nothing",
                job.tasks, job.cubes
            );
        }
        let est = &self.task_estimates;
        let max = est.iter().copied().fold(0.0, f64::max);
        let min = est.iter().copied().fold(f64::INFINITY, f64::min);
        let source = job.cube_source().map_or(String::new(), |s| {
            format!(" ({} cubes, solver {})", s.name(), job.solver_name())
        });
        let _ = writeln!(
            out,
            "{}: {} job {}: {} cube lines{source} in {} tasks; estimated work {:.3e} (per task min {:.3e}, max {:.3e})",
            dir.display(),
            job.kind.name(),
            job.job_id,
            job.cubes,
            job.tasks,
            job.estimate,
            min,
            max
        );
        let _ = writeln!(
            out,
            "run: sbatch --wait {0}/run-slurm.sbatch, or {0}/run-parallel.sh, or queens-sat work {0} --task I for I in 0..{1}; then queens-sat merge {0}",
            dir.display(),
            job.tasks - 1
        );
        out
    }
}

/// The engine that counts each cube of a count split: `given` (`--engine`), else the one
/// `count`'s auto picks for the instance, a SAT engine instead of backtrack under
/// `--symmetric` (split count counts those with the orbits or a SAT engine). `amo`, the
/// `--amo` given to a count split, is checked against that engine as `count` checks it (it
/// shapes only the SAT engines' CNF). Public for the program's `split`.
pub fn cube_engine(
    instance: &Instance,
    piece: Piece,
    options: &EncodeOptions,
    given: Option<CountEngine>,
    amo: Option<&str>,
) -> Result<CountEngine> {
    let engine = given.unwrap_or(
        match crate::count::Counter::new(instance, piece)
            .symmetric(options.symmetric)
            .engines()[0]
        {
            CountEngine::Backtrack if options.symmetric.is_some() => CountEngine::Sat,
            e => e,
        },
    );
    if let Some(amo) = amo {
        use crate::applies::{Command, Given, check};
        use crate::error::Opt;
        check(
            Command::Count,
            &Given::new()
                .value(Opt::Amo, amo)
                .value(Opt::Engine, engine.name()),
        )?;
    }
    Ok(engine)
}

/// Writes the job folder `dir` (which must not exist yet, or be empty). Everything is written
/// into a temporary sibling folder first and renamed into place, so a failed split leaves
/// nothing behind.
pub fn split(dir: &Path, o: &SplitOptions) -> Result<SplitReport> {
    if !o.options.lex_leader.is_empty() {
        return Err(Error::Usage(
            "split does not take --break-symmetry: cube weights already count each class once"
                .into(),
        ));
    }
    if o.tasks == 0 {
        return Err(Error::Usage("--tasks must be at least 1".into()));
    }
    o.slurm.check()?;
    if dir.exists()
        && std::fs::read_dir(dir)
            .map_err(|e| Error::io(dir.display().to_string(), e))?
            .next()
            .is_some()
    {
        return Err(Error::Usage(format!(
            "{}: the job folder exists and is not empty; choose another -o or remove it",
            dir.display()
        )));
    }
    crate::count::dpll::supports(&o.piece)?; // cubes branch on rows and columns
    if o.certify.is_some() {
        certifiable(o)?;
    }
    let instance = &o.instance;
    let piece = o.piece;
    let group = stabiliser(instance, &piece);
    let root = Problem::presolve(instance, piece)?;
    // Solve: the cube source, and the estimates it gives (bitboard cubes).
    let (mut source, mut given) = (None, None);
    let lines: Vec<CubeLine> = match o.kind {
        Kind::Count => {
            if o.options.symmetric.is_some() && o.engine == CountEngine::Backtrack {
                return Err(Error::Usage(
                    "split count --symmetric counts with the sat or cdcl engine, not backtrack"
                        .into(),
                ));
            }
            if o.engine == CountEngine::Orbits {
                // The orbit search's parts, as cells placed: any engine recounts a cube line.
                let g = o.options.symmetric.unwrap_or(Symmetry::Id);
                let group = crate::symmetry::generated(&[g]);
                let Some(p) = crate::count::orbits::Problem::of(instance, &piece, &group)? else {
                    return Err(Error::Usage(
                        "split count --engine orbits counts the boards a rotation fixes: give \
                         --symmetric r90, r180 or r270"
                            .into(),
                    ));
                };
                crate::count::orbits::split_into(&p, o.cubes.max(1), &o.cancel)?
                    .into_iter()
                    .map(|part| CubeLine::Cube {
                        weight: part.weight,
                        cells: part.cells,
                    })
                    .collect()
            } else {
                let raw = cube::cubes_in_rings(instance, piece, o.cubes.max(1), &o.cancel)?;
                let classes = cube::classes(instance, raw, &group, o.options.symmetric);
                let base = instance.placed.len();
                let mut lines: Vec<CubeLine> = classes
                    .into_iter()
                    .map(|c| CubeLine::Cube {
                        weight: c.weight,
                        cells: c.instance.placed[base..].to_vec(),
                    })
                    .collect();
                if o.options.symmetric.is_none() {
                    lines.extend(
                        group
                            .iter()
                            .filter(|&&g| g != Symmetry::Id)
                            .map(|&g| CubeLine::Fixed(g)),
                    );
                }
                lines
            }
        }
        Kind::Solve => {
            let from = o
                .cubes_from
                .unwrap_or_else(|| CubeSource::default_for(&root, &o.options));
            source = Some(from);
            let (lines, estimates) =
                from.cut(&root, &o.options, o.cubes, o.certify.is_some(), &o.cancel)?;
            given = estimates;
            lines
        }
    };
    let mut lines = lines;
    if o.kind == Kind::Count
        && let Some(g) = o.options.symmetric
    {
        // The fixed points of the count's group on the g-symmetric boards (`fixed h`: the
        // boards g and h both fix; h in <g> fixes them all), so that `merge` prints the
        // breakdown `count --symmetric g` prints.
        let inner = crate::symmetry::generated(&[g]);
        lines.extend(
            crate::symmetry::count_group(instance, &piece, Some(g))
                .into_iter()
                .filter(|h| !inner.contains(h))
                .map(CubeLine::Fixed),
        );
    }
    let (kept, estimates) = match given {
        // Bitboard cubes: estimated in the search's nodes; no refuted subtree is among them.
        Some(given) => (lines, given.into_iter().map(|e: f64| e.max(1.0)).collect()),
        // The orbit search's parts: the board search's estimate says nothing of them; many
        // parts per task even their sizes out.
        None if o.kind == Kind::Count && o.engine == CountEngine::Orbits => {
            let ones = vec![1.0; lines.len()];
            (lines, ones)
        }
        None => estimate_lines(lines, &root, piece, &o.cancel)?,
    };
    // No task without a cube line (at least one task, which an empty job's merge reads):
    // `--tasks` past the cube lines is capped, and the report's `tasks` says so.
    let tasks = balance(&estimates, o.tasks.min(estimates.len().max(1)));
    let instance_text = crate::instance::write::to_board(
        instance,
        &format!(
            "queens-sat {} job instance (n = {})",
            env!("CARGO_PKG_VERSION"),
            instance.n
        ),
    );
    let mut cubes_text = format!(
        "# queens-sat cubes: `weight r,c r,c ...` (cells added to {INSTANCE_FILE}; the count is multiplied by weight), or `fixed g`\n"
    );
    for line in &kept {
        cubes_text += &line.to_text();
        cubes_text.push('\n');
    }
    let tasks_tsv = tasks_text(&tasks);
    let mut job = Job {
        tool: env!("CARGO_PKG_NAME").into(),
        version: env!("CARGO_PKG_VERSION").into(),
        kind: o.kind,
        command: o.command.clone(),
        n: instance.n,
        piece: piece.name.into(),
        amo: o.options.amo.name(),
        engine: (o.kind == Kind::Count).then(|| o.engine.name().to_string()),
        solver: source.map(|s| match o.certify {
            Some(_) => "bitboard".into(),
            None => o
                .solver
                .clone()
                .unwrap_or_else(|| s.default_solver().into()),
        }),
        cubes_from: source,
        timeout: if o.kind == Kind::Solve {
            o.timeout
        } else {
            None
        },
        certify: o.certify.map(|f| f.name().to_string()),
        symmetric: o.options.symmetric.map(|g| g.name().to_string()),
        cubes: kept.len(),
        tasks: tasks.len(),
        job_id: String::new(),
        estimate: estimates.iter().sum(),
    };
    job.job_id = job_id(&job, &instance_text, &cubes_text, &tasks_tsv);

    // Write into a temporary sibling, then rename it into place.
    let parent = match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&parent).map_err(|e| Error::io(parent.display().to_string(), e))?;
    let tmp = tempfile::Builder::new()
        .prefix(".queens-sat-split-")
        .tempdir_in(&parent)
        .map_err(|e| Error::io(parent.display().to_string(), e))?;
    let t = tmp.path();
    let final_dir =
        std::path::absolute(dir).map_err(|e| Error::io(dir.display().to_string(), e))?;
    let write = |name: &str, text: &str| -> Result<()> {
        let path = t.join(name);
        std::fs::write(&path, text).map_err(|e| Error::io(path.display().to_string(), e))
    };
    write(INSTANCE_FILE, &instance_text)?;
    write(CUBES_FILE, &cubes_text)?;
    write(TASKS_FILE, &tasks_tsv)?;
    write(
        JOB_FILE,
        &(serde_json::to_string_pretty(&job).expect("a job serialises") + "\n"),
    )?;
    write(
        SLURM_FILE,
        &slurm_script(&job, &final_dir, &o.exe, &o.slurm),
    )?;
    write(PARALLEL_FILE, &parallel_script(&job, &o.exe))?;
    for script in [SLURM_FILE, PARALLEL_FILE] {
        use std::os::unix::fs::PermissionsExt;
        let path = t.join(script);
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
            .map_err(|e| Error::io(path.display().to_string(), e))?;
    }
    write_icnf(&t.join(ICNF_FILE), &root, o.options, &kept, &o.cancel)?;
    if o.certify.is_some() {
        std::fs::create_dir(t.join(super::proofs::PROOFS_DIR))
            .map_err(|e| Error::io(super::proofs::PROOFS_DIR, e))?;
        super::proofs::prove_coverage(
            instance,
            piece,
            &kept,
            &t.join(super::proofs::COVERAGE_FILE),
            &o.cancel,
        )?
        .ok_or(Error::Interrupted)?;
    }
    for sub in [RESULTS_DIR, LOGS_DIR] {
        std::fs::create_dir(t.join(sub)).map_err(|e| Error::io(sub, e))?;
    }
    if dir.exists() {
        // Empty (checked above): rename replaces an empty directory.
        std::fs::remove_dir(dir).map_err(|e| Error::io(dir.display().to_string(), e))?;
    }
    let kept_tmp = tmp.keep();
    std::fs::rename(&kept_tmp, dir).map_err(|e| {
        let _ = std::fs::remove_dir_all(&kept_tmp);
        Error::io(dir.display().to_string(), e)
    })?;
    Ok(SplitReport {
        job,
        task_estimates: tasks.iter().map(|t| t.estimate).collect(),
    })
}

/// Refuses a `--certify` split that could not be certified: a count, `--symmetric`, or a
/// cube solver other than the bitboard search (the one engine that writes the proofs `merge`
/// checks), or an instance the search does not take.
fn certifiable(o: &SplitOptions) -> Result<()> {
    if o.kind != Kind::Solve {
        return Err(Error::Usage(
            "--certify is for split solve: a count has no refutation to certify".into(),
        ));
    }
    if o.options.symmetric.is_some() {
        return Err(Error::Usage(
            "split solve --certify does not take --symmetric: the proofs are over the \
             instance's own model"
                .into(),
        ));
    }
    if let Some(s) = o.solver.as_deref().filter(|&s| s != "bitboard") {
        return Err(Error::Usage(format!(
            "split solve --certify solves the cubes with the bitboard search, which writes the \
             proofs merge checks; drop --solver {s}"
        )));
    }
    let root = Problem::presolve(&o.instance, o.piece)?;
    if root.unsat.is_none() {
        use crate::solve::Engine as _;
        crate::solve::bitboard::Bitboard
            .accepts(&root, &o.options)
            .map_err(|u| {
                Error::Usage(format!(
                    "split solve --certify: the bitboard search {}",
                    u.needs
                ))
            })?;
        if !crate::solve::bitboard::proof::certifies(&root) {
            return Err(Error::Usage(
                "split solve --certify: the certified bitboard search takes cores of at most 64 \
                 open rows; this instance leaves more"
                    .into(),
            ));
        }
    }
    Ok(())
}

/// The estimated work of each line ([`tree_size`]) of the instance presolved as `root`; a cube
/// that presolve refutes is dropped (it has no solution). Returns the lines kept and theirs.
fn estimate_lines(
    lines: Vec<CubeLine>,
    root: &Problem,
    piece: Piece,
    cancel: &Cancel,
) -> Result<(Vec<CubeLine>, Vec<f64>)> {
    let instance = &root.instance;
    let root_size = tree_size(root, PROBES, 0);
    let mut kept = Vec::new();
    let mut estimates = Vec::new();
    for (i, line) in lines.into_iter().enumerate() {
        cancel.check()?;
        let est = match &line {
            CubeLine::Fixed(g) => match g {
                // A quarter turn's orbits have four cells: a fourth of the rows to choose.
                Symmetry::R90 | Symmetry::R270 => root_size.powf(0.25),
                _ => root_size.sqrt(),
            },
            CubeLine::Cube { .. } => {
                let problem = Problem::presolve(&line.instance(instance), piece)?;
                if problem.unsat.is_some() {
                    continue;
                }
                tree_size(&problem, PROBES, i as u64 + 1)
            }
        };
        kept.push(line);
        estimates.push(est.max(1.0));
    }
    Ok((kept, estimates))
}

/// Longest-first greedy balancing of `estimates` over `tasks` tasks (at least one; with fewer
/// cube lines than tasks, some tasks are empty, so that the job always has the tasks asked
/// for); each task's lines in increasing order.
///
/// ```
/// use queens_sat::cluster::split::balance;
/// let t = balance(&[5.0, 4.0, 3.0, 3.0, 1.0], 2);
/// assert_eq!(t.iter().map(|t| t.estimate).collect::<Vec<_>>(), vec![8.0, 8.0]);
/// ```
pub fn balance(estimates: &[f64], tasks: usize) -> Vec<Task> {
    let k = tasks.max(1);
    let mut out: Vec<Task> = (0..k)
        .map(|_| Task {
            lines: Vec::new(),
            estimate: 0.0,
        })
        .collect();
    let mut order: Vec<usize> = (0..estimates.len()).collect();
    order.sort_by(|&a, &b| estimates[b].total_cmp(&estimates[a]).then(a.cmp(&b)));
    for i in order {
        let t = (0..k)
            .min_by(|&a, &b| out[a].estimate.total_cmp(&out[b].estimate).then(a.cmp(&b)))
            .expect("at least one task");
        out[t].lines.push(i);
        out[t].estimate += estimates[i];
    }
    for t in &mut out {
        t.lines.sort_unstable();
    }
    out
}

/// Quotes `s` for a POSIX shell.
fn shell_quote(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+:=,@%".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// `run-slurm.sbatch`: a job array with one array task per task.
fn slurm_script(job: &Job, dir: &Path, exe: &Path, slurm: &SlurmOptions) -> String {
    let d = dir.display().to_string();
    let mut s = String::from("#!/bin/bash\n");
    s += &format!(
        "# queens-sat {} {} job {}: {} tasks over {} cube lines.\n",
        job.version,
        job.kind.name(),
        job.job_id,
        job.tasks,
        job.cubes
    );
    s += "# Submit: sbatch run-slurm.sbatch   (add --wait to block until every task ends)\n";
    s += "# Override resources on the command line, e.g. sbatch --time=4:00:00 run-slurm.sbatch.\n";
    s += "# The folder must be on a file system the compute nodes share; QUEENS_SAT=/path/to/queens-sat\n";
    s += "# in the environment picks another binary. Then: queens-sat merge <this folder>\n";
    s += &format!(
        "#SBATCH --job-name=queens-sat-{}-{}\n",
        job.kind.name(),
        &job.job_id[..8]
    );
    s += &format!("#SBATCH --array=0-{}\n", job.tasks - 1);
    s += &format!("#SBATCH --cpus-per-task={}\n", slurm.cpus);
    s += "#SBATCH --ntasks=1\n";
    if let Some(t) = &slurm.time {
        s += &format!("#SBATCH --time={t}\n");
    }
    if let Some(m) = &slurm.mem {
        s += &format!("#SBATCH --mem={m}\n");
    }
    if let Some(p) = &slurm.partition {
        s += &format!("#SBATCH --partition={p}\n");
    }
    s += &format!("#SBATCH --output={d}/{LOGS_DIR}/slurm-%A_%a.log\n");
    s += "set -euo pipefail\n";
    s += &format!(
        "exec \"${{QUEENS_SAT:-{}}}\" work {} --task \"$SLURM_ARRAY_TASK_ID\" --jobs \"${{SLURM_CPUS_PER_TASK:-1}}\"\n",
        shell_quote(&exe.display().to_string()),
        shell_quote(&d)
    );
    s
}

/// `run-parallel.sh`: GNU parallel over the tasks; extra arguments go to parallel.
fn parallel_script(job: &Job, exe: &Path) -> String {
    let mut s = String::from("#!/bin/bash\n");
    s += &format!(
        "# queens-sat {} {} job {}: runs its {} tasks with GNU parallel.\n",
        job.version,
        job.kind.name(),
        job.job_id,
        job.tasks
    );
    s += "# Local by default (one task per core). Arguments go to parallel, e.g.\n";
    s += "#   ./run-parallel.sh --jobs 4\n";
    s += "#   ./run-parallel.sh --sshlogin 8/node1,8/node2   (the folder and the binary must be at\n";
    s += "#   the same paths on every host, e.g. a shared file system)\n";
    s += "# Finished tasks are skipped, so running it again resumes. Then: queens-sat merge <folder>\n";
    s += "set -euo pipefail\n";
    s += "DIR=\"$(cd \"$(dirname \"${BASH_SOURCE[0]}\")\" && pwd)\"\n";
    s += &format!(
        "QS=\"${{QUEENS_SAT:-{}}}\"\n",
        shell_quote(&exe.display().to_string())
    );
    s += &format!(
        "seq 0 {} | parallel --will-cite --joblog \"$DIR/{LOGS_DIR}/parallel.log\" \"$@\" \"$QS\" work \"$DIR\" --task {{}}\n",
        job.tasks - 1
    );
    s
}

/// `cubes.icnf`: the instance's CNF (cell variables as in its DIMACS header) under `p inccnf`,
/// then one `a` line per cube: its cells as positive assumptions.
fn write_icnf(
    path: &Path,
    root: &Problem,
    options: EncodeOptions,
    lines: &[CubeLine],
    cancel: &Cancel,
) -> Result<()> {
    let name = path.display().to_string();
    let (buf, _) = crate::export::dimacs::write_cnf(Vec::new(), root, options, None)?;
    let text = String::from_utf8(buf).expect("DIMACS is ASCII");
    let mut out =
        std::io::BufWriter::new(std::fs::File::create(path).map_err(|e| Error::io(&name, e))?);
    let io = |e| Error::io(&name, e);
    for line in text.lines() {
        if line.starts_with("p cnf") {
            writeln!(
                out,
                "c cubes: one `a` line per line of {CUBES_FILE} that is a cube"
            )
            .map_err(io)?;
            writeln!(out, "p inccnf").map_err(io)?;
        } else {
            writeln!(out, "{line}").map_err(io)?;
        }
    }
    for line in lines {
        cancel.check()?;
        if let CubeLine::Cube { cells, .. } = line {
            write!(out, "a").map_err(io)?;
            for &c in cells {
                let Some(v) = root.varmap.var(c) else {
                    // A cell presolve removed from the whole instance: the cube is empty.
                    return Err(Error::Internal(format!(
                        "cube cell {},{} is not live in the instance",
                        c.row, c.col
                    )));
                };
                write!(out, " {v}").map_err(io)?;
            }
            writeln!(out, " 0").map_err(io)?;
        }
    }
    out.flush().map_err(io)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::amo::AmoKind;

    /// A count split's cubes: auto's engine for a plain board (backtrack), a SAT engine in its
    /// place under `--symmetric`, the engine given as given, and `--amo` refused with an
    /// engine that encodes nothing.
    #[test]
    fn cube_engine_as_count_picks_it() {
        let board = Instance::plain(8);
        let plain = EncodeOptions::from(AmoKind::DEFAULT);
        let pick = |options: &EncodeOptions, given, amo| {
            cube_engine(&board, crate::QUEEN, options, given, amo)
        };
        assert_eq!(pick(&plain, None, None).unwrap(), CountEngine::Backtrack);
        let flip = EncodeOptions {
            symmetric: Some(Symmetry::FlipH),
            ..plain
        };
        assert_ne!(pick(&flip, None, None).unwrap(), CountEngine::Backtrack);
        let given = Some(CountEngine::Cdcl);
        assert_eq!(pick(&plain, given, None).unwrap(), CountEngine::Cdcl);
        assert!(pick(&plain, Some(CountEngine::Backtrack), Some("sequential")).is_err());
        assert_eq!(
            pick(&plain, Some(CountEngine::Sat), Some("sequential")).unwrap(),
            CountEngine::Sat
        );
    }
}
