"""Comparison of a built matrix with a published one."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from cdbandits.letor import PreferenceEstimate, compare_matrices, comparison_table, plot_comparison
from cdbandits.letor.validation import (
    DEFAULT_SEPARATIONS,
    comparison_summary_markdown,
    plot_validation,
    sample_caveat,
    validate_against_published,
)

PUBLISHED = "mslr-preference-matrices/nightingal3-duelling-bandits/MSLR_Informational_PMat.npz"


@pytest.fixture(scope="module")
def published(data_mirror: Path) -> np.ndarray:
    with np.load(data_mirror / PUBLISHED) as archive:
        return archive["PMat"]


def _flip(matrix: np.ndarray, pairs: list[tuple[int, int]]) -> np.ndarray:
    flipped = matrix.copy()
    for i, j in pairs:
        flipped[i, j], flipped[j, i] = matrix[j, i], matrix[i, j]
    return flipped


def test_identical_matrices_agree_fully(published: np.ndarray):
    comparison = compare_matrices(published, published)
    assert comparison.pearson == pytest.approx(1.0)
    assert comparison.sign_agreement == 1.0
    assert comparison.mean_absolute_difference == 0.0
    assert comparison.published_condorcet_winner is None
    assert comparison.published_copeland_winners == (114,)


def test_sign_agreement_counts_flipped_separated_pairs(published: np.ndarray):
    upper = np.triu_indices(136, k=1)
    separated = np.flatnonzero(np.abs(published[upper] - 0.5) > 0.1)
    flipped_pairs = [(int(upper[0][k]), int(upper[1][k])) for k in separated[:10]]
    comparison = compare_matrices(_flip(published, flipped_pairs), published, separation=0.1)
    assert comparison.n_separated_pairs == separated.size
    assert comparison.sign_agreement == pytest.approx(1 - 10 / separated.size)


def test_table_and_figure(published: np.ndarray, tmp_path: Path):
    noisy = np.clip(published + np.random.default_rng(0).normal(0, 0.02, published.shape), 0, 1)
    noisy = np.triu(noisy, 1) + np.tril(1 - noisy.T, -1) + np.eye(136) / 2
    table = comparison_table(noisy, published)
    assert table["separation"].tolist() == [0.0, 0.05, 0.1, 0.2]
    assert table["separated_pairs"].is_monotonic_decreasing
    assert (table["sign_agreement"] > 0.8).all()
    figure = plot_comparison(noisy, published, title="noisy copy")
    figure.savefig(tmp_path / "figure.png")
    assert (tmp_path / "figure.png").stat().st_size > 0


def test_mismatched_shapes_are_rejected(published: np.ndarray):
    with pytest.raises(ValueError, match="built matrix is 5x5 but the published one is 136x136"):
        compare_matrices(published[:5, :5], published)


def test_summary_names_each_matrix_condorcet_winner_as_a_feature_column():
    rock_paper_scissors = np.array([[0.5, 0.9, 0.2], [0.1, 0.5, 0.8], [0.8, 0.2, 0.5]])
    built = rock_paper_scissors.copy()
    built[0, 2], built[2, 0] = 0.6, 0.4  # arm 0 now beats both others
    rankers = [7, 30, 99]
    comparison = compare_matrices(built, rock_paper_scissors, separation=0.1)
    text = comparison_summary_markdown(
        comparison,
        click_model="informational",
        dataset="sample",
        queries=86,
        method="probabilistic",
        comparisons_per_pair=10_000,
        rankers=rankers,
    )
    assert "Condorcet winner of the built matrix: feature column 7; of the published one: none" in (
        text
    )
    assert "Probabilistic Interleave (10,000 comparisons per pair and query)" in text
    assert "on 66.7% of the 3 pairs" in text
    same = comparison_summary_markdown(
        compare_matrices(built, built),
        click_model="informational",
        dataset="sample",
        queries=86,
        method="team_draft",
        comparisons_per_pair=5,
        rankers=rankers,
    )
    assert "Both matrices have the same Condorcet winner: feature column 7." in same


def _estimate(rankers: list[int], wins: np.ndarray, comparisons: int) -> PreferenceEstimate:
    k = len(rankers)
    return PreferenceEstimate(
        rankers=np.array(rankers, dtype=np.int64),
        wins=wins,
        ties=np.zeros((k, k), dtype=np.int64),
        comparisons_per_pair=comparisons,
        click_model="perfect",
        method="probabilistic",
        credit_ties="redrawn",
        tau=3.0,
        list_length=10,
    )


def test_validation_compares_the_rankers_block_and_names_winners_by_feature_column():
    # Published over 6 feature columns: column 4 beats everyone, column 1 beats all but 4.
    published = np.full((6, 6), 0.5)
    for winner, losers in ((4, [0, 1, 2, 3, 5]), (1, [0, 2, 3, 5])):
        published[winner, losers], published[losers, winner] = 0.9, 0.1
    # Built on columns (1, 4, 2) in that order: rows 0, 1, 2; row 0 (column 1) wins all.
    wins = np.array([[0, 6, 9], [4, 0, 8], [1, 2, 0]], dtype=np.int64)
    built = _estimate([1, 4, 2], wins, 10)
    validation = validate_against_published(
        built,
        published,
        dataset="sample",
        click_model="perfect",
        queries=86,
        separation=0.1,
        published_name="mslr_perfect",
    )
    expected = compare_matrices(built.probability, published[np.ix_([1, 4, 2], [1, 4, 2])])
    assert validation.comparison == expected
    assert expected.n_separated_pairs == 3 and expected.sign_agreement == pytest.approx(2 / 3)
    summary = validation.summary
    assert summary["built_condorcet_winner"] == 1
    assert summary["published_condorcet_winner"] == 4
    assert summary["built_copeland_winners"] == [1]
    assert summary["published_copeland_winners"] == [4]
    assert summary["published"] == "mslr_perfect" and summary["comparisons_per_pair"] == 10
    assert summary["caveat"] == sample_caveat(86, "sample")
    assert "86 queries of sample" in summary["caveat"]
    assert "feature column 1; of the published one: feature column 4" in validation.markdown
    assert validation.table["separation"].tolist() == list(DEFAULT_SEPARATIONS)
    figure = plot_validation(
        built, published, dataset="sample", click_model="perfect", queries=86, separation=0.1
    )
    assert "perfect matrix built from 86 sample queries (10 comparisons/pair" in (
        figure.get_suptitle()
    )
