"""Seeded instance generators: the same instances, and with ``Instance.to_text()`` the same
bytes, as ``queens-sat generate``.

``n``, ``m`` and ``min_free`` are ints (``m`` and ``min_free`` 0 or more), ``seed`` an int in
``0..=2**64-1``; numpy's integers are ints too, a bool is none (``ArgumentTypeError``). A bad value raises ``UsageError`` naming the argument, with ``.argument`` and
``.value`` (``m=9 is too many: at most n = 8 queens fit on an 8x8 board``).

>>> from queens_sat import generate
>>> inst = generate.blocked(8, 10, min_free=1, seed=1)
>>> inst.n, len(inst.blocked)
(8, 10)
>>> inst.to_text().splitlines()[0].startswith("$ queens-sat")
True
>>> generate.completion(8, 3, seed=2) == generate.completion(8, 3, seed=2)
True
"""

from __future__ import annotations

from . import _args, _native
from ._native import Instance

__all__ = ["completion", "blocked", "diagonals"]


def completion(n: int, m: int, *, seed: int) -> Instance:
    """``m`` non-attacking pre-placed queens on an ``n x n`` board (csplib prob079
    queens-gen-fast.py); ``to_text()`` gives ``generate completion`` 's parameter file."""
    return _native.generate_completion(
        _args.integer("n", n), _args.integer("m", m), _args.integer("seed", seed)
    )


def blocked(n: int, m: int, *, min_free: int, seed: int) -> Instance:
    """``m`` blocked cells keeping at least ``min_free`` free cells in every row and column
    (csplib prob080 blocked-gen.py); ``to_text()`` gives ``generate blocked`` 's parameter file."""
    return _native.generate_blocked(
        _args.integer("n", n),
        _args.integer("m", m),
        _args.integer("min_free", min_free),
        _args.integer("seed", seed),
    )


def diagonals(n: int, *, min_free: int, seed: int) -> Instance:
    """An ordered list of excluded diagonals keeping ``min_free`` free cells per row and column
    (csplib prob079 queens-diag-gen.py); its prefixes are the instances
    (``Instance.parse(inst.to_text(), diags=D)`` takes the first ``D``)."""
    return _native.generate_diagonals(
        _args.integer("n", n), _args.integer("min_free", min_free), _args.integer("seed", seed)
    )
