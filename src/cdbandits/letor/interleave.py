"""Interleaved comparison of two rankers: Probabilistic Interleave and Team-Draft.

**Probabilistic Interleave** (Hofmann, Whiteson and de Rijke, CIKM 2011; Lerot's
``ProbabilisticInterleave`` with marginalisation):

1. ranker ``x`` turns its ranking into a distribution over documents,
   ``P_x(d)`` proportional to ``rank_x(d) ** -tau`` (``tau = 3``, ranks from 1);
2. the shown list has ``L = min(length, n_documents)`` entries; for each position a fair
   coin picks a ranker, a document is drawn from that ranker's distribution over the
   documents not yet shown, and the document is removed from *both* rankers' distributions
   (both renormalised);
3. a cascade click model (:mod:`cdbandits.letor.click_models`) clicks;
4. the credit is marginalised over assignments: given the list, the probability of an
   assignment ``a`` in ``{A, B}^L`` is proportional to ``prod_k P_{a_k}(l_k | l_1 .. l_{k-1})``;
   the documents above ``k`` are fixed by the list, so the positions are *independent* a
   posteriori, position ``k`` going to ``B`` with probability
   ``q_k = P_B(l_k) / (P_A(l_k) + P_B(l_k))``. Each clicked position credits its ranker, and
   ``o = P(B gets more credit) - P(A gets more credit)`` is computed exactly from the
   distribution of the number of clicked positions credited to ``B`` (a sum of independent
   Bernoullis, by dynamic programming) instead of Lerot's enumeration of all ``2^L``
   assignments; the value is the same;
5. the duel outcome is the sign of ``o``; no click, or ``|o| <= TIE_TOLERANCE`` (absorbing
   rounding in credits that are equal algebraically), is a tie.

The user stops only after a click, and nothing after the stop can change ``o``, so the list
is built only down to where the user stops.

**Team-Draft Interleaving** (Radlinski, Kurup and Joachims 2008): the ranker with fewer
picks so far (a fair coin when equal) adds its best document not yet shown; clicks credit
the team that added the document; more clicks wins, equal counts tie.

**Ties inside a ranking** are broken uniformly at random afresh for every comparison: the
kernels draw the order inside a tie group lazily, only at the positions they visit (see
:mod:`cdbandits.letor.rankers`). ``credit_ties`` says which tie-breaking the credit uses:

* ``"shared"``: the one that built the list (one tie-breaking per comparison, the unbiased
  choice);
* ``"redrawn"``: an independent fresh one for each ranker, as Lerot does (its
  ``infer_outcome`` calls ``init_ranking`` again, which re-breaks the ties). A ranker with
  many ties then assigns the documents it placed at the top only the probability of a random
  place in their tie group, so clicks on them are credited mostly to the other ranker: rankers
  with many ties (MSLR's count features, anchor-text features) lose far more often than under
  ``"shared"``. This is what the published MSLR matrices show (see
  :mod:`cdbandits.letor.validation`).

**Outcomes** are coded from the first ranker's side: ``+1`` A wins, ``-1`` B wins, ``0``
tie. A tie counts as half a win in a preference matrix, ``Q(A, B) = P(win) + P(tie) / 2``.

**Randomness.** The compiled kernels draw from a SplitMix64 stream whose seed comes from the
``numpy.random.Generator`` passed in, so results depend only on that Generator (and not on
thread scheduling).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .click_models import CascadeClickModel
from .duel_kernels import (
    CREDIT_TIES,
    METHODS,
    TIE_TOLERANCE,
    ClickSimulation,
    RankingTables,
    credit_difference,
    new_workspace,
    run_duels,
)
from .rankers import sort_queries

__all__ = [
    "CREDIT_TIES",
    "CreditTies",
    "DEFAULT_LIST_LENGTH",
    "DEFAULT_TAU",
    "METHODS",
    "TIE_TOLERANCE",
    "InterleaveMethod",
    "InterleavedList",
    "duel_outcome_counts",
    "probabilistic_credit",
    "probabilistic_interleave",
    "rank_weights",
    "team_draft_interleave",
    "team_draft_outcome",
]

InterleaveMethod = Literal["probabilistic", "team_draft"]
CreditTies = Literal["shared", "redrawn"]

#: ``tau`` of Probabilistic Interleave (Hofmann, Whiteson and de Rijke, 2011).
DEFAULT_TAU = 3.0

#: Length of the shown list (a result page's top 10); shorter when a query has fewer documents.
DEFAULT_LIST_LENGTH = 10


def rank_weights(
    n: int, tau: float = DEFAULT_TAU
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Unnormalised weights ``(p + 1) ** -tau`` of positions ``p = 0 .. n - 1``, and their
    cumulative sums."""
    weights = np.arange(1, n + 1, dtype=np.float64) ** -float(tau)
    return weights, np.cumsum(weights)


