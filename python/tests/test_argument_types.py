"""Arguments read by type, the same way in every function (issue 63, "Arguments that are
misread"): a bool parameter takes ``bool`` or ``numpy.bool_`` only, an integer parameter any
``numbers.Integral`` (numpy's integers) but not a bool, cells included; ``Counts.fixed_points``
is read-only; an instance presolve refutes names the same solver on every certified run, with
and without ``proof=``, in Python's words."""

from __future__ import annotations

import pickle
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Callable, List, Tuple

import numpy as np
import pytest

import queens_sat as qs
from queens_sat import generate

#: A command-line flag (``--no-presolve``, ``--amo``) in a text meant for Python users.
FLAG = re.compile(r"(^|[\s(`'\"])--?[a-z]")

# --- bool parameters -------------------------------------------------------------------------

#: (call, argument, value as Python writes it): truthy and falsy values that are not bools.
NOT_BOOLS: List[Tuple[Callable[[], object], str, str]] = [
    (lambda: qs.solve(8, certify="no"), "certify", "'no'"),  # type: ignore[arg-type]
    (lambda: qs.solve(8, certify=1), "certify", "1"),
    (lambda: qs.solve(8, certify=None), "certify", "None"),  # type: ignore[arg-type]
    (lambda: qs.solve(8, deterministic="False"), "deterministic", "'False'"),  # type: ignore[arg-type]
    (lambda: qs.solve(8, solver="bitboard", deterministic=0), "deterministic", "0"),
    (lambda: qs.encode(8, presolve="False"), "presolve", "'False'"),  # type: ignore[arg-type]
    (lambda: qs.encode(8, presolve=0), "presolve", "0"),
    (lambda: qs.count(8, cross_check=1), "cross_check", "1"),
    (lambda: qs.count(8, cross_check="yes"), "cross_check", "'yes'"),  # type: ignore[arg-type]
    (lambda: qs.solutions(8, modulo_symmetry=1), "modulo_symmetry", "1"),
    (lambda: qs.solutions(8, modulo_symmetry="no"), "modulo_symmetry", "'no'"),  # type: ignore[arg-type]
    (lambda: qs.count(8, progress="yes"), "progress", "'yes'"),  # type: ignore[arg-type]
]


@pytest.mark.parametrize("call, argument, value", NOT_BOOLS, ids=[f"{a}={v}" for _, a, v in NOT_BOOLS])
def test_a_bool_parameter_refuses_anything_but_a_bool(
    call: Callable[[], object], argument: str, value: str
) -> None:
    with pytest.raises(qs.ArgumentTypeError) as e:
        call()
    assert isinstance(e.value, TypeError)
    assert (e.value.argument, e.value.value) == (argument, value)
    # progress= also takes a callable: its message says so.
    rule = "True or None" if argument == "progress" else "True or False"
    assert str(e.value).startswith(f"{argument}={value} must be "), str(e.value)
    assert rule in str(e.value), str(e.value)


def test_a_bool_parameter_takes_numpy_bools() -> None:
    assert qs.encode(4, amo="pairwise", presolve=np.False_).num_vars == 16
    assert qs.encode(4, amo="pairwise", presolve=np.True_).clauses == qs.encode(4, amo="pairwise").clauses
    assert qs.solve(8, certify=np.True_).status is qs.Status.SAT
    assert qs.solve(8, solver="bitboard", deterministic=np.True_, jobs=2).status is qs.Status.SAT
    c = qs.count(8, cross_check=np.True_)
    assert (c.total, "+" in c.engine) == (92, True)
    assert len(list(qs.solutions(8, modulo_symmetry=np.True_))) == 12
    assert qs.count(6, progress=np.False_).total == 4


# --- integer parameters ----------------------------------------------------------------------


@pytest.mark.parametrize("kind", [np.int64, np.int32, np.uint8, np.uint64])
def test_numpy_integers_are_ints_everywhere(kind: Any) -> None:
    n = kind(8)
    assert qs.Instance(n).n == 8
    assert qs.count(n).total == 92
    assert qs.count(n, jobs=kind(1)).total == 92
    assert qs.solve(n).status is qs.Status.SAT
    assert qs.solve(n, solver="bitboard", jobs=kind(2), timeout=kind(60)).status is qs.Status.SAT
    assert qs.encode(n, amo="pairwise").num_vars == 64
    assert len(list(qs.solutions(kind(6), limit=kind(2)))) == 2
    qs.verify(qs.Board.from_columns([1, 3, 0, 2]), kind(4))
    inst = qs.Instance(n, placed=[(kind(1), kind(2))], blocked=[[kind(0), kind(0)]])
    assert (inst.placed, inst.blocked) == ([(1, 2)], [(0, 0)])
    g = generate.blocked(n, kind(3), min_free=kind(1), seed=kind(7))
    assert g == generate.blocked(8, 3, min_free=1, seed=7)
    assert generate.completion(n, kind(2), seed=kind(3)) == generate.completion(8, 2, seed=3)
    assert generate.diagonals(n, min_free=kind(1), seed=kind(5)) == generate.diagonals(8, min_free=1, seed=5)


