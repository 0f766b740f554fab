"""Small logs and files for the real_data tests."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from cdbandits.comparisons.records import ComparisonLog, RecordOrigins

ATP_HEADER = "tourney_id,surface,winner_name,loser_name,score\n"


def make_log(
    items: Sequence[str],
    records: Sequence[tuple[int, int, int]],
    contexts: Sequence[str] | None = None,
) -> ComparisonLog:
    """A log of (first, second, outcome) records over ``items``."""
    array = np.asarray(records, dtype=np.int64).reshape(-1, 3)
    n = array.shape[0]
    return ComparisonLog(
        items=tuple(items),
        first=array[:, 0].copy(),
        second=array[:, 1].copy(),
        outcome=array[:, 2].astype(np.int8),
        weight=np.ones(n),
        context=None if contexts is None else np.asarray(contexts, dtype=object),
        group=None,
        origin=RecordOrigins.of_source("test", "record", np.arange(1, n + 1)),
    )


def write_atp(path: Path, matches: Sequence[tuple[str, str, str, str]]) -> Path:
    """An ``atp_matches_YYYY.csv`` with (surface, winner, loser, score) rows."""
    rows = "".join(
        f"t,{surface},{winner},{loser},{score}\n" for surface, winner, loser, score in matches
    )
    path.write_text(ATP_HEADER + rows, encoding="utf-8")
    return path


def transitive(k: int, margin: float = 0.4) -> np.ndarray:
    """Skew-form matrix where item i beats every j > i by ``margin``."""
    upper = np.triu(np.full((k, k), margin), 1)
    return upper - upper.T
