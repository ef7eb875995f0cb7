//! The search kernel: the search's state ([`Search`]) over a [`Core`] and its methods,
//! compiled once per instruction set, key-set width, row word and [`Geometry`], with the
//! branching rule ([`Branch`]) and the prunings' switches ([`Tuning`]). The subtree split, the
//! threads, the proof writer and the engine adapter build on it; it imports none of them.

use super::core::{Core, Geometry, Row, Shift, Table, core_rows, diagonal_family};
pub(super) use super::trace::Line;
use super::trace::{Abort, Failure, Flow, Fork, NoTrace, Node, Outcome, Tracer};
use crate::cpu::Isa;
use crate::interrupt::Cancel;
use crate::piece::Shape;
use crate::presolve::Problem;
use crate::solve::engine::Unsupported;
#[cfg(target_arch = "x86_64")]
use crate::solve::keys::low_bits_bmi2;
use crate::solve::keys::{Keys, key_sum, low_bits_plain, parity_ok};

/// Search nodes between two looks at the clock and the cancel token.
pub(super) const CHECK_EVERY: u64 = 1 << 12;

/// The implied diagonal sums are checked at nodes with at least this many open rows (below,
/// the other checks leave them little to cut; 4 against 0, 6 and 9 on ten frontier instances).
const SUMS_FROM: usize = 4;

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
    /// The table kernel on every core, also where the shift kernel applies (for the tests and
    /// measurements, which check that both give the same nodes).
    pub table: bool,
    /// Two-word rows on every core, also those of 64 columns or fewer (for the tests, which
    /// check that they give the nodes of one word).
    pub wide: bool,
}

/// How many words the key sets of the sum bounds take ([`Tuning::words`]): a word holds the
/// keys of one kind of diagonal on cores up to 32 (whose rows and columns span 32 or less),
/// two words up to 64.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Words {
    /// One word: past 32 the search runs without the sum bounds, the parity and the forced
    /// diagonals.
    One,
    /// One word where the keys fit it (up to 32), two past it: the bounds on every core whose
    /// keys fit two words.
    Past32,
    #[cfg_attr(not(feature = "oracle"), allow(dead_code))] // for the tests and examples
    /// Two words on every core (for the tests, which check it against one word).
    Two,
    /// The default: [`Words::Past32`] on cores whose unavailable cells lie on whole diagonals
    /// (excluded-diagonal instances and completions, [`diagonal_family`]), where the
    /// bounds cut most; [`Words::One`] on the others. On 16 blocked n = 56 instances of the
    /// tail's density two words cut 0.07 % of the nodes for 2.15x the time
    /// (docs/benchmarks.md, "Two-word sum bounds past n = 32").
    Family,
}

impl Tuning {
    /// The tuning with [`Words::Family`] settled for `problem`.
    pub(super) fn settled(self, problem: &Problem) -> Tuning {
        let words = match self.words {
            Words::Family if diagonal_family(problem) => Words::Past32,
            Words::Family => Words::One,
            words => words,
        };
        Tuning { words, ..self }
    }
}

impl Tuning {
    /// The full tuning of the uncertified search ([`Tuning::default`]): the sum bounds, the
    /// parity, the forced diagonals and the triples, key sets of [`Words::Family`].
    pub const FULL: Tuning = Tuning {
        sums: true,
        parity: true,
        diagonals: true,
        triples: true,
        words: Words::Family,
        table: false,
        wide: false,
    };
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning::FULL
    }
}

impl Tuning {
    #[cfg_attr(not(feature = "oracle"), allow(dead_code))] // for the tests and examples
    /// Every combination of the switches, for the soundness tests.
    pub fn all() -> Vec<Tuning> {
        (0..16u8)
            .map(|b| Tuning {
                sums: b & 1 != 0,
                parity: b & 2 != 0,
                diagonals: b & 4 != 0,
                triples: b & 8 != 0,
                ..Tuning::default()
            })
            .collect()
    }
}

