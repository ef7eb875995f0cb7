//! `--solver bitboard`: a first-solution bit-parallel backtracking search for queens and amazons
//! on a presolved problem (pre-placed pieces, blocked cells and excluded diagonals are all
//! already folded into its live cells), the method of the dedicated solver of Gent, Jefferson and
//! Nightingale for the excluded-diagonal family, with the propagation a CDCL solver gets for free
//! from the at-least-one clauses:
//!
//! - every open row keeps the columns it may still take as one `u64`; a placement removes its
//!   column, its two diagonals (and its knight leaps) from every other open row with a few shifts;
//! - a row without a cell, or a free column that no open row can take, fails the node;
//! - a free column that only one open row can take is placed at once (a forced move); else the
//!   open row with the fewest cells is branched on (fail first), lowest column first, unless it
//!   has three or more and some free column only two rows can take: then those two rows are the
//!   branches (5-18 % fewer nodes on excluded-diagonal instances n = 20..24). Counting the live
//!   diagonals of each kind against the open rows cut only 2-9 % more nodes and cost more time
//!   than it saved;
//! - the implied diagonal sums (the SAT side's `--implied sums`, as bounds): the open rows'
//!   pieces take as many distinct diagonals of each kind as there are open rows, among those
//!   they can still reach, and those diagonals' keys must add up to what the open rows and free
//!   columns give; the node fails when the smallest (largest) reachable keys already overshoot
//!   (fall short of) that sum. On ten frontier instances n = 22..30: 1.5-22x fewer nodes, 2.5x
//!   fewer in all, 1.6x less time (docs/benchmarks.md). The keys of a board up to 32 fit one
//!   word; past 32 they take two ([`Words`], [`super::keys`]), which pays on excluded-diagonal
//!   instances (n = 34/36: 1.6-33x smaller trees by Knuth's estimate, for 2.6x the time per
//!   node) but not on blocked n = 56 (0.07 % fewer nodes, 2.15x the time), so by default they
//!   run past 32 on instances whose unavailable cells are excluded diagonals only;
//! - branching on a diagonal the sums force: when no choice of keys without the lowest (or the
//!   highest) reachable key of a kind reaches the sum, some open row must take that diagonal,
//!   and when it has fewer cells than the row or column the search would branch on, the
//!   branches are the rows that take it (one cell: a forced move). With a column that three
//!   rows can take as a branching line too (when every row has four cells or more) and the
//!   cross-kind parity (`r + c` and `c - r` have one parity, so the pieces on odd sum keys are
//!   at most the odd keys reachable in either kind, the even likewise, and their number has the
//!   sum target's parity): 0.56 and 0.52 of the nodes on two seeded 10-instance frontier
//!   samples (docs/benchmarks.md, "Branching on forced diagonals");
//! - the quadratic identity (the squares of the pieces' `r + c` and `c - r` add up to
//!   `2 Σ r² + 2 Σ c²` over the open rows and free columns) as a bound was measured and dropped:
//!   1-5 % fewer nodes at 1.3x the CPU seconds (docs/runs/history.md, "Measured and
//!   dropped").
//!
//! [`Tuning`] switches each of these (for the measurements and the soundness tests;
//! `examples/bitboard_nodes.rs` counts the nodes).
//!
//! The search is compiled twice, the second time with `popcnt`, `bmi1`, `bmi2` and `lzcnt`
//! ([`crate::cpu::BMI2_FEATURES`]); [`crate::cpu::Isa`] picks the build at run time, as for the
//! counting kernel ([`search_with`] runs a given one).
//!
//! [`cubes`] cuts the search's tree into subtrees for a cluster job (`split solve --cubes-from
//! bitboard`), with Knuth's estimate of each one's size in search nodes.
//!
//! The search is exhaustive, so it proves UNSAT as well. It keeps no learned facts, yet on the
//! tail set (blocked n <= 56, excluded diagonals n = 20/21) it answered faster than the CDCL
//! cube-and-conquer (docs/benchmarks.md, "The bitboard search in the default strategy"), so the
//! default strategy races the two ([`super::Solver`]); at the excluded-diagonal frontier
//! (n >= 26 near the 50 % point) both run out of time on some instances. Under `--certify`,
//! [`super::bitproof`] runs it without the sum bounds and writes its tree as an LRAT proof.

use std::sync::atomic::AtomicUsize;
use std::sync::atomic::Ordering::SeqCst;
use std::time::{Duration, Instant};

use crate::answer::Answer;
use crate::board::{Board, Cell};
use crate::cpu::Isa;
use crate::encode::EncodeOptions;
use crate::error::Result;
use crate::interrupt::Cancel;
use crate::piece::{Shape, full};
use crate::presolve::Problem;
use crate::prng::Prng;
use crate::solve::keys::{Keys, key_sum, low_bits_plain, parity_ok};
#[cfg(target_arch = "x86_64")]
use crate::solve::keys::low_bits_bmi2;
use crate::solve::engine::{
    self, Capabilities, Engine, EngineInfo, Outcome, Settings, Unsupported,
};

/// Search nodes between two looks at the clock and the cancel token.
const CHECK_EVERY: u64 = 1 << 12;

/// The implied diagonal sums are checked at nodes with at least this many open rows (below,
/// the other checks leave them little to cut; 4 against 0, 6 and 9 on ten frontier instances).
const SUMS_FROM: usize = 4;

/// What [`search`] found, and how many nodes it visited.
#[derive(Clone, Debug)]
pub struct Found {
    /// A board (the fixed pieces plus the placed ones; not yet verified), UNSAT, or UNKNOWN
    /// when the time ran out or the search was cancelled.
    pub answer: Answer<Board>,
    /// Search nodes visited.
    pub nodes: u64,
}

/// Which of the search's optional prunings run: for A/B measurements and the soundness tests
/// (`examples/bitboard_nodes.rs` counts nodes under each); [`Tuning::default`] is what the
/// search runs, the measured best (docs/benchmarks.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tuning {
    /// The linear diagonal-sum bounds (on the boards [`Tuning::words`] gives them).
    pub sums: bool,
    /// The cross-kind parity: `r + c` and `c - r` have one parity, so the open rows' pieces on
    /// odd sum keys are at most the reachable odd keys of both kinds, those on even keys
    /// likewise, and their number has the parity of the sum keys' target (as `sums`).
    pub parity: bool,
    /// Branching on a diagonal the linear sums force to be taken (its lowest or highest
    /// reachable key, when no choice of keys without it reaches the target), on which open row
    /// takes it, when it has fewer cells than the row or column the search would branch on.
    pub diagonals: bool,
    /// Branching on a free column only three open rows can take, when every open row has four
    /// cells or more (as on one that two can take, when every row has three or more).
    pub triples: bool,
    /// The key sets of the sum bounds, the parity and the forced diagonals: one word, or two
    /// past n = 32.
    pub words: Words,
}

