"""An option that would change nothing is refused, naming the Python argument, by the same table
as the command line's (src/applies.rs), never accepted and ignored (issue 63): ``amo=`` where
no CNF is built, ``jobs=`` where one thread runs; the same options where they apply work."""

from __future__ import annotations

from typing import Any, Callable, Dict

import pytest

import queens_sat as qs

BLOCKED = qs.generate.blocked(12, 60, min_free=1, seed=3)

REFUSED: Dict[str, Callable[[], Any]] = {
    "solve plain board, default strategy": lambda: qs.solve(8, amo="pairwise"),
    "solve bitboard": lambda: qs.solve(8, solver="bitboard", amo="pairwise"),
    "solve walk": lambda: qs.solve(BLOCKED, solver="walk", amo="sequential"),
    "solve construct": lambda: qs.solve(8, solver="construct", amo="product"),
    "count auto picks backtrack": lambda: qs.count(8, amo="pairwise"),
    "count backtrack": lambda: qs.count(8, engine="backtrack", amo="sequential"),
    "count auto picks orbits": lambda: qs.count(12, symmetric="r90", amo="pairwise"),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_amo_where_no_cnf_is_built_is_refused(name: str) -> None:
    with pytest.raises(qs.UsageError, match=r"^amo='\w+' cannot be used with") as e:
        REFUSED[name]()
    assert e.value.argument == "amo"
    assert isinstance(e.value, ValueError)
    assert "--" not in str(e.value), str(e.value)


def test_amo_where_a_cnf_is_built_works() -> None:
    r = qs.solve(8, solver="varisat", amo="pairwise")
    assert r.status is qs.Status.SAT and r.amo == "pairwise"
    assert qs.count(8, engine="sat", amo="pairwise", jobs=1).total == 92
    assert qs.count(8, engine="cdcl", amo="sequential", jobs=1).total == 92
    # cross_check=True: the second engine (sat) encodes with it.
    assert qs.count(8, cross_check=True, amo="pairwise", jobs=1).engine == "backtrack+sat"
    # The default strategy builds a CNF for a blocked board.
    assert qs.solve(BLOCKED, amo="pairwise").status is qs.solve(BLOCKED).status


def test_jobs_with_a_one_thread_solver_is_refused() -> None:
    with pytest.raises(qs.UsageError) as e:
        qs.solve(8, solver="varisat", jobs=2)
    assert e.value.argument == "jobs" and "--" not in str(e.value)
    assert qs.solve(8, solver="bitboard", jobs=2).status is qs.Status.SAT


def test_the_defaults_are_not_given() -> None:
    """Leaving ``amo`` out is never refused, whatever the solver or engine."""
    for solver in ["auto", "bitboard", "walk", "construct", "varisat"]:
        assert qs.solve(8, solver=solver).status is qs.Status.SAT
    for engine in ["auto", "backtrack", "sat"]:
        assert qs.count(8, engine=engine).total == 92


@pytest.mark.parametrize(
    "library, python",
    [
        # The library's own messages, as they reach Python (errors.rs converts them once).
        (
            "; drop --proof (presolve's UNSAT is re-proved without a file)",
            "; drop proof= (presolve's UNSAT is re-proved without a file)",
        ),
        (
            "use a smaller encoding (--amo product) or write the CNF with `encode`",
            "use a smaller encoding (amo='product') or write the CNF with `encode`",
        ),
        (
            "; use fewer --jobs, a smaller encoding (--amo product), or drop --cubes",
            "; use fewer jobs=, a smaller encoding (amo='product'), or drop cube-and-conquer",
        ),
        (
            "count always presolves its cubes; drop --no-presolve",
            "count always presolves its cubes; drop presolve=False",
        ),
        (
            "give --symmetric r90, r180 or r270",
            "give symmetric='r90', r180 or r270",
        ),
        ("--timeout 5 reached.", "timeout=5 reached."),
        ("an LRAT proof (--proof F.lrat) covers it", "an LRAT proof (proof='F.lrat') covers it"),
        ("no flags -- here, 1--2", "no flags -- here, 1--2"),
    ],
)
def test_no_command_line_words_reach_python(library: str, python: str) -> None:
    from queens_sat import _native

    assert _native._python_words(library) == python


def test_a_number_is_named_as_python_writes_it() -> None:
    with pytest.raises(qs.UsageError, match=r"^jobs=2 cannot be used with solver='varisat': "):
        qs.solve(8, solver="varisat", jobs=2)
    with pytest.raises(qs.UsageError, match=r"^deterministic=True cannot be used with jobs=1: "):
        qs.solve(8, solver="bitboard", jobs=1, deterministic=True)


def test_amo_auto_is_the_default_never_refused() -> None:
    """``amo="auto"`` is what leaving ``amo`` out means: never refused."""
    assert qs.solve(8, solver="bitboard", amo="auto").status is qs.Status.SAT
    assert qs.count(8, engine="backtrack", amo="auto").total == 92
