"""The interface of the linear contextual dueling algorithms and the learning they share.

An algorithm is configured by its hyper-parameters (``__init__``, validated at once) and then
driven in rounds, as the K-armed algorithms of :mod:`cdbandits.karmed` are, except that every
round shows the features of the ``K`` arms of the round's context::

    algorithm = CoLSTIM()
    algorithm.start(n_arms=10, n_features=5, rng=np.random.default_rng(0), horizon=10_000)
    a, b = algorithm.select(arm_features)   # arm_features: (K, d), this round's context
    algorithm.update(a, b, outcome)         # outcome 1 if arm a won, 0 if arm b won

Learned state lives in attributes with a trailing underscore, set by :meth:`start`. Like the
K-armed algorithms, each has a readable NumPy round (:meth:`select` / :meth:`update`) and a
numba kernel that plays many rounds against a :class:`~cdbandits.linear_duels.environments.
LinearDuelingEnvironment` (:meth:`run_compiled`); both draw the same random numbers in the same
order (the rules of :mod:`cdbandits.dueling.draws`: ``pick`` for uniform choices; see each
algorithm for its other draws), so on the same seed they play the same duels. Their
floating-point state agrees to rounding (BLAS and loops sum in different orders); a duel could
only differ where two scores tie to the last bits, which the tests would show.

**Shared learning** (:class:`MaximumLikelihoodDueler`, both CoLSTIM and MaxInP):

1. *Exploration.* Rounds ``1 .. tau`` duel a uniformly random pair of distinct arms: ``a`` by
   ``pick(K)``, then ``b`` by ``pick(K - 1)`` over the other arms in increasing order.
2. *Data.* A duel adds ``z = x_a - x_b`` and ``y = +1`` (a won) or ``-1``; the design matrix
   ``W = lambda I + sum z z^T`` is kept as its inverse (:mod:`~cdbandits.linear_duels.estimation`).
   A self-duel (``a = b``, ``z = 0``) carries no information and is not stored.
3. *Estimate.* ``theta_hat`` is the regularised MLE of all stored duels
   (:func:`~cdbandits.linear_duels.estimation.fit_mle`), refitted after round ``t`` when
   ``t >= tau`` and either no fit has been made yet or ``t >= refit_growth * t_last``, where
   ``t_last`` is the round of the last fit. ``refit_growth = 1`` refits every round, as the
   papers' algorithm boxes do; the default ``1.1`` refits about ``log(T / tau) / log(1.1)``
   times, which is what makes ``T = 10^5`` affordable (a full refit costs ``O(t d^2)``).
   Between refits ``theta_hat`` is the last fit's (a "rarely switching" estimator, as in
   Abbasi-Yadkori, Pal and Szepesvari, NeurIPS 2011, Section 5).
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Any, NamedTuple

import numba
import numpy as np
from numba.core import types
from numba.extending import overload
from numpy.typing import NDArray

from ..dueling.algorithm import RoundAlgorithm
from ..dueling.checks import check_generator, check_integer, check_positive
from ..dueling.counter_play import (
    CounterPlayRounds,
    checked_counter_play_rounds,
    scheduled_win_probability,
)
from ..dueling.draws import pick, pick_compiled
from .environments import (
    EnvironmentArrays,
    ScheduleArrays,
    draw_context_compiled,
    duel_outcome_compiled,
)
from .estimation import add_to_inverse, add_to_inverse_compiled, fit_mle, fit_mle_compiled
from .links import Link, link_code

__all__ = [
    "LinearDuelingAlgorithm",
    "MaximumLikelihoodDueler",
    "MleLearning",
    "RunRecord",
    "exploration_pair",
    "exploration_pair_compiled",
    "learn_compiled",
    "mle_rounds",
    "next_context_compiled",
    "play_round_compiled",
    "select_pair",
]


class RunRecord(NamedTuple):
    """What a run keeps, filled in place by the kernels and the Python loop.

    ``best_utilities`` (n_contexts,) is read; ``arm_counts`` (n_contexts, K) counts each arm
    of each context once per duel it is in (twice for a self-duel); ``weak_regret`` (1,)
    accumulates ``max_i u_i - max(u_a, u_b)``; ``duels`` (n_rounds, 4) receives
    ``(context, a, b, outcome)`` when it has rows.
    """

    best_utilities: NDArray[np.float64]
    arm_counts: NDArray[np.int64]
    weak_regret: NDArray[np.float64]
    duels: NDArray[np.int64]


def exploration_pair(rng: np.random.Generator, n_arms: int) -> tuple[int, int]:
    """A uniformly random pair of distinct arms (rule 1 of the module docstring)."""
    a = pick(rng, n_arms)
    other = pick(rng, n_arms - 1)
    return a, other + (other >= a)


@numba.njit(cache=True)
def exploration_pair_compiled(rng: np.random.Generator, n_arms: int) -> tuple[int, int]:
    """:func:`exploration_pair` in numba."""
    a = pick_compiled(rng, n_arms)
    other = pick_compiled(rng, n_arms - 1)
    if other >= a:
        other += 1
    return a, other


def play_round_compiled(environment, environment_rng, context, a, b, record, step):
    """Draw the outcome of ``(a, b)`` in ``context`` and record the duel; return the outcome.

    Called from the kernels only (numba chooses the form of ``environment``):

    * :class:`~cdbandits.linear_duels.environments.EnvironmentArrays`: ``a`` wins iff the
      next uniform of ``environment_rng`` is below ``F(u_a - u_b)``; the weak regret grows by
      ``max_i u_i - max(u_a, u_b)``;
    * :class:`~cdbandits.linear_duels.environments.ScheduleArrays`: ``a`` wins iff
      ``duel_uniforms[step]`` is below the round's
      :func:`~cdbandits.dueling.counter_play.scheduled_win_probability` (``win[context, a, b]``, or
      the adaptive adversary's rule; ``environment_rng`` is not used).
    """
    raise TypeError("play_round_compiled is called from numba kernels only")


@overload(play_round_compiled)
def _play_round_overload(environment, environment_rng, context, a, b, record, step):
    if _is_schedule(environment):

        def play_scheduled(environment, environment_rng, context, a, b, record, step):
            probability = scheduled_win_probability(environment.win, context, step, a, b)
            won = environment.duel_uniforms[step] < probability
            outcome = 1 if won else 0
            _record_duel(record, context, a, b, outcome, step)
            return outcome

        return play_scheduled

    def play_linear(environment, environment_rng, context, a, b, record, step):
        utilities = environment.utilities[context]
        uniform = environment_rng.random()
        outcome = duel_outcome_compiled(environment.link, utilities, a, b, uniform)
        record.weak_regret[0] += record.best_utilities[context] - max(utilities[a], utilities[b])
        _record_duel(record, context, a, b, outcome, step)
        return outcome

    return play_linear


@numba.njit(cache=True)
def _record_duel(record: RunRecord, context: int, a: int, b: int, outcome: int, step: int):
    record.arm_counts[context, a] += 1
    record.arm_counts[context, b] += 1
    if record.duels.shape[0] > 0:
        record.duels[step, 0] = context
        record.duels[step, 1] = a
        record.duels[step, 2] = b
        record.duels[step, 3] = outcome


def next_context_compiled(environment, environment_rng, step):
    """The context of round ``step`` (0-based) of a kernel call; from the kernels only.

    One uniform of ``environment_rng`` for
    :class:`~cdbandits.linear_duels.environments.EnvironmentArrays`, ``context_ids[step]``
    for :class:`~cdbandits.linear_duels.environments.ScheduleArrays`.
    """
    raise TypeError("next_context_compiled is called from numba kernels only")


@overload(next_context_compiled)
def _next_context_overload(environment, environment_rng, step):
    if _is_schedule(environment):
        return lambda environment, environment_rng, step: environment.context_ids[step]
    return lambda environment, environment_rng, step: draw_context_compiled(
        environment.cumulative, environment_rng.random()
    )


def _is_schedule(environment_type: types.Type) -> bool:
    """Whether numba's type of a kernel's ``environment`` is :class:`ScheduleArrays`."""
    return getattr(environment_type, "instance_class", None) is ScheduleArrays


def _checked_schedule(
    schedule: ScheduleArrays, environment_rng: np.random.Generator | None, n_rounds: int
) -> ScheduleArrays:
    """``schedule`` with arrays the kernels can take, or ``ValueError`` naming what is off."""
    n_contexts, n_arms = schedule.features.shape[:2]
    win = schedule.win
    if isinstance(win, CounterPlayRounds):
        win = checked_counter_play_rounds(win, n_arms, n_rounds)
        if win.play_counts.shape[0] != n_contexts or not np.array_equal(
            win.context_ids, schedule.context_ids
        ):
            raise ValueError(
                f"the adversary's rounds must count plays in the {n_contexts} contexts and show "
                "the schedule's context ids"
            )
    elif win.shape != (n_contexts, n_arms, n_arms):
        raise ValueError(f"win must have shape {(n_contexts, n_arms, n_arms)}; got {win.shape}")
    if schedule.context_ids.shape != (n_rounds,) or schedule.duel_uniforms.shape != (n_rounds,):
        raise ValueError(
            f"the schedule must hold the contexts and duel uniforms of the {n_rounds} rounds; "
            f"got {schedule.context_ids.shape} and {schedule.duel_uniforms.shape}"
        )
    if (
        n_rounds > 0
        and not 0 <= schedule.context_ids.min() <= schedule.context_ids.max() < n_contexts
    ):
        raise ValueError(f"the schedule's context ids must lie in [0, {n_contexts})")
    if environment_rng is not None:
        raise ValueError("a schedule draws nothing: pass environment_rng=None")
    return schedule._replace(win=win)


class LinearDuelingAlgorithm(RoundAlgorithm):
    """Base of the contextual dueling algorithms over arm features; see the module docstring.

    Attributes
    ----------
    n_arms_ : int
        Arms per context ``K``.
    n_features_ : int
        Feature dimension ``d``.
    horizon_ : int
        The horizon given to :meth:`start`.
    round_ : int
        Duels completed so far.
    rng_ : numpy.random.Generator
        The algorithm's source of randomness.
    """

    def start(
        self, n_arms: int, n_features: int, rng: np.random.Generator, horizon: int
    ) -> LinearDuelingAlgorithm:
        """Forget everything learned and prepare a run; return ``self``.

        Parameters
        ----------
        n_arms : int
            Arms per context, ``K >= 2``.
        n_features : int
            Feature dimension ``d >= 1``.
        rng : numpy.random.Generator
            The only source of the algorithm's randomness.
        horizon : int
            Number of rounds the run will last (sizes the stored history, tunes widths).
        """
        self.n_arms_ = check_integer("n_arms", n_arms, minimum=2)
        self.n_features_ = check_integer("n_features", n_features, minimum=1)
        self.horizon_ = check_integer("horizon", horizon, minimum=1)
        self._restart(check_generator(rng))
        return self

    def select(self, arm_features: NDArray[np.float64]) -> tuple[int, int]:
        """The pair ``(a, b)`` to duel among this round's arms (NumPy implementation).

        Parameters
        ----------
        arm_features : ndarray, shape (K, d)
            The features of the arms of this round's context.
        """
        self._check_selectable()
        features = np.asarray(arm_features, dtype=np.float64)
        if features.shape != (self.n_arms_, self.n_features_) or not np.isfinite(features).all():
            raise ValueError(
                f"arm_features must be a finite ({self.n_arms_}, {self.n_features_}) array; "
                f"got shape {features.shape}"
            )
        return self._select_round(features)

    def run_compiled(
        self,
        environment: EnvironmentArrays | ScheduleArrays,
        environment_rng: np.random.Generator | None,
        n_rounds: int,
        record: RunRecord,
    ) -> None:
        """Play ``n_rounds`` rounds in the numba kernel, continuing from the current state.

        In :class:`~cdbandits.linear_duels.environments.EnvironmentArrays` each round draws
        the context with one uniform of ``environment_rng`` and the outcome with another, as
        :func:`~cdbandits.linear_duels.simulation.simulate` does on its Python path. A
        :class:`~cdbandits.linear_duels.environments.ScheduleArrays` holds the contexts and
        duel uniforms of exactly these ``n_rounds`` rounds (``environment_rng`` is then
        None), and its ``win`` the contexts' matrices or the adaptive adversary's rounds.
        """
        self._check_between_rounds()
        shape = environment.features.shape
        if shape[1:] != (self.n_arms_, self.n_features_):
            raise ValueError(
                f"the environment has {shape[1]} arms of {shape[2]} features; the algorithm "
                f"was started with {self.n_arms_} and {self.n_features_}"
            )
        if isinstance(environment, ScheduleArrays):
            environment = _checked_schedule(environment, environment_rng, n_rounds)
        if self.round_ + n_rounds > self.horizon_:
            raise ValueError(f"{n_rounds} more rounds would pass the horizon {self.horizon_}")
        self._play_compiled(n_rounds, environment, environment_rng, record)

    @abstractmethod
    def _select(self, t: int, features: NDArray[np.float64]) -> tuple[int, int]:
        """The pair of round ``t`` (1-based), NumPy implementation."""

    @abstractmethod
    def _update(self, t: int, features: NDArray[np.float64], a: int, b: int, outcome: int) -> None:
        """Learn from round ``t``'s duel, NumPy implementation."""


class MaximumLikelihoodDueler(LinearDuelingAlgorithm):
    """Exploration, data and the refitted MLE shared by CoLSTIM and MaxInP (module docstring).

    Parameters
    ----------
    exploration_rounds : int or None
        ``tau``; ``None`` means ``d K`` (decided at :meth:`start`).
    l2 : float
        ``lambda > 0``, the ridge of the MLE and of ``W``.
    refit_growth : float
        ``>= 1``; see the module docstring.
    link : {"logistic", "probit"}
        The link the algorithm assumes.

    Attributes
    ----------
    theta_ : ndarray, shape (d,)
        ``theta_hat``.
    gram_inverse_ : ndarray, shape (d, d)
        ``W^{-1}``.
    differences_ : ndarray, shape (horizon, d)
        Stored ``z`` (the first ``n_observations_`` rows are valid).
    signs_ : ndarray, shape (horizon,)
        Stored ``y``.
    n_observations_ : int
    last_fit_ : int
        Round of the last refit (0: none yet).
    tau_ : int
        The exploration length of this run.
    """

    def __init__(
        self,
        exploration_rounds: int | None,
        l2: float,
        refit_growth: float,
        link: Link,
    ) -> None:
        self.exploration_rounds = (
            None
            if exploration_rounds is None
            else check_integer("exploration_rounds", exploration_rounds, minimum=0)
        )
        self.l2 = check_positive("l2", l2)
        self.refit_growth = check_positive("refit_growth", refit_growth, above=1.0, inclusive=True)
        link_code(link)
        self.link = link

    def _start(self) -> None:
        d = self.n_features_
        self.tau_ = d * self.n_arms_ if self.exploration_rounds is None else self.exploration_rounds
        self.theta_ = np.zeros(d)
        self.gram_inverse_ = np.eye(d) / self.l2
        self.differences_ = np.zeros((self.horizon_, d))
        self.signs_ = np.zeros(self.horizon_)
        self.n_observations_ = 0
        self.last_fit_ = 0

    def _update(self, t: int, features: NDArray[np.float64], a: int, b: int, outcome: int) -> None:
        if a != b:
            z = features[a] - features[b]
            self.differences_[self.n_observations_] = z
            self.signs_[self.n_observations_] = 1.0 if outcome == 1 else -1.0
            self.n_observations_ += 1
            add_to_inverse(self.gram_inverse_, z)
        if t >= self.tau_ and (self.last_fit_ == 0 or t >= self.refit_growth * self.last_fit_):
            n = self.n_observations_
            self.theta_ = fit_mle(
                self.link, self.differences_[:n], self.signs_[:n], self.l2, self.theta_
            )
            self.last_fit_ = t

    def _kernel_state(self) -> tuple[Any, ...]:
        return (
            MleLearning(
                self.theta_,
                self.gram_inverse_,
                self.differences_,
                self.signs_,
                link_code(self.link),
                self.l2,
                self.refit_growth,
                self.tau_,
            ),
            self.n_observations_,
            self.last_fit_,
            self._selection(),
        )

    @staticmethod
    def _kernel(*arguments):
        return mle_rounds(*arguments)

    @abstractmethod
    def _selection(self) -> tuple[Any, ...]:
        """The algorithm's own state and hyper-parameters for :func:`select_pair`."""

    def _kernel_result(self, result: tuple[int, int]) -> None:
        self.n_observations_, self.last_fit_ = (int(value) for value in result)


class MleLearning(NamedTuple):
    """The shared learning of :class:`MaximumLikelihoodDueler` as the kernels take it.

    ``theta`` (d,), ``gram_inverse`` (d, d), ``differences`` (horizon, d) and ``signs``
    (horizon,) are updated in place; ``code`` is the link's
    :func:`~cdbandits.linear_duels.links.link_code`, ``l2`` the ridge, ``refit_growth`` the
    refit schedule and ``tau`` the exploration length.
    """

    theta: NDArray[np.float64]
    gram_inverse: NDArray[np.float64]
    differences: NDArray[np.float64]
    signs: NDArray[np.float64]
    code: int
    l2: float
    refit_growth: float
    tau: int


@numba.njit(cache=True)
def learn_compiled(learning, n_observations, last_fit, t, features, a, b, outcome, scratch):
    """:meth:`MaximumLikelihoodDueler._update` in numba; returns the new
    ``(n_observations, last_fit)``."""
    differences, signs = learning.differences, learning.signs
    if a != b:
        for j in range(features.shape[1]):
            differences[n_observations, j] = features[a, j] - features[b, j]
        signs[n_observations] = 1.0 if outcome == 1 else -1.0
        add_to_inverse_compiled(learning.gram_inverse, differences[n_observations], scratch)
        n_observations += 1
    if t >= learning.tau and (last_fit == 0 or t >= learning.refit_growth * last_fit):
        fit_mle_compiled(
            learning.code, differences, signs, n_observations, learning.l2, learning.theta
        )
        last_fit = t
    return n_observations, last_fit


def select_pair(selection, t, rng, features, learning, projected, gram, utilities):
    """The exploiting pair of round ``t`` of a :class:`MaximumLikelihoodDueler`; kernels only.

    Each algorithm registers its rule with ``numba.extending.overload`` for the type of its
    ``selection`` (what :meth:`MaximumLikelihoodDueler._selection` returns), so
    :func:`mle_rounds` compiles one loop per algorithm around its rule. ``features`` (K, d)
    are the round's arms; ``projected`` (K, d), ``gram`` (K, K) and ``utilities`` (K,) are
    scratch space.
    """
    raise TypeError("select_pair is called from numba kernels only")


@numba.njit(cache=True)
def mle_rounds(
    learning, n_observations, last_fit, selection, start_round, n_rounds, rng, environment,
    environment_rng, record,
):  # fmt: skip
    """The rounds of a :class:`MaximumLikelihoodDueler`: exploration pairs up to ``tau``,
    then the algorithm's :func:`select_pair`, the duel, and the shared learning. Returns the
    new ``(n_observations, last_fit)``."""
    k, d = environment.features.shape[1], environment.features.shape[2]
    projected = np.empty((k, d))
    gram = np.empty((k, k))
    utilities = np.empty(k)
    scratch = np.empty(d)
    for step in range(n_rounds):
        t = start_round + step + 1
        context = next_context_compiled(environment, environment_rng, step)
        features = environment.features[context]
        if t <= learning.tau:
            a, b = exploration_pair_compiled(rng, k)
        else:
            a, b = select_pair(selection, t, rng, features, learning, projected, gram, utilities)
        outcome = play_round_compiled(environment, environment_rng, context, a, b, record, step)
        n_observations, last_fit = learn_compiled(
            learning, n_observations, last_fit, t, features, a, b, outcome, scratch
        )
    return n_observations, last_fit