/// The most core rows the search takes (two-word rows).
pub const MAX_CORE: usize = 128;

/// The piece's line shape, when the search handles `problem`: a presolved problem with a queen
/// or an amazon whose core has at most [`MAX_CORE`] open rows, whatever the board's side.
pub(super) fn shape(problem: &Problem) -> std::result::Result<Shape, Unsupported> {
    let unsupported = |needs: String| Unsupported {
        conflict: None,
        engine: super::NAME.into(),
        needs,
    };
    let shape = Shape::of(&problem.piece).ok_or_else(|| {
        unsupported(format!(
            "searches queens and amazons, not {}",
            problem.piece.name
        ))
    })?;
    if !problem.presolved {
        return Err(unsupported("needs a presolved problem".into()));
    }
    let k = core_rows(problem);
    if k > MAX_CORE {
        return Err(unsupported(format!(
            "needs a core of at most {MAX_CORE} open rows; this one has {k}"
        )));
    }
    Ok(shape)
}

/// How the search branches at a node ([`Search::branch_plain`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Branch<M> {
    /// The node's checks refute it, for this reason: no branch.
    Fail(Failure<M>),
    /// On the columns of `cand` (bits) for the open row `open[i]`.
    Row(usize, M),
    /// On which open row takes the column `col` (a single bit).
    Column(M),
    /// On which open row takes a forced diagonal.
    Diagonal(Line),
}

/// The column (a single bit) where core row `r` meets the diagonal `key` ([`Branch::Diagonal`],
/// keys as [`Core`] numbers them), when that cell is among the row's allowed columns
/// `masks[r]`.
#[inline(always)]
pub(super) fn on_diagonal<M: Row>(
    core: &Core<M>,
    anti: bool,
    key: u32,
    r: u8,
    masks: &M::Masks,
) -> Option<M> {
    let p = core.pos[r as usize];
    let col = if anti {
        key.wrapping_sub(p)
    } else {
        (key + p).wrapping_sub(core.row_span)
    };
    (col <= core.col_span && col < M::BITS && masks[r as usize] & M::bit(col) != M::ZERO)
        .then(|| M::bit(col))
}

/// The state of one search of a core.
pub(super) struct Search<'a, M: Row> {
    pub(super) shape: Shape,
    /// The core searched.
    pub(super) core: &'a Core<M>,
    /// Whether the shift kernel runs ([`Core::shifts`], unless [`Tuning::table`]).
    shifts: bool,
    /// Whether one-word and two-word key sets hold the core's keys ([`Core::keys_fit`]).
    keys_one: bool,
    keys_two: bool,
    /// The build of the search to run (one the processor has).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    isa: Isa,
    /// The optional prunings that run.
    tuning: Tuning,
    pub(super) nodes: u64,
    /// Stops the search (raised, or its deadline passed).
    cancel: Option<&'a Cancel>,
    /// Why the search stopped early (time limit, cancel).
    pub(super) stopped: Option<String>,
    /// The placements of the solution (core row, bit), deepest first (filled on the way back
    /// up).
    pub(super) placed: Vec<(usize, u32)>,
    /// The node count (with [`Search::start`]) at which the search parks ([`Search::park_after`]):
    /// `u64::MAX`, never, unless asked.
    budget: u64,
    /// Where `nodes` started ([`Search::park_after`]): [`Search::visited`] is `nodes` less this.
    start: u64,
    /// What is left to search once the budget is spent (the search then stopped).
    pub(super) parked: Option<Parked<M>>,
}

/// What a search stopped by its node budget ([`Search::park_after`]) leaves to search, found on
/// the way back up from the node where it stopped: that node itself, then at each node on the
/// path above it the branches not yet taken. Together they hold every solution the rest of the
/// search would have met, each once, in the search's own order.
pub(super) struct Parked<M: Row> {
    /// From the deepest up: the node where the search stopped (`moves: None`), then each node on
    /// the path to it with the branches it had left.
    pub(super) nodes: Vec<ParkedNode<M>>,
    /// The placements on the path from the search's root to the stopped node, deepest first.
    pub(super) path: Vec<(usize, u32)>,
}

