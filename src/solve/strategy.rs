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
use super::plan::{CubePlan, EngineRun, Plan, modulo};
use super::portfolio::Entrant;
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

    /// What [`Solver::solve`] will do, without doing it: the request validated, the instance
    /// presolved (not solved), and the [`Plan`] decided from them alone; no solver runs and no
    /// clock is read, so the same request on the same instance gives the same plan on every
    /// call (`solve --explain`).
    ///
    /// ```
    /// use queens_sat::{instance::Instance, piece::QUEEN, solve::{Plan, Solver}};
    /// let plan = Solver::new(&Instance::plain(8), QUEEN).plan().unwrap();
    /// // A plain board: the construction first.
    /// assert!(matches!(plan, Plan::Construct { .. }));
    /// let named = Solver::new(&Instance::plain(8), QUEEN).solver("varisat").plan().unwrap();
    /// assert_eq!(named.engines(), ["varisat"]);
    /// ```
    pub fn plan(&self) -> Result<Plan> {
        let this = Solver {
            cancel: self.cancel.with_timeout(self.timeout),
            ..self.clone()
        };
        this.decide().map(|(_, plan)| plan)
    }

    /// [`Solver::solve`] under the one deadline (in `self.cancel`): decide, then execute.
    fn solve_within(&self) -> Result<SolveReport> {
        let (problem, plan) = self.decide()?;
        let mut report = self.execute(&problem, &plan, self.timeout, &self.cancel)?;
        report.plan = Some(plan);
        Ok(report)
    }

    /// The request checked (options that would change nothing, or that conflict, are refused
    /// here), the problem presolved, and its plan.
    fn decide(&self) -> Result<(std::borrow::Cow<'a, Problem>, Plan)> {
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
        }
        if self.cubes && !self.presolve {
            return Err(BadOption::excludes(
                Opt::Presolve,
                "off",
                Opt::Cubes,
                "cubes are presolved",
            ));
        }
        let problem = self.problem(self.presolve)?;
        let plan = self.plan_for(&problem, options)?;
        Ok((problem, plan))
    }

    /// The plan for `problem` (presolved as asked) and the request's `options`: pure. An
    /// instance presolve refuted gets [`Plan::Presolved`], with the one engine call that the
    /// search's plan would have made for it.
    fn plan_for(&self, problem: &Problem, options: EncodeOptions) -> Result<Plan> {
        let plan = self.search_plan(problem, options)?;
        match problem.unsat {
            Some(_) => plan.refuted(problem, self.certify),
            None => Ok(plan),
        }
    }

    /// The plan for `problem` as if presolve had not refuted it.
    fn search_plan(&self, problem: &Problem, options: EncodeOptions) -> Result<Plan> {
        let row = |engine: &'static dyn Engine| Backend::from(engine);
        if let Some(path) = &self.proof {
            // The bitboard search answers alone and writes its proof.
            return Ok(Plan::Run(EngineRun {
                certify: true,
                proof: Some(path.clone()),
                proof_budget: self.proof_budget,
                proof_format: self.proof_format,
                ..EngineRun::plain(row(&Bitboard), options)
            }));
        }
        if self.cubes {
            let solver = match self.solver.as_str() {
                "auto" => "varisat",
                other => other,
            };
            let cubes = self.cubes_plan(problem, options, solver, self.threads(), Vec::new())?;
            return Ok(Plan::Cubes(cubes));
        }
        if self.solver != "auto" {
            return self.portfolio_plan(problem, &self.solver, options, None);
        }
        let plain = options.symmetric.is_none() && options.lex_leader.is_empty();
        if !(self.presolve && plain && problem.unsat.is_none()) {
            return self.portfolio_plan(problem, AUTO_PORTFOLIO, options, Some(self.walk_budget()));
        }
        let search = match self.small_board_plan(problem, options)? {
            Some(plan) => plan,
            None => {
                self.portfolio_plan(problem, AUTO_PORTFOLIO, options, Some(self.walk_budget()))?
            }
        };
        // A plain board: the explicit construction first (O(n), any n); its UNSAT (queens
        // n = 2, 3) carries no proof, so under certify only its boards count. (Not when the
        // user asked for the cube solver modulo the symmetries on every instance,
        // `--break-symmetry cubes`.)
        if self.symmetry != AutoSymmetry::Always && Construct.accepts(problem, &options).is_ok() {
            // No construction (amazons, n = 2, 3 mod 6): on a board whose CNF would be large,
            // local search until the time limit, which needs no CNF.
            let otherwise = match problem.num_cells() > AUTO_WALK_ONLY_CELLS {
                true => Plan::Run(EngineRun::plain(row(&Walk::DEFAULT), options)),
                false => search,
            };
            // Whether the construction answers is known from n and the piece: where it does
            // not, the plan is what runs instead; where it does, an encoding asked for would
            // never be built, and is refused now.
            let answers = match super::construct::answers(problem.n, problem.piece) {
                Some(board) => board || !self.certify,
                None => false,
            };
            if !answers {
                return Ok(otherwise);
            }
            self.unused_encoding(&options)?;
            return Ok(Plan::Construct {
                run: EngineRun::plain(row(&Construct), options),
                unsat_stands: !self.certify,
                otherwise: Box::new(otherwise),
            });
        }
        Ok(search)
    }

    /// The default strategy on a board of at most [`AUTO_CUBES_MAX_CELLS`] live cells (the
    /// hard instances): the bitboard search split over the cores, or raced against local search
    /// then cube-and-conquer, or (one core, other pieces) local search then cube-and-conquer.
    /// `None` on larger boards.
    fn small_board_plan(&self, problem: &Problem, options: EncodeOptions) -> Result<Option<Plan>> {
        if problem.num_cells() > AUTO_CUBES_MAX_CELLS {
            return Ok(None);
        }
        let row = |engine: &'static dyn Engine| Backend::from(engine);
        // The diagonal sums, unless chosen otherwise (not under certify: a certificate covers
        // the plain model only).
        let implied = match (self.implied, self.certify) {
            (Some(i), _) => i,
            (None, true) => Implied::None,
            (None, false) => Implied::Sums,
        };
        // Modulo the instance's symmetries (not under certify: a certificate covers the plain
        // model only).
        let group = match self.certify {
            false => self.symmetry.group(problem),
            true => Vec::new(),
        };
        let (lex_leader, group) = match group.len() > 1 {
            true => (SymmetrySet::of(&group), group),
            false => (SymmetrySet::default(), Vec::new()),
        };
        let with_sums = EncodeOptions {
            implied,
            lex_leader,
            ..options
        };
        let threads = self.threads();
        // Under certify: the proof-writing search on one thread, its checker on another (1.5x
        // faster than racing it against certified cubes on two cores at n = 22 and 24,
        // docs/benchmarks.md).
        if bitboard_splits(problem, &options, threads, self.symmetry, self.certify) {
            // (`deterministic` is refused with `auto` ([`crate::applies`]): the split search
            // here answers with the first board found.)
            return Ok(Some(Plan::Run(EngineRun {
                threads,
                certify: self.certify,
                proof_format: self.proof_format,
                ..EngineRun::plain(row(&Bitboard), options)
            })));
        }
        let cubes = |jobs: usize| -> Result<Plan> {
            let cubes =
                self.cubes_plan(problem, with_sums, AUTO_CUBE_BACKEND, jobs, group.clone())?;
            Ok(Plan::Prepass {
                budget: self.walk_budget(),
                options,
                then: Box::new(Plan::Cubes(cubes)),
            })
        };
        // Under certify too: the bitboard side then writes a checked proof.
        if bitboard_races(problem, &options, threads, self.certify) {
            let bitboard = Plan::Run(EngineRun {
                certify: self.certify,
                proof_format: self.proof_format,
                ..EngineRun::plain(row(&Bitboard), options)
            });
            return Ok(Some(Plan::Race(vec![
                ("the bitboard search".into(), bitboard),
                ("cube-and-conquer".into(), cubes(threads - 1)?),
            ])));
        }
        cubes(threads).map(Some)
    }

    /// The engines `solver` names (one, or a comma-separated portfolio), each with its own
    /// encoding, sharing the request's settings; local search first for `walk`. A single
    /// engine gets what it uses of them: threads (and `deterministic`) where it splits its
    /// search ([`Capabilities::threads`](super::engine::Capabilities::threads)), the proof
    /// format where it writes one of its own; a portfolio shares the threads among its entrants.
    fn portfolio_plan(
        &self,
        problem: &Problem,
        solver: &str,
        options: EncodeOptions,
        walk: Option<Duration>,
    ) -> Result<Plan> {
        let mut entrants = parse_portfolio(solver, options)?;
        let first = entrants.first().cloned().ok_or_else(|| {
            crate::error::Error::Internal("a portfolio parsed to no entrant".into())
        })?;
        let caps = first.backend.info().caps;
        let alone = entrants.len() == 1;
        // An engine alone that does not take the problem under these options (the bitboard
        // search or local search with symmetry constraints) is refused here, as its run would
        // refuse it; a portfolio races the entrants that take it. (A problem presolve refuted
        // is answered before any engine looks at it.)
        if alone && problem.unsat.is_none() {
            first.backend.accepts(problem, &first.options)?;
        }
        let threads = match alone && !caps.threads {
            true => 0,
            false => self.threads(),
        };
        let proof_format = match entrants.iter().any(|e| e.backend.info().caps.proof_format) {
            true => self.proof_format,
            false => None,
        };
        let settings = EngineRun {
            backend: first.backend,
            options: first.options,
            threads,
            certify: self.certify,
            deterministic: self.deterministic && alone && caps.threads && threads > 1,
            walk,
            proof: None,
            proof_budget: self.proof_budget,
            proof_format,
        };
        Ok(match entrants.len() {
            1 => Plan::Run(settings),
            _ => Plan::Portfolio {
                entrants: entrants.drain(..).map(|e| (e.backend, e.options)).collect(),
                settings,
            },
        })
    }

    /// Cube-and-conquer of `root` by the engine named `solver` on `jobs` threads, searching
    /// modulo `group` (certified cubes under `certify`). Refused here: a root too large to
    /// split, and, uncertified, an engine that cannot conquer cubes.
    fn cubes_plan(
        &self,
        root: &Problem,
        options: EncodeOptions,
        solver: &str,
        jobs: usize,
        group: Vec<Symmetry>,
    ) -> Result<CubePlan> {
        // The look-ahead split presolves children of the root; on a root this big each child is
        // a big board's presolve (n² work and memory): refused up front.
        if root.num_cells() > CUBES_MAX_CELLS {
            return Err(crate::error::Error::TooLarge(format!(
                "cube-and-conquer splits boards of at most {CUBES_MAX_CELLS} live cells; this one \
                 has {} (drop --cubes)",
                root.num_cells()
            )));
        }
        let conquer = match self.certify {
            true => Backend::from_name(solver)?,
            // Only an in-process incremental backend of the table conquers cubes (an external
            // name is refused before it is looked up on PATH).
            false => match registry::find(solver).filter(|e| e.info().caps.incremental.is_some()) {
                Some(engine) => Backend::from(engine),
                None => {
                    return Err(BadOption::excludes(
                        Opt::Solver,
                        solver,
                        Opt::Cubes,
                        &format!(
                            "cubes are conquered by an in-process incremental solver ({}); \
                             with certify, each cube is solved on its own, by any solver that \
                             certifies",
                            registry::names_with(|c| c.incremental.is_some())
                        ),
                    ));
                }
            },
        };
        Ok(CubePlan {
            conquer,
            options,
            jobs: jobs.max(1),
            max_cubes: self.max_cubes,
            certified: self.certify,
            modulo: group,
        })
    }

    /// Runs `plan` on `problem` with `timeout` (what is left of the solve's limit) and
    /// `cancel`: the one executor, one arm per [`Plan`] variant.
    fn execute(
        &self,
        problem: &Problem,
        plan: &Plan,
        timeout: Option<Duration>,
        cancel: &Cancel,
    ) -> Result<SolveReport> {
        let settings = |r: &EngineRun| SolveSettings {
            timeout,
            certify: r.certify,
            cancel: Some(cancel.clone()),
            walk: r.walk,
            threads: r.threads,
            deterministic: r.deterministic,
            proof: r.proof.clone(),
            proof_budget: r.proof_budget,
            proof_format: r.proof_format,
        };
        match plan {
            // The engine layer answers a refuted problem without a search (and certifies it).
            Plan::Run(r) | Plan::Presolved { run: r, .. } => {
                super::solve(problem, r.options, &r.backend, settings(r))
            }
            Plan::Portfolio {
                entrants,
                settings: shared,
            } => {
                let entrants: Vec<Entrant> = entrants
                    .iter()
                    .map(|(backend, options)| Entrant {
                        backend: backend.clone(),
                        options: *options,
                    })
                    .collect();
                super::portfolio(problem, &entrants, settings(shared)).map(|(_, r)| r)
            }
            Plan::Construct {
                run,
                unsat_stands,
                otherwise,
            } => {
                let report = super::solve(problem, run.options, &run.backend, settings(run))?;
                let answered = match report.status {
                    Answer::Sat(_) => true,
                    Answer::Unsat => *unsat_stands,
                    Answer::Unknown(_) => false,
                };
                if answered {
                    return Ok(report);
                }
                self.execute(problem, otherwise, timeout, cancel)
            }
            Plan::Prepass {
                budget,
                options,
                then,
            } => {
                let t0 = Instant::now();
                if let Some(found) = super::prepass(problem, *options, *budget, Some(cancel))? {
                    return Ok(found);
                }
                cancel.check()?;
                self.execute(problem, then, left_of(timeout, t0), cancel)
            }
            Plan::Race(lanes) => {
                let lanes = lanes
                    .iter()
                    .map(|(label, lane)| {
                        Lane::new(label.clone(), move |stop: &Cancel| {
                            self.execute(problem, lane, timeout, stop)
                        })
                    })
                    .collect();
                race(lanes, cancel).map(|(_, r)| r)
            }
            Plan::Cubes(cubes) => {
                let mut report = self.conquer(problem, cubes, timeout, cancel)?;
                if cubes.modulo.len() > 1 {
                    report.solver.push_str(&modulo(&cubes.modulo));
                }
                Ok(report)
            }
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

    /// Cube-and-conquer of `root` as `c` says, stopped by `cancel` (certified cubes under
    /// `c.certified`).
    fn conquer(
        &self,
        root: &Problem,
        c: &CubePlan,
        timeout: Option<Duration>,
        cancel: &Cancel,
    ) -> Result<SolveReport> {
        let jobs = c.jobs.max(1);
        let solver = c.conquer.name();
        // One deadline for the split and the conquest: the time limit counts from here.
        let stop = cancel.with_timeout(timeout);
        // Every worker loads the whole CNF: refused up front when the workers' estimate does not
        // fit (a big plain board with --cubes would otherwise take tens of GB).
        if let Some(estimate) = registry::find(&solver).and_then(|e| e.info().caps.memory) {
            let stats = crate::encode::Encoder::with_options(root, c.options)
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
                max_cubes: c.max_cubes,
                jobs,
                cancel: stop.clone(),
                ..Split::default()
            },
            timeout,
            cancel: Some(stop),
        };
        let mut report = if c.certified {
            super::certified_cubes::solve_certified(root, c.options, &c.conquer, &settings)?
        } else {
            let factory = c.conquer.info().caps.incremental.ok_or_else(|| {
                crate::error::Error::Internal(format!(
                    "the plan gave cubes to {solver}, which conquers none"
                ))
            })?;
            cubes::solve(root, c.options, factory(root, c.options), &settings)?
        };
        if let Some(cubes) = &report.cubes {
            report.solver = cubes.describe(&solver, c.certified);
        }
        Ok(report)
    }
}
