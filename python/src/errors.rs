//! The library's [`queens_sat::Error`] as Python exceptions of the `queens_sat.Error`
//! hierarchy (defined in `queens_sat/_errors.py`), converted in one place. The classes are
//! looked up once per interpreter ([`classes`]); a bad option value is worded with the Python
//! argument's name (`timeout=-1 must be ...`), not the command line's flag.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyString;
use queens_sat::Error;
use queens_sat::error::{Naming, Opt};

/// Every option the library's messages may name by its command-line flag ([`Opt::flag`]).
const OPTIONS: &[Opt] = &[
    Opt::N,
    Opt::Piece,
    Opt::Amo,
    Opt::Implied,
    Opt::Symmetric,
    Opt::BreakSymmetry,
    Opt::Timeout,
    Opt::Jobs,
    Opt::Engine,
    Opt::To,
    Opt::Diags,
    Opt::Certify,
    Opt::Compress,
    Opt::Level,
    Opt::Proof,
    Opt::ProofFormat,
    Opt::ProofBudget,
    Opt::Solver,
    Opt::InstanceFormat,
    Opt::M,
    Opt::MinFree,
    Opt::Cubes,
    Opt::Presolve,
    Opt::Instance,
    Opt::Output,
    Opt::Stats,
    Opt::Gbdhash,
    Opt::Deterministic,
    Opt::Boards,
    Opt::Select,
    Opt::PerFamily,
    Opt::Total,
    Opt::BudgetSolver,
    Opt::BudgetLimit,
    Opt::SelectSeed,
    Opt::Counter,
    Opt::Solve,
];

/// A library message in Python's words: each command-line flag it names (`--amo product`,
/// `drop --proof`, `--no-presolve`) becomes the keyword argument (`amo='product'`, `drop
/// proof=`, `presolve=False`, `--cubes` as `cube-and-conquer`, which Python's `solve` does not
/// take): a switch as set (`certify=True`), an option followed by its
/// value with the value (quoted when it is text), any other as `name=`. The one place where
/// the library's text meets Python's ([`build`]), so that no command-line word reaches a
/// Python message.
///
/// ```text
/// "use a smaller encoding (--amo product)" -> "use a smaller encoding (amo='product')"
/// ```
pub fn python_words(msg: &str) -> String {
    let mut out = String::with_capacity(msg.len());
    let mut rest = msg;
    while let Some(at) = rest.find("--") {
        let (before, from) = rest.split_at(at);
        out.push_str(before);
        let boundary = before
            .chars()
            .last()
            .is_none_or(|c| c.is_whitespace() || "(`'\"[,;".contains(c));
        let name_len = from[2..]
            .find(|c: char| !(c.is_ascii_lowercase() || c == '-'))
            .unwrap_or(from.len() - 2);
        let flag = &from[..2 + name_len];
        let flag = flag.trim_end_matches('-');
        let option = OPTIONS
            .iter()
            .copied()
            .find(|o| o.flag().split(' ').next() == Some(flag));
        let Some(option) = option.filter(|_| boundary && flag.len() > 2) else {
            out.push_str("--");
            rest = &from[2..];
            continue;
        };
        let after = &from[flag.len()..];
        if option == Opt::Presolve {
            out.push_str("presolve=False");
            rest = after;
            continue;
        }
        // `solve` has no `cubes=` in Python: the words say what it is.
        if option == Opt::Cubes {
            out.push_str("cube-and-conquer");
            rest = after;
            continue;
        }
        if option.is_switch() {
            out.push_str(option.argument());
            out.push_str("=True");
            rest = after;
            continue;
        }
        // `--to format`: the flag's own placeholder word goes with it.
        let after = if option == Opt::To {
            after.strip_prefix(" format").unwrap_or(after)
        } else {
            after
        };
        let value_len = after
            .strip_prefix(' ')
            .map(|v| {
                v.find(|c: char| !(c.is_ascii_alphanumeric() || "_.:/+{}".contains(c)))
                    .unwrap_or(v.len())
            })
            .unwrap_or(0);
        let value = after.get(1..1 + value_len).unwrap_or_default();
        // A value starts with a letter, digit or `{}` placeholder; a sentence's next word
        // after a comma or parenthesis is not one.
        if value.is_empty() {
            out.push_str(option.argument());
            out.push('=');
            rest = after;
        } else {
            let value = value.trim_end_matches(['.', ':']);
            if option.takes_text() {
                out.push_str(&format!("{}='{value}'", option.argument()));
            } else {
                out.push_str(&format!("{}={value}", option.argument()));
            }
            rest = &after[1 + value.len()..];
        }
    }
    out.push_str(rest);
    out
}

