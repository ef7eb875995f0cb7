//! Solutions you can iterate (issue 54 §2): every board of an instance, or one board per class
//! modulo its symmetries, yielded one at a time by a backtracking search with an explicit stack,
//! so memory stays O(n) however many boards come out, and the first board of n = 30 comes after
//! a few hundred nodes.
//!
//! The search fills one row at a time, always the unfilled row with the fewest free cells
//! (ties: the lowest row), trying its free columns from left to right; it prunes a node as soon
//! as some unfilled row has no free cell left. Under `symmetric = g` each choice places the
//! whole orbit of the cell under `<g>`, so only the g-symmetric boards are walked.
//!
//! Modulo symmetry, the boards yielded are the lex-leaders of `--break-symmetry lex`
//! ([`crate::encode::lex`]): within each class of the group H ([`count_group`]: the instance's
//! symmetries that map `<g>` onto itself), the board that is lexicographically largest in
//! row-major order, a piece counting 1; with one piece per row, the board whose column sequence
//! (row 0 first) is the least. A class is yielded when the search meets the first of its boards
//! in its own order (comparing a board with each image by replaying the search's choices, O(n²)
//! each), as that class's lex-leader. The search order does not decide which board stands for a
//! class, only when it comes out: the same boards in Rust, on the command line and in Python.
//!
//! Every board yielded has passed the independent checker ([`crate::verify`]).

use std::time::{Duration, Instant};

use crate::board::{Board, Cell};
use crate::count::backtrack;
use crate::error::{Error, Result};
use crate::instance::Instance;
use crate::interrupt::{Cancel, Stop};
use crate::piece::{self, LineKind, Piece};
use crate::symmetry::{Symmetry, count_group, generated};
use crate::verify::verify;

/// Largest board side the enumeration handles (one `u64` per row).
pub const MAX_N: u32 = backtrack::MAX_N;

/// How many search nodes pass between two looks at the cancel token and the time limit.
const POLL_NODES: u64 = 1 << 10;

/// A row without a piece yet.
const EMPTY: u8 = u8::MAX;

/// The cells one choice placed: a cell and its images under `<g>` (at most 4 distinct).
#[derive(Clone, Copy, Debug, Default)]
struct Placed {
    cells: [(u8, u8); 8],
    len: u8,
}

impl Placed {
    fn iter(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.cells[..self.len as usize]
            .iter()
            .map(|&(r, c)| (r as usize, c as usize))
    }
}

/// A partial board: the piece of each row, and the columns and diagonals they attack.
#[derive(Clone, Debug)]
struct State {
    n: usize,
    full: u64,
    /// Allowed columns per row (blocked cells, excluded diagonals and the cells pre-placed
    /// pieces attack removed; a pre-placed piece's row allows its column alone).
    allowed: Vec<u64>,
    col_attack: bool,
    diag_attack: bool,
    anti_attack: bool,
    /// Every leap of the piece (closed under negation, none within a row).
    leaps: Vec<(i32, i32)>,
    /// The column of each row's piece, or [`EMPTY`].
    row_col: Vec<u8>,
    cols: u64,
    /// Bit `c - r + n - 1` for a piece on `(r, c)`.
    diag: u128,
    /// Bit `r + c` for a piece on `(r, c)`.
    anti: u128,
}

impl State {
    /// The free columns of row `k`: allowed, and attacked by no piece placed so far (none if
    /// the row holds a piece).
    #[inline]
    fn free(&self, k: usize) -> u64 {
        if self.row_col[k] != EMPTY {
            return 0;
        }
        let n = self.n;
        let mut m = self.allowed[k];
        if self.col_attack {
            m &= !self.cols;
        }
        if self.diag_attack {
            m &= !((self.diag >> (n - 1 - k)) as u64);
        }
        if self.anti_attack {
            m &= !((self.anti >> k) as u64);
        }
        for &(dr, dc) in &self.leaps {
            // A piece on row k - dr attacks column (its column + dc) of row k.
            let k2 = k as i64 - i64::from(dr);
            if (0..n as i64).contains(&k2) {
                let q = self.row_col[k2 as usize];
                if q != EMPTY {
                    let c = i64::from(q) + i64::from(dc);
                    if (0..n as i64).contains(&c) {
                        m &= !(1u64 << c);
                    }
                }
            }
        }
        m & self.full
    }

