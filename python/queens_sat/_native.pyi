"""Type stubs of the Rust extension module (queens_sat._native); use it through queens_sat.

Checked against the built module by ``mypy.stubtest`` (``python/run-tests.sh``), so the stubs
and the runtime cannot drift. The classes are ``@final``: PyO3 classes cannot be subclassed.
"""

from array import array
from os import PathLike
from typing import (
    Any,
    Callable,
    Dict,
    Iterator,
    List,
    Mapping,
    Optional,
    Sequence,
    SupportsIndex,
    Tuple,
    Union,
    final,
    overload,
)

import numpy
import numpy.typing

from ._typing import PySatCNF
from ._options import DiagonalKind, ExportFormat, InstanceFormat, PieceName
from ._status import Status

__all__ = [
    "__version__",
    "MAX_N",
    "DEFAULT_AMO",
    "Instance",
    "Board",
    "Formula",
    "Counts",
    "Cancel",
    "Result",
    "Plan",
    "Solutions",
    "encode",
    "count",
    "verify",
    "solve",
    "plan",
    "solutions",
    "generate_completion",
    "generate_blocked",
    "generate_diagonals",
    "names",
    "_python_words",
]

__version__: str
MAX_N: int
DEFAULT_AMO: str

_Cell = Tuple[int, int]
_StrPath = Union[str, "PathLike[str]"]

