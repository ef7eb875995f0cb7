//! The library's [`queens_sat::Error`] as Python exceptions of the `queens_sat.Error`
//! hierarchy (defined in `queens_sat/_errors.py`), with the command line's one-line messages.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use queens_sat::Error;

/// An instance of the exception class `name` of `queens_sat._errors`, made with `msg`.
fn exception<'py>(py: Python<'py>, name: &str, msg: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("queens_sat._errors")?
        .getattr(name)?
        .call1((msg,))
}

/// Builds the Python exception for `e`, or the error met while building it.
fn build(py: Python<'_>, e: &Error) -> PyResult<PyErr> {
    let msg = e.to_string();
    let exc = match e {
        Error::Parse { file, line, .. } => {
            let exc = exception(py, "ParseError", &msg)?;
            exc.setattr("file", file)?;
            exc.setattr("line", *line)?;
            exc
        }
        Error::Usage(_) => exception(py, "UsageError", &msg)?,
        Error::Io { path, source } => {
            let class = match source.kind() {
                std::io::ErrorKind::NotFound => "NotFoundError",
                std::io::ErrorKind::PermissionDenied => "PermissionDeniedError",
                _ => "IoError",
            };
            let exc = exception(py, class, &msg)?;
            exc.setattr("filename", path)?;
            exc.setattr("errno", source.raw_os_error())?;
            exc.setattr("strerror", source.to_string())?;
            exc
        }
        Error::Solver(_) => exception(py, "SolverError", &msg)?,
        Error::TooLarge(_) => exception(py, "TooLargeError", &msg)?,
        Error::Interrupted => exception(py, "InterruptedError", &msg)?,
    };
    Ok(PyErr::from_value(exc))
}

/// The Python exception for a library error.
pub fn to_py(e: Error) -> PyErr {
    Python::attach(|py| build(py, &e).unwrap_or_else(|err| err))
}

/// A `queens_sat.UsageError` (a `ValueError`) with `msg`.
pub fn usage(msg: impl Into<String>) -> PyErr {
    to_py(Error::Usage(msg.into()))
}

/// A `queens_sat.VerifyError` (a `ValueError`) for a board that is not a solution.
pub fn verify_error(v: &queens_sat::verify::Violation) -> PyErr {
    Python::attach(|py| {
        let make = || -> PyResult<PyErr> {
            let exc = exception(py, "VerifyError", &v.message)?;
            let cells: Vec<(u32, u32)> = v.cells.iter().map(|c| (c.row, c.col)).collect();
            exc.setattr("cells", cells)?;
            exc.setattr("message", &v.message)?;
            Ok(PyErr::from_value(exc))
        };
        make().unwrap_or_else(|err| err)
    })
}

/// The error for a panic inside the library: a `queens_sat.Error`, never an abort.
pub fn panic_error(payload: Box<dyn std::any::Any + Send>) -> PyErr {
    let what = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into());
    Python::attach(|py| {
        exception(
            py,
            "InternalError",
            &format!("internal error (a bug): {what}"),
        )
        .map(PyErr::from_value)
        .unwrap_or_else(|_| PyRuntimeError::new_err(what))
    })
}
