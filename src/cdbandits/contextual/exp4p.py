"""Exp4.P (Beygelzimer et al., 2011) and SparringEXP4.P (Section 5 of the paper).

**Exp4.P** over ``N`` experts and ``K`` actions, horizon ``T``, confidence ``delta``
(Section 5 and Appendix C of the paper): ``p_min = sqrt(ln N / (K T))``; all weights start
at 1; each round

* ``p_j = (1 - K p_min) sum_i w_i xi_i(j) / sum_i w_i + p_min``, draw ``j ~ p``;
* with reward ``r in [0, 1]``: ``rhat_j = r 1[j drawn] / p_j``, ``yhat_i = xi_i . rhat``,
  ``vhat_i = sum_j xi_i(j) / p_j``;
* ``w_i <- w_i exp((p_min / 2) (yhat_i + vhat_i sqrt(ln(N / delta) / (K T))))``.

Experts are the policies of an :class:`~cdbandits.contextual.oracle.ActionTable` (advice
``xi_i`` = the indicator of ``pi_i(x_t)``) plus, by default, one expert that plays uniformly
at random: Theorem 2 of Beygelzimer et al. (``G_Exp4.P >= G_max - 6 sqrt(K T ln(N / delta))``
for rewards in ``[0, 1]``, hence the paper's ``12 sqrt(...)`` for ``[-1, 1]``) assumes the
experts include it, and ``N`` then counts it. Requires ``K ln N <= T`` (so ``K p_min <= 1``).

*Log space.* The state is the vector of log-weights, updated additively. The probabilities
need the weights themselves: a copy ``exp(log_w - shift)`` is updated multiplicatively by
the same ``K`` per-round factors and recomputed from the log-weights (with ``shift`` the
current maximum) whenever the summed largest increments since the last recomputation
exceed 500 nats, far below overflow; underflowed weights are below ``e^-700`` of the largest.

**SparringEXP4.P**: two independent Exp4.P copies over the same policies; the row copy
plays ``a_t`` and receives ``(r_t + 1) / 2``, the column copy plays ``b_t`` and receives
``(1 - r_t) / 2``. Each copy runs with confidence ``delta / 4``, as in the proof of Theorem
sparring-exp4 (Appendix C), so that the bound of :mod:`cdbandits.contextual.bounds` holds
with probability ``1 - delta``. Time and memory are ``O(|Pi|)`` per round.

The online-to-batch output (Section 5) is the average over rounds of the row copy's
distribution over experts, ``Wbar = (1/m) sum_i w_i / sum(w_i)``
(:meth:`Exp4P.mean_expert_distribution`); its uniform-expert component, when present,
plays uniformly at random.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numba
import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..dueling.counter_play import CounterPlayRounds, scheduled_win_probability
from .duels import DuelingAlgorithm, DuelLog, draw_action, schedule_log
from .environments import ContextPopulation, DuelingEnvironment
from .oracle import ActionTable

__all__ = ["Exp4P", "Exp4PParameters", "SparringExp4P"]

#: Recompute the weights from the log-weights once the largest increments since the last
#: recomputation sum to this many nats: the largest weight is 1 after a recomputation and
#: at most e^500 before the next, far from float64 overflow (e^709) even summed over 1e6.
_RESCALE_GROWTH = 500.0


class Exp4PParameters(NamedTuple):
    """The constants of an Exp4.P run, as the kernels take them (see :class:`Exp4P`)."""

    uniform_expert: bool
    p_min: float
    confidence: float


@numba.njit(cache=True)
def _finish_probabilities(
    mass: NDArray[np.float64],
    uniform_weight: float,
    p_min: float,
    probabilities: NDArray[np.float64],
) -> float:
    """Turn the advised mass per action into ``p`` (in place); return the weights' sum."""
    n_actions = probabilities.size
    share = uniform_weight / n_actions
    total = 0.0
    for a in range(n_actions):
        mass[a] += share
        total += mass[a]
    explore = 1.0 - n_actions * p_min
    for a in range(n_actions):
        probabilities[a] = explore * mass[a] / total + p_min
    return total


@numba.njit(cache=True)
def _exp4p_probabilities(
    weights: NDArray[np.float64],
    advice: NDArray[np.uint8],
    uniform_expert: bool,
    p_min: float,
    mass: NDArray[np.float64],
    probabilities: NDArray[np.float64],
) -> float:
    """Fill ``probabilities`` (K,) for this round's ``advice``; return the weights' sum.

    ``mass`` (K,) is scratch space (overwritten).
    """
    mass[:] = 0.0
    n_policies = advice.size
    for i in range(n_policies):
        mass[advice[i]] += weights[i]
    uniform_weight = weights[n_policies] if uniform_expert else 0.0
    return _finish_probabilities(mass, uniform_weight, p_min, probabilities)


