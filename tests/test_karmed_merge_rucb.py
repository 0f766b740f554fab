"""MergeRUCB: the first rounds by hand, the tuned parameters, the last survivor,
concentration on the winner."""

import math

import numpy as np
import pytest
from karmed_cases import (
    EASY,
    SHARE_HORIZON,
    SHARE_THRESHOLD,
    flipped,
    pair_both_ways,
    play_tuned,
    winner_share,
)

from cdbandits.karmed import MergeRUCB


def test_first_two_rounds_by_hand():
    def make(seed):
        return MergeRUCB(partition_size=2).start(4, np.random.default_rng(seed))

    for seed in range(6):
        draws = np.random.default_rng(seed)
        order = draws.permutation(4)
        first_batch, second_batch = sorted(order[:2]), sorted(order[2:])
        algorithm = make(seed)
        assert algorithm.n_batches_ == 2 and algorithm.stage_ == 1
        # round 1 works on batch 0: c uniform over its two arms (nothing compared, nothing
        # eliminated), d the other one
        position = int(2 * draws.random())
        first_pair = (first_batch[position], first_batch[1 - position])
        assert algorithm.select() == first_pair
        assert pair_both_ways(make, seed) == (first_pair, first_pair)
        algorithm.update(*first_pair, 1)
        # round 2 works on batch 1
        position = int(2 * draws.random())
        assert algorithm.select() == (second_batch[position], second_batch[1 - position])


def test_the_last_survivor_duels_itself():
    def make():
        algorithm = MergeRUCB(partition_size=2, time_offset=0.0).start(2, np.random.default_rng(0))
        algorithm.wins_[0, 1] = 40
        algorithm.round_ = 40
        return algorithm

    assert math.sqrt(1.01 * math.log(41) / 40) < 0.5  # u_10 < 1/2: arm 1 is eliminated
    assert pair_both_ways(make) == ((0, 0), (0, 0))
    algorithm = make()
    algorithm.select()
    np.testing.assert_array_equal(algorithm.batch_, [0, -1])


def test_concentrates_on_the_condorcet_winner():
    assert winner_share(MergeRUCB, EASY, SHARE_HORIZON, range(5)) >= SHARE_THRESHOLD


def test_the_check_fails_when_the_update_learns_the_opposite_outcome():
    share = winner_share(flipped(MergeRUCB), EASY, SHARE_HORIZON, range(3), engine="python")
    assert share < SHARE_THRESHOLD


def test_the_tuned_parameters_of_the_mergedts_paper_run():
    # The MergeDTS authors' MergeRUCBBEST: alpha = 0.8^6 < 1/2, C = 4e5, P = 8.
    play_tuned(MergeRUCB, alpha=0.8**6, time_offset=4e5, partition_size=8)
    with pytest.raises(ValueError, match="time_offset"):
        MergeRUCB(alpha=0.5)
