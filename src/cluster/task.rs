//! `work`: run one task of a job folder and write `results/I.json` atomically.
//!
//! - A task whose valid result already exists is skipped (so re-running a whole array or
//!   `run-parallel.sh` resumes); `redo` runs it again, and the rewritten result is equivalent.
//! - While it runs, `results/I.started` names the host and process (for `merge --status`); a
//!   task killed halfway leaves that marker and no result, and its next run redoes it.
//! - An error (a solver fault, a bad cube) is recorded in the result, which `merge` reports as
//!   failed; an interruption writes nothing.
//! - In a solve job, the task that finds a board also writes `SOLVED`; other tasks then skip
//!   their remaining cubes (answer `SKIPPED`).
//! - A solve task whose result holds cube lines that reached the time limit (`UNKNOWN: ...`,
//!   which `merge --status` lists) is finished by [`retry_unknown`] (`work --task I --timeout
//!   T`): only those lines run again, under the new limit, and the lines answered before keep
//!   their answers (a cube's answer does not depend on the others': each is the same solve of
//!   its own instance, and an UNSAT cube's checked proof, in a certified job, stays in
//!   `proofs/`).

use std::time::{Duration, Instant};

use crate::answer::Answer;
use crate::board::Board;
use crate::cluster::{CubeLine, Folder, Kind, SOLVED_MARK, TaskResult, host_name};
use crate::count::CountEngine;
use crate::count::backtrack;
use crate::encode::EncodeOptions;
use crate::error::{Error, Result};
use crate::instance::Instance;
use crate::interrupt::Cancel;
use crate::piece::Piece;
use crate::solve::Solver;
use crate::symmetry::Symmetry;

/// What [`run_task`] did.
#[derive(Clone, Debug, PartialEq)]
pub enum Ran {
    /// The task ran; its result was written.
    Done(TaskResult),
    /// A valid result existed already; nothing ran.
    AlreadyDone(TaskResult),
}

/// Reads `results/I.json` if it is a valid result of this job's task `task` (right job id,
/// lines, checksum, no error).
pub fn valid_result(folder: &Folder, task: usize) -> Option<TaskResult> {
    let text = std::fs::read_to_string(folder.result_path(task)).ok()?;
    let r: TaskResult = serde_json::from_str(&text).ok()?;
    (r.job_id == folder.job.job_id
        && r.task == task
        && r.lines == folder.tasks[task].lines
        && r.error.is_none()
        && r.checksum == r.compute_checksum())
    .then_some(r)
}

/// Whether `answer`, a solve task's answer for one cube line, is UNKNOWN (`UNKNOWN: why`, the
/// time limit reached; anything but `SAT`, `UNSAT` and `SKIPPED`). Public for the program's
/// `work` and `merge --status`, which count those lines.
pub fn is_unknown(answer: &str) -> bool {
    !matches!(answer, "SAT" | "UNSAT" | "SKIPPED")
}

/// The task `work` runs: `given` (`--task I`), else `slurm`, the value of
/// `SLURM_ARRAY_TASK_ID` (`None`: not set). Public for the program's `work`, which reads the
/// variable; the Python module may take the same rule.
pub fn task_number(given: Option<usize>, slurm: Option<&str>) -> Result<usize> {
    match (given, slurm) {
        (Some(t), _) => Ok(t),
        (None, None) => Err(Error::Usage(
            "give --task I (or run inside a Slurm array job)".into(),
        )),
        (None, Some(v)) => v
            .parse()
            .map_err(|_| Error::Usage(format!("SLURM_ARRAY_TASK_ID='{v}' is not a task number"))),
    }
}

