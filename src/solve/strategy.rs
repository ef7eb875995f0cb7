//! One library call for every way `solve` answers ([`Solver`]): the default strategy (`auto`),
//! one named backend, a portfolio race, or cube-and-conquer. The binary, cluster tasks, the
//! Python package and the examples all call this, so they share one answer path.
//!
//! The default strategy, on a presolved problem without `--symmetric` or lex-leader
//! constraints:
//! - boards with at most [`AUTO_CUBES_MAX_CELLS`] live cells (the hard completion, blocked and
//!   excluded-diagonal instances): on two or more cores, for queens and amazons whose core has
//!   at most 128 open rows (whatever n is), where the core's unavailable cells lie on whole
//!   diagonals (excluded-diagonal instances and completions,
//!   [`super::bitboard::diagonal_family`]), the bitboard search ([`super::bitboard`]) split
//!   over every core; on the others the bitboard search on one thread raced against local
//!   search with a
//!   small budget ([`AUTO_WALK`]) then cube-and-conquer with the linked CaDiCaL on the other
//!   threads, the encoding carrying the implied diagonal sums ([`crate::encode::implied`]);
//!   otherwise (one core, other pieces) the local search then cube-and-conquer on every core.
//!   Under `certify` the bitboard search writes an LRAT proof that another thread checks
//!   ([`super::bitboard::proof`], without the sum bounds): alone where it would be split (on
//!   four threads or more, as cubes on pairs of threads with a coverage proof), else in the
//!   same race against certified cubes without the sums;
//! - larger boards: the same local search, then varisat and the linked CaDiCaL raced
//!   ([`AUTO_PORTFOLIO`]).
//!
//! On an excluded-diagonal instance whose stabiliser ([`crate::symmetry::stabiliser`]) has more
//! than the identity, the cube solver searches modulo it: its encoding carries the lex-leader
//! constraints of the stabiliser ([`crate::encode::lex`]) besides the implied sums, so each
//! symmetry class of boards is searched once and an UNSAT proof covers one board per class. The
//! local search is not restricted (the user asked for any board), and a board the cube solver
//! finds is a solution of the instance itself, reported as it is (checked against the instance
//! and the lex-leader condition it was solved under); the report's `solver` label ends in
//! ` mod G` (e.g. ` mod flip_v`). [`AutoSymmetry`] sets where this applies: by default only on
//! excluded-diagonal instances, where it measured faster; not under `certify`.
//!
//! With `--symmetric`, lex-leader constraints or without presolve, `auto` is the race alone.
//!
//! ```
//! use queens_sat::{instance::Instance, piece::QUEEN, solve::Solver};
//! let report = Solver::new(&Instance::plain(8), QUEEN).solve().unwrap();
//! let board = report.status.sat().expect("8 queens fit");
//! assert_eq!(board.pieces.len(), 8); // verified before it was returned
//! ```

use std::time::{Duration, Instant};

use super::bitboard::proof::certifies;
use super::bitboard::{Bitboard, diagonal_family};
use super::construct::Construct;
use super::cubes::{self, CubeSettings};
use super::engine::{Backend, Engine};
use super::race::{Lane, race};
use super::registry;
use super::walk_backend::Walk;
use super::{SolveReport, SolveSettings, parse_portfolio};
use crate::answer::Answer;
use crate::cube::Split;
use crate::encode::EncodeOptions;
use crate::encode::amo::AmoKind;
use crate::encode::implied::Implied;
use crate::encode::lex::SymmetrySet;
use crate::error::{BadOption, Opt, Result};
use crate::instance::Instance;
use crate::interrupt::Cancel;
use crate::piece::Piece;
use crate::presolve::Problem;
use crate::symmetry::{Symmetry, stabiliser};

/// What `auto` races once local search gives up on a large board: the two in-process CDCL
/// solvers, each on its own thread. Neither dominates: CaDiCaL is several times faster on most
/// hard blocked and excluded-diagonal instances, varisat on some large loosely constrained ones
/// (external cadical took 215-344 s on plain n=1000, varisat 5-15 s), so the race takes the
/// better of the two at the price of sharing the cores.
pub const AUTO_PORTFOLIO: &str = "varisat,lib:cadical";

