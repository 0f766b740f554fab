"""The ``real_data`` config section: one typed model of every key, and the settings of its jobs.

:class:`RealDataSection` is the section: the data read (:class:`SourceSettings`, its
top-level keys), the family-wide interval keys, and one sub-section per analysis. Each job
reads the keys of one analysis with those it shares with the family (``confidence``,
``interval``) and the master ``seed``: :class:`SubsetSettings`, :class:`ContextSettings`,
:class:`TrecComparisonSettings`, :class:`CoverageSettings` and :class:`ExampleSettings` are
the analyses' sections with those keys added.

Nothing here imports the solvers: the workflow parses the settings at start-up.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal, get_args

from pydantic import AfterValidator, Field

from ...comparisons.settings import UnobservedPolicy
from ...datasets import DATA_FILES
from ...stats import IntervalMethod
from ..config_model import (
    ConfigError,
    ConfigModel,
    Increasing,
    NonNegativeInt,
    PositiveInt,
    Probability,
    distinct,
    rule,
)

__all__ = [
    "ATP_SEASONS",
    "COVERAGE_CASES",
    "DATASETS",
    "TREC_DL_QRELS",
    "ContextSettings",
    "CoverageSettings",
    "ExampleSettings",
    "PlayerRule",
    "RealDataSection",
    "SourceSettings",
    "SubsetSettings",
    "TrecComparisonSettings",
]

#: The data sets of the appendix statistics: ATP periods, the PrefLib sports elections
#: (figure skating, Formula 1 seasons), the TREC-DL human passage preferences (one
#: tournament per topic) and the published arXiv 6-ranker matrix.
RealDataset = Literal["atp", "skate", "f1seasons", "trec_dl", "arxiv"]
DATASETS: tuple[str, ...] = get_args(RealDataset)

#: Seasons with an ATP results file in :data:`cdbandits.datasets.DATA_FILES`.
ATP_SEASONS: tuple[int, ...] = tuple(
    sorted(int(key[-4:]) for key in DATA_FILES if re.fullmatch(r"atp_matches_\d{4}", key))
)

#: How the players of a context analysis are chosen (see :mod:`.contexts`).
PlayerRule = Literal["total", "least_context"]

#: Coverage checks at the size of a real log (see :mod:`.coverage`).
CoverageCase = Literal["atp", "trec_dl"]
COVERAGE_CASES: tuple[str, ...] = get_args(CoverageCase)

#: The TREC-DL authors' published best passages (one set per finalisation phase), with
#: their data keys.
Qrels = Literal["Set-I", "Set-II", "Set-III"]
TREC_DL_QRELS: dict[str, str] = dict(
    zip(get_args(Qrels), ("trec_dl_set_i", "trec_dl_set_ii", "trec_dl_set_iii"), strict=True)
)


def _atp_seasons(seasons: tuple[int, int]) -> tuple[int, int]:
    first, last = seasons
    missing = [year for year in range(first, last + 1) if year not in ATP_SEASONS]
    if first > last or missing:
        raise ConfigError(
            f"{list(seasons)} is not a range of seasons with ATP results files "
            f"({ATP_SEASONS[0]}-{ATP_SEASONS[-1]})"
        )
    return seasons


#: Seasons ``[first, last]`` with an ATP results file each.
Seasons = Annotated[tuple[int, int], AfterValidator(_atp_seasons)]
TopicId = Annotated[str, Field(pattern=r"^[0-9]+$")]
Players = Annotated[int, Field(ge=2)]
Resamples = Annotated[int, Field(ge=2)]
Seed = Annotated[int, Field(ge=0, description="The config's master seed.")]


class SourceSettings(ConfigModel):
    """Which real data are read."""

    datasets: distinct(RealDataset) = DATASETS
    """Data sets of the appendix statistics: atp (one matrix per period), skate (PrefLib
    00006, figure skating 1998), f1seasons (PrefLib 00052, Formula 1 seasons 1950-2020),
    trec_dl (one matrix per topic), arxiv (the published 6x6 matrix, no counts hence no data
    band)."""
    atp_periods: Annotated[
        dict[Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_-]*$")], Seasons],
        Field(min_length=1),
    ] = {"1990s": (1990, 1999), "2000s": (2000, 2009), "2010s": (2010, 2019),
         "2020s": (2020, 2024)}  # fmt: skip
    """Named ranges of ATP seasons [first, last] (files exist for 1990-2024); each is one
    matrix of the atp data set, and a context of the period analysis."""

    atp_top: Players = 20
    """Players of each ATP period's matrix, those with the most matches."""
    max_elections: PositiveInt | None = None
    """Only the first elections (by file number) of each PrefLib collection; null: all (49
    skating events, 69 Formula 1 seasons)."""
    trec_dl_topics: Annotated[tuple[TopicId, ...], Field(min_length=1)] | None = None
    """TREC-DL topic ids analysed (null, all 50 topics of the judgments)."""

    def period_seasons(self, period: str) -> tuple[int, ...]:
        """The seasons of a named period."""
        first, last = self.atp_periods[period]
        return tuple(range(first, last + 1))


