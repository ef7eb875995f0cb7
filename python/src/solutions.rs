//! `queens_sat.solutions`: the library's lazy board iterator
//! ([`queens_sat::count::solutions::Solutions`]) as a Python iterator. Each `__next__` that
//! finds its buffer empty runs the search for one chunk (up to [`CHUNK`] boards, or [`SLICE`]
//! of search once a board is found) with the GIL released, through [`work::run`]: Ctrl-C raises
//! `KeyboardInterrupt` within a poll, and the boards found before it stay buffered, so the
//! iterator resumes where it stopped. Memory: the O(n) search state and one chunk of boards.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use pyo3::prelude::*;
use queens_sat::board::Board;
use queens_sat::count::solutions::Solutions;
use queens_sat::interrupt::Stop;

use crate::errors::py_ok;
use crate::{PyBoard, PyInstance, args, work};

/// Boards one search chunk finds at most.
const CHUNK: usize = 256;

/// Search time one chunk takes at most once it has a board (the first board has no limit but
/// the iterator's `timeout`).
const SLICE: Duration = Duration::from_millis(20);

/// The iterator `queens_sat.solutions` returns: verified boards, found lazily.
#[pyclass(module = "queens_sat", name = "Solutions")]
pub struct PySolutions {
    inner: Solutions,
    instance: PyInstance,
    buffer: VecDeque<Board>,
    /// Boards still to yield under `limit=`, `None` for no limit.
    left: Option<u64>,
    /// `timeout=` as Python wrote it, for the error.
    timeout: Option<String>,
    /// `cancel=`: raising it stops the current step and every later one.
    cancel: Option<crate::cancel::PyCancel>,
}

#[pymethods]
impl PySolutions {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<PyBoard>> {
        if self.left == Some(0) {
            return Ok(None);
        }
        if self.buffer.is_empty() {
            let want = self.left.map_or(CHUNK, |k| k.min(CHUNK as u64) as usize);
            let (inner, buffer) = (&mut self.inner, &mut self.buffer);
            let stopped = work::run_with(py, None, self.cancel.as_ref(), |cancel| {
                let start = Instant::now();
                while buffer.len() < want && (buffer.is_empty() || start.elapsed() < SLICE) {
                    match inner.next_with(cancel) {
                        Some(board) => buffer.push_back(board?),
                        None => break,
                    }
                }
                Ok(inner.stopped())
            })?;
            if buffer.is_empty() {
                match stopped {
                    Some(Stop::TimeLimit(_)) => {
                        return Err(time_limit(py, self.timeout.as_deref().unwrap_or_default())?);
                    }
                    // The token passed as cancel= (nothing else raises a step's token).
                    Some(Stop::Cancelled) => {
                        return Err(crate::errors::cancelled(
                            "cancelled by the Cancel token passed as cancel=; the boards before it were yielded",
                        ));
                    }
                    None => {}
                }
            }
        }
        let Some(board) = self.buffer.pop_front() else {
            return Ok(None);
        };
        if let Some(k) = &mut self.left {
            *k -= 1;
        }
        Ok(Some(PyBoard {
            board,
            instance: Some(self.instance.clone()),
        }))
    }

    /// The group the classes are taken modulo (`count`'s `group`), identity first.
    #[getter]
    fn group(&self) -> Vec<&'static str> {
        self.inner.group().iter().map(|g| g.name()).collect()
    }

    /// Whether one board per class is yielded (its lex-leader).
    #[getter]
    fn modulo_symmetry(&self) -> bool {
        self.inner.modulo_symmetry()
    }

    /// The boards yielded so far.
    #[getter]
    fn yielded(&self) -> u64 {
        self.inner.yielded() - self.buffer.len() as u64
    }

    fn __repr__(&self) -> String {
        format!(
            "Solutions(n={}, piece={:?}, modulo_symmetry={}, yielded={})",
            self.instance.inner.n,
            self.instance.piece.name,
            if self.inner.modulo_symmetry() {
                "True"
            } else {
                "False"
            },
            self.yielded()
        )
    }
}

/// `queens_sat.TimeLimitError` for an enumeration that `timeout=value` stopped.
fn time_limit(py: Python<'_>, value: &str) -> PyResult<PyErr> {
    let class = py.import("queens_sat._errors")?.getattr("TimeLimitError")?;
    let exc = class.call1((format!(
        "solutions: time limit of timeout={value} seconds reached; the boards before it were yielded"
    ),))?;
    exc.setattr("limit", value)?;
    Ok(PyErr::from_value(exc))
}

/// `queens_sat.solutions(instance, ...)`: the lazy iterator (no search before the first
/// `next`).
#[pyfunction]
#[pyo3(signature = (instance, symmetric, modulo_symmetry, limit, timeout_secs, cancel))]
pub fn solutions(
    instance: &PyInstance,
    symmetric: Option<&str>,
    modulo_symmetry: bool,
    limit: Option<&Bound<'_, PyAny>>,
    timeout_secs: Option<&Bound<'_, PyAny>>,
    cancel: Option<PyRef<'_, crate::cancel::PyCancel>>,
) -> PyResult<PySolutions> {
    let (inst, piece) = (&instance.inner, instance.piece);
    let parsed = py_ok(
        queens_sat::options::Encoding {
            amo: None,
            implied: None,
            symmetric,
            break_symmetry: None,
        }
        .parse(inst, &piece, false),
    )?;
    let left = limit
        .map(|k| args::count_arg::<u64>(k, "limit"))
        .transpose()?;
    let timeout = args::timeout(timeout_secs)?;
    let inner = py_ok(Solutions::new(
        inst,
        piece,
        parsed.options.symmetric,
        modulo_symmetry,
    ))?
    .with_time_limit(timeout.as_ref().map(|t| t.0));
    Ok(PySolutions {
        inner,
        instance: instance.clone(),
        buffer: VecDeque::new(),
        left,
        timeout: timeout.map(|t| t.1),
        cancel: cancel.map(|c| c.clone()),
    })
}
