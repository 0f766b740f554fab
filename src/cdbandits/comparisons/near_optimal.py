"""Set-valued weight intervals: the lotteries that could be the von Neumann winner.

The weight of an item in the von Neumann winner (vNW) is a discontinuous function of the
matrix: items enter and leave the support, and a Condorcet winner's weight drops from 1 as
soon as one of its pairs flips. Percentile intervals of resampled weights miss there: at
the sizes of real logs the resampled vNW spreads its weight over more items than the true
one, so a true weight of 1 (a Condorcet winner with a close pair) or a large true weight
lies above the upper percentile far more often than nominal. These intervals come instead
from a confidence *set* of lotteries: those that could be the vNW given how far, by the
resamples, the log's matrix can be from the truth.

The set. Let ``P_hat`` be the log's skew matrix, ``P`` the truth, ``Delta = P - P_hat``. Its
distribution is estimated from the resampled matrices ``P_b``: as ``P_hat - P_b`` for the
bootstrap (the bootstrap principle: ``P_hat - P`` is distributed like ``P_b - P_hat``) and as
``P_b - P_hat`` for the posterior (``P`` is distributed like ``P_b``). Each entry has a scale
``S[i, j]`` (:func:`entry_scales`, the binomial standard error of ``P_hat[i, j]``). The true
vNW ``w`` has ``(w^T P)_j >= 0`` for every item ``j``; so with the studentised statistic

    ``T(p) = max_j (p^T Delta)_j / (p^T S)_j``

every ``j`` has ``(w^T (P_hat + t S))_j >= (w^T P)_j >= 0`` whenever ``T(w) <= t``. The bound
``t`` is the largest ``confidence`` quantile of ``T(p)`` over the resamples among candidate
truths ``p`` (:func:`studentised_statistics`, :func:`studentised_bound`): every pure
lottery (an item as a Condorcet winner: the extreme case, where no averaging damps the
noise), the reported vNW and the vNW of the first :data:`CANDIDATE_RESAMPLES` resamples
(mixed truths the data allow). Then ``w`` lies, with about that confidence, in

    ``C = {p in the simplex : (p^T (P_hat + t S))_j >= 0 for every item j}``,

a polytope that contains the reported vNW. A candidate outside ``C`` cannot be the truth at
that confidence, so it does not need to be covered: such candidates are dropped and ``t``
recomputed over the rest until none is dropped (``t`` only decreases). A true vNW among
the candidates is dropped only when its observed ``T`` (``max_j -(w^T P_hat)_j / (w^T S)_j``)
exceeds a bound at least its own quantile, which has about the complementary probability;
this keeps pure candidates from setting ``t`` when the data rule every Condorcet winner
out, as the mixtures' ``T`` is smaller. Every item's interval is the projection
``[min_{p in C} p_i, max_{p in C} p_i]``: it includes 0 whenever a lottery without the item
could be the vNW and reaches 1 whenever the item alone could be. A mixed truth is covered
when its ``T`` quantile is at most ``t``: the candidates bracket it (a mixture averages the
noise of its rows, which lowers ``T`` below its rows' worst), and the coverage check
(:mod:`.coverage`) measures it.

Each end is a small LP, solved by HiGHS (through ``highspy``, which loads far quicker than
``scipy.optimize``) and certified. For ``A = P_hat + t S``, any
``y >= 0`` (one entry per item ``j``) and sign ``s = +1`` (max) or ``-1`` (min), every ``p``
in ``C`` satisfies ``s p_i <= max_k (s [k = i] + (A y)_k)`` (add ``y_j (p^T A)_j >= 0`` and
bound a linear function on the simplex by its largest coefficient). The reported ends are
these dual bounds for HiGHS's duals (so an interval contains the exact projection whatever
the rounding), and a lottery in ``C`` attaining them to :data:`CERTIFICATE_TOL` proves them
tight. A solver failure or a gap above the tolerance raises. Without an LP: a pure lottery
``e_k`` in ``C`` (row ``k`` of ``A`` non-negative, checked exactly) proves ``max p_k = 1`` and
``min p_i = 0`` for every other item ``i``.

With ``t = 0`` the set is the optimal face of the log's own game, ``{p in the simplex :
p^T P_hat >= 0}``: every von Neumann winner of ``P_hat``. :func:`optimal_face_bounds` gives
its projections, the least and largest weight of each item over all von Neumann winners;
when they differ the winner is not unique and the reported lottery (the analytic centre of
the face) is one representative among many. One LP first bounds the total weight of the
items outside the reported support: 0 (certified) proves that no von Neumann winner puts
weight on them, and only the support items need their two LPs.

For the margins of :mod:`.counts` the scales are those of the margin entries: ``S[i, j]``
times ``(n + 2) / c``, the standard error of ``(wins[i, j] - wins[j, i]) / c``.
"""

