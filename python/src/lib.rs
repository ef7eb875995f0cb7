//! `queens_sat._native`: the Python bindings of the queens-sat library (PyO3, abi3).
//!
//! The Python package `queens_sat` (python/queens_sat/) wraps this module with keyword-only
//! functions, docstrings, the `Status` enum and the exception hierarchy; everything that does
//! work is here, calling the library. Long calls (encode, solve, count) run through
//! `work::run`: GIL released, Ctrl-C honoured.

mod args;
mod cancel;
mod errors;
mod plan;
mod solutions;
mod solving;
mod work;

use pyo3::exceptions::{PyImportError, PyIndexError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyIterator, PyList, PyString, PyTuple};
use queens_sat::board::{Board, Cell, MAX_N};
use queens_sat::count::{self, CountEngine, Counter};
use queens_sat::encode::amo::AmoKind;
use queens_sat::encode::{ClauseSink, EncodeOptions, Encoder, Lit, Stats};
use queens_sat::export;
use queens_sat::generate::Generator;
use queens_sat::instance::{self as inst, ExcludedDiagonal, Instance, InstanceFormat, Part};
use queens_sat::piece::{LineKind, Piece};
use queens_sat::presolve::Problem;
use queens_sat::symmetry::stabiliser;

use errors::{bad_argument, py_ok};

/// `(row, col)` pairs (each with its `repr`) as cells of an `n x n` board; a cell outside it
/// is a `UsageError` naming the Python argument `name`.
fn cells(n: u32, name: &str, pairs: Vec<(i64, i64, String)>) -> PyResult<Vec<Cell>> {
    pairs
        .into_iter()
        .map(|(r, c, value)| {
            if r < 0 || c < 0 || r >= n as i64 || c >= n as i64 {
                Err(bad_argument(
                    name,
                    &value,
                    format!(
                        "{name}={value} is outside the {n}x{n} board (rows and columns 0..={})",
                        n - 1
                    ),
                ))
            } else {
                Ok(Cell::new(r as u32, c as u32))
            }
        })
        .collect()
}

/// `text` with `&`, `<`, `>` and `"` escaped, for the HTML reprs.
pub(crate) fn html_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

fn pairs(cells: &[Cell]) -> Vec<(u32, u32)> {
    cells.iter().map(|c| (c.row, c.col)).collect()
}

/// The cells of a square 2-D array (numpy's, or anything `numpy.asarray` takes) by value:
/// `(n, cells per code)` for the codes `codes` (every other value is a `UsageError` naming
/// `array=` and the value); `what` says what the codes mean, for the message.
fn numpy_cells(
    array: &Bound<'_, PyAny>,
    codes: &[i64],
    what: &str,
) -> PyResult<(u32, Vec<Vec<Cell>>)> {
    let py = array.py();
    let np = py
        .import("numpy")
        .map_err(|_| PyImportError::new_err("from_numpy needs numpy (pip install numpy)"))?;
    let given = args::repr(array);
    let bad = |msg: String| bad_argument("array", &given, format!("array={given} {msg}"));
    let a = np
        .call_method1("asarray", (array,))
        .map_err(|e| bad(format!("is not an array ({e})")))?;
    let shape: Vec<usize> = a.getattr("shape")?.extract()?;
    let n = match shape.as_slice() {
        [r, c] if r == c && (1..=MAX_N as usize).contains(r) => *r as u32,
        _ => {
            return Err(bad(format!(
                "has shape {shape:?}; a board is an (n, n) array, 1 <= n <= {MAX_N}"
            )));
        }
    };
    let kind: String = a.getattr("dtype")?.getattr("kind")?.extract()?;
    if !matches!(kind.as_str(), "b" | "i" | "u") {
        return Err(bad(format!(
            "has dtype kind {kind:?}; {what}, as ints or bools"
        )));
    }
    let known = np
        .call_method1("isin", (&a, codes.to_vec()))?
        .call_method0("all")?
        .extract::<bool>()?;
    if !known {
        let odd = np
            .call_method1("setdiff1d", (&a, codes.to_vec()))?
            .call_method0("tolist")?;
        return Err(bad(format!("holds {}; {what}", args::repr(&odd))));
    }
    let mut out = Vec::new();
    for &code in codes {
        let cells: Vec<Vec<u32>> = np
            .call_method1(
                "argwhere",
                (a.rich_compare(code, pyo3::basic::CompareOp::Eq)?,),
            )?
            .call_method0("tolist")?
            .extract()?;
        out.push(
            cells
                .into_iter()
                .map(|rc| Cell::new(rc[0], rc[1]))
                .collect(),
        );
    }
    Ok((n, out))
}

/// The piece named by `piece=`, if given (a file's header decides otherwise).
fn given_piece(piece: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Piece>> {
    piece
        .map(|p| py_ok(Piece::parse(&args::text(p, "piece")?)))
        .transpose()
}

/// The piece named by `piece=` (`None`: the queen).
fn piece_arg(piece: Option<&Bound<'_, PyAny>>) -> PyResult<Piece> {
    match piece {
        Some(p) => py_ok(Piece::parse(&args::text(p, "piece")?)),
        None => Ok(queens_sat::piece::QUEEN),
    }
}

/// The library's instance format named `name` (its typed error names `format=`).
fn instance_format(name: &str) -> PyResult<InstanceFormat> {
    py_ok(InstanceFormat::parse(name))
}

/// `Instance.to_numpy`'s codes: a free cell, a pre-placed piece, a blocked cell.
const FREE: i64 = 0;
const PLACED: i64 = 1;
const BLOCKED: i64 = 2;

/// An instance: board side, piece, pre-placed pieces, blocked cells and excluded diagonals.
///
/// Cells are `(row, col)`, 0-based. `placed`, `blocked` and `excluded` are sets: they are kept
/// sorted, a repeated entry is merged (a cell given twice in `placed` is one piece), and two
/// instances are equal (and hash alike) whatever the order of their lists. A pre-placed piece on
/// a blocked cell or an excluded diagonal is a `UsageError` naming the argument; pre-placed
/// pieces that attack each other are a valid instance that solves UNSAT, with the reason in
/// `Result.reason`. A bad argument (`n` out of range or not an int, an entry that is not a
/// `(row, col)` or `(kind, k)` pair, a cell off the board) is a `UsageError` (or, for a wrong
/// type, an `ArgumentTypeError`) naming the argument, with `.argument` and `.value`.
///
/// `excluded` lists diagonals as `(kind, k)` with `k` in `0..=2n-2`: `('anti-diagonal', k)` is
/// the sum diagonal of the cells with `row + col == k` (k = 0 is the corner cell (0, 0)), and
/// `('diagonal', k)` the difference diagonal of the cells with `row - col == k - (n - 1)` (k = 0
/// is the corner cell (0, n-1), k = n - 1 the main diagonal); csplib's `[k, 1]` and `[k, 0]`.
#[pyclass(module = "queens_sat", name = "Instance", frozen)]
#[derive(Clone)]
pub struct PyInstance {
    pub(crate) inner: Instance,
    pub(crate) piece: Piece,
    /// The generator's comment and default format (`generate.*`), for [`PyInstance::to_text`].
    origin: Option<(String, InstanceFormat)>,
}

impl PyInstance {
    /// The instance with sorted lists: what the getters show. A generated instance keeps its
    /// generator's order inside (its text is the command line's, byte for byte).
    fn canonical(&self) -> std::borrow::Cow<'_, Instance> {
        match self.inner.is_canonical() {
            true => std::borrow::Cow::Borrowed(&self.inner),
            false => std::borrow::Cow::Owned(self.inner.canonical()),
        }
    }

    fn new_plain(inner: Instance, piece: Piece) -> PyInstance {
        PyInstance {
            inner,
            piece,
            origin: None,
        }
    }
}

