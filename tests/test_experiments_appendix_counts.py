"""Per-matrix summaries (Copeland scores from bit sets, supports) and per-K counts."""

import itertools

import numpy as np
import pytest
from appendix_helpers import CYCLE_AND_LOSER, CYCLE_LOSER_AND_CLONE, counts_of, random_skew
from hypothesis import given, settings
from hypothesis import strategies as st

from cdbandits.batched import METHODS, subset_von_neumann_winners
from cdbandits.experiments.appendix.counts import (
    AppendixCounts,
    add_histograms,
    merge_counts,
    read_counts,
    subset_copeland_scores,
    summarise_subsets,
)
from cdbandits.experiments.appendix.experiments import run_shard
from cdbandits.experiments.appendix.sampling import SamplingPlan, sample_subsets
from cdbandits.files import write_json
from cdbandits.paper_examples import five_arm_matrix
from cdbandits.winners import COPELAND_VARIANTS, copeland_scores


@pytest.mark.parametrize("variant", COPELAND_VARIANTS)
@pytest.mark.parametrize("n_arms", [10, 130])  # one and three 64-bit words per row
def test_subset_copeland_scores_match_materialised(variant, n_arms):
    rng = np.random.default_rng(n_arms)
    P = random_skew(rng, n_arms, tie_share=0.2)
    subsets = sample_subsets(rng, n_arms, 7, 200)
    scores = subset_copeland_scores(P, subsets, variant)
    for arms, row in zip(subsets, scores, strict=True):
        np.testing.assert_array_equal(row, copeland_scores(P[np.ix_(arms, arms)], variant))


def test_hand_counted_cycle_and_loser():
    subsets = np.array(list(itertools.combinations(range(4), 3)))
    counts = counts_of(CYCLE_AND_LOSER, subsets)
    # {0,1,2}: no Condorcet winner, support of size 3 = the three Copeland winners;
    # {0,1,3}, {0,2,3}, {1,2,3}: Condorcet winners 0, 2 and 1.
    assert counts.matrices == 4
    assert counts.condorcet == 3
    assert counts.all_copeland_in_support == counts.some_copeland_in_support == 4
    assert counts.support_size == {1: 3, 3: 1}
    assert counts.max_copeland_loss == {0: 4}
    assert counts.methods == {"condorcet": 3, "simplex": 1, "interior_point": 0}


def test_hand_counted_cycle_loser_and_clone_take_every_solution_path():
    subsets = np.array(list(itertools.combinations(range(5), 3)))
    solution = subset_von_neumann_winners(CYCLE_LOSER_AND_CLONE, subsets)
    counts = counts_of(CYCLE_LOSER_AND_CLONE, subsets)
    # Arm 4 is a clone of arm 0. Condorcet winners: 0 in {0,1,3}, 2 in {0,2,3}, {0,2,4} and
    # {2,3,4}, 1 in {1,2,3}, 4 in {1,3,4}. Cycles {0,1,2} and {4,1,2}: unique vNW (1/3 each,
    # simplex). {0,1,4} and {0,3,4}: the clones tie and beat the third arm, every mixture of
    # them is a vNW, the analytic centre gives each 1/2 (interior point). Every Copeland
    # winner is in the support, with loss 0.
    methods = np.array([METHODS[m] for m in solution.method])
    assert subsets[methods == "simplex"].tolist() == [[0, 1, 2], [1, 2, 4]]
    assert subsets[methods == "interior_point"].tolist() == [[0, 1, 4], [0, 3, 4]]
    for row in np.flatnonzero(methods == "interior_point"):
        np.testing.assert_allclose(solution.weights[row], [0.5, 0, 0.5], rtol=0, atol=1e-12)
    assert counts.matrices == 10
    assert counts.condorcet == 6
    assert counts.all_copeland_in_support == counts.some_copeland_in_support == 10
    assert counts.support_size == {1: 6, 2: 2, 3: 2}
    assert counts.max_copeland_loss == {0: 10}
    assert counts.methods == {"condorcet": 6, "simplex": 2, "interior_point": 2}


