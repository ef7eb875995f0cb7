//! Counting: all solutions, the fixed points of each symmetry of the instance, and the solutions
//! modulo symmetry (Burnside's lemma), by the SAT engine or the independent backtracking engine.

// The engines: private to counting (their one entry point is [`Counter`]); the integration
// tests reach them with the `oracle` feature.
gated!(feature = "oracle" => mod backtrack;);
pub(crate) mod classes;
mod counter;
gated!(feature = "oracle" => mod dpll;);
gated!(feature = "oracle" => mod fast;);
gated!(feature = "oracle" => mod lanes;);
pub(crate) mod orbits;
gated!(feature = "oracle" => mod reference;);
gated!(feature = "oracle" => mod sat;);
pub(crate) mod solutions;

gated!(any(feature = "front", feature = "oracle") => use classes::representatives;);
pub use solutions::Solutions;

pub use counter::Counter;

use crate::cube;

use std::time::{Duration, Instant};

use crate::encode::EncodeOptions;
use crate::encode::amo::AmoKind;
use crate::encode::lex::SymmetrySet;
use crate::error::{Error, Result};
use crate::instance::Instance;
use crate::interrupt::{Cancel, Stop};
use crate::piece::Piece;
use crate::symmetry::{Symmetry, count_group, generated};

/// Which counter answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CountEngine {
    /// Cube-and-conquer model counting of the SAT encoding: each cube's CNF is counted by an
    /// exhaustive DPLL model counter (`dpll`), projected on the cell variables.
    Sat,
    /// The same cubes enumerated by varisat with blocking clauses over the cell variables
    /// (the classic all-solutions loop; slower, kept as a second SAT-based counter).
    Cdcl,
    /// The direct bitboard backtracking counter (independent of the CNF; n <= 64).
    Backtrack,
    /// The boards a rotation maps to themselves, counted from the rotation's orbits
    /// (`count/orbits/`: a matching of the row pairs for the quarter turn, n <= 128; the half
    /// board's rows for the half turn, n <= 64): `--symmetric r90|r180|r270` on queens and
    /// amazons, with pre-placed pieces but no blocked cells or excluded diagonals.
    Orbits,
    /// The same boards by the second, independent formulation (`count/orbits/values.rs`:
    /// each diagonal value, largest first, unused or given to one couple or row; 10-40x
    /// slower): the cross-check of `orbits`.
    OrbitValues,
}

impl CountEngine {
    /// Every engine, in the order of the help text. Public so that front ends and tests can
    /// walk every engine (tests/it/pieces.rs checks each against each piece).
    pub const ALL: [CountEngine; 5] = [
        CountEngine::Sat,
        CountEngine::Cdcl,
        CountEngine::Backtrack,
        CountEngine::Orbits,
        CountEngine::OrbitValues,
    ];

    /// What [`CountEngine::parse`] gives for `auto` where no instance is at hand (the engine of a
    /// split job's cubes, `split count --engine auto`). `count` resolves `auto` per instance
    /// instead ([`CountEngine::choice`], `auto_engine`).
    pub const DEFAULT: CountEngine = CountEngine::Sat;

    /// `count --engine` / Python's `engine=`: `auto` is `None` (the fastest engine that can
    /// count the instance, `auto_engine`), any other name that engine.
    pub fn choice(name: &str) -> Result<Option<CountEngine>> {
        if name == "auto" {
            Ok(None)
        } else {
            CountEngine::parse(name).map(Some)
        }
    }

