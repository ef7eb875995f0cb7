"""Pickling: every class the package returns survives pickle, and results come back from a real
process pool (spawned workers, as on macOS and Windows) equal to what this process computes."""

from __future__ import annotations

import multiprocessing
import os
import pickle
from concurrent.futures import ProcessPoolExecutor
from typing import Any, List, Tuple, cast

import pytest

import queens_sat as qs

from conftest import attacks, unavailable

INSTANCES = [
    qs.Instance(8),
    qs.Instance(8, placed=[(0, 0)]),
    qs.Instance(8, blocked=[(0, 1), (2, 5), (7, 7)]),
    qs.Instance(8, excluded=[("diagonal", 7), ("anti-diagonal", 3)]),
    qs.Instance(8, piece="amazon", blocked=[(4, 4)]),
    qs.Instance(10, piece="amazon"),
    qs.Instance(4, placed=[(0, 0)]),  # UNSAT, found by a solver
    qs.Instance(8, placed=[(0, 0), (3, 3)]),  # UNSAT, proved by presolve (with a reason)
]


def check_solution(board: qs.Board, inst: qs.Instance) -> None:
    """An independent check (the rules, not the library): n pieces, none attacked, none on an
    unavailable cell, every pre-placed piece kept."""
    pieces = list(board)
    assert len(pieces) == inst.n == len(set(pieces))
    assert set(inst.placed) <= set(pieces)
    assert not set(pieces) & unavailable(inst)
    for i, a in enumerate(pieces):
        for b in pieces[i + 1 :]:
            assert not attacks(inst.piece, a, b), (a, b)


def same_result(a: qs.Result, b: qs.Result) -> None:
    assert a.status is b.status
    assert a.board == b.board
    assert a.reason == b.reason
    assert a.instance == b.instance
    assert (a.solver, a.amo, a.vars, a.clauses) == (b.solver, b.amo, b.vars, b.clauses)
    assert (a.encode_seconds, a.solve_seconds, a.certified) == (
        b.encode_seconds,
        b.solve_seconds,
        b.certified,
    )
    assert a.to_dict() == b.to_dict()
    assert bool(a) == bool(b)
    if a.board is not None:
        assert b.board is not None and b.board.instance == a.instance
        check_solution(b.board, b.instance)


def same_formula(a: qs.Formula, b: qs.Formula) -> None:
    assert (a.num_vars, a.num_clauses, a.num_literals, a.num_cells, a.amo) == (
        b.num_vars,
        b.num_clauses,
        b.num_literals,
        b.num_cells,
        b.amo,
    )
    assert a.instance == b.instance
    assert a.presolve_unsat == b.presolve_unsat
    assert a.clauses == b.clauses
    assert len(a) == len(b)
    n = a.instance.n
    assert [a.var(r, c) for r in range(n) for c in range(n)] == [
        b.var(r, c) for r in range(n) for c in range(n)
    ]
    assert [a.cell(v) for v in range(1, a.num_vars + 1)] == [
        b.cell(v) for v in range(1, b.num_vars + 1)
    ]


def same_counts(a: qs.Counts, b: qs.Counts) -> None:
    assert (a.total, a.unique, a.group, a.engine, a.seconds) == (
        b.total,
        b.unique,
        b.group,
        b.engine,
        b.seconds,
    )
    assert a.fixed_points == b.fixed_points
    assert list(a.fixed_points) == list(b.fixed_points)  # the group's order


def roundtrip(x: Any) -> Any:
    return pickle.loads(pickle.dumps(x, protocol=pickle.HIGHEST_PROTOCOL))


@pytest.mark.parametrize("inst", INSTANCES, ids=repr)
def test_instance_and_board_roundtrip(inst: qs.Instance) -> None:
    assert roundtrip(inst) == inst
    assert pickle.loads(pickle.dumps(inst, protocol=0)) == inst
    board = qs.Board.from_columns([1, 3, 0, 2])
    again = roundtrip(board)
    assert again == board and again.instance is None and list(again) == list(board)


@pytest.mark.parametrize("inst", INSTANCES, ids=repr)
def test_result_roundtrip(inst: qs.Instance) -> None:
    r = qs.solve(inst, solver="varisat")
    same_result(r, roundtrip(r))


def test_result_roundtrip_keeps_the_verdicts() -> None:
    sat = roundtrip(qs.solve(qs.Instance(8)))
    assert sat.status is qs.Status.SAT and sat.board is not None
    check_solution(sat.board, qs.Instance(8))
    unsat = roundtrip(qs.solve(qs.Instance(8, placed=[(0, 0), (3, 3)])))
    assert unsat.status is qs.Status.UNSAT and unsat.board is None
    assert unsat.reason == "pre-placed queens at (0,0) and (3,3) share a diagonal"


def test_unknown_result_roundtrip() -> None:
    # 56x56 with 2734 holes takes the default strategy tens of seconds: UNKNOWN at 0.2 s.
    inst = qs.generate.blocked(56, 2734, min_free=1, seed=1)
    r = qs.solve(inst, timeout=0.2)
    assert r.status is qs.Status.UNKNOWN and r.reason
    same_result(r, roundtrip(r))


