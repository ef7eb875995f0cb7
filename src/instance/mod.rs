//! Instances: what the user gave (board side, pre-placed pieces, blocked cells, excluded
//! diagonals), and the readers for the three file formats.
//!
//! Readers are pure functions from text to [`Instance`]; errors carry the file name and line.
//!
//! # Invariants
//!
//! An instance means one thing, whichever front end (command line, Python, a file format) made
//! it, and keeps meaning it through every writer and reader:
//!
//! - pre-placed pieces, blocked cells and excluded diagonals are **sets**: a repeated entry is
//!   merged (a duplicate pre-placed cell is one piece), equality and hashing ignore order and
//!   repeats, and the canonical order ([`Instance::canonical`]) is sorted (cells row-major,
//!   diagonals by `(k, t)` as a diagonals file writes them);
//! - every cell is on the `n x n` board and every diagonal key below `2n - 1`;
//! - a pre-placed piece never stands on a blocked cell nor on an excluded diagonal: either is a
//!   [`BadInstance`] naming the cell (and the diagonal), never an UNSAT instance;
//! - pre-placed pieces that attack each other are a valid instance, and UNSAT: presolve says
//!   why ([`crate::presolve::Problem::unsat`]).
//!
//! [`Instance::new`] builds a checked, canonical instance; the readers return one; presolve
//! refuses an instance that breaks the invariants ([`Instance::check`]).

use std::collections::HashSet;
use std::fmt;

use crate::board::{Cell, MAX_N};
pub use crate::error::{BadInstance, Part};
use crate::error::{Error, Result};
use crate::piece::LineKind;

mod board_text;
mod diags;
mod param;
pub mod write;

gated!(feature = "oracle" => use board_text::parse_board;);
gated!(feature = "oracle" => use diags::parse_diags;);
gated!(feature = "oracle" => use param::parse_param;);

/// A whole diagonal excluded from the board: every cell on it is blocked.
///
/// Diagonals order as a diagonals file writes them, by the pair `[k, t]` ([`ExcludedDiagonal::csplib`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ExcludedDiagonal {
    /// [`LineKind::Diagonal`] (difference, csplib `t = 0`) or [`LineKind::AntiDiagonal`] (sum, `t = 1`).
    pub kind: LineKind,
    /// The line key as [`LineKind::key`] computes it; equal to csplib's `k` for both kinds.
    pub key: u32,
}

impl ExcludedDiagonal {
    /// The csplib pair `(k, t)`: `t = 1` for a sum (anti-)diagonal, `t = 0` for a difference
    /// diagonal.
    pub fn csplib(self) -> (u32, u32) {
        (self.key, u32::from(self.kind == LineKind::AntiDiagonal))
    }

    /// Whether `cell` of an `n x n` board lies on this diagonal.
    pub fn contains(self, cell: Cell, n: u32) -> bool {
        self.kind.key(cell, n) == self.key
    }
}

impl PartialOrd for ExcludedDiagonal {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for ExcludedDiagonal {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.csplib().cmp(&other.csplib())
    }
}

impl fmt::Display for ExcludedDiagonal {
    /// `anti-diagonal 5` / `diagonal 4`: the kind and the key (csplib's `k`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.kind.name(), self.key)
    }
}

/// What the user gave; nothing computed.
///
/// The fields are open (the solvers' cubes extend `placed`), so an `Instance` written as a
/// struct literal may break the invariants of the [module](self): [`Instance::new`] and the
/// readers check them, presolve refuses an instance that breaks them. Equality and hashing
/// treat the three lists as sets (order and repeats do not matter).
#[derive(Clone, Debug, Default)]
pub struct Instance {
    /// Board side, `1..=65536`.
    pub n: u32,
    /// Pre-placed pieces (completion); sorted row-major in a canonical instance.
    pub placed: Vec<Cell>,
    /// Blocked cells; sorted row-major in a canonical instance.
    pub blocked: Vec<Cell>,
    /// Excluded diagonals; sorted by `(k, t)` in a canonical instance.
    pub excluded: Vec<ExcludedDiagonal>,
}

impl PartialEq for Instance {
    /// The same side, the same sets of pre-placed pieces, blocked cells and excluded diagonals.
    fn eq(&self, other: &Self) -> bool {
        if self.n != other.n {
            return false;
        }
        if self.is_canonical() && other.is_canonical() {
            return self.placed == other.placed
                && self.blocked == other.blocked
                && self.excluded == other.excluded;
        }
        let (a, b) = (self.canonical(), other.canonical());
        a.placed == b.placed && a.blocked == b.blocked && a.excluded == b.excluded
    }
}

