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
//! The graph algorithms are generic ([`crate::matching`]).

use std::collections::HashSet;

use itertools::Itertools;

use crate::board::Cell;
use crate::matching::regin;
use crate::piece::LineKind;
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
pub const MAX_FILTER_CELLS: u64 = 1 << 22;

/// Largest live-cell count on which [`Filter::AllDifferent`] runs its diagonal passes; above it
/// [`filter`] applies [`Filter::RowsColumns`] only. The diagonal passes cost about four times
/// the presolve itself on large dense completion boards (0.5 s at 3.4 M cells) and remove
/// nothing there; the hard instances they are meant for have hundreds of cells.
pub const ALLDIFF_MAX_CELLS: u64 = 1 << 18;

/// Applies `which` to a presolved `problem` until nothing changes: drops every live cell that
/// lies in no solution of the all-different relaxation, and sets `problem.unsat` when no
/// solution is left. Exact: the solutions of the problem are unchanged.
///
/// The variable map is rebuilt (live cells stay numbered row-major), so call it before
/// encoding. [`Filter::AllDifferent`] falls back to [`Filter::RowsColumns`] above
/// [`ALLDIFF_MAX_CELLS`] cells. It does nothing on a full (not presolved) problem, an already unsatisfiable one,
/// a piece that does not ride rows and columns, or more than [`MAX_FILTER_CELLS`] cells.
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
    let mut rows: Vec<Vec<u32>> = (0..n)
        .map(|r| problem.varmap.row_cols(r).collect())
        .collect();
    let held_rows: HashSet<u32> = problem.fixed.iter().map(|c| c.row).collect();
    let held_cols: HashSet<u32> = problem.fixed.iter().map(|c| c.col).collect();
    let free_rows: Vec<u32> = (0..n).filter(|r| !held_rows.contains(r)).collect();
    let free_cols: Vec<u32> = (0..n).filter(|c| !held_cols.contains(c)).collect();
    if which != Filter::AllDifferent {
        diagonals.clear();
    }
    let piece = problem.piece;
    let mut unsat: Option<String> = None;
    let mut live = before;
    loop {
        stats.passes += 1;
        let start = live;
        // Rows x columns.
        if let Err(why) = row_column_pass(n, &mut rows, &free_rows, &free_cols) {
            unsat = Some(why);
            break;
        }
        // Rows (and columns) x diagonals.
        for &kind in &diagonals {
            for by_row in [true, false] {
                if let Err(why) = diagonal_pass(n, &mut rows, kind, by_row) {
                    unsat = Some(why);
                    break;
                }
            }
            if unsat.is_some() {
                break;
            }
        }
        if unsat.is_some() {
            break;
        }
        if let Err(why) = forced_pass(n, &mut rows, piece) {
            unsat = Some(why);
            break;
        }
        live = rows.iter().map(|r| r.len() as u64).sum();
        if live == start {
            break;
        }
    }
    if let Some(why) = unsat {
        rows = vec![Vec::new(); n as usize];
        problem.unsat = Some(why);
        stats.unsat = true;
    }
    let after: u64 = rows.iter().map(|r| r.len() as u64).sum();
    stats.removed = before - after;
    if stats.removed > 0 {
        problem.varmap = VarMap::from_rows(n, rows);
    }
    stats
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

