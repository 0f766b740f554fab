"""Broken SparringEXP4.P implementations and a broken regret measurement (verification only).

Each class is :class:`~cdbandits.contextual.exp4p.SparringExp4P` with one bug, on the
compiled path: the library's episode kernel where the bug leaves the learner's updates
alone (no confidence term, an exploration rate of one half), otherwise
:func:`_broken_episode`, the library's round (its compiled building blocks, in its order)
with the bug of :data:`BUGS` switched on. Used by :mod:`.broken_variants` only.
"""

from __future__ import annotations

import numba
import numpy as np
from numpy.typing import ArrayLike, NDArray

from ...contextual.duels import DuelLog, draw_action
from ...contextual.environments import DuelingEnvironment
from ...contextual.exp4p import (
    SparringExp4P,
    _action_increments,
    _rescaled,
    _sparring_probabilities,
    _uniform_expert_update,
)
from ...contextual.oracle import ClassificationOracle

__all__ = [
    "BUGS",
    "BrokenSparring",
    "ExploringSparring",
    "SparringWithoutConfidence",
    "broken_sparring",
    "exploring_sparring",
    "fixed_arm_regret",
]

#: The bugs of :func:`_broken_episode`, by name.
BUGS = {
    "frozen_column": 1,  # the column copy is never updated
    "stale_context": 2,  # both copies read the advice of the previous round's context
    "no_importance_weight": 3,  # the drawn action's reward estimate is r, not r / p
    "flipped_outcome": 4,  # each copy is fed the other's reward
}


@numba.njit(cache=True)
def _broken_episode(
    actions: NDArray[np.uint8],
    n_actions: int,
    win: NDArray[np.float64],
    context_ids: NDArray[np.int64],
    uniforms: tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]],
    uniform_expert: bool,
    p_min: float,
    confidence: float,
    row_state: tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]],
    column_state: tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]],
    growths: NDArray[np.float64],
    bug: int,
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """SparringEXP4.P's episode on a population's win probabilities with one bug.

    ``uniforms`` holds the duels', the row copy's and the column copy's uniform draws.
    """
    duel_uniforms, row_uniforms, column_uniforms = uniforms
    horizon = context_ids.size
    n_policies = actions.shape[1]
    first = np.empty(horizon, dtype=np.int64)
    second = np.empty(horizon, dtype=np.int64)
    row_probabilities = np.empty(n_actions)
    column_probabilities = np.empty(n_actions)
    row_mass, row_increments, row_factors = np.empty((3, n_actions))
    column_mass, column_increments, column_factors = np.empty((3, n_actions))
    row_log, row_weights, row_sums = row_state
    column_log, column_weights, column_sums = column_state
    for t in range(horizon):
        context = context_ids[t]
        advice = actions[context_ids[t - 1] if bug == 2 and t > 0 else context]
        row_total, _ = _sparring_probabilities(
            row_weights, column_weights, advice, uniform_expert, p_min,
            row_mass, column_mass, row_probabilities, column_probabilities,
        )  # fmt: skip
        a = draw_action(row_probabilities, row_uniforms[t])
        b = draw_action(column_probabilities, column_uniforms[t])
        outcome = 1.0 if duel_uniforms[t] < win[context, a, b] else -1.0
        if bug == 4:
            outcome = -outcome
        row_reward, column_reward = (1.0 + outcome) / 2.0, (1.0 - outcome) / 2.0
        if bug == 3:  # the update divides by p: fed r p, it estimates r
            row_reward *= row_probabilities[a]
            column_reward *= column_probabilities[b]
        row_largest = _action_increments(
            row_probabilities, a, row_reward, p_min, confidence, row_increments, row_factors
        )
        column_largest = _action_increments(
            column_probabilities, b, column_reward, p_min, confidence,
            column_increments, column_factors,
        )  # fmt: skip
        learns = bug != 1
        inverse_total = 1.0 / row_total
        for i in range(n_policies):
            k = advice[i]
            row_sums[i] += row_weights[i] * inverse_total
            row_log[i] += row_increments[k]
            row_weights[i] *= row_factors[k]
            if learns:
                column_log[i] += column_increments[k]
                column_weights[i] *= column_factors[k]
        if uniform_expert:
            row_sums[n_policies] += row_weights[n_policies] * inverse_total
            row_largest = _uniform_expert_update(
                row_log, row_weights, row_probabilities, a, row_reward, p_min, confidence,
                row_largest,
            )  # fmt: skip
            if learns:
                column_largest = _uniform_expert_update(
                    column_log, column_weights, column_probabilities, b, column_reward, p_min,
                    confidence, column_largest,
                )  # fmt: skip
        growths[0] = _rescaled(row_log, row_weights, growths[0] + row_largest)
        if learns:
            growths[1] = _rescaled(column_log, column_weights, growths[1] + column_largest)
        first[t] = a
        second[t] = b
    return first, second


