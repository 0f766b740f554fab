"""MergeDTS: the first round by hand, the last survivor, concentration on the winner."""

import math

import numpy as np
from karmed_cases import (
    EASY,
    SHARE_HORIZON,
    SHARE_THRESHOLD,
    flipped,
    pair_both_ways,
    winner_share,
)

from cdbandits.karmed import MergeDTS


def test_first_round_by_hand():
    def make(seed):
        return MergeDTS(partition_size=2).start(4, np.random.default_rng(seed))

    for seed in range(8):
        draws = np.random.default_rng(seed)
        low, high = sorted(draws.permutation(4)[:2])  # batch 0
        # theta ~ Beta(1, 1) decides which arm of the batch wins the sampled tournament;
        # the challenger's Beta(1, 1) sample is then drawn, and it is the only other arm
        c, d = (low, high) if draws.beta(1.0, 1.0) > 0.5 else (high, low)
        draws.beta(1.0, 1.0)
        algorithm = make(seed)
        assert algorithm.select() == (c, d)
        assert algorithm.rng_.random() == draws.random()
        assert pair_both_ways(make, seed) == ((c, d), (c, d))


def test_the_last_survivor_duels_itself():
    def make():
        algorithm = MergeDTS(partition_size=2, time_offset=0.0).start(2, np.random.default_rng(0))
        algorithm.wins_[1, 0] = 40
        algorithm.round_ = 40
        return algorithm

    assert math.sqrt(1.01 * math.log(41) / 40) < 0.5  # u_01 < 1/2: arm 0 is eliminated
    assert pair_both_ways(make) == ((1, 1), (1, 1))


def test_concentrates_on_the_condorcet_winner():
    assert winner_share(MergeDTS, EASY, SHARE_HORIZON, range(5)) >= SHARE_THRESHOLD


def test_the_check_fails_when_the_update_learns_the_opposite_outcome():
    share = winner_share(flipped(MergeDTS), EASY, SHARE_HORIZON, range(3), engine="python")
    assert share < SHARE_THRESHOLD
