"""The interface every K-armed dueling-bandit algorithm follows, and its shared conventions.

An algorithm is configured by its hyper-parameters (``__init__``, validated at once) and
then driven in rounds::

    algorithm = RUCB(alpha=0.51)
    algorithm.start(n_arms=5, rng=np.random.default_rng(0))
    a, b = algorithm.select()          # the pair to duel this round
    algorithm.update(a, b, outcome)    # outcome 1 if arm a won, 0 if arm b won

Learned state lives in attributes with a trailing underscore (``wins_``, ``round_``, ...),
set by :meth:`DuelingBanditAlgorithm.start`. Every algorithm has two implementations of one
round: a readable NumPy one (:meth:`~DuelingBanditAlgorithm.select` /
:meth:`~DuelingBanditAlgorithm.update`, written to follow the paper's algorithm box) and a
numba kernel that plays many rounds at once (:meth:`~DuelingBanditAlgorithm.run_compiled`,
used by :func:`cdbandits.karmed.simulation.simulate`). Both draw their random numbers from
the same generator by the rules of :mod:`cdbandits.dueling.draws`, so on the same seed they
play the same duels; the tests hold them to that.

**Outcomes, self-duels.** ``outcome`` is 1 if ``a`` won and 0 if ``b`` won; a duel has no
draw (a probability-form matrix that counts ties as half-wins already folds them into
``Q``). An algorithm may select ``a == b`` (RUCB, D-TS and others do once they are sure of
the winner); the environment then flips a fair coin (``Q[a, a] = 1/2``) and the update
records the duel like any other, which changes nothing an algorithm reads (its statistics
for a pair ``(a, a)`` are never used). :meth:`~DuelingBanditAlgorithm.update` must follow
:meth:`~DuelingBanditAlgorithm.select` with the pair it returned.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import NamedTuple

import numba
import numpy as np
from numpy.typing import NDArray

from ..dueling.algorithm import RoundAlgorithm
from ..dueling.checks import check_generator
from ..dueling.counter_play import (
    CounterPlayRounds,
    checked_counter_play_rounds,
    round_win_probability,
)

__all__ = [
    "Arena",
    "DuelingBanditAlgorithm",
    "play_duel",
]


class Arena(NamedTuple):
    """Where the K-armed kernels play their duels: the environment and what it records.

    The last argument of every K-armed kernel, read by :func:`play_duel`.

    Attributes
    ----------
    win_probability : ndarray of float64, shape (K, K), or CounterPlayRounds
        Probability-form preference matrix ``Q``, or the adaptive adversary's rounds.
    environment_rng : numpy.random.Generator
        The environment's stream (one uniform per round).
    arm_counts : ndarray of int64, shape (K,)
        Incremented by one for each of the two arms of every duel (twice for ``a == b``).
    duels : ndarray of int64, shape (n_rounds, 3) or (0, 3)
        Filled with ``(a, b, outcome)`` per round when it has rows.
    """

    win_probability: NDArray[np.float64] | CounterPlayRounds
    environment_rng: np.random.Generator
    arm_counts: NDArray[np.int64]
    duels: NDArray[np.int64]


class DuelingBanditAlgorithm(RoundAlgorithm):
    """Base of the K-armed dueling-bandit algorithms; see the module docstring.

    Attributes
    ----------
    n_arms_ : int
        Number of arms ``K`` of the current run.
    horizon_ : int or None
        The horizon given to :meth:`start` (only horizon-tuned algorithms need it).
    round_ : int
        Duels completed so far; the next :meth:`select` plays round ``round_ + 1``.
    rng_ : numpy.random.Generator
        The algorithm's source of randomness.
    """

    def start(
        self, n_arms: int, rng: np.random.Generator, horizon: int | None = None
    ) -> DuelingBanditAlgorithm:
        """Forget everything learned and prepare a run on ``n_arms`` arms; return ``self``.

        Parameters
        ----------
        n_arms : int
            Number of arms ``K >= 2``.
        rng : numpy.random.Generator
            The only source of the algorithm's randomness.
        horizon : int, optional
            Number of rounds the run will last; required by algorithms tuned to it.
        """
        if isinstance(n_arms, bool) or not isinstance(n_arms, int | np.integer) or n_arms < 2:
            raise ValueError(f"n_arms must be an integer >= 2; got {n_arms!r}")
        check_generator(rng)
        if horizon is not None and (
            isinstance(horizon, bool) or not isinstance(horizon, int | np.integer) or horizon < 1
        ):
            raise ValueError(f"horizon must be a positive integer or None; got {horizon!r}")
        self.n_arms_ = int(n_arms)
        self.horizon_ = None if horizon is None else int(horizon)
        self._restart(rng)
        return self

    def select(self) -> tuple[int, int]:
        """The pair ``(a, b)`` to duel in round ``round_ + 1`` (NumPy implementation)."""
        self._check_selectable()
        return self._select_round()

    def run_compiled(
        self,
        win_probability: NDArray[np.float64] | CounterPlayRounds,
        environment_rng: np.random.Generator,
        n_rounds: int,
        arm_counts: NDArray[np.int64],
        duels: NDArray[np.int64] | None = None,
    ) -> None:
        """Play ``n_rounds`` rounds in the numba kernel, continuing from the current state.

        Each round the environment draws one ``u = environment_rng.random()`` and ``a``
        wins iff ``u < win_probability[a, b]``, as :func:`~cdbandits.karmed.simulation.simulate`
        does on its Python path; against :class:`CounterPlayRounds`, iff ``u`` is below
        that round's win probability under the adversary's rule.

        Parameters
        ----------
        win_probability : ndarray of float64, shape (K, K), or CounterPlayRounds
            Probability-form preference matrix ``Q``, or the adaptive adversary's rounds
            (``n_rounds`` of them).
        environment_rng : numpy.random.Generator
            The environment's stream (one uniform per round).
        n_rounds : int
            Rounds to play.
        arm_counts : ndarray of int64, shape (K,)
            Incremented by one for each of the two arms of every duel (twice for ``a == b``).
        duels : ndarray of int64, shape (n_rounds, 3), optional
            Filled with ``(a, b, outcome)`` per round when given.
        """
        self._check_between_rounds()
        k = self.n_arms_
        if isinstance(win_probability, CounterPlayRounds):
            environment = checked_counter_play_rounds(win_probability, k, int(n_rounds))
        else:
            if win_probability.shape != (k, k):
                raise ValueError(f"expected a ({k}, {k}) matrix; got {win_probability.shape}")
            environment = np.ascontiguousarray(win_probability, dtype=np.float64)
        if arm_counts.shape != (k,):
            raise ValueError(f"expected ({k},) counts; got {arm_counts.shape}")
        record = np.empty((0, 3), dtype=np.int64) if duels is None else duels
        if duels is not None and duels.shape != (n_rounds, 3):
            raise ValueError(f"duels must have shape ({n_rounds}, 3); got {duels.shape}")
        self._play_compiled(n_rounds, Arena(environment, environment_rng, arm_counts, record))

    def _require_horizon(self) -> int:
        if self.horizon_ is None:
            raise ValueError(
                f"{type(self).__name__} is tuned to the horizon; pass start(horizon=T)"
            )
        return self.horizon_

    @abstractmethod
    def _select(self, t: int) -> tuple[int, int]:
        """The pair of round ``t`` (1-based), NumPy implementation."""

    @abstractmethod
    def _update(self, t: int, a: int, b: int, outcome: int) -> None:
        """Learn from round ``t``'s duel, NumPy implementation."""


@numba.njit(cache=True)
def play_duel(arena: Arena, step: int, a: int, b: int) -> int:
    """Draw the outcome of ``(a, b)`` in round ``step`` of ``arena`` (1 iff ``u < Q[a, b]``,
    ``Q[a, b]`` the round's :func:`~cdbandits.dueling.counter_play.round_win_probability`,
    ``u`` the next uniform of the environment's stream) and count and record the duel."""
    probability = round_win_probability(arena.win_probability, step, a, b)
    outcome = 1 if arena.environment_rng.random() < probability else 0
    arena.arm_counts[a] += 1
    arena.arm_counts[b] += 1
    if arena.duels.shape[0] > 0:
        arena.duels[step, 0] = a
        arena.duels[step, 1] = b
        arena.duels[step, 2] = outcome
    return outcome
