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

`--split FILE:D ...` simulates the split bitboard search instead (`solve --solver bitboard
--jobs k`) on the excluded-diagonal instances FILE:D (the first D diagonals of FILE), UNSAT ones
(a SAT run stops early). Per instance:

- the one-thread time: the CPU seconds of a real `solve --solver bitboard --jobs 1` run (or
  `--one-thread S`, one number per instance, from such a run made before);
- the item list: one run of the split search (`examples/bitboard_nodes.rs --threads R`, R =
  `--record-threads`, default 2) with QUEENS_SAT_ITEM_TIMES set: each subtree searched, its
  key, its thread's CPU seconds, nodes, and how many subtrees it left when it parked (its
  node budget spent). CPU seconds, not wall: on a loaded machine the wall time of a thread
  counts the time others ran.
  On an UNSAT instance that list does not depend on the threads or the timing: the split
  (`--split-items`, default the search's 1024) and each subtree's budget are fixed, so every
  run, on any k, searches the same subtrees and parks the same ones into the same rests;
- the replay on k threads: the queue's own order (the split's subtrees in order; when a
  subtree parks, at its end, its rest goes to the front of the line, in order), each free
  thread taking the next subtree, `--overhead` seconds per subtree taken; makespan = the
  split's measured seconds + the schedule; efficiency = one-thread time / (k * makespan).

Each instance's rows also replay the record "collapsed" (mode `static N, from the record`):
each of the split's N subtrees taking the seconds of all its descendants, none parked, which is
the static split of N subtrees (at k = 16, N = 1024 = 64 k, the search before parking).

