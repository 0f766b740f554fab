"""The ``real_data`` section of the config, parsed once into typed, frozen settings.

:meth:`RealDataSettings.from_config` reads the whole section (the workflow does so when it
starts) and makes every check the jobs would otherwise make late: the data sets and PrefLib
collections exist, every ATP season has a data file, the context analyses and examples name
periods that are defined, the coverage cases are known. A failure is a
:class:`RealDataSettingsError` whose one-line message names the config key. Each part a job
needs is built from just its keys (``from_config``) and gives them back (``to_config``), so a
rule passes only those keys and the job rebuilds exactly these settings.

Nothing here imports the solvers: the workflow parses the settings at start-up.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, Literal

from ...comparisons.settings import UNOBSERVED_POLICIES, UnobservedPolicy
from ...datasets import DATA_FILES
from ...stats import INTERVAL_METHODS, IntervalMethod

__all__ = [
    "ATP_SEASONS",
    "COVERAGE_CASES",
    "DATASETS",
    "PLAYER_RULES",
    "ContextSettings",
    "CoverageSettings",
    "ExampleSettings",
    "PlayerRule",
    "RealDataSettings",
    "RealDataSettingsError",
    "SourceSettings",
    "TREC_DL_QRELS",
    "SubsetSettings",
    "TrecComparisonSettings",
]

#: The item-4 data sets: ATP periods, the PrefLib sports elections (figure skating, Formula 1
#: seasons), the TREC-DL human passage preferences (one tournament per topic) and the
#: published arXiv 6-ranker matrix.
DATASETS: tuple[str, ...] = ("atp", "skate", "f1seasons", "trec_dl", "arxiv")

#: Seasons with an ATP results file in :data:`cdbandits.datasets.DATA_FILES`.
ATP_SEASONS: tuple[int, ...] = tuple(
    sorted(int(key[-4:]) for key in DATA_FILES if re.fullmatch(r"atp_matches_\d{4}", key))
)

#: How the players of a context analysis are chosen (see :mod:`.contexts`).
PlayerRule = Literal["total", "least_context"]
PLAYER_RULES: tuple[PlayerRule, ...] = ("total", "least_context")

#: Coverage checks at the size of a real log (see :mod:`.coverage`).
COVERAGE_CASES: tuple[str, ...] = ("atp", "trec_dl")

#: The TREC-DL authors' published best passages (one set per finalisation phase), with
#: their data keys.
TREC_DL_QRELS: dict[str, str] = {
    "Set-I": "trec_dl_set_i",
    "Set-II": "trec_dl_set_ii",
    "Set-III": "trec_dl_set_iii",
}

_PERIOD_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")


class RealDataSettingsError(ValueError):
    """A config value the real-data family cannot run with; the message names the key."""


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise RealDataSettingsError(message)


def _plain(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


class _ConfigKeys:
    """``to_config``: the config keys a settings dataclass comes from (its fields)."""

    def to_config(self) -> dict[str, Any]:
        """The config keys these settings come from (``from_config`` gives them back)."""
        return {f.name: _plain(getattr(self, f.name)) for f in fields(self)}  # type: ignore[arg-type]


def _check_confidence(confidence: float) -> None:
    _require(0 < confidence < 1, f"real_data.confidence: must lie in (0, 1), got {confidence}")


@dataclass(frozen=True)
class SourceSettings(_ConfigKeys):
    """Which real data are read (keys ``datasets``, ``atp_periods``, ``atp_top``,
    ``max_elections``, ``trec_dl_topics``).

    Attributes
    ----------
    datasets : tuple of str
        Data sets of the subset statistics, among :data:`DATASETS`.
    atp_periods : dict of str to (int, int)
        Named ranges of seasons ``(first, last)``, e.g. ``"2010s": (2010, 2019)``.
    atp_top : int
        Players per period in the subset statistics: those with the most matches.
    max_elections : int or None
        The first elections of each PrefLib collection only (None: all).
    trec_dl_topics : tuple of str or None
        TREC-DL topics to analyse (None: all 50).
    """

    datasets: tuple[str, ...]
    atp_periods: dict[str, tuple[int, int]]
    atp_top: int
    max_elections: int | None
    trec_dl_topics: tuple[str, ...] | None

    def __post_init__(self) -> None:
        unknown = [name for name in self.datasets if name not in DATASETS]
        _require(
            not unknown,
            f"real_data.datasets: unknown data set(s) {unknown}; known: {list(DATASETS)}",
        )
        _require(
            len(set(self.datasets)) == len(self.datasets),
            f"real_data.datasets: listed twice: {list(self.datasets)}",
        )
        _require(len(self.atp_periods) > 0, "real_data.atp_periods: define at least one period")
        for name, (first, last) in self.atp_periods.items():
            key = f"real_data.atp_periods.{name}"
            _require(
                _PERIOD_NAME.fullmatch(name) is not None,
                f"{key}: a period name is letters, digits, '_' and '-', got {name!r}",
            )
            _require(first <= last, f"{key}: first season {first} is after the last, {last}")
            missing = [year for year in range(first, last + 1) if year not in ATP_SEASONS]
            _require(
                not missing,
                f"{key}: no ATP results file for season(s) {missing}; the data cover "
                f"{ATP_SEASONS[0]}-{ATP_SEASONS[-1]}",
            )
        _require(self.atp_top >= 2, f"real_data.atp_top: must be at least 2, got {self.atp_top}")
        _require(
            self.max_elections is None or self.max_elections >= 1,
            f"real_data.max_elections: must be at least 1 or null, got {self.max_elections}",
        )
        if self.trec_dl_topics is not None:
            _require(
                len(self.trec_dl_topics) > 0 and all(t.isdigit() for t in self.trec_dl_topics),
                "real_data.trec_dl_topics: give topic ids (digits) or null, got "
                f"{list(self.trec_dl_topics)}",
            )

    @classmethod
    def from_config(cls, mapping: Mapping[str, Any]) -> SourceSettings:
        """From the keys of the class docstring."""
        topics = mapping["trec_dl_topics"]
        maximum = mapping["max_elections"]
        return cls(
            datasets=tuple(mapping["datasets"]),
            atp_periods={
                str(name): (int(seasons[0]), int(seasons[-1]))
                for name, seasons in mapping["atp_periods"].items()
            },
            atp_top=int(mapping["atp_top"]),
            max_elections=None if maximum is None else int(maximum),
            trec_dl_topics=None if topics is None else tuple(str(t) for t in topics),
        )

    def period_seasons(self, period: str) -> tuple[int, ...]:
        """The seasons of a named period."""
        first, last = self.atp_periods[period]
        return tuple(range(first, last + 1))


@dataclass(frozen=True)
class SubsetSettings(_ConfigKeys):
    """The appendix statistics on real matrices (section ``real_data.subsets``).

    Attributes
    ----------
    samples_per_k : int
        Random K-subsets per series and size K (as the appendix samples them), split
        evenly among the series' matrices (at least one each).
    ks : tuple of int or None
        The sizes K sampled (a matrix takes those up to its size; None: every K from 2).
    resamples : int
        Matrices drawn from each data set's sampling uncertainty, whose statistics give the
        data band (0: none).
    unobserved : {"half", "drop-items", "error"}
        Pairs never compared (:class:`cdbandits.comparisons.CountPolicy`).
    confidence : float
    interval : {"clopper-pearson", "wilson"}
    seed : int
    """

    samples_per_k: int
    ks: tuple[int, ...] | None
    resamples: int
    unobserved: UnobservedPolicy
    confidence: float
    interval: IntervalMethod
    seed: int

    def __post_init__(self) -> None:
        key = "real_data.subsets"
        _require(
            self.samples_per_k >= 1,
            f"{key}.samples_per_k: must be at least 1, got {self.samples_per_k}",
        )
        _require(
            self.ks is None or (list(self.ks) == sorted(set(self.ks)) and self.ks[0] >= 2),
            f"{key}.ks: increasing sizes of at least 2, or null, got {self.ks}",
        )
        _require(
            self.resamples == 0 or self.resamples >= 2,
            f"{key}.resamples: 0 (no data band) or at least 2, got {self.resamples}",
        )
        _require(
            self.unobserved in UNOBSERVED_POLICIES,
            f"{key}.unobserved: must be one of {UNOBSERVED_POLICIES}, got {self.unobserved!r}",
        )
        _check_confidence(self.confidence)
        _require(
            self.interval in INTERVAL_METHODS,
            f"real_data.interval: must be one of {INTERVAL_METHODS}, got {self.interval!r}",
        )

    @classmethod
    def from_config(cls, mapping: Mapping[str, Any]) -> SubsetSettings:
        """From the keys of the class docstring (``seed``: the config's master seed)."""
        ks = mapping["ks"]
        return cls(
            samples_per_k=int(mapping["samples_per_k"]),
            ks=None if ks is None else tuple(int(k) for k in ks),
            resamples=int(mapping["resamples"]),
            unobserved=mapping["unobserved"],
            confidence=float(mapping["confidence"]),
            interval=mapping["interval"],
            seed=int(mapping["seed"]),
        )

    def sizes(self, n_items: int) -> tuple[int, ...] | None:
        """The sizes K sampled in a matrix of ``n_items`` items (None: every K)."""
        return None if self.ks is None else tuple(k for k in self.ks if k <= n_items)


@dataclass(frozen=True)
class ContextSettings(_ConfigKeys):
    """Does context matter? ATP players by surface and by period (``real_data.contexts``).

    Attributes
    ----------
    surface_seasons : (int, int)
        Seasons of the surface analysis.
    surfaces : tuple of str
        The surfaces compared (values of the results' ``surface`` column).
    surface_players, period_players : int
        Players of each analysis.
    surface_players_by, period_players_by : {"total", "least_context"}
        How they are chosen (:func:`.contexts.context_players`).
    periods : tuple of str
        Names of ``real_data.atp_periods`` compared in the period analysis.
    resamples : int
        Bootstrap resamples of the gain (within each context).
    permutations : int
        Context labels shuffled this many times: the gain when context does not matter.
    confidence : float
    seed : int
    """

    surface_seasons: tuple[int, int]
    surfaces: tuple[str, ...]
    surface_players: int
    surface_players_by: PlayerRule
    periods: tuple[str, ...]
    period_players: int
    period_players_by: PlayerRule
    resamples: int
    permutations: int
    confidence: float
    seed: int

    def __post_init__(self) -> None:
        key = "real_data.contexts"
        first, last = self.surface_seasons
        missing = [year for year in range(first, last + 1) if year not in ATP_SEASONS]
        _require(
            first <= last and not missing,
            f"{key}.surface_seasons: [{first}, {last}] is not a range of seasons with ATP "
            f"results ({ATP_SEASONS[0]}-{ATP_SEASONS[-1]})",
        )
        for name in ("surfaces", "periods"):
            values = getattr(self, name)
            _require(
                len(values) >= 2 and len(set(values)) == len(values),
                f"{key}.{name}: give at least two distinct values, got {list(values)}",
            )
        for name in ("surface_players", "period_players"):
            _require(
                getattr(self, name) >= 2,
                f"{key}.{name}: must be at least 2, got {getattr(self, name)}",
            )
        for name in ("surface_players_by", "period_players_by"):
            _require(
                getattr(self, name) in PLAYER_RULES,
                f"{key}.{name}: must be one of {PLAYER_RULES}, got {getattr(self, name)!r}",
            )
        for name in ("resamples", "permutations"):
            _require(
                getattr(self, name) >= 2,
                f"{key}.{name}: must be at least 2, got {getattr(self, name)}",
            )
        _check_confidence(self.confidence)

    @classmethod
    def from_config(cls, mapping: Mapping[str, Any]) -> ContextSettings:
        """From the keys of the class docstring."""
        seasons = mapping["surface_seasons"]
        return cls(
            surface_seasons=(int(seasons[0]), int(seasons[-1])),
            surfaces=tuple(str(s) for s in mapping["surfaces"]),
            surface_players=int(mapping["surface_players"]),
            surface_players_by=mapping["surface_players_by"],
            periods=tuple(str(p) for p in mapping["periods"]),
            period_players=int(mapping["period_players"]),
            period_players_by=mapping["period_players_by"],
            resamples=int(mapping["resamples"]),
            permutations=int(mapping["permutations"]),
            confidence=float(mapping["confidence"]),
            seed=int(mapping["seed"]),
        )


@dataclass(frozen=True)
class TrecComparisonSettings(_ConfigKeys):
    """Our winners of each TREC-DL topic against the published best passages
    (``real_data.trec_dl``).

    Attributes
    ----------
    qrels : tuple of str
        The authors' sets of best passages compared, among ``Set-I``, ``Set-II``,
        ``Set-III``.
    resamples : int
        Beta-posterior resamples of each topic (support probabilities).
    confidence : float
    seed : int
    """

    qrels: tuple[str, ...]
    resamples: int
    confidence: float
    seed: int

    def __post_init__(self) -> None:
        key = "real_data.trec_dl"
        unknown = [name for name in self.qrels if name not in TREC_DL_QRELS]
        _require(
            len(self.qrels) > 0 and not unknown,
            f"{key}.qrels: give some of {list(TREC_DL_QRELS)}, got {list(self.qrels)}",
        )
        _require(self.resamples >= 2, f"{key}.resamples: must be at least 2, got {self.resamples}")
        _check_confidence(self.confidence)

    @classmethod
    def from_config(cls, mapping: Mapping[str, Any]) -> TrecComparisonSettings:
        """From the keys of the class docstring."""
        return cls(
            qrels=tuple(mapping["qrels"]),
            resamples=int(mapping["resamples"]),
            confidence=float(mapping["confidence"]),
            seed=int(mapping["seed"]),
        )


@dataclass(frozen=True)
class CoverageSettings(_ConfigKeys):
    """Coverage of the intervals at the sizes of real logs (``real_data.coverage``).

    Attributes
    ----------
    cases : tuple of str
        Among :data:`COVERAGE_CASES`: the ATP example's players, the TREC-DL example topic.
    replications : int
        Synthetic logs per case (the issue asks for at least 500).
    resamples : int
        Resampled matrices per log and method.
    shards : int
        Jobs per case (independent random streams; the tables add up).
    confidence, tolerance : float
        ``passes`` when the coverage is at least ``confidence - tolerance``.
    seed : int
    """

    cases: tuple[str, ...]
    replications: int
    resamples: int
    shards: int
    confidence: float
    tolerance: float
    seed: int

    def __post_init__(self) -> None:
        key = "real_data.coverage"
        unknown = [case for case in self.cases if case not in COVERAGE_CASES]
        _require(
            len(self.cases) > 0 and not unknown and len(set(self.cases)) == len(self.cases),
            f"{key}.cases: distinct values among {list(COVERAGE_CASES)}, got {list(self.cases)}",
        )
        _require(
            self.replications >= self.shards,
            f"{key}.replications: {self.replications} cannot be split into {self.shards} "
            f"shards ({key}.shards); give at least one replication per shard",
        )
        _require(self.shards >= 1, f"{key}.shards: must be at least 1, got {self.shards}")
        _require(self.resamples >= 2, f"{key}.resamples: must be at least 2, got {self.resamples}")
        _check_confidence(self.confidence)
        _require(
            0 <= self.tolerance < self.confidence,
            f"{key}.tolerance: must lie in [0, confidence), got {self.tolerance}",
        )

    @classmethod
    def from_config(cls, mapping: Mapping[str, Any]) -> CoverageSettings:
        """From the keys of the class docstring."""
        return cls(
            cases=tuple(mapping["cases"]),
            replications=int(mapping["replications"]),
            resamples=int(mapping["resamples"]),
            shards=int(mapping["shards"]),
            confidence=float(mapping["confidence"]),
            tolerance=float(mapping["tolerance"]),
            seed=int(mapping["seed"]),
        )

    def shard_replications(self, shard: int) -> int:
        """Replications of shard ``shard`` (the remainder goes to the first shards)."""
        if not 0 <= shard < self.shards:
            raise ValueError(f"shard {shard} does not exist among {self.shards} shards")
        base, extra = divmod(self.replications, self.shards)
        return base + (shard < extra)


@dataclass(frozen=True)
class ExampleSettings(_ConfigKeys):
    """The README's worked examples of ``cdbandits winners --pairs`` (``real_data.examples``).

    Attributes
    ----------
    atp_period : str
        A name of ``real_data.atp_periods``: its season files are the ATP example's log.
    atp_top : int
        ``--top``: the players with the most matches.
    trec_dl_topic : str
        ``--context-value`` of the TREC-DL example.
    resamples : int
        ``--resamples``.
    seed : int
        ``--seed``.
    """

    atp_period: str
    atp_top: int
    trec_dl_topic: str
    resamples: int
    seed: int

    def __post_init__(self) -> None:
        key = "real_data.examples"
        _require(self.atp_top >= 2, f"{key}.atp_top: must be at least 2, got {self.atp_top}")
        _require(
            self.trec_dl_topic.isdigit(),
            f"{key}.trec_dl_topic: a topic id (digits), got {self.trec_dl_topic!r}",
        )
        _require(self.resamples >= 1, f"{key}.resamples: must be at least 1, got {self.resamples}")

    @classmethod
    def from_config(cls, mapping: Mapping[str, Any]) -> ExampleSettings:
        """From the keys of the class docstring."""
        return cls(
            atp_period=str(mapping["atp_period"]),
            atp_top=int(mapping["atp_top"]),
            trec_dl_topic=str(mapping["trec_dl_topic"]),
            resamples=int(mapping["resamples"]),
            seed=int(mapping["seed"]),
        )


@dataclass(frozen=True)
class RealDataSettings:
    """The whole ``real_data`` section, checked across keys.

    Attributes
    ----------
    sources : SourceSettings
    subsets : SubsetSettings
    contexts : ContextSettings
    trec_dl : TrecComparisonSettings
    coverage : CoverageSettings
    examples : ExampleSettings
    """

    sources: SourceSettings
    subsets: SubsetSettings
    contexts: ContextSettings
    trec_dl: TrecComparisonSettings
    coverage: CoverageSettings
    examples: ExampleSettings

    def __post_init__(self) -> None:
        periods = self.sources.atp_periods
        unknown = [name for name in self.contexts.periods if name not in periods]
        _require(
            not unknown,
            f"real_data.contexts.periods: {unknown} not among real_data.atp_periods "
            f"{list(periods)}",
        )
        _require(
            self.examples.atp_period in periods,
            f"real_data.examples.atp_period: {self.examples.atp_period!r} is not among "
            f"real_data.atp_periods {list(periods)}",
        )
        topics = self.sources.trec_dl_topics
        _require(
            topics is None or self.examples.trec_dl_topic in topics,
            f"real_data.examples.trec_dl_topic: {self.examples.trec_dl_topic!r} is not among "
            f"real_data.trec_dl_topics {list(topics or ())}",
        )

    @classmethod
    def from_config(cls, section: Mapping[str, Any], seed: int) -> RealDataSettings:
        """Parse and check the ``real_data`` section (schema defaults filled in).

        Raises
        ------
        RealDataSettingsError
            With a one-line message naming the config key.
        """
        shared = {"seed": seed, "confidence": section["confidence"]}
        interval = {"interval": section["interval"]}
        return cls(
            sources=SourceSettings.from_config(section),
            subsets=SubsetSettings.from_config({**section["subsets"], **shared, **interval}),
            contexts=ContextSettings.from_config({**section["contexts"], **shared}),
            trec_dl=TrecComparisonSettings.from_config({**section["trec_dl"], **shared}),
            coverage=CoverageSettings.from_config({**section["coverage"], **shared}),
            examples=ExampleSettings.from_config({**section["examples"], "seed": seed}),
        )

    def atp_seasons(self) -> tuple[int, ...]:
        """Every season whose results file some job reads."""
        seasons = {
            s for name in self.sources.atp_periods for s in self.sources.period_seasons(name)
        }
        first, last = self.contexts.surface_seasons
        return tuple(sorted(seasons | set(range(first, last + 1))))