    /// Every name [`CountEngine::parse`] takes: `auto` ([`CountEngine::DEFAULT`]), then each engine's.
    pub fn names() -> Vec<&'static str> {
        std::iter::once("auto")
            .chain(CountEngine::ALL.iter().map(|e| e.name()))
            .collect()
    }

    /// Looks up an engine name (`auto` is [`CountEngine::DEFAULT`]), or a typed error listing the
    /// known ones. The command line and Python take the same names.
    pub fn parse(name: &str) -> Result<CountEngine> {
        if name == "auto" {
            return Ok(CountEngine::DEFAULT);
        }
        CountEngine::ALL
            .into_iter()
            .find(|e| e.name() == name)
            .ok_or_else(|| {
                crate::error::BadOption::unknown(
                    crate::error::Opt::Engine,
                    name,
                    &CountEngine::names(),
                )
            })
    }

    /// The engine's name.
    pub fn name(self) -> &'static str {
        match self {
            CountEngine::Sat => "sat",
            CountEngine::Cdcl => "cdcl",
            CountEngine::Backtrack => "backtrack",
            CountEngine::Orbits => "orbits",
            CountEngine::OrbitValues => "orbit-values",
        }
    }
}

/// The breakdown of a count ([`Counter::counts`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counts {
    /// Number of solutions (projected on the board cells).
    pub total: u64,
    /// The stabiliser of the instance, identity first.
    pub group: Vec<Symmetry>,
    /// `fixed[i]`: solutions that `group[i]` maps to themselves (`fixed[0] == total`).
    pub fixed: Vec<u64>,
    /// Solution classes modulo the group: `sum(fixed) / |group|` (Burnside).
    pub unique: u64,
}

/// What a count is asked: every option of `count` that changes its answer, the same for the
/// command line and Python ([`run`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Request {
    /// The at-most-one encoding of the SAT engines' CNF.
    pub amo: AmoKind,
    /// `--symmetric g`: count only the solutions `g` maps to themselves.
    pub symmetric: Option<Symmetry>,
    /// `--break-symmetry lex`: count the classes directly, one lex-leader board per class.
    pub lex: bool,
    /// The engine; `None` is `auto` ([`auto_engine`]).
    pub engine: Option<CountEngine>,
    /// `--cross-check`: a second, independent engine ([`second_engine`]) counts the same; any
    /// difference is an error.
    pub cross_check: bool,
    /// Worker threads.
    pub jobs: usize,
    /// `--timeout`: the count gives up after this long ([`CountOutcome::TimeLimit`]).
    pub timeout: Option<Duration>,
}

impl Request {
    /// A plain count (no symmetry options, `auto`, no cross-check, no limit) on `jobs` threads.
    pub fn new(amo: AmoKind, jobs: usize) -> Request {
        Request {
            amo,
            symmetric: None,
            lex: false,
            engine: None,
            cross_check: false,
            jobs,
            timeout: None,
        }
    }
}

/// How a [`CountReport`]'s classes were counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Method {
    /// Burnside's lemma over the fixed points of each element of the group.
    Burnside,
    /// Lex-leader constraints: one board per class, counted directly (the SAT engines under
    /// `--break-symmetry lex`).
    LexLeader,
}

impl Method {
    /// `burnside` or `lex-leader`.
    pub fn name(self) -> &'static str {
        match self {
            Method::Burnside => "burnside",
            Method::LexLeader => "lex-leader",
        }
    }
}

/// What one engine counted.
#[derive(Clone, Debug, PartialEq)]
pub struct Counted {
    /// The engine.
    pub engine: CountEngine,
    /// How it counted the classes.
    pub method: Method,
    /// Its classes: [`Counts::unique`], or the lex-leader boards.
    pub unique: u64,
    /// The full breakdown (absent for a lex-leader count, which sees one board per class).
    pub counts: Option<Counts>,
    /// The engine that counted the rotations' fixed points, where not this one: the orbits
    /// engine inside a backtrack count of all solutions.
    pub rotations: Option<CountEngine>,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// The answer of [`Counter::run`]: what every engine that ran counted (one, or two that agree under
/// `cross_check`), and the options that shaped it.
#[derive(Clone, Debug, PartialEq)]
pub struct CountReport {
    /// `--symmetric g`, as asked.
    pub symmetric: Option<Symmetry>,
    /// `--break-symmetry lex`, as asked: only the classes are reported.
    pub lex: bool,
    /// The group the classes are taken modulo (`count_group`), identity first.
    pub group: Vec<Symmetry>,
    /// The engines' answers, the chosen (or `auto`'s) engine first.
    pub runs: Vec<Counted>,
}

impl CountReport {
    /// The first engine's answer.
    pub fn first(&self) -> &Counted {
        &self.runs[0]
    }

