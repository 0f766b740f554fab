"""Points of the policy hull ``C`` as sparse mixtures, oracle access to ``Pi``, security levels.

The oracle is the only access to the policy class. :class:`PolicyOracle` is what the paper
assumes (Section 6): given cost vectors ``c_1 .. c_m`` on the exploration contexts it returns
``argmin_pi sum_i c_i(pi(x_i))`` as a policy id, and the policy's actions (hence its policy
vector) can be read back. :class:`ExactOracle` wraps an exact
:class:`~cdbandits.contextual.oracle.ClassificationOracle` of a finite class;
:class:`~cdbandits.oracle_methods.learned_oracle.LearnedOracle` an off-the-shelf classifier.

A point of ``C`` is a :class:`PolicyMixture` (policy ids and weights). Its dense vector
``w = sum_pi W(pi) v_pi`` (``(m, K)``, entries scaled by ``1/sqrt(m)``) is always computed
from the mixture, never stored without it.

Security levels, each one oracle call (eq. f4, ``B`` the compact game):

* row: ``min_{u in C} w^T B u = min_rho (B^T w) . v_rho`` (:func:`row_security`);
* column: ``max_{w in C} w^T B u`` (:func:`column_security`);
* their difference for a pair ``(w, u)`` bounds how far each is from optimal
  (:func:`duality_gap`), without knowing the game value;
* in the true game ``M`` over a finite population of contexts (value 0):
  ``min_rho W^T M rho``, whose negative is the exploitability of ``W``
  (:func:`cdbandits.contextual.regret.contextual_exploitability`).
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..contextual.oracle import ClassificationOracle, OracleAnswer, aggregate_costs
from ..contextual.policies import PolicyClass
from .compact_game import CompactGame

__all__ = [
    "BestResponse",
    "Checkpoint",
    "ExactOracle",
    "PolicyMixture",
    "PolicyOracle",
    "column_security",
    "duality_gap",
    "policy_vectors",
    "row_security",
]

#: Policies whose round actions :class:`ExactOracle` keeps (least recently used evicted).
ACTION_CACHE_SIZE = 4096


def policy_vectors(
    actions: ArrayLike, n_actions: int, weights: ArrayLike | None = None
) -> NDArray[np.float64]:
    """``sum_k weights[k] v_{pi_k}`` from the policies' actions on ``x_1 .. x_m``.

    Parameters
    ----------
    actions : array_like of int, shape (m, n)
        Column ``k`` holds ``pi_k(x_i)``.
    n_actions : int
    weights : array_like, shape (n,), optional
        Ones when omitted (the sum of the policy vectors).

    Returns
    -------
    ndarray of float64, shape (m, K)
        ``v(i, a) = sum_k weights[k] 1[pi_k(x_i) = a] / sqrt(m)``.
    """
    actions = np.asarray(actions)
    if actions.ndim != 2:
        raise ValueError(f"actions must have shape (m, n); got {actions.shape}")
    m, n = actions.shape
    weights = np.ones(n) if weights is None else np.asarray(weights, dtype=np.float64)
    if weights.shape != (n,):
        raise ValueError(f"weights must have shape ({n},); got {weights.shape}")
    flat = np.arange(m)[:, None] * n_actions + actions.astype(np.int64)
    mass = np.bincount(
        flat.reshape(-1),
        weights=np.broadcast_to(weights, (m, n)).reshape(-1),
        minlength=m * n_actions,
    )
    return mass.reshape(m, n_actions) / math.sqrt(m)


class PolicyOracle(ABC):
    """Oracle access to a policy class on the exploration contexts ``x_1 .. x_m``.

    Attributes
    ----------
    n_rounds : int
        ``m``.
    n_actions : int
        ``K``.
    n_calls_ : int
        Calls of :meth:`argmin` so far (evaluation calls included).
    """

    n_rounds: int
    n_actions: int
    n_calls_: int

    def argmin(self, costs: ArrayLike) -> OracleAnswer:
        """``argmin_pi sum_i c_i(pi(x_i))`` (eq. f5): the policy id and its total cost.

        Parameters
        ----------
        costs : array_like, shape (m, K)
            ``costs[i, a] = c_i(a)``. As a vector of the game, ``min_{w in C} c . w`` is the
            returned cost divided by ``sqrt(m)``.
        """
        array = np.asarray(costs, dtype=np.float64)
        if array.shape != (self.n_rounds, self.n_actions):
            raise ValueError(
                f"costs must have shape (m, K) = ({self.n_rounds}, {self.n_actions}); "
                f"got {array.shape}"
            )
        if not np.isfinite(array).all():
            raise ValueError("costs must be finite")
        self.n_calls_ += 1
        return self._argmin(array)

    @abstractmethod
    def _argmin(self, costs: NDArray[np.float64]) -> OracleAnswer:
        """The answer for validated costs ``(m, K)``."""

    @abstractmethod
    def round_actions(self, policies: ArrayLike) -> NDArray[np.uint8]:
        """Actions of the given policies on ``x_1 .. x_m``: shape ``(m, n_policies)``."""

    @abstractmethod
    def actions(self, X: ArrayLike, policies: ArrayLike) -> NDArray[np.uint8]:
        """Actions of the given policies on arbitrary contexts ``X``: ``(n_contexts, n)``."""

    def vector(self, policy: int) -> NDArray[np.float64]:
        """The policy vector ``v_pi``, shape ``(m, K)``."""
        return policy_vectors(self.round_actions([policy]), self.n_actions)


class ExactOracle(PolicyOracle):
    """The exact oracle of a finite class, on the exploration contexts.

    The samples' costs are summed per distinct context (a policy acts the same on equal
    contexts) and passed to an exact
    :class:`~cdbandits.contextual.oracle.ClassificationOracle` built on the distinct
    contexts of the sample only, so the oracle never sees more than ``m`` contexts.

    Parameters
    ----------
    policy_class : PolicyClass
        A fitted finite class.
    contexts : array_like, shape (n_contexts, n_features)
        The environment's contexts.
    context_ids : array_like of int, shape (m,)
        The context of every exploration round.
    oracle_factory : callable, optional
        Builds the exact oracle from the distinct sample contexts; default
        ``policy_class.oracle``.

    Attributes
    ----------
    context_ids_ : ndarray of int64, shape (m,)
        The context of every exploration round.
    distinct_ids_ : ndarray of int64
        The environment contexts present in the sample, sorted.
    classifier_ : ClassificationOracle
        The exact oracle on those contexts.
    n_policies : int
        ``|Pi|``.
    """

    def __init__(
        self,
        policy_class: PolicyClass,
        contexts: ArrayLike,
        context_ids: ArrayLike,
        oracle_factory: Callable[[NDArray[np.float64]], ClassificationOracle] | None = None,
    ) -> None:
        features = np.asarray(contexts, dtype=np.float64)
        ids = np.asarray(context_ids, dtype=np.int64)
        if ids.ndim != 1 or ids.size == 0:
            raise ValueError("context_ids must be a non-empty 1-D array")
        if ids.min() < 0 or ids.max() >= features.shape[0]:
            raise ValueError(f"context ids must lie in 0..{features.shape[0] - 1}")
        self.policy_class = policy_class
        self.context_ids_ = ids
        self.distinct_ids_, self._inverse = np.unique(ids, return_inverse=True)
        self._distinct_contexts = features[self.distinct_ids_]
        factory = policy_class.oracle if oracle_factory is None else oracle_factory
        self.classifier_ = factory(self._distinct_contexts)
        self.n_rounds = int(ids.size)
        self.n_actions = policy_class.n_actions
        self.n_policies = policy_class.n_policies
        self.n_calls_ = 0
        self._cache: OrderedDict[int, NDArray[np.uint8]] = OrderedDict()

    def _argmin(self, costs: NDArray[np.float64]) -> OracleAnswer:
        summed = aggregate_costs(costs, self._inverse, self.distinct_ids_.size)
        return self.classifier_.argmin(summed)

    def _distinct_actions(self, policy: int) -> NDArray[np.uint8]:
        cached = self._cache.get(policy)
        if cached is None:
            cached = self.policy_class.actions(self._distinct_contexts, [policy])[:, 0]
            self._cache[policy] = cached
            if len(self._cache) > ACTION_CACHE_SIZE:
                self._cache.popitem(last=False)
        else:
            self._cache.move_to_end(policy)
        return cached

    def round_actions(self, policies: ArrayLike) -> NDArray[np.uint8]:
        """Actions on ``x_1 .. x_m`` (through the distinct contexts), ``(m, n)``."""
        ids = np.asarray(policies, dtype=np.int64).reshape(-1)
        if ids.size and (ids.min() < 0 or ids.max() >= self.n_policies):
            raise IndexError(f"policy ids must lie in 0..{self.n_policies - 1}")
        distinct = np.empty((self.distinct_ids_.size, ids.size), dtype=np.uint8)
        for k, policy in enumerate(ids):
            distinct[:, k] = self._distinct_actions(int(policy))
        return distinct[self._inverse]

    def actions(self, X: ArrayLike, policies: ArrayLike) -> NDArray[np.uint8]:
        """Actions of the class's policies on ``X``."""
        return self.policy_class.actions(X, policies)


