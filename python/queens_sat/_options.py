"""The values each option takes, as ``Literal`` types: the same vocabulary as the command line
(the library's ``queens_sat::options``). ``tests/test_options.py`` checks every ``Literal`` here
against the library's lists (``queens_sat._native.names()``), so they cannot drift.

A typo is a type error under ``mypy --strict``: ``encode(8, amo="pairwse")`` and
``f.write(path, format="dimax")`` are rejected. A group size for ``commander`` or ``bimander``
(the command line's ``commander:G``) goes through :func:`amo_group`, which keeps the check:

>>> from queens_sat import amo_group
>>> amo_group("commander", 4)
'commander:4'
"""

from __future__ import annotations

from typing import Literal, NewType, Union

from ._errors import ArgumentTypeError, UsageError

#: At-most-one encodings (``amo=``); ``commander`` and ``bimander`` also take a group size,
#: through :func:`amo_group` (see :data:`AmoSpec`).
Amo = Literal[
    "pairwise", "sequential", "product", "ladder", "commander", "bimander", "binary", "auto"
]
#: The at-most-one encodings that take a group size ``G`` (``commander:G``, ``bimander:G``).
GroupedAmo = Literal["commander", "bimander"]
#: An encoding with its group size, ``"commander:4"``: made by :func:`amo_group`, so that a
#: plain (possibly misspelt) ``str`` is still a type error where an encoding is expected.
AmoGroup = NewType("AmoGroup", str)
#: What ``amo=`` takes: an encoding name, or an encoding with a group size (:func:`amo_group`).
AmoSpec = Union[Amo, AmoGroup]
#: Implied constraints (``implied=``).
Implied = Literal["none", "sums"]
#: Symmetries of the square (``symmetric=``), as maps of a cell ``(row, col)`` on an n x n board
#: (``m = n - 1``; row 0 is the top row): ``id`` ``(r, c)``; ``r90`` a quarter turn clockwise,
#: ``(c, m - r)``; ``r180`` ``(m - r, m - c)``; ``r270`` ``(m - c, r)``; ``flip_h`` the mirror
#: about the horizontal axis, top and bottom swapped, ``(m - r, c)``; ``flip_v`` the mirror
#: about the vertical axis, left and right swapped, ``(r, m - c)``; ``flip_d`` the transpose
#: about the main diagonal, ``(c, r)``; ``flip_a`` the transpose about the anti-diagonal,
#: ``(m - c, m - r)``.
SymmetryName = Literal["id", "r90", "r180", "r270", "flip_h", "flip_v", "flip_d", "flip_a"]
#: Symmetry handling (``break_symmetry=``): ``lex`` lex-leader constraints, ``none`` none at
#: all, ``cubes`` the default strategy's cube solver modulo the symmetries on every instance.
BreakSymmetry = Literal["lex", "none", "cubes"]
#: Pieces (``piece=``).
PieceName = Literal["queen", "amazon"]
#: Counting engines (``engine=``). ``auto`` picks the fastest engine that can count the
#: instance: ``orbits`` for ``symmetric="r90"|"r180"|"r270"`` where it applies, else
#: ``backtrack`` (n <= 64, without lex-leader constraints), else ``sat``; ``Counts.engine``
#: names the one that ran.
Engine = Literal["auto", "sat", "cdcl", "backtrack", "orbits", "orbit-values"]
#: Output formats of ``Formula.write`` (``format=``; the CLI's ``encode --to``).
ExportFormat = Literal["dimacs", "opb", "lp", "mzn"]
#: Instance file formats (``Instance.to_text(format=)``, ``Instance.default_format``): board
#: text, csplib parameter file, excluded-diagonal list.
InstanceFormat = Literal["board", "param", "diags"]
#: The two kinds of an excluded diagonal (``Instance(excluded=[(kind, k)])``):
#: ``("diagonal", k)`` holds the cells with ``row - col == k - (n - 1)``,
#: ``("anti-diagonal", k)`` those with ``row + col == k``; ``k`` runs over ``0..=2n-2``.
DiagonalKind = Literal["diagonal", "anti-diagonal"]
#: The proofs of a certified bitboard search (``solve(proof_format=)``): LRAT over the
#: pairwise CNF, or VeriPB over the OPB model with every pruning of the search kept.
ProofFormat = Literal["lrat", "veripb"]

#: The largest group size ``amo_group`` accepts (the library's bound for both encodings).
_MAX_GROUP = 64


def amo_group(name: GroupedAmo, size: int) -> AmoGroup:
    """The encoding ``name`` with group size ``size``, for ``amo=``: ``commander`` groups of
    ``2 <= size <= 64`` variables, ``bimander`` groups of ``1 <= size <= 64`` (the command
    line's ``--amo commander:4``). The plain names use the library's default group sizes
(``commander``: 3, ``bimander``: 2).

    >>> import queens_sat as qs
    >>> qs.encode(8, amo=qs.amo_group("bimander", 4)).amo
    'bimander:4'
    >>> qs.amo_group("commander", 1)
    Traceback (most recent call last):
    ...
    queens_sat._errors.UsageError: amo_group: size=1 is not a group size of commander (2..=64)
    """
    if name not in ("commander", "bimander"):
        raise _bad(
            "name",
            repr(name),
            f"amo_group: name={name!r} takes no group size (only commander and bimander do)",
        )
    if not isinstance(size, int) or isinstance(size, bool):
        error = ArgumentTypeError(
            f"amo_group: size={size!r} must be an int, not {type(size).__name__}"
        )
        error.argument = "size"
        error.value = repr(size)
        raise error
    low = 2 if name == "commander" else 1
    if not low <= size <= _MAX_GROUP:
        raise _bad(
            "size",
            repr(size),
            f"amo_group: size={size} is not a group size of {name} ({low}..={_MAX_GROUP})",
        )
    return AmoGroup(f"{name}:{size}")


def _bad(argument: str, value: str, message: str) -> UsageError:
    """A ``UsageError`` naming the argument and its value, as the library's are."""
    error = UsageError(message)
    error.argument = argument
    error.value = value
    return error
