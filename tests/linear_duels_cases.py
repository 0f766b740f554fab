"""Shared instances and checks for the tests of cdbandits.linear_duels."""

from __future__ import annotations

import numpy as np

from cdbandits.linear_duels import (
    ALGORITHMS,
    LinearDuelingAlgorithm,
    simulate,
    synthetic_linear_environment,
    utility_regret,
)

ALGORITHM_NAMES = sorted(ALGORITHMS)

#: The easy instance of the learning checks: 50 contexts of 5 arms in 3 dimensions with
#: utilities of standard deviation 2 (most duels far from a coin flip).
EASY = synthetic_linear_environment(50, 5, 3, np.random.default_rng(7), utility_scale=2.0)
EASY_HORIZON = 4000

#: The learning checks, measured on seeds 0-2 of EASY (engine "python"): the log-log slope of
#: the utility regret from T/10 to T was 0.26-0.33 for both algorithms and 1.01-1.02 for the
#: flipped variants; the best arm's share of the duelled arms in the second half was
#: 0.88-0.92 (uniform play: 0.2) and 0.0 for the flipped variants.
SLOPE_LEARNS = 0.6
SLOPE_BROKEN = 0.9
SHARE_LEARNS = 0.7
SHARE_BROKEN = 0.2


def flipped(algorithm: type[LinearDuelingAlgorithm]) -> type[LinearDuelingAlgorithm]:
    """A broken variant of ``algorithm`` whose NumPy update learns the opposite outcome."""

    class Flipped(algorithm):
        def _update(self, t, features, a, b, outcome):
            super()._update(t, features, a, b, 1 - outcome)

    Flipped.__name__ = f"Flipped{algorithm.__name__}"
    return Flipped


def learning_measures(algorithm: type[LinearDuelingAlgorithm], seeds: range) -> tuple:
    """Per seed: the regret slope from T/10 to T and the best arm's second-half share."""
    horizon = EASY_HORIZON
    best = EASY.utilities.argmax(axis=1)
    slopes, shares = [], []
    for seed in seeds:
        result = simulate(
            algorithm(),
            EASY,
            horizon,
            np.random.default_rng(seed),
            [horizon // 10, horizon // 2, horizon],
            engine="python",
        )
        regret = utility_regret(EASY, result.arm_counts)
        slopes.append(np.log(regret[2] / regret[0]) / np.log(10.0))
        second_half = result.arm_counts[2] - result.arm_counts[1]
        shares.append(second_half[np.arange(EASY.n_contexts), best].sum() / second_half.sum())
    return np.array(slopes), np.array(shares)


def learner_draws(seed: int) -> np.random.Generator:
    """A copy of the learner stream :func:`simulate` derives from ``seed``."""
    return np.random.default_rng(seed).spawn(2)[1]
