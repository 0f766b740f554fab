"""Feature rankers: descending order, tie groups, random tie-breaking."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from cdbandits.letor import LetorData, feature_rankings, rank_documents


def _data(features: list[list[float]], offsets: list[int]) -> LetorData:
    array = np.asarray(features, dtype=np.float64)
    return LetorData(
        features=array,
        labels=np.zeros(array.shape[0], dtype=np.int8),
        qids=np.arange(len(offsets) - 1, dtype=np.int64),
        query_offsets=np.asarray(offsets, dtype=np.int64),
    )


def test_order_position_and_tie_groups():
    # query 0: feature 0 = [1, 3, 3, 2]; query 1: feature 0 = [5, 5]
    data = _data([[1, 0], [3, 0], [3, 1], [2, 2], [5, 1], [5, 0]], [0, 4, 6])
    rankings = feature_rankings(data)
    assert rankings.rankers.tolist() == [0, 1]
    assert rankings.order[0].tolist() == [1, 2, 3, 0, 0, 1]
    assert rankings.tie_start[0].tolist() == [0, 0, 2, 3, 0, 0]
    assert rankings.tie_end[0].tolist() == [2, 2, 3, 4, 2, 2]
    for ranker in range(2):
        for query in range(2):
            rows = slice(data.query_offsets[query], data.query_offsets[query + 1])
            order, position = rankings.order[ranker, rows], rankings.position[ranker, rows]
            assert position[order].tolist() == list(range(order.size))
    # feature 1 of query 0 is [0, 0, 1, 2]: documents 3, 2 then the tie {0, 1}
    assert rankings.order[1, :4].tolist() == [3, 2, 0, 1]
    assert rankings.max_documents == 4


def test_subset_of_rankers_and_errors():
    data = _data([[1, 0, 2], [3, 0, 1]], [0, 2])
    rankings = feature_rankings(data, rankers=[2])
    assert rankings.n_rankers == 1 and rankings.order[0].tolist() == [0, 1]
    with pytest.raises(ValueError, match=r"ranker 3 is not a feature column \(0..2\)"):
        feature_rankings(data, rankers=[0, 3])
    bad = _data([[1, 0], [np.nan, 0]], [0, 2])
    with pytest.raises(ValueError, match="feature column 0 is nan on document row 1"):
        feature_rankings(bad)


def test_ranking_breaks_ties_uniformly():
    data = _data([[2.0], [1.0], [1.0], [1.0]], [0, 4])
    rankings = feature_rankings(data)
    rng = np.random.default_rng(0)
    n = 6000
    seen = Counter(tuple(rankings.ranking(0, 0, rng).tolist()) for _ in range(n))
    assert set(seen) == {
        (0, *rest) for rest in [(1, 2, 3), (1, 3, 2), (2, 1, 3), (2, 3, 1), (3, 1, 2), (3, 2, 1)]
    }
    # each of the 6 orders has probability 1/6; standard error sqrt(1/6 * 5/6 / n) = 0.0048
    for count in seen.values():
        assert count / n == pytest.approx(1 / 6, abs=5 * np.sqrt(5 / 36 / n))


def test_rank_documents_descending_with_random_ties():
    assert rank_documents([0.1, 0.9, 0.5], np.random.default_rng(0)).tolist() == [1, 2, 0]
    rng = np.random.default_rng(1)
    firsts = Counter(int(rank_documents([1.0, 1.0, 0.0], rng)[0]) for _ in range(4000))
    assert set(firsts) == {0, 1}
    assert firsts[0] / 4000 == pytest.approx(0.5, abs=5 * np.sqrt(0.25 / 4000))
