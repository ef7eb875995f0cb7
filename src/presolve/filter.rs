//! All-different filtering on the lines of a presolved [`Problem`] (Régin 1994).
//!
//! Every free row and every free column must hold exactly one piece, so a solution picks a
//! perfect matching in the bipartite graph *free rows x free columns* whose edges are the live
//! cells. A live cell that lies in no perfect matching is in no solution and can be dropped; a
//! graph without a perfect matching proves the problem unsatisfiable with no solver. The same
//! holds for the diagonals: the pieces of the free rows lie on pairwise distinct diagonals, so a
//! cell whose (row, diagonal) edge lies in no row-saturating matching of the graph *rows x
//! diagonals* is in no solution either (likewise columns x diagonals and both kinds of diagonal).
//!
//! [`filter`] applies these filters until nothing changes, together with the propagation of
//! *forced* cells (a free row or column left with one live cell holds its piece there, so every
//! other live cell that this cell attacks drops out). Every step is exact: the solution set is
//! unchanged, only cells that are in no solution are removed.
//!
//! The graph algorithms are generic (`crate::matching`).

use itertools::Itertools;

use crate::board::Cell;
use crate::matching::regin;
use crate::piece::{LineKind, Piece};
use crate::varmap::VarMap;

use super::Problem;

/// No vertex / no cell.
const NONE: u32 = u32::MAX;

/// Which all-different filters [`filter`] applies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Filter {
    /// No filtering: presolve keeps every cell that no fixed piece attacks.
    None,
    /// Rows x columns perfect-matching filter, plus forced-cell propagation.
    RowsColumns,
    /// [`Filter::RowsColumns`] plus all-different on both diagonal kinds, with the rows and
    /// with the columns as variables (the model of a CP solver's `all_different` on `q`, `q+i`,
    /// `q-i`).
    #[default]
    AllDifferent,
}

impl Filter {
    /// Every filter, weakest first.
    pub const ALL: [Filter; 3] = [Filter::None, Filter::RowsColumns, Filter::AllDifferent];

    /// Name used in reports and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Filter::None => "none",
            Filter::RowsColumns => "matching",
            Filter::AllDifferent => "alldiff",
        }
    }

    /// Looks a filter up by its [`Filter::name`].
    pub fn by_name(name: &str) -> Option<Filter> {
        Filter::ALL.into_iter().find(|f| f.name() == name)
    }
}

/// What [`filter`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FilterStats {
    /// Live cells before filtering.
    pub cells_before: u64,
    /// Live cells removed.
    pub removed: u64,
    /// Filter passes until the fixpoint (0 when the filter did not run).
    pub passes: u32,
    /// Whether the filter proved the problem unsatisfiable.
    pub unsat: bool,
}

/// Largest live-cell count [`filter`] works on; beyond it (huge dense boards, where the filter
/// rarely removes anything) it leaves the problem as it is.
pub(crate) const MAX_FILTER_CELLS: u64 = 1 << 22;

/// Largest live-cell count on which [`Filter::AllDifferent`] runs its diagonal passes; above it
/// [`filter`] applies [`Filter::RowsColumns`] only. The diagonal passes cost about four times
/// the presolve itself on large dense completion boards (0.5 s at 3.4 M cells) and remove
/// nothing there; the hard instances they are meant for have hundreds of cells.
pub(crate) const ALLDIFF_MAX_CELLS: u64 = 1 << 18;

