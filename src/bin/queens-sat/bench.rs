//! `queens-sat bench`: its flags and their checks. The harness itself is the library's
//! [`queens_sat::bench`]; this turns the flags into its [`BenchSettings`] and calls it once.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use queens_sat::bench::{BenchSettings, BenchTask, HardOptions, HardSet, types::CUBES};
use queens_sat::encode::EncodeOptions;
use queens_sat::encode::amo::AmoKind;
use queens_sat::encode::implied::Implied;
use queens_sat::solve::external::resolve_solver;
use queens_sat::solve::{parse_portfolio, registry};
use queens_sat::{Error, Result};

/// Arguments of `bench`.
#[derive(Args)]
pub struct BenchArgs {
    /// `hard`: the encoding x backend race on hard instances (default: the standard tables).
    #[arg(value_enum)]
    table: Option<BenchTable>,
    /// Smaller sizes (or, with `hard`, a smaller instance set), for a quick look.
    #[arg(long)]
    quick: bool,
    /// Instead: peak RSS of streaming `encode --amo sequential` for these n (e.g. 1000,4000).
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "N,...",
        conflicts_with = "table"
    )]
    memory: Option<Vec<u32>>,
    /// Instead: `encode -n N --amo pairwise` against `dd conv=fdatasync` on the same bytes,
    /// then --gbdhash and the compressed outputs against `xz -T2` (median of --repeat
    /// alternating runs, default 5; files in the current folder).
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "N,...",
        conflicts_with_all = ["table", "memory", "count", "export"]
    )]
    dd: Option<Vec<u32>>,
    /// Instead: only the export throughput table (DIMACS, OPB, LP, MiniZinc).
    #[arg(long, conflicts_with_all = ["table", "memory", "count"])]
    export: bool,
    /// Instead: counting speed, queens 8..=Q and amazons 10..=A (e.g. 16,17): the SAT engine
    /// (queens n <= 12, amazons n <= 13), the general row-by-row search and the specialised one
    /// (`count --engine backtrack`), checked against each other and the published tables.
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "Q,A",
        conflicts_with = "table"
    )]
    count: Option<Vec<u32>>,
    /// With --count: thread counts of the specialised engine's columns (default: all cores).
    #[arg(long, value_delimiter = ',', value_name = "T,...", requires = "count")]
    threads: Option<Vec<usize>>,
    /// With --count: runs per timing, the fastest reported (for a machine under load); with
    /// --dd: alternating runs, the median reported (default 5).
    #[arg(long, default_value_t = 1, value_name = "R")]
    repeat: usize,
    /// AMO encoding for --count (default pairwise); with `hard`, the encodings raced,
    /// comma-separated, or `all` (default).
    #[arg(long)]
    amo: Option<String>,
    /// With `hard`: backends raced, comma-separated (default: varisat, plus cadical when it
    /// is on PATH).
    #[arg(long, value_name = "S,...")]
    solvers: Option<String>,
    /// With `hard`: an extra configuration, a `solve --solver` portfolio such as
    /// `"cadical --amo pairwise,cadical --amo product"` (repeatable; it uses one core per entry,
    /// so run it with --jobs 1).
    #[arg(long, value_name = "SPEC")]
    portfolio: Vec<String>,
    /// With `hard`: generator seeds 1..=K per family (default 1 with --quick, else 2).
    #[arg(long, value_name = "K")]
    seeds: Option<u64>,
    /// With `hard`: time limit per run, seconds (default 60).
    #[arg(long, value_name = "SECS")]
    timeout: Option<u32>,
    /// With `hard`: runs at a time (default 1, so that runs do not share cores).
    #[arg(long, value_name = "J")]
    jobs: Option<usize>,
    /// With `hard`: also write every run (instance, group, n, seed, solver, amo, status,
    /// seconds) to this CSV, a row as each run ends (an existing file is replaced, unless
    /// --resume).
    #[arg(long, value_name = "FILE.csv")]
    csv: Option<PathBuf>,
    /// With `hard --csv FILE`: keep FILE's rows, run only the (instance, solver, amo) runs not
    /// in it, and report old and new runs together (UNKNOWN and ERROR rows count as done:
    /// delete them to run them again, e.g. under a longer --timeout).
    #[arg(long, requires = "csv")]
    resume: bool,
    /// With `hard`: the tail set (blocked n = 28/48/50/56 at 100 seeds, excluded diagonals
    /// n = 20/21 at 20 seeds per point) instead of the standard set; `cubes` in --solvers runs
    /// `solve --cubes`.
    #[arg(long)]
    tail: bool,
    /// With `hard`: the frontier set (excluded diagonals n = 22..30 around the 50 % point of
    /// P(SAT), 3 prefix lengths x 20 seeds per n) instead of the standard set, with a per-n
    /// table.
    #[arg(long, conflicts_with_all = ["tail", "quick"])]
    frontier: bool,
    /// With `hard`: only list the instance names of the set (after --sample), one per line.
    #[arg(long)]
    list: bool,
    /// With `hard`: run a seeded subset of K instances (the seed is --seeds).
    #[arg(long, value_name = "K")]
    sample: Option<usize>,
    /// With `hard`: write the cactus plot (instances solved against time) to this SVG.
    #[arg(long, value_name = "FILE.svg")]
    cactus: Option<PathBuf>,
    /// With `hard`: write median and max seconds against n of the excluded-diagonal runs
    /// (log-scale time, one pair of lines per configuration) to this SVG.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
    /// With `hard`: pass `--implied WHICH` to every run (`none` measures the default strategy
    /// without its implied diagonal-sum constraints).
    #[arg(long, value_name = "WHICH")]
    implied: Option<String>,
}