from __future__ import annotations

import highspy
import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..winners import CertificationError, SolverError
from .counts import PairCounts

__all__ = [
    "CANDIDATE_RESAMPLES",
    "CERTIFICATE_TOL",
    "FACE_TOL",
    "entry_scales",
    "near_optimal_weight_bounds",
    "optimal_face_bounds",
    "studentised_bound",
    "studentised_statistics",
]

#: Resamples whose von Neumann winners join the candidate truths of :func:`studentised_bound`.
CANDIDATE_RESAMPLES = 20

#: Largest accepted gap between an interval end's dual bound and a feasible lottery's weight,
#: and largest accepted violation of ``(p^T A)_j >= 0`` by that lottery.
CERTIFICATE_TOL = 1e-7

#: An item whose least and largest weight over the optimal face differ by more than this
#: shows that the von Neumann winner is not unique (ten times the certificates' tolerance).
FACE_TOL = 1e-6


def entry_scales(counts: PairCounts) -> NDArray[np.float64]:
    """``S[i, j] = 2 sqrt(q (1 - q) / (n + 2))``, ``q = (wins[i, j] + 1) / (n + 2)``.

    The standard error of ``P_hat[i, j] = 2 Q_hat[i, j] - 1`` from ``n`` comparisons, with
    one virtual win each way so that a pair won every time (or never compared) keeps a
    positive scale; times ``(n + 2) / c`` for the margins (module docstring). Zero
    diagonal. Only a scale: :func:`studentised_bound` calibrates it.
    """
    n = counts.comparisons
    q = (counts.wins + 1.0) / (n + 2.0)
    scales = 2.0 * np.sqrt(q * (1.0 - q) / (n + 2.0))
    if counts.matrix == "margins":
        scales *= (n + 2.0) / counts.margin_scale
    np.fill_diagonal(scales, 0.0)
    return scales


def studentised_statistics(
    deviations: ArrayLike, candidates: ArrayLike, scales: ArrayLike
) -> NDArray[np.float64]:
    """``T(p) = max_j (p^T Delta_b)_j / (p^T S)_j`` per resample and candidate lottery.

    Parameters
    ----------
    deviations : array_like, shape (B, K, K)
        Draws ``Delta_b`` of ``P - P_hat`` (module docstring).
    candidates : array_like, shape (C, K)
        Lotteries.
    scales : array_like, shape (K, K)
        :func:`entry_scales`.

    Returns
    -------
    ndarray, shape (B, C)
        A column ``j`` with ``(p^T S)_j = 0`` (``p`` pure on ``j``, whose ``Delta_jj = 0``)
        counts as 0.
    """
    draws = np.asarray(deviations, dtype=np.float64)
    lotteries = np.asarray(candidates, dtype=np.float64)
    spread = lotteries @ np.asarray(scales, dtype=np.float64)
    numerator = np.einsum("ci,bij->bcj", lotteries, draws)
    ratio = np.divide(numerator, spread, out=np.zeros_like(numerator), where=spread[None] > 1e-12)
    return ratio.max(axis=2)


