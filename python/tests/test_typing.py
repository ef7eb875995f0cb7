"""Types that catch mistakes, and help that explains: the stubs' ``Literal`` lists against the
library's names, ``mypy --strict`` rejecting misspelt options, the typed user script running,
the stubs without numpy, and the docstrings ``help()`` shows.

``python/run-tests.sh`` also runs ``mypy.stubtest`` (stubs against the built module) and
``mypy --strict`` on the package and ``typed_user_script.py``.
"""

from __future__ import annotations

import importlib.util
import inspect
import pydoc
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Dict, List, get_args

import pytest

import queens_sat as qs
from queens_sat import _native

HERE = Path(__file__).resolve().parent

#: Each option of ``names()`` and the ``Literal`` alias that types it. ``solver`` stays ``str``
#: (any external solver's name or path works).
ALIASES: Dict[str, object] = {
    "amo": qs.Amo,
    "implied": qs.Implied,
    "symmetric": qs.SymmetryName,
    "break_symmetry": qs.BreakSymmetry,
    "piece": qs.PieceName,
    "engine": qs.Engine,
    "format": qs.ExportFormat,
    "instance_format": qs.InstanceFormat,
    "proof_format": qs.ProofFormat,
}


@pytest.mark.parametrize("option", sorted(ALIASES))
def test_literals_are_the_librarys_names(option: str) -> None:
    assert sorted(get_args(ALIASES[option])) == sorted(_native.names()[option])


def test_every_option_of_names_has_a_literal() -> None:
    # A new option in the library's vocabulary needs a Literal here (or a reason to stay str).
    assert set(_native.names()) - {"solver"} == set(ALIASES)


def test_grouped_amo_is_the_encodings_with_a_group_size() -> None:
    # The library takes NAME:G exactly for the encodings GroupedAmo lists.
    grouped = []
    for name in _native.names()["amo"]:
        try:
            qs.encode(6, amo=qs.AmoGroup(f"{name}:3"))
        except qs.UsageError:
            continue
        grouped.append(name)
    assert sorted(grouped) == sorted(get_args(qs.GroupedAmo))


@pytest.mark.parametrize("name", get_args(qs.GroupedAmo))
def test_amo_group_bounds_are_the_librarys(name: qs.GroupedAmo) -> None:
    low = 2 if name == "commander" else 1
    for size in (low, 7, 64):
        f = qs.encode(12, amo=qs.amo_group(name, size))
        assert f.amo in (f"{name}:{size}", name)  # the default size is named plainly
        assert qs.solve(12, amo=qs.amo_group(name, size), solver="varisat").status is qs.Status.SAT
    for size in (low - 1, 65):
        with pytest.raises(qs.UsageError, match=f"size={size} is not a group size") as e:
            qs.amo_group(name, size)
        assert (e.value.argument, e.value.value) == ("size", str(size))
        with pytest.raises(qs.UsageError):
            qs.encode(6, amo=qs.AmoGroup(f"{name}:{size}"))
    with pytest.raises(TypeError):
        qs.amo_group(name, True)


def test_amo_group_documents_the_default_sizes() -> None:
    # amo_group's docstring names the sizes the plain names select.
    assert "(``commander``: 3, ``bimander``: 2)" in (qs.amo_group.__doc__ or "")
    assert qs.encode(6, amo=qs.amo_group("commander", 3)).amo == "commander"
    assert qs.encode(6, amo=qs.amo_group("bimander", 2)).amo == "bimander"


def test_amo_group_refuses_encodings_without_a_group_size() -> None:
    with pytest.raises(qs.UsageError, match="only commander and bimander") as e:
        qs.amo_group("sequential", 4)  # type: ignore[arg-type]
    assert (e.value.argument, e.value.value) == ("name", "'sequential'")


