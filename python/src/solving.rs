//! `solve`: the library's default strategy (or any `--solver` spec) on an instance, returning a
//! verified board and the fields of `solve --format json`.

use queens_sat::certify::ProofFormat;
use std::time::Duration;

use pyo3::prelude::*;
use queens_sat::answer::{Answer, Status};
use queens_sat::board::Board;
use queens_sat::encode::Stats;
use queens_sat::instance::Instance;
use queens_sat::interrupt::Cancel;
use queens_sat::options::Parsed;
use queens_sat::piece::Piece;
use queens_sat::report::SolveRecord;
use queens_sat::solve::Solver;

use crate::errors;
use crate::plan::PyPlan;
use crate::{PyBoard, PyInstance, encoding, html_escape, work};

/// What `Result.__reduce__` hands to `Result._restore`: the instance, the status (`SAT`,
/// `UNSAT`, `UNKNOWN`), the board's pieces when SAT, the UNKNOWN reason, then the rest of the
/// fields in declaration order (the size with why it was not counted), the last two (presolve's
/// UNSAT reason, the plan) as a pair.
type ResultState = (
    PyInstance,
    &'static str,
    Option<Vec<(u32, u32)>>,
    Option<String>,
    String,
    String,
    (u64, u64, u64),
    Option<String>,
    f64,
    f64,
    Option<String>,
    (Option<String>, Option<PyPlan>),
);

/// A solve request read from the keyword arguments of `solve` (and `plan`, which takes the
/// same ones but `cancel`): every value checked in Python's words, and the options that would
/// change nothing refused, as `queens-sat solve` refuses them. `solve` and `plan` read their
/// arguments here and build the library's [`Solver`] through [`Request::solver`], so `plan`
/// refuses what `solve` refuses before it runs an engine, and plans what it would run. (The one
/// refusal made once an engine ran, `amo=` or `implied=` on a plain board the construction
/// answered, is `solve`'s alone, as it is `solve`'s and not `solve --explain`'s on the command
/// line.)
struct Request<'s> {
    parsed: Parsed,
    solver: &'s str,
    timeout: Option<Duration>,
    certify: bool,
    jobs: Option<usize>,
    deterministic: bool,
    proof: Option<std::path::PathBuf>,
    proof_format: Option<ProofFormat>,
    proof_budget: Option<u64>,
    /// `proof_budget` as Python wrote it, for the library's refusal of it.
    budget_given: Option<String>,
    /// Whether `amo=` was given (not `auto`).
    amo_given: bool,
}

impl<'s> Request<'s> {
    /// Reads and checks the arguments (the applies table included).
    #[allow(clippy::too_many_arguments)]
    fn read(
        instance: &PyInstance,
        solver: &'s str,
        timeout_secs: Option<&Bound<'_, PyAny>>,
        certify: bool,
        jobs_: Option<&Bound<'_, PyAny>>,
        amo: Option<&str>,
        implied: Option<&str>,
        symmetric: Option<&str>,
        break_symmetry: Option<&str>,
        deterministic: bool,
        proof: Option<std::path::PathBuf>,
        proof_format: Option<&str>,
        proof_budget: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Request<'s>> {
        let proof_format = errors::py_ok(proof_format.map(ProofFormat::parse).transpose())?;
        let budget_given = proof_budget.map(crate::args::repr);
        let proof_budget = crate::args::proof_budget(proof_budget)?;
        // `implied=None` leaves the choice to the strategy (the diagonal sums in its cube
        // solver).
        let parsed = encoding(instance, amo, implied, symmetric, break_symmetry, true)?;
        let timeout = crate::args::timeout(timeout_secs)?.map(|(d, _)| d);
        let jobs_ = crate::args::jobs(jobs_)?;
        // Options that would change nothing ([`queens_sat::applies`]), checked as `queens-sat
        // solve` checks them: `amo=` with a solver that builds no CNF, `jobs=` with one that
        // runs on one thread, ... Of `break_symmetry`, `none` and `cubes` choose the default
        // strategy's handling; `lex` is an encoding option.
        {
            use queens_sat::applies::{Command, Given, check};
            use queens_sat::error::Opt;
            errors::py_ok(check(
                Command::Solve,
                &Given::new()
                    .value(Opt::Solver, solver)
                    .maybe(Opt::Amo, amo)
                    .maybe(Opt::Implied, implied)
                    .maybe(Opt::Jobs, jobs_.map(|j| j.to_string()))
                    .switch_if(Opt::Deterministic, deterministic)
                    .maybe(
                        Opt::BreakSymmetry,
                        break_symmetry.filter(|m| matches!(*m, "none" | "cubes")),
                    )
                    .maybe(Opt::ProofFormat, proof_format.map(|f| f.name())),
            ))?;
        }
        Ok(Request {
            parsed,
            solver,
            timeout,
            certify,
            jobs: jobs_,
            deterministic,
            proof,
            proof_format,
            proof_budget,
            budget_given,
            amo_given: amo.is_some(),
        })
    }

