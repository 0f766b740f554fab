"""Which confidence bounds are on which side of 1/2, kept up to date in O(K) per round.

RUCB, CCB and D-TS read the bounds ``u_ij`` and ``l_ij`` of :mod:`.confidence` mostly
through their comparisons with 1/2: RUCB's candidates have ``u_ij >= 1/2`` for every
``j``, CCB's optimistic and pessimistic Copeland scores count ``u_ij >= 1/2`` and
``l_ij >= 1/2``, D-TS's upper Copeland score counts ``u_ij > 1/2``. Recomputing them costs
``K^2`` bounds per round. Between two duels of a pair its counts are fixed and only
``log(t)`` grows, so ``u_ij`` rises and ``l_ij`` falls (also in floating point: every
operation of :func:`.confidence.upper_bound` is monotone in ``log(t)``); both cross 1/2
when ``log(t)`` passes ``x = n (1/2 - w / n)^2 / alpha`` (``n`` duels, ``w`` wins), the
comparison ``u_ij >= 1/2`` from false to true and ``l_ij >= 1/2`` from true to false,
each at most once.

The tracker keeps, for every ordered pair, the two comparisons (``upper_holds``:
``u_ij >= 1/2``, or ``> 1/2`` when ``strict``; ``lower_holds``: ``l_ij >= 1/2``), their row
counts, and the round ``due`` at which the pair must be looked at again: never when
neither comparison can change before the pair's next duel, else a round no later than
the crossing (:func:`crossing_round`, computed from ``exp(x)`` with a margin that covers
the rounding of the bounds, so the look may come a round or two early and is then
repeated). Each round :func:`refresh` re-evaluates, with the very bounds the algorithms
compute, the pairs that are due, in the rows whose earliest due round has come
(:func:`after_duel` makes the duelled pair due in the next round). A row is looked at
when one of its pairs crossed or was duelled, so the work per round is O(K) amortised:
at most one crossing per duel.
"""

from __future__ import annotations

import math

import numba
import numpy as np
from numpy.typing import NDArray

from .confidence import lower_bound, upper_bound

__all__ = ["NEVER", "Tracker", "after_duel", "crossing_round", "new_tracker", "refresh"]

#: A due round that never comes.
NEVER = np.iinfo(np.int64).max

#: ``log`` of the largest round :func:`crossing_round` returns (about 4.7e18 < 2^63).
_LARGEST_LOG_ROUND = 43.0

#: The tracker's arrays: ``upper_holds``, ``lower_holds`` (bool, K x K), ``due`` (int64,
#: K x K), ``row_due``, ``upper_counts``, ``lower_counts`` (int64, K).
Tracker = tuple[
    NDArray[np.bool_],
    NDArray[np.bool_],
    NDArray[np.int64],
    NDArray[np.int64],
    NDArray[np.int64],
    NDArray[np.int64],
]


@numba.njit(cache=True)
def crossing_round(wins_ij: int, wins_ji: int, alpha: float) -> int:
    """A round no later than the first at which ``u_ij`` or ``l_ij`` crosses 1/2.

    ``exp(x)`` of the module docstring, lowered by a relative margin of
    ``1e-6 + 1e-13 n``: the computed bounds differ from the exact ones by a few units in
    the last place, which moves the crossing by less than ``2e-15 n`` in ``log(t)``.
    ``NEVER`` for a pair never compared (its bounds stay 2 and 0).
    """
    comparisons = wins_ij + wins_ji
    if comparisons == 0:
        return NEVER
    gap = 0.5 - wins_ij / comparisons
    exponent = comparisons * gap * gap / alpha - (1e-6 + 1e-13 * comparisons)
    if exponent >= _LARGEST_LOG_ROUND:
        return NEVER
    return int(math.exp(exponent))


@numba.njit(cache=True)
def new_tracker(n_arms: int) -> Tracker:
    """A tracker with every pair due at once (its comparisons not yet evaluated)."""
    upper_holds = np.zeros((n_arms, n_arms), dtype=np.bool_)
    lower_holds = np.zeros((n_arms, n_arms), dtype=np.bool_)
    due = np.zeros((n_arms, n_arms), dtype=np.int64)
    for i in range(n_arms):
        due[i, i] = NEVER
    row_due = np.zeros(n_arms, dtype=np.int64)
    upper_counts = np.zeros(n_arms, dtype=np.int64)
    lower_counts = np.zeros(n_arms, dtype=np.int64)
    return upper_holds, lower_holds, due, row_due, upper_counts, lower_counts


@numba.njit(cache=True)
def _refresh_row(
    tracker: Tracker,
    row: int,
    wins: NDArray[np.int64],
    t: int,
    log_t: float,
    alpha: float,
    strict: bool,
) -> None:
    upper_holds, lower_holds, due, row_due, upper_counts, lower_counts = tracker
    earliest = NEVER
    for j in range(wins.shape[0]):
        if due[row, j] <= t:
            upper = upper_bound(wins[row, j], wins[j, row], log_t, alpha)
            above = upper > 0.5 if strict else upper >= 0.5
            sure = lower_bound(wins[row, j], wins[j, row], log_t, alpha) >= 0.5
            if above != upper_holds[row, j]:
                upper_holds[row, j] = above
                upper_counts[row] += 1 if above else -1
            if sure != lower_holds[row, j]:
                lower_holds[row, j] = sure
                lower_counts[row] += 1 if sure else -1
            if above and not sure:
                due[row, j] = NEVER  # neither comparison changes before the next duel
            else:
                due[row, j] = max(crossing_round(wins[row, j], wins[j, row], alpha), t + 1)
        earliest = min(earliest, due[row, j])
    row_due[row] = earliest


@numba.njit(cache=True)
def refresh(
    tracker: Tracker,
    wins: NDArray[np.int64],
    t: int,
    alpha: float,
    strict: bool,
    refreshed: NDArray[np.int64],
) -> int:
    """Bring every comparison up to round ``t``; the rows looked at go to ``refreshed``.

    Parameters
    ----------
    tracker : Tracker
    wins : ndarray of int64, shape (K, K)
    t : int
        The round (1-based); the bounds use ``log(t)``.
    alpha : float
    strict : bool
        Whether ``upper_holds`` means ``u_ij > 1/2`` (D-TS) rather than ``>= 1/2``.
    refreshed : ndarray of int64, shape (K,)
        Receives the rows re-evaluated, in increasing order.

    Returns
    -------
    int
        The number of rows re-evaluated.
    """
    row_due = tracker[3]
    log_t = math.log(t)
    n_refreshed = 0
    for row in range(wins.shape[0]):
        if row_due[row] <= t:
            _refresh_row(tracker, row, wins, t, log_t, alpha, strict)
            refreshed[n_refreshed] = row
            n_refreshed += 1
    return n_refreshed


@numba.njit(cache=True)
def after_duel(tracker: Tracker, a: int, b: int, next_round: int) -> None:
    """Make the pair just duelled due in ``next_round`` (nothing for a self-duel)."""
    if a == b:
        return
    due, row_due = tracker[2], tracker[3]
    due[a, b] = next_round
    due[b, a] = next_round
    row_due[a] = min(row_due[a], next_round)
    row_due[b] = min(row_due[b], next_round)
