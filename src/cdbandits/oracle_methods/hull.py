"""Points of the policy hull ``C`` as sparse mixtures, and their security levels.

A point of ``C`` is a :class:`PolicyMixture` (policy ids and weights). Its dense vector
``w = sum_pi W(pi) v_pi`` (``(m, K)``, entries scaled by ``1/sqrt(m)``) is always computed
from the mixture, never stored without it.

Security levels, each one call of the oracle
(:class:`~cdbandits.oracle_methods.oracles.PolicyOracle`; eq. f4, ``B`` the compact game):

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
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .compact_game import CompactGame, policy_vectors
from .oracles import PolicyOracle

__all__ = [
    "BestResponse",
    "Checkpoint",
    "PolicyMixture",
    "column_security",
    "duality_gap",
    "row_security",
]


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