/// How many words the key sets of the sum bounds take ([`Tuning::words`]): a word holds the
/// keys of one kind of diagonal on boards up to 32, two words up to 64.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Words {
    /// One word: past n = 32 the search runs without the sum bounds, the parity and the forced
    /// diagonals.
    One,
    /// One word up to n = 32, two past it: the bounds on every board the search takes.
    Past32,
    /// Two words on every board (for the tests, which check it against one word).
    Two,
    /// The default: [`Words::Past32`] on instances whose unavailable cells are excluded
    /// diagonals only, where the bounds cut most; [`Words::One`] on the others. On 16 blocked
    /// n = 56 instances of the tail's density two words cut 0.07 % of the nodes for 2.15x the
    /// time (docs/benchmarks.md, "Two-word sum bounds past n = 32").
    Family,
}

impl Tuning {
    /// The tuning with [`Words::Family`] settled for `problem`.
    fn settled(self, problem: &Problem) -> Tuning {
        let words = match self.words {
            Words::Family if problem.instance.excluded_diagonals_only() => Words::Past32,
            Words::Family => Words::One,
            words => words,
        };
        Tuning { words, ..self }
    }
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning {
            sums: true,
            parity: true,
            diagonals: true,
            triples: true,
            words: Words::Family,
        }
    }
}

impl Tuning {
    /// Every combination of the switches, for the soundness tests.
    pub fn all() -> Vec<Tuning> {
        (0..16u8)
            .map(|b| Tuning {
                sums: b & 1 != 0,
                parity: b & 2 != 0,
                diagonals: b & 4 != 0,
                triples: b & 8 != 0,
                words: Words::Family,
            })
            .collect()
    }
}

/// Searches `problem` for one board within `timeout` (none: no limit), stopping when `cancel`
/// is raised. The problem must be presolved, of side at most 64, with a queen or an amazon.
///
/// ```
/// use queens_sat::{answer::Answer, instance::Instance, piece::QUEEN, presolve::Problem};
/// use queens_sat::solve::bitboard::search;
/// let p = Problem::presolve(&Instance::plain(8), QUEEN).unwrap();
/// let found = search(&p, None, None).unwrap();
/// assert!(matches!(found.answer, Answer::Sat(ref b) if b.pieces.len() == 8));
/// let p3 = Problem::presolve(&Instance::plain(3), QUEEN).unwrap();
/// assert_eq!(search(&p3, None, None).unwrap().answer, Answer::Unsat);
/// ```
pub fn search(
    problem: &Problem,
    timeout: Option<Duration>,
    cancel: Option<&Cancel>,
) -> Result<Found> {
    search_on(problem, timeout, cancel, 1, false)
}

/// [`search`] in build `isa` of the search (the baseline build when the processor lacks `isa`'s
/// features): for tests and measurements that compare the builds.
pub fn search_with(
    problem: &Problem,
    timeout: Option<Duration>,
    cancel: Option<&Cancel>,
    isa: Isa,
) -> Result<Found> {
    search_in(problem, timeout, cancel, 1, false, isa, Tuning::default())
}

/// One subtree of the search: the open rows, their allowed columns, the free columns, and the
/// placements (row, column) that lead to it from the root.
#[derive(Clone, Debug)]
struct Subtree {
    open: Vec<u8>,
    masks: [u64; 64],
    cols_free: u64,
    placed: Vec<(usize, usize)>,
}

impl Subtree {
    /// The root: the presolved problem's open rows and live cells.
    fn root(problem: &Problem) -> Subtree {
        let n = problem.n as usize;
        let mut masks = [0u64; 64];
        let mut filled = [false; 64];
        let mut cols_free = full(n);
        for c in &problem.fixed {
            filled[c.row as usize] = true;
            cols_free &= !(1u64 << c.col);
        }
        for (cell, _) in problem.varmap.cells() {
            masks[cell.row as usize] |= 1u64 << cell.col;
        }
        Subtree {
            open: (0..n).filter(|&r| !filled[r]).map(|r| r as u8).collect(),
            masks,
            cols_free,
            placed: Vec::new(),
        }
    }

    /// The placements (an index into `open`, a column bit) the search branches on at this
    /// subtree's root ([`Search::branch_plain`], with `s`'s tuning): none when the root's
    /// checks refute it, or when it has no open row (a board). Together the children they make
    /// hold every solution of the subtree, and no two hold the same one.
    fn moves(&self, s: &Search) -> Vec<(usize, u64)> {
        if self.open.is_empty() {
            return Vec::new();
        }
        let (open, masks) = (&self.open[..], &self.masks);
        let rows = 0..open.len();
        match s.branch(open, masks, self.cols_free) {
            Branch::Fail => Vec::new(),
            Branch::Row(i, mut cand) => {
                let mut out = Vec::with_capacity(cand.count_ones() as usize);
                while cand != 0 {
                    let bit = cand & cand.wrapping_neg();
                    cand ^= bit;
                    out.push((i, bit));
                }
                out
            }
            Branch::Column(col) => rows
                .filter(|&i| masks[open[i] as usize] & col != 0)
                .map(|i| (i, col))
                .collect(),
            Branch::Diagonal(anti, key) => rows
                .filter_map(|i| on_diagonal(anti, key, open[i], masks, s.n).map(|c| (i, c)))
                .collect(),
        }
    }

    /// The subtree below placing a piece on the open row `open[i]`, column `bit`, as the
    /// search places it.
    fn child(&self, (i, bit): (usize, u64), shape: Shape) -> Subtree {
        let mut child = self.clone();
        let row = child.open.remove(i) as usize;
        child.cols_free &= !bit;
        for &r in &child.open {
            let r = r as usize;
            child.masks[r] &= !hit(shape, bit, r.abs_diff(row) as u32);
        }
        child.placed.push((row, bit.trailing_zeros() as usize));
        child
    }

    /// The children of this subtree: the search's branches at its root ([`Subtree::moves`]).
    fn children(&self, s: &Search) -> Vec<Subtree> {
        let moves = self.moves(s);
        moves.into_iter().map(|m| self.child(m, s.shape)).collect()
    }

