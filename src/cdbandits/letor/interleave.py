"""Interleaved comparison of two rankers: Probabilistic Interleave and Team-Draft.

**Probabilistic Interleave** (Hofmann, Whiteson and de Rijke, CIKM 2011; Lerot's
``ProbabilisticInterleave`` with marginalisation), as SPEC section 10 states it:

1. ranker ``x`` turns its ranking into a distribution over documents,
   ``P_x(d)`` proportional to ``rank_x(d) ** -tau`` (``tau = 3``, ranks from 1);
2. the shown list has ``L = min(length, n_documents)`` entries; for each position a fair
   coin picks a ranker, a document is drawn from that ranker's distribution over the
   documents not yet shown, and the document is removed from *both* rankers' distributions
   (both renormalised);
3. a cascade click model (:mod:`cdbandits.letor.click_models`) clicks;
4. the credit is marginalised over assignments: given the list, the probability of an
   assignment ``a`` in ``{A, B}^L`` is proportional to ``prod_k P_{a_k}(l_k | earlier)``;
   the earlier documents are fixed by the list, so the positions are *independent* a
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

* ``"shared"``: the one that built the list (SPEC's procedure read literally);
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

import numba
import numpy as np
from numpy.typing import ArrayLike, NDArray

from .click_models import CascadeClickModel
from .rankers import _sort_queries

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

#: Interleaving methods and their codes in the compiled kernels.
METHODS: dict[str, int] = {"probabilistic": 0, "team_draft": 1}

#: Tie-breaking of Probabilistic Interleave's credit (module docstring) and kernel codes.
CREDIT_TIES: dict[str, int] = {"shared": 0, "redrawn": 1}

#: ``tau`` of Probabilistic Interleave (SPEC section 10).
DEFAULT_TAU = 3.0

#: Length of the shown list (SPEC section 10); shorter when a query has fewer documents.
DEFAULT_LIST_LENGTH = 10

#: A credit difference ``|o|`` at most this is a tie.
TIE_TOLERANCE = 1e-12

# The comparison helpers allocate nothing, so they are compiled without numba's reference
# counting: passing arrays into functions called in hot loops otherwise costs atomic
# increments and decrements that dominated the run time (and contended between threads).
_kernel = numba.njit(cache=True, _nrt=False)

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX_1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX_2 = np.uint64(0x94D049BB133111EB)
_SHIFT_30 = np.uint64(30)
_SHIFT_27 = np.uint64(27)
_SHIFT_31 = np.uint64(31)
_SHIFT_11 = np.uint64(11)
_UNIT = 1.0 / 9007199254740992.0  # 2**-53


@_kernel
def _uniform(state: NDArray[np.uint64]) -> float:
    """Next double in [0, 1) of the SplitMix64 stream held in ``state[0]``."""
    state[0] += _GOLDEN
    z = state[0]
    z = (z ^ (z >> _SHIFT_30)) * _MIX_1
    z = (z ^ (z >> _SHIFT_27)) * _MIX_2
    z = z ^ (z >> _SHIFT_31)
    return float(z >> _SHIFT_11) * _UNIT


@_kernel
def _below(state: NDArray[np.uint64], n: int) -> int:
    """Uniform integer in ``0 .. n - 1``."""
    return int(_uniform(state) * n)


def rank_weights(
    n: int, tau: float = DEFAULT_TAU
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Unnormalised weights ``(p + 1) ** -tau`` of positions ``p = 0 .. n - 1``, and their
    cumulative sums."""
    weights = np.arange(1, n + 1, dtype=np.float64) ** -float(tau)
    return weights, np.cumsum(weights)


# Rows of the scratch array of one comparison kernel, shape (9, max_documents). Entries are
# valid only when their stamp equals the current comparison's stamp, so nothing is reset.
# Sides 0 and 1 are the tie-breakings of rankers A and B that build the list; sides 2 and 3
# the independent ones of the "redrawn" credit (see CREDIT_TIES).
_SIDES = 4
_POS_DOC = 0  # + side: document fixed at a position
_POS_STAMP = _SIDES  # + side
_DOC_POS = 2 * _SIDES  # + side: position fixed for a document
_DOC_STAMP = 3 * _SIDES  # + side
_REMOVED = 4 * _SIDES  # stamp of documents already shown
SCRATCH_ROWS = 4 * _SIDES + 1


