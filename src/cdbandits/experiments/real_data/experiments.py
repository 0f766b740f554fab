"""What runs for the appendix statistics on real data: sample, solve and count sub-matrices.

The statistics of Appendices A and B (Condorcet winner's existence, Copeland winners in the
von Neumann support, support sizes) are computed on every real matrix exactly as the
appendix computes them on MSLR: uniform K-subsets for the sizes K of the settings (every K
from 2 to the matrix's size by default), ``samples_per_k`` per series and K split evenly
among the series' matrices (at least one each;
:class:`cdbandits.experiments.appendix.sampling.SamplingPlan`),
solved and counted by :func:`cdbandits.experiments.appendix.experiments.run_shard`. The
subsets of matrix ``m`` of data set ``d`` are seeded by the name ``real_data/d/m``.

Counts are pooled per K over the matrices of one *series*: an ATP period is a series of one
matrix; a PrefLib collection or the TREC-DL topics are a series pooling every election or
topic with at least K items (each contributes the same number of subsets per K, so every
matrix weighs the same); the arXiv matrix is a series of one.

**Two kinds of uncertainty.** The binomial intervals of the tables are about the sampling
of subsets. The data's own noise (finite counts) is measured separately: the same subsets
are counted on ``resamples`` matrices drawn from each matrix's sampling distribution
(:func:`.sources.resampled_matrices`: voters bootstrapped for elections, the Beta posterior
otherwise), pooled per draw; the spread of a statistic over the draws is the *data band*.
The published arXiv matrix has no counts, hence no data band.
"""

from __future__ import annotations

import logging
import os
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ...batched import von_neumann_winners
from ...comparisons.counts import count_pairs
from ...comparisons.settings import CountPolicy
from ...comparisons.uncertainty import SUPPORT_TOL
from ...randomness import named_generator
from ...winners import condorcet_winner, copeland_winners
from ..appendix.counts import AppendixCounts, KCounts
from ..appendix.experiments import run_shard
from ..appendix.sampling import SamplingPlan
from .settings import SourceSettings, SubsetSettings
from .sources import RealMatrix, dataset_matrices, resampled_matrices

__all__ = [
    "DatasetRun",
    "SeriesCounts",
    "matrix_samples",
    "matrix_summary",
    "pool_counts",
    "run_dataset",
    "sampled_sizes",
    "series_of",
    "subset_counts",
]

logger = logging.getLogger(__name__)


def series_of(matrix: RealMatrix) -> str:
    """The series a matrix is pooled into: an ATP period on its own, else its data set."""
    return f"atp {matrix.name}" if matrix.dataset == "atp" else matrix.dataset


def pool_counts(name: str, parts: Sequence[AppendixCounts]) -> AppendixCounts:
    """Counts of several matrices added up per K (a K only some matrices reach included)."""
    per_k: dict[int, KCounts] = {}
    for part in parts:
        for k, counts in part.per_k.items():
            per_k[k] = per_k[k] + counts if k in per_k else counts
    variants = {part.variant for part in parts}
    if len(variants) != 1:
        raise ValueError(f"cannot pool counts of different Copeland variants {sorted(variants)}")
    return AppendixCounts(
        matrix_name=name,
        variant=variants.pop(),
        units=tuple(unit for part in parts for unit in part.units),
        per_k={k: per_k[k] for k in sorted(per_k)},
    )


@dataclass(frozen=True)
class SeriesCounts:
    """The counts of one series: the data's matrices, and each draw of the data band.

    Attributes
    ----------
    series : str
    point : AppendixCounts
        Pooled over the series' matrices as estimated from the data.
    draws : tuple of AppendixCounts
        Pooled over the same subsets of the resampled matrices, one per draw (empty
        without counts or with ``resamples = 0``).
    """

    series: str
    point: AppendixCounts
    draws: tuple[AppendixCounts, ...]

    def to_jsonable(self) -> dict[str, Any]:
        return {
            "series": self.series,
            "point": self.point.to_jsonable(),
            "draws": [draw.to_jsonable() for draw in self.draws],
        }

    @classmethod
    def from_jsonable(cls, payload: dict[str, Any]) -> SeriesCounts:
        return cls(
            series=payload["series"],
            point=AppendixCounts.from_jsonable(payload["point"]),
            draws=tuple(AppendixCounts.from_jsonable(draw) for draw in payload["draws"]),
        )


def sampled_sizes(settings: SubsetSettings, n_items: int) -> tuple[int, ...] | None:
    """The sizes K sampled in a matrix of ``n_items`` items (None: every K)."""
    return None if settings.ks is None else tuple(k for k in settings.ks if k <= n_items)