def _check_method(method: str, credit_ties: str = "shared") -> int:
    if method not in METHODS:
        raise ValueError(f"unknown interleaving method {method!r}; use one of {sorted(METHODS)}")
    if credit_ties not in CREDIT_TIES:
        raise ValueError(f"credit_ties must be one of {sorted(CREDIT_TIES)}, got {credit_ties!r}")
    return METHODS[method]


def _tables_from_scores(scores_a: ArrayLike, scores_b: ArrayLike) -> RankingTables:
    values = np.stack(
        [np.asarray(scores_a, dtype=np.float64), np.asarray(scores_b, dtype=np.float64)]
    )
    if values.ndim != 2 or values.shape[1] == 0:
        raise ValueError(
            f"scores_a and scores_b must be non-empty 1-d arrays of equal length, got shapes "
            f"{np.shape(scores_a)} and {np.shape(scores_b)}"
        )
    n = values.shape[1]
    tables = tuple(np.empty((2, n), dtype=np.int64) for _ in range(4))
    offsets = np.array([0, n], dtype=np.int64)
    for side in range(2):
        sort_queries(values[side], offsets, *(table[side] for table in tables))
    return RankingTables(*tables)


def duel_outcome_counts(
    scores_a: ArrayLike,
    scores_b: ArrayLike,
    labels: ArrayLike,
    click_model: CascadeClickModel,
    n_duels: int,
    rng: np.random.Generator,
    *,
    method: InterleaveMethod = "probabilistic",
    length: int = DEFAULT_LIST_LENGTH,
    tau: float = DEFAULT_TAU,
    credit_ties: CreditTies = "shared",
) -> NDArray[np.int64]:
    """Simulate ``n_duels`` comparisons of two rankers on one query.

    This runs the same compiled comparison as the matrix builders.

    Parameters
    ----------
    scores_a, scores_b : array_like, shape (n,)
        Each ranker's score of every document (ranking: descending, ties random).
    labels : array_like of int, shape (n,)
        Relevance grades.
    click_model : CascadeClickModel
        The simulated user.
    n_duels : int
        Number of comparisons.
    rng : numpy.random.Generator
        Source of randomness (one seed is drawn from it).
    method : {"probabilistic", "team_draft"}, optional
        Interleaving method.
    length : int, optional
        Maximum length of the shown list.
    tau : float, optional
        Probabilistic Interleave's rank exponent.
    credit_ties : {"shared", "redrawn"}, optional
        Tie-breaking of Probabilistic Interleave's credit (module docstring).

    Returns
    -------
    ndarray of int64, shape (3,)
        Numbers of comparisons won by A, tied, won by B.
    """
    code = _check_method(method, credit_ties)
    grades = np.asarray(labels, dtype=np.int64)
    click_model.check_labels(grades)
    tables = _tables_from_scores(scores_a, scores_b)
    if grades.shape != (tables.order.shape[1],):
        raise ValueError(f"labels have shape {grades.shape}; expected ({tables.order.shape[1]},)")
    weights, cumulative = rank_weights(grades.size, tau)
    counts = np.zeros(3, dtype=np.int64)
    clicks = ClickSimulation(
        code,
        grades,
        int(length),
        click_model.click_array,
        click_model.stop_array,
        weights,
        cumulative,
        CREDIT_TIES[credit_ties],
    )
    seed = np.uint64(rng.integers(0, 2**63))
    work = new_workspace(grades.size, int(length), 1, seed)
    offsets = np.array([0, grades.size], dtype=np.int64)
    run_duels(0, 1, 0, int(n_duels), offsets, tables, clicks, work, counts)
    return counts


@dataclass(frozen=True)
class InterleavedList:
    """A shown list and where its documents came from.

    Attributes
    ----------
    documents : ndarray of int64, shape (L,)
        The shown documents, top first.
    teams : ndarray of int8, shape (L,)
        0 where ranker A contributed the document, 1 where ranker B did.
    probability_a, probability_b : ndarray of float64, shape (L,)
        Probabilistic Interleave only (NaN for Team-Draft): the probability that ranker A
        (B) would have drawn each document given the documents above it.
    """

    documents: NDArray[np.int64]
    teams: NDArray[np.int8]
    probability_a: NDArray[np.float64]
    probability_b: NDArray[np.float64]


