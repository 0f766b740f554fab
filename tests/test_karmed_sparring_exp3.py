"""Sparring EXP3: EXP3's update by hand, the two learners, the limit without a winner."""

import math

import numpy as np
import pytest
from karmed_cases import (
    EASY,
    SHARE_HORIZON,
    SHARE_THRESHOLD,
    flipped,
    pair_both_ways,
    winner_share,
)

from cdbandits.karmed import SparringExp3, simulate
from cdbandits.karmed.sparring_exp3 import (
    Exp3,
    exp3_exploration_rate,
    exp3_probabilities,
    exp3_update,
)
from cdbandits.winners import von_neumann_winner


def test_exploration_rate():
    assert exp3_exploration_rate(3, 1000) == math.sqrt(3 * math.log(3) / ((math.e - 1) * 1000))
    assert exp3_exploration_rate(10, 1) == 1.0
    with pytest.raises(ValueError, match="n_arms"):
        exp3_exploration_rate(1, 10)


def test_exp3_by_hand_and_compiled():
    learner = Exp3(3, 0.3)
    np.testing.assert_allclose(learner.action_probabilities(), [1 / 3] * 3, rtol=1e-15)
    assert learner.choose(0.5) == 1
    learner.update(0.6)
    np.testing.assert_allclose(learner.log_weights_, [0.0, 0.3 * 0.6 / (1 / 3 * 3), 0.0])
    weights = np.exp(learner.log_weights_)
    expected = 0.7 * weights / weights.sum() + 0.1
    np.testing.assert_allclose(learner.action_probabilities(), expected, rtol=1e-14)
    compiled = np.empty(3)
    exp3_probabilities(learner.log_weights_, 0.3, compiled)
    np.testing.assert_allclose(compiled, expected, rtol=1e-14)
    log_weights = learner.log_weights_.copy()
    exp3_update(log_weights, compiled, 0.3, 2, 1.0)
    assert log_weights[2] == pytest.approx(0.3 / (compiled[2] * 3), rel=1e-15)
    with pytest.raises(RuntimeError, match="choose"):
        learner.update(0.5)
    learner.choose(0.1)
    with pytest.raises(ValueError, match="rewards"):
        learner.update(1.5)


def test_first_rounds_by_hand():
    def make(seed):
        return SparringExp3(gamma=0.2).start(2, np.random.default_rng(seed))

    for seed in range(6):
        u_row, u_column = np.random.default_rng(seed).random(2)
        # both learners start uniform: the inverse CDF at u is 0 below 1/2, else 1
        a, b = int(u_row >= 0.5), int(u_column >= 0.5)
        assert pair_both_ways(make, seed) == ((a, b), (a, b))
        algorithm = make(seed)
        algorithm.select()
        algorithm.update(a, b, 1)  # the row's arm won: it gains gamma * 1 / (1/2 * 2)
        assert algorithm.row_.log_weights_[a] == pytest.approx(0.2, rel=1e-15)
        assert algorithm.row_.log_weights_[1 - a] == 0.0
        assert not algorithm.column_.log_weights_.any()
        p = 0.8 * math.exp(0.2) / (math.exp(0.2) + 1) + 0.1
        assert algorithm.row_.action_probabilities()[a] == pytest.approx(p, rel=1e-14)


# A game without a Condorcet winner; its vNW is (1/3, 1/3, 1/3, 0).
CYCLE = np.array(
    [[0, 0.6, -0.6, 0.3], [-0.6, 0, 0.6, 0.3], [0.6, -0.6, 0, 0.3], [-0.3, -0.3, -0.3, 0]]
)


def second_half_frequencies(algorithm, engine="compiled"):
    result = simulate(
        algorithm,
        CYCLE,
        60_000,
        np.random.default_rng(1),
        [30_000, 60_000],
        engine=engine,
        record_duels=True,
    )
    return np.bincount(result.duels[30_000:, 0], minlength=4) / 30_000


def test_sparring_approaches_the_von_neumann_winner_without_a_condorcet_winner():
    # tolerance 0.06 on each frequency of the row player's arms (measured: within 0.034)
    target = von_neumann_winner(CYCLE).weights
    np.testing.assert_allclose(second_half_frequencies(SparringExp3()), target, atol=0.06)


def test_the_von_neumann_check_fails_when_the_update_learns_the_opposite_outcome():
    frequencies = second_half_frequencies(flipped(SparringExp3)(), engine="python")
    target = von_neumann_winner(CYCLE).weights
    assert np.abs(frequencies - target).max() > 0.06


def test_concentrates_on_the_condorcet_winner():
    assert winner_share(SparringExp3, EASY, SHARE_HORIZON, range(5)) >= SHARE_THRESHOLD


def test_the_check_fails_when_the_update_learns_the_opposite_outcome():
    share = winner_share(flipped(SparringExp3), EASY, SHARE_HORIZON, range(3), engine="python")
    assert share < SHARE_THRESHOLD
