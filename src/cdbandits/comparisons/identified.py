"""Weight intervals and in/out labels of the von Neumann winner, from a support confidence set.

The weight of an item in the von Neumann winner (vNW, maximal lottery) ``w*`` of the true
skew matrix ``P`` is a piecewise-rational function of ``P``: smooth while the support ``S*``
stays fixed, with jumps between supports. The percentile bootstrap of ``w(P_hat)`` is
therefore not valid uniformly (Fang & Santos 2019), and the conservative set of
:mod:`.near_optimal` never bounds an item at 0. This construction ("identified") first
builds a confidence set of supports by test inversion, then projects, per kept support, the
lotteries that pass the test:

**Estimator and resampling.** ``q~ = (W + 1) / (n + 2)`` per pair, ``P~ = 2 q~ - 1`` (one
virtual win each way). ``B`` parametric resamples ``W*_ij ~ Binomial(n_ij, q~_ij)``, smoothed
the same way, give draws ``Delta_b = P*_b - P~`` of the noise ``P~ - P``.

**Step 1: support test** (complementarity conditions as moment (in)equalities, Hsieh, Shi &
Shum 2022). For every candidate support ``S`` (every subset of odd size: a unique vNW has an
odd support) with column scales ``c_j`` (the standard error of ``(u^T P~)_j`` for the uniform
lottery ``u`` on ``S``, from the entries' binomial standard errors, those of
:func:`.near_optimal.entry_scales`) and studentised residuals ``r_j(w; M) = (w^T M)_j / c_j``,
the *equalizer distance* is one LP,

    ``D_S = min { t : w lottery on S, |r_j(w; P~)| <= t (j in S), -r_j(w; P~) <= t (j not in S) }``,

with minimiser ``w_S``. Its critical value ``k_S`` is the ``confidence`` quantile over the
resamples of ``T_S(w_S; Delta_b) = max(max_{j in S} |r_j|, max_{j not in S} (-r_j)_+)``.
``S`` is kept iff ``D_S <= k_S``. Under ``S = S*`` the truth is feasible with
``t = T_{S*}(w*; P~ - P)`` whatever the size of its weights and gaps (its residual is 0 on
``S*`` and its gap ``(w*^T P)_j >= 0`` off it), so ``S*`` is kept on the event
``E = {T_{S*}(w*; P~ - P) <= k_{S*}}`` of probability about ``confidence``: a test inversion
as in the model confidence set (Hansen, Lunde & Nason 2011) and confidence sets for ranks
(Mogstad, Romano, Shaikh & Wilhelm 2024). One true hypothesis: no multiplicity correction.

**Labels.** An item is "in" when every kept support holds it, "out" when none does,
"undecided" otherwise. On ``E`` no label is wrong, for all items at once.

**Step 2: weights** (projections of a test-inverted set by LPs, Kaido, Molinari & Stoye
2019; pieces selected by a confidence region as in Lamm & Lu 2019). On ``E``, ``w*`` lies in
``F_S = {w lottery on S : |r_j(w; P~)| <= k_S (j in S), -r_j(w; P~) <= k_S (j not in S)}``
for ``S = S*``. Item ``i``'s interval is the hull over the kept supports of
``[min_{F_S} w_i, max_{F_S} w_i]`` (``{0}`` for a support without ``i``). On ``E`` every
interval covers at once.

When no support is kept (a truth whose vNW is not unique, e.g. clones, or a rare draw) the
result says so: every item "undecided" with the interval ``[0, 1]``; the conservative
intervals of :mod:`.near_optimal` are then the informative ones. Coverage is asymptotic (a
bootstrap quantile, with the minimiser ``w_S`` plugged in for ``w*``).

Every LP is solved by HiGHS and certified: a dual bound (from HiGHS's row duals) and a
feasible lottery within :data:`LP_CERTIFICATE_TOL` (relative to the constraint matrix's
largest entry) of each other; interval ends are the dual bounds, so they contain the exact
projections. The independent LPs of one stage go to HiGHS as one block-diagonal LP
(minimising the sum minimises each block).

References
----------
Z. Fang, A. Santos (2019), "Inference on directionally differentiable functions", Review of
Economic Studies 86(1); arXiv:1404.3763.
Y.-W. Hsieh, X. Shi, M. Shum (2022), "Inference on estimators defined by mathematical
programming", Journal of Econometrics; arXiv:1709.09115.
H. Kaido, F. Molinari, J. Stoye (2019), "Confidence intervals for projections of partially
identified parameters", Econometrica 87(4).
M. Lamm, S. Lu (2019), "Generalized conditioning based approaches to computing confidence
intervals for solutions to stochastic variational inequalities", Mathematical Programming.
P. Hansen, A. Lunde, J. Nason (2011), "The model confidence set", Econometrica 79(2).
M. Mogstad, J. Romano, A. Shaikh, D. Wilhelm (2024), "Inference for ranks with applications
to mobility across neighborhoods and academic achievement across countries", Review of
Economic Studies.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import highspy
import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..limits import MAX_RESAMPLES, SUPPORT_ENUMERATION_MAX_ITEMS
from ..winners import CertificationError, SolverError
from .counts import PairCounts

__all__ = [
    "ASSUMPTIONS",
    "LP_CERTIFICATE_TOL",
    "IdentifiedIntervals",
    "SupportTests",
    "binomial_noise",
    "identified_intervals",
    "odd_subsets",
    "smoothed_skew",
    "support_tests",
]

#: Largest accepted gap between an LP's certified dual bound and its feasible solution, and
#: largest accepted constraint violation, relative to ``max(1, largest |entry|)`` of the LP.
LP_CERTIFICATE_TOL = 1e-7

#: What the intervals and labels rest on (stated with every result).
ASSUMPTIONS = (
    "the true von Neumann winner is unique (its support has odd size)",
    "the comparisons of a pair are independent draws with one win probability "
    "(binomial resampling per pair; groups such as voters are not resampled together)",
    "coverage is asymptotic: a bootstrap critical value with the minimiser plugged in",
)


@dataclass(frozen=True, eq=False)
class SupportTests:
    """Equalizer-distance tests of candidate supports of one size (step 1).

    Attributes
    ----------
    subsets : ndarray of int64, shape (M, s)
        The candidate supports.
    distance : ndarray, shape (M,)
        ``D_S``: certified lower bound of the LP's value.
    critical : ndarray, shape (M,)
        ``k_S``.
    minimiser : ndarray, shape (M, s)
        ``w_S``.
    rows : ndarray, shape (M, K + s, s)
        The residual rows ``a`` with ``a @ w`` the studentised residuals bounded by ``t``.
    """

    subsets: NDArray[np.int64]
    distance: NDArray[np.float64]
    critical: NDArray[np.float64]
    minimiser: NDArray[np.float64]
    rows: NDArray[np.float64]

    @property
    def kept(self) -> NDArray[np.bool_]:
        """The supports the test keeps: ``D_S <= k_S``."""
        return self.distance <= self.critical


@dataclass(frozen=True, eq=False)
class IdentifiedIntervals:
    """Weight intervals and labels of the von Neumann winner of one log (module docstring).

    Attributes
    ----------
    items : tuple of str
    low, high : ndarray, shape (K,)
        Per item, the interval on its weight (certified outer bounds, in ``[0, 1]``).
    labels : tuple of str
        Per item, "in", "out" or "undecided".
    supports : tuple of tuple of int
        The support confidence set (item indices), by size then lexicographically.
    distances, critical_values : ndarray, shape (len(supports),)
        ``D_S`` and ``k_S`` of each kept support.
    candidates : int
        Candidate supports tested (``2**(K - 1)``).
    confidence : float
        Joint level of the support set, the labels and the intervals.
    resamples : int
    assumptions : tuple of str
        What the statement rests on (:data:`ASSUMPTIONS`).
    """

    items: tuple[str, ...]
    low: NDArray[np.float64]
    high: NDArray[np.float64]
    labels: tuple[str, ...]
    supports: tuple[tuple[int, ...], ...]
    distances: NDArray[np.float64]
    critical_values: NDArray[np.float64]
    candidates: int
    confidence: float
    resamples: int
    assumptions: tuple[str, ...] = ASSUMPTIONS

    @property
    def identified(self) -> bool:
        """Exactly one support is kept."""
        return len(self.supports) == 1

    @property
    def no_support_kept(self) -> bool:
        """No candidate support passed the test: intervals [0, 1], every item undecided."""
        return not self.supports


def odd_subsets(k: int) -> dict[int, NDArray[np.int64]]:
    """Every subset of odd size of ``range(k)``, by size: ``{s: array (C(k, s), s)}``."""
    return {
        s: np.array(list(combinations(range(k), s)), dtype=np.int64).reshape(-1, s)
        for s in range(1, k + 1, 2)
    }


def smoothed_skew(wins: ArrayLike, comparisons: ArrayLike) -> NDArray[np.float64]:
    """``P~ = 2 (W + 1) / (n + 2) - 1``: exactly skew, zero diagonal; works on stacks."""
    q = (np.asarray(wins, dtype=np.float64) + 1.0) / (np.asarray(comparisons) + 2.0)
    skew = q - np.swapaxes(q, -1, -2)  # 2 q - 1 = q_ij - q_ji when q_ij + q_ji = 1
    k = skew.shape[-1]
    skew[..., np.arange(k), np.arange(k)] = 0.0
    return skew


def binomial_noise(
    wins: ArrayLike, resamples: int, rng: np.random.Generator
) -> NDArray[np.float64]:
    """Draws ``P*_b - P~`` of the noise ``P~ - P``, shape (B, K, K).

    ``W*_ij ~ Binomial(n_ij, q~_ij)`` independently per pair ``i < j``, smoothed as
    :func:`smoothed_skew`. ``wins`` must hold whole numbers.
    """
    wins = np.asarray(wins, dtype=np.float64)
    k = wins.shape[0]
    comparisons = wins + wins.T
    rows, cols = np.triu_indices(k, 1)
    n = comparisons[rows, cols]
    q = (wins[rows, cols] + 1.0) / (n + 2.0)
    drawn = rng.binomial(n.astype(np.int64), q, size=(resamples, rows.size)).astype(np.float64)
    stack = np.zeros((resamples, k, k))
    stack[:, rows, cols] = drawn
    stack[:, cols, rows] = n - drawn
    return smoothed_skew(stack, comparisons) - smoothed_skew(wins, comparisons)[None]


def _solve_blocks(
    matrices: NDArray[np.float64],
    costs: NDArray[np.float64],
    col_lower: NDArray[np.float64],
    row_lower: NDArray[np.float64],
    row_upper: NDArray[np.float64],
    what: str,
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Solve ``M`` independent LPs of one shape in one HiGHS call.

    LP ``m``: ``min costs[m] @ x`` s.t. ``row_lower[m] <= matrices[m] @ x <= row_upper[m]``,
    ``x >= col_lower`` (no upper bounds). Returns ``x`` (M, c) and the row duals (M, r);
    raises :class:`SolverError` unless HiGHS reports optimality.
    """
    blocks, r, c = matrices.shape
    # Column-wise sparse layout of the block-diagonal matrix (every block entry stored).
    value = np.ascontiguousarray(np.swapaxes(matrices, 1, 2)).ravel()  # (M, c, r)
    index = (np.arange(blocks)[:, None, None] * r + np.arange(r)[None, None, :]).repeat(c, 1)
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = blocks * c, blocks * r
    lp.col_cost_ = costs.ravel()
    lp.col_lower_ = np.tile(col_lower, blocks)
    lp.col_upper_ = np.full(blocks * c, highspy.kHighsInf)
    lp.row_lower_ = row_lower.ravel()
    lp.row_upper_ = row_upper.ravel()
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = np.arange(blocks * c + 1) * r
    lp.a_matrix_.index_ = index.ravel()
    lp.a_matrix_.value_ = value
    solver = highspy._Highs()  # the core object: no banner on standard output
    solver.setOptionValue("output_flag", False)
    solver.passModel(lp)
    solver.run()
    status = solver.getModelStatus()
    if status != highspy.HighsModelStatus.kOptimal:
        raise SolverError(f"HiGHS found no optimum of the {what} LPs: model status {status}")
    solution = solver.getSolution()
    x = np.array(solution.col_value).reshape(blocks, c)
    return x, np.array(solution.row_dual).reshape(blocks, r)


