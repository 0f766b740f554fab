"""Preference matrices of feature rankers from simulated interleaved comparisons.

**Aggregate matrix** (:func:`estimate_preference_matrix`): for every unordered pair of the
chosen rankers, ``N`` comparisons, each on a query drawn uniformly at random, with clicks from
a cascade click model (:mod:`cdbandits.letor.interleave`). Each pair is simulated once, as
(lower index, higher index), and mirrored, so ``Q(i, j) + Q(j, i) = 1`` holds exactly:
``Q(i, j) = (wins of i + ties / 2) / N``. Pairs run in parallel (numba ``prange``), each from
its own random stream seeded from the ``Generator`` passed in, so results do not depend on
the number of threads. The published MSLR matrices used ``N`` about 2.07e5.

File format (:meth:`PreferenceEstimate.save`), an ``.npz`` readable like the published
matrices, ``np.load(path)["PMat"]``:

* ``PMat`` (K, K) float64: probability form ``Q[i, j] = P(ranker i beats ranker j)``;
* ``wins`` (K, K) int64: comparisons of ``i`` against ``j`` that ``i`` won; ``ties`` (K, K)
  int64, symmetric; ``comparisons_per_pair`` int;
* ``rankers`` (K,) int64: feature column of each row (0-based; LETOR feature = column + 1);
* ``click_model``, ``method``, ``credit_ties`` (str); ``tau`` (float); ``list_length`` (int).

**Per-query matrices** (:func:`estimate_per_query_matrices`): for a chosen set of ``K``
rankers and every query ``x``, the expected duel outcome matrix ``P_x(i, j) = P(i beats j on
x) - P(j beats i on x)`` (skew form, ties count 0). The exact expectation over interleavings
and clicks is a sum over all shown lists and click patterns, intractable for real queries, so
each entry is a **Monte Carlo estimate** from ``N`` comparisons on that query (standard error
at most ``1 / sqrt(N)``). These are the contexts of the contextual dueling-bandit
environments. File format (:meth:`PerQueryMatrices.save`), an ``.npz`` with

* ``matrices`` (n_queries, K, K) float64: skew form ``P_x`` (exactly ``P_x.T == -P_x``);
  the probability form is ``(matrices + 1) / 2``;
* ``features`` (n_queries, n_features) float64: the context of each query, the mean of its
  documents' feature vectors;
* ``qids`` (n_queries,) int64; ``n_documents`` (n_queries,) int64; ``truncated``
  (n_queries,) bool (queries known to be cut, see :mod:`cdbandits.letor.reader`);
* ``rankers`` (K,) int64 feature columns; ``comparisons_per_pair`` int (per query);
* ``click_model``, ``method``, ``credit_ties`` (str); ``tau`` (float); ``list_length`` (int).
"""

from __future__ import annotations

import logging
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numba
import numpy as np
from numpy.typing import NDArray
from tqdm.auto import tqdm

from ..files import atomic_path
from ..preference import as_skew
from .click_models import CascadeClickModel
from .duel_kernels import CREDIT_TIES, ClickSimulation, RankingTables, new_workspace, run_duels
from .interleave import (
    DEFAULT_LIST_LENGTH,
    DEFAULT_TAU,
    CreditTies,
    InterleaveMethod,
    _check_method,
    rank_weights,
)
from .rankers import FeatureRankings, feature_rankings
from .reader import LetorData

__all__ = [
    "PerQueryMatrices",
    "PreferenceEstimate",
    "estimate_per_query_matrices",
    "estimate_preference_matrix",
    "ranker_pairs",
]

logger = logging.getLogger(__name__)

#: Comparisons simulated between two progress-bar updates (about a second of work).
_COMPARISONS_PER_UPDATE = 2_000_000


@numba.njit(parallel=True, cache=True)
def _simulate_pairs(
    first_ranker,
    second_ranker,
    task_queries,
    n_duels,
    seeds,
    offsets,
    tables,
    clicks,
    max_documents,
):
    """Run ``n_duels`` comparisons for each task; task ``k`` compares rankers
    ``first_ranker[k]`` and ``second_ranker[k]`` on query ``task_queries[k]``, or on a
    uniformly random query for each comparison when that is -1. ``max_documents`` is the
    size of the largest query."""
    n_tasks = first_ranker.size
    counts = np.zeros((n_tasks, 3), dtype=np.int64)
    for task in numba.prange(n_tasks):
        work = new_workspace(max_documents, clicks.length, offsets.size - 1, seeds[task])
        run_duels(
            first_ranker[task],
            second_ranker[task],
            task_queries[task],
            n_duels,
            offsets,
            tables,
            clicks,
            work,
            counts[task],
        )
    return counts