def _check_rankings(ranking_a: ArrayLike, ranking_b: ArrayLike) -> tuple[NDArray, NDArray]:
    a = np.asarray(ranking_a, dtype=np.int64)
    b = np.asarray(ranking_b, dtype=np.int64)
    n = a.size
    for name, ranking in (("ranking_a", a), ("ranking_b", b)):
        if ranking.shape != (n,) or n == 0 or not np.array_equal(np.sort(ranking), np.arange(n)):
            raise ValueError(
                f"{name} must be a permutation of 0..n-1 with n = {n} (the same documents "
                f"for both rankers); got {ranking!r}"
            )
    return a, b


def probabilistic_interleave(
    ranking_a: ArrayLike,
    ranking_b: ArrayLike,
    rng: np.random.Generator,
    length: int = DEFAULT_LIST_LENGTH,
    tau: float = DEFAULT_TAU,
) -> InterleavedList:
    """Build one Probabilistic Interleave list from two explicit rankings.

    Parameters
    ----------
    ranking_a, ranking_b : array_like of int, shape (n,)
        Documents ``0..n-1``, best first.
    rng : numpy.random.Generator
        Source of the coin flips and draws.
    length : int, optional
        Maximum list length.
    tau : float, optional
        Rank exponent.

    Returns
    -------
    InterleavedList
    """
    a, b = _check_rankings(ranking_a, ranking_b)
    n = a.size
    rank_a = np.empty(n, dtype=np.int64)
    rank_a[a] = np.arange(n)
    rank_b = np.empty(n, dtype=np.int64)
    rank_b[b] = np.arange(n)
    weights = np.arange(1, n + 1, dtype=np.float64) ** -float(tau)
    remaining = np.ones(n, dtype=bool)
    shown = min(int(length), n)
    documents = np.empty(shown, dtype=np.int64)
    teams = np.empty(shown, dtype=np.int8)
    probability_a = np.empty(shown)
    probability_b = np.empty(shown)
    for k in range(shown):
        distribution_a = np.where(remaining, weights[rank_a], 0.0)
        distribution_b = np.where(remaining, weights[rank_b], 0.0)
        distribution_a /= distribution_a.sum()
        distribution_b /= distribution_b.sum()
        team = int(rng.random() >= 0.5)
        document = int(rng.choice(n, p=distribution_b if team else distribution_a))
        documents[k], teams[k] = document, team
        probability_a[k], probability_b[k] = distribution_a[document], distribution_b[document]
        remaining[document] = False
    return InterleavedList(documents, teams, probability_a, probability_b)


def probabilistic_credit(
    probability_a: ArrayLike, probability_b: ArrayLike, clicks: ArrayLike
) -> float:
    """``o = P(B gets more credit) - P(A gets more credit)``, marginalised over assignments.

    Parameters
    ----------
    probability_a, probability_b : array_like, shape (L,)
        As in :class:`InterleavedList`.
    clicks : array_like of bool, shape (L,)
        Clicked positions.

    Returns
    -------
    float
        Positive: B wins; negative: A wins; 0 (or no click): tie.
    """
    p_a = np.asarray(probability_a, dtype=np.float64)
    p_b = np.asarray(probability_b, dtype=np.float64)
    clicked = np.asarray(clicks, dtype=bool)
    credit_b = (p_b / (p_a + p_b))[clicked]
    return float(credit_difference(credit_b, credit_b.size, np.empty(credit_b.size + 2)))


def team_draft_interleave(
    ranking_a: ArrayLike,
    ranking_b: ArrayLike,
    rng: np.random.Generator,
    length: int = DEFAULT_LIST_LENGTH,
) -> InterleavedList:
    """Build one Team-Draft list from two explicit rankings (probabilities are NaN)."""
    a, b = _check_rankings(ranking_a, ranking_b)
    shown = min(int(length), a.size)
    taken = np.zeros(a.size, dtype=bool)
    documents = np.empty(shown, dtype=np.int64)
    teams = np.empty(shown, dtype=np.int8)
    picks = [0, 0]
    for k in range(shown):
        team = int(picks[1] < picks[0] or (picks[0] == picks[1] and rng.random() >= 0.5))
        ranking = b if team else a
        document = int(ranking[np.flatnonzero(~taken[ranking])[0]])
        documents[k], teams[k] = document, team
        taken[document] = True
        picks[team] += 1
    nan = np.full(shown, np.nan)
    return InterleavedList(documents, teams, nan, nan.copy())


def team_draft_outcome(teams: ArrayLike, clicks: ArrayLike) -> int:
    """+1 if ranker A's documents got more clicks, -1 if B's did, 0 on a tie."""
    team = np.asarray(teams)
    clicked = np.asarray(clicks, dtype=bool)
    difference = int(np.sum(clicked & (team == 0))) - int(np.sum(clicked & (team == 1)))
    return int(np.sign(difference))
