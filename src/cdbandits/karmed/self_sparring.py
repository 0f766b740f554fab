"""Independent Self-Sparring with Beta-Bernoulli Thompson sampling, two arms per round.

Sui, Zhuang, Burdick and Yue, "Multi-dueling Bandits with Dependent Arms", UAI 2017,
Independent Self-Sparring (Algorithm 1) with ``m = 2``.
"""

from __future__ import annotations

import numba
import numpy as np
from numpy.typing import NDArray

from ..dueling.checks import check_positive
from .base import Arena, DuelingBanditAlgorithm, play_duel

__all__ = ["SelfSparring"]


class SelfSparring(DuelingBanditAlgorithm):
    """Independent Self-Sparring (Sui et al., UAI 2017, Algorithm 1), two arms per round.

    Every arm ``i`` has a Beta posterior ``Beta(S_i + prior, F_i + prior)`` of its chance
    to win a duel. Each round draws one sample per arm, ``a`` = its argmax, then a second,
    independent set of samples, ``b`` = its argmax (``a == b`` is possible and becomes
    more frequent as the posterior concentrates). After the duel the winner gets
    ``S += learning_rate`` and the loser ``F += learning_rate`` (a self-duel adds one of
    each to the same arm), the paper's update ``S_{x_j} += eta r_jk``,
    ``F_{x_j} += eta (1 - r_jk)`` for the two played arms.

    Choices this implementation makes: samples are drawn arm by arm in increasing order,
    ``a``'s set before ``b``'s; ties between samples (probability zero) go to the smaller
    arm.

    Parameters
    ----------
    prior : float, optional
        Both Beta prior parameters; 1, the uniform prior of the paper.
    learning_rate : float, optional
        ``eta``; 1, the paper's default.

    Attributes
    ----------
    successes_, failures_ : ndarray of float64, shape (K,)
        ``S`` and ``F`` (prior excluded).
    """

    name = "self_sparring"

    def __init__(self, prior: float = 1.0, learning_rate: float = 1.0) -> None:
        self.prior = check_positive("prior", prior)
        self.learning_rate = check_positive("learning_rate", learning_rate)

    def _start(self) -> None:
        self.successes_ = np.zeros(self.n_arms_)
        self.failures_ = np.zeros(self.n_arms_)

    def _select(self, t: int) -> tuple[int, int]:
        alpha, beta = self.successes_ + self.prior, self.failures_ + self.prior
        first = int(np.argmax(self.rng_.beta(alpha, beta)))
        second = int(np.argmax(self.rng_.beta(alpha, beta)))
        return first, second

    def _update(self, t: int, a: int, b: int, outcome: int) -> None:
        winner, loser = (a, b) if outcome else (b, a)
        self.successes_[winner] += self.learning_rate
        self.failures_[loser] += self.learning_rate

    @staticmethod
    def _kernel(*arguments):
        return _self_sparring_rounds(*arguments)

    def _kernel_state(self) -> tuple:
        return (self.successes_, self.failures_, self.prior, self.learning_rate)


@numba.njit(cache=True)
def _thompson_arm(
    successes: NDArray[np.float64], failures: NDArray[np.float64], prior: float, rng
) -> int:
    best = 0
    best_sample = -1.0
    for arm in range(successes.size):
        sample = rng.beta(successes[arm] + prior, failures[arm] + prior)
        if sample > best_sample:
            best_sample = sample
            best = arm
    return best


@numba.njit(cache=True)
def _self_sparring_rounds(
    successes: NDArray[np.float64],
    failures: NDArray[np.float64],
    prior: float,
    learning_rate: float,
    start_round: int,
    n_rounds: int,
    rng: np.random.Generator,
    arena: Arena,
) -> None:
    for step in range(n_rounds):
        a = _thompson_arm(successes, failures, prior, rng)
        b = _thompson_arm(successes, failures, prior, rng)
        outcome = play_duel(arena, step, a, b)
        winner, loser = (a, b) if outcome == 1 else (b, a)
        successes[winner] += learning_rate
        failures[loser] += learning_rate