@final
class Instance:
    """An instance: board side, piece, pre-placed pieces, blocked cells, excluded diagonals.

    Cells are ``(row, col)``, 0-based. ``placed``, ``blocked`` and ``excluded`` are sets: they
    are kept sorted, a repeated entry is merged (a cell given twice in ``placed`` is one piece),
    and two instances are equal (and hash alike) whatever the order of their lists. A
    pre-placed piece on a blocked cell or an excluded diagonal raises ``UsageError`` naming the
    argument (``.argument``, ``.value``); pre-placed pieces that attack each other are a valid
    instance that solves UNSAT, with the reason in ``Result.reason``.

    ``excluded`` lists diagonals as ``(kind, k)`` with ``k`` in ``0..=2n-2``:
    ``('anti-diagonal', k)`` is the sum diagonal of the cells with ``row + col == k`` (k = 0 is
    the corner cell (0, 0)), and ``('diagonal', k)`` the difference diagonal of the cells with
    ``row - col == k - (n - 1)`` (k = 0 is the corner cell (0, n-1), k = n - 1 the main
    diagonal); csplib's ``[k, 1]`` and ``[k, 0]``.
    """

    def __new__(
        cls,
        n: int,
        piece: PieceName = "queen",
        placed: Sequence[_Cell] = (),
        blocked: Sequence[_Cell] = (),
        excluded: Sequence[Tuple[DiagonalKind, int]] = (),
    ) -> Instance: ...
    @staticmethod
    def read(path: _StrPath, *, piece: Optional[PieceName] = None, diags: Optional[int] = None) -> Instance:
        """Reads an instance file in any format the CLI reads. ``piece`` defaults to the file's
        ``# piece:`` header, else the queen; one that differs from the header's is refused."""
    @staticmethod
    def parse(
        text: str, *, piece: Optional[PieceName] = None, diags: Optional[int] = None, name: str = "<input>"
    ) -> Instance:
        """Parses instance text in any format the CLI reads (``piece`` as in ``read``):
        ``Instance.parse(i.to_text()) == i`` for every instance."""
    @property
    def n(self) -> int:
        """The board side: the board has ``n`` rows and ``n`` columns, numbered ``0..n``."""
    @property
    def piece(self) -> PieceName:
        """The piece placed on every row: ``'queen'`` or ``'amazon'`` (a queen that also moves
        as a knight)."""
    @property
    def placed(self) -> List[_Cell]:
        """The pre-placed pieces, sorted row-major (a set: each once)."""
    @property
    def blocked(self) -> List[_Cell]:
        """The blocked cells, sorted row-major (a set: each once)."""
    @property
    def excluded(self) -> List[Tuple[DiagonalKind, int]]:
        """The excluded diagonals as ``(kind, k)``, sorted by ``(k, kind)`` (a set: each once),
        with ``k`` in ``0..=2n-2``: ``('anti-diagonal', k)`` is the sum diagonal
        ``row + col == k``, ``('diagonal', k)`` the difference diagonal
        ``row - col == k - (n - 1)``."""
    @property
    def default_format(self) -> InstanceFormat:
        """The generator's default format (``param`` or ``diags``), or ``board``."""
    def with_piece(self, piece: PieceName) -> Instance:
        """The same instance with another piece."""
    @staticmethod
    def from_numpy(array: Any, *, piece: PieceName = "queen") -> Instance:
        """The instance of a square array of cell codes: 0 free, 1 pre-placed piece, 2 blocked."""
    def to_numpy(self) -> numpy.typing.NDArray[numpy.uint8]:
        """The cells as an ``(n, n)`` ``uint8`` array: 0 free, 1 pre-placed piece, 2 blocked (a
        cell of an excluded diagonal is blocked)."""
    def to_text(self, format: Optional[InstanceFormat] = None) -> str:
        """The instance as file text: ``board``, ``param`` or ``diags`` (default: the
        generator's format for generated instances, with the CLI's comment, else ``board``)."""
    def symmetries(self) -> List[str]:
        """The symmetries of the board that map the instance to itself (identity first)."""
    def _repr_svg_(self) -> Optional[str]:
        """The empty instance drawn as SVG (pre-placed pieces, blocked cells, excluded
        diagonals); None past n = 1,024, the command line's limit for SVG."""
    def _repr_html_(self) -> Optional[str]:
        """A short note for an instance too large to draw (n > 1,024), else None."""
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Board:
    """A placement of pieces: a solver's verified answer, or a board built for verify().

    Iterating over a board yields its pieces as ``(row, col)`` tuples; boards pickle (with the
    instance they answer) and show themselves in Jupyter as SVG.
    """

    def __new__(cls, n: int, pieces: Sequence[_Cell]) -> Board: ...
    @staticmethod
    def from_numpy(array: Any) -> Board:
        """The board of a square 0/1 array with a 1 on every piece (``to_numpy``'s inverse)."""
    @staticmethod
    def from_columns(columns: Sequence[Optional[int]]) -> Board:
        """The board with one piece per row, in column ``columns[row]`` (``None``: an empty
        row)."""
    @property
    def n(self) -> int:
        """The board side."""
    @property
    def pieces(self) -> List[_Cell]:
        """The pieces as ``(row, col)`` cells, 0-based."""
    @property
    def columns(self) -> List[Optional[int]]:
        """The column of each row's piece (``None`` for a row without one; the first if
        several)."""
    @property
    def instance(self) -> Optional[Instance]:
        """The instance this board answers, if known."""
    def to_numpy(self) -> numpy.typing.NDArray[numpy.uint8]:
        """A 0/1 ``numpy`` array of shape ``(n, n)`` with a 1 on every piece."""
    def _repr_svg_(self) -> Optional[str]:
        """The board as SVG, as ``solve --format svg`` draws it; None past n = 1,024, the
        command line's limit for SVG."""
    def _repr_html_(self) -> Optional[str]:
        """A short note for a board too large to draw (n > 1,024), else None."""
    @overload
    def __getitem__(self, key: SupportsIndex, /) -> Optional[int]:
        """``board[row]``: the column of the row's piece, as ``columns[row]``."""
    @overload
    def __getitem__(self, key: Tuple[SupportsIndex, SupportsIndex], /) -> bool:
        """``board[row, col]``: whether a piece stands on the cell."""
    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[_Cell]:
        """The pieces as ``(row, col)`` tuples, in the order of ``pieces``."""
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Formula:
    """A CNF of an instance in memory, with the map between cells and variables.

    Formulas pickle (for process pools): the instance, the arguments of ``encode`` and the
    clauses travel; unpickling presolves again but does not re-encode.
    """

    @property
    def num_vars(self) -> int:
        """Variables of the CNF (the DIMACS header's), cell variables first, then
        auxiliaries."""
    @property
    def num_clauses(self) -> int:
        """Clauses of the CNF (the DIMACS header's)."""
    @property
    def num_literals(self) -> int:
        """Literal occurrences over all clauses."""
    @property
    def num_cells(self) -> int:
        """Variables of board cells (``1..=num_cells``); auxiliaries follow them."""
    @property
    def amo(self) -> str:
        """The at-most-one encoding used (``NAME:G`` for a group size other than the
        default)."""
    @property
    def instance(self) -> Instance:
        """The instance encoded."""
    @property
    def presolve_unsat(self) -> Optional[str]:
        """Why presolve proved the instance UNSAT (the CNF is then a fixed contradiction)."""
    @property
    def clauses(self) -> List[List[int]]:
        """The clauses, a list of lists of DIMACS literals."""
    def to_array(self) -> array[int]:
        """The literals of every clause one after another, each clause ended by a 0 (the
        DIMACS body), as a flat ``array('i')``."""
    def to_pysat(self) -> PySatCNF:
        """A ``pysat.formula.CNF`` with these clauses (no copy of the lists is made by
        PySAT)."""
    def write(
        self, path: _StrPath, format: ExportFormat = "dimacs", level: Optional[int] = None
    ) -> None:
        """Writes the formula (``dimacs``), or the instance's ``opb``, ``lp`` or ``mzn``
        model, with the CLI's header; a name ending in ``.xz``, ``.gz`` or ``.zst`` is
        compressed. The other formats state each line's at-most-one directly, so a formula
        encoded with an ``amo`` other than the default is refused there (``UsageError`` naming
        ``amo``)."""
    @property
    def gbdhash(self) -> str:
        """The GBD hash of the formula's DIMACS text."""
    def var(self, row: int, col: int) -> Optional[int]:
        """The variable of cell ``(row, col)``, or ``None`` when presolve removed the cell."""
    def cell(self, var: int) -> Optional[_Cell]:
        """The cell ``(row, col)`` of variable ``var`` (``1..=num_vars``), or ``None`` for an
        auxiliary variable (above ``num_cells``); any other ``var`` raises ``UsageError``."""
    def decode(self, model: Sequence[int]) -> Board:
        """The verified board of a model (DIMACS literals, as PySAT's ``get_model()``; positive
        ones are true). A literal that is 0 or beyond ``num_vars`` raises ``UsageError``; a
        non-solution ``VerifyError``."""
    def __len__(self) -> int: ...

