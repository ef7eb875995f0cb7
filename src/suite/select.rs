//! `suite RECIPE --select`: choosing benchmarks by hardness, as the SAT Competition does.
//!
//! Every written file is first given to a **budget solver** (MiniSat by default, an external
//! program by name or path) with a short limit per instance (60 s by default); what it decides
//! is `easy` and dropped. What it leaves undecided goes to the **reference solver** (the suite's
//! `--solver`, queens-sat's default strategy unless told otherwise) with a long limit (1 h by
//! default): what that decides has `passed`, what it does not is `too-hard`. From what passed,
//! each family keeps up to `per_family` instances (20, the SAT Competition's quota), drawn with
//! a seeded shuffle and balanced so that the kept SAT and UNSAT instances differ by at most
//! [`MAX_IMBALANCE`]; a family that cannot fill its quota under that rule reports the
//! shortfall. With a quota over the whole selection ([`SelectOptions::total`], `--total`) the
//! balance is the whole selection's instead: each family keeps up to `per_family` as near to
//! even as it has them, and [`trim`] drops instances from the families that keep the most until
//! the total and the balance hold, so that families of one verdict balance each other (the
//! MiniSat-hard SAT and UNSAT instances of a generator often sit at different parameters).
//! The SAT Competition 2026 asks each team for 20 new instances, at least 10 of
//! which MiniSat does not solve in a minute and the submitter's solver solves within an hour:
//! the defaults select exactly those.
//!
//! **Model counting** (`counter`): the files carry `c t pmc` and `c p show` (the projection onto
//! the cell variables, whose projected count is the number of solutions), as the Model Counting
//! Competition reads them. With a counter (any program by path that prints the competition's
//! `c s exact arb int N`, or `s mc N` / `s pmc N`), the counter replaces both solvers: it runs
//! with the reference's limit; what it counts in less than the budget limit is `easy`, what it
//! counts within the reference's limit passes (SAT when the count is positive), the rest is
//! `too-hard`; the exact count goes to the manifest's `count` column. The draw is then not
//! balanced (a zero count is as good a benchmark as a positive one).
//!
//! **Resumable.** Each finished instance appends one JSON line ([`Run`]) to
//! `selection.jsonl` in the suite's folder, flushed before the next is taken; a re-run reads the
//! file and runs only the instances that have no line for the same file, GBD hash, solvers and
//! limits. A line cut short by a killed run is dropped (and that instance run again). The
//! manifest's selection columns are filled from the file on every run.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::answer::Answer;
use crate::error::{BadOption, Error, Opt, Result};
use crate::interrupt::Cancel;
use crate::solve::external::ExternalSolver;

use super::SolveWith;
use super::manifest::Row;

/// The file of finished runs in the suite's folder.
pub const RUNS_FILE: &str = "selection.jsonl";

/// The largest difference between the kept SAT and UNSAT instances of a family.
pub const MAX_IMBALANCE: usize = 2;

/// The budget solver's default limit per instance: the SAT Competition's "MiniSat within 1
/// minute".
pub const DEFAULT_BUDGET_LIMIT: Duration = Duration::from_secs(60);

/// The reference solver's default limit per instance: the SAT Competition's "the submitter's
/// solver within 1 hour".
pub const DEFAULT_REFERENCE_LIMIT: Duration = Duration::from_secs(3600);

/// The default number of instances kept per family (the SAT Competition's quota per team).
pub const DEFAULT_PER_FAMILY: usize = 20;

/// How to select.
#[derive(Clone, Debug)]
pub struct SelectOptions {
    /// The budget solver as given (a name on PATH or a path; `minisat` by default).
    pub budget: String,
    /// Its program, resolved.
    pub budget_solver: ExternalSolver,
    /// Its limit per instance.
    pub budget_limit: Duration,
    /// Instances kept per family.
    pub per_family: usize,
    /// The seed of the draw within each family.
    pub seed: u64,
    /// A quota over the whole selection (`--total`): each family keeps up to `per_family`
    /// without a balance of its own, and the kept instances are trimmed to `total`, balanced
    /// over the whole selection ([`trim`]). None: each family is balanced on its own.
    pub total: Option<usize>,
    /// A model counter (its name as given, its program) that replaces both solvers (see the
    /// module documentation).
    pub counter: Option<(String, PathBuf)>,
}

