//! The `queens-sat` command line: parses arguments, calls the library, prints. No logic here.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use queens_sat::Result;
use queens_sat::cli::{
    self, ConvertTarget, EncodingSpec, InstanceFormat, InstanceSpec, OutputFormat,
};
use queens_sat::count::Engine;
use queens_sat::encode::amo::AmoKind;
use queens_sat::generate::Generator;

#[derive(Parser)]
#[command(
    name = "queens-sat",
    version,
    about = "N-queens / N-amazons as SAT: encode, solve, decode, verify"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Args)]
struct InstanceArgs {
    /// Board side of a plain board (1..=65536).
    #[arg(short = 'n', conflicts_with = "instance")]
    n: Option<u32>,
    /// Instance file: board text, csplib param file, or excluded-diagonals file.
    #[arg(long, value_name = "FILE")]
    instance: Option<PathBuf>,
    /// Take only the first D excluded diagonals of an excluded-diagonals file.
    #[arg(long, value_name = "D")]
    diags: Option<usize>,
    /// Piece: queen or amazon.
    #[arg(long, default_value = "queen")]
    piece: String,
}

impl InstanceArgs {
    fn spec(&self) -> InstanceSpec {
        InstanceSpec {
            n: self.n,
            instance: self.instance.clone(),
            diags: self.diags,
            piece: self.piece.clone(),
        }
    }
}

#[derive(Args)]
struct EncodingArgs {
    #[arg(long, default_value = cli::DEFAULT_AMO, help = AmoKind::help())]
    amo: String,
    /// Keep the full n*n encoding with unit clauses instead of presolving.
    #[arg(long)]
    no_presolve: bool,
    /// Only boards this symmetry maps to themselves: r90, r180, r270, flip_h, flip_v, flip_d,
    /// flip_a (CNF equivalences between each cell and its image).
    #[arg(long, value_name = "ELEMENT")]
    symmetric: Option<String>,
    /// `lex`: lex-leader constraints keep one board per class modulo the instance's symmetries.
    #[arg(long, value_name = "METHOD")]
    break_symmetry: Option<String>,
}

impl EncodingArgs {
    fn spec(&self) -> EncodingSpec {
        EncodingSpec {
            amo: self.amo.clone(),
            presolve: !self.no_presolve,
            symmetric: self.symmetric.clone(),
            break_symmetry: self.break_symmetry.clone(),
        }
    }
}

