#!/usr/bin/env python3
"""Certified UNSAT on frontier instances (issue 34 section 2): a table of what a certificate costs.

For each UNSAT instance of the frontier sample (the rows of a `bench hard --frontier --csv` file
whose status is UNSAT, n within --min-n..--max-n), it measures:

- the default strategy without a certificate (`solve`, every core): wall seconds;
- the bitboard search's nodes with its sum bounds (the default tuning) and without them (the
  certified search's tuning): the node cost of the bounds switched off;
- the proof writer alone (`bitboard_nodes --write`): seconds, lemmas and hints (the proof's
  size), the proof dropped unchecked;
- the whole certified search (`bitboard_nodes --certify`): wall seconds, and the checker's own
  busy seconds on its thread.

Rows are appended to --csv as each instance finishes; a rerun skips the instances already there
(resume). At the end it prints a Markdown table and the sums the issue's targets are stated on.

Usage:
    scripts/certify-frontier.py --runs docs/runs/frontier300-s1-2026-11-25.csv \\
        --csv docs/runs/certify-frontier.csv [--min-n 22] [--max-n 26] [--timeout 600]
"""

from __future__ import annotations

import argparse
import csv
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIELDS = [
    "instance",
    "n",
    "diags",
    "seed",
    "uncertified_s",
    "nodes_bounds",
    "nodes_proof",
    "write_s",
    "lemmas",
    "hints",
    "certify_s",
    "check_s",
    "verdict",
]


def parse_name(name: str) -> tuple[int, int, int]:
    """The (n, diagonals, seed) of a frontier instance name such as `diag-n22-d21-s12`."""
    m = re.fullmatch(r"diag-n(\d+)-d(\d+)-s(\d+)", name)
    if m is None:
        raise ValueError(f"not a frontier instance name: {name}")
    return int(m.group(1)), int(m.group(2)), int(m.group(3))


def example_line(binary: Path, args: list[str], timeout: float) -> list[str]:
    """Runs the `bitboard_nodes` example on one instance; its result line split on tabs."""
    out = subprocess.run(
        [str(binary), "--timeout", str(timeout), *args],
        capture_output=True,
        text=True,
        timeout=timeout + 120,
        check=True,
    ).stdout
    lines = [line for line in out.splitlines() if not line.startswith("#")]
    return lines[-1].split("\t")


def main() -> int:
    """Measures every UNSAT instance of the sample not yet in --csv, then prints the table."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", required=True, type=Path)
    ap.add_argument("--csv", required=True, type=Path)
    ap.add_argument("--min-n", type=int, default=22)
    ap.add_argument("--max-n", type=int, default=26)
    ap.add_argument("--timeout", type=float, default=600.0)
    ap.add_argument("--bin", type=Path, default=ROOT / "target/release/queens-sat")
    ap.add_argument(
        "--example", type=Path, default=ROOT / "target/release/examples/bitboard_nodes"
    )
    a = ap.parse_args()
    with a.runs.open() as f:
        names = [r["instance"] for r in csv.DictReader(f) if r["status"] == "UNSAT"]
    todo = [x for x in names if a.min_n <= parse_name(x)[0] <= a.max_n]
    done: set[str] = set()
    if a.csv.exists():
        with a.csv.open() as f:
            done = {r["instance"] for r in csv.DictReader(f)}
    else:
        a.csv.parent.mkdir(parents=True, exist_ok=True)
        with a.csv.open("w", newline="") as f:
            csv.writer(f).writerow(FIELDS)
    with tempfile.TemporaryDirectory() as tmp:
        for name in todo:
            if name in done:
                continue
            n, d, seed = parse_name(name)
            gen = Path(tmp) / f"n{n}-s{seed}.diag"
            subprocess.run(
                [str(a.bin), "generate", "diagonals", "-n", str(n), "--min-free", "1",
                 "--seed", str(seed), "-o", str(gen)],
                check=True,
            )
            t0 = time.monotonic()
            r = subprocess.run(
                [str(a.bin), "solve", "--instance", str(gen), "--diags", str(d),
                 "--timeout", str(a.timeout)],
                capture_output=True,
                text=True,
            )
            uncertified = time.monotonic() - t0
            if r.returncode != 20:
                print(f"{name}: uncertified exit {r.returncode}", file=sys.stderr)
            spec = f"{gen}:{d}"
            bounds = example_line(a.example, [spec], a.timeout)
            write = example_line(a.example, ["--write", spec], a.timeout)
            cert = example_line(a.example, ["--certify", spec], a.timeout)
            row = [
                name, n, d, seed, f"{uncertified:.3f}", bounds[2], write[2], write[3],
                write[5], write[6], cert[3], cert[7], cert[1],
            ]
            with a.csv.open("a", newline="") as f:
                csv.writer(f).writerow(row)
            print("\t".join(str(x) for x in row), flush=True)
    table(a.csv)
    return 0


def table(path: Path) -> None:
    """Prints the rows of `path` as a Markdown table, with the sums."""
    with path.open() as f:
        rows = list(csv.DictReader(f))
    print(
        "| instance | uncertified s | nodes (bounds) | nodes (proof) | write s | lemmas | "
        "hints | certify s | check s | verdict |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(
            f"| {r['instance']} | {r['uncertified_s']} | {int(r['nodes_bounds']):,} | "
            f"{int(r['nodes_proof']):,} | {r['write_s']} | {int(r['lemmas']):,} | "
            f"{int(r['hints']):,} | {r['certify_s']} | {r['check_s']} | {r['verdict']} |"
        )
    total = {k: sum(float(r[k]) for r in rows) for k in ("uncertified_s", "write_s", "certify_s")}
    nodes = sum(int(r["nodes_proof"]) for r in rows) / max(
        1, sum(int(r["nodes_bounds"]) for r in rows)
    )
    print()
    print(
        f"sums: uncertified {total['uncertified_s']:.1f} s, proof written "
        f"{total['write_s']:.1f} s ({total['write_s'] / total['uncertified_s']:.1f}x), "
        f"certified {total['certify_s']:.1f} s "
        f"({total['certify_s'] / total['uncertified_s']:.1f}x); max certified "
        f"{max(float(r['certify_s']) for r in rows):.1f} s; nodes without the bounds "
        f"{nodes:.2f}x"
    )


if __name__ == "__main__":
    if os.environ.get("CERTIFY_TABLE_ONLY"):
        table(Path(sys.argv[1]))
        sys.exit(0)
    sys.exit(main())
