"""What the appendix counts: per-matrix summaries of the solved sub-matrices, and per-K counts.

Each solved sub-matrix is reduced to a few numbers (:class:`SubsetSummaries`: Condorcet
winner?, support size, Copeland winners in the support, largest Copeland loss in it), and
these are counted per K (:class:`KCounts`, additive over disjoint batches) and per sampling
plan (:class:`AppendixCounts`, with the blocks they cover, so shards merge and are checked).

"Condorcet winner exists" means an arm beats every other one strictly (as
:func:`cdbandits.winners.condorcet_winner`); it is read off the batched solver, whose
Condorcet shortcut is exact. Copeland scores use one of
:data:`cdbandits.winners.COPELAND_VARIANTS` ("wins" by default, the paper's first).
"""

from __future__ import annotations

import functools
import json
import operator
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ...batched import METHODS, BatchedVonNeumann
from ...winners import CopelandVariant
from .kernels import subset_scores, subset_summary_columns, variant_bitsets
from .sampling import SamplingPlan

__all__ = [
    "AppendixCounts",
    "KCounts",
    "SubsetSummaries",
    "add_histograms",
    "count_summaries",
    "merge_counts",
    "read_counts",
    "read_model_counts",
    "subset_copeland_scores",
    "summarise_subsets",
]

_CONDORCET_METHOD = METHODS.index("condorcet")


def subset_copeland_scores(
    P: NDArray[np.float64], subsets: NDArray[np.int64], variant: CopelandVariant = "wins"
) -> NDArray[np.int64]:
    """Copeland scores of every arm of every sub-matrix ``P[s][:, s]``, ``s`` a row of ``subsets``.

    Equal to :func:`cdbandits.winners.copeland_scores` of each materialised sub-matrix, but
    computed from bit sets of the signs of ``P`` (``K * ceil(N / 64)`` word operations per
    sub-matrix instead of ``K**2`` comparisons).

    Parameters
    ----------
    P : ndarray, shape (N, N)
        Skew-form preference matrix.
    subsets : ndarray of int64, shape (n, K)
        Distinct arm indices per row.
    variant : {"wins", "wins_or_ties", "wins_minus_losses"}, optional
        See :data:`cdbandits.winners.COPELAND_VARIANTS`.

    Returns
    -------
    ndarray of int64, shape (n, K)
    """
    plus, minus, subtract = variant_bitsets(P, variant)
    return subset_scores(plus, minus, subtract, np.ascontiguousarray(subsets, dtype=np.int64))


@dataclass(frozen=True)
class SubsetSummaries:
    """What the appendix needs of each solved sub-matrix (all arrays of shape (n,)).

    Attributes
    ----------
    condorcet : ndarray of bool
        A Condorcet winner exists.
    support_size : ndarray of int64
        Size of the vNW's support.
    copeland_winners : ndarray of int64
        Number of Copeland winners.
    copeland_winners_in_support : ndarray of int64
        Number of Copeland winners with positive vNW weight.
    max_copeland_loss_in_support : ndarray of int64
        Largest Copeland loss (best score minus own score) of an arm in the support.
    method : ndarray of int8
        Solution path, index into :data:`cdbandits.batched.METHODS`.
    exploitability : ndarray of float64
        Certificate of each vNW.
    """

    condorcet: NDArray[np.bool_]
    support_size: NDArray[np.int64]
    copeland_winners: NDArray[np.int64]
    copeland_winners_in_support: NDArray[np.int64]
    max_copeland_loss_in_support: NDArray[np.int64]
    method: NDArray[np.int8]
    exploitability: NDArray[np.float64]


