//! Backends: answer SAT / UNSAT / UNKNOWN for a CNF, with a model when SAT.
//!
//! [`varisat_backend`] solves in-process; [`external`] runs any DIMACS solver on a file and parses
//! its answer (SAT-competition `s`/`v` lines, or minisat's result file).

pub mod external;
pub mod output;
pub mod varisat_backend;

/// A total or partial assignment returned by a solver: `value(v)` for DIMACS variable `v >= 1`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Model {
    /// `values[v - 1]` is the value of variable `v`; variables the solver did not mention are false.
    values: Vec<bool>,
}

impl Model {
    /// An all-false model over `num_vars` variables.
    pub fn new(num_vars: usize) -> Model {
        Model {
            values: vec![false; num_vars],
        }
    }

    /// Builds a model from the true DIMACS variables.
    pub fn from_true_vars(num_vars: usize, true_vars: impl IntoIterator<Item = u32>) -> Model {
        let mut m = Model::new(num_vars);
        for v in true_vars {
            m.set(v, true);
        }
        m
    }

    /// Number of variables the model covers.
    pub fn num_vars(&self) -> usize {
        self.values.len()
    }

    /// The value of DIMACS variable `var` (1-based); false beyond the model's range.
    #[inline]
    pub fn value(&self, var: u32) -> bool {
        var >= 1 && self.values.get(var as usize - 1).copied().unwrap_or(false)
    }

    /// Sets DIMACS variable `var` (1-based, within range).
    #[inline]
    pub fn set(&mut self, var: u32, value: bool) {
        self.values[var as usize - 1] = value;
    }
}

/// A solver's verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Satisfiable, with a model (not yet verified).
    Sat(Model),
    /// Proven unsatisfiable.
    Unsat,
    /// No answer; the reason (for example "time limit of 5 s reached").
    Unknown(String),
}
