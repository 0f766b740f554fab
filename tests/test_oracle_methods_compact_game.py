"""The compact game B: the identity v_pi^T B v_rho = Mhat(pi, rho), sparse products."""

import numpy as np
import pytest

from cdbandits.contextual.environments import (
    StochasticEnvironment,
    synthetic_intransitive_population,
)
from cdbandits.contextual.policies import DecisionStumps
from cdbandits.oracle_methods.compact_game import CompactGame, policy_vectors
from cdbandits.oracle_methods.exploration import (
    explore,
    skew_symmetric_exploration,
    uniform_exploration,
)
from cdbandits.oracle_methods.ground_truth import policy_game_matrix
from cdbandits.oracle_methods.oracles import ExactOracle


def tiny_setting(scheme, n_rounds=300, seed=0):
    population = synthetic_intransitive_population(3, 2, 15, 0.6, np.random.default_rng(seed))
    stumps = DecisionStumps(3, 4).fit(population.features)
    sample = explore(
        StochasticEnvironment(population), scheme, n_rounds, np.random.default_rng(seed + 1)
    )
    game = CompactGame.from_sample(sample, scheme)
    return population, stumps, sample, game


def mhat_by_definition(scheme, sample, actions):
    """(1/m) sum_i Phat_i(pi(x_i), rho(x_i)) for every pair, straight from eq. (f3)."""
    dense = np.zeros((sample.n_rounds, scheme.n_actions, scheme.n_actions))
    rounds, rows, columns, values = scheme.estimate_entries(
        sample.first_actions, sample.second_actions, sample.outcomes
    )
    dense[rounds, rows, columns] = values
    on_rounds = actions[sample.context_ids]  # (m, N)
    n = actions.shape[1]
    result = np.empty((n, n))
    for pi in range(n):
        for rho in range(n):
            result[pi, rho] = dense[
                np.arange(sample.n_rounds), on_rounds[:, pi], on_rounds[:, rho]
            ].mean()
    return result


@pytest.mark.parametrize(
    "scheme", [uniform_exploration(3), skew_symmetric_exploration(3)], ids=["uniform", "skew"]
)
def test_policy_vectors_recover_mhat(scheme):
    population, stumps, sample, game = tiny_setting(scheme)
    actions = stumps.actions(population.features)
    expected = mhat_by_definition(scheme, sample, actions)
    oracle = ExactOracle(stumps, population.features, sample.context_ids)
    vectors = [oracle.vector(pi) for pi in range(stumps.n_policies)]
    assert all(np.isclose(np.linalg.norm(v), 1.0) for v in vectors)
    from_game = np.array([[game.payoff(v, u) for u in vectors] for v in vectors])
    np.testing.assert_allclose(from_game, expected, rtol=0, atol=1e-12)
    blocks = game.context_blocks(sample.context_ids, population.n_contexts)
    np.testing.assert_allclose(policy_game_matrix(blocks, actions), expected, rtol=0, atol=1e-12)
    if scheme.skew_symmetric:
        np.testing.assert_allclose(expected, -expected.T, atol=1e-12)


def test_products_agree_with_a_dense_block_diagonal_matrix():
    scheme = uniform_exploration(3)
    _, _, _, game = tiny_setting(scheme, n_rounds=40)
    dense = np.zeros((40 * 3, 40 * 3))
    dense[game.rounds * 3 + game.rows, game.rounds * 3 + game.columns] = game.values
    rng = np.random.default_rng(5)
    w, u = rng.normal(size=(2, 40, 3))
    np.testing.assert_allclose(game.times(u).ravel(), dense @ u.ravel(), atol=1e-12)
    np.testing.assert_allclose(game.transpose_times(w).ravel(), dense.T @ w.ravel(), atol=1e-12)
    assert game.payoff(w, u) == pytest.approx(w.ravel() @ dense @ u.ravel(), abs=1e-10)
    # One non-zero per block for the paper's estimator.
    assert game.values.size == 40
    assert np.abs(game.values).max() == game.bound == 9


def test_norm_of_b_u_is_at_most_l_on_the_hull():
    scheme = uniform_exploration(3)
    population, stumps, sample, game = tiny_setting(scheme)
    actions = stumps.actions(population.features)[sample.context_ids]
    weights = np.random.default_rng(2).dirichlet(np.ones(actions.shape[1]))
    u = policy_vectors(actions, 3, weights)
    assert np.linalg.norm(game.times(u)) <= game.bound


def test_invalid_games_are_rejected():
    with pytest.raises(ValueError, match="listed twice"):
        CompactGame(
            2,
            2,
            np.array([0, 0]),
            np.array([1, 1]),
            np.array([0, 0]),
            np.array([1.0, 1.0]),
            4.0,
            4.0,
            False,
        )
    with pytest.raises(ValueError, match="exceeds the bound"):
        CompactGame(
            2, 2, np.array([0]), np.array([1]), np.array([0]), np.array([5.0]), 4.0, 4.0, False
        )
    _, _, _, game = tiny_setting(uniform_exploration(3), n_rounds=10)
    with pytest.raises(ValueError, match="shape"):
        game.times(np.zeros((10, 2)))
