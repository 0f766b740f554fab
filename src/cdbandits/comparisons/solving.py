"""Certified von Neumann winners of the matrices of one analysis, without numba when small.

An analysis of a log (:mod:`.analysis`) solves one matrix for the point estimate, one per
tier of the rankings and one per resample (two thousand by default). Loading numba and the
cached kernels of :mod:`cdbandits.vnw_kernels` costs about half a second, longer than
solving every resample of a log of a handful of items; so :func:`von_neumann_winners`
chooses the solver by the size of the stack, from its shape alone (the same stack always
gets the same solver):

* at most :data:`ENUMERATION_MAX_K` items: all matrices at once in NumPy. Identical
  matrices (a bootstrap of a small log draws few distinct ones) are solved once. A
  Condorcet winner is the unique vNW. Otherwise the odd-size supports ``U`` are gone through: the
  equalizer system ``(S + 2)[U, U] y = 1`` of the scaled matrix ``S = P / max|P|`` gives the
  lottery ``w = y / sum(y)``, accepted when ``w > TIE_TOL`` on ``U``,
  ``(S.T @ w)[b] > TIE_TOL`` for every arm outside ``U`` and the certificate
  ``min_b (S.T @ w)[b] >= -CERTIFICATE_TOL`` holds. Such a strictly complementary point is
  the unique vNW (every other vNW lives on ``U`` and solves the same non-singular system),
  so it is the point the compiled kernel returns, up to rounding. A matrix without one
  (ties, clones: the vNW is not unique) is solved by :func:`cdbandits.vnw_numpy.solve`, the
  analytic centre of the optimal face;
* a single matrix of at most :data:`~cdbandits.vnw_numpy.NUMPY_MAX_K` items:
  :func:`cdbandits.vnw_numpy.solve`, as the ``winners`` command does for a matrix file;
* anything else: the compiled batched kernel, :func:`cdbandits.batched.von_neumann_winners`.
  Its first use after installation compiles it (about a minute); :func:`compiled_solver_cached`
  says whether that is still to come, so that a command line can announce it.

Every answer is certified as by :mod:`cdbandits.batched`; a matrix without a certified answer
raises :class:`cdbandits.winners.CertificationError` naming it. A matrix with entries beyond
``[-1, 1]`` (a bootstrap resample of the margins of :mod:`.counts`, on the log's scale) is
divided by its largest entry before it is solved: a positive multiple has the same vNW, and
its certificate is reported in the input's units.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..vnw_numpy import CERTIFICATE_TOL, INTERIOR_POINT, NUMPY_MAX_K, RANK_TOL, TIE_TOL, solve
from ..winners import COMPILED_METHODS, CertificationError

__all__ = [
    "ENUMERATION_MAX_K",
    "METHODS",
    "SUPPORT_ENUMERATION",
    "StackWinners",
    "compiled_solver_cached",
    "numba_cache_ready",
    "uses_compiled_solver",
    "von_neumann_winners",
]

#: Stacks of matrices of at most this many items are solved in NumPy, all at once. The
#: number of odd-size supports grows as ``2 ** (K - 1)``: at 7 items a stack of a thousand
#: matrices takes a small fraction of a second, well under loading the compiled kernel.
ENUMERATION_MAX_K = 7

#: Name of the support enumeration's path.
SUPPORT_ENUMERATION = "support_enumeration"

#: Names of the solution paths, indexed by :attr:`StackWinners.method`: the compiled
#: kernel's (:data:`cdbandits.winners.COMPILED_METHODS`, whose first is the Condorcet
#: shortcut, shared by the NumPy paths), then the support enumeration and the NumPy interior
#: point method of :mod:`cdbandits.vnw_numpy`.
METHODS: tuple[str, ...] = (*COMPILED_METHODS, SUPPORT_ENUMERATION, INTERIOR_POINT)

_CONDORCET = 0


@dataclass(frozen=True)
class StackWinners:
    """Certified von Neumann winners of a stack of matrices.

    Attributes
    ----------
    weights : ndarray of float64, shape (n, K)
    exploitability : ndarray of float64, shape (n,)
        Certificate ``min_b (P.T @ w)[b]`` of every answer (units of the input).
    method : ndarray of int8, shape (n,)
        Index into :data:`METHODS`.
    """

    weights: NDArray[np.float64]
    exploitability: NDArray[np.float64]
    method: NDArray[np.int8]


def uses_compiled_solver(k: int, n: int) -> bool:
    """Whether :func:`von_neumann_winners` solves ``n`` matrices of ``k`` items compiled."""
    return k > ENUMERATION_MAX_K and (n > 1 or k > NUMPY_MAX_K)


def numba_cache_ready(dispatcher: Any) -> bool:
    """Whether numba's cache holds compiled code of ``dispatcher`` (a ``cache=True`` function).

    Reads numba's cache index (no compilation); ``False`` when the index is missing, stale
    (the source changed) or cannot be read.
    """
    try:
        return bool(dispatcher._cache._cache_file._load_index())
    except Exception:  # noqa: BLE001 - numba's cache internals; unreadable means "compile"
        return False


def compiled_solver_cached() -> bool:
    """Whether the compiled batched kernels, serial and parallel, are in numba's cache."""
    from ..batched import _solve_parallel, _solve_serial

    return numba_cache_ready(_solve_serial) and numba_cache_ready(_solve_parallel)


