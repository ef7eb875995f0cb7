"""``solve(proof=..., proof_budget=...)``: a proof file's size budget, as the command line's
``--proof-budget`` (issue 63). Past the budget the call raises ``BudgetExceededError`` (a
``TooLargeError``) naming the budget, in Python's words, and leaves no file, partial or whole."""

from __future__ import annotations

import os
from pathlib import Path
from typing import List, Union

import pytest

import queens_sat as qs

#: 3-queens is UNSAT: the bitboard search proves it with a proof of some hundreds of bytes.
UNSAT = qs.Instance(3)


def files(folder: Path) -> List[str]:
    return sorted(os.listdir(folder))


@pytest.mark.parametrize("name", ["p.lrat", "p.pbp"])
@pytest.mark.parametrize("budget", [10, "10", "10B"])
def test_a_proof_past_its_budget_is_a_typed_error(
    tmp_path: Path, name: str, budget: Union[int, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("QUEENS_SAT_PROOF_BUDGET", raising=False)
    path = tmp_path / name
    with pytest.raises(qs.BudgetExceededError) as e:
        qs.solve(UNSAT, certify=True, proof=path, proof_budget=budget)
    err = e.value
    assert isinstance(err, qs.TooLargeError) and isinstance(err, qs.Error)
    assert (err.what, err.filename, err.limit) == ("the proof", str(path), 10)
    message = str(err)
    assert message.startswith(f"{path}: the proof reached its size budget of 10 bytes"), message
    assert "proof_budget=" in message and "--" not in message, message
    assert "\n" not in message
    assert files(tmp_path) == []


def test_the_budget_argument_wins_over_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The environment's budget alone stops the proof; the argument's lets it through, and
    # "none" is no budget.
    monkeypatch.setenv("QUEENS_SAT_PROOF_BUDGET", "10")
    with pytest.raises(qs.BudgetExceededError):
        qs.solve(UNSAT, certify=True, proof=tmp_path / "env.lrat")
    assert files(tmp_path) == []
    for budget in (10**9, "1G", "none", "1.5MiB"):
        r = qs.solve(UNSAT, certify=True, proof=tmp_path / "p.lrat", proof_budget=budget)
        assert r.status is qs.Status.UNSAT and r.certified
        assert (tmp_path / "p.lrat").stat().st_size > 10
    # numpy's integers are ints.
    np = pytest.importorskip("numpy")
    with pytest.raises(qs.BudgetExceededError) as e:
        qs.solve(UNSAT, certify=True, proof=tmp_path / "q.lrat", proof_budget=np.int64(10))
    assert e.value.limit == 10


def hard_unsat() -> qs.Instance:
    """n = 24 with the first 25 of seed 18's excluded diagonals: UNSAT, and not refuted by
    CaDiCaL in minutes (its DRAT proof grows all along)."""
    inst = qs.generate.diagonals(24, min_free=1, seed=18)
    return qs.Instance.parse(inst.to_text(), diags=25)


def test_a_solvers_drat_proof_past_its_budget_is_a_typed_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Without proof=, the budget bounds the DRAT proof that the solver writes under certify:
    # past it the solver is stopped and the call raises the same error, with no file to name.
    monkeypatch.delenv("QUEENS_SAT_PROOF_BUDGET", raising=False)
    with pytest.raises(qs.BudgetExceededError) as e:
        qs.solve(hard_unsat(), certify=True, solver="lib:cadical", proof_budget=1000)
    err = e.value
    assert (err.what, err.filename, err.limit) == (
        "the DRAT proof of lib:cadical (a temporary file)",
        None,
        1000,
    )
    assert str(err).startswith("the DRAT proof of lib:cadical (a temporary file) reached its size")
    assert "--" not in str(err), str(err)
    # Where no proof is written, the budget would change nothing: refused, naming it.
    for solver in ("varisat", "bitboard", "auto"):
        with pytest.raises(qs.UsageError, match=r"^proof_budget=1000 needs proof") as u:
            qs.solve(8, certify=True, solver=solver, proof_budget=1000)
        assert (u.value.argument, u.value.value) == ("proof_budget", "1000")
