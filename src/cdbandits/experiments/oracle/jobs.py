"""The settings each job of the oracle family runs with, made from the validated section.

A job gets only the top-level keys of ``oracle`` it needs (``KEYS`` of its settings,
:func:`config_subset`), so that changing one key reruns only the jobs that depend on it; it
rebuilds its settings from them (a partial parse of :class:`~.settings.OracleSection`):

* :class:`SweepSettings`: one sharded sweep (:data:`~.settings.EXPERIMENTS`): the
  environment and the experiment's own settings (:class:`ExploreFirstSettings`,
  :class:`SolversSettings`, :class:`RegretSettings`, :class:`LearnedSettings`);
* :class:`ScalingSettings`: the time and memory measurements against ``|Pi|``;
* :class:`SummarySettings`: what the bound and theory tables need beyond the sweeps' rows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from ..config_model import ConfigModel
from .budgets import exploration_rounds, failure_share, stump_bins
from .settings import (
    EXPERIMENTS,
    PAPER_ESTIMATOR,
    SMALL_EXPERIMENTS,
    EnvironmentSettings,
    Experiment,
    OracleSection,
)

__all__ = [
    "REGRET_ALGORITHMS",
    "ExperimentSettings",
    "ExploreFirstSettings",
    "LearnedSettings",
    "RegretSettings",
    "ScalingSettings",
    "SmallExploreFirstSettings",
    "SmallSolversSettings",
    "SolversSettings",
    "SummarySettings",
    "SweepSettings",
    "config_subset",
    "sweep_settings",
]

#: The rows of the ``regret`` experiment, one per algorithm.
REGRET_ALGORITHMS = ("explore_exploit_fpl", "explore_exploit_lp", "sparring_exp4p")


def config_subset(config: Mapping[str, Any], keys: Sequence[str]) -> dict[str, Any]:
    """The top-level ``keys`` of the ``oracle`` section (what one job needs)."""
    return {key: config[key] for key in keys}


@dataclass(frozen=True)
class ExploreFirstSettings:
    """The ``explore_first`` sweep with ``oracle.delta`` and ``oracle.seeds``."""

    name: ClassVar[Experiment] = "explore_first"
    KEYS: ClassVar[tuple[str, ...]] = ("delta", "seeds", "explore_first")

    delta: float
    seeds: int
    estimators: tuple[str, ...]
    explore_rounds: tuple[int, ...]
    fpl_rounds: int
    pgd_iterations: int
    compiled_fpl: bool = False


@dataclass(frozen=True)
class SmallExploreFirstSettings(ExploreFirstSettings):
    """The ``explore_first`` sweep on the small game (``oracle.small_game.explore_first``)."""

    name: ClassVar[Experiment] = "small_explore_first"
    KEYS: ClassVar[tuple[str, ...]] = ("delta", "seeds", "small_game")


@dataclass(frozen=True)
class SolversSettings:
    """The ``solvers`` sweep with ``oracle.delta`` and ``oracle.seeds``."""

    name: ClassVar[Experiment] = "solvers"
    KEYS: ClassVar[tuple[str, ...]] = ("delta", "seeds", "solvers")

    delta: float
    seeds: int
    explore_rounds: int
    fpl_rounds: tuple[int, ...]
    pgd_iterations: tuple[int, ...]
    estimator: str = PAPER_ESTIMATOR


@dataclass(frozen=True)
class SmallSolversSettings(SolversSettings):
    """The ``solvers`` sweep on the small game (``oracle.small_game.solvers``)."""

    name: ClassVar[Experiment] = "small_solvers"
    KEYS: ClassVar[tuple[str, ...]] = ("delta", "seeds", "small_game")


@dataclass(frozen=True)
class RegretSettings:
    """The ``regret`` sweep with ``oracle.delta`` and ``oracle.seeds``.

    The sweep explores with the paper's estimator and runs every algorithm of
    :data:`REGRET_ALGORITHMS`; the broken-variant detection (:mod:`.detection_settings`)
    runs one algorithm at a time, with the skew-symmetrised estimator where it makes the
    bound informative and SparringFPL on the compiled path (``compiled_fpl``).
    """

    name: ClassVar[Experiment] = "regret"
    KEYS: ClassVar[tuple[str, ...]] = ("delta", "seeds", "regret")

    delta: float
    seeds: int
    horizons: tuple[int, ...]
    fpl_rounds: int
    estimator: str = PAPER_ESTIMATOR
    algorithms: tuple[str, ...] = REGRET_ALGORITHMS
    compiled_fpl: bool = False

    @property
    def failure_share(self) -> float:
        """Theorem main-regret's ``delta`` split over eq. (f2), FPL and Hoeffding."""
        return failure_share(self.delta)

    def explore_rounds(self, horizon: int, n_policies: int, n_actions: int) -> int:
        """Theorem main-regret's ``m`` for ``horizon`` with the estimator's ``V`` for ``K``."""
        return exploration_rounds(horizon, n_policies, n_actions, self.estimator, self.delta)


