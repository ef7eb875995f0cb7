"""The count matrix through Python (issue 52 §1): every ``symmetric=`` (None and the 8
elements) x ``break_symmetry=`` None / "lex" x every engine (``auto``, ``sat``, ``cdcl``,
``backtrack``) x ``cross_check=`` x queens and amazons x plain, placed, blocked and
excluded-diagonal instances, n <= 9 (n = 1 included), against a brute-force oracle written
here: the solutions, the instance's symmetries, the group H of a ``symmetric=g`` count (those
that map <g> onto itself), the g-symmetric solutions each element of H fixes, and the classes
under H by canonical images. Plain boards also against the published tables
(/work/shared/reference/counts.md: A033148, A032522)."""

from __future__ import annotations

from typing import Callable, Dict, FrozenSet, List, Optional, Sequence, Tuple

import pytest

import queens_sat as qs

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


CELLS3 = [(r, c) for r in range(3) for c in range(3)]


def perm(f: Callable[[Cell], Cell]) -> Tuple[Cell, ...]:
    return tuple(f(x) for x in CELLS3)


def name_of(p: Tuple[Cell, ...]) -> str:
    return next(g for g in NAMES if perm(lambda x, g=g: apply(g, 3, x)) == p)


def compose(a: str, b: str) -> str:
    return name_of(perm(lambda x: apply(a, 3, apply(b, 3, x))))


def cyclic(g: str) -> FrozenSet[str]:
    out = {"id"}
    x = g
    while x not in out:
        out.add(x)
        x = compose(g, x)
    return frozenset(out)


def normalises(h: str, g: str) -> bool:
    inv = next(x for x in NAMES if compose(h, x) == "id")
    group = cyclic(g)
    return frozenset(compose(compose(h, x), inv) for x in group) == group


KNIGHT = [(1, 2), (2, 1), (1, -2), (2, -1), (-1, 2), (-2, 1), (-1, -2), (-2, -1)]


def attack(piece: str, a: Cell, b: Cell) -> bool:
    dr, dc = b[0] - a[0], b[1] - a[1]
    if dr == 0 or dc == 0 or abs(dr) == abs(dc):
        return True
    return piece == "amazon" and (dr, dc) in KNIGHT


def oracle_blocked(n: int, blocked: Sequence[Cell], excluded: Sequence[Tuple[str, int]]) -> FrozenSet[Cell]:
    out = set(blocked)
    for kind, k in excluded:
        for r in range(n):
            for c in range(n):
                if (kind == "diagonal" and r - c + n - 1 == k) or (kind == "anti-diagonal" and r + c == k):
                    out.add((r, c))
    return frozenset(out)


def solutions(n: int, piece: str, placed: Sequence[Cell], blocked: FrozenSet[Cell]) -> List[Sol]:
    out: List[Sol] = []
    cur: List[Cell] = []

    def go(r: int) -> None:
        if r == n:
            if all(p in cur for p in placed):
                out.append(tuple(cur))
            return
        for c in range(n):
            if (r, c) in blocked or any(p[0] == r and p[1] != c for p in placed):
                continue
            if any(attack(piece, q, (r, c)) for q in cur):
                continue
            cur.append((r, c))
            go(r + 1)
            cur.pop()

    go(0)
    return out


def image(s: Sol, g: str, n: int) -> Sol:
    return tuple(sorted(apply(g, n, x) for x in s))


class Case:
    def __init__(
        self,
        kind: str,
        n: int,
        placed: Sequence[Cell] = (),
        blocked: Sequence[Cell] = (),
        excluded: Sequence[Tuple[str, int]] = (),
    ) -> None:
        self.kind, self.n = kind, n
        self.placed, self.blocked, self.excluded = list(placed), list(blocked), list(excluded)

    def instance(self, piece: str) -> qs.Instance:
        return qs.Instance(
            self.n, piece=piece, placed=self.placed, blocked=self.blocked, excluded=self.excluded  # type: ignore[arg-type]
        )

    def __repr__(self) -> str:
        return f"{self.kind}-{self.n}-{self.placed}-{self.blocked}-{self.excluded}"


CASES = (
    [Case("plain", n) for n in range(1, 10)]
    + [
        Case("placed", 5, placed=[(2, 2)]),
        Case("placed", 8, placed=[(0, 0)]),
        Case("placed", 8, placed=[(1, 4)]),
        Case("placed", 1, placed=[(0, 0)]),
        Case("blocked", 8, blocked=[(0, 2), (2, 7), (7, 5), (5, 0)]),
        Case("blocked", 6, blocked=[(0, 1), (5, 4)]),
        Case("blocked", 9, blocked=[(2, 5), (5, 2)]),
        Case("blocked", 8, blocked=[(3, 3), (6, 1), (0, 7)]),
        Case("excluded", 8, excluded=[("diagonal", 7), ("anti-diagonal", 7)]),
        Case("excluded", 9, excluded=[("diagonal", 8)]),
        Case("excluded", 7, excluded=[("anti-diagonal", 2)]),
    ]
)


