"""Exploration schemes: unbiased estimates, their constants (L, V), reproducible samples."""

import numpy as np
import pytest

from cdbandits.contextual.environments import (
    CounterPlayAdversary,
    StochasticEnvironment,
    synthetic_intransitive_population,
)
from cdbandits.oracle_methods.exploration import (
    FixedExploration,
    explore,
    skew_symmetric_exploration,
    uniform_exploration,
)


def dense_estimates(scheme, first, second, outcomes):
    """Phat_i as dense (m, K, K) arrays, from the scheme's sparse entries."""
    rounds, rows, columns, values = scheme.estimate_entries(first, second, outcomes)
    dense = np.zeros((len(first), scheme.n_actions, scheme.n_actions))
    dense[rounds, rows, columns] = values
    return dense


@pytest.mark.parametrize("k", [2, 3, 5])
def test_constants_of_the_two_named_schemes(k):
    uniform = uniform_exploration(k)
    assert uniform.bound == uniform.variance_bound == k**2
    assert not uniform.skew_symmetric
    skew = skew_symmetric_exploration(k)
    assert skew.bound == skew.variance_bound == k * (k - 1) / 2
    assert skew.skew_symmetric


@pytest.mark.parametrize(
    "scheme",
    [
        uniform_exploration(3),
        skew_symmetric_exploration(3),
        FixedExploration([[0.05, 0.3, 0.1], [0.05, 0.0, 0.2], [0.1, 0.1, 0.1]]),
        FixedExploration([[0.0, 0.3, 0.1], [0.05, 0.0, 0.2], [0.1, 0.25, 0.0]], "skew_symmetrised"),
    ],
    ids=["uniform", "skew", "weighted", "weighted-skew"],
)
def test_estimates_are_unbiased_within_five_standard_errors(scheme):
    rng = np.random.default_rng(3)
    P = np.array([[0.0, 0.6, -0.4], [-0.6, 0.0, 0.2], [0.4, -0.2, 0.0]])
    n = 200_000
    first, second = scheme.draw_pairs(n, rng)
    outcomes = np.where(rng.random(n) < (1 + P[first, second]) / 2, 1, -1)
    dense = dense_estimates(scheme, first, second, outcomes)
    mean = dense.mean(axis=0)
    standard_error = np.sqrt(scheme.variance_bound / n)
    assert np.abs(mean - P).max() < 5 * standard_error
    assert np.abs(dense).max() <= scheme.bound
    # E[Phat^2] <= V entrywise (the variance bound of the analysis).
    assert ((dense**2).mean(axis=0) <= scheme.variance_bound * (1 + 0.05)).all()


def test_skew_symmetrised_estimates_are_skew_symmetric():
    scheme = skew_symmetric_exploration(4)
    rng = np.random.default_rng(0)
    first, second = scheme.draw_pairs(500, rng)
    assert (first != second).all()
    dense = dense_estimates(scheme, first, second, rng.choice([-1, 1], 500))
    assert np.array_equal(dense, -dense.transpose(0, 2, 1))


def test_unexplored_pairs_and_invalid_distributions_are_rejected():
    with pytest.raises(ValueError, match=r"pair \(0, 1\) is never explored"):
        FixedExploration([[0.5, 0.0], [0.5, 0.0]])
    with pytest.raises(ValueError, match="sum to 1"):
        FixedExploration([[0.5, 0.5], [0.5, 0.0]])
    with pytest.raises(ValueError, match="estimator must be one of"):
        FixedExploration(np.full((2, 2), 0.25), "clipped")
    with pytest.raises(ValueError, match=r"outcomes must be \+1 or -1"):
        uniform_exploration(2).estimate_entries([0], [1], [0])


def test_explore_is_reproducible_and_matches_the_environment():
    population = synthetic_intransitive_population(3, 2, 20, 0.5, np.random.default_rng(1))
    environment = StochasticEnvironment(population)
    scheme = uniform_exploration(3)
    first = explore(environment, scheme, 400, np.random.default_rng(9))
    second = explore(environment, scheme, 400, np.random.default_rng(9))
    for name in ("context_ids", "first_actions", "second_actions", "outcomes"):
        assert np.array_equal(getattr(first, name), getattr(second, name))
    assert first.n_rounds == 400
    assert set(np.unique(first.outcomes)) <= {-1, 1}
    # The round-by-round path (any environment) consumes the same random numbers.
    adversary = CounterPlayAdversary(population.features, 3)
    sample = explore(adversary, scheme, 50, np.random.default_rng(9))
    assert np.array_equal(sample.first_actions, first.first_actions[:50])


def test_explore_checks_its_arguments():
    population = synthetic_intransitive_population(3, 2, 5, 0.5, np.random.default_rng(1))
    environment = StochasticEnvironment(population)
    with pytest.raises(ValueError, match="the scheme has 4 actions"):
        explore(environment, uniform_exploration(4), 10, np.random.default_rng(0))
    with pytest.raises(ValueError, match="at least 1"):
        explore(environment, uniform_exploration(3), 0, np.random.default_rng(0))
