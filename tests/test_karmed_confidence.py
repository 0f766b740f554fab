"""Relative confidence bounds (x/0 := 1) and the random-tie argmax."""

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from cdbandits.karmed.confidence import (
    confidence_bounds,
    lower_bound,
    random_argmax,
    random_argmax_compiled,
    upper_bound,
)


def test_bounds_by_hand():
    wins = np.array([[0, 3, 0], [1, 0, 0], [0, 0, 0]])
    upper, lower = confidence_bounds(wins, math.log(10), 0.51)
    radius = math.sqrt(0.51 * math.log(10) / 4)  # 4 duels between arms 0 and 1
    assert upper[0, 1] == 0.75 + radius and lower[0, 1] == 0.75 - radius
    assert upper[1, 0] == 0.25 + radius and lower[1, 0] == 0.25 - radius
    # pairs never compared: each quotient x/0 is 1
    assert upper[0, 2] == upper[2, 1] == 2.0 and lower[0, 2] == lower[2, 1] == 0.0
    np.testing.assert_array_equal(np.diagonal(upper), 0.5)
    np.testing.assert_array_equal(np.diagonal(lower), 0.5)


@settings(max_examples=50)
@given(
    st.integers(0, 50),
    st.integers(0, 50),
    st.integers(1, 10**6),
    st.floats(0.51, 3.0),
)
def test_compiled_bounds_are_the_same_numbers(wins_ij, wins_ji, t, alpha):
    wins = np.array([[0, wins_ij], [wins_ji, 0]])
    upper, lower = confidence_bounds(wins, math.log(t), alpha)
    assert upper_bound(wins_ij, wins_ji, math.log(t), alpha) == upper[0, 1]
    assert lower_bound(wins_ij, wins_ji, math.log(t), alpha) == lower[0, 1]


def test_random_argmax_breaks_ties_by_pick_and_avoids_an_arm():
    values = np.array([0.3, 0.9, 0.9, 0.5, 0.9])
    candidates = np.arange(5)
    tied = np.array([1, 2, 4])
    scratch = np.empty(5, dtype=np.int64)
    for seed in range(10):
        u = np.random.default_rng(seed).random()
        assert random_argmax(values, candidates, np.random.default_rng(seed)) == tied[int(3 * u)]
        assert (
            random_argmax(values, candidates, np.random.default_rng(seed), avoid=2)
            == [1, 4][int(2 * u)]
        )
        assert random_argmax_compiled(
            values, candidates, 5, np.random.default_rng(seed), 2, scratch
        ) == random_argmax(values, candidates, np.random.default_rng(seed), avoid=2)
    # a unique maximum draws nothing, even when it is the arm to avoid
    rng = np.random.default_rng(0)
    assert random_argmax(values, np.array([0, 1, 3]), rng, avoid=1) == 1
    assert rng.random() == np.random.default_rng(0).random()
