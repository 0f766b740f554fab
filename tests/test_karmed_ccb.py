"""CCB: first round, the three hypothesis rules by hand, concentration on the winner."""

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
    quadratic_ccb_rounds,
)

from cdbandits.karmed import CCB


def test_first_round_by_hand():
    for seed in range(6):
        draws = np.random.default_rng(seed)
        # four uniforms: the 1/4 coin (no challenger pairs yet), the 2/3 coin (B and C are
        # both all arms), the pick of c, the 1/2 coin; d is the other arm (u = 2 > 1/2)
        uniforms = draws.random(4)
        c = int(2 * uniforms[2])
        algorithm = CCB().start(2, np.random.default_rng(seed))
        assert algorithm.select() == (c, 1 - c)
        assert algorithm.rng_.random() == draws.random()
        assert pair_both_ways(started, CCB, 2, seed) == (
            (c, 1 - c),
            (c, 1 - c),
        )


def test_remove_and_add_copeland_winners_by_hand():
    def make():
        algorithm = CCB().start(3, np.random.default_rng(1))
        algorithm.wins_[0, 1] = algorithm.wins_[0, 2] = 50
        algorithm.wins_[1, 2] = algorithm.wins_[2, 1] = 25
        algorithm.round_ = 150
        return algorithm

    # t = 151, radius 0.226 for 50 duels: arm 0 is confidently better than both others
    # (optimistic = pessimistic Copeland score 2); arms 1 and 2 have optimistic score 1
    algorithm = make()
    pair = algorithm.select()
    # (B) removes arms 1 and 2 with B^i = {k : u_ik < 1/2} = {0}; (C) adds arm 0 with
    # L_C = K - 1 - 2 = 0, which leaves the one-arm B^1, B^2 alone
    np.testing.assert_array_equal(algorithm.candidates_, [True, False, False])
    np.testing.assert_array_equal(
        algorithm.challengers_, [[False] * 3, [True, False, False], [True, False, False]]
    )
    assert algorithm.max_losses_ == 0
    # no challenger pair is uncertain; c = 0; every arm has l_j0 <= 1/2 and u_00 = 1/2 is
    # the largest u_j0, so arm 0 duels itself; three coins were drawn
    assert pair == (0, 0)
    draws = np.random.default_rng(1)
    draws.random(3)
    assert algorithm.rng_.random() == draws.random()
    assert pair_both_ways(make) == ((0, 0), (0, 0))


def test_a_disproven_hypothesis_resets_everything():
    algorithm = CCB().start(3, np.random.default_rng(0))
    algorithm.candidates_[:] = [True, False, False]
    algorithm.challengers_[1, 2] = True  # "arm 2 may beat arm 1"
    algorithm.max_losses_ = 1
    algorithm.wins_[1, 2] = 50  # ... but l_12 = 0.8 > 1/2
    algorithm.round_ = 50
    algorithm.select()
    # reset to B = all arms, B^i empty, L_C = K; no later rule changes them (no arm's
    # pessimistic score reaches another's optimistic one, no scores agree)
    assert algorithm.candidates_.all() and not algorithm.challengers_.any()
    assert algorithm.max_losses_ == 3


def test_challenger_sets_are_cut_at_random_to_the_loss_bound():
    def make(seed):
        algorithm = CCB().start(4, np.random.default_rng(seed))
        algorithm.wins_[0, 1:] = 50
        algorithm.wins_[2, 1] = 50
        algorithm.round_ = 200
        return algorithm

    for seed in range(6):
        algorithm = make(seed)
        pair = algorithm.select()
        # arm 0 confidently beats all: L_C = 0, so B^1 = {0, 2} is cut to one arm, chosen by
        # the partial shuffle's one pick; B^2 = B^3 = {0} keep their single arm
        kept = [0, 2][int(2 * np.random.default_rng(seed).random())]
        assert np.flatnonzero(algorithm.challengers_[1]).tolist() == [kept]
        assert algorithm.challengers_[2].tolist() == algorithm.challengers_[3].tolist()
        assert np.flatnonzero(algorithm.challengers_[2]).tolist() == [0]
        assert pair == (0, 0)
        assert pair_both_ways(make, seed) == ((0, 0), (0, 0))


def test_concentrates_on_the_condorcet_winner():
    assert winner_share(CCB, EASY, SHARE_HORIZON, range(5)) >= SHARE_THRESHOLD


def test_the_check_fails_when_the_update_learns_the_opposite_outcome():
    share = winner_share(flipped(CCB), EASY, SHARE_HORIZON, range(3), engine="python")
    assert share < SHARE_THRESHOLD


@pytest.mark.parametrize("n_arms", [2, 3, 8, 40, 136])
def test_the_kernel_plays_like_the_quadratic_kernel_near_crossings(n_arms):
    # The kernel keeps both Copeland scores by tracking when each u_ij and l_ij crosses
    # 1/2, checks rule (A) on the last duel only and counts the exploration pairs per row;
    # the reference recomputes all K^2 bounds every round. From states where many bounds
    # are a few rounds from 1/2 (one exactly 1/2 at some round), with random hypotheses
    # (some disproven at once), both must play the same duels.
    flips = 0
    for seed in range(12 if n_arms < 100 else 4):
        rng = np.random.default_rng([n_arms, seed])
        wins, round_, alpha = near_crossing_wins(n_arms, rng)
        candidates = rng.random(n_arms) < 0.3
        candidates[rng.integers(n_arms)] = True
        challengers = rng.random((n_arms, n_arms)) < rng.choice([0.0, 0.02, 0.3])
        np.fill_diagonal(challengers, False)
        max_losses = int(rng.integers(0, n_arms + 1))
        algorithms = []
        for _ in range(2):
            algorithm = started(CCB, n_arms, seed, alpha=alpha)
            algorithm.wins_[:] = wins
            algorithm.candidates_[:] = candidates
            algorithm.challengers_[:] = challengers
            algorithm.round_, algorithm.max_losses_ = round_, max_losses
            algorithms.append(algorithm)
        assert_plays_like_quadratic(*algorithms, quadratic_ccb_rounds, 300, seed)
        flips += comparisons_flip(wins, round_ + 1, round_ + 300, alpha)
    assert flips >= (1 if n_arms < 8 else 10)  # the states do cross 1/2


@pytest.mark.parametrize("n_arms", [3, 10, 30])
def test_the_kernel_plays_like_the_quadratic_kernel_from_the_first_round(n_arms):
    # early rounds: every duel moves its pair's bounds across 1/2 and back
    for seed in range(3):
        tracked, reference = (started(CCB, n_arms, seed) for _ in range(2))
        assert_plays_like_quadratic(tracked, reference, quadratic_ccb_rounds, 2000, seed)
