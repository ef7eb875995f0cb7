"""``queens_sat.plan`` (issue 65): what ``solve`` would do, as data, without solving.

The plans asserted here are decided, not run: ``plan`` presolves the instance and runs no
solver. The same arguments that ``solve`` refuses, ``plan`` refuses with the same error, and a
solve's ``Result.plan`` is the plan ``plan`` gives for the same call.
"""

from __future__ import annotations

import json
import pickle
import subprocess
import time
from pathlib import Path
from typing import Any, Dict, List

import pytest

import queens_sat as qs

HUGE = 2**70

#: A small blocked instance (12 x 12, 40 holes) and a completion instance (3 pre-placed queens):
#: the default strategy races the bitboard search against cube-and-conquer (blocked) or splits
#: the bitboard search over the cores (completion) on two threads, and on one thread runs local
#: search then cube-and-conquer.
BLOCKED = qs.generate.blocked(12, 40, min_free=1, seed=9)
COMPLETION = qs.generate.completion(12, 3, seed=1)


def test_a_plain_board_is_constructed_first() -> None:
    p = qs.plan(qs.Instance(8))
    assert isinstance(p, qs.Plan)
    assert p.step == "construct" and p.engines[0] == "construct"
    d = p.to_dict()
    assert d["step"] == "construct" and d["engine"] == "construct"
    assert d["unsat_stands"] is True
    assert str(p).startswith("the construction: its board answers, and so does its UNSAT")
    assert qs.plan(8) == p  # an int is a plain board, as for solve


def test_a_named_solver_runs_alone() -> None:
    p = qs.plan(8, solver="varisat")
    assert p.engines == ["varisat"]
    d = p.to_dict()
    assert d["step"] == "run" and d["engine"] == "varisat" and d["amo"] == "auto"
    assert str(p).startswith("varisat (--amo auto")
    assert repr(p) == "Plan(step='run', engines=['varisat'])"
    assert qs.plan(8, solver="varisat", amo="pairwise").to_dict()["amo"] == "pairwise"


def test_a_portfolio_races_its_entrants() -> None:
    p = qs.plan(8, solver="varisat,lib:cadical", jobs=2)
    assert p.step == "portfolio"
    assert p.engines == ["varisat", "lib:cadical"]
    d = p.to_dict()
    assert [e["engine"] for e in d["entrants"]] == ["varisat", "lib:cadical"]
    assert d["threads"] == 2
    assert str(p) == "a portfolio race of varisat --amo auto, lib:cadical --amo auto (2 threads)"


@pytest.mark.parametrize("inst", [BLOCKED, COMPLETION], ids=["blocked", "completion"])
def test_one_thread_races_nothing(inst: qs.Instance) -> None:
    one = qs.plan(inst, jobs=1)
    assert one.step == "prepass"
    assert one.engines == ["walk", "lib:cadical"]
    assert one.to_dict()["then"]["step"] == "cubes" and one.to_dict()["then"]["jobs"] == 1
    assert "race" not in str(one)


def test_two_threads_race_on_a_blocked_board() -> None:
    two = qs.plan(BLOCKED, jobs=2)
    assert two.step == "race"
    lanes = two.to_dict()["lanes"]
    assert [lane["label"] for lane in lanes] == ["the bitboard search", "cube-and-conquer"]
    assert lanes[0]["plan"]["engine"] == "bitboard"
    assert lanes[1]["plan"]["step"] == "prepass" and lanes[1]["plan"]["then"]["jobs"] == 1
    assert two.engines == ["bitboard", "walk", "lib:cadical"]
    assert str(two).startswith("a race, the first definite answer wins:\n  the bitboard search:")


def test_two_threads_split_the_bitboard_search_on_a_completion_board() -> None:
    two = qs.plan(COMPLETION, jobs=2)
    assert two.to_dict()["step"] == "run"
    assert two.engines == ["bitboard"] and two.to_dict()["threads"] == 2


