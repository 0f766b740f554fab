"""The typed settings of the package, in a module light enough for the command line.

:class:`CountPolicy` (the matrix estimated, ties, rarely compared items, pairs never
compared: see :mod:`.counts`) and the names of the resampling methods (see
:mod:`.uncertainty`). Nothing here imports the solvers or scipy, so ``cdbandits winners``
builds its options quickly.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = [
    "INTERVAL_CONSTRUCTIONS",
    "MATRIX_ESTIMANDS",
    "RARE_ITEM_POLICIES",
    "RESAMPLING_METHODS",
    "TIE_POLICIES",
    "UNOBSERVED_POLICIES",
    "CountPolicy",
    "IntervalConstruction",
    "MatrixEstimand",
    "RareItemPolicy",
    "ResamplingMethod",
    "TiePolicy",
    "UnobservedPolicy",
]

MatrixEstimand = Literal["rates", "margins"]
MATRIX_ESTIMANDS: tuple[MatrixEstimand, ...] = ("rates", "margins")
TiePolicy = Literal["half", "drop", "error"]
UnobservedPolicy = Literal["half", "drop-items", "error"]
RareItemPolicy = Literal["keep", "drop", "error"]
TIE_POLICIES: tuple[TiePolicy, ...] = ("half", "drop", "error")
UNOBSERVED_POLICIES: tuple[UnobservedPolicy, ...] = ("half", "drop-items", "error")
RARE_ITEM_POLICIES: tuple[RareItemPolicy, ...] = ("keep", "drop", "error")


@dataclass(frozen=True)
class CountPolicy:
    """The explicit choices: the matrix estimated, ties, rare items, pairs never compared.

    See :mod:`.counts` for each option.
    """

    matrix: MatrixEstimand = "rates"
    ties: TiePolicy = "half"
    unobserved: UnobservedPolicy = "half"
    rare_items: RareItemPolicy = "keep"
    min_comparisons: float = 2

    def __post_init__(self) -> None:
        for name, allowed in (
            ("matrix", MATRIX_ESTIMANDS),
            ("ties", TIE_POLICIES),
            ("unobserved", UNOBSERVED_POLICIES),
            ("rare_items", RARE_ITEM_POLICIES),
        ):
            if getattr(self, name) not in allowed:
                raise ValueError(f"{name} must be one of {allowed}, got {getattr(self, name)!r}")
        if not self.min_comparisons >= 0:
            raise ValueError(f"min_comparisons must be >= 0, got {self.min_comparisons}")


ResamplingMethod = Literal["bootstrap", "posterior"]
RESAMPLING_METHODS: tuple[ResamplingMethod, ...] = ("bootstrap", "posterior")
#: Weight intervals of the von Neumann winner: "identified" (:mod:`.identified`, per item an
#: interval and an in/out/undecided label from a support confidence set) or "conservative"
#: (:mod:`.near_optimal`, every lottery that could be the winner).
IntervalConstruction = Literal["identified", "conservative"]
INTERVAL_CONSTRUCTIONS: tuple[IntervalConstruction, ...] = ("identified", "conservative")
