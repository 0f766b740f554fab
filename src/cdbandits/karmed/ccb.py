"""Copeland Confidence Bound (CCB).

Zoghi, Karnin, Whiteson and de Rijke, "Copeland Dueling Bandits", NeurIPS 2015, Algorithm 1.
"""

from __future__ import annotations

import math

import numba
import numpy as np
from numpy.typing import NDArray

from .base import (
    DuelingBanditAlgorithm,
    check_positive,
    coin,
    coin_compiled,
    pick,
    pick_compiled,
    play_duel,
)
from .confidence import (
    confidence_bounds,
    lower_bound,
    random_argmax,
    random_argmax_compiled,
    upper_bound,
)

__all__ = ["CCB"]


class CCB(DuelingBanditAlgorithm):
    """CCB (Zoghi et al., NeurIPS 2015, Algorithm 1): regret against the Copeland winners.

    Each round ``t``, with ``U`` and ``L`` of :mod:`cdbandits.karmed.confidence`
    (``log(t)``; a pair never compared has ``u = 2``, ``l = 0``):

    * optimistic and pessimistic Copeland scores ``#{k != i : u_ik >= 1/2}`` and
      ``#{k != i : l_ik >= 1/2}``; ``C_t`` = the arms of largest optimistic score;
    * the hypotheses (``B_t``: potential Copeland winners, ``B_t^i``: arms that may beat
      ``i``, ``L_C``: the estimated largest number of losses of a Copeland winner) are
      updated by the paper's three rules: (A) reset all of them (``B_t`` = all arms,
      ``B_t^i`` empty, ``L_C = K``) if some ``j in B_t^i`` has ``l_ij > 1/2``; (B) remove
      from ``B_t`` every arm whose optimistic score is below some arm's pessimistic score,
      setting its ``B_t^i = {k : u_ik < 1/2}`` unless it already holds ``L_C + 1`` arms,
      and reset if ``B_t`` becomes empty; (C) for every ``i in C_t`` whose two scores agree,
      add ``i`` to ``B_t``, empty ``B_t^i``, set ``L_C = K - 1 - score(i)`` and cut every
      other ``B_t^j`` to ``L_C + 1`` arms chosen at random (emptying it if it is smaller);
    * with probability 1/4, ``(c, d)`` is uniform over the pairs ``j in B_t^i`` with
      ``l_ij <= 1/2 <= u_ij`` (when there are any);
    * otherwise ``C_t`` is replaced by ``B_t ∩ C_t`` with probability 2/3 (when that is
      non-empty), ``c`` is uniform over ``C_t``, and ``d = argmax u_jc`` over the arms ``j``
      with ``l_jc <= 1/2`` of ``B_t^c`` or of all arms (probability 1/2 each), ties broken
      at random with ``d != c`` when tied.

    Choices this implementation makes where the paper leaves them open: when the draw
    asks for ``B_t^c`` but no arm of it has ``l_jc <= 1/2`` (in particular when it is
    empty), ``d`` is chosen among all arms; rule (C) visits the arms of ``C_t`` in
    increasing order and keeps a random subset of ``B_t^j`` by a partial Fisher-Yates
    shuffle of its arms in increasing order (one :func:`~cdbandits.karmed.base.pick` per
    kept arm); the coins of probability 1/4, 2/3 and 1/2 are drawn every round in that
    order (the 2/3 coin only when ``B_t ∩ C_t`` is non-empty), and the 1/4 coin also when
    no exploration pair exists; exploration pairs are numbered row by row.

    Parameters
    ----------
    alpha : float, optional
        Exploration constant ``alpha > 1/2``; 0.51 as in RUCB's experiments (the value the
        D-TS authors' public code uses for CCB).

    Attributes
    ----------
    wins_ : ndarray of int64, shape (K, K)
    candidates_ : ndarray of bool, shape (K,)
        ``B_t``.
    challengers_ : ndarray of bool, shape (K, K)
        Row ``i`` is ``B_t^i``.
    max_losses_ : int
        ``L_C``.
    """

    name = "ccb"

    def __init__(self, alpha: float = 0.51) -> None:
        self.alpha = check_positive("alpha", alpha, above=0.5)

    def _start(self) -> None:
        k = self.n_arms_
        self.wins_ = np.zeros((k, k), dtype=np.int64)
        self.candidates_ = np.ones(k, dtype=bool)
        self.challengers_ = np.zeros((k, k), dtype=bool)
        self.max_losses_ = k

    def _reset_hypotheses(self) -> None:
        self.candidates_[:] = True
        self.challengers_[:] = False
        self.max_losses_ = self.n_arms_

    def _select(self, t: int) -> tuple[int, int]:
        rng, k = self.rng_, self.n_arms_
        upper, lower = confidence_bounds(self.wins_, math.log(t), self.alpha)
        off_diagonal = ~np.eye(k, dtype=bool)
        optimistic = ((upper >= 0.5) & off_diagonal).sum(axis=1)
        pessimistic = ((lower >= 0.5) & off_diagonal).sum(axis=1)
        top = np.flatnonzero(optimistic == optimistic.max())
        # (A) reset disproven hypotheses
        if (self.challengers_ & (lower > 0.5)).any():
            self._reset_hypotheses()
        # (B) remove non-Copeland winners
        for i in np.flatnonzero(self.candidates_ & (optimistic < pessimistic.max())):
            self.candidates_[i] = False
            if self.challengers_[i].sum() != self.max_losses_ + 1:
                self.challengers_[i] = upper[i] < 0.5
        if not self.candidates_.any():
            self._reset_hypotheses()
        # (C) add Copeland winners
        for i in top[optimistic[top] == pessimistic[top]]:
            self.candidates_[i] = True
            self.challengers_[i] = False
            self.max_losses_ = k - 1 - int(optimistic[i])
            keep = self.max_losses_ + 1
            for j in range(k):
                members = np.flatnonzero(self.challengers_[j])
                if j == i or members.size == keep:
                    continue
                self.challengers_[j] = False
                if members.size > keep:
                    self.challengers_[j, _random_subset(members, keep, rng)] = True
        # exploration of the challengers
        if coin(rng, 0.25):
            pairs = np.argwhere(self.challengers_ & (lower <= 0.5) & (upper >= 0.5))
            if pairs.size:
                c, d = pairs[pick(rng, len(pairs))]
                return int(c), int(d)
        winners = top
        both = top[self.candidates_[top]]
        if both.size and coin(rng, 2 / 3):
            winners = both
        c = int(winners[pick(rng, winners.size)])
        plausible = lower[:, c] <= 0.5
        if coin(rng, 0.5) and (plausible & self.challengers_[c]).any():
            plausible &= self.challengers_[c]
        d = random_argmax(upper[:, c], np.flatnonzero(plausible), rng, avoid=c)
        return c, d

    def _update(self, t: int, a: int, b: int, outcome: int) -> None:
        self.wins_[a, b] += outcome
        self.wins_[b, a] += 1 - outcome

    @staticmethod
    def _kernel(*arguments):
        return _ccb_rounds(*arguments)

    def _kernel_state(self) -> tuple:
        return (self.wins_, self.candidates_, self.challengers_, self.max_losses_, self.alpha)

    def _kernel_result(self, result) -> None:
        self.max_losses_ = result


