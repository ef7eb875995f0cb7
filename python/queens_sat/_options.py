"""The values each option takes, as ``Literal`` types: the same vocabulary as the command line
(the library's ``queens_sat::options``). ``tests/test_options.py`` checks them against the
library's lists, so they cannot drift."""

from __future__ import annotations

from typing import Literal

#: At-most-one encodings (``amo=``); ``commander`` and ``bimander`` also take ``NAME:G``.
Amo = Literal[
    "pairwise", "sequential", "product", "ladder", "commander", "bimander", "binary", "auto"
]
#: Implied constraints (``implied=``).
Implied = Literal["none", "sums"]
#: Symmetries of the square (``symmetric=``).
SymmetryName = Literal["id", "r90", "r180", "r270", "flip_h", "flip_v", "flip_d", "flip_a"]
#: Symmetry handling (``break_symmetry=``): ``lex`` lex-leader constraints, ``none`` none at
#: all, ``cubes`` the default strategy's cube solver modulo the symmetries on every instance.
BreakSymmetry = Literal["lex", "none", "cubes"]
#: Pieces (``piece=``).
PieceName = Literal["queen", "amazon"]
#: Counting engines (``engine=``); ``auto`` is ``sat``.
Engine = Literal["auto", "sat", "cdcl", "backtrack"]
