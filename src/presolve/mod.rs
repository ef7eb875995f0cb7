//! Presolve: fold an [`Instance`] into the smallest equivalent [`Problem`].
//!
//! With presolve, pre-placed pieces drop out together with every cell they attack and every
//! blocked cell; only the remaining *live* cells get variables. Work and memory are proportional
//! to the candidate cells (free rows x free columns), never to `n²` on a sparse completion
//! instance. A required line (row or column) left without a live cell, or two pre-placed pieces
//! that attack each other, make the problem unsatisfiable without a solver.
//!
//! Without presolve ([`Problem::full`]) every cell is a variable (`r*n + c + 1`), pre-placed
//! pieces become positive unit clauses and unavailable cells negative ones.

use crate::board::Cell;
use crate::error::{Error, Result};
use crate::instance::Instance;
pub mod filter;

use crate::piece::{LineKind, Piece};
use crate::varmap::VarMap;
pub use filter::Filter;

/// Largest variable count a DIMACS file (and most solvers) can address.
pub(crate) const MAX_VARS: u64 = i32::MAX as u64;

/// What the encoder needs: the live cells, the pieces already fixed, and unit facts.
#[derive(Clone, Debug)]
pub struct Problem {
    /// Board side.
    pub n: u32,
    /// The piece placed on every cell.
    pub piece: Piece,
    /// Whether presolve folded the instance (false: full encoding with unit clauses).
    pub presolved: bool,
    /// The instance this problem came from (kept for headers, decoding and verification).
    pub instance: Instance,
    /// Live cells and their variables.
    pub varmap: VarMap,
    /// Pre-placed pieces (deduplicated, sorted) that the model does not carry as variables
    /// (presolve) or that are forced by unit clauses (full encoding).
    pub fixed: Vec<Cell>,
    /// Unit clauses as DIMACS literals (full encoding only).
    pub units: Vec<i32>,
    /// Why the problem is unsatisfiable, when presolve proved it: pre-placed pieces that share
    /// a line (`pre-placed queens at (0,0) and (3,3) share a diagonal`) or are a leap apart, or
    /// a required line left without a free cell. The solve report carries it
    /// ([`crate::solve::SolveReport::reason`]).
    pub unsat: Option<String>,
}

impl Problem {
    /// Presolves `instance` for `piece`. An instance that breaks the invariants of
    /// [`crate::instance`] (a pre-placed piece on a blocked cell or an excluded diagonal, a cell
    /// off the board) is an [`Error::Instance`]; pre-placed pieces that attack each other, or a
    /// required line left without a free cell, make the problem UNSAT with the reason in
    /// [`Problem::unsat`].
    ///
    /// ```
    /// use queens_sat::{instance::read_instance, piece::QUEEN, presolve::Problem};
    /// let inst = read_instance("-", "Q...\n....\n....\n....\n", None).unwrap();
    /// let p = Problem::presolve(&inst, QUEEN).unwrap();
    /// // Row 0, column 0 and the main diagonal drop out: 9 cells minus (1,1),(2,2),(3,3) = 6.
    /// assert_eq!(p.varmap.num_cells(), 6);
    /// ```
    pub fn presolve(instance: &Instance, piece: Piece) -> Result<Problem> {
        Problem::presolve_with(instance, piece, Filter::default())
    }

    /// [`Problem::presolve`], then the all-different filter `filter` (see [`filter`]):
    /// live cells that lie in no solution of the row/column matching (and, with
    /// [`Filter::AllDifferent`], of the diagonal all-different constraints) drop out, and a
    /// graph without a perfect matching makes the problem unsatisfiable. The solutions are the
    /// same for every `filter`.
    pub fn presolve_with(instance: &Instance, piece: Piece, filter: Filter) -> Result<Problem> {
        let mut problem = Problem::presolve_plain(instance, piece, &|| false)?;
        filter::filter(&mut problem, filter);
        Ok(problem)
    }