def summarise_subsets(
    P: NDArray[np.float64],
    subsets: NDArray[np.int64],
    solution: BatchedVonNeumann,
    variant: CopelandVariant = "wins",
) -> SubsetSummaries:
    """Combine the Copeland scores and the vNWs of sub-matrices into :class:`SubsetSummaries`.

    Parameters
    ----------
    P : ndarray, shape (N, N)
        The full skew-form matrix.
    subsets : ndarray of int64, shape (n, K)
        Arm indices of the sub-matrices.
    solution : BatchedVonNeumann
        Their vNWs (from :func:`cdbandits.batched.subset_von_neumann_winners`).
    variant : {"wins", "wins_or_ties", "wins_minus_losses"}, optional
        Copeland variant.

    Returns
    -------
    SubsetSummaries
    """
    subsets = np.ascontiguousarray(subsets, dtype=np.int64)
    if subsets.shape != solution.weights.shape:
        raise ValueError(
            f"{subsets.shape[0]} subsets of size {subsets.shape[1]} but the "
            f"solutions' weights have shape {solution.weights.shape}"
        )
    plus, minus, subtract = variant_bitsets(P, variant)
    columns = subset_summary_columns(plus, minus, subtract, subsets, solution.weights)
    return SubsetSummaries(
        condorcet=solution.method == _CONDORCET_METHOD,
        support_size=columns[:, 0],
        copeland_winners=columns[:, 1],
        copeland_winners_in_support=columns[:, 2],
        max_copeland_loss_in_support=columns[:, 3],
        method=solution.method,
        exploitability=solution.exploitability,
    )


def _histogram(values: NDArray[np.int64]) -> dict[int, int]:
    found, counts = np.unique(values, return_counts=True)
    return {int(v): int(c) for v, c in zip(found, counts, strict=True)}


def add_histograms(first: Mapping[int, int], second: Mapping[int, int]) -> dict[int, int]:
    """The sum of two histograms ``{value: count}``, keys sorted."""
    keys = sorted(set(first) | set(second))
    return {key: first.get(key, 0) + second.get(key, 0) for key in keys}


@dataclass(frozen=True)
class KCounts:
    """Counts over the sampled matrices of one size K (additive over disjoint batches).

    Attributes
    ----------
    k : int
        Matrix size.
    matrices : int
        Number of matrices counted.
    condorcet : int
        Matrices with a Condorcet winner.
    all_copeland_in_support : int
        Matrices whose vNW support contains every Copeland winner.
    some_copeland_in_support : int
        Matrices whose vNW support contains at least one Copeland winner.
    support_size : dict of int to int
        Histogram of the support size.
    max_copeland_loss : dict of int to int
        Histogram of the largest Copeland loss in the support.
    methods : dict of str to int
        Matrices per solution path (:data:`cdbandits.batched.METHODS`).
    worst_exploitability : float
        Smallest certificate ``min_b (P.T w)_b`` of any counted matrix.
    """

    k: int
    matrices: int
    condorcet: int
    all_copeland_in_support: int
    some_copeland_in_support: int
    support_size: dict[int, int]
    max_copeland_loss: dict[int, int]
    methods: dict[str, int]
    worst_exploitability: float

    def __add__(self, other: KCounts) -> KCounts:
        if other.k != self.k:
            raise ValueError(f"cannot add counts of K = {other.k} to counts of K = {self.k}")
        return KCounts(
            k=self.k,
            matrices=self.matrices + other.matrices,
            condorcet=self.condorcet + other.condorcet,
            all_copeland_in_support=self.all_copeland_in_support + other.all_copeland_in_support,
            some_copeland_in_support=(
                self.some_copeland_in_support + other.some_copeland_in_support
            ),
            support_size=add_histograms(self.support_size, other.support_size),
            max_copeland_loss=add_histograms(self.max_copeland_loss, other.max_copeland_loss),
            methods={m: self.methods[m] + other.methods[m] for m in METHODS},
            worst_exploitability=min(self.worst_exploitability, other.worst_exploitability),
        )

    def to_jsonable(self) -> dict[str, Any]:
        """Plain JSON values (histograms as lists of ``[value, count]``)."""
        return {
            "k": self.k,
            "matrices": self.matrices,
            "condorcet": self.condorcet,
            "all_copeland_in_support": self.all_copeland_in_support,
            "some_copeland_in_support": self.some_copeland_in_support,
            "support_size": [[v, c] for v, c in sorted(self.support_size.items())],
            "max_copeland_loss": [[v, c] for v, c in sorted(self.max_copeland_loss.items())],
            "methods": dict(self.methods),
            "worst_exploitability": self.worst_exploitability,
        }

    @classmethod
    def from_jsonable(cls, payload: Mapping[str, Any]) -> KCounts:
        """Inverse of :meth:`to_jsonable`.

        Raises
        ------
        ValueError
            If the counts name other solution paths than :data:`cdbandits.batched.METHODS`
            (counts of an older solver: recompute them).
        """
        if set(payload["methods"]) != set(METHODS):
            raise ValueError(
                f"counts of K = {payload['k']} name the solution paths "
                f"{sorted(payload['methods'])}, not this version's {list(METHODS)}; "
                "recompute them"
            )
        return cls(
            k=int(payload["k"]),
            matrices=int(payload["matrices"]),
            condorcet=int(payload["condorcet"]),
            all_copeland_in_support=int(payload["all_copeland_in_support"]),
            some_copeland_in_support=int(payload["some_copeland_in_support"]),
            support_size={int(v): int(c) for v, c in payload["support_size"]},
            max_copeland_loss={int(v): int(c) for v, c in payload["max_copeland_loss"]},
            methods={m: int(payload["methods"][m]) for m in METHODS},
            worst_exploitability=float(payload["worst_exploitability"]),
        )