@_kernel
def _fix(scratch, side, p, document, stamp):
    scratch[_POS_DOC + side, p] = document
    scratch[_POS_STAMP + side, p] = stamp
    scratch[_DOC_POS + side, document] = p
    scratch[_DOC_STAMP + side, document] = stamp


@_kernel
def _doc_at(side, ranker, first, p, order, tie_start, tie_end, stamp, scratch, state):
    """Document at position ``p`` of ``ranker`` (side 0 or 1), fixing the tie-breaking lazily.

    Within a tie group, given the (position, document) pairs fixed so far in this
    comparison, the document at an unfixed position is uniform over the group's unfixed
    documents: that is how a uniformly random order of the group unfolds.
    """
    if scratch[_POS_STAMP + side, p] == stamp:
        return scratch[_POS_DOC + side, p]
    start = np.int64(tie_start[ranker, first + p])
    size = np.int64(tie_end[ranker, first + p]) - start
    document = np.int64(order[ranker, first + p])
    if size > 1:
        while True:
            document = np.int64(order[ranker, first + start + _below(state, size)])
            if scratch[_DOC_STAMP + side, document] != stamp:
                break
    _fix(scratch, side, p, document, stamp)
    return document


@_kernel
def _position_of(
    side, ranker, first, document, position, tie_start, tie_end, stamp, scratch, state
):
    """Position of ``document`` in ``ranker``: uniform over its tie group's unfixed positions
    if not fixed yet (the counterpart of :func:`_doc_at`)."""
    if scratch[_DOC_STAMP + side, document] == stamp:
        return scratch[_DOC_POS + side, document]
    p = np.int64(position[ranker, first + document])
    start = np.int64(tie_start[ranker, first + p])
    size = np.int64(tie_end[ranker, first + p]) - start
    if size > 1:
        while True:
            p = start + _below(state, size)
            if scratch[_POS_STAMP + side, p] != stamp:
                break
    _fix(scratch, side, p, document, stamp)
    return p


@_kernel
def _draw(side, ranker, first, n, mass, weights, order, tie_start, tie_end, stamp, scratch, state):
    """Draw a document not yet shown from ``ranker``'s distribution; return it and its
    position. Scanning from the top is cheap: the weights fall off as ``rank ** -tau``."""
    u = _uniform(state) * mass
    chosen = np.int64(-1)
    chosen_position = np.int64(-1)
    for p in range(n):
        document = _doc_at(side, ranker, first, p, order, tie_start, tie_end, stamp, scratch, state)
        if scratch[_REMOVED, document] != stamp:
            chosen = document
            chosen_position = p
            u -= weights[p]
            if u < 0.0:
                break
    return chosen, chosen_position


@_kernel
def _credit_difference(credit_b, n_clicks, distribution):
    """``P(B more credit) - P(A more credit)`` when clicked position ``c`` goes to ``B``
    independently with probability ``credit_b[c]``."""
    distribution[0] = 1.0
    for c in range(n_clicks):
        q = credit_b[c]
        distribution[c + 1] = distribution[c] * q
        for j in range(c, 0, -1):
            distribution[j] = distribution[j] * (1.0 - q) + distribution[j - 1] * q
        distribution[0] *= 1.0 - q
    difference = 0.0
    for j in range(n_clicks + 1):
        if 2 * j > n_clicks:
            difference += distribution[j]
        elif 2 * j < n_clicks:
            difference -= distribution[j]
    return difference


