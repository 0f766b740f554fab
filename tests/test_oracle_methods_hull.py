"""Hull points as sparse mixtures and their security levels against brute force over Mhat."""

import numpy as np
import pytest

from cdbandits.contextual.environments import (
    StochasticEnvironment,
    synthetic_intransitive_population,
)
from cdbandits.contextual.policies import RandomLinearPolicies
from cdbandits.oracle_methods.compact_game import CompactGame
from cdbandits.oracle_methods.exploration import explore, uniform_exploration
from cdbandits.oracle_methods.ground_truth import policy_game_matrix
from cdbandits.oracle_methods.hull import (
    PolicyMixture,
    column_security,
    duality_gap,
    row_security,
)
from cdbandits.oracle_methods.oracles import ExactOracle


@pytest.fixture(scope="module")
def setting():
    population = synthetic_intransitive_population(3, 2, 25, 0.7, np.random.default_rng(4))
    policies = RandomLinearPolicies(3, 60, random_state=1).fit(population.features)
    scheme = uniform_exploration(3)
    sample = explore(StochasticEnvironment(population), scheme, 500, np.random.default_rng(5))
    game = CompactGame.from_sample(sample, scheme)
    oracle = ExactOracle(policies, population.features, sample.context_ids)
    mhat = policy_game_matrix(
        game.context_blocks(sample.context_ids, population.n_contexts),
        policies.actions(population.features),
    )
    return policies, game, oracle, mhat


def test_mixtures_merge_repeats_and_check_weights():
    mixture = PolicyMixture.from_weights([4, 1, 4, 2], [0.25, 0.25, 0.25, 0.0])
    assert mixture.policies.tolist() == [1, 4]
    np.testing.assert_allclose(mixture.weights, [1 / 3, 2 / 3])
    assert PolicyMixture.uniform([3, 3, 5, 3]).weights.tolist() == [0.75, 0.25]
    with pytest.raises(ValueError, match="sorted and distinct"):
        PolicyMixture(np.array([2, 1]), np.array([0.5, 0.5]))
    with pytest.raises(ValueError, match="sum to 1"):
        PolicyMixture(np.array([1, 2]), np.array([0.5, 0.6]))


def test_security_levels_equal_brute_force_over_mhat(setting):
    policies, game, oracle, mhat = setting
    rng = np.random.default_rng(1)
    w_mixture = PolicyMixture.from_weights(
        np.arange(policies.n_policies), rng.dirichlet(np.ones(60))
    )
    u_mixture = PolicyMixture.from_weights([3, 7, 11], [0.2, 0.3, 0.5])
    w, u = w_mixture.vector(oracle), u_mixture.vector(oracle)
    dense_w = np.zeros(60)
    dense_w[w_mixture.policies] = w_mixture.weights
    dense_u = np.zeros(60)
    dense_u[u_mixture.policies] = u_mixture.weights
    assert game.payoff(w, u) == pytest.approx(dense_w @ mhat @ dense_u, abs=1e-12)
    assert row_security(game, oracle, w).value == pytest.approx((dense_w @ mhat).min(), abs=1e-12)
    assert column_security(game, oracle, u).value == pytest.approx(
        (mhat @ dense_u).max(), abs=1e-12
    )
    gap = duality_gap(game, oracle, w, u)
    assert gap == pytest.approx((mhat @ dense_u).max() - (dense_w @ mhat).min(), abs=1e-12)
    assert gap >= 0
