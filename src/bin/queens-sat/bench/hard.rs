//! `queens-sat bench hard`: every AMO encoding under every backend on generated hard instances
//! (blocked n-queens and excluded diagonals near their satisfiable-to-unsatisfiable transition),
//! with the number solved, the total and the maximum time under a timeout.
//!
//! Every run is a child `queens-sat solve ... --format json`, so a run past its time limit is
//! really stopped and each starts from a fresh process. Answers are cross-checked: if one
//! configuration says SAT and another UNSAT on the same instance, the bench fails.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::ffi::OsStr;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use queens_sat::atomic::write_text_atomic;
use queens_sat::encode::amo::AmoKind;
use queens_sat::encode::implied::Implied;
use queens_sat::error::{Error, Result};
use queens_sat::generate::Generator;
use queens_sat::instance::{Format, write::write as write_instance};
use queens_sat::prng::Prng;
use queens_sat::solve::Answer;

/// Kinds of hard instance, in table order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Group {
    /// Blocked n-queens (csplib prob080 generator).
    Blocked,
    /// Excluded diagonals, solved directly (csplib prob079 generator).
    Diagonals,
    /// The same excluded-diagonal instances reduced to n-queens completion.
    Completion,
}

impl Group {
    /// Short column title.
    pub fn title(self) -> &'static str {
        match self {
            Group::Blocked => "blocked",
            Group::Diagonals => "diagonals",
            Group::Completion => "diag->completion",
        }
    }
}

/// One generated instance of the hard set.
#[derive(Clone, Debug)]
pub struct HardInstance {
    /// Its kind.
    pub group: Group,
    /// Board side given to the generator.
    pub n: u32,
    /// The generator and its parameters.
    pub generator: Generator,
    /// Generator seed.
    pub seed: u64,
}

impl HardInstance {
    /// A name such as `blocked-n48-m1965-s3` or `diag-n17-d20-s1-completion`.
    pub fn name(&self) -> String {
        let n = self.n;
        let s = self.seed;
        match self.generator {
            Generator::Blocked { m, .. } => format!("blocked-n{n}-m{m}-s{s}"),
            Generator::Diagonals {
                diags: Some(d),
                to_completion,
                ..
            } => {
                let tail = if to_completion { "-completion" } else { "" };
                format!("diag-n{n}-d{d}-s{s}{tail}")
            }
            other => format!("{}-n{n}-s{s}", other.kind()),
        }
    }
}

/// Blocked n-queens: `(n, blocked cell counts)`, all with at least one free cell per row and
/// column. The counts straddle the transition measured with 6 seeds per point (varisat,
/// product, 30 s limit): n = 28 is all-SAT at m = 575, 3 of 6 SAT at 600, all-UNSAT at 625;
/// n = 48 all-SAT up to 1950 (solve times up to 21 s), all-UNSAT from 1980; n = 56 all-SAT
/// up to 2600, 3 of 6 SAT at 2660, all-UNSAT at 2780, with the 30 s limit reached from 2660 to
/// 2720.
const BLOCKED: [(u32, [u32; 2]); 3] = [(28, [600, 610]), (48, [1960, 1970]), (56, [2690, 2720])];

/// Excluded diagonals: `(n, prefix length)` at the measured 50 % point of P(SAT) for
/// `min-free = 1`, from sweeps of 4 seeds per prefix length (cadical, 30 s limit). The
/// transition moves irregularly with n (the generator's lists differ in shape), hence a table.
const DIAGONALS: [(u32, usize); 10] = [
    (12, 6),
    (13, 8),
    (14, 12),
    (15, 10),
    (16, 16),
    (17, 16),
    (18, 14),
    (19, 19),
    (20, 20),
    (21, 22),
];

/// The hard set: blocked n = 28, 48, 56 (two blocked-cell counts) and excluded diagonals
/// n = 12..21 at their transition, each also reduced to completion, for generator seeds
/// `1..=seeds`: 26 instances per seed. `quick` keeps blocked n = 28, 48 and diagonals
/// n = 12..15: 12 per seed.
pub fn instances(quick: bool, seeds: u64) -> Vec<HardInstance> {
    let mut out = Vec::new();
    for (n, ms) in BLOCKED {
        if quick && n > 48 {
            continue;
        }
        for m in ms {
            for seed in 1..=seeds {
                out.push(HardInstance {
                    group: Group::Blocked,
                    n,
                    generator: Generator::Blocked { m, min_free: 1 },
                    seed,
                });
            }
        }
    }
    for to_completion in [false, true] {
        for (n, d) in DIAGONALS {
            if quick && n > 15 {
                continue;
            }
            for seed in 1..=seeds {
                out.push(HardInstance {
                    group: if to_completion {
                        Group::Completion
                    } else {
                        Group::Diagonals
                    },
                    n,
                    generator: Generator::Diagonals {
                        min_free: 1,
                        diags: Some(d),
                        to_completion,
                    },
                    seed,
                });
            }
        }
    }
    out
}

