"""``queens_sat.solutions`` (issue 54 §2): the boards yielded against a brute-force oracle
written here (every instance kind: plain, placed, blocked, excluded diagonals; queens and
amazons; ``symmetric=`` None and each element; ``modulo_symmetry=`` False and True), against
``count`` (``total``, ``unique``) and against ``queens-sat count --boards`` (the same boards in
the same order); laziness (the first board of n = 30 and 64); ``limit``, ``timeout`` and bad
arguments."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import List, Sequence, Set, Tuple

import pytest

import queens_sat as qs
from conftest import attacks, unavailable

Cell = Tuple[int, int]
Sol = Tuple[Cell, ...]
NAMES = ["id", "r90", "r180", "r270", "flip_h", "flip_v", "flip_d", "flip_a"]


def apply(name: str, n: int, cell: Cell) -> Cell:
    r, c = cell
    m = n - 1
    return {
        "id": (r, c),
        "r90": (c, m - r),
        "r180": (m - r, m - c),
        "r270": (m - c, r),
        "flip_h": (m - r, c),
        "flip_v": (r, m - c),
        "flip_d": (c, r),
        "flip_a": (m - c, m - r),
    }[name]


def image(s: Sol, g: str, n: int) -> Sol:
    return tuple(sorted(apply(g, n, x) for x in s))


def oracle(inst: qs.Instance) -> Set[Sol]:
    """Every solution, by brute force over one piece per row."""
    n, piece = inst.n, inst.piece
    dead = unavailable(inst)
    placed = set(inst.placed)
    out: Set[Sol] = set()
    cur: List[Cell] = []

    def go(r: int) -> None:
        if r == n:
            if placed <= set(cur):
                out.add(tuple(cur))
            return
        for c in range(n):
            if (r, c) not in dead and not any(attacks(piece, q, (r, c)) for q in cur):
                cur.append((r, c))
                go(r + 1)
                cur.pop()

    go(0)
    return out


def sols(it: qs.Solutions) -> List[Sol]:
    return [tuple(b) for b in it]


CASES: List[Tuple[str, int, Sequence[Cell], Sequence[Cell], Sequence[Tuple[str, int]]]] = [
    ("plain", 1, [], [], []),
    ("plain", 6, [], [], []),
    ("plain", 8, [], [], []),
    ("plain", 10, [], [], []),
    ("placed", 7, [(3, 3)], [], []),
    ("placed", 8, [(1, 4)], [], []),
    ("blocked", 8, [], [(0, 2), (2, 7), (7, 5), (5, 0)], []),
    ("blocked", 6, [], [(0, 1), (5, 4)], []),
    ("excluded", 8, [], [], [("diagonal", 7), ("anti-diagonal", 7)]),
    ("excluded", 7, [], [], [("anti-diagonal", 2)]),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-{c[1]}")
@pytest.mark.parametrize("piece", ["queen", "amazon"])
def test_solutions_match_the_oracle_and_count(
    case: Tuple[str, int, Sequence[Cell], Sequence[Cell], Sequence[Tuple[str, int]]], piece: str
) -> None:
    _, n, placed, blocked, excluded = case
    inst = qs.Instance(n, piece=piece, placed=placed, blocked=blocked, excluded=excluded)  # type: ignore[arg-type]
    every = oracle(inst)
    for g in [None, *NAMES]:
        what = f"{case} {piece} symmetric={g}"
        c = qs.count(inst, symmetric=g)  # type: ignore[arg-type]
        kept = {s for s in every if g is None or image(s, g, n) == s}
        leaders = {min(image(s, h, n) for h in c.group) for s in kept}
        all_boards = sols(qs.solutions(inst, symmetric=g))  # type: ignore[arg-type]
        assert len(set(all_boards)) == len(all_boards) == c.total, what
        assert set(all_boards) == kept, what
        it = qs.solutions(inst, symmetric=g, modulo_symmetry=True)  # type: ignore[arg-type]
        assert it.group == c.group and it.modulo_symmetry, what
        classes = sols(it)
        assert len(set(classes)) == len(classes) == c.unique, what
        assert set(classes) == leaders, what
        assert it.yielded == len(classes), what


def test_solutions_are_lazy_and_verified() -> None:
    for n in [30, 64]:
        for modulo in [False, True]:
            it = qs.solutions(n, modulo_symmetry=modulo)
            first = next(it)
            qs.verify(first, qs.Instance(n))
            assert len(list(first)) == n
            assert it.yielded == 1
    boards = list(qs.solutions(qs.Instance(30, piece="amazon"), limit=3))
    assert len(boards) == 3 and len(set(tuple(b) for b in boards)) == 3
    for b in boards:
        qs.verify(b, qs.Instance(30, piece="amazon"))
    assert list(qs.solutions(8, limit=0)) == []
    assert "Solutions(n=8" in repr(qs.solutions(8))


def test_solutions_are_the_command_line_boards(cli: Path) -> None:
    args = ["count", "-n", "9", "--boards", "all", "--break-symmetry", "lex", "--symmetric", "r180"]
    out = subprocess.run(
        [str(cli), *args, "--format", "json"], capture_output=True, text=True, check=True
    ).stdout
    lines = [json.loads(line) for line in out.splitlines()]
    cli_boards = [tuple((q[0], q[1]) for q in v["queens"]) for v in lines[:-1]]
    ours = sols(qs.solutions(9, modulo_symmetry=True, symmetric="r180"))
    assert cli_boards == ours
    assert lines[-1]["boards"] == len(ours) and lines[-1]["status"] == "complete"


def test_solutions_time_limit_and_bad_arguments() -> None:
    it = qs.solutions(20, timeout=0.05)
    with pytest.raises(qs.TimeLimitError) as e:
        for _ in it:
            pass
    assert e.value.limit == "0.05"
    with pytest.raises(qs.UsageError) as u:
        qs.solutions(8, symmetric="r45")  # type: ignore[arg-type]
    assert "symmetric" in str(u.value)
    with pytest.raises(qs.UsageError) as u:
        qs.solutions(8, limit=-1)
    assert "limit" in str(u.value)
    with pytest.raises(qs.UsageError) as u:
        qs.solutions(65)
    assert "64" in str(u.value)
    with pytest.raises(qs.ArgumentTypeError):
        qs.solutions(8, modulo_symmetry="yes")  # type: ignore[arg-type]
    with pytest.raises(qs.UsageError):
        qs.solutions(8, timeout=-1)