impl SelectOptions {
    /// The budget solver `budget` (looked up now: a missing program is a one-line error naming
    /// `--budget-solver`), its limit, the quota per family and the seed.
    pub fn new(
        budget: &str,
        budget_limit: Duration,
        per_family: usize,
        seed: u64,
    ) -> Result<SelectOptions> {
        let mut budget_solver =
            ExternalSolver::new(budget).map_err(|e| e.for_option(Opt::BudgetSolver))?;
        if budget_limit.is_zero() {
            return Err(BadOption::invalid(
                Opt::BudgetLimit,
                0,
                "must be a positive number of seconds",
            ));
        }
        if per_family == 0 {
            return Err(BadOption::invalid(Opt::PerFamily, 0, "must be at least 1"));
        }
        budget_solver.timeout = Some(budget_limit);
        Ok(SelectOptions {
            budget: budget.to_string(),
            budget_solver,
            budget_limit,
            per_family,
            seed,
            total: None,
            counter: None,
        })
    }

    /// The same, selecting by the model counter `counter` (a name on PATH or a path; looked
    /// up now) instead of the two solvers: `budget_limit` is then the counter's "easy" time.
    pub fn counting(
        counter: &str,
        budget_limit: Duration,
        per_family: usize,
        seed: u64,
    ) -> Result<SelectOptions> {
        let program = crate::solve::external::resolve_solver(counter)
            .map_err(|e| e.for_option(Opt::Counter))?;
        let budget_solver = ExternalSolver {
            program: program.clone(),
            ..ExternalSolver::new(&program.display().to_string())?
        };
        let mut options = SelectOptions {
            budget: String::new(),
            budget_solver,
            budget_limit,
            per_family,
            seed,
            total: None,
            counter: Some((counter.to_string(), program)),
        };
        if budget_limit.is_zero() {
            return Err(BadOption::invalid(
                Opt::BudgetLimit,
                0,
                "must be a positive number of seconds",
            ));
        }
        if per_family == 0 {
            return Err(BadOption::invalid(Opt::PerFamily, 0, "must be at least 1"));
        }
        options.budget_solver.timeout = Some(budget_limit);
        Ok(options)
    }

    /// `suite --select`'s options from its flags as given (`None` where absent): the model
    /// counter `counter` if given, else the budget solver (default `minisat`); the budget's
    /// limit in seconds (default [`DEFAULT_BUDGET_LIMIT`], a bad one named `--budget-limit`),
    /// the quota per family (default [`DEFAULT_PER_FAMILY`]), the seed (default 0) and the
    /// quota `total`. Public (feature `harness`, as this module) for the program's `suite`.
    pub fn from_flags(
        counter: Option<&str>,
        budget_solver: Option<&str>,
        budget_limit: Option<f64>,
        per_family: Option<usize>,
        seed: Option<u64>,
        total: Option<usize>,
    ) -> Result<SelectOptions> {
        let budget_limit = match budget_limit {
            Some(secs) => {
                crate::options::timeout(secs).map_err(|e| e.for_option(Opt::BudgetLimit))?
            }
            None => DEFAULT_BUDGET_LIMIT,
        };
        let per_family = per_family.unwrap_or(DEFAULT_PER_FAMILY);
        let seed = seed.unwrap_or(0);
        let options = match counter {
            Some(counter) => SelectOptions::counting(counter, budget_limit, per_family, seed)?,
            None => SelectOptions::new(
                budget_solver.unwrap_or("minisat"),
                budget_limit,
                per_family,
                seed,
            )?,
        };
        match total {
            Some(total) => options.with_total(total),
            None => Ok(options),
        }
    }

    /// The same with a quota of `total` instances over the whole selection (see
    /// [`SelectOptions::total`]); 0 is refused, naming `--total`.
    pub fn with_total(self, total: usize) -> Result<SelectOptions> {
        if total == 0 {
            return Err(BadOption::invalid(Opt::Total, 0, "must be at least 1"));
        }
        Ok(SelectOptions {
            total: Some(total),
            ..self
        })
    }
}

/// One finished instance: a line of [`RUNS_FILE`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Run {
    /// The file, relative to the suite's folder.
    pub file: String,
    /// Its GBD hash.
    pub gbdhash: String,
    /// The budget solver as given.
    pub budget_solver: String,
    /// Its limit, seconds.
    pub budget_limit: f64,
    /// Its verdict: `SAT`, `UNSAT` or `UNKNOWN`.
    pub budget_status: String,
    /// Its wall-clock seconds.
    pub budget_seconds: f64,
    /// The reference solver (the suite's `--solver` value).
    pub solver: String,
    /// Its limit, seconds (none: no limit).
    pub limit: Option<f64>,
    /// Its verdict, or empty when it did not run (the budget solver decided).
    pub status: String,
    /// Its seconds, when it ran.
    pub seconds: Option<f64>,
    /// Whether its UNSAT came with a checked refutation.
    pub certified: bool,
    /// The processor model the runs were timed on.
    pub cpu: String,
    /// The exact model count, when a counter ran (decimal).
    #[serde(default)]
    pub count: Option<String>,
}

