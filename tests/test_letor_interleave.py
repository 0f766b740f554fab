"""Probabilistic Interleave and Team-Draft against exact enumeration on tiny queries."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from letor_exact import exact_probabilistic, exact_team_draft

from cdbandits.letor import (
    CLICK_MODELS,
    CascadeClickModel,
    duel_outcome_counts,
    probabilistic_credit,
    probabilistic_interleave,
    team_draft_interleave,
    team_draft_outcome,
)

N_DUELS = 200_000
# A frequency estimated from N_DUELS comparisons has standard error at most
# sqrt(0.25 / N_DUELS) = 0.0011; 5 standard errors makes a false alarm negligible
# (about 6e-7 per checked probability) while a wrong formula (errors of 0.01 or more) fails.
FREQUENCY_TOL = 5 * np.sqrt(0.25 / N_DUELS)

TINY_CASES = [
    # scores of A, scores of B, labels, click model, list length
    ([2.0, 1.0], [1.0, 2.0], [0, 3], "informational", 10),
    ([3.0, 2.0, 1.0], [1.0, 2.0, 3.0], [0, 1, 4], "informational", 10),
    ([3.0, 2.0, 1.0], [2.0, 3.0, 1.0], [4, 0, 2], "navigational", 10),
    ([3.0, 2.0, 1.0], [1.0, 3.0, 2.0], [1, 2, 3], "perfect", 2),
    # ties: broken at random for every comparison
    ([1.0, 1.0, 0.0], [0.0, 1.0, 2.0], [0, 4, 1], "informational", 10),
    ([0.0, 0.0, 0.0], [5.0, 1.0, 1.0], [2, 0, 3], "navigational", 10),
]


def _frequencies(counts: np.ndarray) -> dict[int, float]:
    total = counts.sum()
    return {1: counts[0] / total, 0: counts[1] / total, -1: counts[2] / total}


@pytest.mark.parametrize(("scores_a", "scores_b", "labels", "model", "length"), TINY_CASES)
def test_probabilistic_interleave_matches_exact_enumeration(
    scores_a, scores_b, labels, model, length
):
    exact = exact_probabilistic(scores_a, scores_b, labels, CLICK_MODELS[model], length)
    assert sum(exact.values()) == pytest.approx(1.0, abs=1e-12)
    counts = duel_outcome_counts(
        scores_a,
        scores_b,
        labels,
        CLICK_MODELS[model],
        N_DUELS,
        np.random.default_rng(11),
        length=length,
    )
    observed = _frequencies(counts)
    for outcome in (1, 0, -1):
        assert observed[outcome] == pytest.approx(exact[outcome], abs=FREQUENCY_TOL), outcome


@pytest.mark.parametrize(("scores_a", "scores_b", "labels", "model", "length"), TINY_CASES[-2:])
def test_redrawn_credit_ties_match_exact_enumeration(scores_a, scores_b, labels, model, length):
    exact = exact_probabilistic(
        scores_a, scores_b, labels, CLICK_MODELS[model], length, credit_ties="redrawn"
    )
    counts = duel_outcome_counts(
        scores_a,
        scores_b,
        labels,
        CLICK_MODELS[model],
        N_DUELS,
        np.random.default_rng(13),
        length=length,
        credit_ties="redrawn",
    )
    observed = _frequencies(counts)
    for outcome in (1, 0, -1):
        assert observed[outcome] == pytest.approx(exact[outcome], abs=FREQUENCY_TOL), outcome


def test_redrawn_credit_ties_penalise_the_ranker_with_ties():
    # A ranks documents {0, 1} above {2, 3, 4} with ties inside; B ranks 0, 1, 2, 3, 4.
    # Under the shared tie-breaking the two win equally often (about 0.376 each); with a
    # redrawn one A's credit for the documents it placed shrinks and B wins about 0.47.
    args = (
        [1.0, 1.0, 0.0, 0.0, 0.0],
        [4.0, 3.0, 2.0, 1.0, 0.0],
        [0, 0, 1, 1, 1],
        CLICK_MODELS["informational"],
        N_DUELS,
    )
    shared = duel_outcome_counts(*args, np.random.default_rng(14))
    redrawn = duel_outcome_counts(*args, np.random.default_rng(15), credit_ties="redrawn")
    assert redrawn[2] / N_DUELS > shared[2] / N_DUELS + 0.05
    assert redrawn[0] / N_DUELS < shared[0] / N_DUELS - 0.05


@pytest.mark.parametrize(("scores_a", "scores_b", "labels", "model", "length"), TINY_CASES)
def test_team_draft_matches_exact_enumeration(scores_a, scores_b, labels, model, length):
    exact = exact_team_draft(scores_a, scores_b, labels, CLICK_MODELS[model], length)
    counts = duel_outcome_counts(
        scores_a,
        scores_b,
        labels,
        CLICK_MODELS[model],
        N_DUELS,
        np.random.default_rng(12),
        method="team_draft",
        length=length,
    )
    observed = _frequencies(counts)
    for outcome in (1, 0, -1):
        assert observed[outcome] == pytest.approx(exact[outcome], abs=FREQUENCY_TOL), outcome


def test_identical_rankers_without_ties_always_tie():
    counts = duel_outcome_counts(
        [3.0, 2.0, 1.0, 0.0],
        [3.0, 2.0, 1.0, 0.0],
        [1, 2, 3, 4],
        CLICK_MODELS["perfect"],
        5000,
        np.random.default_rng(0),
    )
    assert counts.tolist() == [0, 5000, 0]


def test_swapping_rankers_mirrors_the_outcome_distribution():
    model = CLICK_MODELS["informational"]
    a, b, labels = [3.0, 2.0, 1.0, 0.5], [0.5, 1.0, 3.0, 2.0], [0, 2, 4, 1]
    forward = duel_outcome_counts(a, b, labels, model, N_DUELS, np.random.default_rng(1))
    backward = duel_outcome_counts(b, a, labels, model, N_DUELS, np.random.default_rng(2))
    assert forward[0] / N_DUELS == pytest.approx(
        backward[2] / N_DUELS, abs=FREQUENCY_TOL * np.sqrt(2)
    )


def test_same_generator_seed_gives_same_counts():
    args = ([3.0, 1.0, 2.0], [1.0, 2.0, 3.0], [0, 1, 2], CLICK_MODELS["navigational"], 1000)
    first = duel_outcome_counts(*args, np.random.default_rng(5))
    second = duel_outcome_counts(*args, np.random.default_rng(5))
    assert first.tolist() == second.tolist()


def _brute_force_credit(p_a, p_b, clicks):
    """P(B more credit) - P(A more credit) by enumerating all assignments."""
    difference = 0.0
    for assignment in itertools.product((0, 1), repeat=len(clicks)):
        probability = np.prod(
            [
                p_b[k] / (p_a[k] + p_b[k]) if team else p_a[k] / (p_a[k] + p_b[k])
                for k, team in enumerate(assignment)
            ]
        )
        credit_b = sum(1 for k, team in enumerate(assignment) if clicks[k] and team)
        credit_a = sum(1 for k, team in enumerate(assignment) if clicks[k] and not team)
        difference += probability * np.sign(credit_b - credit_a)
    return difference


@pytest.mark.parametrize("seed", range(5))
def test_probabilistic_credit_equals_enumeration_of_assignments(seed):
    rng = np.random.default_rng(seed)
    length = 7
    p_a, p_b = rng.random(length), rng.random(length)
    clicks = rng.random(length) < 0.5
    assert probabilistic_credit(p_a, p_b, clicks) == pytest.approx(
        _brute_force_credit(p_a, p_b, clicks), abs=1e-12
    )


def test_probabilistic_credit_without_clicks_is_zero():
    assert probabilistic_credit([0.5, 0.2], [0.1, 0.3], [False, False]) == 0.0


def test_probabilistic_interleave_first_document_follows_the_mixture():
    # P(first = d) = (P_A(d) + P_B(d)) / 2 with P_x(d) proportional to rank_x(d)^-3.
    ranking_a, ranking_b = np.array([0, 1, 2, 3]), np.array([3, 2, 1, 0])
    rng = np.random.default_rng(3)
    n = 20_000
    firsts = np.array(
        [
            probabilistic_interleave(ranking_a, ranking_b, rng, length=2).documents[0]
            for _ in range(n)
        ]
    )
    weights = np.arange(1, 5, dtype=float) ** -3.0
    weights /= weights.sum()
    expected = np.empty(4)
    for document in range(4):
        expected[document] = (
            0.5 * weights[np.flatnonzero(ranking_a == document)[0]]
            + 0.5 * weights[np.flatnonzero(ranking_b == document)[0]]
        )
    # standard error <= sqrt(0.25 / n) = 0.0035; 5 of them
    np.testing.assert_allclose(
        np.bincount(firsts, minlength=4) / n, expected, atol=5 * np.sqrt(0.25 / n)
    )


def test_probabilistic_interleave_records_draw_probabilities():
    ranking_a, ranking_b = np.array([2, 0, 1]), np.array([1, 2, 0])
    shown = probabilistic_interleave(ranking_a, ranking_b, np.random.default_rng(4))
    assert sorted(shown.documents.tolist()) == [0, 1, 2]
    weights = np.arange(1, 4, dtype=float) ** -3.0
    first = shown.documents[0]
    assert shown.probability_a[0] == pytest.approx(
        weights[list(ranking_a).index(first)] / weights.sum()
    )
    assert shown.probability_b[0] == pytest.approx(
        weights[list(ranking_b).index(first)] / weights.sum()
    )
    assert shown.probability_a[-1] == pytest.approx(1.0)
    assert shown.probability_b[-1] == pytest.approx(1.0)


def test_team_draft_of_identical_rankings_is_that_ranking():
    ranking = np.array([4, 2, 0, 1, 3])
    shown = team_draft_interleave(ranking, ranking, np.random.default_rng(0), length=4)
    assert shown.documents.tolist() == [4, 2, 0, 1]
    assert sorted(np.bincount(shown.teams).tolist()) == [2, 2]


def test_team_draft_outcome_counts_clicks_per_team():
    assert team_draft_outcome([0, 1, 1, 0], [True, True, True, False]) == -1
    assert team_draft_outcome([0, 1, 1, 0], [True, False, False, True]) == 1
    assert team_draft_outcome([0, 1], [False, False]) == 0


def test_rejects_unknown_method_and_labels_outside_the_model():
    with pytest.raises(ValueError, match="credit_ties must be one of"):
        duel_outcome_counts(
            [1, 0],
            [0, 1],
            [0, 1],
            CLICK_MODELS["perfect"],
            10,
            np.random.default_rng(0),
            credit_ties="x",
        )
    with pytest.raises(ValueError, match="unknown interleaving method 'balanced'"):
        duel_outcome_counts(
            [1, 0],
            [0, 1],
            [0, 1],
            CLICK_MODELS["perfect"],
            10,
            np.random.default_rng(0),
            method="balanced",
        )
    two_grades = CascadeClickModel("binary", (0.1, 0.9), (0.0, 0.5))
    with pytest.raises(ValueError, match="label 4 .* not a grade of click model 'binary'"):
        duel_outcome_counts([1, 0], [0, 1], [0, 4], two_grades, 10, np.random.default_rng(0))


def test_rejects_rankings_that_are_not_permutations():
    with pytest.raises(ValueError, match="ranking_b must be a permutation"):
        probabilistic_interleave([0, 1, 2], [0, 1, 1], np.random.default_rng(0))
