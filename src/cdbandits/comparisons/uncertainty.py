"""The distribution of the von Neumann winner under the sampling noise of a comparison log.

Two ways to draw preference matrices that the log could equally have produced:

* **bootstrap** (:func:`bootstrap_pair_wins`): resample the log's comparisons with
  replacement, as many as it holds (the resampling units are single comparisons, or the
  groups of :mod:`.records` when the log has them: the voters of an election). Integer
  frequency weights are required. A pair never compared stays at 1/2, and so does a pair
  none of whose comparisons is drawn into a resample.
* **posterior** (:func:`posterior_pair_wins`): for each pair ``i < j`` independently,
  ``Q[i, j] ~ Beta(a + wins[i, j], b + wins[j, i])`` (ties counted half, prior ``Beta(a,
  b)``, default ``Beta(1, 1)``); a pair never compared is drawn from the prior. Groups are
  ignored (comparisons treated as independent).

For each drawn matrix the certified von Neumann winner (vNW) is computed by the batched
solver :func:`.solving.von_neumann_winners` (chunks of
:data:`cdbandits.limits.CHUNK_ENTRIES` entries at a time; the draws are made by
:mod:`.pair_draws`), or, for a log of more than :data:`DENSE_MAX_K` items, pair by pair by
the sparse solver, warm-started and in parallel (:mod:`.sparse_resampling`; there the
posterior needs every pair compared, since a pair drawn from the prior makes the resample a
dense game), with the Condorcet winner, the Copeland winners (``"wins"`` variant) and the
**exploitability** of the reported lottery ``w`` (the vNW of the log's own matrix):
``max_j sum_i w_i P[j, i] = -min_j (w^T P)_j >= 0``, how much the best single item beats
``w`` in expected duel outcome (skew form; ``(1 + exploitability) / 2`` is that item's
probability of beating a draw from ``w`` for the rates; for the margins it is the net share
of the ``c`` comparisons of :mod:`.counts` by which that item beats ``w``). It is 0 on the
log's own matrix. Every resampled matrix is made by the log's estimand
(:mod:`.pair_draws`). Note the sign: :func:`cdbandits.winners.exploitability` returns the
certificate ``min_j (w^T P)_j <= 0``.

:class:`WinnerDistribution` holds the draws and summarises them: per item the probability of
being in the support, an interval on its weight, the probability of being the Condorcet
winner or a Copeland winner, and a one-sided upper confidence bound on the exploitability
(its ``confidence`` quantile). The weight intervals are the projections of a confidence set
of lotteries (:mod:`.near_optimal`: every lottery that could be the vNW given how far the
resamples say the log's matrix can be from the truth), which hold simultaneously for all
items; the percentile intervals of the resampled weights
(:meth:`WinnerDistribution.percentile_interval`) under-cover at the sizes of real logs and
are kept for comparison only.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..limits import DENSE_MAX_K
from .counts import PairCounts, count_pairs
from .near_optimal import (
    CANDIDATE_RESAMPLES,
    entry_scales,
    near_optimal_weight_bounds,
    studentised_bound,
    studentised_statistics,
)
from .pair_draws import (
    bootstrap_pair_wins,
    pair_index,
    posterior_pair_wins,
    skew_stack,
)
from .records import ComparisonLog
from .settings import RESAMPLING_METHODS, MatrixEstimand, ResamplingMethod
from .solving import METHODS, von_neumann_winners

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "DENSE_MAX_K",
    "PROGRESS_DELAY",
    "SUPPORT_TOL",
    "WinnerDistribution",
    "bootstrap_pair_wins",
    "pair_index",
    "posterior_pair_wins",
    "resampled_distribution",
    "skew_stack",
    "winner_distribution",
]

#: Seconds a resampling runs before its progress bar appears (short runs stay quiet).
PROGRESS_DELAY = 2.0

#: Weights at or below this are outside the support. The batched solver's equalizer solve
#: can return weights of order 1e-16 on an arm whose exact weight is 0 (a degenerate
#: support); every other support weight is far larger (about 1e-3 or more in practice).
SUPPORT_TOL = 1e-12


@dataclass(frozen=True, eq=False)
class WinnerDistribution:
    """Winners of matrices resampled from a log (see the module docstring).

    Attributes
    ----------
    method : str
        ``"bootstrap"`` or ``"posterior"``.
    items : tuple of str
    reported : ndarray, shape (K,)
        The lottery whose exploitability is measured (the vNW of the log's matrix).
    matrix : ndarray, shape (K, K), or None
        The log's skew matrix ``P_hat``.
    scales : ndarray, shape (K, K), or None
        The standard errors of ``P_hat``'s entries (:func:`.near_optimal.entry_scales`).
    candidates : ndarray, shape (C, K), or None
        The candidate truths of :func:`.near_optimal.studentised_bound`: the pure lotteries,
        ``reported`` and the first resamples' vNWs.
    statistics : ndarray, shape (B, C), or None
        Per resample, the studentised deviation ``T(p)`` of :mod:`.near_optimal` for every
        candidate, from ``Delta_b = P_hat - P_b`` for the bootstrap and ``P_b - P_hat`` for
        the posterior.

        These four are ``None`` for logs of more than :data:`DENSE_MAX_K` items
        (:mod:`.sparse_resampling`): the confidence set is a polytope over all ``K x K``
        entries (every pair has a positive scale, compared or not) and its projections take
        ``2 K`` linear programs of that size; the weight intervals are then NaN.
    weights : ndarray, shape (B, K)
        The certified vNW of every resampled matrix; an item is in the support when its
        weight exceeds :data:`SUPPORT_TOL`.
    exploitability : ndarray, shape (B,)
        ``-min_j (reported^T P_b)_j`` for every resampled ``P_b`` (>= 0).
    condorcet : ndarray of int64, shape (B,)
        The Condorcet winner of every resample, -1 if none.
    copeland : ndarray of bool, shape (B, K)
        The Copeland winners ("wins" variant) of every resample.
    solver_paths : dict of str to int
        How many resamples each path of :data:`cdbandits.batched.METHODS` solved.
    confidence : float
        Level of the intervals.
    """

    method: str
    items: tuple[str, ...]
    reported: NDArray[np.float64]
    matrix: NDArray[np.float64] | None
    scales: NDArray[np.float64] | None
    candidates: NDArray[np.float64] | None
    statistics: NDArray[np.float64] | None
    weights: NDArray[np.float64]
    exploitability: NDArray[np.float64]
    condorcet: NDArray[np.int64]
    copeland: NDArray[np.bool_]
    solver_paths: dict[str, int]
    confidence: float

    @property
    def resamples(self) -> int:
        return int(self.weights.shape[0])

    def _quantiles(self, values: NDArray[np.float64]) -> tuple[Any, Any]:
        alpha = 1.0 - self.confidence
        low, high = np.quantile(values, [alpha / 2, 1 - alpha / 2], axis=0)
        return low, high

    @property
    def support_probability(self) -> NDArray[np.float64]:
        """Per item: fraction of resamples whose vNW puts positive weight on it."""
        return (self.weights > SUPPORT_TOL).mean(axis=0)

    def percentile_interval(self) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Per item: equal-tailed percentile interval of its resampled vNW weights.

        Kept for comparison: it under-covers where the weight jumps (module docstring).
        """
        return self._quantiles(self.weights)

    @cached_property
    def _weight_bounds(self) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        return near_optimal_weight_bounds(self.matrix, self.studentised_bound() * self.scales)

    def studentised_bound(self) -> float:
        """``t`` of :mod:`.near_optimal`: the weight intervals' set is ``P_hat + t S``.

        NaN without the dense statistics (see :attr:`statistics`).
        """
        if self.statistics is None:
            return float("nan")
        needed = studentised_statistics(-self.matrix[None], self.candidates, self.scales)[0]
        return studentised_bound(self.statistics, needed, self.confidence)

    def weight_interval(self) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Per item: least and largest weight of a lottery in the confidence set.

        The projections of :mod:`.near_optimal`'s set (certified LPs); they contain the
        true vNW's weights of all items at once with about the ``confidence`` level. NaN
        without the dense statistics (see :attr:`statistics`).
        """
        if self.statistics is None:
            return np.full(len(self.items), np.nan), np.full(len(self.items), np.nan)
        low, high = self._weight_bounds
        return low.copy(), high.copy()

    def exploitability_bound(self) -> float:
        """One-sided upper confidence bound of the reported lottery's exploitability.

        The ``confidence`` quantile of the resampled exploitabilities: with that confidence
        no single item beats the reported lottery by more than this (in expected duel
        outcome; by more than half of it in probability). One-sided because the question
        is how much the lottery could be beaten; the lower end is 0.
        """
        return float(np.quantile(self.exploitability, self.confidence))

    @property
    def condorcet_probability(self) -> NDArray[np.float64]:
        """Per item: fraction of resamples in which it is the Condorcet winner."""
        k = len(self.items)
        return np.bincount(self.condorcet[self.condorcet >= 0], minlength=k) / self.resamples

    @property
    def condorcet_exists(self) -> float:
        """Fraction of resamples with a Condorcet winner."""
        return float((self.condorcet >= 0).mean())

    @property
    def copeland_probability(self) -> NDArray[np.float64]:
        """Per item: fraction of resamples in which it is a Copeland winner."""
        return self.copeland.mean(axis=0)

    def item_columns(self) -> dict[str, list[Any]]:
        """The columns of :meth:`item_table` as lists of Python values."""
        low, high = self.weight_interval()
        columns = {
            "weight": self.reported,
            "support_probability": self.support_probability,
            "weight_low": low,
            "weight_high": high,
            "weight_mean": self.weights.mean(axis=0),
            "condorcet_probability": self.condorcet_probability,
            "copeland_probability": self.copeland_probability,
        }
        return {"item": list(self.items)} | {name: v.tolist() for name, v in columns.items()}

    def item_table(self) -> pd.DataFrame:
        """One row per item: reported weight, support probability, weight interval, ..."""
        import pandas as pd

        return pd.DataFrame(self.item_columns())

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready summary (items by name)."""
        bound = self.exploitability_bound()
        sizes = np.count_nonzero(self.weights > SUPPORT_TOL, axis=1)
        return {
            "method": self.method,
            "resamples": self.resamples,
            "confidence": self.confidence,
            "items": _records(self.item_columns()),
            "weight_interval": {
                "construction": "projection of the confidence set of lotteries that could be "
                "the von Neumann winner (cdbandits.comparisons.near_optimal); simultaneous "
                "for all items"
                if self.statistics is not None
                else f"not computed for more than {DENSE_MAX_K} items (linear "
                "programs over all pairs)",
                "studentised_bound": self.studentised_bound(),
            },
            "exploitability": {
                "median": float(np.median(self.exploitability)),
                "upper_bound": bound,
                "best_response_probability_upper_bound": (1.0 + bound) / 2.0,
            },
            "condorcet_exists": self.condorcet_exists,
            "support_size": {
                "mean": float(sizes.mean()),
                "counts": dict(sorted(Counter(sizes.tolist()).items())),
            },
            "solver_paths": self.solver_paths,
        }


class _NoProgressBar:
    def __enter__(self) -> _NoProgressBar:
        return self

    def __exit__(self, *exception: object) -> None:
        return None

    def update(self, count: int) -> None:
        return None


def _progress_bar(total: int | None, description: str, shown: bool) -> Any:
    """A tqdm bar on stderr that appears after :data:`PROGRESS_DELAY` seconds, or none.

    tqdm is imported only when a bar is shown (it costs a short run noticeable time).
    """
    if not shown:
        return _NoProgressBar()
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=description, leave=False, delay=PROGRESS_DELAY)