@numba.njit(cache=True)
def _sparring_probabilities(
    row_weights: NDArray[np.float64],
    column_weights: NDArray[np.float64],
    advice: NDArray[np.uint8],
    uniform_expert: bool,
    p_min: float,
    row_mass: NDArray[np.float64],
    column_mass: NDArray[np.float64],
    row_probabilities: NDArray[np.float64],
    column_probabilities: NDArray[np.float64],
) -> tuple[float, float]:
    """:func:`_exp4p_probabilities` for both copies in one pass over the advice.

    Each copy's mass is summed in the same order as the single-copy function, so the
    results are bit-identical to two separate calls.
    """
    row_mass[:] = 0.0
    column_mass[:] = 0.0
    n_policies = advice.size
    for i in range(n_policies):
        a = advice[i]
        row_mass[a] += row_weights[i]
        column_mass[a] += column_weights[i]
    row_uniform = row_weights[n_policies] if uniform_expert else 0.0
    column_uniform = column_weights[n_policies] if uniform_expert else 0.0
    return (
        _finish_probabilities(row_mass, row_uniform, p_min, row_probabilities),
        _finish_probabilities(column_mass, column_uniform, p_min, column_probabilities),
    )


@numba.njit(cache=True)
def _action_increments(
    probabilities: NDArray[np.float64],
    action: int,
    reward: float,
    p_min: float,
    confidence: float,
    increments: NDArray[np.float64],
    factors: NDArray[np.float64],
) -> float:
    """Fill the log-weight increment of a policy advising each action, and its exponential.

    ``(p_min / 2) (rhat_a + confidence / p_a)`` in ``increments`` (K,) and its ``exp`` in
    ``factors`` (K,); return the largest increment (at least 0).
    """
    largest = 0.0
    for a in range(probabilities.size):
        estimate = reward / probabilities[a] if a == action else 0.0
        increments[a] = 0.5 * p_min * (estimate + confidence / probabilities[a])
        factors[a] = math.exp(increments[a])
        largest = max(largest, increments[a])
    return largest


@numba.njit(cache=True)
def _uniform_expert_update(
    log_weights: NDArray[np.float64],
    weights: NDArray[np.float64],
    probabilities: NDArray[np.float64],
    action: int,
    reward: float,
    p_min: float,
    confidence: float,
    largest: float,
) -> float:
    """Update the uniform expert (last); return ``max(largest, its increment)``."""
    n_actions = probabilities.size
    variance = 0.0
    for a in range(n_actions):
        variance += 1.0 / (n_actions * probabilities[a])
    estimate = reward / (n_actions * probabilities[action])
    increment = 0.5 * p_min * (estimate + confidence * variance)
    log_weights[-1] += increment
    weights[-1] *= math.exp(increment)
    return max(largest, increment)


@numba.njit(cache=True)
def _rescaled(
    log_weights: NDArray[np.float64], weights: NDArray[np.float64], growth: float
) -> float:
    """Recompute ``weights`` from ``log_weights`` once ``growth`` passed the limit.

    Returns the growth after it (0 if recomputed).
    """
    if growth > _RESCALE_GROWTH:
        shift = log_weights.max()
        for i in range(log_weights.size):
            weights[i] = math.exp(log_weights[i] - shift)
        return 0.0
    return growth


@numba.njit(cache=True)
def _exp4p_update(
    state: tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]],
    advice: NDArray[np.uint8],
    parameters: Exp4PParameters,
    probabilities: NDArray[np.float64],
    total: float,
    action: int,
    reward: float,
    growth: float,
    track_distribution: bool,
    increments: NDArray[np.float64],
    factors: NDArray[np.float64],
) -> float:
    """One Exp4.P update of ``state`` (log-weights, weights, distribution sums; in place);
    return the new growth.

    With ``track_distribution``, first ``distribution_sums += weights / total`` (with the
    weights before the update). ``increments`` and ``factors`` (K,) are scratch space.
    """
    log_weights, weights, distribution_sums = state
    uniform_expert, p_min, confidence = parameters
    largest = _action_increments(
        probabilities, action, reward, p_min, confidence, increments, factors
    )
    n_policies = advice.size
    if track_distribution:
        inverse_total = 1.0 / total
        for i in range(n_policies):
            distribution_sums[i] += weights[i] * inverse_total
            a = advice[i]
            log_weights[i] += increments[a]
            weights[i] *= factors[a]
        if uniform_expert:
            distribution_sums[n_policies] += weights[n_policies] * inverse_total
    else:
        for i in range(n_policies):
            a = advice[i]
            log_weights[i] += increments[a]
            weights[i] *= factors[a]
    if uniform_expert:
        largest = _uniform_expert_update(
            log_weights, weights, probabilities, action, reward, p_min, confidence, largest
        )
    return _rescaled(log_weights, weights, growth + largest)


