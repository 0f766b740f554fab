"""A log of pairwise comparisons held in memory: :class:`ComparisonLog`.

One record per comparison (or per group of identical comparisons): the two items, the
outcome, a frequency weight, and optionally a context and a resampling group. Readers of log
files (:mod:`.logs`) and of PrefLib elections (:mod:`.preflib`) build it; the counts, the
uncertainty and the rankings start from it.

**Weights** are *frequency* weights: a record of weight 3 stands for three identical
comparisons. They must be positive; they may be fractional (the counts and the Beta
posterior accept that), but the bootstrap, which resamples comparisons, needs integers.

**Groups** name the unit the bootstrap resamples when comparisons are not independent: the
voters of an election (every voter ranks all alternatives), the judges of a panel. Every
record of a group carries the same weight, the number of identical groups it stands for
(a PrefLib line ``3: a,b,c`` is one group of weight 3: three voters with that order).
Without groups every comparison is its own unit.

Weights are at most :data:`~cdbandits.limits.MAX_WEIGHT` (``2**53``), and so is the total weight of
the resampling units (the comparisons, or the groups), so that every count is exact.

**Item names** that differ only by case, Unicode form, surrounding or repeated white space,
or invisible (zero-width) characters print alike but are different items;
:func:`similar_item_names` finds them and :func:`merge_similar_items` merges them.
"""

from __future__ import annotations

import unicodedata
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..limits import MAX_WEIGHT

__all__ = [
    "FIRST_WINS",
    "SECOND_WINS",
    "TIE",
    "ComparisonDataWarning",
    "ComparisonLog",
    "ComparisonLogError",
    "RecordOrigins",
    "concatenate_logs",
    "log_from_counts",
    "merge_similar_items",
    "name_key",
    "require_whole_weights",
    "similar_item_names",
    "warn",
]

#: Outcome codes of :attr:`ComparisonLog.outcome` (the sign of the skew-form entry).
FIRST_WINS, SECOND_WINS, TIE = 1, -1, 0


class ComparisonLogError(ValueError):
    """A comparison log is invalid; the message names the file, line and column."""


class ComparisonDataWarning(UserWarning):
    """Something in a comparison log was handled by a documented choice (ties, dropped rows,
    pairs never compared, rarely compared items); the message says what was done."""


def warn(message: str) -> None:
    """Issue a :class:`ComparisonDataWarning` (the one way this package reports a choice)."""
    warnings.warn(message, ComparisonDataWarning, stacklevel=3)


@dataclass(frozen=True, eq=False)
class RecordOrigins:
    """Where every record of a log came from: a source and a line (or row) in it.

    Attributes
    ----------
    sources : tuple of str
        The files (or other sources).
    kinds : tuple of str
        Per source, what ``position`` counts: ``"line"`` (text files), ``"row"`` (data
        rows of a Parquet file) or ``"record"``.
    source : ndarray of int64, shape (n,)
        Index into ``sources`` of every record.
    position : ndarray of int64, shape (n,)
        Line, row or record number (from 1) of every record.
    """

    sources: tuple[str, ...]
    kinds: tuple[str, ...]
    source: NDArray[np.int64]
    position: NDArray[np.int64]

    @classmethod
    def of_source(cls, source: str, kind: str, positions: ArrayLike) -> RecordOrigins:
        """Origins of records that all come from one source."""
        position = np.asarray(positions, dtype=np.int64)
        return cls((source,), (kind,), np.zeros(position.size, dtype=np.int64), position)

    def __len__(self) -> int:
        return int(self.position.size)

    def __getitem__(self, row: int) -> str:
        """``"file:line"``, ``"file: row N"`` or ``"source: record N"`` of one record."""
        source = int(self.source[row])
        name, kind, number = self.sources[source], self.kinds[source], int(self.position[row])
        return f"{name}:{number}" if kind == "line" else f"{name}: {kind} {number}"

    def take(self, index: ArrayLike) -> RecordOrigins:
        """The origins of the selected records."""
        return replace(self, source=self.source[index], position=self.position[index])

    @classmethod
    def concatenate(cls, parts: Sequence[RecordOrigins]) -> RecordOrigins:
        """One record list after another (sources listed in order)."""
        offsets = np.cumsum([0] + [len(part.sources) for part in parts])
        return cls(
            sources=tuple(name for part in parts for name in part.sources),
            kinds=tuple(kind for part in parts for kind in part.kinds),
            source=np.concatenate(
                [part.source + offset for part, offset in zip(parts, offsets, strict=False)]
            ).astype(np.int64),
            position=np.concatenate([part.position for part in parts]).astype(np.int64),
        )


