//! `queens-sat count`: solutions, fixed points per symmetry and classes modulo symmetry.

use std::process::ExitCode;

use clap::Args;
use clap::builder::{PossibleValuesParser, TypedValueParser};
use queens_sat::count::{self, Engine};
use queens_sat::report::CountRecord;
use queens_sat::{Error, Result};

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
    /// Counting engine: auto (the fastest that can count the instance: backtrack where it
    /// applies, n <= 64 without --break-symmetry lex; sat elsewhere), sat (cube-and-conquer
    /// with a DPLL model counter), cdcl (the same cubes by varisat with blocking clauses),
    /// backtrack (independent bitboard counter, n <= 64). The output names the engine that ran.
    #[arg(long, default_value = "auto", value_parser = engine_choice_parser())]
    engine: EngineChoice,
    /// A second, independent engine counts too (backtrack for sat and cdcl, sat for
    /// backtrack; past n = 64 the other SAT engine); the output names both; exit 1 if they
    /// disagree.
    #[arg(long)]
    cross_check: bool,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "J")]
    jobs: Option<usize>,
    /// Time limit in seconds: past it, UNKNOWN (exit 1) and nothing counted.
    #[arg(long, value_name = "SECS")]
    timeout: Option<f64>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: OutputFormat,
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
pub struct EngineChoice(Option<Engine>);

fn engine_choice_parser() -> impl TypedValueParser<Value = EngineChoice> {
    PossibleValuesParser::new(Engine::names())
        .map(|name| EngineChoice(Engine::choice(&name).expect("a possible value is an engine")))
}

pub fn engine_parser() -> impl TypedValueParser<Value = Engine> {
    PossibleValuesParser::new(Engine::names())
        .map(|name| Engine::parse(&name).expect("a possible value is an engine"))
}

/// Runs `count`.
pub fn run(a: CountArgs) -> Result<ExitCode> {
    if a.enc.no_presolve {
        return Err(Error::Usage(
            "count always presolves its cubes; drop --no-presolve".into(),
        ));
    }
    a.enc.reject_implied("count")?;
    let (instance, piece) = a.inst.load()?;
    let options = a.enc.options(&instance, &piece)?;
    let timeout = a.timeout.map(parse_timeout).transpose()?.flatten();
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
        return draw_classes(&instance, piece, options);
    }
    let request = count::Request {
        amo: options.amo,
        symmetric: options.symmetric,
        lex: !options.lex_leader.is_empty() || a.enc.break_symmetry.as_deref() == Some("lex"),
        engine: a.engine.0,
        cross_check: a.cross_check,
        jobs: jobs_or_all_cores(a.jobs)?,
        timeout,
    };
    let bar = queens_sat::progress::Progress::stderr("count");
    let progress = |done: usize, total: usize| bar.update(done, total);
    let outcome = count::run(&instance, piece, &request, &progress, crate::cancel())?;
    bar.finish();
    match outcome {
        count::Outcome::Counted(report) => {
            print_report(&report, a.format);
            Ok(ExitCode::SUCCESS)
        }
        count::Outcome::TimeLimit(given) => {
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

/// Prints what `count` counted: the full breakdown (total, unique, group, fixed points), or
/// under `--break-symmetry lex` the classes alone; `symmetric g` when asked; the engine(s).
fn print_report(r: &count::Report, format: OutputFormat) {
    let engine = r.engine_name();
    let seconds = r.seconds();
    let names: Vec<String> = r.group.iter().map(|g| g.name().to_string()).collect();
    if r.lex {
        match format {
            OutputFormat::Json => print_json(&CountRecord {
                unique: Some(r.unique()),
                group: Some(names),
                symmetric: r.symmetric.map(|g| g.name().into()),
                method: Some(r.method_name()),
                seconds,
                engine,
                ..CountRecord::default()
            }),
            OutputFormat::Text | OutputFormat::Svg => {
                println!("unique {}", r.unique());
                println!("method {}", r.method_name());
                println!("group {}", names.join(" "));
                if let Some(g) = r.symmetric {
                    println!("symmetric {g}");
                }
                println!("engine {engine}");
                println!("seconds {seconds:.3}");
            }
        }
        return;
    }
    let c = r.counts().expect("a Burnside count has the breakdown");
    match format {
        OutputFormat::Json => print_json(&CountRecord {
            symmetric: r.symmetric.map(|g| g.name().into()),
            ..CountRecord::of(c, &engine, seconds)
        }),
        OutputFormat::Text | OutputFormat::Svg => {
            print_lines(c);
            if let Some(g) = r.symmetric {
                println!("symmetric {g}");
            }
            println!("engine {engine}");
            println!("seconds {seconds:.3}");
        }
    }
}

/// The text lines of a breakdown: total, unique, group, fixed points.
fn print_lines(c: &count::Counts) {
    println!("total {}", c.total);
    println!("unique {}", c.unique);
    let names: Vec<&str> = c.group.iter().map(|g| g.name()).collect();
    println!("group {}", names.join(" "));
    let fixed: Vec<String> = c
        .group
        .iter()
        .zip(&c.fixed)
        .map(|(g, f)| format!("{g}={f}"))
        .collect();
    println!("fixed {}", fixed.join(" "));
}

/// Prints a full count (`count`, `merge` of a count job): total, unique, group, fixed points.
pub fn print_counts(c: &count::Counts, engine_name: &str, seconds: f64, format: OutputFormat) {
    match format {
        OutputFormat::Json => print_json(&CountRecord::of(c, engine_name, seconds)),
        OutputFormat::Text | OutputFormat::Svg => {
            print_lines(c);
            println!("engine {engine_name}");
            println!("seconds {seconds:.3}");
        }
    }
}

/// Prints the total of a `--symmetric g` cluster job (`merge`).
pub fn print_symmetric(
    total: u64,
    g: queens_sat::symmetry::Symmetry,
    engine: &str,
    seconds: f64,
    format: OutputFormat,
) {
    match format {
        OutputFormat::Json => print_json(&CountRecord {
            total: Some(total),
            symmetric: Some(g.name().into()),
            seconds,
            engine: engine.into(),
            ..CountRecord::default()
        }),
        OutputFormat::Text | OutputFormat::Svg => {
            println!("total {total}");
            println!("symmetric {g}");
            println!("seconds {seconds:.3}");
        }
    }
}

/// Boards drawn by `count --format svg`, at most.
const MAX_DRAWN: usize = 12;

/// `count --format svg`: one representative board per symmetry class (of the boards
/// `--symmetric` keeps, when given), up to [`MAX_DRAWN`], as one SVG on stdout.
fn draw_classes(
    instance: &queens_sat::instance::Instance,
    piece: queens_sat::piece::Piece,
    options: queens_sat::encode::EncodeOptions,
) -> Result<ExitCode> {
    if !options.lex_leader.is_empty() {
        return Err(Error::Usage(
            "count --format svg draws class representatives itself; drop --break-symmetry".into(),
        ));
    }
    let (boards, more) = queens_sat::count::classes::representatives(
        instance,
        piece,
        options,
        MAX_DRAWN,
        crate::cancel(),
    )?;
    let which = options
        .symmetric
        .map_or(String::new(), |g| format!(" ({g}-symmetric)"));
    let title = format!(
        "{}-{}s{which}: {} class{}{}",
        instance.n,
        piece.name,
        boards.len(),
        if boards.len() == 1 { "" } else { "es" },
        if more { " shown, more exist" } else { "" }
    );
    print!(
        "{}",
        queens_sat::svg::grid(instance, piece, &boards, &title)
    );
    eprintln!("{title}");
    Ok(ExitCode::SUCCESS)
}