class Exp4P:
    """Exp4.P with deterministic experts given as advice vectors; see the module docstring.

    Parameters
    ----------
    n_actions : int
        ``K``.
    n_policies : int
        Number of deterministic experts (policies); advice vectors have this length.
    horizon : int
        ``T``, used by ``p_min`` and the confidence term.
    delta : float, optional
        Confidence parameter in ``(0, 1)``.
    uniform_expert : bool, optional
        Add the uniformly random expert (the condition of Beygelzimer et al.'s Theorem 2).
    track_distribution : bool, optional
        Accumulate the average distribution over experts (:meth:`mean_expert_distribution`);
        costs one more pass over the experts per round.

    Attributes
    ----------
    n_experts_ : int
        ``N = n_policies + uniform_expert``.
    p_min_ : float
        ``sqrt(ln N / (K T))``.
    confidence_ : float
        ``sqrt(ln(N / delta) / (K T))``.
    log_weights_ : ndarray of float64, shape (n_experts_,)
        Log-weights; the uniform expert, if any, is last.
    distribution_sums_ : ndarray of float64, shape (n_experts_,)
        Sum over past rounds of the normalised weights (zeros unless ``track_distribution``).
    n_rounds_ : int
        Rounds played.
    """

    def __init__(
        self,
        n_actions: int,
        n_policies: int,
        horizon: int,
        delta: float = 0.05,
        uniform_expert: bool = True,
        track_distribution: bool = True,
    ) -> None:
        self.n_actions = n_actions
        self.n_policies = n_policies
        self.horizon = horizon
        self.delta = delta
        self.uniform_expert = uniform_expert
        self.track_distribution = track_distribution
        self.start()

    def start(self) -> Exp4P:
        """Validate the parameters and reset the weights to 1; return ``self``."""
        if self.n_actions < 2 or self.n_policies < 1 or self.horizon < 1:
            raise ValueError(
                "need n_actions >= 2, n_policies >= 1 and horizon >= 1; got "
                f"{self.n_actions}, {self.n_policies}, {self.horizon}"
            )
        if not 0.0 < self.delta < 1.0:
            raise ValueError(f"delta must be in (0, 1); got {self.delta}")
        self.n_experts_ = self.n_policies + int(self.uniform_expert)
        if self.n_experts_ < 2:
            raise ValueError("Exp4.P needs at least 2 experts (ln N > 0)")
        log_experts = math.log(self.n_experts_)
        if self.n_actions * log_experts > self.horizon:
            raise ValueError(
                f"Exp4.P needs K ln N <= T (so that K p_min <= 1); got K = {self.n_actions}, "
                f"N = {self.n_experts_}, T = {self.horizon}"
            )
        self.p_min_ = math.sqrt(log_experts / (self.n_actions * self.horizon))
        self.confidence_ = math.sqrt(
            math.log(self.n_experts_ / self.delta) / (self.n_actions * self.horizon)
        )
        self.log_weights_ = np.zeros(self.n_experts_)
        self._weights = np.ones(self.n_experts_)
        self._growth = 0.0
        self.distribution_sums_ = np.zeros(self.n_experts_)
        self.n_rounds_ = 0
        self._probabilities = np.empty(self.n_actions)
        self._scratch = np.empty((3, self.n_actions))  # mass, increments, factors
        self._pending: tuple[NDArray[np.uint8], float, int] | None = None
        return self

    def _checked_advice(self, advice: ArrayLike) -> NDArray[np.uint8]:
        array = np.asarray(advice)
        if array.dtype != np.uint8 or array.shape != (self.n_policies,):
            raise ValueError(
                f"advice must be a uint8 vector of {self.n_policies} actions; got dtype "
                f"{array.dtype}, shape {array.shape}"
            )
        return np.ascontiguousarray(array)

    def action_probabilities(self, advice: ArrayLike) -> NDArray[np.float64]:
        """This round's ``p`` (K,) given each policy's advised action."""
        probabilities = np.empty(self.n_actions)
        _exp4p_probabilities(
            self._weights,
            self._checked_advice(advice),
            self.uniform_expert,
            self.p_min_,
            self._scratch[0],
            probabilities,
        )
        return probabilities

    def choose(self, advice: ArrayLike, uniform: float) -> int:
        """Draw this round's action by inverse CDF at ``uniform`` in ``[0, 1)``."""
        advice = self._checked_advice(advice)
        total = _exp4p_probabilities(
            self._weights,
            advice,
            self.uniform_expert,
            self.p_min_,
            self._scratch[0],
            self._probabilities,
        )
        action = draw_action(self._probabilities, uniform)
        self._pending = (advice, total, action)
        return action

    def update(self, reward: float) -> None:
        """Feed the reward in ``[0, 1]`` of the action drawn by the last :meth:`choose`."""
        if self._pending is None:
            raise RuntimeError("update() needs a preceding choose()")
        if not 0.0 <= reward <= 1.0:
            raise ValueError(f"Exp4.P rewards must lie in [0, 1]; got {reward}")
        advice, total, action = self._pending
        self._growth = _exp4p_update(
            (self.log_weights_, self._weights, self.distribution_sums_), advice,
            self._parameters(), self._probabilities, total, action, reward, self._growth,
            self.track_distribution, self._scratch[1], self._scratch[2],
        )  # fmt: skip
        self._pending = None
        self.n_rounds_ += 1

    def _parameters(self) -> Exp4PParameters:
        return Exp4PParameters(self.uniform_expert, self.p_min_, self.confidence_)

    def expert_distribution(self) -> NDArray[np.float64]:
        """Current normalised weights over the experts (uniform expert last)."""
        shifted = np.exp(self.log_weights_ - self.log_weights_.max())
        return shifted / shifted.sum()

    def mean_expert_distribution(self) -> NDArray[np.float64]:
        """Average over the rounds played of the distribution over experts (``Wbar``)."""
        if not self.track_distribution:
            raise RuntimeError("this Exp4P was created with track_distribution=False")
        if self.n_rounds_ == 0:
            raise RuntimeError("no round played yet")
        return self.distribution_sums_ / self.n_rounds_