@dataclass(frozen=True)
class PolicyMixture:
    """A point of the policy hull: a distribution over finitely many policies.

    Attributes
    ----------
    policies : ndarray of int64, shape (n,)
        Sorted, distinct policy ids (of the oracle that produced them).
    weights : ndarray of float64, shape (n,)
        Positive, summing to 1.
    """

    policies: NDArray[np.int64]
    weights: NDArray[np.float64]

    def __post_init__(self) -> None:
        if self.policies.ndim != 1 or self.policies.shape != self.weights.shape:
            raise ValueError("policies and weights must be 1-D arrays of one length")
        if self.policies.size == 0:
            raise ValueError("a mixture needs at least one policy")
        if (np.diff(self.policies) <= 0).any():
            raise ValueError("policies must be sorted and distinct; use PolicyMixture.from_weights")
        if (self.weights <= 0).any() or abs(self.weights.sum() - 1.0) > 1e-9:
            raise ValueError(
                f"weights must be positive and sum to 1; sum is {self.weights.sum()!r}"
            )

    @classmethod
    def from_weights(cls, policies: ArrayLike, weights: ArrayLike) -> PolicyMixture:
        """Merge repeated ids (adding their weights), drop zero weights, normalise."""
        ids = np.asarray(policies, dtype=np.int64).reshape(-1)
        raw = np.asarray(weights, dtype=np.float64).reshape(-1)
        if ids.shape != raw.shape:
            raise ValueError("policies and weights must have one length")
        if (raw < 0).any() or raw.sum() <= 0:
            raise ValueError("weights must be non-negative with a positive sum")
        unique, inverse = np.unique(ids, return_inverse=True)
        merged = np.bincount(inverse, weights=raw, minlength=unique.size)
        keep = merged > 0
        return cls(unique[keep], merged[keep] / merged[keep].sum())

    @classmethod
    def uniform(cls, policies: ArrayLike) -> PolicyMixture:
        """The uniform mixture over a sequence of ids (repeats count), e.g. FPL's output."""
        ids = np.asarray(policies, dtype=np.int64).reshape(-1)
        return cls.from_weights(ids, np.ones(ids.size))

    @property
    def support_size(self) -> int:
        """Number of policies with positive weight."""
        return int(self.policies.size)

    def vector(self, oracle: PolicyOracle, chunk: int = 512) -> NDArray[np.float64]:
        """The dense point ``sum_pi W(pi) v_pi`` of ``C``, shape ``(m, K)``."""
        total = np.zeros((oracle.n_rounds, oracle.n_actions))
        for start in range(0, self.policies.size, chunk):
            stop = start + chunk
            actions = oracle.round_actions(self.policies[start:stop])
            total += policy_vectors(actions, oracle.n_actions, self.weights[start:stop])
        return total


