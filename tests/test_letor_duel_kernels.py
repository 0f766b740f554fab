"""The compiled comparison kernels (cdbandits.letor.duel_kernels)."""

import numpy as np
import pytest

from cdbandits.letor import click_model
from cdbandits.letor.duel_kernels import (
    CREDIT_TIES,
    METHODS,
    ClickSimulation,
    RankingTables,
    new_workspace,
    run_duels,
)
from cdbandits.letor.interleave import rank_weights
from cdbandits.letor.rankers import sort_queries


def tables_of(scores: np.ndarray, offsets: np.ndarray) -> RankingTables:
    """Ranking tables of the rankers whose scores are the rows of ``scores``."""
    tables = [np.empty(scores.shape, dtype=np.int64) for _ in range(4)]
    for ranker in range(scores.shape[0]):
        sort_queries(scores[ranker], offsets, *(table[ranker] for table in tables))
    return RankingTables(*tables)


def simulate(scores, labels, offsets, method, n_duels, seed, query=-1, credit_ties="shared"):
    model = click_model("informational")
    weights, cumulative = rank_weights(int(np.diff(offsets).max()))
    clicks = ClickSimulation(
        METHODS[method],
        labels,
        10,
        model.click_array,
        model.stop_array,
        weights,
        cumulative,
        CREDIT_TIES[credit_ties],
    )
    work = new_workspace(int(np.diff(offsets).max()), 10, offsets.size - 1, np.uint64(seed))
    counts = np.zeros(3, dtype=np.int64)
    run_duels(0, 1, query, n_duels, offsets, tables_of(scores, offsets), clicks, work, counts)
    return counts


@pytest.fixture
def two_queries():
    rng = np.random.default_rng(0)
    offsets = np.array([0, 12, 30], dtype=np.int64)
    labels = rng.integers(0, 5, size=30).astype(np.int8)
    return offsets, labels


@pytest.mark.parametrize("method", sorted(METHODS))
def test_counts_add_up_and_depend_only_on_the_seed(two_queries, method):
    offsets, labels = two_queries
    scores = np.stack([labels + 0.1 * np.arange(30), -np.arange(30.0)])
    first = simulate(scores, labels, offsets, method, 2000, seed=5)
    assert first.sum() == 2000
    np.testing.assert_array_equal(first, simulate(scores, labels, offsets, method, 2000, seed=5))
    assert not np.array_equal(first, simulate(scores, labels, offsets, method, 2000, seed=6))


def test_a_ranker_never_beats_itself_under_probabilistic_interleave(two_queries):
    # Identical rankings give every document the same probability from both sides, so the
    # marginalised credit is symmetric: every comparison ties.
    offsets, labels = two_queries
    scores = np.tile(np.arange(30.0), (2, 1))
    assert simulate(scores, labels, offsets, "probabilistic", 3000, seed=1).tolist() == [0, 3000, 0]


def test_the_ranker_that_sorts_by_relevance_wins(two_queries):
    offsets, labels = two_queries
    scores = np.stack([labels.astype(float), -labels.astype(float)])
    for method in METHODS:
        wins, _, losses = simulate(scores, labels, offsets, method, 3000, seed=2, query=1)
        assert wins > 2 * losses, method
