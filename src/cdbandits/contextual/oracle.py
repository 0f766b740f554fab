"""Action tables and the exact cost-sensitive classification oracle of the paper's eq. (f5).

A finite policy class ``Pi`` evaluated on ``n`` contexts is an :class:`ActionTable`: a
``uint8`` array ``actions[i, pi] = pi(x_i)`` of shape ``(n_contexts, n_policies)``. The layout
is *context-major* (one contiguous row of all policies' actions per context) because both
consumers stream it row by row: Exp4.P needs every policy's advice on the current context,
and the oracle below accumulates one context (group) at a time into per-policy totals.

The oracle answers ``argmin_pi sum_i c_i(pi(x_i))`` for cost vectors ``c_i in R^K``
exactly, by computing the total cost of every policy. :class:`TableOracle` packs the
table first: ``g`` consecutive contexts are merged into one byte ``code = sum_j a_j K^j``
(``g`` is the largest integer with ``K^g <= 256``: 3 contexts per byte for ``K = 5``), and
each call builds, per group, a look-up table of the ``K^g`` possible summed costs. A call
then streams the packed table once, doing one table look-up and one addition per byte,
instead of one per (policy, context) pair. Policies are processed in blocks whose partial
sums stay in L1 cache.

**Exactness and ties.** Every policy's total is summed in the same order (group by group,
contexts inside a group in order), so policies taking the same actions get bit-identical
totals, and ties are broken towards the smallest policy index, as ``numpy.argmin`` does.
Totals of different policies may differ from a naive left-to-right sum by rounding
(relative ``~1e-16`` per addition); with costs that are exactly representable integers
(or dyadic fractions) every total is exact.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

import numba
import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = [
    "ActionTable",
    "ClassificationOracle",
    "OracleAnswer",
    "TableOracle",
    "aggregate_costs",
    "contexts_per_byte",
]

#: Policies per block of the packed-table kernel: 4096 float64 partial sums (32 KiB) fit
#: in the L1 cache next to the 4 KiB slices of packed table being read.
DEFAULT_BLOCK_SIZE = 4096


@dataclass(frozen=True)
class ActionTable:
    """Actions of every policy of a finite class on a fixed list of contexts.

    Attributes
    ----------
    actions : ndarray of uint8, shape (n_contexts, n_policies)
        ``actions[i, pi]`` is the action policy ``pi`` takes on context ``i``; C-contiguous
        (context-major).
    n_actions : int
        Number of actions ``K``; every entry of ``actions`` is below it.
    """

    actions: NDArray[np.uint8]
    n_actions: int

    def __post_init__(self) -> None:
        actions = self.actions
        if not isinstance(actions, np.ndarray) or actions.dtype != np.uint8 or actions.ndim != 2:
            raise TypeError(
                "actions must be a 2-D uint8 array (n_contexts, n_policies); got "
                f"{type(actions).__name__} with dtype {getattr(actions, 'dtype', None)} and "
                f"shape {getattr(actions, 'shape', None)}"
            )
        if not actions.flags.c_contiguous:
            raise ValueError(
                "actions must be C-contiguous (context-major); use np.ascontiguousarray"
            )
        if not 1 <= self.n_actions <= 255:
            raise ValueError(f"n_actions must be in 1..255 for a uint8 table; got {self.n_actions}")
        if actions.shape[0] == 0 or actions.shape[1] == 0:
            raise ValueError(
                f"an action table needs contexts and policies; got shape {actions.shape}"
            )
        largest = int(actions.max())
        if largest >= self.n_actions:
            i, pi = np.argwhere(actions == largest)[0]
            raise ValueError(
                f"policy {pi} takes action {largest} on context {i}, but there are only "
                f"{self.n_actions} actions (0..{self.n_actions - 1})"
            )

    @property
    def n_contexts(self) -> int:
        """Number of contexts (rows)."""
        return int(self.actions.shape[0])

    @property
    def n_policies(self) -> int:
        """Number of policies (columns)."""
        return int(self.actions.shape[1])


@dataclass(frozen=True)
class OracleAnswer:
    """Result of an oracle call: the minimising policy and its total cost.

    Attributes
    ----------
    policy : int
        Index of the policy with the smallest total cost (the smallest index among ties).
    cost : float
        Its total cost ``sum_i c_i(pi(x_i))``.
    """

    policy: int
    cost: float


def contexts_per_byte(n_actions: int) -> int:
    """How many actions of ``n_actions`` values fit in one byte: max ``g`` with ``K^g <= 256``.

    Capped at 8 (reached for ``K <= 2``).
    """
    if n_actions < 1:
        raise ValueError(f"n_actions must be at least 1; got {n_actions}")
    group = 1
    while group < 8 and n_actions ** (group + 1) <= 256:
        group += 1
    return group


def aggregate_costs(
    costs: ArrayLike, context_ids: ArrayLike, n_contexts: int
) -> NDArray[np.float64]:
    """Sum per-sample cost vectors into per-context cost vectors.

    When samples are drawn from a finite population of contexts, an oracle call over the
    samples equals an oracle call over the population with the summed costs.

    Parameters
    ----------
    costs : array_like, shape (m, K)
        Cost vector of each sample.
    context_ids : array_like of int, shape (m,)
        The population context of each sample.
    n_contexts : int
        Size of the population.

    Returns
    -------
    ndarray of float64, shape (n_contexts, K)
    """
    costs = np.asarray(costs, dtype=np.float64)
    ids = np.asarray(context_ids, dtype=np.int64)
    if costs.ndim != 2 or ids.shape != (costs.shape[0],):
        raise ValueError(
            f"costs must be (m, K) and context_ids (m,); got {costs.shape} and {ids.shape}"
        )
    if ids.size and (ids.min() < 0 or ids.max() >= n_contexts):
        raise ValueError(f"context ids must lie in 0..{n_contexts - 1}")
    return np.stack(
        [
            np.bincount(ids, weights=costs[:, a], minlength=n_contexts)
            for a in range(costs.shape[1])
        ],
        axis=1,
    )


class ClassificationOracle(ABC):
    """Exact argmin of the total cost over a finite policy class on fixed contexts.

    Subclasses implement :meth:`total_costs`; the argmin methods break ties towards the
    smallest policy index.
    """

    n_contexts: int
    n_policies: int
    n_actions: int

    @abstractmethod
    def _totals(self, costs: NDArray[np.float64]) -> NDArray[np.float64]:
        """Totals of every policy for a validated batch ``(B, n_contexts, K)``: ``(B, N)``."""

    def _validated(self, costs: ArrayLike, batched: bool) -> NDArray[np.float64]:
        array = np.asarray(costs, dtype=np.float64)
        expected = 3 if batched else 2
        shape = (self.n_contexts, self.n_actions)
        if array.ndim != expected or array.shape[-2:] != shape:
            what = "(batch, n_contexts, K)" if batched else "(n_contexts, K)"
            raise ValueError(
                f"costs must have shape {what} = {'(B, ' if batched else '('}"
                f"{shape[0]}, {shape[1]}); got {array.shape}"
            )
        if not np.isfinite(array).all():
            raise ValueError("costs must be finite")
        return np.ascontiguousarray(array if batched else array[None])

    def total_costs(self, costs: ArrayLike) -> NDArray[np.float64]:
        """Total cost ``sum_i c_i(pi(x_i))`` of every policy.

        Parameters
        ----------
        costs : array_like, shape (n_contexts, K) or (B, n_contexts, K)
            One cost vector per context, or a batch of ``B`` such cost tables (the table is
            streamed once for the whole batch).

        Returns
        -------
        ndarray of float64, shape (n_policies,) or (B, n_policies)
        """
        batched = np.ndim(costs) == 3
        totals = self._totals(self._validated(costs, batched))
        return totals if batched else totals[0]

    def argmin(self, costs: ArrayLike) -> OracleAnswer:
        """The policy of smallest total cost (eq. (f5)) and that cost.

        Parameters
        ----------
        costs : array_like, shape (n_contexts, K)

        Returns
        -------
        OracleAnswer
        """
        totals = self._totals(self._validated(costs, batched=False))[0]
        best = int(np.argmin(totals))
        return OracleAnswer(policy=best, cost=float(totals[best]))

    def argmin_batch(self, costs: ArrayLike) -> list[OracleAnswer]:
        """:meth:`argmin` for each of ``B`` cost tables, streaming the class once.

        Parameters
        ----------
        costs : array_like, shape (B, n_contexts, K)

        Returns
        -------
        list of OracleAnswer, length B
        """
        totals = self._totals(self._validated(costs, batched=True))
        best = np.argmin(totals, axis=1)
        return [
            OracleAnswer(policy=int(pi), cost=float(row[pi]))
            for pi, row in zip(best, totals, strict=True)
        ]


@numba.njit(cache=True)
def _pack_digits(n_actions: int, group: int) -> NDArray[np.int64]:
    """``digits[code, j] = (code // K^j) % K`` for every code of ``group`` actions."""
    n_codes = n_actions**group
    digits = np.empty((n_codes, group), dtype=np.int64)
    for code in range(n_codes):
        rest = code
        for j in range(group):
            digits[code, j] = rest % n_actions
            rest //= n_actions
    return digits


@numba.njit(cache=True)
def _pack(actions: NDArray[np.uint8], n_actions: int, group: int) -> NDArray[np.uint8]:
    """``packed[g, pi] = sum_j actions[g * group + j, pi] K^j`` (missing rows count 0)."""
    n_contexts, n_policies = actions.shape
    n_groups = -(-n_contexts // group)
    packed = np.zeros((n_groups, n_policies), dtype=np.uint8)
    for g in range(n_groups):
        scale = 1
        for j in range(min(group, n_contexts - g * group)):
            row = actions[g * group + j]
            # Every partial code stays below K^group <= 256, so uint8 never overflows.
            for pi in range(n_policies):
                packed[g, pi] += row[pi] * scale
            scale *= n_actions
    return packed


@numba.njit(cache=True)
def _packed_totals(
    packed: NDArray[np.uint8], lookups: NDArray[np.float64], block_size: int
) -> NDArray[np.float64]:
    """Totals ``(B, N)`` from a packed table ``(n_groups, N)`` and look-ups ``(B, n_groups, L)``.

    Two groups are added per pass over a block, which halves the traffic on the partial
    sums; the summation order is the same for every policy.
    """
    n_batch = lookups.shape[0]
    n_groups, n_policies = packed.shape
    totals = np.empty((n_batch, n_policies))
    partial = np.empty((n_batch, block_size))
    for start in range(0, n_policies, block_size):
        stop = min(n_policies, start + block_size)
        width = stop - start
        partial[:, :width] = 0.0
        group = 0
        while group + 1 < n_groups:
            first = packed[group, start:stop]
            second = packed[group + 1, start:stop]
            for b in range(n_batch):
                first_lookup = lookups[b, group]
                second_lookup = lookups[b, group + 1]
                sums = partial[b]
                for q in range(width):
                    sums[q] += first_lookup[first[q]] + second_lookup[second[q]]
            group += 2
        if group < n_groups:
            last = packed[group, start:stop]
            for b in range(n_batch):
                last_lookup = lookups[b, group]
                sums = partial[b]
                for q in range(width):
                    sums[q] += last_lookup[last[q]]
        totals[:, start:stop] = partial[:, :width]
    return totals


class TableOracle(ClassificationOracle):
    """Exact oracle over an explicit :class:`ActionTable`, streaming a packed copy once per call.

    See the module docstring for the packing. Memory: the packed copy takes
    ``ceil(n_contexts / g) * n_policies`` bytes (a third of the table for ``K`` = 5 or 6);
    the table itself is kept by reference only.

    Parameters
    ----------
    table : ActionTable
        The class on the contexts the costs will refer to.
    block_size : int, optional
        Policies per block of the kernel.

    Attributes
    ----------
    table : ActionTable
    group : int
        Contexts per byte of the packed table, :func:`contexts_per_byte`.
    packed : ndarray of uint8, shape (ceil(n_contexts / group), n_policies)
    """

    def __init__(self, table: ActionTable, block_size: int = DEFAULT_BLOCK_SIZE) -> None:
        if block_size < 1:
            raise ValueError(f"block_size must be positive; got {block_size}")
        self.table = table
        self.block_size = int(block_size)
        self.n_contexts = table.n_contexts
        self.n_policies = table.n_policies
        self.n_actions = table.n_actions
        self.group = contexts_per_byte(table.n_actions)
        self.packed = _pack(table.actions, table.n_actions, self.group)
        self._digits = _pack_digits(table.n_actions, self.group)

    def _lookups(self, costs: NDArray[np.float64]) -> NDArray[np.float64]:
        """Per group, the summed cost of each code: ``(B, n_groups, K^group)``."""
        n_batch = costs.shape[0]
        n_groups = self.packed.shape[0]
        padded = np.zeros((n_batch, n_groups * self.group, self.n_actions))
        padded[:, : self.n_contexts] = costs
        grouped = padded.reshape(n_batch, n_groups, self.group, self.n_actions)
        lookups = grouped[:, :, 0, self._digits[:, 0]]
        for j in range(1, self.group):
            lookups = lookups + grouped[:, :, j, self._digits[:, j]]
        return np.ascontiguousarray(lookups)

    def _totals(self, costs: NDArray[np.float64]) -> NDArray[np.float64]:
        return _packed_totals(self.packed, self._lookups(costs), self.block_size)
