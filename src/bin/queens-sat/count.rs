//! `queens-sat count`: solutions, fixed points per symmetry and classes modulo symmetry.

use std::process::ExitCode;

use clap::Args;
use clap::builder::{PossibleValuesParser, TypedValueParser};
use queens_sat::count::{self, CountEngine, Counter};
use queens_sat::report::CountRecord;
use queens_sat::{Error, Result};

use queens_sat::applies::{Command, Given};
use queens_sat::error::Opt;
use queens_sat::report::boards::{BoardsFormat, Listing, draw_classes, parse_limit, write_boards};

use crate::args::{
    EncodingArgs, InstanceArgs, OutputFormat, jobs_or_all_cores, parse_timeout, print_json,
};

/// Arguments of `count`.
#[derive(Args)]
#[command(after_help = COUNT_RULES)]
pub struct CountArgs {
    #[command(flatten)]
    inst: InstanceArgs,
    #[command(flatten)]
    enc: EncodingArgs,
    /// Counting engine: auto (the fastest that can count the instance: orbits for --symmetric
    /// r90|r180|r270 without blocked cells or excluded diagonals; backtrack where it applies,
    /// n <= 64 without --break-symmetry lex; sat elsewhere), sat (cube-and-conquer with a DPLL
    /// model counter), cdcl (the same cubes by varisat with blocking clauses), backtrack
    /// (independent bitboard counter, n <= 64; its rotations' fixed points come from the
    /// orbits, named on a line `rotations orbits`), orbits (the boards a rotation fixes,
    /// counted from its orbits: r90/r270 n <= 128, r180 n <= 64). The output names the engine
    /// that ran.
    #[arg(long, default_value = "auto", value_parser = engine_choice_parser())]
    engine: EngineChoice,
    /// A second, independent engine counts too (backtrack for sat and cdcl, sat for
    /// backtrack; past n = 64 the other SAT engine); the output names both; exit 1 if they
    /// disagree.
    #[arg(long)]
    cross_check: bool,
    /// Worker threads (default: every core this process may use: its CPU affinity, and SLURM_CPUS_PER_TASK in a Slurm job).
    #[arg(long, value_name = "J")]
    jobs: Option<usize>,
    /// Time limit in seconds: past it, UNKNOWN (exit 1) and nothing counted.
    #[arg(long, value_name = "SECS")]
    timeout: Option<f64>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: OutputFormat,
    /// Print boards instead of counting: the first K (or `all`), each as the search finds it
    /// (streamed) and verified; with --break-symmetry lex one per class modulo the group H,
    /// its lex-leader (the board --break-symmetry lex counts); with --symmetric g only the
    /// boards g maps to themselves. n <= 64. Text: each board's rows, a blank line between
    /// boards; json: one JSON object per line per board ({"board": i, "queens": [[row, col],
    /// ...], "rows": [...]}), then one summary line ({"boards": count, "status": ...}); svg:
    /// one grid of at most 64 boards. --timeout limits the whole run, the printing included
    /// (a slow reader does not stretch it): UNKNOWN, exit 1, after the boards printed.
    #[arg(long, value_name = "K|all")]
    boards: Option<String>,
}

/// `count --help`'s rule of the counts under the symmetry options.
const COUNT_RULES: &str = "\
Counts: `total` is the number of solutions (with --symmetric g: of the solutions g maps to
themselves). `group` H is the instance's symmetries (its stabiliser) that map <g> onto itself:
all of them without --symmetric or for r90/r180/r270; only those among id r180 flip_h flip_v
for flip_h/flip_v, among id r180 flip_d flip_a for flip_d/flip_a. g need not be a symmetry of
the instance. `fixed h=F`: the counted solutions h maps to themselves. `unique` = sum(fixed) /
|H| (Burnside), the classes modulo H. --break-symmetry lex counts those classes directly,
through lex-leader constraints for H (the backtrack engine by Burnside): the same number.";

/// `count --engine`: `auto` or one engine.
#[derive(Clone, Copy, Debug)]
pub struct EngineChoice(pub Option<CountEngine>);

/// Parses `--engine`: `auto` (`None`: the caller picks per instance) or one engine.
pub fn engine_choice_parser() -> impl TypedValueParser<Value = EngineChoice> {
    PossibleValuesParser::new(CountEngine::names()).map(|name| {
        EngineChoice(CountEngine::choice(&name).expect("a possible value is an engine"))
    })
}

