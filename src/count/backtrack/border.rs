//! The backtrack engine's border split: the units of work (the pieces of the border lines, one
//! per orbit of the instance's symmetries, weighted by the orbit's size), estimated against the
//! memory budget and cut before any task runs.

use super::*;

/// One unit of work: the solutions that hold the pieces `cells` (and no other piece on the
/// columns `clear`), counted `weight` times.
pub(super) struct Task {
    pub(super) cells: Vec<Cell>,
    /// Other images of `cells` under the instance's symmetries (same count): the specialised
    /// search takes the one it estimates cheapest.
    pub(super) images: Vec<Vec<Cell>>,
    pub(super) clear: u64,
    pub(super) weight: u64,
}

impl Task {
    /// The allowed columns per row inside this task: the task's cells, and elsewhere the cells
    /// they do not attack (so the row-by-row search prunes at once, not when it reaches them).
    pub(super) fn allowed(&self, allowed: &[u64], piece: &Piece) -> Vec<u64> {
        let n = allowed.len();
        let mut a: Vec<u64> = allowed.iter().map(|&m| m & !self.clear).collect();
        if let Some(shape) = Shape::of(piece) {
            for x in &self.cells {
                let x = (x.row as usize, x.col as usize);
                for (r, mask) in a.iter_mut().enumerate() {
                    *mask &= !shape.attacks(x, r, n);
                }
            }
        } else {
            let n = n as u32;
            for &x in &self.cells {
                for (r, mask) in a.iter_mut().enumerate() {
                    for c in 0..n {
                        let y = Cell::new(r as u32, c);
                        let hit = piece.lines.iter().any(|k| k.key(x, n) == k.key(y, n))
                            || piece.leaps.iter().any(|&(dr, dc)| {
                                i64::from(x.row) + i64::from(dr) == i64::from(y.row)
                                    && i64::from(x.col) + i64::from(dc) == i64::from(y.col)
                            });
                        if hit {
                            *mask &= !(1 << c);
                        }
                    }
                }
            }
        }
        // A task cell's row allows that cell alone, and nothing if another task cell attacks it
        // (the two-row prefixes of the general split are not checked for that).
        let n = n as u32;
        for c in &self.cells {
            let attacked = self
                .cells
                .iter()
                .any(|&x| x != *c && piece.attack(x, *c, n).is_some());
            a[c.row as usize] = if attacked {
                0
            } else {
                allowed[c.row as usize] & 1 << c.col
            };
        }
        a
    }
}

/// The cells of a border (one piece per side, a corner piece named twice), sorted and without
/// repeats, as one number: borders compare as their sorted cell lists do, for borders with the
/// same number of distinct cells (as a border and its images have).
fn border_key(border: [Cell; 4], n: u32) -> u64 {
    let mut v = border.map(|x| u64::from(x.row) * u64::from(n) + u64::from(x.col));
    // A sorting network for four.
    for (i, j) in [(0, 1), (2, 3), (0, 2), (1, 3), (1, 2)] {
        if v[i] > v[j] {
            v.swap(i, j);
        }
    }
    // Repeats (corners) to the end, as the largest value: the distinct cells stay in order.
    let mut key = 0u64;
    let mut last = None;
    let mut repeats = 0;
    for x in v {
        if last == Some(x) {
            repeats += 1;
            continue;
        }
        last = Some(x);
        key = key << 16 | x;
    }
    for _ in 0..repeats {
        key = key << 16 | 0xFFFF;
    }
    key
}

/// Splits the search into weighted tasks whose weighted counts add up to the total.
///
/// For a piece that attacks along rows and columns (one piece per row and per column), every
/// solution has exactly one piece in row 0, row n-1, column 0 and column n-1: its *border*. The
/// symmetries of the instance (its stabiliser) map borders to borders and completions of a border
/// one-to-one onto completions of its image, so only the lexicographically least border of each
/// orbit is searched, weighted by the orbit's size (up to 8x less search on a plain board).
/// Other pieces split on the first two rows, searching half of the prefixes when the column
/// mirror maps the instance to itself.
/// Bytes the border split holds per n⁴ (measured: n = 64 peaks at 1.16 GB, n = 48 at 345 MB),
/// checked against the memory budget before the split starts.
const SPLIT_BYTES_PER_N4: u64 = 80;