/// `work`: runs task `task` of the job in `folder` on `jobs` threads (`redo`: even when a
/// valid result exists) and says what it did, in one line for stderr. `timeout` (solve jobs
/// only; seconds, `inf` none) replaces the job's time limit per cube for this run, and a task
/// whose result holds UNKNOWN cube lines runs only those again ([`retry_unknown`]) unless
/// `redo`. Public for the program's `work`.
pub fn work(
    folder: &mut Folder,
    task: usize,
    jobs: usize,
    redo: bool,
    timeout: Option<f64>,
    cancel: &Cancel,
) -> Result<String> {
    if let Some(secs) = timeout {
        if folder.job.kind != Kind::Solve {
            return Err(Error::Usage(format!(
                "--timeout '{secs}' is for solve jobs: a count job's cubes have no time limit"
            )));
        }
        let limit = crate::options::time_limit(secs)?;
        folder.job.timeout = limit.map(|d| d.as_secs_f64());
        // Rerun what timed out: the UNKNOWN cube lines of the task's result, the others kept.
        if !redo && let Some(Ran::Done(r)) = retry_unknown(folder, task, jobs, cancel)? {
            let left = r.answers.iter().flatten().filter(|a| is_unknown(a)).count();
            return Ok(format!(
                "task {task}: the cube lines that were UNKNOWN ran again, {left} still UNKNOWN \
                 ({} cube lines, {:.3} s in all) -> {}",
                r.lines.len(),
                r.seconds,
                folder.result_path(task).display()
            ));
        }
    }
    Ok(match run_task(folder, task, jobs, redo, cancel)? {
        Ran::Done(r) => format!(
            "task {task}: {} cube lines in {:.3} s -> {}",
            r.lines.len(),
            r.seconds,
            folder.result_path(task).display()
        ),
        Ran::AlreadyDone(_) => format!(
            "task {task}: already done ({}{}); --redo runs it again",
            folder.result_path(task).display(),
            if timeout.is_some() {
                ", no UNKNOWN cube line"
            } else {
                ""
            }
        ),
    })
}

/// Runs task `task` of the job in `folder` on `jobs` threads.
pub fn run_task(
    folder: &Folder,
    task: usize,
    jobs: usize,
    redo: bool,
    cancel: &Cancel,
) -> Result<Ran> {
    run(folder, task, jobs, redo, None, cancel)
}

/// Finishes solve task `task`, whose valid result holds UNKNOWN cube lines (the time limit
/// reached them, [`is_unknown`]): runs only those lines again, under the job's time limit as
/// the caller set it in `folder` (`work --timeout`), and writes the result with every other
/// line's answer kept and `seconds` the two runs' sum. `None` (nothing run) when the task has
/// no valid result or no UNKNOWN line. Public for the program's `work --timeout`.
pub fn retry_unknown(
    folder: &Folder,
    task: usize,
    jobs: usize,
    cancel: &Cancel,
) -> Result<Option<Ran>> {
    let Some(previous) = valid_result(folder, task) else {
        return Ok(None);
    };
    if folder.job.kind != Kind::Solve || !previous.answers.iter().flatten().any(|a| is_unknown(a)) {
        return Ok(None);
    }
    run(folder, task, jobs, true, Some(previous), cancel).map(Some)
}