    /// The classes (equal for every engine that ran).
    pub fn unique(&self) -> u64 {
        self.first().unique
    }

    /// The full breakdown, where an engine gave one (none for a lex-leader count by the SAT
    /// engines alone).
    pub fn counts(&self) -> Option<&Counts> {
        self.runs.iter().find_map(|r| r.counts.as_ref())
    }

    /// The engines that ran, joined by `+` (`backtrack`, `backtrack+sat`).
    pub fn engine_name(&self) -> String {
        let names: Vec<&str> = self.runs.iter().map(|r| r.engine.name()).collect();
        names.join("+")
    }

    /// The methods of the engines that ran, joined by `+` as [`CountReport::engine_name`].
    pub fn method_name(&self) -> String {
        let names: Vec<&str> = self.runs.iter().map(|r| r.method.name()).collect();
        names.join("+")
    }

    /// The engine that counted the rotations' fixed points inside the first run, where not the
    /// first run's engine ([`Counted::rotations`]).
    pub fn rotations(&self) -> Option<CountEngine> {
        self.first().rotations
    }

    /// Seconds of every engine that ran, added up.
    pub fn seconds(&self) -> f64 {
        self.runs.iter().map(|r| r.seconds).sum()
    }
}

/// What [`Counter::run`] gives: a report, or the time limit (as given) that stopped it first.
#[derive(Clone, Debug, PartialEq)]
pub enum CountOutcome {
    /// Counted.
    Counted(CountReport),
    /// `Request::timeout` passed before the count ended; nothing was counted.
    TimeLimit(Duration),
}

/// Why the backtrack engine cannot count `instance` for `piece`, if it cannot: boards beyond
/// [`backtrack::MAX_N`], pieces it does not model ([`backtrack::supports`]).
pub(crate) fn backtrack_refusal(instance: &Instance, piece: &Piece) -> Option<Error> {
    if instance.n > backtrack::MAX_N {
        return Some(crate::error::BadOption::invalid(
            crate::error::Opt::Engine,
            "backtrack",
            format!("handles n <= {}, not {}", backtrack::MAX_N, instance.n),
        ));
    }
    backtrack::supports(piece).err()
}

/// Why the orbits engine cannot count the `g`-symmetric boards of `instance` for `piece`, if
/// it cannot: `g` not a rotation, blocked cells or excluded diagonals, another piece, a board
/// past its limit ([`orbits::Problem::of`]).
fn orbits_refusal(instance: &Instance, piece: &Piece, g: Option<Symmetry>) -> Option<Error> {
    let group = generated(&[g.unwrap_or(Symmetry::Id)]);
    orbits::Problem::of(instance, piece, &group).err()
}

/// Whether a backtrack count of all solutions of `instance` takes the fixed points of the
/// rotations in `group` from their orbits ([`orbits`]): where that engine applies.
fn rotations_by_orbits(instance: &Instance, piece: &Piece, group: &[Symmetry]) -> bool {
    group.iter().any(|&g| {
        matches!(g, Symmetry::R90 | Symmetry::R180 | Symmetry::R270)
            && orbits::Problem::of(instance, piece, &generated(&[g])).is_ok_and(|p| p.is_some())
    })
}

/// The engine `auto` runs: the fastest that can count the instance with the options asked.
/// Under `--symmetric r90|r180|r270` the orbits engine wherever it applies (queens and
/// amazons, pre-placed pieces, no blocked cells or excluded diagonals); elsewhere the bitboard
/// backtrack counter wherever it applies (n <= 64, queens and amazons, every instance kind,
/// `--symmetric`), except under `--break-symmetry lex`, whose lex-leader constraints only the
/// SAT engines add: there, and past n = 64, `sat`.
pub(crate) fn auto_engine(
    instance: &Instance,
    piece: &Piece,
    symmetric: Option<Symmetry>,
    lex: bool,
) -> CountEngine {
    if lex {
        CountEngine::Sat
    } else if symmetric.is_some() && orbits_refusal(instance, piece, symmetric).is_none() {
        CountEngine::Orbits
    } else if backtrack_refusal(instance, piece).is_none() {
        CountEngine::Backtrack
    } else {
        CountEngine::Sat
    }
}

/// The second engine of `--cross-check` for `first`: the independent backtrack counter for a
/// SAT engine where it applies, the `sat` engine for `backtrack`; past n = 64 the other SAT
/// engine (`sat` and `cdcl` share the encoding but not the search).
pub(crate) fn second_engine(instance: &Instance, piece: &Piece, first: CountEngine) -> CountEngine {
    match first {
        CountEngine::Backtrack => CountEngine::Sat,
        CountEngine::Orbits => CountEngine::OrbitValues,
        CountEngine::OrbitValues => CountEngine::Orbits,
        _ if backtrack_refusal(instance, piece).is_none() => CountEngine::Backtrack,
        CountEngine::Sat => CountEngine::Cdcl,
        CountEngine::Cdcl => CountEngine::Sat,
    }
}

/// Counts `instance` as `request` asks, the one rule of every front end.
///
/// - `total`: the solutions (under `--symmetric g`: the g-symmetric solutions).
/// - `group` H ([`count_group`]): the instance's symmetries that map `<g>` onto itself, so
///   that they permute the g-symmetric solutions (all of the stabiliser without `g`).
/// - `fixed[i]`: the counted solutions that `group[i]` maps to themselves, i.e. the solutions
///   fixed by the subgroup `<g, group[i]>`; `unique` = sum(fixed) / |H| (Burnside; a
///   remainder is an error).
/// - `lex`: the classes counted directly, lex-leader constraints for H added to the SAT
///   engines' CNF (the backtrack engine counts them by Burnside): equal to `unique`.
///
/// The engine is `request.engine`, or [`auto_engine`]; an engine that cannot count the
/// instance is refused with an error naming why (`backtrack` past n = 64). With
/// `cross_check`, [`second_engine`] counts too and any difference is an [`Error::WrongAnswer`].
/// Stops with [`Error::Interrupted`] once `cancel` is raised, and with
/// [`CountOutcome::TimeLimit`] once `request.timeout` passes. `progress(done, total)` reports the
/// SAT engines' cubes and the backtrack engine's tasks (of its total; its fixed points under
/// `--symmetric` report nothing).
///
pub(crate) fn run(
    instance: &Instance,
    piece: Piece,
    request: &Request,
    progress: &(dyn Fn(usize, usize) + Sync),
    cancel: &Cancel,
) -> Result<CountOutcome> {
    let first = match request.engine {
        Some(e) => e,
        None => auto_engine(instance, &piece, request.symmetric, request.lex),
    };
    let mut engines = vec![first];
    if request.cross_check {
        engines.push(second_engine(instance, &piece, first));
    }
    for &e in &engines {
        match e {
            CountEngine::Backtrack => {
                if let Some(why) = backtrack_refusal(instance, &piece) {
                    return Err(why);
                }
            }
            CountEngine::Sat | CountEngine::Cdcl => dpll::supports(&piece)?,
            CountEngine::Orbits | CountEngine::OrbitValues => {
                if request.lex {
                    return Err(crate::error::BadOption::invalid(
                        crate::error::Opt::Engine,
                        e.name(),
                        "counts the classes by Burnside, not lex-leader constraints: drop \
                         --break-symmetry lex or take the sat engine",
                    ));
                }
                if let Some(why) = orbits_refusal(instance, &piece, request.symmetric) {
                    return Err(why);
                }
            }
        }
    }
    let limited = cancel.with_timeout(request.timeout);
    let token = limited.child();
    let watch = request.timeout.map(|_| {
        let raise = token.clone();
        crate::interrupt::watch(&limited, move || raise.cancel())
    });
    let group = count_group(instance, &piece, request.symmetric);
    let mut runs = Vec::new();
    let mut failed = None;
    for &e in &engines {
        let (c, seconds) =
            timed(|| by_engine(e, instance, piece, request, &group, progress, &token));
        match c {
            Ok((method, unique, counts)) => runs.push(Counted {
                engine: e,
                method,
                unique,
                counts,
                rotations: (e == CountEngine::Backtrack
                    && request.symmetric.is_none()
                    && rotations_by_orbits(instance, &piece, &group))
                .then_some(CountEngine::Orbits),
                seconds,
            }),
            Err(err) => {
                failed = Some(err);
                break;
            }
        }
    }
    drop(watch);
    if let Some(Stop::TimeLimit(given)) = limited.stopped() {
        return Ok(CountOutcome::TimeLimit(given));
    }
    if let Some(err) = failed {
        return Err(err);
    }
    if let [a, b] = runs.as_slice() {
        let differ =
            a.unique != b.unique || matches!((&a.counts, &b.counts), (Some(x), Some(y)) if x != y);
        if differ {
            let show = |r: &Counted| match &r.counts {
                Some(c) => format!(
                    "{} engine counted total={} unique={} fixed={:?}",
                    r.engine.name(),
                    c.total,
                    c.unique,
                    c.fixed
                ),
                None => format!(
                    "{} engine counted {} classes ({})",
                    r.engine.name(),
                    r.unique,
                    r.method.name()
                ),
            };
            return Err(Error::WrongAnswer(format!(
                "cross-check failed: {}, {}",
                show(a),
                show(b)
            )));
        }
    }
    Ok(CountOutcome::Counted(CountReport {
        symmetric: request.symmetric,
        lex: request.lex,
        group,
        runs,
    }))
}

/// One formula of the SAT engines' fixed points: the solutions every element of `group` maps to
/// themselves (the encoder's `symmetric` and the equivalences of `also`), cut into `cubes`.
struct Formula {
    group: Vec<Symmetry>,
    options: EncodeOptions,
    also: Vec<Symmetry>,
    cubes: Vec<cube::Cube>,
}

/// One engine's count for [`run`]: its method, its classes and (Burnside) the breakdown.
fn by_engine(
    engine: CountEngine,
    instance: &Instance,
    piece: Piece,
    request: &Request,
    group: &[Symmetry],
    progress: &(dyn Fn(usize, usize) + Sync),
    cancel: &Cancel,
) -> Result<(Method, u64, Option<Counts>)> {
    let g = request.symmetric.filter(|&g| g != Symmetry::Id);
    if request.lex && engine != CountEngine::Backtrack {
        let conquer = if engine == CountEngine::Cdcl {
            sat::Conquer::Cdcl
        } else {
            sat::Conquer::Dpll
        };
        let options = EncodeOptions {
            amo: request.amo,
            symmetric: g,
            lex_leader: SymmetrySet::of(group),
            implied: Default::default(),
        };
        // No cube merging: lex-leader constraints are not symmetric themselves.
        let classes = sat::count(
            instance,
            piece,
            options,
            &[],
            request.jobs,
            conquer,
            progress,
            cancel,
        )?;
        return Ok((Method::LexLeader, classes, None));
    }
    let fixed = match (engine, g) {
        (CountEngine::Orbits | CountEngine::OrbitValues, _) => {
            let formulation = if engine == CountEngine::Orbits {
                orbits::Formulation::Pairs
            } else {
                orbits::Formulation::Values
            };
            // <g> itself for the rotations h; none for the reflections (n >= 2).
            per_subgroup(
                g.unwrap_or(Symmetry::Id),
                group,
                |k| match orbits::Problem::of(instance, &piece, k)? {
                    Some(p) => orbits::fixed(&p, formulation, request.jobs, progress, cancel),
                    None => Ok(0),
                },
            )?
        }
        (CountEngine::Backtrack, None) => {
            backtrack::count_reporting(instance, piece, group, request.jobs, progress, cancel)?
                .fixed
        }
        (CountEngine::Backtrack, Some(g)) => per_subgroup(g, group, |k| {
            backtrack::fixed_by(instance, piece, k, cancel)
        })?,
        (CountEngine::Sat | CountEngine::Cdcl, _) => {
            let conquer = if engine == CountEngine::Cdcl {
                sat::Conquer::Cdcl
            } else {
                sat::Conquer::Dpll
            };
            // One formula per distinct subgroup <g, h>: its generators as the encoder's
            // `symmetric` and extra equivalences; symmetric cubes merged by the elements of
            // the group that commute with all of it.
            let mut formulas: Vec<Formula> = Vec::new();
            let mut which = Vec::with_capacity(group.len());
            for &h in group {
                let gens: Vec<Symmetry> = g
                    .into_iter()
                    .chain(std::iter::once(h))
                    .filter(|&x| x != Symmetry::Id)
                    .collect();
                let k = generated(&gens);
                if let Some(i) = formulas.iter().position(|f| f.group == k) {
                    which.push(i);
                    continue;
                }
                let mut gens = gens;
                gens.dedup();
                let options = EncodeOptions {
                    amo: request.amo,
                    symmetric: gens.first().copied(),
                    lex_leader: SymmetrySet::default(),
                    implied: Default::default(),
                };
                let also: Vec<Symmetry> = gens.iter().skip(1).copied().collect();
                let merge: Vec<Symmetry> = group
                    .iter()
                    .copied()
                    .filter(|&m| k.iter().all(|&x| m.compose(x) == x.compose(m)))
                    .collect();
                let cubes = sat::plan(
                    instance,
                    piece,
                    options,
                    &merge,
                    request.jobs,
                    conquer,
                    cancel,
                )?;
                which.push(formulas.len());
                formulas.push(Formula {
                    group: k,
                    options,
                    also,
                    cubes,
                });
            }
            let total: usize = formulas.iter().map(|f| f.cubes.len()).sum();
            let mut before = 0;
            let mut counts = Vec::with_capacity(formulas.len());
            for f in &formulas {
                let overall = |done: usize, _: usize| progress(before + done, total);
                counts.push(sat::conquer_fixed(
                    &f.cubes,
                    piece,
                    f.options,
                    &f.also,
                    request.jobs,
                    conquer,
                    &overall,
                    cancel,
                )?);
                before += f.cubes.len();
            }
            which.into_iter().map(|i| counts[i]).collect()
        }
    };
    let counts = match g {
        None => Counts::from_fixed(instance, &piece, group.to_vec(), fixed)?,
        Some(g) => Counts::symmetric_from_fixed(instance, &piece, g, group.to_vec(), fixed)?,
    };
    Ok((Method::Burnside, counts.unique, Some(counts)))
}

/// The fixed points of each subgroup <g, h>, h in `group`, by `count` (once per distinct
/// subgroup: several h give the same one).
fn per_subgroup(
    g: Symmetry,
    group: &[Symmetry],
    mut count: impl FnMut(&[Symmetry]) -> Result<u64>,
) -> Result<Vec<u64>> {
    let mut seen: Vec<(Vec<Symmetry>, u64)> = Vec::new();
    let mut fixed = Vec::with_capacity(group.len());
    for &h in group {
        let k = generated(&[g, h]);
        let f = match seen.iter().find(|(s, _)| *s == k) {
            Some(&(_, f)) => f,
            None => {
                let f = count(&k)?;
                seen.push((k, f));
                f
            }
        };
        fixed.push(f);
    }
    Ok(fixed)
}

impl Counts {
    /// The counts from the fixed points of each element of `group` (identity first, so
    /// `fixed[0]` is the total). Two checks, each an [`Error::WrongAnswer`] when it fails (a
    /// miscount): Burnside's lemma must divide exactly, and on a plain board the published
    /// counts must match (`reference::check`).
    pub fn from_fixed(
        instance: &Instance,
        piece: &Piece,
        group: Vec<Symmetry>,
        fixed: Vec<u64>,
    ) -> Result<Counts> {
        let counts = Counts::burnside(group, fixed, "")?;
        reference::check(instance, piece, &counts)?;
        Ok(counts)
    }

