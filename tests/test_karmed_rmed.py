"""RMED1: the initial phase, the loops and the opponent rule by hand; concentration."""

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

from cdbandits.karmed import RMED1
from cdbandits.karmed.rmed import half_divergence

LOG2 = math.log(2.0)


def test_half_divergence_by_hand():
    assert half_divergence(0, 1) == pytest.approx(LOG2, abs=1e-15)  # d(0, 1/2) = log 2
    assert half_divergence(1, 3) == pytest.approx(
        4 * (0.25 * math.log(0.5) + 0.75 * math.log(1.5)), abs=1e-15
    )
    assert half_divergence(2, 2) == half_divergence(3, 1) == half_divergence(0, 0) == 0.0


def play(algorithm, outcomes):
    """Play rounds with the given outcomes; return the pairs selected."""
    pairs = []
    for outcome in outcomes:
        a, b = algorithm.select()
        algorithm.update(a, b, outcome)
        pairs.append((a, b))
    return pairs


def test_first_six_rounds_by_hand():
    algorithm = RMED1().start(3, np.random.default_rng(0))
    f = 0.3 * 3**1.01
    # initial phase: each pair once, in lexicographic order; arm 0 wins both, 1 beats 2
    assert play(algorithm, [1, 1, 1]) == [(0, 1), (0, 2), (1, 2)]
    # I = (0, log 2, 2 log 2): i* = 0. Round 4: first arm 0 has no empirical beater -> i* = 0
    assert play(algorithm, [1]) == [(0, 0)]
    # after round 4 only arm 0 has been drawn: it joins L_N (I_0 - I* = 0 <= log 4 + f)
    np.testing.assert_array_equal(algorithm.remaining_, [False, True, True])
    np.testing.assert_array_equal(algorithm.next_, [True, False, False])
    # round 5: arm 1 lost to arm 0 = i*, so it duels arm 0; arm 0 wins again
    assert play(algorithm, [0]) == [(1, 0)]
    assert algorithm.divergences_[1, 0] == pytest.approx(2 * LOG2, abs=1e-15)
    np.testing.assert_array_equal(algorithm.next_, [True, True, False])  # 2 log 2 <= log 5 + f
    # round 6: arm 2 (beaten by 0 and 1) duels i* = 0; the loop ends, every arm qualifies
    assert 3 * LOG2 <= math.log(6) + f
    assert play(algorithm, [0]) == [(2, 0)]
    assert algorithm.current_.all() and algorithm.remaining_.all() and not algorithm.next_.any()
    assert algorithm.rng_.random() == np.random.default_rng(0).random()  # RMED1 draws nothing


def cyclic(remaining):
    """Arm 0 beats 1, 1 beats 2, 2 beats 0 (2 of 5), after the initial phase."""
    algorithm = RMED1().start(3, np.random.default_rng(0))
    algorithm.wins_[:] = [[0, 4, 2], [1, 0, 4], [3, 1, 0]]
    for i in range(3):
        for j in range(3):
            algorithm.divergences_[i, j] = half_divergence(
                algorithm.wins_[i, j], algorithm.wins_[j, i]
            )
    algorithm.round_ = 15
    algorithm.remaining_[:] = remaining
    return algorithm


def test_the_opponent_rule_by_hand():
    # I_0 = 5 d(0.4, 1/2) = 0.10 < I_1 = I_2 = 5 d(0.2, 1/2) = 0.96: i* = 0
    divergence = cyclic([True] * 3).divergences_.sum(axis=1)
    assert np.argmin(divergence) == 0 and divergence[1] == divergence[2]
    # arm 1's only empirical beater is arm 0 = i*: it duels i*
    assert pair_both_ways(cyclic, [False, True, True]) == ((1, 0), (1, 0))
    # arm 2's only empirical beater is arm 1 (mu_21 = 0.2), not i*: it duels argmin mu_2j = 1
    assert pair_both_ways(cyclic, [False, False, True]) == ((2, 1), (2, 1))


def test_concentrates_on_the_condorcet_winner():
    assert winner_share(RMED1, EASY, SHARE_HORIZON, range(5)) >= SHARE_THRESHOLD


def test_the_check_fails_when_the_update_learns_the_opposite_outcome():
    share = winner_share(flipped(RMED1), EASY, SHARE_HORIZON, range(3), engine="python")
    assert share < SHARE_THRESHOLD