/// Applies `which` to a presolved `problem` until nothing changes: drops every live cell that
/// lies in no solution of the all-different relaxation, and sets `problem.unsat` when no
/// solution is left. Exact: the solutions of the problem are unchanged.
///
/// The variable map is rebuilt (live cells stay numbered row-major), so call it before
/// encoding. [`Filter::AllDifferent`] falls back to [`Filter::RowsColumns`] above
/// `ALLDIFF_MAX_CELLS` cells. It does nothing on a full (not presolved) problem, an already unsatisfiable one,
/// a piece that does not ride rows and columns, or more than `MAX_FILTER_CELLS` cells.
pub fn filter(problem: &mut Problem, which: Filter) -> FilterStats {
    let before = problem.num_cells();
    let mut stats = FilterStats {
        cells_before: before,
        ..FilterStats::default()
    };
    let lines = problem.piece.lines;
    // Every kind named: rows and columns make the permutation, the diagonals are all-different
    // (a new kind must be placed here: ignoring it keeps the filter sound, only weaker).
    let (mut has_rows, mut has_cols) = (false, false);
    let mut diagonals: Vec<LineKind> = Vec::new();
    for &kind in lines {
        match kind {
            LineKind::Row => has_rows = true,
            LineKind::Column => has_cols = true,
            LineKind::Diagonal | LineKind::AntiDiagonal => diagonals.push(kind),
        }
    }
    if which == Filter::None
        || !problem.presolved
        || problem.unsat.is_some()
        || !has_rows
        || !has_cols
        || before > MAX_FILTER_CELLS
        || problem.varmap.is_row_major()
    {
        return stats;
    }
    let which = if which == Filter::AllDifferent && before > ALLDIFF_MAX_CELLS {
        Filter::RowsColumns
    } else {
        which
    };
    let n = problem.n;
    // The free rows and columns (no fixed piece on them), and each free row's live columns:
    // the filter works on these alone, so its cost is that of the core (plus one O(n + pieces)
    // pass here), not of the board.
    let mut held_rows = vec![false; n as usize];
    let mut held_cols = vec![false; n as usize];
    for c in &problem.fixed {
        held_rows[c.row as usize] = true;
        held_cols[c.col as usize] = true;
    }
    let free_rows: Vec<u32> = (0..n).filter(|&r| !held_rows[r as usize]).collect();
    let free_cols: Vec<u32> = (0..n).filter(|&c| !held_cols[c as usize]).collect();
    let mut rows: Vec<Vec<u32>> = free_rows
        .iter()
        .map(|&r| problem.varmap.row_cols(r).collect())
        .collect();
    if which != Filter::AllDifferent {
        diagonals.clear();
    }
    let result = fixpoint(
        n,
        problem.piece,
        &diagonals,
        &mut rows,
        &free_rows,
        &free_cols,
        &mut stats,
    );
    if let Err(why) = result {
        rows.iter_mut().for_each(Vec::clear);
        problem.unsat = Some(why);
        stats.unsat = true;
    }
    let after: u64 = rows.iter().map(|r| r.len() as u64).sum();
    stats.removed = before - after;
    if stats.removed > 0 {
        let mut all: Vec<Vec<u32>> = vec![Vec::new(); n as usize];
        for (&r, cols) in free_rows.iter().zip(rows) {
            all[r as usize] = cols;
        }
        problem.varmap = VarMap::from_rows(n, all);
    }
    stats
}

/// [`Filter::AllDifferent`] on a core given by its lines alone, in time and memory
/// proportional to its live cells and free lines (never to the board side `n`): `rows[i]`
/// holds the live columns (sorted) of the free row `free_rows[i]`, and `free_cols` the free
/// columns (both sorted). Removes the cells in no solution of the all-different relaxation,
/// until nothing changes, and returns how many remain; an `Err` says why no solution is left
/// (then `rows` is unspecified). `piece` must ride rows and columns.
///
/// The cube look-ahead ([`crate::cube::lookahead`]) calls it on each child of a line (the
/// parent's live cells minus those the child's piece attacks): on a completion instance of
/// n = 5,498 with 21 pieces to place about 0.1 ms a child, the same as on the 21 x 21 board it
/// was reduced from, where presolving the child instance took about 4 ms (O(n + pieces)).
pub(crate) fn filter_core(
    n: u32,
    piece: Piece,
    rows: &mut [Vec<u32>],
    free_rows: &[u32],
    free_cols: &[u32],
) -> Result<u64, String> {
    let diagonals: Vec<LineKind> = piece
        .lines
        .iter()
        .copied()
        .filter(|k| matches!(k, LineKind::Diagonal | LineKind::AntiDiagonal))
        .collect();
    let mut stats = FilterStats::default();
    fixpoint(n, piece, &diagonals, rows, free_rows, free_cols, &mut stats)?;
    Ok(rows.iter().map(|r| r.len() as u64).sum())
}

