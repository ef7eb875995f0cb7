//! Benchmark suites: a recipe ([`recipe`]) names families of generated instances; the runner
//! generates every instance, writes its CNF through the same presolve + encoder + DIMACS path as
//! `queens-sat encode`, records it in a manifest ([`manifest`]), optionally solves everything
//! (through [`crate::solve::Solver`], boards verified) and draws the phase-transition picture ([`plot`]).
//!
//! Re-running skips a file whose manifest row describes the same instance and whose content
//! still has the recorded SHA-256; such a row keeps its solver result, and `--solve` only
//! solves rows without a result from the same solver (or with UNKNOWN). `force` redoes all.

pub mod cactus;
pub mod manifest;
pub mod pack;
pub mod plot;
pub mod recipe;
pub mod select;
mod summary;
pub mod typeset;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::answer::Status;
use crate::atomic_file::{write_atomic, write_text_atomic};
use crate::compress::Codec;
use crate::encode::amo::AmoKind;
use crate::encode::{ClauseSink, EncodeOptions, Encoder, Lit};
use crate::error::{Error, Result};
use crate::export::{Format, WriteOptions, write_piped};
use crate::instance::Instance;
use crate::interrupt::{Cancel, CancelWrite};
use crate::piece::Piece;
use crate::presolve::Problem;
use crate::progress::Progress;
use crate::solve;
use manifest::{HashingWriter, Row, UNIT_PROPAGATION};
use recipe::Recipe;

/// How to run a suite.
#[derive(Clone, Debug)]
pub struct Options {
    /// Output folder (default `cnf-out/NAME`).
    pub out_dir: Option<PathBuf>,
    /// Solve every instance through [`crate::solve::Solver`], as `solve` does.
    pub solve: Option<SolveWith>,
    /// Worker threads for writing and solving.
    pub jobs: usize,
    /// Draw the phase-transition picture to this SVG file.
    pub plot: Option<PathBuf>,
    /// Regenerate and re-solve everything.
    pub force: bool,
    /// Compression of the CNF files (`.cnf.xz` ...; plain by default).
    pub compress: Codec,
    /// Its level ([`Codec::level`]).
    pub level: u32,
    /// Select by hardness ([`select`]): the budget solver, then `solve` (the reference) on what
    /// it leaves undecided, instead of solving everything. Needs `solve`.
    pub select: Option<select::SelectOptions>,
    /// After solving, write a submission pack ([`pack`]).
    pub pack: Option<pack::PackOptions>,
    /// Show progress bars on stderr.
    pub progress: bool,
    /// Stop (keeping what finished, for a resume) once raised.
    pub cancel: Cancel,
}

/// How `suite --solve` solves each instance: through [`crate::solve::Solver`], the answer path
/// of `solve`, with a `--solver` value (`auto`, an engine name, an external program or a
/// portfolio) and a time limit per instance.
#[derive(Clone, Debug)]
pub struct SolveWith {
    /// The `--solver` value.
    pub solver: String,
    /// Time limit per instance (UNKNOWN when reached).
    pub timeout: Option<Duration>,
    /// Accept UNSAT only with a checked refutation (`solve --certify`).
    pub certify: bool,
}

impl SolveWith {
    /// `solver` with `timeout`, checked now (an unknown name fails before anything is
    /// written).
    pub fn new(solver: &str, timeout: Option<Duration>) -> Result<SolveWith> {
        if solver != "auto" {
            solve::parse_portfolio(solver, EncodeOptions::from(AmoKind::DEFAULT))?;
        }
        Ok(SolveWith {
            solver: solver.to_string(),
            timeout,
            certify: false,
        })
    }
}

/// What a run did.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// The output folder.
    pub out_dir: PathBuf,
    /// CNF files in the suite.
    pub files: usize,
    /// Files written in this run.
    pub written: usize,
    /// Files whose SHA-256 matched the manifest (not rewritten).
    pub skipped: usize,
    /// Bytes of all files of the suite.
    pub bytes: u64,
    /// Bytes written in this run.
    pub bytes_written: u64,
    /// Seconds spent generating and writing.
    pub write_seconds: f64,
    /// Instances solved in this run.
    pub solved: usize,
    /// Counts of SAT, UNSAT and UNKNOWN over the suite (after solving).
    pub statuses: [usize; 3],
    /// Seconds spent solving.
    pub solve_seconds: f64,
    /// Instances written to the submission pack.
    pub packed: usize,
    /// Instances that presolve (`presolve on`) or unit propagation (either way) decided,
    /// recorded and not written.
    pub presolved: usize,
    /// Instances whose formula another row's file already is (same GBD hash, or a rotation or
    /// mirror of another instance), recorded and not written.
    pub duplicates: usize,
    /// What `--select` found, per family.
    pub selection: Option<select::Selection>,
}