    /// The row to fill next: the unfilled row with the fewest free cells (the lowest among
    /// equals), with its free columns; `None` once every row holds a piece.
    fn choose(&self) -> Option<(usize, u64)> {
        let mut best: Option<(usize, u64)> = None;
        let mut fewest = u32::MAX;
        for k in 0..self.n {
            if self.row_col[k] != EMPTY {
                continue;
            }
            let m = self.free(k);
            let count = m.count_ones();
            if count < fewest {
                fewest = count;
                best = Some((k, m));
                if count == 0 {
                    break;
                }
            }
        }
        best
    }

    fn toggle(&mut self, r: usize, c: usize, on: bool) {
        let n = self.n;
        self.row_col[r] = if on { c as u8 } else { EMPTY };
        self.cols ^= 1 << c;
        self.diag ^= 1 << (c + n - 1 - r);
        self.anti ^= 1 << (r + c);
    }

    /// Places the orbit of `(r, c)` under `orbit` (a subgroup of D4, identity first) into
    /// `placed`: true if every cell of it was free, else nothing is placed.
    fn place(&mut self, r: usize, c: usize, orbit: &[Symmetry], placed: &mut Placed) -> bool {
        placed.len = 0;
        let n = self.n as u32;
        for &g in orbit {
            let cell = g.apply(Cell::new(r as u32, c as u32), n);
            let (cr, cc) = (cell.row as usize, cell.col as usize);
            if placed.iter().any(|x| x == (cr, cc)) {
                continue;
            }
            if self.free(cr) >> cc & 1 == 0 {
                self.unplace(placed);
                placed.len = 0;
                return false;
            }
            self.toggle(cr, cc, true);
            placed.cells[placed.len as usize] = (cr as u8, cc as u8);
            placed.len += 1;
        }
        true
    }

    fn unplace(&mut self, placed: &Placed) {
        for (r, c) in placed.iter() {
            self.toggle(r, c, false);
        }
    }

    fn clear(&mut self) {
        self.row_col.fill(EMPTY);
        self.cols = 0;
        self.diag = 0;
        self.anti = 0;
    }
}

/// One open node of the search: the row it fills, the columns still to try, and the cells the
/// current choice placed.
#[derive(Clone, Copy, Debug)]
struct Frame {
    row: usize,
    untried: u64,
    placed: Placed,
}

/// What one step of the search ended with.
enum Step {
    /// A complete board (in the search's state).
    Found,
    /// Every board was walked.
    Exhausted,
    /// The token stopped or the time limit passed.
    Stopped(Stop),
}