/// The filter passes until nothing changes (rows x columns, then each diagonal kind in
/// `diagonals` with the rows and with the columns as variables, then the forced cells), on the
/// core `rows` (indexed like `free_rows`). Counts the passes in `stats`.
fn fixpoint(
    n: u32,
    piece: Piece,
    diagonals: &[LineKind],
    rows: &mut [Vec<u32>],
    free_rows: &[u32],
    free_cols: &[u32],
    stats: &mut FilterStats,
) -> Result<(), String> {
    let mut live: u64 = rows.iter().map(|r| r.len() as u64).sum();
    loop {
        stats.passes += 1;
        let start = live;
        // Rows x columns.
        row_column_pass(rows, free_rows, free_cols)?;
        // Rows (and columns) x diagonals.
        for &kind in diagonals {
            for by_row in [true, false] {
                diagonal_pass(n, rows, free_rows, free_cols, kind, by_row)?;
            }
        }
        forced_pass(n, rows, free_rows, free_cols, piece)?;
        live = rows.iter().map(|r| r.len() as u64).sum();
        if live == start {
            return Ok(());
        }
    }
}

/// At most eight numbers of `xs`, then `...` if there are more.
fn list(xs: &[u32]) -> String {
    const SHOW: usize = 8;
    let head = xs.iter().take(SHOW).join(", ");
    if xs.len() > SHOW {
        format!("{head}, ...")
    } else {
        head
    }
}

/// Removes the cells in no perfect matching of free rows x free columns (`rows` indexed like
/// `free_rows`).
fn row_column_pass(
    rows: &mut [Vec<u32>],
    free_rows: &[u32],
    free_cols: &[u32],
) -> Result<(), String> {
    // Column index among the free columns.
    let col_ix = |c: u32| free_cols.binary_search(&c).map_or(NONE, |i| i as u32);
    let adj: Vec<Vec<u32>> = rows
        .iter()
        .map(|cols| cols.iter().map(|&c| col_ix(c)).collect())
        .collect();
    debug_assert!(adj.iter().flatten().all(|&c| c != NONE));
    if free_rows.len() != free_cols.len() {
        return Err(format!(
            "{} free rows but {} free columns",
            free_rows.len(),
            free_cols.len()
        ));
    }
    // Every edge is in a perfect matching when each side's minimum degree d has 2d >= m + 1
    // (Hall's condition holds for the graph minus any edge's two ends): nothing to remove.
    let m = free_rows.len();
    let mut col_deg = vec![0usize; m];
    adj.iter().flatten().for_each(|&c| col_deg[c as usize] += 1);
    let min_deg = adj
        .iter()
        .map(Vec::len)
        .chain(col_deg.iter().copied())
        .min()
        .unwrap_or(0);
    if m > 0 && 2 * min_deg > m {
        return Ok(());
    }
    // Columns need one piece each too: with as many rows as columns, a perfect matching
    // saturates both sides, so the row-saturating criterion is the perfect-matching one.
    match regin(&adj, free_cols.len()) {
        Err(h) => {
            let rs: Vec<u32> = h.left.iter().map(|&i| free_rows[i as usize]).collect();
            let cs: Vec<u32> = h.right.iter().map(|&i| free_cols[i as usize]).collect();
            Err(format!(
                "rows and columns have no perfect matching: {} rows ({}) have live cells in only {} columns ({})",
                rs.len(),
                list(&rs),
                cs.len(),
                list(&cs)
            ))
        }
        Ok(keep) => {
            for (row, keep) in rows.iter_mut().zip(&keep) {
                let mut k = keep.iter();
                row.retain(|_| *k.next().unwrap());
            }
            Ok(())
        }
    }
}

/// The cell on line `line` (a row if `by_row`, else a column) at position `other` across it.
fn line_cell(by_row: bool, line: u32, other: u32) -> Cell {
    if by_row {
        Cell::new(line, other)
    } else {
        Cell::new(other, line)
    }
}

