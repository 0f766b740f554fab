"""Shared instances and checks for the tests of cdbandits.linear_duels."""

from __future__ import annotations

import numpy as np

from cdbandits.contextual.environments import ContextPopulation
from cdbandits.linear_duels import (
    ALGORITHMS,
    DuelingBanditGradientDescent,
    LinearDuelingAlgorithm,
    make_algorithm,
    simulate,
    synthetic_linear_environment,
    utility_regret,
)
from cdbandits.linear_duels.contextual import dbgd_population_log, population_duel_log

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


def learned_state(algorithm: LinearDuelingAlgorithm) -> dict:
    """The attributes with a trailing underscore, but the generator."""
    return {
        name: value
        for name, value in vars(algorithm).items()
        if name.endswith("_") and name != "rng_"
    }


def assert_same_learned_state(
    first: LinearDuelingAlgorithm,
    second: LinearDuelingAlgorithm,
    rtol: float = 1e-7,
    atol: float = 1e-10,
):
    """Equal up to the rounding of BLAS against loops: the two Newton solves stop at points a
    few MLE tolerances (1e-10) apart."""
    first_state, second_state = learned_state(first), learned_state(second)
    assert first_state.keys() == second_state.keys()
    for key, value in first_state.items():
        np.testing.assert_allclose(value, second_state[key], rtol=rtol, atol=atol, err_msg=key)


def random_population(
    rng: np.random.Generator, n_contexts: int, n_actions: int, n_features: int
) -> ContextPopulation:
    """Gaussian contexts, random non-uniform weights and random skew matrices ``P_x`` (entries
    uniform in ``(-1, 1)``), no linear model behind them."""
    raw = rng.uniform(-1.0, 1.0, (n_contexts, n_actions, n_actions))
    upper = np.triu(raw, 1)
    weights = rng.uniform(0.2, 1.0, n_contexts)
    return ContextPopulation(
        rng.standard_normal((n_contexts, n_features)),
        upper - upper.transpose(0, 2, 1),
        weights / weights.sum(),
    )


def assert_same_population_runs(name, population, arm_features, horizon, seed, **parameters):
    """The compiled and the NumPy path of ``population_duel_log`` (``dbgd_population_log``
    for ``name == "dbgd"``) give identical logs, and learned states equal to rounding
    (identical for DBGD, whose two paths compute the same floats); returns the compiled
    run's algorithm."""
    algorithms, logs = [], []
    for compiled in (True, False):
        if name == "dbgd":
            algorithm = DuelingBanditGradientDescent(**parameters)
            play = dbgd_population_log
        else:
            algorithm = make_algorithm(name, **parameters)
            play = population_duel_log
        rng = np.random.default_rng(seed)
        logs.append(play(algorithm, population, arm_features, horizon, rng, compiled=compiled))
        algorithms.append(algorithm)
    for field in ("context_ids", "first_actions", "second_actions", "outcomes", "gains"):
        compiled_values, numpy_values = (getattr(log, field) for log in logs)
        assert compiled_values.dtype == numpy_values.dtype, field
        np.testing.assert_array_equal(compiled_values, numpy_values, err_msg=field)
    assert algorithms[0].round_ == algorithms[1].round_ == horizon
    if name == "dbgd":
        for key, value in learned_state(algorithms[0]).items():
            np.testing.assert_array_equal(value, learned_state(algorithms[1])[key], err_msg=key)
    else:
        # longer runs on poorly conditioned designs: the Newton solves stopped up to 1e-8
        # apart on random populations (with identical duels)
        assert_same_learned_state(*algorithms, rtol=1e-6, atol=1e-7)
    return algorithms[0]