/// Removes the cells in no perfect matching of free rows x free columns.
fn row_column_pass(
    n: u32,
    rows: &mut [Vec<u32>],
    free_rows: &[u32],
    free_cols: &[u32],
) -> Result<(), String> {
    // Column index among the free columns.
    let mut col_ix = vec![NONE; n as usize];
    for (i, &c) in free_cols.iter().enumerate() {
        col_ix[c as usize] = i as u32;
    }
    let adj: Vec<Vec<u32>> = free_rows
        .iter()
        .map(|&r| {
            rows[r as usize]
                .iter()
                .map(|&c| col_ix[c as usize])
                .collect()
        })
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
            for (i, &r) in free_rows.iter().enumerate() {
                let row = &mut rows[r as usize];
                let mut k = keep[i].iter();
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

/// The all-different graph of the lines (rows if `by_row`, else columns) that have live cells
/// against the lines of `kind`: (the lines, each line's live cells across it, adjacency).
#[allow(clippy::type_complexity)]
fn line_graph(
    n: u32,
    rows: &[Vec<u32>],
    kind: LineKind,
    by_row: bool,
) -> (Vec<u32>, Vec<Vec<u32>>, Vec<Vec<u32>>) {
    let mut cells_of: Vec<Vec<u32>> = vec![Vec::new(); n as usize];
    for (r, cols) in rows.iter().enumerate() {
        if by_row {
            cells_of[r] = cols.clone();
        } else {
            for &c in cols {
                cells_of[c as usize].push(r as u32);
            }
        }
    }
    let vars: Vec<u32> = (0..n)
        .filter(|&i| !cells_of[i as usize].is_empty())
        .collect();
    let adj: Vec<Vec<u32>> = vars
        .iter()
        .map(|&l| {
            cells_of[l as usize]
                .iter()
                .map(|&o| kind.key(line_cell(by_row, l, o), n))
                .collect()
        })
        .collect();
    (vars, cells_of, adj)
}

/// All-different on the diagonals of `kind`, with the free rows (`by_row`) or the free columns
/// as variables: removes the cells whose (line, diagonal) edge is in no line-saturating
/// matching.
fn diagonal_pass(
    n: u32,
    rows: &mut [Vec<u32>],
    kind: LineKind,
    by_row: bool,
) -> Result<(), String> {
    let (vars, cells_of, adj) = line_graph(n, rows, kind, by_row);
    let cell = |line: u32, other: u32| line_cell(by_row, line, other);
    match regin(&adj, kind.count(n) as usize) {
        Err(h) => {
            let ls: Vec<u32> = h.left.iter().map(|&i| vars[i as usize]).collect();
            let line = if by_row { "rows" } else { "columns" };
            Err(format!(
                "{} {line} ({}) have live cells on only {} {}s ({})",
                ls.len(),
                list(&ls),
                h.right.len(),
                kind.name(),
                list(&h.right)
            ))
        }
        Ok(keep) => {
            let mut dropped: Vec<Cell> = Vec::new();
            for (i, &l) in vars.iter().enumerate() {
                for (j, &o) in cells_of[l as usize].iter().enumerate() {
                    if !keep[i][j] {
                        dropped.push(cell(l, o));
                    }
                }
            }
            remove_cells(rows, &mut dropped);
            Ok(())
        }
    }
}

/// Removes `cells` (any order) from the row lists.
fn remove_cells(rows: &mut [Vec<u32>], cells: &mut [Cell]) {
    if cells.is_empty() {
        return;
    }
    cells.sort_unstable();
    let mut i = 0;
    while i < cells.len() {
        let r = cells[i].row;
        let j = i + cells[i..].partition_point(|c| c.row == r);
        let drop = &cells[i..j];
        rows[r as usize].retain(|c| drop.binary_search(&Cell::new(r, *c)).is_err());
        i = j;
    }
}

/// A free row or column with a single live cell holds its piece there: drop every other live
/// cell that this forced cell attacks. Two forced cells that attack each other are a
/// contradiction.
fn forced_pass(n: u32, rows: &mut [Vec<u32>], piece: crate::piece::Piece) -> Result<(), String> {
    let mut col_count = vec![0u32; n as usize];
    let mut col_cell = vec![NONE; n as usize];
    for (r, cols) in rows.iter().enumerate() {
        for &c in cols {
            col_count[c as usize] += 1;
            col_cell[c as usize] = r as u32;
        }
    }
    let mut forced: Vec<Cell> = Vec::new();
    for (r, cols) in rows.iter().enumerate() {
        if cols.len() == 1 {
            forced.push(Cell::new(r as u32, cols[0]));
        }
    }
    for c in 0..n {
        if col_count[c as usize] == 1 {
            forced.push(Cell::new(col_cell[c as usize], c));
        }
    }
    forced.sort_unstable();
    forced.dedup();
    if forced.is_empty() {
        return Ok(());
    }
    // The lines the forced cells hold, per kind; a second forced cell on one is a conflict.
    let mut held: Vec<(LineKind, Vec<u32>)> = piece
        .lines
        .iter()
        .map(|&k| (k, vec![NONE; k.count(n) as usize]))
        .collect();
    for (i, &f) in forced.iter().enumerate() {
        for (kind, owner) in held.iter_mut() {
            let key = kind.key(f, n) as usize;
            if owner[key] != NONE {
                let g = forced[owner[key] as usize];
                return Err(format!(
                    "forced {}s at {g} and {f} share a {}",
                    piece.name,
                    kind.name()
                ));
            }
            owner[key] = i as u32;
        }
    }
    let forced_set: HashSet<Cell> = forced.iter().copied().collect();
    for &f in &forced {
        for (dr, dc) in piece.forward_leaps() {
            if let Some(g) = f.offset(dr, dc, n)
                && forced_set.contains(&g)
            {
                return Err(format!(
                    "forced {}s at {f} and {g} are a leap apart",
                    piece.name
                ));
            }
        }
    }
    let mut dropped: Vec<Cell> = Vec::new();
    for (r, cols) in rows.iter().enumerate() {
        for &c in cols {
            let cell = Cell::new(r as u32, c);
            if forced_set.contains(&cell) {
                continue;
            }
            let attacked = held
                .iter()
                .any(|(kind, owner)| owner[kind.key(cell, n) as usize] != NONE)
                || piece.leaps.iter().any(|&(dr, dc)| {
                    cell.offset(dr, dc, n)
                        .is_some_and(|q| forced_set.contains(&q))
                });
            if attacked {
                dropped.push(cell);
            }
        }
    }
    remove_cells(rows, &mut dropped);
    Ok(())
}
