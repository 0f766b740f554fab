"""Broken implementations a careless implementation could contain, to measure the checks' power.

Each :class:`BrokenVariant` is the library's code with one bug, given as the
:class:`~.experiments.Implementations` a sweep trial runs; :mod:`.detection` runs every variant
through the bound checks of the bound table and counts the seeds at which each check fails.
These are verification objects, not part of the library's API: nothing outside the
verification code and its tests may use them.

The variants (:data:`VARIANTS`):

* estimator: ``Phat`` weighted by ``1/K`` instead of ``1/K^2`` (every entry scaled by
  ``1/K``), or with its sign flipped;
* SparringFPL: no perturbation (follow the leader), ``alpha x 100`` (perturbations a hundred
  times smaller), or an oracle that maximises the costs it is given (costs and rewards
  confused);
* ProjectedGD: ``eta x 100`` (its steps are too long for ApproxProject's ``nu <= 1``, which
  the library refuses with a ValueError), the step discarded (ApproxProject returns its
  start ``v_1``: what dropping the projection of a mixture amounts to), or ApproxProject
  stopped after a tenth of its ``T_in`` iterations (the bounds still use ``T_in``);
* SparringEXP4.P: without its confidence term, without importance weighting (the drawn
  action's estimate is ``r`` instead of ``r / p_j``), or with the duel's outcome read from
  the wrong side (each copy learns to lose);
* regret (rd1) measured against the best fixed arm instead of the best policy.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import numba
import numpy as np
from numpy.typing import ArrayLike, NDArray

from ...contextual.duels import DuelLog, schedule_log
from ...contextual.environments import ContextPopulation, DuelingEnvironment
from ...contextual.exp4p import SparringExp4P
from ...contextual.oracle import ClassificationOracle, OracleAnswer
from ...oracle_methods.compact_game import CompactGame
from ...oracle_methods.exploration import FixedExploration
from ...oracle_methods.fpl import SparringFPL
from ...oracle_methods.oracles import PolicyOracle
from ...oracle_methods.pgd import ProjectedGD
from .experiments import LIBRARY, Implementations, scheme_of

__all__ = ["CORRECT", "VARIANTS", "BrokenVariant", "variant_names"]


@dataclass(frozen=True)
class BrokenVariant:
    """A named implementation with (at most) one bug.

    Attributes
    ----------
    name : str
    component : str
        The part of the code it breaks (``estimator``, ``fpl``, ``pgd``, ``exp4p``,
        ``regret``), or ``none`` for the correct implementation.
    description : str
    implementations : Implementations
        What the sweep trials run.
    """

    name: str
    component: str
    description: str
    implementations: Implementations


def _scaled_scheme(factor: Callable[[int], float]) -> Callable[[str, int], FixedExploration]:
    """``scheme_of`` whose estimates are multiplied by ``factor(K)`` (``L``, ``V`` unchanged)."""

    def scheme(estimator: str, n_actions: int) -> FixedExploration:
        broken = scheme_of(estimator, n_actions)
        broken.entry_scale = factor(n_actions) * broken.entry_scale
        return broken

    return scheme


class _UnperturbedFPL(SparringFPL):
    """SparringFPL whose perturbations are zero: follow the leader."""

    def _budget(self, game: CompactGame) -> tuple[int, float]:
        n, _ = super()._budget(game)
        return n, math.inf


class _TimidFPL(SparringFPL):
    """SparringFPL with ``alpha`` a hundred times the theory's."""

    def _budget(self, game: CompactGame) -> tuple[int, float]:
        n, alpha = super()._budget(game)
        return n, 100.0 * alpha


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


class _MaximisingFPL(SparringFPL):
    """SparringFPL whose two copies maximise their losses (the oracle's sign confused), on
    either path."""

    table_argmin = staticmethod(_table_argmax)

    def fit(self, game: CompactGame, oracle: PolicyOracle, rng: np.random.Generator) -> SparringFPL:
        return super().fit(game, _MaximisingOracle(oracle), rng)


class _SteepPGD(ProjectedGD):
    """ProjectedGD with ``eta`` a hundred times the theory's."""

    def _budget(self, game: CompactGame) -> tuple[int, int, float]:
        n_outer, n_inner, eta = super()._budget(game)
        return n_outer, n_inner, 100.0 * eta


class _StillPGD(ProjectedGD):
    """ProjectedGD whose ApproxProject takes no step (``nu = 0``): ``w_t = w_1`` throughout."""

    def __init__(self, **parameters: Any) -> None:
        super().__init__(**parameters, nu=0.0)