@dataclass(frozen=True, eq=False)
class ComparisonLog:
    """Pairwise comparisons between named items.

    Attributes
    ----------
    items : tuple of str
        Item names; the records refer to them by position. Items without comparisons are
        allowed (a PrefLib alternative nobody ranked).
    first, second : ndarray of int64, shape (n,)
        The two items of each record, distinct.
    outcome : ndarray of int8, shape (n,)
        :data:`FIRST_WINS` (1), :data:`SECOND_WINS` (-1) or :data:`TIE` (0).
    weight : ndarray of float64, shape (n,)
        Positive frequency weights (see the module docstring).
    context : ndarray of str (object), shape (n,), or None
        The context of each record (a topic, a surface), if any.
    group : ndarray of int64, shape (n,), or None
        Resampling group of each record (see the module docstring), if any.
    origin : RecordOrigins
        Where each record came from (``origin[row]`` is ``"file:line"``, for messages).
    """

    items: tuple[str, ...]
    first: NDArray[np.int64]
    second: NDArray[np.int64]
    outcome: NDArray[np.int8]
    weight: NDArray[np.float64]
    context: NDArray[np.object_] | None
    group: NDArray[np.int64] | None
    origin: RecordOrigins

    def __post_init__(self) -> None:
        n = self.first.shape[0]
        for name in ("second", "outcome", "weight"):
            if getattr(self, name).shape != (n,):
                raise ValueError(f"{name} has shape {getattr(self, name).shape}, expected ({n},)")
        for name in ("context", "group"):
            value = getattr(self, name)
            if value is not None and value.shape != (n,):
                raise ValueError(f"{name} has shape {value.shape}, expected ({n},)")
        if len(self.origin) != n:
            raise ValueError(f"origin has {len(self.origin)} entries, expected {n}")
        if len(set(self.items)) != len(self.items):
            raise ComparisonLogError("item names must be distinct")
        k = len(self.items)
        if n and (
            min(self.first.min(), self.second.min()) < 0
            or max(self.first.max(), self.second.max()) >= k
        ):
            raise ValueError(f"item indices must lie in [0, {k})")
        same = np.flatnonzero(self.first == self.second)
        if same.size:
            row = int(same[0])
            raise ComparisonLogError(
                f"{self.origin[row]}: item {self.items[self.first[row]]!r} is compared with "
                "itself; a comparison needs two different items"
            )
        if not np.isin(self.outcome, (FIRST_WINS, SECOND_WINS, TIE)).all():
            raise ValueError("outcome codes must be 1 (first wins), -1 (second wins) or 0 (tie)")
        bad = np.flatnonzero(~(np.isfinite(self.weight) & (self.weight > 0)))
        if bad.size:
            row = int(bad[0])
            raise ComparisonLogError(
                f"{self.origin[row]}: weight {float(self.weight[row])!r} is not a positive number; "
                "a weight is the number of identical comparisons the record stands for"
            )
        large = np.flatnonzero(self.weight > MAX_WEIGHT)
        if large.size:
            row = int(large[0])
            raise ComparisonLogError(
                f"{self.origin[row]}: weight {float(self.weight[row]):g} is larger than 2**53 = "
                f"{MAX_WEIGHT:,}, the largest count held exactly"
            )
        if self.group is not None:
            _check_group_weights(self.group, self.weight, self.origin)
        total = self.unit_weights().sum()
        if total > MAX_WEIGHT:
            raise ComparisonLogError(
                f"{', '.join(self.sources)}: the weights add up to {total:g} "
                f"{'groups' if self.group is not None else 'comparisons'}, more than 2**53 = "
                f"{MAX_WEIGHT:,}, the largest count held exactly"
            )

    def unit_weights(self) -> NDArray[np.float64]:
        """The weight of every resampling unit: each group once, or each record."""
        if self.group is None:
            return self.weight
        _, first_of_group = np.unique(self.group, return_index=True)
        return self.weight[first_of_group]

    @property
    def sources(self) -> tuple[str, ...]:
        """The files (or other sources) the log was read from."""
        return self.origin.sources

    @property
    def n_records(self) -> int:
        """Number of records."""
        return int(self.first.shape[0])

    @property
    def n_comparisons(self) -> float:
        """Total weight: the number of comparisons the records stand for."""
        return float(self.weight.sum())

    @property
    def contexts(self) -> tuple[str, ...]:
        """The distinct contexts in order of first appearance (empty without contexts)."""
        if self.context is None:
            return ()
        return tuple(dict.fromkeys(self.context.tolist()))

    def comparisons_per_item(self) -> NDArray[np.float64]:
        """Total weight of the comparisons each item took part in, shape (K,)."""
        k = len(self.items)
        return np.bincount(self.first, self.weight, k) + np.bincount(self.second, self.weight, k)

    def select(self, rows: ArrayLike) -> ComparisonLog:
        """The log of the records selected by a boolean mask or index array (same items)."""
        index = np.arange(self.n_records)[np.asarray(rows)]
        return replace(
            self,
            first=self.first[index],
            second=self.second[index],
            outcome=self.outcome[index],
            weight=self.weight[index],
            context=None if self.context is None else self.context[index],
            group=None if self.group is None else self.group[index],
            origin=self.origin.take(index),
        )

    def for_context(self, value: str) -> ComparisonLog:
        """The records of one context, restricted to the items that occur in them.

        To keep every item of the log (the same item set in every context), select the
        records instead: ``log.select(log.context == value)``.

        Raises
        ------
        ComparisonLogError
            If the log has no contexts or none equals ``value``.
        """
        if self.context is None:
            raise ComparisonLogError("the log has no context column")
        mask = self.context == value
        if not mask.any():
            shown = ", ".join(self.contexts[:10]) + (" ..." if len(self.contexts) > 10 else "")
            raise ComparisonLogError(f"no records with context {value!r}; contexts: {shown}")
        selected = self.select(mask)
        present = np.unique(np.concatenate([selected.first, selected.second]))
        return selected.restrict([self.items[i] for i in sorted(present)])

    def restrict(self, items: Sequence[str]) -> ComparisonLog:
        """The records between the given items only, with ``items`` as the new item list.

        Raises
        ------
        ComparisonLogError
            If a name is not an item of the log.
        """
        position = {name: index for index, name in enumerate(self.items)}
        unknown = [name for name in items if name not in position]
        if unknown:
            raise ComparisonLogError(f"unknown items: {', '.join(map(repr, unknown[:5]))}")
        new_index = np.full(len(self.items), -1, dtype=np.int64)
        new_index[[position[name] for name in items]] = np.arange(len(items))
        kept = (new_index[self.first] >= 0) & (new_index[self.second] >= 0)
        selected = self.select(kept)
        return replace(
            selected,
            items=tuple(items),
            first=new_index[selected.first],
            second=new_index[selected.second],
        )

    def top_items(self, count: int) -> tuple[str, ...]:
        """The ``count`` items with the most comparisons (ties: lower index first).

        Parameters
        ----------
        count : int
            Number of items, at least 1.
        """
        if count < 1:
            raise ValueError(f"count must be at least 1, got {count}")
        per_item = self.comparisons_per_item()
        order = np.lexsort((np.arange(len(self.items)), -per_item))
        return tuple(self.items[i] for i in order[:count])


