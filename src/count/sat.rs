//! The SAT counting engine: cube-and-conquer enumeration over the same presolve and encoder that
//! `solve` uses.
//!
//! The search is split into cubes by placing pieces on the first rows (each cube is a completion
//! instance, so presolve shrinks it to its live cells); each cube's CNF is counted by the
//! exhaustive DPLL model counter of [`super::dpll`] (or, with [`Conquer::Cdcl`], enumerated by
//! varisat with blocking clauses), projected on the cell variables, so auxiliary variables never
//! inflate the count. Cubes run on `jobs` threads.

use varisat::ExtendFormula;

use crate::cube::{self, Cube};
use crate::encode::{EncodeOptions, Encoder};
use crate::error::{Error, Result};
use crate::instance::Instance;
use crate::interrupt::Cancel;
use crate::piece::Piece;
use crate::presolve::Problem;
use crate::solve::varisat_backend::{StopSwitch, VarisatSink};
use crate::symmetry::Symmetry;

pub use crate::cube::cubes;

/// How each cube is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Conquer {
    /// The DPLL model counter over the cube's CNF ([`super::dpll`]).
    Dpll,
    /// varisat enumeration with blocking clauses over the cell variables ([`count_cube`]).
    Cdcl,
}

/// Cubes per worker thread for the DPLL counter: it has no per-solution cost, so cubes only
/// spread the work over the threads and let symmetric cubes be counted once. Each cube costs
/// a presolve, an encoding and a clause database. Measured with 2 threads, pairwise, wall
/// clock: 16-amazons 1.68 / 1.19 / 3.02 s and 14-queens 0.40 / 0.40 / 1.01 s for 8 / 64 / 256
/// cubes per thread.
const DPLL_CUBES_PER_JOB: usize = 64;

/// Cubes per worker thread for CDCL enumeration. Each cube costs a presolve and a fresh solver (~40 us on 12-queens),
/// and enumeration in one solver slows down as blocking clauses pile up (~60 us per solution at
/// ~13 solutions per cube, ~730 us with all 14,200 in one solver). Measured on 14-queens
/// (pairwise, 2 threads): 256 per thread 12 s, 1024 4.9 s, 4096 3.1 s, 16384 5.3 s.
/// Symmetry-restricted counts have few solutions, so they use few cubes.
fn cubes_per_job(options: EncodeOptions, conquer: Conquer) -> usize {
    match conquer {
        Conquer::Dpll => DPLL_CUBES_PER_JOB,
        Conquer::Cdcl if options.symmetric.is_some() => 4,
        Conquer::Cdcl => 4096,
    }
}

#[cfg(any(feature = "harness", feature = "oracle"))] // the cluster jobs and the benchmarks
/// Counts the models of one cube, projected on the cell variables.
pub fn count_cube(
    instance: &Instance,
    piece: Piece,
    options: EncodeOptions,
    cancel: &Cancel,
) -> Result<u64> {
    count_cube_fixed(instance, piece, options, &[], cancel)
}

/// Live cells from which a cube's varisat search gets a [`StopSwitch`]. The switch costs about a
/// third of an enumeration's time (n = 12: 1.03 -> 1.37 s), and below this size every single
/// search between two solutions ends within milliseconds, so the check between solutions
/// suffices; on big boards one search can run for seconds.
const SWITCH_CELLS: u64 = 64 * 64;

/// [`count_cube`], restricted besides `options.symmetric` to the boards every element of
/// `also` maps to themselves (see [`super::dpll::count_cube_fixed`]). A raised `cancel` stops
/// it with [`crate::error::Error::Interrupted`]: between two solutions, and inside varisat's
/// search through a [`StopSwitch`] (varisat has no interrupt call of its own; its own proof
/// format, since DRAT takes no clause added between two solves).
pub fn count_cube_fixed(
    instance: &Instance,
    piece: Piece,
    options: EncodeOptions,
    also: &[Symmetry],
    cancel: &Cancel,
) -> Result<u64> {
    cancel.check()?;
    let problem = Problem::presolve(instance, piece)?;
    if problem.unsat.is_some() {
        return Ok(0);
    }
    let mut solver = varisat::Solver::new();
    if problem.num_cells() >= SWITCH_CELLS {
        solver.write_proof(StopSwitch::new(cancel), varisat::ProofFormat::Varisat);
    }
    {
        let mut sink = VarisatSink::new(&mut solver);
        Encoder::with_options(&problem, options).encode(&mut sink);
        for &g in also {
            if !crate::encode::symmetric::for_each_clause(&problem, g, |cl| {
                crate::encode::ClauseSink::add_clause(&mut sink, cl)
            }) {
                return Ok(0);
            }
        }
    }
    cancel.check()?;
    let cells = problem.num_cells() as isize;
    let mut count = 0;
    let mut block: Vec<varisat::Lit> = Vec::new();
    loop {
        match solver.solve() {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => {
                // The stop switch fails varisat's proof output once `cancel` stops.
                cancel.check()?;
                return Err(Error::Solver(format!("varisat failed while counting: {e}")));
            }
        }
        cancel.check()?;
        count += 1;
        // Every solution places one piece on each free row, so two solutions differ in a piece
        // of each: blocking the true cells alone is exact.
        block.clear();
        if let Some(model) = solver.model() {
            block.extend(
                model
                    .iter()
                    .filter(|l| l.is_positive() && l.to_dimacs() <= cells)
                    .map(|&l| !l),
            );
        }
        if block.is_empty() {
            break; // the only solution: nothing left to choose
        }
        solver.add_clause(&block);
    }
    Ok(count)
}

