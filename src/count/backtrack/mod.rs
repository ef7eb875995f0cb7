//! The independent counting engine: a bitboard backtracking search, one piece per row, that knows
//! nothing of CNF. Used to cross-check the SAT engine (`--engine backtrack`, `--cross-check`).

use crate::board::Cell;
use crate::count::fast::{self, Shape};
use crate::error::{Error, Result};
use crate::instance::Instance;
use crate::piece::{self, LineKind, Piece};
use crate::presolve::{Filter, Problem};
use crate::symmetry::Symmetry;

mod border;
use border::{Task, split};

/// Largest board the bitboard engine handles (one `u64` per row).
pub const MAX_N: u32 = 64;

/// Per-solution tallies: the solution count and, per group element, how many solutions it fixes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Solutions found.
    pub total: u64,
    /// `fixed[i]` counts the solutions that `group[i]` maps to themselves.
    pub fixed: Vec<u64>,
}

/// The row-by-row search: one piece per row, attacks as bit masks.
struct Search {
    n: usize,
    full: u64,
    /// Allowed columns per row (blocked cells and excluded diagonals removed; a row holding a
    /// pre-placed piece allows only that column).
    allowed: Vec<u64>,
    cols_attack: bool,
    diag_attack: bool,
    anti_attack: bool,
    /// Forward leaps (dr > 0).
    leaps: Vec<(usize, i64)>,
    cols: Vec<usize>,
}

impl Search {
    /// The number of ways to complete rows `r..n`, given the attacked columns and diagonals of
    /// row `r`.
    fn go(&mut self, r: usize, used_cols: u64, diag: u64, anti: u64) -> u64 {
        // Bit c of `diag` marks column c of this row on an attacked difference diagonal; `anti`
        // likewise for sum diagonals. They shift by one column per row.
        let mut free = self.allowed[r] & !used_cols & !diag & !anti & self.full;
        for &(dr, dc) in &self.leaps {
            if r >= dr {
                let q = self.cols[r - dr] as i64 + dc;
                if (0..self.n as i64).contains(&q) {
                    free &= !(1u64 << q);
                }
            }
        }
        if r + 1 == self.n {
            // The last row: every free cell completes a solution.
            return u64::from(free.count_ones());
        }
        if self.leaps.is_empty() && self.cols_attack && self.diag_attack && self.anti_attack {
            return queens(&self.allowed[r + 1..], free, used_cols, diag, anti);
        }
        let mut total = 0;
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            self.cols[r] = bit.trailing_zeros() as usize;
            let c = if self.cols_attack { bit } else { 0 };
            let d = if self.diag_attack { bit } else { 0 };
            let a = if self.anti_attack { bit } else { 0 };
            total += self.go(
                r + 1,
                used_cols | c,
                ((diag | d) << 1) & self.full,
                (anti | a) >> 1,
            );
        }
        total
    }
}

/// The queen's inner loop: tries each cell of `free` in the current row, then completes the
/// rows `allowed` (the rest of the board; the last one is counted by popcount). Bits shifted
/// past the board's edge are harmless: `allowed` masks them.
fn queens(allowed: &[u64], mut free: u64, cols: u64, diag: u64, anti: u64) -> u64 {
    let mut total = 0;
    let (row, rest) = allowed.split_first().expect("queens: a row below");
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        let (c, d, a) = (cols | bit, (diag | bit) << 1, (anti | bit) >> 1);
        let next = row & !(c | d | a);
        total += if rest.is_empty() {
            u64::from(next.count_ones())
        } else {
            queens(rest, next, c, d, a)
        };
    }
    total
}

/// Counts the solutions that every element of a group maps to themselves: each choice places a
/// whole orbit of the group, so the search only walks the symmetric boards.
struct Orbits<'a> {
    n: usize,
    allowed: &'a [u64],
    piece: &'a Piece,
    /// The column of each row's piece.
    row_col: Vec<Option<usize>>,
    cols: u64,
    diag: u128,
    anti: u128,
    /// Polled every 4096 nodes; once raised every open node returns at once.
    cancel: &'a crate::interrupt::Cancel,
    nodes: u64,
    stopped: bool,
}