@_kernel
def _probabilistic_duel(
    ranker_a,
    ranker_b,
    first,
    n,
    order,
    position,
    tie_start,
    tie_end,
    labels,
    length,
    click,
    stop,
    weights,
    cumulative,
    redraw_credit_ties,
    stamp,
    scratch,
    credit_b,
    distribution,
    state,
):
    """One Probabilistic Interleave comparison with simulated clicks; returns +1, -1 or 0."""
    mass_a = cumulative[n - 1]
    mass_b = mass_a
    credit_mass_a = mass_a
    credit_mass_b = mass_a
    n_clicks = 0
    for _ in range(min(length, n)):
        if _uniform(state) < 0.5:
            document, p_a = _draw(
                0,
                ranker_a,
                first,
                n,
                mass_a,
                weights,
                order,
                tie_start,
                tie_end,
                stamp,
                scratch,
                state,
            )
            p_b = _position_of(
                1, ranker_b, first, document, position, tie_start, tie_end, stamp, scratch, state
            )
        else:
            document, p_b = _draw(
                1,
                ranker_b,
                first,
                n,
                mass_b,
                weights,
                order,
                tie_start,
                tie_end,
                stamp,
                scratch,
                state,
            )
            p_a = _position_of(
                0, ranker_a, first, document, position, tie_start, tie_end, stamp, scratch, state
            )
        probability_a = weights[p_a] / mass_a
        probability_b = weights[p_b] / mass_b
        mass_a -= weights[p_a]
        mass_b -= weights[p_b]
        if redraw_credit_ties:
            p_a = _position_of(
                2, ranker_a, first, document, position, tie_start, tie_end, stamp, scratch, state
            )
            p_b = _position_of(
                3, ranker_b, first, document, position, tie_start, tie_end, stamp, scratch, state
            )
            probability_a = weights[p_a] / credit_mass_a
            probability_b = weights[p_b] / credit_mass_b
            credit_mass_a -= weights[p_a]
            credit_mass_b -= weights[p_b]
        scratch[_REMOVED, document] = stamp
        grade = labels[first + document]
        if _uniform(state) < click[grade]:
            credit_b[n_clicks] = probability_b / (probability_a + probability_b)
            n_clicks += 1
            if _uniform(state) < stop[grade]:
                break
    if n_clicks == 0:
        return 0
    difference = _credit_difference(credit_b, n_clicks, distribution)
    if difference > TIE_TOLERANCE:
        return -1
    if difference < -TIE_TOLERANCE:
        return 1
    return 0


@_kernel
def _team_draft_duel(
    ranker_a,
    ranker_b,
    first,
    n,
    order,
    tie_start,
    tie_end,
    labels,
    length,
    click,
    stop,
    stamp,
    scratch,
    state,
):
    """One Team-Draft comparison with simulated clicks; returns +1, -1 or 0."""
    next_a = 0
    next_b = 0
    picks_a = 0
    picks_b = 0
    clicks_a = 0
    clicks_b = 0
    for _ in range(min(length, n)):
        a_picks = picks_a < picks_b or (picks_a == picks_b and _uniform(state) < 0.5)
        if a_picks:
            while True:
                document = _doc_at(
                    0, ranker_a, first, next_a, order, tie_start, tie_end, stamp, scratch, state
                )
                next_a += 1
                if scratch[_REMOVED, document] != stamp:
                    break
            picks_a += 1
        else:
            while True:
                document = _doc_at(
                    1, ranker_b, first, next_b, order, tie_start, tie_end, stamp, scratch, state
                )
                next_b += 1
                if scratch[_REMOVED, document] != stamp:
                    break
            picks_b += 1
        scratch[_REMOVED, document] = stamp
        grade = labels[first + document]
        if _uniform(state) < click[grade]:
            if a_picks:
                clicks_a += 1
            else:
                clicks_b += 1
            if _uniform(state) < stop[grade]:
                break
    if clicks_a > clicks_b:
        return 1
    if clicks_b > clicks_a:
        return -1
    return 0


