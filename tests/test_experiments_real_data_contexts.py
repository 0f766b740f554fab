import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from real_data_helpers import make_log

from cdbandits.experiments.real_data.contexts import (
    best_single_lottery,
    context_game,
    context_players,
    exploitabilities,
    measure_context_gain,
)


def duel(p):
    return np.array([[0.0, p], [-p, 0.0]])


def test_opposite_contexts_cost_half_the_margin():
    # A beats B by p on clay, B beats A by p on grass: every lottery loses p/2 on average
    result = best_single_lottery(np.stack([duel(0.6), duel(-0.6)]), np.array([0.5, 0.5]))
    assert result.gain == pytest.approx(0.3)
    assert result.lower == pytest.approx(0.3)


def test_identical_contexts_gain_nothing():
    rps = np.array([[0, 1, -1], [-1, 0, 1], [1, -1, 0]], dtype=float)
    result = best_single_lottery(np.stack([rps, rps]), np.array([0.3, 0.7]))
    assert result.gain == pytest.approx(0.0, abs=1e-9)
    np.testing.assert_allclose(result.weights, 1 / 3, atol=1e-7)


def skew(values, k):
    upper = np.zeros((k, k))
    upper[np.triu_indices(k, 1)] = values
    return upper - upper.T


@settings(max_examples=25)
@given(
    st.lists(st.floats(-1, 1), min_size=6, max_size=6),
    st.floats(0.1, 0.9),
)
def test_the_lp_matches_a_grid_search_over_the_simplex(values, share):
    matrices = np.stack([skew(values[:3], 3), skew(values[3:], 3)])
    shares = np.array([share, 1 - share])
    result = best_single_lottery(matrices, shares)
    grid = (
        np.array(
            [(a, b, 20 - a - b) for a, b in itertools.product(range(21), repeat=2) if a + b <= 20]
        )
        / 20
    )
    best = min(shares @ exploitabilities(matrices, w) for w in grid)
    assert result.lower <= result.gain + 1e-8
    # the LP optimum is at most the grid's best; some grid point is within L1 distance
    # 2/20 of the optimum, and |P| <= 1 makes the objective 1-Lipschitz in L1
    assert result.gain <= best + 1e-8
    assert best - result.gain <= 2 / 20 + 1e-8


def test_least_context_players_play_in_every_context():
    # c plays only on clay (many matches); a and b play on both
    records = [(2, 3, 1)] * 10 + [(0, 1, 1), (1, 0, 1)] * 2 + [(0, 1, 1)] * 2
    contexts = ["clay"] * 10 + ["clay", "grass", "clay", "grass"] + ["grass"] * 2
    log = make_log("abcd", records, contexts)
    assert context_players(log, ["clay", "grass"], 2, "total")[0] in ("c", "d")
    assert set(context_players(log, ["clay", "grass"], 2, "least_context")) == {"a", "b"}


def test_context_gain_shows_signal_against_its_null():
    rng = np.random.default_rng(4)
    # a beats b 90% of the time on clay, b beats a 90% on grass: context matters
    records, contexts = [], []
    for context, favourite in (("clay", 0), ("grass", 1)):
        for _ in range(200):
            win = rng.random() < 0.9
            records.append((favourite, 1 - favourite, 1 if win else -1))
            contexts.append(context)
    log = make_log("ab", records, contexts)
    gain = measure_context_gain(
        log,
        "surface",
        ["clay", "grass"],
        ["a", "b"],
        resamples=50,
        permutations=50,
        confidence=0.95,
        bootstrap_rng=np.random.default_rng(1),
        permutation_rng=np.random.default_rng(2),
    )
    game = context_game(log, ["clay", "grass"])
    assert game.shares == pytest.approx([0.5, 0.5])
    # two items with opposite favourites: the best single lottery loses min(p1, p2) / 2
    margins = np.abs(game.matrices[:, 0, 1])
    assert gain.gain == pytest.approx(margins.min() / 2)
    assert gain.p_value == pytest.approx(1 / 51)
    assert gain.pooled_gain >= gain.gain - 1e-9
    low, high = gain.interval()
    assert low <= gain.gain <= high
    summary = gain.summary_table()
    assert summary.loc[0, "excess_over_null"] > 0.25
