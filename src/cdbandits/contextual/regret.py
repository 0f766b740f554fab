"""Exact evaluation: the regret (rd1), the policy game ``M`` and exploitability of mixtures.

**Regret (rd1)** after ``t`` rounds is ``max_pi sum_{s <= t} g_s(pi(x_s))`` with the
evaluator's gains ``g_s(a) = (P_s(a, a_s) + P_s(a, b_s)) / 2`` (kept in the
:class:`~cdbandits.contextual.duels.DuelLog`). It is one oracle call with costs
``c_s = -g_s`` summed per context (:func:`regret_curve`; all checkpoints in one batched call).

**The policy game** of a :class:`~cdbandits.contextual.environments.ContextPopulation`
is ``M(pi, rho) = sum_x p(x) P_x(pi(x), rho(x))`` (eq. (f6)). A mixture ``W`` over policies
acts, in context ``x``, with the action distribution ``d_x(a) = sum_pi W(pi) 1[pi(x) = a]``
(:func:`mixture_action_distributions`), and its **exploitability value**

``min_rho W^T M rho = min_rho sum_x p(x) (d_x^T P_x)(rho(x))``

is one oracle call with costs ``c_x(b) = p(x) (d_x^T P_x)(b)``
(:func:`contextual_exploitability`). ``M`` is skew-symmetric, so the game value is 0 and
``W`` is an ``eps``-approximate contextual von Neumann winner exactly when this value is
``>= -eps``; the achieved ``eps`` is minus the value. For classes of up to a few thousand
distinct policies, :func:`contextual_von_neumann_winner` solves the LP on ``M`` itself.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..winners import VonNeumannWinner, von_neumann_winner
from .duels import DuelLog
from .environments import ContextPopulation
from .oracle import ClassificationOracle, aggregate_costs

__all__ = [
    "ContextualVonNeumannWinner",
    "contextual_exploitability",
    "contextual_von_neumann_winner",
    "distinct_policies",
    "mixture_action_distributions",
    "policy_matrix",
    "regret_curve",
]

#: Contexts per chunk when building ``M`` (bounds the temporary to chunk x |Pi| x K floats).
_MATRIX_CHUNK = 256


def regret_curve(
    log: DuelLog, oracle: ClassificationOracle, checkpoints: ArrayLike | None = None
) -> NDArray[np.float64]:
    """Exact regret (rd1) after each checkpoint.

    Parameters
    ----------
    log : DuelLog
        An episode on an environment whose contexts are the oracle's contexts.
    oracle : ClassificationOracle
        The policy class on those contexts.
    checkpoints : array_like of int, optional
        Increasing round counts ``t`` in ``1..T``; ``[T]`` when omitted.

    Returns
    -------
    ndarray of float64, shape (n_checkpoints,)
        ``max_pi sum_{s <= t} g_s(pi(x_s))`` for each checkpoint ``t``.
    """
    horizon = log.horizon
    rounds = np.array([horizon] if checkpoints is None else checkpoints, dtype=np.int64)
    if rounds.ndim != 1 or rounds.size == 0 or rounds[0] < 1 or rounds[-1] > horizon:
        raise ValueError(f"checkpoints must be a non-empty list of round counts in 1..{horizon}")
    if (np.diff(rounds) <= 0).any():
        raise ValueError("checkpoints must be strictly increasing")
    if oracle.n_contexts <= log.context_ids.max() or oracle.n_actions != log.gains.shape[1]:
        raise ValueError(
            f"the oracle covers {oracle.n_contexts} contexts and {oracle.n_actions} actions; the "
            f"log has context ids up to {log.context_ids.max()} and {log.gains.shape[1]} actions"
        )
    costs = np.empty((rounds.size, oracle.n_contexts, oracle.n_actions))
    running = np.zeros((oracle.n_contexts, oracle.n_actions))
    start = 0
    for k, stop in enumerate(rounds):
        running += aggregate_costs(
            -log.gains[start:stop], log.context_ids[start:stop], oracle.n_contexts
        )
        costs[k] = running
        start = stop
    return np.array([-answer.cost for answer in oracle.argmin_batch(costs)])


_MIXTURE_BLOCK = 4096


def mixture_action_distributions(
    actions: NDArray[np.uint8],
    weights: ArrayLike,
    n_actions: int,
    uniform_weight: float = 0.0,
) -> NDArray[np.float64]:
    """Per-context action distribution of a mixture of policies.

    Parameters
    ----------
    actions : ndarray of uint8, shape (n_contexts, n_mixed)
        Actions of the mixed policies (e.g. an :class:`ActionTable`'s ``actions`` or a
        policy class's ``actions(X, policy_ids)``).
    weights : array_like, shape (n_mixed,)
        Non-negative mixture weights.
    n_actions : int
    uniform_weight : float, optional
        Extra weight on playing uniformly at random; ``weights`` and it must sum to 1.

    Returns
    -------
    ndarray of float64, shape (n_contexts, n_actions)
        Rows sum to 1.
    """
    weights = np.asarray(weights, dtype=np.float64)
    if weights.shape != (actions.shape[1],) or (weights < 0).any() or uniform_weight < 0:
        raise ValueError(
            f"weights must be non-negative with shape ({actions.shape[1]},); got {weights.shape}"
        )
    if abs(weights.sum() + uniform_weight - 1.0) > 1e-9:
        raise ValueError(
            f"mixture weights sum to {weights.sum() + uniform_weight!r}; they must sum to 1"
        )
    support = np.flatnonzero(weights)
    distributions = np.full((actions.shape[0], n_actions), uniform_weight / n_actions)
    # Blocks of policies keep the float temporaries of the products small for huge mixtures.
    for start in range(0, support.size, _MIXTURE_BLOCK):
        block = support[start : start + _MIXTURE_BLOCK]
        chosen = actions[:, block]
        for action in range(n_actions):
            distributions[:, action] += (chosen == action) @ weights[block]
    return distributions


def contextual_exploitability(
    population: ContextPopulation,
    oracle: ClassificationOracle,
    distributions: ArrayLike,
) -> float:
    """``min_rho W^T M rho`` of a randomised policy given by its action distributions.

    Parameters
    ----------
    population : ContextPopulation
        Defines ``M``.
    oracle : ClassificationOracle
        The class ``Pi`` on the population's contexts (the opponents ``rho``).
    distributions : array_like, shape (n_contexts, K)
        ``d_x``, e.g. from :func:`mixture_action_distributions`.

    Returns
    -------
    float
        The worst expected duel outcome against any policy of the class; ``W`` is an
        ``eps``-approximate contextual vNW iff it is ``>= -eps``.
    """
    distributions = np.asarray(distributions, dtype=np.float64)
    if distributions.shape != (population.n_contexts, population.n_actions):
        raise ValueError(
            f"distributions must have shape {(population.n_contexts, population.n_actions)}; "
            f"got {distributions.shape}"
        )
    if oracle.n_contexts != population.n_contexts:
        raise ValueError("the oracle must be built on the population's contexts")
    costs = population.probabilities[:, None] * np.einsum(
        "xa,xab->xb", distributions, population.matrices
    )
    return oracle.argmin(costs).cost


def policy_matrix(population: ContextPopulation, actions: NDArray[np.uint8]) -> NDArray[np.float64]:
    """``M(pi, rho) = sum_x p(x) P_x(pi(x), rho(x))`` for the given policies (dense).

    Parameters
    ----------
    population : ContextPopulation
    actions : ndarray of uint8, shape (n_contexts, n_policies)

    Returns
    -------
    ndarray of float64, shape (n_policies, n_policies)
        Exactly skew-symmetric.
    """
    n_contexts, n_policies = actions.shape
    if n_contexts != population.n_contexts:
        raise ValueError(
            f"actions cover {n_contexts} contexts; the population has {population.n_contexts}"
        )
    k = population.n_actions
    weighted = population.probabilities[:, None, None] * population.matrices
    matrix = np.zeros((n_policies, n_policies))
    for start in range(0, n_contexts, _MATRIX_CHUNK):
        chunk = slice(start, min(n_contexts, start + _MATRIX_CHUNK))
        chosen = actions[chunk].astype(np.int64)
        contexts = np.arange(chunk.start, chunk.stop)[:, None]
        # rows[pi, (x, b)] = p(x) P_x(pi(x), b); indicators[rho, (x, b)] = 1[rho(x) = b]
        rows = weighted[contexts, chosen].transpose(1, 0, 2).reshape(n_policies, -1)
        indicators = (chosen.T[:, :, None] == np.arange(k)).reshape(n_policies, -1)
        matrix += rows @ indicators.T
    return (matrix - matrix.T) / 2.0


@dataclass(frozen=True)
class ContextualVonNeumannWinner:
    """The exact contextual von Neumann winner of a (small) policy class.

    Attributes
    ----------
    policy_weights : ndarray of float64, shape (n_policies,)
        Weights over the class; policies with identical actions on every context are
        clones, and all their weight sits on the one with the smallest index.
    support : ndarray of int64
        Policies with positive weight.
    distinct_policies : int
        Number of distinct action vectors the LP was solved over.
    winner : VonNeumannWinner
        The certified LP solution on the distinct policies.
    """

    policy_weights: NDArray[np.float64]
    support: NDArray[np.int64]
    distinct_policies: int
    winner: VonNeumannWinner


def distinct_policies(actions: NDArray[np.uint8]) -> NDArray[np.int64]:
    """The first policy of each set of clones (same action in every context), in order.

    Parameters
    ----------
    actions : ndarray of uint8, shape (n_contexts, n_policies)

    Returns
    -------
    ndarray of int64
        Increasing policy indices, one per distinct action vector.
    """
    _, first_index = np.unique(actions.T, axis=0, return_index=True)
    return np.sort(first_index).astype(np.int64)


def contextual_von_neumann_winner(
    population: ContextPopulation, actions: NDArray[np.uint8], solver: str | None = None
) -> ContextualVonNeumannWinner:
    """Exact, certified vNW of ``M`` by :func:`cdbandits.winners.von_neumann_winner`.

    Duplicate policies are merged first (the matrix size is the number of distinct action
    vectors); intended for up to a few thousand of them.

    Parameters
    ----------
    population : ContextPopulation
    actions : ndarray of uint8, shape (n_contexts, n_policies)
    solver : str, optional
        None: the compiled solver; a cvxpy LP solver name: the cvxpy reference.

    Returns
    -------
    ContextualVonNeumannWinner
    """
    representatives = distinct_policies(actions)
    matrix = policy_matrix(population, np.ascontiguousarray(actions[:, representatives]))
    winner = von_neumann_winner(matrix, solver=solver)
    weights = np.zeros(actions.shape[1])
    weights[representatives] = winner.weights
    return ContextualVonNeumannWinner(
        policy_weights=weights,
        support=np.flatnonzero(weights > 0).astype(np.int64),
        distinct_policies=int(representatives.size),
        winner=winner,
    )
