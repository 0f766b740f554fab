"""D-TS: the first round by hand, the Beta tail recursion, concentration on the winner."""

import math

import numpy as np
import pytest
import scipy.special
import scipy.stats
from hypothesis import given, settings
from hypothesis import strategies as st
from karmed_cases import (
    EASY,
    SHARE_HORIZON,
    SHARE_THRESHOLD,
    flipped,
    pair_both_ways,
    play_tuned,
    started,
    winner_share,
)
from karmed_quadratic import (
    assert_plays_like_quadratic,
    comparisons_flip,
    near_crossing_wins,
    quadratic_dts_rounds,
)

from cdbandits.karmed import DoubleThompsonSampling
from cdbandits.karmed.dts import UNCOMPARED_TAIL, beta_tail_after_duel


def test_first_round_by_hand():
    for seed in range(8):
        draws = np.random.default_rng(seed)
        # both arms have upper Copeland score 1 (u = 2): C = {0, 1}. The event
        # theta_01 > 1/2 has probability 1/2 (Beta(1, 1)) and decides the first arm.
        first = 0 if draws.random() < 0.5 else 1
        other = 1 - first
        # l_{other, first} = 0 <= 1/2: the other arm is plausible, theta2 ~ Beta(1, 1)
        # against theta2_first = 1/2
        second = other if draws.beta(1.0, 1.0) > 0.5 else first
        assert pair_both_ways(started, DoubleThompsonSampling, 2, seed) == (
            (first, second),
            (first, second),
        )


def test_a_lone_copeland_candidate_draws_no_first_sample():
    def make(seed):
        algorithm = DoubleThompsonSampling().start(3, np.random.default_rng(seed))
        algorithm.wins_[0, 1] = algorithm.wins_[0, 2] = 40
        algorithm.wins_[1, 2] = algorithm.wins_[2, 1] = 2
        algorithm.round_ = 84
        return algorithm

    radius = math.sqrt(0.51 * math.log(85) / 40)
    assert radius < 0.5  # u_10 = u_20 = radius: only arm 0 has upper Copeland score 2
    # l_{j,0} = -radius <= 1/2 for both others: both get a Beta(1, 41) sample
    for seed in range(5):
        draws = np.random.default_rng(seed)
        theta = [0.5, draws.beta(1.0, 41.0), draws.beta(1.0, 41.0)]
        assert pair_both_ways(make, seed) == ((0, int(np.argmax(theta))),) * 2


def test_the_tail_recursion_by_hand():
    # Beta(2, 1) after one win: Pr(theta > 1/2) = 3/4; Beta(1, 2) after one loss: 1/4
    assert beta_tail_after_duel(*UNCOMPARED_TAIL, 0, 0, True)[0] == 0.75
    assert beta_tail_after_duel(*UNCOMPARED_TAIL, 0, 0, False)[0] == 0.25
    # Beta(4, 7): Pr(Binomial(10, 1/2) <= 3) = (1 + 10 + 45 + 120) / 1024
    state, wins, losses = UNCOMPARED_TAIL, 0, 0
    for won in [True, False, False, True, False, True, False, False, False]:
        state = beta_tail_after_duel(*state, wins, losses, won)
        wins, losses = wins + won, losses + (not won)
    assert (wins, losses) == (3, 6)
    assert state[0] == pytest.approx(176 / 1024, abs=1e-15)


@settings(max_examples=50)
@given(st.lists(st.booleans(), min_size=1, max_size=400))
def test_the_tail_recursion_matches_scipy(outcomes):
    state, wins, losses = UNCOMPARED_TAIL, 0, 0
    for won in outcomes:
        state = beta_tail_after_duel(*state, wins, losses, won)
        wins, losses = wins + won, losses + (not won)
    expected = scipy.special.betainc(losses + 1.0, wins + 1.0, 0.5)
    assert state[0] == pytest.approx(expected, abs=1e-13)
    assert state[1] == pytest.approx(scipy.stats.binom.pmf(wins, wins + losses + 1, 0.5), abs=1e-13)