    /// [`Problem::presolve`] that stops when `cancel` stops (raised, or its deadline passed):
    /// then [`Error::Interrupted`]. Its work grows with the free rows x free columns (n² on a
    /// big board with a few blocked cells), so a time limit must reach into it.
    pub fn presolve_until(
        instance: &Instance,
        piece: Piece,
        cancel: &crate::interrupt::Cancel,
    ) -> Result<Problem> {
        let mut problem = Problem::presolve_plain(instance, piece, &|| cancel.is_stopped())?;
        filter::filter(&mut problem, Filter::default());
        Ok(problem)
    }

    /// Presolve without the matching filter.
    fn presolve_plain(
        instance: &Instance,
        piece: Piece,
        stop: &dyn Fn() -> bool,
    ) -> Result<Problem> {
        let n = instance.n;
        if instance.is_plain() {
            // Nothing to fold: every cell is live. O(n) (the variable map stores "every column"
            // per row), so a plain board of any n presolves at once; an engine that encodes
            // checks the DIMACS limit and its memory itself.
            instance.check()?;
            return Ok(Problem {
                n,
                piece,
                presolved: true,
                instance: instance.clone(),
                varmap: VarMap::row_major(n),
                fixed: Vec::new(),
                units: Vec::new(),
                unsat: None,
            });
        }
        let obstacles = instance.obstacles_checked()?;
        let mut fixed: Vec<Cell> = instance.placed.clone();
        fixed.sort_unstable();
        fixed.dedup();
        let mut unsat: Option<String> = None;
        let plural = plural(piece);

        // Lines held by a fixed piece, per kind (the index of the piece in `fixed`, or `NONE`);
        // a second piece on one is a contradiction. Plain vectors indexed by the line's key:
        // O(n + pieces), no hashing (a completion board of n = 5,500 has 5,470 pieces).
        const NONE: u32 = u32::MAX;
        let mut held: Vec<(LineKind, Vec<u32>)> = piece
            .lines
            .iter()
            .map(|&k| (k, vec![NONE; k.count(n) as usize]))
            .collect();
        // `fixed` is sorted: a leap target is looked up by binary search.
        let is_fixed = |q: Cell| fixed.binary_search(&q).is_ok();
        for (i, &p) in fixed.iter().enumerate() {
            for (kind, owner) in held.iter_mut() {
                let key = kind.key(p, n) as usize;
                if owner[key] != NONE {
                    let q = fixed[owner[key] as usize];
                    unsat.get_or_insert_with(|| {
                        format!("pre-placed {plural} at {q} and {p} share a {}", kind.name())
                    });
                } else {
                    owner[key] = i as u32;
                }
            }
            for (dr, dc) in piece.forward_leaps() {
                if let Some(q) = p.offset(dr, dc, n)
                    && is_fixed(q)
                {
                    unsat.get_or_insert_with(|| {
                        format!("pre-placed {plural} at {p} and {q} are a leap apart")
                    });
                }
            }
        }
        let held_bits: Vec<(LineKind, Vec<bool>)> = held
            .into_iter()
            .map(|(k, owner)| (k, owner.into_iter().map(|o| o != NONE).collect()))
            .collect();
        let is_held = |kind: LineKind, key: u32| {
            held_bits
                .iter()
                .any(|(k, bits)| *k == kind && bits[key as usize])
        };
        let free = |kind: LineKind| -> Vec<u32> { (0..n).filter(|&i| !is_held(kind, i)).collect() };
        let free_rows = free(LineKind::Row);
        let free_cols = free(LineKind::Column);
        // The live cells are listed per row (4 bytes each, up to every free row x free column):
        // estimated against the memory budget before anything is allocated. (The DIMACS limit
        // is the encoder's to check: a search that places pieces itself writes no CNF.)
        let candidate_cells = free_rows.len() as u64 * free_cols.len() as u64;
        crate::memory::check(
            candidate_cells.saturating_mul(4),
            &format!(
                "presolving {} free rows x {} free columns ({candidate_cells} cells)",
                free_rows.len(),
                free_cols.len()
            ),
            "",
        )?;

        let mut rows: Vec<Vec<u32>> = vec![Vec::new(); n as usize];
        for &r in &free_rows {
            if r % 64 == 0 && stop() {
                return Err(Error::Interrupted);
            }
            let row = &mut rows[r as usize];
            row.try_reserve_exact(free_cols.len()).map_err(|_| {
                Error::TooLarge(format!(
                    "presolving {candidate_cells} cells: out of memory at row {r}"
                ))
            })?;
            for &c in &free_cols {
                let cell = Cell::new(r, c);
                let attacked = held_bits
                    .iter()
                    .any(|(kind, bits)| bits[kind.key(cell, n) as usize])
                    || piece
                        .leaps
                        .iter()
                        .any(|&(dr, dc)| cell.offset(dr, dc, n).is_some_and(is_fixed));
                if !attacked && !obstacles.contains(cell) {
                    row.push(c);
                }
            }
        }

        // Every required line that no fixed piece holds needs a live cell.
        if unsat.is_none() {
            for &kind in piece.lines.iter().filter(|k| k.needs_exactly_one(n)) {
                let mut live = vec![false; kind.count(n) as usize];
                for (r, cols) in rows.iter().enumerate() {
                    for &c in cols {
                        live[kind.key(Cell::new(r as u32, c), n) as usize] = true;
                    }
                }
                if let Some(key) =
                    (0..kind.count(n)).find(|&k| !live[k as usize] && !is_held(kind, k))
                {
                    unsat = Some(format!(
                        "{} {key} has no free cell left for a {}",
                        kind.name(),
                        piece.name
                    ));
                    break;
                }
            }
        }
        if unsat.is_some() {
            rows = vec![Vec::new(); n as usize];
        }
        Ok(Problem {
            n,
            piece,
            presolved: true,
            instance: instance.clone(),
            varmap: VarMap::from_rows(n, rows),
            fixed,
            units: Vec::new(),
            unsat,
        })
    }