impl<'a> Orbits<'a> {
    /// An empty board for `allowed`.
    fn new(allowed: &'a [u64], piece: &'a Piece, cancel: &'a crate::interrupt::Cancel) -> Self {
        let n = allowed.len();
        Orbits {
            n,
            allowed,
            piece,
            row_col: vec![None; n],
            cols: 0,
            diag: 0,
            anti: 0,
            cancel,
            nodes: 0,
            stopped: false,
        }
    }

    fn free(&self, r: usize, c: usize) -> bool {
        let n = self.n;
        if self.row_col[r].is_some() || self.allowed[r] >> c & 1 == 0 {
            return false;
        }
        for &kind in self.piece.lines {
            let hit = match kind {
                LineKind::Row => false, // the row is empty (checked above)
                LineKind::Column => self.cols >> c & 1 == 1,
                LineKind::Diagonal => self.diag >> (r + n - 1 - c) & 1 == 1,
                LineKind::AntiDiagonal => self.anti >> (r + c) & 1 == 1,
            };
            if hit {
                return false;
            }
        }
        self.piece.leaps.iter().all(|&(dr, dc)| {
            let (r2, c2) = (r as i64 + dr as i64, c as i64 + dc as i64);
            !(0..n as i64).contains(&r2) || self.row_col[r2 as usize].is_none_or(|q| q as i64 != c2)
        })
    }

    fn toggle(&mut self, r: usize, c: usize, on: bool) {
        let n = self.n;
        self.row_col[r] = on.then_some(c);
        self.cols ^= 1 << c;
        self.diag ^= 1 << (r + n - 1 - c);
        self.anti ^= 1 << (r + c);
    }

    /// Places the orbit of `(r, c)` under `group` when every cell of it is free: the cells
    /// placed (removed again by [`Self::lift`]), or `None` with the board unchanged.
    fn place(&mut self, group: &[Symmetry], r: usize, c: usize) -> Option<Vec<(usize, usize)>> {
        let n = self.n as u32;
        let start = Cell::new(r as u32, c as u32);
        let mut placed: Vec<(usize, usize)> = Vec::with_capacity(group.len());
        for g in group {
            let image = g.apply(start, n);
            let cell = (image.row as usize, image.col as usize);
            if placed.contains(&cell) {
                continue;
            }
            if !self.free(cell.0, cell.1) {
                self.lift(&placed);
                return None;
            }
            self.toggle(cell.0, cell.1, true);
            placed.push(cell);
        }
        Some(placed)
    }

    /// Removes the pieces on `cells`.
    fn lift(&mut self, cells: &[(usize, usize)]) {
        for &(r, c) in cells {
            self.toggle(r, c, false);
        }
    }

    /// The boards that every element of `group` (a subgroup of D4) maps to themselves,
    /// completing rows `r..`.
    fn go(&mut self, group: &[Symmetry], r: usize) -> u64 {
        let n = self.n;
        self.nodes += 1;
        if self.stopped || (self.nodes & 0xFFF == 0 && self.cancel.is_cancelled()) {
            self.stopped = true;
            return 0;
        }
        let Some(r) = (r..n).find(|&r| self.row_col[r].is_none()) else {
            return 1;
        };
        let mut total = 0;
        for c in 0..n {
            if let Some(placed) = self.place(group, r, c) {
                total += self.go(group, r + 1);
                self.lift(&placed);
            }
        }
        total
    }

    /// The open nodes of [`Self::go`] from row `r`, `depth` orbit choices down (or where the
    /// board fills first), pushed to `out` with the cells placed on the way (`path` before
    /// them): `go` from each of them, summed, is `go` from here.
    fn prefixes(
        &mut self,
        group: &[Symmetry],
        r: usize,
        depth: usize,
        path: &mut Vec<(usize, usize)>,
        out: &mut Vec<Prefix>,
    ) {
        let n = self.n;
        match (r..n).find(|&r| self.row_col[r].is_none()) {
            Some(r) if depth > 0 => {
                for c in 0..n {
                    if let Some(placed) = self.place(group, r, c) {
                        let len = path.len();
                        path.extend_from_slice(&placed);
                        self.prefixes(group, r + 1, depth - 1, path, out);
                        path.truncate(len);
                        self.lift(&placed);
                    }
                }
            }
            next => out.push(Prefix {
                cells: path.clone(),
                row: next.unwrap_or(n),
            }),
        }
    }