/// The all-different graph of the free lines (rows if `by_row`, else columns) that have live
/// cells against the lines of `kind` that hold a live cell: (the lines, each line's live cells
/// across it, adjacency over the indices of `keys`, `keys` the diagonal keys ascending). Sized
/// by the core, not by `n`.
#[allow(clippy::type_complexity)]
fn line_graph(
    n: u32,
    rows: &[Vec<u32>],
    free_rows: &[u32],
    free_cols: &[u32],
    kind: LineKind,
    by_row: bool,
) -> (Vec<u32>, Vec<Vec<u32>>, Vec<Vec<u32>>, Vec<u32>) {
    let (lines, cells_of): (&[u32], Vec<Vec<u32>>) = if by_row {
        (free_rows, rows.to_vec())
    } else {
        let mut cells_of: Vec<Vec<u32>> = vec![Vec::new(); free_cols.len()];
        for (&r, cols) in free_rows.iter().zip(rows) {
            for &c in cols {
                if let Ok(j) = free_cols.binary_search(&c) {
                    cells_of[j].push(r);
                }
            }
        }
        (free_cols, cells_of)
    };
    let (vars, cells_of): (Vec<u32>, Vec<Vec<u32>>) = lines
        .iter()
        .copied()
        .zip(cells_of)
        .filter(|(_, cells)| !cells.is_empty())
        .unzip();
    let mut keys: Vec<u32> = vars
        .iter()
        .zip(&cells_of)
        .flat_map(|(&l, cells)| {
            cells
                .iter()
                .map(move |&o| kind.key(line_cell(by_row, l, o), n))
        })
        .collect();
    keys.sort_unstable();
    keys.dedup();
    let adj: Vec<Vec<u32>> = vars
        .iter()
        .zip(&cells_of)
        .map(|(&l, cells)| {
            cells
                .iter()
                .map(|&o| {
                    let key = kind.key(line_cell(by_row, l, o), n);
                    keys.binary_search(&key).expect("a key of a live cell") as u32
                })
                .collect()
        })
        .collect();
    (vars, cells_of, adj, keys)
}

/// All-different on the diagonals of `kind`, with the free rows (`by_row`) or the free columns
/// as variables: removes the cells whose (line, diagonal) edge is in no line-saturating
/// matching. Diagonals without a live cell are left out of the graph (a vertex without an edge
/// changes no matching).
fn diagonal_pass(
    n: u32,
    rows: &mut [Vec<u32>],
    free_rows: &[u32],
    free_cols: &[u32],
    kind: LineKind,
    by_row: bool,
) -> Result<(), String> {
    let (vars, cells_of, adj, keys) = line_graph(n, rows, free_rows, free_cols, kind, by_row);
    let cell = |line: u32, other: u32| line_cell(by_row, line, other);
    match regin(&adj, keys.len()) {
        Err(h) => {
            let ls: Vec<u32> = h.left.iter().map(|&i| vars[i as usize]).collect();
            let ks: Vec<u32> = h.right.iter().map(|&i| keys[i as usize]).collect();
            let line = if by_row { "rows" } else { "columns" };
            Err(format!(
                "{} {line} ({}) have live cells on only {} {}s ({})",
                ls.len(),
                list(&ls),
                ks.len(),
                kind.name(),
                list(&ks)
            ))
        }
        Ok(keep) => {
            let mut dropped: Vec<Cell> = Vec::new();
            for (i, &l) in vars.iter().enumerate() {
                for (j, &o) in cells_of[i].iter().enumerate() {
                    if !keep[i][j] {
                        dropped.push(cell(l, o));
                    }
                }
            }
            remove_cells(rows, free_rows, &mut dropped);
            Ok(())
        }
    }
}

/// Removes `cells` (any order, each on a free row) from the row lists (indexed like
/// `free_rows`).
fn remove_cells(rows: &mut [Vec<u32>], free_rows: &[u32], cells: &mut [Cell]) {
    if cells.is_empty() {
        return;
    }
    cells.sort_unstable();
    let mut i = 0;
    while i < cells.len() {
        let r = cells[i].row;
        let j = i + cells[i..].partition_point(|c| c.row == r);
        let drop = &cells[i..j];
        let ix = free_rows.binary_search(&r).expect("a cell on a free row");
        rows[ix].retain(|c| drop.binary_search(&Cell::new(r, *c)).is_err());
        i = j;
    }
}

