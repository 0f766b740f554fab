"""One BLAS thread inside the solvers, restored afterwards, shared by nested and concurrent uses."""

import threading

import numpy as np
import scipy.linalg  # noqa: F401  (loads scipy's BLAS, which the compiled solvers use)
from threadpoolctl import threadpool_info, threadpool_limits

from cdbandits.blas_threads import THREADED_BLAS_K, one_blas_thread


def blas_threads() -> set[int]:
    libraries = threadpool_info()
    return {library["num_threads"] for library in libraries if library["user_api"] == "blas"}


def threads_by_library() -> dict[str, int]:
    libraries = threadpool_info()
    return {lib["filepath"]: lib["num_threads"] for lib in libraries if lib["user_api"] == "blas"}


def test_large_solves_run_on_one_thread_and_the_limits_come_back():
    with threadpool_limits(limits=2, user_api="blas"):
        # A BLAS built for one thread (some packages bundle one) stays at 1 under any limit.
        before = threads_by_library()
        assert 2 in before.values()
        with one_blas_thread(THREADED_BLAS_K):
            assert blas_threads() == {1}
            with one_blas_thread(500):  # nested: still one thread inside, limit kept
                assert blas_threads() == {1}
            assert blas_threads() == {1}
        assert threads_by_library() == before
        with one_blas_thread(THREADED_BLAS_K - 1):  # small: no limit needed, none set
            assert threads_by_library() == before


def test_solves_from_other_python_threads_get_the_limit_too():
    """OpenBLAS has one pool per process; each solve, from whichever thread, limits it and
    gives the control back when it ends (so the next thread can limit it in turn)."""
    seen, before = [], blas_threads()

    def solve():
        with one_blas_thread(1000):
            seen.append(blas_threads())

    for _ in range(2):
        worker = threading.Thread(target=solve)
        worker.start()
        worker.join()
    assert seen == [{1}, {1}]
    assert blas_threads() == before


def test_the_winners_and_the_batched_solver_limit_blas(monkeypatch):
    """The solvers call LAPACK inside the limit: a spy on the limit sees their sizes."""
    from cdbandits import batched, winners

    sizes = []
    original = one_blas_thread

    def spy(rows):
        sizes.append(rows)
        return original(rows)

    monkeypatch.setattr(winners, "one_blas_thread", spy)
    monkeypatch.setattr(batched, "one_blas_thread", spy)
    rng = np.random.default_rng(0)
    upper = np.triu(rng.uniform(-1, 1, (80, 80)), 1)
    winners.von_neumann_winner(upper - upper.T)
    batched.von_neumann_winners(np.stack([upper - upper.T] * 2))
    assert sizes == [81, 81]