def _check_group_weights(
    group: NDArray[np.int64], weight: NDArray[np.float64], origin: RecordOrigins
) -> None:
    """Every record of a group must carry the group's weight (its multiplicity)."""
    order = np.lexsort((weight, group))
    same_group = group[order][1:] == group[order][:-1]
    differs = same_group & (weight[order][1:] != weight[order][:-1])
    if differs.any():
        position = int(np.flatnonzero(differs)[0])
        first, second = order[position], order[position + 1]
        raise ComparisonLogError(
            f"{origin[second]}: weight {weight[second]:g} differs from {weight[first]:g} at "
            f"{origin[first]} in the same group; within a group every record carries the "
            "group's weight (the number of identical groups it stands for)"
        )


def require_whole_weights(log: ComparisonLog, why: str) -> None:
    """Refuse weights that are not whole numbers of at least 1, naming the first record.

    Parameters
    ----------
    log : ComparisonLog
    why : str
        What needs whole weights (ends the message), e.g. ``"the bootstrap resamples whole
        comparisons"``.
    """
    weight = log.weight
    bad = np.flatnonzero(weight != np.floor(weight))  # positive: a whole number is at least 1
    if bad.size:
        row = int(bad[0])
        raise ComparisonLogError(
            f"{log.origin[row]}: weight {float(weight[row]):g} is not a whole number of at "
            f"least 1, and {why}"
        )


_INVISIBLE = dict.fromkeys(
    [0x00AD, 0x034F, 0x061C, 0x180E, *range(0x200B, 0x2010), *range(0x2060, 0x2065), 0xFEFF]
)


def name_key(name: str) -> str:
    """The name with case, Unicode form, invisible characters and spacing folded away."""
    folded = unicodedata.normalize("NFKC", name).translate(_INVISIBLE).casefold()
    return " ".join(folded.split())


def similar_item_names(items: Sequence[str]) -> list[tuple[str, ...]]:
    """Groups of item names that differ only as :func:`name_key` ignores, in item order."""
    groups: dict[str, list[str]] = {}
    for name in items:
        groups.setdefault(name_key(name), []).append(name)
    return [tuple(names) for names in groups.values() if len(names) > 1]


