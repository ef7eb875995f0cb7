//! Python arguments read in Python's words: an int that does not fit, a negative count, a cell
//! that is not a `(row, col)` pair or a value of the wrong type is a `queens_sat.UsageError`
//! (or `queens_sat.ArgumentTypeError`) naming the argument and its value as Python writes it
//! (`jobs=-1 must be a positive number of threads`), never PyO3's conversion error
//! (`OverflowError: can't convert negative int to unsigned`).

use pyo3::prelude::*;
use pyo3::types::{PyInt, PyString};
use queens_sat::Error;
use queens_sat::error::clip;

use crate::errors::{bad_argument, bad_type, py_ok};

/// `obj` as Python writes it (`repr`), on one line and clipped for a one-line message: a
/// multi-line repr (a numpy array's) has each line break and the indentation after it turned
/// into one space, not into `?`.
pub fn repr(obj: &Bound<'_, PyAny>) -> String {
    obj.repr()
        .map(|r| clip(&one_line(&r.to_string_lossy())))
        .unwrap_or_else(|_| "<unprintable>".into())
}

/// `text` with every line break, and the blanks around it, as one space.
pub fn one_line(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// `obj` as a Python int when it is one or stands for one (`__index__`: numpy's integers), as
/// Python's own integer arguments take it; `None` otherwise (a float, a str, and a `bool` or
/// `numpy.bool_`: `n=True` or a cell `(True, 1)` is a mistake, not the int 1).
pub fn index<'py>(obj: &Bound<'py, PyAny>) -> Option<Bound<'py, PyAny>> {
    if obj.is_instance_of::<pyo3::types::PyBool>() || is_numpy_bool(obj) {
        return None;
    }
    if obj.is_instance_of::<PyInt>() {
        return Some(obj.clone());
    }
    if !obj.hasattr("__index__").unwrap_or(false) {
        return None;
    }
    obj.py()
        .import("operator")
        .and_then(|op| op.call_method1("index", (obj,)))
        .ok()
}

/// Whether `obj` is a `numpy.bool_` (which has `__index__`, but is a truth value).
fn is_numpy_bool(obj: &Bound<'_, PyAny>) -> bool {
    let ty = obj.get_type();
    ty.module().is_ok_and(|m| m.to_string_lossy() == "numpy")
        && ty.name().is_ok_and(|n| n.to_string_lossy() == "bool")
}