def _tolerance(rows: NDArray[np.float64]) -> NDArray[np.float64]:
    """Per block, :data:`LP_CERTIFICATE_TOL` relative to its largest entry (at least 1)."""
    return LP_CERTIFICATE_TOL * np.maximum(1.0, np.abs(rows).max(axis=(1, 2)))


def _column_scales(
    variances: NDArray[np.float64], subsets: NDArray[np.int64]
) -> NDArray[np.float64]:
    """``c_j = sqrt(sum_{i in S} var(P~_ij)) / s`` per subset and item, (M, K).

    0 only for ``j`` alone in ``S`` (its residual is exactly 0); set to 1 there.
    """
    scale = np.sqrt(variances[subsets].sum(axis=1)) / subsets.shape[1]
    return np.where(scale > 0.0, scale, 1.0)


def _residual_rows(
    estimate: NDArray[np.float64], scales: NDArray[np.float64], subsets: NDArray[np.int64]
) -> NDArray[np.float64]:
    """Rows ``a`` (M, K + s, s) of ``P~`` with ``a @ w`` the residuals bounded by ``t``.

    First ``+r_j`` for ``j`` in ``S`` (in subset order), then ``-r_j`` for every ``j``: the
    largest of ``a @ w`` is ``max(max_{j in S} |r_j|, max_{j not in S} -r_j)``.
    """
    residual = estimate[subsets] / scales[:, None, :]  # (M, s, K): w @ residual = r
    index = np.broadcast_to(subsets[:, None, :], residual.shape[:-1] + subsets.shape[1:])
    inside = np.take_along_axis(residual, index, axis=-1)  # (M, s, s)
    return np.swapaxes(np.concatenate([inside, -residual], axis=-1), -1, -2)