class BrokenSparring(SparringExp4P):
    """SparringEXP4.P with the bug :attr:`bug` (a key of :data:`BUGS`) on a population."""

    bug = ""

    def _play_schedule(
        self,
        win: NDArray[np.float64],
        context_ids: NDArray[np.int64],
        duel_uniforms: NDArray[np.float64],
        first_uniforms: NDArray[np.float64],
        second_uniforms: NDArray[np.float64],
    ) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int8]]:
        row, column = self.row_, self.column_
        growths = np.array([row._growth, column._growth])
        first, second = _broken_episode(
            self.policies.actions, self.policies.n_actions, win, context_ids,
            (duel_uniforms, first_uniforms, second_uniforms), self.uniform_expert, row.p_min_,
            row.confidence_,
            (row.log_weights_, row._weights, row.distribution_sums_),
            (column.log_weights_, column._weights, column.distribution_sums_), growths,
            BUGS[self.bug],
        )  # fmt: skip
        row._growth, column._growth = float(growths[0]), float(growths[1])
        row.n_rounds_ = column.n_rounds_ = context_ids.size
        won = duel_uniforms < win[context_ids, first, second]
        return first, second, np.where(won, 1, -1).astype(np.int8)


def broken_sparring(bug: str) -> type[BrokenSparring]:
    """The :class:`BrokenSparring` subclass with ``bug``."""
    if bug not in BUGS:
        raise ValueError(f"unknown bug {bug!r}; known: {sorted(BUGS)}")
    return type(f"Sparring_{bug}", (BrokenSparring,), {"bug": bug})


class SparringWithoutConfidence(SparringExp4P):
    """SparringEXP4.P whose weight updates omit the confidence term ``vhat_i sqrt(...)``."""

    def _start(self, environment: DuelingEnvironment, horizon: int) -> None:
        super()._start(environment, horizon)
        self.row_.confidence_ = self.column_.confidence_ = 0.0


def exploring_sparring(exploration: float | None = None, scale: float = 1.0) -> type[SparringExp4P]:
    """SparringEXP4.P whose copies mix ``exploration`` of uniform play (``K p_min``) into
    every round instead of the theory's ``sqrt(K ln N / T)``, or, without it, whose
    ``p_min`` is ``scale`` times the theory's."""
    name = f"exploration_{exploration:g}" if exploration is not None else f"p_min_x{scale:g}"
    return type(
        f"Sparring_{name}", (ExploringSparring,), {"exploration": exploration, "scale": scale}
    )


class ExploringSparring(SparringExp4P):
    """SparringEXP4.P with the exploration rate of :func:`exploring_sparring`."""

    exploration: float | None = None
    scale = 1.0

    def _start(self, environment: DuelingEnvironment, horizon: int) -> None:
        super()._start(environment, horizon)
        k = self.policies.n_actions
        p_min = self.row_.p_min_ * self.scale if self.exploration is None else self.exploration / k
        if not 0.0 < k * p_min <= 1.0:
            raise ValueError(f"Exp4.P needs 0 < K p_min <= 1; got {k * p_min:.6g}")
        self.row_.p_min_ = self.column_.p_min_ = p_min


def fixed_arm_regret(
    log: DuelLog, oracle: ClassificationOracle, checkpoints: ArrayLike | None = None
) -> NDArray[np.float64]:
    """Regret against the best fixed *arm* (``max_a sum_s g_s(a)``), not the best policy."""
    rounds = np.array([log.horizon] if checkpoints is None else checkpoints, dtype=np.int64)
    cumulative = np.cumsum(log.gains, axis=0)
    return cumulative[rounds - 1].max(axis=1)
