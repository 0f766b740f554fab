import numpy as np
import pytest
from real_data_helpers import transitive

from cdbandits.experiments.real_data.experiments import (
    matrix_samples,
    matrix_summary,
    pool_counts,
    sampled_sizes,
    subset_counts,
)
from cdbandits.experiments.real_data.settings import SubsetSettings
from cdbandits.experiments.real_data.sources import RealMatrix

ROCK_PAPER_SCISSORS = np.array([[0, 1, -1], [-1, 0, 1], [1, -1, 0]], dtype=float)


def settings(samples=12, ks=None, resamples=0):
    return SubsetSettings(
        samples_per_k=samples,
        ks=ks,
        resamples=resamples,
        confidence=0.95,
        interval="clopper-pearson",
        seed=5,
    )


def real(matrix, name="m", dataset="skate"):
    items = tuple(f"i{j}" for j in range(matrix.shape[0]))
    return RealMatrix(dataset, name, "", items, matrix, None)


def test_summary_of_a_cycle_and_of_a_transitive_matrix():
    cycle = matrix_summary(real(ROCK_PAPER_SCISSORS))
    assert cycle["condorcet_winner"] is None and cycle["support_size"] == 3
    assert cycle["von_neumann_winner"].count("0.333") == 3
    order = matrix_summary(real(transitive(4)))
    assert order["condorcet_winner"] == "i0" and order["copeland_winners"] == "i0"
    assert order["von_neumann_winner"] == "i0: 1.000"


def test_every_sub_matrix_of_a_transitive_matrix_has_a_condorcet_winner():
    (series,) = subset_counts([real(transitive(6))], settings(ks=(2, 4, 6)))
    assert sorted(series.point.per_k) == [2, 4, 6]
    for counts in series.point.per_k.values():
        assert counts.condorcet == counts.matrices
        assert counts.support_size == {1: counts.matrices}


def test_sizes_keep_those_a_matrix_reaches():
    subsets = SubsetSettings(confidence=0.95, interval="wilson", seed=1)
    assert sampled_sizes(subsets, 7) == (2, 3, 4, 5, 6)
    assert sampled_sizes(subsets.model_copy(update={"ks": None}), 7) is None


def test_a_series_splits_its_samples_among_its_matrices():
    assert matrix_samples(3, settings(samples=10)) == 4
    assert matrix_samples(30, settings(samples=10)) == 1
    matrices = [real(transitive(3), "a"), real(ROCK_PAPER_SCISSORS, "b"), real(transitive(5), "c")]
    (series,) = subset_counts(matrices, settings(samples=12, ks=(3, 5)))
    assert series.series == "skate"
    # K = 3: all three matrices, 4 subsets each; K = 5: only the 5-item matrix
    assert series.point.per_k[3].matrices == 12 and series.point.per_k[5].matrices == 4
    # the cycle is its own only 3-subset and has no Condorcet winner
    assert series.point.per_k[3].condorcet == 8


def test_pooling_adds_counts_per_k_and_refuses_mixed_variants():
    first, second = (
        subset_counts([real(transitive(4), name)], settings(ks=(2, 3)))[0].point
        for name in ("x", "y")
    )
    pooled = pool_counts("both", [first, second])
    assert pooled.per_k[3].matrices == first.per_k[3].matrices + second.per_k[3].matrices
    other = type(second)(second.matrix_name, "wins_or_ties", second.units, second.per_k)
    with pytest.raises(ValueError, match="different Copeland variants"):
        pool_counts("mixed", [first, other])


def test_atp_periods_are_series_of_their_own():
    matrices = [real(transitive(3), "1990s", "atp"), real(transitive(3), "2000s", "atp")]
    names = [s.series for s in subset_counts(matrices, settings(ks=(2,)))]
    assert names == ["atp 1990s", "atp 2000s"]
