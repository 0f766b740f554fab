"""Relative confidence bounds and random-tie argmax, shared by the UCB- and TS-type algorithms.

RUCB (Zoghi et al., 2014) introduced the bounds every later algorithm of this package reuses:
with ``W[i, j]`` the number of wins of arm ``i`` over arm ``j`` and ``N = W + W^T``,

``U = W / N + sqrt(alpha * log(t) / N)``,  ``L = W / N - sqrt(alpha * log(t) / N)``,

element-wise, with the paper's convention ``x / 0 := 1`` applied to *each* quotient: a pair
never compared has ``u_ij = 1 + 1 = 2`` and ``l_ij = 1 - 1 = 0``. The diagonal is
``u_ii = l_ii = 1/2``. MergeRUCB and MergeDTS replace ``log(t)`` by ``log(t + C)``; callers
pass the logarithm they need.

Both forms here compute the same floating-point numbers (the same operations in the same
order; ``log`` is taken once per round, outside): :func:`confidence_bounds` for the NumPy
implementations, :func:`upper_bound` and :func:`lower_bound` for the kernels.
"""

from __future__ import annotations

import math

import numba
import numpy as np
from numpy.typing import NDArray

from ..dueling.draws import pick, pick_compiled

__all__ = [
    "confidence_bounds",
    "lower_bound",
    "random_argmax",
    "random_argmax_compiled",
    "upper_bound",
]


def confidence_bounds(
    wins: NDArray[np.int64], log_term: float, alpha: float
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The matrices ``U`` and ``L`` of the module docstring.

    Parameters
    ----------
    wins : ndarray of int64, shape (K, K)
        ``W[i, j]``: wins of ``i`` over ``j`` (a square sub-matrix of it works the same).
    log_term : float
        ``log(t)`` (or ``log(t + C)``).
    alpha : float
        Exploration constant.

    Returns
    -------
    upper, lower : ndarray of float64, shape (K, K)
    """
    comparisons = wins + wins.T
    compared = comparisons > 0
    safe = np.where(compared, comparisons, 1)
    mean = np.where(compared, wins / safe, 1.0)
    radius = np.where(compared, np.sqrt(alpha * log_term / safe), 1.0)
    upper = mean + radius
    lower = mean - radius
    np.fill_diagonal(upper, 0.5)
    np.fill_diagonal(lower, 0.5)
    return upper, lower


@numba.njit(cache=True)
def upper_bound(wins_ij: int, wins_ji: int, log_term: float, alpha: float) -> float:
    """``u_ij`` for ``i != j`` (2 when the pair was never compared)."""
    comparisons = wins_ij + wins_ji
    if comparisons == 0:
        return 2.0
    return wins_ij / comparisons + math.sqrt(alpha * log_term / comparisons)


@numba.njit(cache=True)
def lower_bound(wins_ij: int, wins_ji: int, log_term: float, alpha: float) -> float:
    """``l_ij`` for ``i != j`` (0 when the pair was never compared)."""
    comparisons = wins_ij + wins_ji
    if comparisons == 0:
        return 0.0
    return wins_ij / comparisons - math.sqrt(alpha * log_term / comparisons)


def random_argmax(
    values: NDArray[np.float64],
    candidates: NDArray[np.int64],
    rng: np.random.Generator,
    avoid: int = -1,
) -> int:
    """The candidate with the largest value; ties by :func:`~cdbandits.dueling.draws.pick`.

    ``avoid`` (an arm) is dropped from a tie of two or more (RUCB's "if there is a tie, d is
    not allowed to be equal to c").
    """
    scores = values[candidates]
    tied = candidates[scores == scores.max()]
    if tied.size > 1 and avoid in tied:
        tied = tied[tied != avoid]
    return int(tied[pick(rng, tied.size)])


@numba.njit(cache=True)
def random_argmax_compiled(
    values: NDArray[np.float64],
    candidates: NDArray[np.int64],
    n_candidates: int,
    rng: np.random.Generator,
    avoid: int,
    tied: NDArray[np.int64],
) -> int:
    """:func:`random_argmax` over ``candidates[:n_candidates]``; ``tied`` is scratch space."""
    best = -np.inf
    for k in range(n_candidates):
        if values[candidates[k]] > best:
            best = values[candidates[k]]
    n_tied = 0
    has_avoid = False
    for k in range(n_candidates):
        arm = candidates[k]
        if values[arm] == best:
            tied[n_tied] = arm
            n_tied += 1
            has_avoid = has_avoid or arm == avoid
    if n_tied > 1 and has_avoid:
        kept = 0
        for k in range(n_tied):
            if tied[k] != avoid:
                tied[kept] = tied[k]
                kept += 1
        n_tied = kept
    return tied[pick_compiled(rng, n_tied)]