    /// [`Self::go`] below the open node `p` of [`Self::prefixes`] (on an empty board).
    fn below(&mut self, group: &[Symmetry], p: &Prefix) -> u64 {
        for &(r, c) in &p.cells {
            self.toggle(r, c, true);
        }
        let count = self.go(group, p.row);
        self.lift(&p.cells);
        count
    }
}

/// An open node of the orbit search ([`Orbits::prefixes`]): the pieces placed, and the row the
/// search goes on from.
struct Prefix {
    cells: Vec<(usize, usize)>,
    row: usize,
}

/// The allowed columns per row: blocked cells and excluded diagonals removed, a row holding a
/// pre-placed piece reduced to that column, and every cell a pre-placed piece attacks removed
/// (so the search prunes at once, not when it reaches the piece's row). The live cells are
/// presolve's ([`Problem::presolve_with`] without the matching filter, so the masks are the
/// cells no pre-placed piece attacks, as before); when presolve refutes the instance (pre-placed
/// pieces that attack each other or stand on a blocked cell, a line left without a cell) every
/// row is empty and every count 0. The piece is validated ([`supports`]: symmetric leaps), so
/// presolve's leaps from a pre-placed piece are its attacks.
pub(crate) fn allowed_cells(instance: &Instance, piece: &Piece) -> Result<Vec<u64>> {
    let nn = instance.n as usize;
    let problem = Problem::presolve_with(instance, *piece, Filter::None)?;
    let mut allowed = vec![0u64; nn];
    if problem.unsat.is_some() {
        return Ok(allowed);
    }
    for (cell, _) in problem.varmap.cells() {
        allowed[cell.row as usize] |= 1u64 << cell.col;
    }
    for p in &problem.fixed {
        allowed[p.row as usize] = 1u64 << p.col;
    }
    Ok(allowed)
}

#[cfg(any(feature = "harness", feature = "oracle"))] // the cluster jobs and the benchmarks
/// Counts only the solutions of `instance` that `g` maps to themselves, by the orbit search
/// (placing whole orbits of `<g>` at a time); the cluster jobs' fixed-point tasks. Checks
/// `cancel` once at the start.
///
/// ```
/// use queens_sat::{count::backtrack::fixed_points, instance::Instance, piece::QUEEN, symmetry::Symmetry};
/// assert_eq!(fixed_points(&Instance::plain(8), QUEEN, Symmetry::R180).unwrap(), 4);
/// ```
pub fn fixed_points(instance: &Instance, piece: Piece, g: Symmetry) -> Result<u64> {
    fixed_by(
        instance,
        piece,
        &crate::symmetry::generated(&[g]),
        &crate::interrupt::Cancel::new(),
    )
}

/// Counts the solutions of `instance` that every element of `group` (a subgroup of D4, see
/// [`crate::symmetry::generated`]) maps to themselves, by the orbit search (placing whole
/// orbits of the group at a time); stopped (with [`Error::Interrupted`]) once `cancel` is
/// raised. The trivial group gives every solution, through [`count_with`] on one thread.
///
/// ```
/// use queens_sat::{count::backtrack::fixed_by, instance::Instance, interrupt::Cancel, piece::QUEEN};
/// use queens_sat::symmetry::{generated, Symmetry};
/// let r90 = generated(&[Symmetry::R90]);
/// assert_eq!(fixed_by(&Instance::plain(12), QUEEN, &r90, &Cancel::new()).unwrap(), 8);
/// ```
pub fn fixed_by(
    instance: &Instance,
    piece: Piece,
    group: &[Symmetry],
    cancel: &crate::interrupt::Cancel,
) -> Result<u64> {
    if group.iter().all(|&g| g == Symmetry::Id) {
        return Ok(count_with(instance, piece, &[], 1, cancel)?.total);
    }
    let n = instance.n;
    if n > MAX_N {
        return Err(crate::error::BadOption::invalid(
            crate::error::Opt::Engine,
            "backtrack",
            format!("handles n <= {MAX_N}, not {n}"),
        ));
    }
    supports(&piece)?;
    let allowed = allowed_cells(instance, &piece)?;
    let count = Orbits::new(&allowed, &piece, cancel).go(group, 0);
    cancel.check()?;
    Ok(count)
}

