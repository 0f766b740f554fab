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
the same generator by the rules below, so on the same seed they play the same duels; the
tests hold them to that.

**Random draws.** Every random choice of an algorithm goes through one of three rules, in
the order the algorithm box makes the choices:

* a uniform choice among ``n`` items (:func:`pick`) draws one ``u = rng.random()`` and takes
  item ``floor(n u)``, except that a choice among one item draws nothing;
* an event of probability ``p`` (:func:`coin`) draws one ``u`` and happens iff ``u < p``;
* a Beta variate is ``rng.beta(a, b)``, and a draw from a distribution ``q`` over arms is
  the inverse CDF at one ``u``: the first arm ``i`` with ``u < q_0 + ... + q_i``.

Ties in an ``argmax`` are broken by :func:`pick` among the tied arms in increasing order
unless an algorithm's docstring says otherwise.

**Outcomes, self-duels.** ``outcome`` is 1 if ``a`` won and 0 if ``b`` won; a duel has no
draw (a probability-form matrix that counts ties as half-wins already folds them into
``Q``). An algorithm may select ``a == b`` (RUCB, D-TS and others do once they are sure of
the winner); the environment then flips a fair coin (``Q[a, a] = 1/2``) and the update
records the duel like any other, which changes nothing an algorithm reads (its statistics
for a pair ``(a, a)`` are never used). :meth:`~DuelingBanditAlgorithm.update` must follow
:meth:`~DuelingBanditAlgorithm.select` with the pair it returned.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, ClassVar, NamedTuple

import numba
import numpy as np
from numba.core import types
from numba.extending import overload
from numpy.typing import NDArray

__all__ = [
    "CounterPlayRounds",
    "DuelingBanditAlgorithm",
    "check_integer",
    "checked_counter_play_rounds",
    "check_positive",
    "coin",
    "coin_compiled",
    "draw_arm",
    "draw_arm_compiled",
    "pick",
    "pick_compiled",
    "pick_from",
    "play_duel",
    "round_win_probability",
    "scheduled_win_probability",
]


def pick(rng: np.random.Generator, n: int) -> int:
    """Uniform choice among ``n >= 1`` items: ``floor(n u)``, no draw when ``n == 1``."""
    if n <= 1:
        return 0
    return min(int(rng.random() * n), n - 1)


def pick_from(rng: np.random.Generator, items: NDArray[np.int64]) -> int:
    """One of ``items`` chosen by :func:`pick` (in the order given)."""
    return int(items[pick(rng, items.size)])


def coin(rng: np.random.Generator, probability: float) -> bool:
    """An event of the given probability; always draws one uniform."""
    return bool(rng.random() < probability)


def draw_arm(probabilities: NDArray[np.float64], uniform: float) -> int:
    """Inverse-CDF draw: the first arm ``i`` with ``uniform < p_0 + ... + p_i`` (else the last)."""
    index = int(np.searchsorted(np.cumsum(probabilities), uniform, side="right"))
    return min(index, probabilities.size - 1)


class CounterPlayRounds(NamedTuple):
    """Rounds against the counter-play adversary, in the form the kernels play them.

    The compiled twin of :class:`cdbandits.contextual.environments.CounterPlayAdversary`:
    passed to :meth:`DuelingBanditAlgorithm.run_compiled` in place of a fixed matrix, it
    makes round ``step``'s winner ``w = (f + 1) mod K``, ``f`` the most played action so far
    in context ``context_ids[step]`` (smallest on ties), and ``a`` wins iff
    ``u < (1 + P_t(a, b)) / 2`` with ``P_t(w, b) = margin = -P_t(b, w)`` for ``b != w``, 0
    elsewhere: the adversary's own outcome rule, in the same floating-point operations.

    Attributes
    ----------
    context_ids : ndarray of int64, shape (n_rounds,)
        The context of each round played (drawn ahead: they do not depend on the learner).
    play_counts : ndarray of int64, shape (n_contexts, K)
        Plays of each action in each context (both slots), updated in place.
    winners : ndarray of int64, shape (n_rounds,)
        Filled with each round's winner ``w`` (what the evaluator's gains need).
    margin : float
    """

    context_ids: NDArray[np.int64]
    play_counts: NDArray[np.int64]
    winners: NDArray[np.int64]
    margin: float


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


