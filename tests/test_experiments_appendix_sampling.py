"""Uniform K-subsets and the sampling plan's blocks and streams."""

import itertools

import numpy as np
import pytest

from cdbandits.experiments.appendix.sampling import (
    SAMPLES_PER_BLOCK,
    SamplingPlan,
    sample_subsets,
)
from cdbandits.randomness import named_generator


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
    with pytest.raises(ValueError, match="n_samples must be non-negative"):
        sample_subsets(np.random.default_rng(0), 6, 2, -1)


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


def test_block_streams_are_the_named_streams_of_the_original_spawn_keys():
    # The streams were built by hand as SeedSequence(seed, spawn_key=(id("appendix"),
    # id(name), k, block)); named_generator with the same key must give the same numbers,
    # so that moving to it changed no sampled subset.
    from cdbandits.randomness import stable_id

    plan = SamplingPlan("informational", 136, (7,), 10, 20150703)
    by_hand = np.random.default_rng(
        np.random.SeedSequence(
            20150703, spawn_key=(stable_id("appendix"), stable_id("informational"), 7, 3)
        )
    )
    np.testing.assert_array_equal(plan.block_rng(7, 3).random(5), by_hand.random(5))
    expected = named_generator(20150703, "appendix", "informational", 7, 3).random(5)
    np.testing.assert_array_equal(plan.block_rng(7, 3).random(5), expected)


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
    with pytest.raises(ValueError, match="samples_per_k must be at least 1"):
        SamplingPlan("m", 20, (2,), 0, 0)


def test_build_without_sizes_takes_every_k_from_2():
    plan = SamplingPlan.build("m", 6, None, 3, 0)
    assert plan.ks == (2, 3, 4, 5, 6)
    assert SamplingPlan.build("m", 6, [5, 2], 3, 0).ks == (2, 5)
