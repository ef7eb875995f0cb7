"""The one place where the public functions check their arguments' types (issue 63).

Every argument is checked by type, the same way in every function, before the extension sees
it; a value of the wrong type is an ``ArgumentTypeError`` (a ``TypeError``) naming the Python
argument and the value:

- a bool parameter (``certify``, ``presolve``, ``deterministic``, ``cross_check``,
  ``modulo_symmetry``) takes ``True``/``False`` or ``numpy.bool_``, never a truthy value
  (``certify="no"`` is an error, not a certified solve);
- an integer parameter (``n``, ``jobs``, ``limit``, ``m``, ``min_free``, ``seed``) takes any
  ``numbers.Integral`` (numpy's integers included, read with ``operator.index``) but not a
  bool (``n=True`` is an error, not 1).

The values' ranges (``jobs=0``, ``n=0``) are the extension's to check: it raises
``UsageError`` with the library's rule. Cells (``placed``, ``blocked``, ``pieces``) are read
by the extension with the same rule for their coordinates.
"""

from __future__ import annotations

import numbers
import operator
import os
from typing import Optional, Union

from ._errors import ArgumentTypeError
from ._native import Cancel, Instance


def bad_type(name: str, value: object, expected: str) -> ArgumentTypeError:
    """The ``ArgumentTypeError`` for argument ``name`` given ``value``, not ``expected``: the
    message names both (``certify='no' must be True or False, not str``), and ``argument`` and
    ``value`` are set."""
    # On one line: a numpy array's repr breaks lines (each break, with its indentation, is
    # one space).
    text = " ".join(line.strip() for line in repr(value).splitlines() if line.strip())
    if len(text) > 40:
        text = text[:40] + "..."
    e = ArgumentTypeError(f"{name}={text} must be {expected}, not {type(value).__name__}")
    e.argument, e.value = name, text
    return e


def is_bool(value: object) -> bool:
    """Whether ``value`` is a truth value: a ``bool`` or a ``numpy.bool_`` (recognised without
    importing numpy)."""
    if isinstance(value, bool):
        return True
    kind = type(value)
    return kind.__module__ == "numpy" and kind.__name__ in ("bool", "bool_")


def flag(name: str, value: object) -> bool:
    """``value`` of the bool argument ``name`` (``bool`` or ``numpy.bool_``) as a ``bool``; any
    other type (``"no"``, ``1``, ``None``) is an ``ArgumentTypeError``."""
    if not is_bool(value):
        raise bad_type(name, value, "True or False")
    return bool(value)


def integer(name: str, value: object) -> int:
    """``value`` of the integer argument ``name``: any ``numbers.Integral`` (numpy's integers
    too) as an ``int``; a bool, a float or a str is an ``ArgumentTypeError``."""
    if is_bool(value) or not isinstance(value, numbers.Integral):
        raise bad_type(name, value, "an int")
    return operator.index(value)


def opt_integer(name: str, value: object) -> Optional[int]:
    """``value`` of the optional integer argument ``name``: ``None`` or as :func:`integer`."""
    if value is None:
        return None
    if is_bool(value) or not isinstance(value, numbers.Integral):
        raise bad_type(name, value, "an int or None")
    return operator.index(value)


def seconds(name: str, value: object) -> Optional[Union[int, float]]:
    """``value`` of the optional time argument ``name`` (``timeout``): ``None`` or a real number
    of seconds (an int, numpy's integers as ``int``, a float); a bool or a str is an
    ``ArgumentTypeError``. The range is the extension's to check."""
    if value is None:
        return None
    if is_bool(value) or not isinstance(value, numbers.Real):
        raise bad_type(name, value, "a number of seconds or None")
    if isinstance(value, numbers.Integral):
        return operator.index(value)
    return float(value)


def size(name: str, value: object) -> Optional[Union[int, str]]:
    """``value`` of the optional size argument ``name`` (``proof_budget``): ``None``, a number
    of bytes (any ``numbers.Integral`` but a bool, as an ``int``) or a size as text (``"10G"``,
    ``"none"``); a float or another type is an ``ArgumentTypeError``. The value is the
    extension's to check."""
    if value is None or isinstance(value, str):
        return value
    if is_bool(value) or not isinstance(value, numbers.Integral):
        raise bad_type(name, value, "a number of bytes (int), a size (str such as '10G') or None")
    return operator.index(value)


def text(name: str, value: object) -> str:
    """``value`` of the ``str`` argument ``name``; any other type is an ``ArgumentTypeError``."""
    if not isinstance(value, str):
        raise bad_type(name, value, "a str")
    return value


def opt_text(name: str, value: object) -> Optional[str]:
    """``value`` of the optional ``str`` argument ``name`` (``None`` or a ``str``)."""
    if value is not None and not isinstance(value, str):
        raise bad_type(name, value, "a str or None")
    return value


def amo(value: object) -> Optional[str]:
    """``amo=`` of ``solve`` and ``count``: None when left to the library, as the default
    ``"auto"`` is (so it is never refused where no CNF is built), else the encoding's name."""
    given = opt_text("amo", value)
    return None if given == "auto" else given


def path(name: str, value: Optional[Union[str, os.PathLike[str]]]) -> Optional[str]:
    """``value`` of the optional path argument ``name`` (``None``, a ``str`` or a path-like)."""
    if value is None:
        return None
    try:
        return os.fspath(value)
    except TypeError:
        raise bad_type(name, value, "a path (str or os.PathLike) or None") from None


def cancel(value: object) -> Optional[Cancel]:
    """``value`` of the ``cancel`` argument (``None`` or a ``Cancel``)."""
    if value is not None and not isinstance(value, Cancel):
        raise bad_type("cancel", value, "a queens_sat.Cancel or None")
    return value


def instance(value: object) -> Instance:
    """The ``instance`` argument: an ``Instance``, or a board side (any ``numbers.Integral``
    but a bool) for the empty ``n x n`` board."""
    if isinstance(value, Instance):
        return value
    if not is_bool(value) and isinstance(value, numbers.Integral):
        return Instance(operator.index(value))
    raise bad_type("instance", value, "a queens_sat.Instance or a board side (int)")
