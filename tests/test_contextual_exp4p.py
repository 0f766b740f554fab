"""Exp4.P against hand-computed updates and its guarantee; SparringEXP4.P's online-to-batch."""

import math

import numpy as np
import pytest

from cdbandits.contextual.environments import ContextPopulation, StochasticEnvironment
from cdbandits.contextual.exp4p import Exp4P, Exp4PParameters, SparringExp4P, _exp4p_update
from cdbandits.contextual.oracle import ActionTable, TableOracle
from cdbandits.contextual.regret import contextual_exploitability, mixture_action_distributions

TWO_EXPERTS = np.array([0, 1], dtype=np.uint8)  # expert 0 advises action 0, expert 1 action 1


def test_first_two_rounds_match_the_formulas():
    learner = Exp4P(n_actions=2, n_policies=2, horizon=100, delta=0.1, uniform_expert=False)
    p_min = math.sqrt(math.log(2) / 200)
    confidence = math.sqrt(math.log(2 / 0.1) / 200)
    assert learner.p_min_ == pytest.approx(p_min, rel=1e-15)
    np.testing.assert_allclose(learner.action_probabilities(TWO_EXPERTS), [0.5, 0.5], rtol=1e-15)
    assert learner.choose(TWO_EXPERTS, 0.3) == 0
    learner.update(1.0)
    # rhat = (1 / 0.5, 0); yhat_i = rhat[advice_i]; vhat_i = 1 / 0.5
    expected = [0.5 * p_min * (2.0 + confidence * 2.0), 0.5 * p_min * confidence * 2.0]
    np.testing.assert_allclose(learner.log_weights_, expected, rtol=1e-14)
    share = math.exp(expected[0]) / (math.exp(expected[0]) + math.exp(expected[1]))
    probabilities = learner.action_probabilities(TWO_EXPERTS)
    np.testing.assert_allclose(
        probabilities,
        [(1 - 2 * p_min) * share + p_min, (1 - 2 * p_min) * (1 - share) + p_min],
        rtol=1e-14,
    )
    assert learner.choose(TWO_EXPERTS, 0.999) == 1
    learner.update(0.0)  # no reward: only the variance term, 1 / p_j, moves the weights
    expected[0] += 0.5 * p_min * confidence / probabilities[0]
    expected[1] += 0.5 * p_min * confidence / probabilities[1]
    np.testing.assert_allclose(learner.log_weights_, expected, rtol=1e-14)


def test_uniform_expert_update():
    learner = Exp4P(n_actions=2, n_policies=2, horizon=100, delta=0.1, uniform_expert=True)
    p_min, confidence = learner.p_min_, learner.confidence_
    assert p_min == pytest.approx(math.sqrt(math.log(3) / 200), rel=1e-15)
    learner.choose(TWO_EXPERTS, 0.1)
    learner.update(1.0)
    # The uniform expert's yhat = rhat_0 / 2 = 1 and vhat = (1/2)(1/0.5 + 1/0.5) = 2.
    assert learner.log_weights_[2] == pytest.approx(0.5 * p_min * (1.0 + 2.0 * confidence))


def test_exp4p_finds_the_right_expert_within_its_guarantee():
    # Reward 1 for action 2, else 0: expert 2 is best with reward T (rewards in [0, 1]).
    horizon, delta = 5000, 0.05
    advice = np.arange(4, dtype=np.uint8)
    learner = Exp4P(4, 4, horizon, delta)
    uniforms = np.random.default_rng(0).random(horizon)
    reward = 0.0
    for u in uniforms:
        action = learner.choose(advice, u)
        learner.update(float(action == 2))
        reward += action == 2
    guarantee = 6 * math.sqrt(4 * horizon * math.log(5 / delta))  # Beygelzimer et al., Thm 2
    assert reward >= horizon - guarantee
    distribution = learner.expert_distribution()
    assert distribution[2] > 0.95  # the rest mostly on the uniform expert, which also earns
    assert distribution[[0, 1, 3]].max() < 0.01
    mean = learner.mean_expert_distribution()
    assert mean.sum() == pytest.approx(1, abs=1e-12) and np.argmax(mean) == 2


def test_weights_are_recomputed_from_log_weights_when_they_grow():
    log_weights = np.array([400.0, 0.0, -800.0])
    weights = np.exp(log_weights - 400.0) * 3.0  # a drifted multiplicative copy
    probabilities = np.array([0.5, 0.5])
    growth = _exp4p_update(
        (log_weights, weights, np.zeros(3)),
        np.array([0, 1, 0], dtype=np.uint8),
        Exp4PParameters(uniform_expert=False, p_min=0.1, confidence=0.2),
        probabilities,
        1.0,
        0,
        1.0,
        499.99,
        False,
        np.empty(2),
        np.empty(2),
    )
    assert growth == 0.0
    np.testing.assert_allclose(weights, np.exp(log_weights - log_weights.max()), rtol=1e-15)


def test_exp4p_validates_its_parameters():
    with pytest.raises(ValueError, match="K ln N <= T"):
        Exp4P(5, 1000, horizon=20)
    with pytest.raises(ValueError, match="delta"):
        Exp4P(2, 3, 100, delta=1.5)
    learner = Exp4P(2, 2, 100)
    with pytest.raises(RuntimeError, match="choose"):
        learner.update(0.5)
    with pytest.raises(ValueError, match="uint8 vector of 2"):
        learner.choose(np.array([0, 1, 1], dtype=np.uint8), 0.5)
    learner.choose(TWO_EXPERTS, 0.5)
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        learner.update(-1.0)


def rock_paper_scissors_game() -> tuple[StochasticEnvironment, ActionTable]:
    """One context, RPS preferences, and the three constant policies: vNW = uniform."""
    rps = np.array([[0.0, 0.8, -0.8], [-0.8, 0.0, 0.8], [0.8, -0.8, 0.0]])
    population = ContextPopulation(np.zeros((1, 1)), rps[None], np.ones(1))
    return StochasticEnvironment(population), ActionTable(np.array([[0, 1, 2]], dtype=np.uint8), 3)


def test_online_to_batch_exploitability_decreases_with_m():
    environment, table = rock_paper_scissors_game()
    oracle = TableOracle(table)
    epsilons = []
    for m in (100, 1000, 10_000):
        values = []
        for seed in range(5):
            sparring = SparringExp4P(table, uniform_expert=False)
            sparring.run(environment, m, np.random.default_rng(seed))
            weights, uniform = sparring.mean_policy_distribution()
            assert uniform == 0.0 and weights.sum() == pytest.approx(1, abs=1e-12)
            distributions = mixture_action_distributions(table.actions, weights, 3)
            values.append(contextual_exploitability(environment.population, oracle, distributions))
        epsilons.append(-np.mean(values))
    assert epsilons[0] > epsilons[1] > epsilons[2] >= 0
    assert epsilons[2] < 0.05


def test_sparring_splits_delta_between_the_four_events():
    environment, table = rock_paper_scissors_game()
    sparring = SparringExp4P(table, delta=0.2)
    sparring.run(environment, 50, np.random.default_rng(0))
    assert sparring.row_.delta == sparring.column_.delta == 0.05
    assert sparring.row_.n_experts_ == 4  # three policies and the uniform expert
    with pytest.raises(RuntimeError, match="track_distribution"):
        sparring.column_.mean_expert_distribution()
