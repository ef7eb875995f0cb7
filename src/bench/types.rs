//! The data types the harness's files share: hard instances, configurations, options of
//! `bench hard` and the result of one run. Imports no other file of the harness.

use std::path::PathBuf;

use crate::encode::amo::AmoKind;
use crate::encode::implied::Implied;
use crate::generate::Generator;
use crate::solve::Answer;

/// Kinds of hard instance, in table order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Group {
    /// Blocked n-queens (csplib prob080 generator).
    Blocked,
    /// Excluded diagonals, solved directly (csplib prob079 generator).
    Diagonals,
    /// The same excluded-diagonal instances reduced to n-queens completion.
    Completion,
}

impl Group {
    /// Short column title.
    pub fn title(self) -> &'static str {
        match self {
            Group::Blocked => "blocked",
            Group::Diagonals => "diagonals",
            Group::Completion => "diag->completion",
        }
    }

    /// The group of instances made by `generator`: blocked, excluded diagonals, or excluded
    /// diagonals reduced to completion (`None` for the other generators).
    pub fn of(generator: &Generator) -> Option<Group> {
        match generator {
            Generator::Blocked { .. } => Some(Group::Blocked),
            Generator::Diagonals {
                to_completion: false,
                ..
            } => Some(Group::Diagonals),
            Generator::Diagonals {
                to_completion: true,
                ..
            } => Some(Group::Completion),
            _ => None,
        }
    }
}

/// One generated instance of a hard set.
#[derive(Clone, Debug)]
pub struct HardInstance {
    /// Its kind.
    pub group: Group,
    /// Board side given to the generator.
    pub n: u32,
    /// The generator and its parameters.
    pub generator: Generator,
    /// Generator seed.
    pub seed: u64,
}

impl HardInstance {
    /// A name such as `blocked-n48-m1965-s3` or `diag-n17-d20-s1-completion`.
    pub fn name(&self) -> String {
        let n = self.n;
        let s = self.seed;
        match self.generator {
            Generator::Blocked { m, .. } => format!("blocked-n{n}-m{m}-s{s}"),
            Generator::Diagonals {
                diags: Some(d),
                to_completion,
                ..
            } => {
                let tail = if to_completion { "-completion" } else { "" };
                format!("diag-n{n}-d{d}-s{s}{tail}")
            }
            other => format!("{}-n{n}-s{s}", other.kind()),
        }
    }
}

/// The configuration name that runs `solve --cubes` (in-process varisat, cube and conquer).
pub const CUBES: &str = "cubes";

/// One configuration: a backend (`varisat` or an external solver) and an AMO encoding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// `--solver` value.
    pub solver: String,
    /// `--amo` value.
    pub amo: AmoKind,
}

impl Config {
    /// `solver/amo`, with the csplib baseline (recursive commander, groups of 3) marked.
    pub fn label(&self) -> String {
        if self.solver.contains(',') {
            return format!("portfolio [{}]", self.solver);
        }
        let mark = if self.amo == AmoKind::Commander(3) {
            " (csplib baseline)"
        } else {
            ""
        };
        format!("{} {}{mark}", self.solver, self.amo)
    }
}

/// The instance sets of `bench hard` (see [`super::catalogue`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HardSet {
    /// The standard set (smaller with `quick`).
    Standard,
    /// The tail set (`encodings/tail.suite`).
    Tail,
    /// The frontier set (`encodings/frontier.suite`).
    Frontier,
}

/// Options of `bench hard`.
#[derive(Clone, Debug)]
pub struct HardOptions {
    /// The smaller instance set.
    pub quick: bool,
    /// Generator seeds `1..=seeds` per family.
    pub seeds: u64,
    /// Time limit of each run, seconds.
    pub timeout: u32,
    /// Runs at a time.
    pub jobs: usize,
    /// Backends (`varisat`, external solver names).
    pub solvers: Vec<String>,
    /// Encodings.
    pub amos: Vec<AmoKind>,
    /// Extra portfolio configurations (`solve --solver` values with commas), run with the
    /// default encoding for entries that name none.
    pub portfolios: Vec<String>,
    /// Also write every run as a CSV row here, as it finishes.
    pub csv: Option<PathBuf>,
    /// Read the runs already in `csv` back and run only the others.
    pub resume: bool,
    /// The instance set.
    pub set: HardSet,
    /// Run a seeded subset of this many instances.
    pub sample: Option<usize>,
    /// Write the cactus plot (SVG) here.
    pub cactus: Option<PathBuf>,
    /// Write the plot of median and maximum seconds against n (SVG) here.
    pub plot: Option<PathBuf>,
    /// Only print the instance names of the set (after `sample`), one per line.
    pub list: bool,
    /// `--implied` for every run (`None`: each run's default).
    pub implied: Option<Implied>,
}

/// What one run gave: the verdict of the child (the project's one answer type), or why it
/// failed.
pub type RunOutcome = std::result::Result<Answer<()>, String>;

/// One run's result.
#[derive(Clone, Debug)]
pub struct RunResult {
    /// RunOutcome.
    pub outcome: RunOutcome,
    /// Wall-clock seconds of the child.
    pub seconds: f64,
}

/// The results of a bench: per (instance index, configuration index), the run's result.
pub type Results = std::collections::BTreeMap<(usize, usize), RunResult>;
