import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.optimize import minimize
from scipy.sparse.csgraph import connected_components

from cdbandits.comparisons import rankings
from cdbandits.comparisons.counts import count_pairs
from cdbandits.comparisons.rankings import (
    BradleyTerryError,
    bradley_terry,
    competition_ranks,
    iterated_maximal_lotteries,
    rankings_table,
)
from cdbandits.comparisons.records import ComparisonDataWarning, log_from_counts


def test_competition_ranks_share_the_smallest_position():
    assert competition_ranks([3, 7, 3, 1, 7]).tolist() == [3, 1, 3, 5, 1]


def test_iterated_lotteries_of_a_cycle_above_a_chain():
    # 0, 1, 2 form a cycle and beat 3 and 4; 3 beats 4.
    P = np.zeros((5, 5))
    P[0, 1] = P[1, 2] = P[2, 0] = 0.4
    P[:3, 3] = P[:3, 4] = 0.2
    P[3, 4] = 0.6
    P = P - P.T
    rank, weight = iterated_maximal_lotteries(P)
    assert rank.tolist() == [1, 1, 1, 4, 5]
    np.testing.assert_allclose(weight, [1 / 3, 1 / 3, 1 / 3, 1, 1])


def test_iterated_lotteries_of_a_transitive_matrix_are_its_order():
    rng = np.random.default_rng(0)
    order = rng.permutation(6)
    strength = np.empty(6)
    strength[order] = np.arange(6, 0, -1)
    P = np.tanh(strength[:, None] - strength[None, :])
    rank, weight = iterated_maximal_lotteries(P)
    assert rank[order].tolist() == [1, 2, 3, 4, 5, 6]
    assert weight.tolist() == [1.0] * 6


def negative_log_likelihood(theta, wins):
    difference = theta[:, None] - theta[None, :]
    return float((wins * np.logaddexp(0.0, -difference)).sum())


def scipy_fit(wins):
    k = wins.shape[0]
    result = minimize(
        negative_log_likelihood, np.zeros(k), args=(wins,), method="BFGS", options={"gtol": 1e-10}
    )
    return result.x - result.x.mean()


def test_bradley_terry_mm_agrees_with_scipy_minimising_the_likelihood():
    rng = np.random.default_rng(1)
    wins = rng.integers(0, 12, size=(6, 6)).astype(float)
    np.fill_diagonal(wins, 0)
    fit = bradley_terry(wins)
    np.testing.assert_allclose(fit.log_strength, scipy_fit(wins), atol=1e-5)
    assert abs(fit.log_strength.mean()) < 1e-12
    # The MLE's score equations: expected wins equal observed wins for every item.
    n = wins + wins.T
    np.testing.assert_allclose((n * fit.probability_matrix()).sum(axis=1), wins.sum(axis=1))


def test_bradley_terry_recovers_known_strengths_from_large_counts():
    log_strength = np.array([1.0, 0.3, -0.2, -1.1])
    probability = 1 / (1 + np.exp(-(log_strength[:, None] - log_strength[None, :])))
    wins = 10**6 * probability
    np.fill_diagonal(wins, 0)
    fit = bradley_terry(wins)
    np.testing.assert_allclose(fit.log_strength, log_strength - log_strength.mean(), atol=1e-6)


def test_bradley_terry_needs_a_strongly_connected_win_graph():
    wins = np.array([[0, 2, 1], [1, 0, 3], [0, 0, 0]], dtype=float)  # 2 never won
    with pytest.raises(BradleyTerryError, match=r"splits into 2 strongly connected parts"):
        bradley_terry(wins)
    fit = bradley_terry(wins, pseudo_count=1.0)
    regularised = wins + 0.5 * (1 - np.eye(3))
    np.testing.assert_allclose(fit.log_strength, scipy_fit(regularised), atol=1e-5)
    assert np.argmin(fit.log_strength) == 2


def test_rankings_table_side_by_side():
    wins = np.array([[0, 8, 2, 9], [2, 0, 7, 8], [8, 3, 0, 9], [1, 2, 1, 0]], dtype=float)
    counts = count_pairs(log_from_counts(["a", "b", "c", "d"], wins))
    table = rankings_table(counts)
    assert list(table.columns) == [
        "item",
        "maximal_lottery_rank",
        "maximal_lottery_weight",
        "copeland_score",
        "copeland_rank",
        "borda_score",
        "borda_rank",
        "bradley_terry_log_strength",
        "bradley_terry_rank",
    ]
    assert table["item"].tolist()[-1] == "d"
    assert table["maximal_lottery_rank"].tolist() == [1, 1, 1, 4]
    assert table.set_index("item").loc["d", "copeland_score"] == 0
    assert table["bradley_terry_rank"].tolist()[-1] == 4


def test_rankings_table_warns_when_bradley_terry_is_undefined():
    wins = np.array([[0, 2, 1], [1, 0, 3], [0, 0, 0]], dtype=float)
    counts = count_pairs(log_from_counts(["a", "b", "c"], wins))
    with pytest.warns(ComparisonDataWarning, match="Bradley-Terry ranking left out"):
        table = rankings_table(counts)
    assert table["bradley_terry_log_strength"].isna().all()
    assert table["bradley_terry_rank"].isna().all()
    assert rankings_table(counts, bt_pseudo_count=1.0)["bradley_terry_rank"].notna().all()


@given(st.integers(1, 8), st.floats(0.0, 0.6), st.integers(0, 2**32 - 1))
def test_strong_connectivity_agrees_with_scipy(k, density, seed):
    edges = np.random.default_rng(seed).uniform(size=(k, k)) < density
    components = connected_components(edges, directed=True, connection="strong")[0]
    assert rankings._strongly_connected(edges) == (components == 1)


def test_a_bradley_terry_fit_that_does_not_converge_is_left_out_with_a_warning(monkeypatch):
    wins = np.array([[0, 8, 2], [2, 0, 7], [8, 3, 0]], dtype=float)
    counts = count_pairs(log_from_counts(["a", "b", "c"], wins))
    fit = rankings.bradley_terry

    monkeypatch.setattr(rankings, "bradley_terry", lambda *a, **kw: fit(*a, **kw, max_iterations=2))
    with pytest.warns(
        ComparisonDataWarning, match="Bradley-Terry ranking left out: .*did not converge"
    ):
        columns = rankings.ranking_columns(counts)
    assert columns["bradley_terry_rank"] == [None, None, None]
    assert columns["item"] == rankings_table(counts)["item"].tolist()
