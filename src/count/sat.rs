//! The SAT counting engine: cube-and-conquer enumeration over the same presolve and encoder that
//! `solve` uses.
//!
//! The search is split into cubes by placing pieces on the first rows (each cube is a completion
//! instance, so presolve shrinks it to its live cells); each cube's CNF is counted by the
//! exhaustive DPLL model counter of [`super::dpll`] (or, with [`Conquer::Cdcl`], enumerated by
//! varisat with blocking clauses), projected on the cell variables, so auxiliary variables never
//! inflate the count. Cubes run on `jobs` threads.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use varisat::ExtendFormula;

use std::collections::HashMap;

use crate::board::Cell;
use crate::encode::{EncodeOptions, Encoder};
use crate::error::Result;
use crate::instance::Instance;
use crate::piece::Piece;
use crate::presolve::Problem;
use crate::solve::varisat_backend::VarisatSink;
use crate::symmetry::Symmetry;

/// Splits `instance` into cubes: completion instances that place one more piece per level on a
/// free row or column, until there are at least `target` cubes or half of the free rows carry a
/// cube piece (the other half is always left to the solver). A cube that presolve proves empty
/// is dropped when the next level is built from it (cubes of the last level are not presolved
/// here, so some may be empty); the cubes partition the solutions.
///
/// Lines are taken from the border inwards and in symmetric order (row 0, last row, column 0,
/// last column, row 1, ...), so that every symmetry of the square maps the set of branched lines
/// onto itself and symmetric cubes can be counted once (see `cube_classes`).
pub fn cubes(instance: &Instance, piece: Piece, target: usize) -> Result<Vec<Instance>> {
    super::dpll::supports(&piece)?; // cubes branch on rows and columns, as the DPLL counter does
    let n = instance.n;
    let base = instance.placed.len();
    let max_depth = {
        let held: std::collections::HashSet<u32> = instance.placed.iter().map(|c| c.row).collect();
        (n as usize - held.len()) / 2
    };
    let mut level = vec![instance.clone()];
    loop {
        if level.len() >= target {
            return Ok(level);
        }
        let mut next = Vec::new();
        let mut expanded = false;
        for inst in level {
            if crate::interrupt::interrupted() {
                return Err(crate::error::Error::Interrupted);
            }
            let problem = Problem::presolve(&inst, piece)?;
            if problem.unsat.is_some() {
                continue;
            }
            let map = &problem.varmap;
            let mut col_len = vec![0u32; n as usize];
            for (c, _) in map.cells() {
                col_len[c.col as usize] += 1;
            }
            // (distance to the border, rows before columns, index): (line is a row, index).
            let line = (0..n)
                .filter(|&r| map.row_len(r) > 0)
                .map(|r| ((r.min(n - 1 - r), 0, r), (true, r)))
                .chain(
                    (0..n)
                        .filter(|&c| col_len[c as usize] > 0)
                        .map(|c| ((c.min(n - 1 - c), 1, c), (false, c))),
                )
                .min_by_key(|&(key, _)| key)
                .map(|(_, line)| line);
            // Leave at least half of the free rows to the solver.
            let line = line.filter(|_| inst.placed.len() - base < max_depth);
            match line {
                Some((is_row, i)) => {
                    expanded = true;
                    let cells: Vec<Cell> = if is_row {
                        map.row_cols(i).map(|c| Cell::new(i, c)).collect()
                    } else {
                        map.cells().map(|(c, _)| c).filter(|c| c.col == i).collect()
                    };
                    for cell in cells {
                        let mut child = inst.clone();
                        child.placed.push(cell);
                        next.push(child);
                    }
                }
                None => next.push(inst),
            }
        }
        level = next;
        if !expanded {
            return Ok(level);
        }
    }
}

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

