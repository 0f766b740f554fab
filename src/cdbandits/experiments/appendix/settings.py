"""The ``appendix`` config section: one typed model of every key and its rules.

The section is made of the key groups the jobs read (a rule passes a job only its group's
keys, so changing another key does not rerun it): :class:`SamplingSettings`,
:class:`CountingSettings`, :class:`SolverSettings`, :class:`IntervalSettings` and
:class:`VerificationSettings`; :class:`AppendixSection` adds the click models and their
matrices, with the rules across keys. No size K may exceed the arms of a click model's
matrix: :meth:`AppendixSection.check_matrix_arms` checks the sizes known when the workflow
starts, :func:`.experiments.sampled_matrix` the others when the matrix is read.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Literal, get_args

from pydantic import Field

from ...datasets import DATA_FILES
from ...stats import IntervalMethod
from ...winners import CopelandVariant
from ..config_model import (
    ConfigError,
    ConfigModel,
    CvxpySolver,
    NonNegativeInt,
    PositiveInt,
    Probability,
    distinct,
    rule,
)

__all__ = [
    "MSLR_RANKERS",
    "PUBLISHED_MATRIX_ARMS",
    "AppendixSection",
    "CountingSettings",
    "IntervalSettings",
    "PublishedMatrix",
    "SamplingSettings",
    "SolverSettings",
    "VerificationSettings",
]

#: Feature rankers of the MSLR-WEB data: the size of a matrix over all of them.
MSLR_RANKERS = 136

#: The published preference matrices of :data:`cdbandits.datasets.DATA_FILES`.
PublishedMatrix = Literal["mslr_informational", "mslr_navigational", "mslr_perfect"]

#: Arms of each published matrix (fixed by its pinned sha256; the tests check the files).
PUBLISHED_MATRIX_ARMS: dict[str, int] = dict.fromkeys(get_args(PublishedMatrix), MSLR_RANKERS)

ClickModelName = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$")]


class SamplingSettings(ConfigModel):
    """Which sub-matrices are sampled (with the config's master ``seed``)."""

    ks: distinct(PositiveInt) | None = None
    """Sub-matrix sizes K; null means every K from 2 to the number of rankers (136 for
    MSLR), the paper's range. The full grid is kept rather than a thinned one: it costs
    seconds (about 3 microseconds per matrix) and resolves every curve where it bends (Fig. 1
    declines over the whole range, Fig. 2 dips near K = 100, support size 5 peaks between
    K = 40 and 100). Near K = 136 few distinct subsets exist (C(136, K)), so samples repeat
    there; sampling stays uniform. No K may exceed the rankers of a click model's matrix:
    checked when the workflow starts for the published matrices, matrices built by the
    LETOR rules and existing files, else when the matrix is read. How the claims depend on
    the grid is in results/appendix/k_grid.md."""
    samples_per_k: PositiveInt = 7500
    """Random sub-matrices per K (uniform K-subsets without replacement, in blocks of 1000
    with their own random streams). 7500 x 135 sizes = 1,012,500 matrices per click model,
    over the paper's "over a million"; a per-K proportion then has a 95% interval at most
    1.2 percentage points wide on either side."""

    def check_fits(self, n_arms: int, what: str) -> None:
        """Raise :class:`ConfigError` if a size K exceeds ``n_arms`` (the arms of ``what``)."""
        too_large = [k for k in self.ks or () if k > n_arms]
        if too_large:
            raise ConfigError(
                f"K = {', '.join(map(str, too_large))} exceeds the {n_arms} arms of {what}",
                "appendix.ks",
            )


class CountingSettings(ConfigModel):
    """How a click model's sampled matrices are split into jobs and counted."""

    shards: PositiveInt = 2
    """Jobs per click model for sampling and solving (blocks are dealt round-robin; the
    results do not depend on this number)."""
    copeland_variant: CopelandVariant = "wins"
    """Copeland score of the statistics (cdbandits.winners.COPELAND_VARIANTS); the paper's
    first variant, #{j: P(i,j) > 0}, by default."""


class SolverSettings(ConfigModel):
    """The cvxpy solver of the reference (cdbandits.reference)."""

    solver: CvxpySolver | None = None
    """cvxpy LP solver of the reference, which re-solves the verification's sample and the
    worked examples of the claims; the sampled matrices themselves are solved by the
    compiled batched solver, which has no options. null lets cvxpy choose its default
    (Clarabel). Must be installed."""


class IntervalSettings(ConfigModel):
    """The binomial intervals of every proportion."""

    interval: IntervalMethod = "clopper-pearson"
    """Binomial confidence interval of every proportion: exact Clopper-Pearson
    (conservative; sensible for the rare events of the claims) or Wilson score."""
    confidence: Probability = 0.95
    """Coverage of the confidence intervals."""


class VerificationSettings(ConfigModel):
    """How many sampled matrices the cvxpy reference re-solves, and the accepted difference."""

    verify_uniform: PositiveInt = 500
    """Sampled matrices per click model, drawn uniformly, re-solved with the cvxpy reference
    by the verification rule; at least 1, as the no-Condorcet stratum can be empty."""
    verify_no_condorcet: NonNegativeInt = 500
    """Further sampled matrices per click model, drawn uniformly among those without a
    Condorcet winner, whose von Neumann winner needs an LP (the batched solver's simplex or
    interior point path; at small K most sub-matrices have a Condorcet winner, which tests
    little), re-solved with the cvxpy reference."""
    verify_weight_tol: float = Field(1.0e-8, gt=0)
    """Largest accepted difference between a batched and a reference weight; the
    verification agrees when every support is equal and no weight differs by more."""


class AppendixSection(
    VerificationSettings, SolverSettings, IntervalSettings, CountingSettings, SamplingSettings
):
    """Appendices A and B at the paper's scale: random K-ranker sub-matrices of each click
    model's preference matrix, their certified von Neumann winners (batched solver,
    cdbandits.batched), per-K statistics with binomial confidence intervals, a verification
    against the cvxpy reference, the claims table and its K-grid sensitivity, the README's
    account (results/appendix/readme.md) and Figures 1-4 (cdbandits.experiments.appendix)."""

    click_models: distinct(ClickModelName) = ("informational", "navigational", "perfect")
    """Click models to run, each with a matrix in 'matrices'. Their names label the outputs
    (results/appendix/<click model>/) and seed the sampling, so the same name, K and seed
    give the same subsets whatever the matrix source."""
    matrices: dict[str, str] = {
        "informational": "mslr_informational",
        "navigational": "mslr_navigational",
        "perfect": "mslr_perfect",
    }
    """Preference matrix of every click model: a key of cdbandits.datasets (fetched and
    checked against its sha256) or the path of a matrix file in any format of
    cdbandits.matrix_io and either convention (e.g. a matrix built from LETOR data by
    another rule, which then runs first)."""

    paper_click_model: str = "informational"
    """The click model of the paper's experiments; listed first in the claims table and
    marked in the figures. Must be one of 'click_models'."""

    @rule("paper_click_model", "click_models")
    def _paper_model_is_run(self) -> None:
        if self.paper_click_model not in self.click_models:
            raise ConfigError(
                f"{self.paper_click_model!r} is not among appendix.click_models "
                f"{list(self.click_models)}",
                "paper_click_model",
            )

    @rule("click_models", "matrices")
    def _every_model_has_a_matrix(self) -> None:
        for model in self.click_models:
            if model not in self.matrices:
                raise ConfigError(
                    f"no matrix for the click model {model!r} of appendix.click_models "
                    f"(given for: {', '.join(sorted(self.matrices))})",
                    "matrices",
                )
            source = self.matrices[model]
            if source not in DATA_FILES and Path(source).suffix == "":
                raise ConfigError(
                    f"{source!r} is neither a data key ({', '.join(PUBLISHED_MATRIX_ARMS)}) "
                    "nor a matrix file path",
                    f"matrices.{model}",
                )

    def check_matrix_arms(self, matrix_arms: Mapping[str, int | None]) -> None:
        """Check the sizes K against the arms of each click model's matrix where known."""
        for model, n_arms in matrix_arms.items():
            if n_arms is not None and model in self.click_models:
                what = f"the matrix of click model {model!r} ({self.matrices[model]})"
                self.check_fits(n_arms, what)