impl Run {
    /// What a run answers for: the file, its hash, the solvers and their limits.
    fn key(&self) -> String {
        key(
            &self.file,
            &self.gbdhash,
            &self.budget_solver,
            self.budget_limit,
            &self.solver,
            self.limit,
        )
    }
}

fn key(
    file: &str,
    hash: &str,
    budget: &str,
    budget_limit: f64,
    solver: &str,
    limit: Option<f64>,
) -> String {
    format!("{file}\t{hash}\t{budget}\t{budget_limit}\t{solver}\t{limit:?}")
}

/// What the selection found in one family.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SelectTally {
    /// The family.
    pub family: String,
    /// Its instances (rows of the manifest).
    pub instances: usize,
    /// Decided by presolve or unit propagation (no file).
    pub presolved: usize,
    /// Duplicates of another row (no file).
    pub duplicates: usize,
    /// Decided by the budget solver within its limit.
    pub easy: usize,
    /// Decided by neither solver.
    pub too_hard: usize,
    /// Budget-undecided and reference-decided: the candidates.
    pub passed: usize,
    /// Kept SAT instances.
    pub kept_sat: usize,
    /// Kept UNSAT instances.
    pub kept_unsat: usize,
    /// How many fewer than the quota were kept.
    pub shortfall: usize,
}

impl SelectTally {
    /// Kept instances.
    pub fn kept(&self) -> usize {
        self.kept_sat + self.kept_unsat
    }
}

/// What the selection run did, for the summary and the pack's description.
#[derive(Clone, Debug, Default)]
pub struct Selection {
    /// The budget solver as given.
    pub budget: String,
    /// Its limit, seconds.
    pub budget_limit: f64,
    /// The reference solver.
    pub solver: String,
    /// Its limit, seconds.
    pub limit: Option<f64>,
    /// The quota per family.
    pub per_family: usize,
    /// The seed of the draw.
    pub seed: u64,
    /// The quota over the whole selection, if any ([`SelectOptions::total`]).
    pub total: Option<usize>,
    /// How many fewer than the quota were kept: the whole selection's under a total, the
    /// families' summed otherwise.
    pub shortfall: usize,
    /// The processor model of this run.
    pub cpu: String,
    /// Instances run in this run (the others came from [`RUNS_FILE`]).
    pub ran: usize,
    /// Per family, in recipe order.
    pub families: Vec<SelectTally>,
}

/// The verdict of an answer, as the manifest spells it.
fn status_of<T>(answer: &Answer<T>) -> &'static str {
    match answer {
        Answer::Sat(_) => "SAT",
        Answer::Unsat => "UNSAT",
        Answer::Unknown(_) => "UNKNOWN",
    }
}

/// Reads [`RUNS_FILE`]: its runs by key. A last line without its newline (a run killed while
/// writing it) is cut off the file; any other bad line is an error naming the file and line.
pub fn read_runs(path: &Path) -> Result<Vec<Run>> {
    let name = path.display().to_string();
    let text = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Error::io(&name, e)),
    };
    let complete = match text.iter().rposition(|&b| b == b'\n') {
        Some(i) => i + 1,
        None => 0,
    };
    if complete < text.len() {
        eprintln!(
            "queens-sat: {name}: dropping an unfinished last line ({} bytes); its instance runs again",
            text.len() - complete
        );
        crate::atomic_file::write_atomic(path, |f| {
            f.write_all(&text[..complete])
                .map_err(|e| Error::io(&name, e))
        })?;
    }
    let text = String::from_utf8_lossy(&text[..complete]);
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l).map_err(|e| Error::parse(&name, i + 1, e.to_string()))
        })
        .collect()
}

