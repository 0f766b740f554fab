"""MergeRUCB: RUCB's duels confined to small batches of arms.

Zoghi, Whiteson and de Rijke, "MergeRUCB: A Method for Large-Scale Online Ranker
Evaluation", WSDM 2015, Algorithm 1.
"""

from __future__ import annotations

import math

import numba
import numpy as np
from numpy.typing import NDArray

from .base import pick, pick_compiled, play_duel
from .batches import BatchedAlgorithm, after_duel, prepare_batch_compiled
from .confidence import random_argmax, random_argmax_compiled, upper_bound

__all__ = ["MergeRUCB"]


class MergeRUCB(BatchedAlgorithm):
    """MergeRUCB (Zoghi et al., WSDM 2015, Algorithm 1).

    The batch bookkeeping (random initial batches of about ``P`` arms, round-robin over the
    batches, elimination of an arm once ``u_ij < 1/2`` against another arm of its batch,
    merges as arms are eliminated, confidence bounds with ``log(t + C)``) is described in
    :mod:`cdbandits.karmed.batches`. In the current batch, ``c`` is uniform over its arms
    and ``d = argmax_{j != c} u_jc`` over the others, ties broken at random; a batch of one
    arm (the last survivor) duels itself.

    The defaults are those of the public code of Li et al. (TOIS 2020), who ran MergeRUCB
    as a baseline (``alpha = 1.01``, ``P = 4``, ``delta = 0.01``); the WSDM paper's own
    experimental settings could not be read here (see the package notes).

    Parameters
    ----------
    alpha : float, optional
        Exploration constant, ``alpha > 1/2``; default 1.01.
    partition_size : int, optional
        ``P``; default 4.
    failure_probability : float, optional
        ``delta`` of the time offset ``C``; default 0.01.
    time_offset : float, optional
        ``C`` itself, instead of the formula.

    Attributes
    ----------
    See :class:`~cdbandits.karmed.batches.BatchedAlgorithm`.
    """

    name = "merge_rucb"

    def __init__(
        self,
        alpha: float = 1.01,
        partition_size: int = 4,
        failure_probability: float = 0.01,
        time_offset: float | None = None,
    ) -> None:
        super().__init__(alpha, partition_size, failure_probability, time_offset)

    def _select(self, t: int) -> tuple[int, int]:
        members, upper = self._prepare_batch(t)
        if members.size == 1:
            return int(members[0]), int(members[0])
        position = pick(self.rng_, members.size)
        others = np.flatnonzero(np.arange(members.size) != position)
        challenger = random_argmax(upper[:, position], others, self.rng_)
        return int(members[position]), int(members[challenger])

    def _run_kernel(
        self,
        win_probability: NDArray[np.float64],
        environment_rng: np.random.Generator,
        n_rounds: int,
        arm_counts: NDArray[np.int64],
        duels: NDArray[np.int64],
    ) -> None:
        self.n_batches_, self.stage_ = _merge_rucb_rounds(
            self.wins_,
            self.batch_,
            self.n_batches_,
            self.stage_,
            self.alpha,
            self.partition_size,
            self.time_offset_,
            self.round_,
            n_rounds,
            self.rng_,
            win_probability,
            environment_rng,
            arm_counts,
            duels,
        )


@numba.njit(cache=True)
def _merge_rucb_rounds(
    wins: NDArray[np.int64],
    batch: NDArray[np.int64],
    n_batches: int,
    stage: int,
    alpha: float,
    partition_size: int,
    offset: float,
    start_round: int,
    n_rounds: int,
    rng: np.random.Generator,
    win_probability: NDArray[np.float64],
    environment_rng: np.random.Generator,
    arm_counts: NDArray[np.int64],
    duels: NDArray[np.int64],
) -> tuple[int, int]:
    k = wins.shape[0]
    members = np.empty(k, dtype=np.int64)
    others = np.empty(k, dtype=np.int64)
    column = np.empty(k)
    scratch = np.empty(k, dtype=np.int64)
    for step in range(n_rounds):
        t = start_round + step + 1
        log_term = math.log(t + offset)
        n_batches, current, n_members = prepare_batch_compiled(
            wins, batch, n_batches, (t - 1) % n_batches, log_term, alpha, members
        )
        if n_members == 1:
            c = members[0]
            d = c
        else:
            c = members[pick_compiled(rng, n_members)]
            n_others = 0
            for m in range(n_members):
                j = members[m]
                if j != c:
                    column[j] = upper_bound(wins[j, c], wins[c, j], log_term, alpha)
                    others[n_others] = j
                    n_others += 1
            d = random_argmax_compiled(column, others, n_others, rng, -1, scratch)
        outcome = play_duel(environment_rng, win_probability, step, c, d, arm_counts, duels)
        wins[c, d] += outcome
        wins[d, c] += 1 - outcome
        n_batches, stage = after_duel(batch, n_batches, stage, partition_size)
    return n_batches, stage
