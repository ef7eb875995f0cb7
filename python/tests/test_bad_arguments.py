"""Every public callable, given each kind of bad argument (issue 45 §2): a negative int, an int
too large for any machine type, a wrong type, an unknown name, an empty string.

Each row expects an exception of the package's own classes (``queens_sat.Error``), worded in
Python's terms: ``.argument`` is the Python argument's name, ``.value`` the value as Python
writes it, the one-line message names both, and no command-line flag (``--solver``, ``-m``)
appears. The table must cover every public callable: a new function, method or constructor
in ``queens_sat.__all__`` without a row fails ``test_every_public_callable_has_rows``.
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path
from typing import Callable, Dict, List, NamedTuple, Optional, Set, Type

import pytest

import queens_sat as qs
from queens_sat import generate

HUGE = 2**70  # too large for a C long, an unsigned 64-bit int and a usize
DIAGS = generate.diagonals(8, min_free=1, seed=1).to_text()  # 19 excluded diagonals


class Row(NamedTuple):
    """One bad call: the public callable it covers, the call, and what it must raise."""

    target: str
    call: Callable[[], object]
    error: Type[qs.Error]
    argument: str
    value: str
    #: A part of the message that says the rule (besides ``argument`` and ``value``).
    rule: str = ""


def f4() -> qs.Formula:
    return qs.encode(qs.Instance(4), amo="pairwise")


U, T = qs.UsageError, qs.ArgumentTypeError

ROWS: List[Row] = [
    # amo_group
    Row("amo_group", lambda: qs.amo_group("pairwise", 4), U, "name", "'pairwise'", "takes no group size"),  # type: ignore[arg-type]
    Row("amo_group", lambda: qs.amo_group("commander", 1), U, "size", "1", "2..=64"),
    Row("amo_group", lambda: qs.amo_group("bimander", 65), U, "size", "65", "1..=64"),
    Row("amo_group", lambda: qs.amo_group("commander", "4"), T, "size", "'4'", "must be an int"),  # type: ignore[arg-type]
    # solve
    Row("solve", lambda: qs.solve(8, jobs=-1), U, "jobs", "-1", "positive number of threads"),
    Row("solve", lambda: qs.solve(8, jobs=HUGE), U, "jobs", str(HUGE)),
    Row("solve", lambda: qs.solve(8, jobs="4"), T, "jobs", "'4'", "must be an int"),  # type: ignore[arg-type]
    Row("solve", lambda: qs.solve(8, solver=""), U, "solver", "''", "lib:cadical"),
    Row("solve", lambda: qs.solve(8, solver="nosuch"), U, "solver", "'nosuch'", "varisat"),
    Row("solve", lambda: qs.solve(8, solver=5), T, "solver", "5"),  # type: ignore[arg-type]
    Row("solve", lambda: qs.solve(8, solver="varisat,"), U, "solver", "'varisat,'", "empty entry"),
    Row("solve", lambda: qs.solve(8, solver="varisat amo"), U, "solver", "'varisat amo'", "not a solver name"),
    Row("solve", lambda: qs.solve(8, timeout=-1), U, "timeout", "-1", "positive number of seconds"),
    Row("solve", lambda: qs.solve(8, deterministic=True), U, "deterministic", "True", "solver='auto'"),
    Row("solve", lambda: qs.solve(8, timeout=10**400), U, "timeout", repr(10**400)[:40] + "..."),
    Row("solve", lambda: qs.solve(8, timeout="5"), T, "timeout", "'5'"),  # type: ignore[arg-type]
    Row("solve", lambda: qs.solve(8, amo=""), U, "amo", "''", "known: pairwise"),
    Row("solve", lambda: qs.solve(8, amo="pairwse"), U, "amo", "'pairwse'", "known: pairwise"),
    Row("solve", lambda: qs.solve(8, implied="all"), U, "implied", "'all'"),  # type: ignore[arg-type]
    Row("solve", lambda: qs.solve(8, symmetric=""), U, "symmetric", "''"),  # type: ignore[arg-type]
    Row("solve", lambda: qs.solve(8, break_symmetry="sort"), U, "break_symmetry", "'sort'"),  # type: ignore[arg-type]
    Row("solve", lambda: qs.solve(8, proof="x.lrat"), U, "proof", "'x.lrat'", "needs certify"),
    Row("solve", lambda: qs.solve(8, proof=3), T, "proof", "3", "a path"),  # type: ignore[arg-type]
    Row("solve", lambda: qs.solve(3, proof_format="veripb"), U, "proof_format", "'veripb'", "needs certify"),
    Row("solve", lambda: qs.solve(3, certify=True, proof_format="drat"), U, "proof_format", "'drat'", "lrat, veripb"),  # type: ignore[arg-type]
    Row("solve", lambda: qs.solve(3, certify=True, proof="p.pbp", proof_format="lrat"), U, "proof_format", "'lrat'", "p.pbp"),
    Row("solve", lambda: qs.solve(3, certify=True, proof_format=1), T, "proof_format", "1", "a str"),  # type: ignore[arg-type]
    Row("solve", lambda: qs.solve(3, proof_budget="10G"), U, "proof_budget", "'10G'", "needs proof"),
    Row("solve", lambda: qs.solve(9, certify=True, solver="varisat", proof_budget=10**6), U, "proof_budget", "1000000", "needs proof"),
    Row("solve", lambda: qs.solve(3, certify=True, proof="p.lrat", proof_budget="lots"), U, "proof_budget", "'lots'", "is not a size"),
    Row("solve", lambda: qs.solve(3, certify=True, proof="p.lrat", proof_budget="0"), U, "proof_budget", "'0'", "at least one byte"),
    Row("solve", lambda: qs.solve(3, certify=True, proof="p.lrat", proof_budget=0), U, "proof_budget", "0", "1..=2**64-1"),
    Row("solve", lambda: qs.solve(3, certify=True, proof="p.lrat", proof_budget=1.5), T, "proof_budget", "1.5", "number of bytes"),  # type: ignore[arg-type]
    Row("solve", lambda: qs.solve(3, certify=True, proof="p.lrat", proof_budget=True), T, "proof_budget", "True", "number of bytes"),
    Row("solve", lambda: qs.solve(-1), U, "n", "-1", "out of range"),
    Row("solve", lambda: qs.solve(HUGE), U, "n", str(HUGE), "out of range"),
    Row("solve", lambda: qs.solve("8"), T, "instance", "'8'"),  # type: ignore[arg-type]
    # encode
    Row("encode", lambda: qs.encode(8, amo=""), U, "amo", "''"),
    Row("encode", lambda: qs.encode(8, amo="commander:-1"), U, "amo", "'commander:-1'"),
    Row("encode", lambda: qs.encode(8, amo=3), T, "amo", "3"),  # type: ignore[arg-type]
    Row("encode", lambda: qs.encode(8, implied=5), T, "implied", "5"),  # type: ignore[arg-type]
    Row("encode", lambda: qs.encode(8, symmetric="r45"), U, "symmetric", "'r45'"),  # type: ignore[arg-type]
    Row("encode", lambda: qs.encode(8, break_symmetry=""), U, "break_symmetry", "''"),  # type: ignore[arg-type]
    Row("encode", lambda: qs.encode(8, break_symmetry="cubes"), U, "break_symmetry", "'cubes'"),
    Row("encode", lambda: qs.encode(0), U, "n", "0"),
    # count
    Row("count", lambda: qs.count(8, jobs=-1), U, "jobs", "-1", "positive number of threads"),
    Row("solve", lambda: qs.solve(12, solver="bitboard", symmetric="r90"), U, "solver", "'bitboard'", "symmetric='r90'"),
    Row("solve", lambda: qs.solve(12, solver="walk", break_symmetry="lex"), U, "solver", "'walk'", "break_symmetry='lex'"),
    Row("solutions", lambda: qs.solutions(8, limit=-1), U, "limit", "-1", "0 or more"),
    Row("solutions", lambda: qs.solutions(8, cancel=0), T, "cancel", "0", "Cancel"),  # type: ignore[arg-type]
    Row("count", lambda: qs.count(8, cancel=True), T, "cancel", "True", "Cancel"),  # type: ignore[arg-type]
    Row("solve", lambda: qs.solve(8, cancel=1), T, "cancel", "1", "Cancel"),  # type: ignore[arg-type]
    # plan: solve's arguments read by the same code (test_plan.py compares every solve row)
    Row("plan", lambda: qs.plan(8, jobs=-1), U, "jobs", "-1", "positive number of threads"),
    Row("plan", lambda: qs.plan(8, solver="varisat", jobs=2), U, "jobs", "2", "solver='varisat'"),
    Row("plan", lambda: qs.plan(8, timeout="5"), T, "timeout", "'5'"),  # type: ignore[arg-type]
    Row("plan", lambda: qs.plan(8, amo="pairwse"), U, "amo", "'pairwse'", "known: pairwise"),
    Row("plan", lambda: qs.plan(8, proof="x.lrat"), U, "proof", "'x.lrat'", "needs certify"),
    Row("plan", lambda: qs.plan(9, certify=True, solver="varisat", proof_budget=10**6), U, "proof_budget", "1000000", "needs proof"),
    Row("plan", lambda: qs.plan("8"), T, "instance", "'8'"),  # type: ignore[arg-type]
    Row("encode", lambda: qs.encode(8, cancel="x"), T, "cancel", "'x'", "Cancel"),  # type: ignore[arg-type]
    Row("Board.from_numpy", lambda: qs.Board.from_numpy([[0, 1, 0]]), U, "array", "[[0, 1, 0]]", "(n, n) array"),
    Row("Board.from_numpy", lambda: qs.Board.from_numpy([[0, 3], [0, 0]]), U, "array", "[[0, 3], [0, 0]]", "holds [3]"),
    Row("Board.from_numpy", lambda: qs.Board.from_numpy([[0.5]]), U, "array", "[[0.5]]", "as ints or bools"),
    Row("Instance.from_numpy", lambda: qs.Instance.from_numpy([[0, 5], [0, 0]]), U, "array", "[[0, 5], [0, 0]]", "2 a blocked cell"),
    Row("Instance.from_numpy", lambda: qs.Instance.from_numpy([[0]], piece="rook"), U, "piece", "'rook'", "known"),  # type: ignore[arg-type]
    Row("Instance", lambda: qs.Instance(True), T, "n", "True", "must be an int"),  # type: ignore[arg-type]
    Row("count", lambda: qs.count(8, jobs=0), U, "jobs", "0", "positive number of threads"),
    Row("count", lambda: qs.count(8, jobs=HUGE), U, "jobs", str(HUGE)),
    Row("count", lambda: qs.count(8, engine=""), U, "engine", "''", "known: auto"),  # type: ignore[arg-type]
    Row("count", lambda: qs.count(8, engine="fast"), U, "engine", "'fast'"),  # type: ignore[arg-type]
    Row("count", lambda: qs.count(8, engine=None), T, "engine", "None"),  # type: ignore[arg-type]
    Row("count", lambda: qs.count(8, amo="x"), U, "amo", "'x'"),
    Row("count", lambda: qs.count(8, symmetric=""), U, "symmetric", "''"),  # type: ignore[arg-type]
    Row("count", lambda: qs.count(8, progress=5), T, "progress", "5"),  # type: ignore[arg-type]
    Row("count", lambda: qs.count(HUGE), U, "n", str(HUGE)),
    Row("count", lambda: qs.count(65, engine="backtrack"), U, "engine", "'backtrack'", "n <= 64, not 65"),
    # verify
    Row("verify", lambda: qs.verify([(0, 0)], 1), T, "board", "[(0, 0)]"),  # type: ignore[arg-type]
    Row("verify", lambda: qs.verify(qs.Board.from_columns([0]), "1"), T, "instance", "'1'"),  # type: ignore[arg-type]
    Row("verify", lambda: qs.verify(qs.Board.from_columns([0]), -1), U, "n", "-1"),
    # Instance(...)
    Row("Instance", lambda: qs.Instance(-1), U, "n", "-1", "out of range (1..=65536)"),
    Row("Instance", lambda: qs.Instance(HUGE), U, "n", str(HUGE), "out of range (1..=65536)"),
    Row("Instance", lambda: qs.Instance("8"), T, "n", "'8'", "must be an int"),  # type: ignore[arg-type]
    Row("Instance", lambda: qs.Instance(8, piece=""), U, "piece", "''", "known: queen, amazon"),  # type: ignore[arg-type]
    Row("Instance", lambda: qs.Instance(8, piece="king"), U, "piece", "'king'"),  # type: ignore[arg-type]
    Row("Instance", lambda: qs.Instance(8, piece=5), T, "piece", "5"),  # type: ignore[arg-type]
    Row("Instance", lambda: qs.Instance(8, placed=[(1, 2, 3)]), U, "placed", "(1, 2, 3)", "not a (row, col) pair"),  # type: ignore[list-item]
    Row("Instance", lambda: qs.Instance(8, placed=[(-1, 0)]), U, "placed", "(-1, 0)", "outside the 8x8 board"),
    Row("Instance", lambda: qs.Instance(8, placed=[(HUGE, 0)]), U, "placed", f"({HUGE}, 0)", "outside"),
    Row("Instance", lambda: qs.Instance(8, placed=5), T, "placed", "5"),  # type: ignore[arg-type]
    Row("Instance", lambda: qs.Instance(8, blocked=[("a", "b")]), U, "blocked", "('a', 'b')"),  # type: ignore[list-item]
    Row("Instance", lambda: qs.Instance(8, blocked="ab"), T, "blocked", "'ab'"),  # type: ignore[arg-type]
    Row("Instance", lambda: qs.Instance(8, excluded=[("diagonal", -1)]), U, "excluded", "('diagonal', -1)"),
    Row("Instance", lambda: qs.Instance(8, excluded=[("diagonal", HUGE)]), U, "excluded", f"('diagonal', {HUGE})"),
    Row("Instance", lambda: qs.Instance(8, excluded=[("", 0)]), U, "excluded", "('', 0)", "unknown kind"),
    Row("Instance", lambda: qs.Instance(8, excluded=[("diagonal",)]), U, "excluded", "('diagonal',)"),  # type: ignore[list-item]
    Row("Instance", lambda: qs.Instance(8, placed=[(0, 0)], blocked=[(0, 0)]), U, "placed", "(0, 0)"),
    # Instance.parse / Instance.read
    Row("Instance.parse", lambda: qs.Instance.parse(DIAGS, diags=999), U, "diags", "999", "larger than numdiags = 19"),
    Row("Instance.parse", lambda: qs.Instance.parse(DIAGS, diags=-1), U, "diags", "-1", "0 or more"),
    Row("Instance.parse", lambda: qs.Instance.parse(DIAGS, diags=HUGE), U, "diags", str(HUGE), "too large"),
    Row("Instance.parse", lambda: qs.Instance.parse(DIAGS, diags="2"), T, "diags", "'2'"),  # type: ignore[arg-type]
    Row("Instance.parse", lambda: qs.Instance.parse(DIAGS, piece=""), U, "piece", "''"),  # type: ignore[arg-type]
    Row("Instance.parse", lambda: qs.Instance.parse(5), T, "text", "5"),  # type: ignore[arg-type]
    Row("Instance.parse", lambda: qs.Instance.parse(DIAGS, name=5), T, "name", "5"),  # type: ignore[arg-type]
    Row("Instance.read", lambda: qs.Instance.read("x.txt", diags=-1), U, "diags", "-1"),
    Row("Instance.read", lambda: qs.Instance.read(5), T, "path", "5", "a path"),  # type: ignore[arg-type]
    Row("Instance.read", lambda: qs.Instance.read("x.txt", piece="rook"), U, "piece", "'rook'"),  # type: ignore[arg-type]
    # Instance methods
    Row("Instance.with_piece", lambda: qs.Instance(8).with_piece(""), U, "piece", "''"),  # type: ignore[arg-type]
    Row("Instance.with_piece", lambda: qs.Instance(8).with_piece(1), T, "piece", "1"),  # type: ignore[arg-type]
    Row("Instance.to_text", lambda: qs.Instance(8).to_text(""), U, "format", "''", "known: board"),
    Row("Instance.to_text", lambda: qs.Instance(8).to_text("xml"), U, "format", "'xml'"),
    Row("Instance.to_text", lambda: qs.Instance(8).to_text(1), T, "format", "1"),  # type: ignore[arg-type]
    # Board
    Row("Board", lambda: qs.Board(-1, []), U, "n", "-1"),
    Row("Board", lambda: qs.Board(HUGE, []), U, "n", str(HUGE)),
    Row("Board", lambda: qs.Board(4, [(0, 0, 0)]), U, "pieces", "(0, 0, 0)"),  # type: ignore[list-item]
    Row("Board", lambda: qs.Board(4, [(4, 0)]), U, "pieces", "(4, 0)", "outside the 4x4 board"),
    Row("Board", lambda: qs.Board(4, 5), T, "pieces", "5"),  # type: ignore[arg-type]
    Row("Board.from_columns", lambda: qs.Board.from_columns([]), U, "columns", "[]", "1..=65536 rows"),
    Row("Board.from_columns", lambda: qs.Board.from_columns([0, HUGE]), U, "columns", f"(1, {HUGE})"),
    Row("Board.from_columns", lambda: qs.Board.from_columns([0, -1]), U, "columns", "(1, -1)"),
    Row("Board.from_columns", lambda: qs.Board.from_columns(["a"]), U, "columns", "'a'"),  # type: ignore[list-item]
    Row("Board.from_columns", lambda: qs.Board.from_columns(3), T, "columns", "3"),  # type: ignore[arg-type]
    # Formula
    Row("Formula.var", lambda: f4().var(99, 99), U, "row", "99", "outside the 4x4 board"),
    Row("Formula.var", lambda: f4().var(0, -1), U, "col", "-1", "outside the 4x4 board"),
    Row("Formula.var", lambda: f4().var(HUGE, 0), U, "row", str(HUGE)),
    Row("Formula.var", lambda: f4().var("0", 0), T, "row", "'0'"),  # type: ignore[arg-type]
    Row("Formula.cell", lambda: f4().cell(0), U, "var", "0", "not a variable of this formula (1..=16)"),
    Row("Formula.cell", lambda: f4().cell(-1), U, "var", "-1", "1..=16"),
    Row("Formula.cell", lambda: f4().cell(10**9), U, "var", "1000000000", "1..=16"),
    Row("Formula.cell", lambda: f4().cell(HUGE), U, "var", str(HUGE)),
    Row("Formula.cell", lambda: f4().cell("1"), T, "var", "'1'"),  # type: ignore[arg-type]
    Row("Formula.decode", lambda: f4().decode([999, 2, 3]), U, "model", "999", "not a literal"),
    Row("Formula.decode", lambda: f4().decode([2, -999]), U, "model", "-999", "not a literal"),
    Row("Formula.decode", lambda: f4().decode([0]), U, "model", "0", "not a literal"),
    Row("Formula.decode", lambda: f4().decode([HUGE]), U, "model", str(HUGE)),
    Row("Formula.decode", lambda: f4().decode(["2"]), T, "model", "'2'"),  # type: ignore[list-item]
    Row("Formula.decode", lambda: f4().decode(5), T, "model", "5"),  # type: ignore[arg-type]
    Row("Formula.write", lambda: f4().write("x.cnf", format=""), U, "format", "''", "known: dimacs"),
    # an amo the OPB / LP / MiniZinc models would not use (queens_sat.applies)
    Row("Formula.write", lambda: f4().write("x.opb", format="opb"), U, "amo", "'pairwise'", "format='opb'"),
    Row("Formula.write", lambda: f4().write(None), T, "path", "None", "a path"),  # type: ignore[arg-type]
    Row("Formula.write", lambda: f4().write("x.cnf", format="dimax"), U, "format", "'dimax'"),
    Row("Formula.write", lambda: f4().write("x.cnf", format=2), T, "format", "2"),  # type: ignore[arg-type]
    Row("Formula.write", lambda: f4().write("x.cnf.xz", level=-1), U, "level", "-1", "0..=9 for xz"),
    Row("Formula.write", lambda: f4().write("x.cnf.xz", level=HUGE), U, "level", str(HUGE), "0..=9"),
    Row("Formula.write", lambda: f4().write("x.cnf.gz", level="9"), T, "level", "'9'"),  # type: ignore[arg-type]
    # generate
    Row("generate.completion", lambda: generate.completion(8, 9, seed=1), U, "m", "9", "at most n = 8 queens"),
    Row("generate.completion", lambda: generate.completion(8, -1, seed=1), U, "m", "-1", "0 or more"),
    Row("generate.completion", lambda: generate.completion(8, HUGE, seed=1), U, "m", str(HUGE)),
    Row("generate.completion", lambda: generate.completion(-8, 1, seed=1), U, "n", "-8"),
    Row("generate.completion", lambda: generate.completion(8, 3, seed=-1), U, "seed", "-1", "0..=2**64-1"),
    Row("generate.completion", lambda: generate.completion(8, 3, seed=2**64), U, "seed", str(2**64)),
    Row("generate.completion", lambda: generate.completion(8, 3, seed="1"), T, "seed", "'1'"),  # type: ignore[arg-type]
    Row("generate.blocked", lambda: generate.blocked(8, 100, min_free=1, seed=1), U, "m", "100", "at most n*(n-min_free) = 56"),
    Row("generate.blocked", lambda: generate.blocked(8, 3, min_free=-1, seed=1), U, "min_free", "-1"),
    Row("generate.blocked", lambda: generate.blocked(8, 3, min_free=HUGE, seed=1), U, "min_free", str(HUGE)),
    Row("generate.blocked", lambda: generate.blocked(HUGE, 3, min_free=1, seed=1), U, "n", str(HUGE)),
    Row("generate.blocked", lambda: generate.blocked(8, 3, min_free=1, seed=-5), U, "seed", "-5"),
    Row("generate.diagonals", lambda: generate.diagonals(8, min_free=-1, seed=1), U, "min_free", "-1"),
    Row("generate.diagonals", lambda: generate.diagonals(0, min_free=1, seed=1), U, "n", "0"),
    Row("generate.diagonals", lambda: generate.diagonals(8, min_free=1, seed=HUGE), U, "seed", str(HUGE)),
    Row("generate.diagonals", lambda: generate.diagonals(8.0, min_free=1, seed=1), T, "n", "8.0"),  # type: ignore[arg-type]
]

#: Every name in ``__all__`` that is not a function, a class with public methods or a module of
#: functions: exception classes, enums, type aliases and constants take no user input.
NOT_CALLED: Dict[str, str] = {
    "Amo": "a Literal type",
    "BreakSymmetry": "a Literal type",
    "Engine": "a Literal type",
    "Implied": "a Literal type",
    "PieceName": "a Literal type",
    "ProofFormat": "a Literal type",
    "SymmetryName": "a Literal type",
    "MAX_N": "a constant",
    "AmoGroup": "a NewType of str, built by amo_group",
    "AmoSpec": "a type alias",
    "DiagonalKind": "a Literal type",
    "ExportFormat": "a Literal type",
    "GroupedAmo": "a Literal type",
    "InstanceFormat": "a Literal type",
    "PySatCNF": "a Protocol (the type of to_pysat())",
    "Status": "an Enum of verdicts",
}

#: Public methods that take no argument (nothing to get wrong), and classes without a public
#: constructor (built by ``solve``, ``count`` and ``encode`` only).
NO_ARGUMENTS: Set[str] = {
    "Cancel",
    "Cancel.cancel",
    "Instance.to_numpy",
    "Instance.symmetries",
    "Board.to_numpy",
    "Formula.to_array",
    "Formula.to_pysat",
    "Result.to_json",
    "Result.to_dict",
    "Plan.to_json",
    "Plan.to_dict",
    "Counts.to_dict",
}
NO_CONSTRUCTOR: Set[str] = {"Counts", "Formula", "Plan", "Result", "Solutions"}


def public_callables() -> Set[str]:
    """Every callable a user can reach from ``queens_sat.__all__``: functions, constructors,
    public methods of the classes, and the functions of the modules (``generate``)."""
    out: Set[str] = set()
    for name in qs.__all__:
        obj = getattr(qs, name)
        if name in NOT_CALLED or (inspect.isclass(obj) and issubclass(obj, BaseException)):
            continue
        if inspect.ismodule(obj):
            out |= {f"{name}.{f}" for f in obj.__all__ if callable(getattr(obj, f))}
        elif inspect.isclass(obj):
            if name not in NO_CONSTRUCTOR:
                out.add(name)
            out |= {
                f"{name}.{m}"
                for m in dir(obj)
                if not m.startswith("_") and callable(getattr(obj, m))
            }
        else:
            assert inspect.isroutine(obj), f"{name} is neither a function nor a class"
            out.add(name)
    return out


def test_every_public_callable_has_rows() -> None:
    callables = public_callables()
    covered = {row.target for row in ROWS}
    assert covered <= callables, f"rows for unknown callables: {covered - callables}"
    missing = callables - covered - NO_ARGUMENTS
    assert not missing, f"public callables without a bad-argument row: {sorted(missing)}"
    # The exempt lists stay honest: each entry exists and takes no argument.
    assert NO_ARGUMENTS <= callables
    unlisted = set(qs.__all__) - set(NOT_CALLED) - NO_CONSTRUCTOR
    unlisted -= {n.split(".")[0] for n in callables}
    assert all(issubclass(getattr(qs, n), BaseException) for n in unlisted), unlisted


FLAG = re.compile(r"--[a-z]")
SHORT_FLAG = re.compile(r" -[a-zA-Z] ")


@pytest.mark.parametrize(
    "row", ROWS, ids=[f"{r.target}:{r.argument}={r.value[:20]}" for r in ROWS]
)
def test_bad_argument(row: Row, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # Formula.write rows write (or fail to write) here
    with pytest.raises(qs.Error) as info:
        row.call()
    e = info.value
    message = str(e)
    assert isinstance(e, row.error), f"{type(e).__name__}: {message}"
    assert isinstance(e, TypeError if row.error is T else ValueError)
    assert isinstance(e, (qs.UsageError, qs.ArgumentTypeError))
    assert (e.argument, e.value) == (row.argument, row.value), message
    assert row.argument in message and row.value[:40] in message, message
    assert row.rule in message, message
    assert "\n" not in message
    assert not FLAG.search(message), f"a command-line flag in {message!r}"
    assert not SHORT_FLAG.search(message), f"a command-line flag in {message!r}"
    assert "Overflow" not in type(e).__name__


@pytest.mark.parametrize(
    "solver", ["auto", "varisat", "varisat,lib:cadical", "lib:cadical --amo pairwise,varisat", "bitboard", "walk"]
)
def test_result_fields_have_no_command_line_words(solver: str) -> None:
    """``Result.solver`` and ``Result.reason`` in Python's words (issue 54 §4), for answers of
    every kind: SAT, presolve's UNSAT, a solver's UNSAT and a time limit."""
    hard = qs.Instance.parse(qs.generate.diagonals(30, min_free=1, seed=101).to_text(), diags=31)
    results = [
        qs.solve(10, solver=solver, timeout=60),
        qs.solve(qs.Instance(8, placed=[(0, 0), (1, 1)]), solver=solver),
        qs.solve(hard, solver=solver, timeout=0.2),
    ]
    if solver != "walk":
        results.append(qs.solve(qs.Instance(3), solver=solver))
    for r in results:
        for text in (r.solver, r.reason or ""):
            assert not FLAG.search(text), f"a command-line flag in {text!r} ({r!r})"
            assert not SHORT_FLAG.search(text), f"a command-line flag in {text!r} ({r!r})"
    if "," in solver:
        assert results[0].solver.endswith("(portfolio winner)")
    # A time limit is reported as given.
    assert results[2].status is not qs.Status.UNKNOWN or "0.2 s" in (results[2].reason or "")


def test_writing_into_a_missing_folder_names_the_users_path(tmp_path: Path) -> None:
    path = tmp_path / "no" / "such" / "x.cnf"
    with pytest.raises(qs.NotFoundError) as e:
        f4().write(path)
    assert str(e.value) == f"{path}: No such file or directory (os error 2)"
    assert e.value.filename == str(path)
    assert ".queens-sat-" not in str(e.value)


def test_unknown_solver_lists_the_built_in_names() -> None:
    with pytest.raises(qs.UsageError) as e:
        qs.solve(8, solver="nosuch")
    for name in ["auto", "varisat", "lib:cadical", "lib:kissat", "bitboard", "walk"]:
        assert name in str(e.value)


def test_cell_of_an_auxiliary_variable_is_none() -> None:
    f = qs.encode(qs.Instance(8), amo="sequential")
    assert f.num_vars > f.num_cells == 64
    assert f.cell(64) == (7, 7)
    assert f.cell(65) is None and f.cell(f.num_vars) is None
    with pytest.raises(qs.UsageError):
        f.cell(f.num_vars + 1)
    # decode takes auxiliary literals of either sign.
    model = [f.var(r, c) for r, c in enumerate([0, 4, 7, 5, 2, 6, 1, 3])]
    board = f.decode([v for v in model if v is not None] + [-f.num_vars, 65])
    assert board.columns == [0, 4, 7, 5, 2, 6, 1, 3]


def test_bad_argument_classes() -> None:
    assert issubclass(qs.ArgumentTypeError, TypeError) and issubclass(qs.ArgumentTypeError, qs.Error)
    assert not issubclass(qs.ArgumentTypeError, ValueError)
    optional: List[Optional[str]] = [qs.UsageError().argument, qs.ArgumentTypeError().value]
    assert optional == [None, None]


def test_int_like_and_sequence_arguments_are_accepted() -> None:
    # Python's integer arguments take any numbers.Integral (numpy's ints; not a bool), and a
    # cell or an excluded diagonal may be any pair (a list too), as before the checks.
    import numpy as np

    inst = qs.Instance(np.int64(8), placed=[[np.int32(1), 2]], excluded=[["diagonal", np.uint8(3)]])  # type: ignore[arg-type, list-item]
    assert (inst.n, inst.placed, inst.excluded) == (8, [(1, 2)], [("diagonal", 3)])
    f = qs.encode(inst, amo="pairwise")
    assert f.cell(np.int64(1)) == f.cell(1)  # type: ignore[arg-type]
    board = qs.Board.from_columns([np.int64(c) for c in [1, 3, 0, 2]])  # type: ignore[misc]
    assert board.columns == [1, 3, 0, 2]
    model = np.array([2, 8, 9, 15])
    assert qs.encode(4, amo="pairwise").decode(model).columns == [1, 3, 0, 2]  # type: ignore[arg-type]
    assert generate.completion(np.int64(8), np.int64(3), seed=np.uint64(2**63)).n == 8  # type: ignore[arg-type]
