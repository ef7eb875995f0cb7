"""Every size bounded (issue 52 §3) from Python: a plain board of any n is built at once and
verified (``Board.columns`` is its compact form), the time-limit values (``inf``, too large, too
small) follow the command line's rule, and the walk refuses ``certify``."""

from __future__ import annotations

import pickle

import pytest

import queens_sat as qs


def attack_free(columns: list[int]) -> bool:
    """The test's own O(n) check: one piece per row, no shared column or diagonal."""
    n = len(columns)
    return (
        len(set(columns)) == n
        and len({r - c for r, c in enumerate(columns)}) == n
        and len({r + c for r, c in enumerate(columns)}) == n
        and all(0 <= c < n for c in columns)
    )


@pytest.mark.parametrize("n", [4, 2000, 2003, 20000, 65536])
def test_big_plain_boards(n: int) -> None:
    r = qs.solve(n, timeout=10)
    assert r.status is qs.Status.SAT
    assert r.board is not None and r.board.n == n
    assert attack_free(r.board.columns)


def test_tiny_plain_boards() -> None:
    assert qs.solve(1).status is qs.Status.SAT
    assert qs.solve(2).status is qs.Status.UNSAT
    assert qs.solve(3).status is qs.Status.UNSAT
    assert qs.solve(3, solver="walk").status is qs.Status.UNSAT


def test_timeout_values() -> None:
    assert qs.solve(8, timeout=float("inf")).status is qs.Status.SAT
    with pytest.raises(qs.UsageError, match=r"^timeout=1e\+30 is too large"):
        qs.solve(8, timeout=1e30)
    with pytest.raises(qs.UsageError, match=r"^timeout=1e-10 is below the resolution of 0\.001"):
        qs.solve(8, timeout=1e-10)
    with pytest.raises(qs.UsageError, match=r"is too large"):
        qs.solve(8, timeout=10**400)
    with pytest.raises(qs.UsageError, match="^timeout=0 must be a positive number of seconds$"):
        qs.solve(8, timeout=0)


def test_walk_refuses_certify() -> None:
    with pytest.raises(qs.UsageError, match="walk.*certify"):
        qs.solve(8, solver="walk", certify=True)


def test_the_size_past_the_dimacs_limit_is_none_with_a_reason() -> None:
    # n = 46,341 plain: 2,263,537,673 variables with the default encoding, past DIMACS' limit;
    # the construction answers without a CNF, and the size is not counted. It used to be 0.
    r = qs.solve(46341, timeout=30)
    assert r.status is qs.Status.SAT
    assert (r.vars, r.clauses) == (None, None)
    why = r.size_omitted
    assert why is not None and "2263537673 variables exceed the DIMACS limit" in why, why
    assert "--" not in why, why
    record = r.to_dict()
    assert (record["vars"], record["clauses"], record["size_omitted"]) == (None, None, why)
    # It travels through pickling.
    again = pickle.loads(pickle.dumps(r))
    assert (again.vars, again.clauses, again.size_omitted) == (None, None, why)
    # Below the limit the size is the CNF's, and nothing is omitted.
    small = qs.solve(100, timeout=30)
    f = qs.encode(100)
    assert (small.vars, small.clauses, small.size_omitted) == (f.num_vars, f.num_clauses, None)
    assert "size_omitted" not in small.to_dict()
