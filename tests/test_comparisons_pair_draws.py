"""Resampled pair wins: the bootstrap's units and the posterior's draws, in both layouts."""

import numpy as np
import pytest
from test_comparisons_counts import random_log
from test_comparisons_records import make_log

from cdbandits.comparisons import pair_draws
from cdbandits.comparisons.counts import count_pairs
from cdbandits.comparisons.pair_draws import (
    bootstrap_pair_wins,
    compared_bootstrap_wins,
    compared_posterior_wins,
    pair_index,
    posterior_pair_wins,
    skew_stack,
)
from cdbandits.comparisons.records import (
    FIRST_WINS,
    SECOND_WINS,
    TIE,
    ComparisonLogError,
    log_from_counts,
)
from cdbandits.preference import as_skew


@pytest.mark.parametrize("dense_entries", [pair_draws.DENSE_UNIT_ENTRIES, 0])
def test_resampling_units_add_up_to_the_counts(monkeypatch, dense_entries):
    monkeypatch.setattr(pair_draws, "DENSE_UNIT_ENTRIES", dense_entries)  # dense or sparse
    log = make_log(
        ["a", "b", "c"],
        [
            ("a", "b", FIRST_WINS),
            ("b", "a", FIRST_WINS),
            ("c", "b", SECOND_WINS),
            ("a", "c", TIE),
            ("a", "b", FIRST_WINS),
        ],
        weights=[2, 1, 3, 1, 4],
    )
    counts = count_pairs(log)
    contributions, multiplicity = pair_draws._resampling_units(log, counts.pairs)
    assert hasattr(contributions, "toarray") == (dense_entries == 0)
    totals = multiplicity @ (contributions.toarray() if dense_entries == 0 else contributions)
    np.testing.assert_allclose(totals, counts.pair_wins.T.ravel())
    assert multiplicity.sum() == 11  # comparisons, counted by weight


def test_bootstrap_resamples_the_comparisons_around_the_counts():
    log = log_from_counts(["a", "b", "c"], [[0, 30, 5], [10, 0, 8], [15, 12, 0]])
    draws = np.concatenate(list(bootstrap_pair_wins(log, 4000, np.random.default_rng(1))))
    assert np.all(draws.sum(axis=(1, 2)) == 80)  # every resample has all 80 comparisons
    counts = count_pairs(log)
    rows, cols = pair_index(3)
    np.testing.assert_allclose(draws[:, 0].mean(axis=0), counts.wins[rows, cols], rtol=0.03)
    # Multinomial: the 30 wins of a over b vary with variance 80 * p * (1 - p), p = 30/80.
    assert draws[:, 0, 0].var() == pytest.approx(80 * 30 / 80 * 50 / 80, rel=0.1)


def test_bootstrap_resamples_whole_groups():
    # Two kinds of voter: 3 voters say a > b > c, 1 voter says c > b > a.
    log = make_log(
        ["a", "b", "c"],
        [
            ("a", "b", FIRST_WINS),
            ("b", "c", FIRST_WINS),
            ("a", "c", FIRST_WINS),
            ("c", "b", FIRST_WINS),
            ("b", "a", FIRST_WINS),
            ("c", "a", FIRST_WINS),
        ],
        weights=[3, 3, 3, 1, 1, 1],
        group=[0, 0, 0, 1, 1, 1],
    )
    draws = np.concatenate(list(bootstrap_pair_wins(log, 500, np.random.default_rng(2))))
    majority = draws[:, 0]  # wins of the lower item of each pair: voters of the first kind
    assert set(np.unique(majority)) <= {0.0, 1.0, 2.0, 3.0, 4.0}
    assert np.all(majority == majority[:, :1])  # the three pairs move together
    assert np.all(draws[:, 1] == 4 - majority)


def test_fractional_weights_go_to_the_posterior_only():
    log = make_log(["a", "b"], [("a", "b", FIRST_WINS)], weights=[0.5])
    with pytest.raises(ComparisonLogError, match="needs integer weights"):
        next(bootstrap_pair_wins(log, 10, np.random.default_rng(0)))
    draws = next(posterior_pair_wins(count_pairs(log), 10, np.random.default_rng(0)))
    assert draws.shape == (10, 2, 1)


def test_posterior_moments_and_the_prior_for_pairs_never_compared():
    counts = count_pairs(log_from_counts(["a", "b", "c"], [[0, 7, 0], [3, 0, 0], [0, 0, 0]]))
    draws = np.concatenate(
        list(posterior_pair_wins(counts, 20000, np.random.default_rng(3), prior=(2.0, 1.0)))
    )
    # a vs b: Beta(2 + 7, 1 + 3); a vs c and b vs c: the prior Beta(2, 1).
    assert draws[:, 0, 0].mean() == pytest.approx(9 / 13, abs=0.005)
    assert draws[:, 0, 1].mean() == pytest.approx(2 / 3, abs=0.005)
    assert draws[:, 0, 1].var() == pytest.approx(2 * 1 / (3**2 * 4), rel=0.05)
    np.testing.assert_allclose(draws[:, 1], 1 - draws[:, 0])
    with pytest.raises(ValueError, match="positive parameters"):
        next(posterior_pair_wins(counts, 1, np.random.default_rng(0), prior=(0, 1)))