def von_neumann_winners(matrices: ArrayLike) -> StackWinners:
    """Certified von Neumann winners of a stack of skew-form matrices (module docstring).

    Parameters
    ----------
    matrices : array_like, shape (n, K, K)
        Skew-symmetric matrices of finite numbers (each is made exactly skew-symmetric).

    Returns
    -------
    StackWinners

    Raises
    ------
    ValueError
        If the stack has the wrong shape or a non-finite entry.
    cdbandits.winners.CertificationError
        If a matrix has no certified answer (the message names it).
    """
    stack = np.asarray(matrices, dtype=np.float64)
    if stack.ndim != 3 or stack.shape[1] != stack.shape[2] or stack.shape[1] == 0:
        raise ValueError(f"expected a stack of shape (n, K, K) with K >= 1, got {stack.shape}")
    if not np.isfinite(stack).all():
        raise ValueError("every entry of the matrices must be a finite number")
    n, k = stack.shape[:2]
    if uses_compiled_solver(k, n):
        from ..batched import von_neumann_winners as compiled

        scale = np.maximum(np.abs(stack).max(axis=(1, 2)), 1.0)
        solved = compiled(stack / scale[:, None, None])
        return StackWinners(solved.weights, solved.exploitability * scale, solved.method)
    stack = (stack - stack.transpose(0, 2, 1)) / 2.0
    if k <= ENUMERATION_MAX_K:
        distinct, index = np.unique(stack.reshape(n, k * k), axis=0, return_inverse=True)
        weights, method = _enumerate(distinct.reshape(-1, k, k))
        weights, method = weights[index.ravel()], method[index.ravel()]
    else:
        weights, method = _one_by_one(stack, np.arange(n))
    failed = np.flatnonzero(method < 0)
    if failed.size:
        raise CertificationError(
            f"the von Neumann winner of matrix {int(failed[0])} of the stack ({k} items) could "
            f"not be certified; {failed.size} matrices failed"
        )
    exploitability = np.einsum("bi,bij->bj", weights, stack).min(axis=1)
    return StackWinners(weights, exploitability, method.astype(np.int8))


def _one_by_one(
    stack: NDArray[np.float64], rows: NDArray[np.int64]
) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """:func:`cdbandits.vnw_numpy.solve` on the given matrices; method -1 where it failed."""
    weights = np.zeros((stack.shape[0], stack.shape[1]))
    method = np.full(stack.shape[0], -1, dtype=np.int64)
    for row in rows:
        path, found = solve(stack[row])
        if path is not None:
            weights[row], method[row] = found, METHODS.index(path)
    return weights, method


def _enumerate(stack: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """Condorcet shortcut, then odd supports, then the NumPy path for what is left."""
    n, k = stack.shape[:2]
    weights = np.zeros((n, k))
    method = np.full(n, -1, dtype=np.int64)
    scale = np.abs(stack).max(axis=(1, 2))
    condorcet = (stack > 0).sum(axis=2) == k - 1
    has_winner = condorcet.any(axis=1)
    weights[np.flatnonzero(has_winner), condorcet[has_winner].argmax(axis=1)] = 1.0
    method[has_winner] = _CONDORCET
    open_rows = np.flatnonzero(~has_winner & (scale > 0))
    scaled = stack / np.where(scale > 0, scale, 1.0)[:, None, None]
    for size in range(3, k + 1, 2):
        for support in combinations(range(k), size):
            if not open_rows.size:
                break
            found, lottery = _equalizer(scaled[open_rows], np.array(support))
            rows = open_rows[found]
            weights[rows], method[rows] = lottery, METHODS.index(SUPPORT_ENUMERATION)
            open_rows = open_rows[~found]
    rest = np.flatnonzero(method < 0)
    solved, paths = _one_by_one(stack, rest)
    weights[rest], method[rest] = solved[rest], paths[rest]
    return weights, method


def _equalizer(
    scaled: NDArray[np.float64], support: NDArray[np.int64]
) -> tuple[NDArray[np.bool_], NDArray[np.float64]]:
    """Which scaled matrices have their unique vNW on ``support``, and those vNWs."""
    n, k = scaled.shape[:2]
    system = scaled[:, support[:, None], support[None, :]] + 2.0
    singular = np.linalg.svd(system, compute_uv=False)
    regular = singular[:, -1] > RANK_TOL * singular[:, 0]
    lottery = np.zeros((n, k))
    if regular.any():
        ones = np.ones((int(regular.sum()), support.size, 1))
        y = np.linalg.solve(system[regular], ones)
        y += np.linalg.solve(system[regular], ones - system[regular] @ y)  # one refinement
        y = y[..., 0]
        total = y.sum(axis=1, keepdims=True)
        with np.errstate(invalid="ignore", divide="ignore"):
            lottery[np.ix_(np.flatnonzero(regular), support)] = y / total
    values = np.einsum("bi,bij->bj", lottery, scaled)
    outside = np.ones(k, dtype=bool)
    outside[support] = False
    found = (
        regular
        & np.isfinite(lottery).all(axis=1)
        & (lottery[:, support] > TIE_TOL).all(axis=1)
        & (values[:, outside] > TIE_TOL).all(axis=1)
        & (values.min(axis=1) >= -CERTIFICATE_TOL)
    )
    return found, lottery[found]
