"""One call from a comparison log to its winners, their uncertainty and the rankings.

:func:`analyze_log` applies the count policy (:mod:`.counts`), builds the skew matrix of
the chosen estimand (rates or margins), computes the certified von Neumann winner (vNW),
the range of each item's weight over all vNWs when there are several (the optimal face's
projections, :func:`.near_optimal.optimal_face_bounds`), the Condorcet and Copeland winners,
the distribution of all of them under the bootstrap and the Beta posterior
(:mod:`.uncertainty`) and, when asked, the rankings table (:mod:`.rankings`).
:func:`analyze_contexts` does it for every context of a log (or the chosen ones), each
with its own random stream ``named_generator(seed, "comparisons", context)`` so that a
context's numbers do not depend on which other contexts are analysed. The warnings of each
analysis are kept with it (:attr:`LogAnalysis.warnings`) and re-issued with the context
named.

A log of more than :data:`.uncertainty.DENSE_MAX_K` items is analysed without ``K x K``
matrices: the sparse solver of :mod:`cdbandits.vnw_sparse` for the point estimate, the
Condorcet and Copeland winners from the compared pairs, the resamples pair by pair in
``jobs`` processes (:mod:`.sparse_resampling`), and no rankings table, weight intervals
nor weight ranges over all vNWs (each needs games over all pairs; a warning says so for the
rankings, the report for the others).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from ..blas_threads import one_blas_thread
from ..randomness import named_generator
from ..stats import INTERVAL_METHODS, IntervalMethod
from ..winners import CertificationError
from .counts import PairCounts, apply_policy, count_pairs
from .identified import IdentifiedIntervals, identified_intervals
from .near_optimal import FACE_TOL, optimal_face_bounds
from .rankings import columns_table, ranking_columns
from .records import ComparisonDataWarning, ComparisonLog, ComparisonLogError, warn
from .settings import (
    INTERVAL_CONSTRUCTIONS,
    RESAMPLING_METHODS,
    CountPolicy,
    IntervalConstruction,
    ResamplingMethod,
)
from .solving import METHODS, SUPPORT_ENUMERATION, von_neumann_winners
from .uncertainty import DENSE_MAX_K, SUPPORT_TOL, WinnerDistribution, resampled_distribution

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["AnalysisSettings", "LogAnalysis", "analyze_contexts", "analyze_log", "weight_range"]


@dataclass(frozen=True)
class AnalysisSettings:
    """Everything :func:`analyze_log` needs besides the log and the random stream.

    Attributes
    ----------
    policy : CountPolicy
        Ties, rare items, pairs never compared.
    methods : tuple of {"bootstrap", "posterior"}
        Resampling methods to run (may be empty: point estimates only).
    resamples : int
        Resampled matrices per method.
    confidence : float
        Level of every interval.
    prior : (float, float)
        Beta prior of the posterior.
    pair_interval : {"clopper-pearson", "wilson"}
        Per-pair binomial intervals.
    bt_pseudo_count : float
        Virtual comparisons per pair for Bradley–Terry (0: plain MLE).
    top : int or None
        Keep only the ``top`` items with the most comparisons (per context), before the
        policy is applied.
    jobs : int or None
        Worker processes that solve the resamples of a log of many items
        (:mod:`.sparse_resampling`); ``None``: every available core. The results do not
        depend on it.
    rankings : bool
        Compute the rankings table (iterated maximal lotteries, Copeland, Borda,
        Bradley–Terry); it solves one game per tier.
    intervals : {"identified", "conservative"} or None
        Construction of the weight intervals; ``None``: "identified" where it applies (the
        rates matrix, whole counts, every pair compared, at most
        :data:`cdbandits.limits.SUPPORT_ENUMERATION_MAX_ITEMS` items, enough resamples),
        else "conservative". "identified" is a per-pair construction and needs the rates.
    """

    policy: CountPolicy = field(default_factory=CountPolicy)
    methods: tuple[ResamplingMethod, ...] = RESAMPLING_METHODS
    resamples: int = 1000
    confidence: float = 0.95
    prior: tuple[float, float] = (1.0, 1.0)
    pair_interval: IntervalMethod = "clopper-pearson"
    bt_pseudo_count: float = 0.0
    top: int | None = None
    jobs: int | None = None
    rankings: bool = False
    intervals: IntervalConstruction | None = None

    def __post_init__(self) -> None:
        unknown = [m for m in self.methods if m not in RESAMPLING_METHODS]
        if unknown:
            raise ValueError(f"methods must be among {RESAMPLING_METHODS}, got {unknown}")
        if self.resamples < 1:
            raise ValueError(f"resamples must be at least 1, got {self.resamples}")
        if not 0 < self.confidence < 1:
            raise ValueError(f"confidence must lie in (0, 1), got {self.confidence}")
        if self.pair_interval not in INTERVAL_METHODS:
            raise ValueError(f"pair_interval must be one of {INTERVAL_METHODS}")
        if self.top is not None and self.top < 1:
            raise ValueError(f"top must be at least 1, got {self.top}")
        if len(self.prior) != 2 or not all(math.isfinite(v) and v > 0 for v in self.prior):
            raise ValueError(f"prior must be two finite positive numbers, got {self.prior}")
        if not (math.isfinite(self.bt_pseudo_count) and self.bt_pseudo_count >= 0):
            raise ValueError(
                f"bt_pseudo_count must be a finite number >= 0, got {self.bt_pseudo_count}"
            )
        if self.jobs is not None and self.jobs < 1:
            raise ValueError(f"jobs must be at least 1, got {self.jobs}")
        if self.intervals is not None and self.intervals not in INTERVAL_CONSTRUCTIONS:
            raise ValueError(f"intervals must be one of {INTERVAL_CONSTRUCTIONS}")
        if self.intervals == "identified" and self.policy.matrix != "rates":
            raise ValueError(
                "intervals 'identified' resamples each pair's own rate and applies to the "
                "rates matrix, not to the margins: choose --matrix rates or --intervals "
                "conservative"
            )


@dataclass(frozen=True, eq=False)
class LogAnalysis:
    """Winners of one log (one context) with their uncertainty.

    Attributes
    ----------
    context : str or None
    log : ComparisonLog
        The log after ``top`` and the count policy: what every estimate used.
    counts : PairCounts
    weights : ndarray, shape (K,)
        The certified vNW of the log's matrix (the reported lottery).
    certificate : float
        ``min_j (w^T P)_j`` of that vNW (``>= -CERTIFICATE_TOL``).
    solver_path : str
        The path of :data:`cdbandits.batched.METHODS` that solved it.
    weight_range : (ndarray, ndarray) or None
        Per item, the least and the largest weight over all vNWs of the log's matrix
        (:func:`.near_optimal.optimal_face_bounds`); ``None`` for logs of more than
        :data:`.uncertainty.DENSE_MAX_K` items (not computed).
    condorcet : int or None
    copeland : ndarray of int64
        Copeland winners ("wins" variant).
    distributions : dict of str to WinnerDistribution
        By resampling method.
    ranking_columns : dict of str to list
        :func:`.rankings.ranking_columns` (:attr:`rankings` is its pandas table); empty
        unless asked for (``settings.rankings``) and for logs of more than
        :data:`.uncertainty.DENSE_MAX_K` items.
    warnings : tuple of str
        Every choice the policy or the rankings reported.
    settings : AnalysisSettings
    identified : IdentifiedIntervals or None
        The identified weight intervals and labels (:mod:`.identified`); ``None`` when the
        conservative construction is used.
    interval_note : str or None
        Why the identified construction does not apply, when it was not chosen explicitly
        and the conservative one is used instead.
    """

    context: str | None
    log: ComparisonLog
    counts: PairCounts
    weights: NDArray[np.float64]
    certificate: float
    solver_path: str
    weight_range: tuple[NDArray[np.float64], NDArray[np.float64]] | None
    condorcet: int | None
    copeland: NDArray[np.int64]
    distributions: dict[str, WinnerDistribution]
    ranking_columns: dict[str, list[Any]]
    warnings: tuple[str, ...]
    settings: AnalysisSettings
    identified: IdentifiedIntervals | None = None
    interval_note: str | None = None

    @property
    def items(self) -> tuple[str, ...]:
        return self.counts.items

    @property
    def rankings(self) -> pd.DataFrame:
        """:func:`.rankings.rankings_table` of the log (empty without ranking columns)."""
        if not self.ranking_columns:
            import pandas as pd

            return pd.DataFrame()
        return columns_table(self.ranking_columns)

    @property
    def interval_construction(self) -> IntervalConstruction | None:
        """The construction of the weight intervals (``None``: no resampling, no intervals)."""
        if self.identified is not None:
            return "identified"
        return "conservative" if self.distributions else None

    def weight_interval_dict(self) -> dict[str, Any] | None:
        """JSON-ready construction, per-item intervals and labels of the weight intervals."""
        construction = self.interval_construction
        if construction != "identified":
            return (
                None
                if construction is None
                else {
                    "construction": construction,
                    "identified_not_applicable": self.interval_note,
                }
            )
        found = self.identified
        return {
            "construction": construction,
            "low": dict(zip(self.items, map(float, found.low), strict=True)),
            "high": dict(zip(self.items, map(float, found.high), strict=True)),
            "labels": dict(zip(self.items, found.labels, strict=True)),
            "kept_supports": [[self.items[i] for i in support] for support in found.supports],
            "confidence": found.confidence,
            "resamples": found.resamples,
            "assumptions": list(found.assumptions),
        }

    @property
    def unique(self) -> bool | None:
        """Whether the log's matrix has one vNW (``None``: not computed)."""
        if self.weight_range is None:
            return None
        low, high = self.weight_range
        return bool((high - low <= FACE_TOL).all())

    @property
    def support(self) -> NDArray[np.int64]:
        """Items in the support of the reported vNW, by decreasing weight."""
        support = np.flatnonzero(self.weights > SUPPORT_TOL)
        return support[np.argsort(-self.weights[support], kind="stable")]

    def pair_table(self) -> pd.DataFrame:
        """One row per compared pair ``i < j``: counts, ``Q[i, j]`` and its interval."""
        import pandas as pd

        counts = self.counts
        low, high = counts.pair_intervals(self.settings.confidence, self.settings.pair_interval)
        return pd.DataFrame(
            {
                "item": [self.items[i] for i in counts.pairs[:, 0]],
                "opponent": [self.items[j] for j in counts.pairs[:, 1]],
                "wins": counts.pair_wins[:, 0],
                "losses": counts.pair_wins[:, 1],
                "ties": counts.pair_ties,
                "probability": counts.pair_wins[:, 0] / counts.pair_comparisons,
                "low": low,
                "high": high,
            }
        )

    def to_dict(self, include_pairs: bool = False) -> dict[str, Any]:
        """JSON-ready summary with items by name."""
        k = len(self.items)
        observed = self.counts.n_pairs
        result: dict[str, Any] = {
            "context": self.context,
            "items": list(self.items),
            "K": k,
            "comparisons": self.log.n_comparisons,
            "pairs_compared": observed,
            "pairs_total": k * (k - 1) // 2,
            "warnings": list(self.warnings),
            "von_neumann": {
                "matrix": self.counts.matrix,
                "margin_scale": self.counts.margin_scale
                if self.counts.matrix == "margins"
                else None,
                "weights": {self.items[i]: float(self.weights[i]) for i in self.support},
                "certificate": self.certificate,
                "solver_path": self.solver_path,
                "unique": self.unique,
                "weight_range": None
                if self.weight_range is None
                else {
                    self.items[i]: [float(self.weight_range[0][i]), float(self.weight_range[1][i])]
                    for i in np.flatnonzero(self.weight_range[1] > SUPPORT_TOL)
                },
            },
            "condorcet_winner": None if self.condorcet is None else self.items[self.condorcet],
            "copeland_winners": [self.items[i] for i in self.copeland],
            "weight_interval": self.weight_interval_dict(),
            "uncertainty": {name: dist.to_dict() for name, dist in self.distributions.items()},
            "rankings": [
                dict(zip(self.ranking_columns, row, strict=True))
                for row in zip(*self.ranking_columns.values(), strict=True)
            ],
        }
        if include_pairs:
            result["pairs"] = self.pair_table().to_dict(orient="records")
        return result