#: (call, argument): a bool where an int is asked for.
BOOL_INTS: List[Tuple[Callable[[], object], str]] = [
    (lambda: qs.solve(True), "instance"),  # type: ignore[arg-type]
    (lambda: qs.count(True), "instance"),  # type: ignore[arg-type]
    (lambda: qs.encode(np.True_), "instance"),  # type: ignore[arg-type]
    (lambda: qs.solutions(True), "instance"),  # type: ignore[arg-type]
    (lambda: qs.Instance(True), "n"),  # type: ignore[arg-type]
    (lambda: qs.solve(8, jobs=True), "jobs"),
    (lambda: qs.count(8, jobs=True), "jobs"),
    (lambda: qs.solutions(8, limit=True), "limit"),
    (lambda: qs.solve(8, timeout=True), "timeout"),
    (lambda: generate.completion(True, 1, seed=1), "n"),
    (lambda: generate.completion(8, True, seed=1), "m"),
    (lambda: generate.blocked(8, 3, min_free=True, seed=1), "min_free"),
    (lambda: generate.diagonals(8, min_free=1, seed=False), "seed"),
    (lambda: qs.encode(4).var(True, 0), "row"),
    (lambda: qs.encode(4).cell(True), "var"),
]


@pytest.mark.parametrize("call, argument", BOOL_INTS, ids=[a for _, a in BOOL_INTS])
def test_an_integer_parameter_refuses_a_bool(call: Callable[[], object], argument: str) -> None:
    with pytest.raises(qs.ArgumentTypeError) as e:
        call()
    assert e.value.argument == argument
    assert e.value.value in ("True", "False", "np.True_", "np.False_", "True_"), e.value.value


#: (call, argument): a bool as a cell's coordinate or a diagonal's key.
BOOL_CELLS: List[Tuple[Callable[[], object], str]] = [
    (lambda: qs.Instance(8, placed=[(True, 1)]), "placed"),
    (lambda: qs.Instance(8, placed=[(1, False)]), "placed"),
    (lambda: qs.Instance(8, blocked=[(0, True)]), "blocked"),
    (lambda: qs.Instance(8, placed=[(np.True_, 1)]), "placed"),  # type: ignore[list-item]
    (lambda: qs.Instance(8, excluded=[("diagonal", True)]), "excluded"),
    (lambda: qs.Board(4, [(True, 1), (1, 3), (2, 0), (3, 2)]), "pieces"),
    (lambda: qs.Board.from_columns([True, 3, 0, 2]), "columns"),
]


@pytest.mark.parametrize("call, argument", BOOL_CELLS, ids=[f"{i}-{a}" for i, (_, a) in enumerate(BOOL_CELLS)])
def test_a_cell_refuses_bool_coordinates(call: Callable[[], object], argument: str) -> None:
    # As n=True is refused: a bool is a mistake, not the int 0 or 1.
    with pytest.raises(qs.UsageError) as e:
        call()
    assert e.value.argument == argument, str(e.value)
    assert str(e.value).startswith(f"{argument}") or f"{argument} has" in str(e.value), str(e.value)


# --- read-only fixed points ------------------------------------------------------------------


def test_fixed_points_cannot_change_frozen_counts() -> None:
    c = qs.count(8)
    before = (hash(c), dict(c.fixed_points), repr(c))
    assert isinstance(c.fixed_points, Mapping)
    with pytest.raises(TypeError):
        c.fixed_points["id"] = 0  # type: ignore[index]
    with pytest.raises((TypeError, AttributeError)):
        c.fixed_points.clear()  # type: ignore[attr-defined]
    copy = dict(c.fixed_points)
    copy["id"] = 0  # a copy is the caller's to change
    assert (hash(c), dict(c.fixed_points), repr(c)) == before
    assert c.fixed_points["id"] == 92 and c.fixed_points == before[1]
    # Equality, hashing and pickling as before.
    again = pickle.loads(pickle.dumps(c))
    assert again == c and hash(again) == hash(c) == hash(qs.count(8))
    assert list(again.fixed_points.items()) == list(c.fixed_points.items())


# --- presolve's certified refutation ---------------------------------------------------------


def test_a_presolve_refutation_names_presolve_on_every_certified_run(tmp_path: Path) -> None:
    inst = qs.Instance(8, placed=[(0, 0), (1, 0)])
    plain = [qs.solve(inst, certify=True) for _ in range(5)]
    proved = [qs.solve(inst, certify=True, proof=tmp_path / f"p{i}.lrat") for i in range(5)]
    for rs in (plain, proved):
        assert {r.status for r in rs} == {qs.Status.UNSAT}
        assert {r.solver for r in rs} == {"presolve"}, [r.solver for r in rs]
        assert len({r.certified for r in rs}) == 1, [r.certified for r in rs]
        assert {r.reason for r in rs} == {plain[0].reason} and plain[0].reason
        for r in rs:
            certified = r.certified or ""
            assert certified and not FLAG.search(certified), certified
            assert "encode --" not in certified, certified
    # The same for any solver asked (one that writes proofs, or a portfolio).
    for solver in ("varisat", "bitboard", "varisat,lib:cadical", "lib:cadical,varisat"):
        rs = [qs.solve(inst, solver=solver, certify=True) for _ in range(3)]
        assert {r.solver for r in rs} == {"presolve"}, (solver, [r.solver for r in rs])
        assert len({r.certified for r in rs}) == 1, (solver, [r.certified for r in rs])
    # The VeriPB proof says it in Python's words too.
    pbp = qs.solve(inst, certify=True, proof=tmp_path / "p.pbp")
    assert pbp.solver == "presolve" and not FLAG.search(pbp.certified or "-x"), pbp.certified
