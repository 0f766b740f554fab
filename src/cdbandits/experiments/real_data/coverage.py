"""Do the intervals of ``cdbandits winners --pairs`` cover at the sizes of the real logs?

:func:`cdbandits.comparisons.coverage_check` draws synthetic logs from a known matrix and
checks the weight, exploitability and per-pair intervals. Here the known matrix and the
log's size come from a real log (:func:`coverage_case`): the items and the mean number of
comparisons per pair of the worked examples' logs (the ATP period's top players, the
TREC-DL topic's finalists; pairs never compared removed with ``unobserved="drop-items"``, so
every pair of the truth is compared), and as the truth one draw from the Beta posterior of
those counts: a matrix the data could have come from, with a unique von Neumann winner
(a continuous draw has no ties). Replications are split into shards with independent
streams ``named_generator(seed, "real_data", "coverage", case, shard)``, whose tables add
up (:func:`cdbandits.comparisons.merge_coverage`).

PrefLib elections are not checked here: their comparisons come in voters' rankings, which
the synthetic logs (independent comparisons per pair) do not imitate.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from ...comparisons.counts import apply_policy, count_pairs
from ...comparisons.coverage import coverage_check, merge_coverage
from ...comparisons.records import ComparisonLog
from ...comparisons.settings import CountPolicy
from ...comparisons.uncertainty import posterior_pair_wins, skew_stack
from ...randomness import named_generator
from .settings import CoverageSettings, ExampleSettings
from .sources import atp_log, collect_warnings, trec_dl_log

__all__ = [
    "CoverageCase",
    "case_log",
    "coverage_case",
    "coverage_shard",
    "coverage_summary",
    "merge_case_shards",
    "shard_replications",
]


@dataclass(frozen=True, eq=False)
class CoverageCase:
    """A coverage check at the size of a real log.

    Attributes
    ----------
    name : str
        ``"atp"`` or ``"trec_dl"``.
    description : str
    matrix : ndarray, shape (K, K)
        The truth (skew form).
    comparisons_per_pair : int
    """

    name: str
    description: str
    matrix: NDArray[np.float64]
    comparisons_per_pair: int

    @property
    def k(self) -> int:
        return int(self.matrix.shape[0])

    def to_dict(self) -> dict[str, Any]:
        return {
            "case": self.name,
            "description": self.description,
            "items": self.k,
            "comparisons_per_pair": self.comparisons_per_pair,
            "truth": self.matrix.tolist(),
        }


def case_log(
    name: str, paths: Sequence[str | os.PathLike[str]], examples: ExampleSettings
) -> tuple[ComparisonLog, str]:
    """The real log a case takes its size from, and its description.

    ``paths``: the ATP period's results files (``"atp"``) or the TREC-DL judgments
    (``"trec_dl"``).
    """
    policy = CountPolicy(unobserved="drop-items")
    if name == "atp":
        log = atp_log(paths)
        log = log.restrict(log.top_items(min(examples.atp_top, len(log.items))))
        what = f"ATP {examples.atp_period}, top {examples.atp_top} players by matches"
    elif name == "trec_dl":
        (path,) = paths
        log = trec_dl_log(path).for_context(examples.trec_dl_topic)
        what = f"TREC-DL topic {examples.trec_dl_topic}"
    else:
        raise ValueError(f"unknown coverage case {name!r}")
    counted, _ = collect_warnings(lambda: apply_policy(log, policy))
    assert isinstance(counted, ComparisonLog)
    return counted, f"{what}, pairs never compared removed ({len(counted.items)} items)"


def coverage_case(name: str, log: ComparisonLog, description: str, seed: int) -> CoverageCase:
    """The case of a real log: its size, and a Beta-posterior draw of its matrix as truth."""
    counts = count_pairs(log)
    k = len(log.items)
    per_pair = counts.comparisons[np.triu_indices(k, 1)]
    rng = named_generator(seed, "real_data", "coverage", name, "truth")
    truth = skew_stack(next(posterior_pair_wins(counts, 1, rng)), k)[0]
    return CoverageCase(
        name=name,
        description=description,
        matrix=truth,
        comparisons_per_pair=max(1, int(round(float(per_pair.mean())))),
    )


def shard_replications(settings: CoverageSettings, shard: int) -> int:
    """Replications of shard ``shard`` (the remainder goes to the first shards)."""
    if not 0 <= shard < settings.shards:
        raise ValueError(f"shard {shard} does not exist among {settings.shards} shards")
    base, extra = divmod(settings.replications, settings.shards)
    return base + (shard < extra)


def coverage_shard(case: CoverageCase, settings: CoverageSettings, shard: int) -> pd.DataFrame:
    """The coverage table of one shard (its share of the replications)."""
    rng = named_generator(settings.seed, "real_data", "coverage", case.name, shard)
    table = coverage_check(
        case.matrix,
        case.comparisons_per_pair,
        rng,
        replications=shard_replications(settings, shard),
        resamples=settings.resamples,
        confidence=settings.confidence,
        tolerance=settings.tolerance,
    )
    table.insert(0, "case", case.name)
    return table


def merge_case_shards(
    paths: Sequence[str | os.PathLike[str]], settings: CoverageSettings
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The shards' tables (:func:`coverage_shard`) merged per case, and their summary.

    Returns
    -------
    (table, summary) : the merged rows of every case (with ``case``), and
        :func:`coverage_summary` of each case, stacked.
    """
    shards = pd.concat([pd.read_csv(path) for path in paths], ignore_index=True)
    merged, summaries = [], []
    for case, part in shards.groupby("case", sort=False):
        table = merge_coverage([part.drop(columns="case")], settings.tolerance)
        summaries.append(coverage_summary(table, str(case)))
        table.insert(0, "case", case)
        merged.append(table)
    return pd.concat(merged, ignore_index=True), pd.concat(summaries, ignore_index=True)


def coverage_summary(table: pd.DataFrame, case: str) -> pd.DataFrame:
    """Per method and target: the lowest and mean coverage, whether every row passes, and
    the intervals' mean width (over rows and replications; NaN for the exploitability bound).

    ``table`` is the merged table of one case (:func:`cdbandits.comparisons.merge_coverage`).
    """
    grouped = table.groupby(["method", "target"], sort=False)
    summary = grouped.agg(
        rows=("coverage", "size"),
        replications=("replications", "first"),
        nominal=("nominal", "first"),
        lowest=("coverage", "min"),
        mean=("coverage", "mean"),
        passes=("passes", "all"),
        mean_width=("mean_width", "mean"),
    ).reset_index()
    lowest = table.loc[grouped["coverage"].idxmin(), ["method", "target", "label", "coverage_low"]]
    summary = summary.merge(
        lowest.rename(columns={"label": "lowest_label", "coverage_low": "lowest_low"}),
        on=["method", "target"],
    )
    summary.insert(0, "case", case)
    return summary
