"""The invariants of an instance (issue 45 §1), as Python sees them.

- ``placed``, ``blocked`` and ``excluded`` are sets: repeats merge (a duplicate pre-placed cell
  is one piece), equality and hashing ignore order, the properties return sorted lists;
- a pre-placed piece on a blocked cell or an excluded diagonal is a ``UsageError`` naming the
  argument (``.argument``, ``.value``);
- pre-placed pieces that attack each other solve UNSAT, and ``Result.reason`` says why;
- ``Instance.parse(i.to_text(f))`` is ``i`` (board and param text: excluded diagonals come back
  as the blocked cells they cover) for every format that holds ``i``; ``diags`` refuses the
  others. A seeded random generator draws instances of every kind through every format, and
  the counts (an independent backtracking counter) agree.
"""

from __future__ import annotations

import random
from typing import List, Set, Tuple

import pytest

import queens_sat as qs

Cell = Tuple[int, int]


def test_a_piece_on_a_blocked_cell_names_the_argument() -> None:
    with pytest.raises(qs.UsageError) as e:
        qs.Instance(8, placed=[(0, 0)], blocked=[(0, 0)])
    assert e.value.argument == "placed"
    assert e.value.value == "(0, 0)"
    assert str(e.value) == "placed=(0, 0) is on a blocked cell (blocked holds it too)"


def test_a_piece_on_an_excluded_diagonal_names_the_diagonal() -> None:
    with pytest.raises(qs.UsageError) as e:
        qs.Instance(6, placed=[(1, 2)], excluded=[("anti-diagonal", 3)])
    assert e.value.argument == "placed"
    assert e.value.value == "(1, 2)"
    assert "excluded=('anti-diagonal', 3)" in str(e.value)


def test_cells_and_keys_off_the_board_name_the_argument() -> None:
    for kwargs, argument, value in [
        ({"placed": [(8, 0)]}, "placed", "(8, 0)"),
        ({"blocked": [(-1, 2)]}, "blocked", "(-1, 2)"),
        ({"excluded": [("diagonal", 15)]}, "excluded", "('diagonal', 15)"),
        ({"excluded": [("diagonal", -1)]}, "excluded", "('diagonal', -1)"),
        ({"excluded": [("row", 1)]}, "excluded", "('row', 1)"),
    ]:
        with pytest.raises(qs.UsageError) as e:
            qs.Instance(8, **kwargs)  # type: ignore[arg-type]
        assert (e.value.argument, e.value.value) == (argument, value), kwargs
        assert str(e.value).startswith(f"{argument}={value} "), str(e.value)


def test_duplicate_placed_cells_merge() -> None:
    twice = qs.Instance(8, placed=[(0, 0), (0, 0)])
    once = qs.Instance(8, placed=[(0, 0)])
    assert twice.placed == [(0, 0)]
    assert twice == once and hash(twice) == hash(once)
    assert repr(twice) == "Instance(n=8, piece='queen', placed=1, blocked=0, excluded=0)"
    assert qs.Instance(8, blocked=[(1, 1), (1, 1)]).blocked == [(1, 1)]
    assert qs.Instance(8, excluded=[("diagonal", 3)] * 2).excluded == [("diagonal", 3)]


def test_order_does_not_matter() -> None:
    a = qs.Instance(8, placed=[(5, 5)], blocked=[(0, 3), (6, 5)])
    b = qs.Instance(8, placed=[(5, 5)], blocked=[(6, 5), (0, 3)])
    assert a == b and hash(a) == hash(b)
    assert b.blocked == [(0, 3), (6, 5)]
    assert qs.Instance.parse(a.to_text()) == a
    assert qs.Instance.parse(a.to_text("param")) == a
    with pytest.raises(qs.UsageError) as e:
        a.to_text("diags")
    assert e.value.argument == "format" and e.value.value == "'diags'"


def test_attacking_pre_placed_queens_are_unsat_with_a_reason() -> None:
    inst = qs.Instance(8, placed=[(0, 0), (3, 3)])
    for solver in ["auto", "varisat"]:
        r = qs.solve(inst, solver=solver)
        assert r.status == qs.Status.UNSAT
        assert r.reason == "pre-placed queens at (0,0) and (3,3) share a diagonal"
        assert r.to_dict()["reason"] == r.reason
    amazons = qs.Instance(8, piece="amazon", placed=[(0, 0), (1, 2)])
    reason = qs.solve(amazons, solver="varisat").reason
    assert reason is not None and "a leap apart" in reason
    # A solver's own refutation has no reason to give.
    assert qs.solve(qs.Instance(3), solver="varisat").reason is None


def _covered(n: int, blocked: List[Cell], excluded: List[Tuple[str, int]]) -> Set[Cell]:
    """The unavailable cells, by the test's own geometry."""
    out = set(blocked)
    for kind, k in excluded:
        for r in range(n):
            c = k - r if kind == "anti-diagonal" else r - k + n - 1
            if 0 <= c < n:
                out.add((r, c))
    return out


def test_every_format_round_trips_random_instances() -> None:
    rng = random.Random(45)
    kinds = ["placed", "blocked", "excluded", "mixed"]
    checked = {kind: 0 for kind in kinds}
    refused = 0
    for case in range(240):
        n = rng.randint(1, 6)
        kind = kinds[case % 4]
        piece = "amazon" if rng.random() < 0.5 else "queen"

        def cells(most: int) -> List[Cell]:
            return [(rng.randrange(n), rng.randrange(n)) for _ in range(rng.randint(0, most))]

        placed = cells(3) if kind in ("placed", "mixed") else []
        blocked = cells(10) if kind in ("blocked", "mixed") else []
        excluded: List[Tuple[str, int]] = []
        if kind in ("excluded", "mixed"):
            excluded = [
                (rng.choice(["diagonal", "anti-diagonal"]), rng.randrange(2 * n - 1))
                for _ in range(rng.randint(0, 3))
            ]
        covered = _covered(n, blocked, excluded)
        if any(p in covered for p in placed):
            with pytest.raises(qs.UsageError) as e:
                qs.Instance(n, piece, placed, blocked, excluded)  # type: ignore[arg-type]
            assert e.value.argument == "placed"
            refused += 1
            continue
        inst = qs.Instance(n, piece, placed, blocked, excluded)  # type: ignore[arg-type]
        assert inst.placed == sorted(set(placed))
        assert inst.blocked == sorted(set(blocked))
        shuffled = list(placed), list(blocked), list(excluded)
        for part in shuffled:
            rng.shuffle(part)
        again = qs.Instance(n, piece, *shuffled)  # type: ignore[arg-type]
        assert again == inst and hash(again) == hash(inst)
        as_cells = qs.Instance(n, piece, placed, sorted(covered))  # type: ignore[arg-type]
        total = qs.count(inst, engine="backtrack").total
        for fmt in ["board", "param", "diags"]:
            if fmt == "diags" and (placed or blocked):
                with pytest.raises(qs.UsageError):
                    inst.to_text(fmt)
                continue
            back = qs.Instance.parse(inst.to_text(fmt), piece=piece)  # type: ignore[arg-type]
            assert back == (inst if fmt == "diags" else as_cells), (fmt, inst.to_text(fmt))
            assert back.to_text(fmt) == inst.to_text(fmt) or fmt != "diags"
            assert qs.count(back, engine="backtrack").total == total, fmt
        checked[kind] += 1
    assert all(v >= 15 for v in checked.values()), checked
    assert refused >= 5, refused