/// Whether the bitboard search models `piece`, or why not: it places one piece per row, so the
/// piece must attack along rows, with leaps that change row (a leap within a row is not a row
/// attack), and [`Piece::validate`] must hold. Every [`LineKind`] is modelled (row, column and
/// both diagonals as bit masks).
///
/// ```
/// use queens_sat::{count::backtrack::supports, piece::{LineKind, Piece, AMAZON}};
/// assert!(supports(&AMAZON).is_ok());
/// let no_rows = Piece { name: "no-rows", lines: &[LineKind::Column], leaps: &[] };
/// assert!(supports(&no_rows).is_err());
/// ```
pub fn supports(piece: &Piece) -> Result<()> {
    piece.validate().map_err(Error::Usage)?;
    // Every kind named: a new one must be placed here (and modelled in `Orbits::free` and
    // `count`'s masks, whose matches name every kind too).
    let rows = piece.lines.iter().any(|&kind| match kind {
        LineKind::Row => true,
        LineKind::Column | LineKind::Diagonal | LineKind::AntiDiagonal => false,
    });
    if !rows {
        return Err(Error::Usage(format!(
            "the backtrack engine needs a piece that attacks along rows ({} does not)",
            piece.name
        )));
    }
    if piece.leaps.iter().any(|&(dr, _)| dr == 0) {
        return Err(Error::Usage(format!(
            "the backtrack engine needs leaps that change row ({} has one that does not)",
            piece.name
        )));
    }
    Ok(())
}

#[cfg(feature = "oracle")] // a test entry point
/// Counts the solutions of `instance` for `piece` by backtracking, with the fixed-point count of
/// every element of `group`. Splits the first row's choices over `jobs` threads.
///
/// ```
/// use queens_sat::{count::backtrack::count, instance::Instance, piece::QUEEN, symmetry::Symmetry};
/// let t = count(&Instance::plain(8), QUEEN, &Symmetry::ALL, 1).unwrap();
/// assert_eq!(t.total, 92);
/// assert_eq!(t.fixed[2], 4); // r180
/// ```
pub fn count(instance: &Instance, piece: Piece, group: &[Symmetry], jobs: usize) -> Result<Tally> {
    count_with(
        instance,
        piece,
        group,
        jobs,
        &crate::interrupt::Cancel::new(),
    )
}

/// [`count`], stopped between tasks (with [`Error::Interrupted`]) once `cancel` is raised.
/// Queens and amazons go through the specialised search ([`count_fast`]), other pieces through
/// the general row-by-row search ([`count_general`]); both give the same tally.
pub fn count_with(
    instance: &Instance,
    piece: Piece,
    group: &[Symmetry],
    jobs: usize,
    cancel: &crate::interrupt::Cancel,
) -> Result<Tally> {
    count_reporting(instance, piece, group, jobs, &|_, _| {}, cancel)
}

/// [`count_with`], calling `progress(done, total)` as its tasks (the border split's orbits)
/// finish.
pub fn count_reporting(
    instance: &Instance,
    piece: Piece,
    group: &[Symmetry],
    jobs: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
    cancel: &crate::interrupt::Cancel,
) -> Result<Tally> {
    let shape = Shape::of(&piece);
    count_impl(instance, piece, group, jobs, progress, cancel, shape)
}

#[cfg(any(feature = "harness", feature = "oracle"))] // the cluster jobs and the benchmarks
/// [`count_with`] through the specialised search of [`super::fast`] (the tasks' pre-placed
/// rows dropped, an iterative bitwise search), which models queens and amazons on any
/// instance (pre-placed pieces, blocked cells, excluded diagonals). Refuses other pieces with
/// a usage error; [`count_general`] counts them.
///
/// ```
/// use queens_sat::{count::backtrack::count_fast, instance::Instance, interrupt::Cancel};
/// use queens_sat::{piece::{LineKind, Piece, QUEEN}, symmetry::Symmetry};
/// let t = count_fast(&Instance::plain(8), QUEEN, &Symmetry::ALL, 1, &Cancel::new()).unwrap();
/// assert_eq!(t.total, 92);
/// let rook = Piece { name: "rook", lines: &[LineKind::Row, LineKind::Column], leaps: &[] };
/// assert!(count_fast(&Instance::plain(4), rook, &[Symmetry::Id], 1, &Cancel::new()).is_err());
/// ```
pub fn count_fast(
    instance: &Instance,
    piece: Piece,
    group: &[Symmetry],
    jobs: usize,
    cancel: &crate::interrupt::Cancel,
) -> Result<Tally> {
    let Some(shape) = Shape::of(&piece) else {
        return Err(Error::Usage(format!(
            "the specialised backtrack search models queens and amazons (all four lines, no leaps \
             or the eight knight leaps), not {}; the general search counts it",
            piece.name
        )));
    };
    count_impl(
        instance,
        piece,
        group,
        jobs,
        &|_, _| {},
        cancel,
        Some(shape),
    )
}

