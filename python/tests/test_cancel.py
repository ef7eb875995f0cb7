"""Stopping calls (issue 54 §1): a ``qs.Cancel`` token passed as ``cancel=`` stops one call from
any thread or asyncio task, Ctrl-C stops every call in flight whichever thread runs it, and
in each case the call raises ``CancelledError`` and leaves no thread running; for every solve
and count engine. Latencies are measured in docs/benchmarks.md, not asserted here: the tests
wait at most ``HANG_GUARD`` for a stop, which a loaded machine cannot trip."""

from __future__ import annotations

import asyncio
import concurrent.futures as cf
import os
import shutil
import signal
import threading
import time
from typing import Any, Callable, Dict

import pytest

import queens_sat as qs

# Python's SIGINT handler for every test, however the suite was started (conftest.py).
pytestmark = pytest.mark.usefixtures("python_sigint")

# How long a test waits for a stop before it calls it a hang (queens_sat::interrupt::HANG_GUARD).
HANG_GUARD = 60.0

# Excluded diagonals n = 30, 31 diagonals, seed 101: every solver needs over a minute (see
# test_interrupt.py); counts of n = 19 need minutes with every engine on 2 cores.
HARD = qs.Instance.parse(qs.generate.diagonals(30, min_free=1, seed=101).to_text(), diags=31)

SOLVERS = ["varisat", "lib:cadical", "lib:kissat", "bitboard", "walk", "auto", "varisat,lib:cadical"]
SOLVERS += [s for s in ["minisat", "cadical"] if shutil.which(s)]
ENGINES = ["sat", "cdcl", "backtrack", "auto"]

CALLS: Dict[str, Callable[..., Any]] = {
    **{f"solve:{s}": (lambda s=s, **kw: qs.solve(HARD, solver=s, **kw)) for s in SOLVERS},
    **{f"count:{e}": (lambda e=e, **kw: qs.count(19, engine=e, jobs=2, **kw)) for e in ENGINES},
    "count:sat-symmetric": lambda **kw: qs.count(33, symmetric="r90", engine="sat", jobs=2, **kw),
    "encode": lambda **kw: qs.encode(600, amo="pairwise", **kw),
}


def wait_running(future: "cf.Future[Any]") -> None:
    """Gives the call time to get going (it must not have ended: the calls take minutes)."""
    time.sleep(0.3)
    assert not future.done(), f"ended before it could be stopped: {future.result()!r}"


@pytest.mark.parametrize("name", sorted(CALLS))
def test_token_stops_a_call_on_a_pool_thread(name: str) -> None:
    before = threading.active_count()
    token = qs.Cancel()
    with cf.ThreadPoolExecutor(1) as pool:
        future = pool.submit(CALLS[name], cancel=token)
        wait_running(future)
        token.cancel()
        with pytest.raises(qs.CancelledError, match="cancel="):
            future.result(timeout=HANG_GUARD)
    assert token.cancelled
    # The pool's thread has ended, and the call left none of its own behind.
    assert threading.active_count() == before


def test_a_raised_token_stops_a_call_at_once() -> None:
    token = qs.Cancel()
    token.cancel()
    with pytest.raises(qs.CancelledError):
        qs.solve(HARD, cancel=token)
    with pytest.raises(qs.CancelledError):
        qs.count(19, cancel=token)
    # Another call, without the token, runs normally.
    assert qs.count(8).total == 92


def test_token_stops_asyncio_to_thread() -> None:
    async def main() -> str:
        token = qs.Cancel()
        loop = asyncio.get_running_loop()
        loop.call_later(0.3, token.cancel)
        try:
            await asyncio.wait_for(
                asyncio.to_thread(qs.count, 19, engine="backtrack", jobs=1, cancel=token),
                HANG_GUARD,
            )
        except qs.CancelledError as e:
            return str(e)
        return "not cancelled"

    assert "cancel=" in asyncio.run(main())


def test_one_token_stops_only_its_calls() -> None:
    token, other = qs.Cancel(), qs.Cancel()
    with cf.ThreadPoolExecutor(2) as pool:
        stopped = pool.submit(qs.count, 19, engine="backtrack", jobs=1, cancel=token)
        kept = pool.submit(qs.count, 9, cancel=other)
        wait_running(stopped)
        token.cancel()
        with pytest.raises(qs.CancelledError):
            stopped.result(timeout=HANG_GUARD)
        assert kept.result(timeout=HANG_GUARD).total == 352
    assert not other.cancelled