/// One CNF of the suite.
struct Job {
    /// Its position in the job list.
    index: usize,
    family: usize,
    member: usize,
    piece: Piece,
    amo: AmoKind,
    instance: usize,
    row: Row,
}

/// Reads and parses a recipe file; the suite is named after the file's stem.
pub fn load(path: &Path) -> Result<Recipe> {
    let file = path.display().to_string();
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let valid = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c));
    if !valid {
        return Err(Error::Usage(format!(
            "{file}: the recipe's file name gives the suite name; use letters, digits, '_', '.', '-'"
        )));
    }
    let bytes = std::fs::read(path).map_err(|e| Error::io(&file, e))?;
    let text = String::from_utf8(bytes)
        .map_err(|e| Error::parse_file(&file, format!("not UTF-8 text ({e})")))?;
    recipe::parse(&file, &name, &text)
}

/// The manifest rows (without sizes, hashes or results) of the files the recipe in
/// `recipe_path` describes, generating every instance on the way, so that a recipe whose
/// generators fail is reported without writing anything.
pub fn plan(recipe_path: &Path) -> Result<Vec<Row>> {
    let recipe = load(recipe_path)?;
    let (_, jobs) = expand(&recipe_path.display().to_string(), &recipe, Codec::Plain)?;
    Ok(jobs.into_iter().map(|j| j.row).collect())
}

