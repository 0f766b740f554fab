"""Versatile-DB: Tsallis-INF's distribution, the first rounds by hand, concentration."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from karmed_cases import (
    EASY,
    SHARE_HORIZON,
    SHARE_THRESHOLD,
    flipped,
    pair_both_ways,
    winner_share,
)

from cdbandits.karmed import VersatileDB
from cdbandits.karmed.versatile_db import (
    _tsallis_probabilities_by_newton,
    _tsallis_probabilities_newton,
    tsallis_probabilities,
)


def assert_tsallis_stationary(q, losses, learning_rate):
    """q_i = 4 / (eta (L_i - x))^2 for one x: L_i - 2 / (eta sqrt(q_i)) is the same for all i."""
    normaliser = losses - 2.0 / (learning_rate * np.sqrt(q))
    np.testing.assert_allclose(normaliser, normaliser[0], rtol=1e-11, atol=1e-11)
    assert q.sum() == pytest.approx(1.0, abs=1e-14)


@settings(max_examples=60)
@given(
    st.lists(st.floats(0.0, 500.0), min_size=2, max_size=40),
    st.integers(1, 10**6),
    st.floats(-2000.0, 500.0),
)
def test_newton_and_brent_find_the_same_distribution(losses, t, previous):
    losses = np.array(losses)
    learning_rate = 2.0 / math.sqrt(t)
    reference = tsallis_probabilities(losses, learning_rate)
    assert_tsallis_stationary(reference, losses, learning_rate)
    for start in (-np.inf, previous):  # cold, and warm from any previous normaliser
        compiled = np.empty(losses.size)
        normaliser = _tsallis_probabilities_newton(losses, learning_rate, start, compiled)
        np.testing.assert_allclose(compiled, reference, rtol=1e-9, atol=1e-15)
        probabilities, same = _tsallis_probabilities_by_newton(losses, learning_rate, start)
        np.testing.assert_array_equal(probabilities, compiled)
        assert same == normaliser


def test_first_rounds_by_hand():
    def make(seed, symmetric=False):
        return VersatileDB(symmetric=symmetric).start(2, np.random.default_rng(seed))

    for seed in range(6):
        u_first, u_second = np.random.default_rng(seed).random(2)
        # equal losses: q = (1/2, 1/2); both arms are inverse-CDF draws from q
        a, b = int(u_first >= 0.5), int(u_second >= 0.5)
        assert pair_both_ways(make, seed) == ((a, b), (a, b))
        algorithm = make(seed)
        algorithm.select()
        np.testing.assert_allclose(algorithm.probabilities_, [0.5, 0.5], rtol=1e-15)
        algorithm.update(a, b, 0)  # a lost: its loss 1 weighted by 1 / q = 2
        expected = np.zeros(2)
        expected[a] = 2.0
        np.testing.assert_array_equal(algorithm.losses_, expected)
        algorithm.select()  # round 2, eta = 2 / sqrt(2)
        assert_tsallis_stationary(algorithm.probabilities_, expected, math.sqrt(2.0))
        assert algorithm.probabilities_[a] < 0.5
        symmetric = make(seed, symmetric=True)
        symmetric.select()
        symmetric.update(a, b, 0)  # half of a's loss, and b's loss 0, each over 2 q
        expected = np.zeros(2)
        expected[a] = 1.0
        np.testing.assert_array_equal(symmetric.losses_, expected)


def test_concentrates_on_the_condorcet_winner():
    assert winner_share(VersatileDB, EASY, SHARE_HORIZON, range(5)) >= SHARE_THRESHOLD


def test_the_check_fails_when_the_update_learns_the_opposite_outcome():
    share = winner_share(flipped(VersatileDB), EASY, SHARE_HORIZON, range(3), engine="python")
    assert share < SHARE_THRESHOLD