/// Counts the solutions of `instance` (restricted to `options.symmetric`-invariant boards when
/// set) on `jobs` threads, each cube counted by `conquer`. `group` lists symmetries of the
/// instance used to count symmetric cubes once (pass `&[]` to count every cube).
/// `progress(done, total)` is called after each cube; a raised `cancel` stops the count with
/// [`crate::Error::Interrupted`]. [`plan`] then [`conquer`].
#[allow(clippy::too_many_arguments)] // the engine's knobs, forwarded from count::count_with_progress
pub fn count(
    instance: &Instance,
    piece: Piece,
    options: EncodeOptions,
    group: &[Symmetry],
    jobs: usize,
    conquer_with: Conquer,
    progress: &(dyn Fn(usize, usize) + Sync),
    cancel: &crate::interrupt::Cancel,
) -> Result<u64> {
    let cubes = plan(instance, piece, options, group, jobs, conquer_with, cancel)?;
    conquer(&cubes, piece, options, jobs, conquer_with, progress, cancel)
}

/// The cubes [`count`] conquers (symmetric cubes merged into one, weighted): known before any
/// is counted, so a caller that counts several formulas can announce the whole work first.
pub fn plan(
    instance: &Instance,
    piece: Piece,
    options: EncodeOptions,
    group: &[Symmetry],
    jobs: usize,
    conquer: Conquer,
    cancel: &crate::interrupt::Cancel,
) -> Result<Vec<Cube>> {
    let jobs = jobs.max(1);
    check_memory(instance, piece, options, jobs, conquer, cancel)?;
    let cubes = cubes(
        instance,
        piece,
        cubes_per_job(options, conquer) * jobs,
        cancel,
    )?;
    Ok(cube::classes(instance, cubes, group, options.symmetric))
}

/// Estimated peak bytes of the DPLL counter on a cube whose CNF has `stats`' size: the
/// collected clauses and the counter's lists are both alive while it loads (about 18 bytes a
/// literal measured: n = 1000 with lex-leader constraints, 153 M literals, peaks at 2.69 GB on
/// one thread), plus the per-variable tables.
fn dpll_bytes(stats: &crate::encode::Stats) -> u64 {
    20u64
        .saturating_mul(stats.literals)
        .saturating_add(48u64.saturating_mul(stats.vars))
}

/// Refuses up front a count whose `jobs` cubes, loaded at once, would not fit in memory
/// ([`crate::memory::check`]): each cube's CNF is at most the whole board's, whose size the
/// encoder computes without building it.
fn check_memory(
    instance: &Instance,
    piece: Piece,
    options: EncodeOptions,
    jobs: usize,
    conquer: Conquer,
    cancel: &Cancel,
) -> Result<()> {
    let problem = Problem::presolve(instance, piece)?;
    let stats = Encoder::with_options(&problem, options)
        .until(cancel)
        .stats()?;
    let (each, engine) = match conquer {
        Conquer::Dpll => (dpll_bytes(&stats), "sat"),
        Conquer::Cdcl => (
            crate::memory::with_margin(crate::solve::varisat_bytes(&stats)),
            "cdcl",
        ),
    };
    crate::memory::check(
        each.saturating_mul(jobs as u64),
        &format!(
            "counting with the {engine} engine on {jobs} thread(s) ({} clauses, {} literals a cube \
             at most)",
            stats.clauses, stats.literals
        ),
        "; use fewer --jobs, or a smaller board",
    )
}

/// Counts the planned `cubes` ([`plan`]) on `jobs` threads: the sum of each cube's weight
/// times its count. `progress(done, cubes.len())` is called after each cube.
pub fn conquer(
    cubes: &[Cube],
    piece: Piece,
    options: EncodeOptions,
    jobs: usize,
    conquer: Conquer,
    progress: &(dyn Fn(usize, usize) + Sync),
    cancel: &crate::interrupt::Cancel,
) -> Result<u64> {
    conquer_fixed(cubes, piece, options, &[], jobs, conquer, progress, cancel)
}

/// [`conquer`], each cube restricted besides `options.symmetric` to the boards every element
/// of `also` maps to themselves.
#[allow(clippy::too_many_arguments)] // conquer's knobs and the extra symmetries
pub fn conquer_fixed(
    cubes: &[Cube],
    piece: Piece,
    options: EncodeOptions,
    also: &[Symmetry],
    jobs: usize,
    conquer: Conquer,
    progress: &(dyn Fn(usize, usize) + Sync),
    cancel: &crate::interrupt::Cancel,
) -> Result<u64> {
    let counts = crate::work::run_all(cubes, jobs.max(1), cancel, progress, |cube| {
        let Cube {
            instance: cube,
            weight,
        } = cube;
        let n = match conquer {
            Conquer::Dpll => super::dpll::count_cube_fixed(cube, piece, options, also, cancel)?,
            Conquer::Cdcl => count_cube_fixed(cube, piece, options, also, cancel)?,
        };
        Ok(weight * n)
    })?;
    Ok(counts.iter().sum())
}
