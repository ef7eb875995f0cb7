#!/usr/bin/env python3
"""Scheduler simulation for many cores without a big machine (issue 55 §2).

Runs `queens-sat count -n N --jobs 1` once with QUEENS_SAT_ITEM_TIMES set, so that the work
queue (`work::run`) records every item's seconds in the order it hands items out. Then
replays that item list on k threads as the queue does (each free thread takes the next item
in order), with a per-item overhead, and reports the simulated efficiency

    one-thread time / (k * makespan)

where the one-thread time is the real one-thread run's (the tool's own `seconds`), not the sum
of the items, and the makespan is the serial part (one-thread time less the items' sum: the
split, the fixed points under the symmetries, which run after the items) plus the list
schedule of the items.

    python3 scripts/schedule-sim.py [--bin target/release/queens-sat] [--n 16 17 18]
        [--threads 16 64 256] [--overhead 2e-6] [--out docs/runs/schedule-sim.tsv]

Rows go to --out as they come (one per n and k), so a long run can be read while it goes.

--clock cpu measures CPU seconds instead of wall-clock seconds, for a machine whose cores are
busy with other work (waiting for a core then inflates neither the items nor the serial part):
the items' CPU seconds (the trace's third column, the running thread's clock) and, as the
one-thread time, the child process's CPU seconds (user + system, from its resource usage; this
includes the process's start and exit, a few milliseconds, which the tool's own `seconds`
leaves out).
"""

from __future__ import annotations

import argparse
import heapq
import os
import resource
import subprocess
import tempfile
from typing import List, Tuple


def one_thread_run(binary: str, n: int, extra: List[str],
                   clock: str = "wall") -> Tuple[float, List[float]]:
    """The tool's seconds for `count -n N --jobs 1`, and its items' seconds in hand-out order
    (with clock "cpu": the process's and the items' CPU seconds)."""
    with tempfile.TemporaryDirectory() as tmp:
        trace = os.path.join(tmp, "items.tsv")
        env = {**os.environ, "QUEENS_SAT_ITEM_TIMES": trace}
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        out = subprocess.run(
            [binary, "count", "-n", str(n), "--jobs", "1", *extra],
            env=env, capture_output=True, text=True, check=True,
        ).stdout
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        seconds = float(next(l.split()[1] for l in out.splitlines() if l.startswith("seconds ")))
        if clock == "cpu":
            seconds = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        column = 2 if clock == "cpu" else 1
        items: List[float] = []
        with open(trace) as f:
            for line in f:
                if not line.startswith("#"):
                    items.append(float(line.split("\t")[column]))
    return seconds, items


def makespan(items: List[float], k: int, overhead: float) -> float:
    """List scheduling in order: each item goes to the thread that is free first."""
    free = [0.0] * min(k, max(1, len(items)))
    heapq.heapify(free)
    for t in items:
        start = heapq.heappop(free)
        heapq.heappush(free, start + t + overhead)
    return max(free)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default="target/release/queens-sat")
    ap.add_argument("--n", type=int, nargs="+", default=[16, 17, 18])
    ap.add_argument("--threads", type=int, nargs="+", default=[16, 64, 256])
    ap.add_argument("--overhead", type=float, default=2e-6,
                    help="seconds a thread spends taking one item (default 2e-6)")
    ap.add_argument("--piece", default="queen")
    ap.add_argument("--out", default=None)
    ap.add_argument("--clock", choices=["wall", "cpu"], default="wall",
                    help="measure wall-clock (default) or CPU seconds (a busy machine)")
    a = ap.parse_args()
    header = "n\titems\tone-thread s\titems' sum s\tserial s\tlargest item s\tk\tmakespan s\tefficiency"
    print(header)
    out = open(a.out, "a") if a.out else None
    if out and out.tell() == 0:
        out.write(header + "\n")
    for n in a.n:
        seconds, items = one_thread_run(a.bin, n, ["--piece", a.piece], a.clock)
        serial = max(0.0, seconds - sum(items))
        for k in a.threads:
            span = serial + makespan(items, k, a.overhead)
            row = (f"{n}\t{len(items)}\t{seconds:.3f}\t{sum(items):.3f}\t{serial:.3f}\t"
                   f"{max(items):.4f}\t{k}\t{span:.4f}\t{seconds / (k * span):.1%}")
            print(row, flush=True)
            if out:
                out.write(row + "\n")
                out.flush()


if __name__ == "__main__":
    main()
