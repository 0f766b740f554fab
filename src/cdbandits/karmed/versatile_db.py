"""Versatile-DB: the dueling-to-multi-armed reduction run with Tsallis-INF.

Saha and Gaillard, "Versatile Dueling Bandits: Best-of-both-World Analyses for Online
Learning from Preferences", ICML 2022 (Versatile-DB, Algorithm 3), with Tsallis-INF of
Zimmert and Seldin, "Tsallis-INF: An Optimal Algorithm for Stochastic and Adversarial
Bandits", JMLR 2021 (Algorithm 1, ``alpha = 1/2``) as the multi-armed learner.
"""

from __future__ import annotations

import math

import numba
import numpy as np
from numpy.typing import NDArray
from scipy.optimize import brentq

from ..dueling.checks import check_positive
from ..dueling.draws import draw_arm, draw_arm_compiled
from .base import Arena, DuelingBanditAlgorithm, play_duel

__all__ = ["VersatileDB", "tsallis_probabilities"]

#: Newton's iteration on the normaliser stops once ``|sum(q) - 1|`` is below this.
NORMALISER_TOL = 1e-13


def tsallis_probabilities(losses: NDArray[np.float64], learning_rate: float) -> NDArray[np.float64]:
    """Tsallis-INF's distribution ``q_i = 4 / (eta (L_i - x))^2`` with ``sum(q) = 1``.

    ``x < min(L)`` is found by Brent's method on the bracket
    ``[min L - 2 sqrt(K) / eta, min L - 2 / eta]`` (every ``q_i <= 1/K`` at its left end,
    the leader's ``q = 1`` at its right end); ``q`` is then divided by its sum.
    """
    k = losses.size
    smallest = losses.min()

    def excess(x: float) -> float:
        return float(np.sum(4.0 / (learning_rate * (losses - x)) ** 2) - 1.0)

    left = smallest - 2.0 * math.sqrt(k) / learning_rate
    right = smallest - 2.0 / learning_rate
    normaliser = (
        left if excess(left) >= 0.0 else brentq(excess, left, right, xtol=1e-15, rtol=1e-15)
    )
    probabilities = 4.0 / (learning_rate * (losses - normaliser)) ** 2
    return probabilities / probabilities.sum()


def _tsallis_probabilities_by_newton(
    losses: NDArray[np.float64], learning_rate: float, previous: float
) -> tuple[NDArray[np.float64], float]:
    """The kernel's Newton iteration for ``q`` and ``x``, in NumPy (sums left to right).

    Newton's method on the convex, increasing ``sum(q(x)) - 1`` converges monotonically
    from any ``x`` right of the root; it starts from ``previous`` (last round's ``x``) when
    that is such a point closer to the root than ``min(L) - 2 / eta``, else from the latter.

    The reduction's dynamics amplify rounding differences (a ``1e-16`` change of ``q``
    grows tenfold every hundred rounds or so), so the NumPy path repeats the kernel's
    arithmetic operation for operation; :func:`tsallis_probabilities` is the independent
    check of the root.
    """
    normaliser = losses.min() - 2.0 / learning_rate
    if previous < normaliser:
        gap = learning_rate * (losses - previous)
        if np.cumsum(4.0 / (gap * gap))[-1] - 1.0 >= 0.0:
            normaliser = previous
    for _ in range(200):
        gap = learning_rate * (losses - normaliser)
        total = np.cumsum(4.0 / (gap * gap))[-1]
        slope = np.cumsum(8.0 * learning_rate / (gap * gap * gap))[-1]
        if total - 1.0 < NORMALISER_TOL:
            break
        normaliser -= (total - 1.0) / slope
    gap = learning_rate * (losses - normaliser)
    probabilities = 4.0 / (gap * gap)
    return probabilities / np.cumsum(probabilities)[-1], normaliser


