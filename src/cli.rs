//! The commands behind the `queens-sat` binary: each turns already-parsed arguments into library
//! calls and writes the results. Exit codes follow the SAT-competition convention for `solve`
//! and `decode` (10 SAT, 20 UNSAT); errors are returned for `main` to print on one line.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use crate::board::Board;
use crate::count::{self, Engine};
use crate::encode::EncodeOptions;
use crate::encode::amo::AmoKind;
use crate::encode::dimacs::read_header;
use crate::encode::lex::SymmetrySet;
use crate::error::{Error, Result};
use crate::generate::Generator;
use crate::generate::reduction::diagonals_to_completion;
use crate::instance::write::write as write_instance;
use crate::instance::{Format, Instance, Obstacles, read_instance_file};
use crate::piece::Piece;
use crate::pipeline::{self, Backend, Output, Status, write_text_atomic};
use crate::presolve::Problem;
use crate::solve::Answer;
use crate::solve::external::ExternalSolver;
use crate::solve::output::parse_output_file;
use crate::symmetry::{Symmetry, stabiliser};
use crate::verify::verify;

/// The default `--amo`: the registry's [`AmoKind::DEFAULT`] (kept for the CLI's
/// `default_value`).
pub const DEFAULT_AMO: &str = AmoKind::DEFAULT.base_name();

/// Report format of `encode --stats`, `solve` and `decode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputFormat {
    /// Board text on stdout, summary on stderr.
    Text,
    /// One JSON object on stdout.
    Json,
}

/// How the user named an instance.
#[derive(Clone, Debug)]
pub struct InstanceSpec {
    /// `-n N` for a plain board.
    pub n: Option<u32>,
    /// `--instance FILE`.
    pub instance: Option<PathBuf>,
    /// `--diags D`.
    pub diags: Option<usize>,
    /// `--piece NAME`.
    pub piece: String,
}

/// The exit code for an error: 130 (128 + SIGINT) after an interrupt, 1 otherwise.
pub fn exit_code(e: &Error) -> u8 {
    match e {
        Error::Interrupted => 130,
        _ => 1,
    }
}

/// Restores the default SIGPIPE action, so `queens-sat ... | head` ends quietly like any Unix
/// filter instead of failing on a broken pipe.
pub fn restore_sigpipe() {
    // SAFETY: setting a signal disposition to SIG_DFL at start-up, before any thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        // Past a file-size limit (ulimit -f), get EFBIG and a clean error instead of a kill
        // that would leave the temp file behind.
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
    // SIGINT / SIGTERM stop long work cleanly (see crate::interrupt).
    let _ = crate::interrupt::install();
}

/// How the user asked to encode.
#[derive(Clone, Debug)]
pub struct EncodingSpec {
    /// `--amo NAME`.
    pub amo: String,
    /// Not `--no-presolve`.
    pub presolve: bool,
    /// `--symmetric ELEMENT`.
    pub symmetric: Option<String>,
    /// `--break-symmetry lex`.
    pub break_symmetry: Option<String>,
}

impl EncodingSpec {
    /// Validates the names; `group` is the stabiliser used by `--break-symmetry lex`.
    pub fn options(&self, group: &[Symmetry]) -> Result<EncodeOptions> {
        let lex_leader = match self.break_symmetry.as_deref() {
            None => SymmetrySet::default(),
            Some("lex") => SymmetrySet::of(group),
            Some(other) => {
                return Err(Error::Usage(format!(
                    "unknown --break-symmetry '{other}' (known: lex)"
                )));
            }
        };
        Ok(EncodeOptions {
            lex_leader,
            amo: parse_amo(&self.amo)?,
            symmetric: self
                .symmetric
                .as_deref()
                .map(|name| {
                    Symmetry::by_name(name).ok_or_else(|| {
                        let known: Vec<&str> = Symmetry::ALL.iter().map(|g| g.name()).collect();
                        Error::Usage(format!(
                            "unknown --symmetric '{name}' (known: {})",
                            known.join(", ")
                        ))
                    })
                })
                .transpose()?,
        })
    }
}

