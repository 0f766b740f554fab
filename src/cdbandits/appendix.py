"""Appendices A and B at scale: sampled sub-matrices, their statistics, the paper's claims.

The paper samples K-subsets of the 136 MSLR rankers ("over a million" matrices) and reports,
per K, how often a Condorcet winner exists (Appendix A, Fig. 1) and how the von Neumann
winner (vNW) relates to the Copeland winners (Appendix B, Figs. 2-4). This module

* **samples** uniformly random K-subsets without replacement, in fixed blocks of
  :data:`SAMPLES_PER_BLOCK` rows whose random stream depends only on
  ``(seed, matrix name, K, block)`` (:class:`SamplingPlan`), so any sharding of the blocks
  gives the same subsets;
* **solves** them with :func:`cdbandits.batched.subset_von_neumann_winners` and computes
  Copeland scores of all sub-matrices at once from bit sets of the full matrix's signs;
* **counts** per K (:class:`AppendixCounts`, additive over shards) and turns the counts into
  tables with binomial confidence intervals (:func:`binomial_interval`);
* **checks** every quantitative claim of the appendices (:func:`appendix_claims`) and
  re-solves a random sample with the cvxpy reference (:func:`verify_against_reference`).

"Condorcet winner exists" means an arm beats every other one strictly (as
:func:`cdbandits.winners.condorcet_winner`); it is read off the batched solver, whose
Condorcet shortcut is exact. Copeland scores use one of
:data:`cdbandits.winners.COPELAND_VARIANTS` ("wins" by default, the paper's first).
"""

from __future__ import annotations

import functools
import json
import logging
import operator
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import numba
import numpy as np
import pandas as pd
from numba import njit, prange, types
from numba.extending import intrinsic
from numpy.typing import ArrayLike, NDArray

from .batched import (
    FALLBACK_REASONS,
    METHODS,
    BatchedVonNeumann,
    subset_von_neumann_winners,
    von_neumann_winners,
)
from .paper_examples import (
    PAPER_FIVE_ARM,
    clone_example_matrix,
    clone_table,
    examples_summary,
    five_arm_matrix,
    five_arm_table,
)
from .preference import as_skew
from .randomness import stable_id
from .stats import IntervalMethod, binomial_interval
from .winners import (
    COPELAND_VARIANTS,
    SIMPLEX_SOLVER,
    CopelandVariant,
    reference_von_neumann_winner,
    von_neumann_winner,
)

__all__ = [
    "AppendixCounts",
    "CLAIM_COLUMNS",
    "KCounts",
    "SAMPLES_PER_BLOCK",
    "SamplingPlan",
    "SubsetSummaries",
    "appendix_claims",
    "claims_markdown",
    "count_summaries",
    "distribution_table",
    "example_claims",
    "merge_counts",
    "per_k_table",
    "read_counts",
    "run_shard",
    "sample_subsets",
    "subset_copeland_scores",
    "summarise_subsets",
    "verification_picks",
    "verification_rng",
    "verification_summary",
    "verify_against_reference",
]

logger = logging.getLogger(__name__)

#: Rows per sampling block. Each block has its own random stream, so changing this constant
#: changes the sampled subsets (and is the only thing besides the seed, matrix name and K
#: that does).
SAMPLES_PER_BLOCK = 1000


_CONDORCET_METHOD = METHODS.index("condorcet")


# --------------------------------------------------------------------------------------
# Sampling
# --------------------------------------------------------------------------------------


@njit(cache=True)
def _partial_shuffles(uniforms: NDArray[np.float64], n_arms: int) -> NDArray[np.int64]:
    """The first ``k`` entries of a Fisher-Yates shuffle of ``range(n_arms)``, sorted, per row.

    Step ``i`` of row ``row`` swaps position ``i`` with position ``i + floor(uniforms[row, i]
    * (n_arms - i))``.
    """
    n, k = uniforms.shape
    subsets = np.empty((n, k), dtype=np.int64)
    permutation = np.empty(n_arms, dtype=np.int64)
    chosen = np.empty(n_arms, dtype=np.int64)
    gathered = np.empty(n_arms + 1, dtype=np.int64)
    for row in range(n):
        for arm in range(n_arms):
            permutation[arm] = arm
            chosen[arm] = 0
        for i in range(k):
            # min(): u * m can round up to m when u is the largest double below 1.
            j = i + min(int(uniforms[row, i] * (n_arms - i)), n_arms - i - 1)
            permutation[i], permutation[j] = permutation[j], permutation[i]
            chosen[permutation[i]] = 1
        # Branch-free gathering of the chosen arms in increasing order.
        position = 0
        for arm in range(n_arms):
            gathered[position] = arm
            position += chosen[arm]
        subsets[row] = gathered[:k]
    return subsets


def sample_subsets(
    rng: np.random.Generator, n_arms: int, k: int, n_samples: int
) -> NDArray[np.int64]:
    """Uniformly random K-subsets of ``range(n_arms)``, without replacement within a subset.

    A partial Fisher-Yates shuffle per row whose swap positions come from ``rng.random``
    (``floor(u * m)`` for ``u`` on the 53-bit grid: each position has probability
    ``1/m`` up to a relative error below ``m / 2**53``, about ``1.5e-14`` for ``m = 136``;
    this is 5 times faster than exact bounded integers).

    Parameters
    ----------
    rng : numpy.random.Generator
        Source of randomness; draws ``n_samples * k`` doubles.
    n_arms : int
        Number of arms to choose from.
    k : int
        Subset size, ``1 <= k <= n_arms``.
    n_samples : int
        Number of independent subsets.

    Returns
    -------
    ndarray of int64, shape (n_samples, k)
        One subset per row, sorted increasingly.
    """
    if not 1 <= k <= n_arms:
        raise ValueError(f"subset size k = {k} must lie in [1, {n_arms}] for {n_arms} arms")
    if n_samples < 0:
        raise ValueError(f"n_samples must be non-negative, got {n_samples}")
    return _partial_shuffles(rng.random((n_samples, k)), n_arms)


