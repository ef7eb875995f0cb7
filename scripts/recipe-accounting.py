#!/usr/bin/env python3
"""Per-family accounting of suite recipes (issue 53 §3): for each family, how many instances
the recipe describes, how many presolve decided (recorded, not written), how many are
duplicates (same GBD hash, or a rotation or mirror of an earlier instance), how many files are
written, and, where a `--select` run filled the manifest's `selection` column, how many the
budget solver decided (easy), how many were too hard for the reference, how many passed and how
many were kept.

It reads `manifest.csv` of each suite folder (written by `queens-sat suite RECIPE [--out DIR]`)
and prints a markdown table (and, on stderr, the families that a --select run measured only in
part). Runs nothing itself.

Usage:
    scripts/recipe-accounting.py cnf-out/tail cnf-out/frontier ...   # first column: the folder's name
    scripts/recipe-accounting.py --strip acct- cnf-out/acct-tail ...   # ... less a prefix
"""

from __future__ import annotations

import argparse
import sys
from collections import OrderedDict
from pathlib import Path

from runlog import read_rows


def tally(manifest: Path) -> "OrderedDict[str, dict[str, int]]":
    """Counts per family, in recipe order."""
    fams: OrderedDict[str, dict[str, int]] = OrderedDict()
    for row in read_rows(manifest):
        t = fams.setdefault(
            row["family"],
            {k: 0 for k in ("instances", "presolve", "duplicate", "written", "easy",
                            "too-hard", "passed", "kept", "selected")},
        )
        t["instances"] += 1
        skipped = row.get("skipped", "")
        if skipped.startswith("presolve"):
            t["presolve"] += 1
            continue
        if skipped.startswith("duplicate"):
            t["duplicate"] += 1
            continue
        t["written"] += 1
        sel = row.get("selection", "")
        if sel:
            t["selected"] += 1
        if sel == "easy":
            t["easy"] += 1
        elif sel == "too-hard":
            t["too-hard"] += 1
        elif sel in ("kept", "not-chosen"):
            t["passed"] += 1
            if sel == "kept":
                t["kept"] += 1
    return fams


def main() -> int:
    """Prints the accounting table of the suite folders given; 1 when a manifest is missing."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dirs", nargs="+", type=Path, help="suite folders holding manifest.csv")
    ap.add_argument("--strip", default="", metavar="PREFIX",
                    help="drop this prefix from the folder's name in the recipe column")
    args = ap.parse_args()
    print("| recipe | family | instances | presolve-decided | duplicates | written "
          "| MiniSat-easy | too hard | passed | kept |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for d in args.dirs:
        m = d / "manifest.csv"
        if not m.exists():
            print(f"{m}: missing", file=sys.stderr)
            return 1
        for fam, t in tally(m).items():
            sel = t["selected"] > 0
            cols = [str(t[k]) for k in ("instances", "presolve", "duplicate", "written")]
            cols += [str(t[k]) if sel else "-" for k in ("easy", "too-hard", "passed", "kept")]
            name = d.name.removeprefix(args.strip) if args.strip else d.name
            print(f"| {name} | {fam} | " + " | ".join(cols) + " |")
            if sel and t["selected"] < t["written"]:
                print(f"{name} {fam}: only {t['selected']} of {t['written']} written files "
                      "measured (an interrupted --select)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
