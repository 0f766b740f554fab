"""MergeRUCB: RUCB's duels confined to small batches of arms.

Zoghi, Whiteson and de Rijke, "MergeRUCB: A Method for Large-Scale Online Ranker
Evaluation", WSDM 2015, Algorithm 1.
"""

from __future__ import annotations

import numpy as np

from ..dueling.draws import pick
from .batches import UCB_PAIR, BatchedAlgorithm
from .confidence import random_argmax

__all__ = ["MergeRUCB"]


class MergeRUCB(BatchedAlgorithm):
    """MergeRUCB (Zoghi et al., WSDM 2015, Algorithm 1).

    The batch bookkeeping (random initial batches of about ``P`` arms, round-robin over the
    batches, elimination of an arm once ``u_ij < 1/2`` against another arm of its batch,
    merges as arms are eliminated, confidence bounds with ``log(t + C)``) is described in
    :mod:`cdbandits.karmed.batches`. In the current batch, ``c`` is uniform over its arms
    and ``d = argmax_{j != c} u_jc`` over the others, ties broken at random; a batch of one
    arm (the last survivor) duels itself.

    **Sources.** The pair rule above is that of the public code of Li et al.
    (github.com/chang-li/MergeDTS at commit 296f3e2, ``dueling_bandits/merge_rucb.py``:
    ``c`` by ``prng.randint`` over the batch, ``d`` by ``my_argmax`` of the column
    ``u_jc`` with ``u_cc`` set to 0), who ran MergeRUCB as a baseline. Where that code's
    bookkeeping differs (unplayed pairs at one win each way, the restart of ``log`` at each
    stage, the stage trigger ``K / 2^s + 1``, singleton batches duelling themselves), this
    implementation makes its own choice; :mod:`cdbandits.karmed.batches` lists each.

    The defaults are the code's (``alpha = 1.01``, ``P = 4``, ``delta = 0.01``); the tuned
    configuration ``MergeRUCBBEST`` of its experiment script (``individual_run.py``), with
    which the MergeDTS paper's experiments ran MergeRUCB as a baseline, is
    ``MergeRUCB(alpha=0.8**6, partition_size=8, time_offset=4e5)``, recorded as
    ``merge_rucb_li2020`` in :data:`cdbandits.karmed.published.TUNED_CONFIGURATIONS`. The
    parameters of the MergeRUCB paper's own experiments could not be read.

    Parameters and attributes: see :class:`~cdbandits.karmed.batches.BatchedAlgorithm`
    (``partition_size`` is the paper's ``P``, ``failure_probability`` its ``delta``).
    """

    name = "merge_rucb"
    _pair_rule = UCB_PAIR

    def _select(self, t: int) -> tuple[int, int]:
        members, upper = self._prepare_batch(t)
        if members.size == 1:
            return int(members[0]), int(members[0])
        position = pick(self.rng_, members.size)
        others = np.flatnonzero(np.arange(members.size) != position)
        challenger = random_argmax(upper[:, position], others, self.rng_)
        return int(members[position]), int(members[challenger])
