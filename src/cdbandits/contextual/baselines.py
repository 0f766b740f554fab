"""Baselines for contextual dueling: uniform random duels and context-blind sparring EXP3.

* :class:`UniformDuels`: both actions uniformly at random every round (what uniform
  exploration does; regret linear in ``T`` unless the uniform mixture is a vNW).
* :class:`SparringExp3`: two EXP3 copies (Auer et al., 2002) over the ``K`` actions that
  ignore the context, row rewarded ``(r + 1) / 2`` and column ``(1 - r) / 2``. It converges to
  the von Neumann winner of the *averaged* matrix ``E[P_x]``, i.e. the best context-free
  mixed strategy; against context-dependent policies its regret grows linearly.

**EXP3** with ``K`` actions, horizon ``T``: ``gamma = min(1, sqrt(K ln K / ((e - 1) T)))``
(Auer et al., Corollary 3.2 with ``g = T``), ``p_j = (1 - gamma) w_j / sum(w) + gamma / K``;
after drawing ``j`` and seeing reward ``r in [0, 1]``, ``log w_j += gamma (r / p_j) / K``.
"""

from __future__ import annotations

import numba
import numpy as np
from numpy.typing import NDArray

from ..karmed.sparring_exp3 import exp3_exploration_rate, exp3_probabilities, exp3_update
from .duels import DuelingAlgorithm, DuelLog, draw_action, schedule_log
from .environments import ContextPopulation, DuelingEnvironment

__all__ = ["Exp3", "SparringExp3", "UniformDuels", "exp3_exploration_rate"]


class UniformDuels(DuelingAlgorithm):
    """Both actions drawn uniformly at random each round, ``a_t = floor(K u_t)``."""

    def _start(self, environment: DuelingEnvironment, horizon: int) -> None:
        self.n_actions_ = environment.n_actions

    def _uniform_action(self, uniform: float) -> int:
        return min(int(uniform * self.n_actions_), self.n_actions_ - 1)

    def _choose(self, context: int, first_uniform: float, second_uniform: float) -> tuple[int, int]:
        return self._uniform_action(first_uniform), self._uniform_action(second_uniform)

    def _observe(self, outcome: int) -> None:
        """Uniform duels do not learn."""

    def _run_schedule(
        self,
        population: ContextPopulation,
        context_ids: NDArray[np.int64],
        duel_uniforms: NDArray[np.float64],
        first_uniforms: NDArray[np.float64],
        second_uniforms: NDArray[np.float64],
    ) -> DuelLog:
        k = self.n_actions_
        first = np.minimum((first_uniforms * k).astype(np.int64), k - 1)
        second = np.minimum((second_uniforms * k).astype(np.int64), k - 1)
        return schedule_log(population, context_ids, duel_uniforms, first, second)


class Exp3:
    """EXP3 over ``n_actions`` actions tuned to a horizon; see the module docstring.

    The stepwise twin of the compiled episode (the same compiled
    :func:`~cdbandits.karmed.sparring_exp3.exp3_probabilities` and
    :func:`~cdbandits.karmed.sparring_exp3.exp3_update` as the K-armed Sparring EXP3), so
    that both paths draw the same duels.

    Parameters
    ----------
    n_actions : int
    horizon : int
    gamma : float, optional
        Exploration rate; :func:`exp3_exploration_rate` when omitted.

    Attributes
    ----------
    gamma_ : float
    log_weights_ : ndarray of float64, shape (n_actions,)
    """

    def __init__(self, n_actions: int, horizon: int, gamma: float | None = None) -> None:
        self.n_actions = n_actions
        self.horizon = horizon
        self.gamma = gamma
        self.start()

    def start(self) -> Exp3:
        """Validate the parameters and reset the weights; return ``self``."""
        self.gamma_ = (
            exp3_exploration_rate(self.n_actions, self.horizon)
            if self.gamma is None
            else self.gamma
        )
        if not 0.0 < self.gamma_ <= 1.0:
            raise ValueError(f"gamma must be in (0, 1]; got {self.gamma_}")
        self.log_weights_ = np.zeros(self.n_actions)
        self._probabilities = np.empty(self.n_actions)
        self._action: int | None = None
        return self

    def action_probabilities(self) -> NDArray[np.float64]:
        """This round's ``p`` (K,)."""
        probabilities = np.empty(self.n_actions)
        exp3_probabilities(self.log_weights_, self.gamma_, probabilities)
        return probabilities

    def choose(self, uniform: float) -> int:
        """Draw this round's action by inverse CDF at ``uniform`` in ``[0, 1)``."""
        exp3_probabilities(self.log_weights_, self.gamma_, self._probabilities)
        self._action = draw_action(self._probabilities, uniform)
        return self._action

    def update(self, reward: float) -> None:
        """Feed the reward in ``[0, 1]`` of the action drawn by the last :meth:`choose`."""
        if self._action is None:
            raise RuntimeError("update() needs a preceding choose()")
        if not 0.0 <= reward <= 1.0:
            raise ValueError(f"EXP3 rewards must lie in [0, 1]; got {reward}")
        exp3_update(self.log_weights_, self._probabilities, self.gamma_, self._action, reward)
        self._action = None