@pytest.mark.parametrize("name", ["solve:auto", "solve:lib:cadical", "count:backtrack", "count:sat"])
def test_ctrl_c_stops_calls_on_every_thread(name: str) -> None:
    """SIGINT: the main thread gets KeyboardInterrupt (Python's handler), and each call running
    on a pool thread raises CancelledError saying Ctrl-C stopped it."""
    before = threading.active_count()
    pool = cf.ThreadPoolExecutor(2)
    try:
        futures = [pool.submit(CALLS[name]) for _ in range(2)]
        wait_running(futures[0])
        timer = threading.Timer(0.05, lambda: os.kill(os.getpid(), signal.SIGINT))
        # Started inside the block: on a loaded machine the signal can come before the wait
        # begins, and it must still land in the block (else the calls run on for minutes).
        with pytest.raises(KeyboardInterrupt):
            timer.start()
            cf.wait(futures, timeout=HANG_GUARD)
            pytest.fail("no KeyboardInterrupt")
        timer.join()
        for f in futures:
            with pytest.raises(qs.CancelledError, match="Ctrl-C"):
                f.result(timeout=HANG_GUARD)
    finally:
        pool.shutdown(wait=True)
    assert threading.active_count() == before
    # A later call is not affected by the old signal.
    assert qs.count(8).total == 92


def test_ctrl_c_reaches_threads_after_python_reinstalls_its_handler() -> None:
    """``signal.signal`` puts Python's C handler back in front of the hook: the next waiting poll
    re-installs the hook, so a later SIGINT still reaches a pool thread's call."""
    with cf.ThreadPoolExecutor(1) as pool:
        future = pool.submit(qs.count, 19, engine="backtrack", jobs=1)
        wait_running(future)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        time.sleep(0.2)  # a few polls of the waiting call
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(HANG_GUARD)
        with pytest.raises(qs.CancelledError, match="Ctrl-C"):
            future.result(timeout=HANG_GUARD)


def test_ignored_sigint_cancels_nothing() -> None:
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with cf.ThreadPoolExecutor(1) as pool:
            future = pool.submit(qs.count, 10, engine="sat", jobs=1)
            os.kill(os.getpid(), signal.SIGINT)
            assert future.result(timeout=HANG_GUARD).total == 724
    finally:
        signal.signal(signal.SIGINT, previous)


def _worker_solve(started: str) -> str:
    """A process pool's task: a long solve that a SIGINT to its worker process stops. The file
    ``started`` says the task runs (a signal after it lands inside the ``try``)."""
    try:
        open(started, "w").close()
        qs.solve(HARD, solver="lib:cadical")
    except KeyboardInterrupt:
        return f"stopped {os.getpid()}"
    return "answered"


def test_process_pool_workers_stop_on_their_own_signal(tmp_path: Any) -> None:
    """Each worker runs its call on its main thread: a SIGINT to the worker (what Ctrl-C sends
    to every process of the terminal's group) stops the call it runs. (docs/python.md says why
    that alone does not stop a pool: test_signals.py tests its recipe that does.)"""
    # fork: the worker has this module (spawn would import it by a name pytest made up).
    ctx = __import__("multiprocessing").get_context("fork")
    with cf.ProcessPoolExecutor(1, mp_context=ctx) as pool:
        pid = pool.submit(os.getpid).result(timeout=HANG_GUARD)
        started = tmp_path / "started"
        future = pool.submit(_worker_solve, str(started))
        deadline = time.monotonic() + HANG_GUARD
        while not started.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        os.kill(pid, signal.SIGINT)  # the worker alone
        assert future.result(timeout=max(1.0, deadline - time.monotonic())) == f"stopped {pid}"


def test_cancel_is_type_checked() -> None:
    with pytest.raises(qs.ArgumentTypeError, match="cancel"):
        qs.count(8, cancel=True)  # type: ignore[arg-type]
    assert repr(qs.Cancel()) == "Cancel(cancelled=False)"


def test_token_stops_solutions() -> None:
    """A raised token ends an enumeration with CancelledError (after the boards already
    found), however many boards are left."""
    token = qs.Cancel()
    it = qs.solutions(30, cancel=token)
    first = next(it)
    qs.verify(first, qs.Instance(30))
    token.cancel()
    with pytest.raises(qs.CancelledError, match="cancel="):
        for _ in it:
            pass
