//! Local search (`crate::local_search`) as an engine (`--solver walk`, and the default strategy's
//! pre-pass): it answers SAT with a board or gives up (UNKNOWN), never UNSAT.

use std::time::Instant;

use crate::answer::Answer;
use crate::error::Result;
use crate::interrupt::Cancel;
use crate::local_search::{WalkSettings, walk, walk_bytes};
use crate::presolve::Problem;
use crate::solve::bitboard::Bitboard;
use crate::solve::engine::{Capabilities, Engine, EngineInfo, Found, Outcome, Settings};

/// Problems with at most this many live cells (a plain board up to n = 8) are decided by the
/// exhaustive bitboard search, at once, rather than searched by local search, which can never
/// say UNSAT (`solve -n 3 --solver walk` walked its whole budget before).
pub const TINY_CELLS: u64 = 64;

/// Local search with a swap budget: `WalkSettings::default`'s, or a number per live cell.
#[derive(Clone, Copy, Debug)]
pub struct Walk {
    /// Swap attempts per live cell (at least 1000 cells counted); `None`: the default budget.
    pub tries_per_cell: Option<u64>,
}

impl Walk {
    /// `--solver walk`: the default swap budget, until the time limit.
    pub const DEFAULT: Walk = Walk {
        tries_per_cell: None,
    };

    /// The default strategy's pre-pass: about 200 attempts per live cell.
    pub const PREPASS: Walk = Walk {
        tries_per_cell: Some(200),
    };
}

impl Engine for Walk {
    fn info(&self) -> EngineInfo {
        EngineInfo {
            name: "walk".into(),
            about: "in-process local search (SAT or UNKNOWN)".into(),
            caps: Capabilities {
                unsat: false,
                encodes: false,
                ..Capabilities::IN_PROCESS
            },
        }
    }

    fn solve(&self, problem: &Problem, settings: &Settings, cancel: &Cancel) -> Result<Outcome> {
        let t0 = Instant::now();
        // A tiny board (n <= 3, or a core this small) is decided at once by the exhaustive
        // bitboard search, SAT or UNSAT, instead of walking until the budget runs out.
        if problem.num_cells() <= TINY_CELLS && Bitboard.accepts(problem, &settings.options).is_ok()
        {
            let exact = Settings {
                certify: false,
                proof: None,
                proof_budget: None,
                threads: 1,
                ..*settings
            };
            return Bitboard.solve(problem, &exact, cancel);
        }
        crate::memory::check(
            walk_bytes(problem),
            &format!(
                "local search on {} live cells of a {}x{} board",
                problem.num_cells(),
                problem.n,
                problem.n
            ),
            "",
        )?;
        let max_tries = match self.tries_per_cell {
            None => WalkSettings::default().max_tries,
            Some(k) => k * problem.varmap.num_cells().max(1000),
        };
        let stop = cancel.with_timeout(settings.timeout);
        let found = walk(
            problem,
            &WalkSettings {
                max_tries,
                cancel: Some(stop.clone()),
                ..WalkSettings::default()
            },
        );
        let answer = match (found, stop.stopped()) {
            (Some(board), _) => Answer::Sat(Found::Board(board)),
            // Stopped: say by what (the limit as given), not that the search gave up.
            (None, Some(why)) => Answer::Unknown(why.to_string()),
            (None, None) => Answer::Unknown("local search gave up".into()),
        };
        Ok(Outcome::new(answer, 0.0, t0.elapsed().as_secs_f64()))
    }
}
