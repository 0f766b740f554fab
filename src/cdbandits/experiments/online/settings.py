"""The workflow's ``online`` config section, parsed once into typed, frozen dataclasses.

A *setting* (:class:`OnlineSetting`) is one environment with one policy class and the
horizons ``T`` to run it for; its environment's parameters are one of
:class:`SyntheticParameters`, :class:`SupervisedParameters`,
:class:`AdversarialParameters` and :class:`MslrParameters`. The config's five environment
sections expand into settings (:func:`online_settings`):

* ``synthetic``: one setting per ``(n_actions, n_policies)`` pair, ``synthetic_K{K}_N{N}``;
* ``long_horizon`` (when its horizons are not empty): ``long_K{K}_N{N}``, the same instance
  as ``synthetic_K{K}_N{N}`` run for longer, with ``last_decade_checkpoints`` more
  checkpoints in the last decade of each regret curve (for the slope over that decade);
* ``supervised`` (when its ``dataset`` is not null): ``supervised_{dataset}``;
* ``adversarial`` (when its horizons are not empty): ``adversarial_K{K}_N{N}``;
* ``mslr`` (when its ``matrices`` path is set): ``mslr``.

Each job of the workflow reads only the keys it needs: :class:`OnlineSweep` (the sharded
episodes and their summaries, keys :data:`SWEEP_KEYS`) and :class:`ExactWinnerSettings`
(the exact contextual von Neumann winners, keys :data:`EXACT_WINNER_KEYS`).
:class:`OnlineSettings` is the whole section, built when the workflow starts, so that a
value the schema allows but the code rejects fails at once. Every error names the config
key, e.g. ``online.synthetic.horizons: must be increasing; got [1000, 200]``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, ClassVar

from ...reference import check_solver_name

__all__ = [
    "ALGORITHMS",
    "ENVIRONMENTS",
    "EXACT_WINNER_KEYS",
    "SETTING_KEYS",
    "SWEEP_KEYS",
    "AdversarialParameters",
    "EnvironmentParameters",
    "ExactWinnerSettings",
    "MslrParameters",
    "ONLINE_TABLES",
    "OnlineSetting",
    "OnlineSettings",
    "OnlineSweep",
    "SupervisedParameters",
    "SyntheticParameters",
    "is_long_run",
    "online_settings",
    "setting_kind",
    "setting_order",
    "setting_title",
]

#: The algorithms compared, by the names used in the tables.
ALGORITHMS = ("sparring_exp4p", "sparring_exp3", "uniform")

#: The tables of the sweep (``runs`` and ``curves`` combined from the shards, ``last_decade``
#: from :func:`cdbandits.experiments.online.tables.last_decade_slopes`, the others from
#: :func:`cdbandits.experiments.online.tables.summarise_online`).
ONLINE_TABLES = (
    "runs", "curves", "regret", "slopes", "coverage", "online_to_batch", "last_decade",
)  # fmt: skip

#: The environments a setting can use.
ENVIRONMENTS = ("synthetic", "supervised", "adversarial", "mslr")

#: The config sections that define the settings.
SETTING_KEYS = ("synthetic", "long_horizon", "supervised", "adversarial", "mslr")

#: The config keys of the sweep (its shards and summaries).
SWEEP_KEYS = (
    "seeds",
    "delta",
    "uniform_expert",
    "algorithms",
    "checkpoints",
    "shards",
    *SETTING_KEYS,
)

#: The config keys of the exact contextual von Neumann winners.
EXACT_WINNER_KEYS = ("lp_solver", "lp_max_policies", *SETTING_KEYS)

#: The largest number of actions (actions are stored as uint8).
_MAX_ACTIONS = 255


class _ConfigError(ValueError):
    """A config value the code rejects; the message starts with the config key."""


@contextmanager
def _config_key(key: str) -> Iterator[None]:
    """Prefix the message of a ``ValueError`` raised in the block with ``key``."""
    try:
        yield
    except _ConfigError:
        raise
    except ValueError as error:
        raise _ConfigError(f"{key}: {error}") from None


def _check_actions(n_actions: int) -> None:
    if not 2 <= n_actions <= _MAX_ACTIONS:
        raise ValueError(f"n_actions must be in 2..{_MAX_ACTIONS}; got {n_actions}")


def _check_positive(**values: float) -> None:
    for name, value in values.items():
        if value < 1:
            raise ValueError(f"{name} must be at least 1; got {value}")


def _check_margin(margin: float) -> None:
    if not 0.0 < margin <= 1.0:
        raise ValueError(f"margin must be in (0, 1]; got {margin}")


@dataclass(frozen=True)
class _LinearPolicyParameters:
    """What the environments with random linear argmax policies share.

    ``n_actions`` actions and ``n_contexts`` contexts in ``n_features`` dimensions;
    ``n_policies`` policies of :class:`cdbandits.contextual.RandomLinearPolicies`.
    """

    n_actions: int
    n_policies: int
    n_features: int
    n_contexts: int

    def __post_init__(self) -> None:
        _check_actions(self.n_actions)
        _check_positive(
            n_policies=self.n_policies, n_features=self.n_features, n_contexts=self.n_contexts
        )


@dataclass(frozen=True)
class SyntheticParameters(_LinearPolicyParameters):
    """A synthetic intransitive population with random linear argmax policies.

    See :func:`cdbandits.contextual.synthetic_intransitive_population`.
    """

    environment: ClassVar[str] = "synthetic"
    intransitivity: float

    def __post_init__(self) -> None:
        super().__post_init__()
        if not 0.0 <= self.intransitivity <= 1.0:
            raise ValueError(f"intransitivity must be in [0, 1]; got {self.intransitivity}")


@dataclass(frozen=True)
class SupervisedParameters:
    """A scikit-learn dataset turned into duels, with decision stumps.

    See :func:`cdbandits.contextual.supervised_population` and
    :class:`cdbandits.contextual.DecisionStumps`.
    """

    environment: ClassVar[str] = "supervised"
    dataset: str
    margin: float
    n_bins: int

    def __post_init__(self) -> None:
        _check_margin(self.margin)
        if self.n_bins < 2:
            raise ValueError(f"n_bins must be at least 2; got {self.n_bins}")


@dataclass(frozen=True)
class AdversarialParameters(_LinearPolicyParameters):
    """The adaptive adversary over Gaussian contexts, with random linear policies.

    See :class:`cdbandits.contextual.CounterPlayAdversary`.
    """

    environment: ClassVar[str] = "adversarial"
    margin: float

    def __post_init__(self) -> None:
        super().__post_init__()
        _check_margin(self.margin)


@dataclass(frozen=True)
class MslrParameters:
    """The MSLR per-query population, with decision stumps on the query features.

    See :func:`cdbandits.contextual.load_mslr_population`.
    """

    environment: ClassVar[str] = "mslr"
    matrices: str
    n_bins: int

    def __post_init__(self) -> None:
        if self.n_bins < 2:
            raise ValueError(f"n_bins must be at least 2; got {self.n_bins}")


EnvironmentParameters = (
    SyntheticParameters | SupervisedParameters | AdversarialParameters | MslrParameters
)


@dataclass(frozen=True)
class OnlineSetting:
    """One environment with one policy class, and the horizons to run it for.

    Attributes
    ----------
    name : str
        Identifier used in tables, seeds and file names.
    horizons : tuple of int
        Horizons ``T``, increasing.
    parameters : EnvironmentParameters
        The environment and its policy class.
    last_decade_checkpoints : int, optional
        Extra log-spaced checkpoints of each episode's regret curve within its last decade,
        from ``T / 10`` to ``T`` (0: none), for the slope over that decade.
    """

    name: str
    horizons: tuple[int, ...]
    parameters: EnvironmentParameters
    last_decade_checkpoints: int = 0

    def __post_init__(self) -> None:
        horizons = list(self.horizons)
        if not horizons or horizons != sorted(set(horizons)) or horizons[0] < 1:
            raise ValueError(f"horizons must be positive and increasing; got {horizons}")
        if self.last_decade_checkpoints == 1 or self.last_decade_checkpoints < 0:
            raise ValueError(
                "last_decade_checkpoints must be 0 (none) or at least 2 (a slope needs two "
                f"points); got {self.last_decade_checkpoints}"
            )

    @property
    def environment(self) -> str:
        """One of :data:`ENVIRONMENTS`."""
        return self.parameters.environment


def _horizons(values: Any) -> tuple[int, ...]:
    return tuple(int(value) for value in values)


def _synthetic_setting(
    prefix: str,
    synthetic: Mapping[str, Any],
    k: int,
    n: int,
    horizons: Any,
    last_decade_checkpoints: int = 0,
) -> OnlineSetting:
    parameters = SyntheticParameters(
        n_actions=int(k),
        n_policies=int(n),
        n_features=int(synthetic["n_features"]),
        n_contexts=int(synthetic["n_contexts"]),
        intransitivity=float(synthetic["intransitivity"]),
    )
    return OnlineSetting(
        f"{prefix}_K{k}_N{n}", _horizons(horizons), parameters, int(last_decade_checkpoints)
    )


def online_settings(online: Mapping[str, Any]) -> tuple[OnlineSetting, ...]:
    """The settings of the config's environment sections (:data:`SETTING_KEYS`).

    Parameters
    ----------
    online : mapping
        The ``online`` config section, or any part of it with the keys of
        :data:`SETTING_KEYS`.

    Returns
    -------
    tuple of OnlineSetting
        In the order of the module docstring.

    Raises
    ------
    ValueError
        If a value is rejected; the message starts with its config key.
    """
    synthetic = online["synthetic"]
    settings = []
    with _config_key("online.synthetic"):
        settings.extend(
            _synthetic_setting("synthetic", synthetic, k, n, synthetic["horizons"])
            for k in synthetic["n_actions"]
            for n in synthetic["n_policies"]
        )
    long_horizon = online["long_horizon"]
    if long_horizon["horizons"]:
        with _config_key("online.long_horizon"):
            settings.append(
                _synthetic_setting(
                    "long",
                    synthetic,
                    long_horizon["n_actions"],
                    long_horizon["n_policies"],
                    long_horizon["horizons"],
                    long_horizon["last_decade_checkpoints"],
                )
            )
    supervised = online["supervised"]
    if supervised["dataset"] is not None:
        with _config_key("online.supervised"):
            parameters: EnvironmentParameters = SupervisedParameters(
                dataset=str(supervised["dataset"]),
                margin=float(supervised["margin"]),
                n_bins=int(supervised["n_bins"]),
            )
            settings.append(
                OnlineSetting(
                    f"supervised_{supervised['dataset']}",
                    _horizons(supervised["horizons"]),
                    parameters,
                )
            )
    adversarial = online["adversarial"]
    if adversarial["horizons"]:
        with _config_key("online.adversarial"):
            parameters = AdversarialParameters(
                n_actions=int(adversarial["n_actions"]),
                n_policies=int(adversarial["n_policies"]),
                n_features=int(adversarial["n_features"]),
                n_contexts=int(adversarial["n_contexts"]),
                margin=float(adversarial["margin"]),
            )
            name = f"adversarial_K{parameters.n_actions}_N{parameters.n_policies}"
            settings.append(OnlineSetting(name, _horizons(adversarial["horizons"]), parameters))
    mslr = online["mslr"]
    if mslr["matrices"] is not None:
        with _config_key("online.mslr"):
            parameters = MslrParameters(matrices=str(mslr["matrices"]), n_bins=int(mslr["n_bins"]))
            settings.append(OnlineSetting("mslr", _horizons(mslr["horizons"]), parameters))
    return tuple(settings)


#: How each environment is named for a reader.
_ENVIRONMENT_NAMES = {
    "synthetic": "synthetic",
    "supervised": "supervised",
    "adversarial": "adaptive adversary",
    "mslr": "MSLR per query",
}

#: The reading order of the settings' name prefixes.
_PREFIX_ORDER = ("synthetic", "long", "supervised", "adversarial", "mslr")


def setting_order(names: Iterable[str]) -> list[str]:
    """Settings in reading order: synthetic, long, supervised, adversarial, mslr; then K, N."""

    def key(name: str) -> tuple[int, int, int, str]:
        parts = name.split("_")
        numbers = [int(part[1:]) for part in parts[1:] if part[:1] in "KN" and part[1:].isdigit()]
        k, n = (numbers + [0, 0])[:2]
        rank = _PREFIX_ORDER.index(parts[0]) if parts[0] in _PREFIX_ORDER else len(_PREFIX_ORDER)
        return rank, k, n, name

    return sorted(set(names), key=key)


def is_long_run(setting: str) -> bool:
    """Whether ``setting`` is the long run of a synthetic instance (``long_*``)."""
    return setting.startswith("long_")


def setting_kind(setting: str, environment: str) -> str:
    """What kind of setting ``setting`` is, for a reader: e.g. ``supervised (wine data)``.

    The long run of a synthetic instance (``long_*``) and the dataset of a supervised
    setting (``supervised_<dataset>``) are named.
    """
    if is_long_run(setting):
        return "synthetic, long run"
    if environment == "supervised":
        return f"supervised ({setting.removeprefix('supervised_')} data)"
    return _ENVIRONMENT_NAMES.get(environment, environment)


def setting_title(
    setting: str, environment: str, n_actions: int, n_policies: int, separator: str = ": "
) -> str:
    """A setting described for a reader: ``synthetic: K = 3 actions, |Π| = 100 policies``.

    ``separator`` comes between the kind (:func:`setting_kind`) and the numbers.
    """
    kind = setting_kind(setting, environment)
    return f"{kind}{separator}K = {n_actions} actions, |Π| = {n_policies:,} policies"


@dataclass(frozen=True)
class OnlineSweep:
    """The sweep: every setting, seed index, horizon and algorithm, dealt to shards.

    Attributes
    ----------
    settings : tuple of OnlineSetting
    seeds : int
        Episodes per setting and horizon (seed indices ``0..seeds-1``).
    delta : float
        Confidence of the bound of Theorem sparring-exp4 (and of SparringEXP4.P).
    uniform_expert : bool
        Whether SparringEXP4.P's Exp4.P copies get the uniform expert.
    algorithms : tuple of str
        Among :data:`ALGORITHMS`; must include ``"sparring_exp4p"``.
    checkpoints : int
        About this many log-spaced rounds at which each regret curve is evaluated.
    shards : int
        Jobs the sweep is split into.
    """

    #: The config keys this reads.
    CONFIG_KEYS: ClassVar[tuple[str, ...]] = SWEEP_KEYS

    settings: tuple[OnlineSetting, ...]
    seeds: int
    delta: float
    uniform_expert: bool
    algorithms: tuple[str, ...]
    checkpoints: int
    shards: int

    def __post_init__(self) -> None:
        with _config_key("online"):
            if not self.settings:
                raise ValueError(
                    "every setting is disabled (synthetic.n_actions is empty, the horizons of "
                    "long_horizon and adversarial are empty, supervised.dataset and "
                    "mslr.matrices are null); enable at least one"
                )
            if all(setting.environment == "adversarial" for setting in self.settings):
                raise ValueError(
                    "the online-to-batch table needs a setting with a finite context "
                    "population (synthetic, long_horizon, supervised or mslr); only the "
                    "adversarial one is enabled"
                )
        with _config_key("online.seeds"):
            if self.seeds < 2:
                raise ValueError(f"need at least 2 seeds for intervals; got {self.seeds}")
        with _config_key("online.delta"):
            if not 0.0 < self.delta < 1.0:
                raise ValueError(f"must be in (0, 1); got {self.delta}")
        with _config_key("online.algorithms"):
            unknown = [name for name in self.algorithms if name not in ALGORITHMS]
            if unknown or len(set(self.algorithms)) != len(self.algorithms):
                raise ValueError(
                    f"must be distinct names among {list(ALGORITHMS)}; got {list(self.algorithms)}"
                )
            if "sparring_exp4p" not in self.algorithms:
                raise ValueError(
                    "must include sparring_exp4p (the coverage and online-to-batch tables are "
                    f"about it); got {list(self.algorithms)}"
                )
        with _config_key("online.checkpoints"):
            if self.checkpoints < 2:
                raise ValueError(f"must be at least 2; got {self.checkpoints}")
        with _config_key("online.shards"):
            _check_positive(shards=self.shards)

    @classmethod
    def from_config(cls, online: Mapping[str, Any]) -> OnlineSweep:
        """Parse the keys :data:`SWEEP_KEYS` of the ``online`` section (others are ignored)."""
        return cls(
            settings=online_settings(online),
            seeds=int(online["seeds"]),
            delta=float(online["delta"]),
            uniform_expert=bool(online["uniform_expert"]),
            algorithms=tuple(str(name) for name in online["algorithms"]),
            checkpoints=int(online["checkpoints"]),
            shards=int(online["shards"]),
        )


@dataclass(frozen=True)
class ExactWinnerSettings:
    """The exact contextual von Neumann winners of the settings with small classes.

    Attributes
    ----------
    settings : tuple of OnlineSetting
        The adversarial setting, which has no population, is skipped.
    lp_solver : str or None
        The cvxpy LP solver (None: cvxpy chooses); must be installed.
    lp_max_policies : int
        Largest number of distinct policies for which the LP is solved.
    """

    #: The config keys this reads.
    CONFIG_KEYS: ClassVar[tuple[str, ...]] = EXACT_WINNER_KEYS

    settings: tuple[OnlineSetting, ...]
    lp_solver: str | None
    lp_max_policies: int

    def __post_init__(self) -> None:
        with _config_key("online.lp_solver"):
            if self.lp_solver is not None:
                check_solver_name(self.lp_solver)
        with _config_key("online.lp_max_policies"):
            _check_positive(lp_max_policies=self.lp_max_policies)

    @classmethod
    def from_config(cls, online: Mapping[str, Any]) -> ExactWinnerSettings:
        """Parse the keys :data:`EXACT_WINNER_KEYS` of the ``online`` section."""
        solver = online["lp_solver"]
        return cls(
            settings=online_settings(online),
            lp_solver=None if solver is None else str(solver),
            lp_max_policies=int(online["lp_max_policies"]),
        )


@dataclass(frozen=True)
class OnlineSettings:
    """The whole ``online`` section: the sweep and the exact winners.

    Attributes
    ----------
    sweep : OnlineSweep
    exact_winners : ExactWinnerSettings
    """

    sweep: OnlineSweep
    exact_winners: ExactWinnerSettings

    @property
    def mslr_matrices(self) -> str | None:
        """The per-query matrices the ``mslr`` setting reads (None without it)."""
        for setting in self.sweep.settings:
            if isinstance(setting.parameters, MslrParameters):
                return setting.parameters.matrices
        return None

    @classmethod
    def from_config(cls, online: Mapping[str, Any]) -> OnlineSettings:
        """Parse the ``online`` section (every check of the family runs here).

        Raises
        ------
        ValueError
            One line that starts with the rejected config key.
        """
        return cls(
            sweep=OnlineSweep.from_config(online),
            exact_winners=ExactWinnerSettings.from_config(online),
        )
