"""The abi3 wheel builds with maturin, installs into a clean virtual environment and imports."""

from __future__ import annotations

import subprocess
import sys
import venv
from pathlib import Path

import pytest

PYTHON_DIR = Path(__file__).resolve().parents[1]


def test_wheel_installs_into_a_clean_venv(tmp_path: Path) -> None:
    maturin = Path(sys.executable).with_name("maturin")
    if not maturin.exists():
        pytest.fail("maturin is not installed next to this Python (run python/run-tests.sh)")
    wheels = tmp_path / "wheels"
    subprocess.run(
        [maturin, "build", "--release", "--quiet", "-o", wheels, "-m", PYTHON_DIR / "Cargo.toml"],
        check=True,
    )
    (wheel,) = wheels.glob("*.whl")
    assert "abi3" in wheel.name, wheel.name
    names = subprocess.run(
        [sys.executable, "-m", "zipfile", "-l", wheel], capture_output=True, text=True, check=True
    ).stdout
    for member in ["queens_sat/__init__.py", "queens_sat/py.typed", "queens_sat/_native.pyi", "queens_sat/generate.py"]:
        assert member in names, member
    env = tmp_path / "venv"
    venv.create(env, with_pip=True)
    py = env / "bin" / "python"
    subprocess.run([py, "-m", "pip", "install", "--quiet", "--no-index", wheel], check=True)
    out = subprocess.run(
        [py, "-c", "import queens_sat as q; r = q.solve(q.Instance(8)); print(r.status.value, len(r.board.pieces))"],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    ).stdout
    assert out.split() == ["SAT", "8"]
