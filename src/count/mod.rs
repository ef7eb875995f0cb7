//! Counting: all solutions, the fixed points of each symmetry of the instance, and the solutions
//! modulo symmetry (Burnside's lemma), by the SAT engine or the independent backtracking engine.

pub mod backtrack;
pub mod classes;
pub mod dpll;
pub mod fast;
pub mod lanes;
pub mod reference;
pub mod sat;

use std::time::Instant;

use crate::encode::EncodeOptions;
use crate::encode::amo::AmoKind;
use crate::encode::lex::SymmetrySet;
use crate::error::{Error, Result};
use crate::instance::Instance;
use crate::interrupt::Cancel;
use crate::piece::Piece;
use crate::symmetry::{Symmetry, stabiliser};

/// Which counter answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// Cube-and-conquer model counting of the SAT encoding: each cube's CNF is counted by an
    /// exhaustive DPLL model counter ([`dpll`]), projected on the cell variables.
    Sat,
    /// The same cubes enumerated by varisat with blocking clauses over the cell variables
    /// (the classic all-solutions loop; slower, kept as a second SAT-based counter).
    Cdcl,
    /// The direct bitboard backtracking counter (independent of the CNF; n <= 64).
    Backtrack,
}

impl Engine {
    /// Every engine, in the order of the help text.
    pub const ALL: [Engine; 3] = [Engine::Sat, Engine::Cdcl, Engine::Backtrack];

    /// The engine `auto` names: the one the command line and Python use by default.
    pub const DEFAULT: Engine = Engine::Sat;

    /// Every name [`Engine::parse`] takes: `auto` ([`Engine::DEFAULT`]), then each engine's.
    pub fn names() -> Vec<&'static str> {
        std::iter::once("auto")
            .chain(Engine::ALL.iter().map(|e| e.name()))
            .collect()
    }

    /// Looks up an engine name (`auto` is [`Engine::DEFAULT`]), or a typed error listing the
    /// known ones. The command line and Python take the same names.
    pub fn parse(name: &str) -> Result<Engine> {
        if name == "auto" {
            return Ok(Engine::DEFAULT);
        }
        Engine::ALL
            .into_iter()
            .find(|e| e.name() == name)
            .ok_or_else(|| {
                crate::error::BadOption::unknown(crate::error::Opt::Engine, name, &Engine::names())
            })
    }

    /// The engine's name.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Sat => "sat",
            Engine::Cdcl => "cdcl",
            Engine::Backtrack => "backtrack",
        }
    }
}

/// The result of [`count`].
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

/// Counts the solutions of `instance` for `piece`, the fixed points of every element of its
/// stabiliser, and the classes modulo that group. Burnside's lemma must divide exactly; a
/// remainder is an error (it would mean a miscount).
///
/// ```
/// use queens_sat::{count::{count, Engine}, encode::amo::AmoKind, instance::Instance, piece::QUEEN};
/// let c = count(&Instance::plain(8), QUEEN, AmoKind::Product, Engine::Sat, 2).unwrap();
/// assert_eq!((c.total, c.unique), (92, 12));
/// ```
pub fn count(
    instance: &Instance,
    piece: Piece,
    amo: AmoKind,
    engine: Engine,
    jobs: usize,
) -> Result<Counts> {
    count_with_progress(
        instance,
        piece,
        amo,
        engine,
        jobs,
        &|_, _| {},
        &Cancel::new(),
    )
}

