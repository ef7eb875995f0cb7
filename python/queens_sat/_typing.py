"""Types of the objects other packages hand back, for annotations without those packages' own
type information."""

from __future__ import annotations

from typing import List, Optional, Protocol


class PySatCNF(Protocol):
    """What ``Formula.to_pysat()`` returns: a ``pysat.formula.CNF``. python-sat ships no type
    information (no ``py.typed``), so the members a caller uses are spelled out here and a
    user's ``mypy --strict`` needs no configuration for it."""

    nv: int
    clauses: List[List[int]]
    comments: List[str]

    def append(self, clause: List[int]) -> None:
        """Adds one clause."""

    def extend(self, clauses: List[List[int]]) -> None:
        """Adds several clauses."""

    def to_file(self, fname: str, comments: Optional[List[str]] = None) -> None:
        """Writes the formula as DIMACS to the file ``fname``."""

    def to_dimacs(self) -> str:
        """The formula as DIMACS text."""
