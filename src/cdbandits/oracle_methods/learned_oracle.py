"""An off-the-shelf scikit-learn learner as the classification oracle, and its audit.

The paper hopes its methods work "using ordinary off-the-shelf classification algorithms as
oracle". :class:`LearnedOracle` answers ``argmin_h sum_i c_i(h(x_i))`` approximately, over
the class of models a scikit-learn estimator can return, through one of two reductions
(costs are first summed per distinct context, ``C[x, a]``, with ``n_x`` samples of ``x``):

* ``"weighted_multiclass"``: one example ``(x, a)`` per context and action, with weight
  ``max_b C[x, b] - C[x, a]``. The weighted 0/1 accuracy of ``h`` is then
  ``sum_x max_b C[x, b] - cost(h)``, so *maximising weighted accuracy is exactly minimising
  cost*; only the classifier's own optimisation (greedy splits, surrogate losses) is
  approximate. The estimator must accept ``sample_weight``.
* ``"cost_regression"``: one regressor per action fitted to the mean cost ``C[x, a] / n_x``
  with weights ``n_x``; the policy plays the action of least predicted cost.

Learned policies get ids ``0, 1, ...`` in the order they were returned; their actions on any
contexts come from the stored fitted models (:meth:`LearnedOracle.actions`).

:class:`AuditedOracle` runs any oracle and, on every call, the exact oracle of an enumerable
class on the same costs, recording how much more the learned answer costs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.base import clone
from sklearn.pipeline import Pipeline

from ..contextual.oracle import OracleAnswer, aggregate_costs
from .oracles import PolicyOracle

__all__ = ["REDUCTIONS", "AuditRecord", "AuditedOracle", "LearnedOracle"]

#: The two cost-sensitive reductions of :class:`LearnedOracle`.
REDUCTIONS = ("weighted_multiclass", "cost_regression")


def _fit_weighted(
    estimator: Any, X: NDArray[np.float64], y: NDArray[Any], weights: NDArray[np.float64]
) -> Any:
    """Fit with sample weights, routed to the last step of a pipeline."""
    if isinstance(estimator, Pipeline):
        return estimator.fit(X, y, **{f"{estimator.steps[-1][0]}__sample_weight": weights})
    return estimator.fit(X, y, sample_weight=weights)


@dataclass(frozen=True)
class _ConstantPolicy:
    action: int

    def predict(self, X: ArrayLike) -> NDArray[np.uint8]:
        return np.full(np.shape(X)[0], self.action, dtype=np.uint8)


@dataclass(frozen=True)
class _RegressionPolicy:
    regressors: tuple[Any, ...]

    def predict(self, X: ArrayLike) -> NDArray[np.uint8]:
        predicted = np.stack([regressor.predict(X) for regressor in self.regressors], axis=1)
        return np.argmin(predicted, axis=1).astype(np.uint8)


class LearnedOracle(PolicyOracle):
    """Cost-sensitive classification by a scikit-learn estimator, on the exploration contexts.

    Parameters
    ----------
    estimator : scikit-learn estimator
        A classifier accepting ``sample_weight`` (``"weighted_multiclass"``) or a regressor
        (``"cost_regression"``); cloned for every call. Fix its ``random_state`` for
        reproducible answers.
    contexts : array_like, shape (n_contexts, n_features)
        The environment's contexts.
    context_ids : array_like of int, shape (m,)
        The context of every exploration round.
    n_actions : int
    reduction : {"weighted_multiclass", "cost_regression"}, optional

    Attributes
    ----------
    policies_ : list
        The fitted policies, indexed by policy id (each has ``predict(X)``).
    n_calls_ : int
    """

    def __init__(
        self,
        estimator: Any,
        contexts: ArrayLike,
        context_ids: ArrayLike,
        n_actions: int,
        reduction: str = "weighted_multiclass",
    ) -> None:
        if reduction not in REDUCTIONS:
            raise ValueError(f"reduction must be one of {REDUCTIONS}; got {reduction!r}")
        features = np.asarray(contexts, dtype=np.float64)
        ids = np.asarray(context_ids, dtype=np.int64)
        if ids.ndim != 1 or ids.size == 0 or ids.min() < 0 or ids.max() >= features.shape[0]:
            raise ValueError(
                f"context_ids must be a non-empty 1-D array in 0..{features.shape[0] - 1}"
            )
        self.estimator = estimator
        self.reduction = reduction
        self.n_actions = n_actions
        self.n_rounds = int(ids.size)
        distinct, self._inverse = np.unique(ids, return_inverse=True)
        self._features = features[distinct]
        self._counts = np.bincount(self._inverse, minlength=distinct.size).astype(np.float64)
        self.policies_: list[Any] = []
        self._distinct_actions: list[NDArray[np.uint8]] = []
        self.n_calls_ = 0

    def _fit_policy(self, summed: NDArray[np.float64]) -> Any:
        k = self.n_actions
        if self.reduction == "cost_regression":
            means = summed / self._counts[:, None]
            regressors = tuple(
                _fit_weighted(clone(self.estimator), self._features, means[:, a], self._counts)
                for a in range(k)
            )
            return _RegressionPolicy(regressors)
        weights = (summed.max(axis=1, keepdims=True) - summed).reshape(-1)
        labels = np.tile(np.arange(k), self._features.shape[0])
        keep = weights > 0
        if not keep.any() or np.unique(labels[keep]).size == 1:
            # Every policy costs the same, or one action is best on every context.
            return _ConstantPolicy(int(labels[keep][0]) if keep.any() else 0)
        X = np.repeat(self._features, k, axis=0)[keep]
        return _fit_weighted(clone(self.estimator), X, labels[keep], weights[keep])

    def _argmin(self, costs: NDArray[np.float64]) -> OracleAnswer:
        summed = aggregate_costs(costs, self._inverse, self._features.shape[0])
        policy = self._fit_policy(summed)
        actions = np.asarray(policy.predict(self._features)).astype(np.uint8)
        self.policies_.append(policy)
        self._distinct_actions.append(actions)
        cost = float(summed[np.arange(actions.size), actions].sum())
        return OracleAnswer(policy=len(self.policies_) - 1, cost=cost)

    def _checked(self, policies: ArrayLike) -> NDArray[np.int64]:
        ids = np.asarray(policies, dtype=np.int64).reshape(-1)
        if ids.size and (ids.min() < 0 or ids.max() >= len(self.policies_)):
            raise IndexError(f"learned policy ids must lie in 0..{len(self.policies_) - 1}")
        return ids

    def round_actions(self, policies: ArrayLike) -> NDArray[np.uint8]:
        """Actions of learned policies on ``x_1 .. x_m``: ``(m, n)``."""
        ids = self._checked(policies)
        distinct = np.stack([self._distinct_actions[i] for i in ids], axis=1)
        return distinct[self._inverse]

    def actions(self, X: ArrayLike, policies: ArrayLike) -> NDArray[np.uint8]:
        """Actions of learned policies on contexts ``X``: ``(n_contexts, n)``."""
        ids = self._checked(policies)
        features = np.asarray(X, dtype=np.float64)
        return np.stack(
            [np.asarray(self.policies_[i].predict(features)).astype(np.uint8) for i in ids], axis=1
        )


@dataclass(frozen=True)
class AuditRecord:
    """One audited oracle call.

    Attributes
    ----------
    cost : float
        Total cost of the audited oracle's answer.
    exact_cost : float
        The exact minimum (reference oracle).
    cost_range : float
        ``sum_i (max_a c_i(a) - min_a c_i(a))``, the largest possible excess.
    """

    cost: float
    exact_cost: float
    cost_range: float

    @property
    def excess(self) -> float:
        """``cost - exact_cost`` (negative only if the audited class is larger)."""
        return self.cost - self.exact_cost

    @property
    def relative_excess(self) -> float:
        """``excess / cost_range`` (0 for an exact answer, at most 1)."""
        return self.excess / self.cost_range if self.cost_range > 0 else 0.0


class AuditedOracle(PolicyOracle):
    """An oracle whose every call is compared with an exact reference oracle.

    Answers, ids and actions are the audited oracle's; the reference is only asked for the
    minimum cost.

    Parameters
    ----------
    oracle : PolicyOracle
        The oracle used (e.g. a :class:`LearnedOracle`).
    reference : PolicyOracle
        An exact oracle on the same exploration contexts.

    Attributes
    ----------
    records_ : list of AuditRecord
    """

    def __init__(self, oracle: PolicyOracle, reference: PolicyOracle) -> None:
        if (oracle.n_rounds, oracle.n_actions) != (reference.n_rounds, reference.n_actions):
            raise ValueError("the oracle and its reference must cover the same (m, K)")
        self.oracle = oracle
        self.reference = reference
        self.n_rounds = oracle.n_rounds
        self.n_actions = oracle.n_actions
        self.n_calls_ = 0
        self.records_: list[AuditRecord] = []

    def _argmin(self, costs: NDArray[np.float64]) -> OracleAnswer:
        answer = self.oracle.argmin(costs)
        exact = self.reference.argmin(costs)
        spread = float((costs.max(axis=1) - costs.min(axis=1)).sum())
        self.records_.append(AuditRecord(answer.cost, exact.cost, spread))
        return answer

    def round_actions(self, policies: ArrayLike) -> NDArray[np.uint8]:
        """The audited oracle's policies on ``x_1 .. x_m``."""
        return self.oracle.round_actions(policies)

    def actions(self, X: ArrayLike, policies: ArrayLike) -> NDArray[np.uint8]:
        """The audited oracle's policies on ``X``."""
        return self.oracle.actions(X, policies)
