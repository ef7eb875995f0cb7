//! `queens-sat count`: solutions, fixed points per symmetry and classes modulo symmetry.

use std::process::ExitCode;

use clap::Args;
use clap::builder::{PossibleValuesParser, TypedValueParser};
use queens_sat::count::{self, Engine};
use queens_sat::report::CountRecord;
use queens_sat::{Error, Result};

use crate::args::{EncodingArgs, InstanceArgs, OutputFormat, jobs_or_all_cores, print_json};

/// Arguments of `count`.
#[derive(Args)]
pub struct CountArgs {
    #[command(flatten)]
    inst: InstanceArgs,
    #[command(flatten)]
    enc: EncodingArgs,
    /// Counting engine: sat (cube-and-conquer with a DPLL model counter), cdcl (the same cubes
    /// by varisat with blocking clauses), backtrack (independent bitboard counter, n <= 64);
    /// auto is sat.
    #[arg(long, default_value = "auto", value_parser = engine_parser())]
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
    if a.format == OutputFormat::Svg {
        return draw_classes(&instance, piece, options);
    }
    let jobs = jobs_or_all_cores(a.jobs)?;
    if !options.lex_leader.is_empty() {
        let (classes, seconds) = count::timed(|| {
            count::count_lex_leaders(&instance, piece, options.amo, jobs, crate::cancel())
        });
        let classes = classes?;
        match a.format {
            OutputFormat::Json => print_json(&CountRecord {
                unique: Some(classes),
                method: Some("lex-leader".into()),
                seconds,
                engine: "sat".into(),
                ..CountRecord::default()
            }),
            OutputFormat::Text | OutputFormat::Svg => {
                println!("unique {classes}");
                println!("method lex-leader");
                println!("seconds {seconds:.3}");
            }
        }
        return Ok(ExitCode::SUCCESS);
    }
    let bar = queens_sat::progress::Progress::stderr("count");
    let progress = |done: usize, total: usize| bar.update(done, total);
    if let Some(g) = options.symmetric {
        let (total, seconds) = count::timed(|| {
            count::count_symmetric(&instance, piece, options.amo, g, jobs, crate::cancel())
        });
        let total = total?;
        bar.finish();
        print_symmetric(total, g, "sat", seconds, a.format);
        return Ok(ExitCode::SUCCESS);
    }
    let engines: Vec<Engine> = if a.cross_check {
        // The chosen SAT-based engine (sat or cdcl) against the independent backtracker.
        let sat = if a.engine == Engine::Backtrack {
            Engine::Sat
        } else {
            a.engine
        };
        vec![sat, Engine::Backtrack]
    } else {
        vec![a.engine]
    };
    let mut results = Vec::new();
    for &e in &engines {
        let (c, seconds) = count::timed(|| {
            count::count_with_progress(
                &instance,
                piece,
                options.amo,
                e,
                jobs,
                &progress,
                crate::cancel(),
            )
        });
        results.push((e, c?, seconds));
    }
    bar.finish();
    if let [(ea, x, _), (eb, y, _)] = results.as_slice()
        && x != y
    {
        return Err(Error::Solver(format!(
            "cross-check failed: {} engine counted total={} unique={} fixed={:?}, {} engine total={} unique={} fixed={:?}",
            ea.name(),
            x.total,
            x.unique,
            x.fixed,
            eb.name(),
            y.total,
            y.unique,
            y.fixed
        )));
    }
    let (engine, c, seconds) = &results[0];
    let engine_name = if a.cross_check {
        format!("{}+backtrack", engine.name())
    } else {
        engine.name().to_string()
    };
    let seconds: f64 = if a.cross_check {
        results.iter().map(|r| r.2).sum()
    } else {
        *seconds
    };
    print_counts(c, &engine_name, seconds, a.format);
    Ok(ExitCode::SUCCESS)
}

/// Prints a full count (`count`, `merge` of a count job): total, unique, group, fixed points.
pub fn print_counts(c: &count::Counts, engine_name: &str, seconds: f64, format: OutputFormat) {
    match format {
        OutputFormat::Json => print_json(&CountRecord::of(c, engine_name, seconds)),
        OutputFormat::Text | OutputFormat::Svg => {
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
            println!("engine {engine_name}");
            println!("seconds {seconds:.3}");
        }
    }
}

/// Prints a `--symmetric g` count.
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