/// [`run_task`], or with `previous` [`retry_unknown`].
fn run(
    folder: &Folder,
    task: usize,
    jobs: usize,
    redo: bool,
    previous: Option<TaskResult>,
    cancel: &Cancel,
) -> Result<Ran> {
    let job = &folder.job;
    let Some(t) = folder.tasks.get(task) else {
        return Err(Error::Usage(format!(
            "--task {task} is out of range: the job in {} has tasks 0..{}",
            folder.dir.display(),
            folder.tasks.len().saturating_sub(1)
        )));
    };
    if !redo && let Some(r) = valid_result(folder, task) {
        return Ok(Ran::AlreadyDone(r));
    }
    let started = folder.started_path(task);
    crate::atomic_file::write_text_atomic(
        &started,
        &format!(
            "{} {} {}\n",
            host_name(),
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs())
        ),
    )?;
    let t0 = Instant::now();
    let piece = job.piece()?;
    let options = job.options()?;
    let lines: Vec<&CubeLine> = t.lines.iter().map(|&i| &folder.cubes[i]).collect();
    let mut result = TaskResult {
        tool: env!("CARGO_PKG_NAME").into(),
        version: env!("CARGO_PKG_VERSION").into(),
        job_id: job.job_id.clone(),
        task,
        lines: t.lines.clone(),
        counts: None,
        cpu_seconds: None,
        answers: None,
        board: None,
        error: None,
        seconds: 0.0,
        host: host_name(),
        checksum: String::new(),
    };
    let outcome = match job.kind {
        Kind::Count => {
            let engine = CountEngine::parse(job.engine.as_deref().unwrap_or("sat"))?;
            crate::work::run_all(&lines, jobs.max(1), cancel, &|_, _| {}, |line| {
                let cpu = crate::work::thread_cpu_seconds();
                let c = count_line(line, &folder.instance, piece, options, engine, cancel)?;
                Ok((c, crate::work::thread_cpu_seconds() - cpu))
            })
            .map(|counted| {
                let (counts, cpu) = counted.into_iter().unzip();
                result.counts = Some(counts);
                result.cpu_seconds = Some(cpu);
            })
        }
        Kind::Solve => {
            // Positions in the task of the lines to run: all, or the UNKNOWN ones of a retry.
            let before = previous.as_ref().and_then(|p| p.answers.clone());
            let positions: Vec<usize> = match &before {
                Some(answers) => (0..answers.len())
                    .filter(|&k| is_unknown(&answers[k]))
                    .collect(),
                None => (0..t.lines.len()).collect(),
            };
            let indexed: Vec<(usize, &CubeLine)> =
                positions.iter().map(|&k| (t.lines[k], lines[k])).collect();
            solve_lines(folder, &indexed, piece, options, jobs, cancel).map(|(answers, board)| {
                let board = board
                    .map(|b| b.pieces.iter().map(|c| [c.row, c.col]).collect())
                    .or_else(|| previous.as_ref().and_then(|p| p.board.clone()));
                result.answers = Some(match before {
                    Some(mut all) => {
                        for (&k, answer) in positions.iter().zip(answers) {
                            all[k] = answer;
                        }
                        all
                    }
                    None => answers,
                });
                result.board = board;
            })
        }
    };
    // An interrupted task writes nothing, whatever its cubes answered.
    cancel.check()?;
    match outcome {
        Ok(()) => {}
        Err(Error::Interrupted) => return Err(Error::Interrupted),
        Err(e) => result.error = Some(e.to_string()),
    }
    result.seconds = t0.elapsed().as_secs_f64() + previous.as_ref().map_or(0.0, |p| p.seconds);
    result.checksum = result.compute_checksum();
    crate::atomic_file::write_text_atomic(
        &folder.result_path(task),
        &(serde_json::to_string(&result).expect("a result serialises") + "\n"),
    )?;
    let _ = std::fs::remove_file(&started);
    if let Some(e) = &result.error {
        return Err(Error::Solver(format!(
            "task {task} failed (recorded in {}): {e}",
            folder.result_path(task).display()
        )));
    }
    Ok(Ran::Done(result))
}

/// The count of one cube line: a cube's solutions (unweighted), or a `fixed g` line's fixed
/// points on the whole instance.
fn count_line(
    line: &CubeLine,
    base: &Instance,
    piece: Piece,
    options: EncodeOptions,
    engine: CountEngine,
    cancel: &Cancel,
) -> Result<u64> {
    use crate::count::orbits::{self, Formulation};
    let formulation = match engine {
        CountEngine::OrbitValues => Formulation::Values,
        _ => Formulation::Pairs,
    };
    let by_orbits = |instance: &Instance, g: Option<Symmetry>| {
        let group = crate::symmetry::generated(&[g.unwrap_or(Symmetry::Id)]);
        match orbits::Problem::of(instance, &piece, &group)? {
            Some(p) => orbits::fixed(&p, formulation, 1, &|_, _| {}, cancel),
            None => Ok(0),
        }
    };
    if let (CubeLine::Fixed(h), Some(g)) = (line, options.symmetric) {
        // A `--symmetric g` job's `fixed h`: the boards g and h both fix, counted on their
        // orbits (whatever the job's engine: these are the small counts).
        let group = crate::symmetry::generated(&[g, *h]);
        return match orbits::Problem::of(base, &piece, &group)? {
            Some(p) => orbits::fixed(&p, formulation, 1, &|_, _| {}, cancel),
            None => Ok(0),
        };
    }
    match (line, engine) {
        (CubeLine::Fixed(g), CountEngine::Orbits | CountEngine::OrbitValues) => {
            by_orbits(base, Some(*g))
        }
        (CubeLine::Cube { .. }, CountEngine::Orbits | CountEngine::OrbitValues) => {
            by_orbits(&line.instance(base), options.symmetric)
        }
        (CubeLine::Fixed(g), CountEngine::Backtrack) => backtrack::fixed_points(base, piece, *g),
        (CubeLine::Fixed(g), _) => {
            crate::count::count_symmetric(base, piece, options.amo, *g, 1, cancel)
        }
        (CubeLine::Cube { .. }, CountEngine::Backtrack) => {
            Ok(backtrack::count_with(&line.instance(base), piece, &[], 1, cancel)?.total)
        }
        (CubeLine::Cube { .. }, CountEngine::Sat) => {
            crate::count::dpll::count_cube_with(&line.instance(base), piece, options, cancel)
        }
        (CubeLine::Cube { .. }, CountEngine::Cdcl) => {
            crate::count::sat::count_cube(&line.instance(base), piece, options, cancel)
        }
    }
}