/// The solutions of an instance as an iterator of verified boards: all of them, or with `modulo_symmetry` one lex-leader per class of the group
/// [`Solutions::group`]; under `symmetric = g` only the boards `g` maps to themselves. The
/// state is O(n) whatever the number of boards yielded.
///
/// The iterator ends when every board was yielded, or when its token is raised or its time
/// limit passes: [`Solutions::stopped`] then says why (`None`: every board came out). A
/// stopped iterator resumes where it stopped on the next call with a lowered token (the time
/// limit, once spent, stays spent). An `Err` item is a board the checker refused (a bug,
/// never expected); the iterator ends after it.
///
/// ```
/// use queens_sat::{count::Solutions, instance::Instance, piece::QUEEN};
/// let all = Solutions::new(&Instance::plain(8), QUEEN, None, false).unwrap();
/// assert_eq!(all.count(), 92);
/// let classes: Vec<_> = Solutions::new(&Instance::plain(8), QUEEN, None, true)
///     .unwrap()
///     .collect::<Result<_, _>>()
///     .unwrap();
/// assert_eq!(classes.len(), 12);
/// // n = 30 has far too many boards to count this way; the first comes at once.
/// let first = Solutions::new(&Instance::plain(30), QUEEN, None, true).unwrap().next();
/// assert_eq!(first.unwrap().unwrap().pieces.len(), 30);
/// ```
#[derive(Debug)]
pub struct Solutions {
    instance: Instance,
    piece: Piece,
    symmetric: Option<Symmetry>,
    modulo_symmetry: bool,
    /// H, identity first.
    group: Vec<Symmetry>,
    /// `<g>` under `symmetric = g`, else the identity alone: what each choice places.
    orbit: Vec<Symmetry>,
    state: State,
    /// A second state for replaying the search's choices (modulo symmetry).
    scratch: State,
    stack: Vec<Frame>,
    started: bool,
    done: bool,
    nodes: u64,
    cancel: Cancel,
    limit: Option<Duration>,
    spent: Duration,
    stopped: Option<Stop>,
    yielded: u64,
}

impl Solutions {
    /// The boards of `instance` for `piece`: those `symmetric` maps to themselves when given
    /// (`id` is no restriction), one lex-leader per class of [`Solutions::group`] with
    /// `modulo_symmetry`. Refuses boards past `MAX_N` and pieces the bitboard search does not
    /// model (`backtrack::supports`: queens and amazons are modelled) with a usage error. No
    /// search happens before the first [`Iterator::next`].
    pub fn new(
        instance: &Instance,
        piece: Piece,
        symmetric: Option<Symmetry>,
        modulo_symmetry: bool,
    ) -> Result<Solutions> {
        instance.check()?;
        let n = instance.n;
        if n > MAX_N {
            return Err(Error::Usage(format!(
                "the solutions are enumerated for n <= {MAX_N}, not {n}"
            )));
        }
        backtrack::supports(&piece)?;
        let symmetric = symmetric.filter(|&g| g != Symmetry::Id);
        let allowed = backtrack::allowed_cells(instance, &piece)?;
        let nn = n as usize;
        let (mut col_attack, mut diag_attack, mut anti_attack) = (false, false, false);
        for &kind in piece.lines {
            // Every kind named: a new one must be modelled in `State::free`.
            match kind {
                LineKind::Row => {} // one piece per row is the search itself
                LineKind::Column => col_attack = true,
                LineKind::Diagonal => diag_attack = true,
                LineKind::AntiDiagonal => anti_attack = true,
            }
        }
        let state = State {
            n: nn,
            full: piece::full(nn),
            allowed,
            col_attack,
            diag_attack,
            anti_attack,
            leaps: piece.leaps.to_vec(),
            row_col: vec![EMPTY; nn],
            cols: 0,
            diag: 0,
            anti: 0,
        };
        Ok(Solutions {
            instance: instance.clone(),
            piece,
            symmetric,
            modulo_symmetry,
            group: count_group(instance, &piece, symmetric),
            orbit: match symmetric {
                Some(g) => generated(&[g]),
                None => vec![Symmetry::Id],
            },
            scratch: state.clone(),
            state,
            stack: Vec::with_capacity(nn),
            started: false,
            done: false,
            nodes: 0,
            cancel: Cancel::new(),
            limit: None,
            spent: Duration::ZERO,
            stopped: None,
            yielded: 0,
        })
    }

    /// The token [`Iterator::next`] polls (every thousand nodes or so).
    pub fn with_cancel(mut self, cancel: Cancel) -> Solutions {
        self.cancel = cancel;
        self
    }

    /// A limit on the time spent searching, over every call together (time between calls, a
    /// consumer's, does not count); `None` is no limit.
    pub fn with_time_limit(mut self, limit: Option<Duration>) -> Solutions {
        self.limit = limit;
        self
    }

