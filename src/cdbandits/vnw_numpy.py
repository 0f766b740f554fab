"""Certified von Neumann winner in plain NumPy: the small-matrix path of the command line.

Importing numba and loading the cached kernels of :mod:`cdbandits.vnw_kernels` costs about
half a second of CPU time, far more than solving a matrix of a few dozen arms. This module
solves such a matrix without numba, for a process that solves one matrix and exits
(``cdbandits winners m.csv``); :func:`cdbandits.winners.von_neumann_winner` takes this path
with ``engine="numpy"``, or with ``engine="auto"`` up to :data:`NUMPY_MAX_K` arms.

It returns the same point as the compiled kernel (see :mod:`cdbandits.winners`): on the
matrix ``S = P / max|P|``,

1. an arm that beats every other one strictly is the unique vNW (Condorcet shortcut);
2. otherwise Mehrotra's predictor-corrector method follows the central path
   ``w * (S.T @ w - t) = mu``, ``sum(w) = 1`` towards the analytic centre of the optimal face;
   once ``mu`` is small and every arm's weight and value differ by a factor of 1000, the
   support ``U = {b : w[b] > s[b]}`` (the union of the supports of all vNWs) is read off and
   the point is snapped onto the face ``{S[U, U].T @ w = 0, sum(w) = 1}``: when that is a
   single point, it is the unique vNW, computed by one solve of the equalizer system
   ``(S + 2)[U, U] y = 1``; otherwise the analytic centre, maximising
   ``sum log w[U] + sum log (S.T @ w)[not U]`` over the face, is found by Newton's method
   (the same infeasible-start iteration as the kernel's);
3. the snapped point is accepted when ``min_b (S.T @ w)[b] >= -CERTIFICATE_TOL`` and it is
   strictly complementary (every arm has ``w[b] > 0`` or ``(S.T @ w)[b] > TIE_TOL``); once
   ``mu < FINAL_MU`` a certified point is accepted as it is. Nothing certified: ``None``,
   and the caller raises.

The compiled kernel finds unique vNWs by a simplex method instead of the interior point
method, so the two agree to rounding, not bit for bit; the tests cross-check them and the
cvxpy reference.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "CERTIFICATE_TOL",
    "CONDORCET",
    "FINAL_MU",
    "IDENTIFY_MU",
    "INTERIOR_POINT",
    "NUMPY_MAX_K",
    "TIE_TOL",
    "solve",
]

#: ``engine="auto"`` of :func:`cdbandits.winners.von_neumann_winner` solves matrices with at
#: most this many arms here: up to it one solve takes far less than loading numba (tens of
#: milliseconds at 200 arms against about half a second).
NUMPY_MAX_K = 200

#: A returned vNW satisfies ``min_b (S.T @ w)[b] >= -CERTIFICATE_TOL`` (``S`` scaled to max 1).
CERTIFICATE_TOL = 1e-9

#: An arm outside the support whose value is at most this may belong to another vNW.
TIE_TOL = 1e-9

#: ``mu`` below which the support is read off an interior point whose partition is clear.
IDENTIFY_MU = 1e-6

#: ``mu`` below which a certified point is accepted even if not strictly complementary.
FINAL_MU = 1e-15

#: Singular values of the face's equalizer system below this fraction of the largest one
#: count as zero (directions along which the vNW is not unique).
RANK_TOL = 1e-9

#: Interior point iterations, and Newton iterations of the analytic centre, before giving up.
MAX_INTERIOR_ITERATIONS = 120
MAX_CENTRE_ITERATIONS = 50

#: Squared Newton decrement (the step's length in the local norm, squared) below which the
#: centring takes full Newton steps without a line search: the barrier is self-concordant, so
#: there they stay positive and converge quadratically. The line search could not take them:
#: its test cannot resolve gains below the rounding of its objective (a sum of up to K
#: logarithms), and it stalled there, halving its step, until MAX_CENTRE_ITERATIONS.
#: (Shared with the compiled kernel, :mod:`cdbandits.vnw_kernels`.)
NEWTON_REGION = 1e-2

#: Squared Newton decrement at which the centring stops (after that full step).
CENTRE_DECREMENT = 1e-20

#: A point this close to the face's affine hull, relative to its largest coordinate, is on it
#: for the centring: the Newton step's rounding leaves offsets of about ``1e-15`` times the
#: number of arms.
FACE_OFFSET = 1e-12

#: Names of the paths (the ``solver`` of :class:`cdbandits.winners.VonNeumannWinner`).
CONDORCET, INTERIOR_POINT = "condorcet", "numpy_interior_point"


def solve(P: NDArray[np.float64]) -> tuple[str | None, NDArray[np.float64]]:
    """Certified vNW of a skew-form matrix (validated by the caller).

    Parameters
    ----------
    P : ndarray of float64, shape (K, K)
        Skew-form preference matrix.

    Returns
    -------
    path : str or None
        :data:`CONDORCET` or :data:`INTERIOR_POINT`; ``None`` when no certified answer was
        found (the weights are then zero).
    weights : ndarray of float64, shape (K,)
        The vNW (see the module docstring for which one when it is not unique).
    """
    k = P.shape[0]
    weights = np.zeros(k)
    winner = _condorcet(P)
    if winner is not None:
        weights[winner] = 1.0
        return CONDORCET, weights
    scale = np.abs(P).max()
    S = P / scale if scale > 0 else P
    found = _interior_point(S)
    if found is None:
        return None, weights
    return INTERIOR_POINT, found


def _condorcet(P: NDArray[np.float64]) -> int | None:
    """The arm beating all others strictly, or ``None``."""
    beaten = np.count_nonzero(P > 0, axis=1)
    winners = np.flatnonzero(beaten == P.shape[0] - 1)
    return int(winners[0]) if winners.size else None


def _accept(S: NDArray[np.float64], w: NDArray[np.float64] | None, strict: bool) -> bool:
    """Certified (and, if ``strict``, strictly complementary) distribution?"""
    if w is None or not np.isfinite(w).all() or w.min() < 0 or abs(w.sum() - 1) > 1e-12:
        return False
    values = w @ S
    if not values.min() >= -CERTIFICATE_TOL:
        return False
    return not strict or bool(np.all((w > 0) | (values > TIE_TOL)))


def _interior_point(S: NDArray[np.float64]) -> NDArray[np.float64] | None:
    """Mehrotra's method on the central path, then the snap onto the optimal face."""
    k = S.shape[0]
    w = np.full(k, 1.0 / k)
    t = (w @ S).min() - 1.0
    # Newton system in (dw, dt): (S.T + diag(s / w)) dw - dt = rhs, sum(dw) = 0.
    system = np.zeros((k + 1, k + 1))
    system[:k, :k] = S.T
    system[:k, k] = -1.0
    system[k, :k] = 1.0
    diagonal = np.arange(k)
    rhs = np.zeros(k + 1)
    for _ in range(MAX_INTERIOR_ITERATIONS):
        s = w @ S - t
        mu = (w @ s) / k
        clear = bool(np.all(np.maximum(w, s) >= 1e3 * np.minimum(w, s)))
        final = mu < FINAL_MU or not mu > 0.0
        if (clear and mu < IDENTIFY_MU) or final:
            candidate = _face_point(S, w > s, w, s)
            if _accept(S, candidate, strict=not final):
                return candidate
            if not mu > 0.0:
                return None
        system[diagonal, diagonal] = S[diagonal, diagonal] + s / w
        rhs[:k] = -s
        try:
            dw, dt = _split(np.linalg.solve(system, rhs))
            ds = dw @ S - dt
            step = _step_length(w, dw, s, ds)
            mu_affine = ((w + step * dw) @ (s + step * ds)) / k
            sigma = (mu_affine / mu) ** 3
            rhs[:k] = (sigma * mu - w * s - dw * ds) / w
            dw, dt = _split(np.linalg.solve(system, rhs))
        except np.linalg.LinAlgError:
            return None
        ds = dw @ S - dt
        step = min(1.0, 0.995 * _step_length(w, dw, s, ds))
        w = np.maximum(w + step * dw, 1e-300)
        w /= w.sum()
        t += step * dt
        if not (np.isfinite(w).all() and np.isfinite(t)):
            return None
    return None


