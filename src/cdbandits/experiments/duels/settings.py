"""The ``duels`` config section: one typed model of every key, and the rules across keys.

An environment (:class:`DuelsEnvironment`) is built by one of five recipes (its ``kind``,
described in its docstring, which is also the description of the config's entries): a
published matrix, an ATP period, a PrefLib election, a synthetic contextual environment,
or an environment of the online family. :class:`DuelsSweep` is the section without the
jobs' runtime: the environments, the algorithms (:data:`ALGORITHMS`, and
:data:`CONTEXTUAL_ALGORITHMS` on the contextual environments only), horizon, seeds,
shards, the leaderboard's horizons, optional horizon caps that shorten chosen
algorithms' runs at large ``K``, and optional tuned variants (:class:`TunedAlgorithm`: a
K-armed algorithm with chosen hyper-parameters, such as a paper's tuned configuration of
:data:`cdbandits.karmed.published.TUNED_CONFIGURATIONS`); the runs it makes are in
:mod:`.experiments`.
"""

from __future__ import annotations

from functools import cached_property
from typing import Annotated, Any, Literal, get_args

from pydantic import AfterValidator, Field, ValidationError, WithJsonSchema, model_validator

from ...datasets import DATA_FILES
from ..config_model import (
    Actions,
    ConfigError,
    ConfigModel,
    Horizons,
    PositiveInt,
    config_error,
    distinct,
    not_filled_in,
    rule,
)
from ..online.settings import PARAMETERS, AdversarialParameters, EnvironmentParameters

__all__ = [
    "ALGORITHMS",
    "CONTEXTUAL_ALGORITHMS",
    "DuelAlgorithm",
    "DuelsEnvironment",
    "DuelsSection",
    "DuelsSweep",
    "HorizonCap",
    "TunedAlgorithm",
]

#: The K-armed algorithms of :mod:`cdbandits.karmed` (its ``ALGORITHMS`` keys, in its order).
KArmedAlgorithm = Literal[
    "rucb", "merge_rucb", "ccb", "rmed1", "dts", "merge_dts", "self_sparring",
    "sparring_exp3_karmed", "versatile_db",
]  # fmt: skip
#: The algorithms that use the context: the paper's SparringEXP4.P and explore-then-exploit
#: (SparringFPL), CoLSTIM, MaxInP and DBGD.
ContextualAlgorithm = Literal["sparring_exp4p", "explore_exploit_fpl", "colstim", "maxinp", "dbgd"]
DuelAlgorithm = Literal[KArmedAlgorithm, ContextualAlgorithm]
ALGORITHMS: tuple[str, ...] = get_args(KArmedAlgorithm)
CONTEXTUAL_ALGORITHMS: tuple[str, ...] = get_args(ContextualAlgorithm)

EnvironmentKind = Literal["matrix", "atp", "preflib", "contextual", "online"]

#: The keys each kind of environment needs, and those it may take, besides name, kind, title.
_REQUIRED_KEYS = {
    "matrix": ("data",),
    "atp": ("data", "players"),
    "preflib": ("data",),
    "contextual": ("contexts", "actions", "features", "policies"),
    "online": ("setting",),
}
_OPTIONAL_KEYS = {
    "matrix": ("arms",),
    "atp": (),
    "preflib": (),
    "contextual": ("horizon",),
    "online": ("parameters", "components", "horizon"),
}


def _known_data_key(key: str) -> str:
    if key not in DATA_FILES:
        raise ConfigError(f"unknown data key {key!r} (see cdbandits.datasets.DATA_FILES)")
    return key


