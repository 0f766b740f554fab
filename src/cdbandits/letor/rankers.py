"""Feature rankers: each LETOR feature ranks a query's documents by its value, descending.

Ranker ``k`` (0-based) is LETOR feature ``k + 1``. Documents with equal values are *tied*;
ties are broken uniformly at random, afresh for every comparison (as Lerot's feature rankers
do). Simulating millions of comparisons therefore cannot afford to sort per comparison, so
:func:`feature_rankings` sorts once and keeps, for every ranker and query, the documents in
descending order with ties adjacent in a fixed order, plus where each tie group starts and
ends. The simulation kernels (:mod:`cdbandits.letor.interleave`) draw the random order
inside a tie group lazily, only for the positions they look at.

:func:`rank_documents` breaks the ties of one query with a :class:`numpy.random.Generator`,
for code that wants one explicit ranking.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numba
import numpy as np
from numpy.typing import ArrayLike, NDArray

from .reader import LetorData

__all__ = ["FeatureRankings", "feature_rankings", "rank_documents", "sort_queries"]


@dataclass(frozen=True)
class FeatureRankings:
    """Sorted documents of every (ranker, query), with tie groups.

    All arrays of shape ``(n_rankers, n_documents)`` are indexed by ranker and by the global
    row of a *position*: for query ``q`` with rows ``o = query_offsets[q]`` to
    ``query_offsets[q + 1]``, entry ``[r, o + p]`` describes rank position ``p`` (0 = top)
    of ranker ``r``. Document numbers are local to the query (``0..n_q - 1``).

    Attributes
    ----------
    rankers : ndarray of int64, shape (n_rankers,)
        Feature column of each ranker (0-based: ranker ``k`` uses LETOR feature ``k + 1``).
    order : ndarray, shape (n_rankers, n_documents)
        Local document at each position, by descending feature value, tied documents
        adjacent in ascending local number.
    position : ndarray, shape (n_rankers, n_documents)
        Inverse of ``order``: entry ``[r, o + d]`` is the position of local document ``d``.
    tie_start, tie_end : ndarray, shape (n_rankers, n_documents)
        The tie group containing position ``p`` is positions ``tie_start .. tie_end - 1``.
    query_offsets : ndarray of int64, shape (n_queries + 1,)
        As in :class:`~cdbandits.letor.reader.LetorData`.
    """

    rankers: NDArray[np.int64]
    order: NDArray[np.integer]
    position: NDArray[np.integer]
    tie_start: NDArray[np.integer]
    tie_end: NDArray[np.integer]
    query_offsets: NDArray[np.int64]

    @property
    def n_rankers(self) -> int:
        """Number of rankers."""
        return int(self.rankers.size)

    @property
    def max_documents(self) -> int:
        """Largest number of documents of a query."""
        return int(np.max(np.diff(self.query_offsets)))

    def ranking(self, ranker: int, query: int, rng: np.random.Generator) -> NDArray[np.int64]:
        """One ranking of ``query`` by the ``ranker``-th ranker, ties broken with ``rng``."""
        rows = slice(int(self.query_offsets[query]), int(self.query_offsets[query + 1]))
        order = self.order[ranker, rows].astype(np.int64)
        starts = np.unique(self.tie_start[ranker, rows])
        ends = self.tie_end[ranker, rows][starts]
        for start, end in zip(starts, ends, strict=True):
            if end - start > 1:
                order[start:end] = rng.permutation(order[start:end])
        return order


@numba.njit(cache=True)
def sort_queries(
    values: NDArray[np.float64],
    offsets: NDArray[np.int64],
    order: NDArray[np.integer],
    position: NDArray[np.integer],
    tie_start: NDArray[np.integer],
    tie_end: NDArray[np.integer],
) -> None:
    """Sort each query's documents by decreasing ``values`` (stable), in place (compiled).

    ``offsets`` delimit the queries; for each document, ``order`` gets the query-local
    document at each rank, ``position`` the document's rank, and ``tie_start``/``tie_end``
    the first and one-past-last rank of its group of equal values.
    """
    for query in range(offsets.size - 1):
        first, stop = offsets[query], offsets[query + 1]
        local = np.argsort(-values[first:stop], kind="mergesort")
        n = stop - first
        for p in range(n):
            order[first + p] = local[p]
            position[first + local[p]] = p
        start = 0
        for p in range(1, n + 1):
            if p == n or values[first + local[p]] != values[first + local[start]]:
                for member in range(start, p):
                    tie_start[first + member] = start
                    tie_end[first + member] = p
                start = p


def feature_rankings(data: LetorData, rankers: Sequence[int] | None = None) -> FeatureRankings:
    """Sort every query's documents by each ranker's feature.

    Parameters
    ----------
    data : LetorData
        The documents.
    rankers : sequence of int, optional
        Feature columns to use as rankers (0-based); default all ``data.n_features``.

    Returns
    -------
    FeatureRankings

    Raises
    ------
    ValueError
        If a ranker is not a column of ``data`` or a feature value is not finite.
    """
    chosen = np.arange(data.n_features) if rankers is None else np.asarray(rankers, dtype=np.int64)
    if chosen.ndim != 1 or chosen.size == 0:
        raise ValueError(f"rankers must be a non-empty list of feature columns, got {rankers!r}")
    outside = chosen[(chosen < 0) | (chosen >= data.n_features)]
    if outside.size:
        raise ValueError(
            f"ranker {int(outside[0])} is not a feature column (0..{data.n_features - 1})"
        )
    largest_query = int(np.max(data.documents_per_query))
    dtype = np.int16 if largest_query < np.iinfo(np.int16).max else np.int32
    shape = (chosen.size, data.n_documents)
    arrays = [np.empty(shape, dtype=dtype) for _ in range(4)]
    for index, column in enumerate(chosen):
        values = np.ascontiguousarray(data.features[:, column], dtype=np.float64)
        if not np.all(np.isfinite(values)):
            row = int(np.flatnonzero(~np.isfinite(values))[0])
            raise ValueError(f"feature column {int(column)} is {values[row]} on document row {row}")
        sort_queries(values, data.query_offsets, *(array[index] for array in arrays))
    order, position, tie_start, tie_end = arrays
    return FeatureRankings(
        rankers=chosen,
        order=order,
        position=position,
        tie_start=tie_start,
        tie_end=tie_end,
        query_offsets=data.query_offsets,
    )


def rank_documents(scores: ArrayLike, rng: np.random.Generator) -> NDArray[np.int64]:
    """Rank one query's documents by descending score, ties broken uniformly at random.

    Parameters
    ----------
    scores : array_like, shape (n,)
        Score of each document.
    rng : numpy.random.Generator
        Source of the tie-breaking.

    Returns
    -------
    ndarray of int64, shape (n,)
        Document indices, best first.

    Examples
    --------
    >>> rank_documents([0.1, 0.9, 0.5], np.random.default_rng(0))
    array([1, 2, 0])
    """
    values = np.asarray(scores, dtype=np.float64)
    if values.ndim != 1:
        raise ValueError(f"scores must be one-dimensional, got shape {values.shape}")
    return np.lexsort((rng.random(values.size), -values)).astype(np.int64)
