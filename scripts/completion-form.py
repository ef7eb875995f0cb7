#!/usr/bin/env python3
"""The completion-form benchmark (issue 43): excluded-diagonal instances solved in their own
form and in the form of their reduction to n-queens completion (`convert --to completion`, the
JAIR 2017 reduction: a board of n = 1,000-8,000 with all but n queens pre-placed), plus random
completions (`generate completion`) at n = 100-400 near the phase transition.

Sets (--set, any of them):
- `tail`: the excluded-diagonal half of the tail set (`encodings/tail.suite`: n = 20 with
  16..22 diagonals, n = 21 with 22..27, seeds 1..20; 260 instances);
- `frontier-s1`, `frontier-s2`: the frontier samples of 40 of seeds 1 and 2 (the instances of
  docs/runs/frontier300-s1-2026-11-25.csv and frontier300-s2-2026-11-26.csv);
- `random`: `generate completion -n N -m M` for N = 100, 200, 300, 400 with
  M = N - round(sqrt(N / 0.19)) (the transition of `encodings/completion-phase.suite`,
  delta^2 = N / 0.19), seeds 1..10; completion form only.

Each instance runs `solve --timeout T` (the default strategy, every core) in both
forms one after the other, and a CSV row per run is appended as it ends (resume: rows already
in --csv are skipped). The table at the end, per set: verdicts that differ, misses (UNKNOWN in
the completion form only), how many completion runs took at most 1.5x the diagonal form's
time plus 50 ms, and the median, p90 and max seconds of each form (UNKNOWN counts at the
time limit).

Usage:
    scripts/completion-form.py --set tail frontier-s1 --timeout 60 \\
        --csv docs/runs/completion-form.csv [--bin target/release/queens-sat]
"""

from __future__ import annotations

import argparse
import csv
import math
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from runlog import appending, quantile, read_rows

ROOT = Path(__file__).resolve().parent.parent
FIELDS = ["set", "instance", "form", "n", "status", "seconds", "solver"]
FRONTIER = {
    "frontier-s1": ROOT / "docs" / "runs" / "frontier300-s1-2026-11-25.csv",
    "frontier-s2": ROOT / "docs" / "runs" / "frontier300-s2-2026-11-26.csv",
}


def instances(name: str) -> list[tuple[str, int, int, int]]:
    """The set's instances as (name, n, D or m, seed): D diagonals, or m queens for `random`."""
    if name == "tail":
        out = [(f"diag-n20-d{d}-s{s}", 20, d, s) for d in range(16, 23) for s in range(1, 21)]
        out += [(f"diag-n21-d{d}-s{s}", 21, d, s) for d in range(22, 28) for s in range(1, 21)]
        return out
    if name == "random":
        out = []
        for n in (100, 200, 300, 400):
            m = n - round(math.sqrt(n / 0.19))
            out += [(f"completion-n{n}-m{m}-s{s}", n, m, s) for s in range(1, 11)]
        return out
    with FRONTIER[name].open() as f:
        names = [r["instance"] for r in csv.DictReader(f)]
    out = []
    for inst in names:
        parts = re.fullmatch(r"diag-n(\d+)-d(\d+)-s(\d+)", inst)
        if parts is None:
            raise SystemExit(f"{FRONTIER[name]}: instance name {inst!r} is not diag-nN-dD-sS")
        out.append((inst, int(parts[1]), int(parts[2]), int(parts[3])))
    return out


