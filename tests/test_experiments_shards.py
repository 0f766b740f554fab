"""Combining shard tables (cdbandits.experiments.shards)."""

import pandas as pd
import pytest

from cdbandits.experiments.shards import combine_shards


def test_result_does_not_depend_on_the_sharding():
    rows = pd.DataFrame({"setting": list("bbaa"), "seed": [1, 0, 1, 0], "value": [4, 3, 2, 1]})
    one = combine_shards([rows], ["setting", "seed"])
    split = combine_shards(
        [rows.iloc[[3, 0]], rows.iloc[:0], rows.iloc[[2, 1]]], ["setting", "seed"]
    )
    pd.testing.assert_frame_equal(one, split)
    assert one["value"].tolist() == [1, 2, 3, 4]


def test_bad_shards_are_named():
    with pytest.raises(ValueError, match="all 2 shard tables are empty"):
        combine_shards([pd.DataFrame(), pd.DataFrame()], ["seed"])
    with pytest.raises(ValueError, match=r"\['seed'\]"):
        combine_shards([pd.DataFrame({"x": [1]})], ["seed"])