/// Solves the task's cubes (with their line numbers) in order on `jobs` threads until one is
/// SAT (or another task marked the job solved). Returns each line's answer and the verified
/// board, if any. In a certified job (`split solve --certify`) a refuted cube leaves its
/// checked proof in `proofs/` ([`crate::cluster::proofs::cube_proof_path`]).
fn solve_lines(
    folder: &Folder,
    lines: &[(usize, &CubeLine)],
    piece: Piece,
    options: EncodeOptions,
    jobs: usize,
    cancel: &Cancel,
) -> Result<(Vec<String>, Option<Board>)> {
    let job = &folder.job;
    let solved_mark = folder
        .dir
        .join(crate::cluster::RESULTS_DIR)
        .join(SOLVED_MARK);
    let found = cancel.child();
    let timeout = job.timeout.map(Duration::from_secs_f64);
    // The task's lines share the cores; a cube solved by cube-and-conquer gets the rest.
    let jobs = jobs.max(1);
    let cube_jobs = (crate::cpu::cores() / jobs).max(1);
    let format = job.proof_format()?;
    let answers = crate::work::run_all(lines, jobs.max(1), cancel, &|_, _| {}, |&(i, line)| {
        if found.is_cancelled() || solved_mark.exists() {
            return Ok((String::from("SKIPPED"), None));
        }
        let cube = line.instance(&folder.instance);
        let format = format
            .map(|f| crate::cluster::proofs::cube_proof_format(&cube, piece, f))
            .transpose()?;
        let solver = Solver::new(&cube, piece)
            .options(options)
            .solver(job.solver_name())
            .timeout(timeout)
            .jobs(Some(cube_jobs))
            .cancel(found.clone())
            .certify(format.is_some())
            .proof(format.map(|f| crate::cluster::proofs::cube_proof_path(&folder.dir, i, f)))
            .proof_format(format);
        let report = match solver.solve() {
            // Stopped because another cube of this task found a board (not by a signal; an
            // interruption by neither is an error, and the task is run again).
            Err(Error::Interrupted) if found.is_cancelled() && !cancel.is_cancelled() => {
                return Ok((String::from("SKIPPED"), None));
            }
            r => r?,
        };
        Ok(match report.status {
            Answer::Sat(board) => {
                // Checked against the job's instance, not only the cube's.
                options
                    .accept(&board, &folder.instance, piece)
                    .map_err(|why| {
                        Error::WrongAnswer(format!("a cube's board is not a solution: {why}"))
                    })?;
                found.cancel();
                (String::from("SAT"), Some(board))
            }
            Answer::Unsat => (String::from("UNSAT"), None),
            Answer::Unknown(_) if found.is_cancelled() => (String::from("SKIPPED"), None),
            Answer::Unknown(why) => (format!("UNKNOWN: {why}"), None),
        })
    })?;
    let mut board = None;
    let mut out = Vec::with_capacity(answers.len());
    for (answer, b) in answers {
        if board.is_none() {
            board = b;
        }
        out.push(answer);
    }
    if board.is_some() {
        crate::atomic_file::write_text_atomic(&solved_mark, &format!("{}\n", job.job_id))?;
    }
    Ok((out, board))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `--task` wins over the Slurm variable; without it the variable must be a number.
    #[test]
    fn task_number_from_flag_or_slurm() {
        assert_eq!(task_number(Some(3), Some("7")).unwrap(), 3);
        assert_eq!(task_number(None, Some("7")).unwrap(), 7);
        let bad = task_number(None, Some("x")).unwrap_err().to_string();
        assert!(
            bad.contains("SLURM_ARRAY_TASK_ID='x' is not a task number"),
            "{bad}"
        );
        let none = task_number(None, None).unwrap_err().to_string();
        assert!(none.contains("give --task I"), "{none}");
    }
}
