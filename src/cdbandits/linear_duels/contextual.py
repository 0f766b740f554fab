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

The same algorithms also play a :class:`~cdbandits.contextual.environments.ContextPopulation`
that has no linear model at all, given features for its arms (:func:`action_features`:
``phi(x, a) = e_a (x) x``, the context's features placed in action ``a``'s block, ``K d``
dimensions): the duel's outcome is then drawn from the context's own matrix ``P_x``
(:func:`population_duel_log` for CoLSTIM and MaxInP, :func:`dbgd_population_log` for DBGD).

They play any :class:`~cdbandits.contextual.environments.DuelingEnvironment` round by
round as well, an adaptive adversary included, whose ``P_t`` depends on the duels played so
far (:func:`environment_duel_log`, :func:`dbgd_environment_log`; both through
:func:`cdbandits.contextual.duels.round_by_round_log`, the round loop any learner can use).
The counter-play adversary (:class:`~cdbandits.contextual.environments.CounterPlayAdversary`)
they play in their kernels, on its rounds drawn ahead
(:func:`~cdbandits.contextual.duels.counter_play_rounds`): the same duels and log.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..contextual.context_free import outcome_log
from ..contextual.duels import (
    DuelLog,
    counter_play_log,
    counter_play_rounds,
    round_by_round_log,
    schedule_log,
)
from ..contextual.environments import (
    ContextPopulation,
    CounterPlayAdversary,
    DuelingEnvironment,
    StochasticEnvironment,
)
from ..contextual.policies import PolicyClass
from ..dueling.counter_play import CounterPlayRounds
from .base import LinearDuelingAlgorithm, RunRecord
from .dbgd import DuelingBanditGradientDescent, dbgd_schedule_rounds
from .environments import LinearDuelingEnvironment, ScheduleArrays
from .simulation import LinearSimulationResult

