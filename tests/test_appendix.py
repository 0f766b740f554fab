"""Sampling, statistics, intervals and claims of the Appendix A/B experiments."""

import dataclasses
import itertools

import numpy as np
import pandas as pd
import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from cdbandits import appendix
from cdbandits.appendix import (
    CLAIM_COLUMNS,
    SAMPLES_PER_BLOCK,
    AppendixCounts,
    KCounts,
    SamplingPlan,
    appendix_claims,
    claims_markdown,
    count_summaries,
    distribution_table,
    example_claims,
    merge_counts,
    per_k_table,
    run_shard,
    sample_subsets,
    subset_copeland_scores,
    summarise_subsets,
    verification_picks,
    verification_summary,
    verify_against_reference,
)
from cdbandits.batched import FALLBACK_REASONS, subset_von_neumann_winners
from cdbandits.datasets import DATA_FILES
from cdbandits.files import write_json
from cdbandits.matrix_io import load_matrix
from cdbandits.paper_examples import five_arm_matrix
from cdbandits.preference import as_skew
from cdbandits.stats import binomial_interval
from cdbandits.winners import (
    COPELAND_VARIANTS,
    copeland_scores,
    reference_von_neumann_winner,
)


def random_skew(rng: np.random.Generator, k: int, tie_share: float = 0.0) -> np.ndarray:
    values = rng.uniform(-1, 1, (k, k)) * (rng.random((k, k)) >= tie_share)
    upper = np.triu(values, 1)
    return upper - upper.T


# A 4-arm matrix counted by hand: arms 0 > 1 > 2 > 0 form a cycle and all beat arm 3.
CYCLE_AND_LOSER = np.array(
    [
        [0.0, 0.4, -0.4, 0.3],
        [-0.4, 0.0, 0.4, 0.3],
        [0.4, -0.4, 0.0, 0.3],
        [-0.3, -0.3, -0.3, 0.0],
    ]
)


def counts_of(P: np.ndarray, subsets: np.ndarray, variant="wins") -> KCounts:
    solution = subset_von_neumann_winners(P, subsets)
    return count_summaries(subsets.shape[1], summarise_subsets(P, subsets, solution, variant))


# ---------------------------------------------------------------------------- sampling


def test_sampled_subsets_are_sorted_distinct_and_in_range():
    subsets = sample_subsets(np.random.default_rng(1), 136, 40, 500)
    assert subsets.shape == (500, 40)
    assert (np.diff(subsets, axis=1) > 0).all()
    assert subsets.min() >= 0 and subsets.max() < 136
    full = sample_subsets(np.random.default_rng(1), 136, 136, 3)
    np.testing.assert_array_equal(full, np.tile(np.arange(136), (3, 1)))


def test_sampled_subsets_are_uniform():
    n = 40_000
    subsets = sample_subsets(np.random.default_rng(2), 6, 3, n)
    keys = subsets @ np.array([36, 6, 1])
    all_keys = sorted(
        np.array(c) @ np.array([36, 6, 1]) for c in itertools.combinations(range(6), 3)
    )
    found, counts = np.unique(keys, return_counts=True)
    np.testing.assert_array_equal(found, all_keys)
    expected = n / 20
    # Deterministic seed; a binomial count is within 5 standard deviations of its mean.
    assert np.abs(counts - expected).max() < 5 * np.sqrt(expected * (1 - 1 / 20))


def test_sample_subsets_rejects_bad_sizes():
    with pytest.raises(ValueError, match=r"k = 7 must lie in \[1, 6\]"):
        sample_subsets(np.random.default_rng(0), 6, 7, 1)


def test_blocks_depend_only_on_seed_name_k_and_block():
    short = SamplingPlan("informational", 136, (5, 10), 1500, 99)
    long = SamplingPlan("informational", 136, (3, 5, 10, 20), 4000, 99)
    np.testing.assert_array_equal(short.block_subsets(10, 1, 500), long.block_subsets(10, 1, 500))
    # a shorter block is a prefix of the full one
    np.testing.assert_array_equal(long.block_subsets(5, 0, 10), long.block_subsets(5, 0, 1000)[:10])
    other_name = SamplingPlan("perfect", 136, (5, 10), 1500, 99)
    other_seed = SamplingPlan("informational", 136, (5, 10), 1500, 100)
    reference = short.block_subsets(5, 0, 200)
    assert not np.array_equal(reference, other_name.block_subsets(5, 0, 200))
    assert not np.array_equal(reference, other_seed.block_subsets(5, 0, 200))
    assert not np.array_equal(reference, short.block_subsets(5, 1, 200))


