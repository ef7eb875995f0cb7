//! Which options apply where: one declarative table ([`RULES`]) that says, for each command,
//! which option has no effect in which combination, and why. The command line and the Python
//! package check what the user gave against it ([`check`]) before doing any work, so an option
//! that would change nothing is refused with one line naming it and the reason, never
//! accepted and ignored (issue 52 §2).
//!
//! A row names the command, the option and the condition under which the option does nothing:
//! together with another option, without another option, with another option's value outside
//! a list or inside one, or several of these at once. A `--solver` list of several is compared
//! as `portfolio`. Everything the table does not refuse applies. A front end passes the value
//! that decides (`count` the engine that runs, auto's choice included). `tests/it/applies.rs` walks the
//! table: each row is refused as its condition says, and the same option outside the condition
//! has its documented effect.
//!
//! ```
//! use queens_sat::applies::{Command, Given, check};
//! use queens_sat::error::Opt;
//! let given = Given::new().switch(Opt::Stats).value(Opt::Output, "y.cnf");
//! let e = check(Command::Encode, &given).unwrap_err();
//! assert_eq!(
//!     e.to_string(),
//!     "-o 'y.cnf' cannot be used with --stats: --stats prints the formula's size and writes no file"
//! );
//! ```

// The front ends' vocabulary (feature `front`): without it, what only they use is unused.
#![cfg_attr(not(feature = "front"), allow(dead_code))]

use crate::error::{BadOption, Opt, Result};

/// A command (of the command line; the Python function of the same job checks the same rows).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// `encode` (Python: `encode`, `Formula.write`).
    Encode,
    /// `solve` (Python: `solve`).
    Solve,
    /// `verify`.
    Verify,
    /// `count` (Python: `count`; `count --boards` is Python's `solutions`).
    Count,
    /// `suite`.
    Suite,
}

impl Command {
    /// Every command the table has rows for.
    pub const ALL: [Command; 5] = [
        Command::Encode,
        Command::Solve,
        Command::Verify,
        Command::Count,
        Command::Suite,
    ];

    /// The command's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Command::Encode => "encode",
            Command::Solve => "solve",
            Command::Verify => "verify",
            Command::Count => "count",
            Command::Suite => "suite",
        }
    }
}

/// When a row's option has no effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum When {
    /// Together with the option `with` (given at all).
    With(Opt),
    /// Without the option `needs`.
    Without(Opt),
    /// When the option `other` has a value outside `applies` (`default` when not given).
    OtherNotIn {
        /// The other option.
        other: Opt,
        /// Its value when it is not given.
        default: &'static str,
        /// The values of `other` with which the row's option applies.
        applies: &'static [&'static str],
    },
    /// When the option `other` is given with a value in `values`.
    OtherIn {
        /// The other option.
        other: Opt,
        /// The values of `other` with which the row's option does nothing.
        values: &'static [&'static str],
    },
    /// When every condition holds; the error names the last one's option.
    All(&'static [When]),
}

impl When {
    /// The other option the error names: the condition's (the last one's for [`When::All`]).
    /// Public for the test that walks the table (tests/it/applies.rs) and names each rule's pair.
    pub fn other(self) -> Opt {
        match self {
            When::With(o)
            | When::Without(o)
            | When::OtherNotIn { other: o, .. }
            | When::OtherIn { other: o, .. } => o,
            When::All(all) => all.last().expect("a condition").other(),
        }
    }
}

/// How a value of `other` is compared with a row's list: a `--solver` list of several
/// (`varisat,bitboard`) is the class `portfolio`; every other value as given.
fn class(other: Opt, value: &str) -> &str {
    if other == Opt::Solver && value.contains(',') {
        "portfolio"
    } else {
        value
    }
}

/// One row of the table: `option` does nothing for `command` when `when` holds, because
/// `why`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rule {
    /// The command.
    pub command: Command,
    /// The option that has no effect.
    pub option: Opt,
    /// When it has none.
    pub when: When,
    /// Why (the end of the error message).
    pub why: &'static str,
}

