"""Error types and the CLI's one-line messages: bad files, bad arguments, oversized boards."""

from __future__ import annotations

from pathlib import Path

import pytest

import queens_sat as qs


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nope.txt"
    with pytest.raises(FileNotFoundError) as e:
        qs.Instance.read(path)
    assert isinstance(e.value, qs.NotFoundError) and isinstance(e.value, qs.Error)
    assert str(e.value).startswith(f"{path}: No such file or directory")
    assert e.value.filename == str(path)
    assert e.value.errno == 2


def test_bad_board_text(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("Q..\n.?.\n...\n")
    with pytest.raises(qs.ParseError) as e:
        qs.Instance.read(path)
    assert isinstance(e.value, ValueError)
    assert str(e.value).startswith(f"{path}:2: ")
    assert e.value.file == str(path) and e.value.line == 2


def test_parse_error_names_the_source() -> None:
    with pytest.raises(qs.ParseError, match=r"^<input>:2: "):
        qs.Instance.parse("Q..\n.Q\n...\n")


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "bin.txt"
    path.write_bytes(b"\xff\xfe\n")
    with pytest.raises(qs.ParseError, match="not UTF-8"):
        qs.Instance.read(path)


def test_diags_on_a_board_file() -> None:
    with pytest.raises(qs.UsageError, match="^diags=2 applies to excluded-diagonals files"):
        qs.Instance.parse("Q...\n....\n....\n....\n", diags=2)


@pytest.mark.parametrize("n", [0, -3, qs.MAX_N + 1])
def test_board_side_out_of_range(n: int) -> None:
    with pytest.raises(qs.UsageError, match=rf"^n={n} is out of range \(1..=65536\)$"):
        qs.Instance(n)
    with pytest.raises(ValueError):
        qs.solve(n)


def test_oversized_board_is_too_large() -> None:
    # 65536^2 cell variables exceed DIMACS' 32-bit range: a clean error, at once.
    with pytest.raises(qs.TooLargeError, match="^too large: "):
        qs.encode(qs.Instance(qs.MAX_N))


def test_cells_outside_the_board() -> None:
    # The message names the Python argument (issue 45), with .argument and .value.
    with pytest.raises(
        qs.UsageError, match=r"^blocked=\(4, 0\) is outside the 4x4 board \(rows and columns 0..=3\)$"
    ) as e:
        qs.Instance(4, blocked=[(4, 0)])
    assert isinstance(e.value, ValueError)
    assert (e.value.argument, e.value.value) == ("blocked", "(4, 0)")


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"amo": "nope"}, "unknown amo='nope'"),
        ({"symmetric": "r45"}, "unknown symmetric='r45' (known: "),
        ({"break_symmetry": "sort"}, "unknown break_symmetry='sort' (known: lex, none, cubes)"),
        ({"implied": "all"}, "unknown implied='all' (known: none, sums)"),
    ],
)
def test_bad_encode_options(kwargs: dict, message: str) -> None:
    with pytest.raises(qs.UsageError) as e:
        qs.encode(qs.Instance(6), **kwargs)
    assert message in str(e.value)
    assert "--" not in str(e.value), "a Python error names the argument, not the CLI flag"


def test_bad_solve_arguments() -> None:
    with pytest.raises(qs.UsageError, match="^timeout=0 must be a positive number of seconds$"):
        qs.solve(8, timeout=0)
    with pytest.raises(qs.UsageError, match=r"^timeout=-1\.5 must be a positive number"):
        qs.solve(8, timeout=-1.5)
    with pytest.raises(TypeError):
        qs.solve(8, timeout="5")  # type: ignore[arg-type]
    with pytest.raises(qs.UsageError, match="unknown solver|not found|no such|solver"):
        qs.solve(8, solver="no-such-solver-xyz")
    with pytest.raises(qs.UsageError, match="^implied='sums' cannot be used with certify=True"):
        qs.solve(8, certify=True, implied="sums")
    with pytest.raises(qs.UsageError, match="^proof='x.lrat' needs certify"):
        qs.solve(8, proof="x.lrat")
    with pytest.raises(qs.UsageError, match="^proof='x.lrat' is written by the bitboard search"):
        qs.solve(8, certify=True, solver="varisat", proof="x.lrat")
    with pytest.raises(ValueError, match="^jobs=0 must be a positive number of threads$"):
        qs.solve(8, jobs=0)
    with pytest.raises(ValueError, match="^jobs=0 must be a positive number of threads$"):
        qs.count(8, jobs=0)