def _split(direction: NDArray[np.float64]) -> tuple[NDArray[np.float64], float]:
    return direction[:-1], float(direction[-1])


def _step_length(
    w: NDArray[np.float64], dw: NDArray[np.float64], s: NDArray[np.float64], ds: NDArray[np.float64]
) -> float:
    """Largest step in [0, 1] keeping ``w`` and ``s`` non-negative."""
    ratios = np.concatenate([-w[dw < 0] / dw[dw < 0], -s[ds < 0] / ds[ds < 0], [1.0]])
    return float(ratios.min())


def _face_point(
    S: NDArray[np.float64],
    inside: NDArray[np.bool_],
    start_w: NDArray[np.float64],
    start_s: NDArray[np.float64],
) -> NDArray[np.float64] | None:
    """The vNW with support ``inside`` at the analytic centre of its face, or ``None``.

    The face's affine hull ``{S[U, U].T w = 0, sum(w) = 1}`` is ``base + N z`` by a singular
    value decomposition (rank decided at ``RANK_TOL``). A single point is recomputed by the
    equalizer system; otherwise Newton's method with a backtracking line search maximises
    ``sum log w[U] + sum log (S.T w)[not U]``. It starts from the interior point's weights
    ``start_w[U]`` and values ``start_s[not U]`` (positive, but off the face by rounding) with
    infeasible-start steps, which reach the face while keeping every coordinate positive.
    """
    support = np.flatnonzero(inside)
    others = np.flatnonzero(~inside)
    n = support.size
    if n == 0:
        return None
    hull = np.vstack([S[np.ix_(support, support)].T, np.ones(n)])
    left, singular, right = np.linalg.svd(hull, full_matrices=False)
    rank = int(np.count_nonzero(singular > RANK_TOL * singular[0]))
    if rank == n:
        return _equalizer(S, support)
    base = right[:rank].T @ (left[n, :rank] / singular[:rank])
    directions = right[rank:].T
    value_map = S[np.ix_(support, others)].T  # (S.T w)[others] = value_map @ w[U]
    value_directions = value_map @ directions
    weights, values = start_w[support], start_s[others]
    if weights.min() <= 0 or (values.size and values.min() <= 0):
        return None

    def on_face(w: NDArray[np.float64]) -> NDArray[np.float64]:
        return base + directions @ (directions.T @ (w - base))

    for _ in range(MAX_CENTRE_ITERATIONS):
        offset_w = on_face(weights) - weights
        offset_v = value_map @ (weights + offset_w) - values
        inverse_w, inverse_v = 1.0 / weights, 1.0 / values
        scaled_w = directions * inverse_w[:, None]
        scaled_v = value_directions * inverse_v[:, None]
        rhs = directions.T @ (inverse_w - inverse_w**2 * offset_w)
        rhs += value_directions.T @ (inverse_v - inverse_v**2 * offset_v)
        try:
            z = np.linalg.solve(scaled_w.T @ scaled_w + scaled_v.T @ scaled_v, rhs)
        except np.linalg.LinAlgError:
            return None
        step_w = offset_w + directions @ z
        step_v = offset_v + value_directions @ z
        feasible = np.abs(offset_w).max() <= FACE_OFFSET * weights.max() and (
            values.size == 0 or np.abs(offset_v).max() <= FACE_OFFSET * max(1.0, values.max())
        )
        decrement = np.sum((step_w * inverse_w) ** 2) + np.sum((step_v * inverse_v) ** 2)
        if feasible and decrement < NEWTON_REGION:  # full steps converge quadratically
            weights, values = weights + step_w, values + step_v
            if decrement < CENTRE_DECREMENT:
                break
            continue
        objective = np.log(weights).sum() + np.log(values).sum()
        slope = step_w @ inverse_w + step_v @ inverse_v
        length = 1.0
        while length > 1e-12:
            trial_w, trial_v = weights + length * step_w, values + length * step_v
            if trial_w.min() > 0 and (values.size == 0 or trial_v.min() > 0):
                if not feasible:
                    break
                trial = np.log(trial_w).sum() + np.log(trial_v).sum()
                if trial >= objective + 0.25 * length * slope:
                    break
            length *= 0.5
        else:
            break  # no step keeps every coordinate positive: stop where the point is
        weights, values = trial_w, trial_v
    weights = on_face(weights)
    if weights.min() <= 0:
        return None
    w = np.zeros(S.shape[0])
    w[support] = weights / weights.sum()
    return w


def _equalizer(S: NDArray[np.float64], support: NDArray[np.int64]) -> NDArray[np.float64] | None:
    """The solution of ``(S + 2)[U, U] y = 1`` normalised to sum 1, zero off ``U``."""
    system = S[np.ix_(support, support)] + 2.0
    ones = np.ones(support.size)
    try:
        y = np.linalg.solve(system, ones)
        y += np.linalg.solve(system, ones - system @ y)  # one step of iterative refinement
    except np.linalg.LinAlgError:
        return None
    total = y.sum()
    if not total > 0:
        return None
    w = np.zeros(S.shape[0])
    w[support] = y / total
    return w
