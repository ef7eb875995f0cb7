"""Boards: text like the CLI, numpy, the SVG repr; instances: readers and generators with the
CLI's bytes."""

from __future__ import annotations

import json
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import List

import numpy as np
import pytest

import queens_sat as qs

SVG = "{http://www.w3.org/2000/svg}"


def test_board_fields() -> None:
    b = qs.Board.from_columns([1, 3, 0, 2])
    assert b.n == 4 and len(b) == 4
    assert b.pieces == [(0, 1), (1, 3), (2, 0), (3, 2)]
    assert b.columns == [1, 3, 0, 2]
    assert str(b) == ".Q..\n...Q\nQ...\n..Q.\n"[:-1]  # no final newline: print adds one
    assert b == qs.Board(4, [(3, 2), (2, 0), (1, 3), (0, 1)])
    assert repr(b) == "Board(n=4, columns=[1, 3, 0, 2])"


def test_board_text_shows_blocked_cells() -> None:
    inst = qs.Instance(4, blocked=[(0, 0)])
    r = qs.solve(inst)
    assert str(r.board).splitlines()[0][0] == "x"


def test_to_numpy() -> None:
    r = qs.solve(qs.Instance(8))
    a = r.board.to_numpy()
    assert a.shape == (8, 8) and a.dtype == np.uint8
    assert (a.sum(axis=0) == 1).all() and (a.sum(axis=1) == 1).all()
    assert [int(np.argmax(row)) for row in a] == r.board.columns


def count_pieces(svg: str) -> int:
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg"
    # Each piece is one path (a crown or a star) in the placed colour.
    return sum(
        1 for e in root.iter(SVG + "path") if e.get("fill") == "#1d3557"
    )


@pytest.mark.parametrize("n,piece", [(8, "queen"), (12, "amazon"), (30, "queen")])
def test_svg_repr_parses_and_has_n_pieces(n: int, piece: str) -> None:
    r = qs.solve(qs.Instance(n, piece=piece))
    svg = r.board._repr_svg_()
    assert count_pieces(svg) == n


def test_svg_matches_the_cli(cli: Path) -> None:
    # varisat is deterministic: the CLI and the package find the same board and draw it alike.
    r = qs.solve(qs.Instance(10), solver="varisat")
    svg = subprocess.run(
        [cli, "solve", "-n", "10", "--format", "svg", "--solver", "varisat"],
        capture_output=True,
        text=True,
    ).stdout
    assert r.board._repr_svg_() == svg


def test_instance_svg() -> None:
    inst = qs.Instance(6, placed=[(0, 1)], blocked=[(3, 3)], excluded=[("diagonal", 0)])
    ET.fromstring(inst._repr_svg_())


@pytest.mark.parametrize(
    "args,call",
    [
        (["completion", "-n", "20", "-m", "5", "--seed", "7"], lambda: qs.generate.completion(20, 5, seed=7)),
        (
            ["blocked", "-n", "56", "-m", "2734", "--min-free", "1", "--seed", "1"],
            lambda: qs.generate.blocked(56, 2734, min_free=1, seed=1),
        ),
        (["diagonals", "-n", "15", "--min-free", "1", "--seed", "4"], lambda: qs.generate.diagonals(15, min_free=1, seed=4)),
    ],
)
def test_generate_gives_the_cli_bytes(cli: Path, args: list, call) -> None:
    expected = subprocess.run([cli, "generate", *args], capture_output=True, text=True, check=True).stdout
    assert call().to_text() == expected


def test_read_every_format(tmp_path: Path) -> None:
    inst = qs.generate.diagonals(12, min_free=1, seed=2)
    p = tmp_path / "d.txt"
    p.write_text(inst.to_text())
    assert qs.Instance.read(p) == inst
    assert len(qs.Instance.read(str(p), diags=3).excluded) == 3
    for fmt in ["board", "param"]:
        b = qs.generate.blocked(9, 12, min_free=1, seed=5)
        q = tmp_path / f"b.{fmt}"
        q.write_text(b.to_text(fmt))
        assert qs.Instance.read(q) == b
        assert qs.Instance.parse(b.to_text(fmt)) == b


def test_instance_fields() -> None:
    inst = qs.Instance(5, placed=[(0, 0)], blocked=[(1, 1), (2, 2)], excluded=[("anti-diagonal", 3)])
    assert (inst.n, inst.piece, inst.placed, inst.blocked) == (5, "queen", [(0, 0)], [(1, 1), (2, 2)])
    assert inst.excluded == [("anti-diagonal", 3)]
    assert inst.with_piece("amazon").piece == "amazon"
    assert "Instance(n=5" in repr(inst)
    assert qs.Instance(8).symmetries() == ["id", "r90", "r180", "r270", "flip_h", "flip_v", "flip_d", "flip_a"]


def test_result_matches_the_json_record(cli: Path) -> None:
    r = qs.solve(qs.Instance(10), solver="varisat")
    rec = json.loads(r.to_json())
    assert r.to_dict() == rec
    out = subprocess.run(
        [cli, "solve", "-n", "10", "--solver", "varisat", "--format", "json"], capture_output=True, text=True
    )
    cli_rec = json.loads(out.stdout)
    assert set(rec) == set(cli_rec)
    for key in ["status", "n", "piece", "amo", "solver", "vars", "clauses"]:
        assert rec[key] == cli_rec[key], key
    assert rec["queens"] == [list(p) for p in r.board.pieces]


def test_formula_write_matches_the_cli(cli: Path, tmp_path: Path) -> None:
    inst = qs.generate.blocked(12, 40, min_free=1, seed=9)
    src = tmp_path / "i.param"
    src.write_text(inst.to_text())
    for fmt in ["dimacs", "opb", "lp", "mzn"]:
        ours = tmp_path / f"ours.{fmt}"
        theirs = tmp_path / f"cli.{fmt}"
        # `amo` is the CNF's alone: the other formats refuse one (queens_sat.applies).
        amo: List[str] = ["--amo", "sequential"] if fmt == "dimacs" else []
        qs.encode(qs.Instance.read(src), amo="sequential" if amo else "auto").write(ours, format=fmt)
        subprocess.run(
            [cli, "encode", "--instance", src, *amo, "--to", fmt, "-o", theirs],
            check=True,
            capture_output=True,
        )
        body = lambda p: [l for l in p.read_text().splitlines() if not l.startswith(("c ", "* ", "\\ ", "% "))]
        assert body(ours) == body(theirs), fmt
    # The DIMACS body is the formula's clauses.
    f = qs.encode(qs.Instance.read(src), amo="sequential")
    lines = [l for l in (tmp_path / "ours.dimacs").read_text().splitlines() if l and l[0] not in "cp"]
    assert [list(map(int, l.split()))[:-1] for l in lines] == f.clauses
    assert list(f.to_array()) == [x for c in f.clauses for x in c + [0]]
