"""Linear rankers over LETOR features: the online learning-to-rank environment of DBGD.

A linear ranker ``w`` scores a document with features ``x`` by ``w . x`` and ranks a query's
documents by descending score, ties broken uniformly at random (as the feature rankers of
:mod:`cdbandits.letor.rankers`). A :class:`RankingEnvironment` holds what a comparison of two
rankers needs: per-query normalised features, relevance labels, the click model and the
interleaving method (:mod:`cdbandits.letor.interleave`), and the *reference ranker* regret
is measured against.

**Features** are normalised per query (LETOR's "QueryLevelNorm"): each feature is mapped to
``[0, 1]`` by its minimum and maximum over the query's documents (0 where it is constant).

**Offline quality** is NDCG@k with gains ``2^label - 1`` and discounts ``1 / log2(p + 2)``
(position ``p`` from 0), its *expectation over the random tie-breaking*: a tie group filling
positions ``s .. e - 1`` contributes its mean gain times the sum of the discounts of its
positions below ``k`` (:func:`expected_ndcg`). Queries without a relevant document (ideal DCG
0) are left out of the mean.

**The reference ranker** is the best single LETOR feature by this offline NDCG@10 on the
environment's queries (:func:`best_feature_ranker`): the strongest of the 136 feature rankers
the published MSLR matrices compare, by the measure their relevance labels define.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numba
import numpy as np
from numpy.typing import NDArray

from ..letor import (
    DEFAULT_LIST_LENGTH,
    DEFAULT_TAU,
    METHODS,
    CascadeClickModel,
    InterleaveMethod,
    LetorData,
    rank_weights,
)

__all__ = [
    "NDCG_CUTOFF",
    "RankingEnvironment",
    "best_feature_ranker",
    "expected_ndcg",
    "normalise_per_query",
    "query_ndcg_compiled",
    "ranking_environment",
]

#: The ``k`` of NDCG@k.
NDCG_CUTOFF = 10


def normalise_per_query(data: LetorData) -> NDArray[np.float64]:
    """Min-max normalised features per query (module docstring), shape (n_documents, d)."""
    features = np.asarray(data.features, dtype=np.float64)
    normalised = np.zeros_like(features)
    offsets = data.query_offsets
    for query in range(data.n_queries):
        rows = slice(int(offsets[query]), int(offsets[query + 1]))
        block = features[rows]
        low = block.min(axis=0)
        span = block.max(axis=0) - low
        varying = span > 0
        normalised[rows, varying] = (block[:, varying] - low[varying]) / span[varying]
    return normalised


@numba.njit(cache=True)
def query_ndcg_compiled(scores, labels, cutoff):
    """Expected NDCG@cutoff of one query's documents ranked by ``scores`` (module docstring);
    NaN when the query has no relevant document."""
    n = scores.size
    gains = np.empty(n)
    for i in range(n):
        gains[i] = 2.0 ** labels[i] - 1.0
    ideal_gains = np.sort(gains)[::-1]
    ideal = 0.0
    for p in range(min(cutoff, n)):
        ideal += ideal_gains[p] / math.log2(p + 2.0)
    if ideal == 0.0:
        return np.nan
    order = np.argsort(-scores, kind="mergesort")
    dcg = 0.0
    start = 0
    while start < min(cutoff, n):
        stop = start + 1
        while stop < n and scores[order[stop]] == scores[order[start]]:
            stop += 1
        mean_gain = 0.0
        for p in range(start, stop):
            mean_gain += gains[order[p]]
        mean_gain /= stop - start
        for p in range(start, min(stop, cutoff)):
            dcg += mean_gain / math.log2(p + 2.0)
        start = stop
    return dcg / ideal


@numba.njit(cache=True)
def _mean_ndcg(features, labels, offsets, weights, cutoff):
    total = 0.0
    counted = 0
    for query in range(offsets.size - 1):
        first, stop = offsets[query], offsets[query + 1]
        scores = np.empty(stop - first)
        for i in range(stop - first):
            total_score = 0.0
            for j in range(weights.size):
                total_score += features[first + i, j] * weights[j]
            scores[i] = total_score
        value = query_ndcg_compiled(scores, labels[first:stop], cutoff)
        if not np.isnan(value):
            total += value
            counted += 1
    return total / counted if counted else np.nan


def expected_ndcg(
    features: NDArray[np.float64],
    labels: NDArray[np.integer],
    query_offsets: NDArray[np.int64],
    weights: NDArray[np.float64],
    cutoff: int = NDCG_CUTOFF,
) -> float:
    """Mean over queries of the expected NDCG@``cutoff`` of the linear ranker ``weights``.

    Parameters
    ----------
    features : ndarray, shape (n_documents, d)
    labels : ndarray of int, shape (n_documents,)
    query_offsets : ndarray of int64, shape (n_queries + 1,)
    weights : ndarray, shape (d,)
        The ranker (a unit vector ``e_k`` is feature ``k``'s ranker).
    cutoff : int, optional
    """
    w = np.ascontiguousarray(weights, dtype=np.float64)
    if w.shape != (features.shape[1],):
        raise ValueError(f"weights must have shape ({features.shape[1]},); got {w.shape}")
    return float(
        _mean_ndcg(
            np.ascontiguousarray(features, dtype=np.float64),
            np.asarray(labels, dtype=np.int64),
            np.asarray(query_offsets, dtype=np.int64),
            w,
            int(cutoff),
        )
    )


def best_feature_ranker(
    features: NDArray[np.float64],
    labels: NDArray[np.integer],
    query_offsets: NDArray[np.int64],
    cutoff: int = NDCG_CUTOFF,
) -> tuple[int, NDArray[np.float64]]:
    """The feature whose ranker has the highest :func:`expected_ndcg` (lowest index on a
    tie), and every feature's value."""
    d = features.shape[1]
    values = np.array(
        [expected_ndcg(features, labels, query_offsets, np.eye(d)[k], cutoff) for k in range(d)]
    )
    return int(np.nanargmax(values)), values


@dataclass(frozen=True)
class RankingEnvironment:
    """Queries, their documents and how two rankers are compared; see the module docstring.

    Attributes
    ----------
    features : ndarray of float64, shape (n_documents, d)
        Per-query normalised features.
    labels : ndarray of int64, shape (n_documents,)
    query_offsets : ndarray of int64, shape (n_queries + 1,)
    click_model : cdbandits.letor.CascadeClickModel
    method : {"probabilistic", "team_draft"}
    reference : int
        The reference ranker's feature.
    length : int
        Longest shown list.
    tau : float
        Probabilistic Interleave's rank exponent.
    name : str
    """

    features: NDArray[np.float64]
    labels: NDArray[np.int64]
    query_offsets: NDArray[np.int64]
    click_model: CascadeClickModel
    method: InterleaveMethod
    reference: int
    length: int = DEFAULT_LIST_LENGTH
    tau: float = DEFAULT_TAU
    name: str = "letor"

    def __post_init__(self) -> None:
        if self.method not in METHODS:
            raise ValueError(f"unknown interleaving method {self.method!r}; use {sorted(METHODS)}")
        if not 0 <= self.reference < self.n_features:
            raise ValueError(f"reference must be a feature in 0..{self.n_features - 1}")
        self.click_model.check_labels(self.labels)

    @property
    def n_features(self) -> int:
        """Feature dimension ``d``."""
        return int(self.features.shape[1])

    @property
    def n_queries(self) -> int:
        """Number of queries."""
        return int(self.query_offsets.size - 1)

    def ndcg(self, weights: NDArray[np.float64]) -> float:
        """:func:`expected_ndcg` of ``weights`` on these queries."""
        return expected_ndcg(self.features, self.labels, self.query_offsets, weights)

    def rank_weights(self) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Probabilistic Interleave's weights for the longest query."""
        return rank_weights(int(np.diff(self.query_offsets).max()), self.tau)


def ranking_environment(
    data: LetorData,
    click_model: CascadeClickModel,
    method: InterleaveMethod = "probabilistic",
    *,
    reference: int | None = None,
    name: str | None = None,
) -> RankingEnvironment:
    """The environment of ``data``'s queries; the reference is the best feature ranker
    (:func:`best_feature_ranker`) unless given."""
    features = normalise_per_query(data)
    labels = np.asarray(data.labels, dtype=np.int64)
    offsets = np.asarray(data.query_offsets, dtype=np.int64)
    chosen = best_feature_ranker(features, labels, offsets)[0] if reference is None else reference
    label = name or f"letor-{click_model.name}-{method}"
    return RankingEnvironment(
        features, labels, offsets, click_model, method, int(chosen), name=label
    )
