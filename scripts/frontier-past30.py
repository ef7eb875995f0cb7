#!/usr/bin/env python3
"""Past JAIR's n = 30 (issue 34 section 4): the default strategy on a sample of
`encodings/frontier-32-36.suite`, with the SAT / UNSAT / UNKNOWN shares per n and D.

For each n of --n, each prefix length D of the recipe's family (n + 1 .. n + 3) and seeds
1..--seeds, it writes the excluded-diagonals file (`generate diagonals -n N --min-free 1
--seed S`, the recipe's generator), runs `solve --instance FILE --diags D --timeout T` (the
default strategy, every core) and appends a row to --csv as each run ends: a rerun skips the
rows already there (resume). UNKNOWN is a row like the others and counts in the table.

At the end it prints a Markdown table per (n, D): SAT, UNSAT, UNKNOWN, decided, median and
max seconds of the decided runs, then one row per n.

Usage:
    scripts/frontier-past30.py --n 32 --seeds 10 --timeout 300 \\
        --csv docs/runs/frontier32-300.csv [--bin target/release/queens-sat]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from runlog import appending, read_rows

ROOT = Path(__file__).resolve().parent.parent
FIELDS = ["instance", "n", "diags", "seed", "status", "seconds"]


def run_one(binary: str, n: int, diags: int, seed: int, timeout: float) -> tuple[str, float]:
    """Solves the instance (n, the first `diags` diagonals of seed `seed`): status and wall seconds."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"diag-n{n}-s{seed}.txt"
        subprocess.run(
            [binary, "generate", "diagonals", "-n", str(n), "--min-free", "1",
             "--seed", str(seed), "-o", str(path)],
            check=True,
        )
        t0 = time.monotonic()
        done = subprocess.run(
            [binary, "solve", "--instance", str(path), "--diags", str(diags),
             "--timeout", str(timeout)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        seconds = time.monotonic() - t0
    status = {10: "SAT", 20: "UNSAT"}.get(done.returncode)
    if status is None:
        status = "UNKNOWN" if "UNKNOWN" in done.stderr or "time" in done.stderr else "ERROR"
        if status == "ERROR":
            print(done.stderr, file=sys.stderr)
    return status, seconds


def table(rows: list[dict[str, str]]) -> str:
    """The Markdown table of the rows: per (n, D), then per n."""
    out = [
        "| n | D | SAT | UNSAT | UNKNOWN | decided | median s | max s |",
        "|---|---|---|---|---|---|---|---|",
    ]

    def line(label_n: str, label_d: str, group: list[dict[str, str]]) -> str:
        count = {s: sum(r["status"] == s for r in group) for s in ("SAT", "UNSAT", "UNKNOWN")}
        decided = [float(r["seconds"]) for r in group if r["status"] in ("SAT", "UNSAT")]
        med = f"{statistics.median(decided):.2f}" if decided else "-"
        top = f"{max(decided):.2f}" if decided else "-"
        return (
            f"| {label_n} | {label_d} | {count['SAT']} | {count['UNSAT']} | {count['UNKNOWN']} "
            f"| {len(decided)}/{len(group)} | {med} | {top} |"
        )

    keys = sorted({(int(r["n"]), int(r["diags"])) for r in rows})
    for n, d in keys:
        out.append(line(str(n), str(d), [r for r in rows if (int(r["n"]), int(r["diags"])) == (n, d)]))
    for n in sorted({k[0] for k in keys}):
        out.append(line(f"**{n}**", "all", [r for r in rows if int(r["n"]) == n]))
    return "\n".join(out)


def main() -> int:
    """Runs the sample (resuming --csv), then prints the table."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, nargs="+", default=[32])
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--csv", type=Path, required=True)
    ap.add_argument("--bin", default=str(ROOT / "target" / "release" / "queens-sat"))
    ap.add_argument("--table-only", action="store_true", help="print the table of --csv and stop")
    args = ap.parse_args()

    rows = read_rows(args.csv)
    if not args.table_only:
        done = {r["instance"] for r in rows}
        with appending(args.csv, FIELDS) as write:
            # Seeds outermost: a run cut short still has every n and D.
            for seed in range(1, args.seeds + 1):
                for n in args.n:
                    for diags in range(n + 1, n + 4):
                        name = f"diag-n{n}-d{diags}-s{seed}"
                        if name in done:
                            continue
                        status, seconds = run_one(args.bin, n, diags, seed, args.timeout)
                        row = {"instance": name, "n": str(n), "diags": str(diags),
                               "seed": str(seed), "status": status, "seconds": f"{seconds:.3f}"}
                        write(row)
                        rows.append(row)
                        print(f"{name}: {status} {seconds:.2f} s", flush=True)
    print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
