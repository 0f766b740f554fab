"""The compiled kernels that simulate interleaved comparisons with clicks.

:func:`run_duels` runs comparisons of two rankers on the queries of a data set and counts
their outcomes; :mod:`cdbandits.letor.interleave` and :mod:`cdbandits.letor.matrices` call it
(the module docstring of :mod:`~cdbandits.letor.interleave` states the procedures). The
kernels take their arrays grouped in three named tuples:

* :class:`RankingTables`: every ranker's order of every query's documents, with its ties
  (the arrays of :class:`~cdbandits.letor.rankers.FeatureRankings`);
* :class:`ClickSimulation`: what is shown and how the simulated user clicks;
* :class:`Workspace`: one thread's scratch space and random state.

Randomness: a SplitMix64 stream in ``Workspace.state``, seeded from the caller's
``numpy.random.Generator``, so results depend only on that Generator.
"""

from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np
from numpy.typing import NDArray

__all__ = [
    "CREDIT_TIES",
    "METHODS",
    "SCRATCH_ROWS",
    "TIE_TOLERANCE",
    "ClickSimulation",
    "RankingTables",
    "Workspace",
    "credit_difference",
    "new_workspace",
    "run_duels",
]

#: Interleaving methods and their codes in the compiled kernels.
METHODS: dict[str, int] = {"probabilistic": 0, "team_draft": 1}

#: Tie-breaking of Probabilistic Interleave's credit (see :mod:`cdbandits.letor.interleave`)
#: and the kernels' codes for it.
CREDIT_TIES: dict[str, int] = {"shared": 0, "redrawn": 1}

#: A credit difference ``|o|`` at most this is a tie.
TIE_TOLERANCE = 1e-12


class RankingTables(NamedTuple):
    """Every ranker's ranking of every query, shape (n_rankers, n_documents) each.

    Row ``r`` holds ranker ``r``'s tables for all queries, query ``q`` in the columns
    ``offsets[q] .. offsets[q + 1] - 1`` (see :class:`~cdbandits.letor.rankers.FeatureRankings`).
    """

    order: NDArray[np.int64]
    position: NDArray[np.int64]
    tie_start: NDArray[np.int64]
    tie_end: NDArray[np.int64]


class ClickSimulation(NamedTuple):
    """What a comparison shows and how the simulated user clicks.

    ``method`` and ``redraw_credit_ties`` are codes of :data:`METHODS` and
    :data:`CREDIT_TIES`; ``labels`` the relevance grade of every document (global rows);
    ``length`` the longest shown list; ``click`` and ``stop`` the click model's
    probabilities per grade; ``weights`` and ``cumulative`` Probabilistic Interleave's rank
    weights and their cumulative sums.
    """

    method: int
    labels: NDArray[np.int8]
    length: int
    click: NDArray[np.float64]
    stop: NDArray[np.float64]
    weights: NDArray[np.float64]
    cumulative: NDArray[np.float64]
    redraw_credit_ties: int


class Workspace(NamedTuple):
    """One thread's scratch space (:func:`new_workspace` makes one)."""

    scratch: NDArray[np.int64]
    credit_b: NDArray[np.float64]
    distribution: NDArray[np.float64]
    state: NDArray[np.uint64]
    query_counts: NDArray[np.int64]


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
def _doc_at(side, ranker, first, p, tables, stamp, work):
    """Document at position ``p`` of ``ranker`` (side 0 or 1), fixing the tie-breaking lazily.

    Within a tie group, given the (position, document) pairs fixed so far in this
    comparison, the document at an unfixed position is uniform over the group's unfixed
    documents: that is how a uniformly random order of the group unfolds.
    """
    scratch = work.scratch
    if scratch[_POS_STAMP + side, p] == stamp:
        return scratch[_POS_DOC + side, p]
    start = np.int64(tables.tie_start[ranker, first + p])
    size = np.int64(tables.tie_end[ranker, first + p]) - start
    document = np.int64(tables.order[ranker, first + p])
    if size > 1:
        while True:
            document = np.int64(tables.order[ranker, first + start + _below(work.state, size)])
            if scratch[_DOC_STAMP + side, document] != stamp:
                break
    _fix(scratch, side, p, document, stamp)
    return document


@_kernel
def _position_of(side, ranker, first, document, tables, stamp, work):
    """Position of ``document`` in ``ranker``: uniform over its tie group's unfixed positions
    if not fixed yet (the counterpart of :func:`_doc_at`)."""
    scratch = work.scratch
    if scratch[_DOC_STAMP + side, document] == stamp:
        return scratch[_DOC_POS + side, document]
    p = np.int64(tables.position[ranker, first + document])
    start = np.int64(tables.tie_start[ranker, first + p])
    size = np.int64(tables.tie_end[ranker, first + p]) - start
    if size > 1:
        while True:
            p = start + _below(work.state, size)
            if scratch[_POS_STAMP + side, p] != stamp:
                break
    _fix(scratch, side, p, document, stamp)
    return p


@_kernel
def _draw(side, ranker, first, n, mass, tables, weights, stamp, work):
    """Draw a document not yet shown from ``ranker``'s distribution; return it and its
    position. Scanning from the top is cheap: the weights fall off as ``rank ** -tau``."""
    u = _uniform(work.state) * mass
    chosen = np.int64(-1)
    chosen_position = np.int64(-1)
    for p in range(n):
        document = _doc_at(side, ranker, first, p, tables, stamp, work)
        if work.scratch[_REMOVED, document] != stamp:
            chosen = document
            chosen_position = p
            u -= weights[p]
            if u < 0.0:
                break
    return chosen, chosen_position