    /// Knuth's estimate of the subtree's size in search nodes (D. E. Knuth, "Estimating the
    /// efficiency of backtrack programs", Math. Comp. 29, 1975): the mean over `probes` random
    /// paths from its root, each following the search's branching ([`Subtree::moves`]), of
    /// the sum over depths of the product of the branching factors met. A refuted root counts
    /// one node, a board none (as [`Search`] counts them).
    fn estimate(&self, s: &Search, probes: usize, rng: &mut Prng) -> f64 {
        let probes = probes.max(1);
        let mut sum = 0.0;
        for _ in 0..probes {
            let mut t = std::borrow::Cow::Borrowed(self);
            let (mut width, mut nodes) = (1.0, 0.0);
            while !t.open.is_empty() {
                nodes += width;
                let moves = t.moves(s);
                if moves.is_empty() {
                    break;
                }
                width *= moves.len() as f64;
                let next = t.child(moves[rng.below(moves.len())], s.shape);
                t = std::borrow::Cow::Owned(next);
            }
            sum += nodes;
        }
        sum / probes as f64
    }
}

/// Splits `root` breadth-first along the search's branching (`s`, [`Subtree::children`])
/// until there are at least `want` subtrees (or none is left to split), in a fixed order: the
/// index of a subtree is the same on every run. A subtree whose root the search's checks
/// refute is dropped when it is split (it holds no solution).
fn split(root: Subtree, s: &Search, want: usize) -> Vec<Subtree> {
    let mut queue = std::collections::VecDeque::from([root]);
    // Every subtree that has open rows can be split; a leaf (no open row) is a board.
    while queue.len() < want {
        let Some(pos) = queue.iter().position(|t| !t.open.is_empty()) else {
            break;
        };
        let t = queue.remove(pos).expect("a position in the queue");
        let children = t.children(s);
        if children.is_empty() && queue.is_empty() {
            break;
        }
        queue.extend(children);
    }
    queue.into()
}

/// One subtree of the search cut by [`cubes`]: a cube of a cluster job (`split solve
/// --cubes-from bitboard`).
#[derive(Clone, Debug, PartialEq)]
pub struct Cube {
    /// The pieces the search placed on the path from the root to the subtree (the rows,
    /// columns and diagonals it branched on, and its forced moves), in the order placed; the
    /// problem's fixed pieces are not among them.
    pub cells: Vec<Cell>,
    /// Knuth's estimate of the subtree's size in search nodes (at least 1).
    pub nodes: f64,
}

/// Cuts the search tree of `problem` into about `want` subtrees along the search's own
/// branching: breadth-first to half of `want` (the split [`search_on`] gives its threads),
/// then the subtree of the largest estimated size (Knuth's estimator, `probes` random probes
/// per subtree, in search nodes) is split until there are `want` (or none is left to split).
/// The cubes are in a fixed order with fixed estimates (each subtree's probes are seeded with
/// its path): the same problem gives the same cubes on every run.
///
/// Every solution of `problem` lies in exactly one cube. A subtree whose root the search's
/// checks refute (a row without a cell, a free column no row can take, the diagonal-sum and
/// parity bounds) holds no solution and is not returned; so an UNSAT verdict on every cube
/// (none at all when the root is refuted) is an UNSAT verdict on `problem`.
///
/// ```
/// use queens_sat::{instance::Instance, piece::QUEEN, presolve::Problem};
/// use queens_sat::solve::bitboard::cubes;
/// let p = Problem::presolve(&Instance::plain(10), QUEEN).unwrap();
/// let c = cubes(&p, 32, 16, &Default::default()).unwrap();
/// assert!(c.len() >= 32 && c.iter().all(|c| c.nodes >= 1.0));
/// assert_eq!(c, cubes(&p, 32, 16, &Default::default()).unwrap());
/// ```
pub fn cubes(problem: &Problem, want: usize, probes: usize, cancel: &Cancel) -> Result<Vec<Cube>> {
    let shape = Bitboard::shape(problem)?;
    if problem.unsat.is_some() {
        return Ok(Vec::new());
    }
    let n = problem.n as usize;
    let tuning = Tuning::default().settled(problem);
    let s = Search::new(shape, Isa::current().usable(), tuning, n, None, None);
    let estimate = |t: &Subtree| -> Result<f64> {
        cancel.check()?;
        // The seed is the path: an estimate does not depend on where the subtree is listed.
        let seed = t.placed.iter().fold(0x9E37_79B9_7F4A_7C15u64, |h, &(r, c)| {
            (h ^ (r * 64 + c) as u64).wrapping_mul(0x0100_0000_01B3)
        });
        Ok(t.estimate(&s, probes, &mut Prng::new(seed)).max(1.0))
    };
    let mut cut: Vec<(Subtree, f64)> = Vec::new();
    for t in split(Subtree::root(problem), &s, want.div_ceil(2)) {
        if t.open.is_empty() || s.branch(&t.open, &t.masks, t.cols_free) != Branch::Fail {
            let e = estimate(&t)?;
            cut.push((t, e));
        }
    }
    while cut.len() < want {
        // The largest subtree that can be split (the first of equal ones), in place.
        let Some(at) = (0..cut.len())
            .filter(|&i| !cut[i].0.open.is_empty())
            .max_by(|&a, &b| cut[a].1.total_cmp(&cut[b].1).then(b.cmp(&a)))
        else {
            break;
        };
        let children = cut[at].0.children(&s);
        let mut parts = Vec::with_capacity(children.len());
        for t in children {
            if t.open.is_empty() || s.branch(&t.open, &t.masks, t.cols_free) != Branch::Fail
            {
                let e = estimate(&t)?;
                parts.push((t, e));
            }
        }
        cut.splice(at..=at, parts);
    }
    Ok(cut
        .into_iter()
        .map(|(t, nodes)| Cube {
            cells: t
                .placed
                .iter()
                .map(|&(r, c)| Cell::new(r as u32, c as u32))
                .collect(),
            nodes,
        })
        .collect())
}

/// Knuth's estimate of the size in search nodes of the whole search tree of `problem` under
/// `tuning` (the mean of `probes` random paths from the root, seeded with `seed`; see
/// [`cubes`]): the load-independent measure of a pruning on trees too big to search to the end.
///
/// ```
/// use queens_sat::{instance::Instance, piece::QUEEN, presolve::Problem};
/// use queens_sat::solve::bitboard::estimate;
/// let p = Problem::presolve(&Instance::plain(10), QUEEN).unwrap();
/// let e = estimate(&p, Default::default(), 100, 1).unwrap();
/// assert!(e >= 1.0 && e == estimate(&p, Default::default(), 100, 1).unwrap());
/// ```
pub fn estimate(problem: &Problem, tuning: Tuning, probes: usize, seed: u64) -> Result<f64> {
    let shape = Bitboard::shape(problem)?;
    if problem.unsat.is_some() {
        return Ok(0.0);
    }
    let (isa, n) = (Isa::current().usable(), problem.n as usize);
    let s = Search::new(shape, isa, tuning.settled(problem), n, None, None);
    Ok(Subtree::root(problem).estimate(&s, probes, &mut Prng::new(seed)))
}