/// The exception classes of `queens_sat._errors`.
struct Classes {
    parse: Py<PyAny>,
    usage: Py<PyAny>,
    argument_type: Py<PyAny>,
    io: Py<PyAny>,
    not_found: Py<PyAny>,
    permission_denied: Py<PyAny>,
    solver: Py<PyAny>,
    wrong_answer: Py<PyAny>,
    proof_rejected: Py<PyAny>,
    too_large: Py<PyAny>,
    budget: Py<PyAny>,
    cancelled: Py<PyAny>,
    internal: Py<PyAny>,
    verify: Py<PyAny>,
    time_limit: Py<PyAny>,
}

static CLASSES: PyOnceLock<Classes> = PyOnceLock::new();

/// The exception classes, imported on first use.
fn classes(py: Python<'_>) -> PyResult<&'static Classes> {
    CLASSES.get_or_try_init(py, || {
        let m = py.import("queens_sat._errors")?;
        let class = |name: &str| m.getattr(name).map(Bound::unbind);
        Ok(Classes {
            parse: class("ParseError")?,
            usage: class("UsageError")?,
            argument_type: class("ArgumentTypeError")?,
            io: class("IoError")?,
            not_found: class("NotFoundError")?,
            permission_denied: class("PermissionDeniedError")?,
            solver: class("SolverError")?,
            wrong_answer: class("WrongAnswerError")?,
            proof_rejected: class("ProofRejectedError")?,
            too_large: class("TooLargeError")?,
            budget: class("BudgetExceededError")?,
            cancelled: class("CancelledError")?,
            internal: class("InternalError")?,
            verify: class("VerifyError")?,
            time_limit: class("TimeLimitError")?,
        })
    })
}

/// Builds the Python exception for `e`, or the error met while building it.
fn build(py: Python<'_>, e: &Error) -> PyResult<PyErr> {
    let c = classes(py)?;
    let exc = match e {
        Error::Parse { file, line, .. } => {
            let exc = c.parse.bind(py).call1((e.to_string(),))?;
            exc.setattr("file", file)?;
            exc.setattr("line", *line)?;
            exc
        }
        Error::Option(bad) => {
            let exc = c
                .usage
                .bind(py)
                .call1((python_words(&bad.message(Naming::Argument)),))?;
            // The value as Python writes it: a text option's is quoted (its `repr`).
            let value = match (bad.option.takes_text(), bad.option.is_switch()) {
                (true, _) => PyString::new(py, &bad.value).repr()?.to_string(),
                // A switch is given as True.
                (false, true) => "True".to_string(),
                (false, false) => bad.value.clone(),
            };
            exc.setattr("argument", bad.option.argument())?;
            exc.setattr("value", value)?;
            exc
        }
        Error::Instance(bad) => {
            let exc = c
                .usage
                .bind(py)
                .call1((python_words(&bad.message(Naming::Argument)),))?;
            exc.setattr("argument", bad.argument())?;
            exc.setattr("value", bad.value())?;
            exc
        }
        Error::Usage(msg) => c.usage.bind(py).call1((python_words(msg),))?,
        Error::Io { path, source } => {
            let class = match source.kind() {
                std::io::ErrorKind::NotFound => &c.not_found,
                std::io::ErrorKind::PermissionDenied => &c.permission_denied,
                _ => &c.io,
            };
            let exc = class.bind(py).call1((e.to_string(),))?;
            exc.setattr("filename", path)?;
            exc.setattr("errno", source.raw_os_error())?;
            exc.setattr("strerror", source.to_string())?;
            exc
        }
        Error::Solver(_) => c.solver.bind(py).call1((python_words(&e.to_string()),))?,
        Error::ProofRejected { format, step, .. } => {
            let exc = c
                .proof_rejected
                .bind(py)
                .call1((python_words(&e.to_string()),))?;
            exc.setattr("format", format.name())?;
            exc.setattr("step", *step)?;
            exc
        }
        Error::TooLarge(_) => c
            .too_large
            .bind(py)
            .call1((python_words(&e.to_string()),))?,
        Error::Budget {
            what, path, limit, ..
        } => {
            let exc = c.budget.bind(py).call1((python_words(&e.to_string()),))?;
            exc.setattr("what", what)?;
            exc.setattr("filename", path.as_deref())?;
            exc.setattr("limit", *limit)?;
            exc
        }
        Error::Interrupted => c.cancelled.bind(py).call1((e.to_string(),))?,
        Error::TimeLimit(given) => {
            let exc = c.time_limit.bind(py).call1((e.to_string(),))?;
            exc.setattr("limit", given.as_secs_f64().to_string())?;
            exc
        }
        Error::WrongAnswer(_) => c
            .wrong_answer
            .bind(py)
            .call1((python_words(&e.to_string()),))?,
        // A kind this crate does not know yet (the enum is non-exhaustive) is a fault of the
        // build: the bindings lag the library.
        Error::Internal(_) | _ => c.internal.bind(py).call1((e.to_string(),))?,
    };
    Ok(PyErr::from_value(exc))
}

/// The Python exception for a library error.
pub fn to_py(e: Error) -> PyErr {
    Python::attach(|py| build(py, &e).unwrap_or_else(|err| err))
}

/// A library result as a Python one.
pub fn py_ok<T>(r: queens_sat::Result<T>) -> PyResult<T> {
    r.map_err(to_py)
}

/// A `queens_sat.CancelledError` with `msg`.
pub fn cancelled(msg: &str) -> PyErr {
    Python::attach(|py| {
        classes(py)
            .and_then(|c| c.cancelled.bind(py).call1((msg,)))
            .map_or_else(|err| err, PyErr::from_value)
    })
}

/// A `queens_sat.UsageError` (a `ValueError`) with `msg`.
pub fn usage(msg: impl Into<String>) -> PyErr {
    to_py(Error::Usage(msg.into()))
}

/// A `queens_sat.UsageError` (a `ValueError`) with `msg`, naming the Python `argument` and its
/// `value` (also the exception's `.argument` and `.value` attributes).
pub fn bad_argument(argument: &str, value: &str, msg: impl Into<String>) -> PyErr {
    let msg = msg.into();
    Python::attach(|py| {
        let make = || -> PyResult<PyErr> {
            let exc = classes(py)?.usage.bind(py).call1((&msg,))?;
            exc.setattr("argument", argument)?;
            exc.setattr("value", value)?;
            Ok(PyErr::from_value(exc))
        };
        make().unwrap_or_else(|err| err)
    })
}

/// A `queens_sat.ArgumentTypeError` (a `TypeError`): `argument` (given as `value`, an `obj`)
/// is not `expected` (`"an int"`); `.argument` and `.value` are set.
pub fn bad_type(argument: &str, value: &str, expected: &str, obj: &Bound<'_, PyAny>) -> PyErr {
    let py = obj.py();
    let type_name = obj
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into());
    let msg = format!("{argument}={value} must be {expected}, not {type_name}");
    let make = || -> PyResult<PyErr> {
        let exc = classes(py)?.argument_type.bind(py).call1((&msg,))?;
        exc.setattr("argument", argument)?;
        exc.setattr("value", value)?;
        Ok(PyErr::from_value(exc))
    };
    make().unwrap_or_else(|err| err)
}

/// A `queens_sat.VerifyError` (a `ValueError`) for a board that is not a solution.
pub fn verify_error(v: &queens_sat::verify::Violation) -> PyErr {
    Python::attach(|py| {
        let make = || -> PyResult<PyErr> {
            let exc = classes(py)?.verify.bind(py).call1((&v.message,))?;
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
        classes(py)
            .and_then(|c| {
                c.internal
                    .bind(py)
                    .call1((format!("internal error (a bug): {what}"),))
            })
            .map(PyErr::from_value)
            .unwrap_or_else(|_| PyRuntimeError::new_err(what))
    })
}

/// The `TimeLimitError` of a count that `timeout=` stopped: the limit as Python wrote it
/// (`value`), in the message and as `.limit`.
pub fn time_limit(py: Python<'_>, value: &str) -> PyResult<PyErr> {
    let c = classes(py)?;
    let exc = c.time_limit.bind(py).call1((format!(
        "count: time limit of timeout={value} seconds reached; nothing was counted"
    ),))?;
    exc.setattr("limit", value)?;
    Ok(PyErr::from_value(exc))
}