def test_plan_units_and_shards_partition_the_samples():
    plan = SamplingPlan("m", 20, (2, 7), 2 * SAMPLES_PER_BLOCK + 5, 0)
    units = plan.units()
    assert units == [(2, 0, 1000), (2, 1, 1000), (2, 2, 5), (7, 0, 1000), (7, 1, 1000), (7, 2, 5)]
    assert sum(rows for _, _, rows in units) == plan.total
    shards = [plan.shard_units(i, 4) for i in range(4)]
    assert sorted(itertools.chain(*shards)) == units
    with pytest.raises(ValueError, match="shard 4 does not exist"):
        plan.shard_units(4, 4)
    with pytest.raises(ValueError, match=r"subset sizes must lie in \[1, 20\]"):
        SamplingPlan("m", 20, (2, 21), 10, 0)
    with pytest.raises(ValueError, match="increasing"):
        SamplingPlan("m", 20, (7, 2), 10, 0)


@settings(max_examples=8, deadline=None)
@given(n_shards=st.integers(1, 5), seed=st.integers(0, 2**31))
def test_counts_do_not_depend_on_the_sharding(n_shards, seed):
    P = random_skew(np.random.default_rng(seed), 12)
    plan = SamplingPlan("random", 12, (3, 6, 12), 2100, seed)
    whole = run_shard(P, plan)
    parts = merge_counts([run_shard(P, plan, i, n_shards) for i in range(n_shards)])
    parts.check_covers(plan)
    assert parts.to_jsonable() == whole.to_jsonable()


def test_merge_and_cover_checks_are_loud():
    P = random_skew(np.random.default_rng(0), 8)
    plan = SamplingPlan("random", 8, (3, 5), 1500, 1)
    first = run_shard(P, plan, 0, 2)
    with pytest.raises(ValueError, match="blocks counted twice"):
        merge_counts([first, first])
    with pytest.raises(ValueError, match="do not cover the sampling plan: missing blocks"):
        first.check_covers(plan)
    roundtrip = AppendixCounts.from_jsonable(first.to_jsonable())
    assert roundtrip.to_jsonable() == first.to_jsonable()


# ------------------------------------------------------------------- Copeland and counts


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
    table = per_k_table(AppendixCounts("cycle", "wins", ((3, 0, 4),), {3: counts}))
    row = table.iloc[0]
    assert row["fraction_condorcet"] == 0.75
    low, high = binomial_interval(3, 4)
    assert (row["fraction_condorcet_low"], row["fraction_condorcet_high"]) == (low, high)
    assert row["mean_support_size"] == 1.5


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


def test_distribution_table_fills_zero_counts():
    P = random_skew(np.random.default_rng(3), 12)
    plan = SamplingPlan("random", 12, (2, 9), 300, 3)
    counts = run_shard(P, plan)
    table = distribution_table(counts, "support_size")
    assert set(table["K"]) == {2, 9}
    k2 = table[table["K"] == 2].set_index("support_size")
    assert k2.loc[1, "count"] == 300 and k2.loc[1, "fraction"] == 1.0
    assert (k2.drop(index=1)["count"] == 0).all()
    assert (k2.drop(index=1)["fraction_high"] > 0).all()  # an upper bound even at zero
    assert table.groupby("K")["count"].sum().tolist() == [300, 300]
    with pytest.raises(ValueError, match="statistic must be"):
        distribution_table(counts, "weights")


# ---------------------------------------------------------------------------- intervals


# ------------------------------------------------------------------------------- claims


