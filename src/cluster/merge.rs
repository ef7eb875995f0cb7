//! `merge`: combine a job folder's results, with the guarantees of a local run, and `merge
//! --status`: what is done, running, failed or missing, with an ETA.
//!
//! Every `results/*.json` is read. A result is used only if it parses, names this job's id and
//! one of its tasks with that task's cube lines, carries a matching checksum, and no error; each
//! task must have exactly one such file. Everything else is a [`JobFault`] named by file:
//! missing, failed, corrupt, foreign, or duplicate. A count is reported only when there is none.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use crate::answer::Status;
use crate::board::{Board, Cell};
use crate::cluster::{CubeLine, Folder, Kind, RESULTS_DIR, TaskResult};
use crate::count::Counts;
use crate::error::{Error, Result};
use crate::symmetry::{Symmetry, stabiliser};

/// What is wrong with a job's results: one line each, naming the file or task.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct JobFault(pub String);

/// What [`merge`] found.
#[derive(Clone, Debug, PartialEq)]
pub enum Merged {
    /// A count: every cube and fixed-point line, Burnside checked.
    Count(Counts),
    /// A `--symmetric g` count: the number of g-invariant solutions, and their breakdown
    /// (classes, the count's group, fixed points) as `count --symmetric g` gives it; `None` for
    /// a job split before its cube lines held the fixed points (the total alone).
    Symmetric(u64, Symmetry, Option<Counts>),
    /// A solve: a verified board, UNSAT (every cube of every task refuted), or UNKNOWN.
    Solve(Status),
}

/// The merge: the answer when the results are complete and sound, and the problems found.
#[derive(Clone, Debug, PartialEq)]
pub struct Merge {
    /// The answer; `None` when there are problems.
    pub answer: Option<Merged>,
    /// Missing, failed, corrupt, foreign or duplicate results.
    pub problems: Vec<JobFault>,
    /// Sum of the tasks' seconds (the job's compute time).
    pub seconds: f64,
    /// A certified solve job's UNSAT (`split solve --certify`): who checked which proofs
    /// again ([`super::proofs::check_unsat`]).
    pub certificate: Option<crate::certify::Certificate>,
}

/// What a merged job prints, as the local command would: a count's record (and whether it
/// counted any solution: `merge` exits 10, else 20), or a solve's report (`merge` prints it as
/// `solve` does).
#[derive(Clone, Debug)]
pub enum MergeOutput {
    /// `count`'s record of the job, its engine named `ENGINE (cluster)`.
    Count {
        /// The record.
        record: crate::report::CountRecord,
        /// Whether the count is positive.
        solutions: bool,
    },
    /// `solve`'s report of the job, its solver named `SOLVER (cluster) on SOURCE cubes`.
    Solve(crate::solve::SolveReport),
}

impl Merge {
    /// What `merge` prints for this merge of `folder`'s job; `None` when there are problems
    /// (no answer). Public for the program's `merge`; the Python module may print the same.
    pub fn output(self, folder: &Folder) -> Option<MergeOutput> {
        use crate::report::CountRecord;
        let engine = folder.job.engine.clone().unwrap_or_default();
        let cluster = format!("{engine} (cluster)");
        Some(match self.answer? {
            Merged::Count(c) => MergeOutput::Count {
                record: CountRecord::of(&c, &cluster, self.seconds),
                solutions: c.total > 0,
            },
            Merged::Symmetric(total, g, counts) => {
                // As `count --symmetric g` prints it: the breakdown where the job's cube lines
                // held the fixed points, else the total a job of an older split has.
                let record = match &counts {
                    Some(c) => CountRecord::of(c, &cluster, self.seconds),
                    None => CountRecord {
                        total: Some(total),
                        seconds: self.seconds,
                        engine,
                        ..CountRecord::default()
                    },
                };
                MergeOutput::Count {
                    record: CountRecord {
                        symmetric: Some(g.name().into()),
                        ..record
                    },
                    solutions: total > 0,
                }
            }
            Merged::Solve(status) => {
                let source = folder
                    .job
                    .cube_source()
                    .unwrap_or(super::source::CubeSource::Lookahead);
                let solver = format!(
                    "{} (cluster) on {} cubes",
                    folder.job.solver_name(),
                    source.name()
                );
                MergeOutput::Solve(crate::solve::SolveReport {
                    solve_seconds: self.seconds,
                    amo: folder.job.amo.clone(),
                    certificate: self.certificate,
                    ..crate::solve::SolveReport::new(
                        status,
                        crate::encode::Stats::default(),
                        solver,
                        crate::encode::amo::AmoKind::DEFAULT,
                    )
                })
            }
        })
    }
}

