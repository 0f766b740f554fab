"""Running a dueling algorithm on an environment: the episode loop and its log.

:class:`DuelingAlgorithm` is the base of every learner (SparringEXP4.P and the baselines).
:meth:`DuelingAlgorithm.run` splits the generator it is given into three independent
streams (environment, first learner, second learner; each learner consumes one uniform per
round) and then

* on a :class:`~cdbandits.contextual.environments.StochasticEnvironment`, draws the whole
  schedule in advance and runs the algorithm's compiled episode (fast path);
* on the adaptive adversary (:class:`~cdbandits.contextual.environments.CounterPlayAdversary`),
  if the algorithm compiles it (SparringEXP4.P), draws the contexts and uniforms in advance
  and runs the same compiled episode on the adversary's rounds
  (:class:`~cdbandits.dueling.counter_play.CounterPlayRounds`, which set each round's ``P_t`` from
  the plays so far);
* on any other environment, plays round by round through the algorithm's ``_choose`` /
  ``_observe`` steps.

The paths consume the same random numbers in the same order and share the compiled
per-round arithmetic, so on a stochastic environment or the adversary the compiled and the
round-by-round episodes give identical logs.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from numpy.typing import NDArray

# The contextual learners draw their actions exactly as the K-armed ones draw arms.
from ..dueling.counter_play import CounterPlayRounds
from ..dueling.draws import draw_arm_compiled as draw_action
from .environments import (
    ContextPopulation,
    CounterPlayAdversary,
    DuelingEnvironment,
    StochasticEnvironment,
)

__all__ = [
    "DuelLog",
    "DuelingAlgorithm",
    "counter_play_log",
    "counter_play_rounds",
    "draw_action",
    "round_by_round_log",
    "schedule_log",
]


@dataclass(frozen=True)
class DuelLog:
    """What happened in an episode of ``T`` rounds.

    Attributes
    ----------
    context_ids : ndarray of int64, shape (T,)
        Index of ``x_t`` among the environment's contexts.
    first_actions, second_actions : ndarray of int64, shape (T,)
        ``a_t`` (row player) and ``b_t`` (column player).
    outcomes : ndarray of int8, shape (T,)
        ``r_t = +1`` if ``a_t`` won the duel, ``-1`` otherwise.
    gains : ndarray of float64, shape (T, K)
        Evaluator-only: ``g_t(a) = (P_t(a, a_t) + P_t(a, b_t)) / 2``; the regret (rd1) after
        ``t`` rounds is ``max_pi sum_{s <= t} g_s(pi(x_s))``.
    """

    context_ids: NDArray[np.int64]
    first_actions: NDArray[np.int64]
    second_actions: NDArray[np.int64]
    outcomes: NDArray[np.int8]
    gains: NDArray[np.float64]

    @property
    def horizon(self) -> int:
        """Number of rounds ``T``."""
        return int(self.context_ids.size)


def schedule_log(
    population: ContextPopulation,
    context_ids: NDArray[np.int64],
    duel_uniforms: NDArray[np.float64],
    first_actions: NDArray[np.int64],
    second_actions: NDArray[np.int64],
) -> DuelLog:
    """The log of a stochastic episode, given both players' actions (vectorised).

    Outcomes follow :meth:`DuelingEnvironment.duel`: ``+1`` iff
    ``duel_uniforms[t] < (1 + P_t(a_t, b_t)) / 2``.
    """
    # Indexed straight from the population (no (T, K, K) copy of the rounds' matrices).
    matrices = population.matrices
    win_probability = (1.0 + matrices[context_ids, first_actions, second_actions]) / 2.0
    outcomes = np.where(duel_uniforms < win_probability, 1, -1).astype(np.int8)
    gains = matrices[context_ids, :, first_actions]
    gains += matrices[context_ids, :, second_actions]
    gains /= 2.0
    return DuelLog(context_ids, first_actions, second_actions, outcomes, gains)


def counter_play_rounds(
    environment: CounterPlayAdversary, n_rounds: int
) -> tuple[CounterPlayRounds, np.random.Generator]:
    """The adversary's next ``n_rounds`` rounds (reset already), for a compiled learner, and
    its duel stream.

    The contexts are drawn ahead (:meth:`~CounterPlayAdversary.draw_ahead`); the kernel that
    plays the rounds updates the adversary's :attr:`~CounterPlayAdversary.play_counts_`
    and fills each round's winner.
    """
    context_ids, duel_rng = environment.draw_ahead(n_rounds)
    winners = np.empty(n_rounds, dtype=np.int64)
    rounds = CounterPlayRounds(
        context_ids, environment.play_counts_, winners, float(environment.margin)
    )
    return rounds, duel_rng


def counter_play_log(
    environment: CounterPlayAdversary,
    rounds: CounterPlayRounds,
    first_actions: NDArray[np.int64],
    second_actions: NDArray[np.int64],
    outcomes: NDArray[np.int8],
) -> DuelLog:
    """The log of rounds played on :func:`counter_play_rounds`, with the adversary's gains
    (:meth:`~DuelingEnvironment.gains` of each round's ``P_t``, in the same operations)."""
    matrices = np.stack([environment.winner_matrix(w) for w in range(environment.n_actions)])
    gains = matrices[rounds.winners, :, first_actions]
    gains += matrices[rounds.winners, :, second_actions]
    gains /= 2.0
    return DuelLog(rounds.context_ids, first_actions, second_actions, outcomes, gains)


def round_by_round_log(
    environment: DuelingEnvironment,
    horizon: int,
    choose: Callable[[int], tuple[int, int]],
    learn: Callable[[int, int, int], None],
) -> DuelLog:
    """Play ``horizon`` rounds on ``environment`` (already reset), one at a time.

    Each round draws the context ``x`` (:meth:`~DuelingEnvironment.next_context`), duels
    ``(a, b) = choose(x)`` under the round's ``P_t`` and calls ``learn(a, b, r)`` with the
    outcome ``r`` (``+1`` if ``a`` won, ``-1`` otherwise) before the next round, so an
    adaptive environment sees every duel before it sets the next ``P_t``. The log's gains are
    the evaluator's (:meth:`~DuelingEnvironment.gains`).
    """
    if horizon < 1:
        raise ValueError(f"horizon must be at least 1; got {horizon}")
    context_ids = np.empty(horizon, dtype=np.int64)
    first = np.empty(horizon, dtype=np.int64)
    second = np.empty(horizon, dtype=np.int64)
    outcomes = np.empty(horizon, dtype=np.int8)
    gains = np.empty((horizon, environment.n_actions))
    for t in range(horizon):
        context = environment.next_context()
        a, b = choose(context)
        outcome = environment.duel(a, b)
        learn(a, b, outcome)
        context_ids[t], first[t], second[t], outcomes[t] = context, a, b, outcome
        gains[t] = environment.gains(a, b)
    return DuelLog(context_ids, first, second, outcomes, gains)


class DuelingAlgorithm(ABC):
    """Base of the contextual dueling learners; see the module docstring.

    Not a :class:`~cdbandits.dueling.algorithm.RoundAlgorithm` (the base of the K-armed and
    linear algorithms): a learner here plays whole episodes (:meth:`run`), gets each round's
    uniforms from the episode's streams instead of owning a generator, and has no
    ``select`` / ``update`` for an outside loop to drive, which is all that base holds.
    """

    @abstractmethod
    def _start(self, environment: DuelingEnvironment, horizon: int) -> None:
        """Validate the environment and set the learned state for a new episode."""

    @abstractmethod
    def _choose(self, context: int, first_uniform: float, second_uniform: float) -> tuple[int, int]:
        """Both actions for context index ``context``."""

    @abstractmethod
    def _observe(self, outcome: int) -> None:
        """Learn from the outcome of the duel just chosen."""

    @abstractmethod
    def _run_schedule(
        self,
        population: ContextPopulation,
        context_ids: NDArray[np.int64],
        duel_uniforms: NDArray[np.float64],
        first_uniforms: NDArray[np.float64],
        second_uniforms: NDArray[np.float64],
    ) -> DuelLog:
        """The whole stochastic episode at once, identical to the round-by-round loop."""

    #: Whether :meth:`_play_schedule` plays the adaptive adversary's rounds in compiled code.
    compiles_counter_play: ClassVar[bool] = False

    def _play_schedule(
        self,
        win: NDArray[np.float64] | CounterPlayRounds,
        context_ids: NDArray[np.int64],
        duel_uniforms: NDArray[np.float64],
        first_uniforms: NDArray[np.float64],
        second_uniforms: NDArray[np.float64],
    ) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int8]]:
        """Both players' actions and the outcomes of rounds drawn in advance, in compiled
        code; ``win`` is probability-form matrices or the adversary's rounds. Only for
        algorithms with :attr:`compiles_counter_play`."""
        raise NotImplementedError(f"{type(self).__name__} has no compiled adversary episode")

    def run(
        self,
        environment: DuelingEnvironment,
        horizon: int,
        rng: np.random.Generator,
        *,
        compiled: bool = True,
    ) -> DuelLog:
        """Play ``horizon`` rounds on ``environment``.

        Parameters
        ----------
        environment : DuelingEnvironment
        horizon : int
            Number of rounds ``T`` (algorithms tuned to the horizon use it).
        rng : numpy.random.Generator
            The only source of randomness (environment and both players).
        compiled : bool, optional
            False plays the adaptive adversary round by round even when the algorithm
            compiles it (the same log; the reference the tests compare with).

        Returns
        -------
        DuelLog
        """
        if horizon < 1:
            raise ValueError(f"horizon must be at least 1; got {horizon}")
        environment_rng, first_rng, second_rng = rng.spawn(3)
        self._start(environment, horizon)
        if isinstance(environment, StochasticEnvironment):
            context_ids, duel_uniforms = environment.draw_schedule(horizon, environment_rng)
            return self._run_schedule(
                environment.population,
                context_ids,
                duel_uniforms,
                first_rng.random(horizon),
                second_rng.random(horizon),
            )
        environment.reset(environment_rng)
        if (
            compiled
            and self.compiles_counter_play
            and isinstance(environment, CounterPlayAdversary)
        ):
            rounds, duel_rng = counter_play_rounds(environment, horizon)
            played = self._play_schedule(
                rounds,
                rounds.context_ids,
                duel_rng.random(horizon),
                first_rng.random(horizon),
                second_rng.random(horizon),
            )
            return counter_play_log(environment, rounds, *played)
        return round_by_round_log(
            environment,
            horizon,
            lambda context: self._choose(
                context, float(first_rng.random()), float(second_rng.random())
            ),
            lambda a, b, outcome: self._observe(outcome),
        )
