"""Benchmarks of the Python package, printed as a Markdown table.

    python python/bench.py [--runs R] [--cli target/release/queens-sat]

1. Python call overhead against the CLI: ``solve -n 1000`` and the blocked n=56 instance
   (``queens-sat generate blocked -n 56 -m 2734 --min-free 1 --seed 1``), wall-clock seconds of
   ``queens_sat.solve`` against a ``queens-sat solve`` process (median of R runs).
2. ``encode`` n=200 pairwise to a PySAT CNF (``Formula.to_pysat``), against writing DIMACS and
   reading it with ``CNF(from_file=...)``.
3. The n-queens model a PySAT user writes by hand with ``CardEnc`` against ``queens_sat``
   (n=100 and n=200, solved by PySAT's CaDiCaL 1.5.3).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, List, Tuple

# The installed package, not python/queens_sat/ beside this script (it has no extension module).
sys.path = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import queens_sat as qs  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def timed(f: Callable[[], object]) -> Tuple[float, object]:
    t0 = time.perf_counter()
    v = f()
    return time.perf_counter() - t0, v


def median_time(f: Callable[[], object], runs: int) -> float:
    return statistics.median(timed(f)[0] for _ in range(runs))


def cli_solve(cli: Path, args: List[str]) -> None:
    out = subprocess.run([cli, "solve", *args], capture_output=True, text=True)
    if out.returncode not in (10, 20):
        raise RuntimeError(f"queens-sat solve {' '.join(args)}: exit {out.returncode}: {out.stderr}")


def hand_written_cardenc(n: int):
    """The n-queens CNF most PySAT users write: CardEnc.equals on rows and columns, atmost on
    diagonals (sequential counter)."""
    from pysat.card import CardEnc, EncType
    from pysat.formula import CNF, IDPool

    pool = IDPool()
    x = [[pool.id((r, c)) for c in range(n)] for r in range(n)]
    cnf = CNF()
    for i in range(n):
        for lits in ([x[i][c] for c in range(n)], [x[r][i] for r in range(n)]):
            cnf.extend(CardEnc.equals(lits=lits, bound=1, vpool=pool, encoding=EncType.seqcounter).clauses)
    for d in range(-(n - 1), n):
        diag = [x[r][r - d] for r in range(n) if 0 <= r - d < n]
        anti = [x[r][d + n - 1 - r] for r in range(n) if 0 <= d + n - 1 - r < n]
        for lits in (diag, anti):
            if len(lits) > 1:
                cnf.extend(CardEnc.atmost(lits=lits, bound=1, vpool=pool, encoding=EncType.seqcounter).clauses)
    return cnf, x


def pysat_solve(cnf) -> List[int]:
    from pysat.solvers import Cadical153

    with Cadical153(bootstrap_with=cnf) as s:
        assert s.solve()
        return s.get_model()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--cli", type=Path, default=ROOT / "target" / "release" / "queens-sat")
    a = ap.parse_args()
    rows: List[Tuple[str, str, str]] = []

    # 1. Call overhead.
    blocked = qs.generate.blocked(56, 2734, min_free=1, seed=1)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "blocked56.param"
        path.write_text(blocked.to_text())
        for label, inst, args in [
            ("solve -n 1000", qs.Instance(1000), ["-n", "1000"]),
            ("solve blocked n=56 (seed 1)", blocked, ["--instance", str(path)]),
        ]:
            t_cli = median_time(lambda: cli_solve(a.cli, args), a.runs)
            t_py = median_time(lambda: qs.solve(inst), a.runs)
            rows.append((label, f"CLI process {t_cli:.3f} s", f"queens_sat.solve {t_py:.3f} s ({t_py - t_cli:+.3f} s)"))

        # 2. encode n=200 pairwise into PySAT.
        from pysat.formula import CNF

        t_enc, f = timed(lambda: qs.encode(qs.Instance(200), amo="pairwise"))
        t_pysat, cnf = timed(lambda: f.to_pysat())
        assert len(cnf.clauses) == f.num_clauses
        cnf_path = Path(tmp) / "q200.cnf"
        t_write, _ = timed(lambda: f.write(cnf_path))
        t_read, cnf2 = timed(lambda: CNF(from_file=str(cnf_path)))
        assert len(cnf2.clauses) == f.num_clauses
        del cnf, cnf2
        t_list, _ = timed(lambda: f.clauses)
        rows.append(
            (
                f"encode n=200 pairwise ({f.num_clauses:,} clauses) into a PySAT CNF",
                f"encode {t_enc:.2f} s + write DIMACS {t_write:.2f} s + CNF(from_file) {t_read:.2f} s = {t_enc + t_write + t_read:.2f} s",
                f"encode {t_enc:.2f} s + to_pysat {t_pysat:.2f} s = {t_enc + t_pysat:.2f} s",
            )
        )
        rows.append(("Formula.clauses (the list of lists alone)", "", f"{t_list:.2f} s"))
        os.remove(cnf_path)

    # 3. Hand-written CardEnc model against queens_sat.
    for n in (100, 200):
        t_build, (cnf, x) = timed(lambda: hand_written_cardenc(n))
        t_solve, model = timed(lambda: pysat_solve(cnf))
        t_qs_build, f = timed(lambda: qs.encode(qs.Instance(n)).to_pysat())
        t_qs_solve, model2 = timed(lambda: pysat_solve(f))
        t_qs, r = timed(lambda: qs.solve(qs.Instance(n)))
        rows.append(
            (
                f"n={n}: CardEnc by hand vs queens_sat, both Cadical153",
                f"CardEnc build {t_build:.2f} s + solve {t_solve:.2f} s",
                f"encode+to_pysat {t_qs_build:.2f} s + solve {t_qs_solve:.2f} s; queens_sat.solve {t_qs:.2f} s",
            )
        )

    print("| benchmark | baseline | queens_sat |")
    print("| --- | --- | --- |")
    for r in rows:
        print(f"| {r[0]} | {r[1]} | {r[2]} |")


if __name__ == "__main__":
    main()