def _records(columns: dict[str, list[Any]]) -> list[dict[str, Any]]:
    """Rows of a table given by its columns."""
    return [dict(zip(columns, row, strict=True)) for row in zip(*columns.values(), strict=True)]


def winner_distribution(
    method: str,
    items: tuple[str, ...],
    reported: ArrayLike,
    chunks: Iterator[NDArray[np.float64]],
    confidence: float = 0.95,
    progress: bool = False,
    total: int | None = None,
    *,
    counts: PairCounts,
) -> WinnerDistribution:
    """Solve every resampled matrix and collect the winners.

    Parameters
    ----------
    method : {"bootstrap", "posterior"}
        The resampling: it sets how the draws estimate the truth's deviation from the log's
        matrix (:mod:`.near_optimal`).
    items : tuple of str
    reported : array_like, shape (K,)
        The lottery whose exploitability is measured.
    chunks : iterator of ndarray, shape (chunk, 2, n_pairs)
        Resampled pair wins (:func:`bootstrap_pair_wins`, :func:`posterior_pair_wins`).
    confidence : float, optional
        Level of the intervals, in (0, 1).
    progress : bool, optional
        Show a progress bar (on stderr).
    total : int, optional
        Number of resamples (for the progress bar).
    counts : PairCounts
        The log's counts (its matrix ``P_hat`` and the entries' standard errors).
    """
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must lie in (0, 1), got {confidence}")
    if method not in RESAMPLING_METHODS:
        raise ValueError(f"method must be one of {RESAMPLING_METHODS}, got {method!r}")
    k = len(items)
    reported = np.asarray(reported, dtype=np.float64)
    if len(counts.items) != k:
        raise ValueError(f"counts must be of {k} items, got {len(counts.items)}")
    matrix, scales = counts.skew_matrix(), entry_scales(counts)
    candidates = None
    # Draws of P - P_hat: P_hat - P_b (bootstrap principle) or P_b - P_hat (posterior).
    sign = 1.0 if method == "bootstrap" else -1.0
    weights, exploit, condorcet, copeland, statistics = [], [], [], [], []
    paths = np.zeros(len(METHODS), dtype=np.int64)
    with _progress_bar(total, f"{method} resamples", progress) as bar:
        for chunk in chunks:
            stack = skew_stack(chunk, k, counts.matrix, counts.margin_scale)
            solved = von_neumann_winners(stack)
            weights.append(solved.weights)
            if candidates is None:
                first = solved.weights[:CANDIDATE_RESAMPLES]
                candidates = np.vstack([np.eye(k), reported, first])
            statistics.append(studentised_statistics(sign * (matrix - stack), candidates, scales))
            # Clipped at 0: min_j (w^T P)_j <= w^T P w = 0 holds exactly, up to rounding.
            exploit.append(np.maximum(-np.einsum("i,bij->bj", reported, stack).min(axis=1), 0.0))
            scores = (stack > 0).sum(axis=2)
            is_condorcet = scores == k - 1
            condorcet.append(np.where(is_condorcet.any(axis=1), is_condorcet.argmax(axis=1), -1))
            copeland.append(scores == scores.max(axis=1, keepdims=True))
            paths += np.bincount(solved.method, minlength=len(METHODS))
            bar.update(stack.shape[0])
    return WinnerDistribution(
        method=method,
        items=items,
        reported=reported,
        matrix=matrix,
        scales=scales,
        candidates=candidates,
        statistics=np.concatenate(statistics),
        weights=np.concatenate(weights),
        exploitability=np.concatenate(exploit),
        condorcet=np.concatenate(condorcet).astype(np.int64),
        copeland=np.concatenate(copeland),
        solver_paths={name: int(count) for name, count in zip(METHODS, paths, strict=True)},
        confidence=confidence,
    )


