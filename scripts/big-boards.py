#!/usr/bin/env python3
"""Big plain boards (issue 52 §3): `solve -n N` with the default strategy, wall time and peak
resident memory (GNU time: `/usr/bin/time -f "%e %M"`) for the compact format (`--format cols`,
to a file), the text board (streamed to /dev/null), JSON (to /dev/null) and the Python package
(`queens_sat.solve(N)` in a fresh interpreter, counting the interpreter's own start), for queens
and amazons. Prints a Markdown table (the one in docs/benchmarks.md, "Big plain boards").

Usage:
    scripts/big-boards.py                       # N = 3000 6000 20000 65536, queens
    scripts/big-boards.py --piece amazon --n 1000 10000 65536 10004
    scripts/big-boards.py --python .venv-py/bin/python --repeat 3

Each cell is the median of --repeat runs. The Python column needs a Python with queens_sat
installed (`bash python/run-tests.sh` builds it into .venv-py); without it the column is `-`.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TIME = "/usr/bin/time"


def timed(cmd: list[str], out: Path) -> tuple[float, int, int]:
    """(seconds, peak RSS in MB, exit code) of one run of `cmd` under GNU time, its stdout
    written to `out` (a file, or /dev/null)."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as t, open(out, "w") as stdout:
        p = subprocess.run(
            [TIME, "-o", t.name, "-f", "%e %M", *cmd], stdout=stdout, stderr=subprocess.PIPE
        )
        secs, kb = t.read().split()[-2:]
    return float(secs), int(kb) // 1024, p.returncode


def median_run(cmd: list[str], out: Path, repeat: int, want: int) -> str:
    """`SECONDS s / RSS MB`, the medians of `repeat` runs; the exit code must be `want`."""
    runs = []
    for _ in range(repeat):
        secs, mb, code = timed(cmd, out)
        if code != want:
            return f"exit {code}"
        runs.append((secs, mb))
    return f"{statistics.median(s for s, _ in runs):.2f} s / {statistics.median(m for _, m in runs):.0f} MB"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, nargs="+", default=[3000, 6000, 20000, 65536])
    ap.add_argument("--piece", default="queen")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--bin", default=str(ROOT / "target/release/queens-sat"))
    ap.add_argument("--python", default=str(ROOT / ".venv-py/bin/python"))
    a = ap.parse_args()
    has_python = (
        Path(a.python).exists()
        and subprocess.run([a.python, "-c", "import queens_sat"], capture_output=True).returncode
        == 0
    )
    print(f"| n | piece | cols (file) | text (/dev/null) | json (/dev/null) | Python |")
    print("|---|---|---|---|---|---|")
    for n in a.n:
        solve = [a.bin, "solve", "-n", str(n), "--piece", a.piece]
        with tempfile.TemporaryDirectory() as d:
            path = Path(d) / "cols.txt"
            cols = median_run([*solve, "--format", "cols"], path, a.repeat, 10)
            lines = path.read_text().count("\n")
            assert lines == n, f"n = {n}: {lines} rows in the cols output"
        null = Path("/dev/null")
        text = median_run(solve, null, a.repeat, 10)
        js = median_run([*solve, "--format", "json"], null, a.repeat, 10)
        py = "-"
        if has_python:
            code = (
                "import queens_sat as q; r = q.solve(q.Instance({n}, piece='{p}'), timeout=10); "
                "assert r.status is q.Status.SAT and len(r.board.columns) == {n}"
            ).format(n=n, p=a.piece)
            py = median_run([a.python, "-c", code], null, a.repeat, 0)
        print(f"| {n} | {a.piece} | {cols} | {text} | {js} | {py} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
