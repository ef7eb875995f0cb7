#!/usr/bin/env python3
"""Speed of two builds side by side: the counting benchmark and a seeded sample of the hard tail.

Usage: scripts/speed-ab.py BEFORE_BIN AFTER_BIN [--rounds 5] [--sample 96] [--seed 11] [--out F.tsv]
                           [--frontier-sample K --frontier-seed S --frontier-timeout T]

Each round runs both binaries, in alternating order (so a drift of the machine falls on both):
`count -n 16 --jobs 1`, `count -n 17 --jobs 1` (wall seconds) and
`bench hard --tail --sample K --seeds S --solvers auto --amo auto --timeout 30 --jobs 1`
(the sum, median, p90 and max of the instances' seconds from its CSV); with
--frontier-sample K, also a seeded sample of the frontier set (`bench hard --frontier`, each
instance under --frontier-timeout, UNKNOWN rows counted at the limit). Rows go to --out as they
come (a rerun appends); the table printed at the end gives the median of the rounds for each
measure and the ratio after / before.
"""
import argparse
import csv
import os
import statistics
import subprocess
import tempfile
import time


def timed(cmd: list[str]) -> float:
    t = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t


def tail(binary: str, sample: int, seed: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "tail.csv")
        subprocess.run(
            [binary, "bench", "hard", "--tail", "--sample", str(sample), "--seeds", str(seed),
             "--solvers", "auto", "--amo", "auto", "--timeout", "30", "--jobs", "1",
             "--csv", path],
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    secs = sorted(float(r["seconds"]) for r in rows)
    statuses = [r["status"] for r in rows]
    if len(secs) != sample or any(s not in ("SAT", "UNSAT") for s in statuses):
        raise SystemExit(f"{binary}: the tail sample did not answer every instance: {statuses}")
    return {
        "tail_sum": sum(secs),
        "tail_median": statistics.median(secs),
        "tail_p90": secs[int(0.9 * (len(secs) - 1))],
        "tail_max": secs[-1],
    }


def frontier(binary: str, sample: int, seed: int, timeout: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "frontier.csv")
        subprocess.run(
            [binary, "bench", "hard", "--frontier", "--sample", str(sample), "--seeds", str(seed),
             "--solvers", "auto", "--amo", "auto", "--timeout", str(timeout), "--jobs", "1",
             "--csv", path],
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    secs = sorted(float(r["seconds"]) for r in rows)
    return {
        "frontier_sum": sum(secs),
        "frontier_median": statistics.median(secs),
        "frontier_answered": float(sum(r["status"] in ("SAT", "UNSAT") for r in rows)),
    }


def measure(binary: str, a: argparse.Namespace) -> dict[str, float]:
    row = {
        "count16": timed([binary, "count", "-n", "16", "--jobs", "1"]),
        "count17": timed([binary, "count", "-n", "17", "--jobs", "1"]),
    }
    row.update(tail(binary, a.sample, a.seed))
    if a.frontier_sample:
        row.update(frontier(binary, a.frontier_sample, a.frontier_seed, a.frontier_timeout))
    return row


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--sample", type=int, default=96)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--out", default="speed-ab.tsv")
    ap.add_argument("--frontier-sample", type=int, default=0)
    ap.add_argument("--frontier-seed", type=int, default=11)
    ap.add_argument("--frontier-timeout", type=int, default=10)
    a = ap.parse_args()
    runs: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
    with open(a.out, "a") as out:
        for r in range(a.rounds):
            order = [("before", a.before), ("after", a.after)]
            if r % 2:
                order.reverse()
            for label, binary in order:
                row = measure(binary, a)
                runs[label].append(row)
                out.write("\t".join([label, str(r)] + [f"{k}={v:.3f}" for k, v in row.items()]) + "\n")
                out.flush()
    keys = list(runs["before"][0])
    print(f"median of {a.rounds} rounds (tail: a sample of {a.sample}, seed {a.seed}; frontier: "
          f"a sample of {a.frontier_sample}, seed {a.frontier_seed}, {a.frontier_timeout} s each)")
    print("| measure | before | after | after / before |")
    print("|---|---|---|---|")
    for k in keys:
        b = statistics.median(x[k] for x in runs["before"])
        f = statistics.median(x[k] for x in runs["after"])
        print(f"| {k} | {b:.3f} | {f:.3f} | {f / b:.3f} |")


if __name__ == "__main__":
    main()
