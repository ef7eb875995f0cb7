#!/usr/bin/env python3
"""Speed of two builds' certified splits side by side, on the UNSAT instances of the hard tail's
blocked families.

Usage: scripts/certified-ab.py BEFORE_BIN AFTER_BIN [--rounds 3] [--seeds28 40] [--seeds48 30]
                               [--out F.tsv]

The instances are `generate blocked -n 28 -m 595 --min-free 1 --seed S` for S = 1..--seeds28
and `-n 48 -m 1962` for S = 1..--seeds48 (the tail's blocked recipes), kept where the AFTER
build answers UNSAT. Two routes, each a certified split:
- `cubes`: `solve --certify --jobs 1` (local search, then certified cube-and-conquer on the
  linked CaDiCaL, each cube's DRAT proof checked, and the coverage proof);
- `split`: `solve --certify --solver bitboard --jobs 4` (the certified bitboard search split
  into cubes on pairs of threads, each cube's LRAT proof checked beside it, and the coverage).

Each round runs both builds on every instance, in alternating order. An instance's time is the
median of its rounds' wall seconds; the table gives, per route and family, the sum, median, p90
and max of those, before and after, and the ratios. Both builds must agree on every verdict and
certify every UNSAT. Rows (route, family, seed, build, round, seconds, status) go to --out as
they come.
"""
import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time

FAMILIES = {"n28": (28, 595), "n48": (48, 1962)}
ROUTES = {
    "cubes": ["--certify", "--jobs", "1"],
    "split": ["--certify", "--solver", "bitboard", "--jobs", "4"],
}


def solve(binary: str, path: str, route: str) -> tuple[float, str]:
    t = time.perf_counter()
    out = subprocess.run(
        [binary, "solve", "--instance", path, "--format", "json", *ROUTES[route]],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    secs = time.perf_counter() - t
    if out.returncode not in (10, 20):
        raise SystemExit(f"{binary} {route} {path}: exit {out.returncode}")
    record = json.loads(out.stdout)
    status = record["status"]
    if status == "UNSAT" and not record.get("certified"):
        raise SystemExit(f"{binary} {route} {path}: an UNSAT without a certificate")
    return secs, status


def stats(xs: list[float]) -> tuple[float, float, float, float]:
    xs = sorted(xs)
    return sum(xs), statistics.median(xs), xs[int(0.9 * (len(xs) - 1))], xs[-1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seeds28", type=int, default=40)
    ap.add_argument("--seeds48", type=int, default=30)
    ap.add_argument("--out", default="certified-ab.tsv")
    a = ap.parse_args()
    builds = {"before": a.before, "after": a.after}
    seeds = {"n28": a.seeds28, "n48": a.seeds48}
    with tempfile.TemporaryDirectory() as d, open(a.out, "a") as out:
        instances = []
        for fam, (n, m) in FAMILIES.items():
            for s in range(1, seeds[fam] + 1):
                path = os.path.join(d, f"{fam}-s{s}.txt")
                subprocess.run(
                    [a.after, "generate", "blocked", "-n", str(n), "-m", str(m), "--min-free", "1",
                     "--seed", str(s), "-o", path], check=True)
                if solve(a.after, path, "cubes")[1] == "UNSAT":
                    instances.append((fam, s, path))
        times: dict[tuple[str, str, int, str], list[float]] = {}
        verdicts: dict[tuple[str, str, int], set[str]] = {}
        for r in range(a.rounds):
            order = ["before", "after"] if r % 2 == 0 else ["after", "before"]
            for route in ROUTES:
                for fam, s, path in instances:
                    for build in order:
                        secs, status = solve(builds[build], path, route)
                        times.setdefault((route, fam, s, build), []).append(secs)
                        verdicts.setdefault((route, fam, s), set()).add(status)
                        out.write(f"{route}\t{fam}\t{s}\t{build}\t{r}\t{secs:.4f}\t{status}\n")
                        out.flush()
        bad = {k: v for k, v in verdicts.items() if v != {"UNSAT"}}
        if bad:
            raise SystemExit(f"verdicts differ or are not UNSAT: {bad}")
    print("| route | family | instances | before: sum / median / p90 / max | "
          "after: sum / median / p90 / max | after / before: sum, median, p90, max |")
    print("|---|---|---|---|---|---|")
    for route in ROUTES:
        for fam in FAMILIES:
            rows = {b: [statistics.median(times[(route, fam, s, b)])
                        for f, s, _ in instances if f == fam] for b in builds}
            if not rows["after"]:
                continue
            sb, sa = stats(rows["before"]), stats(rows["after"])
            fmt = lambda t: " / ".join(f"{x:.3f}" for x in t)
            ratio = ", ".join(f"{y / x:.3f}" for x, y in zip(sb, sa))
            print(f"| {route} | {fam} | {len(rows['after'])} | {fmt(sb)} | {fmt(sa)} | {ratio} |")


if __name__ == "__main__":
    main()