#[pymethods]
impl PyInstance {
    #[new]
    // Defaults of None, so that a wrong type is read (and worded) here, not by PyO3.
    #[pyo3(
        signature = (n, piece = None, placed = None, blocked = None, excluded = None),
        text_signature = "(n, piece='queen', placed=(), blocked=(), excluded=())"
    )]
    fn new(
        n: &Bound<'_, PyAny>,
        piece: Option<&Bound<'_, PyAny>>,
        placed: Option<&Bound<'_, PyAny>>,
        blocked: Option<&Bound<'_, PyAny>>,
        excluded: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyInstance> {
        let n = args::side(n)?;
        let piece = piece_arg(piece)?;
        let last = n - 1;
        // Negative values cannot be cells; the rest of the checks (on the board, no piece on a
        // blocked cell or an excluded diagonal) and the canonical form are the library's.
        let on_board = |part: Part, obj: Option<&Bound<'_, PyAny>>| -> PyResult<Vec<Cell>> {
            let Some(obj) = obj else {
                return Ok(Vec::new());
            };
            let arg = part.argument();
            args::pairs(obj, arg)?
                .into_iter()
                .map(|(r, c, value)| match (u32::try_from(r), u32::try_from(c)) {
                    (Ok(r), Ok(c)) => Ok(Cell::new(r, c)),
                    _ => Err(bad_argument(
                        arg,
                        &value,
                        format!(
                            "{arg}={value} is outside the {n}x{n} board (rows and columns 0..={last})"
                        ),
                    )),
                })
                .collect()
        };
        let excluded = match excluded {
            None => Vec::new(),
            Some(obj) => args::iterable(obj, "excluded", "an iterable of (kind, k) pairs")?
                .map(|item| {
                    let item = item?;
                    let value = args::repr(&item);
                    // Any (kind, k) pair: a tuple or a list, k an int or numpy's.
                    let parts: Option<Vec<Bound<'_, PyAny>>> = match item.is_instance_of::<PyString>() {
                        true => None,
                        false => item.try_iter().ok().and_then(|i| i.collect::<PyResult<_>>().ok()),
                    };
                    parts
                        .and_then(|p| match p.as_slice() {
                            [kind, k] => Some((kind.extract::<String>().ok()?, args::index(k)?)),
                            _ => None,
                        })
                        .map(|(kind, k)| (kind, k.extract::<i64>().unwrap_or(-1), value.clone()))
                        .ok_or_else(|| {
                            bad_argument(
                                "excluded",
                                &value,
                                format!(
                                    "excluded={value} is not a (kind, k) pair such as ('diagonal', 3)"
                                ),
                            )
                        })
                })
                .collect::<PyResult<Vec<_>>>()?,
        };
        let excluded = excluded
            .into_iter()
            .map(|(kind, key, value)| {
                let kind = match kind.as_str() {
                    "diagonal" => LineKind::Diagonal,
                    "anti-diagonal" => LineKind::AntiDiagonal,
                    other => {
                        return Err(bad_argument(
                            "excluded",
                            &value,
                            format!(
                                "excluded={value} has an unknown kind '{other}' (known: diagonal, anti-diagonal)"
                            ),
                        ));
                    }
                };
                let key = u32::try_from(key).map_err(|_| {
                    bad_argument(
                        "excluded",
                        &value,
                        format!(
                            "excluded={value} is out of range for n = {n} (keys 0..={})",
                            2 * u64::from(n) - 2
                        ),
                    )
                })?;
                Ok(ExcludedDiagonal { kind, key })
            })
            .collect::<PyResult<_>>()?;
        let inner = py_ok(Instance::new(
            n,
            on_board(Part::Placed, placed)?,
            on_board(Part::Blocked, blocked)?,
            excluded,
        ))?;
        Ok(PyInstance::new_plain(inner, piece))
    }

    /// Reads an instance file in any format the CLI reads. `piece` defaults to the file's
    /// `# piece:` header, else the queen; a piece that differs from the header's is a
    /// `UsageError` naming both. `diags` (0 or more) takes the first
    /// `diags` diagonals of an excluded-diagonals file; a bad value is a `UsageError` naming
    /// the argument (`diags=-1 must be 0 or more`).
    #[staticmethod]
    #[pyo3(
        signature = (path, *, piece = None, diags = None),
        text_signature = "(path, *, piece=None, diags=None)"
    )]
    fn read(
        py: Python<'_>,
        path: &Bound<'_, PyAny>,
        piece: Option<&Bound<'_, PyAny>>,
        diags: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let path = args::path(path, "path")?;
        let piece = given_piece(piece)?;
        let diags = diags.map(|d| args::count_arg(d, "diags")).transpose()?;
        let (inner, piece) =
            py_ok(py.detach(|| inst::read_instance_file_piece(&path, diags, piece)))?;
        Ok(PyInstance::new_plain(inner, piece))
    }

    /// Parses instance text in any format the CLI reads (`piece` and `diags` as in
    /// [`PyInstance::read`]: `Instance.parse(i.to_text()) == i` for every instance);
    /// `name` is the source named in a `ParseError`.
    #[staticmethod]
    #[pyo3(
        signature = (text, *, piece = None, diags = None, name = None),
        text_signature = "(text, *, piece=None, diags=None, name='<input>')"
    )]
    fn parse(
        text: &Bound<'_, PyAny>,
        piece: Option<&Bound<'_, PyAny>>,
        diags: Option<&Bound<'_, PyAny>>,
        name: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let text = args::text(text, "text")?;
        let name = match name {
            Some(name) => args::text(name, "name")?,
            None => "<input>".into(),
        };
        let piece = given_piece(piece)?;
        let diags = diags.map(|d| args::count_arg(d, "diags")).transpose()?;
        let (inner, piece) = py_ok(inst::read_instance_piece(&name, &text, diags, piece))?;
        Ok(PyInstance::new_plain(inner, piece))
    }

    /// The instance of a square array of cell codes (numpy's, or nested sequences): 0 a free
    /// cell, 1 a pre-placed piece, 2 a blocked cell; the inverse of `to_numpy`.
    #[staticmethod]
    #[pyo3(signature = (array, *, piece = None), text_signature = "(array, *, piece='queen')")]
    fn from_numpy(array: &Bound<'_, PyAny>, piece: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let piece = piece_arg(piece)?;
        let (n, cells) = numpy_cells(
            array,
            &[FREE, PLACED, BLOCKED],
            "0 marks a free cell, 1 a pre-placed piece, 2 a blocked cell",
        )?;
        let inner = py_ok(Instance::new(
            n,
            cells[1].clone(),
            cells[2].clone(),
            Vec::new(),
        ))?;
        Ok(PyInstance::new_plain(inner, piece))
    }

    /// The cells as a `uint8` numpy array of shape `(n, n)`: 0 a free cell, 1 a pre-placed
    /// piece, 2 a blocked cell or a cell of an excluded diagonal.
    fn to_numpy<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let np = py.import("numpy").map_err(|_| {
            PyImportError::new_err("Instance.to_numpy needs numpy (pip install numpy)")
        })?;
        let n = self.inner.n as usize;
        let arr = np.call_method1("zeros", ((n, n), "uint8"))?;
        for (cells, code) in [
            (inst::write::unavailable_cells(&self.inner), BLOCKED),
            (self.inner.placed.clone(), PLACED),
        ] {
            if !cells.is_empty() {
                let rows: Vec<u32> = cells.iter().map(|c| c.row).collect();
                let cols: Vec<u32> = cells.iter().map(|c| c.col).collect();
                arr.set_item((rows, cols), code)?;
            }
        }
        Ok(arr)
    }

    /// The board side: the board has `n` rows and `n` columns, numbered `0..n`.
    #[getter]
    fn n(&self) -> u32 {
        self.inner.n
    }

    /// The piece placed on every row: `'queen'` or `'amazon'` (a queen that also moves as a
    /// knight).
    #[getter]
    fn piece(&self) -> &'static str {
        self.piece.name
    }

    /// The pre-placed pieces, sorted row-major (a set: each once).
    #[getter]
    fn placed(&self) -> Vec<(u32, u32)> {
        pairs(&self.canonical().placed)
    }

    /// The blocked cells, sorted row-major (a set: each once).
    #[getter]
    fn blocked(&self) -> Vec<(u32, u32)> {
        pairs(&self.canonical().blocked)
    }

    /// The excluded diagonals as `(kind, k)`, sorted by `(k, kind)` (a set: each once), with
    /// `k` in `0..=2n-2`: `('anti-diagonal', k)` is the sum diagonal `row + col == k`,
    /// `('diagonal', k)` the difference diagonal `row - col == k - (n - 1)` (k = n - 1 is the
    /// main diagonal): csplib's `[k, 1]` and `[k, 0]`.
    #[getter]
    fn excluded(&self) -> Vec<(&'static str, u32)> {
        self.canonical()
            .excluded
            .iter()
            .map(|e| (e.kind.name(), e.key))
            .collect()
    }

    /// The same instance with another piece.
    fn with_piece(&self, piece: &Bound<'_, PyAny>) -> PyResult<PyInstance> {
        Ok(PyInstance {
            piece: py_ok(Piece::parse(&args::text(piece, "piece")?))?,
            ..self.clone()
        })
    }

    /// The instance as file text: `board`, `param` or `diags` (default: the generator's
    /// format for generated instances, with the CLI's comment, else `board`).
    #[pyo3(signature = (format = None))]
    fn to_text(&self, format: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
        let format = format.map(|f| args::text(f, "format")).transpose()?;
        let format = format.as_deref();
        let (comment, default) = match &self.origin {
            Some((c, f)) => (c.as_str(), *f),
            None => ("queens_sat (Python)", InstanceFormat::Board),
        };
        let format = format.map(instance_format).transpose()?.unwrap_or(default);
        // The piece goes in the header (`# piece: amazon`), so that parse() reads it back.
        py_ok(inst::write::write_piece(
            &self.inner,
            format,
            comment,
            self.piece,
        ))
    }

    /// The generator's default format (`param` or `diags`), or `board`.
    #[getter]
    fn default_format(&self) -> &'static str {
        self.origin
            .as_ref()
            .map_or(InstanceFormat::Board, |o| o.1)
            .name()
    }

    /// The symmetries of the board that map the instance to itself (identity first).
    fn symmetries(&self) -> Vec<&'static str> {
        stabiliser(&self.inner, &self.piece)
            .into_iter()
            .map(|g| g.name())
            .collect()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyInstance>()
            .is_ok_and(|o| o.get().inner == self.inner && o.get().piece == self.piece)
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        // The library hashes the canonical form, agreeing with `==` (lists as sets).
        self.inner.hash(&mut h);
        self.piece.name.hash(&mut h);
        h.finish()
    }

    /// Pickling (multiprocessing): the constructor's arguments.
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> (
        Bound<'py, PyAny>,
        (
            u32,
            &'static str,
            Vec<(u32, u32)>,
            Vec<(u32, u32)>,
            Vec<(&'static str, u32)>,
        ),
    ) {
        let me = slf.get();
        (
            slf.get_type().into_any(),
            (
                me.inner.n,
                me.piece.name,
                me.placed(),
                me.blocked(),
                me.excluded(),
            ),
        )
    }

    fn __repr__(&self) -> String {
        format!(
            "Instance(n={}, piece='{}', placed={}, blocked={}, excluded={})",
            self.inner.n,
            self.piece.name,
            self.canonical().placed.len(),
            self.canonical().blocked.len(),
            self.canonical().excluded.len()
        )
    }

    /// The instance drawn as SVG: its pre-placed pieces, blocked cells and excluded diagonals;
    /// `None` past n = 1,024, the command line's limit (`_repr_html_` then says so).
    fn _repr_svg_(&self) -> Option<String> {
        if self.inner.n > queens_sat::svg::MAX_N {
            return None;
        }
        let caption = format!("{}-{}s: instance", self.inner.n, self.piece.name);
        Some(queens_sat::svg::render(
            &self.inner,
            self.piece,
            &self.inner.placed,
            None,
            &caption,
        ))
    }

    /// Jupyter's note for an instance too large to draw (n > 1,024); `None` when
    /// `_repr_svg_` draws it.
    fn _repr_html_(&self) -> Option<String> {
        too_large_to_draw(self.inner.n, "instance")
    }
}

