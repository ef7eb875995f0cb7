//! `bench hard`: every AMO encoding under every backend on generated hard instances (blocked
//! n-queens and excluded diagonals near their satisfiable-to-unsatisfiable transition), with the
//! number solved, the total and the maximum time under a timeout.
//!
//! Every run is a child `queens-sat solve ... --format json` ([`super::child`]), so a run past
//! its time limit is really stopped and each starts from a fresh process. Answers are
//! cross-checked: if one configuration says SAT and another UNSAT on the same instance, the
//! bench fails.

use std::collections::{BTreeMap, HashMap};
use std::ffi::OsStr;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::atomic_file::write_text_atomic;
use crate::encode::amo::AmoKind;
use crate::encode::implied::Implied;
use crate::error::{Error, Result};
use crate::interrupt::Cancel;
use crate::solve::Answer;
use crate::suite::cactus::{render_by_n, render_cactus};

use super::catalogue::{instance_text, select};
use super::child::solve_child_json;
use super::report::{by_n, by_n_series, by_n_table, report, tail_table};
use super::runs_csv::{self, Log};
use super::types::{CUBES, Config, Group, HardOptions, HardSet, Results, RunResult};

/// Runs the hard bench and writes its tables to `out`. `exe` is the `queens-sat` binary each run
/// starts as a child; raising `cancel` stops the runs and the bench with
/// [`Error::Interrupted`].
///
/// With a CSV, each run's row is appended as the run ends; with `resume`, the runs already in the
/// CSV are read back, not run again, and reported (and cross-checked) with the new ones.
pub fn run(exe: &Path, cancel: &Cancel, opts: &HardOptions, out: &mut dyn Write) -> Result<()> {
    let io = |e| Error::io("stdout", e);
    let set = select(opts)?;
    if opts.list {
        for inst in &set {
            writeln!(out, "{}", inst.name()).map_err(io)?;
        }
        return Ok(());
    }
    let default_amo = AmoKind::DEFAULT;
    let configs: Vec<Config> = opts
        .solvers
        .iter()
        .flat_map(|s| {
            opts.amos.iter().map(|&amo| Config {
                solver: s.clone(),
                amo,
            })
        })
        .chain(opts.portfolios.iter().map(|p| Config {
            solver: p.clone(),
            amo: default_amo,
        }))
        .collect();
    let mut results: Results = BTreeMap::new();
    let log = match &opts.csv {
        Some(path) => {
            if opts.resume {
                let old = runs_csv::read(path)?;
                let read_back = old.len();
                let index: HashMap<runs_csv::Key, (usize, usize)> = (0..set.len())
                    .flat_map(|i| (0..configs.len()).map(move |c| (i, c)))
                    .map(|(i, c)| (runs_csv::key(&set[i], &configs[c]), (i, c)))
                    .collect();
                let mut outside = 0;
                for row in old {
                    match index.get(&row.key) {
                        // A repeated row: the first one counts.
                        Some(k) => {
                            results.entry(*k).or_insert(row.result);
                        }
                        None => outside += 1,
                    }
                }
                writeln!(
                    out,
                    "{}: {read_back} earlier runs read back (--resume), {} of this bench, {outside} of other instances or configurations (kept, not reported); {} to run",
                    path.display(),
                    results.len(),
                    set.len() * configs.len() - results.len()
                )
                .map_err(io)?;
            }
            Some(Log::open(path, opts.resume)?)
        }
        None => None,
    };
    // Instance-major order: the configurations of one instance run close together in time.
    let tasks: Vec<(usize, usize)> = (0..set.len())
        .flat_map(|i| (0..configs.len()).map(move |c| (i, c)))
        .filter(|k| !results.contains_key(k))
        .collect();
    let dir = tempfile::tempdir().map_err(|e| Error::io("temp dir", e))?;
    let mut files: BTreeMap<usize, PathBuf> = BTreeMap::new();
    for &(i, _) in &tasks {
        if let std::collections::btree_map::Entry::Vacant(e) = files.entry(i) {
            // The instance file of each run: see [`instance_text`].
            let path = dir.path().join(format!("{}.txt", set[i].name()));
            write_text_atomic(&path, &instance_text(&set[i])?)?;
            e.insert(path);
        }
    }
    let progress = crate::progress::Progress::stderr("bench hard");
    let runs = crate::work::run_all(
        &tasks,
        opts.jobs.max(1),
        cancel,
        &|done, total| progress.update(done, total),
        |&(i, c)| {
            let r = run_child(
                exe,
                cancel,
                &files[&i],
                &configs[c],
                opts.timeout,
                opts.implied,
            )?;
            // A run that ended as the bench was stopped may have been cut short: no row for it.
            cancel.check()?;
            if let Some(log) = &log {
                log.append(&set[i], &configs[c], &r)?;
            }
            Ok(r)
        },
    );
    progress.finish();
    results.extend(tasks.iter().copied().zip(runs?));
    let report = report(&set, &configs, &results, opts);
    write!(out, "{}", report.text).map_err(io)?;
    write!(out, "{}", tail_table(&set, &configs, &results)).map_err(io)?;
    let by_n = by_n(&set, &configs, &results);
    if matches!(opts.set, HardSet::Tail | HardSet::Frontier) && !by_n.is_empty() {
        write!(out, "{}", by_n_table(&configs, &by_n)).map_err(io)?;
    }
    if let Some(path) = &opts.cactus {
        let series: Vec<(String, Vec<f64>)> = configs
            .iter()
            .enumerate()
            .map(|(c, config)| {
                let times = (0..set.len())
                    .filter_map(|i| results.get(&(i, c)))
                    .filter(|r| matches!(r.outcome, Ok(Answer::Sat(()) | Answer::Unsat)))
                    .map(|r| r.seconds)
                    .collect();
                (config.label(), times)
            })
            .collect();
        let title = format!(
            "queens-sat bench hard: {} instances, timeout {} s",
            set.len(),
            opts.timeout
        );
        write_text_atomic(path, &render_cactus(&title, &series)?)?;
        writeln!(out, "cactus plot: {}", path.display()).map_err(io)?;
    }
    if let Some(path) = &opts.plot {
        let series = by_n_series(&configs, &by_n);
        let title = format!(
            "queens-sat bench hard: excluded diagonals, {} instances, timeout {} s",
            set.iter().filter(|i| i.group != Group::Blocked).count(),
            opts.timeout
        );
        write_text_atomic(
            path,
            &render_by_n(&title, f64::from(opts.timeout), &series)?,
        )?;
        writeln!(out, "plot: {}", path.display()).map_err(io)?;
    }
    if report.problems.is_empty() {
        Ok(())
    } else {
        Err(Error::Solver(format!(
            "bench hard: {}",
            report.problems.join("; ")
        )))
    }
}

/// Runs `exe solve --instance file --solver S --amo A --timeout T --format json`.
fn run_child(
    exe: &Path,
    cancel: &Cancel,
    file: &Path,
    config: &Config,
    timeout: u32,
    implied: Option<Implied>,
) -> Result<RunResult> {
    let amo = config.amo.name();
    let cubes = config.solver == CUBES;
    let solver: &OsStr = if cubes {
        "varisat".as_ref()
    } else {
        config.solver.as_ref()
    };
    let mut args: Vec<&OsStr> = vec![
        "--instance".as_ref(),
        file.as_os_str(),
        "--solver".as_ref(),
        solver,
        "--amo".as_ref(),
        amo.as_ref(),
    ];
    if cubes {
        args.push("--cubes".as_ref());
    }
    if let Some(i) = implied {
        args.push("--implied".as_ref());
        args.push(i.name().as_ref());
    }
    let child = solve_child_json(exe, &args, timeout, cancel)?;
    let outcome = child.report.and_then(|record| record.answer());
    Ok(RunResult {
        outcome,
        // Milliseconds, as the CSV holds them: a resumed report equals the first one.
        seconds: (child.seconds * 1000.0).round() / 1000.0,
    })
}
