"""The smaller Python frictions of issue 63, each fixed: ``Result.seconds``, ``Counts.to_dict``,
``symmetric="id"`` counts equal to plain ones, one-line numpy reprs in messages, I/O errors that
keep their fields through pickling (a process pool), ``Board`` indexing, and notebook drawings
that stop at the command line's SVG limit."""

from __future__ import annotations

import concurrent.futures as cf
import errno
import json
import multiprocessing
import pickle
from pathlib import Path

import numpy as np
import pytest

import queens_sat as qs


def test_result_seconds_is_the_repr_seconds() -> None:
    r = qs.solve(qs.Instance(8, placed=[(0, 0), (3, 3)]))
    assert r.seconds == r.encode_seconds + r.solve_seconds
    assert f"seconds={r.seconds:.3f})" in repr(r)


def test_counts_to_dict() -> None:
    c = qs.count(8)
    d = c.to_dict()
    assert d == {
        "total": 92,
        "unique": 12,
        "fixed_points": dict(c.fixed_points),
        "group": c.group,
        "symmetric": None,
        "method": c.method,
        "engine": c.engine,
        "seconds": c.seconds,
    }
    assert json.loads(json.dumps(d)) == d
    d["fixed_points"]["id"] = 0  # a copy: the counts do not change
    assert c.fixed_points["id"] == 92
    lex = qs.count(10, symmetric="r180", break_symmetry="lex").to_dict()
    assert lex["total"] is None and lex["fixed_points"] == {} and lex["symmetric"] == "r180"


def test_symmetric_id_counts_equal_plain_counts() -> None:
    """``symmetric="id"`` keeps every board (the identity fixes them all): the same count."""
    plain, ident = qs.count(8), qs.count(8, symmetric="id")
    assert (ident.total, ident.unique, ident.group) == (plain.total, plain.unique, plain.group)
    assert ident == plain and hash(ident) == hash(plain)
    assert ident.symmetric == "id"  # as given
    assert qs.count(8, symmetric="r180") != plain


def test_numpy_repr_in_a_message_is_one_line() -> None:
    array = np.array([[1, 0], [0, 1]])
    with pytest.raises(qs.ArgumentTypeError) as e:
        qs.solve(8, jobs=array)  # type: ignore[arg-type]
    assert str(e.value) == "jobs=array([[1, 0], [0, 1]]) must be an int or None, not ndarray"
    with pytest.raises(qs.Error) as e2:
        qs.Board(4, [(np.array([[1], [2]]), 0)])  # type: ignore[list-item]
    assert "\n" not in str(e2.value) and "?" not in str(e2.value), str(e2.value)
    assert "array([[1], [2]])" in str(e2.value)


def _read(path: str) -> qs.Instance:
    return qs.Instance.read(path)


def test_not_found_error_keeps_its_fields_through_pickling(tmp_path: Path) -> None:
    missing = str(tmp_path / "missing.txt")
    with pytest.raises(qs.NotFoundError) as e:
        qs.Instance.read(missing)
    original = e.value
    assert original.filename == missing and original.errno == errno.ENOENT
    back = pickle.loads(pickle.dumps(original))
    assert type(back) is qs.NotFoundError
    assert (back.filename, back.errno, back.strerror, str(back)) == (
        original.filename,
        original.errno,
        original.strerror,
        str(original),
    )
    # Through a process pool, which pickles the worker's exception.
    ctx = multiprocessing.get_context("fork")
    with cf.ProcessPoolExecutor(1, mp_context=ctx) as pool:
        with pytest.raises(qs.NotFoundError) as e3:
            pool.submit(_read, missing).result(timeout=60)
    assert e3.value.filename == missing and e3.value.errno == errno.ENOENT
    assert isinstance(e3.value, FileNotFoundError)


def test_board_indexing() -> None:
    b = qs.Board.from_columns([1, 3, 0, 2])
    assert [b[r] for r in range(4)] == b.columns == [1, 3, 0, 2]
    assert b[-1] == 2 and b[np.int64(1)] == 3
    assert b[0, 1] is True and b[0, 0] is False and b[3, -2] is True
    assert qs.Board.from_columns([None, 0])[0] is None
    with pytest.raises(IndexError, match="row 4 is outside the 4x4 board"):
        b[4]
    with pytest.raises(IndexError, match="column -5"):
        b[0, -5]
    with pytest.raises(qs.ArgumentTypeError, match="index"):
        b["0"]  # type: ignore[call-overload]
    with pytest.raises(qs.ArgumentTypeError, match="index"):
        b[0, 1, 2]  # type: ignore[call-overload]


def test_drawings_stop_at_the_command_line_svg_limit() -> None:
    """Past n = 1,024 (``solve --format svg``'s limit) a notebook gets a short note, not a
    drawing of megabytes."""
    r = qs.solve(1025)
    assert r.status is qs.Status.SAT
    assert r._repr_svg_() is None
    note = r._repr_html_()
    assert note is not None and "too large to draw" in note and len(note) < 1000
    assert r.board is not None
    assert r.board._repr_svg_() is None and "too large" in (r.board._repr_html_() or "")
    inst = qs.Instance(1025)
    assert inst._repr_svg_() is None and "too large" in (inst._repr_html_() or "")
    small = qs.solve(8)
    assert small._repr_svg_() is not None and small._repr_html_() is None
    assert small.board is not None and small.board._repr_html_() is None
    assert qs.Instance(8)._repr_html_() is None


def test_flip_h_is_the_mirror_that_swaps_top_and_bottom() -> None:
    """As _options.py and docs/python.md say: ``flip_h`` maps ``(r, c)`` to ``(n-1-r, c)``,
    ``flip_v`` to ``(r, n-1-c)``."""
    top_bottom = qs.Instance(4, placed=[(0, 1), (3, 1)])
    assert "flip_h" in top_bottom.symmetries() and "flip_v" not in top_bottom.symmetries()
    left_right = qs.Instance(4, placed=[(1, 0), (1, 3)])
    assert "flip_v" in left_right.symmetries() and "flip_h" not in left_right.symmetries()


def test_the_auto_engine_is_as_documented() -> None:
    """``engine="auto"`` (_options.py's ``Engine``): orbits for a rotation, else backtrack,
    else (lex-leader constraints) sat."""
    assert qs.count(8).engine == "backtrack"
    assert qs.count(12, symmetric="r90").engine == "orbits"
    assert qs.count(8, symmetric="flip_h").engine == "backtrack"
    assert qs.count(8, break_symmetry="lex").engine == "sat"
