//! Cubes: the split of an instance into completion instances that partition its solutions,
//! shared by `count` (border-first split, symmetric cubes counted once) and by the cube-and-conquer
//! solver (look-ahead split, [`lookahead`]).
//!
//! A cube is a completion [`Instance`]: the parent's pieces plus one more piece per split line, so
//! presolve shrinks it to its live cells. The children of a line (one per live cell of that row or
//! column) are pairwise disjoint and, since every solution places exactly one piece on the line,
//! cover the parent's solutions.

// The front ends' vocabulary (feature `front`): without it, what only they use is unused.
#![cfg_attr(not(feature = "front"), allow(dead_code))]

use std::collections::HashMap;

use crate::board::Cell;
use crate::error::{Error, Result};
use crate::instance::Instance;
use crate::piece::Piece;
use crate::presolve::{Problem, filter};
use crate::symmetry::Symmetry;

/// One cube: a completion instance and how many symmetric cubes it stands for (its count is
/// multiplied by `weight`; 1 when cubes are not merged by symmetry).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cube {
    /// The cube as a completion instance (the parent's pieces plus the cube's).
    pub instance: Instance,
    /// Number of cubes in this cube's symmetry class (counting weight).
    pub weight: u64,
}

/// Splits `instance` into cubes: completion instances that place one more piece per level on a
/// free row or column, until there are at least `target` cubes or half of the free rows carry a
/// cube piece (the other half is always left to the solver). A cube that presolve proves empty
/// is dropped when the next level is built from it (cubes of the last level are not presolved
/// here, so some may be empty); the cubes partition the solutions.
///
/// Lines are taken from the border inwards and in symmetric order (row 0, last row, column 0,
/// last column, row 1, ...), so that every symmetry of the square maps the set of branched lines
/// onto itself and symmetric cubes can be counted once (see [`classes`]).
pub fn cubes(
    instance: &Instance,
    piece: Piece,
    target: usize,
    cancel: &crate::interrupt::Cancel,
) -> Result<Vec<Instance>> {
    split_lines(instance, piece, target, None, cancel)
}

/// The most cubes a ring of [`cubes_in_rings`] may make (or 16 times the target, if more): a ring
/// that would make more is not branched, and the cubes of the rings before it are returned.
/// (`split count -n 16 --tasks 400` aimed at 25,600 cubes, more than the first ring's; the
/// second ring's would have been hundreds of millions.)
pub const MAX_RING_CUBES: usize = 1 << 20;

/// [`cubes`], but only stopping after whole rings of four lines (row 0, last row, column 0,
/// last column, then row 1, ...), so that the branched lines are mapped onto themselves by every
/// symmetry of the square and [`classes`] merges up to eight cubes into one (the cluster jobs'
/// split: a partial ring keeps only the symmetries that fix it, and measured 3x the search on
/// 17-queens).
pub fn cubes_in_rings(
    instance: &Instance,
    piece: Piece,
    target: usize,
    cancel: &crate::interrupt::Cancel,
) -> Result<Vec<Instance>> {
    let cap = target.saturating_mul(16).max(MAX_RING_CUBES);
    split_lines(instance, piece, target, Some(cap), cancel)
}

