"""The crossing tracker: its comparisons equal the bounds' every round, its due rounds
never come after a crossing."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from karmed_quadratic import near_crossing_wins

from cdbandits.karmed.confidence import confidence_bounds, lower_bound, upper_bound
from cdbandits.karmed.crossings import NEVER, after_duel, crossing_round, new_tracker, refresh


def brute_force(wins, t, alpha, strict):
    """The comparisons and their row counts from all K^2 bounds."""
    upper, lower = confidence_bounds(wins, math.log(t), alpha)
    off_diagonal = ~np.eye(wins.shape[0], dtype=bool)
    upper_holds = ((upper > 0.5) if strict else (upper >= 0.5)) & off_diagonal
    lower_holds = (lower >= 0.5) & off_diagonal
    return upper_holds, lower_holds


@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize("n_arms", [2, 3, 8, 40, 136])
def test_the_comparisons_are_the_bounds_every_round(n_arms, strict):
    # Random duels (most among a few arms, so pairs cross both ways) from states near the
    # crossings, one exactly at 1/2 at some round; after every round the tracked
    # comparisons and counts must be the brute-force ones.
    checked = 0
    for seed in range(6 if n_arms < 100 else 2):
        rng = np.random.default_rng([n_arms, seed, strict])
        wins, round_, alpha = near_crossing_wins(n_arms, rng)
        tracker = new_tracker(n_arms)
        upper_holds, lower_holds, due, row_due, upper_counts, lower_counts = tracker
        refreshed = np.empty(n_arms, dtype=np.int64)
        focus = rng.choice(n_arms, size=min(n_arms, 4), replace=False)
        for t in range(round_ + 1, round_ + 400):
            n_refreshed = refresh(tracker, wins, t, alpha, strict, refreshed)
            assert (np.diff(refreshed[:n_refreshed]) > 0).all()
            expected_upper, expected_lower = brute_force(wins, t, alpha, strict)
            np.testing.assert_array_equal(upper_holds, expected_upper, err_msg=f"round {t}")
            np.testing.assert_array_equal(lower_holds, expected_lower, err_msg=f"round {t}")
            np.testing.assert_array_equal(upper_counts, expected_upper.sum(axis=1))
            np.testing.assert_array_equal(lower_counts, expected_lower.sum(axis=1))
            np.testing.assert_array_equal(row_due, due.min(axis=1))
            pool = focus if rng.random() < 0.8 else np.arange(n_arms)
            a, b = rng.choice(pool, size=2)
            winner, loser = (a, b) if rng.random() < 0.5 else (b, a)
            wins[winner, loser] += 1
            after_duel(tracker, a, b, t + 1)
            checked += 1
    assert checked > 0


@settings(max_examples=200)
@given(
    st.integers(1, 10**6),
    st.floats(0.0, 1.0),
    st.floats(0.5, 3.0, exclude_min=True),
)
def test_no_crossing_comes_before_its_round(comparisons, share, alpha):
    # Between the round after the due round and the crossing round, the comparisons are
    # those of the due round: nothing crosses 1/2 before crossing_round says it may.
    wins_ij = int(round(share * comparisons))
    wins_ji = comparisons - wins_ij
    due = crossing_round(wins_ij, wins_ji, alpha)
    if due == NEVER:
        due = 10**18
        assert comparisons * (0.5 - wins_ij / comparisons) ** 2 / alpha > 40
    start = max(due, 1)

    def comparisons_at(t):
        log_t = math.log(t)
        upper = upper_bound(wins_ij, wins_ji, log_t, alpha)
        return upper >= 0.5, upper > 0.5, lower_bound(wins_ij, wins_ji, log_t, alpha) >= 0.5

    assert comparisons_at(1) == comparisons_at(start)
    exponent = comparisons * (0.5 - wins_ij / comparisons) ** 2 / alpha
    if exponent < 34:
        # and it is at most a round or two early (the margin is tiny)
        assert start >= math.exp(exponent) * (1 - 2e-6) - 1


def test_a_pair_never_compared_is_never_due():
    assert crossing_round(0, 0, 0.51) == NEVER
    tracker = new_tracker(3)
    wins = np.zeros((3, 3), dtype=np.int64)
    assert refresh(tracker, wins, 1, 0.51, False, np.empty(3, dtype=np.int64)) == 3
    upper_holds, lower_holds, due, row_due, upper_counts, lower_counts = tracker
    assert (due == NEVER).all() and (row_due == NEVER).all()
    np.testing.assert_array_equal(upper_counts, [2, 2, 2])  # u = 2 off the diagonal
    np.testing.assert_array_equal(lower_counts, [0, 0, 0])  # l = 0
    assert refresh(tracker, wins, 2, 0.51, False, np.empty(3, dtype=np.int64)) == 0