    /// The library's solving strategy ([`Solver`]: the default strategy, one backend, or a
    /// portfolio) for this request on `instance`, stopped by `cancel`: the one place `solve`
    /// and `plan` build it.
    fn solver<'a>(&self, instance: &'a Instance, piece: Piece, cancel: &Cancel) -> Solver<'a> {
        let mut s = Solver::new(instance, piece)
            .options(self.parsed.options)
            .auto_symmetry(self.parsed.auto_symmetry)
            .solver(self.solver)
            .timeout(self.timeout)
            .certify(self.certify)
            .jobs(self.jobs)
            .deterministic(self.deterministic)
            .proof(self.proof.clone())
            .proof_format(self.proof_format)
            .proof_budget(self.proof_budget)
            .amo_given(self.amo_given)
            .cancel(cancel.clone());
        if let Some(i) = self.parsed.implied {
            s = s.implied(i);
        }
        s
    }

    /// A library error in Python's words: its refusal of the budget (where no proof file is
    /// written) names the value as Python wrote it.
    fn python_words(&self, e: queens_sat::Error) -> queens_sat::Error {
        match (&e, &self.budget_given) {
            (queens_sat::Error::Option(b), Some(given))
                if b.option == queens_sat::error::Opt::ProofBudget =>
            {
                crate::args::revalue(e, given)
            }
            _ => e,
        }
    }
}

/// The answer of `solve`: a status, a verified board when SAT, and what `solve --format json`
/// reports.
///
/// Results pickle (for process pools; a SAT board is verified again on unpickling). In Jupyter
/// a SAT result shows its board as SVG, any other its verdict and reason as HTML.
#[pyclass(module = "queens_sat", name = "Result", frozen)]
pub struct PyResult_ {
    status: Status,
    instance: PyInstance,
    amo: String,
    solver: String,
    stats: Stats,
    /// Why the CNF's size was not counted (past the DIMACS variable limit, ...): `vars` and
    /// `clauses` are then `None`, as `solve --format json` gives them.
    size_omitted: Option<String>,
    encode_seconds: f64,
    solve_seconds: f64,
    certified: Option<String>,
    /// Presolve's reason for an UNSAT it proved.
    unsat_reason: Option<String>,
    /// The plan that ran (`None` where the solve stopped before it was decided).
    plan: Option<PyPlan>,
}

impl PyResult_ {
    fn record(&self) -> SolveRecord {
        let mut rec = SolveRecord::new(
            &self.status,
            &self.instance.inner,
            self.instance.piece,
            &self.amo,
            &self.solver,
        );
        if self.size_omitted.is_none() {
            rec.vars = Some(self.stats.vars);
            rec.clauses = Some(self.stats.clauses);
        }
        rec.size_omitted.clone_from(&self.size_omitted);
        rec.encode_seconds = self.encode_seconds;
        rec.solve_seconds = self.solve_seconds;
        rec.certified = self.certified.clone();
        rec.plan = self.plan.as_ref().map(|p| p.json().clone());
        if matches!(self.status, Answer::Unsat) {
            rec.reason.clone_from(&self.unsat_reason);
        }
        rec
    }
}