/// The tail set's blocked families: `(n, blocked cells, seeds)`, at the density of the 2009 ASP
/// competition's instances (about 7 free cells per line), `--min-free 1`.
const TAIL_BLOCKED: [(u32, u32, u64); 4] = [
    (28, 595, 100),
    (48, 1962, 100),
    (50, 2142, 100),
    (56, 2734, 100),
];

/// The tail set's excluded-diagonal families: `(n, prefix lengths, seeds)`, around the 50 %
/// point of P(SAT) where the hardest instances are.
const TAIL_DIAGONALS: [(u32, [usize; 2], u64); 2] = [(20, [16, 22], 20), (21, [22, 27], 20)];

/// The tail set (issue 10): blocked n = 28, 48, 50, 56 at the ASP-competition density, 100 seeds
/// each, and excluded diagonals n = 20 with 16..=22 diagonals and n = 21 with 22..=27, 20 seeds
/// per point: 660 instances.
pub fn tail_instances() -> Vec<HardInstance> {
    let mut out = Vec::new();
    for (n, m, seeds) in TAIL_BLOCKED {
        for seed in 1..=seeds {
            out.push(HardInstance {
                group: Group::Blocked,
                n,
                generator: Generator::Blocked { m, min_free: 1 },
                seed,
            });
        }
    }
    for (n, [d0, d1], seeds) in TAIL_DIAGONALS {
        diagonal_family(&mut out, n, d0..=d1, seeds);
    }
    out
}

/// The frontier set's excluded-diagonal families (issue 28): `(n, prefix lengths, seeds)`, the
/// prefix lengths of `generate diagonals --min-free 1` (named `diag-n{n}-d{d}-s{s}` as in the
/// tail set) around the 50 % point of P(SAT), past the tail set's n = 20, 21.
///
/// The 50 % points come from a sweep (2026-11-25): for each seed, SAT is monotone in the prefix
/// length (a longer prefix only removes cells), so the threshold of each seed was bisected
/// between a SAT and an UNSAT prefix (default `solve`, 60-110 s limit, seeds 1..6 at n = 22, 24,
/// 1..4 above, plus seed 101 of the issue). First UNSAT prefix per seed: n = 22: 18, 21, 21, 24,
/// 25, 28 (50 % at 21-23); n = 24: 18 or less, 21-23, 26-27, 29, 29, one unresolved (about 25);
/// n = 26: 25, 26, and 24-26 unresolved for two; n = 28: 32-36 (31 SAT, 33-34 unresolved),
/// 28-36; n = 30: unresolved between 20 and 38 for three seeds, and 28-34 for seed 101. The
/// unresolved probes (UNKNOWN at 60 s) sit at the threshold, so the rows for n >= 26 are the
/// best estimate, not a measured crossing.
pub const FRONTIER_DIAGONALS: &[(u32, [usize; 3], u64)] = &[
    (22, [21, 22, 23], 20),
    (24, [24, 25, 26], 20),
    (26, [24, 25, 26], 20),
    (28, [31, 32, 33], 20),
    (30, [31, 32, 33], 20),
];

/// The frontier set (issue 28): for each row of [`FRONTIER_DIAGONALS`], every listed prefix
/// length at seeds `1..=seeds`, excluded diagonals solved directly: 300 instances.
pub fn frontier_instances() -> Vec<HardInstance> {
    let mut out = Vec::new();
    for &(n, ds, seeds) in FRONTIER_DIAGONALS {
        diagonal_family(&mut out, n, ds, seeds);
    }
    out
}

/// Appends excluded-diagonal instances (solved directly) of side `n`: each prefix length of
/// `diags` at seeds `1..=seeds`.
fn diagonal_family(
    out: &mut Vec<HardInstance>,
    n: u32,
    diags: impl IntoIterator<Item = usize>,
    seeds: u64,
) {
    for d in diags {
        for seed in 1..=seeds {
            out.push(HardInstance {
                group: Group::Diagonals,
                n,
                generator: Generator::Diagonals {
                    min_free: 1,
                    diags: Some(d),
                    to_completion: false,
                },
                seed,
            });
        }
    }
}

