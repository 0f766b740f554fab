"""Baselines: EXP3's update, uniform duels' frequencies, context-blind sparring's limit."""

import math

import numpy as np
import pytest

from cdbandits.contextual.baselines import Exp3, SparringExp3, UniformDuels, exp3_exploration_rate
from cdbandits.contextual.environments import ContextPopulation, StochasticEnvironment
from cdbandits.winners import von_neumann_winner


def test_exp3_update_matches_the_formula():
    learner = Exp3(n_actions=3, horizon=1000)
    gamma = math.sqrt(3 * math.log(3) / ((math.e - 1) * 1000))
    assert learner.gamma_ == pytest.approx(gamma, rel=1e-15)
    np.testing.assert_allclose(learner.action_probabilities(), np.full(3, 1 / 3), rtol=1e-15)
    assert learner.choose(0.5) == 1
    learner.update(0.6)
    np.testing.assert_allclose(learner.log_weights_, [0, gamma * 0.6 * 3 / 3, 0], rtol=1e-14)
    weights = np.exp(learner.log_weights_)
    expected = (1 - gamma) * weights / weights.sum() + gamma / 3
    np.testing.assert_allclose(learner.action_probabilities(), expected, rtol=1e-14)


def test_exploration_rate_is_capped_at_one():
    assert exp3_exploration_rate(10, 1) == 1.0
    with pytest.raises(ValueError, match="gamma"):
        Exp3(3, 100, gamma=0.0)


def context_free_environment(P: np.ndarray, n_contexts: int = 1) -> StochasticEnvironment:
    matrices = np.repeat(P[None], n_contexts, axis=0)
    probabilities = np.full(n_contexts, 1 / n_contexts)
    return StochasticEnvironment(
        ContextPopulation(np.zeros((n_contexts, 1)), matrices, probabilities)
    )


def test_uniform_duels_play_every_pair_equally_often():
    environment = context_free_environment(np.zeros((3, 3)), n_contexts=2)
    log = UniformDuels().run(environment, 90_000, np.random.default_rng(0))
    pairs = np.bincount(3 * log.first_actions + log.second_actions, minlength=9) / 90_000
    np.testing.assert_allclose(pairs, np.full(9, 1 / 9), atol=0.005)  # ~5 std
    assert set(np.unique(log.outcomes)) == {-1, 1}


def test_sparring_exp3_approaches_the_von_neumann_winner():
    # A 4-action game whose vNW is not uniform: (1/3, 1/3, 1/3, 0).
    P = np.array(
        [[0, 0.6, -0.6, 0.3], [-0.6, 0, 0.6, 0.3], [0.6, -0.6, 0, 0.3], [-0.3, -0.3, -0.3, 0]]
    )
    target = von_neumann_winner(P).weights
    log = SparringExp3().run(context_free_environment(P), 100_000, np.random.default_rng(1))
    frequencies = np.bincount(log.first_actions[50_000:], minlength=4) / 50_000
    np.testing.assert_allclose(frequencies, target, atol=0.06)
