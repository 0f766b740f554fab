"""Batch bookkeeping of MergeRUCB and MergeDTS, by hand."""

import math

import numpy as np
import pytest

from cdbandits.karmed import MergeRUCB
from cdbandits.karmed.batches import (
    after_duel,
    initial_batches,
    merge_into_next,
    merge_stage,
    prepare_batch_compiled,
    time_offset,
)


def batches_of(batch):
    """The batches as sorted lists of arms, in batch order."""
    return [sorted(np.flatnonzero(batch == index).tolist()) for index in range(batch.max() + 1)]


def test_time_offset_formula():
    base = (4 * 1.01 - 1) * 4**2 / ((2 * 1.01 - 1) * 0.01)
    assert time_offset(4, 1.01, 0.01) == pytest.approx(base ** (1 / 1.02), rel=1e-14)
    with pytest.raises(ValueError, match="overflows"):
        time_offset(136, 0.5 + 1e-9, 0.01)


def test_initial_batches_split_a_random_order():
    order = np.random.default_rng(4).permutation(10)
    batch = initial_batches(10, 4, np.random.default_rng(4))
    # ceil(10 / 4) = 3 batches of sizes 4, 3, 3 over the permutation
    assert batches_of(batch) == [sorted(order[:4]), sorted(order[4:7]), sorted(order[7:])]


def test_merge_into_next():
    batch = np.array([0, 1, 2, 2, 1])
    assert merge_into_next(batch, 3, 2) == (2, 0)  # the last batch wraps to the first
    assert batches_of(batch) == [[0, 2, 3], [1, 4]]
    batch = np.array([0, 1, 2, -1])
    assert merge_into_next(batch, 3, 0) == (2, 0)  # batch 0 joins batch 1, renumbered 0
    assert batches_of(batch) == [[0, 1], [2]]


@pytest.mark.parametrize(
    ("sizes", "expected"),
    [
        # sorted (1, 2, 3, 4), 1.5 P = 6: 1 + 4 and 2 + 3 merge
        ([1, 3, 2, 4], [[0, 6, 7, 8, 9], [1, 2, 3, 4, 5]]),
        # sorted (1, 4, 4): 1 + 4 merge, the other 4 stays
        ([4, 4, 1], [[4, 5, 6, 7, 8], [0, 1, 2, 3]]),
        # sorted (1, 2, 6): 1 + 6 > 6 leaves the 6 alone, then 1 + 2 merge
        ([6, 2, 1], [[0, 1, 2, 3, 4, 5], [6, 7, 8]]),
    ],
)
def test_merge_stage_pairs_smallest_with_largest(sizes, expected):
    batch = np.repeat(np.arange(len(sizes)), sizes)
    assert merge_stage(batch, len(sizes), 4) == len(expected)
    assert batches_of(batch) == expected


def test_after_duel_merges_when_half_the_arms_are_gone():
    batch = np.array([0, 0, -1, -1, 1, 1, -1, -1])  # 4 of 8 survive: 4 <= 8 / 2
    assert after_duel(batch, 2, 1, 4) == (1, 2)
    assert batches_of(batch) == [[0, 1, 4, 5]]
    batch = np.array([0, 0, 0, -1, 1, 1, 1, 1])  # 7 survive: no merge
    assert after_duel(batch, 2, 1, 4) == (2, 1)


def test_prepare_eliminates_dominated_arms_in_order_and_merges_a_lone_arm():
    wins = np.zeros((4, 4), dtype=np.int64)
    wins[0, 1] = 40  # arm 1 lost 40 times to arm 0: u_10 < 1/2
    batch = np.array([0, 0, 1, 1])
    members = np.empty(4, dtype=np.int64)
    log_term = math.log(41)
    assert math.sqrt(1.01 * log_term / 40) < 0.5
    n_batches, current, n_members = prepare_batch_compiled(
        wins, batch, 2, 0, log_term, 1.01, members
    )
    # arm 1 is eliminated; arm 0 alone is merged into batch 1 (now batch 0)
    assert (n_batches, current, n_members) == (1, 0, 3)
    assert members[:3].tolist() == [0, 2, 3] and batch.tolist() == [0, -1, 0, 0]


def test_numpy_preparation_matches():
    algorithm = MergeRUCB(partition_size=2, time_offset=0.0).start(4, np.random.default_rng(0))
    algorithm.batch_[:] = [0, 0, 1, 1]
    algorithm.wins_[0, 1] = 40
    algorithm.round_ = 40
    members, upper = algorithm._prepare_batch(41)
    assert members.tolist() == [0, 2, 3] and algorithm.batch_.tolist() == [0, -1, 0, 0]
    assert algorithm.n_batches_ == 1 and upper.shape == (3, 3)