class SubsetsSection(ConfigModel):
    """The appendix statistics on the real matrices."""

    samples_per_k: PositiveInt = 500
    """Random K-item sub-matrices per series (an ATP period, a PrefLib collection, the TREC-DL
    topics, arXiv) and K, split evenly among the series' matrices (at least one each), so
    every election or topic weighs the same."""
    ks: (
        Annotated[tuple[Annotated[int, Field(ge=2)], ...], Field(min_length=1), Increasing] | None
    ) = (2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 50, 75)
    """Increasing sizes K sampled (each matrix takes those up to its size); null: every K
    from 2. Sub-matrices over 75 items take 0.1-0.4 s each to solve."""

    resamples: NonNegativeInt = 10
    """Matrices drawn from each data set's sampling noise (voters bootstrapped for elections,
    Beta posterior per pair otherwise) whose statistics, on the same sub-matrices, give the
    data band; 0 (no band) or at least 2."""
    unobserved: UnobservedPolicy = "half"
    """Pairs never compared: half (preference 1/2), drop-items (remove items until every pair
    is compared) or error."""

    @rule("resamples")
    def _a_band_needs_two_resamples(self) -> None:
        if self.resamples == 1:
            raise ConfigError("0 (no data band) or at least 2; got 1", "resamples")


class SubsetSettings(SubsetsSection):
    """``real_data.subsets`` with the family's interval and the master seed."""

    confidence: Probability
    interval: IntervalMethod
    seed: Seed


class ContextsSection(ConfigModel):
    """Does context matter? The gain of a per-context von Neumann winner over the best single
    lottery, on ATP matches by court surface and by period, with a bootstrap interval and a
    permutation null (context labels shuffled)."""

    surface_seasons: Seasons = (2010, 2019)
    """Seasons [first, last] of the surface analysis."""
    surfaces: distinct(str, min_length=2) = ("Clay", "Grass", "Hard")
    """Surfaces compared (values of the results' surface column)."""
    surface_players: Players = 20
    """Players of the surface analysis."""
    surface_players_by: PlayerRule = "least_context"
    """How they are chosen: most matches in total, or most matches in their least-played
    context (so every player plays in every context)."""
    periods: distinct(str, min_length=2) = ("1990s", "2000s", "2010s")
    """Names of real_data.atp_periods compared in the period analysis."""
    period_players: Players = 10
    """Players of the period analysis."""
    period_players_by: PlayerRule = "least_context"
    """How they are chosen (as surface_players_by)."""
    resamples: Resamples = 200
    """Bootstrap resamples of the gain (matches resampled per context)."""
    permutations: Resamples = 200
    """Shuffles of the context labels (the gain when context does not matter)."""


class ContextSettings(ContextsSection):
    """``real_data.contexts`` with the family's confidence and the master seed."""

    confidence: Probability
    seed: Seed


class TrecDlSection(ConfigModel):
    """Each TREC-DL topic's winners against the published best passages."""

    qrels: distinct(Qrels) = get_args(Qrels)
    """The authors' published sets of best passages compared."""
    resamples: Resamples = 200
    """Beta-posterior resamples of each topic's finalists (probability that a passage is in
    the von Neumann support)."""


class TrecComparisonSettings(TrecDlSection):
    """``real_data.trec_dl`` with the family's confidence and the master seed."""

    confidence: Probability
    seed: Seed


