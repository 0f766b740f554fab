"""Batched, certified von Neumann winners of many preference matrices.

The Appendix A/B experiments need a million small matrices, most of them K-subsets of one
136 x 136 matrix. This module runs the compiled kernel of :mod:`cdbandits.vnw_kernels`
(Condorcet shortcut, simplex method, interior point method; the same kernel as
:func:`cdbandits.winners.von_neumann_winner`, so both return the same point) over a stack of
matrices or over index subsets of one matrix, without materialising the sub-matrices in
Python. A batch worth more than about 10 ms of work is solved several matrices at a time
(numba threads), a smaller one serially (:data:`PARALLEL_WORK`); every factorisation runs
on one BLAS thread (:mod:`cdbandits.blas_threads`).

Every answer is certified (``min_b (P.T @ w)[b] >= -CERTIFICATE_TOL`` relative to the
matrix's largest entry); a matrix that cannot be certified raises
:class:`cdbandits.winners.CertificationError` naming it (there is no fallback solver).

**Which point is returned**: the unique vNW when there is one, else the analytic centre of
the optimal face (support = the union of the supports of all vNWs, clones share weight
equally); see :mod:`cdbandits.winners`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numba
import numpy as np
from numba import njit, prange
from numpy.typing import ArrayLike, NDArray

from .blas_threads import one_blas_thread
from .preference import SYMMETRY_TOL, PreferenceMatrixError, as_skew
from .vnw_kernels import FAILED, solve_one
from .winners import COMPILED_METHODS, CertificationError

__all__ = [
    "METHODS",
    "PARALLEL_WORK",
    "SERIAL_COST_FLOOR",
    "BatchedVonNeumann",
    "subset_von_neumann_winners",
    "von_neumann_winners",
]

#: Names of the solution paths, indexed by :attr:`BatchedVonNeumann.method`: the Condorcet
#: shortcut, the simplex method (unique vNW proven by strict complementarity), the interior
#: point method (dense supports, ties, clones).
METHODS: tuple[str, ...] = COMPILED_METHODS


@dataclass(frozen=True)
class BatchedVonNeumann:
    """Certified von Neumann winners of a batch of matrices.

    Attributes
    ----------
    weights : ndarray of float64, shape (n, K)
        The vNW of every matrix; zero outside its support, sums to 1.
    exploitability : ndarray of float64, shape (n,)
        Certificate ``min_b (P.T @ w)[b]`` of every answer (units of the input).
    method : ndarray of int8, shape (n,)
        Index into :data:`METHODS`: the path that produced the answer.
    """

    weights: NDArray[np.float64]
    exploitability: NDArray[np.float64]
    method: NDArray[np.int8]

    @property
    def support(self) -> NDArray[np.bool_]:
        """Boolean mask of the support of every answer, shape (n, K)."""
        return self.weights > 0

    @property
    def support_size(self) -> NDArray[np.int64]:
        """Number of arms with positive weight, shape (n,)."""
        return np.count_nonzero(self.weights > 0, axis=1).astype(np.int64)

    def method_counts(self) -> dict[str, int]:
        """Number of matrices solved by each path of :data:`METHODS`."""
        counts = np.bincount(self.method, minlength=len(METHODS))
        return {name: int(count) for name, count in zip(METHODS, counts, strict=True)}


#: Estimated serial cost of one matrix of ``K`` arms, in units of about a nanosecond:
#: ``K ** 3 + SERIAL_COST_FLOOR`` (the cubic factorisations, and a floor for the setting up
#: that dominates below about 30 arms).
SERIAL_COST_FLOOR = 20_000

#: A batch runs in parallel (numba threads, one matrix per thread at a time) when its
#: estimated serial cost exceeds this, about 10 ms: below it starting the threads costs more
#: than they save, by far when another process holds a core (the idle threads wait for it).
PARALLEL_WORK = 10_000_000


@njit(cache=True)
def _solve_row(matrices, matrix_of_row, subsets, row, weights, exploitability, method) -> None:
    path, certificate = solve_one(matrices[matrix_of_row[row]], subsets[row], weights[row])
    method[row] = path
    exploitability[row] = certificate


@njit(cache=True)
def _solve_serial(matrices, matrix_of_row, subsets, weights, exploitability, method) -> None:
    for row in range(subsets.shape[0]):
        _solve_row(matrices, matrix_of_row, subsets, row, weights, exploitability, method)


@njit(cache=True, parallel=True)
def _solve_parallel(matrices, matrix_of_row, subsets, weights, exploitability, method) -> None:
    for row in prange(subsets.shape[0]):
        _solve_row(matrices, matrix_of_row, subsets, row, weights, exploitability, method)


def _solve(
    matrices: NDArray[np.float64],
    matrix_of_row: NDArray[np.int64],
    subsets: NDArray[np.int64],
) -> BatchedVonNeumann:
    """Run the compiled kernel on every row; raise on the first uncertified one.

    Serial or parallel by the estimated work (:data:`PARALLEL_WORK`), with one BLAS thread
    (:func:`cdbandits.blas_threads.one_blas_thread`) either way.
    """
    n, k = subsets.shape
    weights = np.zeros((n, k))
    exploitability = np.empty(n)
    method = np.empty(n, dtype=np.int8)
    parallel = n > 1 and n * (k**3 + SERIAL_COST_FLOOR) > PARALLEL_WORK
    solve_rows = _solve_parallel if parallel and numba.get_num_threads() > 1 else _solve_serial
    with one_blas_thread(k + 1):
        solve_rows(matrices, matrix_of_row, subsets, weights, exploitability, method)
    failed = np.flatnonzero(method == FAILED)
    if failed.size:
        row = int(failed[0])
        raise CertificationError(
            f"the von Neumann winner of matrix {row} of the batch (arms "
            f"{subsets[row].tolist()}) could not be certified; {failed.size} matrices failed"
        )
    return BatchedVonNeumann(weights=weights, exploitability=exploitability, method=method)


def _as_skew_stack(
    matrices: ArrayLike, convention: Literal["skew", "probability"], tol: float
) -> NDArray[np.float64]:
    """Validate a stack of preference matrices and return exactly skew-symmetric copies."""
    if not (np.isfinite(tol) and tol >= 0):
        raise ValueError(f"tol must be a finite number >= 0, got {tol!r}")
    stack = np.asarray(matrices, dtype=np.float64)
    if stack.ndim != 3 or stack.shape[1] != stack.shape[2] or stack.shape[1] == 0:
        raise PreferenceMatrixError(
            f"expected a stack of square matrices, shape (n, K, K) with K >= 1; "
            f"got shape {stack.shape}"
        )
    if convention == "probability":
        skew = 2.0 * stack - 1.0
    elif convention == "skew":
        skew = stack
    else:
        raise ValueError(f"convention must be 'skew' or 'probability', got {convention!r}")
    transposed = np.swapaxes(skew, 1, 2)
    diagonal = np.diagonal(skew, axis1=1, axis2=2)
    bad = (
        ~np.isfinite(skew).all(axis=(1, 2))
        | (np.abs(skew) > 1.0 + tol).any(axis=(1, 2))
        | (np.abs(diagonal) > tol).any(axis=1)
        | (np.abs(skew + transposed) > tol).any(axis=(1, 2))
    )
    if bad.any():
        first = int(np.flatnonzero(bad)[0])
        try:
            as_skew(stack[first], convention, tol)
        except PreferenceMatrixError as error:
            raise PreferenceMatrixError(f"matrix {first} of the stack: {error}") from error
    return (skew - transposed) / 2.0


def von_neumann_winners(
    matrices: ArrayLike,
    *,
    convention: Literal["skew", "probability"] = "skew",
    tol: float = SYMMETRY_TOL,
) -> BatchedVonNeumann:
    """Certified von Neumann winners of a stack of preference matrices.

    See the module docstring for the method, the certificate and which point is returned.

    Parameters
    ----------
    matrices : array_like, shape (n, K, K)
        Preference matrices, all of the same size.
    convention : {"skew", "probability"}, optional
        Convention of ``matrices`` (see :mod:`cdbandits.preference`).
    tol : float, optional
        Tolerance of the validity checks of the matrices (finite, ``>= 0``).

    Returns
    -------
    BatchedVonNeumann

    Raises
    ------
    cdbandits.preference.PreferenceMatrixError
        If a matrix is invalid; the message names the matrix and the entry.
    ValueError
        If ``tol`` is NaN, infinite or negative.
    cdbandits.winners.CertificationError
        If a matrix cannot be certified (the message names it).

    Examples
    --------
    >>> rps = [[0, 1, -1], [-1, 0, 1], [1, -1, 0]]
    >>> result = von_neumann_winners([rps, [[0, 1, 1], [-1, 0, 1], [-1, -1, 0]]])
    >>> result.weights.round(6)
    array([[0.333333, 0.333333, 0.333333],
           [1.      , 0.      , 0.      ]])
    >>> [METHODS[m] for m in result.method]
    ['simplex', 'condorcet']
    """
    stack = _as_skew_stack(matrices, convention, tol)
    n, k = stack.shape[:2]
    subsets = np.broadcast_to(np.arange(k, dtype=np.int64), (n, k))
    return _solve(stack, np.arange(n, dtype=np.int64), np.ascontiguousarray(subsets))


def _check_subsets(subsets: ArrayLike, n_arms: int) -> NDArray[np.int64]:
    """Validate index rows: integers in ``[0, n_arms)``, no repeats within a row."""
    array = np.asarray(subsets)
    if array.ndim != 2 or array.shape[1] == 0:
        raise ValueError(f"subsets must have shape (n, K) with K >= 1; got shape {array.shape}")
    if array.size and not np.issubdtype(array.dtype, np.integer):
        raise ValueError(f"subsets must hold integer arm indices; got dtype {array.dtype}")
    array = np.ascontiguousarray(array, dtype=np.int64)
    outside = np.argwhere((array < 0) | (array >= n_arms))
    if outside.size:
        row, col = outside[0]
        raise ValueError(
            f"subset {row} has arm index {array[row, col]} at position {col}; indices must "
            f"lie in [0, {n_arms}) for a {n_arms}-arm matrix"
        )
    ordered = np.sort(array, axis=1)
    repeated = np.flatnonzero((np.diff(ordered, axis=1) == 0).any(axis=1))
    if repeated.size:
        row = int(repeated[0])
        raise ValueError(f"subset {row} repeats an arm: {array[row].tolist()}")
    return array


def subset_von_neumann_winners(
    matrix: ArrayLike,
    subsets: ArrayLike,
    *,
    convention: Literal["skew", "probability", "auto"] = "skew",
) -> BatchedVonNeumann:
    """Certified von Neumann winners of many sub-matrices of one preference matrix.

    Sub-matrix ``i`` is ``P[subsets[i]][:, subsets[i]]``, built inside the compiled kernel.
    Weights are given in the order of ``subsets[i]``.

    Parameters
    ----------
    matrix : array_like, shape (N, N)
        The full preference matrix (validated with :func:`cdbandits.preference.as_skew`).
    subsets : array_like of int, shape (n, K)
        Arm indices of every sub-matrix, distinct within a row.
    convention : {"skew", "probability", "auto"}, optional
        Convention of ``matrix``.

    Returns
    -------
    BatchedVonNeumann

    Raises
    ------
    cdbandits.preference.PreferenceMatrixError
        If ``matrix`` is invalid.
    ValueError
        If a subset has an index out of range or a repeated arm (the message names it).
    cdbandits.winners.CertificationError
        If a sub-matrix cannot be certified (the message names it).
    """
    full = as_skew(matrix, convention)
    rows = _check_subsets(subsets, full.shape[0])
    return _solve(full[None], np.zeros(rows.shape[0], dtype=np.int64), rows)