    /// The counts of `fixed` over `group` by Burnside's lemma, which must divide exactly (a
    /// remainder is a miscount, named with `what`: `""` or `"r90-symmetric "`).
    fn burnside(group: Vec<Symmetry>, fixed: Vec<u64>, what: &str) -> Result<Counts> {
        let sum: u64 = fixed.iter().sum();
        let order = group.len() as u64;
        if !sum.is_multiple_of(order) {
            return Err(Error::WrongAnswer(format!(
                "Burnside check failed: the {what}fixed-point counts {fixed:?} sum to {sum}, not a multiple of |group| = {order}"
            )));
        }
        Ok(Counts {
            total: fixed[0],
            unique: sum / order,
            group,
            fixed,
        })
    }

    /// [`Counts::from_fixed`] for the g-symmetric solutions (`--symmetric g`): `group` is
    /// the count's group (`count_group`) and `fixed[i]` the solutions fixed by `g` and
    /// `group[i]`. The same Burnside check; on a plain board the total is checked against the
    /// published fixed points of `g` (`reference::check_symmetric`).
    pub fn symmetric_from_fixed(
        instance: &Instance,
        piece: &Piece,
        g: Symmetry,
        group: Vec<Symmetry>,
        fixed: Vec<u64>,
    ) -> Result<Counts> {
        let counts = Counts::burnside(group, fixed, &format!("{g}-symmetric "))?;
        reference::check_symmetric(instance, piece, g, counts.total)?;
        Ok(counts)
    }
}

#[cfg(feature = "harness")] // the cluster jobs
/// Counts only the solutions that `g` maps to themselves (`count --symmetric`).
pub(crate) fn count_symmetric(
    instance: &Instance,
    piece: Piece,
    amo: AmoKind,
    g: Symmetry,
    jobs: usize,
    cancel: &Cancel,
) -> Result<u64> {
    sat::count(
        instance,
        piece,
        EncodeOptions {
            amo,
            symmetric: Some(g),
            lex_leader: SymmetrySet::default(),
            implied: Default::default(),
        },
        &crate::symmetry::stabiliser(instance, &piece),
        jobs,
        sat::Conquer::Dpll,
        &|_, _| {},
        cancel,
    )
}

/// Times a closure, for reports.
pub(crate) fn timed<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let t = Instant::now();
    let v = f();
    (v, t.elapsed().as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::piece::QUEEN;
    use std::sync::Mutex;

    /// The progress of a count over every symmetry's formula: one total, fixed from the first
    /// report, and `done` going up by one per report to it (issue 45 §4: it used to restart at
    /// each formula, with that formula's total).
    #[test]
    fn progress_is_monotonic_with_one_total() {
        for engine in [CountEngine::Sat, CountEngine::Cdcl] {
            let seen = Mutex::new(Vec::new());
            let record = |done: usize, total: usize| seen.lock().unwrap().push((done, total));
            let inst = Instance::plain(10);
            let c = Counter::new(&inst, QUEEN)
                .engine(engine)
                .amo(AmoKind::Pairwise)
                .jobs(2)
                .progress(&record)
                .counts()
                .unwrap();
            assert_eq!((c.total, c.unique, c.group.len()), (724, 92, 8));
            let seen = seen.into_inner().unwrap();
            let total = seen[0].1;
            assert!(seen.iter().all(|&(_, t)| t == total), "{seen:?}");
            let done: Vec<usize> = seen.iter().map(|&(d, _)| d).collect();
            assert_eq!(done, (1..=total).collect::<Vec<_>>(), "{engine:?}");
        }
    }
}
