"""Sparring with two EXP3 learners, and EXP3 itself.

Ailon, Karnin and Joachims, "Reducing Dueling Bandits to Cardinal Bandits", ICML 2014: the
Sparring reduction (Algorithm 3, after Doubler and MultiSBM), with EXP3 (Auer, Cesa-Bianchi,
Freund and Schapire, "The Nonstochastic Multiarmed Bandit Problem", SIAM J. Computing 2002,
Algorithm Exp3) as the two cardinal bandit learners.

**EXP3** with ``K`` arms: ``p_i = (1 - gamma) w_i / sum_j w_j + gamma / K``; after drawing
arm ``i`` and seeing reward ``r in [0, 1]``, ``w_i *= exp(gamma (r / p_i) / K)`` (kept as
log-weights). Tuned to the horizon, ``gamma = min(1, sqrt(K ln K / ((e - 1) T)))`` (Auer et
al., Corollary 3.2 with ``g = T``).

:class:`Exp3` and the compiled :func:`exp3_probabilities` / :func:`exp3_update` are the
library's one EXP3; the context-blind sparring baseline of the contextual experiments is
the same construction on the averaged matrix.
"""

from __future__ import annotations

import math

import numba
import numpy as np
from numpy.typing import NDArray

from ..dueling.checks import check_positive
from ..dueling.draws import draw_arm, draw_arm_compiled
from .base import Arena, DuelingBanditAlgorithm, play_duel

__all__ = [
    "Exp3",
    "SparringExp3",
    "exp3_exploration_rate",
    "exp3_probabilities",
    "exp3_update",
]


def exp3_exploration_rate(n_arms: int, horizon: int) -> float:
    """``gamma = min(1, sqrt(K ln K / ((e - 1) T)))``."""
    if n_arms < 2 or horizon < 1:
        raise ValueError(f"need n_arms >= 2 and horizon >= 1; got {n_arms}, {horizon}")
    return min(1.0, math.sqrt(n_arms * math.log(n_arms) / ((math.e - 1.0) * horizon)))


class Exp3:
    """One EXP3 learner over ``n_arms`` arms with rewards in ``[0, 1]`` (NumPy).

    Parameters
    ----------
    n_arms : int
    gamma : float
        Exploration rate in ``(0, 1]``.

    Attributes
    ----------
    log_weights_ : ndarray of float64, shape (n_arms,)
    probabilities_ : ndarray of float64, shape (n_arms,)
        ``p`` of the last :meth:`choose`.
    """

    def __init__(self, n_arms: int, gamma: float) -> None:
        if n_arms < 2:
            raise ValueError(f"EXP3 needs n_arms >= 2; got {n_arms}")
        if not 0.0 < gamma <= 1.0:
            raise ValueError(f"gamma must be in (0, 1]; got {gamma}")
        self.n_arms = n_arms
        self.gamma = gamma
        self.log_weights_ = np.zeros(n_arms)
        self.probabilities_ = self.action_probabilities()
        self._arm: int | None = None

    def action_probabilities(self) -> NDArray[np.float64]:
        """This round's ``p``."""
        weights = np.exp(self.log_weights_ - self.log_weights_.max())
        return (1.0 - self.gamma) * weights / weights.sum() + self.gamma / self.n_arms

    def choose(self, uniform: float) -> int:
        """Draw this round's arm by inverse CDF at ``uniform`` in ``[0, 1)``."""
        self.probabilities_ = self.action_probabilities()
        self._arm = draw_arm(self.probabilities_, uniform)
        return self._arm

    def update(self, reward: float) -> None:
        """Feed the reward in ``[0, 1]`` of the arm drawn by the last :meth:`choose`."""
        if self._arm is None:
            raise RuntimeError("update() needs a preceding choose()")
        if not 0.0 <= reward <= 1.0:
            raise ValueError(f"EXP3 rewards must lie in [0, 1]; got {reward}")
        arm = self._arm
        self.log_weights_[arm] += self.gamma * reward / (self.probabilities_[arm] * self.n_arms)
        self._arm = None


@numba.njit(cache=True)
def exp3_probabilities(
    log_weights: NDArray[np.float64], gamma: float, probabilities: NDArray[np.float64]
) -> None:
    """Write EXP3's ``p`` for ``log_weights`` into ``probabilities`` (compiled)."""
    n_arms = log_weights.size
    shift = log_weights.max()
    total = 0.0
    for arm in range(n_arms):
        probabilities[arm] = math.exp(log_weights[arm] - shift)
        total += probabilities[arm]
    for arm in range(n_arms):
        probabilities[arm] = (1.0 - gamma) * probabilities[arm] / total + gamma / n_arms


