"""What the resumable benchmark scripts share: the rows already in a CSV, a writer that appends
to it (with the header when the file is new), and the nearest-rank quantile of the tables."""

from __future__ import annotations

import csv
import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path


def read_rows(path: Path) -> list[dict[str, str]]:
    """The rows of the CSV at `path`, or none when it does not exist yet."""
    if not path.exists():
        return []
    with path.open() as f:
        return list(csv.DictReader(f))


@contextmanager
def appending(path: Path, fields: list[str]) -> Iterator[Callable[[dict[str, str]], None]]:
    """A function that appends one row to `path` and flushes it (a run cut short keeps every
    finished row, for a resume); the header comes first when the file is new."""
    new = not path.exists()
    with path.open("a", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        if new:
            w.writeheader()

        def write(row: dict[str, str]) -> None:
            w.writerow(row)
            f.flush()

        yield write


def quantile(values: list[float], q: float) -> float:
    """The q-quantile (nearest rank) of the values."""
    s = sorted(values)
    return s[min(len(s) - 1, max(0, math.ceil(q * len(s)) - 1))]
