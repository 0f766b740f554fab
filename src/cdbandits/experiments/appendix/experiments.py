"""What the appendix runs: sample, solve and count one shard of a sampling plan.

:func:`run_shard` draws the shard's blocks of sub-matrices (:class:`.sampling.SamplingPlan`),
solves them with :func:`cdbandits.batched.subset_von_neumann_winners` (every answer
certified) and counts them per K (:class:`.counts.AppendixCounts`, additive over shards).
:func:`sampled_matrix` reads a click model's matrix and builds its plan, the one way the
workflow's jobs do so.
"""

from __future__ import annotations

import logging
import os

import numba
import numpy as np
from numpy.typing import ArrayLike, NDArray

from ...batched import subset_von_neumann_winners
from ...matrix_io import load_matrix
from ...preference import as_skew
from ...winners import CopelandVariant
from .counts import AppendixCounts, KCounts, count_summaries, summarise_subsets
from .sampling import SamplingPlan
from .settings import SamplingSettings

__all__ = ["run_shard", "sampled_matrix"]

logger = logging.getLogger(__name__)


def sampled_matrix(
    path: str | os.PathLike[str], matrix_name: str, sampling: SamplingSettings, seed: int
) -> tuple[NDArray[np.float64], SamplingPlan]:
    """A click model's matrix (skew form, either convention on disk) and its sampling plan.

    Parameters
    ----------
    path : path-like
        The matrix file, any format of :mod:`cdbandits.matrix_io`.
    matrix_name : str
        The name that seeds the plan's streams (the workflow uses the click model).
    sampling : SamplingSettings
        Subset sizes and samples per size.
    seed : int
        The master seed.

    Returns
    -------
    (P, plan) : the skew-form matrix and the sampling plan of its size.

    Raises
    ------
    ConfigError
        If a size K of ``sampling`` exceeds the matrix's arms.
    """
    P = as_skew(load_matrix(path), "auto")
    n_arms = P.shape[0]
    sampling.check_fits(n_arms, f"the matrix {matrix_name!r}")
    plan = SamplingPlan.build(matrix_name, n_arms, sampling.ks, sampling.samples_per_k, seed)
    return P, plan


def run_shard(
    P: ArrayLike,
    plan: SamplingPlan,
    shard: int = 0,
    n_shards: int = 1,
    *,
    variant: CopelandVariant = "wins",
    threads: int | None = None,
) -> AppendixCounts:
    """Sample, solve and count the blocks of one shard of ``plan``.

    Parameters
    ----------
    P : array_like, shape (N, N)
        The full skew-form preference matrix, ``N == plan.n_arms``.
    plan : SamplingPlan
        What to sample.
    shard, n_shards : int, optional
        Which blocks to do (:meth:`SamplingPlan.shard_units`); default all.
    variant : {"wins", "wins_or_ties", "wins_minus_losses"}, optional
        Copeland variant.
    threads : int, optional
        Number of numba threads (default: numba's current setting).

    Returns
    -------
    AppendixCounts
    """
    P = as_skew(P, "skew")
    if P.shape[0] != plan.n_arms:
        raise ValueError(
            f"the plan of {plan.matrix_name!r} is for {plan.n_arms} arms, the matrix has "
            f"{P.shape[0]}"
        )
    if threads is not None:
        numba.set_num_threads(max(1, min(threads, numba.config.NUMBA_NUM_THREADS)))
    units = plan.shard_units(shard, n_shards)
    per_k: dict[int, KCounts] = {}
    for k in sorted({unit[0] for unit in units}):
        blocks = [(block, rows) for size, block, rows in units if size == k]
        subsets = np.concatenate([plan.block_subsets(k, b, rows) for b, rows in blocks])
        solution = subset_von_neumann_winners(P, subsets)
        per_k[k] = count_summaries(k, summarise_subsets(P, subsets, solution, variant))
        interior = per_k[k].methods["interior_point"]
        if interior:
            logger.info(
                "K = %d: %d of %d matrices needed the interior point method",
                k,
                interior,
                subsets.shape[0],
            )
    logger.info(
        "%s shard %d/%d: %d blocks, %d matrices",
        plan.matrix_name,
        shard,
        n_shards,
        len(units),
        sum(rows for _, _, rows in units),
    )
    return AppendixCounts(
        matrix_name=plan.matrix_name, variant=variant, units=tuple(units), per_k=per_k
    )
