"""Winners of resampled logs of many items: pair by pair, warm sparse solves, in parallel.

For a log of more than :data:`.uncertainty.DENSE_MAX_K` items,
:func:`.analysis.analyze_log` resamples only the compared pairs
(:func:`.pair_draws.compared_bootstrap_wins`, :func:`.pair_draws.compared_posterior_wins`:
the same draws as for a small log) and solves each resampled game with the sparse solver of
:mod:`cdbandits.vnw_sparse`, never building a ``K x K`` matrix:

* **Warm starts.** A resample differs from the log in the counts of its pairs, and its
  winner's support is almost always close to the log's. Each resample's restricted games
  start from the arms of the log's last restricted game (``start`` of
  :func:`cdbandits.vnw_sparse.solve_sparse`) instead of from one arm; they grow until the
  certificate holds on the whole game, so the answer is the same point as a cold solve.
* **Parallel.** The resamples are drawn in order from the one random stream, then solved in
  ``jobs`` worker processes; the solver is deterministic, so the weights (and every number
  derived from them) are the same bytes whatever the number of workers.
* Each resample's matrix is made by the log's estimand (rates or margins on the log's scale,
  :func:`.counts.skew_values`), as for a small log.
* The exploitability of the reported lottery, the Condorcet and the Copeland winners of
  every resample come from the pairs (one sparse product per chunk of resamples).

The weight intervals of :mod:`.near_optimal` are not computed (see
:attr:`.uncertainty.WinnerDistribution.statistics`).
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import contextmanager

import numpy as np
from numpy.typing import NDArray
from scipy import sparse

from ..blas_threads import one_blas_thread
from ..vnw_sparse import SPARSE_METHODS, solve_sparse
from ..winners import CertificationError
from .counts import PairCounts, skew_values
from .pair_draws import compared_bootstrap_wins, compared_posterior_wins
from .records import ComparisonLog
from .settings import RESAMPLING_METHODS, ResamplingMethod
from .uncertainty import WinnerDistribution, _progress_bar

__all__ = ["available_jobs", "sparse_distribution"]

#: Resamples handed to a worker at a time.
TASK_RESAMPLES = 4

# The game every worker solves resamples of: (pairs, number of items, warm start).
_GAME: tuple[NDArray[np.int64], int, NDArray[np.int64] | None] | None = None


def available_jobs() -> int:
    """The cores this process may run on (the default number of workers)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _skew(pairs: NDArray[np.int64], k: int, values: NDArray[np.float64]) -> sparse.csr_array:
    """The skew matrix with ``values[p]`` at ``pairs[p]`` (and its negative at the mirror)."""
    rows = np.concatenate([pairs[:, 0], pairs[:, 1]])
    cols = np.concatenate([pairs[:, 1], pairs[:, 0]])
    return sparse.csr_array((np.concatenate([values, -values]), (rows, cols)), shape=(k, k))


def _set_game(game: tuple[NDArray[np.int64], int, NDArray[np.int64] | None]) -> None:
    global _GAME
    _GAME = game


def _solve(skews: NDArray[np.float64]) -> list[tuple[int, NDArray[np.float64]]]:
    """Certified vNWs of the resampled games with these pair values (in a worker)."""
    assert _GAME is not None
    pairs, k, start = _GAME
    answers = []
    with one_blas_thread(k + 1):
        for values in skews:
            path, weights, _ = solve_sparse(_skew(pairs, k, values), start)
            answers.append((-1 if path is None else SPARSE_METHODS.index(path), weights))
    return answers


@contextmanager
def _workers(jobs: int, game: tuple) -> Iterator[Executor | None]:
    """A pool of ``jobs`` processes that know the game (None for one job: in process)."""
    if jobs <= 1:
        _set_game(game)
        yield None
        return
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    with ProcessPoolExecutor(jobs, context, initializer=_set_game, initargs=(game,)) as pool:
        yield pool


def _pair_incidence(pairs: NDArray[np.int64], k: int, row_weights: NDArray, col_weights: NDArray):
    """``A`` (n x K) with ``A[p, j] = row_weights[i]``, ``A[p, i] = col_weights[j]``."""
    n = pairs.shape[0]
    return sparse.csr_array(
        (
            np.concatenate([row_weights[pairs[:, 0]], col_weights[pairs[:, 1]]]),
            (np.r_[np.arange(n), np.arange(n)], np.concatenate([pairs[:, 1], pairs[:, 0]])),
        ),
        shape=(n, k),
    )