def count_summaries(k: int, summaries: SubsetSummaries) -> KCounts:
    """Count a batch of :class:`SubsetSummaries` of K-arm matrices.

    Parameters
    ----------
    k : int
        Size of the matrices.
    summaries : SubsetSummaries
        One entry per matrix.

    Returns
    -------
    KCounts
    """
    in_support = summaries.copeland_winners_in_support
    methods = np.bincount(summaries.method, minlength=len(METHODS))
    return KCounts(
        k=int(k),
        matrices=int(summaries.condorcet.size),
        condorcet=int(summaries.condorcet.sum()),
        all_copeland_in_support=int((in_support == summaries.copeland_winners).sum()),
        some_copeland_in_support=int((in_support > 0).sum()),
        support_size=_histogram(summaries.support_size),
        max_copeland_loss=_histogram(summaries.max_copeland_loss_in_support),
        methods={name: int(c) for name, c in zip(METHODS, methods, strict=True)},
        worst_exploitability=(
            float(summaries.exploitability.min()) if summaries.exploitability.size else 0.0
        ),
    )


@dataclass(frozen=True)
class AppendixCounts:
    """Per-K counts of (part of) a :class:`SamplingPlan`, with the blocks they cover.

    Attributes
    ----------
    matrix_name : str
        The plan's matrix name.
    variant : str
        Copeland variant of the counts.
    units : tuple of (k, block, rows)
        The blocks counted.
    per_k : dict of int to KCounts
        Counts per matrix size.
    """

    matrix_name: str
    variant: CopelandVariant
    units: tuple[tuple[int, int, int], ...]
    per_k: dict[int, KCounts] = field(default_factory=dict)

    def to_jsonable(self) -> dict[str, Any]:
        """Plain JSON values."""
        return {
            "matrix_name": self.matrix_name,
            "variant": self.variant,
            "units": [list(unit) for unit in self.units],
            "per_k": [self.per_k[k].to_jsonable() for k in sorted(self.per_k)],
        }

    @classmethod
    def from_jsonable(cls, payload: Mapping[str, Any]) -> AppendixCounts:
        """Inverse of :meth:`to_jsonable`."""
        per_k = [KCounts.from_jsonable(entry) for entry in payload["per_k"]]
        return cls(
            matrix_name=str(payload["matrix_name"]),
            variant=payload["variant"],
            units=tuple((int(k), int(b), int(r)) for k, b, r in payload["units"]),
            per_k={entry.k: entry for entry in per_k},
        )

    def totals(self) -> dict[str, Any]:
        """Counts pooled over every K (histograms as ``{value: count}``)."""
        pooled = functools.reduce(operator.add, (replace(c, k=0) for c in self.per_k.values()))
        summary = pooled.to_jsonable()
        del summary["k"]
        summary["support_size"] = dict(pooled.support_size)
        summary["max_copeland_loss"] = dict(pooled.max_copeland_loss)
        return summary

    def up_to(self, k_max: int) -> AppendixCounts:
        """The counts of the sizes ``K <= k_max`` only (a shorter K grid)."""
        return AppendixCounts(
            matrix_name=self.matrix_name,
            variant=self.variant,
            units=tuple(unit for unit in self.units if unit[0] <= k_max),
            per_k={k: counts for k, counts in self.per_k.items() if k <= k_max},
        )

    def check_covers(self, plan: SamplingPlan) -> None:
        """Raise ``ValueError`` unless these counts cover exactly the blocks of ``plan``."""
        if self.matrix_name != plan.matrix_name:
            raise ValueError(
                f"counts of matrix {self.matrix_name!r} do not belong to the plan of "
                f"{plan.matrix_name!r}"
            )
        expected, found = set(plan.units()), set(self.units)
        if expected != found:
            missing = sorted(expected - found)[:5]
            extra = sorted(found - expected)[:5]
            raise ValueError(
                f"counts of {self.matrix_name!r} do not cover the sampling plan: missing blocks "
                f"(k, block, rows) {missing}, unexpected blocks {extra} (first five of each)"
            )


