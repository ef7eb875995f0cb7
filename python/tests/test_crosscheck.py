"""encode(...).to_pysat() solved by PySAT, solve(...) and a brute-force oracle agree on random
small instances (n <= 9; queens and amazons; completion, blocked cells, excluded diagonals)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from pysat.solvers import Cadical153

import queens_sat as qs
from conftest import is_solution, oracle


def random_instances(seed: int, count: int):
    rng = random.Random(seed)
    for _ in range(count):
        n = rng.randint(4, 9)
        piece = rng.choice(["queen", "amazon"])
        kind = rng.choice(["completion", "blocked", "diagonals", "plain"])
        s = rng.randrange(1 << 30)
        if kind == "completion":
            inst = qs.generate.completion(n, rng.randint(1, max(1, n // 2)), seed=s)
        elif kind == "blocked":
            inst = qs.generate.blocked(n, rng.randint(0, n * (n - 2)), min_free=1, seed=s)
        elif kind == "diagonals":
            full = qs.generate.diagonals(n, min_free=1, seed=s)
            d = rng.randint(0, len(full.excluded))
            inst = qs.Instance.parse(full.to_text(), diags=d)
        else:
            inst = qs.Instance(n)
        yield f"{kind}-{piece}-n{n}-s{s}", inst.with_piece(piece)


CASES = list(random_instances(27, 120))


@pytest.mark.parametrize("name,inst", CASES, ids=[c[0] for c in CASES])
def test_pysat_solve_and_oracle_agree(name: str, inst: qs.Instance) -> None:
    expected = oracle(inst)
    # queens_sat's own strategy.
    r = qs.solve(inst)
    assert r.status in (qs.Status.SAT, qs.Status.UNSAT), r
    assert (r.status is qs.Status.SAT) == (expected is not None), (name, r)
    if r.board is not None:
        qs.verify(r.board, inst)
        assert is_solution(inst, r.board.pieces)
    # The exact CNF, solved by PySAT's CaDiCaL.
    for amo in ["auto", "pairwise", "sequential"]:
        f = qs.encode(inst, amo=amo)
        with Cadical153(bootstrap_with=f.to_pysat()) as s:
            sat = s.solve()
            assert sat == (expected is not None), (name, amo)
            if sat:
                board = f.decode(s.get_model())
                assert is_solution(inst, board.pieces)
                qs.verify(board, inst)


@pytest.mark.parametrize("solver", ["varisat", "lib:cadical", "lib:kissat"])
def test_backends_agree(solver: str) -> None:
    for name, inst in CASES[:30]:
        r = qs.solve(inst, solver=solver)
        assert (r.status is qs.Status.SAT) == (oracle(inst) is not None), (name, solver)


def test_no_presolve_formula_matches() -> None:
    inst = qs.Instance(6, placed=[(0, 1)], blocked=[(2, 2)])
    f = qs.encode(inst, presolve=False)
    assert f.num_cells == 36
    assert f.var(0, 0) == 1 and f.var(5, 5) == 36 and f.cell(36) == (5, 5)
    with Cadical153(bootstrap_with=f.to_pysat()) as s:
        assert s.solve()
        board = f.decode(s.get_model())
    assert (0, 1) in board.pieces and (2, 2) not in board.pieces


def test_symmetric_and_lex_formulas_count_like_the_tables() -> None:
    # 8-queens: 92 solutions, 4 of them r180-symmetric; enumerate with PySAT and blocking clauses.
    def enumerate_models(f: qs.Formula) -> int:
        cells = f.num_cells
        found = 0
        with Cadical153(bootstrap_with=f.to_pysat()) as s:
            while s.solve():
                model = s.get_model()
                f.decode(model)
                found += 1
                s.add_clause([-l for l in model[:cells] if l > 0])
        return found

    assert enumerate_models(qs.encode(qs.Instance(8))) == 92
    assert enumerate_models(qs.encode(qs.Instance(8), symmetric="r180")) == 4
    assert enumerate_models(qs.encode(qs.Instance(8), break_symmetry="lex")) == 12


def _lrat_refutes(clauses: list[list[int]], proof_text: str) -> bool:
    """An LRAT checker written here, apart from the crate's: whether ``proof_text`` (text LRAT)
    derives the empty clause from ``clauses`` (ids 1.. in order). Each added clause's hints
    must each be unit under the clause's negation and the hints before, the last one false."""
    db: dict[int, list[int]] = {i + 1: c for i, c in enumerate(clauses)}
    for line in proof_text.splitlines():
        tokens = line.split()
        if not tokens:
            continue
        cid = int(tokens[0])
        if tokens[1] == "d":
            for t in tokens[2:-1]:
                del db[int(t)]
            continue
        nums = [int(t) for t in tokens[1:]]
        zero = nums.index(0)
        lits, hints = nums[:zero], nums[zero + 1 : -1]
        assign = {-lit for lit in lits}
        ok = False
        for h in hints:
            open_lits = [x for x in db[h] if -x not in assign]
            assert not any(x in assign for x in open_lits), f"clause {cid}: hint {h} is true"
            if not open_lits:
                ok = True
                break
            assert len(open_lits) == 1, f"clause {cid}: hint {h} is not unit"
            assign.add(open_lits[0])
        assert ok, f"clause {cid}: no conflict"
        db[cid] = lits
        if not lits:
            return True
    return False


@pytest.mark.parametrize(
    "inst",
    [
        qs.Instance(6, piece="amazon"),
        qs.Instance(9, excluded=[("diagonal", k) for k in (2, 5, 8, 11, 14)]),
    ],
    ids=["amazons-6", "queens-9-excluded"],
)
def test_certified_lrat_proof_checks_here(inst: qs.Instance, tmp_path: Path) -> None:
    """``solve(certify=True, proof=...)`` leaves an LRAT proof that a checker written in this
    test accepts against ``encode(amo="pairwise")``; a SAT answer leaves no file."""
    path = tmp_path / "proof.lrat"
    r = qs.solve(inst, certify=True, proof=path)
    assert r.status is qs.Status.UNSAT
    assert r.certified is not None and "LRAT" in r.certified
    clauses = qs.encode(inst, amo="pairwise").clauses
    assert _lrat_refutes(clauses, path.read_text())
    sat_path = tmp_path / "sat.lrat"
    assert qs.solve(8, certify=True, proof=sat_path).status is qs.Status.SAT
    assert not sat_path.exists()


@pytest.mark.parametrize("proof_format", ["lrat", "veripb"])
def test_proof_format_picks_the_checked_proof(proof_format: qs.ProofFormat, tmp_path: Path) -> None:
    """``proof_format=`` chooses the certified bitboard search's proof: the certificate names
    the checker of that format; with ``proof=`` a VeriPB proof ends ``conclusion UNSAT`` over
    the OPB model, an LRAT proof checks here against the pairwise CNF."""
    inst = qs.Instance(9, excluded=[("diagonal", k) for k in (2, 5, 8, 11, 14)])
    path = tmp_path / ("p.pbp" if proof_format == "veripb" else "p.lrat")
    r = qs.solve(inst, certify=True, proof=path, proof_format=proof_format)
    assert r.status is qs.Status.UNSAT
    assert r.certified is not None
    assert ("VeriPB" if proof_format == "veripb" else "LRAT") in r.certified
    text = path.read_text()
    if proof_format == "veripb":
        assert "conclusion UNSAT" in text
    else:
        assert _lrat_refutes(qs.encode(inst, amo="pairwise").clauses, text)