def sparse_distribution(
    log: ComparisonLog,
    counts: PairCounts,
    method: ResamplingMethod,
    reported: NDArray[np.float64],
    resamples: int,
    rng: np.random.Generator,
    *,
    confidence: float = 0.95,
    prior: tuple[float, float] = (1.0, 1.0),
    progress: bool = False,
    jobs: int | None = None,
    start: NDArray[np.int64] | None = None,
) -> WinnerDistribution:
    """The distribution of the winners of a log's resamples, pair by pair (module docstring).

    Parameters
    ----------
    log : ComparisonLog
        Already passed through :func:`.counts.apply_policy`.
    counts : PairCounts
        Its counts.
    method : {"bootstrap", "posterior"}
    reported : ndarray, shape (K,)
        The lottery whose exploitability is measured.
    resamples : int
    rng : numpy.random.Generator
        The only source of randomness.
    confidence : float, optional
    prior : (float, float), optional
        Beta prior of the posterior.
    progress : bool, optional
        Show a progress bar (on stderr).
    jobs : int, optional
        Worker processes; default :func:`available_jobs`.
    start : ndarray of int64, optional
        The warm start: the ``arms`` of the log's own sparse solution.

    Raises
    ------
    cdbandits.winners.CertificationError
        If a resampled game cannot be certified (the message names the resample).
    """
    if method == "bootstrap":
        chunks = compared_bootstrap_wins(log, counts.pairs, resamples, rng)
    elif method == "posterior":
        chunks = compared_posterior_wins(counts, resamples, rng, prior)
    else:
        raise ValueError(f"method must be one of {RESAMPLING_METHODS}, got {method!r}")
    k = len(counts.items)
    pairs = counts.pairs
    ones = np.ones(k)
    # Values of the reported lottery (skews @ against) and wins per item (positive/negative).
    against = _pair_incidence(pairs, k, reported, -reported)
    lower_item = _pair_incidence(pairs, k, np.zeros(k), ones)  # column i of pair (i, j)
    higher_item = _pair_incidence(pairs, k, ones, np.zeros(k))  # column j
    jobs = available_jobs() if jobs is None else jobs
    weights, exploit, condorcet, copeland = [], [], [], []
    paths = np.zeros(len(SPARSE_METHODS), dtype=np.int64)
    done = 0
    with (
        _workers(jobs, (pairs, k, start)) as pool,
        _progress_bar(resamples, f"{method} resamples", progress) as bar,
    ):
        for chunk in chunks:
            skews = skew_values(chunk[:, 0], chunk[:, 1], counts.matrix, counts.margin_scale)
            tasks = [skews[i : i + TASK_RESAMPLES] for i in range(0, len(skews), TASK_RESAMPLES)]
            answers = [
                a
                for part in (pool.map(_solve, tasks) if pool else map(_solve, tasks))
                for a in part
            ]
            for offset, (path, solved) in enumerate(answers):
                if path < 0:
                    raise CertificationError(
                        f"the von Neumann winner of {method} resample {done + offset} could not "
                        "be certified"
                    )
                paths[path] += 1
                weights.append(solved)
            values = np.asarray(skews @ against)
            exploit.append(np.maximum(-values.min(axis=1), 0.0))
            wins = np.asarray(
                (skews > 0).astype(float) @ lower_item + (skews < 0).astype(float) @ higher_item
            )
            is_condorcet = wins == k - 1
            condorcet.append(np.where(is_condorcet.any(axis=1), is_condorcet.argmax(axis=1), -1))
            copeland.append(wins == wins.max(axis=1, keepdims=True))
            done += len(skews)
            bar.update(len(skews))
    return WinnerDistribution(
        method=method,
        items=counts.items,
        reported=reported,
        matrix=None,
        scales=None,
        candidates=None,
        statistics=None,
        weights=np.array(weights),
        exploitability=np.concatenate(exploit),
        condorcet=np.concatenate(condorcet).astype(np.int64),
        copeland=np.concatenate(copeland),
        solver_paths={name: int(count) for name, count in zip(SPARSE_METHODS, paths, strict=True)},
        confidence=confidence,
    )
