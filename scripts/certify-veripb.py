#!/usr/bin/env python3
"""Certified UNSAT through VeriPB proofs (issue 46): the whole `solve --certify` run per instance.

For each UNSAT instance of a frontier sample (the rows of a `bench hard --frontier --csv` file
whose status is UNSAT, n within --min-n..--max-n), it runs `queens-sat solve --certify` with the
extra arguments given (by default `--proof-format veripb`: the bitboard search with its
prunings, its VeriPB proof checked on a second thread, no file kept), once, and records the wall
seconds, the exit code, the proof steps checked, the peak memory (the child's max RSS) and the
certificate's checker. With --keep it also runs once with `--proof FILE.pbp` and records the
proof's bytes (the file is deleted after).

The LRAT route's seconds for the same instances come from --lrat (the rows of
`scripts/certify-frontier.py`, column certify_s), so the table compares the two routes.

Rows are appended to --csv as each instance finishes; a rerun skips the instances already there
(resume). At the end it prints a Markdown table, the sums, and the median, p90 and max of the
per-instance ratio to the LRAT route.

Usage:
    scripts/certify-veripb.py --runs docs/runs/frontier300-s1-2026-11-25.csv \\
        --lrat docs/runs/certify-frontier-2026-11-26.csv --csv out.csv [--timeout 600] [--keep]
"""

from __future__ import annotations

import argparse
import csv
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIELDS = ["instance", "n", "diags", "seed", "exit", "seconds", "steps", "max_rss_mb",
          "proof_bytes", "checker"]


def parse_name(name: str) -> tuple[int, int, int]:
    """The (n, diagonals, seed) of a frontier instance name such as `diag-n22-d21-s12`."""
    m = re.fullmatch(r"diag-n(\d+)-d(\d+)-s(\d+)", name)
    if m is None:
        raise ValueError(f"not a frontier instance name: {name}")
    return int(m.group(1)), int(m.group(2)), int(m.group(3))


def run(cmd: list[str], timeout: float) -> tuple[int, float, str, float]:
    """Runs `cmd` under GNU time; its exit code, wall seconds, stderr and peak RSS in MB."""
    t0 = time.monotonic()
    r = subprocess.run(["/usr/bin/time", "-f", "MAXRSS_KB %M", *cmd], capture_output=True,
                       text=True, timeout=timeout + 300)
    seconds = time.monotonic() - t0
    m = re.search(r"MAXRSS_KB (\d+)", r.stderr)
    return r.returncode, seconds, r.stderr, (int(m.group(1)) / 1024.0 if m else 0.0)


def p90(xs: list[float]) -> float:
    """The 90th percentile (nearest rank)."""
    s = sorted(xs)
    return s[max(0, int(round(0.9 * len(s) + 0.5)) - 1)]


def main() -> int:
    """Measures every UNSAT instance of the sample not yet in --csv, then prints the table."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", required=True, type=Path)
    ap.add_argument("--lrat", type=Path)
    ap.add_argument("--csv", required=True, type=Path)
    ap.add_argument("--min-n", type=int, default=22)
    ap.add_argument("--max-n", type=int, default=26)
    ap.add_argument("--timeout", type=float, default=600.0)
    ap.add_argument("--keep", action="store_true", help="also measure the proof file's size")
    ap.add_argument("--args", default="--proof-format veripb",
                    help="extra arguments of solve --certify")
    ap.add_argument("--only", default="", help="comma-separated instance names")
    ap.add_argument("--bin", type=Path, default=ROOT / "target/release/queens-sat")
    a = ap.parse_args()
    with a.runs.open() as f:
        names = list(dict.fromkeys(
            r["instance"] for r in csv.DictReader(f)
            if r["status"] == "UNSAT" and r["instance"].startswith("diag-")))
    todo = [x for x in names if a.min_n <= parse_name(x)[0] <= a.max_n]
    if a.only:
        todo = [x for x in todo if x in a.only.split(",")]
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
            base = [str(a.bin), "solve", "--instance", str(gen), "--diags", str(d),
                    "--timeout", str(a.timeout), "--certify", *a.args.split()]
            code, seconds, err, rss = run(base, a.timeout)
            m = re.search(r"certified: (.*?); (\d+) proof steps checked", err)
            steps, checker = (m.group(2), m.group(1)) if m else ("", "")
            size = ""
            if a.keep and code == 20:
                pbp = Path(tmp) / "p.pbp"
                run([*base, "--proof", str(pbp)], a.timeout)
                size = str(pbp.stat().st_size) if pbp.exists() else ""
                pbp.unlink(missing_ok=True)
            row = [name, n, d, seed, code, f"{seconds:.3f}", steps, f"{rss:.0f}", size, checker]
            with a.csv.open("a", newline="") as f:
                csv.writer(f).writerow(row)
            print("\t".join(str(x) for x in row[:9]), flush=True)
    table(a.csv, a.lrat)
    return 0


def table(path: Path, lrat: Path | None) -> None:
    """Prints the rows of `path` as a Markdown table, with the LRAT route's seconds beside."""
    with path.open() as f:
        rows = list(csv.DictReader(f))
    old: dict[str, str] = {}
    if lrat is not None and lrat.exists():
        with lrat.open() as f:
            old = {r["instance"]: r["certify_s"] for r in csv.DictReader(f)}
    print("| instance | exit | VeriPB `--certify` s | LRAT `--certify` s | ratio | steps | "
          "peak MB | proof MB |")
    print("|---|---|---|---|---|---|---|---|")
    ratios = []
    for r in rows:
        lr = old.get(r["instance"], "")
        ratio = ""
        if lr and r["exit"] == "20":
            ratios.append(float(r["seconds"]) / float(lr))
            ratio = f"{ratios[-1]:.2f}"
        mb = f"{int(r['proof_bytes']) / 1e6:.0f}" if r["proof_bytes"] else "-"
        print(f"| {r['instance']} | {r['exit']} | {r['seconds']} | {lr or '-'} | {ratio or '-'} | "
              f"{r['steps'] or '-'} | {r['max_rss_mb']} | {mb} |")
    secs = [float(r["seconds"]) for r in rows]
    print()
    print(f"VeriPB route: {len(rows)} instances, {sum(r['exit'] == '20' for r in rows)} certified, "
          f"{sum(secs):.1f} s in all; median {statistics.median(secs):.2f} s, p90 "
          f"{p90(secs):.2f} s, max {max(secs):.2f} s")
    if old:
        both = [r for r in rows if r["instance"] in old]
        lsum = sum(float(old[r["instance"]]) for r in both)
        vsum = sum(float(r["seconds"]) for r in both)
        print(f"same instances, LRAT route {lsum:.1f} s in all: VeriPB/LRAT {vsum / lsum:.2f}")
    if ratios:
        print(f"per-instance ratio VeriPB/LRAT: median {statistics.median(ratios):.2f}, "
              f"p90 {p90(ratios):.2f}, max {max(ratios):.2f}")


if __name__ == "__main__":
    sys.exit(main())