/// A placement of pieces: a solver's verified answer, or a board built for `verify`.
///
/// Iterating over a board yields its pieces as `(row, col)` tuples; boards pickle (with the
/// instance they answer) and show themselves in Jupyter as SVG.
#[pyclass(module = "queens_sat", name = "Board", frozen)]
#[derive(Clone)]
pub struct PyBoard {
    pub(crate) board: Board,
    /// The instance the board answers (blocked cells shown as `x`, SVG), when known.
    pub(crate) instance: Option<PyInstance>,
}

#[pymethods]
impl PyBoard {
    #[new]
    #[pyo3(signature = (n, pieces))]
    fn new(n: &Bound<'_, PyAny>, pieces: &Bound<'_, PyAny>) -> PyResult<PyBoard> {
        let n = args::side(n)?;
        Ok(PyBoard {
            board: Board::new(n, cells(n, "pieces", args::pairs(pieces, "pieces")?)?),
            instance: None,
        })
    }

    /// The board of a square 0/1 array (numpy's, or nested sequences) with a 1 on every
    /// piece: the inverse of `to_numpy`.
    #[staticmethod]
    fn from_numpy(array: &Bound<'_, PyAny>) -> PyResult<PyBoard> {
        let (n, mut cells) = numpy_cells(array, &[1, 0], "1 marks a piece, 0 an empty cell")?;
        Ok(PyBoard {
            board: Board::new(n, cells.swap_remove(0)),
            instance: None,
        })
    }

    /// The board with one piece per row, in column `columns[row]` (`None`: an empty row).
    #[staticmethod]
    fn from_columns(columns: &Bound<'_, PyAny>) -> PyResult<PyBoard> {
        let given = args::repr(columns);
        let columns: Vec<Bound<'_, PyAny>> =
            args::iterable(columns, "columns", "an iterable of columns (int or None)")?
                .collect::<PyResult<_>>()?;
        let n = u32::try_from(columns.len())
            .ok()
            .filter(|n| (1..=MAX_N).contains(n))
            .ok_or_else(|| {
                bad_argument(
                    "columns",
                    &given,
                    format!(
                        "columns={given} has {} entries; a board has 1..={MAX_N} rows",
                        columns.len()
                    ),
                )
            })?;
        let mut pieces = Vec::new();
        for (r, c) in columns.iter().enumerate() {
            if c.is_none() {
                continue;
            }
            let value = args::repr(c);
            let Some(col) = args::index(c) else {
                return Err(bad_argument(
                    "columns",
                    &value,
                    format!("columns has {value} in row {r}, not a column (int) or None"),
                ));
            };
            // A column too large for i64 is off every board.
            let col = col.extract::<i64>().unwrap_or(-1);
            pieces.push((r as i64, col, format!("({r}, {value})")));
        }
        Ok(PyBoard {
            board: Board::new(n, cells(n, "columns", pieces)?),
            instance: None,
        })
    }

    /// The board side.
    #[getter]
    fn n(&self) -> u32 {
        self.board.n
    }

    /// The pieces as `(row, col)` cells, 0-based.
    #[getter]
    fn pieces(&self) -> Vec<(u32, u32)> {
        pairs(&self.board.pieces)
    }

    /// The column of each row's piece (`None` for a row without one; the first if several).
    #[getter]
    fn columns(&self) -> Vec<Option<u32>> {
        let mut cols = vec![None; self.board.n as usize];
        for c in self.board.pieces.iter().rev() {
            cols[c.row as usize] = Some(c.col);
        }
        cols
    }

    /// The instance this board answers, if known.
    #[getter]
    fn instance(&self) -> Option<PyInstance> {
        self.instance.clone()
    }

