//! `queens-sat solve`: encode, solve (one backend or a portfolio), decode, verify, print.

use std::io::Write;
use std::process::ExitCode;

use clap::Args;
use queens_sat::certify::Certificate;
use queens_sat::cube::Split;
use queens_sat::encode::EncodeOptions;
use queens_sat::encode::Stats;
use queens_sat::encode::implied::Implied;
use queens_sat::instance::Instance;
use queens_sat::piece::Piece;
use queens_sat::presolve::Problem;
use queens_sat::report::SolveRecord;
use queens_sat::solve::cubes::{self, CubeSettings, VarisatAssuming};
use queens_sat::solve::{self, SolveSettings, Status, parse_portfolio};
use queens_sat::symmetry::stabiliser;
use queens_sat::{Error, Result};

use crate::args::{
    EncodingArgs, InstanceArgs, OutputFormat, jobs_or_all_cores, parse_timeout, print_json,
};

/// Arguments of `solve`.
#[derive(Args)]
pub struct SolveArgs {
    #[command(flatten)]
    inst: InstanceArgs,
    #[command(flatten)]
    enc: EncodingArgs,
    /// Solver: `auto` (the default strategy: local search with a small budget, then varisat and
    /// the linked CaDiCaL raced),
    /// `varisat` (in-process CDCL), `lib:cadical` / `lib:kissat` (linked CaDiCaL / Kissat),
    /// `walk` (in-process local search: SAT or UNKNOWN), or an
    /// external DIMACS solver name or path; a comma-separated list races a portfolio, each
    /// entry optionally with its own `--amo`.
    #[arg(long, default_value = "auto")]
    solver: String,
    /// Give up after this many seconds (UNKNOWN, exit 1).
    #[arg(long, value_name = "SECS")]
    timeout: Option<f64>,
    /// Accept UNSAT only with a checked refutation (varisat self-checking, or a DRAT proof
    /// from cadical / kissat checked in-process).
    #[arg(long)]
    certify: bool,
    /// Cube and conquer: split on rows and columns by look-ahead, then solve the cubes under
    /// assumptions with one incremental solver per thread (`--solver auto`/`varisat`, or `lib:cadical`).
    #[arg(long)]
    cubes: bool,
    /// Threads for `--cubes` (default: every core).
    #[arg(long, value_name = "J", requires = "cubes")]
    jobs: Option<usize>,
    /// With `--cubes`: split until there are this many cubes.
    #[arg(long, value_name = "K", requires = "cubes", default_value_t = Split::default().max_cubes)]
    max_cubes: usize,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: OutputFormat,
}

/// What `--solver auto` races once local search gives up: the two in-process CDCL solvers, each
/// on its own thread. Neither dominates: CaDiCaL is several times faster on most hard blocked
/// and excluded-diagonal instances, varisat on some large loosely constrained ones (external
/// cadical took 215-344 s on plain n=1000, varisat 5-15 s), so the race takes the better of the
/// two at the price of sharing the cores.
const AUTO_PORTFOLIO: &str = "varisat,lib:cadical";

/// Boards with at most this many live cells after presolve go to cube-and-conquer under
/// `--solver auto`. The hard instances of the tail have a few hundred (blocked n=56: ~400;
/// excluded diagonals n=20: ~250); plain and large boards have thousands and more.
const AUTO_CUBES_MAX_CELLS: u64 = 2000;

/// The local-search budget of `--solver auto` (at most a tenth of `--timeout`). Plain and
/// lightly constrained boards are found in milliseconds; on hard instances (near the phase
/// transition, or UNSAT) the search gives up after its swap budget, long before this.
const AUTO_WALK: std::time::Duration = std::time::Duration::from_secs(1);