/// Branches line by line until `target` cubes; `rings`: whole rings only, a ring that would make
/// more than that many cubes is not branched.
fn split_lines(
    instance: &Instance,
    piece: Piece,
    target: usize,
    rings: Option<usize>,
    cancel: &crate::interrupt::Cancel,
) -> Result<Vec<Instance>> {
    let (cap, rings) = (rings.unwrap_or(usize::MAX), rings.is_some());
    piece
        .rows_and_columns("the cube split")
        .map_err(Error::Usage)?; // cubes branch on rows and columns
    let n = instance.n;
    let base = instance.placed.len();
    let max_depth = {
        let held: std::collections::HashSet<u32> = instance.placed.iter().map(|c| c.row).collect();
        (n as usize - held.len()) / 2
    };
    let mut level = vec![instance.clone()];
    let mut depth = 0;
    // Rings: the level at the start of the ring being branched, kept in case the ring grows past
    // the cap (a ring multiplies the cubes by up to four line lengths at once).
    let mut ring_start: Option<Vec<Instance>> = None;
    // Rings from the border inwards: row k, row n-1-k, column k, column n-1-k.
    let ring_order: Vec<(bool, u32)> = (0..n.div_ceil(2))
        .flat_map(|k| {
            let far = n - 1 - k;
            if far == k {
                vec![(true, k), (false, k)] // the middle lines of an odd board
            } else {
                vec![(true, k), (true, far), (false, k), (false, far)]
            }
        })
        .collect();
    loop {
        if level.len() >= target && (!rings || depth % 4 == 0) {
            return Ok(level);
        }
        if rings && depth % 4 == 0 {
            ring_start = Some(level.clone());
        }
        depth += 1;
        let mut next = Vec::new();
        let mut expanded = false;
        for inst in level {
            cancel.check()?;
            if rings && next.len() > cap {
                // This ring would make too many cubes: stop at the last whole ring.
                return Ok(ring_start.take().unwrap_or_default());
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
            // Rings: the same line for every cube of a level, so that every symmetry maps the
            // set of branched lines onto itself; a line a piece already holds is passed over.
            if rings {
                let line = ring_order
                    .get(depth - 1)
                    .copied()
                    .filter(|_| inst.placed.len() - base < max_depth);
                match line {
                    Some((is_row, i)) => {
                        expanded = true;
                        let cells: Vec<Cell> = map
                            .cells()
                            .map(|(c, _)| c)
                            .filter(|c| if is_row { c.row == i } else { c.col == i })
                            .collect();
                        for &cell in &cells {
                            let mut child = inst.clone();
                            child.placed.push(cell);
                            next.push(child);
                        }
                        if cells.is_empty() {
                            next.push(inst); // held by a piece (presolve refutes an empty line)
                        }
                    }
                    None => next.push(inst),
                }
                continue;
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

/// Groups cubes into classes of cubes with equal counts: a symmetry `g` of the instance (and of
/// `symmetric`, when set, so that it maps g-invariant solutions to invariant ones) maps the
/// solutions through cube A's pieces bijectively onto those through `g(A)`. Returns one
/// representative per class with the class size.
pub fn classes(
    instance: &Instance,
    cubes: Vec<Instance>,
    group: &[Symmetry],
    symmetric: Option<Symmetry>,
) -> Vec<Cube> {
    let n = instance.n;
    // The identity is always usable: with it alone every cube is its own class.
    let usable: Vec<Symmetry> = std::iter::once(Symmetry::Id)
        .chain(group.iter().copied())
        .filter(|&g| symmetric.is_none_or(|s| commutes(g, s, n)))
        .collect();
    let base = instance.placed.len();
    let mut classes: HashMap<Vec<Cell>, Cube> = HashMap::new();
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
            Some(entry) => entry.weight += 1,
            None => {
                order.push(key.clone());
                classes.insert(
                    key,
                    Cube {
                        instance: cube,
                        weight: 1,
                    },
                );
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

/// How [`lookahead`] splits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Split {
    /// Stop splitting once there are this many cubes. The default, 64, was measured on 128
    /// instances of the tail set (`bench hard --tail --sample 128 --seeds 13`, `solve` with no
    /// flags, 2 cores): median / p90 / sum 1.16 / 4.58 / 244 s with 256 cubes, 0.72 / 3.47 /
    /// 204 s with 64, 0.66 / 3.54 / 208 s with 32 (one more timeout), 0.65 / 3.39 / 211 s with
    /// 16. Fewer cubes mostly help satisfiable instances, where every refuted cube before the
    /// satisfiable one is wasted work.
    pub max_cubes: usize,
    /// A cube with at most this many live cells is easy: it is not split further.
    pub easy_cells: u64,
    /// How many of the shortest lines (fewest live cells) each split looks ahead on.
    pub candidates: usize,
    /// Threads for the look-ahead (the candidate lines are shared out).
    pub jobs: usize,
    /// Stop (with [`crate::Error::Interrupted`]) once raised; once its deadline passes, the
    /// split ends with the cubes it has ([`crate::interrupt::Cancel::with_timeout`]).
    pub cancel: crate::interrupt::Cancel,
    /// Cube-and-conquer only (`crate::solve::cubes::solve`): once the cubes refuted so far took
    /// at least this many milliseconds each on average (two or more of them), every cube of the
    /// split that no worker has started yet is split again, by look-ahead, into up to
    /// [`Split::resplit_cubes`] cubes before it is solved (`None`: never).
    ///
    /// The default, 200 ms into 16, was measured on the whole 660-instance tail set (`bench hard
    /// --tail --amo auto --timeout 20`, 2 cores), one run each: without re-splitting 659 solved,
    /// median 0.41 s, p90 2.63, p99 11.28, 8 over 10 s, sum 744.6 s (20 s per unsolved); with it
    /// 660 solved, median 0.37, p90 2.35, p99 9.15, 6 over 10 s, sum 673.8. It fires on the hard
    /// UNSAT excluded-diagonal instances (n=21 d23-s4: 22.8 -> 17.0 s, d22-s5: 13.1 -> 10.7 s),
    /// where 1024 static cubes beat 64, and rarely on blocked n=56, where more cubes do not help
    /// (b56-s33: 64 cubes 7.9 s of conquer, 1024 cubes 9.5 s plus a 4.3 s split). Re-splitting
    /// a cube only after it ran out of a conflict budget (5,000 or 20,000) was no better than
    /// 64 cubes: every hard cube spent its budget first.
    pub resplit_after_ms: Option<u64>,
    /// How many cubes a re-split cube becomes (at most).
    pub resplit_cubes: usize,
}

impl Default for Split {
    fn default() -> Split {
        Split {
            max_cubes: 64,
            easy_cells: 60,
            candidates: 8,
            jobs: 1,
            cancel: crate::interrupt::Cancel::new(),
            resplit_after_ms: Some(200),
            resplit_cubes: 16,
        }
    }
}

/// What [`lookahead`] did besides returning the cubes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SplitStats {
    /// Look-ahead children (and the root) that presolve with the matching filter refuted, with
    /// no solver (over every candidate line, not only the chosen ones).
    pub refuted: u64,
    /// Presolves run by the look-ahead.
    pub presolves: u64,
}

/// The look-ahead on one line: its surviving children and the live cells they leave.
struct LineEval {
    children: Vec<Node>,
    left: u64,
    refuted: u64,
    presolves: u64,
}

/// A node's core, what presolve leaves of it: its free rows and columns (sorted) and each free
/// row's live columns (sorted, `cells[i]` for `rows[i]`). Its size is the core's, not the
/// board's: a completion board of n = 5,500 with 21 pieces to place has 21 rows.
#[derive(Clone, Debug)]
struct Core {
    rows: Vec<u32>,
    cols: Vec<u32>,
    cells: Vec<Vec<u32>>,
}

impl Core {
    /// The core of a presolved, satisfiable-so-far problem: its free rows are its rows with live
    /// cells (presolve refutes a free row without one), likewise its columns.
    fn of(problem: &Problem) -> Core {
        let mut rows = Vec::new();
        let mut cells = Vec::new();
        let mut cols = Vec::new();
        for r in 0..problem.n {
            let live: Vec<u32> = problem.varmap.row_cols(r).collect();
            if !live.is_empty() {
                cols.extend_from_slice(&live);
                rows.push(r);
                cells.push(live);
            }
        }
        cols.sort_unstable();
        cols.dedup();
        Core { rows, cols, cells }
    }

    /// Number of live cells.
    fn num_cells(&self) -> u64 {
        self.cells.iter().map(|c| c.len() as u64).sum()
    }

    /// The live rows (ascending) and then the live columns (ascending), each with its live
    /// cells in row-major order.
    fn lines(&self) -> Vec<Vec<Cell>> {
        let mut cols: Vec<Vec<Cell>> = vec![Vec::new(); self.cols.len()];
        let mut rows: Vec<Vec<Cell>> = Vec::with_capacity(self.rows.len());
        for (&r, live) in self.rows.iter().zip(&self.cells) {
            rows.push(live.iter().map(|&c| Cell::new(r, c)).collect());
            for &c in live {
                let j = self.cols.binary_search(&c).expect("a live column");
                cols[j].push(Cell::new(r, c));
            }
        }
        rows.into_iter()
            .chain(cols)
            .filter(|l| !l.is_empty())
            .collect()
    }

    /// The core of the child that places `piece` on `cell` (a live cell): presolve of the child
    /// instance, computed from this core in time proportional to it. `None` when presolve
    /// refutes the child. The same cells as [`Problem::presolve`] of the child instance: the
    /// all-different filter keeps the largest set of cells that its rules cannot remove, and
    /// every cell of the child's set lies in the parent's (the test
    /// `child_cores_are_the_presolved_children` checks it).
    fn child(&self, n: u32, piece: Piece, cell: Cell) -> Option<Core> {
        let attacks = |q: Cell| {
            piece.lines.iter().any(|k| k.key(q, n) == k.key(cell, n))
                || piece
                    .leaps
                    .iter()
                    .any(|&(dr, dc)| cell.offset(dr, dc, n) == Some(q))
        };
        let mut rows = Vec::with_capacity(self.rows.len());
        let mut cells = Vec::with_capacity(self.rows.len());
        for (&r, live) in self.rows.iter().zip(&self.cells) {
            if r != cell.row {
                rows.push(r);
                cells.push(
                    live.iter()
                        .copied()
                        .filter(|&c| !attacks(Cell::new(r, c)))
                        .collect::<Vec<u32>>(),
                );
            }
        }
        let cols: Vec<u32> = self
            .cols
            .iter()
            .copied()
            .filter(|&c| c != cell.col)
            .collect();
        filter::filter_core(n, piece, &mut cells, &rows, &cols).ok()?;
        Some(Core { rows, cols, cells })
    }
}

/// Whether `Core::child` gives what presolving the child instance gives on a core of `rows`
/// free rows: when the child's candidate cells stay within the all-different filter's size
/// limit ([`filter::ALLDIFF_MAX_CELLS`]), so that presolve runs the whole filter on it.
fn child_cores_exact(rows: usize) -> bool {
    let k = rows.saturating_sub(1) as u64;
    k * k <= filter::ALLDIFF_MAX_CELLS
}

/// Presolves every child of `parent` that places its piece on a cell of `line`: from the
/// parent's core where that is exact ([`child_cores_exact`]), else by presolving the child
/// instance.
fn eval_line(
    root: &Instance,
    parent: &Node,
    line: &[Cell],
    n: u32,
    piece: Piece,
) -> Result<LineEval> {
    let mut e = LineEval {
        children: Vec::new(),
        left: 0,
        refuted: 0,
        presolves: 0,
    };
    for &cell in line {
        let mut extra = parent.extra.clone();
        extra.push(cell);
        let core = match child_cores_exact(parent.core.rows.len()) {
            true => parent.core.child(n, piece, cell),
            false => {
                let p = Problem::presolve(&cube_instance(root, &extra), piece)?;
                p.unsat.is_none().then(|| Core::of(&p))
            }
        };
        e.presolves += 1;
        let Some(core) = core else {
            e.refuted += 1;
            continue;
        };
        let cells = core.num_cells();
        e.left += cells;
        e.children.push(Node { extra, core, cells });
    }
    Ok(e)
}

/// The instance of a cube: the root's with the cube's own pieces placed after the root's.
fn cube_instance(root: &Instance, extra: &[Cell]) -> Instance {
    let mut inst = root.clone();
    inst.placed.extend_from_slice(extra);
    inst
}

/// A node of the split: the pieces it places beyond the root's, its core and its live-cell
/// count.
struct Node {
    extra: Vec<Cell>,
    core: Core,
    cells: u64,
}

/// Splits the presolved `root` for solving, by look-ahead on lines: at each step the cube with the most
/// live cells is split on the row or column (among the `split.candidates` with the fewest live
/// cells) whose children leave the fewest live cells in total after presolve, matching filter
/// included (a child that presolve refutes leaves none). Children that presolve refutes are
/// dropped, so a line with no surviving child refutes its cube; a line with one surviving child
/// is a forced move. Stops when every cube is easy (`split.easy_cells`) or there are
/// `split.max_cubes` cubes, returned with the fewest live cells first. The cubes (weight 1)
/// partition the solutions of the root's instance: a solution places exactly one piece on the split line,
/// and each child fixes a different one.
///
/// The children are presolved from their parent's core (`Core::child`): the split costs what
/// the core costs, not O(n + pieces) a child (on a completion instance of n = 5,498 with
/// 5,477 pieces pre-placed, the 2,581 children of its split took 4-5 s as instances, 0.12 s as
/// cores, as on the 21 x 21 board it was reduced from). Only the returned cubes are built as
/// instances.
pub fn lookahead(root: &Problem, split: &Split) -> Result<(Vec<Cube>, SplitStats)> {
    let (instance, piece) = (&root.instance, root.piece);
    piece
        .rows_and_columns("the cube split")
        .map_err(Error::Usage)?; // one piece per row and column
    if !root.presolved {
        return Err(Error::Usage(
            "the cube split needs a presolved problem (cubes are presolved)".into(),
        ));
    }
    let mut stats = SplitStats::default();
    stats.presolves += 1;
    if root.unsat.is_some() {
        stats.refuted += 1;
        return Ok((Vec::new(), stats));
    }
    let n = root.n;
    // The root's core as presolve (with the whole filter) leaves it, whatever filter `root`
    // was presolved with: every node's lines come from that presolve (once, O(n + pieces)).
    let presolved = Problem::presolve(instance, piece)?;
    if presolved.unsat.is_some() {
        stats.refuted += 1;
        return Ok((Vec::new(), stats));
    }
    let mut open = vec![Node {
        cells: root.num_cells(),
        core: Core::of(&presolved),
        extra: Vec::new(),
    }];
    let mut done: Vec<Node> = Vec::new();
    while let Some(i) = (0..open.len()).max_by_key(|&i| (open[i].cells, std::cmp::Reverse(i))) {
        split.cancel.check()?;
        // A passed time limit ends the split with the cubes so far: the conquest that follows
        // stops at once on the same token, and reports the time limit.
        if split.cancel.is_stopped() || open.len() + done.len() >= split.max_cubes.max(1) {
            break;
        }
        let node = open.swap_remove(i);
        if node.cells <= split.easy_cells {
            done.push(node);
            continue;
        }
        stats.presolves += 1;
        let mut candidates = node.core.lines();
        candidates.sort_by_key(|l| l.len());
        candidates.truncate(split.candidates.max(1));
        // Evaluate the candidate lines on up to `split.jobs` threads.
        let jobs = split.jobs.clamp(1, candidates.len().max(1));
        let chunk = candidates.len().div_ceil(jobs).max(1);
        let evaluated: Vec<Result<Vec<LineEval>>> = std::thread::scope(|s| {
            let workers: Vec<_> = candidates
                .chunks(chunk)
                .map(|lines| {
                    let parent = &node;
                    s.spawn(move || {
                        // A passed time limit stops the evaluation between lines.
                        lines
                            .iter()
                            .take_while(|_| !split.cancel.is_stopped())
                            .map(|line| eval_line(instance, parent, line, n, piece))
                            .collect::<Result<Vec<LineEval>>>()
                    })
                })
                .collect();
            workers
                .into_iter()
                .map(|w| w.join().expect("look-ahead worker"))
                .collect()
        });
        if split.cancel.is_stopped() {
            // Stopped mid-node: the node stays one cube, unsplit.
            done.push(node);
            break;
        }
        let mut best: Option<LineEval> = None;
        for e in evaluated
            .into_iter()
            .collect::<Result<Vec<_>>>()?
            .into_iter()
            .flatten()
        {
            stats.presolves += e.presolves;
            stats.refuted += e.refuted;
            // A refuted or forced line first (it does not branch), then the fewest live cells left.
            let key = |e: &LineEval| (e.children.len() > 1, e.left);
            if best.as_ref().is_none_or(|b| key(&e) < key(b)) {
                best = Some(e);
            }
        }
        // A live cube always has a live line (it needs a piece on every free row).
        open.extend(best.expect("a live cube has a live line").children);
    }
    // A raised token is an interruption, not a short split.
    split.cancel.check()?;
    // Fewest live cells first. Measured with `solve` (64 cubes, 2 cores) on the 105 satisfiable
    // instances of two 128-instance tail samples, two runs each: sum 80-81 s against 92-93 s in
    // split order (max 12.4-13.5 s against 16.6-17.0 s); most-cells-first was worse (114 s).
    // On 70 UNSAT instances the order changes little (88.7 s against 85.9 s).
    let mut nodes: Vec<Node> = done.into_iter().chain(open).collect();
    nodes.sort_by_key(|n| n.cells);
    let cubes = nodes
        .into_iter()
        .map(|node| Cube {
            instance: cube_instance(instance, &node.extra),
            weight: 1,
        })
        .collect();
    Ok((cubes, stats))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interrupt::Cancel;
    use crate::piece::{AMAZON, QUEEN};

    /// The core of every child of every live cell, computed from the parent's core, is the core
    /// of the presolved child instance (same cells, refuted alike), on random blocked,
    /// completion and excluded-diagonal boards, for queens and amazons, and on the children of
    /// children (a second level, from a child's core).
    #[test]
    fn child_cores_are_the_presolved_children() {
        use crate::generate::{blocked, completion, diagonals};
        let mut instances = Vec::new();
        for seed in 1..=6 {
            for n in [8, 11, 14] {
                instances.push(blocked::generate(n, n * n / 2, 1, seed).unwrap());
                instances.push(completion::generate(n, n / 3, seed).unwrap());
                let mut d = diagonals::generate(n, 1, seed).unwrap();
                d.excluded.truncate(n as usize);
                instances.push(d);
            }
        }
        let (mut checked, mut refuted) = (0, 0);
        for inst in &instances {
            for piece in [QUEEN, AMAZON] {
                let root = Problem::presolve(inst, piece).unwrap();
                if root.unsat.is_some() {
                    continue;
                }
                let core = Core::of(&root);
                for (cell, _) in root.varmap.cells() {
                    let child = cube_instance(inst, &[cell]);
                    let p = Problem::presolve(&child, piece).unwrap();
                    let fast = core.child(inst.n, piece, cell);
                    checked += 1;
                    match (&fast, p.unsat.is_some()) {
                        (None, true) => refuted += 1,
                        (Some(c), false) => {
                            let want = Core::of(&p);
                            assert_eq!((&c.rows, &c.cols), (&want.rows, &want.cols));
                            assert_eq!(c.cells, want.cells, "{inst:?} {cell}");
                            // A second level: the grandchildren from the child's core.
                            for (g, _) in p.varmap.cells().take(3) {
                                let q = Problem::presolve(&cube_instance(inst, &[cell, g]), piece)
                                    .unwrap();
                                let fast = c.child(inst.n, piece, g);
                                assert_eq!(
                                    fast.map(|c| c.cells),
                                    q.unsat.is_none().then(|| Core::of(&q).cells),
                                    "{inst:?} {cell} {g}"
                                );
                            }
                        }
                        _ => panic!(
                            "{inst:?} {cell}: core child {fast:?}, presolve {:?}",
                            p.unsat
                        ),
                    }
                }
            }
        }
        // Both outcomes were exercised.
        assert!(checked > 1000 && refuted > 100, "{checked} {refuted}");
    }

    /// A target past the first ring's cubes branches a second ring, unless that ring would pass
    /// the cap: then the first ring's cubes come back, not a partial ring.
    #[test]
    fn a_ring_past_the_cap_is_not_branched() {
        let inst = Instance::plain(10);
        let cancel = Cancel::default();
        let first = cubes_in_rings(&inst, QUEEN, 1, &cancel).unwrap();
        let want = first.len() + 1;
        let second = split_lines(&inst, QUEEN, want, Some(usize::MAX), &cancel).unwrap();
        assert!(
            second.len() > 4 * first.len(),
            "{} {}",
            second.len(),
            first.len()
        );
        let capped = split_lines(&inst, QUEEN, want, Some(2 * first.len()), &cancel).unwrap();
        assert_eq!(capped, first);
    }
}