/// One node of [`Parked`].
pub(super) struct ParkedNode<M: Row> {
    /// The node's open rows.
    pub(super) open: Vec<u8>,
    /// Its rows' allowed columns.
    pub(super) masks: M::Masks,
    /// Its free columns.
    pub(super) cols_free: M,
    /// The branches it had left (an index into `open`, a column bit), in the search's order;
    /// `None` for the node where the search stopped, the whole node.
    pub(super) moves: Option<Vec<(usize, M)>>,
    /// How many placements of [`Parked::path`] lie below it: it sits at depth
    /// `path.len() - up` below the search's root.
    pub(super) up: usize,
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
        impl<M: Row> Search<'_, M> {
            /// Searches the node of the open rows `open` (their allowed columns in `masks`,
            /// every column of `cols_free` to be taken once), telling `t` what it does.
            $(#[$attr])?
            fn $go<K: Keys, G: Geometry<M>, T: Tracer<M>>(
                &mut self,
                t: &mut T,
                open: &[u8],
                masks: &M::Masks,
                cols_free: M,
            ) -> Outcome<T::Refuted> {
                if open.is_empty() {
                    return Outcome::Board;
                }
                self.nodes += 1;
                if self.nodes.is_multiple_of(CHECK_EVERY) && self.should_stop() {
                    if self.parked.is_some() {
                        // Not searched here: the node is left whole (and counted there).
                        self.nodes -= 1;
                        self.park(
                            Node {
                                open,
                                masks,
                                cols_free,
                            },
                            None,
                        );
                    }
                    return Outcome::Stopped;
                }
                let node = Node {
                    open,
                    masks,
                    cols_free,
                };
                let (i, mut cand) = match self.$branch::<K, G>(open, masks, cols_free) {
                    Branch::Fail(why) => return ended(t.failed(node, why)),
                    Branch::Diagonal(line) => {
                        return self.$diagonal::<K, G, T>(t, node, line);
                    }
                    Branch::Column(col) => {
                        return self.$column::<K, G, T>(t, node, col);
                    }
                    Branch::Row(i, cand) => (i, cand),
                };
                // The row's cells, or a column only this row can take (a forced move); what
                // only a tracer hears, skipped untraced (`NoTrace` ignores the fork).
                let (fork, only) = if T::ON {
                    let r = open[i] as usize;
                    let fork = if cand == masks[r] {
                        Fork::Row(r)
                    } else {
                        Fork::Column(cand)
                    };
                    (fork, cand.count_ones() == 1)
                } else {
                    (Fork::Row(0), false)
                };
                let mut frame = match t.branch(node, fork, only) {
                    Ok(frame) => frame,
                    Err(Abort) => return Outcome::Stopped,
                };
                while cand != M::ZERO {
                    let bit = cand.lowest();
                    cand = cand ^ bit;
                    if let Some(out) = self.$place::<K, G, T>(t, &mut frame, node, i, bit, only) {
                        if self.parked.is_some() {
                            self.park(node, Some(bits(cand).map(|b| (i, b)).collect()));
                        }
                        return out;
                    }
                }
                ended(t.refuted(node, fork, frame))
            }

            /// How the search branches at the node of the open rows `open` (their allowed
            /// columns in `masks`, the free columns `cols_free`; at least one open row), or
            /// [`Branch::Fail`] when the node's checks refute it.
            $(#[$attr])?
            #[inline]
            fn $branch<K: Keys, G: Geometry<M>>(
                &self,
                open: &[u8],
                masks: &M::Masks,
                cols_free: M,
            ) -> Branch<M> {
                // Fail first: the row with the fewest cells; columns taken by no row (fail) or one.
                let (mut once, mut twice, mut thrice, mut four) =
                    (M::ZERO, M::ZERO, M::ZERO, M::ZERO);
                let mut best = (u32::MAX, 0usize);
                let core = self.core;
                let span = core.row_span;
                let tuning = self.tuning;
                // The sum bounds, the parity and the forced diagonals (on cores whose keys fit
                // a `K`).
                let fits = if K::BITS > 64 {
                    self.keys_two
                } else {
                    self.keys_one
                };
                let sums = fits && (tuning.sums || tuning.parity || tuning.diagonals);
                for (i, &r) in open.iter().enumerate() {
                    let m = masks[r as usize];
                    let k = m.count_ones();
                    if k == 0 {
                        return Branch::Fail(Failure::Row(r as usize));
                    }
                    if k < best.0 {
                        best = (k, i);
                    }
                    four |= thrice & m;
                    thrice |= twice & m;
                    twice |= once & m;
                    once |= m;
                }
                if cols_free & !once != M::ZERO {
                    return Branch::Fail(Failure::Column((cols_free & !once).lowest()));
                }
                // The implied sums, and the diagonals they force.
                // The forced diagonal with the fewest cells, and their number.
                let (mut forced, mut forced_cells) = (
                    Line {
                        anti: false,
                        key: 0,
                    },
                    u32::MAX,
                );
                if sums && open.len() >= SUMS_FROM {
                    // The diagonals the open rows reach (a loop of its own: in the one above
                    // two-word keys ran out of registers).
                    let (mut anti, mut main, mut rows) = (K::ZERO, K::ZERO, 0u32);
                    for &r in open {
                        let (m, p) = (masks[r as usize].low_word(), G::pos(core, r as usize));
                        anti |= K::shifted(m, p);
                        main |= K::shifted(m, span - p);
                        rows += p;
                    }
                    let (k, cols) = (open.len() as u32, key_sum(cols_free.low_word()));
                    let (mut must_anti, mut must_main) = (K::ZERO, K::ZERO);
                    if tuning.sums || tuning.diagonals {
                        let must = tuning.diagonals;
                        match (
                            Self::$bound(anti, k, rows + cols, must),
                            Self::$bound(main, k, cols + k * span - rows, must),
                        ) {
                            (Some(a), Some(m)) => (must_anti, must_main) = (a, m),
                            (None, _) => return Branch::Fail(Failure::Bound { anti: true }),
                            (_, None) => return Branch::Fail(Failure::Bound { anti: false }),
                        }
                    }
                    if tuning.parity && !parity_ok(anti, main, span + 1, k, rows + cols) {
                        return Branch::Fail(Failure::Parity);
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
                                        let m = masks[r as usize].low_word();
                                        let p = G::pos(core, r as usize);
                                        let line = if anti_kind {
                                            K::shifted(m, p)
                                        } else {
                                            K::shifted(m, span - p)
                                        };
                                        u32::from((line >> key).has_zero())
                                    })
                                    .sum();
                                if cells < forced_cells {
                                    forced = Line {
                                        anti: anti_kind,
                                        key,
                                    };
                                    forced_cells = cells;
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
                    M::ZERO
                };
                let (col, cells) = if best.0 > 1 && single != M::ZERO {
                    (single, 1)
                } else if best.0 > 2 && double != M::ZERO {
                    (double, 2)
                } else if best.0 > 3 && triple != M::ZERO {
                    (triple, 3)
                } else {
                    (M::ZERO, best.0)
                };
                if forced_cells < cells {
                    // A forced diagonal with fewer cells: branch on who takes it.
                    return Branch::Diagonal(forced);
                }
                if col != M::ZERO {
                    // A column only one (two, three) rows can take: branch on who takes it.
                    let col = col.lowest();
                    if col & single == M::ZERO {
                        return Branch::Column(col);
                    }
                    let i = open
                        .iter()
                        .position(|&r| masks[r as usize] & col != M::ZERO)
                        .expect("a column in `once` lies in some row");
                    Branch::Row(i, col)
                } else {
                    Branch::Row(best.1, masks[open[best.1] as usize])
                }
            }

            /// Branches on which open row takes column `col` (a single bit).
            $(#[$attr])?
            fn $column<K: Keys, G: Geometry<M>, T: Tracer<M>>(
                &mut self,
                t: &mut T,
                node: Node<'_, M>,
                col: M,
            ) -> Outcome<T::Refuted> {
                let (open, masks) = (node.open, node.masks);
                let only = T::ON
                    && open
                        .iter()
                        .filter(|&&r| masks[r as usize] & col != M::ZERO)
                        .count()
                        == 1;
                let fork = Fork::Column(col);
                let mut frame = match t.branch(node, fork, only) {
                    Ok(frame) => frame,
                    Err(Abort) => return Outcome::Stopped,
                };
                for i in 0..open.len() {
                    if masks[open[i] as usize] & col == M::ZERO {
                        continue;
                    }
                    if let Some(out) = self.$place::<K, G, T>(t, &mut frame, node, i, col, only) {
                        if self.parked.is_some() {
                            let left = (i + 1..open.len())
                                .filter(|&j| masks[open[j] as usize] & col != M::ZERO)
                                .map(|j| (j, col));
                            self.park(node, Some(left.collect()));
                        }
                        return out;
                    }
                }
                ended(t.refuted(node, fork, frame))
            }

            /// Branches on which open row takes the diagonal `line` (as [`Core`] numbers its
            /// key).
            $(#[$attr])?
            fn $diagonal<K: Keys, G: Geometry<M>, T: Tracer<M>>(
                &mut self,
                t: &mut T,
                node: Node<'_, M>,
                line: Line,
            ) -> Outcome<T::Refuted> {
                let (open, masks) = (node.open, node.masks);
                let Line { anti, key } = line;
                let only = T::ON
                    && open
                        .iter()
                        .filter(|&&r| on_diagonal(self.core, anti, key, r, masks).is_some())
                        .count()
                        == 1;
                let fork = Fork::Diagonal(line);
                let mut frame = match t.branch(node, fork, only) {
                    Ok(frame) => frame,
                    Err(Abort) => return Outcome::Stopped,
                };
                for i in 0..open.len() {
                    let Some(col) = on_diagonal(self.core, anti, key, open[i], masks) else {
                        continue;
                    };
                    if let Some(out) = self.$place::<K, G, T>(t, &mut frame, node, i, col, only) {
                        if self.parked.is_some() {
                            let core = self.core;
                            let left = (i + 1..open.len()).filter_map(|j| {
                                on_diagonal(core, anti, key, open[j], masks).map(|c| (j, c))
                            });
                            self.park(node, Some(left.collect()));
                        }
                        return out;
                    }
                }
                ended(t.refuted(node, fork, frame))
            }

            /// Places a piece on open row `open[i]`, column `bit`, and searches on: `None`
            /// when the child was refuted and the node goes on to its next child, else how the
            /// node ends (a board, a stop, a backjump).
            $(#[$attr])?
            fn $place<K: Keys, G: Geometry<M>, T: Tracer<M>>(
                &mut self,
                t: &mut T,
                frame: &mut T::Frame,
                node: Node<'_, M>,
                i: usize,
                bit: M,
                only: bool,
            ) -> Option<Outcome<T::Refuted>> {
                let (open, masks) = (node.open, node.masks);
                let row = open[i] as usize;
                let (mut rest, mut next) = ([0u8; MAX_CORE], *masks);
                child_into::<M, G>(
                    self.core, self.shape, open, i, bit, masks, &mut rest, &mut next,
                );
                let rest = &rest[..open.len() - 1];
                t.place(row, bit, only);
                match self.$go::<K, G, T>(t, rest, &next, node.cols_free & !bit) {
                    Outcome::Board => {
                        self.placed.push((row, bit.trailing_zeros()));
                        Some(Outcome::Board)
                    }
                    Outcome::Stopped => {
                        if let Some(parked) = &mut self.parked {
                            parked.path.push((row, bit.trailing_zeros()));
                        }
                        Some(Outcome::Stopped)
                    }
                    Outcome::Refuted(refuted) => {
                        let flow = t.child_refuted(frame, refuted, row, bit, only);
                        t.unplace(row, bit);
                        match flow {
                            Ok(Flow::Next) => None,
                            Ok(Flow::Backjump(r)) => Some(Outcome::Refuted(r)),
                            Err(Abort) => Some(Outcome::Stopped),
                        }
                    }
                }
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

impl<'a, M: Row> Search<'a, M> {
    /// A search of `core` until `cancel` stops.
    pub(super) fn new(
        shape: Shape,
        isa: Isa,
        tuning: Tuning,
        core: &'a Core<M>,
        cancel: Option<&'a Cancel>,
    ) -> Self {
        Search {
            shape,
            core,
            shifts: core.shifts && !tuning.table,
            keys_one: core.keys_fit(u64::BITS),
            keys_two: core.keys_fit(u128::BITS),
            isa,
            tuning,
            nodes: 0,
            cancel,
            stopped: None,
            placed: Vec::with_capacity(core.k()),
            budget: u64::MAX,
            start: 0,
            parked: None,
        }
    }

    /// Parks the search once it has visited `nodes` nodes (at least 2, so that it always gets
    /// past its root; counted exactly, whatever [`CHECK_EVERY`]): it then stops, with what is
    /// left to search in [`Search::parked`]. Call before the search starts.
    pub(super) fn park_after(&mut self, nodes: u64) {
        let nodes = nodes.max(2);
        // The clock is read when `nodes` is a multiple of `CHECK_EVERY`: start the count so
        // that the budget ends on one.
        self.start = (CHECK_EVERY - nodes % CHECK_EVERY) % CHECK_EVERY;
        self.nodes = self.start;
        self.budget = self.start.saturating_add(nodes);
    }

    /// The nodes visited (those [`Search::park_after`] left to search not among them).
    pub(super) fn visited(&self) -> u64 {
        self.nodes - self.start
    }

    /// Records a node left to search on the way back up from a parked search: the whole node
    /// (`moves: None`) or its branches `moves` not yet taken.
    #[cold]
    #[inline(never)]
    fn park(&mut self, node: Node<'_, M>, moves: Option<Vec<(usize, M)>>) {
        if let Some(parked) = &mut self.parked {
            parked.nodes.push(ParkedNode {
                open: node.open.to_vec(),
                masks: *node.masks,
                cols_free: node.cols_free,
                moves,
                up: parked.path.len(),
            });
        }
    }

    /// Whether the key sets take two words ([`Tuning::words`]).
    fn two_words(&self) -> bool {
        match self.tuning.words {
            // `Family` is settled before a search starts (`Tuning::settled`).
            Words::One | Words::Family => false,
            Words::Past32 => !self.keys_one,
            Words::Two => true,
        }
    }

    /// Whether the open rows `open` (their allowed columns in `masks`) can all be filled, every
    /// column of `cols_free` taken once: the search untraced ([`NoTrace`]). A board's
    /// placements go to `placed`; `stopped` says why it stopped early.
    pub(super) fn go(&mut self, open: &[u8], masks: &M::Masks, cols_free: M) -> bool {
        self.trace(&mut NoTrace, open, masks, cols_free) == Outcome::Board
    }

    /// [`Search::go_plain`] in the build `self.isa`, with the key sets' width and the kernel,
    /// telling `t` what it does.
    pub(super) fn trace<T: Tracer<M>>(
        &mut self,
        t: &mut T,
        open: &[u8],
        masks: &M::Masks,
        cols_free: M,
    ) -> Outcome<T::Refuted> {
        match (self.two_words(), self.shifts) {
            (false, true) => self.trace_in::<u64, Shift, T>(t, open, masks, cols_free),
            (true, true) => self.trace_in::<u128, Shift, T>(t, open, masks, cols_free),
            (false, false) => self.trace_in::<u64, Table, T>(t, open, masks, cols_free),
            (true, false) => self.trace_in::<u128, Table, T>(t, open, masks, cols_free),
        }
    }

    /// [`Search::go_plain`] in the build `self.isa`, with key sets `K` and kernel `G`.
    fn trace_in<K: Keys, G: Geometry<M>, T: Tracer<M>>(
        &mut self,
        t: &mut T,
        open: &[u8],
        masks: &M::Masks,
        cols_free: M,
    ) -> Outcome<T::Refuted> {
        #[cfg(target_arch = "x86_64")]
        if self.isa.has_bmi2() {
            // SAFETY: `isa` passed `Isa::usable`, so the processor has `cpu::BMI2_FEATURES`,
            // the features the function is compiled with.
            return unsafe { self.go_bmi2::<K, G, T>(t, open, masks, cols_free) };
        }
        self.go_plain::<K, G, T>(t, open, masks, cols_free)
    }

    /// [`Search::branch_plain`] in the build `self.isa`, with the key sets' width and the
    /// kernel.
    pub(super) fn branch(&self, open: &[u8], masks: &M::Masks, cols_free: M) -> Branch<M> {
        match (self.two_words(), self.shifts) {
            (false, true) => self.branch_in::<u64, Shift>(open, masks, cols_free),
            (true, true) => self.branch_in::<u128, Shift>(open, masks, cols_free),
            (false, false) => self.branch_in::<u64, Table>(open, masks, cols_free),
            (true, false) => self.branch_in::<u128, Table>(open, masks, cols_free),
        }
    }

    /// [`Search::branch_plain`] in the build `self.isa`, with key sets `K` and kernel `G`.
    fn branch_in<K: Keys, G: Geometry<M>>(
        &self,
        open: &[u8],
        masks: &M::Masks,
        cols_free: M,
    ) -> Branch<M> {
        #[cfg(target_arch = "x86_64")]
        if self.isa.has_bmi2() {
            // SAFETY: as in `Search::trace_in`.
            return unsafe { self.branch_bmi2::<K, G>(open, masks, cols_free) };
        }
        self.branch_plain::<K, G>(open, masks, cols_free)
    }

    /// The columns of core row `to` that a piece on core row `from`, column `bit` (a single
    /// bit) attacks.
    pub(super) fn hit(&self, bit: M, from: usize, to: usize) -> M {
        self.attacks().hit(bit, from, to)
    }

    /// The search's attack masks, apart from the search (for its tracers).
    pub(super) fn attacks(&self) -> Attacks<'a, M> {
        Attacks {
            core: self.core,
            shape: self.shape,
            shifts: self.shifts,
        }
    }

    /// Whether the token stopped: the time limit passed or the caller cancelled (recording
    /// why).
    pub(super) fn should_stop(&mut self) -> bool {
        if let Some(why) = self.cancel.and_then(Cancel::stopped) {
            self.stopped = Some(why.to_string());
        } else if self.nodes >= self.budget {
            self.stopped = Some("node budget spent".into());
            self.parked = Some(Parked {
                nodes: Vec::new(),
                path: Vec::new(),
            });
        }
        self.stopped.is_some()
    }
}

/// A search's attack masks ([`Search::attacks`]): what its tracers need of its kernel.
#[derive(Clone, Copy, Debug)]
pub(super) struct Attacks<'a, M: Row> {
    core: &'a Core<M>,
    shape: Shape,
    shifts: bool,
}

impl<M: Row> Attacks<'_, M> {
    /// The columns of core row `to` that a piece on core row `from`, column `bit` (a single
    /// bit) attacks.
    #[inline]
    pub(super) fn hit(&self, bit: M, from: usize, to: usize) -> M {
        if self.shifts {
            Shift::hit(self.core, self.shape, bit, from, to)
        } else {
            Table::hit(self.core, self.shape, bit, from, to)
        }
    }
}

/// The single bits of `m`, lowest first.
fn bits<M: Row>(mut m: M) -> impl Iterator<Item = M> {
    std::iter::from_fn(move || {
        (m != M::ZERO).then(|| {
            let bit = m.lowest();
            m = m ^ bit;
            bit
        })
    })
}

/// A tracer's answer for a node: refuted, or stopped when the tracer gave up.
#[inline(always)]
fn ended<R>(traced: Result<R, Abort>) -> Outcome<R> {
    match traced {
        Ok(r) => Outcome::Refuted(r),
        Err(Abort) => Outcome::Stopped,
    }
}

/// The node below placing a piece of `shape` on the open row `open[i]`, column `bit` (a single
/// bit) of `core`: the other open rows into `rest[..open.len() - 1]`, and their masks, with the
/// piece's attacks taken out (by kernel `G`), into `next` (which the caller fills with `masks`
/// first: returning the arrays by value measured 10 % slower in the search).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn child_into<M: Row, G: Geometry<M>>(
    core: &Core<M>,
    shape: Shape,
    open: &[u8],
    i: usize,
    bit: M,
    masks: &M::Masks,
    rest: &mut [u8; MAX_CORE],
    next: &mut M::Masks,
) {
    let row = open[i] as usize;
    let k = open.len() - 1;
    rest[..i].copy_from_slice(&open[..i]);
    rest[i..k].copy_from_slice(&open[i + 1..]);
    for &r in &rest[..k] {
        let r = r as usize;
        next[r] = masks[r] & !G::hit(core, shape, bit, row, r);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::piece::full;
    use crate::solve::bitboard::core::shift_hit;

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
                        o % 2 == target && o <= odd_a.min(odd_b) && k - o <= even_a.min(even_b)
                    });
                    assert_eq!(
                        parity_ok(anti, main, n, k, target),
                        want,
                        "{n} {k} {target}"
                    );
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
                    assert_eq!(
                        Search::<u64>::bound_plain(keys, k, target, true),
                        want,
                        "{what}"
                    );
                    let without = want.map(|_| 0);
                    assert_eq!(
                        Search::<u64>::bound_plain(keys, k, target, false),
                        without,
                        "{what}"
                    );
                    // Two words: the same set, and the set moved across both words (every
                    // key, and so the target, k times 40 more).
                    let wide = u128::from(keys);
                    let got = Search::<u64>::bound_plain(wide, k, target, true);
                    assert_eq!(got, want.map(u128::from), "{what}");
                    let got = Search::<u64>::bound_plain(wide << 40, k, target + 40 * k, true);
                    assert_eq!(got, want.map(|w| u128::from(w) << 40), "{what} << 40");
                    #[cfg(target_arch = "x86_64")]
                    if fast {
                        // SAFETY: the processor has the features the function is built with.
                        let got = unsafe { Search::<u64>::bound_bmi2(keys, k, target, true) };
                        assert_eq!(got, want, "{what}");
                        // SAFETY: as above.
                        let got = unsafe {
                            Search::<u64>::bound_bmi2(wide << 40, k, target + 40 * k, true)
                        };
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
                                shift_hit(shape, 1u64 << col, d) & full(n),
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
                    let got = Search::<u64>::within_plain(keys, k, target);
                    assert_eq!(got, want, "{keys:#x} {k} {target}");
                    #[cfg(target_arch = "x86_64")]
                    if fast {
                        // SAFETY: the processor has the features the function is built with.
                        let got = unsafe { Search::<u64>::within_bmi2(keys, k, target) };
                        assert_eq!(got, want, "{keys:#x} {k} {target}");
                    }
                }
            }
        }
    }
}