/// Runs `solve`.
pub fn run(a: SolveArgs) -> Result<ExitCode> {
    let timeout = a.timeout.map(parse_timeout).transpose()?;
    let (instance, piece) = a.inst.load()?;
    let options = a.enc.options(&stabiliser(&instance, &piece))?;
    if a.certify && options.implied != Implied::None {
        return Err(Error::Usage(
            "--certify checks refutations of the plain model; drop --implied".into(),
        ));
    }
    if a.cubes {
        return run_cubes(&a, &instance, piece, None, options, timeout, &a.solver);
    }
    // The default on small boards (the hard completion / blocked / excluded-diagonal ones):
    // local search, then cube-and-conquer with the linked CaDiCaL (with --certify, every cube's
    // refutation and the cubes' coverage checked). Larger boards race the two
    // CDCL solvers directly, where a look-ahead split would cost more than it saves.
    let small = |p: &Problem| p.num_cells() <= AUTO_CUBES_MAX_CELLS && p.unsat.is_none();
    // The presolved problem, when the default strategy already built it (large boards go on to
    // the race with it instead of presolving again).
    let mut presolved = None;
    if a.solver == "auto"
        && !a.enc.no_presolve
        && options.symmetric.is_none()
        && options.lex_leader.is_empty()
    {
        let problem = Problem::new(&instance, piece, true)?;
        if small(&problem) {
            let t0 = std::time::Instant::now();
            let walk = timeout.map_or(AUTO_WALK, |t| AUTO_WALK.min(t / 10));
            if let Some(r) = solve::prepass(&problem, options, walk, Some(crate::cancel()))? {
                let what = Reported {
                    instance: &instance,
                    piece,
                    amo: &options.amo.name(),
                    solver: "walk",
                    stats: r.stats,
                    seconds: (r.encode_seconds, r.solve_seconds),
                    certificate: None,
                };
                return Ok(print_answer(&r.status, &what, a.format));
            }
            crate::cancel().check()?;
            // What the walk left of the time limit (never zero: zero would mean no limit).
            let left = timeout.map(|t| {
                t.saturating_sub(t0.elapsed())
                    .max(std::time::Duration::from_millis(1))
            });
            // The cube solver gets the diagonal-sum constraints unless told otherwise (not
            // under --certify: a certificate covers the plain model only).
            let options = match (&a.enc.implied, a.certify) {
                (None, false) => EncodeOptions {
                    implied: Implied::Sums,
                    ..options
                },
                _ => options,
            };
            return run_cubes(
                &a,
                &instance,
                piece,
                Some(&problem),
                options,
                left,
                "lib:cadical",
            );
        }
        presolved = Some(problem);
    }
    let (solver, walk) = match a.solver.as_str() {
        "auto" => (AUTO_PORTFOLIO, Some(AUTO_WALK)),
        other => (other, None),
    };
    let entrants = parse_portfolio(solver, options)?;
    let problem = match presolved {
        Some(p) => p,
        None => Problem::new(&instance, piece, !a.enc.no_presolve)?,
    };
    let settings = SolveSettings {
        timeout,
        certify: a.certify,
        cancel: Some(crate::cancel().clone()),
        walk: walk.map(|w| timeout.map_or(w, |t| w.min(t / 10))),
    };
    let (r, entrant) = match entrants.as_slice() {
        [one] => (
            solve::solve(&problem, one.options, &one.backend, settings)?,
            one.clone(),
        ),
        _ => {
            let (winner, r) = solve::race(&problem, &entrants, settings)?;
            (r, entrants[winner].clone())
        }
    };
    let solver_label = if r.walked {
        "walk".to_string()
    } else if entrants.len() > 1 {
        format!("portfolio winner: {}", entrant.label())
    } else {
        entrant.backend.name()
    };
    let what = Reported {
        instance: &instance,
        piece,
        amo: &entrant.options.amo.name(),
        solver: &solver_label,
        stats: r.stats,
        seconds: (r.encode_seconds, r.solve_seconds),
        certificate: r.certificate.as_ref(),
    };
    Ok(print_answer(&r.status, &what, a.format))
}

