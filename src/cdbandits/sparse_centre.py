"""The analytic centre of an optimal face of a sparse game, by Newton's method on the face.

The optimal face with support ``U`` of a skew-symmetric game ``S`` is
``{w >= 0 : w[not U] = 0, S[U, U].T @ w[U] = 0, sum(w) = 1, S.T @ w >= 0}``. Its analytic
centre maximises ``sum_{a in U} log w[a] + sum_{b in O} log (S.T @ w)[b]`` over the face,
``O`` the other arms (see :mod:`cdbandits.winners`). The equations ``S[U, U].T w = 0`` split
over the *blocks* of ``U``, the connected components of the pairs compared within ``U``:
``w`` restricted to a block lies in the null space of that block's matrix, spanned by the
orthonormal columns of ``N_i`` (a singular value decomposition; an arm compared with no
other arm of ``U`` is a block of its own with ``N_i = [1]``). With ``N`` block diagonal,
``w[U] = N z`` and ``(S.T w)[O] = V N z`` (``V = S[U, O].T``, sparse), the barrier
``phi(z) = sum log (N z) + sum log (V N z)`` is homogeneous of degree ``nu = |U| + |O|``, so
the centre is the maximiser of ``phi(z) - nu * c @ z`` (``c = N.T @ 1``), which satisfies
``c @ z = sum(w) = 1`` by itself: an unconstrained problem in ``r = sum_i rank N_i``
unknowns. Its Hessian ``N.T diag(1/w**2) N + (V N).T diag(1/v**2) (V N)`` is sparse when the
blocks are small (one arm each, mostly, in sparse tournaments).

Newton's method starts from weights and values of an interior point that is off the face by
rounding (*infeasible start*: each step goes to the Newton point of the quadratic model over
the face, shortened to keep every coordinate positive; once a full step is taken the iterates
are on the face), then takes damped steps ``1 / (1 + lambda)`` (``lambda`` the Newton
decrement: the barrier is self-concordant, so they converge), full steps once
``lambda**2 < NEWTON_REGION``, and stops when ``lambda**2 < CENTRE_DECREMENT``.
"""

from __future__ import annotations

import numpy as np
import scipy.linalg
import scipy.sparse.linalg
from numpy.typing import NDArray
from scipy import sparse
from scipy.sparse.csgraph import connected_components

from .vnw_numpy import CENTRE_DECREMENT, MAX_CENTRE_ITERATIONS, NEWTON_REGION, RANK_TOL

__all__ = ["DENSE_HESSIAN_MAX", "DENSE_WORK", "face_centre", "face_directions"]

#: The Newton systems' matrices: dense arrays or scipy sparse arrays.
Matrix = NDArray[np.float64] | sparse.sparray

#: Up to this many unknowns the Newton systems are solved by a dense Cholesky factorisation;
#: above it by a sparse LU in a minimum-degree order (no fill beyond the blocks' couplings).
DENSE_HESSIAN_MAX = 400

#: The Newton systems are formed densely when ``K * r ** 2`` (about their cost) is at most this.
DENSE_WORK = 50_000_000

#: Before the iterates are on the face, each step goes at most this fraction of the way to
#: the nearest zero coordinate (a full step when that is beyond it).
BOUNDARY_FRACTION = 0.99


def face_directions(S_support: sparse.csr_array) -> sparse.csr_array | None:
    """Orthonormal bases of the null spaces of the blocks of ``S[U, U].T``, block diagonal.

    Parameters
    ----------
    S_support : scipy.sparse.csr_array, shape (n, n)
        ``S[U, U]``.

    Returns
    -------
    scipy.sparse.csr_array, shape (n, r), or None
        ``N``; ``None`` when a block's null space is empty (no lottery with support ``U``
        is optimal).
    """
    n = S_support.shape[0]
    count, label = connected_components(S_support, directed=False)
    sizes = np.bincount(label, minlength=count)
    rows, cols, values = [], [], []
    single = np.flatnonzero(sizes[label] == 1)
    rows.append(single)
    cols.append(np.arange(single.size))
    values.append(np.ones(single.size))
    rank_total = single.size
    for block in np.flatnonzero(sizes > 1):
        arms = np.flatnonzero(label == block)
        matrix = S_support[arms][:, arms].toarray().T
        _, singular, right = np.linalg.svd(matrix)
        rank = int(np.count_nonzero(singular > RANK_TOL * singular[0]))
        basis = right[rank:].T
        if basis.shape[1] == 0:
            return None
        local_rows, local_cols = np.nonzero(np.ones(basis.shape, dtype=bool))
        rows.append(arms[local_rows])
        cols.append(rank_total + local_cols)
        values.append(basis[local_rows, local_cols])
        rank_total += basis.shape[1]
    return sparse.csr_array(
        (np.concatenate(values), (np.concatenate(rows), np.concatenate(cols))),
        shape=(n, rank_total),
    )


def _scaled_gram(matrix: Matrix, scale: NDArray[np.float64]) -> Matrix:
    """``matrix.T @ diag(scale ** 2) @ matrix``, dense or sparse like ``matrix``."""
    if sparse.issparse(matrix):
        scaled = sparse.diags_array(scale) @ matrix
    else:
        scaled = matrix * scale[:, None]
    return scaled.T @ scaled