/// Runs `count`.
pub fn run(a: CountArgs) -> Result<ExitCode> {
    if a.enc.no_presolve {
        return Err(Error::Usage(
            "count always presolves its cubes; drop --no-presolve".into(),
        ));
    }
    a.enc.reject_implied("count")?;
    let given = Given::new()
        .maybe(Opt::Boards, a.boards.clone())
        .maybe(Opt::Engine, a.engine.0.map(|e| e.name()))
        .maybe(Opt::Jobs, a.jobs.map(|j| j.to_string()))
        .maybe(Opt::Amo, a.enc.amo.clone());
    queens_sat::applies::check(Command::Count, &given)?;
    let limit = a.boards.as_deref().map(parse_limit).transpose()?;
    let (instance, piece) = a.inst.load()?;
    let options = a.enc.options(&instance, &piece)?;
    let timeout = a.timeout.map(parse_timeout).transpose()?.flatten();
    if let Some(limit) = limit {
        if a.cross_check {
            return Err(Error::Usage(
                "count --boards enumerates boards, it does not count; drop --cross-check".into(),
            ));
        }
        let listing = Listing {
            instance: &instance,
            piece,
            symmetric: options.symmetric,
            modulo: a.enc.break_symmetry.as_deref() == Some("lex"),
            limit,
            timeout,
            format: match a.format {
                OutputFormat::Text => BoardsFormat::Text,
                OutputFormat::Json => BoardsFormat::Json,
                OutputFormat::Svg => BoardsFormat::Svg,
            },
        };
        // One write per board (a locked stdout alone is line-buffered: a write per row).
        let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
        let listed = write_boards(&mut out, "<stdout>", &listing, crate::cancel())?;
        eprintln!("{}", listed.summary);
        return Ok(match listed.stopped {
            Some(_) => ExitCode::from(1),
            None => ExitCode::SUCCESS,
        });
    }
    if a.format == OutputFormat::Svg {
        // The drawing enumerates class representatives with varisat: no engine, cross-check
        // or time limit of the count applies to it.
        let given = [
            (a.engine.0.is_some(), "--engine"),
            (a.cross_check, "--cross-check"),
            (timeout.is_some(), "--timeout"),
        ];
        if let Some((_, flag)) = given.iter().find(|(set, _)| *set) {
            return Err(Error::Usage(format!(
                "count --format svg draws class representatives (enumerated by varisat), it does not count; drop {flag}"
            )));
        }
        let (svg, title) = draw_classes(&instance, piece, options, crate::cancel())?;
        print!("{svg}");
        eprintln!("{title}");
        return Ok(ExitCode::SUCCESS);
    }
    let lex = !options.lex_leader.is_empty() || a.enc.break_symmetry.as_deref() == Some("lex");
    let bar = queens_sat::progress::Progress::stderr("count");
    let progress = |done: usize, total: usize| bar.update(done, total);
    let mut counter = Counter::new(&instance, piece)
        .engine(a.engine.0)
        .symmetric(options.symmetric)
        .lex(lex)
        .cross_check(a.cross_check)
        .jobs(jobs_or_all_cores(a.jobs)?)
        .timeout(timeout)
        .cancel(crate::cancel().clone())
        .progress(&progress);
    // `--amo` shapes the SAT engines' CNF only: the counter refuses it with an engine that
    // encodes nothing (auto's choice included).
    if a.enc.amo.is_some() {
        counter = counter.amo(options.amo);
    }
    let outcome = counter.run()?;
    bar.finish();
    match outcome {
        count::CountOutcome::Counted(report) => {
            print_record(CountRecord::of_report(&report), a.format);
            Ok(ExitCode::SUCCESS)
        }
        count::CountOutcome::TimeLimit(given) => {
            let reason = format!("time limit of {} s reached", given.as_secs_f64());
            match a.format {
                OutputFormat::Json => print_json(&serde_json::json!({
                    "status": "UNKNOWN",
                    "reason": reason,
                })),
                OutputFormat::Text | OutputFormat::Svg => println!("UNKNOWN"),
            }
            eprintln!("UNKNOWN ({reason}): nothing counted");
            Ok(ExitCode::from(1))
        }
    }
}

/// Prints a count's record: JSON, or its text lines.
pub fn print_record(r: CountRecord, format: OutputFormat) {
    match format {
        OutputFormat::Json => print_count(r),
        OutputFormat::Text | OutputFormat::Svg => print!("{}", r.text()),
    }
}

/// Prints a count record as JSON, saying how its integers are written where one passes 2^53.
fn print_count(r: CountRecord) {
    print_json(&r.noting_big_counts());
}
