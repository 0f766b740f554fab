"""Oracle access to a policy class on the exploration contexts (Section 6).

The oracle is the only access to the policy class. :class:`PolicyOracle` is what the paper
assumes: given cost vectors ``c_1 .. c_m`` on the exploration contexts it returns
``argmin_pi sum_i c_i(pi(x_i))`` as a policy id, and the policy's actions (hence its policy
vector, :func:`~cdbandits.oracle_methods.compact_game.policy_vectors`) can be read back.
:class:`ExactOracle` wraps an exact
:class:`~cdbandits.contextual.oracle.ClassificationOracle` of a finite class;
:class:`~cdbandits.oracle_methods.learned_oracle.LearnedOracle` an off-the-shelf classifier.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..contextual.oracle import ClassificationOracle, OracleAnswer, aggregate_costs
from ..contextual.policies import PolicyClass
from .compact_game import policy_vectors

__all__ = ["ACTION_CACHE_SIZE", "ExactOracle", "PolicyOracle"]

#: Policies whose round actions :class:`ExactOracle` keeps (least recently used evicted).
ACTION_CACHE_SIZE = 4096


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

    def policy_table(self) -> tuple[NDArray[np.int64], NDArray[np.uint8]]:
        """Every policy's actions, for compiled solvers that enumerate a small class.

        Returns
        -------
        context_of : ndarray of int64, shape (m,)
            The row of ``table`` of each exploration round (rounds on equal contexts share
            one).
        table : ndarray of uint8, shape (q, |Pi|)
            ``table[x, pi]``: the action of policy ``pi`` on context row ``x``.

        Raises
        ------
        NotImplementedError
            If the oracle cannot enumerate its class (the default).
        """
        raise NotImplementedError(f"{type(self).__name__} offers no policy table")


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

    def policy_table(self) -> tuple[NDArray[np.int64], NDArray[np.uint8]]:
        """The class's actions on the distinct sample contexts (:meth:`PolicyOracle.policy_table`).

        The table holds ``q |Pi|`` bytes for ``q`` distinct contexts: meant for small classes.
        """
        table = self.policy_class.actions(self._distinct_contexts)
        return self._inverse.astype(np.int64), np.ascontiguousarray(table, dtype=np.uint8)
