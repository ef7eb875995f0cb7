"""queens_sat: N-queens and N-amazons (completion, blocked cells, excluded diagonals) as SAT.

The same library as the ``queens-sat`` command line, from Python: the default solving
strategy, verified boards, exact counts and the exact CNF (for PySAT and friends).

>>> import queens_sat as qs
>>> r = qs.solve(qs.Instance(8))
>>> r.status
<Status.SAT: 'SAT'>
>>> qs.verify(r.board, qs.Instance(8))          # raises VerifyError if it were not a solution
>>> qs.count(qs.Instance(8)).unique
12
>>> f = qs.encode(qs.Instance(8), amo="pairwise")
>>> f.num_vars, f.var(0, 0), f.cell(64)
(64, 1, (7, 7))
>>> list(qs.Board.from_columns([1, 3, 0, 2]))    # a board iterates over its pieces
[(0, 1), (1, 3), (2, 0), (3, 2)]
>>> import pickle                                 # results, counts and formulas pickle
>>> pickle.loads(pickle.dumps(r)).board == r.board
True

Results, counts, formulas, instances and boards pickle, so a ``ProcessPoolExecutor`` can run a
benchmark over processes. In Jupyter, boards, instances and SAT results draw themselves as SVG;
other results show their verdict and reason, and counts a small table (``_repr_html_``).

``solutions`` yields verified boards lazily, all of them or one per symmetry class.

Long calls (``encode``, ``solve``, ``count``, each step of ``solutions``) release the GIL and
stop within a fraction of a second, leaving no thread running: on Ctrl-C, whichever thread runs
them (the main thread's call raises ``KeyboardInterrupt``, a call on any other thread
``CancelledError``), and when the ``Cancel`` token passed as ``cancel=`` is raised, from any
thread or asyncio task (``CancelledError``). See docs/python.md, "Stopping calls", for thread
and process pools.
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import Any, Callable, Optional, Tuple, Union

from . import _args, _native, generate
from ._errors import (
    ArgumentTypeError,
    BudgetExceededError,
    CancelledError,
    Error,
    InternalError,
    IoError,
    NotFoundError,
    ParseError,
    PermissionDeniedError,
    ProofRejectedError,
    SolverError,
    TimeLimitError,
    TooLargeError,
    UsageError,
    VerifyError,
    WrongAnswerError,
)
from ._native import Board, Cancel, Counts, Formula, Instance, Plan, Result, Solutions
from ._options import (
    Amo,
    AmoGroup,
    AmoSpec,
    BreakSymmetry,
    DiagonalKind,
    Engine,
    ExportFormat,
    GroupedAmo,
    Implied,
    InstanceFormat,
    PieceName,
    ProofFormat,
    SymmetryName,
    amo_group,
)
from ._status import Status
from ._typing import PySatCNF

__version__: str = _native.__version__

#: Largest board side.
MAX_N: int = _native.MAX_N

__all__ = [
    "Amo",
    "AmoGroup",
    "AmoSpec",
    "ArgumentTypeError",
    "Board",
    "BreakSymmetry",
    "BudgetExceededError",
    "Cancel",
    "CancelledError",
    "Counts",
    "DiagonalKind",
    "Engine",
    "Error",
    "ExportFormat",
    "Formula",
    "GroupedAmo",
    "Implied",
    "Instance",
    "ProofFormat",
    "InstanceFormat",
    "InternalError",
    "IoError",
    "MAX_N",
    "NotFoundError",
    "ParseError",
    "PermissionDeniedError",
    "ProofRejectedError",
    "PieceName",
    "Plan",
    "PySatCNF",
    "Result",
    "Solutions",
    "SolverError",
    "WrongAnswerError",
    "TimeLimitError",
    "Status",
    "SymmetryName",
    "TooLargeError",
    "UsageError",
    "VerifyError",
    "amo_group",
    "count",
    "encode",
    "generate",
    "plan",
    "solutions",
    "solve",
    "verify",
]

Progress = Union[bool, Callable[[int, int], object], None]


def solve(
    instance: Union[Instance, int],
    *,
    solver: str = "auto",
    timeout: Optional[float] = None,
    certify: bool = False,
    jobs: Optional[int] = None,
    amo: AmoSpec = "auto",
    implied: Optional[Implied] = None,
    symmetric: Optional[SymmetryName] = None,
    break_symmetry: Optional[BreakSymmetry] = None,
    deterministic: bool = False,
    proof: Optional[Union[str, os.PathLike[str]]] = None,
    proof_format: Optional[ProofFormat] = None,
    proof_budget: Optional[Union[int, str]] = None,
    cancel: Optional[Cancel] = None,
) -> Result:
    """Solves ``instance`` like ``queens-sat solve``: a ``Result`` whose ``board`` is verified.

    ``solver`` is any ``--solver`` spec: ``auto`` (the default strategy), ``varisat``,
    ``lib:cadical``, ``lib:kissat``, ``bitboard``, ``walk``, ``construct``, an external solver's name
    or path, or a comma-separated portfolio. ``timeout`` (seconds) works for every solver: past
    it the status is ``UNKNOWN``; ``float('inf')`` is no limit, and a limit below 0.001 s or
    past what a duration holds (about 1.8e19 s) is refused with its own message. ``certify`` accepts UNSAT only with a checked refutation.
    ``jobs`` bounds the threads of the cube solver (default: every core). ``break_symmetry``
    is ``lex`` (lex-leader constraints in the encoding), ``none`` (no symmetry handling, not
    even the default strategy's) or ``cubes`` (the default strategy's cube solver searches
    modulo the instance's symmetries on every instance kind, not only excluded diagonals).
    ``amo`` (``qs.Amo``; ``auto``, the default, leaves the choice to the library) is the
    at-most-one encoding of the CNF a solver is given. Any other value where none is built
    (``solver="bitboard"``, ``"walk"``, ``"construct"``, or the default strategy on a plain
    board, which it answers by the construction) raises ``UsageError`` naming ``amo``, never
    accepted and ignored; so does ``implied`` there, and ``jobs`` with a solver that runs on
    one thread (``varisat``, one ``lib:`` solver, an external program): the command line's
    rules, from the same table.
    ``deterministic=True`` (with ``solver="bitboard"`` only) makes it return, on several ``jobs``, the same board
    on every run. ``proof`` (with ``certify=True``): the bitboard search answers alone, and an
    UNSAT it certifies leaves its checked proof in that file as text LRAT, for the CNF of
    ``encode(instance, amo="pairwise")`` (written whole, and only then); a file named
    ``.pbp`` gets a VeriPB proof over ``encode(instance).write(path, format="opb")``'s model
    instead. ``proof_format`` (with ``certify=True``): ``"lrat"`` or ``"veripb"``, the proof
    the certified bitboard search writes and checks (default: the ``proof`` file's, else
    LRAT); VeriPB keeps the search's sum bounds, parity and forced diagonals. Without ``proof``
    or ``deterministic`` and with ``jobs`` of 4 or more, the certified bitboard search is split
    into cubes on pairs of threads, with a checked proof that the cubes cover the instance.
    The ``proof`` file has a size budget: ``proof_budget`` (with ``proof``; bytes as an int,
    or a size as a str: ``"500M"``, ``"10G"``, ``"2GiB"``, ``"none"`` for no budget), else the
    environment's ``QUEENS_SAT_PROOF_BUDGET`` (the same sizes), else half the free space of
    its folder; a warning goes to stderr past 80 % of it, and past it the call raises
    ``BudgetExceededError`` (a ``TooLargeError``; ``.limit`` is the budget in bytes) and the
    partial proof is removed. Without ``proof``, ``proof_budget`` (with ``certify=True`` and a
    solver that writes DRAT: ``"cadical"``, ``"kissat"``, ``"lib:cadical"``) bounds that
    proof, a temporary file looked at every 50 ms: past it the solver is stopped and the
    call raises ``BudgetExceededError``; with any other solver it is refused. A bad value raises
    ``UsageError`` naming the argument (``timeout=-1 must be ...``). An UNSAT that presolve
    proves (pre-placed pieces that attack each other, a line left without a free cell) comes
    with ``Result.reason`` saying why. ``cancel`` (a ``Cancel``): raising it stops the call,
    which raises ``CancelledError``. ``Result.plan`` is what the solve ran (``plan(...)`` with
    the same arguments says it without solving).

    >>> r = solve(Instance(4, placed=[(0, 0)]))
    >>> r.status, r.board
    (<Status.UNSAT: 'UNSAT'>, None)
    >>> solve(Instance(8, placed=[(0, 0), (3, 3)])).reason
    'pre-placed queens at (0,0) and (3,3) share a diagonal'
    >>> r = solve(Instance(6), solver="varisat", timeout=10)
    >>> r.status is Status.SAT, len(r.board.pieces)
    (True, 6)
    """
    return _native.solve(
        *_solve_request(
            instance,
            solver,
            timeout,
            certify,
            jobs,
            amo,
            implied,
            symmetric,
            break_symmetry,
            deterministic,
            proof,
            proof_format,
            proof_budget,
        ),
        _args.cancel(cancel),
    )


#: The arguments of ``_native.solve`` and ``_native.plan`` (but ``cancel``), read.
_SolveRequest = Tuple[
    Instance,
    str,
    Optional[float],
    bool,
    Optional[int],
    Optional[str],
    Optional[str],
    Optional[str],
    Optional[str],
    bool,
    Optional[str],
    Optional[str],
    Union[int, str, None],
]


def _solve_request(
    instance: object,
    solver: object,
    timeout: object,
    certify: object,
    jobs: object,
    amo: object,
    implied: object,
    symmetric: object,
    break_symmetry: object,
    deterministic: object,
    proof: Optional[Union[str, os.PathLike[str]]],
    proof_format: object,
    proof_budget: object,
) -> _SolveRequest:
    """The keyword arguments ``solve`` and ``plan`` share, read and type-checked in one order
    (the values themselves are the extension's to check), so both refuse the same calls."""
    return (
        _args.instance(instance),
        _args.text("solver", solver),
        _args.seconds("timeout", timeout),
        _args.flag("certify", certify),
        _args.opt_integer("jobs", jobs),
        _args.amo(amo),
        _args.opt_text("implied", implied),
        _args.opt_text("symmetric", symmetric),
        _args.opt_text("break_symmetry", break_symmetry),
        _args.flag("deterministic", deterministic),
        _args.path("proof", proof),
        _args.opt_text("proof_format", proof_format),
        _args.size("proof_budget", proof_budget),
    )


def plan(
    instance: Union[Instance, int],
    *,
    solver: str = "auto",
    timeout: Optional[float] = None,
    certify: bool = False,
    jobs: Optional[int] = None,
    amo: AmoSpec = "auto",
    implied: Optional[Implied] = None,
    symmetric: Optional[SymmetryName] = None,
    break_symmetry: Optional[BreakSymmetry] = None,
    deterministic: bool = False,
    proof: Optional[Union[str, os.PathLike[str]]] = None,
    proof_format: Optional[ProofFormat] = None,
    proof_budget: Optional[Union[int, str]] = None,
) -> Plan:
    """What ``solve`` would do with the same arguments, without solving: a ``Plan``, like
    ``queens-sat solve --explain``.

    The arguments are ``solve``'s but ``cancel``, read and checked as ``solve`` reads them, so
    ``plan`` raises what ``solve`` would raise for them (``UsageError`` naming the argument, an
    option that would change nothing, ...). The instance is presolved (not solved), and the
    plan is decided from it and the arguments alone: no solver runs, nothing is written (not
    even ``proof``), and the same call gives the same plan every time. ``timeout`` matters (the
    default strategy's local search gets a tenth of it, at most one second), and so does
    ``jobs`` (its default, every core: on one core the default strategy races nothing).
    ``str(plan)`` is the text ``--explain`` prints, ``to_dict()`` its JSON (the ``plan`` field
    of ``Result.to_dict()``), and ``engines`` the engines it may run.

    >>> p = plan(Instance(8), jobs=2)                 # a plain board: the construction first
    >>> p.step, p.engines
    ('construct', ['construct', 'bitboard', 'walk', 'lib:cadical'])
    >>> plan(8, solver="varisat").engines
    ['varisat']
    >>> print(plan(8, solver="varisat,lib:cadical", jobs=2))
    a portfolio race of varisat --amo auto, lib:cadical --amo auto (2 threads)
    >>> plan(8, certify=True).to_dict()["unsat_stands"]   # the construction's UNSAT has no proof
    False
    """
    return _native.plan(
        *_solve_request(
            instance,
            solver,
            timeout,
            certify,
            jobs,
            amo,
            implied,
            symmetric,
            break_symmetry,
            deterministic,
            proof,
            proof_format,
            proof_budget,
        )
    )


def encode(
    instance: Union[Instance, int],
    *,
    amo: AmoSpec = "auto",
    implied: Optional[Implied] = None,
    symmetric: Optional[SymmetryName] = None,
    break_symmetry: Optional[BreakSymmetry] = None,
    presolve: bool = True,
    cancel: Optional[Cancel] = None,
) -> Formula:
    """Encodes ``instance`` as CNF, exactly as ``queens-sat encode`` does (same clauses, same
    variable numbering), held in memory.

    ``amo`` is the at-most-one encoding of every row, column and diagonal (``qs.Amo``):
    ``auto`` (the default: chosen per line by its length), ``pairwise`` (binomial, no
    auxiliaries), ``sequential`` (Sinz's counter), ``product`` (Chen's 2-product), ``ladder``
    (Gent and Nightingale), ``commander`` (Klieber and Kwon, groups of 3), ``bimander`` (Nguyen
    and Mai) or ``binary`` (bitwise); ``amo_group("commander", G)`` and ``amo_group("bimander",
    G)`` choose another group size. ``symmetric`` keeps only the boards one symmetry maps to
    themselves; ``break_symmetry="lex"`` keeps one board per class; ``implied="sums"`` adds the
    diagonal-sum constraints; ``presolve=False`` keeps all ``n*n`` cell variables. ``cancel``
    (a ``Cancel``): raising it stops the call, which raises ``CancelledError``.

    >>> f = encode(Instance(4), amo="pairwise")
    >>> f.num_vars, f.num_clauses
    (16, 84)
    >>> f.clauses[0]
    [1, 2, 3, 4]
    >>> f.decode([2, 8, 9, 15]).columns
    [1, 3, 0, 2]
    """
    return _native.encode(
        _args.instance(instance),
        _args.text("amo", amo),
        _args.opt_text("implied", implied),
        _args.opt_text("symmetric", symmetric),
        _args.opt_text("break_symmetry", break_symmetry),
        _args.flag("presolve", presolve),
        _args.cancel(cancel),
    )


def _progress_callback(progress: Progress) -> Optional[Callable[[int, int], object]]:
    """``progress=True``: a tqdm bar when tqdm is installed, else a line on stderr."""
    if callable(progress):
        return progress
    if progress is None or (_args.is_bool(progress) and not progress):
        return None
    if not _args.is_bool(progress):
        raise _args.bad_type("progress", progress, "a callable (done, total), True or None")
    tqdm: Any = None
    try:
        tqdm = importlib.import_module("tqdm").tqdm
    except ImportError:
        pass
    if tqdm is not None:
        bar = tqdm(unit="cube", desc="count")

        def update(done: int, total: int) -> None:
            if bar.total != total:
                bar.total = total
            bar.n = done
            bar.refresh()

        return update

    def line(done: int, total: int) -> None:
        end = "\n" if done >= total else ""
        print(f"\rcount: {done}/{total} cubes", end=end, file=sys.stderr, flush=True)

    return line


def count(
    instance: Union[Instance, int],
    *,
    symmetric: Optional[SymmetryName] = None,
    break_symmetry: Optional[BreakSymmetry] = None,
    engine: Engine = "auto",
    cross_check: bool = False,
    jobs: Optional[int] = None,
    amo: AmoSpec = "auto",
    timeout: Optional[float] = None,
    progress: Progress = None,
    cancel: Optional[Cancel] = None,
) -> Counts:
    """Counts the solutions of ``instance`` like ``queens-sat count``: ``total``, ``unique``
    (classes modulo ``group``, by Burnside's lemma, checked to divide exactly) and
    ``fixed_points`` (solutions each element of ``group`` maps to themselves).

    ``symmetric`` counts only the boards one symmetry g maps to themselves; ``group`` is then
    the instance's symmetries that map ``<g>`` onto itself (all of them for the rotations,
    those among id r180 flip_h flip_v for flip_h / flip_v, among id r180 flip_d flip_a for
    flip_d / flip_a), and ``unique`` the classes of the g-symmetric boards under it.
    ``break_symmetry="lex"`` counts those classes directly, with lex-leader constraints
    (``total`` is then None and ``fixed_points`` empty; the backtrack engine counts them by
    Burnside).

    ``engine`` is ``auto`` (the fastest engine that can count the instance: ``orbits`` for
    ``symmetric="r90"|"r180"|"r270"`` on queens and amazons without blocked cells or excluded
    diagonals; ``backtrack`` wherever it applies, n <= 64 without lex-leader constraints; else
    ``sat``), ``sat`` (cube-and-conquer model counting), ``cdcl``, ``backtrack`` (an
    independent bitboard counter, n <= 64) or ``orbits`` (the boards a rotation fixes, counted
    from its orbits: n <= 128 for r90 / r270, n <= 64 for r180); ``Counts.engine`` names the
    one that ran. ``cross_check=True`` runs a
    second, independent engine (``engine`` then names both, ``"backtrack+sat"``) and raises
    ``SolverError`` if they differ. ``timeout`` (seconds): past it, ``TimeLimitError``.
    ``progress`` is a callable ``(done, total)`` called on this thread as the SAT engines'
    cubes (or the backtrack engine's tasks) finish, or True for a tqdm bar (where tqdm is not
    installed: one line on stderr, rewritten in place with ``\r``, ending with a newline): ``total`` is the
    cubes of every formula the count solves, the same on every call, and ``done`` only grows,
    ending at ``total``. The ``backtrack`` engine reports its tasks of the total, none under
    ``symmetric=``. ``amo`` (``auto``, the default, leaves the choice to the library) shapes
    the CNF of the ``sat`` and ``cdcl`` engines; any other value with an engine that counts
    without one (``backtrack``, ``orbits``, and ``auto`` where it picks them) raises
    ``UsageError`` naming ``amo``. ``jobs`` is a positive number of threads (default: every
    core). ``cancel`` (a ``Cancel``): raising it stops the count, which raises
    ``CancelledError``. A bad value raises ``UsageError`` naming the argument.

    >>> c = count(Instance(8))
    >>> c.total, c.unique, c.fixed_points["r90"], c.engine
    (92, 12, 0, 'backtrack')
    >>> count(Instance(8), symmetric="r180").total
    4
    >>> count(Instance(10), symmetric="r180", break_symmetry="lex", cross_check=True).unique
    3
    """
    inst = _args.instance(instance)
    timeout = _args.seconds("timeout", timeout)
    return _native.count(
        inst,
        _args.amo(amo),
        _args.opt_text("symmetric", symmetric),
        _args.opt_text("break_symmetry", break_symmetry),
        _args.text("engine", engine),
        _args.flag("cross_check", cross_check),
        _args.opt_integer("jobs", jobs),
        timeout,
        _progress_callback(progress),
        _args.cancel(cancel),
    )


def solutions(
    instance: Union[Instance, int],
    *,
    limit: Optional[int] = None,
    modulo_symmetry: bool = False,
    symmetric: Optional[SymmetryName] = None,
    timeout: Optional[float] = None,
    cancel: Optional[Cancel] = None,
) -> Solutions:
    """Yields the solutions of ``instance`` as verified ``Board``s, lazily: each step searches
    only until its next boards (in chunks, with the GIL released; Ctrl-C raises
    ``KeyboardInterrupt`` and the iterator resumes where it stopped, see below), and memory does not grow
    with the boards yielded, so the first board of n = 30 comes at once. Like ``queens-sat
    count --boards K``; n <= 64 (queens and amazons).

    ``limit`` stops after that many boards. ``symmetric`` keeps only the boards one symmetry g
    maps to themselves. ``modulo_symmetry=True`` yields one board per class modulo the group
    ``count`` works modulo (``.group``: the instance's symmetries, under ``symmetric`` those
    that map ``<g>`` onto itself): the class's lex-leader, the board ``break_symmetry="lex"``
    keeps (the least column sequence, row 0 first), so as many boards as ``count(...).unique``.
    The order is the search's (the same on every run), not sorted. ``timeout`` (seconds of
    search, over every step together): past it, ``TimeLimitError`` after the boards found
    before it. ``cancel`` (a ``Cancel``): raising it stops the current step, which raises
    ``CancelledError``, and so does every later ``next()``: no board found before it comes
    out. A bad value raises ``UsageError`` naming the argument.

    Interrupts: each ``next()`` looks for a pending signal before it takes a board from its
    buffer, and its search step looks at every poll, so a Ctrl-C raises ``KeyboardInterrupt``
    (on the main thread) either before a board is handed out or not at all: the board stays
    for the next ``next()``, and an interrupted loop that goes on loses none. Off the main
    thread, a Ctrl-C during a step or between two steps raises ``CancelledError`` from the
    next one. The iterator may be shared between threads: each ``next()`` takes the next
    board, never one another thread got.

    >>> boards = list(solutions(Instance(6)))
    >>> len(boards), list(boards[0])
    (4, [(0, 1), (1, 3), (2, 5), (3, 0), (4, 2), (5, 4)])
    >>> len(list(solutions(8, modulo_symmetry=True))), count(8).unique
    (12, 12)
    >>> first = next(solutions(30, modulo_symmetry=True))   # n = 30: at once
    >>> verify(first, Instance(30))
    >>> [len(list(b)) for b in solutions(30, limit=2)]
    [30, 30]
    """
    inst = _args.instance(instance)
    limit = _args.opt_integer("limit", limit)
    flag = _args.flag("modulo_symmetry", modulo_symmetry)
    timeout = _args.seconds("timeout", timeout)
    return _native.solutions(
        inst, _args.opt_text("symmetric", symmetric), flag, limit, timeout, _args.cancel(cancel)
    )


def verify(board: Board, instance: Union[Instance, int]) -> None:
    """Checks that ``board`` is a complete solution of ``instance``; raises ``VerifyError``
    with the first violation (``.cells`` holds the cells at fault).

    >>> verify(Board.from_columns([1, 3, 0, 2]), Instance(4))
    >>> try:
    ...     verify(Board.from_columns([0, 2, 1, 3]), Instance(4))
    ... except VerifyError as e:
    ...     print(e, e.cells)
    queens at (0,0) and (3,3) share a diagonal [(0, 0), (3, 3)]
    """
    if not isinstance(board, Board):
        raise _args.bad_type("board", board, "a queens_sat.Board")
    _native.verify(board, _args.instance(instance))