def _random_subset(members: NDArray[np.int64], size: int, rng: np.random.Generator):
    """``size`` of ``members`` by a partial Fisher-Yates shuffle (one pick per kept item)."""
    pool = members.copy()
    for position in range(size):
        other = position + pick(rng, pool.size - position)
        pool[position], pool[other] = pool[other], pool[position]
    return pool[:size]


@numba.njit(cache=True)
def _ccb_rounds(
    wins: NDArray[np.int64],
    candidates: NDArray[np.bool_],
    challengers: NDArray[np.bool_],
    max_losses: int,
    alpha: float,
    start_round: int,
    n_rounds: int,
    rng: np.random.Generator,
    win_probability: NDArray[np.float64],
    environment_rng: np.random.Generator,
    arm_counts: NDArray[np.int64],
    duels: NDArray[np.int64],
) -> int:
    k = wins.shape[0]
    upper = np.empty((k, k))
    lower = np.empty((k, k))
    optimistic = np.empty(k, dtype=np.int64)
    pessimistic = np.empty(k, dtype=np.int64)
    top = np.empty(k, dtype=np.int64)
    pool = np.empty(k, dtype=np.int64)
    scratch = np.empty(k, dtype=np.int64)
    pairs = np.empty(k * k, dtype=np.int64)
    for step in range(n_rounds):
        log_t = math.log(start_round + step + 1)
        for i in range(k):
            upper[i, i] = 0.5
            lower[i, i] = 0.5
            for j in range(i + 1, k):
                upper[i, j] = upper_bound(wins[i, j], wins[j, i], log_t, alpha)
                lower[i, j] = lower_bound(wins[i, j], wins[j, i], log_t, alpha)
                upper[j, i] = upper_bound(wins[j, i], wins[i, j], log_t, alpha)
                lower[j, i] = lower_bound(wins[j, i], wins[i, j], log_t, alpha)
        best_optimistic = 0
        best_pessimistic = 0
        for i in range(k):
            optimistic[i] = 0
            pessimistic[i] = 0
            for j in range(k):
                if j != i and upper[i, j] >= 0.5:
                    optimistic[i] += 1
                if j != i and lower[i, j] >= 0.5:
                    pessimistic[i] += 1
            best_optimistic = max(best_optimistic, optimistic[i])
            best_pessimistic = max(best_pessimistic, pessimistic[i])
        n_top = 0
        for i in range(k):
            if optimistic[i] == best_optimistic:
                top[n_top] = i
                n_top += 1
        # (A) reset disproven hypotheses
        disproven = False
        for i in range(k):
            for j in range(k):
                disproven = disproven or (challengers[i, j] and lower[i, j] > 0.5)
        if disproven:
            candidates[:] = True
            challengers[:, :] = False
            max_losses = k
        # (B) remove non-Copeland winners
        for i in range(k):
            if candidates[i] and optimistic[i] < best_pessimistic:
                candidates[i] = False
                if challengers[i].sum() != max_losses + 1:
                    for j in range(k):
                        challengers[i, j] = upper[i, j] < 0.5
        if not candidates.any():
            candidates[:] = True
            challengers[:, :] = False
            max_losses = k
        # (C) add Copeland winners
        for m in range(n_top):
            i = top[m]
            if optimistic[i] != pessimistic[i]:
                continue
            candidates[i] = True
            challengers[i, :] = False
            max_losses = k - 1 - optimistic[i]
            keep = max_losses + 1
            for j in range(k):
                size = 0
                for arm in range(k):
                    if challengers[j, arm]:
                        pool[size] = arm
                        size += 1
                if j == i or size == keep:
                    continue
                challengers[j, :] = False
                if size > keep:
                    for position in range(keep):
                        other = position + pick_compiled(rng, size - position)
                        pool[position], pool[other] = pool[other], pool[position]
                        challengers[j, pool[position]] = True
        # exploration of the challengers, else a Copeland candidate and its challenger
        c = -1
        d = -1
        if coin_compiled(rng, 0.25):
            n_pairs = 0
            for i in range(k):
                for j in range(k):
                    if challengers[i, j] and lower[i, j] <= 0.5 and upper[i, j] >= 0.5:
                        pairs[n_pairs] = i * k + j
                        n_pairs += 1
            if n_pairs > 0:
                chosen = pairs[pick_compiled(rng, n_pairs)]
                c = chosen // k
                d = chosen % k
        if c < 0:
            n_both = 0
            for m in range(n_top):
                if candidates[top[m]]:
                    pool[n_both] = top[m]
                    n_both += 1
            if n_both > 0 and coin_compiled(rng, 2.0 / 3.0):
                c = pool[pick_compiled(rng, n_both)]
            else:
                c = top[pick_compiled(rng, n_top)]
            use_challengers = coin_compiled(rng, 0.5)
            n_plausible = 0
            for j in range(k):
                if lower[j, c] <= 0.5 and challengers[c, j]:
                    pool[n_plausible] = j
                    n_plausible += 1
            if not use_challengers or n_plausible == 0:
                n_plausible = 0
                for j in range(k):
                    if lower[j, c] <= 0.5:
                        pool[n_plausible] = j
                        n_plausible += 1
            d = random_argmax_compiled(upper[:, c], pool, n_plausible, rng, c, scratch)
        outcome = play_duel(environment_rng, win_probability, step, c, d, arm_counts, duels)
        wins[c, d] += outcome
        wins[d, c] += 1 - outcome
    return max_losses
