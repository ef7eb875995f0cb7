//! `queens-sat solve`: encode, solve (one backend or a portfolio), decode, verify, print.

use std::process::ExitCode;

use clap::Args;
use queens_sat::Result;
use queens_sat::answer::Status;
use queens_sat::certify::ProofFormat;
use queens_sat::cube::Split;
use queens_sat::instance::Instance;
use queens_sat::interrupt::is_cancelled_io;
use queens_sat::piece::Piece;
use queens_sat::report::SolveRecord;
use queens_sat::report::answer::{AnswerFormat, write_answer};
use queens_sat::solve::{SolveReport, Solver, registry};

use crate::args::{EncodingArgs, InstanceArgs, OutputFormat, parse_timeout, print_json};

/// Arguments of `solve`.
#[derive(Args)]
pub struct SolveArgs {
    #[command(flatten)]
    inst: InstanceArgs,
    #[command(flatten)]
    enc: EncodingArgs,
    #[arg(long, default_value = "auto", help = registry::help())]
    solver: String,
    /// Give up after this many seconds (UNKNOWN, exit 1); `inf`: no limit. At least 0.001
    /// (the resolution), at most what a duration holds (about 1.8e19).
    #[arg(long, value_name = "SECS")]
    timeout: Option<f64>,
    /// Accept UNSAT only with a checked refutation (varisat self-checking, a DRAT proof from
    /// cadical / kissat, or the bitboard search's LRAT proof, each checked in-process).
    #[arg(long)]
    certify: bool,
    /// With `--certify`: the bitboard search answers alone, and an UNSAT it certifies leaves
    /// its checked proof in FILE as text LRAT, for the CNF that `encode --amo pairwise` writes
    /// for the same instance (any LRAT checker, e.g. cake_lpr, can check it again). A FILE
    /// ending in `.pbp` gets a VeriPB proof of the search with all its prunings (the sum bounds,
    /// the parity, the forced diagonals) instead, for the model `encode --to opb` writes
    /// (`veripb MODEL.opb FILE.pbp` checks it again). Written whole, and only then.
    #[arg(long, value_name = "FILE", requires = "certify")]
    proof: Option<std::path::PathBuf>,
    /// With `--proof`: the most bytes the proof file may take (`500M`, `10G`, `1.5T`, `2GiB`,
    /// or `none`). A warning on stderr once the proof passes 80 % of it; past it the solve
    /// ends with an error naming the budget and the partial proof is removed. Default: the
    /// environment's QUEENS_SAT_PROOF_BUDGET, else half the free space of the proof's folder
    /// when the solve starts. Without `--proof`, with `--certify` and a solver that writes
    /// DRAT (cadical, kissat, lib:cadical): the budget of that proof, a temporary file whose
    /// size is looked at every 50 ms; past it the solver is stopped (refused with any other
    /// solver).
    #[arg(long, value_name = "SIZE", requires = "certify")]
    proof_budget: Option<String>,
    /// With `--certify`: the proof the bitboard search writes and checks. `lrat`: LRAT over
    /// the pairwise CNF, the search without its sum bounds, parity and forced diagonals;
    /// `veripb`: VeriPB cutting planes over the OPB model, the search with all its prunings.
    /// Default: the `--proof` file's (`.pbp`: veripb), else lrat.
    #[arg(long, value_name = "FORMAT")]
    proof_format: Option<String>,
    /// Cube and conquer: split on rows and columns by look-ahead, then solve the cubes under
    /// assumptions with one incremental solver per thread (`--solver auto` for varisat, or any
    /// incremental in-process backend).
    #[arg(long)]
    cubes: bool,
    /// Threads (default: every core this process may use: its CPU affinity, and `SLURM_CPUS_PER_TASK` in a Slurm job): the cube workers of `--cubes`; under the default strategy
    /// the bitboard search split over J threads on excluded-diagonal instances, elsewhere the
    /// bitboard search's thread plus the cube workers (one: no bitboard race, cubes only); with
    /// `--solver bitboard` the search's tree split over J threads; a portfolio shares them.
    #[arg(long, value_name = "J")]
    jobs: Option<usize>,
    /// With `--solver bitboard` on several threads: the same board on every run (the first in
    /// the search's fixed order of subtrees), at the price of finishing the subtrees before it.
    #[arg(long)]
    deterministic: bool,
    /// With `--cubes`: split until there are this many cubes.
    #[arg(long, value_name = "K", requires = "cubes", default_value_t = Split::default().max_cubes)]
    max_cubes: usize,
    /// Output format: `text` the board (`Q` piece, `.` free, `x` blocked), streamed row by row;
    /// `cols` one line per row holding its piece's column (0-based), the compact form of a big
    /// board (about 400 KB at n = 65,536); `json` one object (its `board` rows left out past
    /// n = 1000, `board_omitted` says so; `queens` lists every piece); `svg` a picture (boards up
    /// to n = 1024, larger ones are refused before solving). An answer without a board prints
    /// its verdict (`UNSAT`, `UNKNOWN`) in text and cols.
    #[arg(long, value_enum, default_value = "text")]
    format: SolveFormat,
    /// Print what the solve would do (its plan: which engines, in which order, on how many
    /// threads, with which encoding) and exit 0 without solving; `--format json` prints the
    /// plan as JSON (the `plan` field of a solve's JSON record).
    #[arg(long)]
    explain: bool,
}