def studentised_bound(statistics: ArrayLike, observed: ArrayLike, confidence: float) -> float:
    """``t``: the largest ``confidence`` quantile over the candidates that ``C`` keeps.

    Parameters
    ----------
    statistics : array_like, shape (B, C)
        :func:`studentised_statistics` of the resamples' deviations.
    observed : array_like, shape (C,)
        Per candidate, the ``t`` it needs to lie in ``C``:
        :func:`studentised_statistics` of ``-P_hat``.
    confidence : float
        In (0, 1).

    Returns
    -------
    float
        At least 0. Candidates with ``observed > t`` are dropped and ``t`` recomputed over
        the rest until none is (module docstring).
    """
    values = np.asarray(statistics, dtype=np.float64)
    needed = np.asarray(observed, dtype=np.float64)
    if values.ndim != 2 or values.shape[0] < 1 or values.shape[1] < 1:
        raise ValueError(f"statistics must have shape (resamples, candidates), got {values.shape}")
    if needed.shape != values.shape[1:]:
        raise ValueError(f"observed must have shape {values.shape[1:]}, got {needed.shape}")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must lie in (0, 1), got {confidence}")
    quantiles = np.quantile(values, confidence, axis=0)
    kept = np.ones(quantiles.size, dtype=bool)
    while True:
        bound = max(float(quantiles[kept].max()), 0.0) if kept.any() else 0.0
        still = kept & (needed <= bound + 1e-12)
        if (still == kept).all():
            return bound
        kept = still


def _solve_lp(
    objective: NDArray[np.float64], A: NDArray[np.float64]
) -> tuple[object, NDArray[np.float64], NDArray[np.float64]]:
    """``min objective @ p`` over ``{p >= 0: A.T @ p >= 0, sum(p) = 1}`` by HiGHS.

    Returns the model status, ``p`` and the row duals (first the ``k`` rows of ``A.T``,
    non-negative at the optimum of a minimisation, then the row of the sum).
    """
    k = A.shape[0]
    rows = np.vstack([A.T, np.ones((1, k))])
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = k, k + 1
    lp.col_cost_ = objective
    lp.col_lower_, lp.col_upper_ = np.zeros(k), np.full(k, highspy.kHighsInf)
    lp.row_lower_ = np.r_[np.zeros(k), 1.0]
    lp.row_upper_ = np.r_[np.full(k, highspy.kHighsInf), 1.0]
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = np.arange(k + 1) * (k + 1)
    lp.a_matrix_.index_ = np.tile(np.arange(k + 1), k)
    lp.a_matrix_.value_ = rows.T.ravel()
    solver = highspy._Highs()  # the core object: no banner on standard output
    solver.setOptionValue("output_flag", False)
    solver.passModel(lp)
    solver.run()
    solution = solver.getSolution()
    return solver.getModelStatus(), np.array(solution.col_value), np.array(solution.row_dual)


def _certified_max(A: NDArray[np.float64], gain: NDArray[np.float64], what: str) -> float:
    """``max gain @ p`` over ``{p in the simplex: p^T A >= 0}``, a certified dual bound."""
    k = A.shape[0]
    status, x, row_duals = _solve_lp(-gain, A)  # HiGHS minimises
    if status != highspy.HighsModelStatus.kOptimal:
        raise SolverError(f"HiGHS found no {what}: model status {status}")
    duals = np.clip(row_duals[:k], 0.0, None)
    bound = float((gain + A @ duals).max())
    lottery = np.clip(x, 0.0, None)
    lottery /= lottery.sum()
    violation = -float((lottery @ A).min())
    gap = bound - float(gain @ lottery)
    if violation > CERTIFICATE_TOL or gap > CERTIFICATE_TOL:
        raise CertificationError(
            f"the {what} is not certified: gap {gap:.2e}, constraint violation "
            f"{violation:.2e} (tolerance {CERTIFICATE_TOL:.0e})"
        )
    return bound


def _certified_end(A: NDArray[np.float64], item: int, sign: float, where: str) -> float:
    """``max sign * p_item`` over ``{p in the simplex: p^T A >= 0}``, a certified dual bound."""
    unit = np.zeros(A.shape[0])
    unit[item] = sign
    end = "largest" if sign > 0 else "smallest"
    return _certified_max(A, unit, f"{end} weight of item {item} {where}")