    /// A 0/1 `numpy` array of shape `(n, n)` with a 1 on every piece.
    fn to_numpy<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let np = py.import("numpy").map_err(|_| {
            PyImportError::new_err("Board.to_numpy needs numpy (pip install numpy)")
        })?;
        let n = self.board.n as usize;
        let arr = np.call_method1("zeros", ((n, n), "uint8"))?;
        if !self.board.pieces.is_empty() {
            let rows: Vec<u32> = self.board.pieces.iter().map(|c| c.row).collect();
            let cols: Vec<u32> = self.board.pieces.iter().map(|c| c.col).collect();
            arr.set_item((rows, cols), 1)?;
        }
        Ok(arr)
    }

    /// The board as text, one row per line (`Q` piece, `.` free, `x` blocked), without a
    /// final newline, so that `print(board)` adds no blank line.
    fn __str__(&self) -> String {
        let mut text = match &self.instance {
            Some(i) => {
                let obstacles = i.inner.obstacles();
                self.board.to_text(|c| obstacles.contains(c))
            }
            None => self.board.to_text(|_| false),
        };
        if text.ends_with('\n') {
            text.pop();
        }
        text
    }

    fn __repr__(&self) -> String {
        const SHOWN: usize = 16;
        let mut cols: Vec<String> = self
            .columns()
            .iter()
            .take(SHOWN)
            .map(|c| c.map_or("None".into(), |c| c.to_string()))
            .collect();
        if self.board.n as usize > SHOWN {
            cols.push("...".into());
        }
        format!("Board(n={}, columns=[{}])", self.board.n, cols.join(", "))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyBoard>()
            .is_ok_and(|o| o.get().board == self.board)
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.board.n.hash(&mut h);
        self.board.pieces.hash(&mut h);
        h.finish()
    }

    fn __len__(&self) -> usize {
        self.board.pieces.len()
    }

    /// `board[row]`: the column of the row's piece (`None` for a row without one; the first
    /// if several), as `columns[row]`; `board[row, col]`: whether a piece stands there. A
    /// negative index counts from the end, as in a list; one off the board is an `IndexError`.
    fn __getitem__<'py>(
        &self,
        py: Python<'py>,
        key: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let n = i128::from(self.board.n);
        let coord = |obj: &Bound<'py, PyAny>, name: &str| -> PyResult<u32> {
            let Some(i) = args::index(obj) else {
                return Err(errors::bad_type(
                    "index",
                    &args::repr(key),
                    "a row or a (row, col) pair of ints",
                    obj,
                ));
            };
            let v = i.extract::<i128>().unwrap_or(i128::MAX);
            let v = if v < 0 { v + n } else { v };
            if (0..n).contains(&v) {
                Ok(v as u32)
            } else {
                Err(PyIndexError::new_err(format!(
                    "board {name} {} is outside the {n}x{n} board",
                    args::repr(obj)
                )))
            }
        };
        if let Ok(pair) = key.cast::<PyTuple>() {
            if pair.len() != 2 {
                return Err(errors::bad_type(
                    "index",
                    &args::repr(key),
                    "a row or a (row, col) pair of ints",
                    key,
                ));
            }
            let (row, col) = (
                coord(&pair.get_item(0)?, "row")?,
                coord(&pair.get_item(1)?, "column")?,
            );
            let here = self
                .board
                .pieces
                .iter()
                .any(|c| c.row == row && c.col == col);
            return Ok(PyBool::new(py, here).to_owned().into_any());
        }
        let row = coord(key, "row")?;
        Ok(self.columns()[row as usize].into_pyobject(py)?.into_any())
    }

    /// Iterates over the pieces as `(row, col)` tuples, in the order of `pieces`.
    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyIterator>> {
        PyList::new(py, self.pieces())?.try_iter()
    }

    /// Pickling (multiprocessing): side, pieces and the instance answered.
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(
        Bound<'py, PyAny>,
        (u32, Vec<(u32, u32)>, Option<PyInstance>),
    )> {
        let me = slf.get();
        Ok((
            slf.get_type().getattr("_restore")?,
            (me.board.n, me.pieces(), me.instance.clone()),
        ))
    }

    #[staticmethod]
    fn _restore(
        n: &Bound<'_, PyAny>,
        pieces: &Bound<'_, PyAny>,
        instance: Option<Bound<'_, PyInstance>>,
    ) -> PyResult<Self> {
        Ok(PyBoard {
            instance: instance.map(|i| i.get().clone()),
            ..PyBoard::new(n, pieces)?
        })
    }

    /// The board as SVG, as `solve --format svg` draws it (a board that is not a solution of
    /// its instance is drawn with the first two attacking pieces marked); `None` past n =
    /// 1,024, the command line's limit (`_repr_html_` then says so).
    pub(crate) fn _repr_svg_(&self) -> Option<String> {
        (self.board.n <= queens_sat::svg::MAX_N).then(|| self.svg())
    }

    /// Jupyter's note for a board too large to draw (n > 1,024); `None` when `_repr_svg_`
    /// draws it.
    fn _repr_html_(&self) -> Option<String> {
        too_large_to_draw(self.board.n, "board")
    }
}

/// The note a notebook shows for a board or instance of side `n` past the SVG limit
/// ([`queens_sat::svg::MAX_N`], the command line's), or `None` when it is drawn.
pub(crate) fn too_large_to_draw(n: u32, what: &str) -> Option<String> {
    (n > queens_sat::svg::MAX_N).then(|| {
        format!(
            "<div class=\"queens-sat-{what}\">{n}x{n} {what}: too large to draw (SVG up to n = {})</div>",
            queens_sat::svg::MAX_N
        )
    })
}

impl PyBoard {
    /// The SVG drawing, whatever the size.
    fn svg(&self) -> String {
        let (instance, piece) = match &self.instance {
            Some(i) => (i.inner.clone(), i.piece),
            None => (Instance::plain(self.board.n), queens_sat::piece::QUEEN),
        };
        match queens_sat::svg::solution_svg(&self.board, &instance, piece) {
            Ok(svg) => svg,
            Err(_) => {
                let v = queens_sat::verify::check(&self.board, &instance, piece).err();
                let attack = v.as_ref().and_then(|v| match v.cells.as_slice() {
                    [a, b] => Some((*a, *b)),
                    _ => None,
                });
                let caption = format!(
                    "{}-{}s: {}",
                    self.board.n,
                    piece.name,
                    v.map_or("not a solution".into(), |v| v.message)
                );
                queens_sat::svg::render(&instance, piece, &self.board.pieces, attack, &caption)
            }
        }
    }
}

/// Parses the encoding keyword arguments (`amo=`, `implied=`, `symmetric=`,
/// `break_symmetry=`) through the library's vocabulary, as the command line does.
pub(crate) fn encoding(
    instance: &PyInstance,
    amo: Option<&str>,
    implied: Option<&str>,
    symmetric: Option<&str>,
    break_symmetry: Option<&str>,
    for_solve: bool,
) -> PyResult<queens_sat::options::Parsed> {
    let names = queens_sat::options::Encoding {
        amo,
        implied,
        symmetric,
        break_symmetry,
    };
    py_ok(names.parse(&instance.inner, &instance.piece, for_solve))
}

/// Clauses as one flat literal buffer and the end offset of each clause.
#[derive(Default)]
struct FlatSink {
    lits: Vec<i32>,
    ends: Vec<usize>,
    cancel: Option<queens_sat::interrupt::Cancel>,
}

impl ClauseSink for FlatSink {
    #[inline]
    fn add_clause(&mut self, lits: &[Lit]) {
        self.lits.extend(lits.iter().map(|l| l.to_dimacs()));
        self.ends.push(self.lits.len());
    }

    fn stopped(&self) -> bool {
        self.cancel.as_ref().is_some_and(|c| c.is_cancelled())
    }
}

/// The encoding arguments of a [`PyFormula`], as `encode` received them.
type EncodeArgs = (String, Option<String>, Option<String>, Option<String>, bool);

/// What `Formula.__reduce__` hands to `Formula._restore`: the instance, the encoding
/// arguments, and the clauses as two byte buffers (the literals as little-endian `i32`, the
/// end offset of each clause as little-endian `u64`).
type FormulaState<'py> = (
    PyInstance,
    String,
    Option<String>,
    Option<String>,
    Option<String>,
    bool,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
);

