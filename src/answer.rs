//! What solvers and strategies answer: a [`Model`] (a solver's assignment), [`Answer`] (SAT with a
//! witness, UNSAT, or UNKNOWN) and [`Status`] (an answer whose witness is a verified board).
//! Decode, export, count and solve all speak these types, so they live below all of them.

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

/// The one answer type of every backend, strategy, bench row and job result: SAT with a witness
/// (a solver's [`Model`], or a verified [`Board`](crate::board::Board) once decoded), proven
/// UNSAT, or UNKNOWN with the reason.
///
/// ```
/// use queens_sat::answer::Answer;
/// let a: Answer<u32> = Answer::Sat(7);
/// assert_eq!((a.label(), a.exit_code()), ("SAT", 10));
/// assert_eq!(Answer::<()>::Unsat.exit_code(), 20);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer<T = Model> {
    /// Satisfiable, with a witness (a model not yet verified, or a verified board).
    Sat(T),
    /// Proven unsatisfiable.
    Unsat,
    /// No answer; the reason (for example "time limit of 5 s reached").
    Unknown(String),
}

impl Answer<Model> {
    /// The answer of an IPASIR-style solver call (CaDiCaL, Kissat): `10` SAT with the model read
    /// through `is_true` (asked for each variable `1..=num_vars`), `20` UNSAT, anything else
    /// UNKNOWN with the reason `why` gives.
    ///
    /// ```
    /// use queens_sat::answer::Answer;
    /// let a = Answer::from_ipasir(10, 3, |v| v == 2, || unreachable!());
    /// assert!(a.sat().is_some_and(|m| m.value(2) && !m.value(1)));
    /// assert_eq!(Answer::from_ipasir(0, 3, |_| true, || "stopped".into()), Answer::Unknown("stopped".into()));
    /// ```
    pub fn from_ipasir(
        code: i32,
        num_vars: usize,
        mut is_true: impl FnMut(u32) -> bool,
        why: impl FnOnce() -> String,
    ) -> Answer<Model> {
        match code {
            10 => Answer::Sat(Model::from_true_vars(
                num_vars,
                (1..=num_vars as u32).filter(|&v| is_true(v)),
            )),
            20 => Answer::Unsat,
            _ => Answer::Unknown(why()),
        }
    }
}

/// A verified answer: SAT comes with a board that passed [`verify`](crate::verify::verify).
pub type Status = Answer<crate::board::Board>;

impl<T> Answer<T> {
    /// `SAT`, `UNSAT` or `UNKNOWN` (the SAT-competition words, as printed and in JSON).
    pub fn label(&self) -> &'static str {
        match self {
            Answer::Sat(_) => "SAT",
            Answer::Unsat => "UNSAT",
            Answer::Unknown(_) => "UNKNOWN",
        }
    }

    /// The SAT-competition exit code: 10 SAT, 20 UNSAT, 1 UNKNOWN.
    pub fn exit_code(&self) -> u8 {
        match self {
            Answer::Sat(_) => 10,
            Answer::Unsat => 20,
            Answer::Unknown(_) => 1,
        }
    }

    /// The witness, when SAT.
    pub fn sat(&self) -> Option<&T> {
        match self {
            Answer::Sat(w) => Some(w),
            _ => None,
        }
    }

    /// Replaces the witness (for example a model by its decoded board).
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Answer<U> {
        match self {
            Answer::Sat(w) => Answer::Sat(f(w)),
            Answer::Unsat => Answer::Unsat,
            Answer::Unknown(why) => Answer::Unknown(why),
        }
    }
}