@_kernel
def credit_difference(credit_b, n_clicks, distribution):
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
def _probabilistic_duel(ranker_a, ranker_b, first, n, tables, clicks, stamp, work):
    """One Probabilistic Interleave comparison with simulated clicks; returns +1, -1 or 0."""
    weights = clicks.weights
    scratch = work.scratch
    state = work.state
    mass_a = clicks.cumulative[n - 1]
    mass_b = mass_a
    credit_mass_a = mass_a
    credit_mass_b = mass_a
    n_clicks = 0
    for _ in range(min(clicks.length, n)):
        if _uniform(state) < 0.5:
            document, p_a = _draw(0, ranker_a, first, n, mass_a, tables, weights, stamp, work)
            p_b = _position_of(1, ranker_b, first, document, tables, stamp, work)
        else:
            document, p_b = _draw(1, ranker_b, first, n, mass_b, tables, weights, stamp, work)
            p_a = _position_of(0, ranker_a, first, document, tables, stamp, work)
        probability_a = weights[p_a] / mass_a
        probability_b = weights[p_b] / mass_b
        mass_a -= weights[p_a]
        mass_b -= weights[p_b]
        if clicks.redraw_credit_ties:
            p_a = _position_of(2, ranker_a, first, document, tables, stamp, work)
            p_b = _position_of(3, ranker_b, first, document, tables, stamp, work)
            probability_a = weights[p_a] / credit_mass_a
            probability_b = weights[p_b] / credit_mass_b
            credit_mass_a -= weights[p_a]
            credit_mass_b -= weights[p_b]
        scratch[_REMOVED, document] = stamp
        grade = clicks.labels[first + document]
        if _uniform(state) < clicks.click[grade]:
            work.credit_b[n_clicks] = probability_b / (probability_a + probability_b)
            n_clicks += 1
            if _uniform(state) < clicks.stop[grade]:
                break
    if n_clicks == 0:
        return 0
    difference = credit_difference(work.credit_b, n_clicks, work.distribution)
    if difference > TIE_TOLERANCE:
        return -1
    if difference < -TIE_TOLERANCE:
        return 1
    return 0


@_kernel
def _team_draft_duel(ranker_a, ranker_b, first, n, tables, clicks, stamp, work):
    """One Team-Draft comparison with simulated clicks; returns +1, -1 or 0."""
    scratch = work.scratch
    state = work.state
    next_a = 0
    next_b = 0
    picks_a = 0
    picks_b = 0
    clicks_a = 0
    clicks_b = 0
    for _ in range(min(clicks.length, n)):
        a_picks = picks_a < picks_b or (picks_a == picks_b and _uniform(state) < 0.5)
        if a_picks:
            while True:
                document = _doc_at(0, ranker_a, first, next_a, tables, stamp, work)
                next_a += 1
                if scratch[_REMOVED, document] != stamp:
                    break
            picks_a += 1
        else:
            while True:
                document = _doc_at(1, ranker_b, first, next_b, tables, stamp, work)
                next_b += 1
                if scratch[_REMOVED, document] != stamp:
                    break
            picks_b += 1
        scratch[_REMOVED, document] = stamp
        grade = clicks.labels[first + document]
        if _uniform(state) < clicks.click[grade]:
            if a_picks:
                clicks_a += 1
            else:
                clicks_b += 1
            if _uniform(state) < clicks.stop[grade]:
                break
    if clicks_a > clicks_b:
        return 1
    if clicks_b > clicks_a:
        return -1
    return 0


@_kernel
def run_duels(a, b, query, n_duels, offsets, tables, clicks, work, counts):
    """Add the outcomes of ``n_duels`` comparisons to ``counts`` (A wins, ties, B wins):
    on query ``query``, or on queries drawn uniformly at random if ``query < 0``.

    Rankers ``a`` and ``b`` are rows of the :class:`RankingTables`; query ``q``'s
    documents are global rows ``offsets[q] .. offsets[q + 1] - 1``. Random queries are drawn
    first and their comparisons then run query by query: the same distribution, but a
    query's data stays in cache over its comparisons, which matters on data sets much larger
    than the cache. ``work.scratch`` must be all zeros at the start.
    """
    n_queries = offsets.size - 1
    query_counts = work.query_counts
    if query >= 0:
        lowest, highest = query, query + 1
        query_counts[query] = n_duels
    else:
        lowest, highest = 0, n_queries
        for chosen in range(n_queries):
            query_counts[chosen] = 0
        for _ in range(n_duels):
            query_counts[_below(work.state, n_queries)] += 1
    # Every comparison has its own stamp: scratch entries of the preceding ones are then stale.
    stamp = 0
    for chosen in range(lowest, highest):
        first = offsets[chosen]
        n = offsets[chosen + 1] - first
        for _ in range(query_counts[chosen]):
            stamp += 1
            if clicks.method == 0:
                outcome = _probabilistic_duel(a, b, first, n, tables, clicks, stamp, work)
            else:
                outcome = _team_draft_duel(a, b, first, n, tables, clicks, stamp, work)
            counts[1 - outcome] += 1


@numba.njit(cache=True)
def new_workspace(max_documents, length, n_queries, seed):
    """Zeroed scratch space and a random state seeded with ``seed`` for :func:`run_duels`."""
    state = np.empty(1, dtype=np.uint64)
    state[0] = seed
    return Workspace(
        np.zeros((SCRATCH_ROWS, max_documents), dtype=np.int64),
        np.empty(length + 1),
        np.empty(length + 2),
        state,
        np.empty(n_queries, dtype=np.int64),
    )