def test_every_format_literal_is_accepted(tmp_path: Path) -> None:
    f = qs.encode(6)
    for fmt in get_args(qs.ExportFormat):
        f.write(tmp_path / f"q6.{fmt}", format=fmt)
        assert (tmp_path / f"q6.{fmt}").stat().st_size > 0
    inst = qs.Instance(6, excluded=[("diagonal", 5)])
    for ifmt in get_args(qs.InstanceFormat):
        back = qs.Instance.parse(inst.to_text(ifmt), diags=1 if ifmt == "diags" else None)
        assert qs.count(back).total == qs.count(inst).total
    assert generate_default_formats() <= set(get_args(qs.InstanceFormat))


def generate_default_formats() -> set[str]:
    """The ``default_format`` of a plain and of each generated instance."""
    return {
        qs.Instance(5).default_format,
        qs.generate.completion(8, 2, seed=1).default_format,
        qs.generate.blocked(8, 4, min_free=1, seed=1).default_format,
        qs.generate.diagonals(8, min_free=1, seed=1).default_format,
    }


def test_diagonal_numbering_is_as_documented() -> None:
    # ('anti-diagonal', k): row + col == k; ('diagonal', k): row - col == k - (n - 1).
    n = 5
    for kind in get_args(qs.DiagonalKind):
        for k in range(2 * n - 1):
            f = qs.encode(qs.Instance(n, excluded=[(kind, k)]), presolve=True)
            gone = {(r, c) for r in range(n) for c in range(n) if f.var(r, c) is None}
            if kind == "anti-diagonal":
                want = {(r, c) for r in range(n) for c in range(n) if r + c == k}
            else:
                want = {(r, c) for r in range(n) for c in range(n) if r - c == k - (n - 1)}
            assert gone >= want, (kind, k)
            # presolve may remove more (cells of lines left with one free cell), never fewer;
            # an instance with that diagonal's cells blocked has the same solutions.
            blocked = qs.Instance(n, blocked=sorted(want))
            assert qs.count(qs.Instance(n, excluded=[(kind, k)])).total == qs.count(blocked).total
    assert qs.Instance(n, excluded=[("diagonal", n - 1)]).excluded == [("diagonal", n - 1)]


def test_encode_docstring_lists_every_amo() -> None:
    doc = qs.encode.__doc__ or ""
    for name in _native.names()["amo"]:
        assert f"``{name}``" in doc, name
    for name in get_args(qs.GroupedAmo):
        assert f'amo_group("{name}", G)' in doc.replace("\n    ", " "), name
    assert "...)" not in doc.split("amo``")[1].split("symmetric")[0]


def public_properties() -> List[tuple[str, str]]:
    """``(class, property)`` for every property of the native classes."""
    out = []
    for cls in (qs.Instance, qs.Board, qs.Formula, qs.Counts, qs.Result, qs.Plan):
        for name, member in vars(cls).items():
            if not name.startswith("_") and inspect.isdatadescriptor(member):
                out.append((cls.__name__, name))
    return out


@pytest.mark.parametrize("cls,prop", public_properties())
def test_properties_have_docstrings(cls: str, prop: str) -> None:
    doc = getattr(getattr(qs, cls), prop).__doc__
    assert doc and len(doc.strip()) > 10, f"{cls}.{prop} has no docstring"


def test_the_properties_the_issue_named_are_documented() -> None:
    names = {p for _, p in public_properties()}
    for prop in ("n", "piece", "placed", "blocked", "excluded", "num_vars", "vars", "solver"):
        assert prop in names


def test_help_shows_instance_defaults_and_diagonal_numbering() -> None:
    assert str(inspect.signature(qs.Instance)) == (
        "(n, piece='queen', placed=(), blocked=(), excluded=())"
    )
    text = re.sub(".\b", "", pydoc.render_doc(qs.Instance))  # without the bold overstrikes
    assert "Ellipsis" not in text and "=..." not in text
    flat = re.sub(r"[\s|`]+", " ", text)
    assert "('diagonal', k) the difference diagonal of the cells with row - col == k - (n - 1)" in flat
    assert "('anti-diagonal', k) is the sum diagonal of the cells with row + col == k" in flat
    for fn in (qs.Instance.read, qs.Instance.parse, qs.Formula.write, qs.Instance.to_text):
        assert "..." not in str(inspect.signature(fn)), fn