/// Reads every result of `folder`: the valid one per task, and the problems.
type Collected = (Vec<Option<TaskResult>>, Vec<JobFault>, BTreeSet<usize>);

/// Reads every result of `folder`: the valid one per task, the problems, and the tasks with a
/// bad result (failed, corrupt, foreign under its name, or duplicated).
fn collect(folder: &Folder) -> Result<Collected> {
    let dir = folder.dir.join(RESULTS_DIR);
    let mut files: Vec<PathBuf> = match std::fs::read_dir(&dir) {
        Ok(entries) => entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(Error::io(dir.display().to_string(), e)),
    };
    files.sort();
    let mut problems = Vec::new();
    let mut bad = BTreeSet::new();
    let mut by_task: BTreeMap<usize, Vec<(PathBuf, TaskResult)>> = BTreeMap::new();
    for path in files {
        let name = path.display().to_string();
        // The task a file stands for by its name (`I.json`), if any.
        if let Some(t) = path
            .file_stem()
            .and_then(|s| s.to_str())
            .and_then(|s| s.parse::<usize>().ok())
            .filter(|&t| t < folder.tasks.len())
        {
            bad.insert(t);
        }
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) => {
                problems.push(JobFault(format!("{name}: unreadable: {e}")));
                continue;
            }
        };
        let r: TaskResult = match serde_json::from_str(&text) {
            Ok(r) => r,
            Err(e) => {
                problems.push(JobFault(format!("{name}: corrupt result: {e}")));
                continue;
            }
        };
        if r.checksum != r.compute_checksum() {
            problems.push(JobFault(format!(
                "{name}: corrupt result: its checksum does not match its content"
            )));
            continue;
        }
        if r.job_id != folder.job.job_id || r.version != folder.job.version {
            problems.push(JobFault(format!(
                "{name}: foreign result: job {} (queens-sat {}), not this job {} (queens-sat {})",
                r.job_id, r.version, folder.job.job_id, folder.job.version
            )));
            continue;
        }
        match folder.tasks.get(r.task) {
            Some(t) if t.lines == r.lines => {}
            _ => {
                problems.push(JobFault(format!(
                    "{name}: foreign result: task {} with cube lines {:?} is not a task of this job",
                    r.task, r.lines
                )));
                continue;
            }
        }
        if let Some(e) = &r.error {
            bad.insert(r.task);
            problems.push(JobFault(format!(
                "{name}: task {} failed on {}: {e} (run it again: queens-sat work {} --task {})",
                r.task,
                r.host,
                folder.dir.display(),
                r.task
            )));
            continue;
        }
        by_task.entry(r.task).or_default().push((path, r));
    }
    let mut results: Vec<Option<TaskResult>> = vec![None; folder.tasks.len()];
    for (task, mut found) in by_task {
        if found.len() > 1 {
            bad.insert(task);
            let names: Vec<String> = found.iter().map(|(p, _)| p.display().to_string()).collect();
            problems.push(JobFault(format!(
                "duplicate results for task {task}: {} (keep one; none is counted)",
                names.join(", ")
            )));
            continue;
        }
        results[task] = found.pop().map(|(_, r)| r);
    }
    // A file named after a task only marks it bad when no valid result replaced it.
    bad.retain(|&t| results[t].is_none() && !problems.is_empty());
    let named_bad: BTreeSet<usize> = bad
        .iter()
        .copied()
        .filter(|&t| {
            let path = folder.result_path(t).display().to_string();
            problems
                .iter()
                .any(|p| p.0.starts_with(&path) || p.0.contains(&format!("task {t}")))
        })
        .collect();
    let bad = named_bad;
    for (task, r) in results.iter().enumerate() {
        if r.is_none() && !bad.contains(&task) {
            let running = folder.started_path(task).exists();
            problems.push(JobFault(format!(
                "missing result for task {task} ({}){}",
                folder.result_path(task).display(),
                if running {
                    ": it started and has not finished (running, or killed)"
                } else {
                    ""
                }
            )));
        }
    }
    Ok((results, problems, bad))
}