#[cfg(any(feature = "harness", feature = "oracle"))] // the cluster jobs and the benchmarks
/// [`count_with`] through the general row-by-row search (any piece [`supports`] accepts); the
/// reference the specialised search is tested against.
pub fn count_general(
    instance: &Instance,
    piece: Piece,
    group: &[Symmetry],
    jobs: usize,
    cancel: &crate::interrupt::Cancel,
) -> Result<Tally> {
    count_impl(instance, piece, group, jobs, &|_, _| {}, cancel, None)
}

/// How many free rows [`fast::estimate`] looks at to pick the cheapest image of a task, by
/// callgrind on n = 14-16: each image costs a few microseconds, the pick saves 11 % of the
/// queens' search at n = 15 (depth 3; 15 % at depth 4) and of the amazons' at n = 15, which only
/// pays once the tasks are big enough. Since the estimate runs the specialised search itself,
/// queens n = 16 takes 9.28 G instructions in all at depth 4 (depth 5: 9.35 G, 6: 10.61 G;
/// depth 3 leaves 0.4 G more to the search than depth 4) and n = 15 1.63 G (depth 3: 1.65 G).
/// From queens n = 17 depth 5 pays (issue 35): 66.78 G instructions in all against 68.07 G at
/// depth 4 and 68.17 G at depth 6; amazons n = 18 gained nothing from it (3.71 s against 3.69 s).
fn estimate_depth(shape: Shape, n: u32) -> usize {
    match (shape, n) {
        (Shape::Queen, 17..) => 5,
        (_, 16..) | (Shape::Queen, 15) => 4,
        (Shape::Queen, 14) => 3,
        _ => 0,
    }
}

/// How many orbit choices down the fixed-point search under one symmetry is split into queue
/// items ([`Orbits::prefixes`]). Whole, the half-turn search was the largest item of queens
/// n = 16..18 and bounded the makespan of many threads (issue 55 §2: 0.35 s of 44 s at n = 18,
/// 43 % efficiency on 256 simulated threads). Three choices down makes about 1,500 items at
/// queens n = 16, the longest shorter than the longest task (two left one of 0.02 s, 16 % of the
/// half-turn search, where the longest task took 0.013 s).
const FIXED_SPLIT_DEPTH: usize = 3;

/// An item of the backtrack count's queue: part of the fixed points under one symmetry (the
/// orbit search below one open node, under the group the symmetry generates), or a task.
enum Work<'a> {
    Fixed(Symmetry, &'a [Symmetry], &'a Prefix),
    /// A part of a rotation's fixed points, counted from the rotation's orbits.
    Rotation(
        Symmetry,
        &'a super::orbits::Problem,
        &'a super::orbits::Part,
    ),
    Task(&'a Task),
}