class DuelsEnvironment(ConfigModel):
    """One environment, built by the rule build_duels_environment. kind matrix: a published
    preference matrix file (data: its key; arms: a random subset of that many arms drawn
    per seed, all arms when absent); atp: Sackmann's ATP result files, one per year
    (players: how many players with the most match wins; every pair must have met);
    preflib: a PrefLib election (share of voters ranking i above j); contextual: no data
    file, a synthetic linear-utility contextual environment drawn from the seed (contexts
    contexts of actions arms with features features each, and a class of policies linear
    argmax policies; the contextual algorithms run on it next to the K-armed ones, which
    see no context); online: no data file, an environment of the online family with its
    policy class (setting, parameters; every algorithm runs on it; the adaptive adversary
    has no von Neumann winner and is ranked by rd1 in hindsight). horizon, one of
    duels.leaderboard_horizons, shortens the runs of a contextual or online environment."""

    name: Annotated[str, Field(pattern=r"^[a-z0-9_]+$")]
    """Identifier (lower case, digits, _)."""
    kind: EnvironmentKind
    """How the environment is built."""
    title: str | None = None
    """Title in figures and tables (the name when absent)."""
    data: tuple[Annotated[str, AfterValidator(_known_data_key)], ...] = ()
    """Data keys of the files read (keys of cdbandits.datasets.DATA_FILES; one, except for
    atp; none for contextual and online)."""
    arms: Annotated[int, Field(ge=2)] | None = None
    """matrix only, a random subset of this many arms per seed (all arms when absent)."""
    players: Annotated[int, Field(ge=2)] | None = None
    """atp only, the players with the most match wins (every pair must have met)."""
    contexts: PositiveInt | None = None
    """contextual only, contexts."""
    actions: Actions | None = None
    """contextual only, arms per context."""
    features: PositiveInt | None = None
    """contextual only, features per arm."""
    policies: PositiveInt | None = None
    """contextual only, linear argmax policies in the class."""
    horizon: Annotated[int, Field(ge=2)] | None = None
    """contextual and online only, rounds of its runs, one of duels.leaderboard_horizons
    (default duels.horizon)."""
    setting: Literal["synthetic", "supervised", "mslr", "adversarial"] | None = None
    """online only, which setting of the online family: synthetic (intransitive population,
    random linear argmax policies), supervised (a scikit-learn dataset turned into duels,
    decision stumps), mslr (the per-query MSLR matrices made by the letor rules, decision
    stumps) or adversarial (the adaptive adversary over Gaussian contexts, random linear
    argmax policies: each round the action after the learner's most played one in the
    context wins by `margin`)."""
    parameters: Annotated[dict[str, Any], WithJsonSchema({"type": "object"})] | None = None
    """online only, the setting's parameters: keys of online.synthetic, online.supervised,
    online.mslr or online.adversarial (one value each), with the defaults of
    cdbandits.experiments.online.settings (SyntheticParameters, ...) for the keys not
    given."""
    components: PositiveInt = Field(5, json_schema_extra=not_filled_in)
    """online only (default 5), CoLSTIM, MaxInP and DBGD see action a of context x as e_a (x)
    z(x), z(x) the context's features or, when it has more, their first this many principal
    components (standardised)."""

    @model_validator(mode="before")
    @classmethod
    def _title_defaults_to_the_name(cls, entry: Any) -> Any:
        if isinstance(entry, dict) and entry.get("title") is None and "name" in entry:
            return {**entry, "title": entry["name"]}
        return entry

    @rule("kind")
    def _keys_of_the_kind(self) -> None:
        kind = self.kind
        given = {
            key
            for key in {*sum(_REQUIRED_KEYS.values(), ()), *sum(_OPTIONAL_KEYS.values(), ())}
            if key in self.model_fields_set and getattr(self, key) not in (None, ())
        }
        for key in sorted(given - {*_REQUIRED_KEYS[kind], *_OPTIONAL_KEYS[kind]}):
            raise ConfigError(f"not a key of kind {kind}", key)
        for key in _REQUIRED_KEYS[kind]:
            if key not in given:
                raise ConfigError(f"required for kind {kind}", key)
        if kind in ("matrix", "preflib") and len(self.data) != 1:
            raise ConfigError(f"a {kind} environment reads one file; got {list(self.data)}", "data")
        if kind == "online":
            try:
                self.online  # noqa: B018 (parses the parameters)
            except ValidationError as error:
                raise config_error(error, "parameters") from None

    @cached_property
    def online(self) -> EnvironmentParameters | None:
        """``"online"`` only: the online setting's parameters."""
        if self.setting is None:
            return None
        return PARAMETERS[self.setting].model_validate(self.parameters or {})

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
        matrices = getattr(self.online, "matrices", None)
        return () if matrices is None else (matrices,)


class HorizonCap(ConfigModel):
    """Run ``algorithms`` only up to ``horizon`` on environments of at least ``min_arms`` arms
    (among ``environments``, or on every environment when it is empty)."""

    algorithms: distinct(DuelAlgorithm)
    """The algorithms capped."""
    min_arms: Annotated[int, Field(ge=2)]
    """Arms from which the cap applies."""
    horizon: PositiveInt
    """The capped horizon, one of duels.leaderboard_horizons."""
    environments: tuple[str, ...] = ()
    """Names of duels.environments the cap applies to (every environment when empty)."""


#: A hyper-parameter value of a tuned variant (the constructors take numbers and names).
ParameterValue = float | int | str


