//! The `queens-sat` command line: parses arguments, calls the library, prints. No logic here.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use queens_sat::Result;
use queens_sat::cli::{self, EncodingSpec, InstanceSpec, OutputFormat};
use queens_sat::count::Engine;

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
    /// At-most-one encoding: pairwise, sequential, product, ladder, commander[:G] (group size,
    /// default 3), bimander[:G] (default 2), binary, or auto (chosen per line by its length).
    #[arg(long, default_value = cli::DEFAULT_AMO)]
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
    /// Benchmarks: DIMACS writing throughput and time to first solution.
    Bench {
        /// Smaller sizes, for a quick look.
        #[arg(long)]
        quick: bool,
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
            format,
        } => {
            let timeout = timeout.map(cli::parse_timeout).transpose()?;
            cli::solve(&inst.spec(), &enc.spec(), &solver, timeout, format)
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
        Command::Bench { quick } => cli::bench(quick),
    }
}

fn main() -> ExitCode {
    cli::restore_sigpipe();
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("queens-sat: error: {e}");
            ExitCode::from(1)
        }
    }
}