/// Merges the results of `folder` ([`merge_until`] without a cancel token).
pub fn merge(folder: &Folder) -> Result<Merge> {
    merge_until(folder, &crate::interrupt::Cancel::new())
}

/// Merges the results of `folder`. A certified solve job's UNSAT (`split solve --certify`)
/// holds only once every proof checked again ([`super::proofs::check_unsat`], on every core):
/// a missing or failing proof is an error ([`Error::ProofRejected`]) naming the cube line and
/// its file; raising `cancel` stops that check ([`Error::Interrupted`]).
pub fn merge_until(folder: &Folder, cancel: &crate::interrupt::Cancel) -> Result<Merge> {
    let (results, problems, _) = collect(folder)?;
    let seconds = results.iter().flatten().map(|r| r.seconds).sum();
    if !problems.is_empty() {
        return Ok(Merge {
            answer: None,
            problems,
            seconds,
            certificate: None,
        });
    }
    let mut certificate = None;
    let results: Vec<TaskResult> = results.into_iter().flatten().collect();
    let piece = folder.job.piece()?;
    let instance = &folder.instance;
    let answer = match folder.job.kind {
        Kind::Count => {
            let mut total: u64 = 0;
            let mut fixed: BTreeMap<Symmetry, u64> = BTreeMap::new();
            for r in &results {
                let counts = r.counts.as_ref().ok_or_else(|| {
                    Error::Solver(format!("task {}: a count result without counts", r.task))
                })?;
                if counts.len() != r.lines.len() {
                    return Err(Error::Solver(format!(
                        "task {}: {} counts for {} cube lines",
                        r.task,
                        counts.len(),
                        r.lines.len()
                    )));
                }
                for (&line, &k) in r.lines.iter().zip(counts) {
                    match &folder.cubes[line] {
                        CubeLine::Cube { weight, .. } => {
                            total = total
                                .checked_add(weight.checked_mul(k).ok_or_else(overflow)?)
                                .ok_or_else(overflow)?;
                        }
                        CubeLine::Fixed(g) => {
                            fixed.insert(*g, k);
                        }
                    }
                }
            }
            match folder.job.symmetric()? {
                Some(g) => {
                    let inner = crate::symmetry::generated(&[g]);
                    let group = crate::symmetry::count_group(instance, &piece, Some(g));
                    let split_with_fixed =
                        folder.cubes.iter().any(|l| matches!(l, CubeLine::Fixed(_)))
                            || group.iter().all(|h| inner.contains(h));
                    let counts = match split_with_fixed {
                        true => {
                            let fixed: Vec<u64> = group
                                .iter()
                                .map(|h| match fixed.get(h) {
                                    _ if inner.contains(h) => Ok(total),
                                    Some(&k) => Ok(k),
                                    None => Err(Error::Solver(format!(
                                        "no fixed-point count for {h} in the job"
                                    ))),
                                })
                                .collect::<Result<_>>()?;
                            Some(Counts::symmetric_from_fixed(
                                instance, &piece, g, group, fixed,
                            )?)
                        }
                        false => None,
                    };
                    Merged::Symmetric(total, g, counts)
                }
                None => {
                    let group = stabiliser(instance, &piece);
                    let fixed: Vec<u64> = group
                        .iter()
                        .map(|g| match g {
                            Symmetry::Id => Ok(total),
                            g => fixed.get(g).copied().ok_or_else(|| {
                                Error::Solver(format!("no fixed-point count for {g} in the job"))
                            }),
                        })
                        .collect::<Result<_>>()?;
                    Merged::Count(Counts::from_fixed(instance, &piece, group, fixed)?)
                }
            }
        }
        Kind::Solve => {
            let mut board = None;
            let mut unknown = Vec::new();
            for r in &results {
                if let Some(cells) = &r.board
                    && board.is_none()
                {
                    let b = Board::new(
                        instance.n,
                        cells.iter().map(|&[r, c]| Cell::new(r, c)).collect(),
                    );
                    folder
                        .job
                        .options()?
                        .accept(&b, instance, piece)
                        .map_err(|why| {
                            Error::WrongAnswer(format!(
                                "task {}'s board is not a solution: {why}",
                                r.task
                            ))
                        })?;
                    board = Some(b);
                }
                let answers = r.answers.as_ref().ok_or_else(|| {
                    Error::Solver(format!("task {}: a solve result without answers", r.task))
                })?;
                for (line, a) in r.lines.iter().zip(answers) {
                    if a != "UNSAT" {
                        unknown.push(format!("cube line {line}: {a}"));
                    }
                }
            }
            Merged::Solve(match board {
                Some(b) => Status::Sat(b),
                None if unknown.is_empty() => {
                    if folder.job.proof_format()?.is_some() {
                        certificate = Some(super::proofs::check_unsat(
                            folder,
                            crate::cpu::cores(),
                            cancel,
                        )?);
                    }
                    Status::Unsat
                }
                None => Status::Unknown(format!(
                    "{} cube(s) not refuted ({})",
                    unknown.len(),
                    unknown.into_iter().take(3).collect::<Vec<_>>().join("; ")
                )),
            })
        }
    };
    Ok(Merge {
        answer: Some(answer),
        problems,
        seconds,
        certificate,
    })
}

