"""MergeDTS: Double Thompson Sampling's duels confined to small batches of arms.

Li, Markov, de Rijke and Zoghi, "MergeDTS: A Method for Effective Large-Scale Online Ranker
Evaluation", ACM TOIS 38(4), 2020, Algorithm 1.
"""

from __future__ import annotations

import numpy as np

from .batches import BatchedAlgorithm
from .confidence import random_argmax

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

    Parameters and attributes: see :class:`~cdbandits.karmed.batches.BatchedAlgorithm`
    (``partition_size`` is the paper's ``M``, ``failure_probability`` its ``epsilon``).
    """

    name = "merge_dts"
    _thompson = True

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
