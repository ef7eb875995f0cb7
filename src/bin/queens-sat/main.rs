//! The `queens-sat` command line. Each command is one module here: it parses its flags into the
//! library's types, calls the library, and renders the result. The library never imports this.

mod args;
mod bench;
mod cluster;
mod convert;
mod count;
mod decode;
mod encode;
mod generate;
mod solve;
mod suite;
mod verify;

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use queens_sat::{Error, Result};

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

#[derive(Subcommand)]
enum Command {
    /// Write the DIMACS CNF of an instance (default: cnf-out/<piece>-<n>-<amo>[-<stem>].cnf).
    Encode(encode::EncodeArgs),
    /// Solve an instance; prints a verified board. Exit 10 SAT, 20 UNSAT, 1 error or unknown.
    Solve(solve::SolveArgs),
    /// Rebuild and verify a board from a solver's output, using only the CNF file's header.
    Decode(decode::DecodeArgs),
    /// Check a complete board: exit 0 if valid, 1 with the first violation.
    Verify(verify::VerifyArgs),
    /// Count solutions, their fixed points under each symmetry of the instance, and the classes
    /// modulo symmetry (Burnside).
    Count(count::CountArgs),
    /// Write one random instance (csplib prob079/prob080 procedures, seeded ChaCha8): the same
    /// command gives the same bytes on every run and machine.
    Generate(generate::GenerateArgs),
    /// Rewrite an instance as board text or parameter file, or reduce excluded diagonals to
    /// n-queens completion (Gent, Jefferson, Nightingale 2017).
    Convert(convert::ConvertArgs),
    /// Generate a benchmark suite from a recipe: cnf-out/NAME/*.cnf and manifest.csv; optionally
    /// solve every instance and plot the phase transition.
    Suite(suite::SuiteArgs),
    /// Benchmarks: DIMACS writing throughput and time to first solution; `bench hard`: every
    /// AMO encoding x backend on generated hard blocked and excluded-diagonal instances.
    Bench(bench::BenchArgs),
    /// Split a count or a solve into a job folder for Slurm / GNU parallel: cubes, balanced
    /// tasks, run-slurm.sbatch, run-parallel.sh, cubes.icnf.
    Split(cluster::SplitArgs),
    /// Run one task of a job folder (default: $SLURM_ARRAY_TASK_ID); writes results/I.json.
    Work(cluster::WorkArgs),
    /// Combine a job folder's results (same output as count / solve). Exit 10 solutions, 20
    /// none, 1 on missing, failed, corrupt, duplicate or foreign results or UNKNOWN.
    Merge(cluster::MergeArgs),
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Encode(a) => encode::run(a),
        Command::Solve(a) => solve::run(a),
        Command::Decode(a) => decode::run(a),
        Command::Verify(a) => verify::run(a),
        Command::Count(a) => count::run(a),
        Command::Generate(a) => generate::run(a),
        Command::Convert(a) => convert::run(a),
        Command::Suite(a) => suite::run(a),
        Command::Bench(a) => bench::run(a),
        Command::Split(a) => cluster::run_split(a),
        Command::Work(a) => cluster::run_work(a),
        Command::Merge(a) => cluster::run_merge(a),
    }
}

/// The exit code for an error: 130 (128 + SIGINT) after an interrupt, 1 otherwise.
fn exit_code(e: &Error) -> u8 {
    match e {
        Error::Interrupted => 130,
        _ => 1,
    }
}

/// Restores the default SIGPIPE action, so `queens-sat ... | head` ends quietly like any Unix
/// filter instead of failing on a broken pipe; routes SIGINT / SIGTERM to a clean stop.
fn install_signal_handlers() {
    // SAFETY: setting signal dispositions at start-up, before any thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        // Past a file-size limit (ulimit -f), get EFBIG and a clean error instead of a kill
        // that would leave the temp file behind.
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
    let token = queens_sat::interrupt::install().unwrap_or_default();
    let _ = CANCEL.set(token);
    signal_ready();
}

/// The environment variable naming a file that the process writes its pid to (one line) once
/// SIGINT / SIGTERM stop it cleanly: a test that signals a child waits for the file instead of
/// guessing a delay. Taken out of the environment, so the process's own children do not write it.
const READY_FILE_ENV: &str = "QUEENS_SAT_READY_FILE";

/// Writes [`READY_FILE_ENV`]'s file, when the variable is set (after the handlers are in place).
fn signal_ready() {
    let Some(path) = std::env::var_os(READY_FILE_ENV) else {
        return;
    };
    // SAFETY: at start-up, before any thread exists, nothing reads the environment concurrently.
    unsafe { std::env::remove_var(READY_FILE_ENV) };
    // Written to a temp name and renamed, so a reader never sees a partial line.
    let tmp = std::path::PathBuf::from(format!("{}.tmp", path.to_string_lossy()));
    if std::fs::write(&tmp, format!("{}\n", std::process::id())).is_ok() {
        let _ = std::fs::rename(&tmp, &path);
    }
}

/// The process's cancel token, raised by SIGINT / SIGTERM: the commands hand it to every long
/// library operation. (The library itself keeps no global flag.)
static CANCEL: std::sync::OnceLock<queens_sat::interrupt::Cancel> = std::sync::OnceLock::new();

/// The token that SIGINT / SIGTERM raise.
pub fn cancel() -> &'static queens_sat::interrupt::Cancel {
    CANCEL.get_or_init(queens_sat::interrupt::Cancel::new)
}

/// A command line clap refused, by the rule of every other error: one line naming the
/// offending argument, exit 1. `--help` and `--version` print and exit 0; no command at all
/// prints the help (on stderr) and exits 1.
fn usage_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = e.print();
            ExitCode::SUCCESS
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            eprint!("{}", e.render());
            ExitCode::from(1)
        }
        _ => {
            // clap's message is the lines before its first blank line (then come tips and the
            // usage): joined into one.
            let text = e.render().to_string();
            let body: Vec<&str> = text
                .lines()
                .take_while(|l| !l.trim().is_empty())
                .map(str::trim)
                .collect();
            let joined = body.join(" ");
            let msg = joined.strip_prefix("error: ").unwrap_or(&joined);
            eprintln!("queens-sat: error: {msg} (see --help)");
            ExitCode::from(1)
        }
    }
}

fn main() -> ExitCode {
    install_signal_handlers();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(e),
    };
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("queens-sat: error: {e}");
            ExitCode::from(exit_code(&e))
        }
    }
}
