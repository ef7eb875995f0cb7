"""The exceptions of queens_sat: one ``Error`` base, one subclass per kind of failure.

Every message is one line; a bad argument names the Python argument (``timeout=-1 must be a
positive number of seconds``). Bad arguments are also ``ValueError`` s, missing files
``FileNotFoundError`` s. No class shadows a builtin name.
"""

from __future__ import annotations

from typing import Any, List, Optional, Tuple, Type


class Error(Exception):
    """Base class of every error queens_sat raises."""


class ParseError(Error, ValueError):
    """Bad input in an instance file or text; ``file`` and ``line`` (1-based, or None) say where."""

    file: Optional[str] = None
    line: Optional[int] = None


class UsageError(Error, ValueError):
    """A bad argument value or combination (unknown encoding, piece, format; n out of range; a
    negative count; a cell off the board or not a ``(row, col)`` pair).

    The message names the Python argument, the value and the rule (``jobs=-1 must be a
    positive number of threads``). ``argument`` is the argument's name (``"jobs"``,
    ``"placed"``) and ``value`` the offending value as Python writes it (``"-1"``, ``"''"``,
    ``"(0, 0)"``); both are None only for a combination that no single argument is at fault for.
    """

    argument: Optional[str] = None
    value: Optional[str] = None


class ArgumentTypeError(Error, TypeError):
    """An argument of the wrong type (``jobs="4"``, ``placed=5``): a ``TypeError`` naming the
    argument, with ``argument`` and ``value`` set as on ``UsageError``."""

    argument: Optional[str] = None
    value: Optional[str] = None


class IoError(Error, OSError):
    """An I/O failure on a named path (``filename``; ``errno`` and ``strerror`` as usual).

    Pickles with ``filename``, ``errno`` and ``strerror`` (a process pool hands it back
    whole): ``OSError`` alone keeps only what its constructor was given."""

    def __str__(self) -> str:
        # The CLI's message, not OSError's "[Errno N] ..." rendering.
        return str(self.args[0]) if self.args else ""

    def __reduce__(self) -> Tuple[Any, ...]:
        fields = (self.errno, self.strerror, self.filename)
        return (_rebuild_io_error, (type(self), self.args, fields), self.__dict__ or None)


def _rebuild_io_error(
    cls: Type[IoError], args: Tuple[Any, ...], fields: Tuple[Any, Any, Any]
) -> IoError:
    """An unpickled ``IoError``: its message, then ``errno``, ``strerror`` and ``filename``."""
    error = cls(*args)
    error.errno, error.strerror, error.filename = fields
    return error


class NotFoundError(IoError, FileNotFoundError):
    """A file that does not exist."""


class PermissionDeniedError(IoError, PermissionError):
    """A file that may not be read or written."""


class SolverError(Error, RuntimeError):
    """A solver gave no answer: it could not start, crashed, was killed by a signal or wrote
    output that cannot be read (and the base of the errors about answers and proofs)."""


class WrongAnswerError(SolverError):
    """An answer that failed a check, so none is given: a model the independent checker
    rejects, two engines' verdicts or counts that differ, a count that differs from a
    published one, cubes that do not cover their instance. A ``SolverError``, so
    ``except SolverError`` still catches it."""


class ProofRejectedError(SolverError):
    """A proof that fails its check under ``certify=True``: a step that does not follow, or a
    proof that ends without refuting the formula; no answer is given. A ``SolverError``, so
    ``except SolverError`` still catches it. ``format`` is the proof's format (``"drat"``,
    ``"lrat"``, ``"veripb"``) and ``step`` the step at fault where known (the line of a text
    VeriPB proof, the number of an LRAT step, ...), else None."""

    format: Optional[str] = None
    step: Optional[int] = None


class TooLargeError(Error, ValueError):
    """An instance too large to encode (beyond DIMACS' 32-bit variable range)."""


class BudgetExceededError(TooLargeError):
    """A resource budget was exceeded: a proof file grew past its size budget (``proof_budget=``
    of ``solve``, else the environment's ``QUEENS_SAT_PROOF_BUDGET``, else half the free space
    of its folder) before it was complete, and was removed. A ``TooLargeError``, so ``except
    TooLargeError`` still catches it. ``what`` names what passed its budget (``"the proof"``,
    ``"the DRAT proof of lib:cadical (a temporary file)"``), ``filename`` the file it was
    written for (None for the temporary DRAT proof of ``certify=True``) and ``limit`` the
    budget in bytes."""

    what: Optional[str] = None
    filename: Optional[str] = None
    limit: Optional[int] = None


class CancelledError(Error):
    """The work was cancelled (Ctrl-C itself raises ``KeyboardInterrupt``). Named so that it
    does not shadow the builtin ``InterruptedError`` (an ``OSError`` for EINTR)."""


class TimeLimitError(Error, TimeoutError):
    """A count that ``timeout=`` stopped before it ended; nothing was counted. ``limit`` is the
    limit as given (``"0.5"``)."""

    limit: Optional[str] = None


class InternalError(Error, RuntimeError):
    """A bug inside queens_sat (a Rust panic, caught before it could abort Python)."""


class VerifyError(Error, ValueError):
    """A board that is not a solution: ``message`` says why, ``cells`` lists the cells at fault
    (the two attacking pieces, the missing or misplaced one)."""

    cells: List[Tuple[int, int]] = []
    message: str = ""