/// Presolve and the encoder's options and exact size for `encode`'s arguments (no clause is
/// built).
fn prepare(
    instance: &PyInstance,
    args: &EncodeArgs,
) -> queens_sat::Result<(Problem, EncodeOptions, Stats)> {
    let (amo, implied, symmetric, break_symmetry, presolve) = args;
    let names = queens_sat::options::Encoding {
        amo: Some(amo),
        implied: implied.as_deref(),
        symmetric: symmetric.as_deref(),
        break_symmetry: break_symmetry.as_deref(),
    };
    let options = names
        .parse(&instance.inner, &instance.piece, false)?
        .options;
    let problem = Problem::new(&instance.inner, instance.piece, *presolve)?;
    let stats = Encoder::with_options(&problem, options).stats()?;
    Ok((problem, options, stats))
}

/// A CNF of an instance, held in memory, with the map between cells and variables.
///
/// Formulas pickle (for process pools): the instance, the arguments of `encode` and the clauses
/// travel; unpickling presolves again but does not re-encode.
#[pyclass(module = "queens_sat", name = "Formula", frozen)]
pub struct PyFormula {
    instance: PyInstance,
    /// The arguments of `encode` (`amo`, `implied`, `symmetric`, `break_symmetry`, `presolve`),
    /// from which `_restore` rebuilds the map between cells and variables.
    args: EncodeArgs,
    problem: Problem,
    options: EncodeOptions,
    stats: Stats,
    lits: Vec<i32>,
    ends: Vec<usize>,
}

impl PyFormula {
    fn clause(&self, i: usize) -> &[i32] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.lits[start..self.ends[i]]
    }

    /// The clauses as a list of lists of ints, built in bulk: one int object per variable and
    /// sign (shared by every clause that uses it), lists filled through the C API, and Python's
    /// cyclic garbage collector paused meanwhile (millions of new lists would otherwise trigger
    /// it over and over: three times slower at n=200 pairwise).
    fn clause_lists<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let gc = py.import("gc")?;
        let was_enabled = gc.call_method0("isenabled")?.is_truthy()?;
        if was_enabled {
            gc.call_method0("disable")?;
        }
        let result = self.build_lists(py);
        if was_enabled {
            gc.call_method0("enable")?;
        }
        result
    }

    fn build_lists<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        use pyo3::ffi;
        let nv = self.stats.vars as i64;
        // Every literal -nv..=nv once (index l + nv); owned here, increfed per use.
        let ints: Vec<Bound<'py, PyAny>> = (-nv..=nv)
            .map(|l| l.into_pyobject(py).expect("ints convert").into_any())
            .collect();
        let new_list = |len: usize| -> PyResult<Bound<'py, PyList>> {
            // SAFETY: PyList_New returns a new reference or null with an exception set.
            unsafe {
                let ptr = ffi::PyList_New(len as ffi::Py_ssize_t);
                if ptr.is_null() {
                    return Err(PyErr::fetch(py));
                }
                Ok(Bound::from_owned_ptr(py, ptr).cast_into_unchecked())
            }
        };
        let outer = new_list(self.ends.len())?;
        for i in 0..self.ends.len() {
            let c = self.clause(i);
            let inner = new_list(c.len())?;
            for (j, &l) in c.iter().enumerate() {
                let item = ints[(l as i64 + nv) as usize].clone().into_ptr();
                // SAFETY: `inner` is a fresh list of len c.len(); PyList_SetItem steals `item`.
                unsafe { ffi::PyList_SetItem(inner.as_ptr(), j as ffi::Py_ssize_t, item) };
            }
            // SAFETY: as above; the outer list takes the inner one's reference.
            unsafe { ffi::PyList_SetItem(outer.as_ptr(), i as ffi::Py_ssize_t, inner.into_ptr()) };
        }
        Ok(outer)
    }
}

#[pymethods]
impl PyFormula {
    /// Variables of the CNF (the DIMACS header's), cell variables first, then auxiliaries.
    #[getter]
    fn num_vars(&self) -> u64 {
        self.stats.vars
    }

    /// Clauses of the CNF (the DIMACS header's).
    #[getter]
    fn num_clauses(&self) -> u64 {
        self.stats.clauses
    }

    /// Literal occurrences over all clauses.
    #[getter]
    fn num_literals(&self) -> u64 {
        self.stats.literals
    }

    /// Variables of board cells (`1..=num_cells`); auxiliaries follow them.
    #[getter]
    fn num_cells(&self) -> u64 {
        self.problem.num_cells()
    }

    /// The at-most-one encoding used (`NAME:G` for a group size other than the default).
    #[getter]
    fn amo(&self) -> String {
        self.options.amo.name()
    }

    /// The instance encoded.
    #[getter]
    fn instance(&self) -> PyInstance {
        self.instance.clone()
    }

    /// Why presolve proved the instance UNSAT (the CNF is then a fixed contradiction).
    #[getter]
    fn presolve_unsat(&self) -> Option<String> {
        self.problem.unsat.clone()
    }