@final
class Counts:
    """Solution counts: total, unique (Burnside) and fixed points per symmetry.

    Counts pickle (for process pools) and show themselves in Jupyter as a small HTML table.
    """

    @property
    def total(self) -> Optional[int]:
        """Solutions (with ``symmetric=``: the solutions that symmetry maps to themselves);
        None for a lex-leader count (``break_symmetry="lex"``), which sees one per class."""
    @property
    def unique(self) -> int:
        """Classes of the counted solutions modulo ``group`` (Burnside, or lex-leader boards
        counted directly)."""
    @property
    def fixed_points(self) -> Mapping[str, int]:
        """Counted solutions each element of ``group`` maps to themselves, by name (empty for a
        lex-leader count): a read-only mapping (``types.MappingProxyType``), so that frozen,
        hashable counts cannot change; ``dict(c.fixed_points)`` is a copy to change."""
    @property
    def group(self) -> List[str]:
        """The group of the classes, identity first: the instance's symmetries (with
        ``symmetric=g``, those that map ``<g>`` onto itself)."""
    @property
    def symmetric(self) -> Optional[str]:
        """``symmetric=`` as given."""
    @property
    def method(self) -> str:
        """How the classes were counted: ``burnside``, ``lex-leader``, or two joined by ``+``."""
    @property
    def engine(self) -> str:
        """The engine that counted, or the two joined by ``+`` under ``cross_check=True``."""
    @property
    def seconds(self) -> float:
        """Seconds spent counting."""
    def to_dict(self) -> Dict[str, Any]:
        """Every field as a plain dict: ``total``, ``unique``, ``fixed_points`` (a dict of its
        own), ``group``, ``symmetric``, ``method``, ``engine``, ``seconds``."""
    def _repr_html_(self) -> str:
        """An HTML table of the total, the unique count and the fixed points (Jupyter)."""
    def __eq__(self, value: object, /) -> bool:
        """Equal numbers (total, unique, fixed points) of the same group and ``symmetric``;
        ``symmetric="id"`` (every board) equals no ``symmetric``."""
    def __hash__(self) -> int: ...

