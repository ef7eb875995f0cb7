//! `queens-sat bench`: its flags. The harness itself is the library's
//! [`queens_sat::bench`]; this turns the flags into its [`BenchFlags`], which check them, and
//! calls it once.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use queens_sat::bench::BenchSettings;
use queens_sat::bench::flags::BenchFlags;
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

/// Runs `bench` (its solves run as child processes of this very binary): the library checks
/// the flags and picks the benchmark ([`BenchFlags::task`]).
pub fn run(a: BenchArgs) -> Result<ExitCode> {
    let task = BenchFlags {
        hard: a.table == Some(BenchTable::Hard),
        quick: a.quick,
        memory: a.memory,
        dd: a.dd,
        export: a.export,
        count: a.count,
        threads: a.threads,
        repeat: a.repeat,
        amo: a.amo,
        solvers: a.solvers,
        portfolio: a.portfolio,
        seeds: a.seeds,
        timeout: a.timeout,
        jobs: a.jobs,
        csv: a.csv,
        resume: a.resume,
        tail: a.tail,
        frontier: a.frontier,
        list: a.list,
        sample: a.sample,
        cactus: a.cactus,
        plot: a.plot,
        implied: a.implied,
    }
    .task()?;
    let exe = std::env::current_exe().map_err(|e| Error::io("current executable", e))?;
    let settings = BenchSettings {
        exe,
        cancel: crate::cancel().clone(),
        task,
    };
    queens_sat::bench::run(&settings, &mut std::io::stdout())?;
    Ok(ExitCode::SUCCESS)
}
