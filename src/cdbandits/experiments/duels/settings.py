"""The workflow's ``duels`` config section, parsed once into typed, frozen dataclasses.

An *environment* (:class:`DuelsEnvironment`) is a preference matrix built from public data
by one of three recipes (``kind``):

* ``"matrix"``: a published preference matrix file (the MSLR ranker matrices, the arXiv
  6-ranker matrix), all its arms or, with ``arms`` set, a random subset of ``arms`` arms
  drawn afresh for every seed (as the appendix samples K-subsets);
* ``"atp"``: the ATP head-to-head matrix of the ``players`` players with the most match
  wins in the given years' result files (:mod:`cdbandits.comparisons`);
* ``"preflib"``: the majority matrix of a PrefLib election (share of voters ranking ``i``
  above ``j``);
* ``"contextual"``: a synthetic linear-utility contextual environment
  (:mod:`.contextual`): ``contexts`` contexts of ``actions`` arms with ``features``
  features each, and a class of ``policies`` linear argmax policies over which the regret
  (eq. rd1) and the contextual von Neumann winner are exact. The contextual algorithms
  (:data:`CONTEXTUAL_ALGORITHMS`) run only here, next to the K-armed ones, which see no
  context; ``horizon`` (one of the leaderboard horizons) may shorten its runs;
* ``"online"``: an environment of the online family (:mod:`cdbandits.experiments.online`)
  with its policy class: ``setting`` ``"synthetic"`` (intransitive population, random
  linear policies), ``"supervised"`` (a scikit-learn dataset, decision stumps) or ``"mslr"``
  (the per-query MSLR matrices, decision stumps), with ``parameters`` the keys of that
  ``online.<setting>`` section (:data:`ONLINE_DEFAULTS` for those not given), and
  ``components``, the dimension the arm features of CoLSTIM, MaxInP and DBGD project the
  contexts to (:mod:`.contextual`). Like ``"contextual"`` it is contextual: every algorithm
  runs on it. ``setting: "adversarial"`` is the online family's adaptive adversary (random
  linear policies over Gaussian contexts, parameters those of ``online.adversarial``): its
  matrices depend on the learner's past duels, so every algorithm plays it round by round
  and it is ranked by rd1 in hindsight, having no von Neumann winner
  (:mod:`.adversarial`).

:class:`DuelsSweep` is the whole section: the environments, the algorithms of
:mod:`cdbandits.karmed`, the horizon, seeds, shards, the horizons of the leaderboard and
optional horizon caps that shorten the runs of chosen algorithms at large ``K`` (none
by default). Every error names the config key, e.g. ``duels.leaderboard_horizons: 200000 exceeds
duels.horizon = 100000``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..online.settings import (
    AdversarialParameters,
    EnvironmentParameters,
    MslrParameters,
    SupervisedParameters,
    SyntheticParameters,
)

__all__ = [
    "ALGORITHMS",
    "CONTEXTUAL_ALGORITHMS",
    "ENVIRONMENT_KINDS",
    "ONLINE_DEFAULTS",
    "ONLINE_SETTINGS",
    "DuelsEnvironment",
    "DuelsSweep",
    "EnvironmentKind",
    "HorizonCap",
    "Task",
]

#: The K-armed algorithms of :mod:`cdbandits.karmed` (its ``ALGORITHMS`` keys, in its order;
#: kept here so that parsing the config does not compile anything).
ALGORITHMS: tuple[str, ...] = (
    "rucb",
    "merge_rucb",
    "ccb",
    "rmed1",
    "dts",
    "merge_dts",
    "self_sparring",
    "sparring_exp3_karmed",
    "versatile_db",
)

#: The algorithms that use the context, run on the contextual environments only: the paper's
#: SparringEXP4.P and explore-then-exploit (SparringFPL), CoLSTIM, MaxInP and DBGD.
CONTEXTUAL_ALGORITHMS: tuple[str, ...] = (
    "sparring_exp4p",
    "explore_exploit_fpl",
    "colstim",
    "maxinp",
    "dbgd",
)

EnvironmentKind = Literal["matrix", "atp", "preflib", "contextual", "online"]
ENVIRONMENT_KINDS: tuple[EnvironmentKind, ...] = (
    "matrix",
    "atp",
    "preflib",
    "contextual",
    "online",
)

#: The online settings an ``"online"`` environment may use, with the defaults of their
#: parameters (those of the ``online`` section's defaults).
ONLINE_DEFAULTS: dict[str, dict[str, Any]] = {
    "synthetic": {
        "n_actions": 3,
        "n_policies": 100,
        "n_features": 5,
        "n_contexts": 200,
        "intransitivity": 0.8,
    },
    "supervised": {"dataset": "wine", "margin": 0.6, "n_bins": 4},
    "mslr": {"matrices": "results/letor/per_query/sample_informational.npz", "n_bins": 2},
    "adversarial": {
        "n_actions": 3,
        "n_policies": 1000,
        "n_features": 5,
        "n_contexts": 50,
        "margin": 0.8,
    },
}
ONLINE_SETTINGS: tuple[str, ...] = tuple(ONLINE_DEFAULTS)

#: Default of an online environment's ``components``.
DEFAULT_COMPONENTS = 5

_CONTEXTUAL_KEYS = ("contexts", "actions", "features", "policies", "horizon")
_ONLINE_KEYS = ("setting", "parameters", "components", "horizon")

_NAME = re.compile(r"[a-z0-9_]+")


class _ConfigError(ValueError):
    """A config value the code rejects; the message starts with the config key."""


def _integer(key: str, value: Any, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise _ConfigError(f"{key}: expected an integer >= {minimum}; got {value!r}")
    return value


def _known_algorithms(key: str, names: Sequence[str]) -> tuple[str, ...]:
    known = ALGORITHMS + CONTEXTUAL_ALGORITHMS
    unknown = [name for name in names if name not in known]
    if unknown:
        raise _ConfigError(f"{key}: unknown algorithms {unknown}; known: {list(known)}")
    if len(set(names)) != len(names):
        raise _ConfigError(f"{key}: algorithms repeat: {list(names)}")
    return tuple(names)


def _title(entry: Mapping[str, Any], key: str, name: str) -> str:
    title = entry.get("title", name)
    if not isinstance(title, str) or not title:
        raise _ConfigError(f"{key}.title: expected a non-empty string; got {title!r}")
    return title


@dataclass(frozen=True)
class DuelsEnvironment:
    """One environment (see the module docstring).

    Attributes
    ----------
    name : str
        Identifier in tables and file names (lower case, digits, ``_``).
    kind : {"matrix", "atp", "preflib", "contextual"}
    data : tuple of str
        Keys of :data:`cdbandits.datasets.DATA_FILES` the environment is built from (none
        for a contextual environment).
    title : str
        What a reader sees in figures and tables.
    arms : int or None
        ``"matrix"`` only: size of the random subset drawn for every seed (None: all arms).
    players : int or None
        ``"atp"`` only: how many players (most match wins first).
    contexts, actions, features, policies : int or None
        ``"contextual"`` only: number of contexts, arms per context, features per arm, and
        policies in the class.
    horizon : int or None
        ``"contextual"`` and ``"online"`` only: rounds of its runs (None: the sweep's
        horizon).
    online : EnvironmentParameters or None
        ``"online"`` only: the online setting and its parameters (synthetic, supervised,
        mslr or adversarial).
    components : int or None
        ``"online"`` only: the contexts' dimension in the arm features.
    """

    name: str
    kind: EnvironmentKind
    data: tuple[str, ...]
    title: str
    arms: int | None = None
    players: int | None = None
    contexts: int | None = None
    actions: int | None = None
    features: int | None = None
    policies: int | None = None
    horizon: int | None = None
    online: EnvironmentParameters | None = None
    components: int | None = None

    @property
    def contextual(self) -> bool:
        """Whether the context is observed (``"contextual"`` and ``"online"``)."""
        return self.kind in ("contextual", "online")

    @property
    def adversarial(self) -> bool:
        """Whether it is the adaptive adversary (no population, no von Neumann winner)."""
        return isinstance(self.online, AdversarialParameters)

    @property
    def files(self) -> tuple[str, ...]:
        """Files other than ``data`` the environment reads (an online ``mslr`` matrices file)."""
        if isinstance(self.online, MslrParameters):
            return (self.online.matrices,)
        return ()

    @classmethod
    def from_config(cls, entry: Mapping[str, Any], key: str) -> DuelsEnvironment:
        """Parse one entry of ``duels.environments`` (``key`` names it in errors)."""
        unknown = sorted(
            set(entry)
            - {"name", "kind", "data", "title", "arms", "players", *_CONTEXTUAL_KEYS, *_ONLINE_KEYS}
        )
        if unknown:
            raise _ConfigError(f"{key}: unknown keys {unknown}")
        name = entry.get("name")
        if not isinstance(name, str) or not _NAME.fullmatch(name):
            raise _ConfigError(f"{key}.name: expected lower case letters, digits, _; got {name!r}")
        kind = entry.get("kind")
        if kind not in ENVIRONMENT_KINDS:
            raise _ConfigError(f"{key}.kind: expected one of {ENVIRONMENT_KINDS}; got {kind!r}")
        if kind == "contextual":
            return cls._contextual(entry, key, name)
        if kind == "online":
            return cls._online(entry, key, name)
        extra = sorted(set(entry) & {*_CONTEXTUAL_KEYS, *_ONLINE_KEYS})
        if extra:
            raise _ConfigError(
                f"{key}: {extra} apply to a contextual environment (or an online one) only"
            )
        data = entry.get("data")
        if (
            not isinstance(data, list | tuple)
            or not data
            or not all(isinstance(item, str) for item in data)
        ):
            raise _ConfigError(f"{key}.data: expected a non-empty list of data keys; got {data!r}")
        if kind != "atp" and len(data) != 1:
            raise _ConfigError(f"{key}.data: a {kind} environment reads one file; got {data}")
        arms, players = entry.get("arms"), entry.get("players")
        if arms is not None:
            if kind != "matrix":
                raise _ConfigError(f"{key}.arms: only a matrix environment takes a subset size")
            arms = _integer(f"{key}.arms", arms, 2)
        if kind == "atp":
            players = _integer(f"{key}.players", players, 2)
        elif players is not None:
            raise _ConfigError(f"{key}.players: only an atp environment has players")
        return cls(name, kind, tuple(data), _title(entry, key, name), arms, players)

    @classmethod
    def _online(cls, entry: Mapping[str, Any], key: str, name: str) -> DuelsEnvironment:
        _no_data(entry, key, "an online", ("arms", "players", *_CONTEXTUAL_KEYS[:-1]))
        setting = entry.get("setting")
        if setting not in ONLINE_SETTINGS:
            raise _ConfigError(f"{key}.setting: expected one of {ONLINE_SETTINGS}; got {setting!r}")
        given = entry.get("parameters", {})
        if not isinstance(given, Mapping):
            raise _ConfigError(f"{key}.parameters: expected a mapping; got {given!r}")
        unknown = sorted(set(given) - set(ONLINE_DEFAULTS[setting]))
        if unknown:
            raise _ConfigError(
                f"{key}.parameters: unknown keys {unknown} for the {setting} setting; known: "
                f"{sorted(ONLINE_DEFAULTS[setting])}"
            )
        values = ONLINE_DEFAULTS[setting] | dict(given)
        kinds: dict[str, type[EnvironmentParameters]] = {
            "synthetic": SyntheticParameters,
            "supervised": SupervisedParameters,
            "mslr": MslrParameters,
            "adversarial": AdversarialParameters,
        }
        try:
            parameters = kinds[setting](**values)
        except (TypeError, ValueError) as error:
            raise _ConfigError(f"{key}.parameters: {error}") from None
        components = _integer(f"{key}.components", entry.get("components", DEFAULT_COMPONENTS), 1)
        horizon = entry.get("horizon")
        if horizon is not None:
            horizon = _integer(f"{key}.horizon", horizon, 2)
        return cls(
            name,
            "online",
            (),
            _title(entry, key, name),
            horizon=horizon,
            online=parameters,
            components=components,
        )

    @classmethod
    def _contextual(cls, entry: Mapping[str, Any], key: str, name: str) -> DuelsEnvironment:
        _no_data(entry, key, "a contextual", ("arms", "players", *_ONLINE_KEYS[:-1]))
        sizes = {
            size: _integer(f"{key}.{size}", entry.get(size), minimum)
            for size, minimum in (("contexts", 1), ("actions", 2), ("features", 1), ("policies", 1))
        }
        if sizes["actions"] > 255:
            raise _ConfigError(f"{key}.actions: at most 255; got {sizes['actions']}")
        horizon = entry.get("horizon")
        if horizon is not None:
            horizon = _integer(f"{key}.horizon", horizon, 2)
        return cls(name, "contextual", (), _title(entry, key, name), horizon=horizon, **sizes)


def _no_data(entry: Mapping[str, Any], key: str, kind: str, absent: Sequence[str]) -> None:
    for name in absent:
        if name in entry:
            raise _ConfigError(f"{key}.{name}: {kind} environment has no {name}")
    if entry.get("data", []) != []:
        raise _ConfigError(f"{key}.data: {kind} environment reads no data file")


@dataclass(frozen=True)
class HorizonCap:
    """Run ``algorithms`` only up to ``horizon`` on environments of at least ``min_arms`` arms
    (among ``environments``, or on every environment when it is empty)."""

    algorithms: tuple[str, ...]
    min_arms: int
    horizon: int
    environments: tuple[str, ...] = ()

    def applies(self, algorithm: str, n_arms: int, environment: str | None) -> bool:
        """Whether the cap shortens ``algorithm`` on ``n_arms`` arms of ``environment``."""
        return (
            algorithm in self.algorithms
            and n_arms >= self.min_arms
            and (not self.environments or environment in self.environments)
        )


@dataclass(frozen=True)
class Task:
    """One run of the sweep: an algorithm on an environment with one seed index."""

    environment: str
    algorithm: str
    seed_index: int


@dataclass(frozen=True)
class DuelsSweep:
    """The ``duels`` section (see the module docstring).

    Attributes
    ----------
    environments : tuple of DuelsEnvironment
    algorithms : tuple of str
        Identifiers of :data:`ALGORITHMS` (run on every environment) and of
        :data:`CONTEXTUAL_ALGORITHMS` (run on the contextual environments only).
    horizon : int
        Rounds of every run (unless a cap applies).
    seeds : int
        Runs per (environment, algorithm), seed indices ``0 .. seeds - 1``.
    shards : int
        Jobs the runs are dealt to (round robin; the results do not depend on it).
    checkpoints : int
        About this many log-spaced rounds at which regret is recorded (plus the
        leaderboard horizons).
    leaderboard_horizons : tuple of int
        Increasing horizons the leaderboard reports, the last one ``horizon``.
    horizon_caps : tuple of HorizonCap
    """

    environments: tuple[DuelsEnvironment, ...]
    algorithms: tuple[str, ...]
    horizon: int
    seeds: int
    shards: int
    checkpoints: int
    leaderboard_horizons: tuple[int, ...]
    horizon_caps: tuple[HorizonCap, ...]

    @classmethod
    def from_config(cls, section: Mapping[str, Any]) -> DuelsSweep:
        """Parse and check the ``duels`` section; ``ValueError`` naming the key otherwise.

        ``shard_runtime`` (a resource of the workflow's jobs) is not read here."""
        entries = section.get("environments")
        if not isinstance(entries, list | tuple) or not entries:
            raise _ConfigError("duels.environments: expected a non-empty list")
        environments = tuple(
            DuelsEnvironment.from_config(entry, f"duels.environments[{index}]")
            for index, entry in enumerate(entries)
        )
        names = [environment.name for environment in environments]
        if len(set(names)) != len(names):
            raise _ConfigError(f"duels.environments: names repeat: {names}")
        algorithms = _known_algorithms("duels.algorithms", list(section.get("algorithms", [])))
        if not algorithms:
            raise _ConfigError("duels.algorithms: expected at least one algorithm")
        horizon = _integer("duels.horizon", section.get("horizon"), 2)
        seeds = _integer("duels.seeds", section.get("seeds"), 2)
        horizons = tuple(section.get("leaderboard_horizons", ()))
        for value in horizons:
            _integer("duels.leaderboard_horizons", value, 1)
        if not horizons or list(horizons) != sorted(set(horizons)):
            raise _ConfigError(
                f"duels.leaderboard_horizons: expected increasing horizons; got {list(horizons)}"
            )
        if horizons[-1] != horizon:
            raise _ConfigError(
                f"duels.leaderboard_horizons: the last must be duels.horizon = {horizon}; "
                f"got {list(horizons)}"
            )
        for environment in environments:
            if environment.horizon is not None and environment.horizon not in horizons:
                raise _ConfigError(
                    f"duels.environments ({environment.name}).horizon: {environment.horizon} "
                    f"must be one of duels.leaderboard_horizons {list(horizons)}"
                )
        caps = []
        for index, cap in enumerate(section.get("horizon_caps", ())):
            key = f"duels.horizon_caps[{index}]"
            capped = _integer(f"{key}.horizon", cap.get("horizon"), 1)
            if capped not in horizons:
                raise _ConfigError(
                    f"{key}.horizon: {capped} must be one of duels.leaderboard_horizons "
                    f"{list(horizons)}"
                )
            capped_environments = tuple(cap.get("environments", ()))
            unknown = sorted(set(capped_environments) - {e.name for e in environments})
            if unknown:
                raise _ConfigError(
                    f"{key}.environments: unknown environments {unknown}; known: "
                    f"{[e.name for e in environments]}"
                )
            caps.append(
                HorizonCap(
                    _known_algorithms(f"{key}.algorithms", list(cap.get("algorithms", []))),
                    _integer(f"{key}.min_arms", cap.get("min_arms"), 2),
                    capped,
                    capped_environments,
                )
            )
        return cls(
            environments=environments,
            algorithms=algorithms,
            horizon=horizon,
            seeds=seeds,
            shards=_integer("duels.shards", section.get("shards"), 1),
            checkpoints=_integer("duels.checkpoints", section.get("checkpoints"), 2),
            leaderboard_horizons=horizons,
            horizon_caps=tuple(caps),
        )

    def environment(self, name: str) -> DuelsEnvironment:
        """The environment called ``name``."""
        for environment in self.environments:
            if environment.name == name:
                return environment
        raise KeyError(
            f"no duels environment {name!r}; known: {[e.name for e in self.environments]}"
        )

    def horizon_for(
        self, algorithm: str, n_arms: int, environment: DuelsEnvironment | None = None
    ) -> int:
        """Rounds ``algorithm`` plays on ``n_arms`` arms (of ``environment``): the smallest
        applicable cap or environment horizon."""
        own = environment.horizon if environment is not None else None
        name = environment.name if environment is not None else None
        return min(
            [self.horizon if own is None else own]
            + [cap.horizon for cap in self.horizon_caps if cap.applies(algorithm, n_arms, name)]
        )

    def algorithms_on(self, environment: DuelsEnvironment) -> tuple[str, ...]:
        """The algorithms run on ``environment``: the contextual ones on a contextual one only."""
        if environment.contextual:
            return self.algorithms
        return tuple(a for a in self.algorithms if a not in CONTEXTUAL_ALGORITHMS)

    def tasks(self) -> tuple[Task, ...]:
        """Every run, ordered by environment, algorithm and seed."""
        return tuple(
            Task(environment.name, algorithm, seed_index)
            for environment in self.environments
            for algorithm in self.algorithms_on(environment)
            for seed_index in range(self.seeds)
        )

    def shard_tasks(self, shard: int) -> tuple[Task, ...]:
        """The runs of job ``shard``: every ``shards``-th task, so all jobs cost about alike."""
        if not 0 <= shard < self.shards:
            raise ValueError(f"shard must be in 0..{self.shards - 1}; got {shard}")
        return self.tasks()[shard :: self.shards]
