"""Exact regret, the policy game M, exploitability and the contextual vNW against brute force."""

import numpy as np
import pytest

from cdbandits.contextual.baselines import UniformDuels
from cdbandits.contextual.environments import (
    StochasticEnvironment,
    synthetic_intransitive_population,
)
from cdbandits.contextual.exp4p import SparringExp4P
from cdbandits.contextual.oracle import TableOracle
from cdbandits.contextual.policies import DecisionStumps, RandomLinearPolicies
from cdbandits.contextual.regret import (
    contextual_exploitability,
    contextual_von_neumann_winner,
    distinct_policies,
    mixture_action_distributions,
    policy_matrix,
    regret_curve,
)
from cdbandits.winners import CERTIFICATE_TOL


@pytest.fixture(scope="module")
def game():
    population = synthetic_intransitive_population(3, 2, 25, 0.8, np.random.default_rng(2))
    policies = RandomLinearPolicies(3, 60, random_state=4).fit(population.features)
    return population, policies.action_table(population.features)


def brute_force_matrix(population, actions):
    n, S = actions.shape
    M = np.zeros((S, S))
    for x in range(n):
        M += population.probabilities[x] * population.matrices[x][np.ix_(actions[x], actions[x])]
    return M


@pytest.mark.parametrize("algorithm", [SparringExp4P, UniformDuels])
def test_regret_by_oracle_equals_brute_force(game, algorithm):
    population, table = game
    runner = algorithm(table) if algorithm is SparringExp4P else algorithm()
    log = runner.run(StochasticEnvironment(population), 3000, np.random.default_rng(0))
    checkpoints = [1, 10, 500, 2999, 3000]
    chosen = table.actions[log.context_ids]
    per_policy = np.cumsum(log.gains[np.arange(3000)[:, None], chosen], axis=0)
    expected = per_policy[np.array(checkpoints) - 1].max(axis=1)
    curve = regret_curve(log, TableOracle(table), checkpoints)
    np.testing.assert_allclose(curve, expected, rtol=0, atol=1e-9)
    assert regret_curve(log, TableOracle(table)).tolist() == pytest.approx([expected[-1]], abs=1e-9)


def test_regret_with_the_stump_oracle_equals_brute_force(game):
    population, _ = game
    stumps = DecisionStumps(3, 4).fit(population.features)
    table = stumps.action_table(population.features)
    log = UniformDuels().run(StochasticEnvironment(population), 1000, np.random.default_rng(1))
    chosen = table.actions[log.context_ids]
    per_policy = np.cumsum(log.gains[np.arange(1000)[:, None], chosen], axis=0)
    curve = regret_curve(log, stumps.oracle(population.features), [100, 1000])
    np.testing.assert_allclose(curve, per_policy[[99, 999]].max(axis=1), rtol=0, atol=1e-9)


def test_policy_matrix_equals_brute_force(game):
    population, table = game
    M = policy_matrix(population, table.actions)
    np.testing.assert_allclose(M, brute_force_matrix(population, table.actions), atol=1e-14)
    assert np.array_equal(M, -M.T)


def test_exploitability_by_oracle_equals_the_matrix_game(game):
    population, table = game
    rng = np.random.default_rng(3)
    weights = rng.dirichlet(np.ones(table.n_policies)) * 0.9
    distributions = mixture_action_distributions(table.actions, weights, 3, uniform_weight=0.1)
    np.testing.assert_allclose(distributions.sum(axis=1), 1, atol=1e-12)
    value = contextual_exploitability(population, TableOracle(table), distributions)
    # The uniform part is one more "policy" column: d_x = sum_pi W(pi) e_pi(x) + 0.1 / K.
    contexts = np.arange(population.n_contexts)
    uniform_row = np.array(
        [
            population.probabilities
            @ population.matrices[contexts, :, table.actions[:, rho]].mean(axis=1)
            for rho in range(table.n_policies)
        ]
    )
    expected = (weights @ brute_force_matrix(population, table.actions) + 0.1 * uniform_row).min()
    assert value == pytest.approx(expected, abs=1e-12)


def test_contextual_von_neumann_winner_is_certified(game):
    population, table = game
    winner = contextual_von_neumann_winner(population, table.actions)
    assert winner.distinct_policies <= table.n_policies
    assert winner.policy_weights.sum() == pytest.approx(1, abs=1e-12)
    distributions = mixture_action_distributions(table.actions, winner.policy_weights, 3)
    value = contextual_exploitability(population, TableOracle(table), distributions)
    assert value >= -CERTIFICATE_TOL
    assert value <= 1e-12  # the game value is 0


def test_regret_curve_validates_checkpoints(game):
    population, table = game
    log = UniformDuels().run(StochasticEnvironment(population), 10, np.random.default_rng(0))
    with pytest.raises(ValueError, match="1..10"):
        regret_curve(log, TableOracle(table), [5, 11])
    with pytest.raises(ValueError, match="increasing"):
        regret_curve(log, TableOracle(table), [5, 5])


def test_mixture_distributions_of_a_mixture_larger_than_one_block():
    rng = np.random.default_rng(8)
    actions = rng.integers(0, 3, size=(7, 9000)).astype(np.uint8)
    weights = rng.random(9000)
    weights[::5] = 0.0
    weights *= 0.9 / weights.sum()
    expected = np.full((7, 3), 0.1 / 3)
    for row in range(7):
        expected[row] += np.bincount(actions[row], weights=weights, minlength=3)
    got = mixture_action_distributions(actions, weights, 3, uniform_weight=0.1)
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-12)


def test_distinct_policies_keep_the_first_of_each_set_of_clones():
    actions = np.array([[0, 1, 0, 2, 1], [1, 1, 1, 0, 1]], dtype=np.uint8)
    np.testing.assert_array_equal(distinct_policies(actions), [0, 1, 3])
