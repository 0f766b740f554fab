"""Aggregate and per-query preference matrices."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from letor_exact import exact_probabilistic

from cdbandits.letor import (
    CLICK_MODELS,
    LetorData,
    PerQueryMatrices,
    PreferenceEstimate,
    estimate_per_query_matrices,
    estimate_preference_matrix,
    ranker_pairs,
)
from cdbandits.preference import as_skew


def _synthetic(rng: np.random.Generator, n_queries: int = 6, n_features: int = 5) -> LetorData:
    sizes = rng.integers(1, 15, size=n_queries)
    sizes[0] = 1  # a one-document query: every comparison on it ties
    offsets = np.concatenate(([0], np.cumsum(sizes))).astype(np.int64)
    # rounded values make ties within rankings common
    features = np.round(rng.random((offsets[-1], n_features)) * 3)
    return LetorData(
        features=features,
        labels=rng.integers(0, 5, size=offsets[-1]).astype(np.int8),
        qids=np.arange(10, 10 + n_queries, dtype=np.int64),
        query_offsets=offsets,
    )


@pytest.mark.parametrize("method", ["probabilistic", "team_draft"])
def test_aggregate_matrix_is_consistent(method: str, tmp_path: Path):
    data = _synthetic(np.random.default_rng(0))
    n = 3000
    estimate = estimate_preference_matrix(
        data,
        CLICK_MODELS["navigational"],
        n,
        np.random.default_rng(1),
        method=method,
        progress=False,
    )
    first, second = ranker_pairs(5)
    counts = (
        estimate.wins[first, second] + estimate.wins[second, first] + estimate.ties[first, second]
    )
    assert counts.tolist() == [n] * first.size
    q = estimate.probability
    # exact: the larger entry of a pair is rounded once, the smaller is 1 minus it
    assert np.array_equal(q + q.T, np.ones((5, 5)))
    assert np.all(np.diag(q) == 0.5)
    counted = (2 * estimate.wins + estimate.ties) / (2 * n)
    larger = (counted >= counted.T) & ~np.eye(5, dtype=bool)
    np.testing.assert_array_equal(q[larger], counted[larger])
    np.testing.assert_allclose(
        q[~np.eye(5, dtype=bool)], counted[~np.eye(5, dtype=bool)], atol=1e-15
    )
    as_skew(q, "probability")
    path = tmp_path / "matrix.npz"
    estimate.save(path)
    with np.load(path) as archive:
        np.testing.assert_array_equal(archive["PMat"], q)
    loaded = PreferenceEstimate.load(path)
    assert loaded.method == method and loaded.click_model == "navigational"
    np.testing.assert_array_equal(loaded.wins, estimate.wins)


def test_results_depend_only_on_the_generator_not_on_threads():
    data = _synthetic(np.random.default_rng(2))
    args = (data, CLICK_MODELS["informational"], 500)
    one = estimate_preference_matrix(*args, np.random.default_rng(3), threads=1, progress=False)
    two = estimate_preference_matrix(*args, np.random.default_rng(3), threads=2, progress=False)
    np.testing.assert_array_equal(one.wins, two.wins)
    np.testing.assert_array_equal(one.ties, two.ties)


def test_aggregate_entry_matches_exact_enumeration_on_one_query():
    scores = np.array([[3.0, 1.0], [1.0, 2.0], [2.0, 2.0]])  # documents x features
    labels = [0, 4, 1]
    data = LetorData(
        features=scores,
        labels=np.array(labels, dtype=np.int8),
        qids=np.array([1]),
        query_offsets=np.array([0, 3]),
    )
    model = CLICK_MODELS["informational"]
    n = 100_000
    estimate = estimate_preference_matrix(data, model, n, np.random.default_rng(4), progress=False)
    exact = exact_probabilistic(scores[:, 0], scores[:, 1], labels, model, 10)
    # Q = P(win) + P(tie)/2; standard error <= sqrt(0.25 / n) = 0.0016, 5 of them
    assert estimate.probability[0, 1] == pytest.approx(
        exact[1] + exact[0] / 2, abs=5 * np.sqrt(0.25 / n)
    )


def test_per_query_matrices(tmp_path: Path):
    data = _synthetic(np.random.default_rng(5))
    rankers = [4, 0, 2]
    n = 400
    result = estimate_per_query_matrices(
        data, rankers, CLICK_MODELS["perfect"], n, np.random.default_rng(6), progress=False
    )
    assert result.matrices.shape == (6, 3, 3)
    assert np.array_equal(result.matrices, -np.transpose(result.matrices, (0, 2, 1)))
    assert np.all(np.abs(result.matrices) <= 1.0)
    assert np.all(result.matrices[0] == 0.0)  # one document: always a tie
    np.testing.assert_array_equal(result.features, data.query_means())
    np.testing.assert_array_equal(result.qids, data.qids)
    np.testing.assert_array_equal(result.n_documents, data.documents_per_query)
    assert result.rankers.tolist() == rankers
    # every entry is a multiple of 1/n
    assert np.allclose(result.matrices * n, np.round(result.matrices * n))
    assert result.standard_error_bound == pytest.approx(0.05)
    path = tmp_path / "per_query.npz"
    result.save(path)
    loaded = PerQueryMatrices.load(path)
    np.testing.assert_array_equal(loaded.matrices, result.matrices)
    assert loaded.click_model == "perfect" and loaded.comparisons_per_pair == n


def test_per_query_entry_matches_exact_enumeration():
    features = np.array([[2.0, 0.0], [1.0, 1.0], [0.0, 1.0], [5.0, 5.0], [1.0, 0.0]])
    labels = [0, 3, 1, 2, 0]
    data = LetorData(
        features=features,
        labels=np.array(labels, dtype=np.int8),
        qids=np.array([7, 8]),
        query_offsets=np.array([0, 3, 5]),
    )
    model = CLICK_MODELS["navigational"]
    n = 100_000
    result = estimate_per_query_matrices(
        data, [0, 1], model, n, np.random.default_rng(8), progress=False
    )
    for query, rows in enumerate((slice(0, 3), slice(3, 5))):
        exact = exact_probabilistic(features[rows, 0], features[rows, 1], labels[rows], model, 10)
        # skew entry = P(win) - P(loss); standard error <= 1 / sqrt(n), 5 of them
        assert result.matrices[query, 0, 1] == pytest.approx(
            exact[1] - exact[-1], abs=5 / np.sqrt(n)
        )


def test_invalid_arguments_are_rejected():
    data = _synthetic(np.random.default_rng(9))
    model = CLICK_MODELS["perfect"]
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="at least 2 rankers"):
        estimate_preference_matrix(data, model, 10, rng, rankers=[1], progress=False)
    with pytest.raises(ValueError, match="comparisons per pair must be >= 1"):
        estimate_preference_matrix(data, model, 0, rng, progress=False)
    with pytest.raises(ValueError, match="rankers must be distinct"):
        estimate_per_query_matrices(data, [1, 1], model, 10, rng, progress=False)
    with pytest.raises(ValueError, match="unknown interleaving method"):
        estimate_preference_matrix(data, model, 10, rng, method="balanced", progress=False)