def merge_counts(parts: Sequence[AppendixCounts]) -> AppendixCounts:
    """Sum the counts of disjoint sets of blocks (e.g. the shards of one plan).

    Raises
    ------
    ValueError
        If the parts belong to different matrices or variants, or share a block.
    """
    if not parts:
        raise ValueError("nothing to merge")
    first = parts[0]
    units: list[tuple[int, int, int]] = []
    per_k: dict[int, KCounts] = {}
    for part in parts:
        if (part.matrix_name, part.variant) != (first.matrix_name, first.variant):
            raise ValueError(
                f"cannot merge counts of ({part.matrix_name!r}, {part.variant!r}) with "
                f"({first.matrix_name!r}, {first.variant!r})"
            )
        units.extend(part.units)
        for k, counts in part.per_k.items():
            per_k[k] = per_k[k] + counts if k in per_k else counts
    if len(set(units)) != len(units):
        repeated = sorted({u for u in units if units.count(u) > 1})[:5]
        raise ValueError(f"blocks counted twice while merging: {repeated}")
    return AppendixCounts(
        matrix_name=first.matrix_name,
        variant=first.variant,
        units=tuple(sorted(units)),
        per_k={k: per_k[k] for k in sorted(per_k)},
    )


def read_counts(path: str | os.PathLike[str]) -> AppendixCounts:
    """Read the ``"counts"`` entry of a JSON file written by the workflow."""
    with open(path, encoding="utf-8") as stream:
        payload = json.load(stream)
    if "counts" not in payload:
        raise ValueError(f"{path}: no 'counts' entry; not a file of appendix counts")
    try:
        return AppendixCounts.from_jsonable(payload["counts"])
    except ValueError as error:
        raise ValueError(f"{path}: {error}") from error


def read_model_counts(
    models: Sequence[str], paths: Sequence[str | os.PathLike[str]]
) -> dict[str, AppendixCounts]:
    """The counts of each click model, read from its file (:func:`read_counts`), in order."""
    return {model: read_counts(path) for model, path in zip(models, paths, strict=True)}