def resampled_distribution(
    log: ComparisonLog,
    method: ResamplingMethod,
    reported: ArrayLike,
    resamples: int,
    rng: np.random.Generator,
    *,
    confidence: float = 0.95,
    prior: tuple[float, float] = (1.0, 1.0),
    progress: bool = False,
    matrix: MatrixEstimand = "rates",
) -> WinnerDistribution:
    """:func:`winner_distribution` of the bootstrap or the posterior of a log.

    For logs of at most :data:`DENSE_MAX_K` items: a larger log is resampled pair by pair
    and solved by the sparse solver, warm and in parallel
    (:func:`.sparse_resampling.sparse_distribution`; no weight intervals), as
    :func:`.analysis.analyze_log` does.

    Parameters
    ----------
    log : ComparisonLog
        Already passed through :func:`.counts.apply_policy`.
    method : {"bootstrap", "posterior"}
    reported : array_like, shape (K,)
        The lottery whose exploitability is measured.
    resamples : int
    rng : numpy.random.Generator
        The only source of randomness.
    confidence : float, optional
    prior : (float, float), optional
        Beta prior of the posterior.
    progress : bool, optional
    matrix : {"rates", "margins"}, optional
        The estimand of :mod:`.counts` (the reported lottery must be its vNW).
    """
    counts = count_pairs(log, matrix)
    if method == "bootstrap":
        chunks = bootstrap_pair_wins(log, resamples, rng)
    elif method == "posterior":
        chunks = posterior_pair_wins(counts, resamples, rng, prior)
    else:
        raise ValueError(f"method must be one of {RESAMPLING_METHODS}, got {method!r}")
    return winner_distribution(
        method,
        log.items,
        reported,
        chunks,
        confidence,
        progress=progress,
        total=resamples,
        counts=counts,
    )