def test_certify_keeps_the_constructions_unsat_from_standing() -> None:
    plain, certified = qs.plan(8, jobs=2), qs.plan(8, jobs=2, certify=True)
    assert plain.to_dict()["unsat_stands"] is True
    assert certified.to_dict()["unsat_stands"] is False
    assert "(its UNSAT carries no proof)" in str(certified)
    # Under certify the cube solver checks each cube and adds no implied constraints.
    cubes = certified.to_dict()["otherwise"]["lanes"][1]["plan"]["then"]
    assert cubes["certified"] is True and cubes["implied"] == "none"


def test_an_instance_presolve_refutes_is_answered_without_a_search() -> None:
    refuted = qs.Instance(8, placed=[(0, 0), (0, 5)])  # two queens on one row
    p = qs.plan(refuted, jobs=2)
    assert p.step == "presolved" and str(p).startswith("presolve refutes it (")
    assert "share a row" in p.to_dict()["reason"]
    r = qs.solve(refuted, jobs=2)
    assert r.status == "UNSAT" and r.solver == "presolve" and r.plan == p
    assert r.reason == p.to_dict()["reason"]
    # Under certify the run named in the plan backs the UNSAT with a checked refutation.
    certified = qs.plan(refuted, jobs=2, certify=True)
    assert certified.to_dict()["then"]["certify"] is True
    assert qs.solve(refuted, jobs=2, certify=True).certified is not None


def test_the_timeout_shapes_the_local_search() -> None:
    assert qs.plan(BLOCKED, jobs=1).to_dict()["budget_seconds"] == 1.0
    assert qs.plan(BLOCKED, jobs=1, timeout=5).to_dict()["budget_seconds"] == 0.5


def test_planning_solves_nothing_and_writes_nothing(tmp_path: Path) -> None:
    proof = tmp_path / "p.lrat"
    t0 = time.perf_counter()
    p = qs.plan(qs.Instance(30, placed=[(0, 0)]), certify=True, proof=proof)
    assert time.perf_counter() - t0 < 5
    assert p.to_dict()["step"] == "run" and p.to_dict()["proof"] == str(proof)
    assert p.engines == ["bitboard"]
    assert not proof.exists()


def test_plans_are_deterministic_and_compare_by_their_json() -> None:
    a, b = qs.plan(BLOCKED, jobs=2), qs.plan(BLOCKED, jobs=2)
    assert a == b and hash(a) == hash(b) and a.to_dict() == b.to_dict()
    assert a != qs.plan(BLOCKED, jobs=1) and a != a.to_dict()
    assert json.loads(a.to_json()) == a.to_dict()
    assert pickle.loads(pickle.dumps(a)) == a
    assert str(pickle.loads(pickle.dumps(a))) == str(a)


def test_a_plan_is_frozen_and_built_by_plan_only() -> None:
    p = qs.plan(8)
    with pytest.raises(AttributeError):
        p.step = "run"  # type: ignore[misc]
    with pytest.raises(TypeError):
        qs.Plan()


def test_the_plan_matches_the_cli_explain(cli: Path, tmp_path: Path) -> None:
    path = tmp_path / "b.txt"
    path.write_text(BLOCKED.to_text())
    for jobs in (1, 2):
        args = [str(cli), "solve", "--instance", str(path), "--jobs", str(jobs), "--explain"]
        text = subprocess.run(args, capture_output=True, text=True, check=True).stdout
        out = subprocess.run([*args, "--format", "json"], capture_output=True, text=True, check=True)
        p = qs.plan(BLOCKED, jobs=jobs)
        assert str(p) == text.rstrip("\n")
        assert p.to_dict() == json.loads(out.stdout)


