"""LU factorisation through LAPACK's ``dgetrf`` in compiled code, factored once, solved often.

``np.linalg.solve`` in numba factors its matrix on every call; the interior point method of
:mod:`cdbandits.vnw_kernels` solves two systems with the same matrix per iteration (the
predictor and the corrector), so it factors once with :func:`lu_factor` and solves twice
with :func:`lu_solve`. ``dgetrf`` is reached through numba's own LAPACK binding (the one its
``np.linalg`` functions use), so the compiled callers stay cacheable.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.np.linalg import _LAPACK, F_INT_nptype, ensure_lapack
from numpy.typing import NDArray

__all__ = ["PIVOT_DTYPE", "lu_factor", "lu_solve"]

ensure_lapack()
_DGETRF = _LAPACK().numba_xxgetrf(types.float64)
_DOUBLE = ord("d")

#: The integer type of :func:`lu_factor`'s pivots (LAPACK's).
PIVOT_DTYPE = F_INT_nptype


@njit(cache=True)
def lu_factor(matrix: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray, bool]:
    """LU factorisation with partial pivoting of a square matrix (left unchanged).

    Returns
    -------
    lu : ndarray, shape (n, n), Fortran order
        ``L`` (unit diagonal, below it) and ``U`` (on and above it).
    pivots : ndarray of LAPACK integers, shape (n,)
        Row ``i`` was swapped with row ``pivots[i] - 1``, in order.
    regular : bool
        False when ``U`` has a zero on its diagonal (the matrix is singular).
    """
    n = matrix.shape[0]
    lu = np.empty((n, n)).T
    lu[:, :] = matrix
    pivots = np.empty(n, dtype=PIVOT_DTYPE)
    info = _DGETRF(_DOUBLE, n, n, lu.ctypes, n, pivots.ctypes)
    return lu, pivots, info == 0


@njit(cache=True)
def lu_solve(
    lu: NDArray[np.float64], pivots: NDArray, rhs: NDArray[np.float64]
) -> NDArray[np.float64]:
    """Solve ``matrix @ x = rhs`` from :func:`lu_factor`'s ``lu`` and ``pivots``."""
    n = rhs.size
    x = rhs.copy()
    for i in range(n):
        swap = pivots[i] - 1
        if swap != i:
            x[i], x[swap] = x[swap], x[i]
    for j in range(n):  # L y = P rhs, column by column (contiguous in Fortran order)
        if x[j] != 0.0:
            for i in range(j + 1, n):
                x[i] -= lu[i, j] * x[j]
    for j in range(n - 1, -1, -1):  # U x = y
        x[j] /= lu[j, j]
        if x[j] != 0.0:
            for i in range(j):
                x[i] -= lu[i, j] * x[j]
    return x
