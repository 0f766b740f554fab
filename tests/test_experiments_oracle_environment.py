"""The sweeps' environment: its ground truth, representatives and explored games."""

import numpy as np
import pytest
from test_experiments_oracle_experiments import TINY

from cdbandits.experiments.oracle.environment import (
    build_environment,
    cyclic_population,
    environment_of,
    switching_population,
)
from cdbandits.experiments.oracle.settings import EnvironmentSettings
from cdbandits.oracle_methods.exploration import uniform_exploration
from cdbandits.oracle_methods.ground_truth import maxmin_strategy
from cdbandits.oracle_methods.hull import PolicyMixture
from cdbandits.winners import von_neumann_winner


def test_environment_ground_truth():
    environment = build_environment(EnvironmentSettings.from_config(TINY["environment"]), 11)
    assert environment.n_policies == 2 * 2 * 4
    np.testing.assert_allclose(environment.true_matrix, -environment.true_matrix.T)
    assert (
        np.unique(environment.actions[:, environment.representatives].T, axis=0).shape[0]
        == environment.representatives.size
    )


def test_the_population_depends_on_the_seed_only():
    settings = EnvironmentSettings.from_config(TINY["environment"])
    first, again = build_environment(settings, 3), build_environment(settings, 3)
    other = build_environment(settings, 4)
    np.testing.assert_array_equal(first.population.features, again.population.features)
    assert not np.array_equal(first.population.features, other.population.features)


def test_the_explored_game_estimates_the_true_one():
    environment = build_environment(EnvironmentSettings.from_config(TINY["environment"]), 11)
    rng = np.random.default_rng(0)
    sample, game, oracle = environment.explore_game(uniform_exploration(2), 20000, rng)
    assert oracle.n_rounds == game.n_rounds == sample.n_rounds == 20000
    mhat = environment.empirical_matrix(game, sample)
    assert mhat.shape == environment.true_matrix.shape
    assert np.abs(mhat - environment.true_matrix).max() < 0.2


def test_exploitability_agrees_with_the_true_matrix():
    environment = build_environment(EnvironmentSettings.from_config(TINY["environment"]), 11)
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


@pytest.mark.parametrize(("n_contexts", "margin", "n_bins"), [(20, 1.0, 2), (8, 0.3, 4)])
def test_switching_population_has_a_stump_winner_and_its_opposite_loses_margin(
    n_contexts, margin, n_bins
):
    population = switching_population(n_contexts, margin)
    np.testing.assert_array_equal(
        switching_population(n_contexts, margin).matrices, population.matrices
    )
    x = population.features[:, 0]
    assert np.all((0 < x) & (x < 1)) and (x < 0.5).sum() == n_contexts // 2
    environment = environment_of(population, n_bins)
    assert environment.n_policies == (n_bins - 1) * 4
    # The winner (0 below the median, 1 above) and its opposite are policies of the class.
    winner = (x > 0.5).astype(np.uint8)
    columns = environment.actions.T
    best = int(np.flatnonzero((columns == winner).all(axis=1))[0])
    worst = int(np.flatnonzero((columns == 1 - winner).all(axis=1))[0])
    assert environment.exploitability(PolicyMixture.uniform([best])) == pytest.approx(0.0)
    assert environment.exploitability(PolicyMixture.uniform([worst])) == pytest.approx(margin)
    # Always action 0 (the best fixed arm) loses margin on half the contexts.
    always_0 = int(np.flatnonzero((columns == 0).all(axis=1))[0])
    assert environment.exploitability(PolicyMixture.uniform([always_0])) == pytest.approx(
        margin / 2
    )


@pytest.mark.parametrize(
    ("n_contexts", "margin", "message"),
    [(7, 1.0, "n_contexts must be even"), (0, 1.0, "at least 2"), (4, 1.5, "margin must be")],
)
def test_switching_population_refuses_bad_arguments(n_contexts, margin, message):
    with pytest.raises(ValueError, match=message):
        switching_population(n_contexts, margin)


@pytest.mark.parametrize(("n_contexts", "margin"), [(20, 1.0), (12, 0.4)])
def test_the_cyclic_population_has_a_mixed_winner_and_no_pure_one(n_contexts, margin):
    environment = environment_of(cyclic_population(n_contexts, margin), 2)
    true = environment.true_matrix
    assert environment.n_actions == 3 and environment.n_policies == 9
    winner = von_neumann_winner(true)
    assert winner.support.size >= 3
    # No Condorcet winner: every policy loses to some other, by the margin at the least.
    assert (true.min(axis=1) <= -margin + 1e-12).all()
    # Every policy is a Copeland winner (the cyclic symmetry) and none a von Neumann winner:
    # a pure policy is beaten by the margin.
    copeland = (true > 1e-12).sum(axis=1)
    assert (copeland == copeland.max()).all()
    for policy in range(true.shape[0]):
        representative = int(environment.representatives[policy])
        pure = environment.exploitability(PolicyMixture.uniform([representative]))
        assert pure == pytest.approx(margin)
    mixture = PolicyMixture.from_weights(environment.representatives, winner.weights)
    assert environment.exploitability(mixture) == pytest.approx(0.0, abs=1e-9)
    # Below the median a beats a + 1; above, the cycle turns the other way.
    x = environment.population.features[:, 0]
    matrices = environment.population.matrices
    assert (matrices[x < 0.5, 0, 1] == margin).all() and (matrices[x > 0.5, 0, 1] == -margin).all()


def test_cyclic_population_refuses_bad_arguments():
    with pytest.raises(ValueError, match="n_contexts must be even"):
        cyclic_population(5, 1.0)
    with pytest.raises(ValueError, match="margin must be"):
        cyclic_population(4, 0.0)