@dataclass(frozen=True)
class BestResponse:
    """A security level and the pure strategy that attains it.

    Attributes
    ----------
    value : float
        The payoff (to the row player) of the best response.
    policy : int
        The responding policy.
    """

    value: float
    policy: int


def row_security(game: CompactGame, oracle: PolicyOracle, w: ArrayLike) -> BestResponse:
    """``min_{u in C} w^T B u`` (one oracle call with costs ``B^T w``)."""
    answer = oracle.argmin(game.transpose_times(w))
    return BestResponse(answer.cost / math.sqrt(game.n_rounds), answer.policy)


def column_security(game: CompactGame, oracle: PolicyOracle, u: ArrayLike) -> BestResponse:
    """``max_{w in C} w^T B u`` (one oracle call with costs ``-B u``)."""
    answer = oracle.argmin(-game.times(u))
    return BestResponse(-answer.cost / math.sqrt(game.n_rounds), answer.policy)


def duality_gap(game: CompactGame, oracle: PolicyOracle, w: ArrayLike, u: ArrayLike) -> float:
    """``max_w' w'^T B u - min_u' w^T B u' >= 0`` (two oracle calls).

    It bounds both ``max_w min_u w^T B u - min_u' w^T B u'`` (the suboptimality of ``w`` as a
    maxmin strategy) and the suboptimality of ``u`` as a minmax strategy.
    """
    return column_security(game, oracle, u).value - row_security(game, oracle, w).value


@dataclass(frozen=True)
class Checkpoint:
    """The averaged iterates of a game solver after some of its rounds.

    Attributes
    ----------
    iteration : int
        Rounds (FPL) or outer iterations (PGD) done.
    oracle_calls : int
        Oracle calls made by the solver up to then.
    row_mixture, column_mixture : PolicyMixture
        The running averages ``wbar`` and ``ubar``.
    row_vector, column_vector : ndarray of float64, shape (m, K)
        Their dense points of ``C``.
    """

    iteration: int
    oracle_calls: int
    row_mixture: PolicyMixture
    column_mixture: PolicyMixture
    row_vector: NDArray[np.float64]
    column_vector: NDArray[np.float64]
