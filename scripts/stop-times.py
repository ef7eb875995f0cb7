#!/usr/bin/env python3
"""How long past its limit each counting and solving call stops (issue 63).

For every engine and board size of the grid, runs one `queens-sat` command with
`--timeout LIMIT` (and, with --signal, sends SIGINT or SIGTERM at LIMIT instead), and prints a
TSV row: command, n, engine, limit, seconds to exit, seconds past the limit, exit code and peak
resident memory. A call that has not stopped HANG seconds after its limit is killed and
reported as `hang`.

    scripts/stop-times.py [--bin target/release/queens-sat] [--limit 1] [--signal INT|TERM]
        [--grid 20,100,300,1000,3000] [--hang 60] [--mem-cap-gb G] [--only LABEL]
        [--no-extra] [--solver cadical] [--env KEY=VALUE ...]

--env sets a variable for every call measured: `--env QUEENS_SAT_AVAILABLE_MEMORY=100G` lets
`solve -n 3000 --solver lib:cadical` past the memory estimate on a machine with less memory,
to measure how it stops while loading CaDiCaL.

After the grid come the phases that need one fixed instance (--no-extra leaves them out):
printing the board of `solve -n 65536` into a file (with --signal only: a time limit bounds
the search, and a board found within it is printed whole), `count --boards all` into a pipe
read as fast as it comes, writing an external solver's DIMACS input for n = 5,000 with one
queen placed (--solver: cadical when it is on PATH, else a stand-in script that answers
UNKNOWN, so the row measures the writing), and a certified solve writing a VeriPB proof
(n = 24, 25 excluded diagonals, seed 18: 35 s and a 2.9 GB proof when it runs to the end).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
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


def extra_calls(bin_: str, scratch: str, solver: str) -> list[tuple[str, int, list[str], str, bool]]:
    """The fixed-instance phases: (label, n, arguments, stdout: null|file|pipe, signal only)."""
    param = os.path.join(scratch, "big.param")
    with open(param, "w") as f:
        f.write("letting n = 5000\nletting init = [[0,0]]\n")
    if shutil.which(solver) is None:
        # A stand-in that answers at once: what is measured is the writing of its input.
        stand_in = os.path.join(scratch, "unknown-solver")
        with open(stand_in, "w") as f:
            f.write('#!/bin/sh\necho "s UNKNOWN"\n')
        os.chmod(stand_in, 0o755)
        solver = stand_in
    diags = os.path.join(scratch, "g24s18.txt")
    subprocess.run([bin_, "generate", "diagonals", "-n", "24", "--min-free", "1", "--seed", "18",
                    "-o", diags], check=True)
    proof = os.path.join(scratch, "x.pbp")
    return [
        ("solve print file", 65536, ["solve", "-n", "65536"], "file", True),
        ("count boards pipe", 20, ["count", "-n", "20", "--boards", "all"], "pipe", False),
        ("solve external write", 5000, ["solve", "--instance", param, "--solver", solver], "null", False),
        ("solve proof pbp", 24, ["solve", "--instance", diags, "--diags", "25", "--certify",
                                 "--proof", proof], "null", False),
    ]


def run_one(argv: list[str], limit: float, sig: str | None, hang: float, cap: int | None,
            stdout: str = "null", scratch: str | None = None) -> tuple[float, int | str, int]:
    """Runs one call with its stdout to /dev/null, a file in `scratch`, or a pipe read as fast
    as it comes; returns (seconds to exit, exit code or 'hang', peak RSS in KB)."""
    def preexec() -> None:
        if cap:
            resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    start = time.monotonic()
    if stdout == "file":
        sink = open(os.path.join(scratch or ".", "stdout.txt"), "wb")
    else:
        sink = open(os.devnull, "wb")
    with sink:
        p = subprocess.Popen(argv, stdout=subprocess.PIPE if stdout == "pipe" else sink,
                             stderr=subprocess.DEVNULL, preexec_fn=preexec)
        if stdout == "pipe":
            import threading
            def drain() -> None:
                while p.stdout.read1(1 << 20):
                    pass
            threading.Thread(target=drain, daemon=True).start()
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
    if stdout == "file":
        os.remove(os.path.join(scratch or ".", "stdout.txt"))
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
    ap.add_argument("--no-extra", action="store_true", help="leave out the fixed-instance phases")
    ap.add_argument("--solver", default="cadical", help="the external solver of the writing row")
    ap.add_argument("--env", action="append", default=[], metavar="KEY=VALUE",
                    help="an environment variable for every call measured (repeatable)")
    a = ap.parse_args()
    for item in a.env:
        key, sep, value = item.partition("=")
        if not sep or not key:
            ap.error(f"--env {item!r} is not KEY=VALUE")
        os.environ[key] = value
    cap = int(a.mem_cap_gb * 2**30) if a.mem_cap_gb else None
    scratch = tempfile.mkdtemp(prefix="stop-times-")
    rows: list[tuple[str, int, list[str], str]] = []
    for n in (int(x) for x in a.grid.split(",") if x):
        rows += [(label, n, args, "null") for label, args in calls(n)]
    if not a.no_extra:
        rows += [(label, n, args, out) for label, n, args, out, signal_only
                 in extra_calls(a.bin, scratch, a.solver) if a.signal or not signal_only]
    print("call\tn\tlimit\tseconds\tpast\texit\tpeak_rss_mb", flush=True)
    for label, n, args, stdout in rows:
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
            s, rc, peak = run_one(argv, a.limit, a.signal, a.hang, cap, stdout, scratch)
            os.write(w, f"{s}\t{rc}\t{peak}".encode())
            os._exit(0)
        os.close(w)
        out = os.read(r, 1000).decode()
        os.waitpid(pid, 0)
        s, rc, peak = out.split("\t")
        sec = float(s)
        print(f"{label}\t{n}\t{a.limit:g}\t{sec:.2f}\t{sec - a.limit:+.2f}\t{rc}\t{int(peak) // 1024}", flush=True)
    shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