/// [`search`] on `threads` threads: the tree is split into subtrees (breadth-first along the
/// search's own branching, about 64 per thread; [`cubes`] cuts a cluster job's cubes the same
/// way) that the threads take in index order. The first board found stops the others; with
/// `deterministic` the board is the one of the lowest subtree index that has one (a thread
/// stops only the subtrees after it), so the same problem gives the same board on every run.
/// The verdict never depends on the threads: UNSAT only when every subtree is refuted.
///
/// ```
/// use queens_sat::{answer::Answer, instance::Instance, piece::QUEEN, presolve::Problem};
/// use queens_sat::solve::bitboard::search_on;
/// let p = Problem::presolve(&Instance::plain(12), QUEEN).unwrap();
/// let a = search_on(&p, None, None, 2, true).unwrap().answer;
/// let b = search_on(&p, None, None, 2, true).unwrap().answer;
/// assert!(matches!(a, Answer::Sat(_)));
/// assert_eq!(a, b);
/// ```
pub fn search_on(
    problem: &Problem,
    timeout: Option<Duration>,
    cancel: Option<&Cancel>,
    threads: usize,
    deterministic: bool,
) -> Result<Found> {
    search_tuned(
        problem,
        timeout,
        cancel,
        threads,
        deterministic,
        Tuning::default(),
    )
}

/// [`search_on`] with the prunings `tuning` switches on (for measurements and tests; any
/// tuning gives the same verdict).
pub fn search_tuned(
    problem: &Problem,
    timeout: Option<Duration>,
    cancel: Option<&Cancel>,
    threads: usize,
    deterministic: bool,
    tuning: Tuning,
) -> Result<Found> {
    search_in(
        problem,
        timeout,
        cancel,
        threads,
        deterministic,
        Isa::current(),
        tuning,
    )
}

/// [`search_on`] in build `isa`.
fn search_in(
    problem: &Problem,
    timeout: Option<Duration>,
    cancel: Option<&Cancel>,
    threads: usize,
    deterministic: bool,
    isa: Isa,
    tuning: Tuning,
) -> Result<Found> {
    let isa = isa.usable();
    let shape = Bitboard::shape(problem)?;
    let n = problem.n as usize;
    let tuning = tuning.settled(problem);
    if problem.unsat.is_some() {
        return Ok(Found {
            answer: Answer::Unsat,
            nodes: 0,
        });
    }
    let deadline = timeout.map(|t| Instant::now() + t);
    let root = Subtree::root(problem);
    let board = |t: &Subtree, s: &Search| {
        let mut pieces = problem.fixed.clone();
        pieces.extend(
            t.placed
                .iter()
                .chain(&s.placed)
                .map(|&(r, c)| Cell::new(r as u32, c as u32)),
        );
        Board::new(problem.n, pieces)
    };
    if threads <= 1 {
        let mut s = Search::new(shape, isa, tuning, n, deadline, cancel);
        let answer = if s.go(&root.open, &root.masks, root.cols_free) {
            Answer::Sat(board(&root, &s))
        } else if let Some(why) = s.stopped {
            Answer::Unknown(why)
        } else {
            Answer::Unsat
        };
        return Ok(Found {
            answer,
            nodes: s.nodes,
        });
    }
    let splitter = Search::new(shape, isa, tuning, n, None, None);
    let subtrees = split(root, &splitter, 64 * threads);
    let all = cancel.cloned().unwrap_or_default();
    // One token per subtree, children of `all`: a board at index i stops the subtrees after i
    // (deterministic) or every other one.
    let tokens: Vec<Cancel> = subtrees.iter().map(|_| all.child()).collect();
    let next = AtomicUsize::new(0);
    let best = AtomicUsize::new(usize::MAX);
    let worker = || {
        let mut w = Worker::default();
        loop {
            let i = next.fetch_add(1, SeqCst);
            let b = best.load(SeqCst);
            if i >= subtrees.len() || (b != usize::MAX && (!deterministic || i > b)) {
                return w;
            }
            let t = &subtrees[i];
            let mut s = Search::new(shape, isa, tuning, n, deadline, Some(&tokens[i]));
            let found = s.go(&t.open, &t.masks, t.cols_free);
            w.nodes += s.nodes;
            if found {
                let was = best.fetch_min(i, SeqCst);
                let from = if deterministic { i.min(was) + 1 } else { 0 };
                tokens[from..].iter().for_each(Cancel::cancel);
                w.boards.push((i, board(t, &s)));
            } else if let Some(why) = s.stopped {
                // The time limit, the caller, or a board at another index.
                w.stopped.get_or_insert(why);
            }
        }
    };
    let workers: Vec<Worker> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads).map(|_| scope.spawn(worker)).collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a search thread does not panic"))
            .collect()
    });
    let nodes = workers.iter().map(|w| w.nodes).sum();
    let first = workers
        .iter()
        .flat_map(|w| &w.boards)
        .min_by_key(|(i, _)| *i)
        .map(|(_, b)| b.clone());
    let answer = match first {
        Some(b) => Answer::Sat(b),
        None => match workers.into_iter().find_map(|w| w.stopped) {
            Some(why) => Answer::Unknown(why),
            None => Answer::Unsat,
        },
    };
    Ok(Found { answer, nodes })
}

/// What one thread of [`search_on`] did.
#[derive(Default)]
struct Worker {
    nodes: u64,
    /// Boards found, with their subtree index.
    boards: Vec<(usize, Board)>,
    /// Why a subtree stopped unfinished, when one did.
    stopped: Option<String>,
}

/// How the search branches at a node ([`Search::branch_plain`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Branch {
    /// The node's checks refute it: no branch.
    Fail,
    /// On the columns of `cand` (bits) for the open row `open[i]`.
    Row(usize, u64),
    /// On which open row takes the column `col` (a single bit).
    Column(u64),
    /// On which open row takes the diagonal `key` (of the sum keys `r + c` when `anti`, else
    /// of the difference keys `c - r + n - 1`).
    Diagonal(bool, u32),
}

/// The column (a single bit) where row `r` meets the diagonal `key` ([`Branch::Diagonal`]),
/// when that cell is on the board and among the row's allowed columns `masks[r]`.
#[inline(always)]
fn on_diagonal(anti: bool, key: u32, r: u8, masks: &[u64; 64], n: usize) -> Option<u64> {
    let (r, n) = (u32::from(r), n as u32);
    let col = if anti {
        key.wrapping_sub(r)
    } else {
        (key + r).wrapping_sub(n - 1)
    };
    (col < n && masks[r as usize] >> col & 1 != 0).then(|| 1 << col)
}