@dataclass(frozen=True)
class SamplingPlan:
    """Which sub-matrices of one preference matrix are sampled, and their random streams.

    For every ``k`` in ``ks``, ``samples_per_k`` subsets are drawn in blocks of
    :data:`SAMPLES_PER_BLOCK` rows (the last block may be shorter). Block ``b`` of size
    ``k`` is drawn with ``SeedSequence(seed, spawn_key=(id("appendix"), id(matrix_name),
    k, b))`` (``id`` a stable hash), so a block's subsets depend on nothing else, and a
    longer plan extends a shorter one.

    Attributes
    ----------
    matrix_name : str
        Name of the matrix (the workflow uses the click model's name).
    n_arms : int
        Number of arms of the full matrix.
    ks : tuple of int
        Subset sizes, increasing, each in ``[1, n_arms]``.
    samples_per_k : int
        Subsets per size.
    seed : int
        Master seed.
    """

    matrix_name: str
    n_arms: int
    ks: tuple[int, ...]
    samples_per_k: int
    seed: int

    @classmethod
    def build(
        cls,
        matrix_name: str,
        n_arms: int,
        ks: Sequence[int] | None,
        samples_per_k: int,
        seed: int,
    ) -> SamplingPlan:
        """A plan over the sizes ``ks``, or over every K from 2 to ``n_arms`` if ``ks`` is None."""
        sizes = tuple(range(2, n_arms + 1)) if ks is None else tuple(sorted(ks))
        return cls(matrix_name, n_arms, sizes, samples_per_k, seed)

    def __post_init__(self) -> None:
        ks = tuple(int(k) for k in self.ks)
        if not ks:
            raise ValueError("a sampling plan needs at least one subset size k")
        if list(ks) != sorted(set(ks)):
            raise ValueError(f"subset sizes must be increasing and distinct; got {list(ks)}")
        if ks[0] < 1 or ks[-1] > self.n_arms:
            raise ValueError(
                f"subset sizes must lie in [1, {self.n_arms}] for the {self.n_arms}-arm matrix "
                f"{self.matrix_name!r}; got {list(ks)}"
            )
        if self.samples_per_k < 1:
            raise ValueError(f"samples_per_k must be at least 1, got {self.samples_per_k}")
        object.__setattr__(self, "ks", ks)

    @property
    def total(self) -> int:
        """Number of sampled matrices."""
        return len(self.ks) * self.samples_per_k

    def units(self) -> list[tuple[int, int, int]]:
        """Every block as ``(k, block, rows)``, ordered by ``k`` then ``block``."""
        units = []
        for k in self.ks:
            for start in range(0, self.samples_per_k, SAMPLES_PER_BLOCK):
                rows = min(SAMPLES_PER_BLOCK, self.samples_per_k - start)
                units.append((k, start // SAMPLES_PER_BLOCK, rows))
        return units

    def shard_units(self, shard: int, n_shards: int) -> list[tuple[int, int, int]]:
        """The blocks of shard ``shard`` of ``n_shards``: every ``n_shards``-th block.

        Dealing the blocks round-robin gives every shard a similar mix of sizes ``k``.
        """
        if not 0 <= shard < n_shards:
            raise ValueError(f"shard {shard} does not exist among {n_shards} shards")
        return self.units()[shard::n_shards]

    def block_rng(self, k: int, block: int) -> np.random.Generator:
        """The random generator of block ``block`` of size ``k``."""
        sequence = np.random.SeedSequence(
            self.seed, spawn_key=(stable_id("appendix"), stable_id(self.matrix_name), k, block)
        )
        return np.random.default_rng(sequence)

    def block_subsets(self, k: int, block: int, rows: int) -> NDArray[np.int64]:
        """The subsets of a block, shape ``(rows, k)``."""
        return sample_subsets(self.block_rng(k, block), self.n_arms, k, rows)


# --------------------------------------------------------------------------------------
# Copeland scores of many sub-matrices
# --------------------------------------------------------------------------------------


@intrinsic
def _popcount(typingctx, word):
    """Number of set bits of a uint64 (one machine instruction)."""
    if word != types.uint64:
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.uint64(types.uint64), codegen


def _bitsets(mask: NDArray[np.bool_]) -> NDArray[np.uint64]:
    """Row ``i`` of ``mask`` (shape (N, N)) as ``ceil(N / 64)`` little-endian 64-bit words."""
    n = mask.shape[1]
    words = -(-n // 64)
    padded = np.zeros((mask.shape[0], words * 64), dtype=np.uint8)
    padded[:, :n] = mask
    return np.packbits(padded, axis=1, bitorder="little").view("<u8").astype(np.uint64)


@njit(cache=True)
def _row_scores(
    plus: NDArray[np.uint64],
    minus: NDArray[np.uint64],
    subtract: bool,
    arms: NDArray[np.int64],
    member: NDArray[np.uint64],
    scores: NDArray[np.int64],
) -> None:
    """Scores of the sub-matrix on ``arms``: counted bits of ``plus`` (minus those of ``minus``).

    ``member`` is scratch space of ``plus.shape[1]`` words.
    """
    member[:] = 0
    for arm in arms:
        member[arm >> 6] |= np.uint64(1) << np.uint64(arm & 63)
    for i in range(arms.size):
        total = 0
        for w in range(member.size):
            total += _popcount(plus[arms[i], w] & member[w])
            if subtract:
                total -= _popcount(minus[arms[i], w] & member[w])
        scores[i] = total


@njit(cache=True, parallel=True)
def _subset_scores(
    plus: NDArray[np.uint64],
    minus: NDArray[np.uint64],
    subtract: bool,
    subsets: NDArray[np.int64],
) -> NDArray[np.int64]:
    n, k = subsets.shape
    scores = np.empty((n, k), dtype=np.int64)
    for row in prange(n):
        member = np.empty(plus.shape[1], dtype=np.uint64)
        _row_scores(plus, minus, subtract, subsets[row], member, scores[row])
    return scores


_SUMMARY_CHUNK = 256


@njit(cache=True, parallel=True)
def _subset_summaries(
    plus: NDArray[np.uint64],
    minus: NDArray[np.uint64],
    subtract: bool,
    subsets: NDArray[np.int64],
    weights: NDArray[np.float64],
) -> NDArray[np.int64]:
    """Per row: support size, #Copeland winners, #of them in the support, max loss in it."""
    n, k = subsets.shape
    out = np.empty((n, 4), dtype=np.int64)
    for chunk in prange((n + _SUMMARY_CHUNK - 1) // _SUMMARY_CHUNK):
        member = np.empty(plus.shape[1], dtype=np.uint64)
        scores = np.empty(k, dtype=np.int64)
        for row in range(chunk * _SUMMARY_CHUNK, min(n, (chunk + 1) * _SUMMARY_CHUNK)):
            _row_scores(plus, minus, subtract, subsets[row], member, scores)
            best = scores.max()
            support_size = winners = winners_in_support = 0
            lowest_in_support = best
            for i in range(k):
                in_support = weights[row, i] > 0.0
                support_size += in_support
                if scores[i] == best:
                    winners += 1
                    winners_in_support += in_support
                if in_support:
                    lowest_in_support = min(lowest_in_support, scores[i])
            out[row, 0] = support_size
            out[row, 1] = winners
            out[row, 2] = winners_in_support
            out[row, 3] = best - lowest_in_support
    return out


def _variant_bitsets(
    P: NDArray[np.float64], variant: CopelandVariant
) -> tuple[NDArray[np.uint64], NDArray[np.uint64], bool]:
    """Bit sets whose counts give the Copeland ``variant``: (counted, subtracted, subtract?)."""
    if variant == "wins":
        wins = _bitsets(P > 0)
        return wins, wins, False
    if variant == "wins_or_ties":
        wins_or_ties = _bitsets(P >= 0)
        return wins_or_ties, wins_or_ties, False
    if variant == "wins_minus_losses":
        return _bitsets(P > 0), _bitsets(P < 0), True
    raise ValueError(f"variant must be one of {COPELAND_VARIANTS}, got {variant!r}")


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
    plus, minus, subtract = _variant_bitsets(P, variant)
    return _subset_scores(plus, minus, subtract, np.ascontiguousarray(subsets, dtype=np.int64))


# --------------------------------------------------------------------------------------
# Per-matrix summaries and per-K counts
# --------------------------------------------------------------------------------------


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
    fallback_reason : ndarray of int8
        Index into :data:`cdbandits.batched.FALLBACK_REASONS`.
    exploitability : ndarray of float64
        Certificate of each vNW.
    """

    condorcet: NDArray[np.bool_]
    support_size: NDArray[np.int64]
    copeland_winners: NDArray[np.int64]
    copeland_winners_in_support: NDArray[np.int64]
    max_copeland_loss_in_support: NDArray[np.int64]
    method: NDArray[np.int8]
    fallback_reason: NDArray[np.int8]
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
    plus, minus, subtract = _variant_bitsets(P, variant)
    columns = _subset_summaries(plus, minus, subtract, subsets, solution.weights)
    return SubsetSummaries(
        condorcet=solution.method == _CONDORCET_METHOD,
        support_size=columns[:, 0],
        copeland_winners=columns[:, 1],
        copeland_winners_in_support=columns[:, 2],
        max_copeland_loss_in_support=columns[:, 3],
        method=solution.method,
        fallback_reason=solution.fallback_reason,
        exploitability=solution.exploitability,
    )


def _histogram(values: NDArray[np.int64]) -> dict[int, int]:
    found, counts = np.unique(values, return_counts=True)
    return {int(v): int(c) for v, c in zip(found, counts, strict=True)}


def _add_histograms(first: Mapping[int, int], second: Mapping[int, int]) -> dict[int, int]:
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
    fallback_reasons : dict of str to int
        Matrices per reason for the cvxpy path (:data:`cdbandits.batched.FALLBACK_REASONS`).
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
    fallback_reasons: dict[str, int]
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
            support_size=_add_histograms(self.support_size, other.support_size),
            max_copeland_loss=_add_histograms(self.max_copeland_loss, other.max_copeland_loss),
            methods={m: self.methods[m] + other.methods[m] for m in METHODS},
            fallback_reasons={
                r: self.fallback_reasons[r] + other.fallback_reasons[r] for r in FALLBACK_REASONS
            },
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
            "fallback_reasons": dict(self.fallback_reasons),
            "worst_exploitability": self.worst_exploitability,
        }

    @classmethod
    def from_jsonable(cls, payload: Mapping[str, Any]) -> KCounts:
        """Inverse of :meth:`to_jsonable`."""
        return cls(
            k=int(payload["k"]),
            matrices=int(payload["matrices"]),
            condorcet=int(payload["condorcet"]),
            all_copeland_in_support=int(payload["all_copeland_in_support"]),
            some_copeland_in_support=int(payload["some_copeland_in_support"]),
            support_size={int(v): int(c) for v, c in payload["support_size"]},
            max_copeland_loss={int(v): int(c) for v, c in payload["max_copeland_loss"]},
            methods={m: int(payload["methods"][m]) for m in METHODS},
            fallback_reasons={r: int(payload["fallback_reasons"][r]) for r in FALLBACK_REASONS},
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
    reasons = np.bincount(summaries.fallback_reason, minlength=len(FALLBACK_REASONS))
    return KCounts(
        k=int(k),
        matrices=int(summaries.condorcet.size),
        condorcet=int(summaries.condorcet.sum()),
        all_copeland_in_support=int((in_support == summaries.copeland_winners).sum()),
        some_copeland_in_support=int((in_support > 0).sum()),
        support_size=_histogram(summaries.support_size),
        max_copeland_loss=_histogram(summaries.max_copeland_loss_in_support),
        methods={name: int(c) for name, c in zip(METHODS, methods, strict=True)},
        fallback_reasons={name: int(c) for name, c in zip(FALLBACK_REASONS, reasons, strict=True)},
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
    return AppendixCounts.from_jsonable(payload["counts"])


def run_shard(
    P: ArrayLike,
    plan: SamplingPlan,
    shard: int = 0,
    n_shards: int = 1,
    *,
    variant: CopelandVariant = "wins",
    max_restricted: int | None = None,
    fallback_solver: str | None = None,
    threads: int | None = None,
) -> AppendixCounts:
    """Sample, solve and count the blocks of one shard of ``plan``.

    Parameters
    ----------
    P : array_like, shape (N, N)
        The full skew-form preference matrix, ``N == plan.n_arms``.
    plan : SamplingPlan
        What to sample.
    shard, n_shards : int, optional
        Which blocks to do (:meth:`SamplingPlan.shard_units`); default all.
    variant : {"wins", "wins_or_ties", "wins_minus_losses"}, optional
        Copeland variant.
    max_restricted : int, optional
        Passed to :func:`cdbandits.batched.subset_von_neumann_winners`.
    fallback_solver : str, optional
        cvxpy solver of the reference path.
    threads : int, optional
        Number of numba threads (default: numba's current setting).

    Returns
    -------
    AppendixCounts
    """
    P = as_skew(P, "skew")
    if P.shape[0] != plan.n_arms:
        raise ValueError(
            f"the plan of {plan.matrix_name!r} is for {plan.n_arms} arms, the matrix has "
            f"{P.shape[0]}"
        )
    if threads is not None:
        numba.set_num_threads(max(1, min(threads, numba.config.NUMBA_NUM_THREADS)))
    options: dict[str, Any] = {"fallback_solver": fallback_solver}
    if max_restricted is not None:
        options["max_restricted"] = max_restricted
    units = plan.shard_units(shard, n_shards)
    per_k: dict[int, KCounts] = {}
    for k in sorted({unit[0] for unit in units}):
        blocks = [(block, rows) for size, block, rows in units if size == k]
        subsets = np.concatenate([plan.block_subsets(k, b, rows) for b, rows in blocks])
        solution = subset_von_neumann_winners(P, subsets, **options)
        per_k[k] = count_summaries(k, summarise_subsets(P, subsets, solution, variant))
        interior = per_k[k].methods["interior_point"]
        if interior:
            logger.info(
                "K = %d: %d of %d matrices needed the interior point method",
                k,
                interior,
                subsets.shape[0],
            )
    logger.info(
        "%s shard %d/%d: %d blocks, %d matrices",
        plan.matrix_name,
        shard,
        n_shards,
        len(units),
        sum(rows for _, _, rows in units),
    )
    return AppendixCounts(
        matrix_name=plan.matrix_name, variant=variant, units=tuple(units), per_k=per_k
    )


# --------------------------------------------------------------------------------------
# Confidence intervals and tables
# --------------------------------------------------------------------------------------


def _proportion_columns(
    table: pd.DataFrame,
    name: str,
    successes: NDArray[Any],
    trials: NDArray[Any],
    confidence: float,
    method: IntervalMethod,
) -> None:
    low, high = binomial_interval(successes, trials, confidence, method)
    table[name] = successes
    table[f"fraction_{name}"] = successes / trials
    table[f"fraction_{name}_low"] = low
    table[f"fraction_{name}_high"] = high


def per_k_table(
    counts: AppendixCounts, confidence: float = 0.95, method: IntervalMethod = "clopper-pearson"
) -> pd.DataFrame:
    """One row per K: the Appendix A/B proportions with confidence intervals.

    Returns
    -------
    pandas.DataFrame
        ``K``, ``matrices``; for ``condorcet``, ``all_copeland_in_support`` and
        ``some_copeland_in_support`` the count, ``fraction_*`` and its interval
        ``fraction_*_low`` / ``fraction_*_high``; ``mean_support_size``,
        ``max_support_size``, ``mean_max_copeland_loss``; the number of matrices per
        solution path (``method_*``) and ``worst_exploitability``.
    """
    rows = [counts.per_k[k] for k in sorted(counts.per_k)]
    trials = np.array([r.matrices for r in rows])
    table = pd.DataFrame({"K": [r.k for r in rows], "matrices": trials})
    for name in ("condorcet", "all_copeland_in_support", "some_copeland_in_support"):
        successes = np.array([getattr(r, name) for r in rows])
        _proportion_columns(table, name, successes, trials, confidence, method)

    def mean(histogram: Mapping[int, int]) -> float:
        return sum(v * c for v, c in histogram.items()) / sum(histogram.values())

    table["mean_support_size"] = [mean(r.support_size) for r in rows]
    table["max_support_size"] = [max(r.support_size) for r in rows]
    table["mean_max_copeland_loss"] = [mean(r.max_copeland_loss) for r in rows]
    for name in METHODS:
        table[f"method_{name}"] = [r.methods[name] for r in rows]
    table["worst_exploitability"] = [r.worst_exploitability for r in rows]
    return table


def distribution_table(
    counts: AppendixCounts,
    statistic: Literal["support_size", "max_copeland_loss"],
    confidence: float = 0.95,
    method: IntervalMethod = "clopper-pearson",
) -> pd.DataFrame:
    """Distribution of the support size or of the max Copeland loss in the support, per K.

    Every value from the smallest to the largest observed (over all K) gets a row for every
    K, zero counts included, so rare values have an upper confidence bound everywhere.

    Returns
    -------
    pandas.DataFrame
        ``K``, ``statistic`` (the value), ``count``, ``fraction`` and its interval
        ``fraction_low`` / ``fraction_high``.
    """
    if statistic not in ("support_size", "max_copeland_loss"):
        raise ValueError(
            f"statistic must be 'support_size' or 'max_copeland_loss', got {statistic!r}"
        )
    histograms = {k: getattr(counts.per_k[k], statistic) for k in sorted(counts.per_k)}
    observed = sorted({v for h in histograms.values() for v in h})
    values = np.arange(observed[0], observed[-1] + 1) if observed else np.array([], int)
    rows = [
        (k, int(v), histogram.get(int(v), 0), counts.per_k[k].matrices)
        for k, histogram in histograms.items()
        for v in values
    ]
    table = pd.DataFrame(rows, columns=["K", statistic, "count", "matrices"])
    low, high = binomial_interval(table["count"], table["matrices"], confidence, method)
    table["fraction"] = table["count"] / table["matrices"]
    table["fraction_low"] = low
    table["fraction_high"] = high
    return table.drop(columns="matrices")


# --------------------------------------------------------------------------------------
# Claims of Appendices A and B
# --------------------------------------------------------------------------------------

#: Columns of the claims table.
CLAIM_COLUMNS = (
    "claim",
    "source",
    "paper_statement",
    "click_model",
    "paper_setting",
    "criterion",
    "value",
    "ci_low",
    "ci_high",
    "value_text",
    "holds",
    "ci_agrees",
)

#: Our reading of the paper's words for proportions it does not quantify.
_MAJORITY = 0.9
#: "Drops rapidly": below one half before K reaches half of the rankers.
_RAPID_HALF = 0.5


def _pooled(counts: AppendixCounts, attribute: str) -> tuple[int, int]:
    rows = counts.per_k.values()
    return sum(getattr(r, attribute) for r in rows), sum(r.matrices for r in rows)


def _pooled_histogram(counts: AppendixCounts, attribute: str) -> dict[int, int]:
    total: dict[int, int] = {}
    for row in counts.per_k.values():
        total = _add_histograms(total, getattr(row, attribute))
    return total


def _proportion_claim(
    successes: int,
    trials: int,
    threshold: float,
    above: bool,
    confidence: float,
    method: IntervalMethod,
) -> dict[str, Any]:
    low, high = (float(x) for x in binomial_interval(successes, trials, confidence, method))
    value = successes / trials
    holds = value > threshold if above else value < threshold
    ci_agrees = low > threshold if above else high < threshold
    return {
        "value": value,
        "ci_low": low,
        "ci_high": high,
        "value_text": f"{100 * value:.4f}% ({successes} of {trials}; "
        f"{100 * confidence:g}% CI {100 * low:.4f}%-{100 * high:.4f}%)",
        "holds": bool(holds),
        "ci_agrees": bool(ci_agrees),
    }


def _model_claims(
    model: str,
    counts: AppendixCounts,
    confidence: float,
    method: IntervalMethod,
) -> list[dict[str, Any]]:
    """The sampled-matrix claims of Appendices A and B for one click model."""
    table = per_k_table(counts, confidence, method)
    base = {"click_model": model}
    rows: list[dict[str, Any]] = []

    # A: the Condorcet winner becomes rare as K grows.
    fraction = table["fraction_condorcet"].to_numpy()
    low = table["fraction_condorcet_low"].to_numpy()
    high = table["fraction_condorcet_high"].to_numpy()
    ks = table["K"].to_numpy()
    rises = [
        (int(ks[i]), int(ks[j]))
        for i in range(len(ks))
        for j in range(i + 1, len(ks))
        if low[j] > high[i]
    ]
    overall_drop = bool(high[-1] < low[0])
    rows.append(
        {
            **base,
            "claim": "condorcet_decreasing_in_k",
            "source": "Appendix A, Fig. 1",
            "paper_statement": "the occurrence of the Condorcet winner drops ... as the number of "
            "rankers grows",
            "criterion": "P(Condorcet winner) at the largest K is significantly below that at the "
            "smallest K (disjoint confidence intervals) and never significantly "
            "increases: no K1 < K2 with the interval of K2 entirely above that of K1",
            "value": float(fraction[-1]),
            "ci_low": float(low[-1]),
            "ci_high": float(high[-1]),
            "value_text": (
                f"P from {100 * fraction[0]:.2f}% (K={ks[0]}) to {100 * fraction[-1]:.2f}%"
                f" (K={ks[-1]}); {len(rises)} significantly increasing pairs"
                + (f", e.g. K={rises[0][0]} -> {rises[0][1]}" if rises else "")
            ),
            "holds": overall_drop and not rises,
            "ci_agrees": overall_drop and not rises,
        }
    )
    half_k = int(ks[fraction < _RAPID_HALF][0]) if (fraction < _RAPID_HALF).any() else None
    half_k_ci = int(ks[high < _RAPID_HALF][0]) if (high < _RAPID_HALF).any() else None
    half_of_largest = int(ks[-1]) / 2
    rows.append(
        {
            **base,
            "claim": "condorcet_drops_rapidly",
            "source": "Appendix A, Fig. 1",
            "paper_statement": "the occurrence of the Condorcet winner drops rapidly as the number "
            "of rankers grows",
            "criterion": f"our reading of 'rapidly': P(Condorcet winner) falls below "
            f"{_RAPID_HALF:.0%} at some K <= {half_of_largest:g} (half the largest K "
            f"sampled); value = the first such K",
            "value": float(half_k) if half_k is not None else np.nan,
            "ci_low": np.nan,
            "ci_high": np.nan,
            "value_text": (
                f"first K with P < 50%: {half_k}; with the whole CI below 50%: {half_k_ci}"
                if half_k is not None
                else "P(Condorcet winner) stays at or above 50% for every sampled K"
            ),
            "holds": half_k is not None and half_k <= half_of_largest,
            "ci_agrees": half_k_ci is not None and half_k_ci <= half_of_largest,
        }
    )

    some, total = _pooled(counts, "some_copeland_in_support")
    rows.append(
        {
            **base,
            "claim": "some_copeland_winner_in_support",
            "source": "Appendix B",
            "paper_statement": "in over 99.9% of the examples, the von Neumann winner contained at "
            "least one Copeland winner",
            "criterion": "fraction of all sampled matrices > 99.9%",
            **_proportion_claim(some, total, 0.999, True, confidence, method),
        }
    )
    every, _ = _pooled(counts, "all_copeland_in_support")
    rows.append(
        {
            **base,
            "claim": "all_copeland_winners_in_support",
            "source": "Appendix B, Fig. 2",
            "paper_statement": "in the overwhelming majority of the cases, all Copeland winners "
            "were assigned non-zero probability by the von Neumann winner",
            "criterion": f"our reading of 'overwhelming majority': fraction of all sampled "
            f"matrices > {_MAJORITY:.0%}",
            **_proportion_claim(every, total, _MAJORITY, True, confidence, method),
        }
    )
    every_fraction = table["fraction_all_copeland_in_support"].to_numpy()
    every_low = table["fraction_all_copeland_in_support_low"].to_numpy()
    every_high = table["fraction_all_copeland_in_support_high"].to_numpy()
    lowest, highest = int(np.argmin(every_fraction)), int(np.argmax(every_fraction))
    rows.append(
        {
            **base,
            "claim": "all_copeland_lower_and_k_dependent",
            "source": "Appendix B, Fig. 2",
            "paper_statement": "the percentage [with all Copeland winners in the support] is "
            "slightly lower than [99.9%] and dependent on the number of arms",
            "criterion": "pooled fraction with all Copeland winners < pooled fraction with at "
            "least one, and the per-K fractions differ (lowest and highest K have "
            "disjoint confidence intervals for ci_agrees)",
            "value": every / total,
            "ci_low": np.nan,
            "ci_high": np.nan,
            "value_text": (
                f"all: {100 * every / total:.3f}%, at least one: {100 * some / total:.3f}%;"
                f" per K from {100 * every_fraction[lowest]:.2f}% (K={ks[lowest]}) to "
                f"{100 * every_fraction[highest]:.2f}% (K={ks[highest]})"
            ),
            "holds": every < some and every_fraction[lowest] < every_fraction[highest],
            "ci_agrees": bool(every < some and every_high[lowest] < every_low[highest]),
        }
    )

    loss = _pooled_histogram(counts, "max_copeland_loss")
    low_loss = sum(c for v, c in loss.items() if v <= 2)
    loss_claim = _proportion_claim(low_loss, total, _MAJORITY, True, confidence, method)
    loss_claim["value_text"] += "; max loss 0, 1, 2, 3+: " + ", ".join(
        f"{100 * share / total:.2f}%"
        for share in (
            loss.get(0, 0),
            loss.get(1, 0),
            loss.get(2, 0),
            sum(c for v, c in loss.items() if v >= 3),
        )
    )
    rows.append(
        {
            **base,
            "claim": "support_has_low_copeland_loss",
            "source": "Appendix B, Fig. 3",
            "paper_statement": "the arms in the support of the von Neumann winner tend to have "
            "high Copeland scores (or equivalently, low Copeland losses)",
            "criterion": f"our reading: the largest Copeland loss in the support is at most 2 in "
            f"> {_MAJORITY:.0%} of all sampled matrices",
            **loss_claim,
        }
    )

    sizes = _pooled_histogram(counts, "support_size")
    larger = sum(c for v, c in sizes.items() if v > 5)
    large_low, large_high = (float(x) for x in binomial_interval(larger, total, confidence, method))
    rows.append(
        {
            **base,
            "claim": "no_support_larger_than_5",
            "source": "Appendix B, Fig. 4",
            "paper_statement": "among the over a million preference matrices sampled ..., not a "
            "single one had a von Neumann winner that assigned non-zero "
            "probability to more than 5 arms",
            "criterion": "no sampled matrix has a support larger than 5, among over 1,000,000",
            "value": larger / total,
            "ci_low": large_low,
            "ci_high": large_high,
            "value_text": (
                f"{larger} of {total} matrices have support > 5 (largest support "
                f"{max(sizes)}); {100 * confidence:g}% CI of the rate "
                f"{large_low:.2e}-{large_high:.2e}"
            ),
            "holds": larger == 0 and total > 1_000_000,
            "ci_agrees": larger == 0 and total > 1_000_000,
        }
    )
    rows.append(
        {
            **base,
            "claim": "support_5_rare",
            "source": "Appendix B, Fig. 4",
            "paper_statement": "fewer than 0.03% of preference matrices had von Neumann winners "
            "whose support contains 5 arms",
            "criterion": "fraction of all sampled matrices with support size 5 < 0.03%",
            **_proportion_claim(sizes.get(5, 0), total, 0.0003, False, confidence, method),
        }
    )
    one_or_three = sizes.get(1, 0) + sizes.get(3, 0)
    rows.append(
        {
            **base,
            "claim": "support_mostly_1_or_3",
            "source": "Appendix B, Fig. 4",
            "paper_statement": "in the vast majority of the cases, the von Neumann winners had "
            "supports of size 1 or 3",
            "criterion": f"our reading of 'vast majority': fraction of all sampled matrices with "
            f"support size 1 or 3 > {_MAJORITY:.0%}",
            **_proportion_claim(one_or_three, total, _MAJORITY, True, confidence, method),
        }
    )
    return rows


def example_claims(clone_ks: Sequence[int], solver: str | None = None) -> list[dict[str, Any]]:
    """Claims about the paper's two worked examples (Appendix B), checked two ways.

    The examples are computed by :mod:`cdbandits.paper_examples` (cvxpy reference) and their von
    Neumann winners once more with :func:`cdbandits.batched.von_neumann_winners`.

    Parameters
    ----------
    clone_ks : sequence of int
        Numbers ``K > 4`` of dominated arms of the clone example to check.
    solver : str, optional
        cvxpy solver for the reference LPs.

    Returns
    -------
    list of dict
        Rows with the keys of :data:`CLAIM_COLUMNS`.
    """
    five = five_arm_table(solver=solver)
    clones = clone_table(list(clone_ks), solver=solver)
    facts = examples_summary(five, clones)
    base = {"click_model": "", "ci_low": np.nan, "ci_high": np.nan, "ci_agrees": np.nan}
    batched_five = von_neumann_winners(five_arm_matrix()[None])
    uniform = np.allclose(
        batched_five.weights[0], PAPER_FIVE_ARM["von_neumann_weights"], rtol=0, atol=1e-9
    )
    rows = [
        {
            **base,
            "claim": "five_arm_von_neumann_uniform_on_1_3",
            "source": "Appendix B, 5-arm example",
            "paper_statement": "the von Neumann winner of this matrix is the uniform "
            "distribution on the first three arms",
            "criterion": "vNW weights equal [1/3 1/3 1/3 0 0] to 1e-9 (cvxpy reference and "
            "batched solver)",
            "value": float(
                np.abs(batched_five.weights[0] - PAPER_FIVE_ARM["von_neumann_weights"]).max()
            ),
            "value_text": "reference "
            + np.array2string(five["von_neumann_weight"].to_numpy(), precision=6)
            + "; batched "
            + np.array2string(batched_five.weights[0], precision=6),
            "holds": facts["five_arm"]["von_neumann_uniform_on_arms_0_2"] and bool(uniform),
        },
        {
            **base,
            "claim": "five_arm_copeland_scores",
            "source": "Appendix B, 5-arm example",
            "paper_statement": "the Copeland scores of the 5 arms are [2 2 2 3 1]; the Copeland "
            "winner is the fourth arm, outside the vNW support",
            "criterion": "scores equal exactly; arm 4 not in the vNW support",
            "value": np.nan,
            "value_text": str(five["copeland_wins"].tolist()),
            "holds": facts["five_arm"]["copeland_scores"]
            and bool(five["von_neumann_weight"].iloc[3] == 0),
        },
        {
            **base,
            "claim": "five_arm_borda_scores",
            "source": "Appendix B, 5-arm example",
            "paper_statement": "the Borda scores are [0.455 0.53 0.53 0.54 0.445]",
            "criterion": "equal to the printed digits (5e-4)",
            "value": np.nan,
            "value_text": np.array2string(five["borda"].to_numpy(), precision=4),
            "holds": facts["five_arm"]["borda_scores_to_printed_digits"],
        },
        {
            **base,
            "claim": "five_arm_random_walk",
            "source": "Appendix B, 5-arm example",
            "paper_statement": "the stationary distribution is [0.198 0.212 0.204 0.217 0.169]",
            "criterion": "equal to the printed digits (5e-4)",
            "value": np.nan,
            "value_text": np.array2string(five["random_walk"].to_numpy(), precision=4),
            "holds": facts["five_arm"]["random_walk_to_printed_digits"],
        },
        {
            **base,
            "claim": "five_arm_fourth_arm_wins_other_notions",
            "source": "Appendix B, 5-arm example",
            "paper_statement": "the fourth arm also happens to be both the Borda winner and the "
            "Random Walk winner",
            "criterion": "arm 4 is the unique argmax of the Copeland, Borda and random-walk scores",
            "value": np.nan,
            "value_text": "Copeland, Borda, random walk argmax: arm "
            f"{int(five['copeland_wins'].idxmax()) + 1}, "
            f"{int(five['borda'].idxmax()) + 1}, "
            f"{int(five['random_walk'].idxmax()) + 1}",
            "holds": facts["five_arm"]["arm_3_wins_copeland_borda_random_walk"],
        },
    ]
    for per_k in facts["clone"]:
        k = per_k["k"]
        original = von_neumann_winner(clone_example_matrix(k, with_clone=False), solver=solver)
        with_clone = von_neumann_winners(clone_example_matrix(k)[None])
        weights = with_clone.weights[0]
        clone_rows = clones[clones["k"] == k].set_index("arm")
        rows.extend(
            [
                {
                    **base,
                    "claim": f"clone_k{k}_original_uniform_cycle",
                    "source": "Appendix B, clone example",
                    "paper_statement": "before cloning, the von Neumann distribution is the "
                    "uniform distribution on a1, a2, a3",
                    "criterion": "vNW of the K+3-arm example uniform on its first three arms "
                    "(1e-9)",
                    "value": float(np.abs(original.weights[:3] - 1 / 3).max()),
                    "value_text": np.array2string(original.weights[:3], precision=6),
                    "holds": bool(
                        np.allclose(original.weights[:3], 1 / 3, rtol=0, atol=1e-9)
                        and original.support.tolist() == [0, 1, 2]
                    ),
                },
                {
                    **base,
                    "claim": f"clone_k{k}_copeland_table",
                    "source": "Appendix B, clone example (Table)",
                    "paper_statement": "Copeland scores of a0..a3 with the clone: (K+1, K+1, K+1, "
                    "K+2), (K+3, K+3, K+2, K+3), (K, K, K-1, K+1); under no "
                    "variant are all of a0..a3 Copeland winners, and a2 never is",
                    "criterion": "scores equal exactly under all three variants",
                    "value": np.nan,
                    "value_text": "; ".join(
                        f"{variant}: {clone_rows[f'copeland_{variant}'].tolist()}"
                        for variant in COPELAND_VARIANTS
                    ),
                    "holds": per_k["copeland_table_matches_paper"]
                    and per_k["no_variant_makes_all_four_copeland_winners"]
                    and per_k["a2_never_copeland_winner"],
                },
                {
                    **base,
                    "claim": f"clone_k{k}_von_neumann_support",
                    "source": "Appendix B, clone example",
                    "paper_statement": "a0..a3 still form the support of the von Neumann "
                    "distribution: w(0)+w(1) = w(2) = w(3) = 1/3",
                    "criterion": "reference and batched solver: w0+w1, w2, w3 equal 1/3 (1e-9) and "
                    "only a0..a3 have positive weight",
                    "value": float(
                        np.abs(
                            [
                                weights[0] + weights[1] - 1 / 3,
                                weights[2] - 1 / 3,
                                weights[3] - 1 / 3,
                            ]
                        ).max()
                    ),
                    "value_text": f"batched ({METHODS[with_clone.method[0]]} path): "
                    + np.array2string(weights[:4], precision=6),
                    "holds": per_k["von_neumann_w0_plus_w1_w2_w3_one_third"]
                    and bool(
                        np.allclose(
                            [weights[0] + weights[1], weights[2], weights[3]],
                            1 / 3,
                            rtol=0,
                            atol=1e-9,
                        )
                    )
                    and bool(np.flatnonzero(weights > 0).tolist() == [0, 1, 2, 3]),
                },
            ]
        )
    return rows


def appendix_claims(
    counts_by_model: Mapping[str, AppendixCounts],
    clone_ks: Sequence[int],
    *,
    paper_model: str = "informational",
    confidence: float = 0.95,
    method: IntervalMethod = "clopper-pearson",
    solver: str | None = None,
) -> pd.DataFrame:
    """The claims table: every quantitative claim of Appendices A and B, checked.

    The sampled-matrix claims are evaluated for every click model; the paper's own setting
    (``paper_model``) comes first and is marked ``paper_setting``; the other click models
    test whether the claims carry over. Pooled fractions are over all sampled matrices of the
    model, so they depend on the K grid (the paper's grid is not stated). ``holds`` applies
    the criterion to the point estimate; ``ci_agrees`` says whether the whole confidence
    interval satisfies it too (empty for exact facts).

    Parameters
    ----------
    counts_by_model : mapping of str to AppendixCounts
        Merged counts per click model.
    clone_ks : sequence of int
        Clone-example sizes to check (see :func:`example_claims`).
    paper_model : str, optional
        The click model of the paper's experiments.
    confidence : float, optional
        Coverage of the intervals.
    method : {"clopper-pearson", "wilson"}, optional
        Interval method.
    solver : str, optional
        cvxpy solver of the reference LPs of the examples.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`CLAIM_COLUMNS`.
    """
    if paper_model not in counts_by_model:
        raise ValueError(
            f"the paper's click model {paper_model!r} is not among the computed "
            f"ones: {sorted(counts_by_model)}"
        )
    order = [paper_model] + sorted(m for m in counts_by_model if m != paper_model)
    rows = []
    for model in order:
        rows.extend(
            {**row, "paper_setting": model == paper_model}
            for row in _model_claims(model, counts_by_model[model], confidence, method)
        )
    rows.extend({**row, "paper_setting": True} for row in example_claims(clone_ks, solver))
    table = pd.DataFrame(rows)
    return table[list(CLAIM_COLUMNS)]


def claims_markdown(claims: pd.DataFrame) -> str:
    """Render the claims table as a Markdown table (one line per claim; failures in bold)."""

    def cell(column: str, value: Any) -> str:
        if isinstance(value, bool | np.bool_):
            if column == "paper_setting":
                return "paper" if value else "other click model"
            return "yes" if value else "**no**"
        if value is None or (isinstance(value, float) and np.isnan(value)):
            return ""
        return str(value).replace("|", "\\|")

    columns = [
        "claim",
        "source",
        "click_model",
        "paper_setting",
        "paper_statement",
        "criterion",
        "value_text",
        "holds",
        "ci_agrees",
    ]
    lines = [
        "| " + " | ".join(columns) + " |",
        "|" + "---|" * len(columns),
    ]
    for record in claims[columns].itertuples(index=False):
        cells = (cell(column, value) for column, value in zip(columns, record, strict=True))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------------------
# Verification against the cvxpy reference
# --------------------------------------------------------------------------------------


def verification_rng(seed: int, matrix_name: str) -> np.random.Generator:
    """The random generator that picks the verification sample of ``matrix_name``."""
    sequence = np.random.SeedSequence(
        seed, spawn_key=(stable_id("appendix-verification"), stable_id(matrix_name))
    )
    return np.random.default_rng(sequence)


def verification_picks(
    P: ArrayLike,
    plan: SamplingPlan,
    n_uniform: int,
    n_double_oracle: int,
    rng: np.random.Generator,
    *,
    max_restricted: int | None = None,
) -> pd.DataFrame:
    """Choose sampled matrices to re-solve with the reference.

    ``n_uniform`` are drawn uniformly without replacement from all matrices of ``plan``;
    ``n_double_oracle`` more uniformly from those without a Condorcet winner (the ones that
    need an LP; the stratum keeps its historical name "double_oracle"), which requires
    re-solving the whole plan.

    Returns
    -------
    pandas.DataFrame
        ``stratum`` ("uniform" or "double_oracle"), ``K``, ``block``, ``row``.
    """
    P = as_skew(P, "skew")
    units = plan.units()
    starts = np.cumsum([0] + [rows for _, _, rows in units])
    options = {} if max_restricted is None else {"max_restricted": max_restricted}

    def locate(flat: NDArray[np.int64]) -> list[tuple[int, int, int]]:
        unit = np.searchsorted(starts, flat, side="right") - 1
        return [
            (units[u][0], units[u][1], int(f - starts[u])) for u, f in zip(unit, flat, strict=True)
        ]

    n_uniform = min(n_uniform, plan.total)
    uniform = locate(np.sort(rng.choice(plan.total, size=n_uniform, replace=False)))
    oracle_rows: list[int] = []
    for (k, block, rows), start in zip(units, starts[:-1], strict=True):
        solution = subset_von_neumann_winners(P, plan.block_subsets(k, block, rows), **options)
        oracle_rows.extend(start + np.flatnonzero(solution.method != _CONDORCET_METHOD))
    chosen = rng.choice(
        np.asarray(oracle_rows, dtype=np.int64),
        size=min(n_double_oracle, len(oracle_rows)),
        replace=False,
    )
    oracle = locate(np.sort(chosen))
    records = [("uniform", *pick) for pick in uniform] + [("double_oracle", *p) for p in oracle]
    return pd.DataFrame(records, columns=["stratum", "K", "block", "row"])


def _compare(ours: NDArray[np.float64], theirs: NDArray[np.float64]) -> tuple[bool, float]:
    """Equal supports?, and the largest weight difference."""
    same = bool(np.array_equal(np.flatnonzero(ours > 0), np.flatnonzero(theirs > 0)))
    return same, float(np.abs(ours - theirs).max())


def _unique_on_support(P: NDArray[np.float64], support: NDArray[np.int64]) -> bool:
    """Does the support determine the vNW (equalizer system of full column rank)?

    When it does not (ties, clones), the vNWs with this support form a face of positive
    dimension, and solvers may return different points of it.
    """
    scaled = P / (np.abs(P).max() or 1.0)
    system = np.vstack([scaled[np.ix_(support, support)].T, np.ones(support.size)])
    return bool(np.linalg.matrix_rank(system, tol=1e-9) == support.size)


def verify_against_reference(
    P: ArrayLike,
    plan: SamplingPlan,
    picks: pd.DataFrame,
    *,
    weight_tol: float,
    solver: str | None = None,
    max_restricted: int | None = None,
) -> pd.DataFrame:
    """Re-solve picked sub-matrices with both solvers and compare; arbitrate disagreements.

    A pick *agrees* when both supports are equal and, if that support determines the vNW
    (``unique_vnw``), no weight differs by more than ``weight_tol``. When it does not (ties,
    clones), the vNWs form a face and the two solvers return different points of it by
    design (the batched solver its analytic centre, cvxpy wherever its iterations stop), so
    only the support (the union of the supports of all vNWs) is compared; both answers are
    certified. A disagreeing pick is solved once more by the reference with the simplex
    solver :data:`cdbandits.winners.SIMPLEX_SOLVER` (an exact vertex, which is the vNW when
    it is unique): interior-point solutions can carry spurious arms with weights near the
    solver's tolerance, which the polish keeps when their slack is as small.

    Parameters
    ----------
    P : array_like, shape (N, N)
        The full skew-form matrix.
    plan : SamplingPlan
        The plan the picks refer to.
    picks : pandas.DataFrame
        From :func:`verification_picks`.
    weight_tol : float
        Largest accepted weight difference.
    solver : str, optional
        cvxpy solver of the reference.
    max_restricted : int, optional
        Passed to the batched solver.

    Returns
    -------
    pandas.DataFrame
        One row per pick: the pick, ``arms`` (space-separated indices into ``P``),
        ``method`` of the batched solver, both supports, ``same_support``, ``unique_vnw``,
        ``max_abs_weight_difference``, ``agrees``, both certificates, and for disagreeing
        picks the simplex re-solve: ``simplex_support``, ``simplex_agrees`` and
        ``simplex_exploitability`` (empty otherwise).
    """
    P = as_skew(P, "skew")
    options = {} if max_restricted is None else {"max_restricted": max_restricted}
    block_rows = {(k, block): rows for k, block, rows in plan.units()}
    rows = []
    for (k, block), group in picks.groupby(["K", "block"], sort=True):
        size = block_rows[(int(k), int(block))]
        subsets = plan.block_subsets(int(k), int(block), size)[group["row"].to_numpy()]
        batched = subset_von_neumann_winners(P, subsets, **options)
        for index, (pick, arms) in enumerate(
            zip(group.itertuples(index=False), subsets, strict=True)
        ):
            sub = P[np.ix_(arms, arms)]
            reference = reference_von_neumann_winner(sub, solver=solver)
            ours = batched.weights[index]
            same_support, difference = _compare(ours, reference.weights)
            unique = _unique_on_support(sub, reference.support)
            agrees = same_support and (difference <= weight_tol or not unique)
            row = {
                "stratum": pick.stratum,
                "K": int(k),
                "block": int(block),
                "row": int(pick.row),
                "arms": " ".join(map(str, arms)),
                "method": METHODS[batched.method[index]],
                "support_batched": " ".join(map(str, np.flatnonzero(ours > 0))),
                "support_reference": " ".join(map(str, reference.support)),
                "same_support": same_support,
                "unique_vnw": unique,
                "max_abs_weight_difference": difference,
                "agrees": agrees,
                "exploitability_batched": float(batched.exploitability[index]),
                "exploitability_reference": float(reference.exploitability),
                "simplex_support": "",
                "simplex_agrees": np.nan,
                "simplex_exploitability": np.nan,
            }
            if not agrees:
                simplex = reference_von_neumann_winner(sub, solver=SIMPLEX_SOLVER)
                simplex_same, simplex_difference = _compare(ours, simplex.weights)
                row["simplex_support"] = " ".join(map(str, simplex.support))
                row["simplex_agrees"] = simplex_same and simplex_difference <= weight_tol
                row["simplex_exploitability"] = float(simplex.exploitability)
            rows.append(row)
    return pd.DataFrame(rows)


def verification_summary(table: pd.DataFrame, weight_tol: float) -> dict[str, Any]:
    """Agreement of :func:`verify_against_reference` results, overall and per stratum.

    ``agrees``: every pick agrees with the reference. ``resolved``: disagreeing picks for
    which the simplex re-solve agrees with the batched answer and the batched certificate is
    at least as good as the reference's (the reference was inexact). ``agrees_or_resolved``:
    every pick agrees or is resolved.
    """

    def describe(part: pd.DataFrame) -> dict[str, Any]:
        agreeing = part[part["agrees"].astype(bool)]
        disagreeing = part[~part["agrees"].astype(bool)]
        resolved = disagreeing[
            (disagreeing["simplex_agrees"] == True)  # noqa: E712 (NaN-safe comparison)
            & (disagreeing["exploitability_batched"] >= disagreeing["exploitability_reference"])
        ]
        return {
            "matrices": len(part),
            "agreeing": len(agreeing),
            "same_support": int(part["same_support"].astype(bool).sum()),
            "max_abs_weight_difference": float(part["max_abs_weight_difference"].max()),
            "max_abs_weight_difference_where_agreeing": (
                float(agreeing["max_abs_weight_difference"].max()) if len(agreeing) else None
            ),
            "min_exploitability_batched": float(part["exploitability_batched"].min()),
            "methods": {m: int((part["method"] == m).sum()) for m in METHODS},
            "support_sizes": {
                int(size): int(count)
                for size, count in part["support_batched"]
                .str.split()
                .str.len()
                .value_counts()
                .sort_index()
                .items()
            },
            "disagreeing": [
                {
                    key: disagreeing.loc[i, key]
                    for key in (
                        "K",
                        "block",
                        "row",
                        "support_batched",
                        "support_reference",
                        "simplex_support",
                        "max_abs_weight_difference",
                        "exploitability_batched",
                        "exploitability_reference",
                    )
                }
                for i in disagreeing.index
            ],
            "resolved": len(resolved),
            "agrees": len(disagreeing) == 0,
            "agrees_or_resolved": len(resolved) == len(disagreeing),
        }

    if table.empty:
        raise ValueError("no verification results to summarise")
    return {
        "weight_tol": weight_tol,
        **describe(table),
        "strata": {name: describe(part) for name, part in table.groupby("stratum", sort=True)},
    }