/// Boards with at most this many live cells after presolve go to cube-and-conquer under `auto`.
/// The hard instances of the tail have a few hundred (blocked n=56: ~400; excluded diagonals
/// n=20: ~250); plain and large boards have thousands and more.
pub const AUTO_CUBES_MAX_CELLS: u64 = 2000;

/// The local-search budget of `auto` (at most a tenth of the time limit). Plain and lightly
/// constrained boards are found in milliseconds; on hard instances (near the phase transition,
/// or UNSAT) the search gives up after its swap budget, long before this.
pub const AUTO_WALK: Duration = Duration::from_secs(1);

/// Plain boards with more cells than this (n > 1000) that the construction does not build
/// (amazons of n ≡ 2, 3 mod 6) go to local search alone, until the time limit: their CNF has
/// tens of millions of clauses and more, which no CDCL solver here answers in useful time.
pub const AUTO_WALK_ONLY_CELLS: u64 = 1_000_000;

/// The largest root (live cells after presolve) that cube-and-conquer splits: a plain board up
/// to n = 1024. Past it every look-ahead child is a big board's presolve.
pub const CUBES_MAX_CELLS: u64 = 1 << 20;

/// The backend that conquers the default strategy's cubes.
const AUTO_CUBE_BACKEND: &str = "lib:cadical";

/// What is left of `timeout` since `t0` (never zero: zero would mean no limit).
fn left_of(timeout: Option<Duration>, t0: Instant) -> Option<Duration> {
    timeout.map(|t| t.saturating_sub(t0.elapsed()).max(Duration::from_millis(1)))
}

/// Whether the default strategy gives the whole machine to the bitboard search split over
/// `jobs` threads instead of racing it: on the family where the search wins, cores whose
/// unavailable cells lie on whole diagonals ([`diagonal_family`]: excluded-diagonal instances,
/// on the frontier sample of 40: 36/40 solved within 60 s against the race's 29/40, faster on
/// 35 of the 40, docs/benchmarks.md, "The bitboard search split over both cores"; and the same
/// instances reduced to completion, whose core is the same board), unless the user asked for
/// the cube solver modulo symmetries everywhere (`--break-symmetry cubes`).
fn bitboard_splits(
    problem: &Problem,
    options: &EncodeOptions,
    jobs: usize,
    symmetry: AutoSymmetry,
    certify: bool,
) -> bool {
    symmetry != AutoSymmetry::Always
        && bitboard_races(problem, options, jobs, certify)
        && diagonal_family(problem)
}

/// Whether the default strategy, on two or more cores and with its default symmetry setting,
/// gives `problem` to the bitboard search split over the cores (cores of at most 128 rows
/// whose unavailable cells lie on whole diagonals, queens or amazons): where a cluster job
/// cuts its cubes from that search's tree by default (`split solve --cubes-from`).
#[cfg(feature = "harness")] // the cluster jobs
pub fn splits_bitboard(problem: &Problem, options: &EncodeOptions) -> bool {
    bitboard_splits(problem, options, 2, AutoSymmetry::default(), false)
}

/// Whether the default strategy races the bitboard search on `problem` with `jobs` threads:
/// where the engine supports the problem ([`Engine::supports`]; under `certify`, where its
/// certified search does, [`certifies`]), with a core left for the cubes.
fn bitboard_races(problem: &Problem, options: &EncodeOptions, jobs: usize, certify: bool) -> bool {
    jobs >= 2 && Bitboard.accepts(problem, options).is_ok() && (!certify || certifies(problem))
}

/// When the default strategy's cube solver adds lex-leader constraints for the instance's
/// stabiliser ([`crate::symmetry::stabiliser`]), so that it searches one board per symmetry
/// class. The walk pre-pass is never restricted (any board is an answer), and a board found
/// under the constraints is a solution of the instance itself, reported as it is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AutoSymmetry {
    /// Never (`--break-symmetry none`).
    Off,
    /// Where it measured faster: instances whose unavailable cells are excluded diagonals only
    /// (no blocked cell) and whose stabiliser has more than the identity. On blocked boards
    /// closed under r180 or r90 it did not pay (docs/benchmarks.md, "Solving modulo the
    /// instance's symmetries").
    #[default]
    Measured,
    /// On every instance with more than the identity in its stabiliser (`--break-symmetry
    /// cubes`).
    Always,
}

