"""Values that compare and round-trip (issue 54 §3): ``==`` and ``hash`` on counts, results and
boards; ``from_numpy``; ``Instance.parse(i.to_text()) == i`` for every instance kind and piece;
the instance's SVG draws its pre-placed pieces."""

from __future__ import annotations

import random
import re

import numpy as np
import pytest

import queens_sat as qs


def test_counts_compare_by_their_numbers() -> None:
    a, b = qs.count(8), qs.count(8, engine="sat")
    assert a.engine != b.engine and a == b and hash(a) == hash(b)
    assert qs.count(8) != qs.count(9)
    assert qs.count(8) != qs.count(8, symmetric="r180")
    assert qs.count(8, symmetric="r180") == qs.count(8, symmetric="r180", engine="sat")
    assert len({qs.count(8), qs.count(8), qs.count(6)}) == 2
    assert qs.count(8) != 92


def test_results_compare_by_status_instance_and_board() -> None:
    a = qs.solve(8, solver="bitboard", deterministic=True)
    b = qs.solve(8, solver="bitboard", deterministic=True)
    assert a == b and hash(a) == hash(b)
    other = qs.Board.from_columns([0, 4, 7, 5, 2, 6, 1, 3])
    c = qs.solve(qs.Instance(8, placed=list(other)[:7]))
    assert c.board == other and c != a
    u1 = qs.solve(qs.Instance(4, placed=[(0, 0)]))
    u2 = qs.solve(qs.Instance(4, placed=[(0, 0)]), solver="varisat")
    assert u1 == u2 and hash(u1) == hash(u2)
    assert u1 != qs.solve(qs.Instance(4, placed=[(0, 0)], piece="amazon"))
    assert a != a.board


def test_board_from_numpy_inverts_to_numpy() -> None:
    b = qs.solve(12).board
    assert b is not None
    assert qs.Board.from_numpy(b.to_numpy()) == b
    assert qs.Board.from_numpy(b.to_numpy().astype(bool)) == b
    assert qs.Board.from_numpy([[0, 1], [0, 0]]).pieces == [(0, 1)]


def random_instance(rng: random.Random) -> qs.Instance:
    n = rng.randint(1, 12)
    piece = rng.choice(["queen", "amazon"])
    cells = [(r, c) for r in range(n) for c in range(n)]
    rng.shuffle(cells)
    kind = rng.choice(["plain", "placed", "blocked", "diagonals", "mixed"])
    placed = cells[: rng.randint(1, n)] if kind in ("placed", "mixed") else []
    rest = cells[len(placed) :]
    blocked = rest[: rng.randint(1, len(rest))] if kind in ("blocked", "mixed") and rest else []
    excluded = []
    if kind == "diagonals":
        excluded = [
            (rng.choice(["diagonal", "anti-diagonal"]), rng.randrange(2 * n - 1))
            for _ in range(rng.randint(1, n))
        ]
    try:
        return qs.Instance(n, piece=piece, placed=placed, blocked=blocked, excluded=excluded)
    except qs.UsageError:  # a pre-placed piece on a blocked cell: try again
        return random_instance(rng)


def test_text_round_trips_every_instance_and_piece() -> None:
    rng = random.Random(54)
    seen = set()
    for _ in range(300):
        inst = random_instance(rng)
        for fmt in ["board", "param"] + (["diags"] if inst.placed == [] and inst.blocked == [] else []):
            back = qs.Instance.parse(inst.to_text(fmt))
            seen.add((inst.piece, fmt))
            assert back.piece == inst.piece, (inst, fmt)
            if fmt == "diags" or not inst.excluded:
                assert back == inst, (inst, fmt)
            else:  # board and param files write excluded diagonals as the cells they cover
                assert back.blocked and back.n == inst.n
        assert qs.Instance.from_numpy(inst.to_numpy(), piece=inst.piece).to_numpy().tolist() == (
            inst.to_numpy().tolist()
        )
    assert {p for p, _ in seen} == {"queen", "amazon"}


def test_the_header_piece_applies_and_a_conflict_names_both() -> None:
    am = qs.Instance(5, piece="amazon", placed=[(0, 0)])
    text = am.to_text()
    assert "# piece: amazon" in text
    assert qs.Instance.parse(text).piece == "amazon"
    assert qs.Instance.parse(text, piece="amazon") == am
    with pytest.raises(qs.UsageError) as e:
        qs.Instance.parse(text, piece="queen")
    assert e.value.argument == "piece" and "piece: amazon" in str(e.value)
    # A queen instance's text has no header, and reads back as a queen instance.
    assert "piece" not in qs.Instance(5).to_text()
    with pytest.raises(qs.ParseError, match="unknown piece"):
        qs.Instance.parse("# piece: rook\n...\n...\n...\n")


def test_instance_svg_draws_the_pre_placed_pieces() -> None:
    bare = qs.Instance(6)._repr_svg_()
    placed = qs.Instance(6, placed=[(0, 1), (2, 5)])._repr_svg_()
    pieces = lambda svg: len(re.findall(r'class="piece', svg))  # noqa: E731
    assert pieces(placed) == pieces(bare) + 2


def test_bools_are_not_sides() -> None:
    with pytest.raises(qs.ArgumentTypeError):
        qs.Instance(True)  # type: ignore[arg-type]


def test_the_one_cell_board_is_one_clause() -> None:
    assert qs.encode(1).clauses == [[1]]
    assert qs.count(1).total == 1 and qs.solve(1).board == qs.Board.from_columns([0])
