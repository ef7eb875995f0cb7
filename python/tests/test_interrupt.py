"""Ctrl-C (SIGINT) stops a running solve, count or encode, and leaves no thread behind;
timeouts work for every solver; the GIL is released while the library works."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest

import queens_sat as qs

# Python's SIGINT handler for every test, however the suite was started (conftest.py).
pytestmark = pytest.mark.usefixtures("python_sigint")

# Excluded diagonals n=30 at its 50 % point (the frontier set's family): seed 101 with 31
# diagonals takes every solver, the bitboard search and the default strategy over a minute
# (test_hard_is_hard checks varisat). Plain large boards are no good here: local search solves
# them at once, and a linked solver reads their millions of clauses before it first looks at its
# stop flag.
HARD = qs.Instance.parse(qs.generate.diagonals(30, min_free=1, seed=101).to_text(), diags=31)


# How long a test waits for a stop before it calls it a hang: a guard, not a speed check (a
# loaded machine cannot trip it; the measured stop latencies are in docs/benchmarks.md). The
# same value as the Rust tests' queens_sat::interrupt::HANG_GUARD.
HANG_GUARD = 60.0


def hard() -> qs.Instance:
    return HARD


def sigint_after(seconds: float) -> threading.Timer:
    t = threading.Timer(seconds, lambda: os.kill(os.getpid(), signal.SIGINT))
    t.start()
    return t


def threads_now() -> int:
    return threading.active_count()


def test_hard_is_hard() -> None:
    t0 = time.monotonic()
    r = qs.solve(hard(), solver="varisat", timeout=2.0)
    assert r.status is qs.Status.UNKNOWN, "the hard instance got solved: pick a harder one"
    assert time.monotonic() - t0 < HANG_GUARD


@pytest.mark.parametrize("solver", ["varisat", "lib:cadical", "auto"])
def test_ctrl_c_stops_a_solve(solver: str) -> None:
    before = threads_now()
    delay = 0.5
    timer = sigint_after(delay)
    t0 = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            r = qs.solve(hard(), solver=solver)
            timer.cancel()  # answered before the signal: no stray SIGINT later
            pytest.fail(f"not interrupted: {r} (the hard instance got easy)")
    finally:
        timer.cancel()
    stopped = time.monotonic() - t0 - delay
    timer.join()
    assert stopped < HANG_GUARD, f"took {stopped:.2f} s to stop after SIGINT (a hang)"
    assert threads_now() == before


def test_ctrl_c_stops_a_count() -> None:
    # n=17 takes minutes with the SAT engine; at 2.5 s the cubes are being counted (the split
    # before them polls its token once per presolve, coarser). The default engine (the bitboard
    # counter) finishes n=17 in seconds, too soon to be interrupted reliably.
    timer = sigint_after(2.5)
    t0 = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        qs.count(qs.Instance(17), jobs=2, engine="sat")
    stopped = time.monotonic() - t0 - 2.5
    timer.join()
    assert stopped < HANG_GUARD, f"took {stopped:.2f} s to stop after SIGINT (a hang)"


def test_ctrl_c_stops_an_encode() -> None:
    timer = sigint_after(0.2)
    t0 = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        qs.encode(qs.Instance(600), amo="pairwise")
    stopped = time.monotonic() - t0 - 0.2
    timer.join()
    assert stopped < HANG_GUARD, f"took {stopped:.2f} s to stop after SIGINT (a hang)"


def test_work_after_an_interrupt_is_normal() -> None:
    timer = sigint_after(0.3)
    try:
        with pytest.raises(KeyboardInterrupt):
            qs.solve(hard(), solver="varisat")
    finally:
        timer.cancel()
    timer.join()
    assert qs.solve(qs.Instance(8)).status is qs.Status.SAT


@pytest.mark.parametrize("solver", ["varisat", "lib:cadical", "lib:kissat", "walk", "auto", "varisat,lib:cadical"])
def test_timeout_works_for_every_solver(solver: str) -> None:
    t0 = time.monotonic()
    r = qs.solve(hard(), solver=solver, timeout=1.0)
    took = time.monotonic() - t0
    assert r.status in (qs.Status.UNKNOWN, qs.Status.SAT)
    if r.status is qs.Status.UNKNOWN:
        assert r.reason
    # A guard, not a speed check: how far past the limit each solver stops is measured by
    # scripts/big-boards.py and docs/benchmarks.md, where a loaded machine cannot fail a test.
    assert took < HANG_GUARD, f"{solver} took {took:.2f} s with timeout=1 (a hang)"


def test_gil_is_released_during_solve() -> None:
    ticks = []
    done = threading.Event()

    def ticker() -> None:
        while not done.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.01)

    t = threading.Thread(target=ticker)
    t.start()
    t0 = time.monotonic()
    qs.solve(hard(), solver="varisat", timeout=1.0)
    t1 = time.monotonic()
    done.set()
    t.join()
    # Held, the GIL would keep the ticker out for the whole call; released, it ticks during it
    # (at least twice in one second, however loaded the machine).
    during = [x for x in ticks if t0 < x < t1]
    assert len(during) >= 2, f"the other thread ran {len(during)} times during the call"
