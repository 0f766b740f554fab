"""The ``oracle`` config section parsed once into typed, frozen settings, with its checks.

Each job of the workflow gets only the top-level keys of the section it needs (``KEYS`` of
its settings class, :func:`config_subset`), so that changing one key reruns only the jobs
that depend on it; the job's script builds its settings from them. The workflow also builds
:class:`OracleSettings` from the whole section when it starts, so a value the schema allows
but the code rejects fails at once with a :class:`SettingsError` naming the key.

* :class:`SweepSettings`: one sharded sweep (:data:`EXPERIMENTS`): the environment
  (:class:`EnvironmentSettings`) and the experiment's own settings
  (:class:`ExploreFirstSettings`, :class:`SolversSettings`, :class:`RegretSettings`,
  :class:`LearnedSettings`);
* :class:`ScalingSettings`: the time and memory measurements against ``|Pi|``;
* :class:`SummarySettings`: what the bound and theory tables need beyond the sweeps' rows.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, Self, TypeVar

from ...oracle_methods.exploration import (
    ESTIMATORS,
    FixedExploration,
    skew_symmetric_exploration,
    uniform_exploration,
)
from ...oracle_methods.theory import explore_exploit_rounds

__all__ = [
    "EXPERIMENTS",
    "EnvironmentSettings",
    "ExperimentSettings",
    "ExploreFirstSettings",
    "LearnedSettings",
    "OracleSettings",
    "RegretSettings",
    "ScalingSettings",
    "SettingsError",
    "SMALL_EXPERIMENTS",
    "SmallExploreFirstSettings",
    "SmallSolversSettings",
    "SolversSettings",
    "SummarySettings",
    "SweepSettings",
    "config_subset",
    "scheme_of",
    "stump_bins",
]

Experiment = Literal[
    "explore_first", "solvers", "regret", "learned", "small_explore_first", "small_solvers"
]

#: The sharded sweeps, in the order of :mod:`cdbandits.experiments.oracle.experiments`. The
#: ``small_*`` sweeps repeat ``explore_first`` and ``solvers`` on ``oracle.small_game``'s own
#: small environment, where the optimisation bounds can be informative at affordable budgets.
EXPERIMENTS: tuple[Experiment, ...] = (
    "explore_first",
    "solvers",
    "regret",
    "learned",
    "small_explore_first",
    "small_solvers",
)

#: The estimator every main-eps and explore-first check runs on (the paper's).
PAPER_ESTIMATOR = "importance_weighted"

#: The rows of the ``regret`` experiment, one per algorithm.
REGRET_ALGORITHMS = ("explore_exploit_fpl", "explore_exploit_lp", "sparring_exp4p")

_T = TypeVar("_T")


def scheme_of(estimator: str, n_actions: int) -> FixedExploration:
    """The uniform scheme of an estimator name of :data:`~.exploration.ESTIMATORS`."""
    if estimator == "importance_weighted":
        return uniform_exploration(n_actions)
    if estimator == "skew_symmetrised":
        return skew_symmetric_exploration(n_actions)
    raise ValueError(f"unknown estimator {estimator!r}")


class SettingsError(ValueError):
    """A config value the code cannot run with; the message names the key (``oracle.x.y``)."""


def _value(section: Mapping[str, Any], key: str, path: str, convert: Callable[[Any], _T]) -> _T:
    """``convert(section[key])``, or a :class:`SettingsError` naming ``path.key``."""
    if key not in section:
        raise SettingsError(f"{path}.{key}: missing")
    try:
        return convert(section[key])
    except (TypeError, ValueError) as error:
        raise SettingsError(f"{path}.{key}: {section[key]!r} is invalid ({error})") from None


def _section(config: Mapping[str, Any], key: str, path: str = "oracle") -> Mapping[str, Any]:
    return _value(config, key, path, _mapping)


def _mapping(value: Any) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise TypeError("expected a mapping")
    return value


def _ints(values: Sequence[Any]) -> tuple[int, ...]:
    return tuple(int(value) for value in values)


def config_subset(config: Mapping[str, Any], keys: Sequence[str]) -> dict[str, Any]:
    """The top-level ``keys`` of the ``oracle`` section (what one job needs)."""
    return {key: config[key] for key in keys}


def stump_bins(class_size: int, n_features: int, n_actions: int) -> int:
    """``n_bins`` with ``d (n_bins - 1) K^2 = class_size`` (which must be divisible)."""
    per_threshold = n_features * n_actions**2
    if class_size < per_threshold or class_size % per_threshold:
        raise ValueError(
            f"a stump class has d (n_bins - 1) K^2 policies, a multiple of {per_threshold} for "
            f"d = {n_features}, K = {n_actions}; got {class_size}"
        )
    return class_size // per_threshold + 1


@dataclass(frozen=True)
class EnvironmentSettings:
    """``oracle.environment``: the synthetic population and stump class of every sweep."""

    n_actions: int
    n_features: int
    n_contexts: int
    intransitivity: float
    n_bins: int

    @property
    def n_policies(self) -> int:
        """``|Pi| = d (n_bins - 1) K^2`` of the stump class."""
        return self.n_features * (self.n_bins - 1) * self.n_actions**2

    @classmethod
    def from_config(cls, config: Mapping[str, Any], parent: str = "oracle") -> EnvironmentSettings:
        """From the ``oracle`` section (its ``environment``), or from the section ``parent``."""
        section, path = _section(config, "environment", parent), f"{parent}.environment"
        return cls(
            n_actions=_value(section, "n_actions", path, int),
            n_features=_value(section, "n_features", path, int),
            n_contexts=_value(section, "n_contexts", path, int),
            intransitivity=_value(section, "intransitivity", path, float),
            n_bins=_value(section, "n_bins", path, int),
        )


@dataclass(frozen=True)
class ExploreFirstSettings:
    """``oracle.explore_first`` with the sweep-wide ``oracle.delta`` and ``oracle.seeds``."""

    name: ClassVar[Experiment] = "explore_first"
    KEYS: ClassVar[tuple[str, ...]] = ("delta", "seeds", "explore_first")
    requires_paper_estimator: ClassVar[bool] = True

    delta: float
    seeds: int
    estimators: tuple[str, ...]
    explore_rounds: tuple[int, ...]
    fpl_rounds: int
    pgd_iterations: int
    compiled_fpl: bool = False

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> ExploreFirstSettings:
        """From the ``oracle`` section; the paper's estimator must be among the estimators."""
        return cls._parse(config, _section(config, "explore_first"), "oracle.explore_first")

    @classmethod
    def _parse(cls, config: Mapping[str, Any], section: Mapping[str, Any], path: str) -> Self:
        estimators = _value(section, "estimators", path, tuple)
        unknown = [estimator for estimator in estimators if estimator not in ESTIMATORS]
        if unknown:
            raise SettingsError(f"{path}.estimators: unknown {unknown}; known: {ESTIMATORS}")
        if cls.requires_paper_estimator and PAPER_ESTIMATOR not in estimators:
            raise SettingsError(
                f"{path}.estimators: must include {PAPER_ESTIMATOR} (the paper's estimator, on "
                f"which Lemma explore-first and Theorem main-eps are checked); got {estimators}"
            )
        return cls(
            delta=_value(config, "delta", "oracle", float),
            seeds=_value(config, "seeds", "oracle", int),
            estimators=estimators,
            explore_rounds=_value(section, "explore_rounds", path, _ints),
            fpl_rounds=_value(section, "fpl_rounds", path, int),
            pgd_iterations=_value(section, "pgd_iterations", path, int),
        )


