"""Combining the tables of a sharded sweep into one, independently of the sharding."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

__all__ = ["combine_shards"]


def combine_shards(frames: Sequence[pd.DataFrame], keys: Sequence[str]) -> pd.DataFrame:
    """Concatenate shard tables and sort them by ``keys`` (a stable sort).

    The result does not depend on how the work was split into shards, as long as each row
    is identified by its ``keys``. Empty shards are skipped.

    Raises
    ------
    ValueError
        If every shard is empty or a key column is missing.
    """
    non_empty = [frame for frame in frames if not frame.empty]
    if not non_empty:
        raise ValueError(f"all {len(frames)} shard tables are empty")
    combined = pd.concat(non_empty, ignore_index=True)
    missing = [key for key in keys if key not in combined.columns]
    if missing:
        raise ValueError(f"shard tables lack the key columns {missing}")
    return combined.sort_values(list(keys), kind="stable").reset_index(drop=True)
