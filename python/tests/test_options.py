"""The option vocabulary: every command-line value reachable from Python (the ``Literal`` types
against the library's lists and ``mypy --strict``: ``test_typing.py``)."""

from __future__ import annotations

from typing import get_args

import pytest

import queens_sat as qs


@pytest.mark.parametrize("value", get_args(qs.BreakSymmetry))
def test_every_break_symmetry_value_reaches_solve(value: qs.BreakSymmetry) -> None:
    # 10-amazons has 4 solutions, one class: every value answers with a verified board.
    inst = qs.Instance(10, piece="amazon")
    r = qs.solve(inst, break_symmetry=value, jobs=1)
    assert r.status is qs.Status.SAT and r.board is not None
    qs.verify(r.board, inst)


def test_cubes_searches_modulo_the_symmetries_and_none_does_not() -> None:
    # Plain 8-amazons has no solution (A051223), so local search gives up and the cube solver
    # answers (one job: no bitboard race). Only `cubes` searches modulo the board's symmetries
    # on a plain board, and the report's label says so.
    inst = qs.Instance(8, piece="amazon")
    cubes = qs.solve(inst, break_symmetry="cubes", jobs=1)
    none = qs.solve(inst, break_symmetry="none", jobs=1)
    default = qs.solve(inst, jobs=1)
    assert cubes.status is none.status is default.status is qs.Status.UNSAT
    assert " mod r90" in cubes.solver, cubes.solver
    assert " mod " not in none.solver, none.solver
    assert " mod " not in default.solver, default.solver


def test_every_option_value_is_accepted() -> None:
    for amo in get_args(qs.Amo):
        assert qs.encode(6, amo=amo).num_vars >= 36
    for implied in get_args(qs.Implied):
        qs.encode(6, implied=implied)
    for g in get_args(qs.SymmetryName):
        assert qs.count(6, symmetric=g).total >= 0
    for engine in get_args(qs.Engine):
        # The orbit engines count the boards a rotation fixes: on n = 6 all 4 solutions are
        # fixed by the half turn (A032522).
        rotation = "r180" if engine.startswith("orbit") else None
        assert qs.count(6, engine=engine, symmetric=rotation).total == 4
    for piece in get_args(qs.PieceName):
        qs.Instance(6, piece=piece)


def test_deterministic_split_search_gives_the_same_board() -> None:
    boards = {
        str(qs.solve(24, solver="bitboard", jobs=2, deterministic=True).board) for _ in range(3)
    }
    assert len(boards) == 1
    r = qs.solve(24, solver="bitboard", jobs=2, deterministic=True)
    assert r.board is not None
    qs.verify(r.board, qs.Instance(24))


def test_bitboard_takes_big_boards_with_small_cores() -> None:
    """``solver="bitboard"`` searches the presolved core, whatever the board's side: a board of
    100 with all but six queens of a solution pre-placed, and a board of 80 with most cells off
    a solution blocked; a core over 128 rows is refused, naming its size."""
    full = qs.solve(100, solver="walk")
    assert full.board is not None
    queens = sorted(full.board.pieces)
    big = qs.Instance(100, placed=[q for q in queens if q[0] % 17 != 3])
    r = qs.solve(big, solver="bitboard")
    assert r.board is not None
    qs.verify(r.board, big)
    sol = qs.solve(80, solver="walk")
    assert sol.board is not None
    keep = set(sol.board.pieces)
    blocked = [(i, j) for i in range(80) for j in range(80) if (i, j) not in keep and (i * 7 + j) % 5]
    wide = qs.Instance(80, blocked=blocked)
    r = qs.solve(wide, solver="bitboard")
    assert r.board is not None
    qs.verify(r.board, wide)
    with pytest.raises(qs.UsageError, match="this one has 129"):
        qs.solve(129, solver="bitboard")
