"""MergeDTS: the first round by hand, the second arm's rule, the tuned parameters, the last
survivor, concentration on the winner."""

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
from scipy import integrate, stats

from cdbandits.karmed import MergeDTS


def challengers_of_arm_0(second_arm, seed, wins_of_0, wins_against_0):
    """A started 4-arm MergeDTS (``second_arm`` None: the default), one batch, whose arm 0
    beat each arm ``j`` ``wins_of_0`` times and lost ``wins_against_0[j - 1]`` times; no
    other duels, and ``C = 1e40`` keeps every arm in the batch."""
    options = {} if second_arm is None else {"second_arm": second_arm}
    algorithm = MergeDTS(partition_size=4, time_offset=1e40, **options)
    algorithm.start(4, np.random.default_rng(seed))
    algorithm.wins_[0, 1:] = wins_of_0
    algorithm.wins_[1:, 0] = wins_against_0
    return algorithm


@pytest.mark.parametrize(("second_arm", "expected"), [(None, 3), ("weakest", 3), ("strongest", 1)])
def test_second_arm_by_hand(second_arm, expected):
    # Arm 0 beat arms 1, 2, 3 in 200 duels each and lost 80, 30, 0: theta_0j ~
    # Beta(201, W_j0 + 1) exceeds 1/2 (by 8 sd or more), so c = 0. P(j beats 0) is sampled
    # from Beta(W_j0 + 1, 201): 0.29 +- 0.03 (arm 1), 0.13 +- 0.02 (arm 2), 0.005 +- 0.005
    # (arm 3), more than 4 sd apart. The authors' rule (the default) takes arm 3, the one
    # least likely to beat c; D-TS's rule takes arm 1.
    def make(seed):
        return challengers_of_arm_0(second_arm, seed, 200, [80, 30, 0])

    for seed in range(10):
        assert pair_both_ways(make, seed) == ((0, expected), (0, expected))


def argmin_probabilities(first, second):
    """P(the j-th of independent Beta(first[j], second[j]) samples is the smallest)."""
    laws = [stats.beta(a, b) for a, b in zip(first, second, strict=True)]

    def density(x, j):
        others = np.prod([laws[k].sf(x) for k in range(len(laws)) if k != j])
        return laws[j].pdf(x) * others

    return np.array([integrate.quad(density, 0.0, 1.0, args=(j,))[0] for j in range(len(laws))])


@pytest.mark.parametrize("second_arm", ["weakest", "strongest"])
def test_second_arm_law_matches_the_integral(second_arm):
    # Overlapping challengers: P(j beats 0) ~ Beta(9, 31), Beta(13, 31), Beta(17, 31). The
    # frequencies of d over 1500 seeds (rounds where c = 0; both engines agree on each) must
    # fit the law of the argmin (authors' rule) or argmax (D-TS's rule) of the three samples,
    # computed by numerical integration: chi-square test at level 1e-3.
    wins_against_0 = np.array([8, 12, 16])
    first, second = wins_against_0 + 1, np.full(3, 31)
    weakest = argmin_probabilities(first, second)
    strongest = argmin_probabilities(second, first)  # 1 - X has the law Beta(b, a)
    expected = weakest if second_arm == "weakest" else strongest
    assert np.abs(weakest - strongest).max() > 0.3  # the two rules are far apart here
    counts = np.zeros(3)
    for seed in range(1500):
        selected, compiled = pair_both_ways(
            challengers_of_arm_0, second_arm, seed, 30, wins_against_0
        )
        assert selected == compiled
        if selected[0] == 0:
            counts[selected[1] - 1] += 1
    assert counts.sum() > 1400
    assert stats.chisquare(counts, expected * counts.sum()).pvalue > 1e-3


def test_second_arm_is_checked():
    with pytest.raises(ValueError, match="second_arm"):
        MergeDTS(second_arm="argmax")


def test_the_tuned_parameters_of_the_paper_run():
    # The authors' MergeDTSBEST: alpha = 0.8^6 < 1/2, C = 4e5, M = 16.
    play_tuned(MergeDTS, alpha=0.8**6, time_offset=4e5, partition_size=16)
    with pytest.raises(ValueError, match="time_offset"):
        MergeDTS(alpha=0.8**6)  # the formula for C needs alpha > 1/2
    with pytest.raises(ValueError, match="alpha"):
        MergeDTS(alpha=0.0, time_offset=4e5)


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
