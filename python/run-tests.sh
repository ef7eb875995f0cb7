#!/usr/bin/env bash
# Builds the queens_sat Python package from source (pip install ./python) into a virtual
# environment (.venv-py at the repository root, or $QUEENS_SAT_VENV) with its test
# dependencies, then checks the stubs (mypy.stubtest, mypy --strict) and runs the Python tests
# and the docstring examples (pytest).
#
#   bash python/run-tests.sh [pytest args]
#
# The tests that compare with the command line use target/release/queens-sat: run
# `cargo test --release` (or `cargo build --release`) first.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${QUEENS_SAT_VENV:-$root/.venv-py}"
python="${PYTHON:-python3}"
if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
fi
# maturin's build hook (no build isolation below) runs `maturin` from PATH.
export PATH="$venv/bin:$PATH"
pip=("$venv/bin/python" -m pip --quiet --disable-pip-version-check)
# gbdc (GBD hashes), pyganak and pyapproxmc (model counters) cross-check the written files.
"${pip[@]}" install maturin pytest python-sat numpy mypy gbdc pyganak pyapproxmc
# Builds the extension (cargo, release) and installs the package; re-run on every call so the
# tests always see the current sources. No build isolation: the venv's maturin builds, with the
# same environment every time, so cargo rebuilds only what changed.
"${pip[@]}" install --force-reinstall --no-deps --no-build-isolation "$root/python"
cd "$root/python/tests"
# The stubs against the built extension (stubtest: names, signatures, @final, properties), so
# they cannot drift; then mypy --strict on the installed package and on a user's script that
# calls every public function with the types written out (typed_user_script.py), and on the
# typing, docs and plan tests (the other test files are not yet mypy --strict clean).
"$venv/bin/python" -m mypy.stubtest queens_sat._native
"$venv/bin/python" -m mypy --strict --no-incremental -p queens_sat -m typed_user_script -m conftest \
    -m test_typing -m test_docs -m test_plan
# From the tests folder, with importlib imports, so `import queens_sat` is the installed package
# (not python/queens_sat/, which has no extension module); --pyargs runs the installed
# package's doctests.
exec "$venv/bin/python" -m pytest -p no:cacheprovider --import-mode=importlib \
    --doctest-modules --pyargs queens_sat "$root/python/tests" "$@"
