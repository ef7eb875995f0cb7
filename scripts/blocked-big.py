#!/usr/bin/env python3
"""Big blocked boards (issue 43): the default strategy on `generate blocked -n N -m M
--min-free 1 --seed S`, with P(SAT) and the median / p90 / max seconds per (n, m).

The points are the families of a suite recipe (`family`, `n`, `generator blocked m=LIST
min-free=1`, `seeds LIST`; e.g. encodings/blocked-big.suite, whose instances these are) or
given with --n, --density (percent of the cells blocked) and --seeds for a sweep. Each run
appends a CSV row as it ends (resume: rows already in --csv are skipped). UNKNOWN is a row like
the others: it counts in the table (at the time limit in the quantiles).

Usage:
    scripts/blocked-big.py --recipe encodings/blocked-big.suite --timeout 60 --csv OUT.csv
    scripts/blocked-big.py --n 72 80 --density 88 89 90 91 --seeds 1..4 --timeout 20 --csv S.csv
    scripts/blocked-big.py ... --solve-args "--cubes --solver lib:cadical --implied sums"
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from runlog import appending, quantile, read_rows

ROOT = Path(__file__).resolve().parent.parent
FIELDS = ["instance", "n", "m", "seed", "status", "seconds", "solver"]


def int_list(text: str) -> list[int]:
    """A recipe LIST: `A`, `A..B`, `A..B:S`, comma-separated."""
    out: list[int] = []
    for item in text.split(","):
        if ".." in item:
            lo, rest = item.split("..")
            hi, _, step = rest.partition(":")
            out += range(int(lo), int(hi) + 1, int(step or 1))
        else:
            out.append(int(item))
    return out


def from_recipe(path: Path) -> list[tuple[int, int, int]]:
    """The (n, m, seed) of every blocked family of a suite recipe, family by family."""
    points: list[tuple[int, int, int]] = []
    fam: dict[str, str] = {}

    def flush() -> None:
        if fam:
            gen = dict(kv.split("=") for kv in fam["generator"].split()[1:])
            for n in int_list(fam["n"]):
                for m in int_list(gen["m"]):
                    points.extend((n, m, s) for s in int_list(fam["seeds"]))

    for line in path.read_text().splitlines():
        line = line.split("#")[0].strip()
        if not line:
            continue
        key, _, value = line.partition(" ")
        if key == "family":
            flush()
            fam = {}
        fam[key] = value
    flush()
    return points


def run_one(
    binary: str, n: int, m: int, seed: int, timeout: float, extra: list[str]
) -> tuple[str, float, str]:
    """Solves one instance (`solve` with the `extra` arguments): status, wall seconds, solver
    label."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "b.txt"
        subprocess.run(
            [binary, "generate", "blocked", "-n", str(n), "-m", str(m), "--min-free", "1",
             "--seed", str(seed), "-o", str(path)],
            check=True, capture_output=True,
        )
        t0 = time.monotonic()
        done = subprocess.run(
            [binary, "solve", "--instance", str(path), "--timeout", str(timeout),
             "--format", "json", *extra],
            capture_output=True, text=True,
        )
        seconds = time.monotonic() - t0
    try:
        report = json.loads(done.stdout)
        return str(report["status"]), seconds, str(report.get("solver", ""))
    except (json.JSONDecodeError, KeyError):
        print(done.stderr, file=sys.stderr)
        return "ERROR", seconds, ""



def table(rows: list[dict[str, str]], timeout: float) -> str:
    """Markdown: one line per (n, m), then one per n."""
    out = [
        "| n | m (blocked %) | SAT | UNSAT | UNKNOWN | P(SAT) | within 10 s | median / p90 / max s |",
        "|---|---|---|---|---|---|---|---|",
    ]

    def line(label_n: str, label_m: str, group: list[dict[str, str]]) -> str:
        c = {s: sum(r["status"] == s for r in group) for s in ("SAT", "UNSAT", "UNKNOWN")}
        secs = [timeout if r["status"] == "UNKNOWN" else float(r["seconds"]) for r in group]
        decided = c["SAT"] + c["UNSAT"]
        p = f"{c['SAT'] / decided:.2f}" if decided else "-"
        fast = sum(s <= 10 and r["status"] in ("SAT", "UNSAT") for s, r in zip(secs, group))
        q = f"{quantile(secs, 0.5):.2f} / {quantile(secs, 0.9):.2f} / {max(secs):.2f}"
        return (f"| {label_n} | {label_m} | {c['SAT']} | {c['UNSAT']} | {c['UNKNOWN']} | {p} "
                f"| {fast}/{len(group)} | {q} |")

    keys = sorted({(int(r["n"]), int(r["m"])) for r in rows})
    for n, m in keys:
        group = [r for r in rows if (int(r["n"]), int(r["m"])) == (n, m)]
        out.append(line(str(n), f"{m} ({100 * m / n / n:.1f})", group))
    for n in sorted({k[0] for k in keys}):
        out.append(line(f"**{n}**", "all", [r for r in rows if int(r["n"]) == n]))
    return "\n".join(out)


def main() -> int:
    """Runs the points (resuming --csv), then prints the table."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--recipe", type=Path)
    ap.add_argument("--n", type=int, nargs="+", default=[])
    ap.add_argument("--density", type=float, nargs="+", default=[])
    ap.add_argument("--seeds", default="1..4")
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--csv", type=Path, required=True)
    ap.add_argument("--bin", default=str(ROOT / "target" / "release" / "queens-sat"))
    ap.add_argument("--table-only", action="store_true")
    ap.add_argument("--solve-args", default="",
                    help="more `solve` arguments, one string (an A/B's other configuration)")
    args = ap.parse_args()

    if args.recipe:
        points = from_recipe(args.recipe)
    else:
        points = [(n, round(n * n * d / 100), s) for s in int_list(args.seeds)
                  for n in args.n for d in args.density]
    rows = read_rows(args.csv)
    if not args.table_only:
        done = {r["instance"] for r in rows}
        with appending(args.csv, FIELDS) as write:
            for n, m, seed in points:
                name = f"blocked-n{n}-m{m}-s{seed}"
                if name in done:
                    continue
                extra = args.solve_args.split()
                status, seconds, solver = run_one(args.bin, n, m, seed, args.timeout, extra)
                row = {"instance": name, "n": str(n), "m": str(m), "seed": str(seed),
                       "status": status, "seconds": f"{seconds:.3f}", "solver": solver}
                write(row)
                rows.append(row)
                print(f"{name}: {status} {seconds:.2f} s {solver}", flush=True)
    print(table(rows, args.timeout))
    return 0


if __name__ == "__main__":
    sys.exit(main())