def test_the_sampled_events_have_the_beta_probability():
    # The first-candidate rule reads only the events theta_ij > 1/2; their probability,
    # kept by the recursion, must be Beta's: 20,000 samples, 4.5 standard errors.
    state, wins, losses = UNCOMPARED_TAIL, 0, 0
    for won in [False, True, False, False]:
        state = beta_tail_after_duel(*state, wins, losses, won)
        wins, losses = wins + won, losses + (not won)
    assert state[0] == pytest.approx(6 / 32, abs=1e-15)  # Pr(Binomial(5, 1/2) <= 1)
    frequency = np.mean(np.random.default_rng(0).beta(2.0, 4.0, 20_000) > 0.5)
    assert abs(frequency - state[0]) < 4.5 * math.sqrt(state[0] * (1 - state[0]) / 20_000)


def test_the_tuned_alpha_of_the_mergedts_experiments_runs():
    # The MergeDTS authors' DTSBEST: alpha = 0.8^7 < 1/2.
    play_tuned(DoubleThompsonSampling, alpha=0.8**7)


def test_concentrates_on_the_condorcet_winner():
    assert winner_share(DoubleThompsonSampling, EASY, SHARE_HORIZON, range(5)) >= SHARE_THRESHOLD


def test_the_check_fails_when_the_update_learns_the_opposite_outcome():
    share = winner_share(
        flipped(DoubleThompsonSampling), EASY, SHARE_HORIZON, range(3), engine="python"
    )
    assert share < SHARE_THRESHOLD


@pytest.mark.parametrize("n_arms", [2, 3, 8, 40, 136])
def test_the_kernel_plays_like_the_quadratic_kernel_near_crossings(n_arms):
    # The kernel keeps the upper Copeland scores by tracking when each u_ij crosses 1/2 and
    # samples only the pairs with an arm in C; the reference recomputes all K^2 bounds and
    # scans all pairs every round. From states where many bounds are a few rounds from 1/2
    # (one exactly 1/2 at some round), both must play the same duels.
    flips = 0
    for seed in range(12 if n_arms < 100 else 4):
        rng = np.random.default_rng([n_arms, seed])
        wins, round_, alpha = near_crossing_wins(n_arms, rng)
        algorithms = []
        for _ in range(2):
            algorithm = started(DoubleThompsonSampling, n_arms, seed, alpha=alpha)
            algorithm.wins_[:] = wins
            algorithm.beta_tails_[:] = beta_tails(wins)
            algorithm.round_ = round_
            algorithms.append(algorithm)
        assert_plays_like_quadratic(*algorithms, quadratic_dts_rounds, 300, seed)
        flips += comparisons_flip(wins, round_ + 1, round_ + 300, alpha)
    assert flips >= (1 if n_arms < 8 else 10)  # the states do cross 1/2


def beta_tails(wins):
    """``beta_tails_`` of a D-TS whose win counts are ``wins`` (scipy's Beta and binomial)."""
    n = wins + wins.T + 1
    return np.stack(
        [
            scipy.special.betainc(wins.T + 1.0, wins + 1.0, 0.5),
            scipy.stats.binom.pmf(wins, n, 0.5),
            scipy.stats.binom.pmf(wins + 1, n, 0.5),
        ]
    )


@pytest.mark.parametrize("n_arms", [3, 10, 30])
def test_the_kernel_plays_like_the_quadratic_kernel_from_the_first_round(n_arms):
    # early rounds: every duel moves its pair's bounds across 1/2 and back
    for seed in range(3):
        tracked, reference = (started(DoubleThompsonSampling, n_arms, seed) for _ in range(2))
        assert_plays_like_quadratic(tracked, reference, quadratic_dts_rounds, 2000, seed)
