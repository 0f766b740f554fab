"""A shard of the sweep: sampled, solved and counted the same whatever the sharding."""

import numpy as np
import pytest
from appendix_helpers import random_skew
from hypothesis import given, settings
from hypothesis import strategies as st

from cdbandits.experiments.appendix.counts import merge_counts
from cdbandits.experiments.appendix.experiments import run_shard, sampled_matrix
from cdbandits.experiments.appendix.sampling import SamplingPlan
from cdbandits.experiments.appendix.settings import SamplingSettings
from cdbandits.experiments.config_model import ConfigError


@settings(max_examples=8, deadline=None)
@given(n_shards=st.integers(1, 5), seed=st.integers(0, 2**31))
def test_counts_do_not_depend_on_the_sharding(n_shards, seed):
    P = random_skew(np.random.default_rng(seed), 12)
    plan = SamplingPlan("random", 12, (3, 6, 12), 2100, seed)
    whole = run_shard(P, plan)
    parts = merge_counts([run_shard(P, plan, i, n_shards) for i in range(n_shards)])
    parts.check_covers(plan)
    assert parts.to_jsonable() == whole.to_jsonable()


def test_a_shard_counts_its_own_blocks_only():
    P = random_skew(np.random.default_rng(1), 10)
    plan = SamplingPlan("random", 10, (2, 5), 2500, 4)
    shard = run_shard(P, plan, 1, 2)
    assert list(shard.units) == plan.shard_units(1, 2)
    assert sum(c.matrices for c in shard.per_k.values()) == sum(r for _, _, r in shard.units)
    empty = run_shard(P, plan, 7, 8)  # more shards than blocks
    assert empty.units == () and empty.per_k == {}


def test_run_shard_rejects_a_matrix_of_another_size():
    plan = SamplingPlan("random", 10, (2,), 10, 0)
    with pytest.raises(ValueError, match="the plan of 'random' is for 10 arms, the matrix has 9"):
        run_shard(random_skew(np.random.default_rng(0), 9), plan)


def test_sampled_matrix_reads_either_convention_and_plans_for_its_size(tmp_path):
    P = random_skew(np.random.default_rng(3), 7)
    np.save(tmp_path / "probability.npy", (P + 1) / 2)
    sampling = SamplingSettings(ks=None, samples_per_k=5)
    read, plan = sampled_matrix(tmp_path / "probability.npy", "m", sampling, 1)
    np.testing.assert_allclose(read, P, atol=1e-12)
    assert plan == SamplingPlan("m", 7, tuple(range(2, 8)), 5, 1)
    with pytest.raises(ConfigError, match=r"appendix.ks: K = 8 exceeds the 7 arms of the matrix"):
        sampled_matrix(tmp_path / "probability.npy", "m", SamplingSettings(ks=(2, 8)), 1)
