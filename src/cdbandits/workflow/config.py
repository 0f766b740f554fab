"""The workflow's whole config as one typed model, :class:`WorkflowConfig`.

Each experiment family defines its section in its ``settings`` module; the sections of the
paper's worked examples (``winners``) and of the LETOR matrices (``letor``) are here. The
JSON schema Snakemake validates against is generated from :class:`WorkflowConfig`
(:mod:`.config_schema`). The workflow validates its config with both when it starts: the
schema fills in the defaults, the model checks the rules across keys, so that a value the
code cannot run with fails at once with one line naming the key.
"""

from __future__ import annotations

from typing import Annotated, Literal, get_args

from pydantic import Field

from ..experiments.appendix.settings import MSLR_RANKERS, AppendixSection, PublishedMatrix
from ..experiments.config_model import (
    ConfigError,
    ConfigModel,
    CvxpySolver,
    Fraction,
    PositiveInt,
    distinct,
    rule,
)
from ..experiments.duels.settings import DuelsSection
from ..experiments.online.settings import OnlineSection
from ..experiments.oracle.settings import OracleSection
from ..experiments.real_data.settings import RealDataSection

__all__ = ["LetorSection", "WinnersSection", "WorkflowConfig"]

#: The standard 5-grade click models of :data:`cdbandits.letor.click_models.CLICK_MODELS`.
StandardClickModel = Literal["perfect", "navigational", "informational"]
ClickModelName = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$")]
FeatureColumn = Annotated[int, Field(ge=0)]


class WinnersSection(ConfigModel):
    """The paper's worked examples and the winners of the full MSLR matrices."""

    solver: CvxpySolver | None = None
    """null (the default): von Neumann winners by the compiled certified solver
    (cdbandits.winners.von_neumann_winner); a cvxpy LP solver name (e.g. CLARABEL, HIGHS):
    by the cvxpy reference with that solver instead."""
    clone_ks: Annotated[tuple[Annotated[int, Field(ge=5)], ...], Field(min_length=1)] = (
        5, 6, 7, 8, 10, 20, 50, 100,
    )  # fmt: skip
    """Numbers K of dominated arms in the paper's clone example (K + 4 arms with the clone);
    the paper's table holds for every K > 4."""

    matrices: distinct(PublishedMatrix) = get_args(PublishedMatrix)
    """Published 136x136 MSLR preference matrices whose winners are tabulated."""


class CustomClickModel(ConfigModel):
    """A cascade click model: per relevance grade, the probability of a click and of stopping
    after it."""

    click: Annotated[tuple[Fraction, ...], Field(min_length=1)]
    """Click probability of each relevance grade."""
    stop: Annotated[tuple[Fraction, ...], Field(min_length=1)]
    """Probability of stopping after a click, of each relevance grade."""


class PerQuerySection(ConfigModel):
    """Per-query expected-outcome matrices (the contexts of the contextual experiments):
    results/letor/per_query/<dataset>_<model>.npz with 'matrices' (n_queries, K, K, skew
    form), 'features' (n_queries, n_features, mean document features), 'qids', 'n_documents',
    'truncated', 'rankers' (see cdbandits.letor.matrices)."""

    rankers: distinct(FeatureColumn, min_length=2) = (114, 109, 124, 49, 64, 110, 59, 129)
    """The K feature columns, in matrix order. Default: the 8 rankers with the highest
    Copeland scores in the published informational matrix (its von Neumann winner's support
    {64, 109, 114} included), close competitors."""
    click_models: distinct(ClickModelName) = ("informational",)
    """Click models of the per-query matrices (as letor.click_models)."""
    comparisons_per_pair: PositiveInt = 4000
    """Comparisons per ranker pair per query. Entries are Monte Carlo estimates (the exact
    expectation over interleavings and clicks is intractable) with standard error at most
    1/sqrt(N), 0.016 by default."""


class ValidationSection(ConfigModel):
    """Comparison of built aggregate matrices with the published ones (entry correlation, sign
    agreement; table, JSON and figure, also in figures/)."""

    click_models: distinct(StandardClickModel, min_length=0) = ("informational",)
    """Click models whose built matrix is compared with the published matrix of the same
    name (each must be in letor.click_models)."""
    separation: Annotated[float, Field(ge=0, lt=0.5)] = 0.1
    """Sign agreement is measured on the pairs the published matrix separates by more than
    this, |Q_pub(i, j) - 0.5| > separation."""


