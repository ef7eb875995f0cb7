"""The files as the SAT and model-counting communities take them: GBD hashes cross-checked with
gbdc (PyPI ``gbdc``), and projected counts of the written files with two independent counters
(``pyganak``, exact; ``pyapproxmc``, approximate) against the published tables.

The sampling set given to the counters is read from each file's own ``c p show`` line, and the
clauses from the file itself (plain or ``.xz``, decompressed by the standard library), so that a
wrong header or a wrong projection fails the test."""

from __future__ import annotations

import lzma
from pathlib import Path
from typing import List, Tuple

import gbdc
import pyapproxmc
import pyganak
import pytest

import queens_sat as qs

AMOS = ["pairwise", "sequential", "product", "ladder", "commander", "bimander", "binary", "auto"]

# OEIS A000170 / A002562 (queens) and A051223 / A051224 (amazons): (total, unique).
QUEENS = {1: (1, 1), 2: (0, 0), 3: (0, 0), 4: (2, 1), 5: (10, 2), 6: (4, 1), 7: (40, 6),
          8: (92, 12), 9: (352, 46), 10: (724, 92)}
AMAZONS = {10: (4, 1)}


def read_cnf(path: Path) -> Tuple[List[str], List[List[int]], int]:
    """The comment lines, the clauses and the ``p cnf`` variable count of a DIMACS file."""
    raw = path.read_bytes()
    if raw.startswith(b"\xfd7zXZ\x00"):
        raw = lzma.decompress(raw)
    comments: List[str] = []
    clauses: List[List[int]] = []
    num_vars = -1
    for line in raw.decode().splitlines():
        if line.startswith("c"):
            comments.append(line)
        elif line.startswith("p cnf"):
            num_vars = int(line.split()[2])
        elif line.strip():
            lits = [int(x) for x in line.split()]
            assert lits[-1] == 0, line
            clauses.append(lits[:-1])
    return comments, clauses, num_vars


def sampling_set(comments: List[str]) -> List[int]:
    """The projection from the file's own ``c p show ... 0`` line (after ``c t pmc``)."""
    assert "c t pmc" in comments, "no 'c t pmc' line"
    shows = [c for c in comments if c.startswith("c p show")]
    assert len(shows) == 1, shows
    assert comments.index("c t pmc") < comments.index(shows[0])
    vars_ = [int(x) for x in shows[0].split()[3:]]
    assert vars_[-1] == 0
    return vars_[:-1]


def ganak_count(path: Path) -> int:
    """The exact projected count of the file, by ganak."""
    comments, clauses, num_vars = read_cnf(path)
    counter = pyganak.Counter(seed=1)
    counter.new_vars(num_vars)
    for c in clauses:
        counter.add_clause(c)
    counter.set_sampling_set(sampling_set(comments))
    return int(counter.count())


def instances() -> List[Tuple[str, qs.Instance]]:
    """One instance of each kind: plain, placed, blocked, excluded diagonals; queens, amazons."""
    out = [("plain", qs.Instance(8)), ("amazon", qs.Instance(10, piece="amazon"))]
    out.append(("placed", qs.generate.completion(8, 2, seed=3)))
    out.append(("blocked", qs.generate.blocked(8, 12, min_free=1, seed=4)))
    full = qs.generate.diagonals(8, min_free=1, seed=5)
    out.append(("diagonals", qs.Instance.parse(full.to_text(), diags=4)))
    return out


@pytest.mark.parametrize("amo", AMOS)
def test_gbdhash_matches_gbdc_plain_and_xz(tmp_path: Path, amo: str) -> None:
    for kind, inst in instances():
        f = qs.encode(inst, amo=amo)
        for name in ("f.cnf", "f.cnf.xz"):
            path = tmp_path / f"{kind}-{amo}-{name}"
            f.write(path)
            assert gbdc.gbdhash(str(path)) == f.gbdhash, (kind, amo, name)
        assert len(f.gbdhash) == 32


def test_gbdhash_of_the_published_example(tmp_path: Path) -> None:
    f = qs.encode(qs.Instance(8), amo="pairwise")
    assert f.gbdhash == "781e91553a5502980a9bb7a54213c757"
    f.write(tmp_path / "q8.cnf.xz", level=6)
    assert gbdc.gbdhash(str(tmp_path / "q8.cnf.xz")) == f.gbdhash


# ganak takes seconds on queens n = 8, 9 (13 s for 9-queens without lex on a loaded 2-core
# machine): each of these four cases runs under two of the encodings, in turn, and every smaller
# case under all of them.
BIG = [("queen", 8, None), ("queen", 8, "lex"), ("queen", 9, None), ("queen", 9, "lex")]


@pytest.mark.parametrize("amo", AMOS)
def test_projected_counts_are_the_published_ones(tmp_path: Path, amo: str) -> None:
    cases = [(p, n, lex) for p, n in [("queen", n) for n in range(1, 8)] + [("amazon", 10)]
             for lex in (None, "lex")]
    cases.append(BIG[AMOS.index(amo) % len(BIG)])
    for piece, n, lex in cases:
        total, unique = (QUEENS if piece == "queen" else AMAZONS)[n]
        want = unique if lex else total
        f = qs.encode(qs.Instance(n, piece=piece), amo=amo, break_symmetry=lex)
        path = tmp_path / f"{piece}{n}-{amo}-{lex}.cnf.xz"
        f.write(path)
        assert ganak_count(path) == want, (piece, n, amo, lex)


def test_approxmc_estimate_within_its_bound(tmp_path: Path) -> None:
    # 10-queens has 724 solutions; ApproxMC's default (epsilon, delta) = (0.8, 0.2) guarantees
    # count / (1 + eps) <= estimate <= count * (1 + eps) with probability 1 - delta, and a
    # pinned seed makes the run repeatable.
    eps = 0.8
    path = tmp_path / "q10.cnf"
    qs.encode(qs.Instance(10), amo="sequential").write(path)
    comments, clauses, _ = read_cnf(path)
    counter = pyapproxmc.Counter(seed=7, epsilon=eps, delta=0.2)
    for c in clauses:
        counter.add_clause(c)
    cells, hashes = counter.count(sampling_set(comments))
    estimate = cells * 2**hashes
    assert 724 / (1 + eps) <= estimate <= 724 * (1 + eps), estimate


def test_unsupported_compression_is_refused(tmp_path: Path) -> None:
    f = qs.encode(qs.Instance(6))
    with pytest.raises(qs.UsageError, match="bz2"):
        f.write(tmp_path / "x.cnf.bz2")
    with pytest.raises(qs.UsageError, match="level=12"):
        f.write(tmp_path / "x.cnf.xz", level=12)
    assert list(tmp_path.iterdir()) == []