/// The tables `queens-sat bench TABLE` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum BenchTable {
    /// Every AMO encoding x backend on generated hard instances.
    Hard,
}

/// The first option given that only `bench hard` reads, if any: elsewhere it would be accepted
/// and ignored.
fn hard_only(a: &BenchArgs) -> Option<&'static str> {
    [
        (a.solvers.is_some(), "--solvers"),
        (!a.portfolio.is_empty(), "--portfolio"),
        (a.seeds.is_some(), "--seeds"),
        (a.timeout.is_some(), "--timeout"),
        (a.jobs.is_some(), "--jobs"),
        (a.csv.is_some(), "--csv"),
        (a.resume, "--resume"),
        (a.tail, "--tail"),
        (a.frontier, "--frontier"),
        (a.list, "--list"),
        (a.sample.is_some(), "--sample"),
        (a.cactus.is_some(), "--cactus"),
        (a.plot.is_some(), "--plot"),
        (a.implied.is_some(), "--implied"),
    ]
    .into_iter()
    .find_map(|(given, flag)| given.then_some(flag))
}

/// Runs `bench` (its solves run as child processes of this very binary).
pub fn run(a: BenchArgs) -> Result<ExitCode> {
    if a.table != Some(BenchTable::Hard) {
        if let Some(flag) = hard_only(&a) {
            return Err(Error::Usage(format!(
                "{flag} applies to `bench hard` only: the other benchmarks do not read it"
            )));
        }
        if a.amo.is_some() && a.count.is_none() {
            return Err(Error::Usage(
                "--amo applies to `bench hard` and `bench --count` only: the other benchmarks \
                 do not read it"
                    .into(),
            ));
        }
    }
    let exe = std::env::current_exe().map_err(|e| Error::io("current executable", e))?;
    let task = if let Some(ns) = &a.dd {
        BenchTask::Dd {
            ns: ns.clone(),
            runs: if a.repeat > 1 { a.repeat } else { 5 },
        }
    } else if a.export {
        BenchTask::Export { quick: a.quick }
    } else {
        match (a.table, a.memory.as_deref(), a.count.as_deref()) {
            (Some(BenchTable::Hard), _, _) => BenchTask::Hard(hard_options(a)?),
            (None, Some(ns), _) => BenchTask::Memory { ns: ns.to_vec() },
            (None, None, Some([q, ams])) => {
                let all = queens_sat::cpu::cores();
                let threads = a.threads.clone().unwrap_or_else(|| vec![all]);
                if threads.is_empty() || threads.contains(&0) || a.repeat == 0 {
                    return Err(Error::Usage(
                        "--threads takes counts >= 1, --repeat at least 1".into(),
                    ));
                }
                BenchTask::Count {
                    max_queens: *q,
                    max_amazons: *ams,
                    amo: AmoKind::parse(a.amo.as_deref().unwrap_or("pairwise"))?,
                    threads,
                    repeat: a.repeat,
                }
            }
            (None, None, Some(_)) => return Err(Error::Usage("--count takes Q,A".into())),
            (None, None, None) => BenchTask::Tables { quick: a.quick },
        }
    };
    let settings = BenchSettings {
        exe,
        cancel: crate::cancel().clone(),
        task,
    };
    queens_sat::bench::run(&settings, &mut std::io::stdout())?;
    Ok(ExitCode::SUCCESS)
}

/// The options of `queens-sat bench hard`, every solver and portfolio checked before any run.
fn hard_options(a: BenchArgs) -> Result<HardOptions> {
    let amos = match a.amo.as_deref() {
        None | Some("all") => AmoKind::ALL.to_vec(),
        Some(list) => list.split(',').map(AmoKind::parse).collect::<Result<_>>()?,
    };
    let solvers: Vec<String> = match a.solvers.as_deref() {
        Some(list) => list.split(',').map(str::to_string).collect(),
        None => {
            let mut s = vec!["varisat".to_string()];
            if resolve_solver("cadical").is_ok() {
                s.push("cadical".into());
            }
            s
        }
    };
    for s in &solvers {
        // The default strategy, cube-and-conquer and the backend table's in-process names need
        // no program; anything else is an external one.
        let in_process = ["auto", CUBES].contains(&s.as_str()) || registry::find(s).is_some();
        if !in_process {
            resolve_solver(s)?;
        }
    }
    for spec in &a.portfolio {
        // Checked here so that a typo fails before the first run, not in every child.
        parse_portfolio(spec, EncodeOptions::from(AmoKind::DEFAULT))?;
    }
    let (timeout, jobs) = (a.timeout.unwrap_or(60), a.jobs.unwrap_or(1));
    if timeout == 0 || jobs == 0 {
        return Err(Error::Usage(
            "--timeout and --jobs must be at least 1".into(),
        ));
    }
    let seeds = a.seeds.unwrap_or(if a.quick { 1 } else { 2 });
    if seeds == 0 {
        return Err(Error::Usage("--seeds must be at least 1".into()));
    }
    Ok(HardOptions {
        quick: a.quick,
        seeds,
        timeout,
        jobs,
        solvers,
        amos,
        portfolios: a.portfolio,
        csv: a.csv,
        resume: a.resume,
        set: if a.frontier {
            HardSet::Frontier
        } else if a.tail {
            HardSet::Tail
        } else {
            HardSet::Standard
        },
        sample: a.sample,
        cactus: a.cactus,
        plot: a.plot,
        list: a.list,
        implied: a.implied.map(|name| Implied::parse(&name)).transpose()?,
    })
}
