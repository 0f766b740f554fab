"""The sweeps' environment: its ground truth, representatives and explored games."""

import numpy as np
import pytest
from test_experiments_oracle_experiments import TINY

from cdbandits.experiments.oracle.environment import build_environment
from cdbandits.experiments.oracle.settings import EnvironmentSettings
from cdbandits.oracle_methods.exploration import uniform_exploration
from cdbandits.oracle_methods.ground_truth import maxmin_strategy
from cdbandits.oracle_methods.hull import PolicyMixture


def test_environment_ground_truth():
    environment = build_environment(EnvironmentSettings.from_config(TINY), 11)
    assert environment.n_policies == 2 * 2 * 4
    np.testing.assert_allclose(environment.true_matrix, -environment.true_matrix.T)
    assert (
        np.unique(environment.actions[:, environment.representatives].T, axis=0).shape[0]
        == environment.representatives.size
    )


def test_the_population_depends_on_the_seed_only():
    settings = EnvironmentSettings.from_config(TINY)
    first, again = build_environment(settings, 3), build_environment(settings, 3)
    other = build_environment(settings, 4)
    np.testing.assert_array_equal(first.population.features, again.population.features)
    assert not np.array_equal(first.population.features, other.population.features)


def test_the_explored_game_estimates_the_true_one():
    environment = build_environment(EnvironmentSettings.from_config(TINY), 11)
    rng = np.random.default_rng(0)
    sample, game, oracle = environment.explore_game(uniform_exploration(2), 20000, rng)
    assert oracle.n_rounds == game.n_rounds == sample.n_rounds == 20000
    mhat = environment.empirical_matrix(game, sample)
    assert mhat.shape == environment.true_matrix.shape
    assert np.abs(mhat - environment.true_matrix).max() < 0.2


def test_exploitability_agrees_with_the_true_matrix():
    environment = build_environment(EnvironmentSettings.from_config(TINY), 11)
    solution = maxmin_strategy(environment.true_matrix)
    assert environment.exploitability(environment.lp_mixture(solution)) == pytest.approx(
        0.0, abs=1e-6
    )
    pure = [
        environment.exploitability(PolicyMixture.uniform([policy]))
        for policy in environment.representatives
    ]
    # A policy's exploitability is minus the smallest entry of its row of M.
    np.testing.assert_allclose(pure, -environment.true_matrix.min(axis=1), atol=1e-12)
