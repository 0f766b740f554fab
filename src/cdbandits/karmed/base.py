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

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, ClassVar

import numba
import numpy as np
from numpy.typing import NDArray

from ..dueling.counter_play import (
    CounterPlayRounds,
    checked_counter_play_rounds,
    round_win_probability,
)

__all__ = [
    "DuelingBanditAlgorithm",
    "play_duel",
]


class DuelingBanditAlgorithm(ABC):
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

    #: Identifier of the algorithm in result tables and :data:`cdbandits.plotting.ALGORITHM_STYLES`.
    name: ClassVar[str]

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
        if not isinstance(rng, np.random.Generator):
            raise TypeError(f"rng must be a numpy.random.Generator; got {type(rng).__name__}")
        if horizon is not None and (
            isinstance(horizon, bool) or not isinstance(horizon, int | np.integer) or horizon < 1
        ):
            raise ValueError(f"horizon must be a positive integer or None; got {horizon!r}")
        self.n_arms_ = int(n_arms)
        self.horizon_ = None if horizon is None else int(horizon)
        self.rng_ = rng
        self.round_ = 0
        self._selected: tuple[int, int] | None = None
        self._start()
        return self

    def select(self) -> tuple[int, int]:
        """The pair ``(a, b)`` to duel in round ``round_ + 1`` (NumPy implementation)."""
        self._check_started()
        if self._selected is not None:
            raise RuntimeError(
                f"select() called twice without update(); round {self.round_ + 1} already "
                f"selected {self._selected}"
            )
        a, b = self._select(self.round_ + 1)
        self._selected = (int(a), int(b))
        return self._selected

    def update(self, a: int, b: int, outcome: int) -> None:
        """Learn from the duel of the pair :meth:`select` returned: ``outcome`` 1 if ``a`` won."""
        self._check_started()
        if self._selected is None:
            raise RuntimeError("update() needs a preceding select()")
        if (a, b) != self._selected:
            raise ValueError(f"update() got the pair {(a, b)}; select() returned {self._selected}")
        if isinstance(outcome, bool) or outcome not in (0, 1):
            raise ValueError(f"outcome must be 1 (a won) or 0 (b won); got {outcome!r}")
        self._update(self.round_ + 1, int(a), int(b), int(outcome))
        self.round_ += 1
        self._selected = None

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
        self._check_started()
        if self._selected is not None:
            raise RuntimeError("run_compiled() between select() and update()")
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
        result = self._kernel(
            *self._kernel_state(),
            self.round_,
            int(n_rounds),
            self.rng_,
            environment,
            environment_rng,
            arm_counts,
            record,
        )
        self._kernel_result(result)
        self.round_ += int(n_rounds)

    def _check_started(self) -> None:
        if not hasattr(self, "round_"):
            raise RuntimeError(f"{type(self).__name__}: call start(n_arms, rng) first")

    def _require_horizon(self) -> int:
        if self.horizon_ is None:
            raise ValueError(
                f"{type(self).__name__} is tuned to the horizon; pass start(horizon=T)"
            )
        return self.horizon_

    @abstractmethod
    def _start(self) -> None:
        """Set the learned state for a new run (``n_arms_``, ``rng_``, ``horizon_`` are set)."""

    @abstractmethod
    def _select(self, t: int) -> tuple[int, int]:
        """The pair of round ``t`` (1-based), NumPy implementation."""

    @abstractmethod
    def _update(self, t: int, a: int, b: int, outcome: int) -> None:
        """Learn from round ``t``'s duel, NumPy implementation."""

    #: The numba kernel that plays rounds: ``_kernel(*self._kernel_state(), start_round,
    #: n_rounds, rng, win_probability, environment_rng, arm_counts, duels)`` plays rounds
    #: ``start_round + 1 ... start_round + n_rounds``, updating the state arrays in place and
    #: returning the new values of the scalar state (see :meth:`_kernel_result`).
    _kernel: ClassVar[Callable[..., Any]]

    @abstractmethod
    def _kernel_state(self) -> tuple[Any, ...]:
        """The kernel's leading arguments: the learned state and the hyper-parameters."""

    def _kernel_result(self, result: Any) -> None:
        """Store what the kernel returns (scalar state it cannot update in place).

        Kernels that update everything in place return None, which is all the default
        accepts.
        """
        if result is not None:
            raise TypeError(f"{type(self).__name__}: unexpected kernel result {result!r}")

    def __repr__(self) -> str:
        parameters = ", ".join(
            f"{name}={value!r}" for name, value in vars(self).items() if not name.endswith("_")
        )
        return f"{type(self).__name__}({parameters})"


@numba.njit(cache=True)
def play_duel(
    environment_rng: np.random.Generator,
    win_probability: NDArray[np.float64] | CounterPlayRounds,
    step: int,
    a: int,
    b: int,
    arm_counts: NDArray[np.int64],
    duels: NDArray[np.int64],
) -> int:
    """Draw the outcome of ``(a, b)`` (1 iff ``u < Q[a, b]``, ``Q[a, b]`` the round's
    :func:`round_win_probability`) and record the duel."""
    probability = round_win_probability(win_probability, step, a, b)
    outcome = 1 if environment_rng.random() < probability else 0
    arm_counts[a] += 1
    arm_counts[b] += 1
    if duels.shape[0] > 0:
        duels[step, 0] = a
        duels[step, 1] = b
        duels[step, 2] = outcome
    return outcome
