"""Copeland Confidence Bound (CCB).

Zoghi, Karnin, Whiteson and de Rijke, "Copeland Dueling Bandits", NeurIPS 2015, Algorithm 1.
"""

from __future__ import annotations

import math

import numba
import numpy as np
from numpy.typing import NDArray

from ..dueling.checks import check_positive
from ..dueling.draws import coin, coin_compiled, pick, pick_compiled
from .base import Arena, DuelingBanditAlgorithm, play_duel
from .confidence import (
    confidence_bounds,
    lower_bound,
    random_argmax,
    random_argmax_compiled,
    upper_bound,
)
from .crossings import after_duel, new_tracker, refresh

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
    shuffle of its arms in increasing order (one :func:`~cdbandits.dueling.draws.pick` per
    kept arm); the coins of probability 1/4, 2/3 and 1/2 are drawn every round in that
    order (the 2/3 coin only when ``B_t ∩ C_t`` is non-empty), and the 1/4 coin also when
    no exploration pair exists; exploration pairs are numbered row by row.

    The numba kernel keeps both Copeland scores with :mod:`~cdbandits.karmed.crossings`
    and the sizes and exploration pairs of the sets ``B_t^i`` per row, so a round costs
    O(K) amortised instead of ``K^2`` bounds; it plays the same duels.

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
def _clear_challengers(
    challengers: NDArray[np.bool_], sizes: NDArray[np.int64], explorable: NDArray[np.int64], i: int
) -> None:
    """Empty ``B_t^i`` (O(K), nothing when already empty)."""
    if sizes[i] > 0:
        challengers[i, :] = False
        sizes[i] = 0
        explorable[i] = 0


@numba.njit(cache=True)
def _count_explorable(
    challengers: NDArray[np.bool_], upper_holds: NDArray[np.bool_], i: int
) -> int:
    """``#{j in B_t^i : u_ij >= 1/2}``: row ``i``'s exploration pairs (see the kernel)."""
    count = 0
    for j in range(challengers.shape[1]):
        if challengers[i, j] and upper_holds[i, j]:
            count += 1
    return count


@numba.njit(cache=True)
def _reset(
    candidates: NDArray[np.bool_],
    challengers: NDArray[np.bool_],
    sizes: NDArray[np.int64],
    explorable: NDArray[np.int64],
) -> int:
    """Rule (A)'s reset; returns ``L_C = K``."""
    candidates[:] = True
    for i in range(candidates.size):
        _clear_challengers(challengers, sizes, explorable, i)
    return candidates.size