fn overflow() -> Error {
    Error::TooLarge("the merged count overflows 64 bits".into())
}

/// `merge --status`: counts of tasks by state, and an ETA (its JSON is the fields by name,
/// `problems` as strings).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct JobStatus {
    /// Tasks with a valid result.
    pub done: usize,
    /// Tasks started and not finished (running, or killed without a result).
    pub running: usize,
    /// Tasks whose result records an error, or whose result is corrupt, foreign or duplicate.
    pub failed: usize,
    /// Tasks not started.
    pub waiting: usize,
    /// Solve jobs: the done tasks whose result holds UNKNOWN cube lines (a cube's time limit
    /// reached), with how many each: `merge` says UNKNOWN until they are rerun with a longer
    /// limit (`work DIR --task I --timeout T`).
    pub unknown: Vec<(usize, usize)>,
    /// Estimated seconds of work left on one core, from the finished tasks' speed (work
    /// estimate per second); `None` before any task finished.
    pub eta_core_seconds: Option<f64>,
    /// The problems (as in [`merge`]), for the listing.
    pub problems: Vec<JobFault>,
}

impl JobStatus {
    /// What `merge --status --format json` prints for `folder`'s job: `kind`, `job_id`,
    /// `cubes` (the cube source), `tasks` and this status as `progress`. Public for the
    /// program's `merge --status`.
    pub fn record(&self, folder: &Folder) -> serde_json::Value {
        serde_json::json!({
            "kind": folder.job.kind.name(),
            "job_id": folder.job.job_id,
            "cubes": folder.job.cube_source().map(|s| s.name()),
            "tasks": folder.tasks.len(),
            "progress": self,
        })
    }

    /// What `merge --status` prints in text for `folder`'s job, each line ending in a newline:
    /// the tasks by state with an ETA, then one indented line per problem and per done task
    /// with UNKNOWN cube lines (how to rerun it). Public for the program's `merge --status`.
    pub fn text(&self, folder: &Folder) -> String {
        use std::fmt::Write as _;
        let s = self;
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
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{} job {}{source}: {} tasks: {done}, {} running, {} failed, {} waiting{eta}",
            folder.job.kind.name(),
            folder.job.job_id,
            folder.tasks.len(),
            s.running,
            s.failed,
            s.waiting
        );
        for p in &s.problems {
            let _ = writeln!(out, "  {}", p.0);
        }
        // Done tasks whose cubes timed out: merge says UNKNOWN until they are rerun.
        for &(task, lines) in &s.unknown {
            let _ = writeln!(
                out,
                "  task {task}: {lines} cube line(s) UNKNOWN (time limit reached): rerun with a \
                 longer limit: queens-sat work {} --task {task} --timeout SECS",
                folder.dir.display()
            );
        }
        out
    }
}