    /// The clauses, a list of lists of DIMACS literals.
    #[getter]
    fn clauses<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        self.clause_lists(py)
    }

    /// The literals of every clause one after another, each clause ended by a 0 (the DIMACS
    /// body), as a flat `array('i')`.
    fn to_array<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let len = 4 * (self.lits.len() + self.ends.len());
        let mut bytes: Vec<u8> = Vec::new();
        bytes.try_reserve_exact(len).map_err(|_| {
            pyo3::exceptions::PyMemoryError::new_err(format!(
                "to_array: could not allocate {}",
                queens_sat::memory::bytes(len as u64)
            ))
        })?;
        let mut start = 0;
        for &end in &self.ends {
            for x in &self.lits[start..end] {
                bytes.extend_from_slice(&x.to_ne_bytes());
            }
            bytes.extend_from_slice(&0i32.to_ne_bytes());
            start = end;
        }
        let array = py.import("array")?.getattr("array")?;
        let arr = array.call1(("i",))?;
        arr.call_method1("frombytes", (pyo3::types::PyBytes::new(py, &bytes),))?;
        Ok(arr)
    }

    /// A `pysat.formula.CNF` with these clauses (no copy of the lists is made by PySAT).
    fn to_pysat<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let cnf_class = py
            .import("pysat.formula")
            .and_then(|m| m.getattr("CNF"))
            .map_err(|_| {
                PyImportError::new_err("Formula.to_pysat needs PySAT (pip install python-sat)")
            })?;
        let cnf = cnf_class.call0()?;
        cnf.setattr("clauses", self.clause_lists(py)?)?;
        cnf.setattr("nv", self.stats.vars)?;
        Ok(cnf)
    }

    /// Writes the formula (`dimacs`), or the instance's `opb`, `lp` or `mzn` model, with the
    /// CLI's header; the file is replaced atomically. A name ending in `.xz`, `.gz` or `.zst`
    /// is compressed, at `level` (the codec's default when `None`). The other formats state
    /// each line's at-most-one directly, so a formula encoded with an `amo` other than the
    /// default is refused there (`UsageError` naming `amo`).
    #[pyo3(
        signature = (path, format = None, level = None),
        text_signature = "($self, path, format='dimacs', level=None)"
    )]
    fn write(
        &self,
        py: Python<'_>,
        path: &Bound<'_, PyAny>,
        format: Option<&Bound<'_, PyAny>>,
        level: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let path = args::path(path, "path")?;
        let format = match format {
            Some(f) => py_ok(export::Format::parse(&args::text(f, "format")?))?,
            None => export::Format::Dimacs,
        };
        // `amo=` other than the default with a format that has no use for it is refused, as
        // `encode --to opb --amo ...` is (queens_sat::applies).
        let amo = self.options.amo;
        py_ok(queens_sat::applies::check(
            queens_sat::applies::Command::Encode,
            &queens_sat::applies::Given::new()
                .value(queens_sat::error::Opt::To, format.name())
                .maybe(
                    queens_sat::error::Opt::Amo,
                    (amo != queens_sat::encode::amo::AmoKind::DEFAULT).then(|| amo.name()),
                ),
        ))?;
        let codec = py_ok(queens_sat::compress::Codec::for_output(&path))?;
        let write = export::WriteOptions {
            codec,
            level: args::level(codec, level)?,
            gbdhash: false,
        };
        let out = queens_sat::export::dimacs::Output::File(path);
        work::run(py, None, |cancel| {
            export::export_with(
                &out,
                format,
                &self.problem,
                self.options,
                None,
                cancel,
                write,
            )
            .map(|_| ())
        })
    }

    /// The GBD hash of the formula's DIMACS text: the name the Global Benchmark Database
    /// (`gbdc.gbdhash`) gives the file that `write` makes, plain or compressed.
    #[getter]
    fn gbdhash(&self, py: Python<'_>) -> PyResult<String> {
        let write = export::WriteOptions {
            gbdhash: true,
            ..export::WriteOptions::default()
        };
        py.detach(|| {
            let (_, report) = py_ok(export::write_piped(
                export::Format::Dimacs,
                std::io::sink(),
                &self.problem,
                self.options,
                None,
                write,
            ))?;
            report
                .gbdhash
                .ok_or_else(|| errors::usage("internal error: no GBD hash was computed"))
        })
    }

    /// The variable of cell `(row, col)`, or `None` when presolve removed the cell; a cell off
    /// the board is a `UsageError`.
    fn var(&self, row: &Bound<'_, PyAny>, col: &Bound<'_, PyAny>) -> PyResult<Option<u32>> {
        let n = self.problem.n;
        let must = format!(
            "is outside the {n}x{n} board (rows and columns 0..={})",
            n - 1
        );
        let coord = |obj: &Bound<'_, PyAny>, name: &str| -> PyResult<u32> {
            args::int_in(obj, name, &must, |&v: &u32| v < n)
        };
        let cell = Cell::new(coord(row, "row")?, coord(col, "col")?);
        Ok(self.problem.varmap.var(cell))
    }

    /// The cell `(row, col)` of variable `var` (`1..=num_vars`), or `None` for an auxiliary
    /// variable (above `num_cells`); any other `var` is a `UsageError`.
    fn cell(&self, var: &Bound<'_, PyAny>) -> PyResult<Option<(u32, u32)>> {
        let nv = self.stats.vars;
        let must = format!("is not a variable of this formula (1..={nv})");
        let v: u32 = args::int_in(var, "var", &must, |&v: &u32| v >= 1 && u64::from(v) <= nv)?;
        Ok(self.problem.varmap.cell(v).map(|c| (c.row, c.col)))
    }

    /// The verified board of a model (an iterable of DIMACS literals, as PySAT's
    /// `get_model()`; positive ones are true); `VerifyError` if it is not a solution. A literal
    /// that is 0 or beyond `num_vars` (either sign) is a `UsageError`.
    fn decode(&self, model: &Bound<'_, PyAny>) -> PyResult<PyBoard> {
        let nv = usize::try_from(self.stats.vars).unwrap_or(usize::MAX);
        let must = format!(
            "is not a literal of this formula (1..={0} or -{0}..=-1)",
            self.stats.vars
        );
        let lits = args::iterable(model, "model", "an iterable of DIMACS literals (ints)")?
            .map(|item| {
                let item = item?;
                args::int_in(&item, "model", &must, |&l: &i64| {
                    l != 0 && l.unsigned_abs() <= self.stats.vars
                })
                .map_err(|e| {
                    // The message names the literal in the model (`.value` is the literal).
                    let value = args::repr(&item);
                    if e.is_instance_of::<pyo3::exceptions::PyTypeError>(model.py()) {
                        e
                    } else {
                        bad_argument("model", &value, format!("model has {value}, which {must}"))
                    }
                })
            })
            .collect::<PyResult<Vec<i64>>>()?;
        let true_vars = lits.into_iter().filter(|&l| l > 0).map(|l| l as u32);
        let model = queens_sat::answer::Model::from_true_vars(nv, true_vars);
        let board = queens_sat::decode::decode(&self.problem.varmap, &self.problem.fixed, &model);
        let instance = &self.instance;
        queens_sat::verify::check(&board, &instance.inner, instance.piece)
            .map_err(|v| errors::verify_error(&v))?;
        Ok(PyBoard {
            board,
            instance: Some(instance.clone()),
        })
    }

    fn __len__(&self) -> usize {
        self.ends.len()
    }

    /// Pickling (multiprocessing, `concurrent.futures`): the instance, the arguments of
    /// `encode` and the clauses as bytes; unpickling presolves again (cheap) but does not
    /// re-encode.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, FormulaState<'py>)> {
        let py = slf.py();
        let me = slf.get();
        let lits: Vec<u8> = me.lits.iter().flat_map(|l| l.to_le_bytes()).collect();
        let ends: Vec<u8> = me
            .ends
            .iter()
            .flat_map(|&e| (e as u64).to_le_bytes())
            .collect();
        let (amo, implied, symmetric, break_symmetry, presolve) = me.args.clone();
        Ok((
            slf.get_type().getattr("_restore")?,
            (
                me.instance.clone(),
                amo,
                implied,
                symmetric,
                break_symmetry,
                presolve,
                PyBytes::new(py, &lits),
                PyBytes::new(py, &ends),
            ),
        ))
    }

    /// Rebuilds a pickled formula (the inverse of `__reduce__`): the clauses must have the
    /// exact size the encoder gives the instance and options, with every literal in range.
    #[staticmethod]
    #[allow(clippy::too_many_arguments)]
    fn _restore(
        py: Python<'_>,
        instance: Bound<'_, PyInstance>,
        amo: String,
        implied: Option<String>,
        symmetric: Option<String>,
        break_symmetry: Option<String>,
        presolve: bool,
        lits: &[u8],
        ends: &[u8],
    ) -> PyResult<Self> {
        let instance = instance.get().clone();
        let args = (amo, implied, symmetric, break_symmetry, presolve);
        let (problem, options, stats) = py_ok(py.detach(|| prepare(&instance, &args)))?;
        let bad = || errors::usage("Formula._restore: the pickled clauses do not fit the formula");
        if !lits.len().is_multiple_of(4) || !ends.len().is_multiple_of(8) {
            return Err(bad());
        }
        let lits: Vec<i32> = lits
            .chunks_exact(4)
            .map(|b| i32::from_le_bytes(b.try_into().expect("chunks of 4")))
            .collect();
        let ends = ends
            .chunks_exact(8)
            .map(|b| usize::try_from(u64::from_le_bytes(b.try_into().expect("chunks of 8"))))
            .collect::<Result<Vec<usize>, _>>()
            .map_err(|_| bad())?;
        let nv = stats.vars;
        let fits = lits.len() as u64 == stats.literals
            && ends.len() as u64 == stats.clauses
            && ends.windows(2).all(|w| w[0] <= w[1])
            && ends.last().copied().unwrap_or(0) == lits.len()
            && lits
                .iter()
                .all(|&l| l != 0 && u64::from(l.unsigned_abs()) <= nv);
        if !fits {
            return Err(bad());
        }
        Ok(PyFormula {
            instance,
            args,
            problem,
            options,
            stats,
            lits,
            ends,
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "Formula(n={}, amo='{}', num_vars={}, num_clauses={})",
            self.problem.n,
            self.options.amo.name(),
            self.stats.vars,
            self.stats.clauses
        )
    }
}