def ranker_pairs(n_rankers: int) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """All unordered pairs ``(i, j)``, ``i < j``, of ``n_rankers`` rankers (row-major)."""
    first, second = np.triu_indices(n_rankers, k=1)
    return first.astype(np.int64), second.astype(np.int64)


def _run_tasks(
    rankings: FeatureRankings,
    labels: NDArray[np.int8],
    click_model: CascadeClickModel,
    first: NDArray[np.int64],
    second: NDArray[np.int64],
    task_queries: NDArray[np.int64],
    n_duels: int,
    rng: np.random.Generator,
    method: InterleaveMethod,
    credit_ties: CreditTies,
    tau: float,
    list_length: int,
    threads: int | None,
    progress: bool,
    description: str,
) -> NDArray[np.int64]:
    """Counts (A wins, ties, B wins) of every task, in batches with a progress bar."""
    code = _check_method(method, credit_ties)
    if n_duels < 1:
        raise ValueError(f"the number of comparisons per pair must be >= 1, got {n_duels}")
    if list_length < 1:
        raise ValueError(f"list_length must be >= 1, got {list_length}")
    click_model.check_labels(labels)
    max_documents = rankings.max_documents
    weights, cumulative = rank_weights(max_documents, tau)
    seeds = rng.integers(0, 2**63, size=first.size, dtype=np.int64).astype(np.uint64)
    tables = RankingTables(rankings.order, rankings.position, rankings.tie_start, rankings.tie_end)
    clicks = ClickSimulation(
        code,
        labels,
        int(list_length),
        click_model.click_array,
        click_model.stop_array,
        weights,
        cumulative,
        CREDIT_TIES[credit_ties],
    )
    counts = np.zeros((first.size, 3), dtype=np.int64)
    batch = max(1, min(first.size, _COMPARISONS_PER_UPDATE // n_duels))
    previous_threads = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(max(1, min(int(threads), numba.config.NUMBA_NUM_THREADS)))
    try:
        with tqdm(
            total=first.size * n_duels,
            unit="cmp",
            unit_scale=True,
            desc=description,
            disable=not progress,
            mininterval=2.0,
        ) as bar:
            for start in range(0, first.size, batch):
                stop = min(first.size, start + batch)
                counts[start:stop] = _simulate_pairs(
                    first[start:stop],
                    second[start:stop],
                    task_queries[start:stop],
                    n_duels,
                    seeds[start:stop],
                    rankings.query_offsets,
                    tables,
                    clicks,
                    max_documents,
                )
                bar.update((stop - start) * n_duels)
    finally:
        numba.set_num_threads(previous_threads)
    return counts


def _probability_from_counts(
    wins: NDArray[np.int64], ties: NDArray[np.int64], n: int
) -> NDArray[np.float64]:
    """``Q = (wins + ties / 2) / n`` with ``Q + Q.T == 1`` exactly.

    The larger entry of each pair is rounded once; the smaller is ``1 - larger``, which is
    exact (Sterbenz), so the two add up to exactly 1.
    """
    raw = (2.0 * wins + ties) / (2.0 * n)
    larger = np.maximum(raw, raw.T)
    probability = np.where(raw >= raw.T, larger, 1.0 - larger)
    np.fill_diagonal(probability, 0.5)
    return probability


#: The simulation settings both saved result types record, with their types in the file.
_SETTINGS = {
    "comparisons_per_pair": (np.int64, int),
    "click_model": (np.str_, str),
    "method": (np.str_, str),
    "credit_ties": (np.str_, str),
    "tau": (np.float64, float),
    "list_length": (np.int64, int),
}


def _settings_arrays(result: PreferenceEstimate | PerQueryMatrices) -> dict[str, Any]:
    """The simulation settings of ``result`` as numpy scalars for ``np.savez``."""
    return {name: stored(getattr(result, name)) for name, (stored, _) in _SETTINGS.items()}


def _settings_from(archive: Any) -> dict[str, Any]:
    """The simulation settings read back from an ``.npz`` written with them."""
    return {name: read(archive[name]) for name, (_, read) in _SETTINGS.items()}


@dataclass(frozen=True)
class PreferenceEstimate:
    """An estimated preference matrix with its counts (see the module docstring).

    Attributes
    ----------
    rankers : ndarray of int64, shape (K,)
        Feature column of each row.
    wins : ndarray of int64, shape (K, K)
        ``wins[i, j]`` = comparisons of ``i`` and ``j`` won by ``i``.
    ties : ndarray of int64, shape (K, K)
        Tied comparisons of ``i`` and ``j`` (symmetric).
    comparisons_per_pair : int
        ``N``.
    click_model, method, credit_ties : str
        How the comparisons were simulated.
    tau : float
        Probabilistic Interleave's rank exponent.
    list_length : int
        Maximum shown-list length.
    """

    rankers: NDArray[np.int64]
    wins: NDArray[np.int64]
    ties: NDArray[np.int64]
    comparisons_per_pair: int
    click_model: str
    method: str
    credit_ties: str
    tau: float
    list_length: int

    @property
    def probability(self) -> NDArray[np.float64]:
        """Probability form ``Q`` (``Q + Q.T == 1`` exactly, diagonal 0.5)."""
        return _probability_from_counts(self.wins, self.ties, self.comparisons_per_pair)

    @property
    def skew(self) -> NDArray[np.float64]:
        """Skew form ``P = 2 Q - 1``."""
        return as_skew(self.probability, "probability")

    @property
    def tie_rate(self) -> float:
        """Fraction of comparisons that tied."""
        upper = np.triu_indices(self.rankers.size, k=1)
        return float(self.ties[upper].sum() / (self.comparisons_per_pair * upper[0].size))

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the ``.npz`` described in the module docstring (atomically)."""
        with atomic_path(path) as temporary, open(temporary, "wb") as stream:
            np.savez(
                stream,
                PMat=self.probability,
                wins=self.wins,
                ties=self.ties,
                rankers=self.rankers,
                **_settings_arrays(self),
            )

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> PreferenceEstimate:
        """Read a file written by :meth:`save`."""
        with np.load(path, allow_pickle=False) as archive:
            return cls(
                rankers=archive["rankers"],
                wins=archive["wins"],
                ties=archive["ties"],
                **_settings_from(archive),
            )


def estimate_preference_matrix(
    data: LetorData,
    click_model: CascadeClickModel,
    comparisons_per_pair: int,
    rng: np.random.Generator,
    *,
    rankers: Sequence[int] | None = None,
    method: InterleaveMethod = "probabilistic",
    credit_ties: CreditTies = "shared",
    tau: float = DEFAULT_TAU,
    list_length: int = DEFAULT_LIST_LENGTH,
    threads: int | None = None,
    progress: bool = True,
) -> PreferenceEstimate:
    """Estimate ``Q(i beats j)`` for all pairs of feature rankers by simulated comparisons.

    Parameters
    ----------
    data : LetorData
        Queries and documents; every comparison uses a query drawn uniformly from them.
    click_model : CascadeClickModel
        The simulated user.
    comparisons_per_pair : int
        ``N``, comparisons per unordered pair.
    rng : numpy.random.Generator
        Source of randomness.
    rankers : sequence of int, optional
        Feature columns to compare (0-based); default all.
    method : {"probabilistic", "team_draft"}, optional
        Interleaving method.
    credit_ties : {"shared", "redrawn"}, optional
        Tie-breaking of Probabilistic Interleave's credit: the list's ("shared") or an
        independent one as in Lerot ("redrawn"); see :mod:`cdbandits.letor.interleave`.
    tau : float, optional
        Probabilistic Interleave's rank exponent.
    list_length : int, optional
        Maximum shown-list length.
    threads : int, optional
        Numba threads (default: numba's setting).
    progress : bool, optional
        Show a progress bar.

    Returns
    -------
    PreferenceEstimate
    """
    rankings = feature_rankings(data, rankers)
    n_rankers = rankings.n_rankers
    if n_rankers < 2:
        raise ValueError(f"a preference matrix needs at least 2 rankers, got {n_rankers}")
    first, second = ranker_pairs(n_rankers)
    logger.info(
        "simulating %d pairs x %d %s comparisons (%s clicks) on %d queries",
        first.size,
        comparisons_per_pair,
        method,
        click_model.name,
        data.n_queries,
    )
    counts = _run_tasks(
        rankings,
        data.labels,
        click_model,
        first,
        second,
        np.full(first.size, -1, dtype=np.int64),
        int(comparisons_per_pair),
        rng,
        method,
        credit_ties,
        tau,
        list_length,
        threads,
        progress,
        f"{click_model.name} {n_rankers}x{n_rankers}",
    )
    wins = np.zeros((n_rankers, n_rankers), dtype=np.int64)
    ties = np.zeros((n_rankers, n_rankers), dtype=np.int64)
    wins[first, second] = counts[:, 0]
    wins[second, first] = counts[:, 2]
    ties[first, second] = ties[second, first] = counts[:, 1]
    return PreferenceEstimate(
        rankers=rankings.rankers,
        wins=wins,
        ties=ties,
        comparisons_per_pair=int(comparisons_per_pair),
        click_model=click_model.name,
        method=method,
        credit_ties=credit_ties,
        tau=float(tau),
        list_length=int(list_length),
    )


@dataclass(frozen=True)
class PerQueryMatrices:
    """Per-query expected-outcome matrices with the query contexts (module docstring)."""

    matrices: NDArray[np.float64]
    features: NDArray[np.float64]
    qids: NDArray[np.int64]
    n_documents: NDArray[np.int64]
    truncated: NDArray[np.bool_]
    rankers: NDArray[np.int64]
    comparisons_per_pair: int
    click_model: str
    method: str
    credit_ties: str
    tau: float
    list_length: int

    @property
    def standard_error_bound(self) -> float:
        """Upper bound ``1 / sqrt(N)`` on the standard error of every entry."""
        return 1.0 / math.sqrt(self.comparisons_per_pair)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the ``.npz`` described in the module docstring (atomically)."""
        with atomic_path(path) as temporary, open(temporary, "wb") as stream:
            np.savez(
                stream,
                matrices=self.matrices,
                features=self.features,
                qids=self.qids,
                n_documents=self.n_documents,
                truncated=self.truncated,
                rankers=self.rankers,
                **_settings_arrays(self),
            )

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> PerQueryMatrices:
        """Read a file written by :meth:`save`.

        Raises
        ------
        KeyError
            If an array of the format is missing (the message names the file, the missing
            arrays and those it has).
        """
        with np.load(path, allow_pickle=False) as archive:
            arrays = ("matrices", "features", "qids", "n_documents", "truncated", "rankers")
            missing = [name for name in (*arrays, *_SETTINGS) if name not in archive.files]
            if missing:
                raise KeyError(
                    f"{os.fspath(path)} lacks {missing}; it has {sorted(archive.files)} (the "
                    "per-query matrices format of cdbandits.letor.matrices)"
                )
            return cls(
                matrices=archive["matrices"],
                features=archive["features"],
                qids=archive["qids"],
                n_documents=archive["n_documents"],
                truncated=archive["truncated"],
                rankers=archive["rankers"],
                **_settings_from(archive),
            )


def estimate_per_query_matrices(
    data: LetorData,
    rankers: Sequence[int],
    click_model: CascadeClickModel,
    comparisons_per_pair: int,
    rng: np.random.Generator,
    *,
    method: InterleaveMethod = "probabilistic",
    credit_ties: CreditTies = "shared",
    tau: float = DEFAULT_TAU,
    list_length: int = DEFAULT_LIST_LENGTH,
    threads: int | None = None,
    progress: bool = True,
) -> PerQueryMatrices:
    """Monte Carlo estimate of every query's expected-outcome matrix for ``K`` rankers.

    Parameters
    ----------
    data : LetorData
        Queries and documents.
    rankers : sequence of int
        The ``K`` feature columns (0-based), in matrix order.
    click_model : CascadeClickModel
        The simulated user.
    comparisons_per_pair : int
        ``N``, comparisons per unordered pair *per query*.
    rng : numpy.random.Generator
        Source of randomness.
    method, credit_ties, tau, list_length, threads, progress
        As in :func:`estimate_preference_matrix`.

    Returns
    -------
    PerQueryMatrices
    """
    rankings = feature_rankings(data, rankers)
    n_rankers = rankings.n_rankers
    if n_rankers < 2:
        raise ValueError(f"per-query matrices need at least 2 rankers, got {n_rankers}")
    if len(set(rankings.rankers.tolist())) != n_rankers:
        raise ValueError(f"the rankers must be distinct, got {list(rankings.rankers)}")
    first, second = ranker_pairs(n_rankers)
    n_pairs, n_queries = first.size, data.n_queries
    counts = _run_tasks(
        rankings,
        data.labels,
        click_model,
        np.tile(first, n_queries),
        np.tile(second, n_queries),
        np.repeat(np.arange(n_queries, dtype=np.int64), n_pairs),
        int(comparisons_per_pair),
        rng,
        method,
        credit_ties,
        tau,
        list_length,
        threads,
        progress,
        f"{click_model.name} per query {n_rankers}x{n_rankers}",
    ).reshape(n_queries, n_pairs, 3)
    matrices = np.zeros((n_queries, n_rankers, n_rankers))
    outcome = (counts[:, :, 0] - counts[:, :, 2]) / float(comparisons_per_pair)
    matrices[:, first, second] = outcome
    matrices[:, second, first] = -outcome
    return PerQueryMatrices(
        matrices=matrices,
        features=data.query_means(),
        qids=data.qids,
        n_documents=data.documents_per_query,
        truncated=data.truncated,
        rankers=rankings.rankers,
        comparisons_per_pair=int(comparisons_per_pair),
        click_model=click_model.name,
        method=method,
        credit_ties=credit_ties,
        tau=float(tau),
        list_length=int(list_length),
    )