@dataclass(frozen=True)
class SolversSettings:
    """``oracle.solvers`` with the sweep-wide ``oracle.delta`` and ``oracle.seeds``."""

    name: ClassVar[Experiment] = "solvers"
    KEYS: ClassVar[tuple[str, ...]] = ("delta", "seeds", "solvers")

    delta: float
    seeds: int
    explore_rounds: int
    fpl_rounds: tuple[int, ...]
    pgd_iterations: tuple[int, ...]
    estimator: str = PAPER_ESTIMATOR

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> SolversSettings:
        """From the ``oracle`` section (the paper's estimator)."""
        return cls._parse(config, _section(config, "solvers"), "oracle.solvers")

    @classmethod
    def _parse(cls, config: Mapping[str, Any], section: Mapping[str, Any], path: str) -> Self:
        estimator = str(section.get("estimator", PAPER_ESTIMATOR))
        if estimator not in ESTIMATORS:
            raise SettingsError(f"{path}.estimator: unknown {estimator!r}; known: {ESTIMATORS}")
        return cls(
            delta=_value(config, "delta", "oracle", float),
            seeds=_value(config, "seeds", "oracle", int),
            explore_rounds=_value(section, "explore_rounds", path, int),
            fpl_rounds=_value(section, "fpl_rounds", path, _ints),
            pgd_iterations=_value(section, "pgd_iterations", path, _ints),
            estimator=estimator,
        )