/// A seeded subset of `k` instances of `set` (all of them when `k >= set.len()`), in set order:
/// a Fisher-Yates shuffle driven by the library's [`Prng`] from `seed`, so a sample is
/// reproducible. (Samples drawn before 2026-11-25 came from an xorshift64* shuffle, so the
/// instances behind older sample tables in docs/benchmarks.md differ.)
pub fn sample(set: Vec<HardInstance>, k: usize, seed: u64) -> Vec<HardInstance> {
    let mut idx: Vec<usize> = (0..set.len()).collect();
    Prng::new(seed).shuffle(&mut idx);
    idx.truncate(k);
    idx.sort_unstable();
    idx.into_iter().map(|i| set[i].clone()).collect()
}

/// The configuration name that runs `solve --cubes` (in-process varisat, cube and conquer).
pub const CUBES: &str = "cubes";

/// One configuration: a backend (`varisat` or an external solver) and an AMO encoding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// `--solver` value.
    pub solver: String,
    /// `--amo` value.
    pub amo: AmoKind,
}

impl Config {
    /// `solver/amo`, with the csplib baseline (recursive commander, groups of 3) marked.
    pub fn label(&self) -> String {
        if self.solver.contains(',') {
            return format!("portfolio [{}]", self.solver);
        }
        let mark = if self.amo == AmoKind::Commander(3) {
            " (csplib baseline)"
        } else {
            ""
        };
        format!("{} {}{mark}", self.solver, self.amo)
    }
}

/// The instance sets of `bench hard`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HardSet {
    /// [`instances`] (smaller with `quick`).
    Standard,
    /// [`tail_instances`].
    Tail,
    /// [`frontier_instances`].
    Frontier,
}

/// Options of `bench hard`.
#[derive(Clone, Debug)]
pub struct HardOptions {
    /// The smaller instance set.
    pub quick: bool,
    /// Generator seeds `1..=seeds` per family.
    pub seeds: u64,
    /// Time limit of each run, seconds.
    pub timeout: u32,
    /// Runs at a time.
    pub jobs: usize,
    /// Backends (`varisat`, external solver names).
    pub solvers: Vec<String>,
    /// Encodings.
    pub amos: Vec<AmoKind>,
    /// Extra portfolio configurations (`solve --solver` values with commas), run with the
    /// default encoding for entries that name none.
    pub portfolios: Vec<String>,
    /// Also write every run as a CSV row here, as it finishes.
    pub csv: Option<PathBuf>,
    /// Read the runs already in `csv` back and run only the others.
    pub resume: bool,
    /// The instance set.
    pub set: HardSet,
    /// Run a seeded subset of this many instances ([`sample`]).
    pub sample: Option<usize>,
    /// Write the cactus plot (SVG) here.
    pub cactus: Option<PathBuf>,
    /// Write the plot of median and maximum seconds against n (SVG) here.
    pub plot: Option<PathBuf>,
    /// Only print the instance names of the set (after `sample`), one per line.
    pub list: bool,
    /// `--implied` for every run (`None`: each run's default).
    pub implied: Option<Implied>,
}

/// What one run gave: the verdict of the child (the project's one answer type), or why it
/// failed.
pub type Outcome = std::result::Result<Answer<()>, String>;

/// One run's result.
#[derive(Clone, Debug)]
pub struct RunResult {
    /// Outcome.
    pub outcome: Outcome,
    /// Wall-clock seconds of the child.
    pub seconds: f64,
}