/// Looks up a piece name, or a one-line usage error listing the known ones.
pub fn parse_piece(name: &str) -> Result<Piece> {
    Piece::by_name(name).ok_or_else(|| {
        let known: Vec<&str> = crate::piece::PIECES.iter().map(|p| p.name).collect();
        Error::Usage(format!(
            "unknown --piece '{name}' (known: {})",
            known.join(", ")
        ))
    })
}

/// Looks up an AMO encoding name, or a one-line usage error listing the known ones (the
/// message comes from the registry, [`crate::encode::amo::UnknownAmo`]).
pub fn parse_amo(name: &str) -> Result<AmoKind> {
    name.parse::<AmoKind>()
        .map_err(|e| Error::Usage(e.to_string()))
}

/// Validates `--timeout SECS`.
pub fn parse_timeout(secs: f64) -> Result<Duration> {
    Duration::try_from_secs_f64(secs)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(|| {
            Error::Usage(format!(
                "--timeout {secs} must be a positive number of seconds"
            ))
        })
}

impl InstanceSpec {
    /// Reads the instance and the piece.
    pub fn load(&self) -> Result<(Instance, Piece)> {
        let piece = parse_piece(&self.piece)?;
        let instance = match (&self.instance, self.n) {
            (Some(path), _) => read_instance_file(path, self.diags)?,
            (None, Some(n)) => {
                if self.diags.is_some() {
                    return Err(Error::Usage("--diags needs an --instance file".into()));
                }
                if !(1..=crate::board::MAX_N).contains(&n) {
                    return Err(Error::Usage(format!(
                        "-n {n} is out of range (1..={})",
                        crate::board::MAX_N
                    )));
                }
                Instance::plain(n)
            }
            (None, None) => return Err(Error::Usage("give -n N or --instance FILE".into())),
        };
        Ok((instance, piece))
    }

    fn stem(&self) -> Option<String> {
        self.instance
            .as_ref()
            .and_then(|p| p.file_stem())
            .map(|s| s.to_string_lossy().into_owned())
    }

    fn name(&self) -> Option<String> {
        self.instance.as_ref().map(|p| p.display().to_string())
    }
}

