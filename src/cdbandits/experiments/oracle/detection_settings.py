"""The settings the broken-variant detection runs with, made from the validated
``oracle.detection`` section (:class:`~.settings.DetectionSection`) and ``oracle.delta``, and
the budgets it derives from the bounds' formulas.

Two fixed populations, drawn from no seed, with decision stumps cut at the median
(:class:`~.settings.DetectionEnvironmentSettings`): the *switching* population of two actions, whose
Condorcet winner is a policy of the class (:func:`~.environment.switching_population`), and
the *cyclic* population of three actions, whose von Neumann winner is mixed
(:func:`~.environment.cyclic_population`). The budgets the config does not give are solved
from the formulas:

* the horizons of the regret parts (:func:`linear_regret_horizon`): the smallest ``T`` at
  which the part's bound is below ``LINEAR_REGRET_SLOPE T``, so that a learner whose regret
  grows like ``0.2 T`` exceeds it in every trial;
* SparringFPL's rounds on the cyclic population's games (:func:`last_iterate_rounds`): the
  smallest ``N`` at which Theorem fpl's bound is half the margin, the gap of a pure policy
  there.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from ...contextual.bounds import sparring_exp4p_regret_bound
from ...oracle_methods.bounds import fpl_gap_bound
from ...oracle_methods.theory import main_regret_bound
from .budgets import failure_share, smallest_integer
from .ceilings import declared_constants
from .jobs import ExploreFirstSettings, RegretSettings, SmallExploreFirstSettings, SolversSettings
from .settings import (
    PAPER_ESTIMATOR,
    SKEW_ESTIMATOR,
    DetectionEnvironmentSettings,
    OracleSection,
)

__all__ = [
    "CYCLIC_SOLVER_ROUNDS",
    "LINEAR_REGRET_SLOPE",
    "DetectionSettings",
    "last_iterate_rounds",
    "linear_regret_horizon",
]

#: A learner whose regret grows at least like this fraction of ``T`` must fail the regret
#: checks in every trial: the regret parts run where the bound is below it.
LINEAR_REGRET_SLOPE = 0.2

#: Exploration rounds of the cyclic population's solver games: ten duels in expectation of
#: every pair of actions in each half, so that every sampled game keeps both halves' cycles
#: (no pure saddle point) but for a chance of about ``6 e^-10``.
CYCLIC_SOLVER_ROUNDS = 60


def linear_regret_horizon(bound: Callable[[int], float]) -> int:
    """The smallest ``T`` with ``bound(T) < LINEAR_REGRET_SLOPE T`` (``bound(T) / T`` falls)."""
    horizon = smallest_integer(lambda t: bound(t) < LINEAR_REGRET_SLOPE * t, start=2)
    if horizon is None:
        raise ValueError("the regret bound never falls below LINEAR_REGRET_SLOPE T")
    return horizon


def last_iterate_rounds(n_rounds: int, margin: float, delta: float, bound: float) -> int:
    """The smallest ``N`` at which Theorem fpl's gap bound on a game of ``m = n_rounds`` is
    at most ``margin / 2``."""
    found = smallest_integer(lambda n: fpl_gap_bound(bound, n_rounds, n, delta) <= margin / 2)
    if found is None:
        raise ValueError("Theorem fpl's bound never falls to margin / 2")
    return found


@dataclass(frozen=True)
class DetectionSettings:
    """``oracle.detection`` with ``oracle.delta``: the settings the variants run at.

    Attributes
    ----------
    delta : float
        Failure probability of every statement (``oracle.delta``).
    seeds : int
    environment : DetectionEnvironmentSettings
    explore_first : ExploreFirstSettings
        One ``m``, the paper's estimator (both populations).
    small_explore_first : SmallExploreFirstSettings
        One ``m``, the skew-symmetrised estimator (Theorem main-eps with ProjectedGD is
        informative there).
    solvers : SolversSettings
        One ``N`` and one ``T_in = T_out`` on the switching population's games.
    cyclic_solvers : SolversSettings
        SparringFPL on the cyclic population's games of :data:`CYCLIC_SOLVER_ROUNDS` rounds,
        the skew-symmetrised estimator, :func:`last_iterate_rounds` rounds.
    main_eps_fpl : SmallExploreFirstSettings
        One ``m`` and ``N``, the skew-symmetrised estimator, compiled SparringFPL (Theorem
        main-eps with SparringFPL is informative there).
    main_regret_fpl : RegretSettings
        One horizon and ``N``, the skew-symmetrised estimator, explore-then-exploit with
        compiled SparringFPL only (Theorem main-regret with SparringFPL is informative).
    explore_exploit : dict of str to RegretSettings
        Per population, explore-then-exploit with the exact solver and the
        skew-symmetrised estimator at the :func:`linear_regret_horizon` of Theorem
        main-regret's bound.
    sparring : dict of str to RegretSettings
        Per population, SparringEXP4.P at the :func:`linear_regret_horizon` of Theorem
        sparring-exp4's bound.
    """

    KEYS: ClassVar[tuple[str, ...]] = ("delta", "detection")

    delta: float
    seeds: int
    environment: DetectionEnvironmentSettings
    explore_first: ExploreFirstSettings
    small_explore_first: SmallExploreFirstSettings
    solvers: SolversSettings
    cyclic_solvers: SolversSettings
    main_eps_fpl: SmallExploreFirstSettings
    main_regret_fpl: RegretSettings
    explore_exploit: dict[str, RegretSettings]
    sparring: dict[str, RegretSettings]

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> DetectionSettings:
        """From the ``oracle`` section or its :data:`KEYS` (its ``delta`` and ``detection``)."""
        oracle = OracleSection.from_config(config, "oracle", partial=True)
        delta, section = oracle.delta, oracle.detection
        seeds, environment = section.seeds, section.environment
        paper, small = section.explore_first, section.small_explore_first
        solvers, main_eps, main_regret = (
            section.solvers,
            section.main_eps_fpl,
            section.main_regret_fpl,
        )
        return cls(
            delta=delta,
            seeds=seeds,
            environment=environment,
            explore_first=ExploreFirstSettings(
                delta, seeds, (PAPER_ESTIMATOR,), (paper.explore_rounds,), paper.fpl_rounds,
                paper.pgd_iterations,
            ),
            # The skew part runs no SparringFPL (0 rounds): it serves ProjectedGD.
            small_explore_first=SmallExploreFirstSettings(
                delta, seeds, (SKEW_ESTIMATOR,), (small.explore_rounds,), 0, small.pgd_iterations
            ),
            solvers=SolversSettings(
                delta, seeds, solvers.explore_rounds, (solvers.fpl_rounds,),
                (solvers.pgd_iterations,),
            ),
            cyclic_solvers=SolversSettings(
                delta, seeds, CYCLIC_SOLVER_ROUNDS,
                (
                    last_iterate_rounds(
                        CYCLIC_SOLVER_ROUNDS, environment.margin, delta,
                        declared_constants(SKEW_ESTIMATOR, 3)[0],
                    ),
                ),
                (), estimator=SKEW_ESTIMATOR,
            ),
            # its ProjectedGD row is dropped (SweepPart.solver)
            main_eps_fpl=SmallExploreFirstSettings(
                delta, seeds, (SKEW_ESTIMATOR,), (main_eps.explore_rounds,), main_eps.fpl_rounds,
                1, compiled_fpl=True,
            ),
            main_regret_fpl=RegretSettings(
                delta, seeds, (main_regret.horizon,), main_regret.fpl_rounds,
                estimator=SKEW_ESTIMATOR, algorithms=("explore_exploit_fpl",), compiled_fpl=True,
            ),
            explore_exploit={
                population: _explore_exploit(delta, seeds, environment, population)
                for population in environment.POPULATIONS
            },
            sparring={
                population: _sparring(delta, seeds, environment, population)
                for population in environment.POPULATIONS
            },
        )  # fmt: skip


def _explore_exploit(
    delta: float, seeds: int, environment: DetectionEnvironmentSettings, population: str
) -> RegretSettings:
    k, n_policies = environment.POPULATIONS[population], environment.n_policies(population)
    bound, variance = declared_constants(SKEW_ESTIMATOR, k)
    horizon = linear_regret_horizon(
        lambda t: main_regret_bound(t, n_policies, bound, variance, failure_share(delta))
    )
    return RegretSettings(
        delta=delta,
        seeds=seeds,
        horizons=(horizon,),
        fpl_rounds=0,
        estimator=SKEW_ESTIMATOR,
        algorithms=("explore_exploit_lp",),
    )


def _sparring(
    delta: float, seeds: int, environment: DetectionEnvironmentSettings, population: str
) -> RegretSettings:
    k, n_policies = environment.POPULATIONS[population], environment.n_policies(population)
    horizon = linear_regret_horizon(
        lambda t: sparring_exp4p_regret_bound(t, k, n_policies, delta).total
    )
    return RegretSettings(
        delta=delta, seeds=seeds, horizons=(horizon,), fpl_rounds=0, algorithms=("sparring_exp4p",)
    )
