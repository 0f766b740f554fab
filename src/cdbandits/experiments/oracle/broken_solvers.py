"""Broken estimators, game solvers and exploitation (verification only).

Each is the library's code with one bug, in the form :class:`~.experiments.Implementations`
takes it; :mod:`.broken_variants` names them and :mod:`.power` scales their parameters.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numba
import numpy as np
from numpy.typing import ArrayLike, NDArray

from ...contextual.duels import DuelLog, schedule_log
from ...contextual.environments import StochasticEnvironment
from ...contextual.oracle import OracleAnswer
from ...contextual.policies import PolicyClass
from ...oracle_methods.compact_game import CompactGame
from ...oracle_methods.exploration import FixedExploration
from ...oracle_methods.explore_exploit import action_cdf, draw_actions, exploit
from ...oracle_methods.fpl import SparringFPL
from ...oracle_methods.ground_truth import MaxminSolution
from ...oracle_methods.hull import PolicyMixture
from ...oracle_methods.oracles import PolicyOracle
from ...oracle_methods.pgd import ProjectedGD
from .budgets import scheme_of

__all__ = [
    "EarlyStopPGD",
    "LastIterateFPL",
    "MaximisingFPL",
    "ScaledFPL",
    "ScaledPGD",
    "StillPGD",
    "broken_scheme",
    "copeland_maxmin",
    "exploit_heaviest_policy",
    "exploit_one_draw",
    "scaled_fpl",
    "scaled_pgd",
]

#: The estimator bugs of :func:`broken_scheme`.
SCHEME_BUGS = ("scaled", "outcome_01", "round_shift", "unordered_pair")


class _BrokenScheme(FixedExploration):
    """An exploration scheme whose estimates carry the bug ``bug`` (:func:`broken_scheme`)."""

    bug = ""
    factor = 1.0

    def estimate_entries(
        self, first: ArrayLike, second: ArrayLike, outcomes: ArrayLike
    ) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], NDArray[np.float64]]:
        a, b = np.asarray(first, dtype=np.int64), np.asarray(second, dtype=np.int64)
        r = np.asarray(outcomes, dtype=np.float64)
        if self.bug == "unordered_pair":  # the pair sorted, the outcome (of a vs b) kept
            a, b = np.minimum(a, b), np.maximum(a, b)
        if self.bug == "outcome_01":  # the estimate of outcome r' = (1 + r) / 2 in {0, 1}
            rounds, rows, columns, signs = super().estimate_entries(a, b, np.ones_like(r))
            return rounds, rows, columns, signs * (1.0 + r[rounds]) / 2.0
        rounds, rows, columns, values = super().estimate_entries(a, b, r)
        if self.bug == "round_shift":  # round i's estimate filed under round i + 1
            rounds = (rounds + 1) % r.size
        if self.bug == "scaled":
            values = self.factor * values
        return rounds, rows, columns, values


def broken_scheme(bug: str, factor: float = 1.0) -> Callable[[str, int], FixedExploration]:
    """``scheme_of`` whose estimator has the bug ``bug``, its declared ``L`` and ``V`` kept.

    ``scaled``: every estimate multiplied by ``factor``; ``outcome_01``: the outcome coded
    ``1`` / ``0`` instead of ``+1`` / ``-1``; ``round_shift``: round ``i``'s estimate filed
    under round ``i + 1`` (the last under the first), so paired with the next round's
    context; ``unordered_pair``: the dueled pair sorted without flipping its outcome.
    """
    if bug not in SCHEME_BUGS:
        raise ValueError(f"unknown estimator bug {bug!r}; known: {SCHEME_BUGS}")

    def scheme(estimator: str, n_actions: int) -> FixedExploration:
        correct = scheme_of(estimator, n_actions)
        broken = _BrokenScheme(correct.pair_probabilities, correct.estimator)
        broken.bug, broken.factor = bug, factor
        return broken

    return scheme


def scaled_fpl(factor: float) -> type[SparringFPL]:
    """SparringFPL whose perturbations are ``factor`` times the theory's (``alpha / factor``)."""
    return type(f"SparringFPL_perturbation_x{factor:g}", (ScaledFPL,), {"factor": factor})


class ScaledFPL(SparringFPL):
    """SparringFPL whose perturbations are :attr:`factor` times the theory's (``alpha``
    divided by it; 0: no perturbation, follow the leader)."""

    factor = 1.0

    def _budget(self, game: CompactGame) -> tuple[int, float]:
        n, alpha = super()._budget(game)
        return n, alpha / self.factor if self.factor else math.inf


class LastIterateFPL(SparringFPL):
    """SparringFPL that outputs its last row policy ``w_N`` instead of the average."""

    def fit(self, game: CompactGame, oracle: PolicyOracle, rng: np.random.Generator) -> SparringFPL:
        super().fit(game, oracle, rng)
        last = int(self.row_policies_[-1])
        self.row_mixture_ = PolicyMixture.uniform([last])
        self.row_vector_ = oracle.vector(last)
        return self


