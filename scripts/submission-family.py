#!/usr/bin/env python3
"""The SAT Competition 2026 submission family (issue 53 §3): regenerate it and rerun the
measurement.

1. `queens-sat suite encodings/submission-2026.suite --select` with MiniSat as the budget
   solver (`--budget-limit`, 60 s) and the default strategy as the reference (`--timeout`),
   `--jobs 1`, up to `--per-family` kept per family and `--total` (20) in all, SAT and UNSAT
   balanced over the whole selection; resumable (cnf-out/submission-2026/selection.jsonl
   keeps every finished instance: a re-run with the same limits solves nothing again).
2. `--pack` with CaDiCaL as the pack's reference solver (`--reference-timeout`, 60 s) on the
   kept instances: the pack (CNF files, xz) goes to cnf-out/submission-2026-pack, its
   description, instance table and plots are copied to docs/submission-2026/ (no CNF there:
   the recipe and the command regenerate every file, and the GBD hashes name them).
3. Prints the markdown table of docs/benchmarks.md: per instance (family, n, parameters,
   seed, verdict, MiniSat, CaDiCaL, ours, GBD hash), then median / p90 / max per solver with
   the time limit for an undecided run, and the balance and per-family counts the
   competition's rules ask for.

Usage:
    scripts/submission-family.py                  # the whole run (about 60-80 min on one core)
    scripts/submission-family.py --table-only     # step 3 from docs/submission-2026/instances.csv
    scripts/submission-family.py --budget-limit 10 --timeout 60   # a quicker, weaker selection
"""

from __future__ import annotations

import argparse
import csv
import shutil
import subprocess
import sys
from pathlib import Path

from runlog import quantile

ROOT = Path(__file__).resolve().parent.parent
RECIPE = ROOT / "encodings" / "submission-2026.suite"
PACK = ROOT / "cnf-out" / "submission-2026-pack"
DOCS = ROOT / "docs" / "submission-2026"
COPY = ["DESCRIPTION.md", "description.html", "description.tex", "description.pdf",
        "instances.csv", "instances.json", "cactus.svg", "phase.svg"]


def run(args: argparse.Namespace) -> None:
    """Steps 1 and 2: the selection and the pack, then their files copied to docs/."""
    cmd = [
        args.queens_sat, "suite", str(RECIPE.relative_to(ROOT)), "--select",
        "--budget-limit", str(args.budget_limit), "--timeout", str(args.timeout),
        "--per-family", str(args.per_family), "--total", str(args.total),
        "--select-seed", str(args.seed), "--jobs", "1",
        "--pack", str(PACK.relative_to(ROOT)), "--author", "queens-sat developers",
        "--reference", "cadical", "--reference-timeout", str(args.reference_timeout),
    ]
    print("+", " ".join(cmd), file=sys.stderr)
    subprocess.run(cmd, check=True, cwd=ROOT)
    DOCS.mkdir(parents=True, exist_ok=True)
    for name in COPY:
        if (PACK / name).exists():
            shutil.copy(PACK / name, DOCS / name)
    suite = ROOT / "cnf-out" / "submission-2026"
    shutil.copy(suite / "manifest.csv", DOCS / "manifest.csv")
    shutil.copy(suite / "selection.jsonl", DOCS / "selection.jsonl")


def secs(v: str, limit: str) -> float:
    """Seconds, the limit for an undecided run."""
    return float(v) if v else float(limit or "nan")


def fmt(result: str, v: float, limit: float | None) -> str:
    """A table cell: the seconds of a decided run, `>LIMIT (unknown)` of an undecided one."""
    if result not in ("sat", "unsat"):
        return f">{limit:g} (unknown)" if limit is not None else "-"
    return f"{v:.2f}"


def table() -> None:
    """Step 3: prints the per-instance table, the per-solver summary and the counts."""
    rows = list(csv.DictReader((DOCS / "instances.csv").open()))
    print("| family | n | parameters | seed | verdict | MiniSat s | CaDiCaL s | ours s | GBD hash |")
    print("|---|---|---|---|---|---|---|---|---|")
    cols: dict[str, list[float]] = {"MiniSat": [], "CaDiCaL": [], "ours": []}
    solved = {k: 0 for k in cols}
    for r in rows:
        bl = float(r["budget_limit"]) if r.get("budget_limit") else None
        rl = float(r["ref_timeout"]) if r.get("ref_timeout") else None
        ol = float(r["limit"]) if r.get("limit") else None
        b = secs(r["budget_seconds"], r.get("budget_limit", ""))
        c = secs(r["ref_seconds"], r.get("ref_timeout", ""))
        o = secs(r["seconds"], r.get("limit", ""))
        # An undecided run counts at its limit in the quantiles.
        cols["MiniSat"].append(b if r["budget_result"] in ("sat", "unsat") else bl or b)
        cols["CaDiCaL"].append(c if r["ref_result"] in ("sat", "unsat") else rl or c)
        cols["ours"].append(o if r["solver_result"] in ("sat", "unsat") else ol or o)
        for k, res in (("MiniSat", r["budget_result"]), ("CaDiCaL", r["ref_result"]),
                       ("ours", r["solver_result"])):
            solved[k] += res in ("sat", "unsat")
        print(f"| {r['family']} | {r['n']} | {r['params']} | {r['seed']} | {r['result'].upper()} "
              f"| {fmt(r['budget_result'], b, bl)} | {fmt(r['ref_result'], c, rl)} "
              f"| {fmt(r['solver_result'], o, ol)} | `{r['hash']}` |")
    print()
    print("| solver | decided | median s | p90 s | max s |")
    print("|---|---|---|---|---|")
    for k, v in cols.items():
        print(f"| {k} | {solved[k]}/{len(rows)} | {quantile(v, 0.5):.2f} | {quantile(v, 0.9):.2f} "
              f"| {max(v):.2f} |")
    sat = sum(r["result"] == "sat" for r in rows)
    unsat = sum(r["result"] == "unsat" for r in rows)
    fams: dict[str, int] = {}
    for r in rows:
        fams[r["generator"] + ("/completion" if "to=completion" in r["params"] else "")] = (
            fams.get(r["generator"] + ("/completion" if "to=completion" in r["params"] else ""), 0)
            + 1)
    print()
    print(f"{len(rows)} instances, {sat} SAT, {unsat} UNSAT; per generator: "
          + ", ".join(f"{k} {v}" for k, v in fams.items()))


def main() -> int:
    """Runs the steps the options ask for; 0 on success."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--queens-sat", default="target/release/queens-sat",
                    help="relative to the repository root, or absolute")
    ap.add_argument("--budget-limit", type=float, default=60)
    ap.add_argument("--timeout", type=float, default=120,
                    help="the reference's (ours) limit; the competition allows 3600")
    ap.add_argument("--reference-timeout", type=float, default=60, help="CaDiCaL's limit")
    ap.add_argument("--per-family", type=int, default=9)
    ap.add_argument("--total", type=int, default=20,
                    help="the whole family's quota, balanced over all its families")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--table-only", action="store_true")
    args = ap.parse_args()
    if not args.table_only:
        run(args)
    table()
    return 0


if __name__ == "__main__":
    sys.exit(main())
