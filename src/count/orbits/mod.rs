//! Counting the boards a rotation maps to themselves from the rotation's orbits, not from the
//! board search (issue 62; the facts behind it in docs/symmetric.md).
//!
//! A board fixed by the quarter turn (n = 4k, or 4k + 1 with the centre) is k orbits of four
//! pieces. The rows pair up as {x, n-1-x}; an orbit joins two row pairs {a, b} (a, b < n/2,
//! the *couple*), and both of its two orientations occupy the same diagonals: the diagonal values
//! c - r of its four pieces are ±(b - a) and ±(n-1-a-b), and so are its anti-diagonal values
//! r + c - (n-1). A board fixed by the half turn takes, for each row i < n/2, a column j, and
//! row n-1-i takes n-1-j; the pair uses the column pair {j, n-1-j}, the diagonal values ±(j - i)
//! and the anti-diagonal values ±(i + j - (n-1)) (odd n: the centre cell is forced).
//!
//! Two independent formulations count the same [`Problem`]:
//! - [`pairs`]: by rows (the quarter turn: a matching of the row pairs, the most constrained row
//!   first, bit-parallel partner sets; the half turn: the row-by-row bitboard search from the
//!   outside in);
//! - [`values`]: by diagonal values (each value, largest first, unused or given to one couple /
//!   row), sharing no code with [`pairs`].
//!
//! A [`Problem`] may hold pre-placed pieces: each stands for its whole orbit. That is how a
//! count is cut into pieces ([`pairs::pieces`]) that either formulation recounts.

pub(crate) mod pairs;
pub(crate) mod values;

use crate::board::Cell;
use crate::error::{BadOption, Error, Opt, Result};
use crate::instance::Instance;
use crate::interrupt::Cancel;
use crate::piece::{Piece, Shape};
use crate::symmetry::Symmetry;

/// Which rotation fixes the boards counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Turn {
    /// The quarter turn (r90; r270 fixes the same boards).
    Quarter,
    /// The half turn (r180).
    Half,
}

/// One count of rotation-fixed boards: a plain `n x n` board, queens or amazons, with
/// pre-placed pieces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Problem {
    /// Board side.
    pub(crate) n: u32,
    /// The rotation.
    pub(crate) turn: Turn,
    /// Amazons (queen + knight) when true, queens otherwise.
    pub(crate) knight: bool,
    /// Pre-placed pieces; each stands for its whole orbit under the rotation. Pieces that
    /// attack each other (or whose orbits do) give a count of 0.
    pub(crate) placed: Vec<Cell>,
}

impl Turn {
    /// `quarter` or `half`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Turn::Quarter => "quarter",
            Turn::Half => "half",
        }
    }

    /// The largest board either formulation counts under this rotation: the quarter turn keeps
    /// the n/2 row pairs in a `u64` and the values (below n) in a `u128`, so n <= 128; the half
    /// turn's bitboard search keeps a diagonal's 2n - 1 shifted columns in a `u128`, so n <= 64.
    pub(crate) fn max_n(self) -> u32 {
        match self {
            Turn::Quarter => 128,
            Turn::Half => 64,
        }
    }
}

impl Problem {
    /// The count of `instance`'s boards for `piece` that every element of `group` (a subgroup
    /// of D4 holding a rotation) maps to themselves, or why the orbit engines cannot count it:
    /// blocked cells or excluded diagonals, a piece other than the queen and the amazon, no
    /// rotation in `group`, a board past [`Turn::max_n`]. `Ok(None)`: the group holds a
    /// reflection, which fixes no board for n >= 2 (a reflection maps a row, column or
    /// diagonal line of every piece off the main axis onto the same line: two pieces on one
    /// line, or every piece on one diagonal).
    pub(crate) fn of(
        instance: &Instance,
        piece: &Piece,
        group: &[Symmetry],
    ) -> Result<Option<Problem>> {
        let refuse = |why: String| Err(BadOption::invalid(Opt::Engine, "orbits", why));
        let knight = match Shape::of(piece) {
            Some(Shape::Queen) => false,
            Some(Shape::Amazon) => true,
            None => return refuse(format!("counts queens and amazons, not {}", piece.name)),
        };
        if !instance.blocked.is_empty() || !instance.excluded.is_empty() {
            return refuse(
                "counts boards with pre-placed pieces only, not blocked cells or excluded \
                 diagonals"
                    .to_string(),
            );
        }
        let turn = if group.contains(&Symmetry::R90) {
            Turn::Quarter
        } else if group.contains(&Symmetry::R180) {
            Turn::Half
        } else {
            return refuse(
                "counts the boards a rotation fixes: give --symmetric r90, r180 or r270"
                    .to_string(),
            );
        };
        if instance.n > turn.max_n() {
            return refuse(format!(
                "counts the {} turn's boards for n <= {}, not {}",
                turn.name(),
                turn.max_n(),
                instance.n
            ));
        }
        let reflection = group.iter().any(|g| {
            matches!(
                g,
                Symmetry::FlipH | Symmetry::FlipV | Symmetry::FlipD | Symmetry::FlipA
            )
        });
        if reflection && instance.n >= 2 {
            return Ok(None);
        }
        Ok(Some(Problem {
            n: instance.n,
            turn,
            knight,
            placed: instance.placed.clone(),
        }))
    }