#: Calls ``solve`` refuses (``test_bad_arguments``'s rows for ``solve``, but ``cancel``); each
#: must be refused by ``plan`` with the same exception, argument, value and message.
REFUSED: List[Dict[str, Any]] = [
    dict(instance=8, jobs=-1),
    dict(instance=8, jobs=0),
    dict(instance=8, jobs=HUGE),
    dict(instance=8, jobs="4"),
    dict(instance=8, solver=""),
    dict(instance=8, solver="nosuch"),
    dict(instance=8, solver=5),
    dict(instance=8, solver="varisat,"),
    dict(instance=8, solver="varisat amo"),
    dict(instance=8, solver="varisat", jobs=2),
    dict(instance=8, timeout=-1),
    dict(instance=8, timeout=10**400),
    dict(instance=8, timeout="5"),
    dict(instance=8, certify="no"),
    dict(instance=8, deterministic=True),
    dict(instance=8, amo=""),
    dict(instance=8, amo="pairwse"),
    dict(instance=8, solver="bitboard", amo="pairwise"),
    dict(instance=8, implied="all"),
    dict(instance=8, symmetric=""),
    dict(instance=8, break_symmetry="sort"),
    dict(instance=8, proof="x.lrat"),
    dict(instance=8, proof=3),
    dict(instance=3, proof_format="veripb"),
    dict(instance=3, certify=True, proof_format="drat"),
    dict(instance=3, certify=True, proof="p.pbp", proof_format="lrat"),
    dict(instance=3, certify=True, proof_format=1),
    dict(instance=3, proof_budget="10G"),
    dict(instance=9, certify=True, solver="varisat", proof_budget=10**6),
    dict(instance=3, certify=True, proof="p.lrat", proof_budget="lots"),
    dict(instance=3, certify=True, proof="p.lrat", proof_budget="0"),
    dict(instance=3, certify=True, proof="p.lrat", proof_budget=0),
    dict(instance=3, certify=True, proof="p.lrat", proof_budget=1.5),
    dict(instance=3, certify=True, proof="p.lrat", proof_budget=True),
    dict(instance=-1),
    dict(instance=HUGE),
    dict(instance="8"),
    dict(instance=8, certify=True, implied="sums", solver="varisat"),
    # An engine that does not take the instance under these options (planned alone).
    dict(instance=12, solver="bitboard", symmetric="r90"),
    dict(instance=12, solver="walk", break_symmetry="lex"),
    # An encoding the default strategy never builds: the construction answers the board.
    dict(instance=8, amo="pairwise"),
    dict(instance=8, implied="sums"),
    dict(instance=3, amo="pairwise"),
]


#: Encoding options on plain boards: refused where the construction answers (``plan`` and
#: ``queens-sat solve --explain`` alike, with the same ``argv``), planned where it builds
#: nothing (amazons n = 8: the fallback encodes with them).
ENCODING_ON_PLAIN: List[tuple[Dict[str, Any], List[str], bool]] = [
    (dict(instance=8, amo="pairwise"), ["-n", "8", "--amo", "pairwise"], False),
    (dict(instance=8, implied="sums"), ["-n", "8", "--implied", "sums"], False),
    (
        dict(instance=qs.Instance(8, piece="amazon"), amo="pairwise"),
        ["-n", "8", "--piece", "amazon", "--amo", "pairwise"],
        True,
    ),
]


def refusal(call: Any, kwargs: Dict[str, Any]) -> qs.Error:
    args = dict(kwargs)
    instance = args.pop("instance")
    with pytest.raises(qs.Error) as info:
        call(instance, **args)
    return info.value