    /// The group H the classes are taken modulo (`count_group`), identity first; its
    /// elements map the boards yielded without `modulo_symmetry` onto each other.
    pub fn group(&self) -> &[Symmetry] {
        &self.group
    }

    /// `symmetric = g` as given (`None` also for `id`).
    pub fn symmetric(&self) -> Option<Symmetry> {
        self.symmetric
    }

    /// Whether one board per class is yielded.
    pub fn modulo_symmetry(&self) -> bool {
        self.modulo_symmetry
    }

    /// The boards yielded so far.
    pub fn yielded(&self) -> u64 {
        self.yielded
    }

    /// Why the last call ended without a board: the token was raised or the time limit passed
    /// (`None` while boards come, and once every board came out).
    pub fn stopped(&self) -> Option<Stop> {
        self.stopped
    }

    /// [`Iterator::next`] polling `cancel` instead of the iterator's own token (and the time
    /// limit): the next board, or `None` when there is none left or the search stopped
    /// ([`Solutions::stopped`]).
    pub fn next_with(&mut self, cancel: &Cancel) -> Option<Result<Board>> {
        if self.done {
            return None;
        }
        let start = Instant::now();
        self.stopped = self.stop(cancel, start);
        if self.stopped.is_some() {
            return None;
        }
        let result = loop {
            match self.step(cancel, start) {
                Step::Exhausted => {
                    self.done = true;
                    break None;
                }
                Step::Stopped(why) => {
                    self.stopped = Some(why);
                    break None;
                }
                Step::Found => {
                    let cols: Vec<u8> = self.state.row_col.clone();
                    let Some(leader) = self.representative(&cols) else {
                        continue;
                    };
                    break Some(self.board(&leader));
                }
            }
        };
        self.spent += start.elapsed();
        if let Some(Err(_)) = result {
            self.done = true;
        } else if result.is_some() {
            self.yielded += 1;
        }
        result
    }

    /// The verified board of the column sequence `cols`.
    fn board(&self, cols: &[u8]) -> Result<Board> {
        let n = self.instance.n;
        let pieces = cols
            .iter()
            .enumerate()
            .map(|(r, &c)| Cell::new(r as u32, u32::from(c)))
            .collect();
        let board = Board::new(n, pieces);
        verify(&board, &self.instance, self.piece)
            .map_err(|why| Error::WrongAnswer(format!("an enumerated board: {why}")))?;
        Ok(board)
    }

    /// What the complete board `cols` yields: itself without `modulo_symmetry`; else its
    /// class's lex-leader if `cols` is the first board of its class in the search's order,
    /// and nothing otherwise.
    fn representative(&mut self, cols: &[u8]) -> Option<Vec<u8>> {
        if !self.modulo_symmetry {
            return Some(cols.to_vec());
        }
        let mut leader = cols.to_vec();
        let mut image = vec![0u8; cols.len()];
        let group = self.group.clone();
        for &h in group.iter().filter(|&&h| h != Symmetry::Id) {
            self.image(h, cols, &mut image);
            if image == cols {
                continue;
            }
            if self.searched_before(&image, cols) {
                return None;
            }
            if image < leader {
                leader.copy_from_slice(&image);
            }
        }
        Some(leader)
    }

    /// The column sequence of the image of the board `cols` under `h`.
    fn image(&self, h: Symmetry, cols: &[u8], out: &mut [u8]) {
        let n = self.instance.n;
        for (r, &c) in cols.iter().enumerate() {
            let to = h.apply(Cell::new(r as u32, u32::from(c)), n);
            out[to.row as usize] = to.col as u8;
        }
    }

