#!/usr/bin/env python3
"""The rotation-fixed counts, term by term (issue 62): `count -n N --symmetric r90|r180` with
the engine `auto` picks (the orbits engine), its total, the classes, and the wall time of each
term (the median of --repeat runs). Prints the Markdown tables of docs/symmetric.md.

Usage:
    scripts/symmetric-table.py                          # A033148 n <= 61, A032522 n <= 28
    scripts/symmetric-table.py --r90 4-48 --r180 1-24 --repeat 1
    scripts/symmetric-table.py --piece amazon --r90 1-40 --r180 1-30

Rows go to --rows (a TSV, one line per run, appended as each run ends), so an interrupted
table resumes where it stopped: a run already in the file is not run again. Terms past the
published range are marked `new`; a published term that differs stops the script (the engine
checks them itself too).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(os.environ.get("QS_BIN", ROOT / "target" / "release" / "queens-sat"))


def span(text: str) -> list[int]:
    """`4-48` or `4,8,12` as a list of n."""
    out: list[int] = []
    for part in text.split(","):
        if "-" in part:
            lo, hi = part.split("-")
            out.extend(range(int(lo), int(hi) + 1))
        elif part:
            out.append(int(part))
    return out


def published() -> dict[tuple[str, int], int]:
    """A033148 and A032522 from ../shared/reference/counts.md where it is there, else {}."""
    ref = ROOT.parent / "shared" / "reference" / "counts.md"
    out: dict[tuple[str, int], int] = {}
    if not ref.exists():
        return out
    section = ""
    for line in ref.read_text().splitlines():
        if line.startswith("## "):
            section = line
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not line.startswith("|") or not cells[0].isdigit() or "amazon" in section.lower():
            continue
        n = int(cells[0])
        if len(cells) == 5:  # n | total | unique | r90 | r180
            r90, r180 = cells[3], cells[4]
        elif len(cells) == 3:  # n | r90 | r180
            r90, r180 = cells[1], cells[2]
        else:
            continue
        if r90.isdigit():
            out[("r90", n)] = int(r90)
        if r180.isdigit():
            out[("r180", n)] = int(r180)
    for n in range(34, 64):  # the zero terms the table names in words
        if n % 4 in (2, 3):
            out.setdefault(("r90", n), 0)
    return out


def run(n: int, g: str, piece: str, jobs: int, timeout: float | None) -> dict[str, object]:
    """One count: its JSON record, with the wall time seen from here."""
    cmd = [str(BIN), "count", "-n", str(n), "--symmetric", g, "--piece", piece,
           "--jobs", str(jobs), "--format", "json"]
    if timeout:
        cmd += ["--timeout", str(timeout)]
    t = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.monotonic() - t
    if p.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)}: exit {p.returncode}: {p.stderr.strip()[-300:]}")
    rec: dict[str, object] = json.loads(p.stdout)
    rec["wall"] = wall
    return rec


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--r90", default="1-61", help="n of the quarter-turn table (default 1-61)")
    ap.add_argument("--r180", default="1-28", help="n of the half-turn table (default 1-28)")
    ap.add_argument("--piece", default="queen")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=None, help="seconds per run")
    ap.add_argument("--once-over", type=float, default=None, metavar="SECS",
                    help="a term whose first run took longer than SECS runs once (marked in the table)")
    ap.add_argument("--rows", type=Path, default=None, help="TSV of runs (default docs/runs/symmetric-PIECE.tsv)")
    a = ap.parse_args()
    rows_path = a.rows or ROOT / "docs" / "runs" / f"symmetric-{a.piece}.tsv"
    done: dict[tuple[str, int], list[tuple[int, int, float]]] = {}
    if rows_path.exists():
        for line in rows_path.read_text().splitlines()[1:]:
            g, n, jobs, total, unique, wall, engine = line.split("\t")
            if int(jobs) == a.jobs:
                done.setdefault((g, int(n)), []).append((int(total), int(unique), float(wall)))
    else:
        rows_path.parent.mkdir(parents=True, exist_ok=True)
        rows_path.write_text("symmetric\tn\tjobs\ttotal\tunique\twall_s\tengine\n")
    ref = published() if a.piece == "queen" else {}
    for g, ns in (("r90", span(a.r90)), ("r180", span(a.r180))):
        seq = "A033148" if g == "r90" else "A032522"
        print(f"\n| n | {g}-fixed{f' ({seq})' if a.piece == 'queen' else ''} | / 2^k | classes | wall s (median of {a.repeat}) | |")
        print("|---|---|---|---|---|---|")
        for n in ns:
            runs = done.setdefault((g, n), [])
            want_runs = a.repeat
            while len(runs) < want_runs:
                if a.once_over is not None and runs and runs[0][2] > a.once_over:
                    want_runs = 1
                    break
                rec = run(n, g, a.piece, a.jobs, a.timeout)
                total, unique = int(rec["total"]), int(rec["unique"])  # type: ignore[call-overload]
                runs.append((total, unique, float(rec["wall"])))  # type: ignore[arg-type]
                with rows_path.open("a") as f:
                    f.write(f"{g}\t{n}\t{a.jobs}\t{total}\t{unique}\t{rec['wall']:.3f}\t{rec['engine']}\n")
            totals = {t for t, _, _ in runs}
            if len(totals) != 1:
                raise SystemExit(f"{g} n = {n}: runs differ: {sorted(totals)}")
            total, unique, _ = runs[0]
            want = ref.get((g, n))
            if want is not None and want != total:
                raise SystemExit(f"{g} n = {n}: counted {total}, published {want}")
            k = n // 4 if g == "r90" else 0
            per = f"{total // 2**k:,}" if g == "r90" and a.piece == "queen" and total else "-"
            mark = "" if a.piece != "queen" else ("published" if want is not None else "**new**")
            wall = statistics.median(w for _, _, w in runs[:want_runs])
            once = " (1 run)" if want_runs < a.repeat else ""
            print(f"| {n} | {total:,} | {per} | {unique:,} | {wall:.2f}{once} | {mark} |", flush=True)


if __name__ == "__main__":
    sys.exit(main())