/// The table. Nothing here refuses a combination the README, docs or `--help` advertise.
pub const RULES: &[Rule] = &[
    Rule {
        command: Command::Encode,
        option: Opt::Output,
        when: When::With(Opt::Stats),
        why: "--stats prints the formula's size and writes no file",
    },
    Rule {
        command: Command::Encode,
        option: Opt::Gbdhash,
        when: When::With(Opt::Stats),
        why: "--stats writes no CNF to hash (give -o FILE --gbdhash, or -o - --gbdhash)",
    },
    Rule {
        command: Command::Encode,
        option: Opt::Gbdhash,
        when: When::OtherNotIn {
            other: Opt::To,
            default: "dimacs",
            applies: &["dimacs"],
        },
        why: "the GBD hash names a DIMACS CNF",
    },
    Rule {
        command: Command::Encode,
        option: Opt::Amo,
        // `--amo auto` is the default spelled out: it asks for no encoding, so every format
        // takes it.
        when: When::All(&[
            When::OtherNotIn {
                other: Opt::Amo,
                default: "auto",
                applies: &["auto"],
            },
            When::OtherNotIn {
                other: Opt::To,
                default: "dimacs",
                applies: &["dimacs"],
            },
        ]),
        why: "the OPB, LP and MiniZinc models state each line's at-most-one directly; the encoding is the CNF's",
    },
    Rule {
        command: Command::Verify,
        option: Opt::Diags,
        when: When::Without(Opt::Instance),
        why: "it takes the first D excluded diagonals of the --instance file",
    },
    Rule {
        command: Command::Solve,
        option: Opt::Deterministic,
        when: When::OtherNotIn {
            other: Opt::Solver,
            default: "auto",
            applies: &["bitboard"],
        },
        why: "only the bitboard search split over several threads has a board to fix from run to run",
    },
    Rule {
        command: Command::Encode,
        option: Opt::Level,
        when: When::With(Opt::Stats),
        why: "--stats writes no file to compress",
    },
    Rule {
        command: Command::Solve,
        option: Opt::Deterministic,
        when: When::OtherIn {
            other: Opt::Jobs,
            values: &["1"],
        },
        why: "the search on one thread finds the same board on every run already",
    },
    Rule {
        command: Command::Solve,
        option: Opt::Amo,
        when: When::OtherIn {
            other: Opt::Solver,
            values: &["bitboard", "walk", "construct"],
        },
        why: "the bitboard search, local search and the construction build no CNF",
    },
    Rule {
        command: Command::Solve,
        option: Opt::Implied,
        when: When::OtherIn {
            other: Opt::Solver,
            values: &["bitboard", "walk", "construct"],
        },
        why: "the bitboard search, local search and the construction build no CNF (the bitboard \
              search bounds the diagonal sums on its own)",
    },
    Rule {
        command: Command::Solve,
        option: Opt::Jobs,
        when: When::All(&[
            When::Without(Opt::Cubes),
            When::OtherNotIn {
                other: Opt::Solver,
                default: "auto",
                applies: &["auto", "bitboard", "portfolio"],
            },
        ]),
        why: "one solver runs on one thread (threads serve the default strategy, the bitboard \
              search, a portfolio and --cubes)",
    },
    Rule {
        command: Command::Solve,
        option: Opt::BreakSymmetry,
        when: When::With(Opt::Cubes),
        why: "cubes and none choose the default strategy's symmetry handling, which --cubes \
              does not run (lex adds constraints to any CNF)",
    },
    Rule {
        command: Command::Solve,
        option: Opt::BreakSymmetry,
        when: When::OtherNotIn {
            other: Opt::Solver,
            default: "auto",
            applies: &["auto"],
        },
        why: "cubes and none choose the default strategy's symmetry handling (lex adds \
              constraints to any CNF)",
    },
    Rule {
        command: Command::Solve,
        option: Opt::ProofFormat,
        when: When::With(Opt::Cubes),
        why: "certified cubes are checked by their solver; only the bitboard search writes a \
              proof of its own",
    },
    Rule {
        command: Command::Solve,
        option: Opt::ProofFormat,
        when: When::OtherNotIn {
            other: Opt::Solver,
            default: "auto",
            applies: &["auto", "bitboard", "portfolio"],
        },
        why: "only the bitboard search writes a proof of its own (other solvers certify by \
              self-check or DRAT)",
    },
    Rule {
        command: Command::Count,
        option: Opt::Engine,
        when: When::With(Opt::Boards),
        why: "the boards are enumerated by a search of their own; no counting engine runs",
    },
    Rule {
        command: Command::Count,
        option: Opt::Jobs,
        when: When::With(Opt::Boards),
        why: "the boards are enumerated on one thread, in one order",
    },
    Rule {
        command: Command::Count,
        option: Opt::Amo,
        when: When::With(Opt::Boards),
        why: "the boards are enumerated without a CNF",
    },
    Rule {
        command: Command::Count,
        option: Opt::Amo,
        when: When::OtherNotIn {
            other: Opt::Engine,
            default: "auto",
            applies: &["auto", "sat", "cdcl"],
        },
        why: "the backtrack and orbit engines count without a CNF (auto takes them wherever they \
              can count the instance; --engine sat counts with the encoding)",
    },
    Rule {
        command: Command::Suite,
        option: Opt::PerFamily,
        when: When::Without(Opt::Select),
        why: "only --select chooses instances per family",
    },
    Rule {
        command: Command::Suite,
        option: Opt::Total,
        when: When::Without(Opt::Select),
        why: "only --select keeps a quota of instances",
    },
    Rule {
        command: Command::Suite,
        option: Opt::BudgetSolver,
        when: When::Without(Opt::Select),
        why: "only --select runs a budget solver",
    },
    Rule {
        command: Command::Suite,
        option: Opt::BudgetLimit,
        when: When::Without(Opt::Select),
        why: "only --select runs a budget solver",
    },
    Rule {
        command: Command::Suite,
        option: Opt::SelectSeed,
        when: When::Without(Opt::Select),
        why: "only --select draws instances from a family",
    },
    Rule {
        command: Command::Suite,
        option: Opt::Counter,
        when: When::Without(Opt::Select),
        why: "only --select selects by a counter's time",
    },
    Rule {
        command: Command::Suite,
        option: Opt::Solve,
        when: When::With(Opt::Select),
        why: "--select solves every instance already (with --solver as its reference solver)",
    },
    Rule {
        command: Command::Suite,
        option: Opt::BudgetSolver,
        when: When::With(Opt::Counter),
        why: "the counter replaces both solvers",
    },
];