impl AutoSymmetry {
    /// The group the cube solver searches modulo on `problem`: its stabiliser, or nothing when
    /// the setting or the instance kind leaves it out (or the stabiliser is the identity alone).
    pub fn group(self, problem: &Problem) -> Vec<Symmetry> {
        let inst = &problem.instance;
        let wanted = match self {
            AutoSymmetry::Off => false,
            AutoSymmetry::Measured => inst.excluded_diagonals_only(),
            AutoSymmetry::Always => true,
        };
        match wanted {
            true => stabiliser(inst, &problem.piece),
            false => Vec::new(),
        }
    }
}

/// A solve of one instance, configured step by step; [`Solver::solve`] runs it.
#[derive(Clone)]
pub struct Solver<'a> {
    instance: &'a Instance,
    piece: Piece,
    presolved: Option<&'a Problem>,
    options: EncodeOptions,
    implied: Option<Implied>,
    solver: String,
    presolve: bool,
    timeout: Option<Duration>,
    certify: bool,
    cubes: bool,
    max_cubes: usize,
    jobs: Option<usize>,
    cancel: Cancel,
    symmetry: AutoSymmetry,
    deterministic: bool,
    proof: Option<std::path::PathBuf>,
    proof_budget: Option<u64>,
    proof_format: Option<crate::certify::ProofFormat>,
    amo_given: bool,
}