#[pyfunction]
#[pyo3(signature = (instance, amo, implied, symmetric, break_symmetry, presolve, cancel))]
#[allow(clippy::too_many_arguments)] // encode's keyword arguments
fn encode(
    py: Python<'_>,
    instance: &PyInstance,
    amo: &str,
    implied: Option<&str>,
    symmetric: Option<&str>,
    break_symmetry: Option<&str>,
    presolve: bool,
    cancel: Option<PyRef<'_, cancel::PyCancel>>,
) -> PyResult<PyFormula> {
    let options = encoding(
        instance,
        Some(amo),
        implied,
        symmetric,
        break_symmetry,
        false,
    )?
    .options;
    let args: EncodeArgs = (
        amo.to_string(),
        implied.map(str::to_string),
        symmetric.map(str::to_string),
        break_symmetry.map(str::to_string),
        presolve,
    );
    let (problem, stats, sink) = work::run_with(py, None, cancel.as_deref(), |cancel| {
        let problem = Problem::new(&instance.inner, instance.piece, presolve)?;
        let encoder = Encoder::with_options(&problem, options);
        let stats = encoder.stats()?;
        // The exact size is known: refused up front when it does not fit, and reserved
        // fallibly, so a formula too big for the process is an exception, never an abort.
        let need = 4 * stats.literals + 8 * stats.clauses;
        let what = format!(
            "encoding {} clauses ({} literals) into a Formula",
            stats.clauses, stats.literals
        );
        queens_sat::memory::check(
            need,
            &what,
            "; a smaller encoding needs less (amo='product')",
        )?;
        let too_large = |_| {
            queens_sat::error::Error::TooLarge(format!(
                "{what}: could not allocate {}",
                queens_sat::memory::bytes(need)
            ))
        };
        let mut sink = FlatSink {
            lits: Vec::new(),
            ends: Vec::new(),
            cancel: Some(cancel.clone()),
        };
        sink.lits
            .try_reserve_exact(stats.literals as usize)
            .map_err(too_large)?;
        sink.ends
            .try_reserve_exact(stats.clauses as usize)
            .map_err(too_large)?;
        encoder.encode(&mut sink);
        cancel.check()?;
        Ok((problem, stats, sink))
    })?;
    Ok(PyFormula {
        instance: instance.clone(),
        args,
        problem,
        options,
        stats,
        lits: sink.lits,
        ends: sink.ends,
    })
}

/// Solution counts of an instance: total, unique (Burnside) and fixed points per symmetry.
///
/// Counts pickle (for process pools) and show themselves in Jupyter as a small HTML table.
#[pyclass(module = "queens_sat", name = "Counts", frozen)]
pub struct PyCounts {
    /// Solutions (with `symmetric=`: the solutions that symmetry maps to themselves); `None`
    /// for a lex-leader count, which sees one board per class.
    #[pyo3(get)]
    total: Option<u64>,
    /// Classes modulo `group` (Burnside, or lex-leader boards counted directly).
    #[pyo3(get)]
    unique: u64,
    /// Counted solutions each element of `group` maps to themselves, by name (empty for a
    /// lex-leader count). Never handed out: Python sees it through a read-only view
    /// (`fixed_points`), so frozen counts and their hash cannot change.
    fixed_points: Py<PyDict>,
    /// The group of the classes, identity first: the instance's symmetries (with
    /// `symmetric=g`: those that map `<g>` onto itself).
    #[pyo3(get)]
    group: Vec<String>,
    /// `symmetric=` as given.
    #[pyo3(get)]
    symmetric: Option<String>,
    /// How the classes were counted: `burnside`, `lex-leader`, or two joined by `+`.
    #[pyo3(get)]
    method: String,
    /// The engine that counted, or the two joined by `+` under `cross_check=True`.
    #[pyo3(get)]
    engine: String,
    /// Seconds spent counting.
    #[pyo3(get)]
    seconds: f64,
}

/// What `Counts.__reduce__` hands to `Counts._restore`: every field in declaration order.
type CountsState<'py> = (
    Option<u64>,
    u64,
    Bound<'py, PyDict>,
    Vec<String>,
    Option<String>,
    String,
    String,
    f64,
);

impl PyCounts {
    /// `symmetric=` as equality sees it: `id` fixes every board, so it counts what no
    /// `symmetric=` counts (the same group, the same numbers) and compares equal to it.
    fn symmetric_key(&self) -> Option<&str> {
        self.symmetric.as_deref().filter(|g| *g != "id")
    }

    /// The fixed points, sorted by symmetry name.
    fn fixed(&self, py: Python<'_>) -> PyResult<Vec<(String, u64)>> {
        let mut v: Vec<(String, u64)> = self.fixed_points.bind(py).items().extract()?;
        v.sort();
        Ok(v)
    }
}

#[pymethods]
impl PyCounts {
    /// Counted solutions each element of `group` maps to themselves, by name (empty for a
    /// lex-leader count): a read-only mapping (`types.MappingProxyType`), so that frozen,
    /// hashable counts cannot change.
    #[getter]
    fn fixed_points<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        py.import("types")?
            .getattr("MappingProxyType")?
            .call1((self.fixed_points.bind(py),))
    }

    /// Equal counts: the same numbers (total, unique, fixed points) of the same group and
    /// `symmetric=`; the engine, method and time do not matter, and `symmetric="id"` (which
    /// every board satisfies) equals no `symmetric=`.
    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        let Ok(o) = other.cast::<PyCounts>() else {
            return Ok(false);
        };
        let o = o.get();
        Ok(self.total == o.total
            && self.unique == o.unique
            && self.group == o.group
            && self.symmetric_key() == o.symmetric_key()
            && self.fixed(py)? == o.fixed(py)?)
    }

    /// A hash that agrees with `==`.
    fn __hash__(&self, py: Python<'_>) -> PyResult<u64> {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (self.total, self.unique, &self.group, self.symmetric_key()).hash(&mut h);
        self.fixed(py)?.hash(&mut h);
        Ok(h.finish())
    }

    /// Every field as a plain dict (JSON-ready): `total`, `unique`, `fixed_points` (a dict of
    /// its own, a copy), `group`, `symmetric`, `method`, `engine`, `seconds`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("total", self.total)?;
        d.set_item("unique", self.unique)?;
        d.set_item("fixed_points", self.fixed_points.bind(py).copy()?)?;
        d.set_item("group", self.group.clone())?;
        d.set_item("symmetric", self.symmetric.clone())?;
        d.set_item("method", &self.method)?;
        d.set_item("engine", &self.engine)?;
        d.set_item("seconds", self.seconds)?;
        Ok(d)
    }

    /// Pickling (multiprocessing, `concurrent.futures`): every field.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, CountsState<'py>)> {
        let me = slf.get();
        Ok((
            slf.get_type().getattr("_restore")?,
            (
                me.total,
                me.unique,
                me.fixed_points.bind(slf.py()).copy()?,
                me.group.clone(),
                me.symmetric.clone(),
                me.method.clone(),
                me.engine.clone(),
                me.seconds,
            ),
        ))
    }

    /// Rebuilds pickled counts (the inverse of `__reduce__`).
    #[staticmethod]
    #[allow(clippy::too_many_arguments)] // every field, as pickled
    fn _restore(
        total: Option<u64>,
        unique: u64,
        fixed_points: Bound<'_, PyDict>,
        group: Vec<String>,
        symmetric: Option<String>,
        method: String,
        engine: String,
        seconds: f64,
    ) -> PyResult<Self> {
        Ok(PyCounts {
            total,
            unique,
            fixed_points: fixed_points.copy()?.unbind(),
            group,
            symmetric,
            method,
            engine,
            seconds,
        })
    }

    /// Jupyter's rich repr: a small HTML table of the total, the unique count and the fixed
    /// points of each symmetry.
    fn _repr_html_(&self, py: Python<'_>) -> PyResult<String> {
        let mut rows = Vec::new();
        if let Some(t) = self.total {
            rows.push(("total".to_string(), t.to_string()));
        }
        rows.push(("unique".into(), self.unique.to_string()));
        if let Some(g) = &self.symmetric {
            rows.push(("symmetric".into(), g.clone()));
        }
        for (g, f) in self.fixed_points.bind(py).iter() {
            rows.push((format!("fixed by {}", g.str()?), f.str()?.to_string()));
        }
        let body: String = rows
            .iter()
            .map(|(k, v)| {
                format!(
                    "<tr><th style=\"text-align:left\">{}</th><td style=\"text-align:right\">{}</td></tr>",
                    html_escape(k),
                    html_escape(v)
                )
            })
            .collect();
        Ok(format!(
            "<table class=\"queens-sat-counts\"><caption>counts ({}, {:.3} s)</caption>{body}</table>",
            html_escape(&self.engine),
            self.seconds
        ))
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "Counts(total={}, unique={}, fixed_points={}{})",
            self.total.map_or("None".into(), |t| t.to_string()),
            self.unique,
            self.fixed_points.bind(py).repr()?,
            self.symmetric
                .as_ref()
                .map_or(String::new(), |g| format!(", symmetric='{g}'"))
        ))
    }
}