#[pymethods]
impl PyResult_ {
    /// `Status.SAT`, `Status.UNSAT` or `Status.UNKNOWN`.
    #[getter]
    fn status<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        py.import("queens_sat._status")?
            .getattr("Status")?
            .call1((self.status.label(),))
    }

    /// The verified board when SAT, else `None`.
    #[getter]
    fn board(&self) -> Option<PyBoard> {
        self.status.sat().map(|b| PyBoard {
            board: b.clone(),
            instance: Some(self.instance.clone()),
        })
    }

    /// Why the answer is UNKNOWN, or why presolve proved UNSAT (pre-placed pieces that attack
    /// each other, a line left without a free cell); `None` for SAT and for an UNSAT a solver
    /// found.
    #[getter]
    fn reason(&self) -> Option<String> {
        match &self.status {
            Answer::Unknown(why) => Some(errors::python_words(why)),
            Answer::Unsat => self.unsat_reason.as_deref().map(errors::python_words),
            Answer::Sat(_) => None,
        }
    }

    /// The instance solved.
    #[getter]
    fn instance(&self) -> PyInstance {
        self.instance.clone()
    }

    /// The solver that answered, as `solve --format json` names it (a portfolio's winner, the
    /// default strategy's stage, ` mod r90` when the cube solver searched modulo symmetries).
    #[getter]
    fn solver(&self) -> &str {
        &self.solver
    }

    /// The at-most-one encoding of the instance's CNF (`amo=`, as `solve --format json` reports
    /// it, whichever solver answered).
    #[getter]
    fn amo(&self) -> &str {
        &self.amo
    }

    /// Variables of the instance's CNF under these options (as `solve --format json` reports),
    /// or `None` when the size was not counted (`size_omitted` says why).
    #[getter]
    fn vars(&self) -> Option<u64> {
        self.size_omitted.is_none().then_some(self.stats.vars)
    }

    /// Clauses of the instance's CNF under these options (as `solve --format json` reports),
    /// or `None` when the size was not counted (`size_omitted` says why).
    #[getter]
    fn clauses(&self) -> Option<u64> {
        self.size_omitted.is_none().then_some(self.stats.clauses)
    }

    /// Why `vars` and `clauses` are `None`: the CNF's size was not counted (past the DIMACS
    /// variable limit, n > 46,340 on a plain board, where the construction answers without a
    /// CNF; or a big board that is not plain, for a solver that builds no CNF). `None` when
    /// they hold the size.
    #[getter]
    fn size_omitted(&self) -> Option<String> {
        self.size_omitted.as_deref().map(errors::python_words)
    }

    /// Seconds spent presolving and encoding.
    #[getter]
    fn encode_seconds(&self) -> f64 {
        self.encode_seconds
    }

    /// Seconds spent solving (and verifying the board).
    #[getter]
    fn solve_seconds(&self) -> f64 {
        self.solve_seconds
    }

    /// Seconds in all: `encode_seconds + solve_seconds` (the `seconds=` of the repr).
    #[getter]
    fn seconds(&self) -> f64 {
        self.encode_seconds + self.solve_seconds
    }

    /// Who checked the refutation of a certified UNSAT.
    #[getter]
    fn certified(&self) -> Option<String> {
        self.certified.clone()
    }

    /// The plan the solve ran (what `plan(...)` gives for the same arguments; the `plan` field
    /// of `to_dict()`), or `None` where the time limit stopped it before the plan was decided.
    #[getter]
    fn plan(&self) -> Option<PyPlan> {
        self.plan.clone()
    }

    /// The record `solve --format json` prints, as JSON text.
    fn to_json(&self) -> String {
        serde_json::to_string(&self.record()).expect("report records serialise")
    }

    /// The record `solve --format json` prints, as a dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        py.import("json")?.call_method1("loads", (self.to_json(),))
    }

    fn __bool__(&self) -> bool {
        self.status.sat().is_some()
    }

    /// Equal results: the same status, instance (with its piece) and board; the solver, the
    /// times and an UNKNOWN's reason do not matter.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyResult_>().is_ok_and(|o| {
            let o = o.get();
            self.status.label() == o.status.label()
                && self.status.sat() == o.status.sat()
                && self.instance.inner == o.instance.inner
                && self.instance.piece == o.instance.piece
        })
    }

    /// A hash that agrees with `==`.
    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.status.label().hash(&mut h);
        if let Some(b) = self.status.sat() {
            (b.n, &b.pieces).hash(&mut h);
        }
        self.instance.inner.hash(&mut h);
        self.instance.piece.name.hash(&mut h);
        h.finish()
    }

    /// Pickling (multiprocessing, `concurrent.futures`): every field; the board of a SAT
    /// result travels as its pieces and is verified again against the instance on unpickling.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, ResultState)> {
        let me = slf.get();
        let (pieces, unknown) = match &me.status {
            Answer::Sat(b) => (
                Some(b.pieces.iter().map(|c| (c.row, c.col)).collect()),
                None,
            ),
            Answer::Unsat => (None, None),
            Answer::Unknown(why) => (None, Some(why.clone())),
        };
        Ok((
            slf.get_type().getattr("_restore")?,
            (
                me.instance.clone(),
                me.status.label(),
                pieces,
                unknown,
                me.amo.clone(),
                me.solver.clone(),
                (me.stats.vars, me.stats.clauses, me.stats.literals),
                me.size_omitted.clone(),
                me.encode_seconds,
                me.solve_seconds,
                me.certified.clone(),
                (me.unsat_reason.clone(), me.plan.clone()),
            ),
        ))
    }

    /// Rebuilds a pickled result (the inverse of `__reduce__`); a SAT board that is not a
    /// solution of the instance is a `VerifyError`.
    #[staticmethod]
    #[allow(clippy::too_many_arguments)]
    fn _restore(
        instance: Bound<'_, PyInstance>,
        status: &str,
        pieces: Option<Vec<(i64, i64)>>,
        unknown: Option<String>,
        amo: String,
        solver: String,
        stats: (u64, u64, u64),
        size_omitted: Option<String>,
        encode_seconds: f64,
        solve_seconds: f64,
        certified: Option<String>,
        reason_and_plan: (Option<String>, Option<Bound<'_, PyPlan>>),
    ) -> PyResult<Self> {
        let (unsat_reason, plan) = reason_and_plan;
        let instance = instance.get().clone();
        let status = match (status, pieces, unknown) {
            ("SAT", Some(pieces), None) => {
                let n = instance.inner.n;
                let pieces = pieces
                    .into_iter()
                    .map(|(r, c)| (r, c, format!("({r}, {c})")))
                    .collect();
                let board = Board::new(n, crate::cells(n, "pieces", pieces)?);
                queens_sat::verify::check(&board, &instance.inner, instance.piece)
                    .map_err(|v| errors::verify_error(&v))?;
                Answer::Sat(board)
            }
            ("UNSAT", None, None) => Answer::Unsat,
            ("UNKNOWN", None, Some(why)) => Answer::Unknown(why),
            (other, ..) => {
                return Err(errors::usage(format!(
                    "Result._restore: inconsistent pickled status '{other}'"
                )));
            }
        };
        Ok(PyResult_ {
            status,
            instance,
            amo,
            solver,
            stats: Stats {
                vars: stats.0,
                clauses: stats.1,
                literals: stats.2,
            },
            size_omitted,
            encode_seconds,
            solve_seconds,
            certified,
            unsat_reason,
            plan: plan.map(|p| p.get().clone()),
        })
    }

    /// Jupyter's rich repr of a SAT result: the verified board as SVG (`Board._repr_svg_`);
    /// `None` (no SVG) when the result is not SAT, or its board is past n = 1,024, the
    /// command line's limit for SVG.
    fn _repr_svg_(&self) -> Option<String> {
        self.board().and_then(|b| b._repr_svg_())
    }

    /// Jupyter's rich repr of a result that is not SAT: the verdict and its reason as HTML;
    /// for a SAT board too large to draw (n > 1,024), a short note saying so; `None` (the
    /// SVG board is shown instead) for any other SAT result.
    fn _repr_html_(&self) -> Option<String> {
        if self.status.sat().is_some() {
            return crate::too_large_to_draw(self.instance.inner.n, "board").map(|note| {
                format!(
                    "<div class=\"queens-sat-result\"><b>SAT</b>: {note}<br><small>{}-{}s, solver {}, \
                     {:.3} s; <code>.board.columns</code> holds it</small></div>",
                    self.instance.inner.n,
                    self.instance.piece.name,
                    html_escape(&self.solver),
                    self.encode_seconds + self.solve_seconds
                )
            });
        }
        let i = &self.instance;
        let reason = match self.reason() {
            Some(r) => format!(": {}", html_escape(&r)),
            None => String::new(),
        };
        Some(format!(
            "<div class=\"queens-sat-result\"><b>{}</b>{reason}<br>\
             <small>{}-{}s, solver {}, {:.3} s</small></div>",
            self.status.label(),
            i.inner.n,
            i.piece.name,
            html_escape(&self.solver),
            self.encode_seconds + self.solve_seconds
        ))
    }

    fn __repr__(&self) -> String {
        let what = match (&self.status, self.reason()) {
            (Answer::Sat(_), _) | (_, None) => self.status.label().to_string(),
            (s, Some(why)) => format!("{} ({why})", s.label()),
        };
        format!(
            "Result({what}, n={}, piece='{}', solver='{}', seconds={:.3})",
            self.instance.inner.n,
            self.instance.piece.name,
            self.solver,
            self.encode_seconds + self.solve_seconds
        )
    }
}