@numba.njit(cache=True)
def _sparring_exp4p_episode(
    actions: NDArray[np.uint8],
    n_actions: int,
    win: NDArray[np.float64] | CounterPlayRounds,
    context_ids: NDArray[np.int64],
    duel_uniforms: NDArray[np.float64],
    row_uniforms: NDArray[np.float64],
    column_uniforms: NDArray[np.float64],
    parameters: Exp4PParameters,
    row_state: tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]],
    column_state: tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]],
    growths: NDArray[np.float64],
    outcomes: NDArray[np.int8],
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Both copies over a drawn schedule (``win``: probability-form matrices or the adaptive
    adversary's rounds); states (log_w, w, sums), growths and outcomes in place."""
    uniform_expert, p_min, confidence = parameters
    horizon = context_ids.size
    n_policies = actions.shape[1]
    first = np.empty(horizon, dtype=np.int64)
    second = np.empty(horizon, dtype=np.int64)
    row_probabilities = np.empty(n_actions)
    column_probabilities = np.empty(n_actions)
    # Scratch space of the per-round functions, allocated once: masses, increments, factors.
    row_mass, row_increments, row_factors = np.empty((3, n_actions))
    column_mass, column_increments, column_factors = np.empty((3, n_actions))
    row_log, row_weights, row_sums = row_state
    column_log, column_weights, column_sums = column_state
    for t in range(horizon):
        context = context_ids[t]
        advice = actions[context]
        row_total, column_total = _sparring_probabilities(
            row_weights,
            column_weights,
            advice,
            uniform_expert,
            p_min,
            row_mass,
            column_mass,
            row_probabilities,
            column_probabilities,
        )
        a = draw_action(row_probabilities, row_uniforms[t])
        b = draw_action(column_probabilities, column_uniforms[t])
        won = duel_uniforms[t] < scheduled_win_probability(win, context, t, a, b)
        outcome = 1.0 if won else -1.0
        outcomes[t] = 1 if won else -1
        row_reward, column_reward = (1.0 + outcome) / 2.0, (1.0 - outcome) / 2.0
        # _exp4p_update for both copies (the row one tracking its distribution), in one pass.
        row_largest = _action_increments(
            row_probabilities, a, row_reward, p_min, confidence, row_increments, row_factors
        )
        column_largest = _action_increments(
            column_probabilities,
            b,
            column_reward,
            p_min,
            confidence,
            column_increments,
            column_factors,
        )
        inverse_total = 1.0 / row_total
        for i in range(n_policies):
            k = advice[i]
            row_sums[i] += row_weights[i] * inverse_total
            row_log[i] += row_increments[k]
            row_weights[i] *= row_factors[k]
            column_log[i] += column_increments[k]
            column_weights[i] *= column_factors[k]
        if uniform_expert:
            row_sums[n_policies] += row_weights[n_policies] * inverse_total
            row_largest = _uniform_expert_update(
                row_log, row_weights, row_probabilities, a, row_reward, p_min, confidence,
                row_largest,
            )  # fmt: skip
            column_largest = _uniform_expert_update(
                column_log, column_weights, column_probabilities, b, column_reward, p_min,
                confidence, column_largest,
            )  # fmt: skip
        growths[0] = _rescaled(row_log, row_weights, growths[0] + row_largest)
        growths[1] = _rescaled(column_log, column_weights, growths[1] + column_largest)
        first[t] = a
        second[t] = b
    return first, second


class SparringExp4P(DuelingAlgorithm):
    """SparringEXP4.P over a finite policy class given by its action table.

    Parameters
    ----------
    policies : ActionTable
        The class on the environment's contexts (row ``i`` = context ``i``).
    delta : float, optional
        Overall confidence of Theorem sparring-exp4; each Exp4.P copy gets ``delta / 4``.
    uniform_expert : bool, optional
        Give both copies the uniformly random expert (see :class:`Exp4P`).

    Attributes
    ----------
    row_, column_ : Exp4P
        The two copies after :meth:`run` (only the row copy tracks its average
        distribution, the online-to-batch output).
    """

    compiles_counter_play = True

    def __init__(
        self, policies: ActionTable, delta: float = 0.05, uniform_expert: bool = True
    ) -> None:
        self.policies = policies
        self.delta = delta
        self.uniform_expert = uniform_expert

    def _start(self, environment: DuelingEnvironment, horizon: int) -> None:
        if environment.n_contexts != self.policies.n_contexts:
            raise ValueError(
                f"the policy table covers {self.policies.n_contexts} contexts, the environment "
                f"has {environment.n_contexts}"
            )
        if environment.n_actions != self.policies.n_actions:
            raise ValueError(
                f"the policy table has {self.policies.n_actions} actions, the environment "
                f"{environment.n_actions}"
            )
        self.row_, self.column_ = (
            Exp4P(
                self.policies.n_actions,
                self.policies.n_policies,
                horizon,
                self.delta / 4.0,
                self.uniform_expert,
                track_distribution=is_row,
            )
            for is_row in (True, False)
        )

    def _choose(self, context: int, first_uniform: float, second_uniform: float) -> tuple[int, int]:
        advice = self.policies.actions[context]
        return self.row_.choose(advice, first_uniform), self.column_.choose(advice, second_uniform)

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
        win = (1.0 + population.matrices) / 2.0
        first, second, _ = self._play_schedule(
            win, context_ids, duel_uniforms, first_uniforms, second_uniforms
        )
        return schedule_log(population, context_ids, duel_uniforms, first, second)

    def _play_schedule(
        self,
        win: NDArray[np.float64] | CounterPlayRounds,
        context_ids: NDArray[np.int64],
        duel_uniforms: NDArray[np.float64],
        first_uniforms: NDArray[np.float64],
        second_uniforms: NDArray[np.float64],
    ) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int8]]:
        row, column = self.row_, self.column_
        growths = np.array([row._growth, column._growth])
        outcomes = np.empty(context_ids.size, dtype=np.int8)
        first, second = _sparring_exp4p_episode(
            self.policies.actions, self.policies.n_actions, win, context_ids, duel_uniforms,
            first_uniforms, second_uniforms, row._parameters(),
            (row.log_weights_, row._weights, row.distribution_sums_),
            (column.log_weights_, column._weights, column.distribution_sums_), growths, outcomes,
        )  # fmt: skip
        row._growth, column._growth = float(growths[0]), float(growths[1])
        row.n_rounds_ = column.n_rounds_ = context_ids.size
        return first, second, outcomes

    def mean_policy_distribution(self) -> tuple[NDArray[np.float64], float]:
        """The online-to-batch ``Wbar``: the row copy's average distribution.

        Returns
        -------
        policy_weights : ndarray of float64, shape (n_policies,)
            Weight of each policy.
        uniform_weight : float
            Weight of the uniformly random expert (0 without it); the two sum to 1.
        """
        distribution = self.row_.mean_expert_distribution()
        n = self.policies.n_policies
        uniform = float(distribution[n]) if self.uniform_expert else 0.0
        return distribution[:n], uniform
