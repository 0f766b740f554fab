"""A linear dueling environment as a contextual dueling environment of the paper.

The paper's setting (:mod:`cdbandits.contextual`) has contexts with one skew preference matrix
each and a finite class of policies; a :class:`LinearDuelingEnvironment` is such a setting
once each context's arm features are its feature vector (:func:`as_population`). Then every
algorithm of the library plays it, and its episode is a
:class:`~cdbandits.contextual.duels.DuelLog` whose regret (rd1) against a policy class is
exact (:func:`cdbandits.contextual.regret.regret_curve`):

* :class:`ArmScorePolicies`: the policies ``x -> argmax_i theta . x_i`` for random
  directions ``theta``, the class a learner of a linear utility would search;
* :func:`linear_duel_log`: the log of a run of CoLSTIM or MaxInP
  (:func:`cdbandits.linear_duels.simulate` with its duels recorded);
* :func:`dbgd_duel_log`: Dueling Bandit Gradient Descent on the arms of each context: the
  current ranker ``w`` and the candidate ``w'`` each put forward their best arm
  (``argmax_i w . x_i``), the two arms duel, and the candidate's win moves ``w`` (a tie when
  both put forward the same arm).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..contextual.duels import DuelLog, schedule_log
from ..contextual.environments import ContextPopulation, StochasticEnvironment
from ..contextual.policies import PolicyClass
from ..karmed.context_free import outcome_log
from .dbgd import DuelingBanditGradientDescent
from .environments import LinearDuelingEnvironment
from .simulation import LinearSimulationResult

__all__ = ["ArmScorePolicies", "as_population", "dbgd_duel_log", "linear_duel_log"]


def as_population(environment: LinearDuelingEnvironment) -> ContextPopulation:
    """Contexts with features ``(x_1, ..., x_K)`` flattened, matrices ``P_x``, same weights."""
    n, k, d = environment.features.shape
    return ContextPopulation(
        environment.features.reshape(n, k * d).copy(),
        environment.skew_matrices(),
        environment.probabilities.copy(),
    )


class ArmScorePolicies(PolicyClass):
    """Policies ``pi(x) = argmax_i theta_pi . x_i`` over the arms' features (smallest on ties).

    Contexts are the flattened arm features of :func:`as_population`. The directions
    ``theta_pi`` are uniform on the unit sphere of ``R^d``, drawn at :meth:`fit` from
    ``random_state``.

    Parameters
    ----------
    n_actions : int
        Arms per context ``K``.
    n_features : int
        Features per arm ``d``.
    n_policies : int
    random_state : int or numpy.random.Generator

    Attributes
    ----------
    directions_ : ndarray of float64, shape (n_policies, d)
    """

    def __init__(
        self,
        n_actions: int,
        n_features: int,
        n_policies: int,
        random_state: int | np.random.Generator,
    ) -> None:
        self.n_actions = n_actions
        self.n_features = n_features
        self._n_policies = n_policies
        self.random_state = random_state

    def fit(self, X: ArrayLike) -> ArmScorePolicies:
        """Check the contexts' width and draw the directions; return ``self``."""
        if not 2 <= self.n_actions <= 255 or self.n_features < 1 or self._n_policies < 1:
            raise ValueError(
                "need 2 <= n_actions <= 255, n_features >= 1 and n_policies >= 1; got "
                f"{self.n_actions}, {self.n_features}, {self._n_policies}"
            )
        self._arm_features(X)
        directions = np.random.default_rng(self.random_state).standard_normal(
            (self._n_policies, self.n_features)
        )
        self.directions_ = directions / np.linalg.norm(directions, axis=1, keepdims=True)
        return self

    @property
    def n_policies(self) -> int:
        """Size of the class."""
        return self._n_policies

    def _arm_features(self, X: ArrayLike) -> NDArray[np.float64]:
        features = np.asarray(X, dtype=np.float64)
        width = self.n_actions * self.n_features
        if features.ndim != 2 or features.shape[1] != width:
            raise ValueError(
                f"contexts must have {self.n_actions} x {self.n_features} = {width} features "
                f"(the arms' features, flattened); got shape {features.shape}"
            )
        return features.reshape(features.shape[0], self.n_actions, self.n_features)

    def actions(self, X: ArrayLike, policies: ArrayLike | None = None) -> NDArray[np.uint8]:
        """Actions of the policies on ``X``; see :meth:`PolicyClass.actions`."""
        if not hasattr(self, "directions_"):
            raise RuntimeError("call fit(X) first")
        scores = np.einsum(
            "xad,pd->xpa", self._arm_features(X), self.directions_[self._checked_policies(policies)]
        )
        return np.argmax(scores, axis=2).astype(np.uint8)

    def describe(self, policy: int) -> str:
        """E.g. ``"argmax_i theta . x_i, theta = (0.12, -0.99)"``."""
        theta = self.directions_[int(self._checked_policies([policy])[0])]
        return "argmax_i theta . x_i, theta = (" + ", ".join(f"{v:.2f}" for v in theta) + ")"


def linear_duel_log(
    population: ContextPopulation, result: LinearSimulationResult, rng: np.random.Generator
) -> DuelLog:
    """The :class:`DuelLog` of a linear run recorded with ``record_duels=True``.

    ``population`` is :func:`as_population` of the run's environment; ``rng`` draws the duel
    uniforms given the recorded outcomes (:func:`cdbandits.karmed.context_free.outcome_log`).
    """
    if result.duels is None:
        raise ValueError("the run did not record its duels; simulate with record_duels=True")
    context_ids, first, second = (result.duels[:, column] for column in range(3))
    outcomes = np.where(result.duels[:, 3] == 1, 1, -1).astype(np.int8)
    return outcome_log(
        population, context_ids, first, second, outcomes, rng.random(context_ids.size)
    )


def dbgd_duel_log(
    algorithm: DuelingBanditGradientDescent,
    environment: LinearDuelingEnvironment,
    horizon: int,
    rng: np.random.Generator,
) -> DuelLog:
    """Play ``horizon`` rounds of DBGD on the arms of each context (module docstring).

    ``rng`` is split into the environment's stream
    (:meth:`~cdbandits.contextual.environments.StochasticEnvironment.draw_schedule`) and
    DBGD's. The outcome DBGD learns from is ``+1`` when the current ranker's arm won, ``-1``
    when the candidate's did, and ``0`` when both put forward the same arm.
    """
    population = as_population(environment)
    environment_rng, algorithm_rng = rng.spawn(2)
    context_ids, duel_uniforms = StochasticEnvironment(population).draw_schedule(
        horizon, environment_rng
    )
    algorithm.start(environment.n_features, algorithm_rng)
    first = np.empty(horizon, dtype=np.int64)
    second = np.empty(horizon, dtype=np.int64)
    for t in range(horizon):
        arms = environment.features[context_ids[t]]
        current, candidate = algorithm.select()
        a, b = int(np.argmax(arms @ current)), int(np.argmax(arms @ candidate))
        first[t], second[t] = a, b
        if a == b:
            algorithm.update(0)
        else:
            won = duel_uniforms[t] < (1.0 + population.matrices[context_ids[t], a, b]) / 2.0
            algorithm.update(1 if won else -1)
    return schedule_log(population, context_ids, duel_uniforms, first, second)