def test_skew_stack_builds_valid_matrices_with_half_for_empty_pairs():
    stack = skew_stack(np.array([[[3.0, 0.0, 1.0], [1.0, 0.0, 1.0]]]), 3)
    as_skew(stack[0], "skew")
    assert stack[0].tolist() == [[0, 0.5, 0], [-0.5, 0, 0], [0, 0, 0]]


@pytest.mark.parametrize("seed", range(4))
def test_both_layouts_hold_the_same_draws(seed):
    """The compared pairs' wins are the all-pairs layout's at the compared positions."""
    log = random_log(12, 40, seed)
    pairs = count_pairs(log).pairs
    compared = np.concatenate(
        list(compared_bootstrap_wins(log, pairs, 30, np.random.default_rng(seed)))
    )
    everything = np.concatenate(list(bootstrap_pair_wins(log, 30, np.random.default_rng(seed))))
    rows, cols = pair_index(12)
    position = {(int(i), int(j)): p for p, (i, j) in enumerate(zip(rows, cols, strict=True))}
    at = [position[(int(i), int(j))] for i, j in pairs]
    np.testing.assert_array_equal(everything[:, :, at], compared)
    others = np.setdiff1d(np.arange(rows.size), at)
    assert not everything[:, :, others].any()  # pairs never compared: no wins (entry 1/2)


def test_the_posterior_of_a_complete_log_is_the_same_in_both_layouts():
    log = log_from_counts(["a", "b", "c"], [[0, 4, 1], [2, 0, 3], [5, 1, 0]])
    counts = count_pairs(log)
    compared = next(compared_posterior_wins(counts, 50, np.random.default_rng(3)))
    everything = next(posterior_pair_wins(counts, 50, np.random.default_rng(3)))
    assert compared.tobytes() == everything.tobytes()


def test_the_pair_by_pair_posterior_refuses_pairs_never_compared():
    """The prior draw of a pair never compared would make every resample dense."""
    counts = count_pairs(log_from_counts(["a", "b", "c"], [[0, 7, 0], [3, 0, 0], [0, 0, 0]]))
    with pytest.raises(ComparisonLogError, match="2 pairs never compared"):
        next(compared_posterior_wins(counts, 5, np.random.default_rng(0)))


def test_the_bootstrap_refuses_units_lighter_than_one_comparison():
    # A weight of 1e-300 rounds to 0 comparisons: the bootstrap would never draw it while it
    # decides the point estimate of its pair.
    log = make_log(["a", "b", "c"], [("a", "b", FIRST_WINS), ("b", "c", FIRST_WINS)], [1e-300, 3])
    with pytest.raises(ComparisonLogError, match="integer weights of at least 1, but a unit has"):
        next(bootstrap_pair_wins(log, 5, np.random.default_rng(0)))


@pytest.mark.parametrize("seed", range(3))
def test_margins_resample_on_the_logs_own_scale(seed):
    """Every bootstrap matrix of the margins is (wins_b - wins_b^T) / c with the log's c."""
    log = random_log(6, 60, seed)
    counts = count_pairs(log, "margins")
    c = counts.margin_scale
    assert c == counts.pair_comparisons.max()
    chunk = next(bootstrap_pair_wins(log, 20, np.random.default_rng(seed)))
    stack = skew_stack(chunk, 6, "margins", c)
    rows, cols = pair_index(6)
    np.testing.assert_allclose(stack[:, rows, cols], (chunk[:, 0] - chunk[:, 1]) / c)
    rates = skew_stack(chunk, 6)
    np.testing.assert_array_equal(np.sign(stack), np.sign(rates))  # same signs, not the same


def test_the_posterior_of_margins_holds_each_pairs_comparisons():
    counts = count_pairs(
        log_from_counts(["a", "b", "c"], [[0, 7, 0], [3, 0, 1], [0, 1, 0]]), "margins"
    )
    chunk = next(posterior_pair_wins(counts, 500, np.random.default_rng(2)))
    np.testing.assert_allclose(chunk.sum(axis=1), np.broadcast_to([10.0, 0.0, 2.0], (500, 3)))
    stack = skew_stack(chunk, 3, "margins", counts.margin_scale)
    assert not stack[:, 0, 2].any()  # never compared: margin 0 in every draw
    assert np.abs(stack[:, 1, 2]).max() <= 2 / 10  # at most its 2 comparisons of c = 10
    mean = (7 + 1) / (10 + 2)  # Beta(1 + 7, 1 + 3)
    assert stack[:, 0, 1].mean() == pytest.approx(2 * mean - 1, abs=0.03)
    compared = next(compared_posterior_wins(counts, 500, np.random.default_rng(2)))
    np.testing.assert_array_equal(compared, chunk[:, :, [0, 2]])  # the compared pairs
