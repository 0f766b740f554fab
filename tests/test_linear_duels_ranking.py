"""Linear rankers over LETOR features: normalisation, expected NDCG with ties, the reference."""

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cdbandits.letor import LetorData, click_model
from cdbandits.linear_duels.ranking import (
    best_feature_ranker,
    expected_ndcg,
    normalise_per_query,
    query_ndcg_compiled,
    ranking_environment,
)


def brute_force_ndcg(scores, labels, cutoff):
    """Average NDCG over every order of the tied documents (all permutations consistent with
    the scores), computed directly."""
    gains = 2.0 ** np.asarray(labels) - 1
    discounts = 1 / np.log2(np.arange(len(scores)) + 2)
    ideal = (np.sort(gains)[::-1] * discounts)[:cutoff].sum()
    values = []
    for order in itertools.permutations(range(len(scores))):
        if all(scores[order[i]] >= scores[order[i + 1]] for i in range(len(order) - 1)):
            values.append((gains[list(order)] * discounts)[:cutoff].sum() / ideal)
    return np.mean(values)


def test_hand_computed_ndcg_with_a_tie():
    # scores (2, 1, 1): document 0 first, documents 1 and 2 tied for positions 1-2
    scores, labels = np.array([2.0, 1.0, 1.0]), np.array([1, 3, 0])
    ideal = 7 + 1 / math.log2(3)
    expected = (1 + 3.5 / math.log2(3) + 3.5 / 2) / ideal
    assert query_ndcg_compiled(scores, labels, 10) == pytest.approx(expected)
    # at cutoff 2 only position 1 of the tie group counts
    assert query_ndcg_compiled(scores, labels, 2) == pytest.approx((1 + 3.5 / math.log2(3)) / ideal)
    assert np.isnan(query_ndcg_compiled(scores, np.zeros(3, dtype=np.int64), 10))


@settings(max_examples=40)
@given(
    scores=st.lists(st.integers(0, 2), min_size=1, max_size=6),
    seed=st.integers(0, 1000),
    cutoff=st.integers(1, 6),
)
def test_expected_ndcg_is_the_average_over_tie_breakings(scores, seed, cutoff):
    labels = np.random.default_rng(seed).integers(0, 5, size=len(scores))
    if labels.max() == 0:
        labels[0] = 1
    values = np.array(scores, dtype=np.float64)
    assert query_ndcg_compiled(values, labels, cutoff) == pytest.approx(
        brute_force_ndcg(values, labels, cutoff)
    )


def tiny_data():
    features = np.array(
        [[0.0, 5.0], [1.0, 5.0], [2.0, 5.0], [10.0, 1.0], [30.0, 3.0]], dtype=np.float64
    )
    return LetorData(
        features, np.array([0, 1, 2, 0, 1], dtype=np.int8), np.array([1, 2]),
        np.array([0, 3, 5]),
    )  # fmt: skip


def test_per_query_normalisation():
    normalised = normalise_per_query(tiny_data())
    np.testing.assert_allclose(normalised[:, 0], [0, 0.5, 1, 0, 1])
    np.testing.assert_allclose(normalised[:, 1], [0, 0, 0, 0, 1])  # constant in query 1


def test_reference_is_the_best_feature():
    data = tiny_data()
    features = normalise_per_query(data)
    best, values = best_feature_ranker(features, data.labels, data.query_offsets)
    assert best == 0  # feature 0 ranks both queries perfectly
    assert values[0] == pytest.approx(1.0)
    assert values[1] < 1.0
    assert expected_ndcg(features, data.labels, data.query_offsets, np.array([1.0, 0.0])) == 1.0
    environment = ranking_environment(data, click_model("perfect"))
    assert environment.reference == 0 and environment.n_queries == 2
    with pytest.raises(ValueError, match="interleaving method"):
        ranking_environment(data, click_model("perfect"), "balanced")