SMALL_GAME = "small_game"


def _small_game(config: Mapping[str, Any], key: str) -> tuple[Mapping[str, Any], str]:
    """``oracle.small_game.<key>`` and its path."""
    return _section(_section(config, SMALL_GAME), key, f"oracle.{SMALL_GAME}"), (
        f"oracle.{SMALL_GAME}.{key}"
    )


@dataclass(frozen=True)
class SmallExploreFirstSettings(ExploreFirstSettings):
    """``oracle.small_game.explore_first``: the ``explore_first`` sweep on the small game.

    Any estimator may be used (Theorem main-eps holds for every unbiased estimator with
    bounds ``L``, ``V``); the skew-symmetrised one's smaller ``L`` is what makes the
    main-eps bounds informative at affordable budgets.
    """

    name: ClassVar[Experiment] = "small_explore_first"
    KEYS: ClassVar[tuple[str, ...]] = ("delta", "seeds", SMALL_GAME)
    requires_paper_estimator: ClassVar[bool] = False

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> SmallExploreFirstSettings:
        """From the ``oracle`` section (its ``small_game.explore_first``)."""
        section, path = _small_game(config, "explore_first")
        return cls._parse(config, section, path)


@dataclass(frozen=True)
class SmallSolversSettings(SolversSettings):
    """``oracle.small_game.solvers``: the ``solvers`` sweep on the small game."""

    name: ClassVar[Experiment] = "small_solvers"
    KEYS: ClassVar[tuple[str, ...]] = ("delta", "seeds", SMALL_GAME)

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> SmallSolversSettings:
        """From the ``oracle`` section (its ``small_game.solvers``)."""
        section, path = _small_game(config, "solvers")
        return cls._parse(config, section, path)


@dataclass(frozen=True)
class RegretSettings:
    """``oracle.regret`` with the sweep-wide ``oracle.delta`` and ``oracle.seeds``.

    The sweep explores with the paper's estimator and runs every algorithm of
    :data:`REGRET_ALGORITHMS`; the broken-variant detection also runs SparringFPL alone
    with the skew-symmetrised estimator, on the compiled path (``compiled_fpl``).
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

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> RegretSettings:
        """From the ``oracle`` section."""
        section, path = _section(config, "regret"), "oracle.regret"
        return cls(
            delta=_value(config, "delta", "oracle", float),
            seeds=_value(config, "seeds", "oracle", int),
            horizons=_value(section, "horizons", path, _ints),
            fpl_rounds=_value(section, "fpl_rounds", path, int),
        )

    @property
    def failure_share(self) -> float:
        """Theorem main-regret's ``delta`` split over eq. (f2), FPL and Hoeffding."""
        return self.delta / 3.0

    def explore_rounds(self, horizon: int, n_policies: int, n_actions: int) -> int:
        """Theorem main-regret's ``m`` for ``horizon`` with the estimator's ``V`` for ``K``."""
        variance_bound = scheme_of(self.estimator, n_actions).variance_bound
        return explore_exploit_rounds(horizon, n_policies, self.failure_share, variance_bound)

    def smallest_horizon(self, n_policies: int, n_actions: int) -> int:
        """The smallest ``T`` whose :meth:`explore_rounds` leave a round to exploit."""

        def exploits(horizon: int) -> bool:
            return self.explore_rounds(horizon, n_policies, n_actions) < horizon

        high = 2
        while not exploits(high):
            high *= 2
        low = high // 2  # exploits(high) and, unless low == 1, not exploits(low)
        while high - low > 1:
            middle = (low + high) // 2
            low, high = (low, middle) if exploits(middle) else (middle, high)
        return high

    def check_horizons(self, environment: EnvironmentSettings) -> None:
        """Every horizon must leave rounds to exploit after Theorem main-regret's ``m``."""
        k, n_policies = environment.n_actions, environment.n_policies
        for horizon in self.horizons:
            m = self.explore_rounds(horizon, n_policies, k)
            if m >= horizon:
                raise SettingsError(
                    f"oracle.regret.horizons: T = {horizon} leaves no round to exploit after "
                    f"Theorem main-regret's m = {m} exploration rounds (K = {k}, |Pi| = "
                    f"{n_policies}); the smallest horizon that does is "
                    f"{self.smallest_horizon(n_policies, k)}"
                )


