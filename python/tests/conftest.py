"""Helpers shared by the tests: an independent brute-force oracle and instance makers."""

from __future__ import annotations

import os
import shutil
import signal
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Sequence, Set, Tuple

import pytest

import queens_sat as qs

ROOT = Path(__file__).resolve().parents[2]

KNIGHT = [(1, 2), (2, 1), (1, -2), (2, -1), (-1, 2), (-2, 1), (-1, -2), (-2, -1)]


def attacks(piece: str, a: Tuple[int, int], b: Tuple[int, int]) -> bool:
    """Whether pieces on cells a and b attack each other (written from the rules, not the code)."""
    (r1, c1), (r2, c2) = a, b
    if r1 == r2 or c1 == c2 or r1 - c1 == r2 - c2 or r1 + c1 == r2 + c2:
        return True
    return piece == "amazon" and (r2 - r1, c2 - c1) in KNIGHT


def unavailable(inst: qs.Instance) -> Set[Tuple[int, int]]:
    """The cells no piece may take: blocked cells and the cells of excluded diagonals."""
    cells = set(inst.blocked)
    n = inst.n
    for kind, key in inst.excluded:
        for r in range(n):
            for c in range(n):
                k = r - c + n - 1 if kind == "diagonal" else r + c
                if k == key:
                    cells.add((r, c))
    return cells


def oracle(inst: qs.Instance) -> Optional[List[int]]:
    """A solution's columns by enumerating permutations row by row (pruned as soon as a prefix
    fails), or None. Knows nothing of the CNF, presolve or the Rust code."""
    n, piece = inst.n, inst.piece
    bad = unavailable(inst)
    placed: Dict[int, int] = {}
    for r, c in inst.placed:
        if placed.get(r, c) != c or (r, c) in bad:
            return None
        placed[r] = c
    cols: List[int] = []
    used: Set[int] = set()

    def ok(r: int, c: int) -> bool:
        if c in used or (r, c) in bad:
            return False
        if r in placed and placed[r] != c:
            return False
        return not any(attacks(piece, (pr, pc), (r, c)) for pr, pc in enumerate(cols))

    def go(r: int) -> bool:
        if r == n:
            return True
        for c in range(n):
            if ok(r, c):
                cols.append(c)
                used.add(c)
                if go(r + 1):
                    return True
                cols.pop()
                used.discard(c)
        return False

    return list(cols) if go(0) else None


def is_solution(inst: qs.Instance, pieces: Sequence[Tuple[int, int]]) -> bool:
    """An independent check of a board (the tests' own, besides queens_sat.verify)."""
    pieces = list(pieces)
    if len(pieces) != inst.n or len(set(pieces)) != inst.n:
        return False
    if unavailable(inst) & set(pieces) or not set(inst.placed) <= set(pieces):
        return False
    return not any(
        attacks(inst.piece, a, b) for i, a in enumerate(pieces) for b in pieces[i + 1 :]
    )


@pytest.fixture(scope="session")
def cli() -> Path:
    """The queens-sat binary (built by `cargo test --release` / `cargo build --release`)."""
    path = Path(os.environ.get("QUEENS_SAT_BIN", ROOT / "target" / "release" / "queens-sat"))
    if not path.exists():
        found = shutil.which("queens-sat")
        if found is None:
            pytest.fail(f"queens-sat binary not found at {path}: run cargo build --release")
        path = Path(found)
    return path


@pytest.fixture
def python_sigint() -> Iterator[None]:
    """Python's own SIGINT handler (``KeyboardInterrupt``) for the test, whatever the suite was
    started with: under ``nohup`` or as a background job (``cmd &``) SIGINT is ignored, Python
    installs no handler, and a Ctrl-C test would wait for a stop that never comes."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