impl Eq for Instance {}

impl std::hash::Hash for Instance {
    /// Hashes the canonical form, agreeing with `==`.
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        let hash = |i: &Instance, state: &mut H| {
            i.n.hash(state);
            i.placed.hash(state);
            i.blocked.hash(state);
            i.excluded.hash(state);
        };
        if self.is_canonical() {
            hash(self, state);
        } else {
            hash(&self.canonical(), state);
        }
    }
}

/// Whether `v` is strictly increasing (sorted, no repeats).
fn strictly_sorted<T: Ord>(v: &[T]) -> bool {
    v.windows(2).all(|w| w[0] < w[1])
}

/// Sorts `v` and drops repeats.
fn sort_dedup<T: Ord>(v: &mut Vec<T>) {
    v.sort_unstable();
    v.dedup();
}

impl Instance {
    /// The empty `n x n` board.
    pub fn plain(n: u32) -> Instance {
        Instance {
            n,
            ..Instance::default()
        }
    }

    /// A checked, canonical instance: the lists sorted and their repeats merged (a cell given
    /// twice in `placed` is one piece), then [`Instance::check`]ed.
    ///
    /// ```
    /// use queens_sat::{board::Cell, instance::Instance};
    /// let i = Instance::new(8, vec![Cell::new(5, 5), Cell::new(5, 5)], vec![Cell::new(6, 5), Cell::new(0, 3)], vec![]).unwrap();
    /// assert_eq!((i.placed.len(), i.blocked[0]), (1, Cell::new(0, 3)));
    /// let e = Instance::new(8, vec![Cell::new(0, 0)], vec![Cell::new(0, 0)], vec![]).unwrap_err();
    /// assert_eq!(e.to_string(), "pre-placed piece at (0,0) is on a blocked cell");
    /// ```
    pub fn new(
        n: u32,
        placed: Vec<Cell>,
        blocked: Vec<Cell>,
        excluded: Vec<ExcludedDiagonal>,
    ) -> Result<Instance> {
        let mut inst = Instance {
            n,
            placed,
            blocked,
            excluded,
        };
        inst.canonicalize();
        inst.check()?;
        Ok(inst)
    }

    /// Sorts the three lists (cells row-major, diagonals by `(k, t)`) and drops repeats.
    pub fn canonicalize(&mut self) {
        sort_dedup(&mut self.placed);
        sort_dedup(&mut self.blocked);
        sort_dedup(&mut self.excluded);
    }

    /// The canonical form: the same instance with sorted lists without repeats.
    pub fn canonical(&self) -> Instance {
        let mut c = self.clone();
        c.canonicalize();
        c
    }

    /// Whether the three lists are sorted and free of repeats.
    pub fn is_canonical(&self) -> bool {
        strictly_sorted(&self.placed)
            && strictly_sorted(&self.blocked)
            && strictly_sorted(&self.excluded)
    }

    /// The instance as board text and parameter files hold it: the excluded diagonals become the
    /// blocked cells they cover (canonical, so merged with the blocked cells already there).
    ///
    /// ```
    /// use queens_sat::{board::Cell, instance::{ExcludedDiagonal, Instance}, piece::LineKind};
    /// let d = ExcludedDiagonal { kind: LineKind::AntiDiagonal, key: 1 };
    /// let i = Instance::new(2, vec![], vec![Cell::new(0, 1)], vec![d]).unwrap();
    /// assert_eq!(i.excluded_as_blocked().blocked, vec![Cell::new(0, 1), Cell::new(1, 0)]);
    /// ```
    pub fn excluded_as_blocked(&self) -> Instance {
        let mut placed = self.placed.clone();
        sort_dedup(&mut placed);
        Instance {
            n: self.n,
            placed,
            blocked: write::unavailable_cells(self),
            excluded: Vec::new(),
        }
    }

    /// Checks the invariants of the [module](self): the side in `1..=MAX_N`, every cell on the
    /// board and every diagonal key below `2n - 1`, no pre-placed piece on a blocked cell or an
    /// excluded diagonal. The first fault (in canonical order) is an [`Error::Instance`].
    pub fn check(&self) -> Result<()> {
        self.check_ranges()?;
        self.check_pieces(&self.obstacles())
    }