    /// The same count with `cells` placed too.
    pub(crate) fn with(&self, cells: &[Cell]) -> Problem {
        let mut p = self.clone();
        p.placed.extend_from_slice(cells);
        p
    }
}

/// A part of a count ([`pairs::parts`]): the boards that hold `cells` (each cell standing for its
/// orbit), counted `weight` times (the orientations of its couples that the cells leave out,
/// which have as many boards each).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Part {
    /// How many times its boards count.
    pub(crate) weight: u64,
    /// The cells it adds to the problem.
    pub(crate) cells: Vec<Cell>,
}

/// Which formulation counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Formulation {
    /// [`pairs`].
    Pairs,
    /// [`values`].
    Values,
}

impl Formulation {
    /// Counts `p` on this thread.
    fn count(self, p: &Problem, cancel: &Cancel) -> Result<u128> {
        match self {
            Formulation::Pairs => pairs::count(p, cancel),
            Formulation::Values => values::count(p, cancel),
        }
    }
}

/// How many parts a count on `jobs` threads is cut into, at least: enough that the largest part
/// does not bound the run.
const PARTS_PER_JOB: usize = 64;

/// The parts of `p` for `jobs` threads: [`split_into`] [`PARTS_PER_JOB`] parts per thread (on
/// one thread too, for the progress they report).
pub(crate) fn split(p: &Problem, jobs: usize, cancel: &Cancel) -> Result<Vec<Part>> {
    split_into(p, PARTS_PER_JOB * jobs.max(1), cancel)
}

/// The parts of `p` ([`pairs::parts`]) as few levels down as gives at least `at_least` of them
/// (fewer where the search ends first); each a `split count` cube.
pub(crate) fn split_into(p: &Problem, at_least: usize, cancel: &Cancel) -> Result<Vec<Part>> {
    let mut parts = vec![Part {
        weight: 1,
        cells: Vec::new(),
    }];
    for depth in 1..=p.n as usize {
        if parts.len() >= at_least {
            break;
        }
        let deeper = pairs::parts(p, depth, cancel)?;
        cancel.check()?;
        let done = deeper.len() == parts.len();
        parts = deeper;
        if done {
            break;
        }
    }
    Ok(parts)
}

/// Counts `p` with `formulation` on `jobs` threads over the parts of [`split`], calling
/// `progress(done, total)` as parts finish; `Err(Interrupted)` once `cancel` is raised. The sum
/// is checked: a count past `u128` is an error, never a wrapped number.
pub(crate) fn count(
    p: &Problem,
    formulation: Formulation,
    jobs: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
    cancel: &Cancel,
) -> Result<u128> {
    let parts = split(p, jobs, cancel)?;
    let counts = if jobs <= 1 {
        // On the caller's thread (a cluster task's line counts its thread's CPU time; the
        // search is at most n/2 levels deep).
        let mut counts = Vec::with_capacity(parts.len());
        for (i, part) in parts.iter().enumerate() {
            counts.push(count_part(p, part, formulation, cancel)?);
            progress(i + 1, parts.len());
        }
        counts
    } else {
        crate::work::run_all(&parts, jobs, cancel, progress, |part| {
            count_part(p, part, formulation, cancel)
        })?
    };
    counts
        .into_iter()
        .try_fold(0u128, |sum, c| sum.checked_add(c))
        .ok_or_else(overflow)
}

/// The boards of `part` of `p`, times its weight, by `formulation` on this thread.
pub(crate) fn count_part(
    p: &Problem,
    part: &Part,
    formulation: Formulation,
    cancel: &Cancel,
) -> Result<u128> {
    let c = formulation.count(&p.with(&part.cells), cancel)?;
    c.checked_mul(u128::from(part.weight)).ok_or_else(overflow)
}

fn overflow() -> Error {
    Error::TooLarge("a rotation-fixed count overflows u128".to_string())
}

/// [`count`] as the `u64` of the count's report: a count past `u64` is an error naming it,
/// never a wrapped number.
pub(crate) fn fixed(
    p: &Problem,
    formulation: Formulation,
    jobs: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
    cancel: &Cancel,
) -> Result<u64> {
    let c = count(p, formulation, jobs, progress, cancel)?;
    u64::try_from(c).map_err(|_| {
        Error::TooLarge(format!(
            "{c} boards: past the u64 of a count's report (n = {})",
            p.n
        ))
    })
}

#[cfg(test)]
mod tests;