def matrix_samples(series_size: int, settings: SubsetSettings) -> int:
    """Subsets per K of each matrix of a series of ``series_size`` matrices."""
    return max(1, -(-settings.samples_per_k // series_size))


def _matrix_counts(
    matrix: RealMatrix, samples: int, settings: SubsetSettings
) -> tuple[AppendixCounts, list[AppendixCounts]]:
    plan = SamplingPlan.build(
        f"real_data/{matrix.dataset}/{matrix.name}",
        matrix.k,
        sampled_sizes(settings, matrix.k),
        samples,
        settings.seed,
    )
    point = run_shard(matrix.matrix, plan, threads=1)
    if matrix.log is None or settings.resamples == 0:
        return point, []
    rng = named_generator(settings.seed, "real_data", "subsets", matrix.dataset, matrix.name)
    draws = resampled_matrices(matrix, settings.resamples, rng)
    return point, [run_shard(draw, plan, threads=1) for draw in draws]


def subset_counts(matrices: Sequence[RealMatrix], settings: SubsetSettings) -> list[SeriesCounts]:
    """Sample, solve and count the K-subsets of every matrix; pool them per series.

    Matrices with fewer items than the smallest K sampled have no sub-matrix to count and are
    skipped (logged).

    Parameters
    ----------
    matrices : sequence of RealMatrix
    settings : SubsetSettings

    Returns
    -------
    list of SeriesCounts
        In order of first appearance of the series.
    """
    points: dict[str, list[AppendixCounts]] = {}
    draws: dict[str, list[list[AppendixCounts]]] = {}
    counted = []
    for matrix in matrices:
        if matrix.k < 2 or sampled_sizes(settings, matrix.k) == ():
            logger.info("%s %s: %d item(s), no sub-matrix", matrix.dataset, matrix.name, matrix.k)
        else:
            counted.append(matrix)
    series_sizes = Counter(series_of(matrix) for matrix in counted)
    for matrix in counted:
        series = series_of(matrix)
        samples = matrix_samples(series_sizes[series], settings)
        point, matrix_draws = _matrix_counts(matrix, samples, settings)
        points.setdefault(series, []).append(point)
        draws.setdefault(series, []).append(matrix_draws)
        logger.info(
            "%s %s: K = 2..%d, %d sub-matrices, %d draws",
            matrix.dataset,
            matrix.name,
            matrix.k,
            sum(c.matrices for c in point.per_k.values()),
            len(matrix_draws),
        )
    result = []
    for series, parts in points.items():
        per_draw = list(zip(*draws[series], strict=True)) if draws[series][0] else []
        result.append(
            SeriesCounts(
                series=series,
                point=pool_counts(series, parts),
                draws=tuple(pool_counts(series, list(draw)) for draw in per_draw),
            )
        )
    return result


def matrix_summary(matrix: RealMatrix) -> dict[str, Any]:
    """The winners of a whole real matrix: one row of the data set's matrix table."""
    P = matrix.matrix
    k = matrix.k
    weights = von_neumann_winners(P[None]).weights[0] if k else np.zeros(0)
    support = np.flatnonzero(weights > SUPPORT_TOL)
    support = support[np.argsort(-weights[support], kind="stable")]
    condorcet = condorcet_winner(P) if k else None
    compared = (
        None if matrix.log is None else int(np.triu(count_pairs(matrix.log).observed, 1).sum())
    )
    return {
        "dataset": matrix.dataset,
        "series": series_of(matrix),
        "matrix": matrix.name,
        "title": matrix.title,
        "items": k,
        "comparisons": matrix.comparisons,
        "pairs_compared": compared,
        "pairs": k * (k - 1) // 2,
        "condorcet_winner": None if condorcet is None else matrix.items[condorcet],
        "copeland_winners": "; ".join(matrix.items[i] for i in copeland_winners(P)) if k else "",
        "support_size": int(support.size),
        "von_neumann_winner": "; ".join(f"{matrix.items[i]}: {weights[i]:.3f}" for i in support),
        "warnings": len(matrix.warnings),
    }


@dataclass(frozen=True)
class DatasetRun:
    """Everything the subset statistics of one data set produce.

    Attributes
    ----------
    dataset : str
    matrices : pandas.DataFrame
        One row per matrix (:func:`matrix_summary`).
    series : list of SeriesCounts
    warnings : tuple of str
        Every choice of the count policy, per matrix.
    """

    dataset: str
    matrices: pd.DataFrame
    series: list[SeriesCounts]
    warnings: tuple[str, ...]


def run_dataset(
    dataset: str,
    paths: Sequence[str | os.PathLike[str]],
    sources: SourceSettings,
    settings: SubsetSettings,
) -> DatasetRun:
    """Read a data set's files, summarise its matrices and count their K-subsets."""
    matrices = dataset_matrices(
        dataset,
        paths,
        CountPolicy(unobserved=settings.unobserved),
        periods=sources.atp_periods,
        top=sources.atp_top,
        topics=sources.trec_dl_topics,
    )
    return DatasetRun(
        dataset=dataset,
        matrices=pd.DataFrame([matrix_summary(matrix) for matrix in matrices]),
        series=subset_counts(matrices, settings),
        warnings=tuple(note for matrix in matrices for note in matrix.warnings),
    )