class VersatileDB(DuelingBanditAlgorithm):
    """Versatile-DB (Saha and Gaillard, ICML 2022, Algorithm 3).

    The reduction keeps one multi-armed learner over the ``K`` arms. Each round it computes
    the learner's distribution ``q_t``, draws the two arms ``x_t, y_t`` independently from
    ``q_t`` (so ``x_t == y_t`` happens) and feeds back the loss of ``x_t``, 1 if ``y_t``
    won the duel, by importance weighting: ``L_{x_t} += (1 - o_t) / q_t(x_t)`` with ``o_t``
    the outcome (1 if ``x_t`` won). The learner is Tsallis-INF with ``alpha = 1/2``:
    ``q_t = argmin_q <L, q> - (4 / eta_t) sum_i sqrt(q_i)``, i.e.
    ``q_t(i) = 4 / (eta_t (L_i - x))^2`` (:func:`tsallis_probabilities`), with
    ``eta_t = learning_rate_scale / sqrt(t)``.

    ``symmetric=True`` uses both arms' feedback, ``L_{x_t} += (1 - o_t) / (2 q_t(x_t))`` and
    ``L_{y_t} += o_t / (2 q_t(y_t))`` (also unbiased, lower variance).

    Choices this implementation makes (the algorithm box was not available to us; see the
    package notes): ``eta_t = 2 / sqrt(t)``, Zimmert and Seldin's tuning for the
    importance-weighted estimator (their Theorem 1); ``x_t`` is drawn before ``y_t``, each
    by inverse CDF at one uniform; the normaliser ``x`` is found by Newton's method from the
    right of the root (monotone convergence; stop at ``|sum(q) - 1| < 1e-13``), started
    from the previous round's ``x`` when possible, by both implementations alike;
    :func:`tsallis_probabilities` checks the root by Brent's method.

    Parameters
    ----------
    learning_rate_scale : float, optional
        ``eta_t = learning_rate_scale / sqrt(t)``; default 2.
    symmetric : bool, optional
        Feed back both arms' losses (see above); default False.

    Attributes
    ----------
    losses_ : ndarray of float64, shape (K,)
        The estimated cumulative losses ``L``.
    probabilities_ : ndarray of float64, shape (K,)
        ``q_t`` of the last round selected.
    normaliser_ : float
        Its ``x`` (``-inf`` before the first round); the next round's Newton iteration
        starts there when that is right of the new root.
    """

    name = "versatile_db"

    def __init__(self, learning_rate_scale: float = 2.0, symmetric: bool = False) -> None:
        self.learning_rate_scale = check_positive("learning_rate_scale", learning_rate_scale)
        if not isinstance(symmetric, bool):
            raise TypeError(f"symmetric must be a bool; got {symmetric!r}")
        self.symmetric = symmetric

    def _start(self) -> None:
        self.losses_ = np.zeros(self.n_arms_)
        self.probabilities_ = np.full(self.n_arms_, 1.0 / self.n_arms_)
        self.normaliser_ = -np.inf

    def _select(self, t: int) -> tuple[int, int]:
        learning_rate = self.learning_rate_scale / math.sqrt(t)
        self.probabilities_, self.normaliser_ = _tsallis_probabilities_by_newton(
            self.losses_, learning_rate, self.normaliser_
        )
        first = draw_arm(self.probabilities_, self.rng_.random())
        return first, draw_arm(self.probabilities_, self.rng_.random())

    def _update(self, t: int, a: int, b: int, outcome: int) -> None:
        q = self.probabilities_
        if self.symmetric:
            self.losses_[a] += (1 - outcome) / (2.0 * q[a])
            self.losses_[b] += outcome / (2.0 * q[b])
        else:
            self.losses_[a] += (1 - outcome) / q[a]

    @staticmethod
    def _kernel(*arguments):
        return _versatile_rounds(*arguments)

    def _kernel_state(self) -> tuple:
        return (
            self.losses_,
            self.probabilities_,
            self.normaliser_,
            self.learning_rate_scale,
            self.symmetric,
        )

    def _kernel_result(self, result) -> None:
        self.normaliser_ = result


@numba.njit(cache=True)
def _excess(losses: NDArray[np.float64], learning_rate: float, normaliser: float) -> float:
    total = 0.0
    for arm in range(losses.size):
        gap = learning_rate * (losses[arm] - normaliser)
        total += 4.0 / (gap * gap)
    return total - 1.0


@numba.njit(cache=True)
def _tsallis_probabilities_newton(
    losses: NDArray[np.float64],
    learning_rate: float,
    previous: float,
    probabilities: NDArray[np.float64],
) -> float:
    """:func:`_tsallis_probabilities_by_newton` compiled; writes ``q``, returns ``x``."""
    x = losses.min() - 2.0 / learning_rate
    if previous < x and _excess(losses, learning_rate, previous) >= 0.0:
        x = previous
    for _ in range(200):
        total = 0.0
        slope = 0.0
        for arm in range(losses.size):
            gap = learning_rate * (losses[arm] - x)
            total += 4.0 / (gap * gap)
            slope += 8.0 * learning_rate / (gap * gap * gap)
        if total - 1.0 < NORMALISER_TOL:
            break
        x -= (total - 1.0) / slope
    total = 0.0
    for arm in range(losses.size):
        gap = learning_rate * (losses[arm] - x)
        probabilities[arm] = 4.0 / (gap * gap)
        total += probabilities[arm]
    for arm in range(losses.size):
        probabilities[arm] /= total
    return x


@numba.njit(cache=True)
def _versatile_rounds(
    losses: NDArray[np.float64],
    probabilities: NDArray[np.float64],
    normaliser: float,
    learning_rate_scale: float,
    symmetric: bool,
    start_round: int,
    n_rounds: int,
    rng: np.random.Generator,
    arena: Arena,
) -> float:
    for step in range(n_rounds):
        learning_rate = learning_rate_scale / math.sqrt(start_round + step + 1)
        normaliser = _tsallis_probabilities_newton(losses, learning_rate, normaliser, probabilities)
        a = draw_arm_compiled(probabilities, rng.random())
        b = draw_arm_compiled(probabilities, rng.random())
        outcome = play_duel(arena, step, a, b)
        if symmetric:
            losses[a] += (1 - outcome) / (2.0 * probabilities[a])
            losses[b] += outcome / (2.0 * probabilities[b])
        else:
            losses[a] += (1 - outcome) / probabilities[a]
    return normaliser