    /// The full encoding: every cell a variable, pre-placed pieces and unavailable cells as unit
    /// clauses (for testing a solver's own preprocessing).
    pub fn full(instance: &Instance, piece: Piece) -> Result<Problem> {
        let n = instance.n;
        let cells = n as u64 * n as u64;
        if cells > MAX_VARS {
            return Err(Error::TooLarge(format!(
                "{cells} cell variables exceed the DIMACS limit of {MAX_VARS}"
            )));
        }
        instance.check()?;
        let varmap = VarMap::row_major(n);
        let mut fixed = instance.placed.clone();
        fixed.sort_unstable();
        fixed.dedup();
        let var = |c: Cell| (c.row as u64 * n as u64 + c.col as u64 + 1) as i32;
        let mut units: Vec<i32> = fixed.iter().map(|&c| var(c)).collect();
        if !instance.is_plain() {
            let obstacles = instance.obstacles();
            units.extend(
                varmap
                    .cells()
                    .filter(|&(c, _)| obstacles.contains(c))
                    .map(|(c, _)| -var(c)),
            );
        }
        Ok(Problem {
            n,
            piece,
            presolved: false,
            instance: instance.clone(),
            varmap,
            fixed,
            units,
            unsat: None,
        })
    }

    /// [`Problem::presolve`] or [`Problem::full`].
    pub fn new(instance: &Instance, piece: Piece, presolve: bool) -> Result<Problem> {
        if presolve {
            Problem::presolve(instance, piece)
        } else {
            Problem::full(instance, piece)
        }
    }

    /// Number of cell variables L.
    pub fn num_cells(&self) -> u64 {
        self.varmap.num_cells()
    }
}

/// "queens" / "amazons", for messages.
pub(crate) fn plural(piece: Piece) -> String {
    format!("{}s", piece.name)
}
