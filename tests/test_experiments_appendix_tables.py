"""Per-K proportions and distributions with their confidence intervals."""

import itertools

import numpy as np
import pytest
from appendix_helpers import CYCLE_LOSER_AND_CLONE, counts_of, random_skew

from cdbandits.experiments.appendix.counts import AppendixCounts
from cdbandits.experiments.appendix.experiments import run_shard
from cdbandits.experiments.appendix.sampling import SamplingPlan
from cdbandits.experiments.appendix.tables import distribution_table, per_k_table, summary_tables
from cdbandits.stats import binomial_interval


def test_per_k_table_of_the_hand_counted_matrix():
    # counted by hand in test_experiments_appendix_counts: 6 of the 10 3-subsets have a
    # Condorcet winner, 2 are cycles (simplex, support 3), 2 hold both clones (interior
    # point, support 2)
    subsets = np.array(list(itertools.combinations(range(5), 3)))
    counts = AppendixCounts(
        "cycle", "wins", ((3, 0, 10),), {3: counts_of(CYCLE_LOSER_AND_CLONE, subsets)}
    )
    table = per_k_table(counts)
    row = table.iloc[0]
    assert row["fraction_condorcet"] == 0.6
    low, high = binomial_interval(6, 10)
    assert (row["fraction_condorcet_low"], row["fraction_condorcet_high"]) == (low, high)
    assert row["mean_support_size"] == 1.6
    assert row["max_support_size"] == 3
    methods = {column: row[column] for column in table if column.startswith("method_")}
    assert methods == {"method_condorcet": 6, "method_simplex": 2, "method_interior_point": 2}
    wilson = per_k_table(counts, 0.9, "wilson").iloc[0]
    assert (wilson["fraction_condorcet_low"], wilson["fraction_condorcet_high"]) == tuple(
        binomial_interval(6, 10, 0.9, "wilson")
    )


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


def test_zero_counts_get_the_one_sided_upper_bound_and_the_papers_sizes_a_row():
    P = random_skew(np.random.default_rng(4), 8)
    counts = run_shard(P, SamplingPlan("random", 8, (2, 3), 500, 5))
    table = distribution_table(counts, "support_size", include=(5,))
    assert sorted(set(table["support_size"])) == [1, 2, 3, 4, 5]
    never = table[table["support_size"] == 5]
    assert (never["count"] == 0).all()
    np.testing.assert_allclose(never["fraction_upper_bound"], 1 - 0.05 ** (1 / 500), rtol=1e-9)
    # one-sided: below the two-sided interval's upper end, which leaves only 2.5% above it
    assert (never["fraction_upper_bound"] < never["fraction_high"]).all()
    tables = summary_tables(counts)
    assert list(tables) == ["per_k", "support_size", "max_copeland_loss"]
    assert tables["support_size"].equals(table)
