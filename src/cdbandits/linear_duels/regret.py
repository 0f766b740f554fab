"""Regret of a linear contextual dueling run, from how often each arm of each context was played.

Let ``n[x, i]`` be how often arm ``i`` of context ``x`` was one of the two duelled arms
(:attr:`LinearSimulationResult.arm_counts <cdbandits.linear_duels.simulation.
LinearSimulationResult.arm_counts>`), ``u`` the utilities, ``u*_x = max_i u[x, i]``, ``i*_x``
a best arm, ``Q_x(i, j) = F(u_i - u_j)`` and ``P_x = Q_x - Q_x^T`` the skew form. Per round
``t`` in context ``x_t`` with duel ``(a_t, b_t)``:

* **utility** (the "average regret" of Saha, NeurIPS 2021, and Bengs et al., ICML 2022):
  ``u*_x - (u_a + u_b) / 2``, utility units; :func:`utility_regret`.
* **weak** (Bengs et al.): ``u*_x - max(u_a, u_b)``, accumulated during the run
  (:attr:`~cdbandits.linear_duels.simulation.LinearSimulationResult.weak_regret`).
* **preference** (Condorcet regret per context, probability units, as
  :func:`cdbandits.karmed.regret.condorcet_regret`):
  ``(Q_x(i*, a) + Q_x(i*, b) - 1) / 2``; against the Condorcet winner of each context, which
  is ``i*_x`` when it is unique; :func:`preference_regret`.
* **von Neumann** (the paper's eq. rd1 in expectation, with the class of all policies that
  map each context to one of its arms, measured against the von Neumann winner ``w_x`` of
  each context, computed by :func:`cdbandits.winners.von_neumann_winner`, LP with
  certificate): ``(w_x^T P_x[:, a] + w_x^T P_x[:, b]) / 2``, skew units;
  :func:`von_neumann_regret`. Under an LST model ``w_x`` puts all its weight on best arms,
  so this is exactly twice the preference regret (the tests check it with the LP).
* **hindsight** (rd1 itself, the best such policy against the duels actually played):
  ``sum_x max_i (P_x n[x])_i / 2``, skew units; :func:`hindsight_regret`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike, NDArray

from ..winners import von_neumann_winner
from .environments import LinearDuelingEnvironment
from .simulation import LinearSimulationResult

__all__ = [
    "context_von_neumann_winners",
    "hindsight_regret",
    "preference_regret",
    "regret_table",
    "utility_regret",
    "von_neumann_regret",
]


def _counts(environment: LinearDuelingEnvironment, arm_counts: ArrayLike) -> NDArray[np.float64]:
    counts = np.asarray(arm_counts, dtype=np.float64)
    shape = (environment.n_contexts, environment.n_arms)
    if counts.shape[-2:] != shape or counts.ndim not in (2, 3):
        raise ValueError(f"arm_counts must have shape {shape} or (C, *{shape}); got {counts.shape}")
    if (counts < 0).any():
        raise ValueError("arm_counts must be non-negative")
    return counts


def _per_arm_sum(counts: NDArray[np.float64], cost: NDArray[np.float64]) -> NDArray[np.float64]:
    """``sum_{x, i} n[x, i] cost[x, i] / 2`` per checkpoint (``/ 2``: two arms per round)."""
    return np.einsum("...xi,xi->...", counts, cost) / 2.0


def utility_regret(
    environment: LinearDuelingEnvironment, arm_counts: ArrayLike
) -> float | NDArray[np.float64]:
    """Cumulative average regret in utility units."""
    gap = environment.best_utilities()[:, None] - environment.utilities
    return _per_arm_sum(_counts(environment, arm_counts), gap)


def preference_regret(
    environment: LinearDuelingEnvironment, arm_counts: ArrayLike
) -> float | NDArray[np.float64]:
    """Cumulative regret against a best arm of each context, probability units."""
    q = environment.win_probabilities()
    best = np.argmax(environment.utilities, axis=1)
    against_best = q[np.arange(environment.n_contexts), best] - 0.5
    return _per_arm_sum(_counts(environment, arm_counts), against_best)


def context_von_neumann_winners(environment: LinearDuelingEnvironment) -> NDArray[np.float64]:
    """The certified von Neumann winner of every context's ``P_x``, shape (n_contexts, K).

    One LP per context (:func:`cdbandits.winners.von_neumann_winner`); compute it once per
    environment and pass it to :func:`von_neumann_regret` and :func:`regret_table`.
    """
    return np.array([von_neumann_winner(p).weights for p in environment.skew_matrices()])


def von_neumann_regret(
    environment: LinearDuelingEnvironment,
    arm_counts: ArrayLike,
    winners: ArrayLike | None = None,
) -> float | NDArray[np.float64]:
    """Cumulative regret against each context's von Neumann winner (skew units).

    Parameters
    ----------
    environment : LinearDuelingEnvironment
    arm_counts : array_like, shape (n_contexts, K) or (C, n_contexts, K)
    winners : array_like, shape (n_contexts, K), optional
        :func:`context_von_neumann_winners` of the environment (computed when omitted).
    """
    w = context_von_neumann_winners(environment) if winners is None else np.asarray(winners)
    if w.shape != (environment.n_contexts, environment.n_arms):
        raise ValueError(f"winners must have shape {(environment.n_contexts, environment.n_arms)}")
    advantage = np.einsum("xa,xab->xb", w, environment.skew_matrices())
    return _per_arm_sum(_counts(environment, arm_counts), advantage)


def hindsight_regret(
    environment: LinearDuelingEnvironment, arm_counts: ArrayLike
) -> float | NDArray[np.float64]:
    """rd1 against the best per-context policy in hindsight (skew units)."""
    counts = _counts(environment, arm_counts)
    gains = np.einsum("xab,...xb->...xa", environment.skew_matrices(), counts)
    return gains.max(axis=-1).sum(axis=-1) / 2.0


def regret_table(
    environment: LinearDuelingEnvironment,
    result: LinearSimulationResult,
    winners: ArrayLike | None = None,
) -> pd.DataFrame:
    """Every measure at every checkpoint of ``result``.

    Columns ``round``, ``utility``, ``weak``, ``preference``, ``von_neumann`` and
    ``hindsight`` (see the module docstring for units).
    """
    counts = result.arm_counts
    return pd.DataFrame(
        {
            "round": result.checkpoints,
            "utility": utility_regret(environment, counts),
            "weak": result.weak_regret,
            "preference": preference_regret(environment, counts),
            "von_neumann": von_neumann_regret(environment, counts, winners),
            "hindsight": hindsight_regret(environment, counts),
        }
    )