class TunedAlgorithm(ConfigModel):
    """A K-armed algorithm of cdbandits.karmed with chosen hyper-parameters, run under its own
    name (the key of duels.tuned) on every environment without context, next to
    duels.algorithms."""

    algorithm: KArmedAlgorithm
    """The algorithm (an identifier of cdbandits.karmed.ALGORITHMS)."""
    parameters: dict[str, ParameterValue] = {}
    """Keyword arguments of its constructor (e.g. alpha, time_offset, partition_size of
    merge_dts); the others keep their defaults."""

    @rule("algorithm", "parameters")
    def _the_algorithm_accepts_the_parameters(self) -> None:
        import warnings

        from ...karmed import make_algorithm  # compiled code: imported only when used

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # alpha <= 1/2: the run warns
            try:
                make_algorithm(self.algorithm, **self.parameters)
            except (TypeError, ValueError) as error:
                raise ConfigError(str(error), "parameters") from None


def _mslr(name: str, arms: int | None = None) -> dict[str, Any]:
    size = f"{arms} random rankers" if arms else "all 136 rankers"
    entry = {"name": f"mslr_{name}" + (f"_k{arms}" if arms else ""), "kind": "matrix"}
    return (
        entry
        | {"data": [f"mslr_{name}"]}
        | ({"arms": arms} if arms else {})
        | {"title": f"MSLR {name}, {size}"}
    )


_ATP_2000S = [f"atp_matches_{year}" for year in range(2000, 2010)]
_SYNTHETIC = {"n_actions": 3, "n_policies": 100, "n_features": 5, "n_contexts": 200,
              "intransitivity": 0.8}  # fmt: skip
_ADVERSARIAL = {"n_actions": 3, "n_policies": 100, "n_features": 5, "n_contexts": 50,
                "margin": 0.8}  # fmt: skip
ENVIRONMENTS: list[dict[str, Any]] = [
    *(_mslr(name) for name in ("informational", "navigational", "perfect")),
    *(_mslr(name, 16) for name in ("informational", "navigational", "perfect")),
    {"name": "arxiv", "kind": "matrix", "data": ["pref_arxiv"], "title": "arXiv, 6 rankers"},
    {"name": "atp_2000s", "kind": "atp", "data": _ATP_2000S, "players": 10,
     "title": "ATP 2000-2009, 10 players with most wins"},
    {"name": "f1_2007", "kind": "preflib", "data": ["preflib_00052_00000058_soc"],
     "title": "Formula 1 2007 season, 19 drivers (PrefLib)"},
    {"name": "skate_olympics_pairs", "kind": "preflib", "data": ["preflib_00006_00000012_soc"],
     "title": "1998 Olympics pairs free skate, 20 pairs (PrefLib)"},
    {"name": "linear_contexts", "kind": "contextual", "contexts": 50, "actions": 5,
     "features": 5, "policies": 200, "horizon": 100000,
     "title": "Contextual: linear utilities, 5 actions in 50 contexts, 200 policies"},
    {"name": "online_synthetic", "kind": "online", "setting": "synthetic", "horizon": 100000,
     "parameters": _SYNTHETIC,
     "title": "Online synthetic: intransitive, 3 actions in 200 contexts, 100 linear policies"},
    {"name": "online_wine", "kind": "online", "setting": "supervised", "horizon": 100000,
     "parameters": {"dataset": "wine", "margin": 0.6, "n_bins": 4},
     "title": "Online supervised: wine data, 3 actions, decision stumps"},
    {"name": "online_mslr", "kind": "online", "setting": "mslr", "horizon": 100000,
     "parameters": {"matrices": "results/letor/per_query/sample_informational.npz",
                    "n_bins": 2},
     "title": "Online MSLR per query: 8 rankers in 86 queries, decision stumps"},
    {"name": "online_adversarial", "kind": "online", "setting": "adversarial",
     "horizon": 100000, "parameters": _ADVERSARIAL,
     "title": "Online adaptive adversary: 3 actions, 50 contexts, 100 linear policies"},
]  # fmt: skip