/// [`count`] with a progress callback `(done, total)` over the SAT engines' cubes, stopped
/// (with [`Error::Interrupted`]) once `cancel` is raised.
///
/// The SAT engines count one formula per symmetry of the instance (its fixed points), each cut
/// into cubes. Every formula's cubes are planned before any is counted, so `total` is the cubes
/// of all of them, the same on every call, and `done` counts the cubes finished so far over all
/// of them: it never goes back. The backtracking engine reports no progress.
pub fn count_with_progress(
    instance: &Instance,
    piece: Piece,
    amo: AmoKind,
    engine: Engine,
    jobs: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
    cancel: &Cancel,
) -> Result<Counts> {
    let group = stabiliser(instance, &piece);
    let fixed: Vec<u64> = match engine {
        Engine::Backtrack => backtrack::count_with(instance, piece, &group, jobs, cancel)?.fixed,
        Engine::Sat | Engine::Cdcl => {
            let conquer = if engine == Engine::Cdcl {
                sat::Conquer::Cdcl
            } else {
                sat::Conquer::Dpll
            };
            let phases = group
                .iter()
                .map(|&g| {
                    let options = EncodeOptions {
                        amo,
                        symmetric: (g != Symmetry::Id).then_some(g),
                        lex_leader: SymmetrySet::default(),
                        implied: Default::default(),
                    };
                    let cubes = sat::plan(instance, piece, options, &group, jobs, conquer, cancel)?;
                    Ok((options, cubes))
                })
                .collect::<Result<Vec<_>>>()?;
            let total: usize = phases.iter().map(|(_, cubes)| cubes.len()).sum();
            let mut before = 0;
            let mut fixed = Vec::with_capacity(phases.len());
            for (options, cubes) in &phases {
                let overall = |done: usize, _: usize| progress(before + done, total);
                fixed.push(sat::conquer(
                    cubes, piece, *options, jobs, conquer, &overall, cancel,
                )?);
                before += cubes.len();
            }
            fixed
        }
    };
    Counts::from_fixed(instance, &piece, group, fixed)
}

impl Counts {
    /// The counts from the fixed points of each element of `group` (identity first, so
    /// `fixed[0]` is the total). Two checks, each an [`Error::Solver`] when it fails (a
    /// miscount): Burnside's lemma must divide exactly, and on a plain board the published
    /// counts must match ([`reference::check`]).
    pub fn from_fixed(
        instance: &Instance,
        piece: &Piece,
        group: Vec<Symmetry>,
        fixed: Vec<u64>,
    ) -> Result<Counts> {
        let sum: u64 = fixed.iter().sum();
        let order = group.len() as u64;
        if !sum.is_multiple_of(order) {
            return Err(Error::Solver(format!(
                "Burnside check failed: the fixed-point counts {fixed:?} sum to {sum}, not a multiple of |group| = {order}"
            )));
        }
        let counts = Counts {
            total: fixed[0],
            unique: sum / order,
            group,
            fixed,
        };
        reference::check(instance, piece, &counts)?;
        Ok(counts)
    }
}

/// Counts only the solutions that `g` maps to themselves (`count --symmetric`).
pub fn count_symmetric(
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
        &stabiliser(instance, &piece),
        jobs,
        sat::Conquer::Dpll,
        &|_, _| {},
        cancel,
    )
}

/// Times a closure, for reports.
pub fn timed<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let t = Instant::now();
    let v = f();
    (v, t.elapsed().as_secs_f64())
}

/// Counts one board per class modulo the instance's stabiliser directly, through lex-leader
/// constraints (`count --break-symmetry lex`); equals [`Counts::unique`].
pub fn count_lex_leaders(
    instance: &Instance,
    piece: Piece,
    amo: AmoKind,
    jobs: usize,
    cancel: &Cancel,
) -> Result<u64> {
    let options = EncodeOptions {
        amo,
        symmetric: None,
        lex_leader: SymmetrySet::of(&stabiliser(instance, &piece)),
        implied: Default::default(),
    };
    // No cube merging: lex-leader constraints are not symmetric themselves.
    sat::count(
        instance,
        piece,
        options,
        &[],
        jobs,
        sat::Conquer::Dpll,
        &|_, _| {},
        cancel,
    )
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
        for engine in [Engine::Sat, Engine::Cdcl] {
            let seen = Mutex::new(Vec::new());
            let record = |done: usize, total: usize| seen.lock().unwrap().push((done, total));
            let inst = Instance::plain(10);
            let c = count_with_progress(
                &inst,
                QUEEN,
                AmoKind::Pairwise,
                engine,
                2,
                &record,
                &Cancel::new(),
            )
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