def test_a_tampered_result_pickle_is_refused() -> None:
    r = qs.solve(qs.Instance(8), solver="varisat")
    restore, args = cast(Tuple[Any, Tuple[Any, ...]], r.__reduce__())
    bad = list(args)
    bad[2] = [(i, i) for i in range(8)]  # all on one diagonal: not a solution
    with pytest.raises(qs.VerifyError):
        restore(*bad)


@pytest.mark.parametrize(
    "inst,kwargs",
    [
        (qs.Instance(8), {"amo": "pairwise"}),
        (qs.Instance(8), {"amo": "sequential", "break_symmetry": "lex"}),
        (qs.Instance(8, blocked=[(0, 1), (2, 5)]), {"amo": "product", "implied": "sums"}),
        (qs.Instance(8), {"symmetric": "r180"}),
        (qs.Instance(8, placed=[(0, 0)]), {"presolve": False}),
        (qs.Instance(8, placed=[(0, 0), (3, 3)]), {}),  # presolve's fixed contradiction
        (qs.Instance(9, piece="amazon"), {}),
    ],
)
def test_formula_roundtrip(inst: qs.Instance, kwargs: Any) -> None:
    f = qs.encode(inst, **kwargs)
    again = roundtrip(f)
    same_formula(f, again)
    assert again.gbdhash == f.gbdhash


def test_a_restored_formula_decodes_verified_boards() -> None:
    pysat_solvers = pytest.importorskip("pysat.solvers")
    inst = qs.Instance(8, blocked=[(0, 1)])
    f = roundtrip(qs.encode(inst, amo="sequential"))
    with pysat_solvers.Cadical153(bootstrap_with=f.to_pysat()) as s:
        assert s.solve()
        board = f.decode(s.get_model())
    check_solution(board, inst)
    qs.verify(board, inst)


def test_a_tampered_formula_pickle_is_refused() -> None:
    f = qs.encode(qs.Instance(6), amo="pairwise")
    restore, args = cast(Tuple[Any, Tuple[Any, ...]], f.__reduce__())
    for i, value in [(6, args[6][:-4]), (7, args[7][:-8]), (6, b"\x00" * len(args[6]))]:
        bad = list(args)
        bad[i] = value
        with pytest.raises(qs.UsageError):
            restore(*bad)


@pytest.mark.parametrize(
    "inst,kwargs",
    [
        (qs.Instance(8), {}),
        (qs.Instance(8, placed=[(0, 0)]), {}),
        (qs.Instance(10), {"symmetric": "r180"}),
        (qs.Instance(8), {"engine": "backtrack"}),
    ],
)
def test_counts_roundtrip(inst: qs.Instance, kwargs: Any) -> None:
    c = qs.count(inst, **kwargs)
    same_counts(c, roundtrip(c))


POOL_INSTANCES = [
    qs.Instance(8),
    qs.Instance(8, blocked=[(0, 1), (2, 5), (7, 7)]),
    qs.Instance(8, piece="amazon", blocked=[(4, 4)]),
    qs.Instance(10, piece="amazon"),
    qs.Instance(8, placed=[(0, 0), (3, 3)]),
]


def test_results_come_back_from_a_process_pool() -> None:
    # Spawned workers start from a fresh interpreter: nothing is inherited by fork, so every
    # argument and every answer crosses the process boundary as a pickle. The workers call the
    # package's public functions directly (no helper of this test module is needed there).
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=2, mp_context=ctx) as pool:
        solves = [pool.submit(qs.solve, i, solver="varisat") for i in POOL_INSTANCES]
        counts = [pool.submit(qs.count, i) for i in POOL_INSTANCES]
        formulas = [pool.submit(qs.encode, i, amo="pairwise") for i in POOL_INSTANCES]
        boards = list(pool.map(qs.Board.from_columns, [[1, 3, 0, 2], [2, 0, 3, 1]]))
        pids = {f.result() for f in [pool.submit(os.getpid) for _ in range(4)]}
        solved = [f.result() for f in solves]
        counted = [f.result() for f in counts]
        encoded = [f.result() for f in formulas]
    assert os.getpid() not in pids and len(pids) >= 1
    statuses: List[Tuple[qs.Status, bool]] = []
    for inst, r, c, f in zip(POOL_INSTANCES, solved, counted, encoded):
        here = qs.solve(inst, solver="varisat")
        # varisat is deterministic: the worker finds the very board this process finds.
        assert r.board == here.board
        assert (r.status, r.reason, r.instance, r.vars, r.clauses) == (
            here.status,
            here.reason,
            here.instance,
            here.vars,
            here.clauses,
        )
        if r.board is not None:
            check_solution(r.board, inst)
            qs.verify(r.board, inst)
        statuses.append((r.status, r.board is not None))
        mine = qs.count(inst)
        assert (c.total, c.unique, c.fixed_points, c.group) == (
            mine.total,
            mine.unique,
            mine.fixed_points,
            mine.group,
        )
        same_formula(f, qs.encode(inst, amo="pairwise"))
    assert [c.total for c in counted] == [
        92,
        qs.count(POOL_INSTANCES[1], engine="backtrack").total,
        qs.count(POOL_INSTANCES[2], engine="backtrack").total,
        4,  # 10-amazons
        0,
    ]
    assert statuses[-1] == (qs.Status.UNSAT, False)
    assert solved[-1].reason == "pre-placed queens at (0,0) and (3,3) share a diagonal"
    assert [b.columns for b in boards] == [[1, 3, 0, 2], [2, 0, 3, 1]]