def checked_counter_play_rounds(
    rounds: CounterPlayRounds, n_arms: int, n_rounds: int
) -> CounterPlayRounds:
    """``rounds`` with arrays the kernels can take, or ``ValueError`` naming what is off."""
    context_ids = np.asarray(rounds.context_ids)
    play_counts = rounds.play_counts
    if not isinstance(play_counts, np.ndarray) or play_counts.dtype != np.int64:
        raise ValueError("CounterPlayRounds.play_counts must be an int64 array (updated in place)")
    if play_counts.ndim != 2 or play_counts.shape[1] != n_arms:
        raise ValueError(
            f"play_counts must have shape (n_contexts, {n_arms}); got {play_counts.shape}"
        )
    if context_ids.shape != (n_rounds,) or rounds.winners.shape != (n_rounds,):
        raise ValueError(
            f"context_ids and winners must have shape ({n_rounds},); got "
            f"{context_ids.shape} and {rounds.winners.shape}"
        )
    if rounds.winners.dtype != np.int64:
        raise ValueError("CounterPlayRounds.winners must be an int64 array (filled in place)")
    if n_rounds and not 0 <= context_ids.min() <= context_ids.max() < play_counts.shape[0]:
        raise ValueError(f"context_ids must lie in 0..{play_counts.shape[0] - 1}")
    if not 0.0 < rounds.margin <= 1.0:
        raise ValueError(f"margin must be in (0, 1]; got {rounds.margin}")
    return CounterPlayRounds(
        np.ascontiguousarray(context_ids, dtype=np.int64),
        play_counts,
        rounds.winners,
        float(rounds.margin),
    )


def check_positive(
    name: str, value: float, *, above: float = 0.0, inclusive: bool = False
) -> float:
    """``value`` as a float if it is a finite number ``> above`` (``>=`` if ``inclusive``).

    Raises ``TypeError`` or ``ValueError`` naming the hyper-parameter otherwise.
    """
    if isinstance(value, bool) or not isinstance(value, int | float | np.floating | np.integer):
        raise TypeError(f"{name} must be a number; got {value!r}")
    if not math.isfinite(value) or value < above or (value == above and not inclusive):
        relation = ">=" if inclusive else ">"
        raise ValueError(f"{name} must be a finite number {relation} {above:g}; got {value!r}")
    return float(value)


def check_integer(name: str, value: int, *, minimum: int) -> int:
    """``value`` if it is an integer ``>= minimum``; ``ValueError`` naming it otherwise."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}; got {value!r}")
    return int(value)


# ---------------------------------------------------------------------------------------
# The same rules, compiled, for the kernels.


@numba.njit(cache=True)
def pick_compiled(rng: np.random.Generator, n: int) -> int:
    """:func:`pick` in numba."""
    if n <= 1:
        return 0
    return min(int(rng.random() * n), n - 1)


@numba.njit(cache=True)
def coin_compiled(rng: np.random.Generator, probability: float) -> bool:
    """:func:`coin` in numba."""
    return rng.random() < probability


@numba.njit(cache=True)
def draw_arm_compiled(probabilities: NDArray[np.float64], uniform: float) -> int:
    """:func:`draw_arm` in numba (same cumulative sums, same comparison)."""
    cumulative = 0.0
    last = probabilities.size - 1
    for arm in range(last):
        cumulative += probabilities[arm]
        if uniform < cumulative:
            return arm
    return last


def round_win_probability(
    environment: NDArray[np.float64] | CounterPlayRounds, step: int, a: int, b: int
) -> float:
    """``Pr(a beats b)`` in round ``step`` of ``environment`` (a matrix ``Q`` or the adaptive
    adversary's rounds, which also count the duel); numba kernels only."""
    raise TypeError("round_win_probability is called from numba kernels only")


@overload(round_win_probability)
def _round_win_probability_overload(environment, step, a, b):
    if isinstance(environment, types.Array):
        return lambda environment, step, a, b: environment[a, b]
    if isinstance(environment, types.BaseNamedTuple) and issubclass(
        environment.instance_class, CounterPlayRounds
    ):

        def counter_play(environment, step, a, b):
            context = environment.context_ids[step]
            counts = environment.play_counts[context]
            winner = (np.argmax(counts) + 1) % counts.size
            environment.winners[step] = winner
            counts[a] += 1
            counts[b] += 1
            skew = 0.0
            if a == winner and b != winner:
                skew = environment.margin
            elif b == winner and a != winner:
                skew = -environment.margin
            return (1.0 + skew) / 2.0

        return counter_play
    return None


def scheduled_win_probability(
    win: NDArray[np.float64] | CounterPlayRounds, context: int, step: int, a: int, b: int
) -> float:
    """``Pr(a beats b)`` in round ``step``, shown ``context``, of a contextual schedule.

    ``win`` is either the contexts' probability-form matrices (shape ``(n_contexts, K, K)``,
    read at ``win[context, a, b]``) or the adaptive adversary's rounds (their
    :func:`round_win_probability`, which also counts the duel; ``context`` is then
    ``win.context_ids[step]``). Numba kernels only.
    """
    raise TypeError("scheduled_win_probability is called from numba kernels only")


@overload(scheduled_win_probability)
def _scheduled_win_probability_overload(win, context, step, a, b):
    if isinstance(win, types.Array) and win.ndim == 3:
        return lambda win, context, step, a, b: win[context, a, b]
    if isinstance(win, types.BaseNamedTuple) and issubclass(win.instance_class, CounterPlayRounds):
        return lambda win, context, step, a, b: round_win_probability(win, step, a, b)
    return None


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
