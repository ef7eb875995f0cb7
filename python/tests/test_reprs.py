"""Jupyter's rich reprs of results and counts, and boards iterable over their pieces."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from typing import List, Tuple

import pytest

import queens_sat as qs

from conftest import attacks

SVG = "{http://www.w3.org/2000/svg}"
PLACED = "#1d3557"  # the colour of a piece (crown or star) in the library's SVG


class Cells(HTMLParser):
    """The text of every <th> and <td>, in order, and whether the tags balance."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: List[str] = []
        self.open: List[str] = []
        self.inside = False

    def handle_starttag(self, tag: str, attrs: List[Tuple[str, str | None]]) -> None:
        if tag != "br":
            self.open.append(tag)
        if tag in ("th", "td"):
            self.inside = True
            self.cells.append("")

    def handle_endtag(self, tag: str) -> None:
        assert self.open and self.open.pop() == tag, tag
        if tag in ("th", "td"):
            self.inside = False

    def handle_data(self, data: str) -> None:
        if self.inside:
            self.cells[-1] += data


def parse_html(html: str) -> Cells:
    p = Cells()
    p.feed(html)
    p.close()
    assert not p.open, p.open
    return p


def test_board_iterates_over_its_pieces() -> None:
    b = qs.Board.from_columns([1, 3, 0, 2])
    assert list(b) == [(0, 1), (1, 3), (2, 0), (3, 2)] == b.pieces
    assert all(isinstance(p, tuple) for p in b)
    assert list(iter(b)) == list(b)  # a new iterator each time
    assert (2, 0) in b and (0, 0) not in b
    rows, cols = zip(*b)
    assert sorted(rows) == sorted(cols) == [0, 1, 2, 3]
    assert list(qs.Board(5, [])) == []
    r = qs.solve(qs.Instance(12, piece="amazon"))
    assert r.board is not None
    pieces = list(r.board)
    assert len(pieces) == 12
    assert not any(attacks("amazon", a, b) for i, a in enumerate(pieces) for b in pieces[i + 1 :])


@pytest.mark.parametrize("inst", [qs.Instance(8), qs.Instance(9, blocked=[(0, 0)]), qs.Instance(10, piece="amazon")])
def test_sat_result_shows_its_board_as_svg(inst: qs.Instance) -> None:
    r = qs.solve(inst)
    assert r.status is qs.Status.SAT and r.board is not None
    svg = r._repr_svg_()
    assert svg is not None and r._repr_html_() is None  # Jupyter shows the SVG
    assert svg == r.board._repr_svg_()
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg"
    assert sum(1 for e in root.iter(SVG + "path") if e.get("fill") == PLACED) == inst.n
    # The board's cells: an n x n board whose dark squares are half of them, the blocked
    # cells drawn where the instance has them, and a caption naming a verified solution.
    (board,) = [g for g in root.iter(SVG + "g") if g.get("class") == "board"]
    assert board.get("data-n") == str(inst.n)
    (dark,) = [e for e in root.iter(SVG + "path") if e.get("class") == "dark"]
    assert (dark.get("d") or "").count("M") == inst.n * inst.n // 2
    blocked = {
        (int(e.get("data-row") or -1), int(e.get("data-col") or -1))
        for e in root.iter(SVG + "rect")
        if e.get("class") == "blocked"
    }
    assert blocked == set(inst.blocked)
    assert f"{inst.n}-{inst.piece}s: solution" in svg


def test_unsat_result_shows_its_verdict_and_reason_as_html() -> None:
    r = qs.solve(qs.Instance(8, placed=[(0, 0), (3, 3)]))
    assert r.status is qs.Status.UNSAT
    assert r._repr_svg_() is None
    html = r._repr_html_()
    assert html is not None
    parse_html(html)
    assert "<b>UNSAT</b>" in html
    assert "pre-placed queens at (0,0) and (3,3) share a diagonal" in html
    assert "8-queens" in html


def test_unsat_without_reason_and_unknown_as_html() -> None:
    r = qs.solve(qs.Instance(3), solver="varisat")
    assert r.status is qs.Status.UNSAT and r.reason is None
    html = r._repr_html_()
    assert html is not None and "<b>UNSAT</b>" in html and "3-queens" in html
    parse_html(html)
    inst = qs.generate.blocked(56, 2734, min_free=1, seed=1)
    u = qs.solve(inst, timeout=0.2)
    assert u.status is qs.Status.UNKNOWN and u.reason is not None
    html = u._repr_html_()
    assert html is not None and u._repr_svg_() is None
    parse_html(html)
    assert "<b>UNKNOWN</b>" in html and u.reason in html


def test_counts_html_table_has_the_numbers() -> None:
    c = qs.count(qs.Instance(8))
    html = c._repr_html_()
    cells = parse_html(html).cells
    rows = dict(zip(cells[::2], cells[1::2]))
    assert rows["total"] == "92" and rows["unique"] == "12"
    assert {k[len("fixed by ") :]: int(v) for k, v in rows.items() if k.startswith("fixed by ")} == c.fixed_points
    assert "<caption>" in html and c.engine in html


def test_symmetric_counts_html_names_the_symmetry() -> None:
    c = qs.count(qs.Instance(12), symmetric="r90")
    cells = parse_html(c._repr_html_()).cells
    assert cells[:6] == ["total", "8", "unique", "4", "symmetric", "r90"]
    assert cells[6:10] == ["fixed by id", "8", "fixed by r90", "8"]
