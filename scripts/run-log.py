#!/usr/bin/env python3
"""The run log of a long orbit count (issue 62): a `split count --symmetric r90|r180` job folder
as one TSV, a line per piece (its cube line: weight and cells placed, each standing for its
orbit; its count; the CPU seconds of the thread that counted it; the task), then the totals
and a SHA-256 of the rows. With a second folder (the same cubes counted by another engine,
e.g. `split count --engine orbit-values`), every piece both folders have counted is compared.

Usage:
    scripts/run-log.py docs/symmetric/runs/a033148-64 > docs/symmetric/runs/a033148-64.log.tsv
    scripts/run-log.py JOB_A JOB_B                # piece by piece, the two engines

A piece whose task has not run is listed with `-`; the totals say how many pieces are in, so a
partial log is a true statement of a run in progress.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path


def load(folder: Path) -> tuple[dict[str, object], list[str], dict[int, tuple[int, float | None, int]]]:
    """job.json, the cube lines, and line -> (count, cpu seconds, task) for the results in."""
    job = json.loads((folder / "job.json").read_text())
    cubes = [l for l in (folder / "cubes").read_text().splitlines() if not l.startswith("#")]
    done: dict[int, tuple[int, float | None, int]] = {}
    for f in sorted((folder / "results").glob("*.json")):
        r = json.loads(f.read_text())
        if r.get("error") or r.get("job_id") != job["job_id"]:
            continue
        cpu = r.get("cpu_seconds") or [None] * len(r["lines"])
        for line, count, sec in zip(r["lines"], r["counts"], cpu):
            done[line] = (count, sec, r["task"])
    return job, cubes, done


def main() -> None:
    folders = [Path(a) for a in sys.argv[1:]]
    if not 1 <= len(folders) <= 2:
        raise SystemExit(__doc__)
    job, cubes, done = load(folders[0])
    other = load(folders[1]) if len(folders) == 2 else None
    if other is not None and other[1] != cubes:
        raise SystemExit("the two folders do not have the same cube lines")
    commit = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    rows = []
    total = 0
    cpu_total = 0.0
    agree = differ = 0
    for i, line in enumerate(cubes):
        weight, *cells = line.split()
        if i in done:
            count, sec, task = done[i]
            total += int(weight) * count
            cpu_total += sec or 0.0
            row = [str(i), weight, " ".join(cells), str(count), f"{sec:.3f}" if sec is not None else "-", str(task)]
        else:
            row = [str(i), weight, " ".join(cells), "-", "-", "-"]
        if other is not None:
            theirs = other[2].get(i)
            row.append(str(theirs[0]) if theirs else "-")
            if theirs and i in done:
                if theirs[0] == done[i][0]:
                    agree += 1
                else:
                    differ += 1
        rows.append("\t".join(row))
    body = "\n".join(rows) + "\n"
    digest = hashlib.sha256(body.encode()).hexdigest()
    print(f"# job {job['job_id']}: {' '.join(job['command'])}")
    print(f"# n = {job['n']}, piece {job['piece']}, symmetric {job.get('symmetric')}, engine {job.get('engine')}; commit {commit}")
    head = ["line", "weight", "cells", "count", "cpu_s", "task"] + (["other_count"] if other else [])
    print("\t".join(head))
    print(body, end="")
    print(f"# pieces counted: {len(done)} of {len(cubes)}; weighted sum so far {total}; CPU seconds {cpu_total:.1f}")
    if other is not None:
        print(f"# second engine ({other[0].get('engine')}): {agree} pieces agree, {differ} differ, {len(other[2])} counted")
    print(f"# sha256 of the rows: {digest}")
    if differ:
        sys.exit(1)


if __name__ == "__main__":
    main()