class LetorSection(ConfigModel):
    """Preference matrices regenerated from learning-to-rank data (cdbandits.letor): every
    MSLR feature ranker against every other by simulated interleaved comparisons with cascade
    clicks, per-query matrices of K rankers with the query contexts, and a comparison with
    the published matrix. Outputs under results/letor/ (run alone with `snakemake letor`)."""

    datasets: distinct(Literal["sample", "web10k", "web30k"]) = ("sample",)
    """Data sets to build matrices from. 'sample' is the real 86-query MSLR excerpt (two
    5,000-line files of Fold1 from the rankeval 0.8.2 sdist; mirror folder
    mslr-web-rankeval-5k). 'web10k' and 'web30k' are opt-in: the official MSLR-WEB10K/WEB30K
    zips (1.2 and 3.8 GB, checked against their sha256; mirror folders mslr-web10k/ and
    mslr-web30k/) with the fold 'fold' unpacked."""
    sample_last_query: Literal["drop", "flag"] = "flag"
    """The sample's files are the first 5,000 lines of Fold1 files, so each one's last query
    is cut (train qid 631, test qid 643). 'flag' keeps them, listed as truncated (86
    queries); 'drop' removes them (84 queries)."""
    fold: Literal["Fold1", "Fold2", "Fold3", "Fold4", "Fold5"] = "Fold1"
    """Fold of MSLR-WEB10K/WEB30K to unpack."""
    parts: distinct(Literal["train", "vali", "test"]) = ("train",)
    """Files of the fold to use (all three together hold every query of the data set)."""
    n_features: PositiveInt = MSLR_RANKERS
    """Number of features of a LETOR line (136 for MSLR)."""
    click_models: distinct(ClickModelName) = ("informational",)
    """Click models of the aggregate matrices: perfect, navigational, informational (the
    5-grade cascade models of cdbandits.letor.click_models) or a name in
    custom_click_models. Each gives results/letor/matrices/<dataset>_<model>.npz (key PMat,
    probability form), which appendix.matrices can name as a matrix file."""
    custom_click_models: dict[str, CustomClickModel] = {}
    """User-defined cascade click models, {name: {click: [c_0, ...], stop: [s_0, ...]}}: the
    probability of a click on a document of relevance grade R and of stopping after clicking
    it (the user stops only after a click). One entry per grade."""
    method: Literal["probabilistic", "team_draft"] = "probabilistic"
    """Interleaving method: Probabilistic Interleave with marginalised credit (as for the
    published matrices) or Team-Draft Interleaving."""
    credit_ties: Literal["redrawn", "shared"] = "redrawn"
    """Tie-breaking used by Probabilistic Interleave's credit. 'redrawn' re-breaks the
    rankers' ties independently of the list, as Lerot (the code behind the published
    matrices) does; rankers with many tied values (count and anchor features) then lose on
    almost every query, and the informational matrix built from the 86-query sample matches
    the published one closely (entry correlation about 0.996). 'shared' uses the tie-breaking
    that built the list (the procedure of the paper read literally; the unbiased estimator);
    its matrix from the sample correlates about 0.15 with the published one."""
    tau: float = Field(3.0, gt=0)
    """Probabilistic Interleave's exponent, P(d) proportional to rank^-tau."""
    list_length: PositiveInt = 10
    """Length of the shown list (shorter for queries with fewer documents)."""
    rankers: distinct(FeatureColumn, min_length=2) | None = None
    """Feature columns (0-based; column k is MSLR feature k + 1) compared in the aggregate
    matrices; null means all n_features."""
    comparisons_per_pair: PositiveInt = 10000
    """Simulated comparisons per ranker pair, each on a uniformly drawn query. The published
    matrices used about 2.07e5; 1e4 keeps the default run to a few minutes on two cores
    (standard error of an entry at most 0.005)."""
    per_query: PerQuerySection = PerQuerySection()
    validation: ValidationSection = ValidationSection()

    threads: PositiveInt = 2
    """Threads of each simulation job (numba)."""

    @rule("n_features", "rankers", "per_query")
    def _rankers_are_columns(self) -> None:
        for key, rankers in (
            ("rankers", self.rankers),
            ("per_query.rankers", self.per_query.rankers),
        ):
            outside = [ranker for ranker in rankers or () if ranker >= self.n_features]
            if outside:
                raise ConfigError(
                    f"feature columns {outside} are outside 0..{self.n_features - 1} "
                    f"(letor.n_features = {self.n_features})",
                    key,
                )

    @rule("click_models", "custom_click_models", "per_query", "validation")
    def _click_models_are_defined(self) -> None:
        for key, models in (
            ("click_models", self.click_models),
            ("per_query.click_models", self.per_query.click_models),
        ):
            for model in models:
                if (
                    model not in get_args(StandardClickModel)
                    and model not in self.custom_click_models
                ):
                    raise ConfigError(
                        f"{model!r} is neither a standard model {get_args(StandardClickModel)} "
                        "nor defined in letor.custom_click_models",
                        key,
                    )
        for model in self.validation.click_models:
            if model not in self.click_models:
                raise ConfigError(
                    f"{model!r} has no built matrix: letor.click_models "
                    f"{list(self.click_models)} does not list it",
                    "validation.click_models",
                )


class WorkflowConfig(ConfigModel):
    """Configuration of the cdbandits workflow. Every key has a default, so an empty config
    runs the default workflow; config/config.yaml spells the defaults out and
    config/test.yaml is a tiny variant for the tests."""

    data_mirror: str | None = "../shared/data"
    """Local folder holding verified copies of the public data files, laid out like the data
    root (<folder>/mslr-preference-matrices/...) or like one dataset's folder. It is
    searched first; files not found there are downloaded from their pinned public source.
    Relative paths are relative to the working directory. A folder that does not exist is
    ignored; null disables the mirror. Every file is checked against its sha256 either
    way."""
    seed: Annotated[int, Field(ge=0)] = 20150703
    """Master seed. Every random stream of the workflow is derived from it with
    numpy.random.SeedSequence and a stable, named spawn key, so results do not depend on how
    the work is sharded."""
    winners: WinnersSection = WinnersSection()
    appendix: AppendixSection = AppendixSection()
    online: OnlineSection = OnlineSection()
    letor: LetorSection = LetorSection()
    oracle: OracleSection = OracleSection()
    real_data: RealDataSection = RealDataSection()
    duels: DuelsSection = DuelsSection()