@pytest.mark.parametrize("kwargs", REFUSED, ids=[repr(k)[:60] for k in REFUSED])
def test_plan_refuses_what_solve_refuses(
    kwargs: Dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    by_solve = refusal(qs.solve, kwargs)
    by_plan = refusal(qs.plan, kwargs)
    assert type(by_plan) is type(by_solve)
    assert str(by_plan) == str(by_solve)
    assert getattr(by_plan, "argument", None) == getattr(by_solve, "argument", None)
    assert getattr(by_plan, "value", None) == getattr(by_solve, "value", None)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "kwargs,argv,planned", ENCODING_ON_PLAIN, ids=[" ".join(a[1]) for a in ENCODING_ON_PLAIN]
)
def test_plan_and_explain_agree_on_encoding_options_on_plain_boards(
    kwargs: Dict[str, Any], argv: List[str], planned: bool, cli: Path
) -> None:
    explain = [str(cli), "solve", *argv, "--explain", "--format", "json"]
    out = subprocess.run(explain, capture_output=True, text=True)
    args = dict(kwargs)
    instance = args.pop("instance")
    if planned:
        p = qs.plan(instance, **args)
        assert out.returncode == 0, out.stderr
        assert p.to_dict() == json.loads(out.stdout)
        assert "construct" not in p.engines  # amazons n = 8: no construction
        return
    by_plan = refusal(qs.plan, kwargs)
    assert isinstance(by_plan, qs.UsageError)
    assert out.returncode == 1 and out.stdout == ""
    assert "construction" in str(by_plan) and "construction" in out.stderr


def test_plan_takes_the_arguments_of_solve_but_cancel() -> None:
    import inspect

    solve = inspect.signature(qs.solve).parameters
    plan = inspect.signature(qs.plan).parameters
    assert list(plan) == [name for name in solve if name != "cancel"]
    for name, param in plan.items():
        assert param.default == solve[name].default, name
        assert param.kind == solve[name].kind, name
    with pytest.raises(TypeError):
        qs.plan(8, cancel=qs.Cancel())  # type: ignore[call-arg]


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(instance=qs.Instance(8), solver="varisat"),
        dict(instance=qs.Instance(8), solver="varisat,lib:cadical", amo="pairwise"),
        dict(instance=qs.Instance(8), jobs=2),
        dict(instance=qs.Instance(8), jobs=1, certify=True),
        dict(instance=BLOCKED, jobs=2, timeout=60),
        dict(instance=COMPLETION, jobs=1),
        dict(instance=qs.Instance(4, placed=[(0, 0)]), solver="varisat"),
        dict(instance=qs.Instance(8, placed=[(0, 0), (3, 3)])),
    ],
    ids=repr,
)
def test_a_results_plan_is_the_plan_of_the_same_call(kwargs: Dict[str, Any]) -> None:
    args = dict(kwargs)
    instance = args.pop("instance")
    p = qs.plan(instance, **args)
    r = qs.solve(instance, **args)
    assert r.plan == p
    assert r.to_dict()["plan"] == p.to_dict()
    assert json.loads(r.to_json())["plan"] == p.to_dict()
    # The plan travels with a pickled result.
    back = pickle.loads(pickle.dumps(r))
    assert back.plan == p and back.to_dict() == r.to_dict()


def test_the_result_record_matches_the_cli_json_with_its_plan(cli: Path) -> None:
    r = qs.solve(qs.Instance(10), solver="varisat", jobs=None)
    out = subprocess.run(
        [cli, "solve", "-n", "10", "--solver", "varisat", "--format", "json"],
        capture_output=True,
        text=True,
    )
    assert r.to_dict()["plan"] == json.loads(out.stdout)["plan"]


def test_a_solve_stopped_before_planning_has_no_plan() -> None:
    """A deadline that passes during presolve (before any plan is decided) answers UNKNOWN
    without a plan, and the record has no ``plan`` field, as before."""
    big = qs.Instance(40_000, placed=[(0, 1)])
    r = qs.solve(big, timeout=0.001)
    if r.plan is None:  # the deadline struck before the plan was decided
        assert r.status is qs.Status.UNKNOWN
        assert "plan" not in r.to_dict()
    else:  # a fast machine planned in time: the plan is the call's
        assert r.plan == qs.plan(big, timeout=0.001)