/// The cube lines of a solve task's result answered UNKNOWN (not SAT, UNSAT or SKIPPED).
pub(crate) fn unknown_lines(r: &TaskResult) -> usize {
    r.answers.as_ref().map_or(0, |answers| {
        answers
            .iter()
            .filter(|a| super::task::is_unknown(a))
            .count()
    })
}

/// The job's progress.
pub fn status(folder: &Folder) -> Result<JobStatus> {
    let (results, problems, bad) = collect(folder)?;
    let mut s = JobStatus {
        done: 0,
        running: 0,
        failed: 0,
        waiting: 0,
        unknown: Vec::new(),
        eta_core_seconds: None,
        problems: Vec::new(),
    };
    let (mut est_done, mut secs_done, mut est_left) = (0.0, 0.0, 0.0);
    for (task, r) in results.iter().enumerate() {
        let est = folder.tasks[task].estimate;
        match r {
            Some(r) => {
                s.done += 1;
                est_done += est;
                secs_done += r.seconds;
                let unknown = unknown_lines(r);
                if unknown > 0 {
                    s.unknown.push((task, unknown));
                }
            }
            None => {
                est_left += est;
                if bad.contains(&task) {
                    s.failed += 1;
                } else if folder.started_path(task).exists() {
                    s.running += 1;
                } else {
                    s.waiting += 1;
                }
            }
        }
    }
    if est_done > 0.0 {
        s.eta_core_seconds = Some(est_left * secs_done / est_done);
    }
    s.problems = problems;
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::{Job, Task};
    use crate::instance::Instance;

    /// A solve job of two tasks in `dir`, read back from a `job.json` of the oldest form.
    fn folder() -> Folder {
        let job: Job = serde_json::from_str(
            r#"{"tool":"queens-sat","version":"0.1.0","kind":"solve","command":[],
            "n":8,"piece":"queen","amo":"pairwise","solver":"auto","cubes":2,"tasks":2,
            "job_id":"abc","estimate":2.0}"#,
        )
        .unwrap();
        let task = |line| Task {
            lines: vec![line],
            estimate: 1.0,
        };
        Folder {
            dir: PathBuf::from("job"),
            job,
            instance: Instance::plain(8),
            cubes: Vec::new(),
            tasks: vec![task(0), task(1)],
        }
    }

    /// `merge --status` in text: the tasks by state with the ETA, then the problems and how
    /// to rerun a task with UNKNOWN cube lines.
    #[test]
    fn status_text_lines() {
        let s = JobStatus {
            done: 1,
            running: 0,
            failed: 1,
            waiting: 0,
            unknown: vec![(0, 1)],
            eta_core_seconds: Some(3.0),
            problems: vec![JobFault("results/1.json: failed".into())],
        };
        let folder = folder();
        let text = s.text(&folder);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines,
            [
                "solve job abc (lookahead cubes): 2 tasks: 1 done (1 of them with 1 UNKNOWN cube \
                 line(s)), 0 running, 1 failed, 0 waiting; about 3.0 core-seconds left (~3.0 s \
                 at 1 running)",
                "  results/1.json: failed",
                "  task 0: 1 cube line(s) UNKNOWN (time limit reached): rerun with a longer \
                 limit: queens-sat work job --task 0 --timeout SECS",
            ]
        );
        assert_eq!(s.record(&folder)["progress"]["failed"], 1);
    }

    /// A merged solve prints as `solve` would, its solver named for the cluster and the
    /// cubes; a merge with problems prints nothing.
    #[test]
    fn output_names_the_cluster() {
        let folder = folder();
        let merge = Merge {
            answer: Some(Merged::Solve(Status::Unsat)),
            problems: Vec::new(),
            seconds: 2.5,
            certificate: None,
        };
        let Some(MergeOutput::Solve(report)) = merge.clone().output(&folder) else {
            panic!("a solve job merges into a solve report")
        };
        assert_eq!(report.solver, "auto (cluster) on lookahead cubes");
        assert_eq!(report.solve_seconds, 2.5);
        assert_eq!(report.amo, "pairwise");
        let faulty = Merge {
            answer: None,
            ..merge
        };
        assert!(faulty.output(&folder).is_none());
    }
}
