"""Double Thompson Sampling (D-TS).

Wu and Liu, "Double Thompson Sampling for Dueling Bandits", NeurIPS 2016, Algorithm 1.
"""

from __future__ import annotations

import math
import warnings

import numba
import numpy as np
from numpy.typing import NDArray

from ..dueling.checks import check_positive
from .base import Arena, DuelingBanditAlgorithm, play_duel
from .confidence import (
    confidence_bounds,
    lower_bound,
    random_argmax,
    random_argmax_compiled,
)
from .crossings import after_duel, new_tracker, refresh

__all__ = ["DoubleThompsonSampling", "beta_tail_after_duel"]

#: ``(Pr(theta > 1/2), Pr(S_n = m), Pr(S_n = m + 1))`` of a pair never compared.
UNCOMPARED_TAIL = (0.5, 0.5, 0.5)


def beta_tail_after_duel(
    tail: float, at: float, above: float, wins: int, losses: int, won: bool
) -> tuple[float, float, float]:
    """Update ``Pr(theta > 1/2)`` for ``theta ~ Beta(wins + 1, losses + 1)`` after one duel.

    For integer parameters ``Pr(theta > 1/2) = Pr(S_n <= m)`` with ``S_n ~ Binomial(n, 1/2)``,
    ``n = wins + losses + 1``, ``m = wins``. The state is that tail and the two
    probabilities ``Pr(S_n = m)`` (``at``) and ``Pr(S_n = m + 1)`` (``above``); since
    ``S_{n+1} = S_n + Bernoulli(1/2)``, a win (``m + 1``) adds ``above / 2`` to the tail and
    a loss subtracts ``at / 2``, and the two point probabilities follow from
    ``Pr(S_n = k + 1) / Pr(S_n = k) = (n - k) / (k + 1)``. Every duel costs O(1); the
    result agrees with ``scipy.special.betainc(losses + 1, wins + 1, 0.5)`` to rounding.

    Parameters
    ----------
    tail, at, above : float
        The state before the duel (``UNCOMPARED_TAIL`` for a pair never compared).
    wins, losses : int
        The counts before the duel.
    won : bool
        Whether the duel added a win.

    Returns
    -------
    (tail, at, above) after the duel.
    """
    n = wins + losses + 1
    if won:
        beyond = above * (n - wins - 1) / (wins + 2)  # Pr(S_n = m + 2)
        return tail + above / 2.0, (at + above) / 2.0, (above + beyond) / 2.0
    below = at * wins / (n - wins + 1)  # Pr(S_n = m - 1)
    return tail - at / 2.0, (at + below) / 2.0, (above + at) / 2.0


_beta_tail_after_duel_compiled = numba.njit(cache=True)(beta_tail_after_duel)