@numba.njit(cache=True)
def exp3_update(
    log_weights: NDArray[np.float64],
    probabilities: NDArray[np.float64],
    gamma: float,
    arm: int,
    reward: float,
) -> None:
    """EXP3's update of ``arm`` drawn with ``probabilities`` and rewarded ``reward`` (compiled)."""
    log_weights[arm] += gamma * reward / (probabilities[arm] * log_weights.size)


class SparringExp3(DuelingBanditAlgorithm):
    """Sparring EXP3 (Ailon, Karnin and Joachims, ICML 2014, Algorithm 3 with EXP3).

    Two independent EXP3 learners, "row" and "column", each choose an arm; the row learner
    is rewarded 1 if its arm wins the duel and the column learner 1 if its arm wins (0
    otherwise). The pair of their average strategies approaches a von Neumann winner of
    the matrix, so sparring needs no Condorcet winner.

    Choices this implementation makes: each round draws one uniform for the row learner
    and then one for the column learner (inverse CDF); in a self-duel both learners see
    the coin flip's outcome as their own (row rewarded ``outcome``, column
    ``1 - outcome``).

    **Exploration rate.** The default, ``gamma`` tuned to ``K`` and the horizon (Auer et
    al., Corollary 3.2), is EXP3's own and that of Ailon et al.'s analysis. The MergeDTS
    authors' code (github.com/chang-li/MergeDTS at commit 296f3e2,
    ``dueling_bandits/sparring_exp3.py``), which ran Sparring EXP3 as a baseline of the
    MergeDTS paper, effectively used ``gamma = 0.51``: its exploration rate is the
    ``--alpha`` of its parent class ``Sparring``, 0.51 by default (its own ``--alpha``
    default, -1 for a rate adapted to the round, is parsed but never stored). Pass
    ``gamma=0.51`` to run it as those experiments did; the default explores far less on
    long horizons (``gamma`` is 0.016 for ``K = 16`` and 0.062 for ``K = 136`` at
    ``T = 10^5``).

    Parameters
    ----------
    gamma : float, optional
        Exploration rate of both learners; :func:`exp3_exploration_rate` of ``K`` and the
        horizon given to :meth:`start` when omitted (then the horizon is required).

    Attributes
    ----------
    gamma_ : float
    row_, column_ : Exp3
        The two learners.
    """

    name = "sparring_exp3_karmed"

    def __init__(self, gamma: float | None = None) -> None:
        if gamma is not None:
            gamma = check_positive("gamma", gamma)
            if gamma > 1.0:
                raise ValueError(f"gamma must be in (0, 1]; got {gamma}")
        self.gamma = gamma

    def _start(self) -> None:
        k = self.n_arms_
        self.gamma_ = (
            exp3_exploration_rate(k, self._require_horizon()) if self.gamma is None else self.gamma
        )
        self.row_ = Exp3(k, self.gamma_)
        self.column_ = Exp3(k, self.gamma_)

    def _select(self, t: int) -> tuple[int, int]:
        return self.row_.choose(self.rng_.random()), self.column_.choose(self.rng_.random())

    def _update(self, t: int, a: int, b: int, outcome: int) -> None:
        self.row_.update(float(outcome))
        self.column_.update(float(1 - outcome))

    @staticmethod
    def _kernel(*arguments):
        return _sparring_exp3_rounds(*arguments)

    def _kernel_state(self) -> tuple:
        return (
            self.row_.log_weights_,
            self.column_.log_weights_,
            self.row_.probabilities_,
            self.column_.probabilities_,
            self.gamma_,
        )


@numba.njit(cache=True)
def _sparring_exp3_rounds(
    row_log_weights: NDArray[np.float64],
    column_log_weights: NDArray[np.float64],
    row_probabilities: NDArray[np.float64],
    column_probabilities: NDArray[np.float64],
    gamma: float,
    start_round: int,
    n_rounds: int,
    rng: np.random.Generator,
    arena: Arena,
) -> None:
    for step in range(n_rounds):
        exp3_probabilities(row_log_weights, gamma, row_probabilities)
        a = draw_arm_compiled(row_probabilities, rng.random())
        exp3_probabilities(column_log_weights, gamma, column_probabilities)
        b = draw_arm_compiled(column_probabilities, rng.random())
        outcome = play_duel(arena, step, a, b)
        exp3_update(row_log_weights, row_probabilities, gamma, a, float(outcome))
        exp3_update(column_log_weights, column_probabilities, gamma, b, float(1 - outcome))