def weight_range(
    P: NDArray[np.float64], weights: NDArray[np.float64], path: str
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Per item, the least and largest weight over all vNWs of ``P`` (``weights`` is one).

    A Condorcet winner and a strictly complementary equalizer (the support enumeration of
    :mod:`.solving`) are unique vNWs; otherwise the optimal face's projections
    (:func:`.near_optimal.optimal_face_bounds`, certified LPs).
    """
    if path in (METHODS[0], SUPPORT_ENUMERATION):
        return weights.copy(), weights.copy()
    return optimal_face_bounds(P, np.flatnonzero(weights > SUPPORT_TOL))


def _point_winner(
    counts: PairCounts,
) -> tuple[
    NDArray[np.float64],
    float,
    str,
    NDArray[np.int64] | None,
    tuple[NDArray[np.float64], NDArray[np.float64]] | None,
]:
    """The certified vNW of the log's matrix, its certificate, path, warm start and range.

    Dense (the batched solver) up to :data:`.uncertainty.DENSE_MAX_K` items, with the
    weights' range over all vNWs (:func:`weight_range`), else the sparse solver, whose last
    restricted game's arms are the resamples' warm start (and no range).
    """
    k = len(counts.items)
    if k <= DENSE_MAX_K:
        P = counts.skew_matrix()
        solved = von_neumann_winners(P[None])
        path = METHODS[solved.method[0]]
        weights = solved.weights[0]
        bounds = weight_range(P, weights, path)
        return weights, float(solved.exploitability[0]), path, None, bounds
    from ..vnw_sparse import solve_sparse  # numba: only logs of many items load it

    P = counts.skew_sparse()
    with one_blas_thread(k + 1):
        solution = solve_sparse(P)
    if solution.path is None:
        raise CertificationError(
            f"the von Neumann winner of the log's {k} items could not be certified"
        )
    certificate = float((P.T @ solution.weights).min())
    return solution.weights, certificate, solution.path, solution.arms, None


def _distribution(
    log: ComparisonLog,
    counts: PairCounts,
    method: ResamplingMethod,
    weights: NDArray[np.float64],
    rng: np.random.Generator,
    settings: AnalysisSettings,
    start: NDArray[np.int64] | None,
    progress: bool,
) -> WinnerDistribution:
    """:func:`.uncertainty.resampled_distribution` up to :data:`.uncertainty.DENSE_MAX_K`
    items, else :func:`.sparse_resampling.sparse_distribution` from the warm ``start``."""
    options = {"confidence": settings.confidence, "prior": settings.prior, "progress": progress}
    if len(counts.items) <= DENSE_MAX_K:
        return resampled_distribution(
            log, method, weights, settings.resamples, rng, matrix=counts.matrix, **options
        )
    from .sparse_resampling import sparse_distribution  # scipy, numba and worker processes

    return sparse_distribution(
        log,
        counts,
        method,
        weights,
        settings.resamples,
        rng,
        jobs=settings.jobs,
        start=start,
        **options,
    )


def _identified(
    counts: PairCounts, settings: AnalysisSettings, rng: np.random.Generator
) -> tuple[IdentifiedIntervals | None, str | None]:
    """The identified intervals where they apply, else ``None`` and the reason.

    Asked for explicitly (``settings.intervals``), a log they do not apply to is an error
    carrying the reason; by default it falls back to the conservative construction.
    """
    if settings.intervals == "conservative" or not settings.methods:
        return None, None
    if counts.matrix != "rates":
        return None, "the identified construction applies to the rates matrix"
    try:
        return identified_intervals(
            counts, rng, confidence=settings.confidence, resamples=settings.resamples
        ), None
    except ValueError as error:
        if settings.intervals == "identified":
            raise ComparisonLogError(f"--intervals identified: {error}") from None
        return None, str(error)


def _ranking_columns(counts: PairCounts, settings: AnalysisSettings) -> dict[str, list[Any]]:
    """:func:`.rankings.ranking_columns` when asked for, for logs of at most
    :data:`.uncertainty.DENSE_MAX_K` items (it solves games over all ``K x K`` entries); a
    warning and no columns above."""
    k = len(counts.items)
    if not settings.rankings:
        return {}
    if k <= DENSE_MAX_K:
        return ranking_columns(counts, bt_pseudo_count=settings.bt_pseudo_count)
    warn(
        f"{k} items: the rankings (iterated maximal lotteries, Bradley-Terry) are computed "
        f"for logs of at most {DENSE_MAX_K} items and are left out; choose fewer items "
        "with --top to get them"
    )
    return {}


def _reissue(caught: list[warnings.WarningMessage], prefix: str) -> list[str]:
    """Issue recorded warnings again, data warnings with ``prefix``; return their texts."""
    messages = []
    for record in caught:
        if issubclass(record.category, ComparisonDataWarning):
            messages.append(prefix + str(record.message))
            warn(prefix + str(record.message))
        else:
            warnings.warn_explicit(record.message, record.category, record.filename, record.lineno)
    return messages


def analyze_log(
    log: ComparisonLog,
    settings: AnalysisSettings,
    rng: np.random.Generator,
    *,
    context: str | None = None,
    progress: bool = False,
    interval_rng: np.random.Generator | None = None,
) -> LogAnalysis:
    """Winners of a log with their uncertainty (module docstring).

    Parameters
    ----------
    log : ComparisonLog
        The comparisons (one context).
    settings : AnalysisSettings
    rng : numpy.random.Generator
        The only source of randomness (bootstrap first, then posterior).
    context : str, optional
        Name stored with the result and put in front of its warnings.
    progress : bool, optional
        Progress bars for the resampling.
    interval_rng : numpy.random.Generator, optional
        The random stream of the identified intervals; default a stream spawned from
        ``rng`` (which leaves ``rng``'s draws alone).

    Returns
    -------
    LogAnalysis
    """
    prefix = f"context {context}: " if context is not None else ""
    caught: list[warnings.WarningMessage] = []
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", ComparisonDataWarning)
            if settings.top is not None and settings.top < len(log.items):
                log = log.restrict(log.top_items(settings.top))
            log = apply_policy(log, settings.policy)
            counts = count_pairs(log, settings.policy.matrix)
            weights, certificate, path, start, bounds = _point_winner(counts)
            identified, interval_note = _identified(
                counts, settings, interval_rng if interval_rng is not None else rng.spawn(1)[0]
            )
            distributions = {
                method: _distribution(log, counts, method, weights, rng, settings, start, progress)
                for method in settings.methods
            }
            rankings = _ranking_columns(counts, settings)
            wins = counts.item_wins()
            winners = np.flatnonzero(wins == len(counts.items) - 1)
            condorcet = int(winners[0]) if winners.size else None
            copeland = np.flatnonzero(wins == wins.max()).astype(np.int64)
    finally:
        messages = _reissue(caught, prefix)
    return LogAnalysis(
        context=context,
        log=log,
        counts=counts,
        weights=weights,
        certificate=certificate,
        solver_path=path,
        weight_range=bounds,
        condorcet=condorcet,
        copeland=copeland,
        distributions=distributions,
        ranking_columns=rankings,
        warnings=tuple(messages),
        settings=settings,
        identified=identified,
        interval_note=interval_note,
    )


def analyze_contexts(
    log: ComparisonLog,
    settings: AnalysisSettings,
    seed: int,
    contexts: Sequence[str] | None = None,
    *,
    progress: bool = False,
) -> list[LogAnalysis]:
    """:func:`analyze_log` for each context of a log (or the whole log without contexts).

    Parameters
    ----------
    log : ComparisonLog
    settings : AnalysisSettings
    seed : int
        Master seed; context ``c`` uses ``named_generator(seed, "comparisons", c)`` and,
        for the identified intervals, ``named_generator(seed, "identified intervals", c)``
        (a log without contexts the same without ``c``).
    contexts : sequence of str, optional
        The contexts to analyse, in this order; default all, in order of appearance.
    progress : bool, optional

    Returns
    -------
    list of LogAnalysis
    """
    if log.context is None:
        if contexts:
            raise ComparisonLogError("the log has no context column to choose a context from")
        rng = named_generator(seed, "comparisons")
        interval_rng = named_generator(seed, "identified intervals")
        return [analyze_log(log, settings, rng, progress=progress, interval_rng=interval_rng)]
    chosen = list(contexts) if contexts else list(log.contexts)
    return [
        analyze_log(
            log.for_context(value),
            settings,
            named_generator(seed, "comparisons", value),
            context=value,
            progress=progress,
            interval_rng=named_generator(seed, "identified intervals", value),
        )
        for value in chosen
    ]