fn count_impl(
    instance: &Instance,
    piece: Piece,
    group: &[Symmetry],
    jobs: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
    cancel: &crate::interrupt::Cancel,
    shape: Option<Shape>,
) -> Result<Tally> {
    let n = instance.n;
    if n > MAX_N {
        return Err(crate::error::BadOption::invalid(
            crate::error::Opt::Engine,
            "backtrack",
            format!("handles n <= {MAX_N}, not {n}"),
        ));
    }
    supports(&piece)?;
    let nn = n as usize;
    let full = piece::full(nn);
    let allowed = allowed_cells(instance, &piece)?;
    let leaps: Vec<(usize, i64)> = piece
        .forward_leaps()
        .filter(|&(dr, _)| dr > 0)
        .map(|(dr, dc)| (dr as usize, dc as i64))
        .collect();
    let (mut cols_attack, mut diag_attack, mut anti_attack) = (false, false, false);
    for &kind in piece.lines {
        // No wildcard: a new line kind must be modelled here, or rejected in `supports`.
        match kind {
            LineKind::Row => {} // one piece per row is the search itself
            LineKind::Column => cols_attack = true,
            // A difference diagonal (r - c constant) moves one column right per row: shift left.
            LineKind::Diagonal => diag_attack = true,
            LineKind::AntiDiagonal => anti_attack = true,
        }
    }
    let mk = |allowed: Vec<u64>| Search {
        n: nn,
        full,
        allowed,
        cols_attack,
        diag_attack,
        anti_attack,
        leaps: leaps.clone(),
        cols: vec![0; nn],
    };
    let tasks = split(instance, &piece, &allowed, cancel)?;
    // The fixed points under each symmetry are items of the same queue, first (so they
    // overlap the tasks): after the tasks, on one thread, they were the serial part that
    // capped many-core runs (issue 55 §2: queens n = 18 on 16 simulated threads, 83 %
    // efficiency with 0.54 s of 41 s serial). Each search is split into the open nodes a few
    // orbit choices down ([`FIXED_SPLIT_DEPTH`]), so that no one of them bounds the makespan.
    // A rotation's fixed points come from its orbits where that engine applies (queens and
    // amazons, no blocked cells or excluded diagonals): they are parts of their own.
    // Two elements that generate the same group (r90 and r270) fix the same boards: the later
    // one takes the earlier one's count (`same`) instead of counting them again.
    let mut same: Vec<(Symmetry, Symmetry)> = Vec::new();
    for (i, &g) in group.iter().enumerate() {
        let generated = crate::symmetry::generated(&[g]);
        if let Some(&first) = group[..i]
            .iter()
            .find(|&&h| h != Symmetry::Id && crate::symmetry::generated(&[h]) == generated)
        {
            same.push((g, first));
        }
    }
    let mut rotations: Vec<(Symmetry, super::orbits::Problem, Vec<super::orbits::Part>)> =
        Vec::new();
    for &g in group {
        if !matches!(g, Symmetry::R90 | Symmetry::R180 | Symmetry::R270)
            || same.iter().any(|(s, _)| *s == g)
        {
            continue;
        }
        let generated = crate::symmetry::generated(&[g]);
        if let Ok(Some(p)) = super::orbits::Problem::of(instance, &piece, &generated) {
            let parts = super::orbits::split(&p, jobs, cancel)?;
            rotations.push((g, p, parts));
        }
    }
    let counted_as = |g: Symmetry| same.iter().find(|(s, _)| *s == g).map_or(g, |&(_, r)| r);
    let fixed_parts: Vec<(Symmetry, Vec<Symmetry>, Vec<Prefix>)> = group
        .iter()
        .filter(|&&g| {
            g != Symmetry::Id
                && rotations.iter().all(|(r, _, _)| *r != g)
                && same.iter().all(|(s, _)| *s != g)
        })
        .map(|&g| {
            let orbits = crate::symmetry::generated(&[g]);
            let mut prefixes = Vec::new();
            Orbits::new(&allowed, &piece, cancel).prefixes(
                &orbits,
                0,
                FIXED_SPLIT_DEPTH,
                &mut Vec::new(),
                &mut prefixes,
            );
            (g, orbits, prefixes)
        })
        .collect();
    let work: Vec<Work<'_>> =
        fixed_parts
            .iter()
            .flat_map(|(g, orbits, prefixes)| {
                prefixes
                    .iter()
                    .map(move |p| Work::Fixed(*g, orbits.as_slice(), p))
            })
            .chain(rotations.iter().flat_map(|(g, p, parts)| {
                parts.iter().map(move |part| Work::Rotation(*g, p, part))
            }))
            .chain(tasks.iter().map(Work::Task))
            .collect();
    let parts = crate::work::run_all(&work, jobs.max(1), cancel, progress, |w| {
        let task = match w {
            Work::Fixed(g, orbits, prefix) => {
                return Ok((
                    Some(*g),
                    Orbits::new(&allowed, &piece, cancel).below(orbits, prefix),
                ));
            }
            Work::Rotation(g, p, part) => {
                let c =
                    super::orbits::count_part(p, part, super::orbits::Formulation::Pairs, cancel)?;
                let c = u64::try_from(c)
                    .map_err(|_| Error::TooLarge(format!("{c} {g}-symmetric boards: past u64")))?;
                return Ok((Some(*g), c));
            }
            Work::Task(task) => task,
        };
        let count = match shape {
            Some(shape) => {
                // Rows holding a task cell or a pre-placed piece: their attacks are out of `a`.
                let prepare = |t: &Task| {
                    let a = t.allowed(&allowed, &piece);
                    let mut fixed = vec![false; nn];
                    for c in t.cells.iter().chain(&instance.placed) {
                        fixed[c.row as usize] = true;
                    }
                    (a, fixed)
                };
                let mut best = prepare(task);
                let depth = estimate_depth(shape, n);
                if depth > 0 && task.images.len() > 1 {
                    let mut best_est = u64::MAX;
                    for img in &task.images {
                        let t = Task {
                            cells: img.clone(),
                            images: Vec::new(),
                            clear: task.clear,
                            weight: 1,
                        };
                        let (a, fixed) = prepare(&t);
                        let e = fast::estimate(&a, &fixed, depth, best_est);
                        if e < best_est {
                            best_est = e;
                            best = (a, fixed);
                        }
                    }
                }
                // A time limit raises `cancel` too (the count's watch), so no clock is read here.
                let stop = || cancel.is_cancelled();
                match fast::count_rows_until(&best.0, &best.1, shape, &stop) {
                    Some(count) => count,
                    None => return Err(Error::Interrupted),
                }
            }
            None => mk(task.allowed(&allowed, &piece)).go(0, 0, 0, 0),
        };
        Ok((None, task.weight * count))
    })?;
    let total: u64 = parts
        .iter()
        .filter(|(g, _)| g.is_none())
        .map(|(_, c)| c)
        .sum();
    let fixed = group
        .iter()
        .map(|&g| match g {
            Symmetry::Id => total,
            g => parts
                .iter()
                .filter(|(h, _)| *h == Some(counted_as(g)))
                .map(|(_, c)| c)
                .sum(),
        })
        .collect();
    cancel.check()?;
    let tally = Tally { total, fixed };
    Ok(tally)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interrupt::Cancel;
    use crate::piece::{AMAZON, QUEEN};

    /// The border split as first written (sorted `Vec`s, every image built before the orbit's
    /// least border is picked): cells, images and weight of each task, in order.
    fn borders_reference(inst: &Instance, piece: &Piece, allowed: &[u64]) -> Vec<TaskKey> {
        let n = inst.n;
        let m = n - 1;
        let group = crate::symmetry::stabiliser(inst, piece);
        let bit = |r: u32, c: u32| allowed[r as usize] >> c & 1 == 1;
        let mut out = Vec::new();
        for a in (0..n).filter(|&a| bit(0, a)) {
            for b in (0..n).filter(|&b| bit(m, b)) {
                for c in (0..n).filter(|&c| bit(c, 0)) {
                    for d in (0..n).filter(|&d| bit(d, m)) {
                        if (a == 0) != (c == 0)
                            || (a == m) != (d == 0)
                            || (b == 0) != (c == m)
                            || (b == m) != (d == m)
                        {
                            continue;
                        }
                        let mut cells = vec![
                            Cell::new(0, a),
                            Cell::new(m, b),
                            Cell::new(c, 0),
                            Cell::new(d, m),
                        ];
                        cells.sort_unstable();
                        cells.dedup();
                        let clash = cells.iter().enumerate().any(|(i, &x)| {
                            cells[..i].iter().any(|&y| {
                                x.row == y.row || x.col == y.col || piece.attack(x, y, n).is_some()
                            })
                        });
                        if clash {
                            continue;
                        }
                        let mut images: Vec<Vec<Cell>> = group
                            .iter()
                            .map(|g| {
                                let mut img: Vec<Cell> =
                                    cells.iter().map(|&x| g.apply(x, n)).collect();
                                img.sort_unstable();
                                img
                            })
                            .collect();
                        if images.iter().any(|img| *img < cells) {
                            continue;
                        }
                        images.sort_unstable();
                        images.dedup();
                        let key = |img: &Vec<Cell>| {
                            let side = || img.iter().filter(|c| c.row != 0 && c.row != m);
                            let lowest = side().map(|c| c.row).min().unwrap_or(0);
                            let sum: u32 = side().map(|c| c.row).sum();
                            std::cmp::Reverse((lowest, sum))
                        };
                        images.sort_by_key(|img| key(img));
                        out.push((images[0].clone(), images.clone(), images.len() as u64));
                    }
                }
            }
        }
        out
    }

    type TaskKey = (Vec<Cell>, Vec<Vec<Cell>>, u64);

    /// The border split (no allocation per border, pruned as the pieces are chosen) makes the
    /// same tasks in the same order as the first version, on plain boards and on boards with
    /// blocked cells (symmetric ones, whose stabiliser is more than the identity, and others),
    /// pre-placed pieces and excluded diagonals, for queens, amazons and a leaper-free rook.
    #[test]
    fn border_split_makes_the_reference_tasks() {
        use crate::instance::ExcludedDiagonal;
        use crate::piece::LineKind;
        let rook = Piece {
            name: "rook",
            lines: &[LineKind::Row, LineKind::Column],
            leaps: &[],
        };
        let mut rng = crate::prng::Prng::new(55);
        let mut checked = 0;
        for i in 0..300u32 {
            let n = 4 + (i % 9);
            let mut inst = Instance::plain(n);
            if i >= 27 {
                for _ in 0..rng.below(2 * n as usize) {
                    let c = Cell::new(rng.below(n as usize) as u32, rng.below(n as usize) as u32);
                    inst.blocked.push(c);
                    if i % 3 == 0 {
                        inst.blocked.push(Symmetry::R180.apply(c, n));
                    }
                    if i % 6 == 0 {
                        inst.blocked.push(Symmetry::R90.apply(c, n));
                        inst.blocked.push(Symmetry::R270.apply(c, n));
                    }
                }
                if i % 7 == 0 {
                    inst.placed
                        .push(Cell::new(rng.below(n as usize) as u32, n / 2));
                }
                if i % 11 == 0 {
                    inst.excluded.push(ExcludedDiagonal {
                        kind: LineKind::AntiDiagonal,
                        key: rng.below(2 * n as usize - 1) as u32,
                    });
                }
                inst.blocked.sort_unstable();
                inst.blocked.dedup();
                inst.blocked.retain(|b| !inst.placed.contains(b));
            }
            let piece = [QUEEN, AMAZON, rook][i as usize % 3];
            let Ok(allowed) = allowed_cells(&inst, &piece) else {
                continue;
            };
            let tasks: Vec<TaskKey> = split(&inst, &piece, &allowed, &Cancel::new())
                .unwrap()
                .into_iter()
                .map(|t| (t.cells, t.images, t.weight))
                .collect();
            let want = borders_reference(&inst, &piece, &allowed);
            assert_eq!(tasks, want, "{} {inst:?}", piece.name);
            checked += usize::from(!want.is_empty());
        }
        assert!(checked > 100, "too few instances with tasks: {checked}");
    }

    /// The orbit search below the open nodes of [`Orbits::prefixes`], summed, is the whole
    /// search, at every depth (0 = one node, the empty board; past the board's last row the
    /// complete boards are open nodes of their own), for every element, queens and amazons.
    #[test]
    fn orbit_search_below_the_prefixes_adds_up_to_the_whole() {
        let cancel = Cancel::new();
        for piece in [QUEEN, AMAZON] {
            for n in 1..=11 {
                let allowed = vec![piece::full(n as usize); n as usize];
                for g in Symmetry::ALL {
                    let group = crate::symmetry::generated(&[g]);
                    let whole = Orbits::new(&allowed, &piece, &cancel).go(&group, 0);
                    for depth in 0..=n as usize + 1 {
                        let mut prefixes = Vec::new();
                        let mut orbits = Orbits::new(&allowed, &piece, &cancel);
                        orbits.prefixes(&group, 0, depth, &mut Vec::new(), &mut prefixes);
                        assert_eq!(orbits.cols, 0, "the board is left empty");
                        let split: u64 = prefixes
                            .iter()
                            .map(|p| Orbits::new(&allowed, &piece, &cancel).below(&group, p))
                            .sum();
                        assert_eq!(split, whole, "{} n={n} {g} depth {depth}", piece.name);
                    }
                }
            }
        }
    }
}