/// Runs the suite in `recipe_path` (see the module documentation).
pub fn run(recipe_path: &Path, options: &Options) -> Result<Summary> {
    let file = recipe_path.display().to_string();
    let recipe = load(recipe_path)?;
    let out_dir = options
        .out_dir
        .clone()
        .unwrap_or_else(|| Path::new("cnf-out").join(&recipe.name));
    let jobs_n = options.jobs.max(1);

    // 1. Every instance, before anything is written: a generator failure leaves no file.
    let (instances, mut jobs) = expand(&file, &recipe, options.compress)?;
    // An instance that is a rotation or mirror of an earlier one (same piece, encoding and
    // presolve) is the same benchmark: only the first is written.
    let mut first_of: HashMap<_, usize> = HashMap::new();
    let orbit_keys: Vec<_> = instances.iter().map(crate::symmetry::orbit_key).collect();
    let same_as: Vec<Option<usize>> = jobs
        .iter()
        .enumerate()
        .map(|(i, j)| {
            let key = (
                &orbit_keys[j.instance],
                j.piece.name,
                j.amo,
                recipe.families[j.family].presolve,
            );
            match first_of.get(&key) {
                Some(&first) => Some(first),
                None => {
                    first_of.insert(key, i);
                    None
                }
            }
        })
        .collect();
    let names: Vec<String> = jobs.iter().map(|j| j.row.file.clone()).collect();

    // 2. Write (or keep) the CNF files.
    std::fs::create_dir_all(&out_dir).map_err(|e| Error::io(out_dir.display().to_string(), e))?;
    let manifest_path = out_dir.join("manifest.csv");
    let old: HashMap<String, Row> = if options.force || !manifest_path.exists() {
        HashMap::new()
    } else {
        match manifest::read(&manifest_path) {
            Ok(rows) => rows.into_iter().map(|r| (r.file.clone(), r)).collect(),
            Err(e) => {
                eprintln!("queens-sat: warning: ignoring unreadable manifest ({e})");
                HashMap::new()
            }
        }
    };
    let t0 = Instant::now();
    let bar = Progress::stderr("write");
    let written = AtomicUsize::new(0);
    let (results, error) = crate::work::run(
        &jobs,
        jobs_n,
        &options.cancel,
        &show(&bar, options.progress),
        |job| {
            let path = out_dir.join(&job.row.file);
            let index = job.index;
            // Rows without a file: their stale file (from an earlier run) goes.
            let no_file = |why: String, row: &mut Row| -> Result<()> {
                row.skipped = why;
                match std::fs::remove_file(&path) {
                    Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                        Err(Error::io(path.display().to_string(), e))
                    }
                    _ => Ok(()),
                }
            };
            if let Some(first) = same_as[index] {
                let mut row = job.row.clone();
                no_file(
                    format!("duplicate of {} (a rotation or mirror)", names[first]),
                    &mut row,
                )?;
                return Ok((row, false));
            }
            let presolve = recipe.families[job.family].presolve;
            let problem = Problem::new(&instances[job.instance], job.piece, presolve)?;
            if let Some(why) = &problem.unsat {
                let mut row = job.row.clone();
                no_file(format!("presolve: {why}"), &mut row)?;
                row.solver = "presolve".into();
                row.status = "UNSAT".into();
                row.seconds = Some(0.0);
                keep_check(&mut row, old.get(&job.row.file));
                return Ok((row, false));
            }
            // A formula that unit propagation alone decides is no benchmark either, presolved
            // or not (`presolve off`: the unpresolved formula's pre-placed pieces are unit
            // clauses, and their propagation decides many a completion).
            if let Some(sat) = unit_propagation(&problem, job.amo) {
                let mut row = job.row.clone();
                let why = match sat {
                    true => "every clause satisfied (SAT)",
                    false => "a conflict (UNSAT)",
                };
                no_file(format!("{UNIT_PROPAGATION}{why}"), &mut row)?;
                row.solver = "unit-propagation".into();
                row.status = if sat { "SAT" } else { "UNSAT" }.into();
                row.seconds = Some(0.0);
                keep_check(&mut row, old.get(&job.row.file));
                return Ok((row, false));
            }
            if let Some(prev) = old.get(&job.row.file)
                && prev.same_instance(&job.row)
                && !prev.gbdhash.is_empty()
                && std::fs::metadata(&path).is_ok_and(|m| m.len() == prev.bytes)
                && manifest::sha256_file(&path)? == prev.sha256
            {
                return Ok((prev.clone(), false));
            }
            let label = format!("suite:{}/{}", recipe.name, job.row.file);
            let write = WriteOptions {
                codec: options.compress,
                level: options.level,
                gbdhash: true,
            };
            let (report, sha) = write_atomic(&path, |f| {
                let (w, report) = write_piped(
                    Format::Dimacs,
                    HashingWriter::new(CancelWrite::new(f, options.cancel.clone())),
                    &problem,
                    job.amo,
                    Some(&label),
                    write,
                )?;
                Ok((report, w.finish().1))
            })?;
            written.fetch_add(1, Ordering::Relaxed);
            let mut row = job.row.clone();
            row.vars = report.stats.vars;
            row.clauses = report.stats.clauses;
            row.bytes = report.file_bytes;
            row.sha256 = sha;
            row.gbdhash = report.gbdhash.unwrap_or_default();
            row.clear_status();
            Ok((row, true))
        },
    );
    bar.finish();
    if let Some(e) = error {
        // Record what was finished (and what the old manifest still vouches for), so that a
        // re-run resumes instead of starting over; then report the error.
        let done: Vec<Row> = jobs
            .iter()
            .zip(&results)
            .filter_map(|(job, r)| match r {
                Some((row, _)) => Some(row.clone()),
                None => old.get(&job.row.file).cloned(),
            })
            .collect();
        manifest::write(&manifest_path, &done)?;
        return Err(e);
    }
    let mut results: Vec<(Row, bool)> = results.into_iter().flatten().collect();
    // The same formula by GBD hash: the first file stays, the others go.
    let mut by_hash: HashMap<String, usize> = HashMap::new();
    for i in 0..results.len() {
        let row = &results[i].0;
        if !row.skipped.is_empty() || row.gbdhash.is_empty() {
            continue;
        }
        match by_hash.get(&row.gbdhash) {
            None => {
                by_hash.insert(row.gbdhash.clone(), i);
            }
            Some(&first) => {
                let path = out_dir.join(&row.file);
                std::fs::remove_file(&path)
                    .map_err(|e| Error::io(path.display().to_string(), e))?;
                let first = results[first].0.file.clone();
                let (row, fresh) = &mut results[i];
                row.skipped = format!("duplicate of {first} (same GBD hash)");
                row.bytes = 0;
                row.sha256.clear();
                *fresh = false;
            }
        }
    }
    // Each kept row lists the rows that are its duplicates (listed afresh: a row kept from the
    // old manifest brings its old list).
    for (row, _) in &mut results {
        row.duplicates.clear();
    }
    let index: HashMap<String, usize> = results
        .iter()
        .enumerate()
        .map(|(i, (r, _))| (r.file.clone(), i))
        .collect();
    for i in 0..results.len() {
        if let Some(&kept) = duplicate_of(&results[i].0).and_then(|f| index.get(f)) {
            let name = results[i].0.file.clone();
            let list = &mut results[kept].0.duplicates;
            if !list.is_empty() {
                list.push(' ');
            }
            list.push_str(&name);
        }
    }
    let mut summary = Summary {
        out_dir: out_dir.clone(),
        files: jobs.len(),
        written: results.iter().filter(|(_, fresh)| *fresh).count(),
        write_seconds: t0.elapsed().as_secs_f64(),
        ..Summary::default()
    };
    for (job, (row, fresh)) in jobs.iter_mut().zip(results) {
        summary.bytes += row.bytes;
        if fresh {
            summary.bytes_written += row.bytes;
        }
        if row.decided_unwritten() {
            summary.presolved += 1;
        } else if !row.skipped.is_empty() {
            summary.duplicates += 1;
        }
        job.row = row;
    }
    summary.files -= summary.presolved + summary.duplicates;
    summary.written = summary.written.min(summary.files);
    summary.skipped = summary.files - summary.written;
    copy_duplicate_results(&mut jobs);
    let rows = |jobs: &[Job]| jobs.iter().map(|j| j.row.clone()).collect::<Vec<_>>();
    manifest::write(&manifest_path, &rows(&jobs))?;

    // 3. Solve: everything, or (`select`) what the budget solver leaves undecided.
    let cores = crate::cpu::cores();
    // The cores are shared among the workers: each solve gets its part.
    let threads = (cores / jobs_n).max(1);
    if let (Some(select), Some(with)) = (&options.select, &options.solve) {
        let t1 = Instant::now();
        let bar = Progress::stderr("select");
        let mut selected: Vec<Row> = rows(&jobs);
        let (selection, error) = select::run(
            &mut selected,
            &out_dir,
            select,
            with,
            jobs_n,
            &options.cancel,
            &show(&bar, options.progress),
            &|i| solve_job(&jobs[i], &instances, with, threads, &options.cancel),
        );
        bar.finish();
        summary.solved = selection.ran;
        summary.solve_seconds = t1.elapsed().as_secs_f64();
        summary.selection = Some(selection);
        for (job, row) in jobs.iter_mut().zip(selected) {
            job.row = row;
        }
        copy_duplicate_results(&mut jobs);
        manifest::write(&manifest_path, &rows(&jobs))?;
        if let Some(e) = error {
            return Err(e);
        }
    } else if let Some(with) = &options.solve {
        let solver = with.solver.clone();
        let todo: Vec<usize> = (0..jobs.len())
            .filter(|&i| {
                let r = &jobs[i].row;
                if r.decided_unwritten() {
                    // Decided before solving (presolve, unit propagation): solved for the
                    // check only, as `solve` checks (a SAT board is always verified; presolve's
                    // refutation is checked under `--certify`).
                    return (with.certify || r.status == "SAT") && !r.certified;
                }
                r.skipped.is_empty()
                    && (r.solver != solver
                        || r.status.is_empty()
                        || r.status == "UNKNOWN"
                        || (with.certify && r.status == "UNSAT" && !r.certified))
            })
            .collect();
        let t1 = Instant::now();
        let bar = Progress::stderr("solve");
        let (solved, error) = crate::work::run(
            &todo,
            jobs_n,
            &options.cancel,
            &show(&bar, options.progress),
            |&i| solve_job(&jobs[i], &instances, with, threads, &options.cancel),
        );
        bar.finish();
        summary.solved = solved.iter().flatten().count();
        summary.solve_seconds = t1.elapsed().as_secs_f64();
        for (&i, result) in todo.iter().zip(solved) {
            if let Some((status, seconds, certified)) = result {
                let row = &mut jobs[i].row;
                if row.decided_unwritten() {
                    // Its verdict and who gave it stay; the solve checked it.
                    if row.status != status {
                        return Err(Error::WrongAnswer(format!(
                            "{}: {} says {} but {solver} says {status}",
                            row.file, row.solver, row.status
                        )));
                    }
                    row.certified = certified;
                    continue;
                }
                row.solver = solver.clone();
                row.status = status.to_string();
                row.seconds = Some(seconds);
                row.certified = certified;
            }
        }
        copy_duplicate_results(&mut jobs);
        // Written even after an error, so that a re-run solves only what is left.
        manifest::write(&manifest_path, &rows(&jobs))?;
        if let Some(e) = error {
            return Err(e);
        }
    }
    for job in &jobs {
        match job.row.verdict() {
            "SAT" => summary.statuses[0] += 1,
            "UNSAT" => summary.statuses[1] += 1,
            "UNKNOWN" => summary.statuses[2] += 1,
            _ => {}
        }
    }

    // 4. Plot.
    if let Some(svg_path) = &options.plot {
        if let Some(job) = jobs.iter().find(|j| j.row.verdict().is_empty()) {
            return Err(Error::Usage(format!(
                "--plot needs every instance solved ({} is not): add --solve",
                job.row.file
            )));
        }
        let svg = plot_suite(&recipe, &jobs)?;
        write_text_atomic(svg_path, &svg)?;
    }

    // 5. The submission pack.
    if let Some(pack_options) = &options.pack {
        let unsolved = |r: &Row| match options.select {
            Some(_) => r.verdict().is_empty(),
            None => r.status.is_empty(),
        };
        if let Some(job) = jobs.iter().find(|j| unsolved(&j.row)) {
            return Err(Error::Usage(format!(
                "--pack needs every instance solved ({} is not): add --solve",
                job.row.file
            )));
        }
        let recipe_text =
            String::from_utf8_lossy(&std::fs::read(recipe_path).map_err(|e| Error::io(&file, e))?)
                .into_owned();
        let phase = plot_suite(&recipe, &jobs)?;
        // Only the rows with a file, whose GBD hashes are distinct: a pack never holds two
        // files with one hash; after `select`, only the kept ones.
        let files: Vec<Row> = rows(&jobs)
            .into_iter()
            .filter(|r| r.skipped.is_empty() && (options.select.is_none() || r.selection == "kept"))
            .collect();
        let packed = pack::write(
            (&recipe, &recipe_text),
            &files,
            &out_dir,
            (&phase, summary.selection.as_ref()),
            pack_options,
            jobs_n,
            &options.cancel,
        )?;
        summary.packed = packed.len();
    }
    Ok(summary)
}