/// A free row or column with a single live cell holds its piece there: drop every other live
/// cell that this forced cell attacks. Two forced cells that attack each other are a
/// contradiction. (`rows` indexed like `free_rows`.)
fn forced_pass(
    n: u32,
    rows: &mut [Vec<u32>],
    free_rows: &[u32],
    free_cols: &[u32],
    piece: Piece,
) -> Result<(), String> {
    let mut col_count = vec![0u32; free_cols.len()];
    let mut col_cell = vec![NONE; free_cols.len()];
    for (&r, cols) in free_rows.iter().zip(rows.iter()) {
        for &c in cols {
            if let Ok(j) = free_cols.binary_search(&c) {
                col_count[j] += 1;
                col_cell[j] = r;
            }
        }
    }
    let mut forced: Vec<Cell> = Vec::new();
    for (&r, cols) in free_rows.iter().zip(rows.iter()) {
        if cols.len() == 1 {
            forced.push(Cell::new(r, cols[0]));
        }
    }
    for (j, &c) in free_cols.iter().enumerate() {
        if col_count[j] == 1 {
            forced.push(Cell::new(col_cell[j], c));
        }
    }
    forced.sort_unstable();
    forced.dedup();
    if forced.is_empty() {
        return Ok(());
    }
    // The lines the forced cells hold, per kind, as (key, index in `forced`) sorted. A second
    // forced cell on a line is a conflict: the one reported is the first forced cell (in
    // `forced` order, then in the order of the piece's line kinds) whose line an earlier one
    // holds, with that earlier one.
    let mut held: Vec<(LineKind, Vec<(u32, u32)>)> = Vec::with_capacity(piece.lines.len());
    let mut conflict: Option<(u32, usize, u32)> = None; // (f, kind, g)
    for (k, &kind) in piece.lines.iter().enumerate() {
        let mut owners: Vec<(u32, u32)> = forced
            .iter()
            .enumerate()
            .map(|(i, &f)| (kind.key(f, n), i as u32))
            .collect();
        owners.sort_unstable();
        // Each line's first two cells (sorted by key, then by index in `forced`).
        let mut i = 0;
        while i < owners.len() {
            let j = i + owners[i..].partition_point(|&(key, _)| key == owners[i].0);
            if j - i >= 2 {
                let (g, f) = (owners[i].1, owners[i + 1].1);
                if conflict.is_none_or(|(f0, k0, _)| (f, k) < (f0, k0)) {
                    conflict = Some((f, k, g));
                }
            }
            i = j;
        }
        held.push((kind, owners));
    }
    if let Some((f, k, g)) = conflict {
        let (f, g) = (forced[f as usize], forced[g as usize]);
        return Err(format!(
            "forced {}s at {g} and {f} share a {}",
            piece.name,
            piece.lines[k].name()
        ));
    }
    let is_forced = |c: Cell| forced.binary_search(&c).is_ok();
    for &f in &forced {
        for (dr, dc) in piece.forward_leaps() {
            if let Some(g) = f.offset(dr, dc, n)
                && is_forced(g)
            {
                return Err(format!(
                    "forced {}s at {f} and {g} are a leap apart",
                    piece.name
                ));
            }
        }
    }
    let mut dropped: Vec<Cell> = Vec::new();
    for (&r, cols) in free_rows.iter().zip(rows.iter()) {
        for &c in cols {
            let cell = Cell::new(r, c);
            if is_forced(cell) {
                continue;
            }
            let attacked = held.iter().any(|(kind, owners)| {
                let key = kind.key(cell, n);
                owners.binary_search_by_key(&key, |&(k, _)| k).is_ok()
            }) || piece
                .leaps
                .iter()
                .any(|&(dr, dc)| cell.offset(dr, dc, n).is_some_and(is_forced));
            if attacked {
                dropped.push(cell);
            }
        }
    }
    remove_cells(rows, free_rows, &mut dropped);
    Ok(())
}
