"""Relative Upper Confidence Bound (RUCB).

Zoghi, Whiteson, Munos and de Rijke, "Relative Upper Confidence Bound for the K-Armed
Dueling Bandit Problem", ICML 2014, Algorithm 1.
"""

from __future__ import annotations

import math

import numba
import numpy as np
from numpy.typing import NDArray

from ..dueling.checks import check_positive
from ..dueling.draws import coin, coin_compiled, pick, pick_compiled, pick_from
from .base import Arena, DuelingBanditAlgorithm, play_duel
from .confidence import confidence_bounds, random_argmax, random_argmax_compiled, upper_bound
from .crossings import after_duel, new_tracker, refresh

__all__ = ["RUCB"]


class RUCB(DuelingBanditAlgorithm):
    """RUCB (Zoghi et al., ICML 2014, Algorithm 1).

    Each round ``t`` (1-based):

    1. ``U`` as in :mod:`cdbandits.karmed.confidence` with ``log(t)`` (``x/0 := 1``, so a
       pair never compared has ``u = 2``), ``u_ii = 1/2``.
    2. Candidates ``C = {c : u_cj >= 1/2 for all j}``. If ``C`` is empty, ``c`` is uniform
       over all arms. The hypothesised best arm ``B`` (at most one arm) becomes
       ``B ∩ C``; if ``|C| = 1``, ``B = C`` and ``c`` is its arm; if ``|C| > 1``, ``c`` is
       ``B``'s arm with probability 1/2 and otherwise uniform over ``C \\ B`` (uniform over
       ``C`` when ``B`` is empty): the paper's ``p(c) = 1/2`` if ``c in B`` and
       ``1 / (2^|B| |C \\ B|)`` otherwise.
    3. ``d = argmax_j u_jc``, ties broken uniformly at random, and ``d != c`` when there is
       a tie (so ``d = c``, a self-duel, only when ``c`` is confidently better than every
       other arm).

    Choices this implementation makes where the paper leaves them open: the draws follow
    :mod:`cdbandits.dueling.draws` (step 2's 1/2 is a :func:`~cdbandits.dueling.draws.coin`,
    then a :func:`~cdbandits.dueling.draws.pick` over ``C \\ B`` in increasing order); the
    horizon ``T`` of the paper's input is not needed (the algorithm is anytime).

    The numba kernel reads the candidates off :mod:`~cdbandits.karmed.crossings` (which
    ``u_ij`` are at least 1/2, updated when a bound crosses 1/2), so a round costs O(K)
    amortised instead of ``K^2`` bounds; it plays the same duels.

    Parameters
    ----------
    alpha : float, optional
        Exploration constant ``alpha > 1/2``; 0.51, the value of the paper's experiments.

    Attributes
    ----------
    wins_ : ndarray of int64, shape (K, K)
        ``W[i, j]``: duels ``i`` won against ``j``.
    champion_ : int
        The arm of ``B``, or -1 when ``B`` is empty.
    """

    name = "rucb"

    def __init__(self, alpha: float = 0.51) -> None:
        self.alpha = check_positive("alpha", alpha, above=0.5)

    def _start(self) -> None:
        self.wins_ = np.zeros((self.n_arms_, self.n_arms_), dtype=np.int64)
        self.champion_ = -1

    def _select(self, t: int) -> tuple[int, int]:
        rng = self.rng_
        upper, _ = confidence_bounds(self.wins_, math.log(t), self.alpha)
        candidates = np.flatnonzero((upper >= 0.5).all(axis=1))
        if candidates.size == 0:
            self.champion_ = -1
            c = pick(rng, self.n_arms_)
        else:
            if self.champion_ not in candidates:
                self.champion_ = -1
            if candidates.size == 1:
                c = self.champion_ = int(candidates[0])
            elif self.champion_ >= 0:
                others = candidates[candidates != self.champion_]
                c = self.champion_ if coin(rng, 0.5) else pick_from(rng, others)
            else:
                c = pick_from(rng, candidates)
        d = random_argmax(upper[:, c], np.arange(self.n_arms_), rng, avoid=c)
        return c, d

    def _update(self, t: int, a: int, b: int, outcome: int) -> None:
        self.wins_[a, b] += outcome
        self.wins_[b, a] += 1 - outcome

    @staticmethod
    def _kernel(*arguments):
        return _rucb_rounds(*arguments)

    def _kernel_state(self) -> tuple:
        return (self.wins_, self.champion_, self.alpha)

    def _kernel_result(self, result) -> None:
        self.champion_ = result


@numba.njit(cache=True)
def _rucb_select(
    wins: NDArray[np.int64],
    champion: int,
    alpha: float,
    log_t: float,
    rng: np.random.Generator,
    above_counts: NDArray[np.int64],
    candidates: NDArray[np.int64],
    column: NDArray[np.float64],
    scratch: NDArray[np.int64],
) -> tuple[int, int, int]:
    """One round's ``(c, d)`` and the new champion (-1 for none).

    ``above_counts[i]`` is ``#{j != i : u_ij >= 1/2}`` (:mod:`.crossings`).
    """
    k = wins.shape[0]
    n_candidates = 0
    champion_in_candidates = False
    for i in range(k):
        if above_counts[i] == k - 1:
            candidates[n_candidates] = i
            n_candidates += 1
            champion_in_candidates = champion_in_candidates or i == champion
    if n_candidates == 0:
        champion = -1
        c = pick_compiled(rng, k)
    else:
        if not champion_in_candidates:
            champion = -1
        if n_candidates == 1:
            champion = candidates[0]
            c = champion
        elif champion >= 0:
            if coin_compiled(rng, 0.5):
                c = champion
            else:
                kept = 0
                for m in range(n_candidates):
                    if candidates[m] != champion:
                        candidates[kept] = candidates[m]
                        kept += 1
                c = candidates[pick_compiled(rng, kept)]
        else:
            c = candidates[pick_compiled(rng, n_candidates)]
    for j in range(k):
        column[j] = 0.5 if j == c else upper_bound(wins[j, c], wins[c, j], log_t, alpha)
        candidates[j] = j
    d = random_argmax_compiled(column, candidates, k, rng, c, scratch)
    return c, d, champion


@numba.njit(cache=True)
def _rucb_rounds(
    wins: NDArray[np.int64],
    champion: int,
    alpha: float,
    start_round: int,
    n_rounds: int,
    rng: np.random.Generator,
    arena: Arena,
) -> int:
    k = wins.shape[0]
    tracker = new_tracker(k)
    above_counts = tracker[4]
    candidates = np.empty(k, dtype=np.int64)
    column = np.empty(k)
    scratch = np.empty(k, dtype=np.int64)
    for step in range(n_rounds):
        t = start_round + step + 1
        refresh(tracker, wins, t, alpha, False, scratch)
        c, d, champion = _rucb_select(
            wins, champion, alpha, math.log(t), rng, above_counts, candidates, column, scratch
        )
        outcome = play_duel(arena, step, c, d)
        wins[c, d] += outcome
        wins[d, c] += 1 - outcome
        after_duel(tracker, c, d, t + 1)
    return champion