@_kernel
def _duel(
    method,
    ranker_a,
    ranker_b,
    first,
    n,
    order,
    position,
    tie_start,
    tie_end,
    labels,
    length,
    click,
    stop,
    weights,
    cumulative,
    redraw_credit_ties,
    stamp,
    scratch,
    credit_b,
    distribution,
    state,
):
    """One comparison of rankers ``ranker_a`` and ``ranker_b`` (rows of the
    :class:`~cdbandits.letor.rankers.FeatureRankings` arrays) on the query whose documents
    are global rows ``first .. first + n - 1``; returns +1 (A wins), -1 or 0. ``stamp``
    must differ from that of every earlier comparison using the same ``scratch``."""
    if method == 0:
        return _probabilistic_duel(
            ranker_a,
            ranker_b,
            first,
            n,
            order,
            position,
            tie_start,
            tie_end,
            labels,
            length,
            click,
            stop,
            weights,
            cumulative,
            redraw_credit_ties,
            stamp,
            scratch,
            credit_b,
            distribution,
            state,
        )
    return _team_draft_duel(
        ranker_a,
        ranker_b,
        first,
        n,
        order,
        tie_start,
        tie_end,
        labels,
        length,
        click,
        stop,
        stamp,
        scratch,
        state,
    )


@_kernel
def _run_duels(
    method,
    ranker_a,
    ranker_b,
    query,
    n_duels,
    offsets,
    order,
    position,
    tie_start,
    tie_end,
    labels,
    length,
    click,
    stop,
    weights,
    cumulative,
    redraw_credit_ties,
    scratch,
    credit_b,
    distribution,
    state,
    query_counts,
    counts,
):
    """Add the outcomes of ``n_duels`` comparisons to ``counts`` (A wins, ties, B wins):
    on query ``query``, or on queries drawn uniformly at random if ``query < 0``.

    Random queries are drawn first and their comparisons then run query by query: the same
    distribution, but a query's data stays in cache over its comparisons, which matters on
    data sets much larger than the cache. ``query_counts`` (n_queries,) is work space;
    ``scratch`` must be all zeros at the start.
    """
    n_queries = offsets.size - 1
    if query >= 0:
        lowest, highest = query, query + 1
        query_counts[query] = n_duels
    else:
        lowest, highest = 0, n_queries
        for chosen in range(n_queries):
            query_counts[chosen] = 0
        for _ in range(n_duels):
            query_counts[_below(state, n_queries)] += 1
    stamp = 0
    for chosen in range(lowest, highest):
        first = offsets[chosen]
        n = offsets[chosen + 1] - first
        for _ in range(query_counts[chosen]):
            stamp += 1
            outcome = _duel(
                method,
                ranker_a,
                ranker_b,
                first,
                n,
                order,
                position,
                tie_start,
                tie_end,
                labels,
                length,
                click,
                stop,
                weights,
                cumulative,
                redraw_credit_ties,
                stamp,
                scratch,
                credit_b,
                distribution,
                state,
            )
            counts[1 - outcome] += 1


def _check_method(method: str, credit_ties: str = "shared") -> int:
    if method not in METHODS:
        raise ValueError(f"unknown interleaving method {method!r}; use one of {sorted(METHODS)}")
    if credit_ties not in CREDIT_TIES:
        raise ValueError(f"credit_ties must be one of {sorted(CREDIT_TIES)}, got {credit_ties!r}")
    return METHODS[method]


def _tables_from_scores(scores_a: ArrayLike, scores_b: ArrayLike) -> tuple[NDArray, ...]:
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
        _sort_queries(values[side], offsets, *(table[side] for table in tables))
    return tables


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
    order, position, tie_start, tie_end = _tables_from_scores(scores_a, scores_b)
    if grades.shape != (order.shape[1],):
        raise ValueError(f"labels have shape {grades.shape}; expected ({order.shape[1]},)")
    weights, cumulative = rank_weights(grades.size, tau)
    counts = np.zeros(3, dtype=np.int64)
    state = np.array([rng.integers(0, 2**63)], dtype=np.uint64)
    _run_duels(
        code,
        0,
        1,
        0,
        int(n_duels),
        np.array([0, grades.size], dtype=np.int64),
        order,
        position,
        tie_start,
        tie_end,
        grades,
        int(length),
        click_model.click_array,
        click_model.stop_array,
        weights,
        cumulative,
        CREDIT_TIES[credit_ties],
        np.zeros((SCRATCH_ROWS, grades.size), dtype=np.int64),
        np.empty(int(length) + 1),
        np.empty(int(length) + 2),
        state,
        np.empty(1, dtype=np.int64),
        counts,
    )
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
    return float(_credit_difference(credit_b, credit_b.size, np.empty(credit_b.size + 2)))


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