    /// The range half of [`Instance::check`].
    fn check_ranges(&self) -> Result<()> {
        let n = self.n;
        if !(1..=MAX_N).contains(&n) {
            return Err(BadInstance::Side { n: u64::from(n) }.into());
        }
        for (part, cells) in [(Part::Placed, &self.placed), (Part::Blocked, &self.blocked)] {
            if let Some(&cell) = cells.iter().filter(|c| c.row >= n || c.col >= n).min() {
                return Err(BadInstance::CellOutside { part, cell, n }.into());
            }
        }
        if let Some(&d) = self
            .excluded
            .iter()
            .filter(|d| u64::from(d.key) >= 2 * u64::from(n) - 1)
            .min()
        {
            return Err(BadInstance::DiagonalOutside {
                kind: d.kind.name(),
                key: d.key,
                n,
            }
            .into());
        }
        Ok(())
    }

    /// The pieces half of [`Instance::check`], with the instance's `obstacles`.
    fn check_pieces(&self, obstacles: &Obstacles) -> Result<()> {
        let mut bad: Option<BadInstance> = None;
        for &cell in &self.placed {
            if !obstacles.contains(cell) || bad.as_ref().is_some_and(|b| first_cell(b) < cell) {
                continue;
            }
            bad = Some(match obstacles.cells.contains(&cell) {
                true => BadInstance::PieceOnBlocked { cell },
                false => {
                    let d = self
                        .excluded
                        .iter()
                        .copied()
                        .filter(|d| d.contains(cell, self.n))
                        .min()
                        .expect(
                            "an unavailable cell that is not blocked is on an excluded diagonal",
                        );
                    BadInstance::PieceOnExcluded {
                        cell,
                        kind: d.kind.name(),
                        key: d.key,
                    }
                }
            });
        }
        bad.map_or(Ok(()), |b| Err(b.into()))
    }

    /// [`Instance::check`], then [`Instance::obstacles`] (built once for both): what presolve
    /// asks.
    pub(crate) fn obstacles_checked(&self) -> Result<Obstacles> {
        self.check_ranges()?;
        let obstacles = self.obstacles();
        self.check_pieces(&obstacles)?;
        Ok(obstacles)
    }

    /// True when nothing is pre-placed, blocked or excluded.
    pub fn is_plain(&self) -> bool {
        self.placed.is_empty() && self.blocked.is_empty() && self.excluded.is_empty()
    }

    /// True when the cells this instance makes unavailable are excluded diagonals only (some
    /// excluded, none blocked; pieces may be pre-placed): where the default strategy's cube
    /// solver searches modulo the instance's symmetries. (The bitboard search decides its
    /// family from the presolved core: `solve::bitboard::diagonal_family`.)
    pub fn excluded_diagonals_only(&self) -> bool {
        !self.excluded.is_empty() && self.blocked.is_empty()
    }

    /// A fast membership test for the cells this instance makes unavailable
    /// (blocked cells and cells on excluded diagonals).
    pub fn obstacles(&self) -> Obstacles {
        let lines = 2 * self.n as usize - 1;
        let mut by_row = self.blocked.clone();
        by_row.sort_unstable_by_key(|c| (c.row, c.col));
        let mut o = Obstacles {
            n: self.n,
            cells: self.blocked.iter().copied().collect(),
            by_row,
            excluded: self.excluded.clone(),
            diag: vec![false; lines],
            anti: vec![false; lines],
        };
        for e in &self.excluded {
            match e.kind {
                LineKind::Diagonal => o.diag[e.key as usize] = true,
                _ => o.anti[e.key as usize] = true,
            }
        }
        o
    }
}

/// The cell of a piece fault ([`Instance::check_pieces`] reports the first in row-major order).
fn first_cell(b: &BadInstance) -> Cell {
    match b {
        BadInstance::PieceOnBlocked { cell } | BadInstance::PieceOnExcluded { cell, .. } => *cell,
        _ => Cell::new(0, 0),
    }
}

/// Membership test for unavailable cells, built by [`Instance::obstacles`].
#[derive(Clone, Debug)]
pub struct Obstacles {
    n: u32,
    cells: HashSet<Cell>,
    /// The blocked cells in row-major order.
    by_row: Vec<Cell>,
    excluded: Vec<ExcludedDiagonal>,
    diag: Vec<bool>,
    anti: Vec<bool>,
}