@final
class Cancel:
    """A token that cancels the calls it is passed to (``cancel=``), from any thread or task."""

    def __new__(cls) -> Cancel: ...
    def cancel(self) -> None:
        """Raises the token: every call holding it raises ``CancelledError``."""
    @property
    def cancelled(self) -> bool:
        """True once ``cancel()`` was called."""

@final
class Result:
    """The answer of solve(): status, verified board, and the fields of solve --format json.

    Results pickle (for process pools; a SAT board is verified again on unpickling). In
    Jupyter a SAT result shows its board as SVG, any other its verdict and reason as HTML.
    """

    @property
    def status(self) -> Status:
        """``Status.SAT``, ``Status.UNSAT`` or ``Status.UNKNOWN``."""
    @property
    def board(self) -> Optional[Board]:
        """The verified board when SAT, else ``None``."""
    @property
    def reason(self) -> Optional[str]:
        """Why the answer is UNKNOWN, or why presolve proved UNSAT (pre-placed pieces that
        attack each other, a line left without a free cell); None otherwise."""
    @property
    def instance(self) -> Instance:
        """The instance solved."""
    @property
    def solver(self) -> str:
        """The solver that answered, as ``solve --format json`` names it."""
    @property
    def amo(self) -> str:
        """The at-most-one encoding of the instance's CNF (``amo=``), whichever solver
        answered."""
    @property
    def vars(self) -> Optional[int]:
        """Variables of the instance's CNF under these options, or None when the size was not
        counted (``size_omitted`` says why)."""
    @property
    def clauses(self) -> Optional[int]:
        """Clauses of the instance's CNF under these options, or None when the size was not
        counted (``size_omitted`` says why)."""
    @property
    def size_omitted(self) -> Optional[str]:
        """Why ``vars`` and ``clauses`` are None: the CNF's size was not counted (past the
        DIMACS variable limit, n > 46,340 on a plain board, which the construction answers
        without a CNF). None when they hold the size; ``to_dict()`` says the same."""
    @property
    def encode_seconds(self) -> float:
        """Seconds spent presolving and encoding."""
    @property
    def solve_seconds(self) -> float:
        """Seconds spent solving (and verifying the board)."""
    @property
    def seconds(self) -> float:
        """Seconds in all, ``encode_seconds + solve_seconds`` (the repr's ``seconds=``)."""
    @property
    def certified(self) -> Optional[str]:
        """Who checked the refutation of a certified UNSAT."""
    @property
    def plan(self) -> Optional[Plan]:
        """The plan the solve ran (what ``plan(...)`` gives for the same arguments; the
        ``plan`` field of ``to_dict()``), or None where the time limit stopped it before the
        plan was decided."""
    def to_json(self) -> str:
        """The record ``solve --format json`` prints, as JSON text."""
    def to_dict(self) -> Dict[str, Any]:
        """The record ``solve --format json`` prints, as a dict."""
    def _repr_svg_(self) -> Optional[str]:
        """The verified board as SVG when SAT (Jupyter), else None; None too for a board past
        n = 1,024, the command line's limit for SVG."""
    def _repr_html_(self) -> Optional[str]:
        """The verdict and its reason as HTML when not SAT (Jupyter); for a SAT board past
        n = 1,024 a short note that it is too large to draw; else None."""
    def __bool__(self) -> bool: ...
    def __eq__(self, value: object, /) -> bool:
        """The same status, instance (with its piece) and board."""
    def __hash__(self) -> int: ...