pub(super) fn split(
    instance: &Instance,
    piece: &Piece,
    allowed: &[u64],
    cancel: &crate::interrupt::Cancel,
) -> Result<Vec<Task>> {
    let n = instance.n;
    let group = crate::symmetry::stabiliser(instance, piece);
    let bit = |r: u32, c: u32| allowed[r as usize] >> c & 1 == 1;
    // Every kind named: the corner split needs one piece per column.
    let columns = piece.lines.iter().any(|&kind| match kind {
        LineKind::Column => true,
        LineKind::Row | LineKind::Diagonal | LineKind::AntiDiagonal => false,
    });
    if n >= 4 && columns {
        let m = n - 1;
        crate::memory::check(
            SPLIT_BYTES_PER_N4.saturating_mul(u64::from(n).pow(4)),
            &format!("splitting the {n} x {n} board into the backtrack count's tasks"),
            "; a smaller board, or the sat engine",
        )?;
        let mut tasks: Vec<Task> = Vec::new();
        // Two distinct border pieces that cannot stand together (a repeated cell is a corner
        // piece, the piece of its row and of its column). No allocation: this loop runs about
        // n^4 times before any task starts, the count's serial part (issue 55 §2), so pairs
        // are pruned as soon as they are chosen and borders compared as packed keys.
        let clash = |x: Cell, y: Cell| {
            x != y
                && (x.row == y.row
                    || x.col == y.col
                    || piece.lines.iter().any(|k| k.key(x, n) == k.key(y, n))
                    || piece.leaps.iter().any(|&(dr, dc)| {
                        i64::from(x.row) + i64::from(dr) == i64::from(y.row)
                            && i64::from(x.col) + i64::from(dc) == i64::from(y.col)
                    }))
        };
        for a in (0..n).filter(|&a| bit(0, a)) {
            let top = Cell::new(0, a);
            for b in (0..n).filter(|&b| bit(m, b)) {
                // The split runs about n^4 steps before any task starts: it stops with the count.
                cancel.check()?;
                let bottom = Cell::new(m, b);
                if clash(top, bottom) {
                    continue;
                }
                for c in (0..n).filter(|&c| bit(c, 0)) {
                    // A corner piece is the piece of its row and of its column.
                    if (a == 0) != (c == 0) || (b == 0) != (c == m) {
                        continue;
                    }
                    let left = Cell::new(c, 0);
                    if clash(top, left) || clash(bottom, left) {
                        continue;
                    }
                    for d in (0..n).filter(|&d| bit(d, m)) {
                        if (a == m) != (d == 0) || (b == m) != (d == m) {
                            continue;
                        }
                        let right = Cell::new(d, m);
                        if clash(top, right) || clash(bottom, right) || clash(left, right) {
                            continue;
                        }
                        let border = [top, bottom, left, right];
                        let own = border_key(border, n);
                        // Only the least border of each orbit is searched.
                        if group
                            .iter()
                            .any(|g| border_key(border.map(|x| g.apply(x, n)), n) < own)
                        {
                            continue;
                        }
                        let mut cells = border.to_vec();
                        cells.sort_unstable();
                        cells.dedup();
                        let mut images: Vec<Vec<Cell>> = group
                            .iter()
                            .map(|g| {
                                let mut img: Vec<Cell> =
                                    cells.iter().map(|&x| g.apply(x, n)).collect();
                                img.sort_unstable();
                                img
                            })
                            .collect();
                        images.sort_unstable();
                        images.dedup();
                        // Every image has the same completions: search the one whose side
                        // pieces sit lowest (the free rows then come first, and the top-down
                        // search prunes earlier; about 17% less work at n = 15).
                        let key = |img: &Vec<Cell>| {
                            let side = || img.iter().filter(|c| c.row != 0 && c.row != m);
                            let lowest = side().map(|c| c.row).min().unwrap_or(0);
                            let sum: u32 = side().map(|c| c.row).sum();
                            std::cmp::Reverse((lowest, sum))
                        };
                        images.sort_by_key(|img| key(img));
                        tasks.try_reserve(1).map_err(|_| {
                            Error::TooLarge(format!(
                                "splitting the {n} x {n} board: {} tasks do not fit in memory",
                                tasks.len() + 1
                            ))
                        })?;
                        tasks.push(Task {
                            cells: images[0].clone(),
                            weight: images.len() as u64,
                            images,
                            clear: 1 | 1 << m,
                        });
                    }
                }
            }
        }
        return Ok(tasks);
    }
    let mirror = group.contains(&Symmetry::FlipV);
    let mut prefixes: Vec<Vec<Cell>> = vec![vec![]];
    for r in 0..n.min(2) {
        prefixes = prefixes
            .into_iter()
            .flat_map(|p| {
                (0..n).filter(move |&c| bit(r, c)).map(move |c| {
                    let mut q = p.clone();
                    q.push(Cell::new(r, c));
                    q
                })
            })
            .collect();
    }
    Ok(prefixes
        .into_iter()
        .filter_map(|cells| {
            let image: Vec<Cell> = cells.iter().map(|&x| Symmetry::FlipV.apply(x, n)).collect();
            let weight = match (mirror, cells.cmp(&image)) {
                (false, _) | (true, std::cmp::Ordering::Equal) => 1,
                (true, std::cmp::Ordering::Less) => 2,
                (true, std::cmp::Ordering::Greater) => return None,
            };
            Some(Task {
                cells,
                images: Vec::new(),
                clear: 0,
                weight,
            })
        })
        .collect())
}
