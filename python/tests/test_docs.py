"""The Python examples of the README and docs/python.md: the ``>>>`` examples pass, the first
example a newcomer pastes finishes in about a second, and the process-pool benchmark runs."""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import List

import pytest

from conftest import ROOT

PYTHON_MD = ROOT / "docs" / "python.md"
README = ROOT / "README.md"

#: What "finishes in a second" allows on a loaded shared machine.
BUDGET = 5.0


def python_blocks(path: Path) -> List[str]:
    """The ```python blocks of a Markdown file, in order."""
    return re.findall(r"^```python\n(.*?)^```", path.read_text(), re.M | re.S)


def test_python_md_doctests(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    t0 = time.perf_counter()
    failed, attempted = doctest.testfile(
        str(PYTHON_MD),
        module_relative=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
        raise_on_error=False,
        report=True,
    )
    assert attempted >= 15 and failed == 0
    assert time.perf_counter() - t0 < 2 * BUDGET


def test_the_first_tour_example_is_a_fast_doctest() -> None:
    first = python_blocks(PYTHON_MD)[0]
    assert first.startswith(">>> import queens_sat as qs")
    t0 = time.perf_counter()
    test = doctest.DocTestParser().get_doctest(first, {}, "first", str(PYTHON_MD), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0 and runner.tries >= 6
    assert time.perf_counter() - t0 < BUDGET


def test_the_readme_example_is_fast(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = README.read_text()
    block = python_blocks(README)[0]
    assert text.index(block) > text.index("## Python")
    monkeypatch.chdir(tmp_path)
    t0 = time.perf_counter()
    scope: dict[str, object] = {}
    exec(compile(block, str(README), "exec"), scope)
    assert time.perf_counter() - t0 < BUDGET
    r = scope["r"]
    assert str(getattr(r, "status")) == "SAT"


def test_the_process_pool_benchmark_runs(tmp_path: Path) -> None:
    (block,) = [b for b in python_blocks(PYTHON_MD) if "def p90" in b]
    script = tmp_path / "bench.py"
    script.write_text(block)
    run = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
        env={**os.environ, "PYTHONPATH": ""},
    )
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert [line.split()[0] for line in lines[:3]] == ["auto", "varisat", "lib:cadical"]
    verdicts = {line.split("  median")[0].split(None, 1)[1] for line in lines[:3]}
    assert len(verdicts) == 1, lines  # every solver gives the same verdicts
    for line in lines[:3]:
        assert re.search(r"median [\d.]+ ms  p90 [\d.]+ ms  max [\d.]+ ms", line), line
    assert lines[3].startswith("solutions of the first four: [")
    shown = re.search(r"^```text\n(.*?)^```", PYTHON_MD.read_text(), re.M | re.S)
    assert shown is not None
    assert verdicts == {shown.group(1).splitlines()[0].split("  median")[0].split(None, 1)[1]}
    assert lines[3] == shown.group(1).splitlines()[3]


@pytest.mark.parametrize("marker", ["asyncio.run", "cancel_futures"])
def test_the_stopping_examples_run(tmp_path: Path, marker: str) -> None:
    """docs/python.md, "Stopping calls": the asyncio token example prints that it cancelled;
    the process-pool example runs to its end (its Ctrl-C path is test_cancel.py's)."""
    (block,) = [b for b in python_blocks(PYTHON_MD) if marker in b]
    script = tmp_path / "stop.py"
    script.write_text("import queens_sat as qs\n" + block)
    run = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
        env={**os.environ, "PYTHONPATH": ""},
    )
    assert run.returncode == 0, run.stderr
    if marker == "asyncio.run":
        assert run.stdout == "cancelled\n"