@dataclass(frozen=True)
class LearnedSettings:
    """The ``learned`` sweep (its own seeds; not a bound check)."""

    name: ClassVar[Experiment] = "learned"
    KEYS: ClassVar[tuple[str, ...]] = ("learned",)

    seeds: int
    explore_rounds: int
    fpl_rounds: int
    pgd_iterations: int


ExperimentSettings = ExploreFirstSettings | SolversSettings | RegretSettings | LearnedSettings

_EXPERIMENT_SETTINGS: dict[str, type[ExperimentSettings]] = {
    settings.name: settings
    for settings in (
        ExploreFirstSettings,
        SolversSettings,
        RegretSettings,
        LearnedSettings,
        SmallExploreFirstSettings,
        SmallSolversSettings,
    )
}


@dataclass(frozen=True)
class SweepSettings:
    """What the shard jobs of one sweep need: ``oracle.shards`` (trial ``i`` runs in shard
    ``i mod shards``), the environment and the sweep's own settings (``experiment.name`` is
    one of :data:`EXPERIMENTS`)."""

    shards: int
    environment: EnvironmentSettings
    experiment: ExperimentSettings

    @staticmethod
    def keys(experiment: str) -> tuple[str, ...]:
        """The top-level keys of the ``oracle`` section a sweep's jobs read."""
        environment = () if experiment in SMALL_EXPERIMENTS else ("environment",)
        return ("shards", *environment, *_experiment_class(experiment).KEYS)

    @classmethod
    def from_config(cls, config: Mapping[str, Any], experiment: str) -> SweepSettings:
        """From the ``oracle`` section or its :meth:`keys`."""
        _experiment_class(experiment)
        return sweep_settings(OracleSection.from_config(config, "oracle", partial=True), experiment)


def _experiment_class(experiment: str) -> type[ExperimentSettings]:
    if experiment not in _EXPERIMENT_SETTINGS:
        raise ValueError(f"experiment must be one of {EXPERIMENTS}; got {experiment!r}")
    return _EXPERIMENT_SETTINGS[experiment]


@dataclass(frozen=True)
class ScalingSettings:
    """``oracle.scaling`` with ``oracle.delta`` (SparringEXP4.P's failure probability)."""

    KEYS: ClassVar[tuple[str, ...]] = ("delta", "scaling")

    delta: float
    n_actions: int
    n_features: int
    n_contexts: int
    intransitivity: float
    class_sizes: tuple[int, ...]
    explore_rounds: int
    fpl_rounds: int
    pgd_iterations: int
    repeats: int

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> ScalingSettings:
        """From the ``oracle`` section or its :data:`KEYS`."""
        oracle = OracleSection.from_config(config, "oracle", partial=True)
        return cls(delta=oracle.delta, **dict(oracle.scaling))

    def stump_bins(self, class_size: int) -> int:
        """The stumps' ``n_bins`` giving ``class_size`` policies (:func:`stump_bins`)."""
        return stump_bins(class_size, self.n_features, self.n_actions)


@dataclass(frozen=True)
class SummarySettings:
    """What the bound and theory tables need beyond the sweeps' rows."""

    KEYS: ClassVar[tuple[str, ...]] = ("delta", "theory_epsilons", "environment")

    delta: float
    theory_epsilons: tuple[float, ...]
    n_actions: int

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> SummarySettings:
        """From the ``oracle`` section or its :data:`KEYS`."""
        oracle = OracleSection.from_config(config, "oracle", partial=True)
        return cls(oracle.delta, oracle.theory_epsilons, oracle.environment.n_actions)


def sweep_settings(oracle: OracleSection, experiment: str) -> SweepSettings:
    """The settings of one sweep of :data:`~.settings.EXPERIMENTS`."""
    small = oracle.small_game
    sections: dict[str, ConfigModel] = {
        "explore_first": oracle.explore_first,
        "solvers": oracle.solvers,
        "regret": oracle.regret,
        "learned": oracle.learned,
        "small_explore_first": small.explore_first,
        "small_solvers": small.solvers,
    }
    kind = _experiment_class(experiment)
    trials = {} if kind is LearnedSettings else {"delta": oracle.delta, "seeds": oracle.seeds}
    settings = kind(**trials, **dict(sections[experiment]))
    environment = small.environment if experiment in SMALL_EXPERIMENTS else oracle.environment
    return SweepSettings(oracle.shards, environment, settings)