/// The state of one search.
pub(super) struct Search<'a> {
    pub(super) shape: Shape,
    /// The build of the search to run (one the processor has).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    isa: Isa,
    /// The optional prunings that run.
    tuning: Tuning,
    /// The side of the board.
    n: usize,
    pub(super) nodes: u64,
    deadline: Option<Instant>,
    cancel: Option<&'a Cancel>,
    /// Why the search stopped early (time limit, cancel).
    pub(super) stopped: Option<String>,
    /// The placements of the solution, deepest first (filled on the way back up).
    placed: Vec<(usize, usize)>,
}

/// The search's methods, compiled once per instruction set (`$attr`: the target features).
macro_rules! searcher {
    (
        $go:ident,
        $branch:ident,
        $column:ident,
        $diagonal:ident,
        $place:ident,
        $within:ident,
        $bound:ident,
        $low:expr
        $(, $attr:meta)?
    ) => {
        impl Search<'_> {
            /// Whether the open rows `open` (their allowed columns in `masks`) can all be
            /// filled, every column of `cols_free` taken once.
            $(#[$attr])?
            fn $go<K: Keys>(&mut self, open: &[u8], masks: &[u64; 64], cols_free: u64) -> bool {
                if open.is_empty() {
                    return true;
                }
                self.nodes += 1;
                if self.nodes.is_multiple_of(CHECK_EVERY) && self.should_stop() {
                    return false;
                }
                let (i, mut cand) = match self.$branch::<K>(open, masks, cols_free) {
                    Branch::Fail => return false,
                    Branch::Diagonal(anti, key) => {
                        return self.$diagonal::<K>(open, masks, cols_free, anti, key);
                    }
                    Branch::Column(col) => return self.$column::<K>(open, masks, cols_free, col),
                    Branch::Row(i, cand) => (i, cand),
                };
                while cand != 0 {
                    let bit = cand & cand.wrapping_neg();
                    cand ^= bit;
                    if self.$place::<K>(open, i, bit, masks, cols_free) {
                        return true;
                    }
                    if self.stopped.is_some() {
                        return false;
                    }
                }
                false
            }

            /// How the search branches at the node of the open rows `open` (their allowed
            /// columns in `masks`, the free columns `cols_free`; at least one open row), or
            /// [`Branch::Fail`] when the node's checks refute it.
            $(#[$attr])?
            #[inline]
            fn $branch<K: Keys>(&self, open: &[u8], masks: &[u64; 64], cols_free: u64) -> Branch {
                // Fail first: the row with the fewest cells; columns taken by no row (fail) or one.
                let (mut once, mut twice, mut thrice, mut four) = (0u64, 0u64, 0u64, 0u64);
                let mut best = (u32::MAX, 0usize);
                let n = self.n as u32;
                let tuning = self.tuning;
                // The sum bounds, the parity and the forced diagonals (on boards whose keys fit
                // a `K`).
                let sums = K::fits(n) && (tuning.sums || tuning.parity || tuning.diagonals);
                for (i, &r) in open.iter().enumerate() {
                    let m = masks[r as usize];
                    let k = m.count_ones();
                    if k == 0 {
                        return Branch::Fail;
                    }
                    if k < best.0 {
                        best = (k, i);
                    }
                    four |= thrice & m;
                    thrice |= twice & m;
                    twice |= once & m;
                    once |= m;
                }
                if cols_free & !once != 0 {
                    return Branch::Fail;
                }
                // The implied sums. A diagonal they force: (a sum key?, its key, its cells).
                let mut forced = (false, 0u32, u32::MAX);
                if sums && open.len() >= SUMS_FROM {
                    // The diagonals the open rows reach (a loop of its own: in the one above
                    // two-word keys ran out of registers).
                    let (mut anti, mut main, mut rows) = (K::ZERO, K::ZERO, 0u32);
                    for &r in open {
                        let (m, r) = (masks[r as usize], u32::from(r));
                        anti |= K::shifted(m, r);
                        main |= K::shifted(m, n - 1 - r);
                        rows += r;
                    }
                    let (k, cols) = (open.len() as u32, key_sum(cols_free));
                    let (mut must_anti, mut must_main) = (K::ZERO, K::ZERO);
                    if tuning.sums || tuning.diagonals {
                        let must = tuning.diagonals;
                        match (
                            Self::$bound(anti, k, rows + cols, must),
                            Self::$bound(main, k, cols + k * (n - 1) - rows, must),
                        ) {
                            (Some(a), Some(m)) => (must_anti, must_main) = (a, m),
                            _ => return Branch::Fail,
                        }
                    }
                    if tuning.parity && !parity_ok(anti, main, n, k, rows + cols) {
                        return Branch::Fail;
                    }
                    if must_anti | must_main != K::ZERO {
                        for (anti_kind, mut keys) in [(true, must_anti), (false, must_main)] {
                            while keys != K::ZERO {
                                let key = keys.trailing_zeros();
                                keys = keys.without_lowest();
                                // The key's cells, one per open row at most.
                                let cells: u32 = open
                                    .iter()
                                    .map(|&r| {
                                        let m = masks[r as usize];
                                        let r = u32::from(r);
                                        let line = if anti_kind {
                                            K::shifted(m, r)
                                        } else {
                                            K::shifted(m, n - 1 - r)
                                        };
                                        u32::from((line >> key).has_zero())
                                    })
                                    .sum();
                                if cells < forced.2 {
                                    forced = (anti_kind, key, cells);
                                }
                            }
                        }
                    }
                }
                let single = cols_free & once & !twice;
                let double = cols_free & twice & !thrice;
                let triple = if self.tuning.triples {
                    cols_free & thrice & !four
                } else {
                    0
                };
                let (col, cells) = if best.0 > 1 && single != 0 {
                    (single, 1)
                } else if best.0 > 2 && double != 0 {
                    (double, 2)
                } else if best.0 > 3 && triple != 0 {
                    (triple, 3)
                } else {
                    (0, best.0)
                };
                if forced.2 < cells {
                    // A forced diagonal with fewer cells: branch on who takes it.
                    return Branch::Diagonal(forced.0, forced.1);
                }
                if col != 0 {
                    // A column only one (two, three) rows can take: branch on who takes it.
                    let col = col & col.wrapping_neg();
                    if col & single == 0 {
                        return Branch::Column(col);
                    }
                    let i = open
                        .iter()
                        .position(|&r| masks[r as usize] & col != 0)
                        .expect("a column in `once` lies in some row");
                    Branch::Row(i, col)
                } else {
                    Branch::Row(best.1, masks[open[best.1] as usize])
                }
            }

            /// Branches on which open row takes column `col` (a single bit).
            $(#[$attr])?
            fn $column<K: Keys>(
                &mut self,
                open: &[u8],
                masks: &[u64; 64],
                cols_free: u64,
                col: u64,
            ) -> bool {
                for i in 0..open.len() {
                    if masks[open[i] as usize] & col == 0 {
                        continue;
                    }
                    if self.$place::<K>(open, i, col, masks, cols_free) {
                        return true;
                    }
                    if self.stopped.is_some() {
                        return false;
                    }
                }
                false
            }

            /// Branches on which open row takes the diagonal `key` (of the sum keys `r + c`
            /// when `anti`, else of the difference keys `c - r + n - 1`).
            $(#[$attr])?
            fn $diagonal<K: Keys>(
                &mut self,
                open: &[u8],
                masks: &[u64; 64],
                cols_free: u64,
                anti: bool,
                key: u32,
            ) -> bool {
                for i in 0..open.len() {
                    let Some(col) = on_diagonal(anti, key, open[i], masks, self.n) else {
                        continue;
                    };
                    if self.$place::<K>(open, i, col, masks, cols_free) {
                        return true;
                    }
                    if self.stopped.is_some() {
                        return false;
                    }
                }
                false
            }

            /// Places a piece on open row `open[i]`, column `bit`, and searches on.
            $(#[$attr])?
            fn $place<K: Keys>(
                &mut self,
                open: &[u8],
                i: usize,
                bit: u64,
                masks: &[u64; 64],
                cols_free: u64,
            ) -> bool {
                let row = open[i] as usize;
                let (mut rest, mut next) = ([0u8; 64], *masks);
                child_into(self.shape, open, i, bit, masks, &mut rest, &mut next);
                let rest = &rest[..open.len() - 1];
                if self.$go::<K>(rest, &next, cols_free & !bit) {
                    self.placed.push((row, bit.trailing_zeros() as usize));
                    return true;
                }
                false
            }

            /// Whether some `k` distinct keys of the set `keys` can sum to `target`, by the
            /// bounds: the `k` smallest sum to at most `target`, the `k` largest to at least it.
            #[cfg(test)]
            $(#[$attr])?
            #[inline]
            fn $within<K: Keys>(keys: K, k: u32, target: u32) -> bool {
                Self::$bound(keys, k, target, false).is_some()
            }

            /// [`Search::within_plain`], and when it holds and `must`, the lowest and the
            /// highest key of `keys` when every choice of `k` distinct keys of `keys` adding up
            /// to `target` takes it (as a mask; 0 without `must`): the lowest when the `k`
            /// smallest keys but it overshoot `target`, the highest when the `k` largest but it
            /// fall short, both when there are only `k` keys.
            $(#[$attr])?
            #[inline]
            fn $bound<K: Keys>(keys: K, k: u32, target: u32, must: bool) -> Option<K> {
                if K::BITS > 64 {
                    // Keys that fit one word once moved down by `off`: the one-word bound,
                    // on keys `off` less and a target `k * off` less.
                    if let Some((low, off)) = keys.narrow() {
                        let target = target.checked_sub(k * off)?;
                        let out = Self::$bound::<u64>(low, k, target, must)?;
                        return Some(K::of_row(out) << off);
                    }
                }
                let p = keys.count_ones();
                if p < k {
                    return None;
                }
                let least = keys.low_bits(k, $low);
                let least_sum = least.key_sum();
                if least_sum > target {
                    return None;
                }
                let below = keys.low_bits(p - k, $low);
                let most = (keys ^ below).key_sum();
                if most < target {
                    return None;
                }
                if !must || k == 0 {
                    return Some(K::ZERO);
                }
                let lowest = keys.lowest();
                let top = K::BITS - 1 - keys.leading_zeros();
                if p == k {
                    return Some(lowest | K::ONE << top);
                }
                // The (k + 1)-th smallest key, and the largest key not among the k largest.
                let next = (keys.low_bits(k + 1, $low) ^ least).trailing_zeros();
                let under = K::BITS - 1 - below.leading_zeros();
                let mut out = K::ZERO;
                if least_sum - lowest.trailing_zeros() + next > target {
                    out |= lowest;
                }
                if most + under < target + top {
                    out |= K::ONE << top;
                }
                Some(out)
            }

        }
    };
}

#[cfg(target_arch = "x86_64")]
searcher!(
    go_bmi2,
    branch_bmi2,
    column_bmi2,
    diagonal_bmi2,
    place_bmi2,
    within_bmi2,
    bound_bmi2,
    |x: u64, j: u32| low_bits_bmi2(x, j),
    target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")
);
searcher!(
    go_plain,
    branch_plain,
    column_plain,
    diagonal_plain,
    place_plain,
    within_plain,
    bound_plain,
    low_bits_plain
);

impl<'a> Search<'a> {
    /// A search of a board of side `n` until `deadline` or `cancel`.
    pub(super) fn new(
        shape: Shape,
        isa: Isa,
        tuning: Tuning,
        n: usize,
        deadline: Option<Instant>,
        cancel: Option<&'a Cancel>,
    ) -> Self {
        Search {
            shape,
            isa,
            tuning,
            n,
            nodes: 0,
            deadline,
            cancel,
            stopped: None,
            placed: Vec::with_capacity(n),
        }
    }

    /// Whether the key sets take two words ([`Tuning::words`]).
    fn two_words(&self) -> bool {
        match self.tuning.words {
            // `Family` is settled before a search starts (`Tuning::settled`).
            Words::One | Words::Family => false,
            Words::Past32 => self.n > 32,
            Words::Two => true,
        }
    }

    /// [`Search::go_plain`] in the build `self.isa`, with the key sets' width.
    fn go(&mut self, open: &[u8], masks: &[u64; 64], cols_free: u64) -> bool {
        if self.two_words() {
            self.go_in::<u128>(open, masks, cols_free)
        } else {
            self.go_in::<u64>(open, masks, cols_free)
        }
    }

    /// [`Search::go_plain`] in the build `self.isa`, with key sets `K`.
    fn go_in<K: Keys>(&mut self, open: &[u8], masks: &[u64; 64], cols_free: u64) -> bool {
        #[cfg(target_arch = "x86_64")]
        if self.isa.has_bmi2() {
            // SAFETY: `isa` passed `Isa::usable`, so the processor has `cpu::BMI2_FEATURES`,
            // the features the function is compiled with.
            return unsafe { self.go_bmi2::<K>(open, masks, cols_free) };
        }
        self.go_plain::<K>(open, masks, cols_free)
    }

    /// [`Search::branch_plain`] in the build `self.isa`, with the key sets' width.
    pub(super) fn branch(&self, open: &[u8], masks: &[u64; 64], cols_free: u64) -> Branch {
        if self.two_words() {
            self.branch_in::<u128>(open, masks, cols_free)
        } else {
            self.branch_in::<u64>(open, masks, cols_free)
        }
    }

    /// [`Search::branch_plain`] in the build `self.isa`, with key sets `K`.
    fn branch_in<K: Keys>(&self, open: &[u8], masks: &[u64; 64], cols_free: u64) -> Branch {
        #[cfg(target_arch = "x86_64")]
        if self.isa.has_bmi2() {
            // SAFETY: as in `Search::go_in`.
            return unsafe { self.branch_bmi2::<K>(open, masks, cols_free) };
        }
        self.branch_plain::<K>(open, masks, cols_free)
    }

    /// Whether the time limit passed or the caller cancelled (recording why).
    pub(super) fn should_stop(&mut self) -> bool {
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.stopped = Some("time limit reached".into());
        } else if self.cancel.is_some_and(Cancel::is_cancelled) {
            self.stopped = Some("cancelled".into());
        }
        self.stopped.is_some()
    }
}

/// The node below placing a piece of `shape` on the open row `open[i]`, column `bit` (a single
/// bit): the other open rows into `rest[..open.len() - 1]`, and their masks, with the piece's
/// attacks taken out, into `next` (which the caller fills with `masks` first: returning the
/// arrays by value measured 10 % slower in the search).
#[inline(always)]
pub(super) fn child_into(
    shape: Shape,
    open: &[u8],
    i: usize,
    bit: u64,
    masks: &[u64; 64],
    rest: &mut [u8; 64],
    next: &mut [u64; 64],
) {
    let row = open[i] as usize;
    let k = open.len() - 1;
    rest[..i].copy_from_slice(&open[..i]);
    rest[i..k].copy_from_slice(&open[i + 1..]);
    for &r in &rest[..k] {
        let r = r as usize;
        next[r] = masks[r] & !hit(shape, bit, r.abs_diff(row) as u32);
    }
}

/// The columns of a row `d >= 1` rows away that a piece of `shape` on the column `bit` (a
/// single bit) attacks: [`Shape::attacks`] from the bit itself, without the column index and
/// the board-edge tests (bits past the board fall off the end or land on columns no mask
/// holds; `hit_is_shape_attacks` checks the two agree on the board). Measured against calling
/// [`Shape::attacks`] in the search: 3-4 % less time on three excluded-diagonal instances
/// n = 26 (7.36 against 7.59 s user, 3 runs each, the same nodes).
#[inline(always)]
pub(super) fn hit(shape: Shape, bit: u64, d: u32) -> u64 {
    let mut hit = bit | bit << d | bit >> d;
    if shape == Shape::Amazon && d <= 2 {
        // A knight leap one row away moves 2 columns, two rows away 1.
        let k = 3 - d;
        hit |= bit << k | bit >> k;
    }
    hit
}

/// The bitboard search as an engine (`--solver bitboard`): queens and amazons on presolved
/// boards up to 64, on [`Settings::threads`] threads ([`search_on`]); under `--certify` the
/// proof-writing search of [`super::bitproof`] on one thread, its checker on another.
pub struct Bitboard;

impl Bitboard {
    /// The piece's line shape, when the search handles `problem`: a presolved board of side at
    /// most 64 with a queen or an amazon.
    pub(super) fn shape(problem: &Problem) -> std::result::Result<Shape, Unsupported> {
        let unsupported = |needs: String| Unsupported {
            engine: "bitboard".into(),
            needs,
        };
        let shape = Shape::of(&problem.piece).ok_or_else(|| {
            unsupported(format!(
                "searches queens and amazons, not {}",
                problem.piece.name
            ))
        })?;
        if problem.n > 64 || !problem.presolved {
            return Err(unsupported(
                "needs a presolved board of side at most 64".into(),
            ));
        }
        Ok(shape)
    }
}

impl Engine for Bitboard {
    fn info(&self) -> EngineInfo {
        EngineInfo {
            name: "bitboard".into(),
            about: "in-process bit-parallel backtracking, queens and amazons, n <= 64 (certified: \
                    LRAT over the pairwise encoding, without the sum bounds)"
                .into(),
            caps: Capabilities {
                proofs: engine::Proofs::SelfChecked,
                ..Capabilities::IN_PROCESS
            },
        }
    }

    fn supports(
        &self,
        problem: &Problem,
        options: &EncodeOptions,
    ) -> std::result::Result<(), Unsupported> {
        super::walk_backend::unconstrained("bitboard", problem, options)?;
        Bitboard::shape(problem).map(|_| ())
    }

    fn solve(&self, problem: &Problem, settings: &Settings, cancel: &Cancel) -> Result<Outcome> {
        let t0 = Instant::now();
        if settings.certify {
            // One search thread; the proof checker takes another.
            let r = super::bitproof::search_certified(
                problem,
                settings.timeout,
                Some(cancel),
                settings.proof,
            )?;
            let answer = match r.answer {
                Answer::Sat(board) => Answer::Sat(engine::Found::Board(board)),
                Answer::Unsat => Answer::Unsat,
                Answer::Unknown(why) => Answer::Unknown(why),
            };
            return Ok(Outcome {
                certificate: r.certificate,
                ..Outcome::new(answer, 0.0, t0.elapsed().as_secs_f64())
            });
        }
        let found = search_on(
            problem,
            settings.timeout,
            Some(cancel),
            settings.threads,
            settings.deterministic,
        )?;
        let answer = match found.answer {
            Answer::Sat(board) => Answer::Sat(engine::Found::Board(board)),
            Answer::Unsat => Answer::Unsat,
            Answer::Unknown(why) => Answer::Unknown(why),
        };
        Ok(Outcome::new(answer, 0.0, t0.elapsed().as_secs_f64()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A xorshift64 stream from `seed`: cheap pseudo-random key sets for the kernel tests.
    fn xorshift(mut x: u64) -> impl FnMut() -> u64 {
        move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        }
    }

    /// The bounds by sorting: the `k` smallest and the `k` largest keys of `keys`.
    fn bounds(keys: u64, k: u32) -> Option<(u32, u32)> {
        let all: Vec<u32> = (0..64).filter(|&i| keys >> i & 1 == 1).collect();
        let k = k as usize;
        (all.len() >= k).then(|| {
            let least = all[..k].iter().sum();
            let most = all[all.len() - k..].iter().sum();
            (least, most)
        })
    }

    /// The `k` smallest and the `k` largest of `values` summed (by sorting), when there are
    /// `k`.
    fn extremes(mut values: Vec<u32>, k: u32) -> Option<(u32, u32)> {
        values.sort_unstable();
        let k = k as usize;
        (values.len() >= k).then(|| {
            let least = values[..k].iter().sum();
            let most = values[values.len() - k..].iter().sum();
            (least, most)
        })
    }

    /// `parity_ok` against brute force over the number of pieces on odd sum keys, on
    /// pseudo-random key sets of boards n = 1..32 (sum and difference keys below 2n - 1), for
    /// every `k` and both parities of the target.
    #[test]
    fn parity_agrees_with_brute_force() {
        let mut next = xorshift(0x2545_F491_4F6C_DD1Du64);
        for round in 0..600u32 {
            let n = 1 + round % 32;
            let keys = full(2 * n as usize - 1);
            let (mut anti, mut main) = (next() & keys, next() & keys);
            if round % 3 == 0 {
                anti &= next();
                main &= next();
            }
            let set = |x: u64| (0..64u32).filter(move |&i| x >> i & 1 == 1);
            for k in 0..=n.min(anti.count_ones().max(main.count_ones()) + 1) {
                let odd_a = set(anti).filter(|a| a % 2 == 1).count() as u32;
                let even_a = anti.count_ones() - odd_a;
                // A difference key b pairs with an odd sum key when b + n - 1 is odd.
                let odd_b = set(main).filter(|b| (b + n - 1) % 2 == 1).count() as u32;
                let even_b = main.count_ones() - odd_b;
                for target in [0, 1] {
                    let want = (0..=k).any(|o| {
                        o % 2 == target
                            && o <= odd_a.min(odd_b)
                            && k - o <= even_a.min(even_b)
                    });
                    assert_eq!(parity_ok(anti, main, n, k, target), want, "{n} {k} {target}");
                }
            }
        }
    }

    /// `bound` in both builds against sorting: the sum bounds, and within them the lowest key
    /// forced when the `k` smallest of the others overshoot the target, the highest when the
    /// `k` largest of the others fall short (both when there are only `k`).
    #[test]
    fn forced_keys_agree_with_sorting() {
        let mut next = xorshift(0x1234_5678_9ABC_DEF1u64);
        #[cfg(target_arch = "x86_64")]
        let fast = Isa::native().has_bmi2();
        for round in 0..400u32 {
            let keys = next() & full(1 + (round % 63) as usize);
            let keys = if round % 3 == 0 { keys & next() } else { keys };
            let all: Vec<u32> = (0..64).filter(|&i| keys >> i & 1 == 1).collect();
            for k in 0..=all.len() as u32 + 1 {
                let mut targets = vec![0, 1, 100, 2000];
                if let Some((lo, hi)) = bounds(keys, k) {
                    targets.extend([lo, lo + 1, lo + 7, hi.saturating_sub(7), hi - 1, hi]);
                }
                for target in targets {
                    let mut want = 0u64;
                    let ku = k as usize;
                    if k > 0 && all.len() >= ku {
                        let (lowest, highest) = (all[0], all[all.len() - 1]);
                        if all.len() == ku {
                            want = 1 << lowest | 1 << highest;
                        } else {
                            if extremes(all[1..].to_vec(), k).is_some_and(|(lo, _)| lo > target) {
                                want |= 1 << lowest;
                            }
                            let rest = all[..all.len() - 1].to_vec();
                            if extremes(rest, k).is_some_and(|(_, hi)| hi < target) {
                                want |= 1 << highest;
                            }
                        }
                    }
                    let feasible =
                        bounds(keys, k).is_some_and(|(lo, hi)| lo <= target && target <= hi);
                    let want = feasible.then_some(want);
                    let what = format!("{keys:#x} {k} {target}");
                    assert_eq!(Search::bound_plain(keys, k, target, true), want, "{what}");
                    let without = want.map(|_| 0);
                    assert_eq!(Search::bound_plain(keys, k, target, false), without, "{what}");
                    // Two words: the same set, and the set moved across both words (every
                    // key, and so the target, k times 40 more).
                    let wide = u128::from(keys);
                    let got = Search::bound_plain(wide, k, target, true);
                    assert_eq!(got, want.map(u128::from), "{what}");
                    let got = Search::bound_plain(wide << 40, k, target + 40 * k, true);
                    assert_eq!(got, want.map(|w| u128::from(w) << 40), "{what} << 40");
                    #[cfg(target_arch = "x86_64")]
                    if fast {
                        // SAFETY: the processor has the features the function is built with.
                        let got = unsafe { Search::bound_bmi2(keys, k, target, true) };
                        assert_eq!(got, want, "{what}");
                        // SAFETY: as above.
                        let got = unsafe { Search::bound_bmi2(wide << 40, k, target + 40 * k, true) };
                        assert_eq!(got, want.map(|w| u128::from(w) << 40), "{what} << 40");
                    }
                }
            }
        }
    }

    /// The search's attack masks are [`Shape::attacks`] on the board.
    #[test]
    fn hit_is_shape_attacks() {
        for shape in [Shape::Queen, Shape::Amazon] {
            for n in [1usize, 2, 5, 8, 31, 63, 64] {
                for row in 0..n {
                    for col in 0..n {
                        for r in (0..n).filter(|&r| r != row) {
                            let d = r.abs_diff(row) as u32;
                            assert_eq!(
                                hit(shape, 1 << col, d) & full(n),
                                shape.attacks((row, col), r, n),
                                "{shape:?} n={n} ({row}, {col}) row {r}"
                            );
                        }
                    }
                }
            }
        }
    }

    /// `within` in both builds and `key_sum` against sorting, on pseudo-random key sets of
    /// every width and density, for every `k` and the targets around both bounds.
    #[test]
    fn sum_bounds_agree_with_sorting() {
        let mut next = xorshift(0x9E37_79B9_7F4A_7C15u64);
        #[cfg(target_arch = "x86_64")]
        let fast = Isa::native().has_bmi2();
        for round in 0..400u32 {
            let keys = next() & (u64::MAX >> (round % 64));
            let keys = if round % 3 == 0 { keys & next() } else { keys };
            let keys = if round == 7 { u64::MAX } else { keys };
            let want_sum: u32 = (0..64).filter(|&i| keys >> i & 1 == 1).sum();
            assert_eq!(key_sum(keys), want_sum);
            for k in 0..=keys.count_ones() + 1 {
                let mut targets = vec![0, 1, 63, 64, 500, 2000];
                if let Some((lo, hi)) = bounds(keys, k) {
                    targets.extend([lo.saturating_sub(1), lo, hi, hi + 1]);
                }
                for target in targets {
                    let want = bounds(keys, k).is_some_and(|(lo, hi)| lo <= target && target <= hi);
                    let got = Search::within_plain(keys, k, target);
                    assert_eq!(got, want, "{keys:#x} {k} {target}");
                    #[cfg(target_arch = "x86_64")]
                    if fast {
                        // SAFETY: the processor has the features the function is built with.
                        let got = unsafe { Search::within_bmi2(keys, k, target) };
                        assert_eq!(got, want, "{keys:#x} {k} {target}");
                    }
                }
            }
        }
    }
}
