"""An exact oracle for decision stumps whose cost does not grow with the number of bins.

:class:`~cdbandits.contextual.policies.DecisionStumps` has ``|Pi| = d (n_bins - 1) K^2``
policies. On ``q`` given contexts, a feature's thresholds that fall between the same two
occupied bins act identically, so only ``d (q + 1) K^2`` behaviours are distinct. This
oracle scores one representative per behaviour: per feature, the contexts are grouped by
their (sorted) distinct bins, prefix sums of the grouped costs give the cost of every left
set, and for each left set the best ``(left, right)`` pair is the argmin of a ``K x K``
table. A call costs ``O(q d K^2)``, independent of ``n_bins``; only finding each context's
bin (``O(q d log n_bins)``, once) depends on it. So the class can grow to any size at a
logarithmic cost, as the paper's oracle assumption intends.

Ties go to the smallest policy id, as in
:class:`~cdbandits.contextual.oracle.TableOracle`: within a behaviour class the smallest
threshold is the representative, and ``(left, right)`` ties are broken in C order. Totals
are summed in a different order than the table oracle's, so the two agree up to rounding
(exactly for integer costs). :meth:`total_costs` (every policy's total, ``O(|Pi|)``) is
delegated to :class:`~cdbandits.contextual.policies.StumpOracle`.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..contextual.oracle import ClassificationOracle, OracleAnswer
from ..contextual.policies import DecisionStumps, StumpOracle

__all__ = ["CompressedStumpOracle"]


class CompressedStumpOracle(ClassificationOracle):
    """Exact argmin over :class:`DecisionStumps` in ``O(q d K^2)`` per call.

    Parameters
    ----------
    stumps : DecisionStumps
        A fitted stump class.
    X : array_like, shape (q, n_features)
        The contexts the cost vectors refer to.

    Attributes
    ----------
    n_candidates : int
        Number of distinct behaviours scored per call (at most ``d (q + 1)`` left sets).
    """

    def __init__(self, stumps: DecisionStumps, X: ArrayLike) -> None:
        self.stumps = stumps
        self.n_actions = stumps.n_actions
        self.n_policies = stumps.n_policies
        bins = stumps.bins(X)
        self.n_contexts, n_features = bins.shape
        n_thresholds = stumps.n_bins - 1
        group_of = np.empty_like(bins)
        offsets = [0]
        starts, features, thresholds = [], [], []
        for j in range(n_features):
            occupied, group_of[:, j] = np.unique(bins[:, j], return_inverse=True)
            group_of[:, j] += offsets[-1]
            # Left set k (the first k occupied bins, k = 0..G) starts at threshold
            # t = 1 for k = 0 and t = occupied[k - 1] + 1 otherwise; it exists iff
            # that t is a valid threshold and precedes the next occupied bin.
            smallest = np.concatenate([[1], occupied + 1])
            largest = np.concatenate([occupied, [n_thresholds]])
            valid = smallest <= largest
            prefix_rows = offsets[-1] + j + np.arange(occupied.size + 1)
            starts.append(prefix_rows[valid])
            features.append(np.full(int(valid.sum()), j))
            thresholds.append(smallest[valid])
            offsets.append(offsets[-1] + occupied.size)
        self._group_of = group_of.reshape(-1)
        self._n_groups = offsets[-1]
        self._segment_starts = np.asarray(offsets[:-1])
        self._segment_sizes = np.diff(offsets)
        self._prefix_rows = np.concatenate(starts)
        self._candidate_base = (
            np.concatenate(features) * n_thresholds + np.concatenate(thresholds) - 1
        ) * self.n_actions**2
        self.n_candidates = int(self._prefix_rows.size)
        self._full = StumpOracle(stumps, X)

    def _totals(self, costs: NDArray[np.float64]) -> NDArray[np.float64]:
        return self._full._totals(costs)

    def _best(self, costs: NDArray[np.float64]) -> OracleAnswer:
        k = self.n_actions
        n_features = self._segment_sizes.size
        repeated = np.repeat(costs, n_features, axis=0)  # row i * d + j = costs[i]
        grouped = np.stack(
            [
                np.bincount(self._group_of, weights=repeated[:, a], minlength=self._n_groups)
                for a in range(k)
            ],
            axis=1,
        )
        # Per feature: prefix sums over its groups, with a zero row in front (k = 0).
        prefix = np.zeros((self._n_groups + n_features, k))
        rows = np.arange(self._n_groups) + np.repeat(np.arange(n_features), self._segment_sizes) + 1
        cumulative = np.cumsum(grouped, axis=0)
        before = np.repeat(
            cumulative[self._segment_starts] - grouped[self._segment_starts],
            self._segment_sizes,
            axis=0,
        )
        prefix[rows] = cumulative - before
        left = prefix[self._prefix_rows]
        right = costs.sum(axis=0) - left
        totals = (left[:, :, None] + right[:, None, :]).reshape(-1, k * k)
        pair = np.argmin(totals, axis=1)
        best = totals[np.arange(pair.size), pair]
        ids = self._candidate_base + pair
        order = np.lexsort((ids, best))
        return OracleAnswer(policy=int(ids[order[0]]), cost=float(best[order[0]]))

    def argmin(self, costs: ArrayLike) -> OracleAnswer:
        """The stump of smallest total cost; see :meth:`ClassificationOracle.argmin`."""
        return self._best(self._validated(costs, batched=False)[0])

    def argmin_batch(self, costs: ArrayLike) -> list[OracleAnswer]:
        """:meth:`argmin` for each of ``B`` cost tables."""
        return [self._best(table) for table in self._validated(costs, batched=True)]