def test_bad_piece_and_types() -> None:
    with pytest.raises(qs.UsageError, match=r"^unknown piece='king' \(known: queen, amazon\)$"):
        qs.Instance(8, piece="king")
    with pytest.raises(TypeError):
        qs.Instance("8")  # type: ignore[arg-type]
    with pytest.raises(qs.UsageError, match=r"^blocked=\(1, 2, 3\) is not a \(row, col\) pair of ints$"):
        qs.Instance(8, blocked=[(1, 2, 3)])  # type: ignore[list-item]
    with pytest.raises(TypeError):
        qs.solve("8")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        qs.verify([(0, 0)], 1)  # type: ignore[arg-type]


def test_bad_count_arguments() -> None:
    with pytest.raises(qs.UsageError, match="^unknown engine='fast'"):
        qs.count(8, engine="fast")
    with pytest.raises(TypeError):
        qs.count(8, progress=5)  # type: ignore[arg-type]


def test_write_formats(tmp_path: Path) -> None:
    f = qs.encode(qs.Instance(6))
    with pytest.raises(qs.UsageError, match="^unknown format='xml' \\(known: dimacs, opb, lp, mzn\\)$"):
        f.write(tmp_path / "x.xml", format="xml")
    with pytest.raises(FileNotFoundError):
        f.write(tmp_path / "no" / "such" / "dir.cnf")
    g = qs.encode(qs.Instance(6), symmetric="r180")
    with pytest.raises(qs.UsageError, match="DIMACS-only"):
        g.write(tmp_path / "x.opb", format="opb")
    # An `amo` the other formats would not use is refused too, naming it (not ignored).
    h = qs.encode(qs.Instance(6), amo="ladder")
    for fmt in ["opb", "lp", "mzn"]:
        with pytest.raises(qs.UsageError) as e:
            h.write(tmp_path / f"x.{fmt}", format=fmt)  # type: ignore[arg-type]
        assert (e.value.argument, e.value.value) == ("amo", "'ladder'")
        assert not (tmp_path / f"x.{fmt}").exists()


def test_verify_error_carries_the_cells() -> None:
    with pytest.raises(qs.VerifyError) as e:
        qs.verify(qs.Board.from_columns([0, 2, 1, 3]), qs.Instance(4))
    assert str(e.value) == "queens at (0,0) and (3,3) share a diagonal"
    assert e.value.cells == [(0, 0), (3, 3)]
    with pytest.raises(qs.VerifyError, match="board is 4x4 but the instance is 5x5"):
        qs.verify(qs.Board.from_columns([1, 3, 0, 2]), qs.Instance(5))


def test_decode_rejects_a_non_solution() -> None:
    f = qs.encode(qs.Instance(4))
    with pytest.raises(qs.VerifyError):
        f.decode([1, 6, 11, 16])


def test_a_rejected_proof_is_its_own_solver_error(tmp_path: Path) -> None:
    # An external "solver" that answers UNSAT with a DRAT proof that refutes nothing: under
    # certify=True the answer is refused with ProofRejectedError, still a SolverError.
    liar = tmp_path / "cadical-liar"
    liar.write_text(
        "#!/bin/sh\n# args: --no-binary CNF PROOF\n"
        "echo '1 0' > \"$3\"\necho '0' >> \"$3\"\necho 's UNSATISFIABLE'\nexit 20\n"
    )
    liar.chmod(0o755)
    with pytest.raises(qs.ProofRejectedError) as e:
        qs.solve(8, solver=str(liar), certify=True)
    assert isinstance(e.value, qs.SolverError) and isinstance(e.value, RuntimeError)
    assert e.value.format == "drat" and isinstance(e.value.step, int)
    assert "does not check" in str(e.value) and "\n" not in str(e.value)
    assert issubclass(qs.ProofRejectedError, qs.SolverError)
    assert qs.ProofRejectedError().format is None and qs.ProofRejectedError().step is None


def test_a_model_that_fails_the_checker_is_a_wrong_answer(tmp_path: Path) -> None:
    # An external "solver" that answers SAT with every variable true: the independent checker
    # rejects the board, so the answer is refused with WrongAnswerError, a SolverError; a
    # solver that cannot run at all is a plain SolverError.
    liar = tmp_path / "sat-liar"
    liar.write_text(
        "#!/bin/sh\necho 's SATISFIABLE'\n"
        "echo \"v $(seq -s ' ' 1 64) 0\"\nexit 10\n"
    )
    liar.chmod(0o755)
    with pytest.raises(qs.WrongAnswerError) as e:
        qs.solve(8, solver=str(liar), amo="pairwise")
    assert isinstance(e.value, qs.SolverError) and isinstance(e.value, RuntimeError)
    assert "\n" not in str(e.value)
    broken = tmp_path / "crasher"
    broken.write_text("#!/bin/sh\nkill -SEGV $$\n")
    broken.chmod(0o755)
    with pytest.raises(qs.SolverError) as crash:
        qs.solve(8, solver=str(broken), amo="pairwise")
    assert not isinstance(crash.value, qs.WrongAnswerError)
