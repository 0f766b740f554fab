"""RUCB: first rounds by hand, the champion rule, concentration on the Condorcet winner."""

import math

import numpy as np
import pytest
from karmed_cases import (
    EASY,
    SHARE_HORIZON,
    SHARE_THRESHOLD,
    flipped,
    pair_both_ways,
    started,
    winner_share,
)
from karmed_quadratic import (
    assert_plays_like_quadratic,
    comparisons_flip,
    near_crossing_wins,
    quadratic_rucb_rounds,
)

from cdbandits.karmed import RUCB

RADIUS_10 = math.sqrt(0.51 * math.log(11) / 10)  # 10 duels of a pair, round t = 11


def test_first_round_by_hand():
    for seed in range(6):
        algorithm = RUCB().start(3, np.random.default_rng(seed))
        draws = np.random.default_rng(seed)
        # nothing compared: u = 2 off the diagonal, every arm a candidate, B empty
        c = int(3 * draws.random())
        # column c: u_jc = 2 for both other arms, u_cc = 1/2: a tie, and d != c
        d = [arm for arm in range(3) if arm != c][int(2 * draws.random())]
        assert pair_both_ways(started, RUCB, 3, seed) == (
            (c, d),
            (c, d),
        )
        assert algorithm.select() == (c, d)
        algorithm.update(c, d, 1)
        assert algorithm.wins_[c, d] == 1 and algorithm.wins_.sum() == 1
        assert algorithm.champion_ == -1
        assert algorithm.rng_.random() == draws.random()  # exactly two uniforms used


def test_second_round_by_hand():
    def make(seed):
        algorithm = RUCB().start(2, np.random.default_rng(seed))
        algorithm.wins_[0, 1] = 1  # arm 0 beat arm 1 in round 1
        algorithm.round_ = 1
        return algorithm

    # t = 2: u_10 = 0 + sqrt(0.51 ln 2) = 0.595 >= 1/2, so both arms are candidates
    assert math.sqrt(0.51 * math.log(2)) > 0.5
    for seed in range(6):
        c = int(2 * np.random.default_rng(seed).random())
        assert pair_both_ways(make, seed) == ((c, 1 - c), (c, 1 - c))


def test_a_confident_winner_is_the_champion_and_duels_itself():
    def make():
        algorithm = RUCB().start(2, np.random.default_rng(0))
        algorithm.wins_[0, 1] = 10
        algorithm.round_ = 10
        return algorithm

    assert RADIUS_10 < 0.5  # u_10 = 0.35: arm 1 is not a candidate
    algorithm = make()
    # C = {0}: B = {0}, c = 0; column 0: u_00 = 1/2 beats u_10 = 0.35, so d = c
    assert pair_both_ways(make) == ((0, 0), (0, 0))
    assert algorithm.select() == (0, 0) and algorithm.champion_ == 0
    assert algorithm.rng_.random() == np.random.default_rng(0).random()  # no draw
    algorithm.update(0, 0, 1)
    assert algorithm.wins_[0, 0] == 1  # recorded, never read (u_ii is 1/2)


def test_the_champion_is_first_with_probability_one_half():
    def make(seed, champion):
        algorithm = RUCB().start(3, np.random.default_rng(seed))
        algorithm.wins_[0, 2] = algorithm.wins_[1, 2] = 10  # arm 2 blocked by both others
        algorithm.round_ = 10
        algorithm.champion_ = champion
        return algorithm

    for seed in range(8):
        u = np.random.default_rng(seed).random()
        # C = {0, 1}, B = {0}: c = 0 if the coin u < 1/2, else the one arm of C \ B
        c = 0 if u < 0.5 else 1
        # column c: the other candidate was never compared with c (u = 2), arm 2 has 0.35
        assert pair_both_ways(make, seed, 0) == ((c, 1 - c), (c, 1 - c))
        # a champion outside C is forgotten, and c is uniform over C
        algorithm = make(seed, 2)
        c = int(2 * u)
        assert algorithm.select() == (c, 1 - c) and algorithm.champion_ == -1


def test_no_candidate_makes_the_first_arm_uniform():
    def make(seed):
        algorithm = RUCB().start(3, np.random.default_rng(seed))
        algorithm.wins_[0, 1] = algorithm.wins_[1, 2] = algorithm.wins_[2, 0] = 10  # a cycle
        algorithm.round_ = 30
        return algorithm

    for seed in range(6):
        c = int(3 * np.random.default_rng(seed).random())
        # column c: the arm that beat c ten times has u = 1 + radius, the other 0 + radius
        d = (c + 2) % 3
        assert pair_both_ways(make, seed) == ((c, d), (c, d))


def test_concentrates_on_the_condorcet_winner():
    assert winner_share(RUCB, EASY, SHARE_HORIZON, range(5)) >= SHARE_THRESHOLD


def test_the_check_fails_when_the_update_learns_the_opposite_outcome():
    share = winner_share(flipped(RUCB), EASY, SHARE_HORIZON, range(3), engine="python")
    assert share < SHARE_THRESHOLD


@pytest.mark.parametrize("n_arms", [2, 3, 8, 40, 136])
def test_the_kernel_plays_like_the_quadratic_kernel_near_crossings(n_arms):
    # The kernel keeps the candidates by tracking when each u_ij crosses 1/2; the reference
    # recomputes all K^2 bounds every round. From states where many bounds are a few
    # rounds from 1/2 (and while the duels move them), both must play the same duels.
    flips = 0
    for seed in range(12 if n_arms < 100 else 4):
        rng = np.random.default_rng([n_arms, seed])
        wins, round_, alpha = near_crossing_wins(n_arms, rng)
        champion = int(rng.integers(-1, n_arms))
        algorithms = []
        for _ in range(2):
            algorithm = started(RUCB, n_arms, seed, alpha=alpha)
            algorithm.wins_[:] = wins
            algorithm.round_, algorithm.champion_ = round_, champion
            algorithms.append(algorithm)
        assert_plays_like_quadratic(*algorithms, quadratic_rucb_rounds, 150, seed)
        flips += comparisons_flip(wins, round_ + 1, round_ + 150, alpha)
    assert flips >= (1 if n_arms < 8 else 10)  # the states do cross 1/2


@pytest.mark.parametrize("n_arms", [3, 10, 30])
def test_the_kernel_plays_like_the_quadratic_kernel_from_the_first_round(n_arms):
    # early rounds: every duel moves its pair's bounds across 1/2 and back
    for seed in range(3):
        tracked, reference = (started(RUCB, n_arms, seed) for _ in range(2))
        assert_plays_like_quadratic(tracked, reference, quadratic_rucb_rounds, 2000, seed)