impl Obstacles {
    /// Whether `cell` is blocked, directly or by an excluded diagonal.
    #[inline]
    pub fn contains(&self, cell: Cell) -> bool {
        self.diag[LineKind::Diagonal.key(cell, self.n) as usize]
            || self.anti[LineKind::AntiDiagonal.key(cell, self.n) as usize]
            || (!self.cells.is_empty() && self.cells.contains(&cell))
    }

    /// Writes `x` on the unavailable cells of row `r` in `line` (one byte per column), in time
    /// proportional to the excluded diagonals and the row's blocked cells: what
    /// [`crate::board::Board::write_text`] asks (a completion board of n = 5,500, 30 M cells,
    /// prints in 0.01 s instead of 0.07 s cell by cell).
    pub fn mark_row(&self, r: u32, line: &mut [u8]) {
        let n = i64::from(self.n);
        for e in &self.excluded {
            let (r, key) = (i64::from(r), i64::from(e.key));
            let c = match e.kind {
                LineKind::Diagonal => r + n - 1 - key,
                _ => key - r,
            };
            if (0..n).contains(&c) {
                line[c as usize] = b'x';
            }
        }
        let from = self.by_row.partition_point(|c| c.row < r);
        for c in self.by_row[from..].iter().take_while(|c| c.row == r) {
            line[c.col as usize] = b'x';
        }
    }
}

/// The three instance formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum InstanceFormat {
    /// Board text: `Q`, `.`, `x`, `#` comments.
    Board,
    /// csplib / Essence' parameter file (`letting n = ...`).
    Param,
    /// csplib prob079 excluded-diagonals file (`n = `, `numdiags = `, `diags = `).
    Diags,
}

impl InstanceFormat {
    /// Every instance format, in help order.
    pub const ALL: [InstanceFormat; 3] = [
        InstanceFormat::Board,
        InstanceFormat::Param,
        InstanceFormat::Diags,
    ];

    /// The format's name (`--format`, Python's `format=`).
    pub fn name(self) -> &'static str {
        match self {
            InstanceFormat::Board => "board",
            InstanceFormat::Param => "param",
            InstanceFormat::Diags => "diags",
        }
    }

    /// The names of [`InstanceFormat::ALL`].
    pub fn names() -> Vec<&'static str> {
        InstanceFormat::ALL.iter().map(|f| f.name()).collect()
    }

    /// The format named `name`, or a typed error listing the known ones.
    ///
    /// ```
    /// use queens_sat::instance::InstanceFormat;
    /// assert_eq!(InstanceFormat::parse("param").unwrap(), InstanceFormat::Param);
    /// assert_eq!(
    ///     InstanceFormat::parse("xml").unwrap_err().to_string(),
    ///     "unknown --format 'xml' (known: board, param, diags)"
    /// );
    /// ```
    pub fn parse(name: &str) -> crate::Result<InstanceFormat> {
        InstanceFormat::ALL
            .into_iter()
            .find(|f| f.name() == name)
            .ok_or_else(|| {
                crate::error::BadOption::unknown(
                    crate::error::Opt::InstanceFormat,
                    name,
                    &InstanceFormat::names(),
                )
            })
    }
}

/// Detects the format of an instance file from its first statement (comment lines, starting
/// with `#` or `$`, are skipped): `language`/`letting` is a parameter file, `n =`, `numdiags =`
/// or `diags =` an excluded-diagonals file, anything else board text.
pub(crate) fn detect_format(text: &str) -> InstanceFormat {
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with('$'))
        .unwrap_or("");
    let word: String = first
        .chars()
        .take_while(|c| c.is_ascii_alphabetic())
        .collect();
    let rest = first[word.len()..].trim_start();
    match word.as_str() {
        "language" | "letting" => InstanceFormat::Param,
        "n" | "numdiags" | "diags" if rest.starts_with('=') => InstanceFormat::Diags,
        _ => InstanceFormat::Board,
    }
}