def near_optimal_weight_bounds(
    P: ArrayLike, margins: ArrayLike
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Per item, the least and the largest weight over ``C = {p: p^T (P + margins) >= 0}``.

    Parameters
    ----------
    P : array_like, shape (K, K)
        Skew-form preference matrix (the log's, ``P_hat``).
    margins : array_like, shape (K, K)
        Non-negative, ``t S`` in the module docstring.

    Returns
    -------
    (low, high) : ndarray, shape (K,)
        Certified outer bounds of ``min p_i`` and ``max p_i`` over ``C`` (within
        :data:`CERTIFICATE_TOL` of the exact values), clipped to ``[0, 1]``.

    Raises
    ------
    SolverError, CertificationError
        HiGHS failed, or its answer could not be certified.
    """
    P = np.asarray(P, dtype=np.float64)
    margin = np.asarray(margins, dtype=np.float64)
    if P.ndim != 2 or P.shape[0] != P.shape[1] or not np.allclose(P, -P.T):
        raise ValueError(f"P must be a skew-symmetric square matrix, got shape {P.shape}")
    if margin.shape != P.shape or not (np.isfinite(margin).all() and (margin >= 0).all()):
        raise ValueError(f"margins must be a finite non-negative {P.shape} matrix")
    A = P + margin
    k = P.shape[0]
    pure = (A >= 0).all(axis=1)  # e_k lies in C
    where = "in the confidence set of lotteries"
    high = np.array([1.0 if pure[i] else _certified_end(A, i, 1.0, where) for i in range(k)])
    low = np.array(
        [0.0 if np.delete(pure, i).any() else -_certified_end(A, i, -1.0, where) for i in range(k)]
    )
    # + 0.0 turns the -0.0 of a negated zero bound into 0.0.
    return np.clip(low, 0.0, 1.0) + 0.0, np.clip(high, 0.0, 1.0) + 0.0


def optimal_face_bounds(
    P: ArrayLike, support: ArrayLike
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Per item, the least and the largest weight over all von Neumann winners of ``P``.

    Parameters
    ----------
    P : array_like, shape (K, K)
        Skew-form matrix.
    support : array_like of int
        The support of a von Neumann winner of ``P`` (the analytic centre's: the union of
        all supports, checked by one certified LP; module docstring).

    Returns
    -------
    (low, high) : ndarray, shape (K,)
        Certified to :data:`CERTIFICATE_TOL`, clipped to ``[0, 1]``. The winner is unique
        when ``high - low <= FACE_TOL`` for every item.

    Raises
    ------
    SolverError, CertificationError
        HiGHS failed, or its answer could not be certified.
    """
    P = np.asarray(P, dtype=np.float64)
    if P.ndim != 2 or P.shape[0] != P.shape[1] or not np.allclose(P, -P.T):
        raise ValueError(f"P must be a skew-symmetric square matrix, got shape {P.shape}")
    k = P.shape[0]
    inside = np.zeros(k, dtype=bool)
    inside[np.asarray(support, dtype=np.int64)] = True
    if not inside.any():
        raise ValueError("the support of a von Neumann winner has at least one item")
    where = "over the von Neumann winners"
    if not inside.all():
        outside = _certified_max(P, (~inside).astype(np.float64), f"weight outside {where}")
        if outside > FACE_TOL:  # the given support is not the largest: bound every item
            inside[:] = True
    low, high = np.zeros(k), np.zeros(k)
    items = np.flatnonzero(inside)
    if items.size == 1:  # the only item any von Neumann winner weighs
        low[items], high[items] = 1.0, 1.0
    else:
        for i in items:
            high[i] = _certified_end(P, int(i), 1.0, where)
            low[i] = -_certified_end(P, int(i), -1.0, where)
    return np.clip(low, 0.0, 1.0) + 0.0, np.clip(high, 0.0, 1.0) + 0.0
