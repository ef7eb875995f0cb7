"""Two threads solving at once both get correct answers."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import queens_sat as qs
from conftest import is_solution, oracle


def test_two_threads_solve_at_once() -> None:
    instances = [
        qs.generate.blocked(9, 30, min_free=1, seed=s).with_piece(p)
        for s in range(12)
        for p in ["queen", "amazon"]
    ] + [qs.Instance(200), qs.Instance(12, piece="amazon"), qs.Instance(9, piece="amazon")]
    def run(inst: qs.Instance):
        return qs.solve(inst)

    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(run, instances))
    for inst, r in zip(instances, results):
        if inst.n <= 12:
            assert (r.status is qs.Status.SAT) == (oracle(inst) is not None)
        if r.board is not None:
            assert is_solution(inst, r.board.pieces)


def test_two_threads_count_and_encode_at_once() -> None:
    def a():
        return qs.count(qs.Instance(10)).total

    def b():
        return qs.encode(qs.Instance(150), amo="pairwise").num_clauses

    with ThreadPoolExecutor(max_workers=2) as pool:
        fa, fb = pool.submit(a), pool.submit(b)
        assert fa.result() == 724
        assert fb.result() == qs.encode(qs.Instance(150), amo="pairwise").num_clauses


def test_pickle_and_processes() -> None:
    import pickle
    from concurrent.futures import ProcessPoolExecutor

    inst = qs.Instance(9, piece="amazon", placed=[(0, 1)], blocked=[(2, 2)], excluded=[("diagonal", 3)])
    assert pickle.loads(pickle.dumps(inst)) == inst
    r = qs.solve(qs.Instance(10, piece="amazon"))
    b = pickle.loads(pickle.dumps(r.board))
    assert b == r.board and b.instance == r.board.instance and str(b) == str(r.board)
    instances = [qs.generate.blocked(8, 20, min_free=1, seed=s) for s in range(4)]
    with ProcessPoolExecutor(max_workers=2) as pool:
        statuses = list(pool.map(_status_of, instances))
    assert statuses == [_status_of(i) for i in instances]


def _status_of(inst: qs.Instance) -> str:
    return qs.solve(inst).status.value