class DoubleThompsonSampling(DuelingBanditAlgorithm):
    """D-TS (Wu and Liu, NeurIPS 2016, Algorithm 1).

    With ``B[i, j]`` the wins of ``i`` over ``j`` and ``U``, ``L`` the bounds of
    :mod:`cdbandits.karmed.confidence` (``log(t)``; ``u = 2``, ``l = 0`` for a pair never
    compared), each round:

    1. First candidate. ``C`` = the arms of largest upper Copeland score
       ``#{k != i : u_ik > 1/2}``. Sample ``theta_ij ~ Beta(B_ij + 1, B_ji + 1)`` for
       ``i < j`` and set ``theta_ji = 1 - theta_ij``; ``a1 = argmax_{i in C}
       #{k != i : theta_ik > 1/2}``, ties broken at random.
    2. Second candidate. Sample ``theta2_i ~ Beta(B_{i,a1} + 1, B_{a1,i} + 1)`` for
       ``i != a1``, ``theta2_{a1} = 1/2``; ``a2 = argmax theta2_i`` over the arms with
       ``l_{i,a1} <= 1/2`` (``a1`` is one of them, so ``a2 = a1``, a self-duel, happens
       once ``a1`` is likely better than every plausible challenger).

    How the samples are drawn (the pair has exactly the algorithm box's distribution):
    step 1 reads only the events ``theta_ij > 1/2``, so it draws each directly, as
    ``u < Pr(theta_ij > 1/2)`` with one uniform ``u``, the probability kept per pair and
    updated in O(1) per duel (:func:`beta_tail_after_duel`); it does so only for the pairs
    with an arm in ``C``, row by row, and not at all when ``|C| = 1`` (``a1`` is forced).
    Step 2 draws the Beta variates of the arms with ``l_{i,a1} <= 1/2`` only, in increasing
    order. Without these shortcuts a round costs ``K (K - 1) / 2`` Beta variates.

    Choices this implementation makes where the paper leaves them open: ties (including
    the probability-zero ties between Beta samples) are broken by
    :func:`~cdbandits.dueling.draws.pick`; the strict ``u_ik > 1/2`` follows the paper's
    Copeland score (the authors' public code uses ``>=``, which differs only when
    ``u_ik`` is exactly 1/2). D-TS+ (the paper's tie-breaking refinement) is not
    implemented.

    The numba kernel keeps the upper Copeland scores with
    :mod:`~cdbandits.karmed.crossings` (O(K) amortised per round instead of ``K^2``
    bounds) and plays the same duels; its step 1 still draws one event per pair with an
    arm in ``C`` (``K (K - 1) / 2`` when every arm is in ``C``), a row's uniforms first and
    then their comparisons in a loop the compiler vectorises, so that the uniforms
    themselves are most of what a round costs at large ``K``.

    Parameters
    ----------
    alpha : float, optional
        Exploration constant of the bounds, ``alpha > 0``; 0.51 as in the paper's
        experiments. The regret theorem assumes ``alpha > 1/2``; smaller values (the
        MergeDTS authors' experiments run D-TS with ``alpha = 0.8^7``) run with a
        :class:`UserWarning` that it does not apply.

    Attributes
    ----------
    wins_ : ndarray of int64, shape (K, K)
    beta_tails_ : ndarray of float64, shape (3, K, K)
        For ``i < j``: ``Pr(theta_ij > 1/2)`` and the two point probabilities of
        :func:`beta_tail_after_duel`.
    """

    name = "dts"

    def __init__(self, alpha: float = 0.51) -> None:
        self.alpha = check_positive("alpha", alpha)
        if self.alpha <= 0.5:
            warnings.warn(
                f"DoubleThompsonSampling: alpha = {alpha!r} <= 1/2, so the regret theorem "
                "(which assumes alpha > 1/2) does not apply",
                UserWarning,
                stacklevel=2,
            )

    def _start(self) -> None:
        k = self.n_arms_
        self.wins_ = np.zeros((k, k), dtype=np.int64)
        self.beta_tails_ = np.empty((3, k, k))
        self.beta_tails_[:] = np.reshape(UNCOMPARED_TAIL, (3, 1, 1))

    def _select(self, t: int) -> tuple[int, int]:
        rng, wins, k = self.rng_, self.wins_, self.n_arms_
        upper, lower = confidence_bounds(wins, math.log(t), self.alpha)
        scores = (upper > 0.5).sum(axis=1)  # u_ii = 1/2 does not count
        copeland = np.flatnonzero(scores == scores.max())
        if copeland.size == 1:
            first = int(copeland[0])
        else:
            in_copeland = np.zeros(k, dtype=bool)
            in_copeland[copeland] = True
            rows, columns = np.triu_indices(k, 1)
            sampled = in_copeland[rows] | in_copeland[columns]
            rows, columns = rows[sampled], columns[sampled]
            beats = np.zeros((k, k), dtype=bool)
            beats[rows, columns] = rng.random(rows.size) < self.beta_tails_[0, rows, columns]
            beats[columns, rows] = ~beats[rows, columns]
            first = random_argmax(beats.sum(axis=1).astype(float), copeland, rng)
        plausible = np.flatnonzero(lower[:, first] <= 0.5)
        challengers = plausible[plausible != first]
        theta2 = np.full(k, 0.5)
        theta2[challengers] = rng.beta(wins[challengers, first] + 1, wins[first, challengers] + 1)
        return first, random_argmax(theta2, plausible, rng)

    def _update(self, t: int, a: int, b: int, outcome: int) -> None:
        if a != b:
            i, j = min(a, b), max(a, b)
            won = bool(outcome) == (a == i)
            tails = self.beta_tails_[:, i, j]
            self.beta_tails_[:, i, j] = beta_tail_after_duel(
                float(tails[0]),
                float(tails[1]),
                float(tails[2]),
                int(self.wins_[i, j]),
                int(self.wins_[j, i]),
                won,
            )
        self.wins_[a, b] += outcome
        self.wins_[b, a] += 1 - outcome

    @staticmethod
    def _kernel(*arguments):
        return _dts_rounds(*arguments)

    def _kernel_state(self) -> tuple:
        return (self.wins_, self.beta_tails_, self.alpha)


