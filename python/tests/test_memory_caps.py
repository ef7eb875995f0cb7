"""Nothing aborts under a memory cap (issue 63): each big call runs in a fresh interpreter whose
address space is capped (``RLIMIT_AS``), and ends with a result, a time limit or a typed
``TooLargeError``, never a killed process (SIGABRT, exit 134). The library estimates what
grows with n² or with the CNF against the budget first (which reads ``ulimit -v`` and the
memory cgroup) and reserves it fallibly, so the cap is met with an exception."""

from __future__ import annotations

import os
import resource
import subprocess
import sys

import pytest

# Three GiB of address space: the interpreter and the extension take a few hundred MB of it.
CAP = 3 << 30

CHILD = r"""
import sys
import queens_sat as qs
call = sys.argv[1]
try:
    r = eval(call, {"qs": qs})
    print("ok", type(r).__name__)
except qs.Error as e:
    print("err", type(e).__name__, str(e).splitlines()[0][:200])
"""


def capped(call: str) -> tuple[int, str, str]:
    """Runs ``call`` (an expression over ``qs``) in a fresh interpreter under the cap."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (CAP, CAP))

    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    env.pop("QUEENS_SAT_AVAILABLE_MEMORY", None)
    p = subprocess.run(
        [sys.executable, "-c", CHILD, call],
        capture_output=True,
        text=True,
        preexec_fn=limit,
        env=env,
        timeout=600,
    )
    return p.returncode, p.stdout.strip(), p.stderr


@pytest.mark.parametrize(
    "call, outcomes",
    [
        # 13 GB of clauses, known exactly before any is built.
        ('qs.encode(1000, amo="pairwise")', {"err TooLargeError"}),
        ('qs.encode(3000, amo="sequential")', {"ok Formula", "err TooLargeError"}),
        # The DPLL counter's clause database with lex-leader constraints: 3.4 GB a thread.
        ('qs.count(1000, break_symmetry="lex", timeout=2)', {"err TooLargeError"}),
        # Counts that run into their time limit, or are refused by their estimate (n = 3000:
        # 171 M literals a cube, 7.9 GB on two threads).
        ("qs.count(3000, timeout=2)", {"err TimeLimitError", "err TooLargeError"}),
        ("qs.count(1000, timeout=2)", {"err TimeLimitError", "err TooLargeError"}),
        ("qs.count(64, timeout=2)", {"err TimeLimitError", "err TooLargeError"}),
        # varisat loads 51 M clauses (1.6 GB measured, 2.3 GB estimated): it fits or is refused.
        (
            'qs.solve(1000, break_symmetry="lex", solver="varisat", timeout=5)',
            {"ok Result", "err TooLargeError"},
        ),
        ('qs.solve(3000, solver="varisat", amo="pairwise")', {"err TooLargeError"}),
    ],
)
def test_big_calls_under_a_memory_cap(call: str, outcomes: set[str]) -> None:
    code, out, err = capped(call)
    assert code == 0, f"{call}: exit {code}\n{out}\n{err[-2000:]}"
    kind = " ".join(out.split()[:2])
    assert kind in outcomes, f"{call}: {out}"