@numba.njit(cache=True)
def _sparring_exp3_episode(
    matrices: NDArray[np.float64],
    context_ids: NDArray[np.int64],
    duel_uniforms: NDArray[np.float64],
    row_uniforms: NDArray[np.float64],
    column_uniforms: NDArray[np.float64],
    gamma: float,
    row_log_weights: NDArray[np.float64],
    column_log_weights: NDArray[np.float64],
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    horizon = context_ids.size
    n_actions = matrices.shape[1]
    first = np.empty(horizon, dtype=np.int64)
    second = np.empty(horizon, dtype=np.int64)
    row_probabilities = np.empty(n_actions)
    column_probabilities = np.empty(n_actions)
    for t in range(horizon):
        exp3_probabilities(row_log_weights, gamma, row_probabilities)
        exp3_probabilities(column_log_weights, gamma, column_probabilities)
        a = draw_action(row_probabilities, row_uniforms[t])
        b = draw_action(column_probabilities, column_uniforms[t])
        outcome = 1.0 if duel_uniforms[t] < (1.0 + matrices[context_ids[t], a, b]) / 2.0 else -1.0
        exp3_update(row_log_weights, row_probabilities, gamma, a, (1.0 + outcome) / 2.0)
        exp3_update(column_log_weights, column_probabilities, gamma, b, (1.0 - outcome) / 2.0)
        first[t] = a
        second[t] = b
    return first, second


class SparringExp3(DuelingAlgorithm):
    """Two context-blind EXP3 copies sparring over the actions.

    Parameters
    ----------
    gamma : float, optional
        Exploration rate of both copies; :func:`exp3_exploration_rate` of the horizon when
        omitted.

    Attributes
    ----------
    row_, column_ : Exp3
        The two copies after :meth:`run`.
    """

    def __init__(self, gamma: float | None = None) -> None:
        self.gamma = gamma

    def _start(self, environment: DuelingEnvironment, horizon: int) -> None:
        self.row_ = Exp3(environment.n_actions, horizon, self.gamma)
        self.column_ = Exp3(environment.n_actions, horizon, self.gamma)

    def _choose(self, context: int, first_uniform: float, second_uniform: float) -> tuple[int, int]:
        return self.row_.choose(first_uniform), self.column_.choose(second_uniform)

    def _observe(self, outcome: int) -> None:
        self.row_.update((1.0 + outcome) / 2.0)
        self.column_.update((1.0 - outcome) / 2.0)

    def _run_schedule(
        self,
        population: ContextPopulation,
        context_ids: NDArray[np.int64],
        duel_uniforms: NDArray[np.float64],
        first_uniforms: NDArray[np.float64],
        second_uniforms: NDArray[np.float64],
    ) -> DuelLog:
        first, second = _sparring_exp3_episode(
            population.matrices,
            context_ids,
            duel_uniforms,
            first_uniforms,
            second_uniforms,
            self.row_.gamma_,
            self.row_.log_weights_,
            self.column_.log_weights_,
        )
        return schedule_log(population, context_ids, duel_uniforms, first, second)