@numba.njit(cache=True)
def _sample_first_scores(
    rng: np.random.Generator,
    tails: NDArray[np.float64],
    in_copeland: NDArray[np.bool_],
    copeland: NDArray[np.int64],
    n_copeland: int,
    uniforms: NDArray[np.float64],
    column_wins: NDArray[np.int64],
    sampled_wins: NDArray[np.float64],
) -> None:
    """Step 1's ``#{k != i : theta_ik > 1/2}`` into ``sampled_wins`` (the others: scratch).

    Draws ``theta_ij > 1/2`` as ``u < tails[i, j]`` for the pairs ``i < j`` with an arm in
    ``C`` (``copeland[:n_copeland]``, increasing), one uniform each, row by row and in
    increasing ``j``: ``O(K |C|)``. A row of ``C`` first draws its uniforms into
    ``uniforms``, then compares them in a loop without calls or branches, which the
    compiler vectorises; a row's wins add up in a local, the column arms' wins in
    ``column_wins``, complete for arm ``i`` when row ``i`` is reached.
    """
    k = tails.shape[0]
    column_wins[:] = 0
    later = 0  # copeland[later:] are the members of C above i
    for i in range(k):
        while later < n_copeland and copeland[later] <= i:
            later += 1
        row_wins = 0
        if in_copeland[i]:
            row_uniforms = uniforms[i + 1 :]
            for m in range(row_uniforms.size):
                row_uniforms[m] = rng.random()
            row_tails, row_column_wins = tails[i, i + 1 :], column_wins[i + 1 :]
            for m in range(row_uniforms.size):
                won = np.int64(row_uniforms[m] < row_tails[m])
                row_wins += won
                row_column_wins[m] += 1 - won
        else:
            for m in range(later, n_copeland):
                j = copeland[m]
                won = np.int64(rng.random() < tails[i, j])
                row_wins += won
                column_wins[j] += 1 - won
        sampled_wins[i] = row_wins + column_wins[i]


@numba.njit(cache=True)
def _dts_rounds(
    wins: NDArray[np.int64],
    beta_tails: NDArray[np.float64],
    alpha: float,
    start_round: int,
    n_rounds: int,
    rng: np.random.Generator,
    arena: Arena,
) -> None:
    k = wins.shape[0]
    tracker = new_tracker(k)
    scores = tracker[4]  # the upper Copeland scores #{j != i : u_ij > 1/2}
    copeland = np.empty(k, dtype=np.int64)
    in_copeland = np.zeros(k, dtype=np.bool_)
    sampled_wins = np.zeros(k)
    uniforms = np.empty(k)
    column_wins = np.empty(k, dtype=np.int64)
    plausible = np.empty(k, dtype=np.int64)
    theta2 = np.empty(k)
    scratch = np.empty(k, dtype=np.int64)
    for step in range(n_rounds):
        t = start_round + step + 1
        log_t = math.log(t)
        refresh(tracker, wins, t, alpha, True, scratch)
        best = scores.max()
        n_copeland = 0
        for i in range(k):
            in_copeland[i] = scores[i] == best
            if in_copeland[i]:
                copeland[n_copeland] = i
                n_copeland += 1
        if n_copeland == 1:
            first = copeland[0]
        else:
            _sample_first_scores(
                rng,
                beta_tails[0],
                in_copeland,
                copeland,
                n_copeland,
                uniforms,
                column_wins,
                sampled_wins,
            )
            first = random_argmax_compiled(sampled_wins, copeland, n_copeland, rng, -1, scratch)
        n_plausible = 0
        for i in range(k):
            if i == first:
                theta2[i] = 0.5
            elif lower_bound(wins[i, first], wins[first, i], log_t, alpha) <= 0.5:
                theta2[i] = rng.beta(wins[i, first] + 1, wins[first, i] + 1)
            else:
                continue
            plausible[n_plausible] = i
            n_plausible += 1
        second = random_argmax_compiled(theta2, plausible, n_plausible, rng, -1, scratch)
        outcome = play_duel(arena, step, first, second)
        if first != second:
            i, j = min(first, second), max(first, second)
            won = (outcome == 1) == (first == i)
            tail, at, above = _beta_tail_after_duel_compiled(
                beta_tails[0, i, j],
                beta_tails[1, i, j],
                beta_tails[2, i, j],
                wins[i, j],
                wins[j, i],
                won,
            )
            beta_tails[0, i, j] = tail
            beta_tails[1, i, j] = at
            beta_tails[2, i, j] = above
        wins[first, second] += outcome
        wins[second, first] += 1 - outcome
        after_duel(tracker, first, second, t + 1)