/// Solves one job's instance with `with` (the answer path of `solve`): its status, solver
/// seconds and whether the verdict is checked (the manifest's `certified`).
fn solve_job(
    job: &Job,
    instances: &[Instance],
    with: &SolveWith,
    threads: usize,
    cancel: &Cancel,
) -> Result<(&'static str, f64, bool)> {
    let problem = Problem::presolve(&instances[job.instance], job.piece)?;
    let report = solve::Solver::for_problem(&problem)
        .options(EncodeOptions::from(job.amo))
        .solver(with.solver.as_str())
        .timeout(with.timeout)
        .certify(with.certify)
        .jobs(Some(threads))
        .cancel(cancel.clone())
        .solve()
        .map_err(|e| e.context(&job.row.file))?;
    let status = match report.status {
        Status::Sat(_) => "SAT",
        Status::Unsat => "UNSAT",
        Status::Unknown(_) => "UNKNOWN",
    };
    // The verdict is checked: every SAT answer is a verified board; an UNSAT one needs its
    // checked refutation.
    let certified = match report.status {
        Status::Sat(_) => true,
        Status::Unsat => report.certificate.is_some(),
        Status::Unknown(_) => false,
    };
    Ok((status, report.solve_seconds, certified))
}

/// The verdict unit propagation alone reaches on the formula of `problem` encoded with `amo`
/// (the clauses a suite would write): `Some(false)` on a conflict, `Some(true)` when every
/// clause is satisfied, `None` when it stops short of both.
fn unit_propagation(problem: &Problem, amo: AmoKind) -> Option<bool> {
    /// The clauses, flat: literals, and where each clause starts.
    #[derive(Default)]
    struct Flat {
        lits: Vec<i32>,
        starts: Vec<usize>,
    }
    impl ClauseSink for Flat {
        fn add_clause(&mut self, lits: &[Lit]) {
            self.starts.push(self.lits.len());
            self.lits.extend(lits.iter().map(|l| l.to_dimacs()));
        }
    }
    let mut f = Flat::default();
    let vars = Encoder::new(problem, amo).encode(&mut f).vars as usize;
    f.starts.push(f.lits.len());
    let clauses = f.starts.len() - 1;
    // Occurrence lists by literal (index 2(v-1) for v, 2(v-1)+1 for -v), compressed rows.
    let index = |l: i32| 2 * (l.unsigned_abs() as usize - 1) + usize::from(l < 0);
    let mut occ_start = vec![0usize; 2 * vars + 1];
    for &l in &f.lits {
        occ_start[index(l) + 1] += 1;
    }
    for i in 0..2 * vars {
        occ_start[i + 1] += occ_start[i];
    }
    let mut fill = occ_start.clone();
    let mut occ = vec![0u32; f.lits.len()];
    for c in 0..clauses {
        for &l in &f.lits[f.starts[c]..f.starts[c + 1]] {
            occ[fill[index(l)]] = c as u32;
            fill[index(l)] += 1;
        }
    }
    // Per clause: literals not yet false, and whether one is true.
    let mut open: Vec<usize> = (0..clauses)
        .map(|c| f.starts[c + 1] - f.starts[c])
        .collect();
    let mut sat = vec![false; clauses];
    let mut value = vec![0i8; vars + 1];
    let mut queue: Vec<i32> = (0..clauses)
        .filter(|&c| open[c] == 1)
        .map(|c| f.lits[f.starts[c]])
        .collect();
    let mut head = 0;
    while let Some(&l) = queue.get(head) {
        head += 1;
        let v = l.unsigned_abs() as usize;
        let want = if l > 0 { 1 } else { -1 };
        match value[v] {
            0 => value[v] = want,
            x if x == want => continue,
            _ => return Some(false),
        }
        for &c in &occ[occ_start[index(l)]..occ_start[index(l) + 1]] {
            sat[c as usize] = true;
        }
        for &c in &occ[occ_start[index(-l)]..occ_start[index(-l) + 1]] {
            let c = c as usize;
            if sat[c] {
                continue;
            }
            open[c] -= 1;
            match open[c] {
                0 => return Some(false),
                1 => {
                    let unit = f.lits[f.starts[c]..f.starts[c + 1]]
                        .iter()
                        .find(|&&x| value[x.unsigned_abs() as usize] == 0);
                    if let Some(&u) = unit {
                        queue.push(u);
                    }
                }
                _ => {}
            }
        }
    }
    sat.iter().all(|&s| s).then_some(true)
}