class _EarlyStopPGD(ProjectedGD):
    """ProjectedGD whose ApproxProject stops after ``T_in / 10`` iterations."""

    def _budget(self, game: CompactGame) -> tuple[int, int, float]:
        n_outer, n_inner, eta = super()._budget(game)
        return n_outer, max(1, n_inner // 10), eta


class _Exp4PWithoutConfidence(SparringExp4P):
    """SparringEXP4.P whose weight updates omit the confidence term ``vhat_i sqrt(...)``."""

    def _start(self, environment: DuelingEnvironment, horizon: int) -> None:
        super()._start(environment, horizon)
        self.row_.confidence_ = self.column_.confidence_ = 0.0


class _RoundByRoundSparring(SparringExp4P):
    """SparringEXP4.P played through ``_choose`` / ``_observe`` (so a subclass can alter them)."""

    def _run_schedule(
        self,
        population: ContextPopulation,
        context_ids: NDArray[np.int64],
        duel_uniforms: NDArray[np.float64],
        first_uniforms: NDArray[np.float64],
        second_uniforms: NDArray[np.float64],
    ) -> DuelLog:
        first = np.empty(context_ids.size, dtype=np.int64)
        second = np.empty(context_ids.size, dtype=np.int64)
        matrices = population.matrices
        for t, context in enumerate(context_ids):
            a, b = self._choose(int(context), float(first_uniforms[t]), float(second_uniforms[t]))
            won = duel_uniforms[t] < (1.0 + matrices[context, a, b]) / 2.0
            self._observe(1 if won else -1)
            first[t], second[t] = a, b
        return schedule_log(population, context_ids, duel_uniforms, first, second)


class _Exp4PWithoutImportanceWeights(_RoundByRoundSparring):
    """SparringEXP4.P whose reward estimate is ``r`` for the drawn action, not ``r / p_j``.

    Each copy is fed ``r p_j``, which its update divides by ``p_j``.
    """

    def _observe(self, outcome: int) -> None:
        for copy, reward in ((self.row_, (1 + outcome) / 2), (self.column_, (1 - outcome) / 2)):
            action = copy._pending[2]
            copy.update(reward * copy._probabilities[action])


class _Exp4PWithFlippedOutcome(_RoundByRoundSparring):
    """SparringEXP4.P whose copies receive each other's rewards (the outcome's sign flipped)."""

    def _observe(self, outcome: int) -> None:
        super()._observe(-outcome)


def _fixed_arm_regret(
    log: DuelLog, oracle: ClassificationOracle, checkpoints: ArrayLike | None = None
) -> NDArray[np.float64]:
    """Regret against the best fixed *arm* (``max_a sum_s g_s(a)``), not the best policy."""
    rounds = np.array([log.horizon] if checkpoints is None else checkpoints, dtype=np.int64)
    cumulative = np.cumsum(log.gains, axis=0)
    return cumulative[rounds - 1].max(axis=1)


def _variant(name: str, component: str, description: str, **replaced) -> BrokenVariant:
    return BrokenVariant(name, component, description, replace(LIBRARY, **replaced))


#: The correct implementation (the control: no check may flag it).
CORRECT = BrokenVariant("correct", "none", "the library's implementation", LIBRARY)

#: Every broken variant, in the order of the detection matrix.
VARIANTS: tuple[BrokenVariant, ...] = (
    _variant(
        "estimator_1_over_K",
        "estimator",
        "Phat weighted by 1/K instead of 1/K^2 (every estimate scaled by 1/K)",
        scheme=_scaled_scheme(lambda k: 1.0 / k),
    ),
    _variant(
        "estimator_sign",
        "estimator",
        "Phat with its sign flipped (-r / q)",
        scheme=_scaled_scheme(lambda k: -1.0),
    ),
    _variant(
        "fpl_no_perturbation",
        "fpl",
        "SparringFPL without perturbation (follow the leader)",
        fpl=_UnperturbedFPL,
    ),
    _variant(
        "fpl_alpha_x100",
        "fpl",
        "SparringFPL with alpha x 100 (perturbations 100 times smaller)",
        fpl=_TimidFPL,
    ),
    _variant(
        "fpl_maximising_oracle",
        "fpl",
        "SparringFPL calling an oracle that maximises the costs (sign of the losses)",
        fpl=_MaximisingFPL,
    ),
    _variant("pgd_eta_x100", "pgd", "ProjectedGD with eta x 100", pgd=_SteepPGD),
    _variant(
        "pgd_no_step",
        "pgd",
        "ProjectedGD whose projection returns its start (nu = 0): the step is discarded",
        pgd=_StillPGD,
    ),
    _variant(
        "approx_project_early_stop",
        "pgd",
        "ApproxProject stopped after T_in / 10 iterations (bounds at T_in)",
        pgd=_EarlyStopPGD,
    ),
    _variant(
        "exp4p_no_confidence",
        "exp4p",
        "SparringEXP4.P without its confidence term",
        sparring=_Exp4PWithoutConfidence,
    ),
    _variant(
        "exp4p_no_importance_weight",
        "exp4p",
        "SparringEXP4.P estimating the drawn action's reward as r instead of r / p",
        sparring=_Exp4PWithoutImportanceWeights,
    ),
    _variant(
        "exp4p_flipped_outcome",
        "exp4p",
        "SparringEXP4.P feeding each copy the other's reward (sign of the duel outcome)",
        sparring=_Exp4PWithFlippedOutcome,
    ),
    _variant(
        "regret_fixed_arm",
        "regret",
        "regret (rd1) measured against the best fixed arm instead of the best policy",
        regret=_fixed_arm_regret,
    ),
)


def variant_names() -> tuple[str, ...]:
    """The names of :data:`CORRECT` and every :data:`VARIANTS` entry, in order."""
    return (CORRECT.name, *(variant.name for variant in VARIANTS))