/// Counts the models of one cube, projected on the cell variables.
pub fn count_cube(instance: &Instance, piece: Piece, options: EncodeOptions) -> Result<u64> {
    let problem = Problem::presolve(instance, piece)?;
    if problem.unsat.is_some() {
        return Ok(0);
    }
    let mut solver = varisat::Solver::new();
    Encoder::with_options(&problem, options).encode(&mut VarisatSink::new(&mut solver));
    let cells = problem.num_cells() as isize;
    let mut count = 0;
    let mut block: Vec<varisat::Lit> = Vec::new();
    while solver.solve().unwrap_or(false) {
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

/// Groups cubes into classes of cubes with equal counts: a symmetry `g` of the instance (and of
/// `options.symmetric`, when set, so that it maps g-invariant solutions to invariant ones) maps the
/// solutions through cube A's pieces bijectively onto those through `g(A)`. Returns one
/// representative per class with the class size.
fn cube_classes(
    instance: &Instance,
    cubes: Vec<Instance>,
    group: &[Symmetry],
    options: EncodeOptions,
) -> Vec<(Instance, u64)> {
    let n = instance.n;
    // The identity is always usable: with it alone every cube is its own class.
    let usable: Vec<Symmetry> = std::iter::once(Symmetry::Id)
        .chain(group.iter().copied())
        .filter(|&g| options.symmetric.is_none_or(|s| commutes(g, s, n)))
        .collect();
    let base = instance.placed.len();
    let mut classes: HashMap<Vec<Cell>, (Instance, u64)> = HashMap::new();
    let mut order = Vec::new();
    for cube in cubes {
        let added = &cube.placed[base..];
        let key = usable
            .iter()
            .map(|g| {
                let mut img: Vec<Cell> = added.iter().map(|&c| g.apply(c, n)).collect();
                img.sort_unstable();
                img
            })
            .min()
            .unwrap_or_default();
        match classes.get_mut(&key) {
            Some(entry) => entry.1 += 1,
            None => {
                order.push(key.clone());
                classes.insert(key, (cube, 1));
            }
        }
    }
    order
        .into_iter()
        .filter_map(|k| classes.remove(&k))
        .collect()
}

/// Whether `g` and `s` commute as maps of the board.
fn commutes(g: Symmetry, s: Symmetry, n: u32) -> bool {
    (0..n).all(|r| {
        (0..n).all(|c| {
            let x = Cell::new(r, c);
            g.apply(s.apply(x, n), n) == s.apply(g.apply(x, n), n)
        })
    })
}

/// Counts the solutions of `instance` (restricted to `options.symmetric`-invariant boards when
/// set) on `jobs` threads, each cube counted by `conquer`. `group` lists symmetries of the instance used to count symmetric
/// cubes once (pass `&[]` to count every cube). `progress(done, total)` is called after each
/// cube.
pub fn count(
    instance: &Instance,
    piece: Piece,
    options: EncodeOptions,
    group: &[Symmetry],
    jobs: usize,
    conquer: Conquer,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<u64> {
    let jobs = jobs.max(1);
    let cubes = cube_classes(
        instance,
        cubes(instance, piece, cubes_per_job(options, conquer) * jobs)?,
        group,
        options,
    );
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let total = AtomicU64::new(0);
    let results: Vec<Result<()>> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..jobs)
            .map(|_| {
                s.spawn(|| -> Result<()> {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(cube) = cubes.get(i) else {
                            return Ok(());
                        };
                        if crate::interrupt::interrupted() {
                            return Err(crate::error::Error::Interrupted);
                        }
                        let (cube, weight) = cube;
                        let n = match conquer {
                            Conquer::Dpll => super::dpll::count_cube(cube, piece, options)?,
                            Conquer::Cdcl => count_cube(cube, piece, options)?,
                        };
                        total.fetch_add(weight * n, Ordering::Relaxed);
                        progress(done.fetch_add(1, Ordering::Relaxed) + 1, cubes.len());
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("count worker"))
            .collect()
    });
    results.into_iter().collect::<Result<Vec<()>>>()?;
    Ok(total.into_inner())
}