#[derive(Subcommand)]
enum Command {
    /// Write the DIMACS CNF of an instance (default: cnf-out/<piece>-<n>-<amo>[-<stem>].cnf).
    Encode {
        #[command(flatten)]
        inst: InstanceArgs,
        #[command(flatten)]
        enc: EncodingArgs,
        /// Output path; `-` for stdout.
        #[arg(short = 'o', long = "output", value_name = "PATH")]
        output: Option<String>,
        /// Print variable, clause and literal counts without writing a file.
        #[arg(long)]
        stats: bool,
        /// Report format.
        #[arg(long, value_enum, default_value = "text")]
        format: OutputFormat,
    },
    /// Solve an instance; prints a verified board. Exit 10 SAT, 20 UNSAT, 1 error or unknown.
    Solve {
        #[command(flatten)]
        inst: InstanceArgs,
        #[command(flatten)]
        enc: EncodingArgs,
        /// Solver: `varisat` (in-process, default) or an external DIMACS solver name or path.
        #[arg(long, default_value = "varisat")]
        solver: String,
        /// Give up after this many seconds (UNKNOWN, exit 1).
        #[arg(long, value_name = "SECS")]
        timeout: Option<f64>,
        /// Accept UNSAT only with a checked refutation (varisat self-checking, or a DRAT proof
        /// from cadical / kissat checked in-process).
        #[arg(long)]
        certify: bool,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: OutputFormat,
    },
    /// Rebuild and verify a board from a solver's output, using only the CNF file's header.
    Decode {
        /// The CNF written by `queens-sat encode`.
        #[arg(long, value_name = "FILE.cnf")]
        cnf: PathBuf,
        /// The solver's output (SAT-competition `s`/`v` lines, or a minisat result file).
        #[arg(long, value_name = "OUTPUT")]
        model: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: OutputFormat,
    },
    /// Check a complete board: exit 0 if valid, 1 with the first violation.
    Verify {
        /// Board text file (`Q` pieces, `.` free, `x` blocked).
        board: PathBuf,
        /// Piece: queen or amazon.
        #[arg(long, default_value = "queen")]
        piece: String,
        /// Instance the board must solve (pre-placed pieces, blocked cells).
        #[arg(long, value_name = "FILE")]
        instance: Option<PathBuf>,
        /// Take only the first D excluded diagonals of the instance.
        #[arg(long, value_name = "D")]
        diags: Option<usize>,
    },
    /// Count solutions, their fixed points under each symmetry of the instance, and the classes
    /// modulo symmetry (Burnside).
    Count {
        #[command(flatten)]
        inst: InstanceArgs,
        #[command(flatten)]
        enc: EncodingArgs,
        /// Counting engine.
        #[arg(long, value_enum, default_value = "sat")]
        engine: Engine,
        /// Run both engines; exit 1 if they disagree.
        #[arg(long)]
        cross_check: bool,
        /// Worker threads (default: all cores).
        #[arg(long, value_name = "J")]
        jobs: Option<usize>,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: OutputFormat,
    },
    /// Write one random instance (csplib prob079/prob080 procedures, seeded ChaCha8): the same
    /// command gives the same bytes on every run and machine.
    Generate {
        #[command(subcommand)]
        kind: GenerateKind,
    },
    /// Rewrite an instance as board text or parameter file, or reduce excluded diagonals to
    /// n-queens completion (Gent, Jefferson, Nightingale 2017).
    Convert {
        /// Instance file: board text, csplib param file, or excluded-diagonals file.
        #[arg(long, value_name = "FILE")]
        instance: PathBuf,
        /// Take only the first D excluded diagonals of an excluded-diagonals file.
        #[arg(long, value_name = "D")]
        diags: Option<usize>,
        /// Output: board, param, or completion (a parameter file; queens only).
        #[arg(long, value_enum)]
        to: ConvertTarget,
        /// Output file (written atomically); `-` or none for stdout.
        #[arg(short = 'o', long = "output", value_name = "PATH")]
        output: Option<String>,
    },
    /// Generate a benchmark suite from a recipe: cnf-out/NAME/*.cnf and manifest.csv; optionally
    /// solve every instance and plot the phase transition.
    Suite {
        /// The recipe, e.g. encodings/queens-amo.suite (format in encodings/README.md).
        recipe: PathBuf,
        /// Output folder (default cnf-out/NAME).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// Solve every instance and record status and seconds (models are verified).
        #[arg(long)]
        solve: bool,
        /// Solver for --solve: `varisat` or an external DIMACS solver name or path.
        #[arg(long, default_value = "varisat", requires = "solve")]
        solver: String,
        /// Time limit per instance for --solve (UNKNOWN when reached).
        #[arg(long, value_name = "SECS", requires = "solve")]
        timeout: Option<f64>,
        /// Worker threads for writing and solving (default: all cores).
        #[arg(long, value_name = "J")]
        jobs: Option<usize>,
        /// Draw P(satisfiable) and median solve time per family to this SVG file.
        #[arg(long, value_name = "FILE.svg")]
        plot: Option<PathBuf>,
        /// Regenerate and re-solve every file, even when its sha256 matches the manifest.
        #[arg(long)]
        force: bool,
    },
    /// Benchmarks: DIMACS writing throughput and time to first solution; `bench hard`: every
    /// AMO encoding x backend on generated hard blocked and excluded-diagonal instances.
    Bench {
        /// `hard`: the encoding x backend race on hard instances (default: the standard tables).
        #[arg(value_enum)]
        table: Option<cli::BenchTable>,
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
        /// Instead: counting speed, queens 8..=Q and amazons 10..=A (e.g. 14,15).
        #[arg(
            long,
            value_delimiter = ',',
            value_name = "Q,A",
            conflicts_with = "table"
        )]
        count: Option<Vec<u32>>,
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
        /// With `hard`: time limit per run, seconds.
        #[arg(long, default_value_t = 60)]
        timeout: u32,
        /// With `hard`: runs at a time (default 1, so that runs do not share cores).
        #[arg(long, default_value_t = 1)]
        jobs: usize,
        /// With `hard`: also write every run (instance, configuration, status, seconds) to this CSV.
        #[arg(long, value_name = "FILE.csv")]
        csv: Option<PathBuf>,
    },
}

#[derive(Args)]
struct GenerateOutput {
    /// Seed of the ChaCha8 generator.
    #[arg(long)]
    seed: u64,
    /// Output file (written atomically); `-` or none for stdout.
    #[arg(short = 'o', long = "output", value_name = "PATH")]
    output: Option<String>,
}

