"""What a sweep trial is, and the code it runs.

* :class:`ExploreFirstTrial`, :class:`RegretTrial`, :class:`SeedTrial`: the parameters of
  one trial of each experiment, listed in a fixed order by :func:`sweep_trials`;
* :class:`Implementations`: the code a trial runs, the library's by default
  (:data:`LIBRARY`); the detection of broken implementations (:mod:`.detection`) replaces
  one part of it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ...contextual.exp4p import SparringExp4P
from ...contextual.regret import regret_curve
from ...oracle_methods.exploration import FixedExploration
from ...oracle_methods.explore_exploit import exploit
from ...oracle_methods.fpl import SparringFPL
from ...oracle_methods.ground_truth import MaxminSolution, maxmin_strategy
from ...oracle_methods.pgd import ProjectedGD
from .budgets import scheme_of
from .jobs import ExperimentSettings, ExploreFirstSettings, RegretSettings

__all__ = [
    "LIBRARY",
    "ExploreFirstTrial",
    "Implementations",
    "RegretTrial",
    "Row",
    "SeedTrial",
    "Trial",
    "sweep_trials",
]

#: A row of a sweep's table.
Row = dict[str, Any]


@dataclass(frozen=True)
class ExploreFirstTrial:
    """A trial of ``explore_first``: seed index, estimator, exploration rounds ``m``."""

    seed: int
    estimator: str
    n_explore: int


@dataclass(frozen=True)
class RegretTrial:
    """A trial of ``regret``: seed index and horizon ``T``."""

    seed: int
    horizon: int


@dataclass(frozen=True)
class SeedTrial:
    """A trial of ``solvers`` or ``learned``: one seed index."""

    seed: int


Trial = ExploreFirstTrial | RegretTrial | SeedTrial


@dataclass(frozen=True)
class Implementations:
    """The code a trial runs: the library's by default (:data:`LIBRARY`).

    The detection of broken implementations
    (:mod:`cdbandits.experiments.oracle.detection`) runs the same trials with one of these
    replaced, so that the bound checks it applies are exactly the sweeps'.

    Attributes
    ----------
    scheme : callable
        ``scheme(estimator, K)``: the exploration scheme of an estimator name.
    fpl, pgd : type
        The game solvers (constructed with the trial's budget).
    sparring : type
        SparringEXP4.P (constructed with the action table and ``delta``).
    regret : callable
        ``regret(log, oracle, checkpoints)``: the regret (rd1) of an episode.
    maxmin : callable
        ``maxmin(matrix)``: the exact maxmin strategy of a game (a
        :class:`~cdbandits.oracle_methods.ground_truth.MaxminSolution`), the ``lp`` solver.
    exploitation : callable
        The exploitation phase of explore-then-exploit
        (:func:`~cdbandits.oracle_methods.explore_exploit.exploit`).
    explore_rounds : callable
        ``explore_rounds(settings, T, |Pi|, K)``: how many rounds explore-then-exploit
        explores (Theorem main-regret's ``m``, :meth:`~.settings.RegretSettings.explore_rounds`).
    """

    scheme: Callable[[str, int], FixedExploration]
    fpl: type[SparringFPL] = SparringFPL
    pgd: type[ProjectedGD] = ProjectedGD
    sparring: type[SparringExp4P] = SparringExp4P
    regret: Callable[..., Any] = regret_curve
    maxmin: Callable[[NDArray[np.float64]], MaxminSolution] = maxmin_strategy
    exploitation: Callable[..., Any] = exploit
    explore_rounds: Callable[[RegretSettings, int, int, int], int] = RegretSettings.explore_rounds


#: The library's implementations, used by every sweep.
LIBRARY = Implementations(scheme=scheme_of)


def sweep_trials(settings: ExperimentSettings) -> list[Trial]:
    """Every trial of an experiment, in a fixed order."""
    if isinstance(settings, ExploreFirstSettings):
        return [
            ExploreFirstTrial(s, estimator, m)
            for s in range(settings.seeds)
            for estimator in settings.estimators
            for m in settings.explore_rounds
        ]
    if isinstance(settings, RegretSettings):
        return [RegretTrial(s, t) for s in range(settings.seeds) for t in settings.horizons]
    return [SeedTrial(s) for s in range(settings.seeds)]