#[pyfunction]
#[pyo3(signature = (instance, solver, timeout_secs, certify, jobs_, amo, implied, symmetric, break_symmetry, deterministic, proof, proof_format, proof_budget, cancel))]
#[allow(clippy::too_many_arguments)]
pub fn solve(
    py: Python<'_>,
    instance: &PyInstance,
    solver: &str,
    timeout_secs: Option<&Bound<'_, PyAny>>,
    certify: bool,
    jobs_: Option<&Bound<'_, PyAny>>,
    amo: Option<&str>,
    implied: Option<&str>,
    symmetric: Option<&str>,
    break_symmetry: Option<&str>,
    deterministic: bool,
    proof: Option<std::path::PathBuf>,
    proof_format: Option<&str>,
    proof_budget: Option<&Bound<'_, PyAny>>,
    cancel: Option<PyRef<'_, crate::cancel::PyCancel>>,
) -> PyResult<PyResult_> {
    let request = Request::read(
        instance,
        solver,
        timeout_secs,
        certify,
        jobs_,
        amo,
        implied,
        symmetric,
        break_symmetry,
        deterministic,
        proof,
        proof_format,
        proof_budget,
    )?;
    let (inst, piece) = (&instance.inner, instance.piece);
    let s = work::run_with(py, None, cancel.as_deref(), |cancel| {
        request
            .solver(inst, piece, cancel)
            .solve()
            .map_err(|e| request.python_words(e))
    })?;
    Ok(PyResult_ {
        status: s.status,
        instance: instance.clone(),
        amo: s.amo,
        // In Python's words: a portfolio's winner by its engine's name, without the command
        // line's `--amo` (which `Result.amo` holds).
        solver: match &s.winner {
            Some(name) => format!("{name} (portfolio winner)"),
            None => without_amo(&s.solver),
        },
        stats: s.stats,
        size_omitted: s.size_omitted,
        encode_seconds: s.encode_seconds,
        solve_seconds: s.solve_seconds,
        certified: s.certificate.map(|c| c.checker),
        unsat_reason: s.reason,
        plan: s.plan.as_ref().map(PyPlan::of),
    })
}

