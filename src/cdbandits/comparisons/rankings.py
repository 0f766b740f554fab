"""Full rankings from pairwise comparisons: iterated maximal lotteries, Copeland, Borda, BT.

* **Iterated maximal lotteries** (:func:`iterated_maximal_lotteries`): the support of the
  certified von Neumann winner (the maximal lottery) of all items is tier 1; those items
  are removed and the vNW of the rest gives tier 2; and so on until every item is ranked.
  The items of one support are **tied**: they share their tier, the rank of the tier's
  first position. Their weights in that tier's lottery are reported (and order the table
  within a tier) but are not a ranking: a lottery on a cycle has no best member. When the
  vNW of a tier is not unique (exact ties, clones), the solver's point is the relative
  interior of the optimal face (see :mod:`cdbandits.batched`), so the tier holds every item
  in the support of some vNW.
* **Copeland** ("wins" variant of :func:`cdbandits.winners.copeland_scores`) and **Borda**
  (:func:`cdbandits.winners.borda_scores`) scores, highest first.
* **Bradley–Terry** (:func:`bradley_terry`): maximum-likelihood strengths ``s`` with
  ``Pr(i beats j) = s_i / (s_i + s_j)`` from the win counts (ties half a win each), by the
  MM algorithm of Hunter (2004), ``s_i <- W_i / sum_j n_ij / (s_i + s_j)``. The MLE exists
  iff the directed graph "i beat j at least once" is strongly connected (Zermelo, Ford);
  otherwise :class:`BradleyTerryError` is raised, unless ``pseudo_count > 0`` adds that
  many virtual comparisons to every pair, split evenly (a symmetric prior that pulls the
  strengths together and always gives a unique estimate).

Every ranking gives equal scores an equal rank, the smallest of their positions ("1224"
competition ranking). :func:`rankings_table` puts all four side by side, as a pandas table;
:func:`ranking_columns` gives the same columns as plain lists (no pandas to load).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..winners import borda_scores, copeland_scores
from .counts import PairCounts
from .records import warn
from .solving import von_neumann_winners
from .uncertainty import SUPPORT_TOL

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "BradleyTerry",
    "BradleyTerryError",
    "bradley_terry",
    "columns_table",
    "competition_ranks",
    "iterated_maximal_lotteries",
    "ranking_columns",
    "rankings_table",
]


class BradleyTerryError(ValueError):
    """The Bradley–Terry maximum-likelihood estimate does not exist for these counts."""


def competition_ranks(scores: ArrayLike) -> NDArray[np.int64]:
    """Rank 1 for the highest score; equal scores share the smallest rank ("1224")."""
    values = np.asarray(scores, dtype=np.float64)
    return (values[None, :] > values[:, None]).sum(axis=1).astype(np.int64) + 1


def iterated_maximal_lotteries(
    P: ArrayLike,
) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
    """Tiers of the iterated maximal lotteries of a skew-form matrix (module docstring).

    Parameters
    ----------
    P : array_like, shape (K, K)
        Skew-form preference matrix.

    Returns
    -------
    rank : ndarray of int64, shape (K,)
        Rank of each item's tier: 1 for the first support, then 1 + the number of items in
        the tiers above.
    weight : ndarray of float64, shape (K,)
        Each item's weight in the lottery of its tier.
    """
    P = np.asarray(P, dtype=np.float64)
    k = P.shape[0]
    rank = np.zeros(k, dtype=np.int64)
    weight = np.zeros(k)
    remaining = np.arange(k)
    while remaining.size:
        sub = P[np.ix_(remaining, remaining)]
        lottery = von_neumann_winners(sub[None]).weights[0]
        support = lottery > SUPPORT_TOL
        rank[remaining[support]] = k - remaining.size + 1
        weight[remaining[support]] = lottery[support]
        remaining = remaining[~support]
    return rank, weight


@dataclass(frozen=True)
class BradleyTerry:
    """A Bradley–Terry fit.

    Attributes
    ----------
    strength : ndarray, shape (K,)
        ``s`` with geometric mean 1 (``Pr(i beats j) = s_i / (s_i + s_j)``).
    iterations : int
        MM iterations until the largest change of ``log s`` was below the tolerance.
    """

    strength: NDArray[np.float64]
    iterations: int

    @property
    def log_strength(self) -> NDArray[np.float64]:
        """``log s``, mean 0."""
        return np.log(self.strength)

    def probability_matrix(self) -> NDArray[np.float64]:
        """``Pr(i beats j)`` under the fit (1/2 on the diagonal)."""
        s = self.strength
        return s[:, None] / (s[:, None] + s[None, :])


def bradley_terry(
    wins: ArrayLike,
    *,
    pseudo_count: float = 0.0,
    tol: float = 1e-10,
    max_iterations: int = 100_000,
) -> BradleyTerry:
    """Maximum-likelihood Bradley–Terry strengths by Hunter's MM algorithm.

    Parameters
    ----------
    wins : array_like, shape (K, K)
        ``wins[i, j]``: (weighted) wins of ``i`` over ``j``; the diagonal is ignored.
    pseudo_count : float, optional
        Virtual comparisons added to every pair, half won by each side (0: the plain MLE).
    tol : float, optional
        Stop when no ``log s`` changes by more than this in one iteration.
    max_iterations : int, optional

    Returns
    -------
    BradleyTerry

    Raises
    ------
    BradleyTerryError
        If ``pseudo_count == 0`` and the win graph is not strongly connected (the MLE
        does not exist: some items would have infinite strength relative to others).
    RuntimeError
        If the iteration does not converge in ``max_iterations``.
    """
    counts = np.array(wins, dtype=np.float64)
    k = counts.shape[0]
    np.fill_diagonal(counts, 0.0)
    if pseudo_count < 0:
        raise ValueError(f"pseudo_count must be >= 0, got {pseudo_count}")
    if pseudo_count > 0:
        counts += (pseudo_count / 2.0) * (1.0 - np.eye(k))
    if k == 1:
        return BradleyTerry(strength=np.ones(1), iterations=0)
    if not _strongly_connected(counts > 0):
        from scipy.sparse.csgraph import connected_components

        n_components, labels = connected_components(counts > 0, directed=True, connection="strong")
        sizes = np.bincount(labels)
        raise BradleyTerryError(
            f"the Bradley-Terry MLE does not exist: the graph of who beat whom splits into "
            f"{n_components} strongly connected parts (sizes {sorted(sizes.tolist())[::-1][:5]}"
            f"{'...' if n_components > 5 else ''}), so some items never beat a set of others; "
            "add virtual comparisons (pseudo_count > 0) for a regularised fit"
        )
    total_wins = counts.sum(axis=1)
    comparisons = counts + counts.T
    strength = np.ones(k)
    for iteration in range(1, max_iterations + 1):
        denominator = (comparisons / (strength[:, None] + strength[None, :])).sum(axis=1)
        updated = total_wins / denominator
        updated /= np.exp(np.log(updated).mean())
        change = np.abs(np.log(updated) - np.log(strength)).max()
        strength = updated
        if change < tol:
            return BradleyTerry(strength=strength, iterations=iteration)
    raise RuntimeError(
        f"Bradley-Terry MM did not converge in {max_iterations} iterations (last change "
        f"{change:.2e}); the counts may be nearly separable"
    )


def ranking_columns(counts: PairCounts, *, bt_pseudo_count: float = 0.0) -> dict[str, list[Any]]:
    """The columns of :func:`rankings_table` as lists of Python values, rows sorted alike.

    A Bradley–Terry column left out (the plain MLE does not exist, or the MM iteration
    does not converge) holds ``None``.
    """
    P = counts.skew_matrix()
    ml_rank, ml_weight = iterated_maximal_lotteries(P)
    copeland = copeland_scores(P, "wins")
    borda = borda_scores(P)
    try:
        fit = bradley_terry(counts.wins, pseudo_count=bt_pseudo_count)
        bt_score: list[Any] = fit.log_strength.tolist()
        bt_rank: list[Any] = competition_ranks(fit.log_strength).tolist()
    except (BradleyTerryError, RuntimeError) as error:  # no MLE, or MM did not converge
        warn(f"Bradley-Terry ranking left out: {error}")
        bt_score = bt_rank = [None] * len(counts.items)
    columns: dict[str, list[Any]] = {
        "item": list(counts.items),
        "maximal_lottery_rank": ml_rank.tolist(),
        "maximal_lottery_weight": ml_weight.tolist(),
        "copeland_score": copeland.tolist(),
        "copeland_rank": competition_ranks(copeland).tolist(),
        "borda_score": borda.tolist(),
        "borda_rank": competition_ranks(borda).tolist(),
        "bradley_terry_log_strength": bt_score,
        "bradley_terry_rank": bt_rank,
    }
    order = sorted(
        range(len(counts.items)),
        key=lambda i: (ml_rank[i], -ml_weight[i], counts.items[i]),
    )
    return {name: [values[i] for i in order] for name, values in columns.items()}


def _strongly_connected(edges: NDArray[np.bool_]) -> bool:
    """Whether every node reaches every other along ``edges[i, j]`` (i -> j) and back."""
    if edges.shape[0] == 0:
        return True
    for graph in (edges, edges.T):
        seen = np.zeros(edges.shape[0], dtype=bool)
        seen[0] = True
        frontier = np.array([0])
        while frontier.size:
            reached = graph[frontier].any(axis=0) & ~seen
            seen |= reached
            frontier = np.flatnonzero(reached)
        if not seen.all():
            return False
    return True


def rankings_table(counts: PairCounts, *, bt_pseudo_count: float = 0.0) -> pd.DataFrame:
    """Iterated maximal lotteries, Copeland, Borda and Bradley–Terry side by side.

    Parameters
    ----------
    counts : PairCounts
        The counts of the (policy-applied) log.
    bt_pseudo_count : float, optional
        ``pseudo_count`` of :func:`bradley_terry`. When the plain MLE does not exist the
        Bradley–Terry columns are NaN and a :class:`~.records.ComparisonDataWarning` says
        so.

    Returns
    -------
    pandas.DataFrame
        One row per item, sorted by maximal-lottery rank, then weight (descending), then
        name: ``item``, ``maximal_lottery_rank``, ``maximal_lottery_weight``,
        ``copeland_score``, ``copeland_rank``, ``borda_score``, ``borda_rank``,
        ``bradley_terry_log_strength``, ``bradley_terry_rank``.
    """
    return columns_table(ranking_columns(counts, bt_pseudo_count=bt_pseudo_count))


def columns_table(columns: dict[str, list[Any]]) -> pd.DataFrame:
    """The pandas table of :func:`ranking_columns` (missing values NaN, ranks ``Int64``)."""
    import pandas as pd

    table = pd.DataFrame(
        {name: values for name, values in columns.items() if name != "bradley_terry_rank"}
    )
    table["bradley_terry_log_strength"] = table["bradley_terry_log_strength"].astype(float)
    table["bradley_terry_rank"] = pd.array(columns["bradley_terry_rank"], dtype="Int64")
    return table