/// Runs `solve --cubes` (`presolved`: the presolved problem when the caller has it already).
fn run_cubes(
    a: &SolveArgs,
    instance: &Instance,
    piece: Piece,
    presolved: Option<&Problem>,
    options: EncodeOptions,
    timeout: Option<std::time::Duration>,
    solver: &str,
) -> Result<ExitCode> {
    if a.enc.no_presolve {
        return Err(Error::Usage(
            "--cubes needs presolve (cubes are presolved); drop --no-presolve".into(),
        ));
    }
    let jobs = jobs_or_all_cores(a.jobs);
    let settings = CubeSettings {
        jobs,
        split: Split {
            max_cubes: a.max_cubes.max(1),
            jobs,
            cancel: crate::cancel().clone(),
            ..Split::default()
        },
        timeout,
        cancel: Some(crate::cancel().clone()),
    };
    if a.certify {
        let backend = queens_sat::solve::Backend::from_name(match solver {
            "auto" => "varisat",
            other => other,
        })?;
        let c = cubes::solve_certified(instance, piece, options, &backend, &settings)?;
        let r = c.report;
        let solver = format!(
            "{} cubes, certified ({} cubes, {} refuted by presolve in the split, {} jobs)",
            backend.name(),
            r.cubes,
            r.split.refuted,
            settings.jobs
        );
        let what = Reported {
            instance,
            piece,
            amo: &options.amo.name(),
            solver: &solver,
            stats: r.stats,
            seconds: (r.split_seconds, r.solve_seconds),
            certificate: c.certificate.as_ref(),
        };
        return Ok(print_answer(&r.status, &what, a.format));
    }
    let factory = match solver {
        "varisat" | "auto" => VarisatAssuming::factory(),
        "lib:cadical" => {
            let problem = match presolved {
                Some(p) => std::borrow::Cow::Borrowed(p),
                None => std::borrow::Cow::Owned(Problem::presolve(instance, piece)?),
            };
            queens_sat::solve::cadical_backend::CadicalAssuming::factory_for(&problem, options)
        }
        other => {
            return Err(Error::Usage(format!(
                "--cubes conquers with an in-process incremental solver (varisat or lib:cadical); \
                 --solver {other} is not supported with it (with --certify, each cube is solved \
                 on its own, by any solver that certifies)"
            )));
        }
    };
    let r = cubes::solve(instance, piece, options, factory, &settings)?;
    let solver = format!(
        "{} cubes ({} cubes, {} of the first split split again, {} refuted by presolve in the \
         split, {} jobs)",
        if solver == "lib:cadical" {
            "lib:cadical"
        } else {
            "varisat"
        },
        r.cubes,
        r.resplit,
        r.split.refuted,
        settings.jobs
    );
    let what = Reported {
        instance,
        piece,
        amo: &options.amo.name(),
        solver: &solver,
        stats: r.stats,
        seconds: (r.split_seconds, r.solve_seconds),
        certificate: None,
    };
    Ok(print_answer(&r.status, &what, a.format))
}

/// What a printed answer says besides its status.
pub struct Reported<'a> {
    /// The instance solved.
    pub instance: &'a Instance,
    /// Its piece.
    pub piece: Piece,
    /// The `--amo` name.
    pub amo: &'a str,
    /// Who answered.
    pub solver: &'a str,
    /// CNF size.
    pub stats: Stats,
    /// Encode and solve seconds.
    pub seconds: (f64, f64),
    /// The refutation's checker, for a certified UNSAT.
    pub certificate: Option<&'a Certificate>,
}

/// Prints a verified status (board text or JSON on stdout, summary on stderr) and returns the
/// SAT-competition exit code.
pub fn print_answer(status: &Status, r: &Reported, format: OutputFormat) -> ExitCode {
    let label = status.label();
    match format {
        OutputFormat::Json => {
            let mut rec = SolveRecord::new(status, r.instance, r.piece, r.amo, r.solver);
            rec.vars = r.stats.vars;
            rec.clauses = r.stats.clauses;
            (rec.encode_seconds, rec.solve_seconds) = r.seconds;
            rec.certified = r.certificate.map(|c| c.checker.clone());
            print_json(&rec);
        }
        OutputFormat::Text | OutputFormat::Svg => {
            let mut out = std::io::stdout().lock();
            match (status, format) {
                (Status::Sat(b), OutputFormat::Svg) => {
                    // The board passed the verifier already; solution_svg checks it again.
                    let svg = queens_sat::svg::solution_svg(b, r.instance, r.piece)
                        .unwrap_or_else(|why| panic!("a verified board failed: {why}"));
                    let _ = out.write_all(svg.as_bytes());
                }
                (_, OutputFormat::Svg) => {
                    let caption = format!("{}-{}s: {label}", r.instance.n, r.piece.name);
                    let svg = queens_sat::svg::render(r.instance, r.piece, &[], None, &caption);
                    let _ = out.write_all(svg.as_bytes());
                }
                (Status::Sat(b), _) => {
                    let obstacles = r.instance.obstacles();
                    let _ = out.write_all(b.to_text(|c| obstacles.contains(c)).as_bytes());
                }
                _ => {
                    let _ = writeln!(out, "{label}");
                }
            }
            let why = match (status, r.certificate) {
                (Status::Unknown(w), _) => format!(" ({w})"),
                (_, Some(c)) => format!(" (certified: {})", c.checker),
                _ => String::new(),
            };
            eprintln!(
                "{label}{why}: {} n={} amo={} solver={} vars={} clauses={} encode={:.3}s solve={:.3}s",
                r.piece.name,
                r.instance.n,
                r.amo,
                r.solver,
                r.stats.vars,
                r.stats.clauses,
                r.seconds.0,
                r.seconds.1
            );
        }
    }
    ExitCode::from(status.exit_code())
}