__all__ = [
    "ArmScorePolicies",
    "action_features",
    "as_population",
    "dbgd_duel_log",
    "dbgd_environment_log",
    "dbgd_population_log",
    "environment_duel_log",
    "linear_duel_log",
    "population_duel_log",
]


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
    uniforms given the recorded outcomes (:func:`cdbandits.contextual.context_free.outcome_log`).
    """
    if result.duels is None:
        raise ValueError("the run did not record its duels; simulate with record_duels=True")
    context_ids, first, second = (result.duels[:, column] for column in range(3))
    outcomes = np.where(result.duels[:, 3] == 1, 1, -1).astype(np.int8)
    return outcome_log(
        population, context_ids, first, second, outcomes, rng.random(context_ids.size)
    )


def action_features(contexts: ArrayLike, n_actions: int) -> NDArray[np.float64]:
    """``phi(x, a) = e_a (x) x``: each action's features are the context's, in its own block.

    Parameters
    ----------
    contexts : array_like, shape (n_contexts, d)
    n_actions : int
        ``K >= 2``.

    Returns
    -------
    ndarray of float64, shape (n_contexts, K, K d)
        ``phi[x, a, a d : (a + 1) d] = contexts[x]``, zero elsewhere; a linear score
        ``w . phi(x, a) = w_a . x`` is thus one linear score per action.
    """
    features = np.asarray(contexts, dtype=np.float64)
    if features.ndim != 2 or n_actions < 2:
        raise ValueError(
            f"need contexts of shape (n_contexts, d) and n_actions >= 2; got {features.shape}, "
            f"{n_actions}"
        )
    n, d = features.shape
    phi = np.zeros((n, n_actions, n_actions, d))
    for action in range(n_actions):
        phi[:, action, action] = features
    return phi.reshape(n, n_actions, n_actions * d)


def _checked_arm_features(
    population: ContextPopulation | DuelingEnvironment, arm_features: NDArray[np.float64]
) -> NDArray[np.float64]:
    features = np.ascontiguousarray(arm_features, dtype=np.float64)
    if features.ndim != 3 or features.shape[:2] != (population.n_contexts, population.n_actions):
        raise ValueError(
            f"arm_features must have shape ({population.n_contexts}, {population.n_actions}, d) "
            f"(contexts, actions, features); got {features.shape}"
        )
    return features


def population_duel_log(
    algorithm: LinearDuelingAlgorithm,
    population: ContextPopulation,
    arm_features: NDArray[np.float64],
    horizon: int,
    rng: np.random.Generator,
    *,
    compiled: bool = True,
) -> DuelLog:
    """Play ``horizon`` rounds of CoLSTIM or MaxInP on a population's own matrices.

    The algorithm sees ``arm_features[x]`` (shape ``(K, d)``, e.g. :func:`action_features`)
    in context ``x``; ``a`` wins iff the round's duel uniform is below ``(1 + P_x(a, b)) / 2``,
    whatever the features (no linear model is assumed). ``rng`` is split into the
    environment's stream (:meth:`StochasticEnvironment.draw_schedule`) and the algorithm's.
    ``compiled`` plays the rounds in the algorithm's numba kernel
    (:meth:`LinearDuelingAlgorithm.run_compiled` on a :class:`ScheduleArrays`), else in its
    NumPy round (``select`` / ``update``). Both play the same duels unless two scores tie in
    exact arithmetic, which BLAS and the kernel's loops may round apart (the caveat of
    :mod:`cdbandits.linear_duels.base`). With :func:`action_features` such ties are
    structural in small instances: arms whose blocks were never duelled (an exploration
    shorter than the default ``d K``), or MaxInP's deterministic pairs balancing the duel
    counts in 2 to 4 contexts; none was seen with more contexts (tests; 30 seeds of each
    online environment of the duels family).
    """
    features = _checked_arm_features(population, arm_features)
    environment_rng, algorithm_rng = rng.spawn(2)
    context_ids, duel_uniforms = StochasticEnvironment(population).draw_schedule(
        horizon, environment_rng
    )
    algorithm.start(population.n_actions, features.shape[2], algorithm_rng, horizon)
    win = (1.0 + population.matrices) / 2.0
    if compiled:
        schedule = ScheduleArrays(features, np.ascontiguousarray(win), context_ids, duel_uniforms)
        duels = _kernel_duels(algorithm, schedule, horizon)
        return schedule_log(population, context_ids, duel_uniforms, duels[:, 1], duels[:, 2])
    first = np.empty(horizon, dtype=np.int64)
    second = np.empty(horizon, dtype=np.int64)
    for t in range(horizon):
        context = context_ids[t]
        a, b = algorithm.select(features[context])
        first[t], second[t] = a, b
        algorithm.update(a, b, 1 if duel_uniforms[t] < win[context, a, b] else 0)
    return schedule_log(population, context_ids, duel_uniforms, first, second)


def dbgd_duel_log(
    algorithm: DuelingBanditGradientDescent,
    environment: LinearDuelingEnvironment,
    horizon: int,
    rng: np.random.Generator,
) -> DuelLog:
    """Play ``horizon`` rounds of DBGD on the arms of each context (module docstring).

    :func:`dbgd_population_log` on :func:`as_population` of ``environment`` with its arms'
    features.
    """
    return dbgd_population_log(
        algorithm, as_population(environment), environment.features, horizon, rng
    )


def dbgd_population_log(
    algorithm: DuelingBanditGradientDescent,
    population: ContextPopulation,
    arm_features: NDArray[np.float64],
    horizon: int,
    rng: np.random.Generator,
    *,
    compiled: bool = True,
) -> DuelLog:
    """Play ``horizon`` rounds of DBGD on a population whose arms have features.

    ``rng`` is split into the environment's stream
    (:meth:`~cdbandits.contextual.environments.StochasticEnvironment.draw_schedule`) and
    DBGD's. In context ``x`` the current ranker ``w`` and the candidate ``w'`` each put
    forward their best arm (``argmax_i w . arm_features[x, i]``), the two duel on ``P_x``, and
    the outcome DBGD learns from is ``+1`` when the current ranker's arm won, ``-1`` when the
    candidate's did, and ``0`` when both put forward the same arm. ``compiled`` plays the
    rounds in numba (:func:`~cdbandits.linear_duels.dbgd.dbgd_schedule_rounds`), else in
    DBGD's NumPy ``select`` / ``update``; both play the same duels (up to the caveat of
    :func:`population_duel_log`: the scores ``w . x_i`` are summed by BLAS in one, in index
    order in the other).
    """
    features = _checked_arm_features(population, arm_features)
    environment_rng, algorithm_rng = rng.spawn(2)
    context_ids, duel_uniforms = StochasticEnvironment(population).draw_schedule(
        horizon, environment_rng
    )
    algorithm.start(features.shape[2], algorithm_rng)
    first = np.empty(horizon, dtype=np.int64)
    second = np.empty(horizon, dtype=np.int64)
    if compiled:
        win = np.ascontiguousarray((1.0 + population.matrices) / 2.0)
        schedule = ScheduleArrays(features, win, context_ids, duel_uniforms)
        _dbgd_kernel_duels(algorithm, schedule, first, second)
        return schedule_log(population, context_ids, duel_uniforms, first, second)
    for t in range(horizon):
        arms = features[context_ids[t]]
        current, candidate = algorithm.select()
        a, b = int(np.argmax(arms @ current)), int(np.argmax(arms @ candidate))
        first[t], second[t] = a, b
        if a == b:
            algorithm.update(0)
        else:
            won = duel_uniforms[t] < (1.0 + population.matrices[context_ids[t], a, b]) / 2.0
            algorithm.update(1 if won else -1)
    return schedule_log(population, context_ids, duel_uniforms, first, second)


def environment_duel_log(
    algorithm: LinearDuelingAlgorithm,
    environment: DuelingEnvironment,
    arm_features: NDArray[np.float64],
    horizon: int,
    rng: np.random.Generator,
    *,
    compiled: bool = True,
) -> DuelLog:
    """Play ``horizon`` rounds of CoLSTIM or MaxInP on any dueling environment.

    As :func:`population_duel_log`, but round by round (:func:`round_by_round_log`): the
    algorithm sees ``arm_features[x]`` in context ``x`` and learns ``1`` when its first arm
    won the environment's duel. ``rng`` is split into the environment's stream (its
    :meth:`~DuelingEnvironment.reset`) and the algorithm's. On the counter-play adversary
    ``compiled`` plays the same rounds in the algorithm's kernel (module docstring), up to
    the caveat of :func:`population_duel_log`.
    """
    features = _checked_arm_features(environment, arm_features)
    environment_rng, algorithm_rng = rng.spawn(2)
    environment.reset(environment_rng)
    algorithm.start(environment.n_actions, features.shape[2], algorithm_rng, horizon)
    if compiled and isinstance(environment, CounterPlayAdversary):
        schedule, rounds = _counter_play_schedule(environment, features, horizon)
        duels = _kernel_duels(algorithm, schedule, horizon)
        outcomes = np.where(duels[:, 3] == 1, 1, -1).astype(np.int8)
        return counter_play_log(environment, rounds, duels[:, 1], duels[:, 2], outcomes)
    return round_by_round_log(
        environment,
        horizon,
        lambda context: algorithm.select(features[context]),
        lambda a, b, outcome: algorithm.update(a, b, 1 if outcome > 0 else 0),
    )


def dbgd_environment_log(
    algorithm: DuelingBanditGradientDescent,
    environment: DuelingEnvironment,
    arm_features: NDArray[np.float64],
    horizon: int,
    rng: np.random.Generator,
    *,
    compiled: bool = True,
) -> DuelLog:
    """Play ``horizon`` rounds of DBGD on any dueling environment.

    As :func:`dbgd_population_log`, but round by round (:func:`round_by_round_log`): the
    current ranker's best arm and the candidate's duel (also when they are the same arm, as
    in the population form), and DBGD learns ``+1`` when the current ranker's arm won, ``-1``
    when the candidate's did, ``0`` when both put forward the same arm. ``rng`` is split into
    the environment's stream and DBGD's. On the counter-play adversary ``compiled`` plays the
    same rounds in numba (module docstring), up to the caveat of :func:`dbgd_population_log`.
    """
    features = _checked_arm_features(environment, arm_features)
    environment_rng, algorithm_rng = rng.spawn(2)
    environment.reset(environment_rng)
    algorithm.start(features.shape[2], algorithm_rng)
    if compiled and isinstance(environment, CounterPlayAdversary):
        schedule, rounds = _counter_play_schedule(environment, features, horizon)
        first = np.empty(horizon, dtype=np.int64)
        second = np.empty(horizon, dtype=np.int64)
        outcomes = _dbgd_kernel_duels(algorithm, schedule, first, second)
        return counter_play_log(environment, rounds, first, second, outcomes)

    def choose(context: int) -> tuple[int, int]:
        current, candidate = algorithm.select()
        arms = features[context]
        return int(np.argmax(arms @ current)), int(np.argmax(arms @ candidate))

    return round_by_round_log(
        environment,
        horizon,
        choose,
        lambda a, b, outcome: algorithm.update(0 if a == b else outcome),
    )


def _counter_play_schedule(
    environment: CounterPlayAdversary, features: NDArray[np.float64], horizon: int
) -> tuple[ScheduleArrays, CounterPlayRounds]:
    """The adversary's next ``horizon`` rounds (reset already) as a kernel's schedule."""
    rounds, duel_rng = counter_play_rounds(environment, horizon)
    return ScheduleArrays(features, rounds, rounds.context_ids, duel_rng.random(horizon)), rounds


def _kernel_duels(
    algorithm: LinearDuelingAlgorithm, schedule: ScheduleArrays, horizon: int
) -> NDArray[np.int64]:
    """The ``(context, a, b, outcome)`` rows of ``horizon`` rounds of ``schedule`` played in
    the algorithm's kernel (:meth:`LinearDuelingAlgorithm.run_compiled`)."""
    shape = schedule.features.shape[:2]
    record = RunRecord(
        np.zeros(shape[0]), np.zeros(shape, dtype=np.int64), np.zeros(1),
        np.empty((horizon, 4), dtype=np.int64),
    )  # fmt: skip
    algorithm.run_compiled(schedule, None, horizon, record)
    return record.duels


def _dbgd_kernel_duels(
    algorithm: DuelingBanditGradientDescent,
    schedule: ScheduleArrays,
    first: NDArray[np.int64],
    second: NDArray[np.int64],
) -> NDArray[np.int8]:
    """Every round of ``schedule`` played by DBGD in numba
    (:func:`~cdbandits.linear_duels.dbgd.dbgd_schedule_rounds`); fills both arms, returns the
    outcomes."""
    outcomes = np.empty(first.size, dtype=np.int8)
    radius = -1.0 if algorithm.radius is None else algorithm.radius
    algorithm.wins_ = dbgd_schedule_rounds(
        algorithm.weights_, algorithm.direction_, algorithm.exploration_step,
        algorithm.learning_rate, radius, algorithm.rng_, schedule, first, second, outcomes,
    )  # fmt: skip
    algorithm.round_ = first.size
    return outcomes
