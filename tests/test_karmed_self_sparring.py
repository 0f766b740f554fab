"""Self-Sparring: two Thompson draws per round and the Beta update, by hand."""

import numpy as np
from karmed_cases import (
    EASY,
    SHARE_HORIZON,
    SHARE_THRESHOLD,
    flipped,
    pair_both_ways,
    started,
    winner_share,
)

from cdbandits.karmed import SelfSparring


def test_first_rounds_by_hand():
    for seed in range(6):
        draws = np.random.default_rng(seed)
        # one Beta(1, 1) sample per arm for a, then a fresh set for b
        a = int(np.argmax([draws.beta(1.0, 1.0) for _ in range(3)]))
        b = int(np.argmax([draws.beta(1.0, 1.0) for _ in range(3)]))
        assert pair_both_ways(started, SelfSparring, 3, seed) == ((a, b), (a, b))
        algorithm = SelfSparring().start(3, np.random.default_rng(seed))
        assert algorithm.select() == (a, b)
        algorithm.update(a, b, 0)  # b wins
        successes, failures = np.zeros(3), np.zeros(3)
        successes[b] += 1
        failures[a] += 1
        np.testing.assert_array_equal(algorithm.successes_, successes)
        np.testing.assert_array_equal(algorithm.failures_, failures)
        # round 2 samples from Beta(1 + S, 1 + F)
        second = [draws.beta(1.0 + successes[i], 1.0 + failures[i]) for i in range(3)]
        assert algorithm.select()[0] == int(np.argmax(second))


def test_a_self_duel_counts_one_win_and_one_loss():
    algorithm = SelfSparring(learning_rate=0.5).start(2, np.random.default_rng(0))
    algorithm._selected = (1, 1)  # as if select() had returned the self-duel
    algorithm.update(1, 1, 1)
    np.testing.assert_array_equal(algorithm.successes_, [0.0, 0.5])
    np.testing.assert_array_equal(algorithm.failures_, [0.0, 0.5])


def test_concentrates_on_the_condorcet_winner():
    assert winner_share(SelfSparring, EASY, SHARE_HORIZON, range(5)) >= SHARE_THRESHOLD


def test_the_check_fails_when_the_update_learns_the_opposite_outcome():
    share = winner_share(flipped(SelfSparring), EASY, SHARE_HORIZON, range(3), engine="python")
    assert share < SHARE_THRESHOLD
