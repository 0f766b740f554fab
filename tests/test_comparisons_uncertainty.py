import numpy as np
import pytest

from cdbandits.batched import von_neumann_winners
from cdbandits.comparisons import pair_draws, uncertainty
from cdbandits.comparisons.counts import PairCounts, count_pairs
from cdbandits.comparisons.records import (
    log_from_counts,
)
from cdbandits.comparisons.uncertainty import (
    bootstrap_pair_wins,
    resampled_distribution,
    skew_stack,
)
from cdbandits.winners import von_neumann_winner

# A cycle among items 0, 1, 2 (their vNW has all three in the support), item 3 dominated.
Q = np.array(
    [
        [0.5, 0.7, 0.35, 0.8],
        [0.3, 0.5, 0.7, 0.8],
        [0.65, 0.3, 0.5, 0.8],
        [0.2, 0.2, 0.2, 0.5],
    ]
)


def large_log(n=10**6):
    wins = np.round(Q * n)
    np.fill_diagonal(wins, 0)
    return log_from_counts(["r", "p", "s", "x"], wins)


def stacked(chunks, k):
    return np.concatenate([skew_stack(chunk, k) for chunk in chunks])


@pytest.mark.parametrize("method", ["bootstrap", "posterior"])
def test_a_large_log_pins_the_winner_down(method):
    truth = von_neumann_winner(2 * Q - 1).weights
    log = large_log()
    reported = von_neumann_winners(count_pairs(log).skew_matrix()[None]).weights[0]
    dist = resampled_distribution(log, method, reported, 300, np.random.default_rng(4))
    assert dist.support_probability.tolist() == [1, 1, 1, 0]
    low, high = dist.weight_interval()
    assert np.all(low <= truth + 1e-9) and np.all(truth <= high + 1e-9)
    assert np.all(high - low < 0.03)  # the confidence set's projections: simultaneous
    low, high = dist.percentile_interval()
    assert np.all(high - low < 0.01)
    assert dist.exploitability_bound() < 0.005
    assert dist.condorcet_exists == 0.0
    assert dist.copeland_probability.tolist() == [1, 1, 1, 0]  # a three-way Copeland tie


def test_every_resampled_winner_is_certified_against_its_matrix():
    log = log_from_counts(["a", "b", "c", "d"], np.round(Q * 20) * (1 - np.eye(4)))
    rng = np.random.default_rng(5)
    stack = stacked(bootstrap_pair_wins(log, 50, rng), 4)
    reported = np.array([0.4, 0.3, 0.3, 0.0])
    rng = np.random.default_rng(5)
    dist = resampled_distribution(log, "bootstrap", reported, 50, rng)
    for matrix, weights, gap in zip(stack, dist.weights, dist.exploitability, strict=True):
        assert (weights @ matrix).min() >= -1e-9
        reference = von_neumann_winner(matrix)
        assert abs(reference.exploitability) <= 1e-9
        assert gap == pytest.approx(max(-(reported @ matrix).min(), 0.0))
    scores = (stack > 0).sum(axis=2)
    np.testing.assert_array_equal(dist.copeland, scores == scores.max(axis=1, keepdims=True))
    expected = [int(np.flatnonzero(row == 3)[0]) if (row == 3).any() else -1 for row in scores]
    assert dist.condorcet.tolist() == expected


EMPTY_COUNTS = PairCounts(
    ("a", "b", "c", "d"), np.zeros((0, 2), dtype=np.int64), np.zeros((0, 2)), np.zeros(0)
)


def test_a_resample_without_comparisons_is_all_ties_and_everyone_is_in_the_support():
    empty = np.zeros((1, 2, 6))  # one resample, no wins for any of the 6 pairs of 4 items
    dist = uncertainty.winner_distribution(
        "bootstrap", ("a", "b", "c", "d"), np.full(4, 0.25), iter([empty]), counts=EMPTY_COUNTS
    )
    assert dist.support_probability.tolist() == [1, 1, 1, 1]
    assert dist.exploitability.tolist() == [0.0]
    assert dist.copeland_probability.tolist() == [1, 1, 1, 1]


def test_same_generator_same_bytes_and_chunking_only_splits_the_work(monkeypatch):
    log = log_from_counts(["a", "b", "c", "d"], np.round(Q * 30) * (1 - np.eye(4)))
    reported = np.full(4, 0.25)
    one = resampled_distribution(log, "posterior", reported, 40, np.random.default_rng(6))
    two = resampled_distribution(log, "posterior", reported, 40, np.random.default_rng(6))
    assert one.weights.tobytes() == two.weights.tobytes()
    monkeypatch.setattr(pair_draws, "CHUNK_ENTRIES", 16 * 7)  # 7 resamples per chunk
    chunked = resampled_distribution(log, "posterior", reported, 40, np.random.default_rng(6))
    assert chunked.weights.tobytes() == one.weights.tobytes()
    assert sum(chunked.solver_paths.values()) == 40


def test_summary_table_and_dict():
    log = large_log(10**4)
    dist = resampled_distribution(
        log, "bootstrap", np.full(4, 0.25), 30, np.random.default_rng(7), confidence=0.9
    )
    table = dist.item_table()
    assert list(table["item"]) == ["r", "p", "s", "x"]
    summary = dist.to_dict()
    assert summary["resamples"] == 30 and summary["confidence"] == 0.9
    assert summary["exploitability"]["upper_bound"] == pytest.approx(
        np.quantile(dist.exploitability, 0.9)
    )
    assert sum(summary["support_size"]["counts"].values()) == 30
    with pytest.raises(ValueError, match="confidence"):
        resampled_distribution(
            log, "bootstrap", np.full(4, 0.25), 3, np.random.default_rng(0), confidence=1.0
        )
    with pytest.raises(ValueError, match="method must be one of"):
        resampled_distribution(log, "jackknife", np.full(4, 0.25), 3, np.random.default_rng(0))