def merge_similar_items(log: ComparisonLog) -> ComparisonLog:
    """The log with every group of :func:`similar_item_names` merged into its first name."""
    first_name: dict[str, int] = {}
    kept: list[str] = []
    target = np.empty(len(log.items), dtype=np.int64)
    for index, name in enumerate(log.items):
        key = name_key(name)
        if key not in first_name:
            first_name[key] = len(kept)
            kept.append(name)
        target[index] = first_name[key]
    return replace(log, items=tuple(kept), first=target[log.first], second=target[log.second])


def concatenate_logs(logs: Iterable[ComparisonLog]) -> ComparisonLog:
    """One log holding the records of several (items merged by name, in order of appearance).

    Groups are kept apart (a group of one log never merges with a group of another).

    Raises
    ------
    ComparisonLogError
        If some logs have contexts and others do not, or no log is given.
    """
    logs = list(logs)
    if not logs:
        raise ComparisonLogError("no comparison logs to combine")
    with_context = [log.context is not None for log in logs]
    if any(with_context) and not all(with_context):
        raise ComparisonLogError(
            "some logs have a context column and others do not: "
            + ", ".join(src for log in logs for src in log.sources if log.context is None)
        )
    items = tuple(dict.fromkeys(name for log in logs for name in log.items))
    position = {name: index for index, name in enumerate(items)}
    firsts, seconds, groups = [], [], []
    group_offset = 0
    for log in logs:
        mapping = np.array([position[name] for name in log.items], dtype=np.int64)
        firsts.append(mapping[log.first] if log.n_records else np.zeros(0, np.int64))
        seconds.append(mapping[log.second] if log.n_records else np.zeros(0, np.int64))
        if log.group is not None:
            groups.append(log.group + group_offset)
            group_offset += int(log.group.max()) + 1 if log.n_records else 0
        else:
            groups.append(None)
    any_group = any(group is not None for group in groups)
    if any_group:
        # A log without groups: every record its own group.
        for index, log in enumerate(logs):
            if groups[index] is None:
                groups[index] = np.arange(log.n_records, dtype=np.int64) + group_offset
                group_offset += log.n_records
    return ComparisonLog(
        items=items,
        first=np.concatenate(firsts),
        second=np.concatenate(seconds),
        outcome=np.concatenate([log.outcome for log in logs]),
        weight=np.concatenate([log.weight for log in logs]),
        context=np.concatenate([log.context for log in logs]) if all(with_context) else None,
        group=np.concatenate(groups) if any_group else None,
        origin=RecordOrigins.concatenate([log.origin for log in logs]),
    )


def log_from_counts(
    items: Sequence[str], wins: ArrayLike, ties: ArrayLike | None = None, source: str = "counts"
) -> ComparisonLog:
    """A log with one record per non-empty cell of a win-count matrix.

    Parameters
    ----------
    items : sequence of str
        K item names.
    wins : array_like, shape (K, K)
        ``wins[i, j]``: number of comparisons ``i`` won against ``j`` (diagonal ignored).
    ties : array_like, shape (K, K), optional
        Symmetric number of ties between ``i`` and ``j`` (upper triangle used).
    source : str, optional
        Name used in messages.

    Returns
    -------
    ComparisonLog
        Records ``(i, j, first wins, weight=wins[i, j])`` for ``i != j`` and ties
        ``(i, j, tie, weight=ties[i, j])`` for ``i < j``, zero cells left out. Resampling
        these records by weight is resampling the individual comparisons.
    """
    counts = np.asarray(wins, dtype=np.float64)
    k = len(items)
    if counts.shape != (k, k):
        raise ValueError(f"wins must have shape ({k}, {k}), got {counts.shape}")
    off_diagonal = ~np.eye(k, dtype=bool)
    rows, cols = np.nonzero((counts > 0) & off_diagonal)
    outcome = np.full(rows.size, FIRST_WINS, dtype=np.int8)
    weight = counts[rows, cols]
    if ties is not None:
        tie_counts = np.triu(np.asarray(ties, dtype=np.float64), 1)
        tie_rows, tie_cols = np.nonzero(tie_counts > 0)
        rows, cols = np.concatenate([rows, tie_rows]), np.concatenate([cols, tie_cols])
        outcome = np.concatenate([outcome, np.full(tie_rows.size, TIE, dtype=np.int8)])
        weight = np.concatenate([weight, tie_counts[tie_rows, tie_cols]])
    return ComparisonLog(
        items=tuple(items),
        first=rows.astype(np.int64),
        second=cols.astype(np.int64),
        outcome=outcome,
        weight=weight,
        context=None,
        group=None,
        origin=RecordOrigins.of_source(source, "record", np.arange(1, rows.size + 1)),
    )