/// `solve`'s output formats: the shared ones ([`OutputFormat`]) and `cols`, the compact form
/// of a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SolveFormat {
    /// Board text on stdout, summary on stderr.
    Text,
    /// One JSON object on stdout.
    Json,
    /// The board as an SVG picture on stdout.
    Svg,
    /// One line per row with its piece's column (0-based), summary on stderr.
    Cols,
}

impl From<OutputFormat> for SolveFormat {
    fn from(f: OutputFormat) -> SolveFormat {
        match f {
            OutputFormat::Text => SolveFormat::Text,
            OutputFormat::Json => SolveFormat::Json,
            OutputFormat::Svg => SolveFormat::Svg,
        }
    }
}

impl SolveFormat {
    /// The library's format of a board on stdout; `None` for JSON (the record).
    fn board(self) -> Option<AnswerFormat> {
        match self {
            SolveFormat::Text => Some(AnswerFormat::Text),
            SolveFormat::Cols => Some(AnswerFormat::Cols),
            SolveFormat::Svg => Some(AnswerFormat::Svg),
            SolveFormat::Json => None,
        }
    }
}

/// Runs `solve`: one call of the library's [`Solver`], then the printed answer.
pub fn run(a: SolveArgs) -> Result<ExitCode> {
    // Options that would change nothing ([`queens_sat::applies`]), before any work. Of
    // `--break-symmetry`, `none` and `cubes` choose the default strategy's handling; `lex` is
    // an encoding option.
    use queens_sat::applies::{Command, Given, check};
    use queens_sat::error::Opt;
    check(
        Command::Solve,
        &Given::new()
            .value(Opt::Solver, a.solver.as_str())
            .maybe(Opt::Amo, a.enc.amo.as_deref())
            .maybe(Opt::Implied, a.enc.implied.as_deref())
            .maybe(Opt::Jobs, a.jobs.map(|j| j.to_string()))
            .switch_if(Opt::Cubes, a.cubes)
            .switch_if(Opt::Deterministic, a.deterministic)
            .maybe(
                Opt::BreakSymmetry,
                a.enc
                    .break_symmetry
                    .as_deref()
                    .filter(|m| matches!(*m, "none" | "cubes")),
            )
            .maybe(Opt::ProofFormat, a.proof_format.as_deref()),
    )?;
    if a.cubes && a.max_cubes == 0 {
        return Err(queens_sat::Error::Usage(
            "--max-cubes 0 must be at least 1 (the cubes --cubes splits into)".into(),
        ));
    }
    let timeout = a.timeout.map(parse_timeout).transpose()?.flatten();
    let (instance, piece) = a.inst.load()?;
    if a.explain && matches!(a.format, SolveFormat::Svg | SolveFormat::Cols) {
        return Err(queens_sat::Error::Usage(format!(
            "--explain prints a plan as text or json, not --format {}",
            if a.format == SolveFormat::Svg {
                "svg"
            } else {
                "cols"
            }
        )));
    }
    if let Some(format) = a.format.board().filter(|_| !a.explain) {
        // `--format svg` past the largest drawable board, before anything is solved.
        format.check(instance.n)?;
    }
    // The default strategy's own symmetry handling comes with the options (`lex` is an
    // encoding option, `none` and `cubes` the strategy's).
    let parsed = a.enc.parse(&instance, &piece, true)?;
    let options = parsed.options;
    let mut solver = Solver::new(&instance, piece)
        .options(options)
        .solver(a.solver.as_str())
        .presolve(!a.enc.no_presolve)
        .timeout(timeout)
        .certify(a.certify)
        .jobs(a.jobs)
        .deterministic(a.deterministic)
        .amo_given(a.enc.amo.is_some())
        .auto_symmetry(parsed.auto_symmetry)
        .proof(a.proof.clone())
        .proof_budget(
            a.proof_budget
                .as_deref()
                .map(|b| {
                    queens_sat::certify::budget::parse(b)
                        .map_err(|why| queens_sat::Error::Usage(format!("--proof-budget {why}")))
                })
                .transpose()?,
        )
        .proof_format(
            a.proof_format
                .as_deref()
                .map(ProofFormat::parse)
                .transpose()?,
        )
        .cancel(crate::cancel().clone());
    if let Some(implied) = parsed.implied {
        solver = solver.implied(implied);
    }
    if a.cubes {
        solver = solver.cubes(a.max_cubes);
    }
    if a.explain {
        let plan = solver.plan()?;
        match a.format {
            SolveFormat::Json => print_json(&plan.to_json()),
            _ => print!("{plan}"),
        }
        return Ok(ExitCode::SUCCESS);
    }
    let report = solver.solve()?;
    if let (Some(path), Status::Unsat) = (&a.proof, &report.status)
        && !report
            .certificate
            .as_ref()
            .is_some_and(|c| c.checker.contains("LRAT") || c.checker.contains("VeriPB"))
    {
        // Every certified UNSAT writes its proof, presolve's refutations included: exit 20
        // with no file would break the contract, so this is a fault, not a note.
        return Err(queens_sat::Error::Internal(format!(
            "no proof was written to {} (the UNSAT was certified by {})",
            path.display(),
            report
                .certificate
                .as_ref()
                .map_or("nothing", |c| c.checker.as_str())
        )));
    }
    Ok(print_answer(&report, &instance, piece, a.format))
}

/// Prints a verified status (board text or JSON on stdout, summary on stderr) and returns the
/// SAT-competition exit code.
pub fn print_answer(
    r: &SolveReport,
    instance: &Instance,
    piece: Piece,
    format: impl Into<SolveFormat>,
) -> ExitCode {
    let code = ExitCode::from(r.status.exit_code());
    let Some(format) = format.into().board() else {
        print_json(&SolveRecord::of(r, instance, piece));
        return code;
    };
    // A big board's text is written through the signal token: SIGINT / SIGTERM stop it at the
    // next buffer, and the run ends with the interrupted code instead of printing on. (The
    // time limit bounds the search only: a board found within it is printed whole.)
    let mut out = std::io::stdout().lock();
    if let Err(e) = write_answer(&mut out, r, instance, piece, format, crate::cancel())
        && is_cancelled_io(&e)
    {
        drop(out);
        eprintln!(
            "queens-sat: error: interrupted while printing the board; the output is cut short"
        );
        return ExitCode::from(130);
    }
    eprintln!("{}", r.summary(instance.n, piece.name));
    code
}