def support_tests(
    estimate: NDArray[np.float64],
    variances: NDArray[np.float64],
    noise: NDArray[np.float64],
    subsets: NDArray[np.int64],
    confidence: float,
) -> SupportTests:
    """Equalizer distance and critical value of every candidate support of one size.

    Parameters
    ----------
    estimate : ndarray, shape (K, K)
        ``P~``.
    variances : ndarray, shape (K, K)
        Variances of the entries of ``P~`` (for the column scales).
    noise : ndarray, shape (B, K, K)
        Draws of ``P~ - P``.
    subsets : ndarray of int64, shape (M, s)
    confidence : float

    Returns
    -------
    SupportTests
    """
    m, s = subsets.shape
    scales = _column_scales(variances, subsets)
    rows = _residual_rows(estimate, scales, subsets)  # (M, r, s), r = K + s
    r = rows.shape[1]
    # Variables (w, t); rows t - a @ w >= 0 and sum(w) = 1.
    matrices = np.zeros((m, r + 1, s + 1))
    matrices[:, :r, :s] = -rows
    matrices[:, :r, s] = 1.0
    matrices[:, r, :s] = 1.0
    costs = np.zeros((m, s + 1))
    costs[:, s] = 1.0
    row_lower = np.zeros((m, r + 1))
    row_lower[:, r] = 1.0
    row_upper = np.full((m, r + 1), highspy.kHighsInf)
    row_upper[:, r] = 1.0
    col_lower = np.r_[np.zeros(s), -highspy.kHighsInf]
    x, duals = _solve_blocks(matrices, costs, col_lower, row_lower, row_upper, "distance")
    minimiser = np.clip(x[:, :s], 0.0, None)
    minimiser /= minimiser.sum(axis=1, keepdims=True)
    # Certificate: for y >= 0 with sum(y) = 1, every lottery w has max_j (a w)_j >= y^T a w
    # >= min_i (a^T y)_i. The minimiser attains the primal value max_j (a w_S)_j.
    y = np.clip(duals[:, :r], 0.0, None)
    y /= np.maximum(y.sum(axis=1, keepdims=True), np.finfo(float).tiny)
    lower = np.einsum("mr,mrs->ms", y, rows).min(axis=1)
    upper = np.einsum("mrs,ms->mr", rows, minimiser).max(axis=1)
    gap = upper - lower
    tolerance = _tolerance(rows)
    if (gap > tolerance).any():
        worst = int(np.argmax(gap - tolerance))
        raise CertificationError(
            f"the equalizer distance of support {tuple(subsets[worst].tolist())} is not "
            f"certified: duality gap {gap[worst]:.2e} (tolerance {tolerance[worst]:.1e})"
        )
    # T_S(w_S; Delta_b) for every resample: the residuals of the minimiser under the noise.
    statistic = _noise_statistic(noise, scales, subsets, minimiser)
    critical = np.quantile(statistic, confidence, axis=0, method="higher")
    return SupportTests(subsets, np.maximum(lower, 0.0), critical, minimiser, rows)