class _MaximisingOracle(PolicyOracle):
    """An oracle answering ``argmax`` of the costs it is given (costs and rewards confused)."""

    def __init__(self, oracle: PolicyOracle) -> None:
        self.oracle = oracle
        self.n_rounds, self.n_actions, self.n_calls_ = oracle.n_rounds, oracle.n_actions, 0

    def _argmin(self, costs: NDArray[np.float64]) -> OracleAnswer:
        answer = self.oracle.argmin(-costs)
        return replace(answer, cost=-answer.cost)

    def round_actions(self, policies: ArrayLike) -> NDArray[np.uint8]:
        return self.oracle.round_actions(policies)

    def actions(self, X: ArrayLike, policies: ArrayLike) -> NDArray[np.uint8]:
        return self.oracle.actions(X, policies)

    def policy_table(self) -> tuple[NDArray[np.int64], NDArray[np.uint8]]:
        return self.oracle.policy_table()


@numba.njit(cache=True)
def _table_argmax(costs: NDArray[np.float64], table: NDArray[np.uint8]) -> int:
    """``argmax_pi sum_x costs[x, table[x, pi]]``, ties to the smallest id: the compiled
    path's :class:`_MaximisingOracle` (``-sum c`` is exactly ``sum -c`` in floating point)."""
    best, best_total = 0, -np.inf
    for policy in range(table.shape[1]):
        total = 0.0
        for x in range(table.shape[0]):
            total += costs[x, table[x, policy]]
        if total > best_total:
            best, best_total = policy, total
    return best


class MaximisingFPL(SparringFPL):
    """SparringFPL whose two copies maximise their losses (the oracle's sign confused), on
    either path."""

    table_argmin = staticmethod(_table_argmax)

    def fit(self, game: CompactGame, oracle: PolicyOracle, rng: np.random.Generator) -> SparringFPL:
        return super().fit(game, _MaximisingOracle(oracle), rng)


def scaled_pgd(factor: float) -> type[ProjectedGD]:
    """ProjectedGD whose step ``eta`` is ``factor`` times the theory's."""
    return type(f"ProjectedGD_eta_x{factor:g}", (ScaledPGD,), {"factor": factor})


class ScaledPGD(ProjectedGD):
    """ProjectedGD with ``eta`` times :attr:`factor`."""

    factor = 1.0

    def _budget(self, game: CompactGame) -> tuple[int, int, float]:
        n_outer, n_inner, eta = super()._budget(game)
        return n_outer, n_inner, self.factor * eta


class StillPGD(ProjectedGD):
    """ProjectedGD whose ApproxProject takes no step (``nu = 0``): ``w_t = w_1`` throughout."""

    def __init__(self, **parameters: Any) -> None:
        super().__init__(**parameters, nu=0.0)


class EarlyStopPGD(ProjectedGD):
    """ProjectedGD whose ApproxProject stops after ``T_in / 10`` iterations."""

    def _budget(self, game: CompactGame) -> tuple[int, int, float]:
        n_outer, n_inner, eta = super()._budget(game)
        return n_outer, max(1, n_inner // 10), eta


def copeland_maxmin(matrix: NDArray[np.float64]) -> MaxminSolution:
    """The Copeland winner of ``Mhat`` (most policies beaten, ties to the smallest index) as
    a pure strategy, in place of the maxmin strategy: another winner concept."""
    skew = (matrix - matrix.T) / 2.0  # Mhat of the paper's estimator is not skew
    winner = int(np.argmax((skew > 0).sum(axis=1)))
    pure = np.zeros(matrix.shape[0])
    pure[winner] = 1.0
    payoff = float(matrix[winner].min())
    return MaxminSolution(pure, pure, payoff, payoff, "copeland", "optimal")


def exploit_heaviest_policy(
    environment: StochasticEnvironment,
    policy_class: PolicyClass,
    mixture: PolicyMixture,
    n_rounds: int,
    rng: np.random.Generator,
) -> DuelLog:
    """Exploitation of the mixture's heaviest policy (ties to the smallest id) instead of
    the mixture."""
    heaviest = PolicyMixture.uniform([mixture.policies[np.argmax(mixture.weights)]])
    return exploit(environment, policy_class, heaviest, n_rounds, rng)


def exploit_one_draw(
    environment: StochasticEnvironment,
    policy_class: PolicyClass,
    mixture: PolicyMixture,
    n_rounds: int,
    rng: np.random.Generator,
) -> DuelLog:
    """Exploitation that draws one action from ``What`` per round and duels it with itself
    (``a_t = b_t``) instead of drawing the two independently."""
    schedule_rng, first_rng, _ = rng.spawn(3)
    context_ids, duel_uniforms = environment.draw_schedule(n_rounds, schedule_rng)
    cumulative = action_cdf(environment, policy_class, mixture, context_ids)
    actions = draw_actions(cumulative, first_rng.random(n_rounds))
    return schedule_log(environment.population, context_ids, duel_uniforms, actions, actions)