/// Reads an instance from `text` (named `file` in errors), detecting its format.
///
/// `diags` takes only the first `D` excluded diagonals of an excluded-diagonals file; it is an
/// error for the other formats and when `D` exceeds the file's `numdiags`.
///
/// ```
/// let inst = queens_sat::instance::read_instance("b.txt", "Q...\n....\n..x.\n....\n", None).unwrap();
/// assert_eq!((inst.n, inst.placed.len(), inst.blocked.len()), (4, 1, 1));
/// ```
pub fn read_instance(file: &str, text: &str, diags: Option<usize>) -> Result<Instance> {
    // A file of another kind the tool writes: say so, rather than fail on its first character.
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("");
    if first.starts_with("c ") || first.starts_with("p cnf") {
        return Err(Error::parse(
            file,
            1,
            "this is a DIMACS CNF, not an instance (a board, parameter or excluded-diagonals \
             file); solve it with an external solver, or read a model of it with `decode --cnf`",
        ));
    }
    let format = detect_format(text);
    if let Some(d) = diags
        && format != InstanceFormat::Diags
    {
        return Err(crate::error::BadOption::invalid(
            crate::error::Opt::Diags,
            d,
            format!("applies to excluded-diagonals files, but {file} is not one"),
        ));
    }
    match format {
        InstanceFormat::Board => parse_board(file, text),
        InstanceFormat::Param => parse_param(file, text),
        InstanceFormat::Diags => parse_diags(file, text, diags),
    }
}

/// The header line that records an instance's piece, after a comment marker: `# piece: amazon`
/// (`$ piece: amazon` in a parameter file). Writers add it for every piece but the queen, the
/// piece of a file without one, so that reading back what was written gives the same instance
/// and piece.
pub(crate) const PIECE_HEADER: &str = "piece:";

/// The piece named by `text`'s header ([`PIECE_HEADER`], on a comment line starting with `#`
/// or `$`), if any. An unknown name, or two lines naming different pieces, is a parse error
/// naming the line.
pub(crate) fn header_piece(file: &str, text: &str) -> Result<Option<crate::piece::Piece>> {
    let mut found: Option<(usize, crate::piece::Piece)> = None;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        let Some(body) = t.strip_prefix('#').or_else(|| t.strip_prefix('$')) else {
            continue;
        };
        let Some(name) = body.trim_start().strip_prefix(PIECE_HEADER) else {
            continue;
        };
        let name = name.trim();
        let piece = crate::piece::Piece::by_name(name).ok_or_else(|| {
            let known: Vec<&str> = crate::piece::PIECES.iter().map(|p| p.name).collect();
            Error::parse(
                file,
                i + 1,
                format!(
                    "unknown piece {name:?} in the header (known: {})",
                    known.join(", ")
                ),
            )
        })?;
        match found {
            Some((at, first)) if first.name != piece.name => {
                return Err(Error::parse(
                    file,
                    i + 1,
                    format!(
                        "the header names two pieces: {} (line {at}) and {}",
                        first.name, piece.name
                    ),
                ));
            }
            Some(_) => {}
            None => found = Some((i + 1, piece)),
        }
    }
    Ok(found.map(|(_, p)| p))
}

/// The piece of an instance read from `file` (its `text`): the one the caller gives (`given`,
/// from `--piece` or `piece=`), else the file header's ([`header_piece`]), else the queen. A
/// given piece that differs from the header's is refused, naming both.
///
/// ```
/// use queens_sat::instance::piece_of;
/// use queens_sat::piece::{AMAZON, QUEEN};
/// let text = "# piece: amazon\n.....\n";
/// assert_eq!(piece_of("a.txt", text, None).unwrap().name, "amazon");
/// assert_eq!(piece_of("a.txt", text, Some(AMAZON)).unwrap().name, "amazon");
/// let e = piece_of("a.txt", text, Some(QUEEN)).unwrap_err().to_string();
/// assert!(e.contains("--piece 'queen'") && e.contains("piece: amazon"), "{e}");
/// assert_eq!(piece_of("b.txt", ".....\n", None).unwrap().name, "queen");
/// ```
#[cfg_attr(
    not(feature = "oracle"),
    visibility::make(pub(crate)),
    allow(dead_code)
)]
pub fn piece_of(
    file: &str,
    text: &str,
    given: Option<crate::piece::Piece>,
) -> Result<crate::piece::Piece> {
    let header = header_piece(file, text)?;
    Ok(agree(file, given, header)?.unwrap_or(crate::piece::QUEEN))
}

/// The piece of `given` (an option, or an earlier file's header) and `file`'s `header`: either
/// one, or `None` if neither names one; two different pieces are refused, naming both.
#[cfg_attr(
    not(any(feature = "front", feature = "oracle")),
    visibility::make(pub(crate)),
    allow(dead_code)
)]
pub fn agree(
    file: &str,
    given: Option<crate::piece::Piece>,
    header: Option<crate::piece::Piece>,
) -> Result<Option<crate::piece::Piece>> {
    match (given, header) {
        (Some(g), Some(h)) if g.name != h.name => Err(crate::error::BadOption::invalid(
            crate::error::Opt::Piece,
            g.name,
            format!(
                "conflicts with the header of {file} (`{PIECE_HEADER} {}`); drop one of them",
                h.name
            ),
        )),
        (g, h) => Ok(g.or(h)),
    }
}