/// The int `obj`, or `None` when it is an int too large for `i128`; an `ArgumentTypeError`
/// naming `name` when it is not an int at all (see [`index`]).
fn int(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Option<i128>> {
    // A bool is an int to Python, but `Instance(True)` or `jobs=False` is a mistake ([`index`]
    // refuses it).
    let Some(i) = index(obj) else {
        return Err(bad_type(name, &repr(obj), "an int", obj));
    };
    Ok(i.extract::<i128>().ok())
}

/// An int argument that must fit `T` (and pass `ok`): otherwise a `UsageError`
/// `"{name}={value} {must}"`.
pub fn int_in<T: TryFrom<i128>>(
    obj: &Bound<'_, PyAny>,
    name: &str,
    must: &str,
    ok: impl Fn(&T) -> bool,
) -> PyResult<T> {
    int(obj, name)?
        .and_then(|v| T::try_from(v).ok())
        .filter(ok)
        .ok_or_else(|| {
            let value = repr(obj);
            bad_argument(name, &value, format!("{name}={value} {must}"))
        })
}

/// A count argument (`m`, `min_free`, `diags`): an int, 0 or more (and within `T`).
pub fn count_arg<T: TryFrom<i128>>(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<T> {
    let v = int(obj, name)?;
    let bad = |must: &str| {
        let value = repr(obj);
        bad_argument(name, &value, format!("{name}={value} {must}"))
    };
    match v {
        Some(v) if v < 0 => Err(bad("must be 0 or more")),
        _ => v
            .and_then(|v| T::try_from(v).ok())
            .ok_or_else(|| bad("is too large")),
    }
}

/// A generator's seed: an int in `0..=2**64-1`.
pub fn seed(obj: &Bound<'_, PyAny>) -> PyResult<u64> {
    int_in(obj, "seed", "must be in 0..=2**64-1", |_| true)
}

/// `jobs=`: `None` (every core) or a positive number of threads.
pub fn jobs(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<usize>> {
    obj.map(|j| {
        int_in(j, "jobs", "must be a positive number of threads", |&j| {
            j >= 1
        })
    })
    .transpose()
}

/// The library's error `e` about an option, with the value the user gave (`value`) in place
/// of the stand-in the check was run on.
pub fn revalue(e: Error, value: &str) -> Error {
    match e {
        Error::Option(mut bad) => {
            bad.value = value.to_string();
            Error::Option(bad)
        }
        other => other,
    }
}

/// A board side `1..=MAX_N` (the library's [`queens_sat::options::side`] and its message, for
/// any int however large).
pub fn side(obj: &Bound<'_, PyAny>) -> PyResult<u32> {
    match int(obj, "n")?.map(i64::try_from) {
        Some(Ok(n)) => py_ok(queens_sat::options::side(n)),
        _ => py_ok(queens_sat::options::side(i64::MAX).map_err(|e| revalue(e, &repr(obj)))),
    }
}

/// `timeout=`: `None` (no limit) or seconds by the library's rule ([`queens_sat::options::time_limit`]:
/// `inf` is no limit; too small or too large a value has its own message), with the value as
/// Python writes it, for the messages that name the limit. An int too large for a float is too
/// large a limit (not `inf`).
pub fn timeout(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<(std::time::Duration, String)>> {
    let Some(t) = obj else {
        return Ok(None);
    };
    let value = repr(t);
    let secs = t.extract::<f64>().unwrap_or(f64::MAX);
    let limit = py_ok(queens_sat::options::time_limit(secs).map_err(|e| revalue(e, &value)))?;
    Ok(limit.map(|d| (d, value)))
}

/// `level=` of a compressed write: `None` or an int the codec takes (the library's message,
/// for any int however large or negative).
pub fn level(codec: queens_sat::compress::Codec, obj: Option<&Bound<'_, PyAny>>) -> PyResult<u32> {
    let Some(obj) = obj else {
        return py_ok(codec.level(None));
    };
    match int(obj, "level")?.map(u32::try_from) {
        Some(Ok(l)) => py_ok(codec.level(Some(l))),
        _ => py_ok(
            codec
                .level(Some(u32::MAX))
                .map_err(|e| revalue(e, &repr(obj))),
        ),
    }
}

/// A `(row, col)` pair of `name` (`placed`, `blocked`, `pieces`): the two ints (a coordinate
/// too large for `i64` becomes -1, off every board) and the pair as Python writes it.
fn pair(item: &Bound<'_, PyAny>, name: &str) -> PyResult<(i64, i64, String)> {
    let value = repr(item);
    let not_pair = || {
        bad_argument(
            name,
            &value,
            format!("{name}={value} is not a (row, col) pair of ints"),
        )
    };
    if item.is_instance_of::<PyString>() {
        return Err(not_pair());
    }
    let Ok(seq) = item.try_iter() else {
        return Err(not_pair());
    };
    let coords: Vec<Bound<'_, PyAny>> = seq.collect::<PyResult<_>>().map_err(|_| not_pair())?;
    let [r, c] = coords.as_slice() else {
        return Err(not_pair());
    };
    let (Some(r), Some(c)) = (index(r), index(c)) else {
        return Err(not_pair());
    };
    let coord = |x: &Bound<'_, PyAny>| x.extract::<i64>().unwrap_or(-1);
    Ok((coord(&r), coord(&c), value))
}

/// The `(row, col)` pairs of the iterable `obj`, argument `name`.
pub fn pairs(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Vec<(i64, i64, String)>> {
    iterable(obj, name, "an iterable of (row, col) pairs")?
        .map(|item| pair(&item?, name))
        .collect()
}

/// The items of the iterable `obj` (not a `str`), or an `ArgumentTypeError` naming `name`.
pub fn iterable<'py>(
    obj: &Bound<'py, PyAny>,
    name: &str,
    expected: &str,
) -> PyResult<pyo3::Bound<'py, pyo3::types::PyIterator>> {
    if obj.is_instance_of::<PyString>() {
        return Err(bad_type(name, &repr(obj), expected, obj));
    }
    obj.try_iter()
        .map_err(|_| bad_type(name, &repr(obj), expected, obj))
}

/// A `str` argument, or an `ArgumentTypeError` naming `name`.
pub fn text<'a>(obj: &'a Bound<'_, PyAny>, name: &str) -> PyResult<std::borrow::Cow<'a, str>> {
    obj.cast::<PyString>()
        .map_err(|_| bad_type(name, &repr(obj), "a str", obj))?
        .to_cow()
}

/// A path argument (`str` or `os.PathLike`), or an `ArgumentTypeError` naming `name`.
pub fn path(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<std::path::PathBuf> {
    obj.extract::<std::path::PathBuf>()
        .map_err(|_| bad_type(name, &repr(obj), "a path (str or os.PathLike)", obj))
}

/// `proof_budget=`: `None` (the default budget), a number of bytes (an int, 1 or more) or a
/// size as the command line's `--proof-budget` takes it (`"500M"`, `"10G"`, `"2GiB"`, `"none"`
/// for no budget: [`queens_sat::certify::budget::parse`]). A float or other type is an
/// `ArgumentTypeError`, a bad size a `UsageError` naming the argument.
pub fn proof_budget(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<u64>> {
    let Some(obj) = obj else {
        return Ok(None);
    };
    let value = repr(obj);
    if let Ok(s) = obj.cast::<PyString>() {
        let s = s.to_cow()?;
        return queens_sat::certify::budget::parse(&s)
            .map(Some)
            .map_err(|why| bad_argument("proof_budget", &value, format!("proof_budget={why}")));
    }
    if index(obj).is_none() {
        return Err(bad_type(
            "proof_budget",
            &value,
            "a number of bytes (int), a size (str such as '10G') or None",
            obj,
        ));
    }
    int_in(
        obj,
        "proof_budget",
        "must be a number of bytes in 1..=2**64-1",
        |&b: &u64| b >= 1,
    )
    .map(Some)
}
