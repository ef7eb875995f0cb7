//! Instance generators (csplib prob079 / prob080 procedures) and the reduction from excluded
//! diagonals to n-queens completion.
//!
//! Every generator is a pure function of its parameters and a `u64` seed: the same call gives
//! the same [`Instance`] on every run and machine. Randomness comes from `Prng` (ChaCha8 with
//! a fixed key layout and our own integer sampling), never from a generator whose stream may
//! change between crate versions.
//!
//! - [`completion::generate`]: `m` non-attacking pre-placed queens (prob079 `queens-gen-fast.py`);
//! - [`blocked::generate`]: `m` blocked cells keeping `min_free` free cells per row and column
//!   (prob080 `blocked-gen.py`);
//! - [`diagonals::generate`]: an ordered list of excluded diagonals whose prefixes are the
//!   instances (prob079 `queens-diag-gen.py`);
//! - [`reduction::diagonals_to_completion`]: excluded diagonals to completion (prob079
//!   `diagtoqueens.py`, Gent, Jefferson and Nightingale 2017).

pub mod blocked;
pub mod completion;
pub mod diagonals;
pub mod reduction;

use crate::error::{BadOption, Opt, Result};
use crate::instance::Instance;
gated!(feature = "oracle" => use crate::prng::Prng;);

/// A generator with concrete parameters: what `queens-sat generate` and suite families call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Generator {
    /// The empty board.
    Plain,
    /// `m` pre-placed non-attacking queens ([`completion::generate`]).
    Completion {
        /// Pre-placed queens.
        m: u32,
    },
    /// `m` blocked cells, at least `min_free` free cells per row and column
    /// ([`blocked::generate`]).
    Blocked {
        /// Blocked cells.
        m: u32,
        /// Free cells kept in every row and column.
        min_free: u32,
    },
    /// The first `diags` entries of an excluded-diagonals list ([`diagonals::generate`]),
    /// optionally reduced to completion ([`reduction::diagonals_to_completion`]).
    Diagonals {
        /// Free cells kept in every row and column.
        min_free: u32,
        /// Length of the prefix taken (`None`: the whole list).
        diags: Option<usize>,
        /// Reduce to an n-queens completion instance.
        to_completion: bool,
    },
}

impl Generator {
    /// The generator's kind name (`plain`, `completion`, `blocked`, `diagonals`).
    pub fn kind(&self) -> &'static str {
        match self {
            Generator::Plain => "plain",
            Generator::Completion { .. } => "completion",
            Generator::Blocked { .. } => "blocked",
            Generator::Diagonals { .. } => "diagonals",
        }
    }

    /// Whether the generator draws random numbers (and so needs a seed).
    pub fn is_random(&self) -> bool {
        !matches!(self, Generator::Plain)
    }

    /// The instance on an `n x n` board for `seed`.
    pub fn instance(&self, n: u32, seed: u64) -> Result<Instance> {
        check_side(n)?;
        match *self {
            Generator::Plain => Ok(Instance::plain(n)),
            Generator::Completion { m } => completion::generate(n, m, seed),
            Generator::Blocked { m, min_free } => blocked::generate(n, m, min_free, seed),
            Generator::Diagonals {
                min_free,
                diags,
                to_completion,
            } => {
                let mut inst = diagonals::generate(n, min_free, seed)?;
                if let Some(d) = diags {
                    if d > inst.excluded.len() {
                        return Err(BadOption::invalid(
                            Opt::Diags,
                            d,
                            format!(
                                "is more than the {} diagonals the generator lists for n = {n}, \
                                 min_free = {min_free}, seed = {seed}",
                                inst.excluded.len()
                            ),
                        ));
                    }
                    inst.excluded.truncate(d);
                }
                if to_completion {
                    Ok(reduction::diagonals_to_completion(&inst)?.instance)
                } else {
                    Ok(inst)
                }
            }
        }
    }
}

/// Checks a generator's board side (`1..=65536`).
pub(crate) fn check_side(n: u32) -> Result<()> {
    crate::options::side(i64::from(n)).map(|_| ())
}
