//! Local search ([`crate::walk`]) as an engine (`--solver walk`, and the default strategy's
//! pre-pass): it answers SAT with a board or gives up (UNKNOWN), never UNSAT.

use std::time::Instant;

use crate::answer::Answer;
use crate::error::Result;
use crate::interrupt::Cancel;
use crate::presolve::Problem;
use crate::solve::engine::{Capabilities, Engine, EngineInfo, Found, Outcome, Settings};
use crate::walk::{WalkSettings, walk};

/// Local search with a swap budget: [`WalkSettings::default`]'s, or a number per live cell.
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
        let max_tries = match self.tries_per_cell {
            None => WalkSettings::default().max_tries,
            Some(k) => k * problem.varmap.num_cells().max(1000),
        };
        let found = walk(
            problem,
            &WalkSettings {
                max_tries,
                cancel: Some(cancel.with_timeout(settings.timeout)),
                ..WalkSettings::default()
            },
        );
        let answer = match found {
            Some(board) => Answer::Sat(Found::Board(board)),
            None => Answer::Unknown("local search gave up".into()),
        };
        Ok(Outcome::new(answer, 0.0, t0.elapsed().as_secs_f64()))
    }
}