#[derive(Subcommand)]
enum GenerateKind {
    /// M non-attacking pre-placed queens (prob079 queens-gen-fast.py).
    Completion {
        /// Board side.
        #[arg(short = 'n')]
        n: u32,
        /// Pre-placed queens.
        #[arg(short = 'm')]
        m: u32,
        #[command(flatten)]
        out: GenerateOutput,
        /// Instance format (param: init 0-based).
        #[arg(long, value_enum, default_value = "param")]
        format: InstanceFormat,
    },
    /// M blocked cells, at least K free cells in every row and column (prob080 blocked-gen.py).
    Blocked {
        /// Board side.
        #[arg(short = 'n')]
        n: u32,
        /// Blocked cells.
        #[arg(short = 'm')]
        m: u32,
        /// Free cells kept in every row and column.
        #[arg(long, value_name = "K")]
        min_free: u32,
        #[command(flatten)]
        out: GenerateOutput,
        /// Instance format (param: blocks 1-based).
        #[arg(long, value_enum, default_value = "param")]
        format: InstanceFormat,
    },
    /// An ordered list of excluded diagonals, written as an excluded-diagonals file; its
    /// prefixes are the instances (`--diags D`) (prob079 queens-diag-gen.py).
    Diagonals {
        /// Board side.
        #[arg(short = 'n')]
        n: u32,
        /// Free cells kept in every row and column.
        #[arg(long, value_name = "K")]
        min_free: u32,
        #[command(flatten)]
        out: GenerateOutput,
    },
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Encode {
            inst,
            enc,
            output,
            stats,
            format,
        } => cli::encode(&inst.spec(), &enc.spec(), output.as_deref(), stats, format),
        Command::Solve {
            inst,
            enc,
            solver,
            timeout,
            certify,
            format,
        } => {
            let timeout = timeout.map(cli::parse_timeout).transpose()?;
            cli::solve(&inst.spec(), &enc.spec(), &solver, timeout, certify, format)
        }
        Command::Decode { cnf, model, format } => cli::decode(&cnf, &model, format),
        Command::Verify {
            board,
            piece,
            instance,
            diags,
        } => cli::verify_board(&board, &piece, instance.as_deref(), diags),
        Command::Count {
            inst,
            enc,
            engine,
            cross_check,
            jobs,
            format,
        } => cli::count(&inst.spec(), &enc.spec(), engine, cross_check, jobs, format),
        Command::Generate { kind } => {
            let (generator, n, out, format) = match kind {
                GenerateKind::Completion { n, m, out, format } => {
                    (Generator::Completion { m }, n, out, format)
                }
                GenerateKind::Blocked {
                    n,
                    m,
                    min_free,
                    out,
                    format,
                } => (Generator::Blocked { m, min_free }, n, out, format),
                GenerateKind::Diagonals { n, min_free, out } => (
                    Generator::Diagonals {
                        min_free,
                        diags: None,
                        to_completion: false,
                    },
                    n,
                    out,
                    InstanceFormat::Param,
                ),
            };
            cli::generate(generator, n, out.seed, format, out.output.as_deref())
        }
        Command::Convert {
            instance,
            diags,
            to,
            output,
        } => cli::convert(&instance, diags, to, output.as_deref()),
        Command::Suite {
            recipe,
            out,
            solve,
            solver,
            timeout,
            jobs,
            plot,
            force,
        } => {
            let timeout = timeout.map(cli::parse_timeout).transpose()?;
            let solve = solve.then_some((solver.as_str(), timeout));
            cli::suite(&recipe, out, solve, jobs, plot, force)
        }
        Command::Bench {
            table,
            quick,
            memory,
            count,
            amo,
            solvers,
            portfolio,
            seeds,
            timeout,
            jobs,
            csv,
        } => match table {
            Some(cli::BenchTable::Hard) => cli::bench_hard(cli::BenchHardArgs {
                quick,
                seeds,
                amo,
                solvers,
                portfolio,
                timeout,
                jobs,
                csv,
            }),
            None => cli::bench(quick, memory.as_deref(), count.as_deref(), amo.as_deref()),
        },
    }
}

fn main() -> ExitCode {
    cli::restore_sigpipe();
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("queens-sat: error: {e}");
            ExitCode::from(cli::exit_code(&e))
        }
    }
}