class CoverageSection(ConfigModel):
    """Coverage of the intervals of `cdbandits winners --pairs` on synthetic logs of the size
    of real logs (the worked examples' ATP players and TREC-DL topic), the truth a
    Beta-posterior draw of their counts."""

    cases: distinct(CoverageCase) = COVERAGE_CASES
    """The real logs whose size is checked."""
    replications: PositiveInt = 500
    """Synthetic logs per case (at least 500 to resolve a coverage of 0.95 to about 0.01);
    at least one per shard."""
    resamples: Resamples = 200
    """Resampled matrices per synthetic log and method."""
    shards: PositiveInt = 2
    """Jobs per case (independent random streams; their tables add up)."""
    tolerance: Annotated[float, Field(ge=0)] = 0.02
    """A row passes when its coverage is at least confidence - tolerance (below
    real_data.confidence)."""

    @rule("replications", "shards")
    def _a_replication_per_shard(self) -> None:
        if self.replications < self.shards:
            raise ConfigError(
                f"{self.replications} cannot be split into {self.shards} shards "
                "(real_data.coverage.shards); give at least one replication per shard",
                "replications",
            )


class CoverageSettings(CoverageSection):
    """``real_data.coverage`` with the family's confidence and the master seed."""

    confidence: Probability
    seed: Seed


class ExamplesSection(ConfigModel):
    """The README's worked examples of `cdbandits winners --pairs`, run through the command's
    entry point (results/real_data/worked_example.md)."""

    atp_period: str = "2010s"
    """A name of real_data.atp_periods; its season files are the ATP log."""
    atp_top: Players = 8
    """The example's --top (players with the most matches)."""
    trec_dl_topic: TopicId = "952262"
    """The TREC-DL example's --context-value (a topic id, one of real_data.trec_dl_topics
    unless that is null)."""
    resamples: PositiveInt = 1000
    """The examples' --resamples."""


class ExampleSettings(ExamplesSection):
    """``real_data.examples`` with the master seed (the examples' ``--seed``)."""

    seed: Seed


class RealDataSection(SourceSettings):
    """Real preference data (cdbandits.experiments.real_data): the appendix statistics
    (Condorcet winner's existence against K, Copeland winners in the von Neumann support,
    support sizes) on every real data set held (ATP head-to-head per period, PrefLib sports
    elections, TREC-DL human passage preferences per topic, the arXiv 6-ranker matrix),
    whether context matters (ATP by court surface and by period), the TREC-DL winners
    against the published best passages, the coverage of the intervals of `cdbandits winners
    --pairs` at real sizes, and the README's worked examples. Data are fetched from their
    pinned sources (or data_mirror)."""

    confidence: Probability = 0.95
    """Level of every interval of the family."""
    interval: IntervalMethod = "clopper-pearson"
    """Binomial interval of the shares of sampled sub-matrices."""
    subsets: SubsetsSection = SubsetsSection()
    contexts: ContextsSection = ContextsSection()
    trec_dl: TrecDlSection = TrecDlSection()
    coverage: CoverageSection = CoverageSection()
    examples: ExamplesSection = ExamplesSection()

    @rule("atp_periods", "contexts", "examples")
    def _periods_are_defined(self) -> None:
        unknown = [name for name in self.contexts.periods if name not in self.atp_periods]
        if unknown:
            raise ConfigError(
                f"{unknown} not among real_data.atp_periods {list(self.atp_periods)}",
                "contexts.periods",
            )
        if self.examples.atp_period not in self.atp_periods:
            raise ConfigError(
                f"{self.examples.atp_period!r} is not among real_data.atp_periods "
                f"{list(self.atp_periods)}",
                "examples.atp_period",
            )

    @rule("trec_dl_topics", "examples")
    def _example_topic_is_analysed(self) -> None:
        topics = self.trec_dl_topics
        if topics is not None and self.examples.trec_dl_topic not in topics:
            raise ConfigError(
                f"{self.examples.trec_dl_topic!r} is not among real_data.trec_dl_topics "
                f"{list(topics)}",
                "examples.trec_dl_topic",
            )

    @rule("confidence", "coverage")
    def _tolerance_below_confidence(self) -> None:
        if self.coverage.tolerance >= self.confidence:
            raise ConfigError(
                f"must lie below real_data.confidence = {self.confidence}; got "
                f"{self.coverage.tolerance}",
                "coverage.tolerance",
            )
