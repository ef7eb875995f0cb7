//! `plan`: what `solve` would do with the same arguments, as data, without solving (the
//! library's [`queens_sat::solve::Solver::plan`], `queens-sat solve --explain`).

use pyo3::prelude::*;
use queens_sat::solve::Plan;

/// What `Plan.__reduce__` hands to `Plan._restore`: the text, the JSON text and the engines.
type PlanState = (String, String, Vec<String>);

/// What a solve will do, decided without solving: which engines, in which order, on how many
/// threads, with which encoding (`queens-sat solve --explain`).
///
/// `str(plan)` is the text `solve --explain` prints (one step per line, what a step runs next
/// indented under it), `to_dict()` the JSON of `solve --explain --format json` (the `plan`
/// field of a solve's record), and `engines` the engines it may run. Built by `plan(...)`, and
/// held by `Result.plan`. Plans are equal when their JSON is; they pickle.
#[pyclass(module = "queens_sat", name = "Plan", frozen)]
#[derive(Clone)]
pub struct PyPlan {
    /// The `Display` text.
    text: String,
    /// [`Plan::to_json`].
    json: serde_json::Value,
    /// [`Plan::engines`].
    engines: Vec<String>,
}

impl PyPlan {
    /// The Python view of the library's `plan`.
    pub fn of(plan: &Plan) -> PyPlan {
        PyPlan {
            text: plan.to_string(),
            json: plan.to_json(),
            engines: plan.engines(),
        }
    }

    /// The plan as JSON, as a solve's record holds it.
    pub fn json(&self) -> &serde_json::Value {
        &self.json
    }
}

#[pymethods]
impl PyPlan {
    /// The kind of the first step: `"run"` (one engine), `"portfolio"` (engines raced, each
    /// with its encoding), `"construct"` (the explicit construction first), `"prepass"` (local
    /// search first), `"race"` (lanes on their own threads), `"cubes"` (cube-and-conquer) or
    /// `"presolved"` (presolve refuted the instance: UNSAT without a search).
    #[getter]
    fn step(&self) -> String {
        self.json["step"].as_str().unwrap_or_default().to_string()
    }

    /// The engines the plan may run, in the order they appear, by their table names (the
    /// construction, `"construct"`, and the local search, `"walk"`, included).
    #[getter]
    fn engines(&self) -> Vec<String> {
        self.engines.clone()
    }

    /// The plan as JSON text (what `queens-sat solve --explain --format json` prints).
    fn to_json(&self) -> String {
        self.json.to_string()
    }

    /// The plan as a dict: `{"step": "run" | "portfolio" | "construct" | "prepass" | "race" |
    /// "cubes" | "presolved", ...}`, each step with its settings and what it runs next
    /// (`otherwise`, `then`, `lanes`); the `plan` field of `Result.to_dict()`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        py.import("json")?.call_method1("loads", (self.to_json(),))
    }

    /// The text `queens-sat solve --explain` prints: one step per line, what a step runs next
    /// indented under it (without the last line's newline: `print(plan)` prints the same lines).
    fn __str__(&self) -> String {
        self.text.trim_end_matches('\n').to_string()
    }

    fn __repr__(&self) -> String {
        let engines: Vec<String> = self.engines.iter().map(|e| format!("'{e}'")).collect();
        format!(
            "Plan(step='{}', engines=[{}])",
            self.step(),
            engines.join(", ")
        )
    }

    /// Equal plans: the same JSON (`to_dict()`).
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyPlan>()
            .is_ok_and(|o| self.json == o.get().json)
    }

    /// A hash that agrees with `==`.
    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.json.to_string().hash(&mut h);
        h.finish()
    }

    /// Pickling: the text, the JSON text and the engines.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, PlanState)> {
        let me = slf.get();
        Ok((
            slf.get_type().getattr("_restore")?,
            (me.text.clone(), me.to_json(), me.engines.clone()),
        ))
    }

    /// Rebuilds a pickled plan (the inverse of `__reduce__`).
    #[staticmethod]
    fn _restore(text: String, json: &str, engines: Vec<String>) -> PyResult<Self> {
        let json = serde_json::from_str(json).map_err(|e| {
            crate::errors::usage(format!(
                "Plan._restore: the pickled JSON does not parse: {e}"
            ))
        })?;
        Ok(PyPlan {
            text,
            json,
            engines,
        })
    }
}