@numba.njit(cache=True)
def _disproven(
    wins: NDArray[np.int64],
    challengers: NDArray[np.bool_],
    log_t: float,
    alpha: float,
    i: int,
    j: int,
) -> bool:
    """Whether ``j in B_t^i`` and ``l_ij > 1/2``."""
    return challengers[i, j] and lower_bound(wins[i, j], wins[j, i], log_t, alpha) > 0.5


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
    arena: Arena,
) -> int:
    # The Copeland scores come from the crossing tracker (optimistic = upper_counts,
    # pessimistic = lower_counts). Rule (A) needs a full scan only in the first round:
    # after it, every challenger pair has l_ij <= 1/2 (rule (B) adds pairs with
    # u_ij < 1/2, and l_ij only falls until the pair's next duel), so only the pair
    # duelled last can be disproven. For the same reason the exploration pairs are the
    # challenger pairs with u_ij >= 1/2; explorable[i] counts them in row i.
    k = wins.shape[0]
    tracker = new_tracker(k)
    upper_holds, optimistic, pessimistic = tracker[0], tracker[4], tracker[5]
    sizes = np.empty(k, dtype=np.int64)
    explorable = np.zeros(k, dtype=np.int64)
    for i in range(k):
        sizes[i] = challengers[i].sum()
    column_upper = np.empty(k)
    column_lower = np.empty(k)
    top = np.empty(k, dtype=np.int64)
    pool = np.empty(k, dtype=np.int64)
    scratch = np.empty(k, dtype=np.int64)
    refreshed = np.empty(k, dtype=np.int64)
    c = d = -1
    for step in range(n_rounds):
        t = start_round + step + 1
        log_t = math.log(t)
        n_refreshed = refresh(tracker, wins, t, alpha, False, refreshed)
        for m in range(n_refreshed):
            explorable[refreshed[m]] = _count_explorable(challengers, upper_holds, refreshed[m])
        best_optimistic = optimistic.max()
        best_pessimistic = pessimistic.max()
        n_top = 0
        for i in range(k):
            if optimistic[i] == best_optimistic:
                top[n_top] = i
                n_top += 1
        # (A) reset disproven hypotheses
        disproven = False
        if step == 0:
            for i in range(k):
                for j in range(k):
                    disproven = disproven or _disproven(wins, challengers, log_t, alpha, i, j)
        elif c != d:
            disproven = _disproven(wins, challengers, log_t, alpha, c, d) or _disproven(
                wins, challengers, log_t, alpha, d, c
            )
        if disproven:
            max_losses = _reset(candidates, challengers, sizes, explorable)
        # (B) remove non-Copeland winners
        for i in range(k):
            if candidates[i] and optimistic[i] < best_pessimistic:
                candidates[i] = False
                if sizes[i] != max_losses + 1:
                    for j in range(k):
                        challengers[i, j] = j != i and not upper_holds[i, j]
                    sizes[i] = challengers[i].sum()
                    explorable[i] = 0
        if not candidates.any():
            max_losses = _reset(candidates, challengers, sizes, explorable)
        # (C) add Copeland winners
        for m in range(n_top):
            i = top[m]
            if optimistic[i] != pessimistic[i]:
                continue
            candidates[i] = True
            _clear_challengers(challengers, sizes, explorable, i)
            max_losses = k - 1 - optimistic[i]
            keep = max_losses + 1
            for j in range(k):
                size = sizes[j]
                if j == i or size == keep or size == 0:
                    continue
                size = 0
                for arm in range(k):
                    if challengers[j, arm]:
                        pool[size] = arm
                        size += 1
                _clear_challengers(challengers, sizes, explorable, j)
                if size > keep:
                    for position in range(keep):
                        other = position + pick_compiled(rng, size - position)
                        pool[position], pool[other] = pool[other], pool[position]
                        challengers[j, pool[position]] = True
                    sizes[j] = keep
                    explorable[j] = _count_explorable(challengers, upper_holds, j)
        # exploration of the challengers, else a Copeland candidate and its challenger
        c = -1
        d = -1
        if coin_compiled(rng, 0.25):
            n_pairs = explorable.sum()
            if n_pairs > 0:
                chosen = pick_compiled(rng, n_pairs)
                c = 0
                while chosen >= explorable[c]:
                    chosen -= explorable[c]
                    c += 1
                for j in range(k):
                    if challengers[c, j] and upper_holds[c, j]:
                        if chosen == 0:
                            d = j
                            break
                        chosen -= 1
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
            for j in range(k):
                column_upper[j] = (
                    0.5 if j == c else upper_bound(wins[j, c], wins[c, j], log_t, alpha)
                )
                column_lower[j] = (
                    0.5 if j == c else lower_bound(wins[j, c], wins[c, j], log_t, alpha)
                )
            n_plausible = 0
            for j in range(k):
                if column_lower[j] <= 0.5 and challengers[c, j]:
                    pool[n_plausible] = j
                    n_plausible += 1
            if not use_challengers or n_plausible == 0:
                n_plausible = 0
                for j in range(k):
                    if column_lower[j] <= 0.5:
                        pool[n_plausible] = j
                        n_plausible += 1
            d = random_argmax_compiled(column_upper, pool, n_plausible, rng, c, scratch)
        outcome = play_duel(arena, step, c, d)
        wins[c, d] += outcome
        wins[d, c] += 1 - outcome
        after_duel(tracker, c, d, t + 1)
    return max_losses
