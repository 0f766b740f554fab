"""From a comparison log to counts, the preference matrix and per-pair intervals.

Three things in real logs need a decision; each has an explicit choice in
:class:`~.settings.CountPolicy`, and every choice that changes something is reported by a
:class:`~.records.ComparisonDataWarning` (never silently):

* **ties** (``ties``): ``"half"`` (default) counts a tie as half a win for each item;
  ``"drop"`` removes tied comparisons; ``"error"`` refuses a log with ties.
* **rarely compared items** (``rare_items``, with ``min_comparisons``, default 2: an item
  in fewer comparisons, e.g. seen once): ``"keep"`` (default) keeps them; ``"drop"``
  removes them and their comparisons, repeatedly, until every remaining item has at least
  ``min_comparisons``; ``"error"`` refuses the log.
* **pairs never compared** (``unobserved``): ``"half"`` (default) sets their entry to 1/2,
  as if they were even; ``"drop-items"`` removes items until every remaining pair was
  compared, each time the item with the most never-compared partners (ties: the one with
  fewer comparisons, then the later one in item order); ``"error"`` refuses the log.

They are applied in that order by :func:`apply_policy`, which returns the log the counts,
the bootstrap and the rankings all use, so every estimate sees the same items.

The skew matrix whose von Neumann winner is reported is a choice too (``matrix``):

* ``"rates"``: each pair's own rate, ``P[i, j] = 2 Q[i, j] - 1`` with ``Q[i, j] = wins[i, j]
  / n[i, j]`` and ``n[i, j] = wins[i, j] + wins[j, i]`` the (weighted) number of comparisons
  of the pair; 0 (``Q = 1/2``) for pairs never compared. It estimates the paper's
  preference matrix: the probability that ``i`` beats ``j`` in a duel of the two, whatever
  how often the log happened to pair them. The default of a match log.
* ``"margins"``: the majority margins, ``M[i, j] = (wins[i, j] - wins[j, i]) / c`` with one
  constant ``c``, the most comparisons of any pair in the log (the number of voters of an
  election of complete orders), so that ``M`` lies in ``[-1, 1]``; 0 for pairs never
  compared. Its von Neumann winner is the maximal lottery of social choice (Fishburn 1984;
  any positive multiple of ``M`` has the same one), the answer of ``pref_voting`` and
  OpenSpiel. A pair counts in proportion to how often it was compared: a rate divided per
  pair would not be the margins. The default of an election (PrefLib files).

Both have the same sign pattern, so Condorcet and Copeland winners do not depend on the
choice; a tie counted half a win each cancels in a margin, exactly as a dropped tie.

Per-pair intervals are binomial intervals of :func:`cdbandits.stats.binomial_interval` on
``(wins[i, j], n[i, j])`` (NaN for pairs never compared); fractional counts (ties counted
half, fractional weights) are used as they are.

:class:`PairCounts` stores the counts of the compared pairs only (memory proportional to the
compared pairs plus the items); the ``K x K`` views are built on demand, for logs of few items.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..stats import IntervalMethod, binomial_interval
from .records import TIE, ComparisonLog, ComparisonLogError, warn

if TYPE_CHECKING:
    from scipy import sparse
from .settings import (
    MATRIX_ESTIMANDS,
    CountPolicy,
    MatrixEstimand,
    TiePolicy,
    UnobservedPolicy,
)

__all__ = ["PairCounts", "apply_policy", "count_pairs", "skew_values"]


def skew_values(
    upper: ArrayLike, lower: ArrayLike, matrix: MatrixEstimand = "rates", scale: float = 1.0
) -> NDArray[np.float64]:
    """Skew entries of pairs from their wins (module docstring), for any array shape.

    Parameters
    ----------
    upper, lower : array_like
        Wins of the lower and of the higher item of each pair.
    matrix : {"rates", "margins"}, optional
    scale : float, optional
        ``c`` of the margins (ignored for rates).

    Returns
    -------
    ndarray
        Rates ``(upper - lower) / (upper + lower)`` (0 where a pair has no comparison) or
        margins ``(upper - lower) / scale``.
    """
    a, b = np.asarray(upper, dtype=np.float64), np.asarray(lower, dtype=np.float64)
    if matrix == "margins":
        if not scale > 0:
            raise ValueError(f"the scale of the margins must be positive, got {scale}")
        return (a - b) / scale
    if matrix != "rates":
        raise ValueError(f"matrix must be one of {MATRIX_ESTIMANDS}, got {matrix!r}")
    total = a + b
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, (a - b) / total, 0.0)


@dataclass(frozen=True, eq=False)
class PairCounts:
    """Win counts of the compared pairs of items (memory proportional to pairs plus items).

    Attributes
    ----------
    items : tuple of str
    pairs : ndarray of int64, shape (n, 2)
        The compared pairs ``(i, j)``, ``i < j``, in increasing order.
    pair_wins : ndarray of float64, shape (n, 2)
        Per pair, the weight of the comparisons ``i`` won against ``j`` and ``j`` won against
        ``i``, ties counted as half a win for each.
    pair_ties : ndarray of float64, shape (n,)
        Per pair, the weight of its tied comparisons (already inside ``pair_wins``).
    matrix : {"rates", "margins"}
        The skew matrix of :attr:`pair_skew`, :meth:`skew_matrix` and :meth:`skew_sparse`
        (module docstring); :meth:`probability_matrix` and :meth:`intervals` are the rates.

    The K x K views (:attr:`wins`, :attr:`ties`, :attr:`comparisons`, :attr:`observed`,
    :meth:`probability_matrix`, :meth:`skew_matrix`, :meth:`intervals`) are built on demand,
    for logs of few items; :meth:`skew_sparse` and the per-pair arrays serve any size.
    """

    items: tuple[str, ...]
    pairs: NDArray[np.int64]
    pair_wins: NDArray[np.float64]
    pair_ties: NDArray[np.float64]
    matrix: MatrixEstimand = "rates"

    def __post_init__(self) -> None:
        if self.matrix not in MATRIX_ESTIMANDS:
            raise ValueError(f"matrix must be one of {MATRIX_ESTIMANDS}, got {self.matrix!r}")

    @property
    def margin_scale(self) -> float:
        """``c`` of the margins: the most comparisons of one pair (1 without comparisons)."""
        comparisons = self.pair_comparisons
        largest = float(comparisons.max()) if comparisons.size else 0.0
        return largest if largest > 0 else 1.0

    @property
    def n_pairs(self) -> int:
        """Number of compared pairs."""
        return int(self.pairs.shape[0])

    @property
    def pair_comparisons(self) -> NDArray[np.float64]:
        """``n[i, j]`` of every compared pair, shape (n,)."""
        return self.pair_wins.sum(axis=1)

    @property
    def pair_skew(self) -> NDArray[np.float64]:
        """The skew entry of every compared pair ``i < j`` (rate or margin), shape (n,)."""
        return skew_values(
            self.pair_wins[:, 0], self.pair_wins[:, 1], self.matrix, self.margin_scale
        )

    def _dense(self, upper: NDArray[np.float64], lower: NDArray[np.float64]) -> NDArray:
        k = len(self.items)
        matrix = np.zeros((k, k))
        matrix[self.pairs[:, 0], self.pairs[:, 1]] = upper
        matrix[self.pairs[:, 1], self.pairs[:, 0]] = lower
        return matrix

    @cached_property
    def wins(self) -> NDArray[np.float64]:
        """``wins[i, j]``: weight of the comparisons ``i`` won against ``j``, shape (K, K)."""
        return self._dense(self.pair_wins[:, 0], self.pair_wins[:, 1])

    @cached_property
    def ties(self) -> NDArray[np.float64]:
        """Symmetric weight of the tied comparisons of each pair, shape (K, K)."""
        return self._dense(self.pair_ties, self.pair_ties)

    @property
    def comparisons(self) -> NDArray[np.float64]:
        """``n[i, j] = wins[i, j] + wins[j, i]``, symmetric, shape (K, K)."""
        return self.wins + self.wins.T

    @property
    def observed(self) -> NDArray[np.bool_]:
        """Pairs compared at least once (off the diagonal), shape (K, K)."""
        return self.comparisons > 0

    def probability_matrix(self) -> NDArray[np.float64]:
        """``Q[i, j] = wins[i, j] / n[i, j]``; 1/2 on the diagonal and for unobserved pairs."""
        q = np.full((len(self.items),) * 2, 0.5)
        share = self.pair_wins[:, 0] / self.pair_comparisons
        q[self.pairs[:, 0], self.pairs[:, 1]] = share
        q[self.pairs[:, 1], self.pairs[:, 0]] = self.pair_wins[:, 1] / self.pair_comparisons
        return q

    def skew_matrix(self) -> NDArray[np.float64]:
        """The rates ``2 Q - 1`` or the margins, exactly skew-symmetric, shape (K, K)."""
        skew = self.pair_skew
        return self._dense(skew, -skew)

    def skew_sparse(self) -> sparse.csr_array:
        """:meth:`skew_matrix` as a scipy sparse array: the compared pairs not even."""
        from scipy import sparse

        k = len(self.items)
        skew = self.pair_skew
        uneven = skew != 0.0
        rows = np.concatenate([self.pairs[uneven, 0], self.pairs[uneven, 1]])
        cols = np.concatenate([self.pairs[uneven, 1], self.pairs[uneven, 0]])
        values = np.concatenate([skew[uneven], -skew[uneven]])
        return sparse.csr_array((values, (rows, cols)), shape=(k, k))

    def item_wins(self) -> NDArray[np.int64]:
        """Per item, the pairs it won (``P[i, j] > 0``): Copeland's ``"wins"`` score."""
        k = len(self.items)
        skew = self.pair_skew
        won = np.bincount(self.pairs[:, 0], skew > 0, k) + np.bincount(
            self.pairs[:, 1], skew < 0, k
        )
        return won.astype(np.int64)

    def pair_intervals(
        self, confidence: float = 0.95, method: IntervalMethod = "clopper-pearson"
    ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Binomial intervals of ``Q[i, j]`` of every compared pair ``i < j``, shape (n,).

        See :func:`cdbandits.stats.binomial_interval`.
        """
        return binomial_interval(self.pair_wins[:, 0], self.pair_comparisons, confidence, method)

    def intervals(
        self, confidence: float = 0.95, method: IntervalMethod = "clopper-pearson"
    ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Per-pair binomial intervals of ``Q[i, j]``, NaN where never compared.

        Parameters
        ----------
        confidence : float, optional
        method : {"clopper-pearson", "wilson"}, optional
            See :func:`cdbandits.stats.binomial_interval`.

        Returns
        -------
        (low, high) : tuple of ndarray, shape (K, K)
            ``low[i, j] = 1 - high[j, i]``; NaN on the diagonal.
        """
        low, high = binomial_interval(self.wins, self.comparisons, confidence, method)
        np.fill_diagonal(low, np.nan)
        np.fill_diagonal(high, np.nan)
        return low, high


def count_pairs(log: ComparisonLog, matrix: MatrixEstimand = "rates") -> PairCounts:
    """Win counts of a log (ties counted half; apply :func:`apply_policy` first).

    Parameters
    ----------
    log : ComparisonLog
    matrix : {"rates", "margins"}, optional
        The skew matrix the counts give (module docstring).

    Returns
    -------
    PairCounts
    """
    k = len(log.items)
    lower = np.minimum(log.first, log.second)
    higher = np.maximum(log.first, log.second)
    codes, pair_of_record = np.unique(lower * k + higher, return_inverse=True)
    winner = np.where(log.outcome >= 0, log.first, log.second)
    decided = log.outcome != TIE
    lower_won = decided & (winner == lower)
    higher_won = decided & (winner == higher)
    ties = np.bincount(pair_of_record, log.weight * ~decided, codes.size)
    wins = np.stack(
        [
            np.bincount(pair_of_record, log.weight * lower_won, codes.size) + ties / 2.0,
            np.bincount(pair_of_record, log.weight * higher_won, codes.size) + ties / 2.0,
        ],
        axis=1,
    )
    pairs = np.stack([codes // k, codes % k], axis=1).astype(np.int64)
    return PairCounts(items=log.items, pairs=pairs, pair_wins=wins, pair_ties=ties, matrix=matrix)


def _describe(names: list[str], limit: int = 5) -> str:
    shown = ", ".join(names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


def _apply_ties(log: ComparisonLog, policy: TiePolicy) -> ComparisonLog:
    tied = log.outcome == TIE
    if not tied.any():
        return log
    total = f"{log.weight[tied].sum():g} of {log.n_comparisons:g} comparisons are ties"
    if policy == "error":
        first = log.origin[int(np.flatnonzero(tied)[0])]
        raise ComparisonLogError(
            f"{total} (the first at {first}); choose how to count them: ties 'half' (half a "
            "win each) or 'drop'"
        )
    if policy == "drop":
        warn(f"{total}: dropped (ties='drop')")
        return log.select(~tied)
    warn(f"{total}: each counts as half a win for both items (ties='half')")
    return log


def _apply_rare(log: ComparisonLog, policy: CountPolicy) -> ComparisonLog:
    per_item = log.comparisons_per_item()
    rare = [
        name
        for name, count in zip(log.items, per_item, strict=True)
        if count < policy.min_comparisons
    ]
    if not rare:
        return log
    what = (
        f"{len(rare)} of {len(log.items)} items are in fewer than {policy.min_comparisons:g} "
        f"comparisons ({_describe(rare)})"
    )
    if policy.rare_items == "error":
        raise ComparisonLogError(
            f"{what}; choose rare items 'keep' or 'drop', or lower the minimum number of "
            "comparisons"
        )
    if policy.rare_items == "keep":
        warn(f"{what}: kept (rare_items='keep'); their entries rest on very few comparisons")
        return log
    removed: list[str] = []
    while True:
        per_item = log.comparisons_per_item()
        keep = [
            name
            for name, count in zip(log.items, per_item, strict=True)
            if count >= policy.min_comparisons
        ]
        if len(keep) == len(log.items):
            break
        removed += [name for name in log.items if name not in set(keep)]
        log = log.restrict(keep)
    warn(
        f"{what}: dropped with their comparisons, repeatedly until every item has at least "
        f"{policy.min_comparisons:g} (rare_items='drop'); {len(removed)} items removed "
        f"({_describe(removed)}), {len(log.items)} left"
    )
    return log


def _apply_unobserved(
    log: ComparisonLog, policy: UnobservedPolicy, matrix: MatrixEstimand
) -> ComparisonLog:
    k = len(log.items)
    pairs = count_pairs(log).pairs
    missing = k * (k - 1) // 2 - pairs.shape[0]
    if missing == 0:
        return log
    what = f"{missing} of {k * (k - 1) // 2} pairs of items were never compared"
    if policy == "error":
        raise ComparisonLogError(f"{what}; choose unobserved 'half' (entry 1/2) or 'drop-items'")
    if policy == "half" and matrix == "margins":
        warn(f"{what}: their margins are 0 (unobserved='half'), in every resample too")
        return log
    if policy == "half":
        warn(
            f"{what}: their entries are set to 1/2 (unobserved='half'); the bootstrap keeps "
            "them at 1/2, the Beta posterior draws them from the prior"
        )
        return log
    alive = np.ones(k, dtype=bool)
    per_item = log.comparisons_per_item()
    from scipy import sparse  # a log with pairs never compared and a drop-items policy

    neighbours = sparse.csr_array(
        (np.ones(2 * pairs.shape[0]), (pairs.ravel(), pairs[:, ::-1].ravel())), shape=(k, k)
    )
    compared_alive = np.asarray(neighbours.sum(axis=1)).ravel()  # compared partners alive
    removed = []
    while True:
        partners = np.where(alive, alive.sum() - 1 - compared_alive, 0)
        if partners.max() == 0:
            break
        # Most never-compared partners first; then fewer comparisons; then the later item.
        chosen = int(np.lexsort((-np.arange(k), per_item, -partners))[0])
        alive[chosen] = False
        row = slice(neighbours.indptr[chosen], neighbours.indptr[chosen + 1])
        compared_alive[neighbours.indices[row]] -= 1
        removed.append(log.items[chosen])
    kept = [name for name, keep in zip(log.items, alive, strict=True) if keep]
    warn(
        f"{what}: {len(removed)} items removed until every remaining pair was compared "
        f"(unobserved='drop-items'), in this order: {_describe(removed)}; {len(kept)} items "
        "left"
    )
    return log.restrict(kept)


def apply_policy(log: ComparisonLog, policy: CountPolicy | None = None) -> ComparisonLog:
    """Apply the tie, rare-item and never-compared choices to a log (module docstring).

    Parameters
    ----------
    log : ComparisonLog
    policy : CountPolicy, optional
        Default ``CountPolicy()``.

    Returns
    -------
    ComparisonLog
        The log every estimate starts from (items possibly removed, ties possibly dropped).

    Raises
    ------
    ComparisonLogError
        If a policy is ``"error"`` and the log needs it, or a choice leaves fewer than two
        items (or no comparison) of a log that had them; the message names the choice.

    Warns
    -----
    ComparisonDataWarning
        For every choice that applied, saying what was done.
    """
    policy = policy or CountPolicy()
    for choice, apply in (
        (f"ties={policy.ties!r}", lambda log: _apply_ties(log, policy.ties)),
        (f"rare_items={policy.rare_items!r}", lambda log: _apply_rare(log, policy)),
        (
            f"unobserved={policy.unobserved!r}",
            lambda log: _apply_unobserved(log, policy.unobserved, policy.matrix),
        ),
    ):
        applied = apply(log)
        _check_left(log, applied, choice)
        log = applied
    if not log.items:
        raise ComparisonLogError("no items are left after applying the choices")
    return log


def _check_left(before: ComparisonLog, after: ComparisonLog, choice: str) -> None:
    """Refuse a choice that leaves fewer than two items, or no comparison, where there were."""
    left = len(after.items)
    if len(before.items) >= 2 and left < 2:
        what = "no items are left" if not left else f"only {after.items[0]!r} is left"
        raise ComparisonLogError(
            f"{choice}: {what} of {len(before.items)} items, and a winner needs at least two; "
            "choose another option for it"
        )
    if before.n_comparisons > 0 and after.n_comparisons == 0:
        raise ComparisonLogError(
            f"{choice}: none of the {before.n_comparisons:g} comparisons is left, nothing to "
            "count; choose another option for it"
        )