@final
class Plan:
    """What a solve will do, decided without solving (``queens-sat solve --explain``).

    ``str(plan)`` is the text ``solve --explain`` prints, ``to_dict()`` the JSON of ``solve
    --explain --format json`` (the ``plan`` field of a solve's record), ``engines`` the engines
    it may run. Built by ``plan(...)`` and held by ``Result.plan``; equal when their JSON is;
    plans pickle.
    """

    @property
    def step(self) -> str:
        """The kind of the first step: ``run``, ``portfolio``, ``construct``, ``prepass``,
        ``race``, ``cubes`` or ``presolved`` (presolve refuted the instance: UNSAT without a
        search)."""
    @property
    def engines(self) -> List[str]:
        """The engines the plan may run, in the order they appear (``construct`` and ``walk``
        included)."""
    def to_json(self) -> str:
        """The plan as JSON text (``solve --explain --format json``)."""
    def to_dict(self) -> Dict[str, Any]:
        """The plan as a dict, ``{"step": ..., ...}``; the ``plan`` field of
        ``Result.to_dict()``."""
    def __eq__(self, value: object, /) -> bool:
        """The same JSON."""
    def __hash__(self) -> int: ...

def solve(
    instance: Instance,
    solver: str,
    timeout_secs: Optional[float],
    certify: bool,
    jobs_: Optional[int],
    amo: Optional[str],
    implied: Optional[str],
    symmetric: Optional[str],
    break_symmetry: Optional[str],
    deterministic: bool,
    proof: Optional[str],
    proof_format: Optional[str],
    proof_budget: Union[int, str, None],
    cancel: Optional[Cancel],
) -> Result: ...
def plan(
    instance: Instance,
    solver: str,
    timeout_secs: Optional[float],
    certify: bool,
    jobs_: Optional[int],
    amo: Optional[str],
    implied: Optional[str],
    symmetric: Optional[str],
    break_symmetry: Optional[str],
    deterministic: bool,
    proof: Optional[str],
    proof_format: Optional[str],
    proof_budget: Union[int, str, None],
) -> Plan: ...
def encode(
    instance: Instance,
    amo: str,
    implied: Optional[str],
    symmetric: Optional[str],
    break_symmetry: Optional[str],
    presolve: bool,
    cancel: Optional[Cancel],
) -> Formula: ...
def count(
    instance: Instance,
    amo: Optional[str],
    symmetric: Optional[str],
    break_symmetry: Optional[str],
    engine: str,
    cross_check: bool,
    jobs: Optional[int],
    timeout_secs: Optional[float],
    progress: Optional[Callable[[int, int], object]],
    cancel: Optional[Cancel],
) -> Counts: ...
@final
class Solutions:
    """The iterator ``queens_sat.solutions`` returns: verified boards, found lazily.

    Each ``next()`` looks for a pending signal and a raised ``cancel=`` token before it takes a
    board from its buffer, so an interrupt never costs a board and no board comes out after
    ``cancel()``; threads may share one iterator (a lock: each board goes to one of them)."""

    def __iter__(self) -> Solutions: ...
    def __next__(self) -> Board: ...
    @property
    def group(self) -> List[str]: ...
    @property
    def modulo_symmetry(self) -> bool: ...
    @property
    def yielded(self) -> int: ...

def solutions(
    instance: Instance,
    symmetric: Optional[str],
    modulo_symmetry: bool,
    limit: Optional[int],
    timeout_secs: Optional[float],
    cancel: Optional[Cancel],
) -> Solutions: ...
def verify(board: Board, instance: Instance) -> None: ...
def generate_completion(n: int, m: int, seed: int) -> Instance: ...
def generate_blocked(n: int, m: int, min_free: int, seed: int) -> Instance: ...
def generate_diagonals(n: int, min_free: int, seed: int) -> Instance: ...
def names() -> Dict[str, List[str]]: ...
def _python_words(msg: str) -> str:
    """A library message in Python's words: each command-line flag as the keyword argument."""
