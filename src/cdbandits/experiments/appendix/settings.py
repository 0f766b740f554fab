"""The ``appendix`` section of the config, parsed once into typed, frozen settings.

:meth:`AppendixSettings.from_config` reads the whole section (the workflow does so when it
starts) and makes every check the code would otherwise make only in a job: the paper's
click model is among the computed ones, every click model has a matrix, every size K fits
every matrix whose size is known, the verification has at least one matrix, the reference's
cvxpy solver is installed. A failure is a :class:`SettingsError` whose one-line message names the
config key. The parts a single job needs (:class:`SamplingSettings`,
:class:`SolverSettings`, :class:`IntervalSettings`, :class:`VerificationSettings`) are
built from just their keys (``from_config``) and give them back (``to_config``), so a rule
passes only those keys and a job rebuilds exactly these settings.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...datasets import DATA_FILES
from ...reference import check_solver_name
from ...winners import COPELAND_VARIANTS, CopelandVariant

if TYPE_CHECKING:
    from ...stats import IntervalMethod
    from .sampling import SamplingPlan

__all__ = [
    "MSLR_RANKERS",
    "PUBLISHED_MATRIX_ARMS",
    "AppendixSettings",
    "CountingSettings",
    "IntervalSettings",
    "SamplingSettings",
    "SettingsError",
    "SolverSettings",
    "VerificationSettings",
]

#: Feature rankers of the MSLR-WEB data: the size of a matrix over all of them.
MSLR_RANKERS = 136

#: Arms of the published preference matrices of :data:`cdbandits.datasets.DATA_FILES`
#: (fixed by their pinned sha256; checked against the files by the tests).
PUBLISHED_MATRIX_ARMS: dict[str, int] = {
    "mslr_informational": MSLR_RANKERS,
    "mslr_navigational": MSLR_RANKERS,
    "mslr_perfect": MSLR_RANKERS,
}


class SettingsError(ValueError):
    """A config value the appendix cannot run with; the message names the config key."""


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise SettingsError(message)


@dataclass(frozen=True)
class SamplingSettings:
    """Which sub-matrices are sampled (config keys ``appendix.ks``, ``appendix.samples_per_k``
    and the top-level ``seed``).

    Attributes
    ----------
    ks : tuple of int or None
        Subset sizes; None means every K from 2 to the matrix's number of arms.
    samples_per_k : int
        Subsets per size.
    seed : int
        Master seed.
    """

    ks: tuple[int, ...] | None
    samples_per_k: int
    seed: int

    def __post_init__(self) -> None:
        if self.ks is not None:
            _require(len(self.ks) > 0, "appendix.ks: give at least one size K, or null")
            _require(
                min(self.ks) >= 1, f"appendix.ks: sizes must be at least 1, got {list(self.ks)}"
            )
            _require(
                len(set(self.ks)) == len(self.ks),
                f"appendix.ks: sizes must be distinct, got {list(self.ks)}",
            )
        _require(
            self.samples_per_k >= 1,
            f"appendix.samples_per_k: must be at least 1, got {self.samples_per_k}",
        )

    @classmethod
    def from_config(cls, mapping: Mapping[str, Any]) -> SamplingSettings:
        """From the keys ``ks``, ``samples_per_k`` and ``seed``."""
        ks = mapping["ks"]
        return cls(
            ks=None if ks is None else tuple(int(k) for k in ks),
            samples_per_k=int(mapping["samples_per_k"]),
            seed=int(mapping["seed"]),
        )

    def to_config(self) -> dict[str, Any]:
        """The config keys these settings come from."""
        ks = None if self.ks is None else list(self.ks)
        return {"ks": ks, "samples_per_k": self.samples_per_k, "seed": self.seed}

    def check_fits(self, n_arms: int, what: str) -> None:
        """Raise :class:`SettingsError` if a size K exceeds ``n_arms`` (the arms of ``what``)."""
        too_large = [k for k in self.ks or () if k > n_arms]
        _require(
            not too_large,
            f"appendix.ks: K = {', '.join(map(str, too_large))} exceeds the {n_arms} arms "
            f"of {what}",
        )

    def plan(self, matrix_name: str, n_arms: int) -> SamplingPlan:
        """The sampling plan of the ``n_arms``-arm matrix called ``matrix_name``."""
        # Imported here: the workflow parses settings at start-up, without numba.
        from .sampling import SamplingPlan

        self.check_fits(n_arms, f"the matrix {matrix_name!r}")
        return SamplingPlan.build(matrix_name, n_arms, self.ks, self.samples_per_k, self.seed)


@dataclass(frozen=True)
class SolverSettings:
    """The cvxpy solver of the reference (``appendix.solver``).

    The sampled matrices themselves are solved by the compiled batched solver, which has no
    options; the reference (:func:`cdbandits.winners.reference_von_neumann_winner`)
    re-solves the verification's sample and the worked examples of the claims.

    Attributes
    ----------
    solver : str or None
        cvxpy LP solver of the reference (None: cvxpy's default).
    """

    solver: str | None

    def __post_init__(self) -> None:
        if self.solver is not None:
            try:
                check_solver_name(self.solver)
            except ValueError as error:
                raise SettingsError(f"appendix.solver: {error}") from None

    @classmethod
    def from_config(cls, mapping: Mapping[str, Any]) -> SolverSettings:
        """From the key ``solver``."""
        solver = mapping["solver"]
        return cls(None if solver is None else str(solver))

    def to_config(self) -> dict[str, Any]:
        """The config keys these settings come from."""
        return {"solver": self.solver}


@dataclass(frozen=True)
class CountingSettings:
    """How a click model's sampled matrices are split into jobs and counted
    (``appendix.shards``, ``appendix.copeland_variant``).

    Attributes
    ----------
    shards : int
        Jobs per click model (the counts do not depend on it).
    copeland_variant : {"wins", "wins_or_ties", "wins_minus_losses"}
        Copeland score of the statistics (:data:`cdbandits.winners.COPELAND_VARIANTS`).
    """

    shards: int
    copeland_variant: CopelandVariant

    def __post_init__(self) -> None:
        _require(self.shards >= 1, f"appendix.shards: must be at least 1, got {self.shards}")
        _require(
            self.copeland_variant in COPELAND_VARIANTS,
            f"appendix.copeland_variant: must be one of {COPELAND_VARIANTS}, "
            f"got {self.copeland_variant!r}",
        )

    @classmethod
    def from_config(cls, mapping: Mapping[str, Any]) -> CountingSettings:
        """From the keys ``shards`` and ``copeland_variant``."""
        return cls(int(mapping["shards"]), mapping["copeland_variant"])

    def to_config(self) -> dict[str, Any]:
        """The config keys these settings come from."""
        return {"shards": self.shards, "copeland_variant": self.copeland_variant}


@dataclass(frozen=True)
class IntervalSettings:
    """The binomial intervals of every proportion (``appendix.confidence``, ``.interval``).

    Attributes
    ----------
    confidence : float
        Coverage, in (0, 1).
    method : {"clopper-pearson", "wilson"}
        Interval method of :func:`cdbandits.stats.binomial_interval` (which rejects others).
    """

    confidence: float
    method: IntervalMethod

    def __post_init__(self) -> None:
        _require(
            0 < self.confidence < 1,
            f"appendix.confidence: must lie in (0, 1), got {self.confidence}",
        )

    @classmethod
    def from_config(cls, mapping: Mapping[str, Any]) -> IntervalSettings:
        """From the keys ``confidence`` and ``interval``."""
        return cls(float(mapping["confidence"]), mapping["interval"])

    def to_config(self) -> dict[str, Any]:
        """The config keys these settings come from."""
        return {"confidence": self.confidence, "interval": self.method}


@dataclass(frozen=True)
class VerificationSettings:
    """How many sampled matrices the cvxpy reference re-solves, and the accepted difference.

    Attributes
    ----------
    uniform : int
        Matrices drawn uniformly (``appendix.verify_uniform``), at least 1 so that the
        verification never comes out empty.
    no_condorcet : int
        Matrices drawn among those without a Condorcet winner, whose vNW needs an LP
        (``appendix.verify_no_condorcet``).
    weight_tol : float
        Largest accepted weight difference (``appendix.verify_weight_tol``).
    """

    uniform: int
    no_condorcet: int
    weight_tol: float

    def __post_init__(self) -> None:
        _require(
            self.uniform >= 1,
            f"appendix.verify_uniform: must be at least 1 (the no-Condorcet stratum can be "
            f"empty, and the verification needs a matrix), got {self.uniform}",
        )
        _require(
            self.no_condorcet >= 0,
            f"appendix.verify_no_condorcet: must be at least 0, got {self.no_condorcet}",
        )
        _require(
            self.weight_tol > 0,
            f"appendix.verify_weight_tol: must be positive, got {self.weight_tol}",
        )

    @classmethod
    def from_config(cls, mapping: Mapping[str, Any]) -> VerificationSettings:
        """From the keys ``verify_uniform``, ``verify_no_condorcet``, ``verify_weight_tol``."""
        return cls(
            int(mapping["verify_uniform"]),
            int(mapping["verify_no_condorcet"]),
            float(mapping["verify_weight_tol"]),
        )

    def to_config(self) -> dict[str, Any]:
        """The config keys these settings come from."""
        return {
            "verify_uniform": self.uniform,
            "verify_no_condorcet": self.no_condorcet,
            "verify_weight_tol": self.weight_tol,
        }


@dataclass(frozen=True)
class AppendixSettings:
    """The whole ``appendix`` section, checked across keys.

    Attributes
    ----------
    click_models : tuple of str
        Click models to run, the paper's first.
    matrices : dict of str to str
        Matrix source of every click model: a key of :data:`cdbandits.datasets.DATA_FILES`
        or a matrix file path.
    paper_click_model : str
        The click model of the paper's experiments.
    sampling : SamplingSettings
    counting : CountingSettings
    solver : SolverSettings
    intervals : IntervalSettings
    verification : VerificationSettings
    matrix_arms : dict of str to int
        Arms of the click models' matrices whose size is known before any job runs.
    """

    click_models: tuple[str, ...]
    matrices: dict[str, str]
    paper_click_model: str
    sampling: SamplingSettings
    counting: CountingSettings
    solver: SolverSettings
    intervals: IntervalSettings
    verification: VerificationSettings
    matrix_arms: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        _require(len(self.click_models) > 0, "appendix.click_models: give at least one")
        _require(
            self.paper_click_model in self.click_models,
            f"appendix.paper_click_model: {self.paper_click_model!r} is not among "
            f"appendix.click_models {list(self.click_models)}",
        )
        for model in self.click_models:
            _require(
                model in self.matrices,
                f"appendix.matrices: no matrix for the click model {model!r} of "
                f"appendix.click_models (given for: {', '.join(sorted(self.matrices))})",
            )
            source = self.matrices[model]
            _require(
                source in DATA_FILES or Path(source).suffix != "",
                f"appendix.matrices.{model}: {source!r} is neither a data key "
                f"({', '.join(sorted(PUBLISHED_MATRIX_ARMS))}) nor a matrix file path",
            )
            if model in self.matrix_arms:
                self.sampling.check_fits(
                    self.matrix_arms[model], f"the matrix of click model {model!r} ({source})"
                )

    @classmethod
    def from_config(
        cls,
        section: Mapping[str, Any],
        seed: int,
        matrix_arms: Mapping[str, int | None] | None = None,
    ) -> AppendixSettings:
        """Parse and check the ``appendix`` section.

        Parameters
        ----------
        section : mapping
            The config's ``appendix`` section (schema defaults filled in).
        seed : int
            The config's master ``seed``.
        matrix_arms : mapping of str to int or None, optional
            Arms of the matrix of each click model where known (None or missing: unknown,
            checked when the matrix is read).

        Raises
        ------
        SettingsError
            With a one-line message naming the config key.
        """
        known = {model: int(n) for model, n in (matrix_arms or {}).items() if n is not None}
        return cls(
            click_models=tuple(section["click_models"]),
            matrices={str(model): str(source) for model, source in section["matrices"].items()},
            paper_click_model=section["paper_click_model"],
            sampling=SamplingSettings.from_config({**section, "seed": seed}),
            counting=CountingSettings.from_config(section),
            solver=SolverSettings.from_config(section),
            intervals=IntervalSettings.from_config(section),
            verification=VerificationSettings.from_config(section),
            matrix_arms=known,
        )
