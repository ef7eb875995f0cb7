#!/usr/bin/env python3
"""The amazons' classes by symmetry as OEIS b-files (issue 62): A352661 (doubly symmetric
classes, R/2), A352662 (classes with only the half-turn symmetry, (P - R)/4) and A352663
(asymmetric classes, (T - P)/8), where R and P are the boards a quarter and a half turn fix
(`count --symmetric r90|r180 --piece amazon`, the orbits engine) and T all boards (A051223,
published to n = 26). n = 1: the one board is its own class (1, 0, 0).

Usage:
    scripts/symmetric-table.py --piece amazon --r90 1-44 --r180 1-28 --repeat 1
    scripts/amazon-bfiles.py [ROWS.tsv]           # default docs/runs/symmetric-amazon.tsv

Writes docs/symmetric/b352661.txt, b352662.txt, b352663.txt: `n a(n)` per line, contiguous
from n = 1 as far as the counts reach. Checks, and stops on a difference: Knuth's published
terms (n <= 21, from ../shared/reference/counts.md) and Burnside, P + 2R = 8 A051224 - A051223
(n <= 26), i.e. A051224 = A352661 + A352662 + A352663.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
ROWS = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "runs" / "symmetric-amazon.tsv"
OUT = ROOT / "docs" / "symmetric"


def reference() -> tuple[dict[int, int], dict[int, int], dict[int, int]]:
    """A051223 and A051224 by n, and Knuth's nonzero A352661 terms (n <= 21)."""
    ref = (ROOT.parent / "shared" / "reference" / "counts.md").read_text()
    total: dict[int, int] = {}
    unique: dict[int, int] = {}
    section = ""
    for line in ref.splitlines():
        if line.startswith("## "):
            section = line
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if "amazons (queen" in section.lower() and len(cells) == 3 and cells[0].isdigit():
            total[int(cells[0])] = int(cells[1])
            unique[int(cells[0])] = int(cells[2])
    for n in range(2, 10):  # "No solutions for n = 2..9."
        total.setdefault(n, 0)
        unique.setdefault(n, 0)
    knuth = {12: 2, 13: 2, 16: 12, 17: 17, 20: 60, 21: 82}  # counts.md: A352661 for n <= 21
    a352661 = {n: knuth.get(n, 0) for n in range(2, 22)}
    a352661[1] = 1
    return total, unique, a352661


def main() -> None:
    runs: dict[tuple[str, int], int] = {}
    for line in ROWS.read_text().splitlines()[1:]:
        g, n, _, t, *_ = line.split("\t")
        key = (g, int(n))
        if key in runs and runs[key] != int(t):
            raise SystemExit(f"{g} n = {n}: runs differ ({runs[key]} and {t})")
        runs[key] = int(t)
    total, unique, knuth = reference()

    def upto(ok: Callable[[int], bool]) -> int:
        n = 0
        while ok(n + 1):
            n += 1
        return n

    seqs: dict[str, dict[int, int]] = {"352661": {}, "352662": {}, "352663": {}}
    for n in range(1, upto(lambda n: ("r90", n) in runs) + 1):
        r = runs[("r90", n)]
        seqs["352661"][n] = 1 if n == 1 else r // 2
        if n > 1 and r % 2:
            raise SystemExit(f"R({n}) = {r} is odd")
    for n in range(1, upto(lambda n: ("r90", n) in runs and ("r180", n) in runs) + 1):
        r, p = runs[("r90", n)], runs[("r180", n)]
        seqs["352662"][n] = 0 if n == 1 else (p - r) // 4
        if n > 1 and (p - r) % 4:
            raise SystemExit(f"P({n}) - R({n}) = {p - r} is not a multiple of 4")
        if n in total:
            tp = total[n] - p
            seqs["352663"][n] = 0 if n == 1 else tp // 8
            if n > 1 and tp % 8:
                raise SystemExit(f"T({n}) - P({n}) = {tp} is not a multiple of 8")
            if n > 1 and p + 2 * r != 8 * unique[n] - total[n]:
                raise SystemExit(f"Burnside fails at n = {n}: P + 2R = {p + 2 * r}, 8 A051224 - A051223 = {8 * unique[n] - total[n]}")
            s = seqs["352661"][n] + seqs["352662"][n] + seqs["352663"][n]
            if s != unique[n]:
                raise SystemExit(f"n = {n}: the classes add up to {s}, A051224 = {unique[n]}")
    for n, want in knuth.items():
        got = seqs["352661"].get(n)
        if got is not None and got != want:
            raise SystemExit(f"A352661({n}): counted {got}, published {want}")
    OUT.mkdir(parents=True, exist_ok=True)
    for name, terms in seqs.items():
        path = OUT / f"b{name}.txt"
        path.write_text("".join(f"{n} {a}\n" for n, a in sorted(terms.items())))
        print(f"A{name}: n = 1..{max(terms)} -> {path.relative_to(ROOT)}")


if __name__ == "__main__":
    sys.exit(main())