def expected(case: Case, sols: List[Sol], g: Optional[str]) -> Tuple[List[str], int, Dict[str, int], int]:
    n = case.n
    placed = frozenset(case.placed)
    blocked = oracle_blocked(n, case.blocked, case.excluded)
    stab = [
        h
        for h in NAMES
        if frozenset(apply(h, n, x) for x in placed) == placed
        and frozenset(apply(h, n, x) for x in blocked) == blocked
    ]
    group = [h for h in stab if g is None or normalises(h, g)]
    kept = [s for s in sols if g is None or image(s, g, n) == tuple(sorted(s))]
    fixed = {h: sum(1 for s in kept if image(s, h, n) == tuple(sorted(s))) for h in group}
    classes = {min(image(s, h, n) for h in group) for s in kept}
    return group, len(kept), fixed, len(classes)


@pytest.mark.parametrize("case", CASES, ids=repr)
@pytest.mark.parametrize("piece", ["queen", "amazon"])
def test_every_cell_matches_the_oracle(case: Case, piece: str) -> None:
    if piece == "amazon" and case.n > 6 and case.kind != "plain":
        pytest.skip("no amazon solutions below n = 10; the small ones cover the kind")
    inst = case.instance(piece)
    sols = solutions(case.n, piece, case.placed, oracle_blocked(case.n, case.blocked, case.excluded))
    for g in [None, *NAMES]:
        group, total, fixed, classes = expected(case, sols, g)
        for lex in [None, "lex"]:
            for engine in ["auto", "sat", "cdcl", "backtrack"]:
                for cross_check in [False, True]:
                    what = f"{case} {piece} symmetric={g} lex={lex} engine={engine} cross_check={cross_check}"
                    c = qs.count(
                        inst,
                        symmetric=g,  # type: ignore[arg-type]
                        break_symmetry=lex,  # type: ignore[arg-type]
                        engine=engine,  # type: ignore[arg-type]
                        cross_check=cross_check,
                        jobs=2,
                    )
                    assert c.group == group, what
                    assert c.unique == classes, what
                    assert c.symmetric == g, what
                    engines = c.engine.split("+")
                    assert len(engines) == (2 if cross_check else 1), what
                    assert len(set(engines)) == len(engines), what
                    if engine == "auto":
                        orbits = g in ("r90", "r180", "r270") and case.blocked == [] and case.excluded == []
                        assert engines[0] == ("sat" if lex else "orbits" if orbits else "backtrack"), what
                    else:
                        assert engines[0] == engine, what
                    if lex:
                        assert c.total is None and c.fixed_points == {}, what
                    else:
                        assert c.total == total, what
                        assert c.fixed_points == fixed, what


# n: (A033148 fixed by r90, A032522 fixed by r180)
PUBLISHED = {1: (1, 1), 2: (0, 0), 3: (0, 0), 4: (2, 2), 5: (2, 2), 6: (0, 4), 7: (0, 8), 8: (0, 4), 9: (0, 16), 12: (8, 80)}


@pytest.mark.parametrize("n", sorted(PUBLISHED))
@pytest.mark.parametrize("engine", ["auto", "sat", "cdcl", "backtrack"])
def test_symmetric_totals_are_the_published_fixed_points(n: int, engine: str) -> None:
    r90, r180 = PUBLISHED[n]
    for g, want in [("r90", r90), ("r270", r90), ("r180", r180)]:
        c = qs.count(qs.Instance(n), symmetric=g, engine=engine)  # type: ignore[arg-type]
        assert c.total == want, (n, g, engine)


def test_issue_52_symmetric_lex() -> None:
    # It printed 12 (the classes of every 8-queens solution): 4 boards, one class.
    assert qs.count(qs.Instance(8), symmetric="r180", break_symmetry="lex").unique == 1
    assert qs.count(qs.Instance(10), symmetric="r180", break_symmetry="lex").unique == 3


def test_timeout() -> None:
    with pytest.raises(qs.TimeLimitError) as e:
        qs.count(qs.Instance(22), engine="sat", timeout=0.25)
    assert e.value.limit == "0.25"
    assert "timeout=0.25" in str(e.value)
    assert isinstance(e.value, TimeoutError)
    with pytest.raises(qs.UsageError) as u:
        qs.count(qs.Instance(8), timeout=-1)
    assert u.value.argument == "timeout"
    assert qs.count(qs.Instance(8), timeout=60).total == 92