/// What `solve` would do with the same arguments (but `cancel`), without solving: the request
/// checked as `solve` checks it (the same errors), the instance presolved, and the library's
/// plan ([`Solver::plan`]).
#[pyfunction]
#[pyo3(signature = (instance, solver, timeout_secs, certify, jobs_, amo, implied, symmetric, break_symmetry, deterministic, proof, proof_format, proof_budget))]
#[allow(clippy::too_many_arguments)]
pub fn plan(
    py: Python<'_>,
    instance: &PyInstance,
    solver: &str,
    timeout_secs: Option<&Bound<'_, PyAny>>,
    certify: bool,
    jobs_: Option<&Bound<'_, PyAny>>,
    amo: Option<&str>,
    implied: Option<&str>,
    symmetric: Option<&str>,
    break_symmetry: Option<&str>,
    deterministic: bool,
    proof: Option<std::path::PathBuf>,
    proof_format: Option<&str>,
    proof_budget: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyPlan> {
    let request = Request::read(
        instance,
        solver,
        timeout_secs,
        certify,
        jobs_,
        amo,
        implied,
        symmetric,
        break_symmetry,
        deterministic,
        proof,
        proof_format,
        proof_budget,
    )?;
    let (inst, piece) = (&instance.inner, instance.piece);
    // Presolving a big board takes a while: off the GIL, stopped by Ctrl-C.
    let plan = work::run(py, None, |cancel| {
        request
            .solver(inst, piece, cancel)
            .plan()
            .map_err(|e| request.python_words(e))
    })?;
    Ok(PyPlan::of(&plan))
}

/// A solver label in Python's words: every command-line `--amo A` dropped (a portfolio that
/// found no winner names its entrants as `varisat --amo auto, lib:cadical --amo auto`), the
/// punctuation after `A` kept. `Result.amo` holds the encoding.
fn without_amo(label: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut words = label.split(' ');
    while let Some(w) = words.next() {
        if w == "--amo" {
            if let Some(value) = words.next() {
                let tail = value.trim_start_matches(|c: char| c.is_alphanumeric() || c == '-');
                if let Some(last) = out.last_mut() {
                    last.push_str(tail);
                }
            }
        } else {
            out.push(w.to_string());
        }
    }
    out.join(" ")
}

#[cfg(test)]
mod tests {
    #[test]
    fn labels_lose_their_amo_flags() {
        assert_eq!(
            super::without_amo(
                "portfolio of varisat --amo auto, lib:cadical --amo pairwise (no winner)"
            ),
            "portfolio of varisat, lib:cadical (no winner)"
        );
        assert_eq!(super::without_amo("varisat"), "varisat");
    }
}