impl<'a> Solver<'a> {
    /// The default strategy on `instance` with `piece`: `auto`, presolve on, the default
    /// encoding, no time limit, every core.
    pub fn new(instance: &'a Instance, piece: Piece) -> Solver<'a> {
        Solver {
            instance,
            piece,
            presolved: None,
            options: EncodeOptions::from(AmoKind::DEFAULT),
            implied: None,
            solver: "auto".into(),
            presolve: true,
            timeout: None,
            certify: false,
            cubes: false,
            max_cubes: Split::default().max_cubes,
            jobs: None,
            cancel: Cancel::new(),
            symmetry: AutoSymmetry::default(),
            deterministic: false,
            proof: None,
            proof_budget: None,
            proof_format: None,
            amo_given: false,
        }
    }

    /// The same, on a problem the caller has presolved already (it is not presolved again).
    pub fn for_problem(problem: &'a Problem) -> Solver<'a> {
        Solver {
            presolved: Some(problem),
            presolve: problem.presolved,
            ..Solver::new(&problem.instance, problem.piece)
        }
    }

    /// How to encode (`--amo`, `--symmetric`, `--break-symmetry`). Implied constraints other
    /// than none in `options` count as chosen ([`Solver::implied`]).
    pub fn options(mut self, options: EncodeOptions) -> Self {
        if options.implied != Implied::None {
            self.implied = Some(options.implied);
        }
        self.options = options;
        self
    }

    /// `--implied`: chosen implied constraints, `none` included. Unchosen, the default
    /// strategy's cube solver uses [`Implied::Sums`] and everything else none.
    pub fn implied(mut self, implied: Implied) -> Self {
        self.implied = Some(implied);
        self
    }

    /// `--solver`: `auto`, a `ENGINES` name, an external program, or a
    /// comma-separated portfolio.
    pub fn solver(mut self, solver: impl Into<String>) -> Self {
        self.solver = solver.into();
        self
    }

    /// `--no-presolve` when false (the full `n*n` encoding with unit clauses).
    pub fn presolve(mut self, presolve: bool) -> Self {
        self.presolve = presolve;
        self
    }

    /// Give up (UNKNOWN) after this long; `None`: no limit.
    pub fn timeout(mut self, timeout: Option<Duration>) -> Self {
        self.timeout = timeout;
        self
    }

    /// `--certify`: accept UNSAT only with a checked refutation.
    pub fn certify(mut self, certify: bool) -> Self {
        self.certify = certify;
        self
    }

    /// `--cubes`: cube-and-conquer with the chosen solver (`auto` conquers with varisat), split
    /// into at most `max_cubes` cubes.
    pub fn cubes(mut self, max_cubes: usize) -> Self {
        self.cubes = true;
        self.max_cubes = max_cubes.max(1);
        self
    }

    /// Threads for cube-and-conquer, the default strategy's race and the bitboard search (a
    /// portfolio shares them among its entrants); `None`: every core.
    pub fn jobs(mut self, jobs: Option<usize>) -> Self {
        self.jobs = jobs;
        self
    }

    /// `--deterministic`: a named engine that splits its search over threads (`--solver
    /// bitboard`) returns the same board on every run: the first in its fixed order of
    /// subtrees, not the first found.
    pub fn deterministic(mut self, deterministic: bool) -> Self {
        self.deterministic = deterministic;
        self
    }

    /// Stop when `cancel` is raised: the solve then ends with [`Error::Interrupted`](crate::error::Error::Interrupted).
    pub fn cancel(mut self, cancel: Cancel) -> Self {
        self.cancel = cancel;
        self
    }

    /// When the default strategy's cube solver searches modulo the instance's symmetries
    /// (lex-leader constraints for its stabiliser, see [`AutoSymmetry`]). Named solvers,
    /// `--cubes` and explicit `--symmetric` / `--break-symmetry lex` never add constraints of
    /// their own.
    pub fn auto_symmetry(mut self, when: AutoSymmetry) -> Self {
        self.symmetry = when;
        self
    }

    /// `--proof FILE` (with `certify`): the bitboard search answers alone, and an UNSAT it
    /// certifies leaves its checked LRAT proof in `path` (text, for the CNF `encode --amo
    /// pairwise` writes for the same instance, so that other LRAT checkers can check it too).
    /// The file is written only then; it appears whole, by a rename. A presolve UNSAT writes
    /// its reason as a one-step proof over the unpresolved model
    /// ([`crate::certify::presolved`]).
    pub fn proof(mut self, path: Option<std::path::PathBuf>) -> Self {
        self.proof = path;
        self
    }

    /// The size budget of the [`Solver::proof`] file in bytes (`None`: the default, see
    /// [`crate::certify::budget`]; `u64::MAX`: none): a warning on stderr once the proof
    /// passes 80 % of it, and past it the solve ends with an error naming the budget and the
    /// partial proof is removed. Without a proof file, under `certify` with a solver that
    /// writes DRAT (cadical, kissat, lib:cadical), the budget of that proof, a temporary file
    /// watched while the solver runs ([`crate::certify::budget`]); with any other solver a
    /// budget is refused ([`Opt::ProofBudget`]), as it would change nothing.
    pub fn proof_budget(mut self, bytes: Option<u64>) -> Self {
        self.proof_budget = bytes;
        self
    }

    /// `--proof-format` (with `certify`): the proof the bitboard search writes and checks,
    /// LRAT over the pairwise CNF or VeriPB over the OPB model with every pruning kept; `None`
    /// takes the format of the `proof` file's name (`.pbp`: VeriPB), else
    /// [`ProofFormat::DEFAULT`](crate::certify::ProofFormat::DEFAULT).
    pub fn proof_format(mut self, format: Option<crate::certify::ProofFormat>) -> Self {
        self.proof_format = format;
        self
    }

    /// Whether the at-most-one encoding of [`Solver::options`] was asked for (`--amo` given)
    /// rather than the default: the default strategy then refuses to answer a plain board by
    /// the construction, which builds no CNF ([`crate::applies`]'s rule: an option changes the
    /// answer or is refused).
    pub fn amo_given(mut self, given: bool) -> Self {
        self.amo_given = given;
        self
    }

    /// The encoding option asked for that the construction would ignore: `--amo` (when
    /// [`Solver::amo_given`]) or `--implied`, as a refusal naming it.
    fn unused_encoding(&self, options: &EncodeOptions) -> Result<()> {
        let asked = match (self.amo_given, self.implied) {
            (true, _) => Some((crate::error::Opt::Amo, options.amo.name())),
            (false, Some(i)) => Some((crate::error::Opt::Implied, i.name().to_string())),
            (false, None) => None,
        };
        match asked {
            Some((option, value)) => Err(crate::error::BadOption::conflicts(
                option,
                value,
                crate::error::Opt::Solver,
                "auto",
                "the default strategy answers a plain board by the construction, which builds \
                 no CNF (a CNF solver such as --solver varisat encodes it)",
            )),
            None => Ok(()),
        }
    }

    /// Runs the solve. A SAT answer's board has passed the independent checks
    /// ([`EncodeOptions::accept`]); a model that fails them is an [`Error::WrongAnswer`](crate::error::Error::Solver).
    pub fn solve(&self) -> Result<SolveReport> {
        // One deadline for every phase (presolve, encoding, search), counted from here: every
        // later time limit is a child of this token, and the earliest deadline counts.
        let this = Solver {
            cancel: self.cancel.with_timeout(self.timeout),
            ..self.clone()
        };
        match this.solve_within() {
            // Stopped by the deadline where no engine was running yet (presolve): UNKNOWN.
            Err(crate::error::Error::Interrupted) if !this.cancel.is_cancelled() => {
                let why = this
                    .cancel
                    .stopped()
                    .map_or_else(|| "stopped".to_string(), |s| s.to_string());
                Ok(SolveReport::new(
                    Answer::Unknown(why),
                    crate::encode::Stats::default(),
                    self.solver.as_str(),
                    self.options.amo,
                ))
            }
            other => other,
        }
    }

    /// [`Solver::solve`] under the one deadline (in `self.cancel`).
    fn solve_within(&self) -> Result<SolveReport> {
        // `jobs = 0` is refused here as everywhere ([`crate::work::threads`]).
        crate::work::threads(self.jobs)?;
        // Options that would change nothing ([`crate::applies`]).
        crate::applies::check(
            crate::applies::Command::Solve,
            &crate::applies::Given::new()
                .switch_if(crate::error::Opt::Deterministic, self.deterministic)
                .value(crate::error::Opt::Solver, self.solver.as_str()),
        )?;
        if let Some(implied) = self.implied.filter(|&i| self.certify && i != Implied::None) {
            return Err(crate::error::BadOption::excludes(
                crate::error::Opt::Implied,
                implied.name(),
                crate::error::Opt::Certify,
                "a certificate covers the plain model only",
            ));
        }
        let options = EncodeOptions {
            implied: self.implied.unwrap_or(Implied::None),
            ..self.options
        };
        if let Some(format) = self.proof_format {
            let bad = |why: String| {
                crate::error::BadOption::invalid(crate::error::Opt::ProofFormat, format.name(), why)
            };
            if !self.certify {
                return Err(bad(
                    "needs certify: it is the format of a certified UNSAT's proof".into(),
                ));
            }
            if let Some(path) = &self.proof
                && crate::certify::ProofFormat::of_file(path) != format
            {
                return Err(bad(format!(
                    "does not match the proof file {}: a VeriPB proof is named .pbp, an LRAT \
                     proof anything else",
                    path.display()
                )));
            }
        }
        if let (Some(budget), None) = (self.proof_budget, &self.proof) {
            // Without a proof file, the budget is that of the DRAT proof a solver writes under
            // certify (cadical, kissat, lib:cadical): anywhere else it would change nothing.
            let drat = self.certify
                && !self.cubes
                && self.solver != "auto"
                && parse_portfolio(&self.solver, options)?
                    .iter()
                    .any(|e| e.backend.info().caps.proofs == super::engine::Proofs::Drat);
            if !drat {
                return Err(BadOption::needs(
                    Opt::ProofBudget,
                    crate::atomic_file::show(budget),
                    Opt::Proof,
                    "it is the size budget of a proof file: the proof file, or the DRAT proof \
                     that a solver writing one (cadical, kissat, lib:cadical) writes under \
                     --certify",
                ));
            }
        }
        if let Some(path) = &self.proof {
            let bad = |why: String| {
                crate::error::BadOption::invalid(crate::error::Opt::Proof, path.display(), why)
            };
            if !self.certify {
                return Err(bad(
                    "needs certify: it is the proof of a certified UNSAT".into()
                ));
            }
            if self.cubes || !matches!(self.solver.as_str(), "auto" | "bitboard") {
                return Err(bad(format!(
                    "is written by the bitboard search (solver auto or bitboard), not by {}",
                    if self.cubes {
                        "cubes"
                    } else {
                        self.solver.as_str()
                    }
                )));
            }
            let problem = self.problem(self.presolve)?;
            let settings = SolveSettings {
                timeout: self.timeout,
                certify: true,
                cancel: Some(self.cancel.clone()),
                proof: Some(path.clone()),
                proof_budget: self.proof_budget,
                proof_format: self.proof_format,
                ..SolveSettings::default()
            };
            return super::solve(&problem, options, &Bitboard, settings);
        }
        if self.cubes {
            if !self.presolve {
                return Err(BadOption::excludes(
                    Opt::Presolve,
                    "off",
                    Opt::Cubes,
                    "cubes are presolved",
                ));
            }
            let root = self.problem(true)?;
            let solver = match self.solver.as_str() {
                "auto" => "varisat",
                other => other,
            };
            return self.conquer(&root, options, self.timeout, solver);
        }
        let plain = options.symmetric.is_none() && options.lex_leader.is_empty();
        let problem = self.problem(self.presolve)?;
        let (portfolio, walk) = if self.solver == "auto" {
            if self.presolve && plain && problem.unsat.is_none() {
                // A plain board: the explicit construction first (O(n), any n); its UNSAT
                // (queens n = 2, 3) carries no proof, so under certify only its boards count.
                // (Not when the user asked for the cube solver modulo the symmetries on every
                // instance, `--break-symmetry cubes`.)
                if self.symmetry != AutoSymmetry::Always
                    && Construct.accepts(&problem, &options).is_ok()
                {
                    let settings = SolveSettings {
                        timeout: self.timeout,
                        cancel: Some(self.cancel.clone()),
                        ..SolveSettings::default()
                    };
                    let report = super::solve(&problem, options, &Construct, settings)?;
                    match report.status {
                        Answer::Sat(_) => {
                            self.unused_encoding(&options)?;
                            return Ok(report);
                        }
                        Answer::Unsat if !self.certify => {
                            self.unused_encoding(&options)?;
                            return Ok(report);
                        }
                        _ => {}
                    }
                    // No construction (amazons, n = 2, 3 mod 6): on a board whose CNF would
                    // be large, local search until the time limit, which needs no CNF.
                    if problem.num_cells() > AUTO_WALK_ONLY_CELLS {
                        let settings = SolveSettings {
                            timeout: self.timeout,
                            cancel: Some(self.cancel.clone()),
                            ..SolveSettings::default()
                        };
                        return super::solve(&problem, options, &Walk::DEFAULT, settings);
                    }
                }
                let t0 = Instant::now();
                if problem.num_cells() <= AUTO_CUBES_MAX_CELLS {
                    // The diagonal sums, unless chosen otherwise (not under certify: a
                    // certificate covers the plain model only).
                    let implied = match (self.implied, self.certify) {
                        (Some(i), _) => i,
                        (None, true) => Implied::None,
                        (None, false) => Implied::Sums,
                    };
                    // Modulo the instance's symmetries (not under certify: a certificate
                    // covers the plain model only).
                    let group = match self.certify {
                        false => self.symmetry.group(&problem),
                        true => Vec::new(),
                    };
                    let (lex_leader, suffix) = match group.len() > 1 {
                        true => (SymmetrySet::of(&group), modulo(&group)),
                        false => (SymmetrySet::default(), String::new()),
                    };
                    let with_sums = EncodeOptions {
                        implied,
                        lex_leader,
                        ..options
                    };
                    // Under certify: the proof-writing search on one thread, its checker on
                    // another (1.5x faster than racing it against certified cubes on two
                    // cores at n = 22 and 24, docs/benchmarks.md).
                    if bitboard_splits(
                        &problem,
                        &options,
                        self.threads(),
                        self.symmetry,
                        self.certify,
                    ) {
                        let settings = SolveSettings {
                            timeout: self.timeout,
                            certify: self.certify,
                            cancel: Some(self.cancel.clone()),
                            threads: self.threads(),
                            deterministic: self.deterministic,
                            proof_format: self.proof_format,
                            ..SolveSettings::default()
                        };
                        return super::solve(&problem, options, &Bitboard, settings);
                    }
                    // Under certify too: the bitboard side then writes a checked proof.
                    if bitboard_races(&problem, &options, self.threads(), self.certify) {
                        return self.race_bitboard(&problem, options, with_sums, &suffix);
                    }
                    if let Some(r) =
                        super::prepass(&problem, options, self.walk_budget(), Some(&self.cancel))?
                    {
                        return Ok(r);
                    }
                    self.cancel.check()?;
                    let left = left_of(self.timeout, t0);
                    let mut report = self.conquer(&problem, with_sums, left, AUTO_CUBE_BACKEND)?;
                    report.solver.push_str(&suffix);
                    return Ok(report);
                }
            }
            (AUTO_PORTFOLIO, Some(self.walk_budget()))
        } else {
            (self.solver.as_str(), None)
        };
        let entrants = parse_portfolio(portfolio, options)?;
        let settings = SolveSettings {
            timeout: self.timeout,
            certify: self.certify,
            cancel: Some(self.cancel.clone()),
            walk,
            threads: self.threads(),
            deterministic: self.deterministic,
            proof: None,
            proof_budget: self.proof_budget,
            proof_format: self.proof_format,
        };
        match entrants.as_slice() {
            [one] => super::solve(&problem, one.options, &one.backend, settings),
            _ => super::portfolio(&problem, &entrants, settings).map(|(_, r)| r),
        }
    }

    /// The local-search budget: [`AUTO_WALK`], at most a tenth of the time limit.
    fn walk_budget(&self) -> Duration {
        self.timeout.map_or(AUTO_WALK, |t| AUTO_WALK.min(t / 10))
    }

    /// The problem: the caller's presolved one, or presolved (or full) here.
    fn problem(&self, presolve: bool) -> Result<std::borrow::Cow<'a, Problem>> {
        match self.presolved {
            Some(p) if p.presolved == presolve => Ok(std::borrow::Cow::Borrowed(p)),
            _ if presolve => Ok(std::borrow::Cow::Owned(Problem::presolve_until(
                self.instance,
                self.piece,
                &self.cancel,
            )?)),
            _ => Ok(std::borrow::Cow::Owned(Problem::full(
                self.instance,
                self.piece,
            )?)),
        }
    }

    /// Threads to use: `jobs`, or every core.
    fn threads(&self) -> usize {
        self.jobs.unwrap_or_else(crate::cpu::cores).max(1)
    }

    /// The default strategy on two or more cores, through the one [`race()`]: the bit-parallel
    /// search ([`super::bitboard`]) on one thread, from the start, against local search then
    /// cube-and-conquer (encoded with `with_sums`) on the others. `suffix` ends the cubes'
    /// `solver` label (` mod G`).
    fn race_bitboard(
        &self,
        problem: &Problem,
        options: EncodeOptions,
        with_sums: EncodeOptions,
        suffix: &str,
    ) -> Result<SolveReport> {
        let t0 = Instant::now();
        let timeout = self.timeout;
        let (certify, proof_format) = (self.certify, self.proof_format);
        let bitboard = Lane::new("the bitboard search", move |cancel: &Cancel| {
            let settings = SolveSettings {
                timeout,
                certify,
                proof_format,
                cancel: Some(cancel.clone()),
                ..SolveSettings::default()
            };
            super::solve(problem, options, &Bitboard, settings)
        });
        let cubes = Lane::new("cube-and-conquer", move |cancel: &Cancel| {
            if let Some(found) = super::prepass(problem, options, self.walk_budget(), Some(cancel))?
            {
                return Ok(found);
            }
            let left = left_of(timeout, t0);
            let jobs = self.threads() - 1;
            let mut r =
                self.conquer_with(problem, with_sums, left, AUTO_CUBE_BACKEND, jobs, cancel)?;
            r.solver.push_str(suffix);
            Ok(r)
        });
        race(vec![bitboard, cubes], &self.cancel).map(|(_, r)| r)
    }

    /// Cube-and-conquer on the presolved `root` with the backend named `solver` (certified
    /// cubes under `certify`).
    fn conquer(
        &self,
        root: &Problem,
        options: EncodeOptions,
        timeout: Option<Duration>,
        solver: &str,
    ) -> Result<SolveReport> {
        self.conquer_with(root, options, timeout, solver, self.threads(), &self.cancel)
    }

    /// [`Solver::conquer`] on `jobs` threads, stopped by `cancel`.
    fn conquer_with(
        &self,
        root: &Problem,
        options: EncodeOptions,
        timeout: Option<Duration>,
        solver: &str,
        jobs: usize,
        cancel: &Cancel,
    ) -> Result<SolveReport> {
        let jobs = jobs.max(1);
        // One deadline for the split and the conquest: the time limit counts from here.
        let stop = cancel.with_timeout(timeout);
        // The look-ahead split presolves children of the root; on a root this big each child is
        // a big board's presolve (n² work and memory): refused up front.
        if root.num_cells() > CUBES_MAX_CELLS {
            return Err(crate::error::Error::TooLarge(format!(
                "cube-and-conquer splits boards of at most {CUBES_MAX_CELLS} live cells; this one \
                 has {} (drop --cubes)",
                root.num_cells()
            )));
        }
        // Every worker loads the whole CNF: refused up front when the workers' estimate does not
        // fit (a big plain board with --cubes would otherwise take tens of GB).
        if let Some(estimate) = registry::find(solver).and_then(|e| e.info().caps.memory) {
            let stats = crate::encode::Encoder::with_options(root, options)
                .until(&stop)
                .stats()?;
            crate::memory::check(
                crate::memory::with_margin(estimate(&stats).saturating_mul(jobs as u64)),
                &format!(
                    "cube-and-conquer with {jobs} {solver} worker(s) on {} clauses",
                    stats.clauses
                ),
                "; use fewer --jobs, a smaller encoding (--amo product), or drop --cubes",
            )?;
        }
        let settings = CubeSettings {
            jobs,
            split: Split {
                max_cubes: self.max_cubes,
                jobs,
                cancel: stop.clone(),
                ..Split::default()
            },
            timeout,
            cancel: Some(stop),
        };
        let (backend, mut report) = if self.certify {
            let backend = Backend::from_name(solver)?;
            let r = super::certified_cubes::solve_certified(root, options, &backend, &settings)?;
            (backend.name(), r)
        } else {
            // Only an in-process incremental backend of the table conquers cubes (an external
            // name is refused before it is looked up on PATH).
            let engine = registry::find(solver);
            let Some(factory) = engine.and_then(|e| e.info().caps.incremental) else {
                return Err(BadOption::excludes(
                    Opt::Solver,
                    solver,
                    Opt::Cubes,
                    &format!(
                        "cubes are conquered by an in-process incremental solver ({}); with \
                         certify, each cube is solved on its own, by any solver that certifies",
                        registry::names_with(|c| c.incremental.is_some())
                    ),
                ));
            };
            let r = cubes::solve(root, options, factory(root, options), &settings)?;
            (solver.to_string(), r)
        };
        if let Some(c) = &report.cubes {
            report.solver = c.describe(&backend, self.certify);
        }
        Ok(report)
    }
}

/// The suffix of a report's `solver` label for a search modulo `group`: ` mod r180`,
/// ` mod r90,r180,r270` (the non-identity elements).
fn modulo(group: &[Symmetry]) -> String {
    let names: Vec<&str> = group
        .iter()
        .filter(|&&g| g != Symmetry::Id)
        .map(|g| g.name())
        .collect();
    format!(" mod {}", names.join(","))
}