def _newton_point(hessian: Matrix, rhs: NDArray[np.float64]) -> NDArray[np.float64]:
    """Solve the (symmetric positive definite) Newton system; NaN if it is singular."""
    try:
        if not sparse.issparse(hessian) or hessian.shape[0] <= DENSE_HESSIAN_MAX:
            dense = hessian.toarray() if sparse.issparse(hessian) else hessian
            return scipy.linalg.cho_solve(scipy.linalg.cho_factor(dense), rhs)
        lu = scipy.sparse.linalg.splu(
            sparse.csc_matrix(hessian),
            permc_spec="MMD_AT_PLUS_A",
            diag_pivot_thresh=0.0,
            options={"SymmetricMode": True},
        )
        return lu.solve(rhs)
    except (np.linalg.LinAlgError, RuntimeError):
        return np.full(rhs.size, np.nan)


def _barrier(weights: NDArray[np.float64], values: NDArray[np.float64], degree: int) -> float:
    """``phi(z) - nu * c @ z`` at ``w[U] = weights``, ``v[O] = values`` (``c @ z = sum(w)``)."""
    return float(np.log(weights).sum() + np.log(values).sum() - degree * weights.sum())


def face_centre(
    S: sparse.csr_array,
    support: NDArray[np.int64],
    start_weights: NDArray[np.float64],
    start_values: NDArray[np.float64],
) -> NDArray[np.float64] | None:
    """The analytic centre of the optimal face with support ``support`` (module docstring).

    Parameters
    ----------
    S : scipy.sparse.csr_array, shape (K, K)
        The skew-symmetric game.
    support : ndarray of int64
        ``U``, sorted.
    start_weights, start_values : ndarray, shape (K,)
        An interior point's weights (positive on ``U``) and values ``S.T @ w`` (positive off
        ``U``), near the face.

    Returns
    -------
    ndarray, shape (K,), or None
        The centre (zero off ``U``, sums to 1); ``None`` when the start is not positive, a
        block's null space is empty, or Newton's method does not reach the centre.
    """
    k = S.shape[0]
    others = np.setdiff1d(np.arange(k), support, assume_unique=True)
    rows = S[support]
    directions: Matrix | None = face_directions(rows[:, support])
    if directions is None:
        return None
    value_directions: Matrix = sparse.csr_array(rows[:, others].T) @ directions
    if k * directions.shape[1] ** 2 <= DENSE_WORK:
        directions, value_directions = directions.toarray(), value_directions.toarray()
    weights = start_weights[support].astype(np.float64)
    values = start_values[others].astype(np.float64)
    if weights.min() <= 0 or (values.size and values.min() <= 0):
        return None
    degree = support.size + others.size
    ones_in_z = np.asarray(directions.sum(axis=0)).ravel()
    on_face = False
    z = np.zeros(directions.shape[1])
    for _ in range(MAX_CENTRE_ITERATIONS):
        inverse_w, inverse_v = 1.0 / weights, 1.0 / values
        hessian = _scaled_gram(directions, inverse_w) + _scaled_gram(value_directions, inverse_v)
        rhs = directions.T @ (2.0 * inverse_w) + value_directions.T @ (2.0 * inverse_v)
        target = _newton_point(hessian, rhs - degree * ones_in_z)
        if not np.isfinite(target).all():
            return None
        step_w = directions @ target - weights
        step_v = value_directions @ target - values
        if not on_face:
            length = _step_to_boundary(weights, step_w, values, step_v)
            if length >= 1.0:
                z, on_face = target, True
                weights, values = directions @ z, value_directions @ z
            else:
                weights = weights + length * step_w
                values = values + length * step_v
            continue
        decrement = np.sum((step_w * inverse_w) ** 2) + np.sum((step_v * inverse_v) ** 2)
        length = 1.0
        if decrement >= NEWTON_REGION:  # backtrack to a sufficient increase, inside the face
            objective = _barrier(weights, values, degree)
            while length > 1e-12:
                trial_w, trial_v = weights + length * step_w, values + length * step_v
                if (
                    trial_w.min() > 0
                    and (trial_v.size == 0 or trial_v.min() > 0)
                    and _barrier(trial_w, trial_v, degree) >= objective + 0.25 * length * decrement
                ):
                    break
                length *= 0.5
            else:
                return None
        z = z + length * (target - z)
        weights, values = directions @ z, value_directions @ z
        if decrement < CENTRE_DECREMENT:
            break
    if not on_face:
        return None
    centre_support = directions @ z
    if centre_support.min() <= 0:
        return None
    centre = np.zeros(k)
    centre[support] = centre_support / centre_support.sum()
    return centre


def _step_to_boundary(
    weights: NDArray[np.float64],
    step_w: NDArray[np.float64],
    values: NDArray[np.float64],
    step_v: NDArray[np.float64],
) -> float:
    """``min(1, BOUNDARY_FRACTION * (the step length to the nearest zero coordinate))``."""
    ratios = [1.0 / BOUNDARY_FRACTION]
    for point, step in ((weights, step_w), (values, step_v)):
        falling = step < 0
        if falling.any():
            ratios.append(float(np.min(-point[falling] / step[falling])))
    return min(1.0, BOUNDARY_FRACTION * min(ratios))