def _noise_statistic(
    noise: NDArray[np.float64],
    scales: NDArray[np.float64],
    subsets: NDArray[np.int64],
    minimiser: NDArray[np.float64],
) -> NDArray[np.float64]:
    """``T_S(w_S; Delta_b)`` per resample and subset, (B, M): the rows' largest residual."""
    residual = np.zeros((noise.shape[0], *scales.shape))  # (B, M, K)
    for position in range(subsets.shape[1]):
        residual += minimiser[:, position, None] * noise[:, subsets[:, position], :]
    residual /= scales
    index = np.broadcast_to(subsets, residual.shape[:2] + subsets.shape[1:])
    inside = np.take_along_axis(residual, index, axis=2)
    return np.maximum(np.abs(inside).max(axis=2), (-residual).max(axis=2))


def _weight_ranges(
    tests: SupportTests,
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Per kept support and member: certified least and largest weight over ``F_S``.

    Returns ``(low, high)``, each (M_kept, s). ``F_S`` uses ``max(k_S, primal D_S)``, which
    differs from ``k_S`` only within the LP tolerance and keeps ``F_S`` non-empty.
    """
    kept = np.flatnonzero(tests.kept)
    s = tests.subsets.shape[1]
    rows = tests.rows[kept]  # (M, r, s)
    m, r = rows.shape[:2]
    primal = np.einsum("mrs,ms->mr", rows, tests.minimiser[kept]).max(axis=1)
    bound = np.maximum(tests.critical[kept], primal)
    # One LP per (support, member, sign): min sign * w_i s.t. -a @ w >= -k, sum(w) = 1.
    matrices = np.zeros((m, s, 2, r + 1, s))
    matrices[..., :r, :] = -rows[:, None, None]
    matrices[..., r, :] = 1.0
    sign = np.array([1.0, -1.0])
    costs = np.zeros((m, s, 2, s))
    member = np.arange(s)
    costs[:, member, :, member] = sign
    row_lower = np.zeros((m, s, 2, r + 1))
    row_lower[..., :r] = -bound[:, None, None, None]
    row_lower[..., r] = 1.0
    row_upper = np.full((m, s, 2, r + 1), highspy.kHighsInf)
    row_upper[..., r] = 1.0
    x, duals = _solve_blocks(
        matrices.reshape(-1, r + 1, s),
        costs.reshape(-1, s),
        np.zeros(s),
        row_lower.reshape(-1, r + 1),
        row_upper.reshape(-1, r + 1),
        "weight range",
    )
    flat_rows = np.repeat(rows, 2 * s, axis=0)
    flat_bound = np.repeat(bound, 2 * s)
    flat_costs = costs.reshape(-1, s)
    # Certificate: for y >= 0, every w in F_S has c @ w >= min_i (c + a^T y)_i - k sum(y).
    y = np.clip(duals[:, :r], 0.0, None)
    dual_bound = (flat_costs + np.einsum("br,brs->bs", y, flat_rows)).min(axis=1)
    dual_bound -= flat_bound * y.sum(axis=1)
    lottery = np.clip(x, 0.0, None)
    lottery /= lottery.sum(axis=1, keepdims=True)
    value = (flat_costs * lottery).sum(axis=1)
    violation = np.einsum("brs,bs->br", flat_rows, lottery).max(axis=1) - flat_bound
    tolerance = _tolerance(flat_rows)
    bad = (value - dual_bound > tolerance) | (violation > tolerance)
    if bad.any():
        worst = int(np.flatnonzero(bad)[0])
        support = tuple(tests.subsets[kept[worst // (2 * s)]].tolist())
        raise CertificationError(
            f"a weight range of support {support} is not certified: gap "
            f"{value[worst] - dual_bound[worst]:.2e}, violation {violation[worst]:.2e} "
            f"(tolerance {tolerance[worst]:.1e})"
        )
    ends = dual_bound.reshape(m, s, 2)
    return ends[..., 0], -ends[..., 1]


def _validated_wins(
    counts: PairCounts | ArrayLike,
) -> tuple[tuple[str, ...], NDArray[np.float64]]:
    """Item names and the whole-number win matrix, or a ValueError naming what is wrong."""
    if isinstance(counts, PairCounts):
        items, wins = counts.items, counts.wins
    else:
        wins = np.asarray(counts, dtype=np.float64)
        if wins.ndim != 2 or wins.shape[0] != wins.shape[1]:
            raise ValueError(f"counts must be a square win matrix, got shape {wins.shape}")
        items = tuple(str(i) for i in range(wins.shape[0]))
    k = len(items)
    if k < 1:
        raise ValueError("counts must hold at least one item")
    if k > SUPPORT_ENUMERATION_MAX_ITEMS:
        raise ValueError(
            f"counts has {k} items; the identified intervals test all {2 ** (k - 1)} odd "
            f"candidate supports and are limited to {SUPPORT_ENUMERATION_MAX_ITEMS} items: "
            "keep the most compared items (--top), or use the conservative intervals"
        )
    if not np.isfinite(wins).all() or (wins < 0).any():
        raise ValueError("counts must hold finite non-negative wins")
    off = ~np.eye(k, dtype=bool)
    fractional = off & (wins != np.round(wins))
    if fractional.any():
        i, j = np.argwhere(fractional)[0]
        raise ValueError(
            f"counts: pair ({items[i]}, {items[j]}) has {wins[i, j]:g} wins; the identified "
            "intervals resample each pair binomially and need whole counts (count ties with "
            "ties='drop', or use the conservative intervals)"
        )
    never = off & (wins + wins.T == 0)
    if never.any():
        i, j = np.argwhere(never)[0]
        raise ValueError(
            f"counts: pair ({items[i]}, {items[j]}) was never compared; the identified "
            "intervals need every pair compared (count with unobserved='drop-items', or use "
            "the conservative intervals)"
        )
    return items, wins


def identified_intervals(
    counts: PairCounts | ArrayLike,
    rng: np.random.Generator,
    *,
    confidence: float = 0.95,
    resamples: int = 400,
) -> IdentifiedIntervals:
    """Weight intervals and in/out/undecided labels of a log's von Neumann winner.

    Parameters
    ----------
    counts : PairCounts or array_like, shape (K, K)
        The log's counts (:func:`.counts.count_pairs`), or a matrix ``wins[i, j]`` of the
        comparisons ``i`` won against ``j`` (items named ``"0"``, ``"1"``, ...). Whole
        numbers, every pair compared, at most
        :data:`cdbandits.limits.SUPPORT_ENUMERATION_MAX_ITEMS` items.
    rng : numpy.random.Generator
        The only source of randomness (the resamples).
    confidence : float, optional
        Joint level of the support set, the labels and the intervals, in (0, 1).
    resamples : int, optional
        Parametric bootstrap resamples for the critical values, at least
        ``20 / (1 - confidence)``.

    Returns
    -------
    IdentifiedIntervals

    Raises
    ------
    ValueError
        Bad arguments, or counts outside what the construction handles (the message says
        what to do).
    SolverError, CertificationError
        HiGHS failed, or an answer could not be certified.
    """
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    if not (isinstance(confidence, float | int) and 0.0 < confidence < 1.0):
        raise ValueError(f"confidence must lie in (0, 1), got {confidence!r}")
    least = int(np.ceil(20.0 / (1.0 - confidence) - 1e-9))
    if not (isinstance(resamples, int | np.integer) and least <= resamples <= MAX_RESAMPLES):
        raise ValueError(
            f"resamples must be an integer from {least} (20 / (1 - confidence)) to "
            f"{MAX_RESAMPLES}, got {resamples!r}"
        )
    items, wins = _validated_wins(counts)
    k = len(items)
    comparisons = wins + wins.T
    estimate = smoothed_skew(wins, comparisons)
    q = (wins + 1.0) / (comparisons + 2.0)
    variances = 4.0 * q * (1.0 - q) / (comparisons + 2.0)
    np.fill_diagonal(variances, 0.0)
    noise = binomial_noise(wins, int(resamples), rng)

    low, high = np.ones(k), np.zeros(k)
    in_all, in_any = np.ones(k, dtype=bool), np.zeros(k, dtype=bool)
    supports: list[tuple[int, ...]] = []
    distances: list[float] = []
    critical_values: list[float] = []
    candidates = odd_subsets(k)
    for subsets in candidates.values():
        tests = support_tests(estimate, variances, noise, subsets, float(confidence))
        if not tests.kept.any():
            continue
        support_low, support_high = _weight_ranges(tests)
        for index, s_low, s_high in zip(
            np.flatnonzero(tests.kept), support_low, support_high, strict=True
        ):
            support = tests.subsets[index]
            member = np.zeros(k, dtype=bool)
            member[support] = True
            item_low, item_high = np.zeros(k), np.zeros(k)
            item_low[support], item_high[support] = s_low, s_high
            low, high = np.minimum(low, item_low), np.maximum(high, item_high)
            in_all &= member
            in_any |= member
            supports.append(tuple(int(i) for i in support))
            distances.append(float(tests.distance[index]))
            critical_values.append(float(tests.critical[index]))
    if not supports:
        low, high = np.zeros(k), np.ones(k)
        labels = ("undecided",) * k
    else:
        labels = tuple(
            "in" if a else ("undecided" if b else "out")
            for a, b in zip(in_all, in_any, strict=True)
        )
    return IdentifiedIntervals(
        items=items,
        low=np.clip(low, 0.0, 1.0) + 0.0,
        high=np.clip(high, 0.0, 1.0) + 0.0,
        labels=labels,
        supports=tuple(supports),
        distances=np.array(distances),
        critical_values=np.array(critical_values),
        candidates=sum(len(subsets) for subsets in candidates.values()),
        confidence=float(confidence),
        resamples=int(resamples),
    )
