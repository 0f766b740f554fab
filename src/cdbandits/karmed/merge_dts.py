"""MergeDTS: Double Thompson Sampling's duels confined to small batches of arms.

Li, Markov, de Rijke and Zoghi, "MergeDTS: A Method for Effective Large-Scale Online Ranker
Evaluation", ACM TOIS 38(4), 2020, Algorithm 1.
"""

from __future__ import annotations

import math

import numba
import numpy as np
from numpy.typing import NDArray

from .base import play_duel
from .batches import BatchedAlgorithm, after_duel, prepare_batch_compiled
from .confidence import random_argmax, random_argmax_compiled

__all__ = ["MergeDTS"]


class MergeDTS(BatchedAlgorithm):
    """MergeDTS (Li et al., TOIS 2020, Algorithm 1).

    The batch bookkeeping (elimination by ``u_ij < 1/2`` within the batch with
    ``log(t + C)``, merges) is MergeRUCB's, :mod:`cdbandits.karmed.batches`. Inside the
    current batch the pair is chosen by double Thompson sampling, as in D-TS (Wu and Liu,
    2016) without D-TS's confidence-bound filters:

    1. ``theta_ij ~ Beta(W_ij + 1, W_ji + 1)`` for the batch's pairs ``i < j``,
       ``theta_ji = 1 - theta_ij``; ``c`` = the arm with most ``theta_ij > 1/2`` in the
       batch, ties broken at random;
    2. ``theta2_j ~ Beta(W_jc + 1, W_cj + 1)`` for the batch's other arms;
       ``d = argmax_{j != c} theta2_j``.

    A batch of one arm (the last survivor) duels itself.

    Choices this implementation makes where the paper's text was not available to us (see
    the package notes): ``d != c`` inside a batch of two or more arms, as in MergeRUCB and
    in the authors' public code; samples drawn pair by pair in increasing order, then arm
    by arm. The defaults are those of the authors' public code (``alpha = 1.01``,
    ``M = 4``, ``epsilon = 0.01``), not verified against the paper's experiments.

    Parameters
    ----------
    alpha : float, optional
        Exploration constant of the elimination bounds, ``alpha > 1/2``; default 1.01.
    partition_size : int, optional
        Batch size ``M``; default 4.
    failure_probability : float, optional
        ``epsilon`` of the time offset ``C``; default 0.01.
    time_offset : float, optional
        ``C`` itself, instead of the formula.

    Attributes
    ----------
    See :class:`~cdbandits.karmed.batches.BatchedAlgorithm`.
    """

    name = "merge_dts"

    def __init__(
        self,
        alpha: float = 1.01,
        partition_size: int = 4,
        failure_probability: float = 0.01,
        time_offset: float | None = None,
    ) -> None:
        super().__init__(alpha, partition_size, failure_probability, time_offset)

    def _select(self, t: int) -> tuple[int, int]:
        members, _ = self._prepare_batch(t)
        if members.size == 1:
            return int(members[0]), int(members[0])
        rng, wins, size = self.rng_, self.wins_, members.size
        rows, columns = np.triu_indices(size, 1)
        first_arms, second_arms = members[rows], members[columns]
        theta = np.full((size, size), 0.5)
        theta[rows, columns] = rng.beta(
            wins[first_arms, second_arms] + 1, wins[second_arms, first_arms] + 1
        )
        theta[columns, rows] = 1.0 - theta[rows, columns]
        scores = (theta > 0.5).sum(axis=1).astype(float)
        champion = random_argmax(scores, np.arange(size), rng)
        c = members[champion]
        others = np.flatnonzero(np.arange(size) != champion)
        theta2 = np.zeros(size)
        theta2[others] = rng.beta(wins[members[others], c] + 1, wins[c, members[others]] + 1)
        return int(c), int(members[random_argmax(theta2, others, rng)])

    def _run_kernel(
        self,
        win_probability: NDArray[np.float64],
        environment_rng: np.random.Generator,
        n_rounds: int,
        arm_counts: NDArray[np.int64],
        duels: NDArray[np.int64],
    ) -> None:
        self.n_batches_, self.stage_ = _merge_dts_rounds(
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
def _merge_dts_rounds(
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
    positions = np.empty(k, dtype=np.int64)
    theta = np.empty((k, k))
    values = np.zeros(k)
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
            for p in range(n_members):
                for q in range(p + 1, n_members):
                    i = members[p]
                    j = members[q]
                    theta[p, q] = rng.beta(wins[i, j] + 1, wins[j, i] + 1)
                    theta[q, p] = 1.0 - theta[p, q]
            for p in range(n_members):
                count = 0
                for q in range(n_members):
                    if q != p and theta[p, q] > 0.5:
                        count += 1
                values[p] = count
                positions[p] = p
            champion = random_argmax_compiled(values, positions, n_members, rng, -1, scratch)
            c = members[champion]
            n_others = 0
            for p in range(n_members):
                if p != champion:
                    j = members[p]
                    values[p] = rng.beta(wins[j, c] + 1, wins[c, j] + 1)
                    positions[n_others] = p
                    n_others += 1
            d = members[random_argmax_compiled(values, positions, n_others, rng, -1, scratch)]
        outcome = play_duel(environment_rng, win_probability, step, c, d, arm_counts, duels)
        wins[c, d] += outcome
        wins[d, c] += 1 - outcome
        n_batches, stage = after_duel(batch, n_batches, stage, partition_size)
    return n_batches, stage
