"""Ctrl-C reaches every kind of call (issue 63): a loop of short calls and a ``solutions``
iteration on a worker thread stop on one SIGINT; on the main thread no board of ``solutions``
is lost to an interrupt; a raised token lets no buffered board out; two threads may share one
iterator; and the process-pool recipe of docs/python.md stops its pool on one Ctrl-C.

Each test installs the handler it tests (``python_sigint``), so the suite passes under
``nohup`` and as a background job, where SIGINT starts out ignored."""

from __future__ import annotations

import concurrent.futures as cf
import ctypes
import functools
import operator
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Callable, List

import pytest

import queens_sat as qs
from conftest import ROOT

pytestmark = pytest.mark.usefixtures("python_sigint")

# How long a test waits for a stop before it calls it a hang (queens_sat::interrupt::HANG_GUARD).
HANG_GUARD = 60.0


def loop_until_cancelled(step: Callable[[], object], running: threading.Event) -> str:
    """Runs ``step`` over and over (a worker thread's loop of short calls) until one raises
    ``CancelledError``; returns its message. ``running`` is set once a few steps are done."""
    done = 0
    try:
        while True:
            step()
            done += 1
            if done == 5:
                running.set()
    except qs.CancelledError as e:
        return str(e)


def interrupt_main_thread() -> None:
    """One SIGINT to this process: the main thread's ``KeyboardInterrupt`` is expected."""
    with pytest.raises(KeyboardInterrupt):
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(HANG_GUARD)


@pytest.mark.parametrize(
    "name", ["solve", "count", "encode", "solutions-steps"]
)
def test_ctrl_c_stops_a_loop_of_short_calls_on_a_worker_thread(name: str) -> None:
    """Each call ends within one poll: the signal must stop the call it came during (checked
    whether the work has ended or not), or the next one when it came between two calls."""
    steps: dict[str, Callable[[], Callable[[], object]]] = {
        "solve": lambda: (lambda: qs.solve(8)),
        "count": lambda: (lambda: qs.count(6)),
        "encode": lambda: (lambda: qs.encode(6)),
        "solutions-steps": lambda: functools.partial(next, qs.solutions(30)),
    }
    running = threading.Event()
    with cf.ThreadPoolExecutor(1) as pool:
        future = pool.submit(loop_until_cancelled, steps[name](), running)
        assert running.wait(HANG_GUARD)
        interrupt_main_thread()
        assert "Ctrl-C" in future.result(timeout=HANG_GUARD)
    # The main thread's next call is not affected by the old signal.
    assert qs.count(8).total == 92


def test_ctrl_c_stops_a_for_loop_over_solutions_on_a_worker_thread() -> None:
    running = threading.Event()

    def enumerate_all() -> str:
        seen = 0
        try:
            for _ in qs.solutions(30):
                seen += 1
                if seen == 1000:
                    running.set()
        except qs.CancelledError as e:
            return str(e)
        return f"not stopped after {seen} boards"

    with cf.ThreadPoolExecutor(1) as pool:
        future = pool.submit(enumerate_all)
        assert running.wait(HANG_GUARD)
        interrupt_main_thread()
        assert "Ctrl-C" in future.result(timeout=HANG_GUARD)


def test_a_pending_interrupt_costs_no_board() -> None:
    """A SIGINT that is pending when ``next()`` is called raises ``KeyboardInterrupt`` before a
    board leaves the buffer: the board comes with the next call. The signal is raised by C's
    ``raise`` (through ctypes, which, unlike ``os.kill`` and ``signal.raise_signal``, does not
    run Python's handler on return; ``raise`` returns after the C handler ran) right before
    ``next`` runs, and ``map`` calls both without running Python code between them, so
    Python's handler has not run yet when ``next`` begins: deterministic, no timing."""
    every = list(qs.solutions(8))
    it = qs.solutions(8)
    got = [next(it)]
    libc = ctypes.CDLL(None)
    send = functools.partial(libc["raise"], signal.SIGINT)
    for _ in range(3):
        with pytest.raises(KeyboardInterrupt):
            list(map(operator.methodcaller("__call__"), [send, it.__next__]))
        got.append(next(it))
    got += list(it)
    assert got == every


def test_no_board_after_cancel() -> None:
    token = qs.Cancel()
    it = qs.solutions(8, cancel=token)
    first = next(it)
    qs.verify(first, qs.Instance(8))
    token.cancel()
    for _ in range(2):  # the buffered boards stay in
        with pytest.raises(qs.CancelledError, match="cancel="):
            next(it)
    assert it.yielded == 1


def test_two_threads_share_one_iterator() -> None:
    """Each board goes to exactly one of the threads; no 'Already mutably borrowed'."""
    every = list(qs.solutions(10))
    it = qs.solutions(10)
    start = threading.Barrier(2)

    def take() -> List[qs.Board]:
        start.wait()
        return list(it)

    with cf.ThreadPoolExecutor(2) as pool:
        parts = [f.result(timeout=HANG_GUARD) for f in [pool.submit(take), pool.submit(take)]]
    got = parts[0] + parts[1]
    assert len(got) == len(every) == 724
    assert sorted(got, key=lambda b: b.columns) == sorted(every, key=lambda b: b.columns)
    assert it.yielded == 724


def test_the_process_pool_recipe_stops_on_one_ctrl_c(tmp_path: Path) -> None:
    """docs/python.md's process-pool recipe, on counts that take minutes each: one SIGINT to
    its process group (a terminal's Ctrl-C) ends the script with KeyboardInterrupt and leaves
    no worker behind, although four more calls were queued."""
    text = (ROOT / "docs" / "python.md").read_text()
    blocks = re.findall(r"^```python\n(.*?)^```", text, re.M | re.S)
    (block,) = [b for b in blocks if "def init_worker" in b]
    script = tmp_path / "pool.py"
    script.write_text(block)
    proc = subprocess.Popen(
        [sys.executable, str(script)] + ["19"] * 6,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        start_new_session=True,  # a group of its own, as a terminal's foreground job
        # SIGINT as a terminal gives it, even when this suite started with it ignored.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        env={**os.environ, "PYTHONPATH": ""},
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("counting 6 boards"), line + proc.stderr.read() if proc.stderr else ""
        time.sleep(1.0)  # the workers are counting (not needed for the stop, only realistic)
        assert proc.poll() is None
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=HANG_GUARD)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == -signal.SIGINT, err
    assert "KeyboardInterrupt" in err and "BrokenProcessPool" not in err, err
    # Every process of the group (the workers) has ended.
    deadline = time.monotonic() + HANG_GUARD
    while True:
        try:
            os.killpg(proc.pid, 0)
        except ProcessLookupError:
            break
        assert time.monotonic() < deadline, "a worker outlived the pool"
        time.sleep(0.05)