/// A row decided before solving keeps the check an earlier run made of the same verdict
/// (`certified`), so that a re-run does not solve it again.
fn keep_check(row: &mut Row, prev: Option<&Row>) {
    if let Some(prev) = prev
        && prev.same_instance(row)
        && (&prev.skipped, &prev.status, &prev.solver) == (&row.skipped, &row.status, &row.solver)
    {
        row.certified = prev.certified;
    }
}

/// The file whose formula `row` is (`skipped` = `duplicate of FILE ...`), if any.
fn duplicate_of(row: &Row) -> Option<&str> {
    row.skipped
        .strip_prefix("duplicate of ")
        .and_then(|s| s.split(' ').next())
}

/// A duplicate's verdict is its file's: copies the solving columns of each kept row to the rows
/// that are its duplicates.
fn copy_duplicate_results(jobs: &mut [Job]) {
    let index: HashMap<String, usize> = jobs
        .iter()
        .enumerate()
        .map(|(i, j)| (j.row.file.clone(), i))
        .collect();
    for i in 0..jobs.len() {
        if let Some(&k) = duplicate_of(&jobs[i].row).and_then(|f| index.get(f)) {
            let kept = jobs[k].row.clone();
            let row = &mut jobs[i].row;
            row.solver = kept.solver;
            row.status = kept.status;
            row.seconds = kept.seconds;
            row.certified = kept.certified;
        }
    }
}

