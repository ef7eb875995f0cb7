#!/usr/bin/env python3
"""How long past its limit each counting and solving call stops (issue 63).

For every engine and board size of the grid, runs one `queens-sat` command with
`--timeout LIMIT` (and, with --signal, sends SIGINT or SIGTERM at LIMIT instead), and prints a
TSV row: command, n, engine, limit, seconds to exit, seconds past the limit, exit code and peak
resident memory. A call that has not stopped HANG seconds after its limit is killed and
reported as `hang`.

    scripts/stop-times.py [--bin target/release/queens-sat] [--limit 1] [--signal INT|TERM]
        [--grid 20,100,300,1000,3000] [--hang 60] [--mem-cap-gb G]
"""

from __future__ import annotations

import argparse
import os
import resource
import signal
import subprocess
import sys
import time


def calls(n: int) -> list[tuple[str, list[str]]]:
    """The (label, arguments) of every call measured at size n."""
    rows: list[tuple[str, list[str]]] = []
    for engine in ["auto", "sat", "cdcl", "backtrack"]:
        if engine == "backtrack" and n > 64:
            continue
        rows.append((f"count {engine}", ["count", "-n", str(n), "--engine", engine]))
    rows.append(("count lex", ["count", "-n", str(n), "--break-symmetry", "lex"]))
    rows.append(("count boards", ["count", "-n", str(n), "--boards", "all"]))
    rows.append(("solve cadical", ["solve", "-n", str(n), "--solver", "lib:cadical"]))
    rows.append(("solve varisat", ["solve", "-n", str(n), "--solver", "varisat"]))
    rows.append(("solve lex", ["solve", "-n", str(n), "--break-symmetry", "lex", "--solver", "varisat"]))
    return rows


def run_one(argv: list[str], limit: float, sig: str | None, hang: float, cap: int | None) -> tuple[float, int | str, int]:
    """Runs one call; returns (seconds to exit, exit code or 'hang', peak RSS in KB)."""
    def preexec() -> None:
        if cap:
            resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    start = time.monotonic()
    with open(os.devnull, "wb") as null:
        p = subprocess.Popen(argv, stdout=null, stderr=subprocess.PIPE, preexec_fn=preexec)
        if sig:
            try:
                p.wait(timeout=limit)
            except subprocess.TimeoutExpired:
                p.send_signal(signal.SIGINT if sig == "INT" else signal.SIGTERM)
        try:
            p.wait(timeout=limit + hang)
            rc: int | str = p.returncode
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
            rc = "hang"
    seconds = time.monotonic() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return seconds, rc, peak


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", default="target/release/queens-sat")
    ap.add_argument("--limit", type=float, default=1.0)
    ap.add_argument("--signal", choices=["INT", "TERM"])
    ap.add_argument("--grid", default="20,100,300,1000,3000")
    ap.add_argument("--hang", type=float, default=60.0)
    ap.add_argument("--mem-cap-gb", type=float)
    ap.add_argument("--only", help="run only calls whose label contains this")
    a = ap.parse_args()
    cap = int(a.mem_cap_gb * 2**30) if a.mem_cap_gb else None
    print("call\tn\tlimit\tseconds\tpast\texit\tpeak_rss_mb", flush=True)
    for n in (int(x) for x in a.grid.split(",")):
        for label, args in calls(n):
            if a.only and a.only not in label:
                continue
            argv = [a.bin, *args]
            if not a.signal:
                argv += ["--timeout", str(a.limit)]
            # each call in a fresh child so the peak is its own
            r, w = os.pipe()
            pid = os.fork()
            if pid == 0:
                os.close(r)
                s, rc, peak = run_one(argv, a.limit, a.signal, a.hang, cap)
                os.write(w, f"{s}\t{rc}\t{peak}".encode())
                os._exit(0)
            os.close(w)
            out = os.read(r, 1000).decode()
            os.waitpid(pid, 0)
            s, rc, peak = out.split("\t")
            sec = float(s)
            print(f"{label}\t{n}\t{a.limit:g}\t{sec:.2f}\t{sec - a.limit:+.2f}\t{rc}\t{int(peak) // 1024}", flush=True)


if __name__ == "__main__":
    main()