@dataclass(frozen=True)
class LearnedSettings:
    """``oracle.learned`` (its own seeds; not a bound check)."""

    name: ClassVar[Experiment] = "learned"
    KEYS: ClassVar[tuple[str, ...]] = ("learned",)

    seeds: int
    explore_rounds: int
    fpl_rounds: int
    pgd_iterations: int

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> LearnedSettings:
        """From the ``oracle`` section."""
        section, path = _section(config, "learned"), "oracle.learned"
        return cls(
            seeds=_value(section, "seeds", path, int),
            explore_rounds=_value(section, "explore_rounds", path, int),
            fpl_rounds=_value(section, "fpl_rounds", path, int),
            pgd_iterations=_value(section, "pgd_iterations", path, int),
        )


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

#: The sweeps run on ``oracle.small_game.environment`` instead of ``oracle.environment``.
SMALL_EXPERIMENTS = ("small_explore_first", "small_solvers")


@dataclass(frozen=True)
class SweepSettings:
    """What the shard jobs of one sweep need.

    Attributes
    ----------
    shards : int
        ``oracle.shards``: trial ``i`` runs in shard ``i mod shards``.
    environment : EnvironmentSettings
    experiment : ExperimentSettings
        The sweep's own settings; ``experiment.name`` is one of :data:`EXPERIMENTS`.
    """

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
        """From the ``oracle`` section (or its :meth:`keys`), with the cross-key checks."""
        environment = EnvironmentSettings.from_config(
            _section(config, SMALL_GAME) if experiment in SMALL_EXPERIMENTS else config,
            f"oracle.{SMALL_GAME}" if experiment in SMALL_EXPERIMENTS else "oracle",
        )
        settings = _experiment_class(experiment).from_config(config)
        if isinstance(settings, RegretSettings):
            settings.check_horizons(environment)
        return cls(_value(config, "shards", "oracle", int), environment, settings)


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
        """From the ``oracle`` section; every class size must be a stump class's size."""
        section, path = _section(config, "scaling"), "oracle.scaling"
        settings = cls(
            delta=_value(config, "delta", "oracle", float),
            n_actions=_value(section, "n_actions", path, int),
            n_features=_value(section, "n_features", path, int),
            n_contexts=_value(section, "n_contexts", path, int),
            intransitivity=_value(section, "intransitivity", path, float),
            class_sizes=_value(section, "class_sizes", path, _ints),
            explore_rounds=_value(section, "explore_rounds", path, int),
            fpl_rounds=_value(section, "fpl_rounds", path, int),
            pgd_iterations=_value(section, "pgd_iterations", path, int),
            repeats=_value(section, "repeats", path, int),
        )
        for class_size in settings.class_sizes:
            try:
                settings.stump_bins(class_size)
            except ValueError as error:
                raise SettingsError(f"{path}.class_sizes: {error}") from None
        return settings

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
        """From the ``oracle`` section."""
        return cls(
            delta=_value(config, "delta", "oracle", float),
            theory_epsilons=_value(
                config, "theory_epsilons", "oracle", lambda values: tuple(map(float, values))
            ),
            n_actions=EnvironmentSettings.from_config(config).n_actions,
        )


@dataclass(frozen=True)
class OracleSettings:
    """The whole ``oracle`` section, every check done (built when the workflow starts)."""

    sweeps: tuple[SweepSettings, ...]
    scaling: ScalingSettings
    summary: SummarySettings

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> OracleSettings:
        """From the ``oracle`` section; raises :class:`SettingsError` naming a bad key."""
        return cls(
            sweeps=tuple(SweepSettings.from_config(config, name) for name in EXPERIMENTS),
            scaling=ScalingSettings.from_config(config),
            summary=SummarySettings.from_config(config),
        )