/// `queens-sat encode`.
pub fn encode(
    spec: &InstanceSpec,
    enc: &EncodingSpec,
    output: Option<&str>,
    stats_only: bool,
    format: OutputFormat,
) -> Result<ExitCode> {
    let (instance, piece) = spec.load()?;
    let options = enc.options(&stabiliser(&instance, &piece))?;
    let amo = options.amo;
    let problem = Problem::new(&instance, piece, enc.presolve)?;
    let name = spec.name();
    if stats_only {
        let stats = crate::encode::Encoder::with_options(&problem, options).stats()?;
        match format {
            OutputFormat::Json => println!(
                "{}",
                serde_json::json!({
                    "n": instance.n, "piece": piece.name, "amo": amo.name(),
                    "vars": stats.vars, "clauses": stats.clauses, "literals": stats.literals,
                    "cell_vars": problem.num_cells(), "unsat": problem.unsat,
                })
            ),
            OutputFormat::Text => {
                println!("vars {}", stats.vars);
                println!("clauses {}", stats.clauses);
                println!("literals {}", stats.literals);
                println!("cell_vars {}", problem.num_cells());
                if let Some(why) = &problem.unsat {
                    println!("presolve UNSAT: {why}");
                }
            }
        }
        return Ok(ExitCode::SUCCESS);
    }
    let out = match output {
        Some("-") => Output::Stdout,
        Some(path) => Output::File(PathBuf::from(path)),
        None => {
            let dir = PathBuf::from("cnf-out");
            std::fs::create_dir_all(&dir).map_err(|e| Error::io("cnf-out", e))?;
            let mut file = format!(
                "{}-{}-{}",
                piece.name,
                instance.n,
                amo.name().replace(':', "")
            );
            if let Some(g) = options.symmetric {
                file += &format!("-{g}");
            }
            if let Some(stem) = spec.stem() {
                file += &format!("-{stem}");
            }
            Output::File(dir.join(file + ".cnf"))
        }
    };
    let report = pipeline::export_cnf(&out, &problem, options, name.as_deref())?;
    if let Output::File(path) = &out {
        eprintln!(
            "wrote {} ({} vars, {} clauses, {} bytes)",
            path.display(),
            report.stats.vars,
            report.stats.clauses,
            report.bytes
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn backend(solver: &str) -> Result<Backend> {
    if solver == "varisat" {
        Ok(Backend::Varisat)
    } else {
        Ok(Backend::External(ExternalSolver::new(solver)?))
    }
}

/// Prints a status with board as text or JSON and returns the SAT-competition exit code.
#[allow(clippy::too_many_arguments)]
fn report(
    status: &Status,
    instance: &Instance,
    piece: Piece,
    amo: &str,
    solver: &str,
    stats: (u64, u64),
    seconds: (f64, f64),
    certificate: Option<&crate::certify::Certificate>,
    format: OutputFormat,
) -> ExitCode {
    let obstacles: Obstacles = instance.obstacles();
    let blocked = |c| obstacles.contains(c);
    let (label, code) = match status {
        Status::Sat(_) => ("SAT", 10),
        Status::Unsat => ("UNSAT", 20),
        Status::Unknown(_) => ("UNKNOWN", 1),
    };
    let board: Option<&Board> = match status {
        Status::Sat(b) => Some(b),
        _ => None,
    };
    match format {
        OutputFormat::Json => {
            let mut obj = serde_json::json!({
                "status": label,
                "n": instance.n,
                "piece": piece.name,
                "amo": amo,
                "solver": solver,
                "queens": board.map(|b| b.pieces.iter().map(|c| [c.row, c.col]).collect::<Vec<_>>()),
                "board": board.map(|b| b.rows(blocked)),
                "vars": stats.0,
                "clauses": stats.1,
                "encode_seconds": seconds.0,
                "solve_seconds": seconds.1,
            });
            if let Status::Unknown(why) = status {
                obj["reason"] = why.clone().into();
            }
            if let Some(c) = certificate {
                obj["certified"] = c.checker.clone().into();
            }
            println!("{obj}");
        }
        OutputFormat::Text => {
            let mut out = std::io::stdout().lock();
            match board {
                Some(b) => {
                    let _ = out.write_all(b.to_text(blocked).as_bytes());
                }
                None => {
                    let _ = writeln!(out, "{label}");
                }
            }
            let why = match (status, certificate) {
                (Status::Unknown(w), _) => format!(" ({w})"),
                (_, Some(c)) => format!(" (certified: {})", c.checker),
                _ => String::new(),
            };
            eprintln!(
                "{label}{why}: {} n={} amo={amo} solver={solver} vars={} clauses={} encode={:.3}s solve={:.3}s",
                piece.name, instance.n, stats.0, stats.1, seconds.0, seconds.1
            );
        }
    }
    ExitCode::from(code)
}

/// `queens-sat solve`.
pub fn solve(
    spec: &InstanceSpec,
    enc: &EncodingSpec,
    solver: &str,
    timeout: Option<Duration>,
    certify: bool,
    format: OutputFormat,
) -> Result<ExitCode> {
    let (instance, piece) = spec.load()?;
    let options = enc.options(&stabiliser(&instance, &piece))?;
    let entrants = portfolio(solver, options)?;
    let problem = Problem::new(&instance, piece, enc.presolve)?;
    let settings = pipeline::SolveSettings {
        timeout,
        certify,
        cancel: None,
    };
    let (r, entrant) = match entrants.as_slice() {
        [one] => (
            pipeline::solve(&problem, one.options, &one.backend, settings)?,
            one.clone(),
        ),
        _ => {
            let (winner, r) = pipeline::race(&problem, &entrants, settings)?;
            (r, entrants[winner].clone())
        }
    };
    let solver_label = if entrants.len() > 1 {
        format!("portfolio winner: {}", entrant.label())
    } else {
        entrant.backend.name()
    };
    Ok(report(
        &r.status,
        &instance,
        piece,
        &entrant.options.amo.name(),
        &solver_label,
        (r.stats.vars, r.stats.clauses),
        (r.encode_seconds, r.solve_seconds),
        r.certificate.as_ref(),
        format,
    ))
}

/// Parses `--solver`: one backend, or a comma-separated portfolio whose entries may carry their
/// own `--amo`, e.g. `varisat,cadical` or `varisat --amo product,varisat --amo pairwise`.
pub fn portfolio(solver: &str, options: EncodeOptions) -> Result<Vec<pipeline::Entrant>> {
    solver
        .split(',')
        .map(|entry| {
            let words: Vec<&str> = entry.split_whitespace().collect();
            let (name, amo) = match words.as_slice() {
                [name] => (*name, None),
                [name, "--amo", amo] => (*name, Some(parse_amo(amo)?)),
                _ => {
                    return Err(Error::Usage(format!(
                        "bad --solver entry '{}' (expected NAME or NAME --amo ENCODING)",
                        entry.trim()
                    )));
                }
            };
            Ok(pipeline::Entrant {
                options: EncodeOptions {
                    amo: amo.unwrap_or(options.amo),
                    ..options
                },
                backend: backend(name)?,
            })
        })
        .collect()
}

/// `queens-sat decode`.
pub fn decode(cnf: &Path, model: &Path, format: OutputFormat) -> Result<ExitCode> {
    let name = cnf.display().to_string();
    let file = std::fs::File::open(cnf).map_err(|e| Error::io(&name, e))?;
    let header = read_header(&name, std::io::BufReader::new(file))?;
    let answer = parse_output_file(model, header.num_vars as usize)?;
    let status = match answer {
        Answer::Sat(m) => {
            let board = crate::decode::decode(&header.varmap, &header.instance.placed, &m);
            verify(&board, &header.instance, header.piece).map_err(|why| {
                Error::Solver(format!(
                    "the model in {} is not a solution: {why}",
                    model.display()
                ))
            })?;
            Status::Sat(board)
        }
        Answer::Unsat => Status::Unsat,
        Answer::Unknown(why) => Status::Unknown(why),
    };
    Ok(report(
        &status,
        &header.instance,
        header.piece,
        &header.amo,
        "external",
        (header.num_vars, header.num_clauses),
        (0.0, 0.0),
        None,
        format,
    ))
}

/// `queens-sat verify`.
pub fn verify_board(
    board: &Path,
    piece: &str,
    instance: Option<&Path>,
    diags: Option<usize>,
) -> Result<ExitCode> {
    let piece = parse_piece(piece)?;
    let drawn = read_instance_file(board, None)?;
    let instance = match instance {
        Some(p) => read_instance_file(p, diags)?,
        None => Instance {
            n: drawn.n,
            blocked: drawn.blocked.clone(),
            ..Instance::default()
        },
    };
    let b = Board::new(drawn.n, drawn.placed);
    match verify(&b, &instance, piece) {
        Ok(()) => {
            eprintln!(
                "valid: {} {}s on {}x{}",
                b.pieces.len(),
                piece.name,
                b.n,
                b.n
            );
            Ok(ExitCode::SUCCESS)
        }
        Err(why) => Err(Error::Usage(format!("{}: invalid: {why}", board.display()))),
    }
}

/// `queens-sat count`.
pub fn count(
    spec: &InstanceSpec,
    enc: &EncodingSpec,
    engine: Engine,
    cross_check: bool,
    jobs: Option<usize>,
    format: OutputFormat,
) -> Result<ExitCode> {
    if !enc.presolve {
        return Err(Error::Usage(
            "count always presolves its cubes; drop --no-presolve".into(),
        ));
    }
    let (instance, piece) = spec.load()?;
    let options = enc.options(&stabiliser(&instance, &piece))?;
    let jobs = jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    if !options.lex_leader.is_empty() {
        let (classes, seconds) =
            count::timed(|| count::count_lex_leaders(&instance, piece, options.amo, jobs));
        let classes = classes?;
        match format {
            OutputFormat::Json => println!(
                "{}",
                serde_json::json!({"unique": classes, "method": "lex-leader", "seconds": seconds, "engine": "sat"})
            ),
            OutputFormat::Text => {
                println!("unique {classes}");
                println!("method lex-leader");
                println!("seconds {seconds:.3}");
            }
        }
        return Ok(ExitCode::SUCCESS);
    }
    let bar = crate::progress::Progress::stderr("count");
    let progress = |done: usize, total: usize| bar.update(done, total);
    if let Some(g) = options.symmetric {
        let (total, seconds) =
            count::timed(|| count::count_symmetric(&instance, piece, options.amo, g, jobs));
        let total = total?;
        bar.finish();
        match format {
            OutputFormat::Json => println!(
                "{}",
                serde_json::json!({"total": total, "symmetric": g.name(), "seconds": seconds, "engine": "sat"})
            ),
            OutputFormat::Text => {
                println!("total {total}");
                println!("symmetric {g}");
                println!("seconds {seconds:.3}");
            }
        }
        return Ok(ExitCode::SUCCESS);
    }
    let engines: Vec<Engine> = if cross_check {
        // The chosen SAT-based engine (sat or cdcl) against the independent backtracker.
        let sat = if engine == Engine::Backtrack {
            Engine::Sat
        } else {
            engine
        };
        vec![sat, Engine::Backtrack]
    } else {
        vec![engine]
    };
    let mut results = Vec::new();
    for &e in &engines {
        let (c, seconds) = count::timed(|| {
            count::count_with_progress(&instance, piece, options.amo, e, jobs, &progress)
        });
        results.push((e, c?, seconds));
    }
    bar.finish();
    if let [(ea, a, _), (eb, b, _)] = results.as_slice()
        && a != b
    {
        return Err(Error::Solver(format!(
            "cross-check failed: {} engine counted total={} unique={} fixed={:?}, {} engine total={} unique={} fixed={:?}",
            ea.name(),
            a.total,
            a.unique,
            a.fixed,
            eb.name(),
            b.total,
            b.unique,
            b.fixed
        )));
    }
    let (engine, c, seconds) = &results[0];
    let engine_name = if cross_check {
        format!("{}+backtrack", engine.name())
    } else {
        engine.name().to_string()
    };
    let seconds: f64 = if cross_check {
        results.iter().map(|r| r.2).sum()
    } else {
        *seconds
    };
    match format {
        OutputFormat::Json => {
            let fixed: serde_json::Map<String, serde_json::Value> = c
                .group
                .iter()
                .zip(&c.fixed)
                .map(|(g, f)| (g.name().to_string(), (*f).into()))
                .collect();
            println!(
                "{}",
                serde_json::json!({
                    "total": c.total,
                    "unique": c.unique,
                    "group": c.group.iter().map(|g| g.name()).collect::<Vec<_>>(),
                    "fixed": fixed,
                    "seconds": seconds,
                    "engine": engine_name,
                })
            );
        }
        OutputFormat::Text => {
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
    Ok(ExitCode::SUCCESS)
}

/// `queens-sat bench` (runs its solves as child processes of this very binary).
pub fn bench(
    quick: bool,
    memory: Option<&[u32]>,
    count: Option<&[u32]>,
    amo: Option<&str>,
) -> Result<ExitCode> {
    match (memory, count) {
        (Some(ns), _) => crate::bench::memory(ns)?,
        (None, Some([q, a])) => {
            crate::bench::count_table(*q, *a, parse_amo(amo.unwrap_or("pairwise"))?)?
        }
        (None, Some(_)) => return Err(Error::Usage("--count takes Q,A".into())),
        (None, None) => {
            let exe = std::env::current_exe().map_err(|e| Error::io("current executable", e))?;
            crate::bench::run(quick, &exe)?
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The tables `queens-sat bench TABLE` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum BenchTable {
    /// Every AMO encoding x backend on generated hard instances.
    Hard,
}

/// Arguments of `queens-sat bench hard`.
#[derive(Clone, Debug)]
pub struct BenchHardArgs {
    /// Smaller instance set.
    pub quick: bool,
    /// Generator seeds per family (`None`: 1 with `quick`, else 2).
    pub seeds: Option<u64>,
    /// `--amo`: comma-separated encodings or `all` (default).
    pub amo: Option<String>,
    /// `--solvers`: comma-separated backends (default varisat, plus cadical when on PATH).
    pub solvers: Option<String>,
    /// `--portfolio`: extra portfolio configurations.
    pub portfolio: Vec<String>,
    /// Seconds per run.
    pub timeout: u32,
    /// Runs at a time.
    pub jobs: usize,
    /// Per-run CSV output.
    pub csv: Option<PathBuf>,
}

/// `queens-sat bench hard`.
pub fn bench_hard(args: BenchHardArgs) -> Result<ExitCode> {
    let amos = match args.amo.as_deref() {
        None | Some("all") => AmoKind::ALL.to_vec(),
        Some(list) => list.split(',').map(parse_amo).collect::<Result<_>>()?,
    };
    let solvers: Vec<String> = match args.solvers.as_deref() {
        Some(list) => list.split(',').map(str::to_string).collect(),
        None => {
            let mut s = vec!["varisat".to_string()];
            if crate::solve::external::resolve_solver("cadical").is_ok() {
                s.push("cadical".into());
            }
            s
        }
    };
    for s in &solvers {
        if s != "varisat" {
            crate::solve::external::resolve_solver(s)?;
        }
    }
    for spec in &args.portfolio {
        // Checked here so that a typo fails before the first run, not in every child.
        portfolio(spec, EncodeOptions::from(parse_amo(DEFAULT_AMO)?))?;
    }
    if args.timeout == 0 || args.jobs == 0 {
        return Err(Error::Usage(
            "--timeout and --jobs must be at least 1".into(),
        ));
    }
    let seeds = args.seeds.unwrap_or(if args.quick { 1 } else { 2 });
    if seeds == 0 {
        return Err(Error::Usage("--seeds must be at least 1".into()));
    }
    let opts = crate::bench::hard::HardOptions {
        quick: args.quick,
        seeds,
        timeout: args.timeout,
        jobs: args.jobs,
        solvers,
        amos,
        portfolios: args.portfolio,
        csv: args.csv,
    };
    let exe = std::env::current_exe().map_err(|e| Error::io("current executable", e))?;
    crate::bench::hard::run(&exe, &opts)?;
    Ok(ExitCode::SUCCESS)
}

/// Instance file format written by `generate` and `convert`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum InstanceFormat {
    /// Board text (`Q` pre-placed, `x` blocked, `.` free).
    Board,
    /// csplib parameter file (`init` 0-based, `blocks` 1-based).
    Param,
}

impl InstanceFormat {
    fn format(self) -> Format {
        match self {
            InstanceFormat::Board => Format::Board,
            InstanceFormat::Param => Format::Param,
        }
    }
}

/// Writes `text` to stdout (`None` or `-`) or atomically to a file.
fn emit(text: &str, output: Option<&str>) -> Result<()> {
    match output {
        None | Some("-") => {
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes())
                .and_then(|()| out.flush())
                .map_err(|e| Error::io("<stdout>", e))
        }
        Some(path) => write_text_atomic(Path::new(path), text),
    }
}

/// `queens-sat generate KIND`: one instance on stdout or in `output`. The diagonals kind
/// always writes the excluded-diagonals format; the others `format`.
pub fn generate(
    generator: Generator,
    n: u32,
    seed: u64,
    format: InstanceFormat,
    output: Option<&str>,
) -> Result<ExitCode> {
    let instance = generator.instance(n, seed)?;
    let command = match generator {
        Generator::Completion { m } => format!("completion -n {n} -m {m}"),
        Generator::Blocked { m, min_free } => {
            format!("blocked -n {n} -m {m} --min-free {min_free}")
        }
        Generator::Diagonals { min_free, .. } => format!("diagonals -n {n} --min-free {min_free}"),
        Generator::Plain => format!("plain -n {n}"),
    };
    let comment = format!(
        "queens-sat {} generate {command} --seed {seed} (ChaCha8 seed {seed})",
        env!("CARGO_PKG_VERSION")
    );
    let text = match generator {
        Generator::Diagonals { .. } => {
            let comment =
                format!("{comment}\nevery prefix is an instance: --diags D takes the first D");
            write_instance(&instance, Format::Diags, &comment)?
        }
        _ => write_instance(&instance, format.format(), &comment)?,
    };
    emit(&text, output)?;
    Ok(ExitCode::SUCCESS)
}

/// What `queens-sat convert` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ConvertTarget {
    /// Board text (excluded diagonals become blocked cells).
    Board,
    /// csplib parameter file (excluded diagonals become blocked cells).
    Param,
    /// The n-queens completion instance of the Gent-Jefferson-Nightingale reduction, as a
    /// parameter file.
    Completion,
}

/// `queens-sat convert`.
pub fn convert(
    instance: &Path,
    diags: Option<usize>,
    to: ConvertTarget,
    output: Option<&str>,
) -> Result<ExitCode> {
    let source = read_instance_file(instance, diags)?;
    let mut command = format!("convert --instance {}", instance.display());
    if let Some(d) = diags {
        command += &format!(" --diags {d}");
    }
    let version = env!("CARGO_PKG_VERSION");
    let text = match to {
        ConvertTarget::Board | ConvertTarget::Param => {
            let (format, name) = if to == ConvertTarget::Board {
                (Format::Board, "board")
            } else {
                (Format::Param, "param")
            };
            let comment = format!("queens-sat {version} {command} --to {name}");
            write_instance(&source, format, &comment)?
        }
        ConvertTarget::Completion => {
            let red = diagonals_to_completion(&source)?;
            let free = red.instance.n as usize - red.instance.placed.len();
            let comment = format!(
                "queens-sat {version} {command} --to completion\n\
                 n-queens completion reduction of Gent, Jefferson, Nightingale (JAIR 2017), csplib prob079 diagtoqueens.py\n\
                 queens only; source cell (r,c) is cell (r+{},c) here; {free} queens left to place",
                red.row_offset
            );
            eprintln!(
                "converted n = {} to n = {}: {} pre-placed, {free} to place; source (r,c) = (r+{},c)",
                source.n,
                red.instance.n,
                red.instance.placed.len(),
                red.row_offset
            );
            write_instance(&red.instance, Format::Param, &comment)?
        }
    };
    emit(&text, output)?;
    Ok(ExitCode::SUCCESS)
}

/// `queens-sat suite`.
pub fn suite(
    recipe: &Path,
    out_dir: Option<PathBuf>,
    solve: Option<(&str, Option<Duration>)>,
    jobs: Option<usize>,
    plot: Option<PathBuf>,
    force: bool,
) -> Result<ExitCode> {
    let solve = match solve {
        Some((solver, timeout)) => Some((backend(solver)?, timeout)),
        None => None,
    };
    let jobs = jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let options = crate::suite::Options {
        out_dir,
        solve,
        jobs,
        plot: plot.clone(),
        force,
        progress: true,
    };
    let s = crate::suite::run(recipe, &options)?;
    eprintln!(
        "{}: {} files, {} bytes; wrote {} ({} bytes) in {:.2}s, kept {} (sha256 unchanged)",
        s.out_dir.display(),
        s.files,
        s.bytes,
        s.written,
        s.bytes_written,
        s.write_seconds,
        s.skipped
    );
    if options.solve.is_some() {
        eprintln!(
            "solved {} in {:.2}s; SAT {} UNSAT {} UNKNOWN {}",
            s.solved, s.solve_seconds, s.statuses[0], s.statuses[1], s.statuses[2]
        );
    }
    if let Some(p) = plot {
        eprintln!("plot {}", p.display());
    }
    Ok(ExitCode::SUCCESS)
}