/// Generates every instance of the recipe and lists the jobs (one per CNF file).
fn expand(file: &str, recipe: &Recipe, codec: Codec) -> Result<(Vec<Instance>, Vec<Job>)> {
    let mut instances = Vec::new();
    let mut jobs = Vec::new();
    let mut names: HashMap<String, usize> = HashMap::new();
    for (fi, fam) in recipe.families.iter().enumerate() {
        for (mi, member) in fam.members.iter().enumerate() {
            for &seed in &fam.seeds {
                let inst = member
                    .generator
                    .instance(member.n, seed.unwrap_or(0))
                    .map_err(|e| {
                        Error::parse(file, fam.line, format!("family {}: {e}", fam.name))
                    })?;
                let index = instances.len();
                instances.push(inst);
                for &piece in &fam.pieces {
                    for &amo in &fam.amos {
                        let seed_part = seed.map(|s| format!("-s{s}")).unwrap_or_default();
                        let name = format!(
                            "{}-{}-n{}{}{seed_part}-{}.cnf{}",
                            fam.name,
                            piece.name,
                            member.n,
                            member.name_part(),
                            amo.name().replace(':', ""),
                            codec
                                .extension()
                                .map(|e| format!(".{e}"))
                                .unwrap_or_default()
                        );
                        if let Some(&other) = names.get(&name) {
                            return Err(Error::parse(
                                file,
                                fam.line,
                                format!(
                                    "family {} writes {name}, as does the family at line {other}",
                                    fam.name
                                ),
                            ));
                        }
                        names.insert(name.clone(), fam.line);
                        jobs.push(Job {
                            index: jobs.len(),
                            family: fi,
                            member: mi,
                            piece,
                            amo,
                            instance: index,
                            row: Row {
                                file: name,
                                family: fam.name.clone(),
                                piece: piece.name.to_string(),
                                n: member.n,
                                generator: member.generator.kind().to_string(),
                                params: member.params_field(),
                                seed,
                                amo: amo.name().to_string(),
                                vars: 0,
                                clauses: 0,
                                bytes: 0,
                                sha256: String::new(),
                                gbdhash: String::new(),
                                solver: String::new(),
                                status: String::new(),
                                seconds: None,
                                certified: false,
                                skipped: String::new(),
                                duplicates: String::new(),
                                ..Row::empty()
                            },
                        });
                    }
                }
            }
        }
    }
    Ok((instances, jobs))
}