    /// Whether the search meets the complete board `a` before the complete board `b` (both
    /// solutions): the choices are replayed from the empty board until the two differ, in the
    /// row the search fills there.
    fn searched_before(&mut self, a: &[u8], b: &[u8]) -> bool {
        let s = &mut self.scratch;
        s.clear();
        let mut placed = Placed::default();
        while let Some((r, _)) = s.choose() {
            if a[r] != b[r] {
                return a[r] < b[r];
            }
            let ok = s.place(r, usize::from(a[r]), &self.orbit, &mut placed);
            debug_assert!(ok, "a solution's prefix is placeable");
            if !ok {
                return false;
            }
        }
        false
    }

    /// Runs the search to its next complete board, its end, or a stop.
    fn step(&mut self, cancel: &Cancel, start: Instant) -> Step {
        if !self.started {
            self.started = true;
            match self.state.choose() {
                None => return Step::Exhausted, // no row: n = 0 is refused earlier
                Some((_, 0)) => return Step::Exhausted,
                Some((row, untried)) => self.stack.push(Frame {
                    row,
                    untried,
                    placed: Placed::default(),
                }),
            }
        }
        loop {
            self.nodes += 1;
            if self.nodes.is_multiple_of(POLL_NODES)
                && let Some(why) = self.stop(cancel, start)
            {
                return Step::Stopped(why);
            }
            let Some(top) = self.stack.last_mut() else {
                return Step::Exhausted;
            };
            self.state.unplace(&top.placed);
            top.placed.len = 0;
            let mut chosen = false;
            while top.untried != 0 {
                let c = top.untried.trailing_zeros() as usize;
                top.untried &= top.untried - 1;
                if self.state.place(top.row, c, &self.orbit, &mut top.placed) {
                    chosen = true;
                    break;
                }
            }
            if !chosen {
                self.stack.pop();
                continue;
            }
            match self.state.choose() {
                None => return Step::Found,
                Some((_, 0)) => {} // a row left without a free cell: the next turn undoes
                Some((row, untried)) => self.stack.push(Frame {
                    row,
                    untried,
                    placed: Placed::default(),
                }),
            }
        }
    }

    /// Why the search must stop now, if it must: the token, then the time limit.
    fn stop(&self, cancel: &Cancel, start: Instant) -> Option<Stop> {
        if let Some(why) = cancel.stopped() {
            return Some(why);
        }
        let limit = self.limit?;
        (self.spent + start.elapsed() >= limit).then_some(Stop::TimeLimit(limit))
    }
}

impl Iterator for Solutions {
    type Item = Result<Board>;

    fn next(&mut self) -> Option<Result<Board>> {
        let cancel = self.cancel.clone();
        self.next_with(&cancel)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::piece::{AMAZON, QUEEN};

    fn count(n: u32, piece: Piece, g: Option<Symmetry>, modulo: bool) -> usize {
        Solutions::new(&Instance::plain(n), piece, g, modulo)
            .unwrap()
            .collect::<Result<Vec<Board>>>()
            .unwrap()
            .len()
    }

    #[test]
    fn published_counts() {
        let all: Vec<usize> = (1..=9).map(|n| count(n, QUEEN, None, false)).collect();
        assert_eq!(all, [1, 0, 0, 2, 10, 4, 40, 92, 352]);
        let classes: Vec<usize> = (1..=9).map(|n| count(n, QUEEN, None, true)).collect();
        assert_eq!(classes, [1, 0, 0, 1, 2, 1, 6, 12, 46]);
        assert_eq!(count(10, AMAZON, None, false), 4);
        assert_eq!(count(8, QUEEN, Some(Symmetry::R180), false), 4);
    }

    #[test]
    fn a_stop_resumes() {
        let cancel = Cancel::new();
        cancel.cancel();
        let mut s = Solutions::new(&Instance::plain(10), QUEEN, None, false).unwrap();
        // Raised: nothing comes out (the poll comes within a thousand nodes).
        assert!(s.next_with(&cancel).is_none());
        assert_eq!(s.stopped(), Some(Stop::Cancelled));
        let rest = s.collect::<Result<Vec<Board>>>().unwrap().len();
        assert_eq!(rest, 724);
    }
}