def test_the_typed_user_script_runs(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("typed_user_script", HERE / "typed_user_script.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.main(tmp_path)


def test_user_script_covers_every_public_function() -> None:
    source = (HERE / "typed_user_script.py").read_text()
    for name in qs.__all__:
        if inspect.isfunction(getattr(qs, name)):
            assert f"qs.{name}(" in source, name
    for name in qs.generate.__all__:
        assert f"generate.{name}(" in source, name


#: Mistakes ``mypy --strict`` must reject, each with the error code it must give.
MISTAKES = [
    ('qs.encode(8, amo="pairwse")', "arg-type"),
    ('qs.encode(8, amo="commander:4")', "arg-type"),  # a group size goes through amo_group
    ('qs.amo_group("sequential", 4)', "arg-type"),
    ('qs.encode(8).write("q.cnf", format="dimax")', "arg-type"),
    ('qs.Instance(8).to_text("bord")', "arg-type"),
    ('qs.Instance(8, piece="king")', "arg-type"),
    ('qs.Instance(8, excluded=[("diag", 3)])', "list-item"),
    ('qs.solve(8, break_symmetry="sort")', "arg-type"),
    ('qs.solve(8, implied="sum")', "arg-type"),
    ('qs.count(8, engine="dpll")', "arg-type"),
    ('qs.count(8, symmetric="r45")', "arg-type"),
    ("side: str = qs.Instance(8).n", "assignment"),
    ("qs.encode(8).to_pysat().nvars", "attr-defined"),
    ("bad: int = qs.Board.from_columns([0]).to_numpy()", "assignment"),
    ("class Mine(qs.Instance): pass", "misc"),  # PyO3 classes are final
]


def test_mypy_rejects_the_mistakes(tmp_path: Path) -> None:
    pytest.importorskip("mypy")
    lines = ["import queens_sat as qs", *(m for m, _ in MISTAKES)]
    bad = tmp_path / "mistakes.py"
    bad.write_text("\n".join(lines) + "\n")
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(bad)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert run.returncode == 1, run.stdout + run.stderr
    found: Dict[int, set[str]] = {}
    for m in re.finditer(r"mistakes\.py:(\d+): error: .*\[([a-z-]+)\]$", run.stdout, re.M):
        found.setdefault(int(m.group(1)), set()).add(m.group(2))
    for line, (text, code) in enumerate(MISTAKES, start=2):
        assert code in found.get(line, set()), f"line {line} {text!r}: {run.stdout}"
    assert set(found) == set(range(2, len(MISTAKES) + 2)), run.stdout


def test_stubs_need_neither_numpy_nor_pysat(tmp_path: Path) -> None:
    """A user without numpy (and with python-sat, which ships no types) runs ``mypy --strict``
    with no configuration: the package's files in a bare environment, checked from there."""
    pytest.importorskip("mypy")
    venv = tmp_path / "bare"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    package = Path(qs.__file__).parent
    shutil.copytree(
        package, Path(purelib) / "queens_sat", ignore=shutil.ignore_patterns("*.so", "*.pyd")
    )
    user = tmp_path / "user.py"
    user.write_text(
        "import queens_sat as qs\n"
        "grid = qs.Board.from_columns([1, 3, 0, 2]).to_numpy()\n"
        "cnf: qs.PySatCNF = qs.encode(4).to_pysat()\n"
        "nv: int = cnf.nv\n"
    )
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental",
         "--python-executable", str(python), str(user)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert sysconfig.get_paths()["purelib"] != purelib