def solve(binary: str, args: list[str], timeout: float) -> tuple[str, float, str]:
    """Runs `solve ARGS --timeout T` (the board text to /dev/null, as a user pipes it; JSON
    would hold a board of n = 5,500 as 30 MB of strings): status, wall seconds, solver label
    (from the summary line on stderr)."""
    t0 = time.monotonic()
    done = subprocess.run(
        [binary, "solve", *args, "--timeout", str(timeout)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    seconds = time.monotonic() - t0
    status = {10: "SAT", 20: "UNSAT"}.get(done.returncode, "UNKNOWN")
    found = re.search(r" solver=(.*?) (vars|encode)=", done.stderr)
    solver = found[1] if found else ""
    if status == "UNKNOWN" and "UNKNOWN" not in done.stderr:
        status = "ERROR"
        print(done.stderr, file=sys.stderr)
    return status, seconds, solver


def run_instance(
    binary: str, set_name: str, inst: tuple[str, int, int, int], timeout: float
) -> list[dict[str, str]]:
    """Both forms of one instance (the completion form alone for `random`): one row each."""
    name, n, k, seed = inst
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        small = Path(tmp) / "d.txt"
        big = Path(tmp) / "c.param"
        if set_name == "random":
            gen = ["generate", "completion", "-n", str(n), "-m", str(k), "--seed", str(seed)]
            subprocess.run([binary, *gen, "-o", str(big)], check=True, capture_output=True)
            forms = [("completion", ["--instance", str(big)])]
        else:
            gen = ["generate", "diagonals", "-n", str(n), "--min-free", "1", "--seed", str(seed)]
            subprocess.run([binary, *gen, "-o", str(small)], check=True, capture_output=True)
            to = ["convert", "--instance", str(small), "--diags", str(k), "--to", "completion"]
            subprocess.run([binary, *to, "-o", str(big)], check=True, capture_output=True)
            forms = [
                ("diagonal", ["--instance", str(small), "--diags", str(k)]),
                ("completion", ["--instance", str(big)]),
            ]
        for form, args in forms:
            status, seconds, solver = solve(binary, args, timeout)
            rows.append({"set": set_name, "instance": name, "form": form, "n": str(n),
                         "status": status, "seconds": f"{seconds:.3f}", "solver": solver})
    return rows



def table(rows: list[dict[str, str]], timeout: float) -> str:
    """The Markdown table of the rows, one line per set."""
    out = [
        "| set | instances | verdicts differ | misses | within 1.5x + 50 ms | diagonal median / p90 / max s | completion median / p90 / max s |",
        "|---|---|---|---|---|---|---|",
    ]

    def secs(r: dict[str, str]) -> float:
        return timeout if r["status"] == "UNKNOWN" else float(r["seconds"])

    def stats(values: list[float]) -> str:
        if not values:
            return "-"
        return f"{quantile(values, 0.5):.3f} / {quantile(values, 0.9):.3f} / {max(values):.3f}"

    for set_name in dict.fromkeys(r["set"] for r in rows):
        by: dict[str, dict[str, dict[str, str]]] = {}
        for r in rows:
            if r["set"] == set_name:
                by.setdefault(r["instance"], {})[r["form"]] = r
        pairs = [(v.get("diagonal"), v["completion"]) for v in by.values() if "completion" in v]
        differ = misses = within = 0
        for d, c in pairs:
            if d is None:
                continue
            decided = {"SAT", "UNSAT"}
            if d["status"] in decided and c["status"] in decided and d["status"] != c["status"]:
                differ += 1
            if c["status"] not in decided and d["status"] in decided:
                misses += 1
            if secs(c) <= 1.5 * secs(d) + 0.05:
                within += 1
        diag = [secs(d) for d, _ in pairs if d is not None]
        comp = [secs(c) for _, c in pairs]
        both = sum(d is not None for d, _ in pairs)
        out.append(
            f"| {set_name} | {len(pairs)} | {differ} | {misses} | "
            f"{within}/{both if both else '-'} | {stats(diag)} | {stats(comp)} |"
        )
    return "\n".join(out)


def main() -> int:
    """Runs the sets (resuming --csv), then prints the table."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--set", nargs="+", default=["tail"],
                    choices=["tail", "frontier-s1", "frontier-s2", "random"])
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--csv", type=Path, required=True)
    ap.add_argument("--bin", default=str(ROOT / "target" / "release" / "queens-sat"))
    ap.add_argument("--table-only", action="store_true", help="print the table of --csv and stop")
    args = ap.parse_args()

    rows = read_rows(args.csv)
    if not args.table_only:
        done = {(r["set"], r["instance"]) for r in rows}
        with appending(args.csv, FIELDS) as write:
            for set_name in args.set:
                for inst in instances(set_name):
                    if (set_name, inst[0]) in done:
                        continue
                    for row in run_instance(args.bin, set_name, inst, args.timeout):
                        write(row)
                        rows.append(row)
                        print(f"{row['instance']} {row['form']}: {row['status']} "
                              f"{row['seconds']} s", flush=True)
    print(table(rows, args.timeout))
    return 0


if __name__ == "__main__":
    sys.exit(main())