`--static` replays the split search before parking (issue 55 §2's "before"): the tree split
into 64 k subtrees, none parked; that list depends on k, so it is recorded once per k.
"""

from __future__ import annotations

import argparse
import collections
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


def split_record(example: str, inst: str, threads: int, split: int, park: str,
                 records: str | None) -> Tuple[dict, float, float, float]:
    """Runs the split search on `inst` (FILE:D) recording its items: {key: (seconds, left)},
    the split's seconds, the run's wall and CPU seconds (as `bitboard_nodes` prints them).
    With `records` (a folder), the record is kept there, and one already there is read
    instead of running again."""
    with tempfile.TemporaryDirectory() as tmp:
        name = f"{os.path.basename(inst).replace(':', '-d')}-split{split}-park{park}"
        trace = os.path.join(records or tmp, name + ".items.tsv")
        result = os.path.join(records or tmp, name + ".out")
        if not (os.path.exists(trace) and os.path.exists(result)):
            if os.path.exists(trace):
                os.remove(trace)
            env = {**os.environ, "QUEENS_SAT_ITEM_TIMES": trace}
            out = subprocess.run(
                [example, "--threads", str(threads), "--split", str(split), "--park", park,
                 inst],
                env=env, capture_output=True, text=True, check=True,
            ).stdout
            with open(result, "w") as f:
                f.write(out)
        with open(result) as f:
            out = f.read()
        fields = out.strip().splitlines()[-1].split("\t")
        if fields[1] != "UNSAT":
            raise SystemExit(f"{inst}: {fields[1]}, not UNSAT: the simulation takes UNSAT runs only")
        wall, cpu = float(fields[3]), float(fields[4])
        items = {}
        split_s = 0.0
        with open(trace) as f:
            for line in f:
                if line.startswith("#"):
                    words = line.split()
                    split_s = float(words[words.index("split-seconds") + 1])
                    continue
                key, secs, _nodes, left = line.rstrip("\n").split("\t")[:4]
                items[tuple(int(x) for x in key.split("."))] = (float(secs), int(left))
    return items, split_s, wall, cpu


def split_makespan(items: dict, k: int, overhead: float) -> float:
    """The queue replayed on k threads: the split's subtrees in order, each parked subtree's
    rest first in line once it ends; a free thread takes the next, `overhead` seconds each."""
    line = collections.deque(sorted(key for key in items if len(key) == 1))
    events: List[Tuple[float, int, tuple]] = []
    idle, now, seq = k, 0.0, 0
    while True:
        while idle and line:
            key = line.popleft()
            idle -= 1
            seq += 1
            heapq.heappush(events, (now + items[key][0] + overhead, seq, key))
        if not events:
            return now
        now, _, key = heapq.heappop(events)
        idle += 1
        left = items[key][1]
        line.extendleft(key + (j,) for j in reversed(range(left)))


def collapsed(items: dict) -> dict:
    """The record with every parked subtree searched to its end instead: each of the split's
    subtrees takes the seconds of all its record's descendants (the static split of as many
    subtrees, none parked)."""
    whole: dict = {}
    for key, (secs, _) in items.items():
        whole[key[:1]] = whole.get(key[:1], 0.0) + secs
    return {key: (secs, 0) for key, secs in whole.items()}


def split_main(a) -> None:
    header = ("instance\tmode\tone-thread s\titems\tparked\titems' sum s\tsplit s\t"
              "largest item s\toverhead s\tk\tmakespan s\tefficiency")
    print(header)
    out = open(a.out, "a") if a.out else None
    if out and out.tell() == 0:
        out.write(header + "\n")
    for i, inst in enumerate(a.split):
        if a.one_thread:
            seconds = a.one_thread[i]
        else:
            # CPU seconds (user + system) of the one-thread run: the items are timed in
            # their thread's CPU seconds too, so that a loaded machine does not count.
            path, diags = inst.rsplit(":", 1)
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            done = subprocess.run([a.bin, "solve", "--instance", path, "--diags", diags,
                                   "--solver", "bitboard", "--jobs", "1"],
                                  capture_output=True, text=True)
            if done.returncode != 20:
                raise SystemExit(f"{inst}: exit {done.returncode}, not UNSAT (20)")
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            seconds = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        runs = ([(k, 64 * k, "none") for k in a.threads] if a.static
                else [(None, a.split_items, str(a.park))])
        for only_k, split, park in runs:
            record = split_record(a.example, inst, a.record_threads, split, park, a.records)
            items, split_s, wall, cpu = record
            total = sum(t for t, _ in items.values())
            # The overhead per item: the run's CPU seconds less the split's and the items'.
            measured = max(0.0, (cpu - split_s - total) / len(items))
            overhead = a.overhead if a.overhead is not None else max(measured, 2e-6)
            modes = [("static" if a.static else f"park {park}", items)]
            if not a.static:
                modes.append((f"static {split}, from the record", collapsed(items)))
            for k in a.threads:
                if only_k is not None and k != only_k:
                    continue
                for mode, items in modes:
                    total = sum(t for t, _ in items.values())
                    parked = sum(1 for _, left in items.values() if left)
                    span = split_s + split_makespan(items, k, overhead)
                    row = (f"{inst}\t{mode}\t{seconds:.3f}\t{len(items)}\t{parked}\t"
                           f"{total:.3f}\t{split_s:.4f}\t{max(t for t, _ in items.values()):.4f}\t"
                           f"{overhead:.2e}\t{k}\t{span:.4f}\t{seconds / (k * span):.1%}")
                    print(row, flush=True)
                    if out:
                        out.write(row + "\n")
                        out.flush()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default="target/release/queens-sat")
    ap.add_argument("--n", type=int, nargs="+", default=[16, 17, 18])
    ap.add_argument("--threads", type=int, nargs="+", default=[16, 64, 256])
    ap.add_argument("--overhead", type=float, default=None,
                    help="seconds a thread spends taking one item (default: count 2e-6; "
                         "--split: measured, at least 2e-6)")
    ap.add_argument("--piece", default="queen")
    ap.add_argument("--out", default=None)
    ap.add_argument("--clock", choices=["wall", "cpu"], default="wall",
                    help="measure wall-clock (default) or CPU seconds (a busy machine)")
    ap.add_argument("--split", nargs="+", default=None, metavar="FILE:D",
                    help="simulate the split bitboard search on these UNSAT instances")
    ap.add_argument("--example", default="target/release/examples/bitboard_nodes")
    ap.add_argument("--one-thread", type=float, nargs="+", default=None,
                    help="the one-thread seconds of each --split instance, measured before")
    ap.add_argument("--record-threads", type=int, default=2)
    ap.add_argument("--records", default=None,
                    help="--split: keep each record in this folder, and reuse one found there")
    ap.add_argument("--split-items", type=int, default=1024)
    ap.add_argument("--park", type=int, default=1 << 16)
    ap.add_argument("--static", action="store_true",
                    help="--split: the static split of 64 k subtrees, none parked (before)")
    a = ap.parse_args()
    if a.split:
        split_main(a)
        return
    overhead = 2e-6 if a.overhead is None else a.overhead
    header = "n\titems\tone-thread s\titems' sum s\tserial s\tlargest item s\tk\tmakespan s\tefficiency"
    print(header)
    out = open(a.out, "a") if a.out else None
    if out and out.tell() == 0:
        out.write(header + "\n")
    for n in a.n:
        seconds, items = one_thread_run(a.bin, n, ["--piece", a.piece], a.clock)
        serial = max(0.0, seconds - sum(items))
        for k in a.threads:
            span = serial + makespan(items, k, overhead)
            row = (f"{n}\t{len(items)}\t{seconds:.3f}\t{sum(items):.3f}\t{serial:.3f}\t"
                   f"{max(items):.4f}\t{k}\t{span:.4f}\t{seconds / (k * span):.1%}")
            print(row, flush=True)
            if out:
                out.write(row + "\n")
                out.flush()


if __name__ == "__main__":
    main()