/// Runs the selection over the manifest `rows` of the files in `dir`: the budget solver on
/// every row with a file and no run in [`RUNS_FILE`], `reference(i)` (the suite's solver on
/// row `i`: its status, seconds and whether certified) on what it leaves undecided; then fills
/// the rows' selection columns and draws each family's quota. On an error (or an interrupt) the
/// rows are filled with what finished and the error comes back beside the selection, so that
/// the caller records them before reporting it.
#[allow(clippy::too_many_arguments)] // the suite's folder, settings, workers and its solve
pub(super) fn run(
    rows: &mut [Row],
    dir: &Path,
    options: &SelectOptions,
    with: &SolveWith,
    jobs: usize,
    cancel: &Cancel,
    progress: &(dyn Fn(usize, usize) + Sync),
    reference: &(dyn Fn(usize) -> Result<(&'static str, f64, bool)> + Sync),
) -> (Selection, Option<Error>) {
    let path: PathBuf = dir.join(RUNS_FILE);
    let budget_limit = options.budget_limit.as_secs_f64();
    let limit = with.timeout.map(|t| t.as_secs_f64());
    let cpu = crate::cpu::model_name();
    let solver = match &options.counter {
        Some((name, _)) => name.clone(),
        None => with.solver.clone(),
    };
    let mut selection = Selection {
        budget: options.budget.clone(),
        budget_limit,
        solver: solver.clone(),
        limit,
        per_family: options.per_family,
        seed: options.seed,
        total: options.total,
        cpu: cpu.clone(),
        ..Selection::default()
    };
    let key_of = |row: &Row| {
        key(
            &row.file,
            &row.gbdhash,
            &options.budget,
            budget_limit,
            &solver,
            limit,
        )
    };
    let mut runs: HashMap<String, Run> = match read_runs(&path) {
        Ok(runs) => runs.into_iter().map(|r| (r.key(), r)).collect(),
        Err(e) => return (selection, Some(e)),
    };
    let todo: Vec<usize> = (0..rows.len())
        .filter(|&i| rows[i].skipped.is_empty() && !runs.contains_key(&key_of(&rows[i])))
        .collect();
    let file = match std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
    {
        Ok(f) => Mutex::new(f),
        Err(e) => return (selection, Some(Error::io(path.display().to_string(), e))),
    };
    let shared: &[Row] = rows;
    let (done, error) = crate::work::run(&todo, jobs, cancel, progress, |&i| {
        let row = &shared[i];
        let cnf = dir.join(&row.file);
        if let Some((_, program)) = &options.counter {
            let (count, seconds) = run_counter(program, &cnf, with.timeout, cancel)?;
            cancel.check()?;
            let status = match count.as_deref() {
                None => "UNKNOWN",
                Some("0") => "UNSAT",
                Some(_) => "SAT",
            };
            let run = Run {
                file: row.file.clone(),
                gbdhash: row.gbdhash.clone(),
                budget_solver: String::new(),
                budget_limit,
                budget_status: String::new(),
                budget_seconds: 0.0,
                solver: solver.clone(),
                limit,
                status: status.into(),
                seconds: Some(seconds),
                certified: false,
                cpu: cpu.clone(),
                count,
            };
            append(&file, &path, &run)?;
            return Ok(run);
        }
        let (budget, budget_seconds) = run_checked(&options.budget_solver, &cnf, cancel)?;
        cancel.check()?;
        let budget_status = status_of(&budget);
        let (status, seconds, certified) = if budget_status == "UNKNOWN" {
            let (status, seconds, certified) = reference(i)?;
            cancel.check()?;
            (status.to_string(), Some(seconds), certified)
        } else {
            (String::new(), None, false)
        };
        let run = Run {
            file: row.file.clone(),
            gbdhash: row.gbdhash.clone(),
            budget_solver: options.budget.clone(),
            budget_limit,
            budget_status: budget_status.to_string(),
            budget_seconds,
            solver: with.solver.clone(),
            limit,
            status,
            seconds,
            certified,
            cpu: cpu.clone(),
            count: None,
        };
        append(&file, &path, &run)?;
        Ok(run)
    });
    for run in done.into_iter().flatten() {
        selection.ran += 1;
        runs.insert(run.key(), run);
    }
    fill(rows, &runs, &key_of, options, &mut selection);
    (selection, error)
}

/// Runs an external solver (the budget solver; the pack's reference) on one CNF file: its
/// verdict (a SAT model decoded and checked against the file's header) and its wall-clock
/// seconds.
pub(super) fn run_checked(
    solver: &ExternalSolver,
    path: &Path,
    cancel: &Cancel,
) -> Result<(Answer<()>, f64)> {
    let header = crate::export::header::read_header_file(path)?;
    let mut solver = solver.clone();
    solver.cancel = Some(cancel.clone());
    let t0 = Instant::now();
    let answer = solver.solve_file(path, header.num_vars as usize)?;
    let seconds = t0.elapsed().as_secs_f64();
    let verdict = match answer {
        Answer::Sat(model) => {
            let board = crate::export::model_board(&header, Answer::Sat(model));
            if let Answer::Sat(b) = &board {
                header.accept(b).map_err(|why| {
                    Error::WrongAnswer(format!(
                        "{}: {}'s model is not a solution: {why}",
                        path.display(),
                        solver.name()
                    ))
                })?;
            }
            Answer::Sat(())
        }
        Answer::Unsat => Answer::Unsat,
        Answer::Unknown(why) => Answer::Unknown(why),
    };
    Ok((verdict, seconds))
}

/// Appends `run` to the runs file `file` (at `path`) as one line.
fn append(file: &Mutex<std::fs::File>, path: &Path, run: &Run) -> Result<()> {
    let line = serde_json::to_string(run).map_err(|e| Error::Internal(e.to_string()))? + "\n";
    let mut f = file.lock().unwrap_or_else(|p| p.into_inner());
    // One write of the whole line, then flushed to the file: a kill leaves at most this line
    // unfinished, which the next run drops.
    f.write_all(line.as_bytes())
        .and_then(|_| f.flush())
        .map_err(|e| Error::io(path.display().to_string(), e))
}

/// The exact count in a model counter's output: the Model Counting Competition's
/// `c s exact arb int N` line, or `s mc N` / `s pmc N`; none when it gave none (or said
/// `s UNKNOWN`).
pub fn parse_count(output: &str) -> Option<String> {
    output.lines().find_map(|line| {
        let words: Vec<&str> = line.split_whitespace().collect();
        let n = match words.as_slice() {
            ["c", "s", "exact", .., n] => n,
            ["s", "mc" | "pmc", n] => n,
            _ => return None,
        };
        (!n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())).then(|| {
            let trimmed = n.trim_start_matches('0');
            if trimmed.is_empty() { "0" } else { trimmed }.to_string()
        })
    })
}

/// Runs the counter `program` on `cnf` with `limit`: the exact count (none on the limit or
/// without one in its output) and its wall-clock seconds. A counter that fails (no count and a
/// non-zero exit, or a signal) is an error quoting its stderr's last line.
fn run_counter(
    program: &Path,
    cnf: &Path,
    limit: Option<Duration>,
    cancel: &Cancel,
) -> Result<(Option<String>, f64)> {
    let name = program.file_name().map_or_else(
        || program.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let mut cmd = std::process::Command::new(program);
    cmd.arg(cnf);
    let done = crate::process::run(
        &mut cmd,
        &name,
        &crate::process::Limits {
            timeout: limit,
            term_grace: Duration::ZERO,
            max_stdout: crate::solve::external::DEFAULT_MAX_OUTPUT_BYTES,
            cancel: Some(cancel.clone()),
        },
    )?;
    if !matches!(done.ended, crate::process::Ended::Exited) {
        return Ok((None, done.seconds));
    }
    let stdout = done.stdout.map_err(Error::Solver)?;
    let count = parse_count(&String::from_utf8_lossy(&stdout));
    if count.is_none() && !done.status.success() {
        let tail = String::from_utf8_lossy(&done.stderr_tail);
        return Err(Error::Solver(format!(
            "{name} failed on {} ({}): {}",
            cnf.display(),
            done.status,
            tail.lines().last().unwrap_or("no message")
        )));
    }
    Ok((count, done.seconds))
}

/// Fills the rows' selection columns from `runs` and draws each family's quota.
fn fill(
    rows: &mut [Row],
    runs: &HashMap<String, Run>,
    key_of: &dyn Fn(&Row) -> String,
    options: &SelectOptions,
    selection: &mut Selection,
) {
    let mut families: Vec<SelectTally> = Vec::new();
    let mut candidates: Vec<Vec<usize>> = Vec::new();
    for (i, row) in rows.iter_mut().enumerate() {
        row.clear_selection();
        let f = match families.iter().position(|t| t.family == row.family) {
            Some(f) => f,
            None => {
                families.push(SelectTally {
                    family: row.family.clone(),
                    ..SelectTally::default()
                });
                candidates.push(Vec::new());
                families.len() - 1
            }
        };
        let tally = &mut families[f];
        tally.instances += 1;
        if row.decided_unwritten() {
            tally.presolved += 1;
            continue;
        }
        if !row.skipped.is_empty() {
            tally.duplicates += 1;
            continue;
        }
        let Some(run) = runs.get(&key_of(row)) else {
            continue; // not run (interrupted)
        };
        row.budget_solver = run.budget_solver.clone();
        row.budget_status = run.budget_status.clone();
        row.budget_seconds = Some(run.budget_seconds);
        row.budget_limit = Some(run.budget_limit);
        row.limit = run.limit;
        row.cpu = run.cpu.clone();
        if !run.status.is_empty() {
            row.solver = run.solver.clone();
            row.status = run.status.clone();
            row.seconds = run.seconds;
            row.certified = run.certified;
        }
        row.count = run.count.clone().unwrap_or_default();
        // A counter's run: easy when counted under the budget limit.
        let easy = match options.counter {
            Some(_) => run.status != "UNKNOWN" && run.seconds.unwrap_or(0.0) < run.budget_limit,
            None => run.budget_status != "UNKNOWN",
        };
        row.selection = if easy {
            tally.easy += 1;
            "easy"
        } else if run.status == "SAT" || run.status == "UNSAT" {
            tally.passed += 1;
            candidates[f].push(i);
            "not-chosen"
        } else {
            tally.too_hard += 1;
            "too-hard"
        }
        .to_string();
    }
    // Each family's draw: its SAT and UNSAT candidates, each in the seeded order.
    let mut draws: Vec<(Vec<usize>, Vec<usize>)> = Vec::new();
    for (tally, mut candidates) in families.iter_mut().zip(candidates) {
        candidates.sort_by(|&a, &b| rows[a].file.cmp(&rows[b].file));
        let (mut sat, mut unsat): (Vec<usize>, Vec<usize>) = candidates
            .into_iter()
            .partition(|&i| rows[i].status == "SAT");
        let mut rng = crate::prng::Prng::new(options.seed);
        rng.shuffle(&mut sat);
        rng.shuffle(&mut unsat);
        let (s, u) = match options.counter {
            // Counting: a zero count is no rarer benchmark than a positive one; no balance.
            Some(_) => {
                let mut all: Vec<usize> = sat.iter().chain(&unsat).copied().collect();
                rng.shuffle(&mut all);
                all.truncate(options.per_family);
                sat.retain(|i| all.contains(i));
                unsat.retain(|i| all.contains(i));
                (sat.len(), unsat.len())
            }
            // A quota over the whole selection: the balance is the whole selection's.
            None if options.total.is_some() => {
                nearest_even(sat.len(), unsat.len(), options.per_family)
            }
            None => balanced(sat.len(), unsat.len(), options.per_family),
        };
        sat.truncate(s);
        unsat.truncate(u);
        tally.kept_sat = s;
        tally.kept_unsat = u;
        tally.shortfall = match options.total {
            Some(_) => 0,
            None => options.per_family - s - u,
        };
        draws.push((sat, unsat));
    }
    if let Some(total) = options.total {
        trim(&mut draws, total, options.counter.is_none());
        for (tally, (sat, unsat)) in families.iter_mut().zip(&draws) {
            tally.kept_sat = sat.len();
            tally.kept_unsat = unsat.len();
        }
        let kept: usize = families.iter().map(SelectTally::kept).sum();
        selection.shortfall = total - kept;
    } else {
        selection.shortfall = families.iter().map(|t| t.shortfall).sum();
    }
    for (sat, unsat) in &draws {
        for &i in sat.iter().chain(unsat) {
            rows[i].selection = "kept".into();
        }
    }
    selection.families = families;
}

/// Trims the families' draws (each a family's kept SAT and UNSAT instances, in draw order) to
/// at most `total` instances in all and, when `balance`, to kept SAT and UNSAT counts (over all
/// families) within [`MAX_IMBALANCE`] of each other: one instance at a time, of the verdict in
/// excess (the more numerous one when only the total is over, SAT on a tie; either verdict
/// without `balance`), from the family that keeps the most instances (the later in recipe order
/// on a tie), its last drawn. So the largest families give way first, and what remains is as
/// large as the balance allows.
pub fn trim(draws: &mut [(Vec<usize>, Vec<usize>)], total: usize, balance: bool) {
    loop {
        let sat: usize = draws.iter().map(|d| d.0.len()).sum();
        let unsat: usize = draws.iter().map(|d| d.1.len()).sum();
        // Which verdict to drop: Some(true) SAT, Some(false) UNSAT, None either.
        let drop_sat = if balance && sat > unsat + MAX_IMBALANCE {
            Some(true)
        } else if balance && unsat > sat + MAX_IMBALANCE {
            Some(false)
        } else if sat + unsat > total {
            balance.then_some(sat >= unsat)
        } else {
            return;
        };
        let has = |d: &(Vec<usize>, Vec<usize>)| match drop_sat {
            Some(true) => !d.0.is_empty(),
            Some(false) => !d.1.is_empty(),
            None => !d.0.is_empty() || !d.1.is_empty(),
        };
        let Some(f) = (0..draws.len())
            .filter(|&f| has(&draws[f]))
            .max_by_key(|&f| (draws[f].0.len() + draws[f].1.len(), f))
        else {
            return;
        };
        let (sat, unsat) = &mut draws[f];
        match drop_sat {
            Some(true) => sat.pop(),
            Some(false) => unsat.pop(),
            // Without balance: the family's last drawn of the verdict it keeps more of.
            None if sat.len() >= unsat.len() => sat.pop(),
            None => unsat.pop(),
        };
    }
}

/// How many SAT and UNSAT instances to keep out of `sat` and `unsat` for a quota of `k`, with
/// no bound on their difference: the most, at most `k`, the nearer to even (then the fewer SAT)
/// among those.
pub fn nearest_even(sat: usize, unsat: usize, k: usize) -> (usize, usize) {
    let mut best = (0, 0);
    for s in 0..=sat.min(k) {
        let u = unsat.min(k - s);
        let score = |(s, u): (usize, usize)| (s + u, std::cmp::Reverse(s.abs_diff(u)));
        if score((s, u)) > score(best) {
            best = (s, u);
        }
    }
    best
}

/// How many SAT and UNSAT instances to keep out of `sat` and `unsat` for a quota of `k`: the
/// most, at most `k`, with the two counts within [`MAX_IMBALANCE`] of each other (the nearer
/// to even, then the fewer SAT, on a tie).
pub fn balanced(sat: usize, unsat: usize, k: usize) -> (usize, usize) {
    let mut best = (0, 0);
    for s in 0..=sat.min(k) {
        let u = unsat.min(k - s).min(s + MAX_IMBALANCE);
        if s > u + MAX_IMBALANCE {
            continue;
        }
        let better = (s + u, std::cmp::Reverse(s.abs_diff(u)))
            > (best.0 + best.1, std::cmp::Reverse(best.0.abs_diff(best.1)));
        if better {
            best = (s, u);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `suite --select`'s flags: the defaults filled in (60 s, 20 per family, seed 0), a
    /// total kept, and a bad budget limit or total refused by its flag's name.
    #[test]
    fn select_options_from_flags() {
        let sh = Some("/bin/sh");
        let o = SelectOptions::from_flags(None, sh, None, None, None, Some(30)).unwrap();
        assert_eq!(o.budget, "/bin/sh");
        assert_eq!(o.budget_limit, DEFAULT_BUDGET_LIMIT);
        assert_eq!(
            (o.per_family, o.seed, o.total),
            (DEFAULT_PER_FAMILY, 0, Some(30))
        );
        let o = SelectOptions::from_flags(None, sh, Some(2.5), Some(4), Some(9), None).unwrap();
        assert_eq!(o.budget_limit, Duration::from_secs_f64(2.5));
        assert_eq!((o.per_family, o.seed, o.total), (4, 9, None));
        let e = SelectOptions::from_flags(None, sh, Some(-1.0), None, None, None).unwrap_err();
        assert!(e.to_string().contains("--budget-limit"), "{e}");
        let e = SelectOptions::from_flags(None, sh, None, None, None, Some(0)).unwrap_err();
        assert!(e.to_string().contains("--total"), "{e}");
    }

    #[test]
    fn balanced_fills_the_quota_within_the_imbalance() {
        assert_eq!(balanced(30, 30, 20), (10, 10));
        assert_eq!(balanced(3, 30, 20), (3, 5));
        assert_eq!(balanced(30, 0, 20), (2, 0));
        assert_eq!(balanced(9, 30, 20), (9, 11));
        assert_eq!(balanced(0, 0, 20), (0, 0));
        assert_eq!(balanced(5, 4, 20), (5, 4));
        assert_eq!(balanced(30, 30, 7), (3, 4));
        for sat in 0..25 {
            for unsat in 0..25 {
                for k in 1..22 {
                    let (s, u) = balanced(sat, unsat, k);
                    assert!(s <= sat && u <= unsat && s + u <= k);
                    assert!(s.abs_diff(u) <= MAX_IMBALANCE, "{sat} {unsat} {k}");
                    // Nothing larger exists.
                    for s2 in 0..=sat {
                        for u2 in 0..=unsat {
                            if s2 + u2 <= k && s2.abs_diff(u2) <= MAX_IMBALANCE {
                                assert!(s2 + u2 <= s + u);
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn nearest_even_fills_the_quota_as_evenly_as_it_can() {
        assert_eq!(nearest_even(30, 30, 20), (10, 10));
        assert_eq!(nearest_even(3, 30, 20), (3, 17));
        assert_eq!(nearest_even(30, 0, 20), (20, 0));
        assert_eq!(nearest_even(30, 30, 7), (3, 4));
        assert_eq!(nearest_even(2, 1, 9), (2, 1));
        for sat in 0..12 {
            for unsat in 0..12 {
                for k in 1..15 {
                    let (s, u) = nearest_even(sat, unsat, k);
                    assert!(s <= sat && u <= unsat);
                    assert_eq!(s + u, k.min(sat + unsat));
                }
            }
        }
    }

    /// Draws with `counts[f].0` SAT and `counts[f].1` UNSAT instances in family `f`, numbered
    /// `100 f + i` and `100 f + 50 + i`.
    fn draws(counts: &[(usize, usize)]) -> Vec<(Vec<usize>, Vec<usize>)> {
        counts
            .iter()
            .enumerate()
            .map(|(f, &(s, u))| {
                (
                    (0..s).map(|i| f * 100 + i).collect(),
                    (0..u).map(|i| f * 100 + 50 + i).collect(),
                )
            })
            .collect()
    }

    fn sizes(d: &[(Vec<usize>, Vec<usize>)]) -> Vec<(usize, usize)> {
        d.iter().map(|(s, u)| (s.len(), u.len())).collect()
    }

    #[test]
    fn trim_balances_the_whole_selection_from_the_largest_families() {
        // One-sided families balance each other: 8 SAT and 13 UNSAT give 8 + 10, the UNSAT
        // taken from the largest families (the later on a tie).
        let mut d = draws(&[(3, 0), (0, 4), (1, 2), (1, 1), (2, 0), (0, 4), (1, 2)]);
        trim(&mut d, 20, true);
        assert_eq!(
            sizes(&d),
            vec![(3, 0), (0, 3), (1, 2), (1, 1), (2, 0), (0, 3), (1, 1)]
        );
        // The total: the verdict in excess, from the largest family that keeps it (here 10 SAT
        // and 13 UNSAT: UNSAT from the 4-instance UNSAT families, then one more).
        let mut d = draws(&[(4, 0), (3, 0), (0, 4), (1, 2), (1, 1), (0, 4), (1, 2)]);
        trim(&mut d, 20, true);
        let s = sizes(&d);
        assert_eq!(s.iter().map(|x| x.0 + x.1).sum::<usize>(), 20);
        assert_eq!(
            s,
            vec![(4, 0), (3, 0), (0, 3), (1, 2), (1, 1), (0, 3), (1, 1)]
        );
        // What is dropped is the last drawn.
        assert_eq!(d[2].1, vec![250, 251, 252]);
        // Without balance only the total counts.
        let mut d = draws(&[(5, 0), (0, 1)]);
        trim(&mut d, 3, false);
        assert_eq!(sizes(&d), vec![(2, 0), (0, 1)]);
        // Every case: within the total and the imbalance, and as large as they allow.
        for a in 0..5 {
            for b in 0..5 {
                for c in 0..5 {
                    for total in 1..12 {
                        let mut d = draws(&[(a, b), (c, 1), (0, a)]);
                        trim(&mut d, total, true);
                        let sat: usize = d.iter().map(|x| x.0.len()).sum();
                        let unsat: usize = d.iter().map(|x| x.1.len()).sum();
                        assert!(sat + unsat <= total && sat.abs_diff(unsat) <= MAX_IMBALANCE);
                        let (bs, bu) = balanced(a + c, b + 1 + a, total);
                        assert_eq!(sat + unsat, bs + bu, "{a} {b} {c} {total}");
                    }
                }
            }
        }
    }

    #[test]
    fn counts_in_the_competition_formats() {
        assert_eq!(
            parse_count("c o x\ns SATISFIABLE\nc s type mc\nc s exact arb int 0092\n").as_deref(),
            Some("92")
        );
        assert_eq!(parse_count("s mc 0\n").as_deref(), Some("0"));
        assert_eq!(
            parse_count("s pmc 123456789012345678901234567890\n").as_deref(),
            Some("123456789012345678901234567890")
        );
        assert_eq!(parse_count("s UNKNOWN\n"), None);
        assert_eq!(parse_count("s mc 1e5\n"), None);
    }

    #[test]
    fn runs_file_drops_an_unfinished_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(RUNS_FILE);
        let run = Run {
            file: "a.cnf".into(),
            gbdhash: "h".into(),
            budget_solver: "minisat".into(),
            budget_limit: 60.0,
            budget_status: "UNKNOWN".into(),
            budget_seconds: 60.0,
            solver: "auto".into(),
            limit: Some(3600.0),
            status: "SAT".into(),
            seconds: Some(1.5),
            certified: false,
            cpu: "x".into(),
            count: None,
        };
        let line = serde_json::to_string(&run).unwrap();
        std::fs::write(&path, format!("{line}\n{}", &line[..10])).unwrap();
        assert_eq!(read_runs(&path).unwrap(), vec![run.clone()]);
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            format!("{line}\n"),
            "the unfinished line is cut off the file"
        );
        std::fs::write(&path, format!("{line}\nnot json\n")).unwrap();
        let e = read_runs(&path).unwrap_err().to_string();
        assert!(e.contains("selection.jsonl:2"), "{e}");
    }
}
