//! `queens_sat.solutions`: the library's lazy board iterator
//! ([`queens_sat::count::Solutions`]) as a Python iterator. Each `__next__` that
//! finds its buffer empty runs the search for one chunk (up to [`CHUNK`] boards, or [`SLICE`]
//! of search once a board is found) with the GIL released, through [`work::run`]: Ctrl-C raises
//! `KeyboardInterrupt` within a poll, and the boards found before it stay buffered, so the
//! iterator resumes where it stopped. Memory: the O(n) search state and one chunk of boards.

use std::collections::VecDeque;
use std::sync::{Mutex, MutexGuard, TryLockError};
use std::time::{Duration, Instant};

use pyo3::prelude::*;
use queens_sat::board::Board;
use queens_sat::count::Solutions;
use queens_sat::interrupt::Stop;

use crate::errors::py_ok;
use crate::{PyBoard, PyInstance, args, work};

/// Boards one search chunk finds at most.
const CHUNK: usize = 256;

/// Search time one chunk takes at most once it has a board (the first board has no limit but
/// the iterator's `timeout`).
const SLICE: Duration = Duration::from_millis(20);

/// The iterator `queens_sat.solutions` returns: verified boards, found lazily.
///
/// Frozen, its state behind a lock: two threads calling `next()` on one iterator each get the
/// next board, never the same one twice (the second waits, with the GIL released, for the first
/// one's step).
#[pyclass(module = "queens_sat", name = "Solutions", frozen)]
pub struct PySolutions {
    state: Mutex<State>,
    instance: PyInstance,
    /// `timeout=` as Python wrote it, for the error.
    timeout: Option<String>,
    /// `cancel=`: raising it stops the current step and every later one.
    cancel: Option<crate::cancel::PyCancel>,
}

/// What `next()` changes.
struct State {
    inner: Solutions,
    buffer: VecDeque<Board>,
    /// Boards still to yield under `limit=`, `None` for no limit.
    left: Option<u64>,
}

impl PySolutions {
    /// The state, locked. Another thread's `next()` may hold it for a search step: this one
    /// waits with the GIL released (so that step can finish), looking at Python's signals
    /// between tries.
    fn lock<'a>(&'a self, py: Python<'_>) -> PyResult<MutexGuard<'a, State>> {
        loop {
            match self.state.try_lock() {
                Ok(guard) => return Ok(guard),
                Err(TryLockError::Poisoned(e)) => return Ok(e.into_inner()),
                Err(TryLockError::WouldBlock) => {
                    py.detach(|| std::thread::sleep(Duration::from_millis(1)));
                    py.check_signals()?;
                }
            }
        }
    }

    /// The `CancelledError` of a raised `cancel=` token.
    fn cancelled() -> PyErr {
        crate::errors::cancelled(
            "cancelled by the Cancel token passed as cancel=; the boards before it were yielded",
        )
    }
}

#[pymethods]
impl PySolutions {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// The next board. A pending signal (Ctrl-C: `KeyboardInterrupt`) and a raised `cancel=`
    /// token are looked at before a board is taken from the buffer, so a board is either
    /// returned or stays for the next call, never lost to an interrupt; after the token is
    /// raised no board comes out.
    fn __next__(&self, py: Python<'_>) -> PyResult<Option<PyBoard>> {
        let mut guard = self.lock(py)?;
        let state = &mut *guard;
        if state.left == Some(0) {
            return Ok(None);
        }
        py.check_signals()?;
        if self.cancel.as_ref().is_some_and(|c| c.inner.is_cancelled()) {
            return Err(Self::cancelled());
        }
        if state.buffer.is_empty() {
            let want = state.left.map_or(CHUNK, |k| k.min(CHUNK as u64) as usize);
            let (inner, buffer) = (&mut state.inner, &mut state.buffer);
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
            if self.cancel.as_ref().is_some_and(|c| c.inner.is_cancelled()) {
                return Err(Self::cancelled());
            }
            if buffer.is_empty() {
                match stopped {
                    Some(Stop::TimeLimit(_)) => {
                        return Err(time_limit(py, self.timeout.as_deref().unwrap_or_default())?);
                    }
                    // The token passed as cancel= (nothing else raises a step's token).
                    Some(Stop::Cancelled) => return Err(Self::cancelled()),
                    None => {}
                }
            }
        }
        let Some(board) = state.buffer.pop_front() else {
            return Ok(None);
        };
        if let Some(k) = &mut state.left {
            *k -= 1;
        }
        Ok(Some(PyBoard {
            board,
            instance: Some(self.instance.clone()),
        }))
    }

    /// The group the classes are taken modulo (`count`'s `group`), identity first.
    #[getter]
    fn group(&self, py: Python<'_>) -> PyResult<Vec<&'static str>> {
        Ok(self
            .lock(py)?
            .inner
            .group()
            .iter()
            .map(|g| g.name())
            .collect())
    }

    /// Whether one board per class is yielded (its lex-leader).
    #[getter]
    fn modulo_symmetry(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(self.lock(py)?.inner.modulo_symmetry())
    }

    /// The boards yielded so far.
    #[getter]
    fn yielded(&self, py: Python<'_>) -> PyResult<u64> {
        let state = self.lock(py)?;
        Ok(state.inner.yielded() - state.buffer.len() as u64)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "Solutions(n={}, piece={:?}, modulo_symmetry={}, yielded={})",
            self.instance.inner.n,
            self.instance.piece.name,
            if self.modulo_symmetry(py)? {
                "True"
            } else {
                "False"
            },
            self.yielded(py)?
        ))
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
        state: Mutex::new(State {
            inner,
            buffer: VecDeque::new(),
            left,
        }),
        instance: instance.clone(),
        timeout: timeout.map(|t| t.1),
        cancel: cancel.map(|c| c.clone()),
    })
}