/// Runs the hard bench and prints its tables. `exe` is the `queens-sat` binary.
///
/// With a CSV, each run's row is appended as the run ends; with `resume`, the runs already in the
/// CSV are read back, not run again, and reported (and cross-checked) with the new ones.
pub fn run(exe: &Path, opts: &HardOptions) -> Result<()> {
    let set = match opts.set {
        HardSet::Standard => instances(opts.quick, opts.seeds),
        HardSet::Tail => tail_instances(),
        HardSet::Frontier => frontier_instances(),
    };
    let set = match opts.sample {
        Some(k) => sample(set, k, 0x5EED_u64 ^ opts.seeds),
        None => set,
    };
    if opts.list {
        for inst in &set {
            println!("{}", inst.name());
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
    let mut results: BTreeMap<(usize, usize), RunResult> = BTreeMap::new();
    let log = match &opts.csv {
        Some(path) => {
            if opts.resume {
                let old = super::runs_csv::read(path)?;
                let read_back = old.len();
                let index: HashMap<super::runs_csv::Key, (usize, usize)> = (0..set.len())
                    .flat_map(|i| (0..configs.len()).map(move |c| (i, c)))
                    .map(|(i, c)| (super::runs_csv::key(&set[i], &configs[c]), (i, c)))
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
                println!(
                    "{}: {read_back} earlier runs read back (--resume), {} of this bench, {outside} of other instances or configurations (kept, not reported); {} to run",
                    path.display(),
                    results.len(),
                    set.len() * configs.len() - results.len()
                );
            }
            Some(super::runs_csv::Log::open(path, opts.resume)?)
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
            e.insert(write_file(dir.path(), &set[i])?);
        }
    }
    let progress = queens_sat::progress::Progress::stderr("bench hard");
    let runs = queens_sat::work::run_all(
        &tasks,
        opts.jobs.max(1),
        crate::cancel(),
        &|done, total| progress.update(done, total),
        |&(i, c)| {
            let r = run_child(exe, &files[&i], &configs[c], opts.timeout, opts.implied)?;
            // A run that ended as the bench was stopped may have been cut short: no row for it.
            crate::cancel().check()?;
            if let Some(log) = &log {
                log.append(&set[i], &configs[c], &r)?;
            }
            Ok(r)
        },
    );
    progress.finish();
    results.extend(tasks.iter().copied().zip(runs?));
    let report = report(&set, &configs, &results, opts);
    print!("{}", report.text);
    print!("{}", tail_table(&set, &configs, &results));
    let by_n = by_n(&set, &configs, &results);
    if matches!(opts.set, HardSet::Tail | HardSet::Frontier) && !by_n.is_empty() {
        print!("{}", by_n_table(&configs, &by_n));
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
        write_text_atomic(
            path,
            &queens_sat::suite::cactus::render_cactus(&title, &series)?,
        )?;
        println!("cactus plot: {}", path.display());
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
            &queens_sat::suite::cactus::render_by_n(&title, f64::from(opts.timeout), &series)?,
        )?;
        println!("plot: {}", path.display());
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

/// One configuration's runs on the diagonal instances of one family and side n.
#[derive(Clone, Debug)]
pub struct NStats {
    /// Runs (instances run by this configuration).
    pub instances: usize,
    /// Runs answered SAT.
    pub sat: usize,
    /// Runs answered UNSAT.
    pub unsat: usize,
    /// Solved count, median, p90, max ([`queens_sat::suite::cactus::tail`]).
    pub tail: queens_sat::suite::cactus::Tail,
}

/// Per (configuration, diagonal group, n): the statistics of the excluded-diagonal runs
/// (solved directly or reduced to completion); blocked instances are left out.
pub fn by_n(
    set: &[HardInstance],
    configs: &[Config],
    results: &BTreeMap<(usize, usize), RunResult>,
) -> BTreeMap<(usize, Group, u32), NStats> {
    let mut runs: BTreeMap<(usize, Group, u32), Vec<&RunResult>> = BTreeMap::new();
    for (&(i, c), r) in results {
        let inst = &set[i];
        if inst.group != Group::Blocked && c < configs.len() {
            runs.entry((c, inst.group, inst.n)).or_default().push(r);
        }
    }
    runs.into_iter()
        .map(|(k, rs)| {
            let count = |a: fn(&Outcome) -> bool| rs.iter().filter(|r| a(&r.outcome)).count();
            let times: Vec<Option<f64>> = rs
                .iter()
                .map(|r| {
                    matches!(r.outcome, Ok(Answer::Sat(()) | Answer::Unsat)).then_some(r.seconds)
                })
                .collect();
            let stats = NStats {
                instances: rs.len(),
                sat: count(|o| matches!(o, Ok(Answer::Sat(())))),
                unsat: count(|o| matches!(o, Ok(Answer::Unsat))),
                tail: queens_sat::suite::cactus::tail(&times),
            };
            (k, stats)
        })
        .collect()
}

/// The per-n table of [`by_n`]: per configuration and n, instances, solved, SAT, UNSAT,
/// median, p90 and max seconds (`-`: the statistic falls on an unsolved run).
pub fn by_n_table(configs: &[Config], by_n: &BTreeMap<(usize, Group, u32), NStats>) -> String {
    let cell = |v: Option<f64>| v.map_or("-".to_string(), |s| format!("{s:.2}"));
    let mut text = String::from(
        "\nPer n, excluded diagonals (seconds; `-`: falls on an unsolved run):\n\n| configuration | family | n | instances | solved | SAT | UNSAT | median | p90 | max |\n|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for (&(c, group, n), s) in by_n {
        let _ = writeln!(
            text,
            "| {} | {} | {n} | {} | {} | {} | {} | {} | {} | {} |",
            configs[c].label(),
            group.title(),
            s.instances,
            s.tail.solved,
            s.sat,
            s.unsat,
            cell(s.tail.median),
            cell(s.tail.p90),
            cell(s.tail.max)
        );
    }
    text
}

/// The lines of the `--plot` picture: one per configuration and diagonal group (the group named
/// only when the reduced instances are there too).
fn by_n_series(
    configs: &[Config],
    by_n: &BTreeMap<(usize, Group, u32), NStats>,
) -> Vec<queens_sat::suite::cactus::ByN> {
    let both = by_n.keys().any(|k| k.1 == Group::Completion)
        && by_n.keys().any(|k| k.1 == Group::Diagonals);
    let mut series: BTreeMap<(usize, Group), queens_sat::suite::cactus::ByN> = BTreeMap::new();
    for (&(c, group, n), s) in by_n {
        series
            .entry((c, group))
            .or_insert_with(|| queens_sat::suite::cactus::ByN {
                label: if both {
                    format!("{} {}", configs[c].label(), group.title())
                } else {
                    configs[c].label()
                },
                points: Vec::new(),
            })
            .points
            .push((n, s.tail.median, s.tail.max));
    }
    series.into_values().collect()
}

/// Per configuration: solved count, median, p90, p99 and max seconds, and the sum over solved
/// runs (percentiles count an unsolved run as slower than any; `-` marks one that falls on an
/// unsolved run).
pub fn tail_table(
    set: &[HardInstance],
    configs: &[Config],
    results: &BTreeMap<(usize, usize), RunResult>,
) -> String {
    let cell = |v: Option<f64>| v.map_or("-".to_string(), |s| format!("{s:.2}"));
    let mut text = String::from(
        "\nTail (seconds; `-`: falls on an unsolved run):\n\n| configuration | solved | median | p90 | p99 | max | sum of solved |\n|---|---|---|---|---|---|---|\n",
    );
    for (c, config) in configs.iter().enumerate() {
        let runs: Vec<Option<f64>> = (0..set.len())
            .filter_map(|i| results.get(&(i, c)))
            .map(|r| match r.outcome {
                Ok(Answer::Sat(()) | Answer::Unsat) => Some(r.seconds),
                _ => None,
            })
            .collect();
        let t = queens_sat::suite::cactus::tail(&runs);
        let _ = writeln!(
            text,
            "| {} | {}/{} | {} | {} | {} | {} | {:.1} |",
            config.label(),
            t.solved,
            t.runs,
            cell(t.median),
            cell(t.p90),
            cell(t.p99),
            cell(t.max),
            t.solved_sum
        );
    }
    text
}

/// Writes the instance file of `inst` into `dir`: board text for blocked, the excluded-diagonals
/// format for diagonals, a csplib param file for completion (sides of ~266 n).
fn write_file(dir: &Path, inst: &HardInstance) -> Result<PathBuf> {
    let instance = inst.generator.instance(inst.n, inst.seed)?;
    let format = match inst.group {
        Group::Blocked => Format::Board,
        Group::Diagonals => Format::Diags,
        Group::Completion => Format::Param,
    };
    let comment = format!("queens-sat bench hard: {}", inst.name());
    let text = write_instance(&instance, format, &comment)?;
    let path = dir.join(format!("{}.txt", inst.name()));
    write_text_atomic(&path, &text)?;
    Ok(path)
}

/// Runs `exe solve --instance file --solver S --amo A --timeout T --format json`.
fn run_child(
    exe: &Path,
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
    let child = super::solve_child_json(exe, &args, timeout)?;
    let outcome = child.report.and_then(|record| record.answer());
    Ok(RunResult {
        outcome,
        // Milliseconds, as the CSV holds them: a resumed report equals the first one.
        seconds: (child.seconds * 1000.0).round() / 1000.0,
    })
}

/// The printed tables and the problems found (wrong answers, failed runs).
pub struct Report {
    /// Markdown tables and notes.
    pub text: String,
    /// Disagreements and failures; the bench fails when there are any.
    pub problems: Vec<String>,
}

/// Solved count, total seconds (an unsolved run counts the timeout) and maximum seconds over
/// the solved runs, plus whether any run was unsolved.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    runs: usize,
    solved: usize,
    total: f64,
    max: f64,
}

impl Tally {
    fn add(&mut self, r: &RunResult, timeout: f64) {
        self.runs += 1;
        match r.outcome {
            Ok(Answer::Sat(()) | Answer::Unsat) => {
                self.solved += 1;
                self.total += r.seconds;
                self.max = self.max.max(r.seconds);
            }
            _ => {
                self.total += timeout;
                self.max = self.max.max(timeout);
            }
        }
    }

    fn cells(&self) -> String {
        let max = if self.solved < self.runs {
            "timeout".to_string()
        } else {
            format!("{:.2}", self.max)
        };
        format!("{}/{} | {:.1} | {max}", self.solved, self.runs, self.total)
    }
}

/// Builds the tables from the results: per group and configuration, the virtual best solver,
/// the answers per family, and the cross-check of SAT against UNSAT answers.
pub fn report(
    set: &[HardInstance],
    configs: &[Config],
    results: &BTreeMap<(usize, usize), RunResult>,
    opts: &HardOptions,
) -> Report {
    let timeout = f64::from(opts.timeout);
    let mut text = String::new();
    let mut problems = Vec::new();
    let groups: Vec<Group> = {
        let mut g: Vec<Group> = set.iter().map(|i| i.group).collect();
        g.sort();
        g.dedup();
        g
    };
    // Answers per instance; a SAT and an UNSAT answer on one instance is a wrong answer.
    let mut answer: Vec<Option<bool>> = vec![None; set.len()];
    for (&(i, c), r) in results {
        let sat = match &r.outcome {
            Ok(Answer::Sat(())) => true,
            Ok(Answer::Unsat) => false,
            Ok(Answer::Unknown(_)) => continue,
            Err(why) => {
                problems.push(format!("{} {}: {why}", set[i].name(), configs[c].label()));
                continue;
            }
        };
        match answer[i] {
            Some(a) if a != sat => problems.push(format!(
                "{}: {} answered {} but another configuration {}",
                set[i].name(),
                configs[c].label(),
                if sat { "SAT" } else { "UNSAT" },
                if a { "SAT" } else { "UNSAT" }
            )),
            _ => answer[i] = Some(sat),
        }
    }

    let _ = writeln!(
        text,
        "## bench hard: {} instances x {} configurations, timeout {} s, {} job(s) at a time",
        set.len(),
        configs.len(),
        opts.timeout,
        opts.jobs
    );
    let _ = writeln!(text);
    // The instance families and their answers.
    let _ = writeln!(
        text,
        "| family | instances | SAT | UNSAT | unsolved by all |"
    );
    let _ = writeln!(text, "|---|---|---|---|---|");
    // Per (group, n): the generator parameters used, and instances / SAT / UNSAT / unsolved.
    let mut families: BTreeMap<(Group, u32), (BTreeSet<String>, [usize; 4])> = BTreeMap::new();
    for (i, inst) in set.iter().enumerate() {
        let (params, c) = families.entry((inst.group, inst.n)).or_default();
        params.insert(match inst.generator {
            Generator::Blocked { m, .. } => format!("m={m}"),
            Generator::Diagonals { diags: Some(d), .. } => format!("{d} diagonals"),
            _ => String::new(),
        });
        c[0] += 1;
        c[match answer[i] {
            Some(true) => 1,
            Some(false) => 2,
            None => 3,
        }] += 1;
    }
    for ((group, n), (params, c)) in &families {
        let params: Vec<&str> = params.iter().map(String::as_str).collect();
        let _ = writeln!(
            text,
            "| {} n={n} {} | {} | {} | {} | {} |",
            group.title(),
            params.join(","),
            c[0],
            c[1],
            c[2],
            c[3]
        );
    }
    let _ = writeln!(text);

    // Per configuration: solved / total / max per group and overall.
    let mut header = String::from("| configuration |");
    let mut rule = String::from("|---|");
    for g in &groups {
        let _ = write!(header, " {} solved | total s | max s |", g.title());
        rule.push_str("---|---|---|");
    }
    header.push_str(" all solved | total s | max s |");
    rule.push_str("---|---|---|");
    let _ = writeln!(
        text,
        "Per configuration (an unsolved run counts {} s in the total; ranked by solved, then total):",
        opts.timeout
    );
    let _ = writeln!(text);
    let _ = writeln!(text, "{header}");
    let _ = writeln!(text, "{rule}");
    let mut rows: Vec<(usize, f64, String, String)> = Vec::new();
    for (c, config) in configs.iter().enumerate() {
        let mut per_group = vec![Tally::default(); groups.len()];
        let mut all = Tally::default();
        for (i, inst) in set.iter().enumerate() {
            if let Some(r) = results.get(&(i, c)) {
                let g = groups.iter().position(|&g| g == inst.group).expect("group");
                per_group[g].add(r, timeout);
                all.add(r, timeout);
            }
        }
        let mut row = format!("| {} |", config.label());
        for t in &per_group {
            let _ = write!(row, " {} |", t.cells());
        }
        let _ = write!(row, " {} |", all.cells());
        rows.push((all.solved, all.total, config.label(), row));
    }
    rows.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.total_cmp(&b.1)));
    for (_, _, _, row) in &rows {
        let _ = writeln!(text, "{row}");
    }
    // Virtual best: per instance the fastest configuration.
    let mut row = String::from("| virtual best (fastest per instance) |");
    let mut all = Tally::default();
    let mut per_group = vec![Tally::default(); groups.len()];
    for (i, inst) in set.iter().enumerate() {
        let best = (0..configs.len())
            .filter_map(|c| results.get(&(i, c)))
            .filter(|r| matches!(r.outcome, Ok(Answer::Sat(()) | Answer::Unsat)))
            .min_by(|a, b| a.seconds.total_cmp(&b.seconds));
        let unsolved = RunResult {
            outcome: Ok(Answer::Unknown("unsolved".into())),
            seconds: timeout,
        };
        let r = best.unwrap_or(&unsolved);
        let g = groups.iter().position(|&g| g == inst.group).expect("group");
        per_group[g].add(r, timeout);
        all.add(r, timeout);
    }
    for t in &per_group {
        let _ = write!(row, " {} |", t.cells());
    }
    let _ = write!(row, " {} |", all.cells());
    let _ = writeln!(text, "{row}");
    let _ = writeln!(text);

    if let Some((_, _, label, _)) = rows.first() {
        let _ = writeln!(text, "Winner: {label}");
    }
    for p in &problems {
        let _ = writeln!(text, "- PROBLEM: {p}");
    }
    Report { text, problems }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instance_set_is_generated_and_named_uniquely() {
        for quick in [true, false] {
            let set = instances(quick, 2);
            let mut names: Vec<String> = set.iter().map(HardInstance::name).collect();
            names.sort();
            names.dedup();
            assert_eq!(names.len(), set.len());
            for inst in &set {
                let i = inst.generator.instance(inst.n, inst.seed).unwrap();
                match inst.group {
                    Group::Blocked => assert!(!i.blocked.is_empty()),
                    Group::Diagonals => assert!(!i.excluded.is_empty()),
                    Group::Completion => assert!(i.n > 200 && !i.placed.is_empty()),
                }
            }
        }
        assert_eq!(instances(false, 2).len(), 2 * 26);
        assert_eq!(instances(true, 1).len(), 12);
    }

    #[test]
    fn tail_set_and_samples() {
        let set = tail_instances();
        assert_eq!(set.len(), 4 * 100 + (7 + 6) * 20);
        let mut names: Vec<String> = set.iter().map(HardInstance::name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), set.len());
        let a = sample(set.clone(), 30, 7);
        assert_eq!(a.len(), 30);
        let names = |v: &[HardInstance]| v.iter().map(HardInstance::name).collect::<Vec<_>>();
        assert_eq!(
            names(&a),
            names(&sample(set.clone(), 30, 7)),
            "not reproducible"
        );
        assert_ne!(
            names(&a),
            names(&sample(set.clone(), 30, 8)),
            "the seed is ignored"
        );
        assert_eq!(sample(set.clone(), 10_000, 7).len(), set.len());
        let one = &set[set.len() - 1];
        let inst = one.generator.instance(one.n, one.seed).unwrap();
        assert_eq!((inst.n, inst.excluded.len()), (21, 27));
    }

    #[test]
    fn frontier_set_is_named_and_generates() {
        let set = frontier_instances();
        assert_eq!(set.len(), 300);
        let mut names: Vec<String> = set.iter().map(HardInstance::name).collect();
        assert_eq!(names[0], "diag-n22-d21-s1");
        names.sort();
        names.dedup();
        assert_eq!(names.len(), set.len());
        for inst in &set {
            assert_eq!(inst.group, Group::Diagonals);
            let i = inst.generator.instance(inst.n, inst.seed).unwrap();
            let Generator::Diagonals { diags: Some(d), .. } = inst.generator else {
                panic!("{inst:?}")
            };
            assert_eq!((i.n, i.excluded.len()), (inst.n, d));
        }
    }

    #[test]
    fn per_n_table_counts_unsolved_as_slowest() {
        let set: Vec<HardInstance> = frontier_instances()
            .into_iter()
            .filter(|i| i.seed <= 2 && i.n <= 24)
            .collect();
        let configs = vec![Config {
            solver: "auto".into(),
            amo: AmoKind::DEFAULT,
        }];
        let mut results = BTreeMap::new();
        for (i, inst) in set.iter().enumerate() {
            let outcome = match (inst.n, inst.seed) {
                (24, 1) => Ok(Answer::Unknown("time limit".into())),
                (_, 1) => Ok(Answer::Sat(())),
                _ => Ok(Answer::Unsat),
            };
            results.insert(
                (i, 0),
                RunResult {
                    outcome,
                    seconds: i as f64,
                },
            );
        }
        let stats = by_n(&set, &configs, &results);
        let text = by_n_table(&configs, &stats);
        // n = 22: 6 runs at 0..=5 s; n = 24: seed 1 unsolved, seed 2 solved at 7, 9, 11 s.
        assert!(
            text.contains("| auto auto | diagonals | 22 | 6 | 6 | 3 | 3 | 2.00 | 5.00 | 5.00 |"),
            "{text}"
        );
        assert!(
            text.contains("| auto auto | diagonals | 24 | 6 | 3 | 0 | 3 | 11.00 | - | - |"),
            "{text}"
        );
        let series = by_n_series(&configs, &stats);
        assert_eq!(series.len(), 1);
        assert_eq!(series[0].points[1], (24, Some(11.0), None));
    }

    #[test]
    fn report_flags_disagreement_and_ranks() {
        let set: Vec<HardInstance> = instances(true, 1).into_iter().take(2).collect();
        let configs = vec![
            Config {
                solver: "varisat".into(),
                amo: AmoKind::Product,
            },
            Config {
                solver: "varisat".into(),
                amo: AmoKind::Pairwise,
            },
        ];
        let opts = HardOptions {
            quick: true,
            seeds: 1,
            timeout: 10,
            jobs: 1,
            solvers: vec!["varisat".into()],
            amos: vec![AmoKind::Product, AmoKind::Pairwise],
            portfolios: Vec::new(),
            csv: None,
            resume: false,
            set: HardSet::Standard,
            sample: None,
            cactus: None,
            plot: None,
            list: false,
            implied: None,
        };
        let r = |sat: Option<bool>, seconds: f64| RunResult {
            outcome: Ok(match sat {
                Some(true) => Answer::Sat(()),
                Some(false) => Answer::Unsat,
                None => Answer::Unknown("time limit".into()),
            }),
            seconds,
        };
        let mut results = BTreeMap::new();
        results.insert((0, 0), r(Some(true), 1.0));
        results.insert((0, 1), r(None, 10.0));
        results.insert((1, 0), r(Some(false), 2.0));
        results.insert((1, 1), r(Some(false), 0.5));
        let rep = report(&set, &configs, &results, &opts);
        assert!(rep.problems.is_empty(), "{:?}", rep.problems);
        assert!(
            rep.text.contains("| varisat product | 2/2 | 3.0 | 2.00 |"),
            "{}",
            rep.text
        );
        assert!(
            rep.text
                .contains("| varisat pairwise | 1/2 | 10.5 | timeout |"),
            "{}",
            rep.text
        );
        assert!(
            rep.text
                .contains("virtual best (fastest per instance) | 2/2 | 1.5 | 1.00 |")
        );
        assert!(rep.text.contains("Winner: varisat product"));
        results.insert((1, 1), r(Some(true), 0.5));
        let rep = report(&set, &configs, &results, &opts);
        assert_eq!(rep.problems.len(), 1, "{:?}", rep.problems);
        assert!(rep.problems[0].contains("answered SAT but another configuration UNSAT"));
    }
}
