"""Batched, certified von Neumann winners of many small preference matrices.

:func:`cdbandits.winners.von_neumann_winner` solves one LP with cvxpy (about 2.5 ms at
K = 10). The Appendix A/B experiments need a million small matrices, most of them K-subsets
of one 136 x 136 matrix, so this module solves them in a compiled loop (numba), one matrix
per iteration, several matrices in parallel:

1. **Condorcet shortcut.** A knock-out pass finds the only possible Condorcet winner in
   ``K - 1`` comparisons and a second pass checks it; if it beats every other arm strictly,
   the vNW is that arm (``exploitability == 0`` exactly).
2. **Double oracle.** A restricted set ``S`` of arms starts at the knock-out survivor. Its
   restricted game is solved exactly (below), then the best response of the opponent over
   *all* K arms is computed, ``values = P.T @ w``. If an arm outside the support has
   ``values[b] < -TIE_TOL`` the most negative one joins ``S`` and the loop repeats.
3. **Exact restricted solve.** For a generic skew-symmetric matrix the vNW is unique and
   its support ``T`` has odd size; ``w_T`` is the solution of the *equalizer system*
   ``P[T, T].T @ w_T = 0, sum(w_T) = 1``. The restricted game on ``S`` is solved by trying
   candidate supports: first the ones obtained from the previous support by one pivot
   (add the new arm, drop one arm or add one more arm of ``S``), then every odd subset of
   ``S`` containing the new arm (which the new restricted vNW must contain: without it the
   previous, beaten, solution would be the restricted vNW again), by increasing size. A
   candidate is accepted when its equalizer system is non-singular, its weights are
   positive and no arm of ``S`` beats it by more than ``EQUALITY_TOL``.
4. **Certificate and uniqueness.** The loop ends when every arm outside the support has
   ``values[b] > TIE_TOL``. Then the answer is the *unique* vNW: strict complementarity
   forces every vNW onto ``T``, and the non-singular equalizer system has one solution
   there. Its certificate ``min_b values[b]`` is checked against ``CERTIFICATE_TOL``,
   exactly as the reference does.
5. **cvxpy path.** A matrix is passed to :func:`cdbandits.winners.von_neumann_winner`
   (LP + polish + the same certificate) when the compiled loop cannot prove its answer:
   an arm outside the support with ``|values[b]| <= TIE_TOL`` (exact ties, clones: the vNW
   may not be unique), no acceptable candidate support (degenerate restricted game), a
   restricted set larger than ``max_restricted``, or a failed certificate. The path each
   matrix took is recorded in :attr:`BatchedVonNeumann.method` and the reason in
   :attr:`BatchedVonNeumann.fallback_reason`.

**Which point is returned.** Every answer of the compiled loop is the unique vNW of its
matrix, so it agrees with the reference up to rounding. Every matrix whose vNW may not be
unique (ties, clones) goes through the reference, so the returned point is the reference's:
the polished interior-point solution (clones share weight equally). The support is the set
of arms with positive weight, as in the reference.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
from numba import njit, prange
from numpy.typing import ArrayLike, NDArray

from .preference import SYMMETRY_TOL, PreferenceMatrixError, as_skew
from .winners import CERTIFICATE_TOL, von_neumann_winner

__all__ = [
    "DEFAULT_MAX_RESTRICTED",
    "ENUMERATION_LIMIT",
    "EQUALITY_TOL",
    "FALLBACK_REASONS",
    "METHODS",
    "PIVOT_TOL",
    "TIE_TOL",
    "BatchedVonNeumann",
    "subset_von_neumann_winners",
    "von_neumann_winners",
]

#: Names of the solution paths, indexed by :attr:`BatchedVonNeumann.method`.
METHODS: tuple[str, ...] = ("condorcet", "double_oracle", "cvxpy")

#: Why a matrix went through the cvxpy path, indexed by
#: :attr:`BatchedVonNeumann.fallback_reason` (``"none"`` for the compiled paths).
FALLBACK_REASONS: tuple[str, ...] = (
    "none",
    "possible_tie",
    "degenerate_restricted_game",
    "restricted_set_limit",
    "not_certified",
)

_CONDORCET, _DOUBLE_ORACLE, _CVXPY = 0, 1, 2
_NONE, _POSSIBLE_TIE, _DEGENERATE, _LIMIT, _NOT_CERTIFIED = 0, 1, 2, 3, 4

#: An arm outside the support whose best-response value lies in ``[-TIE_TOL, TIE_TOL]``
#: may be part of another vNW (ties, clones); such a matrix goes through cvxpy.
TIE_TOL = 1e-9

#: Accepted residual of the restricted equilibrium conditions of a candidate support. It is
#: below :data:`TIE_TOL`, so an arm added to the restricted set is never already in it and
#: the double oracle ends after at most K rounds.
EQUALITY_TOL = 1e-11

#: Smallest accepted pivot (the matrices' entries are at most 1) of the Gaussian
#: elimination of an equalizer system; a smaller one means the system is (nearly) singular,
#: i.e. the candidate support does not determine the weights.
PIVOT_TOL = 1e-12

#: Largest number of other arms of the restricted set over which every odd subset is tried
#: when no one-pivot candidate is acceptable (2**ENUMERATION_LIMIT candidates at most).
ENUMERATION_LIMIT = 14

#: Largest restricted set the double oracle may grow before handing the matrix to cvxpy.
#: MSLR sub-matrices need at most about 10 arms.
DEFAULT_MAX_RESTRICTED = 40


@dataclass(frozen=True)
class BatchedVonNeumann:
    """Certified von Neumann winners of a batch of matrices.

    Attributes
    ----------
    weights : ndarray of float64, shape (n, K)
        The vNW of every matrix; zero outside its support, sums to 1.
    exploitability : ndarray of float64, shape (n,)
        Certificate ``min_b (P.T @ w)[b]`` of every answer, ``>= -CERTIFICATE_TOL``.
    method : ndarray of int8, shape (n,)
        Index into :data:`METHODS`: the path that produced the answer.
    fallback_reason : ndarray of int8, shape (n,)
        Index into :data:`FALLBACK_REASONS`: why the compiled loop handed the matrix to
        cvxpy (0 = it did not).
    restricted_size : ndarray of int16, shape (n,)
        Number of arms in the double oracle's final restricted set (1 for the Condorcet
        shortcut; where the compiled loop stopped, for the cvxpy path).
    """

    weights: NDArray[np.float64]
    exploitability: NDArray[np.float64]
    method: NDArray[np.int8]
    fallback_reason: NDArray[np.int8]
    restricted_size: NDArray[np.int16]

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

    def fallback_counts(self) -> dict[str, int]:
        """Number of matrices sent to cvxpy for each reason of :data:`FALLBACK_REASONS`."""
        counts = np.bincount(self.fallback_reason, minlength=len(FALLBACK_REASONS))
        return {name: int(count) for name, count in zip(FALLBACK_REASONS, counts, strict=True)}


@njit(cache=True)
def _solve_equalizer(
    matrix: NDArray[np.float64],
    arms: NDArray[np.int64],
    size: int,
    system: NDArray[np.float64],
    out: NDArray[np.float64],
) -> bool:
    """Solve ``P[T, T].T @ w = 0`` (last equation replaced by ``sum(w) = 1``) into ``out``.

    ``arms[:size]`` holds the global row indices of ``T``; ``system`` is scratch space of at
    least ``size x (size + 1)``. The dropped equation is implied when the candidate is valid
    (see the residual check of :func:`_try_support`). Returns False when a pivot is below
    ``PIVOT_TOL`` (the weights are not determined by the support).
    """
    for row in range(size - 1):
        for col in range(size):
            system[row, col] = matrix[arms[col], arms[row]]
        system[row, size] = 0.0
    for col in range(size):
        system[size - 1, col] = 1.0
    system[size - 1, size] = 1.0
    for col in range(size):
        pivot_row = col
        for row in range(col + 1, size):
            if abs(system[row, col]) > abs(system[pivot_row, col]):
                pivot_row = row
        if abs(system[pivot_row, col]) < PIVOT_TOL:
            return False
        if pivot_row != col:
            for j in range(col, size + 1):
                system[col, j], system[pivot_row, j] = system[pivot_row, j], system[col, j]
        for row in range(col + 1, size):
            factor = system[row, col] / system[col, col]
            if factor != 0.0:
                for j in range(col, size + 1):
                    system[row, j] -= factor * system[col, j]
    for row in range(size - 1, -1, -1):
        total = system[row, size]
        for j in range(row + 1, size):
            total -= system[row, j] * out[j]
        out[row] = total / system[row, row]
    return True


@njit(cache=True)
def _try_support(
    matrix: NDArray[np.float64],
    candidate: NDArray[np.int64],
    size: int,
    restricted: NDArray[np.int64],
    n_restricted: int,
    system: NDArray[np.float64],
    weights_out: NDArray[np.float64],
) -> bool:
    """Is ``candidate[:size]`` the support of a vNW of the game restricted to ``restricted``?

    On success its normalised weights are in ``weights_out[:size]``.
    """
    if not _solve_equalizer(matrix, candidate, size, system, weights_out):
        return False
    total = 0.0
    for i in range(size):
        if not weights_out[i] > 0.0:
            return False
        total += weights_out[i]
    for i in range(size):
        weights_out[i] /= total
    for r in range(n_restricted):
        arm = restricted[r]
        value = 0.0
        inside = False
        for i in range(size):
            value += weights_out[i] * matrix[candidate[i], arm]
            if candidate[i] == arm:
                inside = True
        if inside:
            if abs(value) > EQUALITY_TOL:
                return False
        elif value < -EQUALITY_TOL:
            return False
    return True


@njit(cache=True)
def _next_combination(mask: np.int64) -> np.int64:
    """Gosper's hack: the next larger integer with the same number of set bits."""
    lowest = mask & -mask
    ripple = mask + lowest
    return (((ripple ^ mask) >> 2) // lowest) | ripple


@njit(cache=True)
def _restricted_vnw(
    matrix: NDArray[np.float64],
    restricted: NDArray[np.int64],
    n_restricted: int,
    support: NDArray[np.int64],
    n_support: int,
    support_weights: NDArray[np.float64],
    candidate: NDArray[np.int64],
    trial_weights: NDArray[np.float64],
    system: NDArray[np.float64],
) -> int:
    """Solve the game restricted to ``restricted[:n_restricted]`` after its last arm joined.

    ``support[:n_support]`` is the previous restricted vNW's support (global indices); the
    new support and weights overwrite ``support`` and ``support_weights``. ``candidate``,
    ``trial_weights`` and ``system`` are scratch space. Returns the new support size, 0 if
    no candidate support is acceptable (degenerate restricted game), or -1 if the pivots
    failed and the restricted set is too large to try every odd subset.
    """
    new_arm = restricted[n_restricted - 1]

    # One pivot from the previous support: add the new arm and drop one old arm ...
    for dropped in range(n_support):
        size = 0
        for i in range(n_support):
            if i != dropped:
                candidate[size] = support[i]
                size += 1
        candidate[size] = new_arm
        size += 1
        if _try_support(matrix, candidate, size, restricted, n_restricted, system, trial_weights):
            support[:size] = candidate[:size]
            support_weights[:size] = trial_weights[:size]
            return size
    # ... or add the new arm and one more arm of the restricted set.
    for r in range(n_restricted - 1):
        extra = restricted[r]
        already = False
        for i in range(n_support):
            if support[i] == extra:
                already = True
        if already:
            continue
        candidate[:n_support] = support[:n_support]
        candidate[n_support] = new_arm
        candidate[n_support + 1] = extra
        size = n_support + 2
        if _try_support(matrix, candidate, size, restricted, n_restricted, system, trial_weights):
            support[:size] = candidate[:size]
            support_weights[:size] = trial_weights[:size]
            return size

    # Every odd subset containing the new arm, by increasing size.
    others = n_restricted - 1
    if others > ENUMERATION_LIMIT:
        return -1
    for n_others in range(0, others + 1, 2):
        if n_others == 0:
            mask = np.int64(0)
        else:
            mask = (np.int64(1) << n_others) - 1
        while mask < (np.int64(1) << others):
            size = 0
            for bit in range(others):
                if (mask >> bit) & 1:
                    candidate[size] = restricted[bit]
                    size += 1
            candidate[size] = new_arm
            size += 1
            if _try_support(
                matrix, candidate, size, restricted, n_restricted, system, trial_weights
            ):
                support[:size] = candidate[:size]
                support_weights[:size] = trial_weights[:size]
                return size
            if n_others == 0:
                break
            mask = _next_combination(mask)
    return 0


@njit(cache=True)
def _solve_one(
    matrix: NDArray[np.float64],
    arms: NDArray[np.int64],
    weights: NDArray[np.float64],
    max_restricted: int,
    integer_work: NDArray[np.int64],
    float_work: NDArray[np.float64],
    system: NDArray[np.float64],
    in_support: NDArray[np.bool_],
    values: NDArray[np.float64],
) -> tuple[int, int, float, int]:
    """Condorcet shortcut, then double oracle, for the sub-matrix ``matrix[arms][:, arms]``.

    Writes the weights (positions of ``arms``) into ``weights`` (zeros on entry) and returns
    ``(method, fallback_reason, exploitability, restricted_size)``. The remaining arguments
    are scratch space: ``integer_work`` and ``float_work`` with 3 and 2 rows of length
    ``max_restricted``, ``system`` of ``max_restricted x (max_restricted + 1)``,
    ``in_support`` and ``values`` of length K.
    """
    k = arms.size
    survivor = 0
    for b in range(1, k):
        if matrix[arms[b], arms[survivor]] > 0.0:
            survivor = b
    beats_all = True
    for b in range(k):
        if b != survivor and not matrix[arms[survivor], arms[b]] > 0.0:
            beats_all = False
            break
    if beats_all:
        weights[survivor] = 1.0
        return _CONDORCET, _NONE, 0.0, 1

    # Double oracle on global indices (rows of ``matrix``); positions are recovered at the end.
    restricted, support, candidate = integer_work[0], integer_work[1], integer_work[2]
    support_weights, trial_weights = float_work[0], float_work[1]
    in_support[:k] = False
    restricted[0] = arms[survivor]
    n_restricted = 1
    support[0] = arms[survivor]
    support_weights[0] = 1.0
    n_support = 1
    in_support[survivor] = True
    while True:
        for b in range(k):
            value = 0.0
            for i in range(n_support):
                value += support_weights[i] * matrix[support[i], arms[b]]
            values[b] = value
        best_response = -1
        for b in range(k):
            if not in_support[b] and (best_response < 0 or values[b] < values[best_response]):
                best_response = b
        if best_response < 0 or values[best_response] > TIE_TOL:
            break
        if values[best_response] >= -TIE_TOL:
            return _CVXPY, _POSSIBLE_TIE, np.nan, n_restricted
        if n_restricted == max_restricted:
            return _CVXPY, _LIMIT, np.nan, n_restricted
        restricted[n_restricted] = arms[best_response]
        n_restricted += 1
        n_support = _restricted_vnw(
            matrix,
            restricted,
            n_restricted,
            support,
            n_support,
            support_weights,
            candidate,
            trial_weights,
            system,
        )
        if n_support == 0:
            return _CVXPY, _DEGENERATE, np.nan, n_restricted
        if n_support < 0:
            return _CVXPY, _LIMIT, np.nan, n_restricted
        in_support[:k] = False
        for i in range(n_support):
            for b in range(k):
                if arms[b] == support[i]:
                    in_support[b] = True
    certificate = values[0]
    for b in range(1, k):
        certificate = min(certificate, values[b])
    if not certificate >= -CERTIFICATE_TOL:
        return _CVXPY, _NOT_CERTIFIED, np.nan, n_restricted
    for i in range(n_support):
        for b in range(k):
            if arms[b] == support[i]:
                weights[b] = support_weights[i]
    return _DOUBLE_ORACLE, _NONE, certificate, n_restricted


#: Rows solved one after the other by a thread, sharing its scratch space.
_CHUNK = 256


@njit(cache=True, parallel=True)
def _solve_all(
    matrices: NDArray[np.float64],
    matrix_of_row: NDArray[np.int64],
    subsets: NDArray[np.int64],
    max_restricted: int,
) -> tuple[
    NDArray[np.float64], NDArray[np.float64], NDArray[np.int8], NDArray[np.int8], NDArray[np.int16]
]:
    n, k = subsets.shape
    weights = np.zeros((n, k))
    exploitability = np.empty(n)
    method = np.empty(n, dtype=np.int8)
    reason = np.empty(n, dtype=np.int8)
    restricted_size = np.empty(n, dtype=np.int16)
    n_chunks = (n + _CHUNK - 1) // _CHUNK
    for chunk in prange(n_chunks):
        integer_work = np.empty((3, max_restricted), dtype=np.int64)
        float_work = np.empty((2, max_restricted))
        system = np.empty((max_restricted, max_restricted + 1))
        in_support = np.empty(k, dtype=np.bool_)
        values = np.empty(k)
        for row in range(chunk * _CHUNK, min(n, (chunk + 1) * _CHUNK)):
            path, why, certificate, size = _solve_one(
                matrices[matrix_of_row[row]],
                subsets[row],
                weights[row],
                max_restricted,
                integer_work,
                float_work,
                system,
                in_support,
                values,
            )
            method[row] = path
            reason[row] = why
            exploitability[row] = certificate
            restricted_size[row] = size
    return weights, exploitability, method, reason, restricted_size


def _solve(
    matrices: NDArray[np.float64],
    matrix_of_row: NDArray[np.int64],
    subsets: NDArray[np.int64],
    max_restricted: int,
    fallback_solver: str | None,
) -> BatchedVonNeumann:
    """Run the compiled loop, then the cvxpy reference on every matrix it handed over."""
    if max_restricted < 1:
        raise ValueError(f"max_restricted must be at least 1, got {max_restricted}")
    weights, exploitability, method, reason, restricted_size = _solve_all(
        matrices, matrix_of_row, subsets, max_restricted
    )
    for row in np.flatnonzero(method == _CVXPY):
        arms = subsets[row]
        sub = matrices[matrix_of_row[row]][np.ix_(arms, arms)]
        reference = von_neumann_winner(sub, solver=fallback_solver)
        weights[row] = reference.weights
        exploitability[row] = reference.exploitability
    return BatchedVonNeumann(
        weights=weights,
        exploitability=exploitability,
        method=method,
        fallback_reason=reason,
        restricted_size=restricted_size,
    )


def _as_skew_stack(
    matrices: ArrayLike, convention: Literal["skew", "probability"], tol: float
) -> NDArray[np.float64]:
    """Validate a stack of preference matrices and return exactly skew-symmetric copies."""
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
    max_restricted: int = DEFAULT_MAX_RESTRICTED,
    fallback_solver: str | None = None,
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
    max_restricted : int, optional
        Largest restricted set of the double oracle before the cvxpy path is taken.
    fallback_solver : str, optional
        cvxpy solver of the reference path (``None``: cvxpy's default).
    tol : float, optional
        Tolerance of the validity checks of the matrices.

    Returns
    -------
    BatchedVonNeumann

    Raises
    ------
    cdbandits.preference.PreferenceMatrixError
        If a matrix is invalid; the message names the matrix and the entry.
    cdbandits.winners.CertificationError, cdbandits.winners.SolverError
        If the reference path fails on a matrix handed to it.

    Examples
    --------
    >>> rps = [[0, 1, -1], [-1, 0, 1], [1, -1, 0]]
    >>> result = von_neumann_winners([rps, [[0, 1, 1], [-1, 0, 1], [-1, -1, 0]]])
    >>> result.weights.round(6)
    array([[0.333333, 0.333333, 0.333333],
           [1.      , 0.      , 0.      ]])
    >>> [METHODS[m] for m in result.method]
    ['double_oracle', 'condorcet']
    """
    stack = _as_skew_stack(matrices, convention, tol)
    n, k = stack.shape[:2]
    subsets = np.broadcast_to(np.arange(k, dtype=np.int64), (n, k))
    return _solve(
        stack,
        np.arange(n, dtype=np.int64),
        np.ascontiguousarray(subsets),
        max_restricted,
        fallback_solver,
    )


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
    max_restricted: int = DEFAULT_MAX_RESTRICTED,
    fallback_solver: str | None = None,
) -> BatchedVonNeumann:
    """Certified von Neumann winners of many sub-matrices of one preference matrix.

    Sub-matrix ``i`` is ``P[subsets[i]][:, subsets[i]]``; it is never materialised (except
    for the cvxpy path). Weights are given in the order of ``subsets[i]``.

    Parameters
    ----------
    matrix : array_like, shape (N, N)
        The full preference matrix (validated with :func:`cdbandits.preference.as_skew`).
    subsets : array_like of int, shape (n, K)
        Arm indices of every sub-matrix, distinct within a row.
    convention : {"skew", "probability", "auto"}, optional
        Convention of ``matrix``.
    max_restricted : int, optional
        Largest restricted set of the double oracle before the cvxpy path is taken.
    fallback_solver : str, optional
        cvxpy solver of the reference path (``None``: cvxpy's default).

    Returns
    -------
    BatchedVonNeumann

    Raises
    ------
    cdbandits.preference.PreferenceMatrixError
        If ``matrix`` is invalid.
    ValueError
        If a subset has an index out of range or a repeated arm (the message names it).
    cdbandits.winners.CertificationError, cdbandits.winners.SolverError
        If the reference path fails on a matrix handed to it.
    """
    full = as_skew(matrix, convention)
    rows = _check_subsets(subsets, full.shape[0])
    return _solve(
        full[None],
        np.zeros(rows.shape[0], dtype=np.int64),
        rows,
        max_restricted,
        fallback_solver,
    )