/// What the user gave: each option with its value as given (empty for a switch). Options not
/// given are absent; defaults are the table's business ([`When::OtherNotIn`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Given {
    options: Vec<(Opt, String)>,
}

impl Given {
    /// Nothing given.
    pub fn new() -> Given {
        Given::default()
    }

    /// With the switch `option` given.
    pub fn switch(self, option: Opt) -> Given {
        self.value(option, "")
    }

    /// With `option` given as `value`.
    pub fn value(mut self, option: Opt, value: impl Into<String>) -> Given {
        self.options.push((option, value.into()));
        self
    }

    /// With `option` given when `given` (a switch, or a value when `Some`), so a front end can
    /// list its arguments in one expression.
    pub fn maybe(self, option: Opt, given: Option<impl Into<String>>) -> Given {
        match given {
            Some(v) => self.value(option, v),
            None => self,
        }
    }

    /// With the switch `option` given when `on`.
    pub fn switch_if(self, option: Opt, on: bool) -> Given {
        if on { self.switch(option) } else { self }
    }

    /// The value of `option`, if given.
    pub fn get(&self, option: Opt) -> Option<&str> {
        self.options
            .iter()
            .find(|(o, _)| *o == option)
            .map(|(_, v)| v.as_str())
    }

    /// Whether `option` was given.
    pub fn has(&self, option: Opt) -> bool {
        self.get(option).is_some()
    }
}

/// The first row of [`RULES`] for `command` that refuses what `given` holds, as a typed error
/// naming the option, its value, the other option and why; `Ok` when every option given
/// applies.
pub fn check(command: Command, given: &Given) -> Result<()> {
    for rule in RULES.iter().filter(|r| r.command == command) {
        let Some(value) = given.get(rule.option) else {
            continue;
        };
        if holds(rule.when, given) {
            return Err(refusal(rule, rule.when, value, given));
        }
    }
    Ok(())
}

/// The row of [`RULES`] for `command` that refuses `option` beside what `given` holds (whether
/// or not `given` holds `option` itself); `None` where `option` applies. Public for the test
/// that walks the table against the solve plans (`tests/it/plan.rs`): a refused option changes
/// no plan.
pub fn refusing(command: Command, option: Opt, given: &Given) -> Option<&'static Rule> {
    RULES
        .iter()
        .find(|r| r.command == command && r.option == option && holds(r.when, given))
}

/// Whether `when` holds for what `given` holds.
fn holds(when: When, given: &Given) -> bool {
    match when {
        When::With(with) => given.has(with),
        When::Without(needs) => !given.has(needs),
        When::OtherNotIn {
            other,
            default,
            applies,
        } => !applies.contains(&class(other, given.get(other).unwrap_or(default))),
        When::OtherIn { other, values } => given
            .get(other)
            .is_some_and(|v| values.contains(&class(other, v))),
        When::All(all) => all.iter().all(|w| holds(*w, given)),
    }
}

/// The error of `rule`, whose condition `when` holds, for the option's `value`.
fn refusal(rule: &Rule, when: When, value: &str, given: &Given) -> crate::error::Error {
    match when {
        When::With(with) => BadOption::excludes(rule.option, value, with, rule.why),
        When::Without(needs) => BadOption::needs(rule.option, value, needs, rule.why),
        When::OtherNotIn { other, default, .. } => BadOption::conflicts(
            rule.option,
            value,
            other,
            given.get(other).unwrap_or(default),
            rule.why,
        ),
        When::OtherIn { other, .. } => BadOption::conflicts(
            rule.option,
            value,
            other,
            given.get(other).unwrap_or_default(),
            rule.why,
        ),
        When::All(all) => refusal(rule, *all.last().expect("a condition"), value, given),
    }
}
