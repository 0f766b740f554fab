"""Resampled wins of the pairs of a log: the bootstrap and the Beta posterior draws.

The draws of :mod:`.uncertainty` (see its module docstring for the two methods), in two
layouts: over the *compared* pairs (:attr:`.counts.PairCounts.pairs`;
:func:`compared_bootstrap_wins`, :func:`compared_posterior_wins`), for logs of any size, and
over *all* pairs of :func:`pair_index` (:func:`bootstrap_pair_wins`,
:func:`posterior_pair_wins`, with :func:`skew_stack` to make the matrices), for logs of few
items. Both come from the same random draws: a bootstrap draws the multiplicities of the
resampling units once, whichever layout it fills.

Both estimands of :mod:`.counts` are resampled consistently: a bootstrap resample's matrix
is made from its wins by the log's own rule (:func:`.counts.skew_values`; margins divided
by the log's constant ``c``, so that every resample is on the log's scale). The posterior
draws each pair's rate ``Q[i, j]``; for the margins it holds each pair's number of
comparisons ``n[i, j]`` at its observed value (the design of the log) and yields
``n[i, j] Q`` and ``n[i, j] (1 - Q)`` as wins, whose margin is ``n[i, j] (2 Q - 1) / c``;
a pair never compared then has margin 0 in every draw.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..limits import CHUNK_ENTRIES
from .counts import PairCounts, count_pairs, skew_values
from .records import FIRST_WINS, TIE, ComparisonLog, ComparisonLogError
from .settings import MatrixEstimand

__all__ = [
    "DENSE_UNIT_ENTRIES",
    "bootstrap_pair_wins",
    "compared_bootstrap_wins",
    "compared_posterior_wins",
    "pair_index",
    "posterior_pair_wins",
    "skew_stack",
]

#: The units' contributions are a dense array up to this many entries, else a sparse one
#: (the same sums; a small log spares loading scipy).
DENSE_UNIT_ENTRIES = 1_000_000


def pair_index(k: int) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """The pairs ``i < j`` of ``k`` items in the order used for pair-wise arrays."""
    rows, cols = np.triu_indices(k, 1)
    return rows.astype(np.int64), cols.astype(np.int64)


def _all_pair_positions(pairs: NDArray[np.int64], k: int) -> NDArray[np.int64]:
    """Positions of the pairs ``(i, j)``, ``i < j``, in :func:`pair_index` order."""
    i, j = pairs[:, 0], pairs[:, 1]
    return i * k - i * (i + 1) // 2 + (j - i - 1)


def _resampling_units(
    log: ComparisonLog, pairs: NDArray[np.int64]
) -> tuple[Any, NDArray[np.int64]]:
    """Contributions of the resampling units to the wins of the compared pairs, and counts.

    ``pairs`` are the log's compared pairs (:attr:`.counts.PairCounts.pairs`). Column ``p``
    of a contribution counts the wins of the lower item of pair ``p``, column
    ``n_pairs + p`` those of the higher one; a tie adds 1/2 to both. Without groups, the
    identical comparisons form one unit (a code per pair and outcome) whose multiplicity is
    their total weight; with groups, a unit is a group, its contribution the sum of its
    records and its multiplicity the group's weight.
    """
    k = len(log.items)
    n_pairs = pairs.shape[0]
    lower = np.minimum(log.first, log.second)
    pair = np.searchsorted(
        pairs[:, 0] * k + pairs[:, 1], lower * k + np.maximum(log.first, log.second)
    )
    lower_first = log.first < log.second
    lower_wins = np.where(log.outcome == FIRST_WINS, lower_first, ~lower_first)
    tie = log.outcome == TIE
    # 0..n_pairs-1: the lower item won; n_pairs..2n_pairs-1: the higher; then ties.
    code = np.where(tie, 2 * n_pairs + pair, np.where(lower_wins, pair, n_pairs + pair))
    if log.group is None:
        codes, unit_of_row = np.unique(code, return_inverse=True)
        multiplicity = np.bincount(unit_of_row, log.weight, codes.size)
        unit_of_code = np.arange(codes.size)
    else:
        groups, unit_of_row = np.unique(log.group, return_inverse=True)
        multiplicity = np.zeros(groups.size)
        multiplicity[unit_of_row] = log.weight  # constant within a group
        codes, unit_of_code = code, unit_of_row
    tied = codes >= 2 * n_pairs
    rows = np.concatenate([unit_of_code[~tied], unit_of_code[tied], unit_of_code[tied]])
    columns = np.concatenate([codes[~tied], codes[tied] - 2 * n_pairs, codes[tied] - n_pairs])
    values = np.concatenate([np.ones(int((~tied).sum())), np.full(2 * int(tied.sum()), 0.5)])
    shape = (multiplicity.size, 2 * n_pairs)
    if shape[0] * shape[1] <= DENSE_UNIT_ENTRIES:
        contributions = np.zeros(shape)
        np.add.at(contributions, (rows, columns), values)
    else:
        from scipy import sparse

        contributions = sparse.csr_array((values, (rows, columns)), shape=shape)
    rounded = np.rint(multiplicity)
    fractional = np.flatnonzero((np.abs(multiplicity - rounded) > 1e-9) | (rounded < 1))
    if fractional.size:
        raise ComparisonLogError(
            "the bootstrap resamples whole comparisons and needs integer weights of at least "
            f"1, but a unit has weight {multiplicity[fractional[0]]:g}; use the Beta "
            "posterior for fractional weights"
        )
    return contributions, rounded.astype(np.int64)


def compared_bootstrap_wins(
    log: ComparisonLog,
    pairs: NDArray[np.int64],
    resamples: int,
    rng: np.random.Generator,
    entries_per_resample: int | None = None,
) -> Iterator[NDArray[np.float64]]:
    """Wins of the lower and the higher item of every compared pair in bootstrap resamples.

    Parameters
    ----------
    log : ComparisonLog
        Already passed through :func:`.counts.apply_policy`.
    pairs : ndarray of int64, shape (n, 2)
        Its compared pairs (:attr:`.counts.PairCounts.pairs`).
    resamples : int
    rng : numpy.random.Generator
    entries_per_resample : int, optional
        Sets the chunk size (:func:`_chunk_sizes`); default the units and pairs drawn.

    Yields
    ------
    ndarray of float64, shape (chunk, 2, n)
        Chunks of resamples (sizes summing to ``resamples``); ``[:, 0]`` the wins of the
        lower item of each pair, ``[:, 1]`` the higher one's. A pair none of whose
        comparisons is drawn has no wins (its entry is 1/2).
    """
    contributions, multiplicity = _resampling_units(log, pairs)
    total = int(multiplicity.sum())
    n_pairs = pairs.shape[0]
    entries = entries_per_resample or max(2 * n_pairs, multiplicity.size)
    for size in _chunk_sizes(resamples, max(entries, multiplicity.size)):
        if total == 0:  # nothing to resample: every resample is empty too
            yield np.zeros((size, 2, n_pairs))
            continue
        draws = rng.multinomial(total, multiplicity / total, size=size)
        wins = (contributions.T @ draws.T).T
        yield np.asarray(wins).reshape(size, 2, n_pairs)


def bootstrap_pair_wins(
    log: ComparisonLog, resamples: int, rng: np.random.Generator
) -> Iterator[NDArray[np.float64]]:
    """Wins of the lower and the higher item of every pair in bootstrap resamples.

    :func:`compared_bootstrap_wins` laid out over all pairs of :func:`pair_index` (pairs
    never compared have no wins), for logs of few items.

    Parameters
    ----------
    log : ComparisonLog
        Already passed through :func:`.counts.apply_policy`.
    resamples : int
    rng : numpy.random.Generator

    Yields
    ------
    ndarray of float64, shape (chunk, 2, n_pairs)
        Chunks of resamples (sizes summing to ``resamples``); ``[:, 0]`` the wins of the
        lower item of each pair of :func:`pair_index`, ``[:, 1]`` the higher one's.
    """
    k = len(log.items)
    pairs = count_pairs(log).pairs
    positions = _all_pair_positions(pairs, k)
    for chunk in compared_bootstrap_wins(log, pairs, resamples, rng, k**2):
        wins = np.zeros((chunk.shape[0], 2, k * (k - 1) // 2))
        wins[:, :, positions] = chunk
        yield wins


def posterior_pair_wins(
    counts: PairCounts,
    resamples: int,
    rng: np.random.Generator,
    prior: tuple[float, float] = (1.0, 1.0),
) -> Iterator[NDArray[np.float64]]:
    """Beta-posterior draws of every pair's probability, as wins.

    Yields
    ------
    ndarray of float64, shape (chunk, 2, n_pairs)
        ``[:, 0]`` the drawn ``Q[i, j]`` of each pair ``i < j``, ``[:, 1] = 1 - [:, 0]``
        (the same layout as :func:`bootstrap_pair_wins`); both times the pair's number of
        comparisons when ``counts.matrix`` is ``"margins"`` (module docstring).
    """
    a, b = prior
    if not (a > 0 and b > 0):
        raise ValueError(f"the Beta prior needs positive parameters, got {prior}")
    k = len(counts.items)
    positions = _all_pair_positions(counts.pairs, k)
    upper, lower = np.zeros(k * (k - 1) // 2), np.zeros(k * (k - 1) // 2)
    upper[positions], lower[positions] = counts.pair_wins[:, 0], counts.pair_wins[:, 1]
    times = upper + lower if counts.matrix == "margins" else np.ones(upper.size)
    for size in _chunk_sizes(resamples, k**2):
        q = rng.beta(a + upper, b + lower, size=(size, upper.size))
        yield np.stack([q * times, (1.0 - q) * times], axis=1)


def compared_posterior_wins(
    counts: PairCounts,
    resamples: int,
    rng: np.random.Generator,
    prior: tuple[float, float] = (1.0, 1.0),
) -> Iterator[NDArray[np.float64]]:
    """:func:`posterior_pair_wins` of a log whose pairs were all compared, pair by pair.

    The draws are those of :func:`posterior_pair_wins` (the compared pairs are all pairs,
    in the same order), laid out over :attr:`.counts.PairCounts.pairs`.

    Raises
    ------
    ComparisonLogError
        If a pair was never compared and the matrix is the rates: the posterior draws it
        from the prior, so every resample would be a dense game of all pairs (a margin of
        a pair never compared stays 0).
    """
    k = len(counts.items)
    if counts.matrix == "margins":
        positions = _all_pair_positions(counts.pairs, k)
        for chunk in posterior_pair_wins(counts, resamples, rng, prior):
            yield chunk[:, :, positions]
        return
    if counts.n_pairs != k * (k - 1) // 2:
        raise ComparisonLogError(
            f"the Beta posterior draws each of the {k * (k - 1) // 2 - counts.n_pairs} pairs "
            f"never compared from the prior, which makes every resample of the {k} items a "
            "dense game; use the bootstrap (method 'bootstrap'), which keeps them at 1/2, or "
            "drop items until every pair was compared (unobserved 'drop-items')"
        )
    yield from posterior_pair_wins(counts, resamples, rng, prior)


def _chunk_sizes(resamples: int, entries_per_resample: int) -> list[int]:
    """Resamples per chunk, so that a chunk holds about :data:`CHUNK_ENTRIES` entries."""
    if resamples < 1:
        raise ValueError(f"resamples must be at least 1, got {resamples}")
    chunk = max(1, CHUNK_ENTRIES // max(entries_per_resample, 1))
    return [min(chunk, resamples - start) for start in range(0, resamples, chunk)]


def skew_stack(
    pair_wins: ArrayLike, k: int, matrix: MatrixEstimand = "rates", scale: float = 1.0
) -> NDArray[np.float64]:
    """Skew-form matrices from pair wins (layout of :func:`bootstrap_pair_wins`).

    By :func:`.counts.skew_values`: rates ``Q[i, j] = wins_i / (wins_i + wins_j)`` (1/2
    where the pair has no comparisons), or margins ``(wins_i - wins_j) / scale``.
    """
    wins = np.asarray(pair_wins, dtype=np.float64)
    skew = skew_values(wins[:, 0], wins[:, 1], matrix, scale)
    rows, cols = pair_index(k)
    stack = np.zeros((wins.shape[0], k, k))
    stack[:, rows, cols] = skew
    stack[:, cols, rows] = -skew
    return stack
