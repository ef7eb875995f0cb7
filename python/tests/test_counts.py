"""Counts against the published tables (/work/shared/reference/counts.md: OEIS A000170,
A002562, A033148, A032522 for queens; A051223, A051224 for amazons)."""

from __future__ import annotations

import pytest

import queens_sat as qs

# n: (total, unique, fixed r90, fixed r180)
QUEENS = {
    1: (1, 1, 1, 1),
    2: (0, 0, 0, 0),
    3: (0, 0, 0, 0),
    4: (2, 1, 2, 2),
    5: (10, 2, 2, 2),
    6: (4, 1, 0, 4),
    7: (40, 6, 0, 8),
    8: (92, 12, 0, 4),
    9: (352, 46, 0, 16),
    10: (724, 92, 0, 12),
    11: (2680, 341, 0, 48),
    12: (14200, 1787, 8, 80),
}

AMAZONS = {10: (4, 1), 11: (44, 6), 12: (156, 22)}


@pytest.mark.parametrize("n", sorted(QUEENS))
def test_queens(n: int) -> None:
    total, unique, r90, r180 = QUEENS[n]
    c = qs.count(qs.Instance(n))
    assert (c.total, c.unique) == (total, unique)
    assert c.fixed_points["id"] == total
    if n >= 2:
        assert c.fixed_points["r90"] == r90 == c.fixed_points["r270"]
        assert c.fixed_points["r180"] == r180
        for g in ["flip_h", "flip_v", "flip_d", "flip_a"]:
            assert c.fixed_points[g] == 0
    assert sum(c.fixed_points.values()) == unique * len(c.group)


@pytest.mark.parametrize("n", sorted(AMAZONS))
def test_amazons(n: int) -> None:
    c = qs.count(qs.Instance(n, piece="amazon"))
    assert (c.total, c.unique) == AMAZONS[n]


def test_no_amazons_below_10() -> None:
    for n in range(2, 10):
        assert qs.count(qs.Instance(n, piece="amazon")).total == 0


@pytest.mark.parametrize("engine", ["sat", "cdcl", "backtrack"])
def test_engines(engine: str) -> None:
    c = qs.count(qs.Instance(9), engine=engine)
    assert (c.total, c.unique, c.engine) == (352, 46, engine)


def test_default_engine_is_the_fast_one_and_named() -> None:
    assert qs.count(qs.Instance(9)).engine == "backtrack"
    assert qs.count(qs.Instance(9), break_symmetry="lex").engine == "sat"
    assert qs.count(qs.Instance(9), cross_check=True).engine == "backtrack+sat"


def test_symmetric_count() -> None:
    # The 8 r90-symmetric 12-queens boards; every symmetry maps them among themselves; each is
    # fixed by the rotations alone: (4 * 8) / 8 = 4 classes.
    c = qs.count(qs.Instance(12), symmetric="r90")
    assert (c.total, c.unique, c.symmetric, c.method) == (8, 4, "r90", "burnside")
    assert c.fixed_points == {
        "id": 8, "r90": 8, "r180": 8, "r270": 8, "flip_h": 0, "flip_v": 0, "flip_d": 0, "flip_a": 0
    }


def test_progress_callback_is_called_on_this_thread() -> None:
    import threading

    calls = []
    me = threading.get_ident()

    def progress(done: int, total: int) -> None:
        assert threading.get_ident() == me
        calls.append((done, total))

    c = qs.count(qs.Instance(12), progress=progress)
    assert c.total == 14200
    assert calls, "the callback was never called"
    assert all(0 <= d <= t for d, t in calls)


@pytest.mark.parametrize("engine", ["sat", "cdcl"])
def test_progress_is_monotonic_with_one_total(engine: str) -> None:
    # The count covers one formula per symmetry (8 on a plain board); the progress covers all
    # of them at once: one total from the first call, done never going back, ending at total
    # (issue 45 §4: it restarted at each formula, with that formula's total).
    calls = []
    c = qs.count(qs.Instance(12), engine=engine, jobs=2, progress=lambda d, t: calls.append((d, t)))
    assert (c.total, c.unique, len(c.group)) == (14200, 1787, 8)
    assert calls
    totals = {t for _, t in calls}
    assert len(totals) == 1, calls
    done = [d for d, _ in calls]
    assert done == sorted(done) and len(set(done)) == len(done), calls
    assert calls[-1] == (calls[-1][1], calls[-1][1])


def test_progress_callback_exception_stops_the_count() -> None:
    class Stop(Exception):
        pass

    def progress(done: int, total: int) -> None:
        raise Stop

    with pytest.raises(Stop):
        qs.count(qs.Instance(13), progress=progress)


def test_count_of_a_constrained_instance() -> None:
    inst = qs.Instance(8, placed=[(0, 0)])
    c = qs.count(inst)
    assert c.total == 4  # the 8-queens solutions with a queen in a corner
    assert c.group == ["id", "flip_d"]


def test_progress_true_without_tqdm_writes_to_stderr(capsys, monkeypatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "tqdm", None)  # import tqdm raises ImportError
    assert qs.count(qs.Instance(11), progress=True).total == 2680
    err = capsys.readouterr().err
    assert "count: " in err and " cubes" in err