class DuelsSweep(ConfigModel):
    """The ``duels`` section but the jobs' runtime (see the module docstring)."""

    environments: Annotated[tuple[DuelsEnvironment, ...], Field(min_length=1)] = Field(
        ENVIRONMENTS, validate_default=True
    )
    """The environments, each built by the rule build_duels_environment from the data files
    named in `data` (keys of cdbandits.datasets.DATA_FILES)."""

    algorithms: distinct(DuelAlgorithm) = ALGORITHMS + CONTEXTUAL_ALGORITHMS
    """Algorithms of cdbandits.karmed, run on every environment, and the contextual ones
    (SparringEXP4.P, explore-then-exploit with SparringFPL, CoLSTIM, MaxInP, DBGD), run on
    the contextual environments only."""
    horizon: Annotated[int, Field(ge=2)] = 100000
    """Rounds of every run, unless a horizon cap applies."""
    seeds: Annotated[int, Field(ge=2)] = 10
    """Runs per (environment, algorithm), seed indices 0..seeds-1. All algorithms of a seed
    meet the same arms (subset environments) and environment uniforms."""
    shards: PositiveInt = 4
    """Jobs the runs are dealt to (round robin over environment, algorithm, seed, so each
    costs about the same); results do not depend on it."""
    checkpoints: Annotated[int, Field(ge=2)] = 25
    """About this many log-spaced rounds at which each run's regret is recorded exactly (the
    leaderboard horizons are added)."""
    leaderboard_horizons: Annotated[Horizons, Field(min_length=1)] = (1000, 10000, 100000)
    """Increasing horizons the leaderboard reports; the last must equal horizon."""
    horizon_caps: tuple[HorizonCap, ...] = ()
    """Shorter horizons for algorithms too slow for the full horizon."""
    tuned: dict[Annotated[str, Field(pattern=r"^[a-z0-9_]+$")], TunedAlgorithm] = {}
    """Tuned variants by name (lower case, digits, _; not an algorithm's identifier), each
    run like the algorithms on every environment without context; config/duels-large.yaml
    runs the tuned configurations of the MergeDTS paper's experiments
    (cdbandits.karmed.published.TUNED_CONFIGURATIONS)."""

    @rule("tuned")
    def _tuned_names_are_not_algorithms(self) -> None:
        for name in self.tuned:
            if name in ALGORITHMS + CONTEXTUAL_ALGORITHMS:
                raise ConfigError(
                    "the name of an algorithm; give the variant its own", f"tuned.{name}"
                )

    @rule("environments")
    def _names_are_distinct(self) -> None:
        names = [environment.name for environment in self.environments]
        if len(set(names)) != len(names):
            raise ConfigError(f"names repeat: {names}", "environments")

    @rule("leaderboard_horizons", "horizon", "environments", "horizon_caps")
    def _horizons_are_on_the_leaderboard(self) -> None:
        horizons = list(self.leaderboard_horizons)
        if horizons[-1] != self.horizon:
            raise ConfigError(
                f"the last must be duels.horizon = {self.horizon}; got {horizons}",
                "leaderboard_horizons",
            )
        names = [environment.name for environment in self.environments]
        for index, environment in enumerate(self.environments):
            if environment.horizon is not None and environment.horizon not in horizons:
                raise ConfigError(
                    f"{environment.horizon} must be one of duels.leaderboard_horizons {horizons}",
                    f"environments[{index}].horizon",
                )
        for index, cap in enumerate(self.horizon_caps):
            if cap.horizon not in horizons:
                raise ConfigError(
                    f"{cap.horizon} must be one of duels.leaderboard_horizons {horizons}",
                    f"horizon_caps[{index}].horizon",
                )
            unknown = sorted(set(cap.environments) - set(names))
            if unknown:
                raise ConfigError(
                    f"unknown environments {unknown}; known: {names}",
                    f"horizon_caps[{index}].environments",
                )

    def environment(self, name: str) -> DuelsEnvironment:
        """The environment called ``name``."""
        for environment in self.environments:
            if environment.name == name:
                return environment
        raise KeyError(
            f"no duels environment {name!r}; known: {[e.name for e in self.environments]}"
        )

    def make_karmed(self, name: str) -> Any:
        """The K-armed algorithm a run called ``name`` plays: a tuned variant or an algorithm
        with its defaults."""
        from ...karmed import make_algorithm

        tuned = self.tuned.get(name)
        if tuned is None:
            return make_algorithm(name)
        return make_algorithm(tuned.algorithm, **tuned.parameters)


class DuelsSection(DuelsSweep):
    """The K-armed dueling-bandit algorithms of cdbandits.karmed on preference matrices built
    from real data, and next to the contextual algorithms on contextual environments
    (cdbandits.experiments.duels), measured by regret against the von Neumann winner (eq.
    rd1; constant context, or the exact contextual winner of a policy class; rd1 in
    hindsight on the adaptive adversary, which has no von Neumann winner), Condorcet and
    Copeland regret and wall time per round; leaderboard, figures, published-behaviour
    table, notebook and README section."""

    shard_runtime: PositiveInt = 30
    """Minutes a shard job may take (its runtime resource, SLURM's --time)."""