def test_five_arm_example_counts():
    # Copeland scores [2 2 2 3 1]: the Copeland winner (arm 3) is outside the support {0, 1, 2},
    # whose largest Copeland loss is 3 - 2 = 1.
    counts = counts_of(five_arm_matrix(), np.arange(5)[None])
    assert (counts.all_copeland_in_support, counts.some_copeland_in_support) == (0, 0)
    assert counts.max_copeland_loss == {1: 1}
    assert counts.support_size == {3: 1}
    variant = counts_of(five_arm_matrix(), np.arange(5)[None], "wins_minus_losses")
    assert variant.max_copeland_loss == {2: 1}  # scores [0 0 0 2 -2]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), variant=st.sampled_from(COPELAND_VARIANTS))
def test_summaries_match_a_direct_computation(seed, variant):
    rng = np.random.default_rng(seed)
    P = random_skew(rng, 15, tie_share=0.1)
    subsets = sample_subsets(rng, 15, 6, 40)
    solution = subset_von_neumann_winners(P, subsets)
    summaries = summarise_subsets(P, subsets, solution, variant)
    for i, arms in enumerate(subsets):
        scores = copeland_scores(P[np.ix_(arms, arms)], variant)
        winners = scores == scores.max()
        support = solution.weights[i] > 0
        assert summaries.support_size[i] == support.sum()
        assert summaries.copeland_winners[i] == winners.sum()
        assert summaries.copeland_winners_in_support[i] == (winners & support).sum()
        assert summaries.max_copeland_loss_in_support[i] == (scores.max() - scores)[support].max()


def test_summaries_reject_solutions_of_other_subsets():
    P = random_skew(np.random.default_rng(0), 8)
    subsets = sample_subsets(np.random.default_rng(0), 8, 4, 5)
    solution = subset_von_neumann_winners(P, subsets[:3])
    with pytest.raises(ValueError, match="5 subsets of size 4"):
        summarise_subsets(P, subsets, solution)


def test_merge_and_cover_checks_are_loud(tmp_path):
    P = random_skew(np.random.default_rng(0), 8)
    plan = SamplingPlan("random", 8, (3, 5), 1500, 1)
    first = run_shard(P, plan, 0, 2)
    with pytest.raises(ValueError, match="blocks counted twice"):
        merge_counts([first, first])
    with pytest.raises(ValueError, match="do not cover the sampling plan: missing blocks"):
        first.check_covers(plan)
    with pytest.raises(ValueError, match="do not belong to the plan"):
        first.check_covers(SamplingPlan("other", 8, (3, 5), 1500, 1))
    other_variant = run_shard(P, plan, 1, 2, variant="wins_or_ties")
    with pytest.raises(ValueError, match="cannot merge counts"):
        merge_counts([first, other_variant])
    with pytest.raises(ValueError, match="nothing to merge"):
        merge_counts([])
    roundtrip = AppendixCounts.from_jsonable(first.to_jsonable())
    assert roundtrip.to_jsonable() == first.to_jsonable()
    write_json(tmp_path / "counts.json", {"counts": first.to_jsonable()})
    assert read_counts(tmp_path / "counts.json").to_jsonable() == first.to_jsonable()
    write_json(tmp_path / "other.json", {"totals": {}})
    with pytest.raises(ValueError, match="no 'counts' entry"):
        read_counts(tmp_path / "other.json")
    older = first.to_jsonable()
    older["per_k"][0]["methods"] = {"condorcet": 1, "double_oracle": 2, "cvxpy": 0}
    write_json(tmp_path / "older.json", {"counts": older})
    with pytest.raises(ValueError, match=r"older.json: counts of K = 3 name the solution paths"):
        read_counts(tmp_path / "older.json")


def test_counts_add_and_pool():
    P = random_skew(np.random.default_rng(5), 9)
    plan = SamplingPlan("random", 9, (4,), 2000, 2)
    halves = [run_shard(P, plan, i, 2).per_k[4] for i in range(2)]
    whole = run_shard(P, plan).per_k[4]
    assert (halves[0] + halves[1]).to_jsonable() == whole.to_jsonable()
    with pytest.raises(ValueError, match="cannot add counts of K = 5"):
        halves[0] + run_shard(P, SamplingPlan("random", 9, (5,), 10, 2)).per_k[5]
    totals = run_shard(P, SamplingPlan("random", 9, (3, 4), 100, 2)).totals()
    assert totals["matrices"] == 200
    assert sum(totals["support_size"].values()) == 200
    assert add_histograms({1: 2, 3: 1}, {3: 4, 5: 1}) == {1: 2, 3: 5, 5: 1}