/// The progress callback of [`crate::work::run`]: updates `bar` when `on` (`Options::progress`).
fn show(bar: &Progress, on: bool) -> impl Fn(usize, usize) + Sync + '_ {
    move |done, total| {
        if on {
            bar.update(done, total)
        }
    }
}

/// The series of the phase-transition picture: one per family, split by piece and AMO when
/// the family has several.
fn plot_suite(recipe: &Recipe, jobs: &[Job]) -> Result<String> {
    let mut series = Vec::new();
    for (fi, fam) in recipe.families.iter().enumerate() {
        for &piece in &fam.pieces {
            for &amo in &fam.amos {
                let samples: Vec<(f64, &str, f64)> = jobs
                    .iter()
                    .filter(|j| j.family == fi && j.piece == piece && j.amo == amo)
                    .map(|j| {
                        (
                            fam.members[j.member].x as f64,
                            j.row.verdict(),
                            j.row.seconds.or(j.row.budget_seconds).unwrap_or(0.0),
                        )
                    })
                    .collect();
                let mut label = fam.name.clone();
                if fam.pieces.len() > 1 {
                    label += &format!(" {}", piece.name);
                }
                if fam.amos.len() > 1 {
                    label += &format!(" {amo}");
                }
                series.push(plot::Series {
                    label,
                    points: plot::points(&samples),
                });
            }
        }
    }
    let mut x_names: Vec<&str> = recipe.families.iter().map(|f| f.x_name.as_str()).collect();
    x_names.dedup();
    let x_label = match x_names.as_slice() {
        [one] => describe_x(one).to_string(),
        _ => format!("family parameter ({})", x_names.join(", ")),
    };
    let seeds: usize = recipe
        .families
        .iter()
        .map(|f| f.seeds.len())
        .max()
        .unwrap_or(1);
    plot::render_svg(
        &format!(
            "{}: {} instances, up to {seeds} per point",
            recipe.name,
            jobs.len()
        ),
        &x_label,
        &series,
    )
}

fn describe_x(name: &str) -> &str {
    match name {
        "n" => "board side n",
        "m" => "m (pre-placed queens / blocked cells)",
        "delta" => "delta = n - m",
        "diags" => "excluded diagonals",
        "min-free" => "min-free",
        other => other,
    }
}
