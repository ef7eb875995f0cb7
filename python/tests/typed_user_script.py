"""A user's script under ``mypy --strict``: every public function of ``queens_sat`` (its
``__all__``) and of ``queens_sat.generate``, with the precise types the stubs promise written
out, so that a stub that loosens or breaks them fails ``python/run-tests.sh``.

``run-tests.sh`` type-checks this file; ``test_typing.py`` also runs ``main()``, so the
annotations are checked against the values the package really returns. Importing it does
nothing (pytest's doctest collection imports every module of the tests folder).
"""

from __future__ import annotations

import pickle
from array import array
from pathlib import Path
from typing import Dict, List, Mapping, Optional, Tuple

import numpy as np
import numpy.typing as npt

import queens_sat as qs
from queens_sat import generate


def main(tmp: Path) -> None:
    """Uses the whole public API once; ``tmp`` is a writable folder."""
    inst = qs.Instance(8, piece="amazon").with_piece("queen")
    again: qs.Instance = inst.with_piece(inst.piece)  # Instance.piece is a PieceName
    piece: qs.PieceName = inst.piece
    assert again == inst and piece == "queen"
    holes = qs.Instance(6, placed=[(0, 1)], blocked=[(5, 5)], excluded=[("diagonal", 0)])
    kinds: List[Tuple[qs.DiagonalKind, int]] = holes.excluded
    fmt: qs.InstanceFormat = holes.default_format
    text: str = holes.to_text("param")
    assert qs.Instance.parse(text) == qs.Instance.parse(holes.to_text(fmt))
    assert kinds == [("diagonal", 0)]
    path = tmp / "holes.txt"
    path.write_text(holes.to_text("board"))
    assert qs.Instance.read(path) == qs.Instance.parse(holes.to_text("board"))
    sym: List[str] = qs.Instance(8).symmetries()
    assert sym[0] == "id"

    r: qs.Result = qs.solve(inst, solver="varisat", timeout=10.0, amo="sequential")
    status: qs.Status = r.status
    board: Optional[qs.Board] = r.board
    assert status is qs.Status.SAT and board is not None and bool(r)
    qs.verify(board, inst)
    qs.verify(board, 8)
    cells: List[Tuple[int, int]] = list(board)
    grid: npt.NDArray[np.uint8] = board.to_numpy()
    assert len(cells) == 8 and int(grid.sum()) == 8
    columns: List[Optional[int]] = board.columns
    assert qs.Board.from_columns(columns) == qs.Board(8, board.pieces)
    record: Dict[str, object] = r.to_dict()
    assert record["status"] == "SAT" and r.to_json().startswith("{")
    svg: Optional[str] = r._repr_svg_()
    page: Optional[str] = r._repr_html_()
    assert svg is not None and page is None
    seconds: float = r.encode_seconds + r.solve_seconds
    num_vars: Optional[int] = r.vars
    num_clauses: Optional[int] = r.clauses
    omitted: Optional[str] = r.size_omitted
    assert num_vars is not None and num_clauses is not None and omitted is None
    size: int = num_vars + num_clauses
    named: str = r.solver + r.amo
    reason: Optional[str] = qs.solve(qs.Instance(8, placed=[(0, 0), (3, 3)])).reason
    certified: Optional[str] = r.certified
    assert seconds >= 0 and size > 0 and named and reason and certified is None
    assert pickle.loads(pickle.dumps(r)).board == board
    ran: Optional[qs.Plan] = r.plan
    planned: qs.Plan = qs.plan(inst, solver="varisat", timeout=10.0, amo="sequential")
    assert ran == planned and planned.step == "run"
    engines: List[str] = planned.engines
    plan_record: Dict[str, object] = planned.to_dict()
    explained: str = str(planned) + planned.to_json() + repr(planned)
    assert engines == ["varisat"] and plan_record["engine"] == "varisat" and explained

    amo: qs.AmoSpec = qs.amo_group("commander", 4)
    f: qs.Formula = qs.encode(8, amo=amo, implied="sums", break_symmetry="lex", presolve=True)
    g = qs.encode(qs.Instance(8), amo="pairwise")
    h = qs.encode(8, amo="auto", symmetric="r180")
    assert f.amo == "commander:4" and g.num_cells == 64 and len(g) == g.num_clauses
    assert h.num_clauses > 0
    flat: array[int] = g.to_array()
    clauses: List[List[int]] = g.clauses
    assert len(flat) == g.num_literals + g.num_clauses and clauses[0][0] == 1
    cnf: qs.PySatCNF = g.to_pysat()
    assert cnf.nv == g.num_vars and len(cnf.clauses) == g.num_clauses
    export: qs.ExportFormat = "opb"
    qs.encode(qs.Instance(8)).write(tmp / "q8.opb", format=export)
    g.write(tmp / "q8.cnf.xz", level=1)
    var: Optional[int] = g.var(0, 0)
    cell: Optional[Tuple[int, int]] = g.cell(64)
    digest: str = g.gbdhash
    unsat: Optional[str] = g.presolve_unsat
    assert var == 1 and cell == (7, 7) and len(digest) == 32 and unsat is None
    assert g.decode(board_model(g, board)) == board
    assert g.instance == qs.Instance(8)

    c: qs.Counts = qs.count(8, engine="backtrack", symmetric=None, jobs=1, amo="auto")
    unique: Optional[int] = c.unique
    fixed: Mapping[str, int] = c.fixed_points
    group: List[str] = c.group
    engine: str = c.engine
    table: str = c._repr_html_()
    assert (c.total, unique, fixed["id"], group[0]) == (92, 12, 92, "id")
    assert engine and c.seconds >= 0 and table.startswith("<")
    steps: List[Tuple[int, int]] = []
    qs.count(6, progress=lambda done, total: steps.append((done, total)))
    qs.count(qs.Instance(6), symmetric="r90", progress=None)
    it: qs.Solutions = qs.solutions(8, limit=20, modulo_symmetry=True, symmetric=None, timeout=5.0)
    classes: List[qs.Board] = list(it)
    sgroup: List[str] = it.group
    assert len(classes) == 12 and it.yielded == 12 and it.modulo_symmetry and len(sgroup) == 8
    first: qs.Board = next(qs.solutions(qs.Instance(30), symmetric="r180"))
    qs.verify(first, 30)

    completion: qs.Instance = generate.completion(8, 3, seed=2)
    blocked: qs.Instance = generate.blocked(8, 10, min_free=1, seed=1)
    diagonals: qs.Instance = generate.diagonals(8, min_free=1, seed=1)
    assert len(completion.placed) == 3 and len(blocked.blocked) == 10
    assert diagonals.default_format == "diags"

    try:
        qs.verify(qs.Board.from_columns([0, 2, 1, 3]), 4)
    except qs.VerifyError as e:
        faulty: List[Tuple[int, int]] = e.cells
        assert faulty == [(0, 0), (3, 3)]
    try:
        qs.Instance(4, placed=[(0, 0)], blocked=[(0, 0)])
    except qs.UsageError as e:
        argument: Optional[str] = e.argument
        assert argument == "placed"
    names: List[str] = [qs.__version__, str(qs.MAX_N)]
    assert all(names)


def board_model(f: qs.Formula, board: qs.Board) -> List[int]:
    """The model of ``board`` in ``f``'s variables (positive literals of its cells)."""
    return [v for v in (f.var(r, c) for r, c in board) if v is not None]


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        main(Path(folder))
    print("ok")