/// [`read_instance`] with its piece (`piece_of`).
#[cfg_attr(not(feature = "front"), visibility::make(pub(crate)), allow(dead_code))]
pub fn read_instance_piece(
    file: &str,
    text: &str,
    diags: Option<usize>,
    given: Option<crate::piece::Piece>,
) -> Result<(Instance, crate::piece::Piece)> {
    let piece = piece_of(file, text, given)?;
    Ok((read_instance(file, text, diags)?, piece))
}

/// [`read_instance_file`] with the piece its header names (`header_piece`), if any.
#[cfg_attr(not(feature = "front"), visibility::make(pub(crate)), allow(dead_code))]
pub fn read_instance_file_header(
    path: &std::path::Path,
    diags: Option<usize>,
) -> Result<(Instance, Option<crate::piece::Piece>)> {
    let name = crate::compress::input_name(path);
    let bytes = crate::compress::read(path)?;
    let text = String::from_utf8(bytes)
        .map_err(|e| Error::parse_file(&name, format!("not UTF-8 text ({e})")))?;
    let header = header_piece(&name, &text)?;
    Ok((read_instance(&name, &text, diags)?, header))
}

/// [`read_instance_file`] with its piece (`piece_of`).
#[cfg_attr(not(feature = "front"), visibility::make(pub(crate)), allow(dead_code))]
pub fn read_instance_file_piece(
    path: &std::path::Path,
    diags: Option<usize>,
    given: Option<crate::piece::Piece>,
) -> Result<(Instance, crate::piece::Piece)> {
    let (instance, header) = read_instance_file_header(path, diags)?;
    let name = crate::compress::input_name(path);
    let piece = agree(&name, given, header)?.unwrap_or(crate::piece::QUEEN);
    Ok((instance, piece))
}

/// Reads an instance file from disk (see [`read_instance`]).
pub fn read_instance_file(path: &std::path::Path, diags: Option<usize>) -> Result<Instance> {
    Ok(read_instance_file_header(path, diags)?.0)
}

/// Checks a board side read from `file:line`.
pub(crate) fn check_n(file: &str, line: usize, n: i64) -> Result<u32> {
    if n < 1 || n > crate::board::MAX_N as i64 {
        return Err(Error::parse(
            file,
            line,
            format!("n = {n} is out of range (1..={})", crate::board::MAX_N),
        ));
    }
    Ok(n as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prng::Prng;

    /// `Obstacles::mark_row` marks exactly the cells `Obstacles::contains` holds, on random
    /// instances with blocked cells and excluded diagonals of both kinds.
    #[test]
    fn mark_row_is_contains() {
        let mut rng = Prng::new(0x0B57_AC1E);
        for round in 0..200 {
            let n = 1 + rng.below(20) as u32;
            let mut inst = Instance::plain(n);
            for _ in 0..rng.below(3 * n as usize) {
                let cell = Cell::new(rng.below(n as usize) as u32, rng.below(n as usize) as u32);
                inst.blocked.push(cell);
            }
            for _ in 0..rng.below(4) {
                let kind = match rng.below(2) {
                    0 => LineKind::Diagonal,
                    _ => LineKind::AntiDiagonal,
                };
                let key = rng.below(2 * n as usize - 1) as u32;
                inst.excluded.push(ExcludedDiagonal { kind, key });
            }
            let o = inst.obstacles();
            for r in 0..n {
                let mut line = vec![b'.'; n as usize];
                o.mark_row(r, &mut line);
                for c in 0..n {
                    let want = o.contains(Cell::new(r, c));
                    assert_eq!(line[c as usize] == b'x', want, "round {round} ({r}, {c})");
                }
            }
        }
    }
}

#[cfg(test)]
mod examples {
    // The examples of the crate-private functions above (a doctest sees only public items).
    #[test]
    fn header_piece_example() {
        use crate::instance::header_piece;
        assert_eq!(
            header_piece("a.txt", "# piece: amazon\nQ..\n")
                .unwrap()
                .unwrap()
                .name,
            "amazon"
        );
        assert!(header_piece("b.txt", "...\n").unwrap().is_none());
        assert!(
            header_piece("c.txt", "# piece: rook\n")
                .unwrap_err()
                .to_string()
                .contains("c.txt:1")
        );
    }
}