def synthetic_counts(
    name: str, support_five: int, condorcet_by_k: dict[int, int]
) -> AppendixCounts:
    """Counts of 400,000 matrices per K for K = 2, 50, 100, 136 with chosen properties."""
    per_k = {}
    n = 400_000
    for k, condorcet in condorcet_by_k.items():
        five = support_five if k == 136 else 0
        per_k[k] = KCounts(
            k=k,
            matrices=n,
            condorcet=condorcet,
            all_copeland_in_support=n - 100,
            some_copeland_in_support=n - 10,
            support_size={1: condorcet, 3: n - condorcet - five, **({5: five} if five else {})},
            max_copeland_loss={0: n - 50, 4: 50},
            methods={"condorcet": condorcet, "simplex": n - condorcet, "interior_point": 0},
            fallback_reasons={reason: 0 for reason in FALLBACK_REASONS},
            worst_exploitability=0.0,
        )
    units = tuple((k, b, 1000) for k in per_k for b in range(n // 1000))
    return AppendixCounts(name, "wins", units, per_k)


def test_claims_report_failures_as_failing():
    n = 400_000
    good = synthetic_counts("informational", 0, {2: n, 50: n // 4, 100: n // 5, 136: 0})
    bad = synthetic_counts("navigational", 2000, {2: n, 50: 6 * n // 10, 100: 7 * n // 10, 136: n})
    claims = appendix_claims({"navigational": bad, "informational": good}, clone_ks=[5])
    assert list(claims.columns) == list(CLAIM_COLUMNS)
    holds = claims.set_index(["click_model", "claim"])["holds"]
    assert claims["click_model"].iloc[0] == "informational"  # the paper's setting first
    assert holds["informational", "condorcet_decreasing_in_k"]
    assert not holds["navigational", "condorcet_decreasing_in_k"]  # rises from K=50 on
    assert holds["informational", "support_5_rare"]
    assert not holds["navigational", "support_5_rare"]  # 2000 / 1.6M = 0.125% > 0.03%
    assert holds["informational", "no_support_larger_than_5"]  # 1.6M matrices, none above 5
    assert holds["informational", "some_copeland_winner_in_support"]
    assert holds["informational", "condorcet_drops_rapidly"]  # 25% at K=50 <= 136 / 2
    assert not holds["navigational", "condorcet_drops_rapidly"]  # never below 50%
    markdown = claims_markdown(claims)
    assert markdown.count("\n") == len(claims) + 2
    assert "**no**" in markdown


def test_example_claims_all_hold():
    rows = pd.DataFrame(example_claims([5, 7]))
    assert rows["holds"].all(), rows.loc[~rows["holds"], ["claim", "value_text"]]
    assert len(rows) == 5 + 3 * 2


# ------------------------------------------------------------------------- verification


def informational(data_mirror):
    entry = DATA_FILES["mslr_informational"]
    return as_skew(load_matrix(data_mirror / entry.mirror_path), "probability")


def test_verification_on_real_subsets(data_mirror, tmp_path):
    P = informational(data_mirror)
    plan = SamplingPlan("informational", 136, (5, 60), 1200, 3)
    picks = verification_picks(P, plan, 15, 15, np.random.default_rng(0))
    assert picks["stratum"].value_counts().to_dict() == {"uniform": 15, "double_oracle": 15}
    table = verify_against_reference(P, plan, picks, weight_tol=1e-8)
    assert (table[table["stratum"] == "double_oracle"]["method"] != "condorcet").all()
    summary = verification_summary(table, weight_tol=1e-8)
    assert summary["agrees"] and summary["agrees_or_resolved"], summary
    assert summary["matrices"] == 30
    write_json(tmp_path / "summary.json", summary)  # JSON-ready
    # the picked rows really are the plan's matrices
    first = table.iloc[0]
    arms = plan.block_subsets(first["K"], first["block"], 1000)[first["row"]]
    assert first["arms"] == " ".join(map(str, arms))


def test_verification_arbitrates_an_inexact_reference(data_mirror, monkeypatch):
    """A reference answer with a spurious arm of tiny weight is caught and resolved."""

    def inexact_reference(matrix, solver=None):
        exact = reference_von_neumann_winner(matrix, solver=solver)
        if solver is not None:  # the simplex arbiter stays exact
            return exact
        weights = exact.weights.copy()
        weights[np.argmin(weights)] += 1e-6
        weights /= weights.sum()
        return dataclasses.replace(
            exact,
            weights=weights,
            support=np.flatnonzero(weights > 0),
            exploitability=float((weights @ matrix).min()),
        )

    monkeypatch.setattr(appendix, "reference_von_neumann_winner", inexact_reference)
    P = informational(data_mirror)
    plan = SamplingPlan("informational", 136, (40,), 300, 3)
    picks = verification_picks(P, plan, 0, 4, np.random.default_rng(1))
    table = verify_against_reference(P, plan, picks, weight_tol=1e-8)
    summary = verification_summary(table, weight_tol=1e-8)
    assert not summary["agrees"]
    assert summary["resolved"] == 4 and summary["agrees_or_resolved"]
    assert table["simplex_agrees"].all()


def test_default_config_samples_over_a_million_per_click_model(repo_root):
    config = yaml.safe_load((repo_root / "config/config.yaml").read_text())["appendix"]
    plan = SamplingPlan.build("any", 136, config["ks"], config["samples_per_k"], 0)
    assert plan.total >= 1_000_000
    assert set(config["click_models"]) == {"informational", "navigational", "perfect"}
