//! Where a solve job's cubes come from (`split solve --cubes-from`), recorded in `job.json`:
//!
//! - [`CubeSource::Lookahead`]: the look-ahead cubes of the CNF ([`crate::cube::lookahead`]),
//!   the ones `solve --cubes` conquers locally; each task runs the default strategy (`auto`)
//!   on its cubes unless `--solver` says otherwise. Cubes that presolve refutes are dropped.
//! - [`CubeSource::Bitboard`]: subtrees of the bitboard search's own tree
//!   (`crate::solve::bitboard::cubes`): a cube is the pieces the search placed on the path
//!   to the subtree, its weight in `tasks.tsv` Knuth's estimate of the subtree's size in
//!   search nodes. Subtrees whose root the search's checks refute at split time (its bounds,
//!   a row without a cell, a column no row can take) hold no solution and are not written;
//!   the cubes written hold every solution between them, so `merge`'s UNSAT (every cube
//!   refuted) stays a proof that the instance has none. Each task solves its cubes with the
//!   same search (`--solver bitboard`, on the task's threads) unless `--solver` says otherwise.
//!
//! By default ([`CubeSource::default_for`]) a job takes bitboard cubes where the default
//! strategy gives the instance to the bitboard search split over the cores (excluded
//! diagonals and completions, queens or amazons, cores of up to 128 open rows at any n),
//! look-ahead cubes elsewhere. Job folders
//! written before the choice existed have none recorded and hold look-ahead cubes.

use serde::{Deserialize, Serialize};

use crate::cluster::CubeLine;
use crate::cube::{self, Split};
use crate::encode::EncodeOptions;
use crate::error::{Error, Result};
use crate::interrupt::Cancel;
use crate::presolve::Problem;
use crate::solve::Engine;
use crate::solve::bitboard::{self, Bitboard};

/// Random probes per bitboard cube for its size estimate (a probe is one path of at most n
/// nodes; 128 of them on 512 cubes of n = 30 take well under a second).
const BITBOARD_PROBES: usize = 128;

/// Where a solve job's cubes come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CubeSource {
    /// Look-ahead cubes of the CNF.
    Lookahead,
    /// Subtrees of the bitboard search's tree.
    Bitboard,
}

impl CubeSource {
    /// Every source, in the order `--help` lists them.
    pub const ALL: [CubeSource; 2] = [CubeSource::Bitboard, CubeSource::Lookahead];

    /// `lookahead` or `bitboard`.
    pub fn name(self) -> &'static str {
        match self {
            CubeSource::Lookahead => "lookahead",
            CubeSource::Bitboard => "bitboard",
        }
    }

    /// The source named `name` (one-line error naming it otherwise).
    pub fn parse(name: &str) -> Result<CubeSource> {
        CubeSource::ALL
            .into_iter()
            .find(|s| s.name() == name)
            .ok_or_else(|| {
                Error::Usage(format!(
                    "--cubes-from '{name}' is not a cube source (known: bitboard, lookahead)"
                ))
            })
    }

    /// The default for `problem` under `options`: bitboard cubes where the default strategy
    /// splits the bitboard search over the cores
    /// (`crate::solve::strategy::splits_bitboard`), look-ahead cubes elsewhere.
    pub fn default_for(problem: &Problem, options: &EncodeOptions) -> CubeSource {
        if crate::solve::strategy::splits_bitboard(problem, options) {
            CubeSource::Bitboard
        } else {
            CubeSource::Lookahead
        }
    }

    /// The solver of each cube when `split solve` is given no `--solver`: the search that cut
    /// the cubes for bitboard cubes, the default strategy for look-ahead cubes.
    pub fn default_solver(self) -> &'static str {
        match self {
            CubeSource::Lookahead => "auto",
            CubeSource::Bitboard => "bitboard",
        }
    }

    /// Cuts the presolved `root` (with `options`) into at most (look-ahead) or about
    /// (bitboard) `max_cubes` cube lines; bitboard cubes come with their estimated sizes,
    /// look-ahead cubes without (the split estimates them). With `certified`, bitboard cubes
    /// follow the certified search's branching (`bitboard::proof_cubes`: what they leave
    /// out, unit propagation refutes), for the coverage proof of `split solve --certify`.
    pub fn cut(
        self,
        root: &Problem,
        options: &EncodeOptions,
        max_cubes: usize,
        certified: bool,
        cancel: &Cancel,
    ) -> Result<(Vec<CubeLine>, Option<Vec<f64>>)> {
        let base = root.instance.placed.len();
        match self {
            CubeSource::Lookahead => {
                let split = Split {
                    max_cubes: max_cubes.max(1),
                    jobs: 2,
                    cancel: cancel.clone(),
                    ..Split::default()
                };
                let (cubes, _) = cube::lookahead(root, &split)?;
                let lines = cubes
                    .into_iter()
                    .map(|c| CubeLine::Cube {
                        weight: 1,
                        cells: c.instance.placed[base..].to_vec(),
                    })
                    .collect();
                Ok((lines, None))
            }
            CubeSource::Bitboard => {
                Bitboard.accepts(root, options).map_err(|u| {
                    Error::Usage(format!("--cubes-from bitboard: the search {}", u.needs))
                })?;
                let cut = match certified {
                    true => bitboard::proof_cubes,
                    false => bitboard::cubes,
                };
                let cubes = cut(root, max_cubes.max(1), BITBOARD_PROBES, cancel)?;
                let estimates = cubes.iter().map(|c| c.nodes).collect();
                let lines = cubes
                    .into_iter()
                    .map(|c| CubeLine::Cube {
                        weight: 1,
                        cells: c.cells,
                    })
                    .collect();
                Ok((lines, Some(estimates)))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instance::{ExcludedDiagonal, Instance};
    use crate::piece::{LineKind, QUEEN};

    #[test]
    fn names_round_trip_and_the_default_follows_the_strategy() {
        for s in CubeSource::ALL {
            assert_eq!(CubeSource::parse(s.name()).unwrap(), s);
        }
        let e = CubeSource::parse("magic").unwrap_err().to_string();
        assert!(e.contains("'magic'") && !e.contains('\n'), "{e}");
        let o = EncodeOptions::from(crate::encode::amo::AmoKind::DEFAULT);
        let mut inst = Instance::plain(10);
        let plain = Problem::presolve(&inst, QUEEN).unwrap();
        assert_eq!(CubeSource::default_for(&plain, &o), CubeSource::Lookahead);
        inst.excluded.push(ExcludedDiagonal {
            kind: LineKind::Diagonal,
            key: 9,
        });
        let excluded = Problem::presolve(&inst, QUEEN).unwrap();
        assert_eq!(CubeSource::default_for(&excluded, &o), CubeSource::Bitboard);
    }
}