#[pyfunction(name = "count")]
#[pyo3(signature = (instance, amo, symmetric, break_symmetry, engine, cross_check, jobs, timeout_secs, progress, cancel))]
#[allow(clippy::too_many_arguments)] // count's keyword arguments
fn count_instance(
    py: Python<'_>,
    instance: &PyInstance,
    amo: Option<&str>,
    symmetric: Option<&str>,
    break_symmetry: Option<&str>,
    engine: &str,
    cross_check: bool,
    jobs: Option<&Bound<'_, PyAny>>,
    timeout_secs: Option<&Bound<'_, PyAny>>,
    progress: Option<Bound<'_, PyAny>>,
    cancel: Option<PyRef<'_, cancel::PyCancel>>,
) -> PyResult<PyCounts> {
    let jobs = args::jobs(jobs)?;
    let (inst, piece) = (&instance.inner, instance.piece);
    let parsed = py_ok(
        queens_sat::options::Encoding {
            amo,
            implied: None,
            symmetric,
            break_symmetry,
        }
        .parse(inst, &piece, false),
    )?;
    let engine_name = engine;
    let engine = py_ok(CountEngine::choice(engine))?;
    let lex = break_symmetry == Some("lex");
    // Options that would change nothing ([`queens_sat::applies`]), as `queens-sat count`
    // checks them: `amo=` against the engine that runs (auto's choice included), or the one of
    // the two under `cross_check=True` that encodes.
    {
        use queens_sat::applies::{Command, Given, check};
        use queens_sat::error::Opt;
        py_ok(check(
            Command::Count,
            &Given::new()
                .value(Opt::Engine, engine_name)
                .maybe(Opt::Jobs, jobs.map(|j| j.to_string()))
                .maybe(Opt::Amo, amo),
        ))?;
    }
    let timeout = args::timeout(timeout_secs)?;
    let jobs = py_ok(queens_sat::options::jobs(jobs))?;
    let counter = work::Progress::default();
    let tracked = progress.as_ref().map(|cb| (&counter, cb));
    let outcome = work::run_with(py, tracked, cancel.as_deref(), |cancel| {
        let progress = |done: usize, total: usize| counter.update(done, total);
        let mut count = Counter::new(inst, piece)
            .engine(engine)
            .symmetric(parsed.options.symmetric)
            .lex(lex)
            .cross_check(cross_check)
            .jobs(jobs)
            .timeout(timeout.as_ref().map(|t| t.0))
            .cancel(cancel.clone())
            .progress(&progress);
        // `amo=` shapes the SAT engines' CNF only: the counter refuses it with an engine that
        // encodes nothing (auto's choice included).
        if amo.is_some() {
            count = count.amo(parsed.options.amo);
        }
        count.run()
    })?;
    let report = match outcome {
        count::CountOutcome::Counted(r) => r,
        count::CountOutcome::TimeLimit(_) => {
            let value = timeout.map(|t| t.1).unwrap_or_default();
            return Err(errors::time_limit(py, &value)?);
        }
    };
    let fixed_points = PyDict::new(py);
    let total = match report.counts().filter(|_| !report.lex) {
        Some(c) => {
            for (g, f) in c.group.iter().zip(&c.fixed) {
                fixed_points.set_item(g.name(), f)?;
            }
            Some(c.total)
        }
        None => None,
    };
    Ok(PyCounts {
        total,
        unique: report.unique(),
        fixed_points: fixed_points.unbind(),
        group: report.group.iter().map(|g| g.name().to_string()).collect(),
        symmetric: report.symmetric.map(|g| g.name().to_string()),
        method: report.method_name(),
        engine: report.engine_name(),
        seconds: report.seconds(),
    })
}

/// A library message in Python's words ([`errors::python_words`]), for the tests.
#[pyfunction]
fn _python_words(msg: &str) -> String {
    errors::python_words(msg)
}

#[pyfunction]
fn verify(board: &PyBoard, instance: &PyInstance) -> PyResult<()> {
    queens_sat::verify::check(&board.board, &instance.inner, instance.piece)
        .map_err(|v| errors::verify_error(&v))
}

/// A generated instance with the CLI's comment (`queens-sat VERSION generate ...`).
fn generated(
    py: Python<'_>,
    generator: Generator,
    n: u32,
    seed: u64,
    command: String,
    format: InstanceFormat,
) -> PyResult<PyInstance> {
    let inner = py_ok(py.detach(|| generator.instance(n, seed)))?;
    let mut comment = format!(
        "queens-sat {} generate {command} --seed {seed} (ChaCha8 seed {seed})",
        env!("CARGO_PKG_VERSION")
    );
    if let Generator::Diagonals { .. } = generator {
        comment += "\nevery prefix is an instance: --diags D takes the first D";
    }
    Ok(PyInstance {
        inner,
        piece: queens_sat::piece::QUEEN,
        origin: Some((comment, format)),
    })
}

#[pyfunction]
fn generate_completion(
    py: Python<'_>,
    n: &Bound<'_, PyAny>,
    m: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
) -> PyResult<PyInstance> {
    let (n, m, seed) = (args::side(n)?, args::count_arg(m, "m")?, args::seed(seed)?);
    let command = format!("completion -n {n} -m {m}");
    generated(
        py,
        Generator::Completion { m },
        n,
        seed,
        command,
        InstanceFormat::Param,
    )
}

#[pyfunction]
fn generate_blocked(
    py: Python<'_>,
    n: &Bound<'_, PyAny>,
    m: &Bound<'_, PyAny>,
    min_free: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
) -> PyResult<PyInstance> {
    let (n, m, seed) = (args::side(n)?, args::count_arg(m, "m")?, args::seed(seed)?);
    let min_free = args::count_arg(min_free, "min_free")?;
    let command = format!("blocked -n {n} -m {m} --min-free {min_free}");
    let generator = Generator::Blocked { m, min_free };
    generated(py, generator, n, seed, command, InstanceFormat::Param)
}

#[pyfunction]
fn generate_diagonals(
    py: Python<'_>,
    n: &Bound<'_, PyAny>,
    min_free: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
) -> PyResult<PyInstance> {
    let (n, seed) = (args::side(n)?, args::seed(seed)?);
    let min_free = args::count_arg(min_free, "min_free")?;
    let command = format!("diagonals -n {n} --min-free {min_free}");
    let generator = Generator::Diagonals {
        min_free,
        diags: None,
        to_completion: false,
    };
    generated(py, generator, n, seed, command, InstanceFormat::Diags)
}

/// The names every option takes (`amo`, `implied`, `symmetric`, `break_symmetry`, `piece`,
/// `engine`, from the library's vocabulary) and the export formats (`format`).
#[pyfunction]
fn names(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    for (option, values) in queens_sat::options::names() {
        d.set_item(option, values)?;
    }
    d.set_item(
        "format",
        export::Format::ALL
            .iter()
            .map(|f| f.name())
            .collect::<Vec<_>>(),
    )?;
    Ok(d)
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("MAX_N", MAX_N)?;
    m.add("DEFAULT_AMO", AmoKind::DEFAULT.name())?;
    m.add_class::<PyInstance>()?;
    m.add_class::<PyBoard>()?;
    m.add_class::<PyFormula>()?;
    m.add_class::<PyCounts>()?;
    m.add_class::<cancel::PyCancel>()?;
    m.add_class::<solving::PyResult_>()?;
    m.add_class::<plan::PyPlan>()?;
    m.add_class::<solutions::PySolutions>()?;
    m.add_function(wrap_pyfunction!(encode, m)?)?;
    m.add_function(wrap_pyfunction!(count_instance, m)?)?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    m.add_function(wrap_pyfunction!(solving::solve, m)?)?;
    m.add_function(wrap_pyfunction!(solving::plan, m)?)?;
    m.add_function(wrap_pyfunction!(solutions::solutions, m)?)?;
    m.add_function(wrap_pyfunction!(generate_completion, m)?)?;
    m.add_function(wrap_pyfunction!(generate_blocked, m)?)?;
    m.add_function(wrap_pyfunction!(generate_diagonals, m)?)?;
    m.add_function(wrap_pyfunction!(names, m)?)?;
    m.add_function(wrap_pyfunction!(_python_words, m)?)?;
    Ok(())
}
