"""A compiled dense revised simplex method for ``max c @ v  s.t.  G @ v <= h, v >= 0``, ``h >= 0``.

The LP of :mod:`cdbandits.vnw_kernels`, the game shifted to a positive value
(``max 1 @ y  s.t.  (S + 2) y <= 1, y >= 0``), has this form, so the all-slack basis
(``v = 0``) is feasible and no phase 1 is needed. The basis is kept as the set ``J`` of basic
structural columns and the set ``I`` of *tight* rows (rows whose slack is non-basic),
``|I| = |J| = m``, together with the explicit inverse ``M = G[I, J]^-1``. One pivot costs
``O((rows + cols) m + m^2)``: the reduced costs and the ratio test are combinations of ``m``
contiguous rows of ``G`` or ``G.T`` and the inverse changes by a rank-one update, a bordering
(a row becomes tight) or a deletion (a row becomes slack). The inverse is recomputed with
LAPACK every :data:`REFACTOR_EVERY` pivots.

Pricing is Devex (Forrest and Goldfarb's approximate steepest edge: the largest squared
reduced cost relative to a weight that tracks the length of the variable's edge, updated
from the pivot row at ``O(m cols)`` a pivot); after :data:`BLAND_AFTER` degenerate pivots in
a row it switches to Bland's rule (smallest index), which cannot cycle, until a pivot makes
progress. :func:`solve_lp_from` goes on from a given basis, so a column generation keeps its
basis when columns join (:func:`add_columns`). The answers are not trusted as such: every
caller certifies what it uses.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

__all__ = [
    "BLAND_AFTER",
    "OPTIMAL",
    "ITERATION_LIMIT",
    "PIVOT_TOL",
    "REDUCED_COST_TOL",
    "REFACTOR_EVERY",
    "SINGULAR",
    "UNBOUNDED",
    "solve_lp",
]

#: Status codes of :func:`solve_lp`.
OPTIMAL, ITERATION_LIMIT, UNBOUNDED, SINGULAR = 0, 1, 2, 3

#: A column or slack enters only if its reduced cost exceeds this.
REDUCED_COST_TOL = 1e-11

#: Entries of the entering direction at most this large are not pivots of the ratio test.
PIVOT_TOL = 1e-9

#: Pivots between two recomputations of the basis inverse.
REFACTOR_EVERY = 100

#: Consecutive degenerate pivots after which Bland's rule replaces Dantzig's.
BLAND_AFTER = 20


@njit(cache=True)
def _axpy(factor: float, x: NDArray[np.float64], y: NDArray[np.float64]) -> None:
    """``y += factor * x`` in place."""
    for i in range(y.size):
        y[i] += factor * x[i]


@njit(cache=True)
def _refactor(G, h, tight, basic, m, inverse, values, slack, row_position) -> bool:
    """Recompute ``inverse``, the basic values and the slacks from scratch; False if singular."""
    rows = G.shape[0]
    if m > 0:
        basis = np.empty((m, m))
        for a in range(m):
            for b in range(m):
                basis[a, b] = G[tight[a], basic[b]]
        if not np.isfinite(basis).all():
            return False
        if abs(np.linalg.det(basis)) == 0.0:
            return False
        inverse[:m, :m] = np.linalg.inv(basis)
        for b in range(m):
            total = 0.0
            for a in range(m):
                total += inverse[b, a] * h[tight[a]]
            values[basic[b]] = max(total, 0.0)
    for r in range(rows):
        if row_position[r] >= 0:
            slack[r] = 0.0
            continue
        total = h[r]
        for b in range(m):
            total -= G[r, basic[b]] * values[basic[b]]
        slack[r] = max(total, 0.0)
    return True


@njit(cache=True)
def _update_weights(
    G,
    inverse,
    tight,
    basic,
    m,
    column_position,
    column_weights,
    row_weights,
    move,
    pivot_row,
    work,
) -> None:
    """Devex update of the pricing weights for a pivot (before the basis changes).

    ``move`` is the pivot: ``(entering, leaving_column, leaving_row, pivot)``.
    ``pivot_row`` gets the row of the leaving variable in the tableau, over the columns
    (``work`` over the slacks of the tight rows); every non-basic weight becomes
    ``max(weight, (alpha_j / alpha_q) ** 2 * weight_q)`` and the leaving variable's
    ``max(weight_q / alpha_q ** 2, 1)``.
    """
    entering, leaving_column, leaving_row, pivot = move
    cols = G.shape[1]
    if leaving_column >= 0:  # basic column k leaves: row k of M G[I, :], and M[k, :]
        for a in range(m):
            work[a] = inverse[leaving_column, a]
        pivot_row[:] = 0.0
    else:  # free row r becomes tight: G[r, :] - u G[I, :] with u = G[r, J] M, and -u
        for a in range(m):
            total = 0.0
            for b in range(m):
                total += G[leaving_row, basic[b]] * inverse[b, a]
            work[a] = -total
        pivot_row[:] = G[leaving_row]
    for a in range(m):
        if work[a] != 0.0:
            _axpy(work[a], G[tight[a]], pivot_row)
    if entering < cols:
        reference = column_weights[entering]
    else:
        reference = row_weights[tight[entering - cols]]
    for j in range(cols):
        if column_position[j] < 0 and j != entering:
            ratio = pivot_row[j] / pivot
            column_weights[j] = max(column_weights[j], ratio * ratio * reference)
    for a in range(m):
        if entering != cols + a:
            ratio = work[a] / pivot
            row_weights[tight[a]] = max(row_weights[tight[a]], ratio * ratio * reference)
    leaving_weight = max(reference / (pivot * pivot), 1.0)
    if leaving_column >= 0:
        column_weights[basic[leaving_column]] = leaving_weight
    else:
        row_weights[leaving_row] = leaving_weight


@njit(cache=True)
def solve_lp(
    G: NDArray[np.float64],
    GT: NDArray[np.float64],
    h: NDArray[np.float64],
    c: NDArray[np.float64],
    max_iterations: int,
) -> tuple[int, NDArray[np.float64], NDArray[np.float64], int]:
    """Maximise ``c @ v`` subject to ``G @ v <= h``, ``v >= 0`` (``h >= 0``), from ``v = 0``.

    Parameters
    ----------
    G, GT : ndarray, shapes (R, C) and (C, R)
        The constraint matrix and its transpose, both C-contiguous.
    h : ndarray, shape (R,)
        Non-negative right-hand side.
    c : ndarray, shape (C,)
        Objective.
    max_iterations : int
        Pivots before giving up with :data:`ITERATION_LIMIT`.

    Returns
    -------
    status : int
        :data:`OPTIMAL`, :data:`ITERATION_LIMIT`, :data:`UNBOUNDED` or :data:`SINGULAR`.
    values : ndarray, shape (C,)
        The primal solution ``v`` (basic feasible; exact zeros off the basis).
    duals : ndarray, shape (R,)
        The dual solution (non-zero only on tight rows).
    iterations : int
        Pivots made.
    """
    rows, cols = G.shape
    basis = new_basis(rows, cols, min(rows, cols), h)
    status, duals, iterations = solve_lp_from(G, GT, h, c, max_iterations, basis)
    return status, basis[5], duals, iterations


@njit(cache=True)
def new_basis(rows: int, cols: int, capacity: int, h: NDArray[np.float64]):
    """The all-slack basis (``v = 0``) for :func:`solve_lp_from`, room for ``capacity`` columns.

    A tuple ``(inverse, tight, basic, row_position, column_position, values, slack, counts,
    column_weights, row_weights)``: the basis inverse ``G[I, J]^-1``, the tight rows ``I`` and
    basic columns ``J`` by position, every row's and column's position in them (-1 if none),
    the primal values and the row slacks, ``counts = [m, degenerate pivots in a row, pivots
    since the last refactorisation]``, and the pricing weights of the columns and of the
    rows' slacks. Columns are added to an optimal basis with :func:`add_columns`.
    """
    size = max(capacity, 1)
    return (
        np.zeros((size, size)),
        np.empty(size, dtype=np.int64),
        np.empty(size, dtype=np.int64),
        np.full(rows, -1, dtype=np.int64),
        np.full(cols, -1, dtype=np.int64),
        np.zeros(cols),
        h.copy(),
        np.zeros(3, dtype=np.int64),
        np.ones(cols),
        np.ones(rows),
    )


@njit(cache=True)
def add_columns(basis, added: int):
    """The basis of an LP with ``added`` more columns (at the end), all non-basic at 0.

    The basis stays feasible and its inverse unchanged, so :func:`solve_lp_from` goes on
    from it (the *warm start* of column generation).
    """
    inverse, tight, basic, row_position, column_position, values, slack, counts = basis[:8]
    column_weights, row_weights = basis[8], basis[9]
    cols = column_position.size
    positions = np.full(cols + added, -1, dtype=np.int64)
    positions[:cols] = column_position
    grown = np.zeros(cols + added)
    grown[:cols] = values
    weights = np.ones(cols + added)
    weights[:cols] = column_weights
    return (
        inverse,
        tight,
        basic,
        row_position,
        positions,
        grown,
        slack,
        counts,
        weights,
        row_weights,
    )


@njit(cache=True)
def solve_lp_from(
    G: NDArray[np.float64],
    GT: NDArray[np.float64],
    h: NDArray[np.float64],
    c: NDArray[np.float64],
    max_iterations: int,
    basis,
) -> tuple[int, NDArray[np.float64], int]:
    """:func:`solve_lp` from a feasible ``basis`` (:func:`new_basis`), updated in place.

    Returns the status, the dual solution and the pivots made; the primal solution is
    ``basis[5]``. The basis has room for ``inverse.shape[0]`` basic columns; a pivot beyond
    it stops with :data:`SINGULAR`.
    """
    inverse, tight, basic, row_position, column_position, values, slack, counts = basis[:8]
    column_weights, row_weights = basis[8], basis[9]
    rows, cols = G.shape
    capacity = inverse.shape[0]
    pivot_row = np.empty(cols)
    duals = np.zeros(capacity)
    reduced = np.empty(cols)
    direction = np.empty(capacity)
    row_change = np.empty(rows)
    work = np.empty(capacity)
    m, degenerate_run, since_refactor = counts[0], counts[1], counts[2]
    for iteration in range(max_iterations):
        # Duals x_I = M^T c_J and reduced costs c_j - x_I . G[I, j].
        for a in range(m):
            total = 0.0
            for b in range(m):
                total += inverse[b, a] * c[basic[b]]
            duals[a] = total
        reduced[:] = c
        for a in range(m):
            if duals[a] != 0.0:
                _axpy(-duals[a], G[tight[a]], reduced)
        bland = degenerate_run >= BLAND_AFTER
        entering = -1  # a column index, or cols + a for the slack of tight row position a
        if bland:
            for j in range(cols):
                if column_position[j] < 0 and reduced[j] > REDUCED_COST_TOL:
                    entering = j
                    break
            if entering < 0:
                for a in range(m):
                    if -duals[a] > REDUCED_COST_TOL and (
                        entering < 0 or tight[a] < tight[entering - cols]
                    ):
                        entering = cols + a
        else:
            best = 0.0
            for j in range(cols):
                if column_position[j] < 0 and reduced[j] > REDUCED_COST_TOL:
                    score = reduced[j] * reduced[j] / column_weights[j]
                    if score > best:
                        entering, best = j, score
            for a in range(m):
                if -duals[a] > REDUCED_COST_TOL:
                    score = duals[a] * duals[a] / row_weights[tight[a]]
                    if score > best:
                        entering, best = cols + a, score
        if entering < 0:
            full_duals = np.zeros(rows)
            for a in range(m):
                full_duals[tight[a]] = duals[a]
            counts[0], counts[1], counts[2] = m, degenerate_run, since_refactor
            return OPTIMAL, full_duals, iteration

        # Direction: basic values move by -t * direction, free slacks by -t * row_change.
        if entering < cols:
            for a in range(m):
                work[a] = GT[entering, tight[a]]
            for b in range(m):
                total = 0.0
                for a in range(m):
                    total += inverse[b, a] * work[a]
                direction[b] = total
            row_change[:] = GT[entering]
        else:
            a_in = entering - cols
            for b in range(m):
                direction[b] = inverse[b, a_in]
            row_change[:] = 0.0
        for b in range(m):
            if direction[b] != 0.0:
                _axpy(-direction[b], GT[basic[b]], row_change)

        # Ratio test; ties go to the larger pivot, or under Bland's rule to the smaller index
        # (columns before slacks).
        step = np.inf
        leaving_column = -1  # a position b in J
        leaving_row = -1  # a non-tight row r
        pivot = 0.0
        for b in range(m):
            if direction[b] > PIVOT_TOL:
                ratio = max(values[basic[b]], 0.0) / direction[b]
                if ratio < step or (
                    ratio == step
                    and ((basic[b] < basic[leaving_column]) if bland else (direction[b] > pivot))
                ):
                    step, leaving_column, pivot = ratio, b, direction[b]
        for r in range(rows):
            if row_position[r] < 0 and row_change[r] > PIVOT_TOL:
                ratio = max(slack[r], 0.0) / row_change[r]
                if ratio < step or (
                    ratio == step and not bland and leaving_row >= 0 and row_change[r] > pivot
                ):
                    step, leaving_column, leaving_row, pivot = ratio, -1, r, row_change[r]
        if leaving_column < 0 and leaving_row < 0:
            counts[0], counts[1], counts[2] = m, degenerate_run, since_refactor
            return UNBOUNDED, np.zeros(rows), iteration
        degenerate_run = degenerate_run + 1 if step <= 1e-13 else 0
        _update_weights(
            G,
            inverse,
            tight,
            basic,
            m,
            column_position,
            column_weights,
            row_weights,
            (entering, leaving_column, leaving_row, pivot),
            pivot_row,
            work,
        )

        # Move.
        for b in range(m):
            values[basic[b]] -= step * direction[b]
        for r in range(rows):
            if row_position[r] < 0:
                slack[r] -= step * row_change[r]

        # Basis update.
        if entering < cols and leaving_column >= 0:  # column replaces column
            k = leaving_column
            values[basic[k]] = 0.0
            column_position[basic[k]] = -1
            for a in range(m):
                inverse[k, a] /= direction[k]
            for b in range(m):
                if b != k and direction[b] != 0.0:
                    for a in range(m):
                        inverse[b, a] -= direction[b] * inverse[k, a]
            basic[k] = entering
            column_position[entering] = k
            values[entering] = step
        elif entering < cols:  # column enters, row `leaving_row` becomes tight (bordering)
            if m == capacity:
                counts[0], counts[1], counts[2] = m, degenerate_run, since_refactor
                return SINGULAR, np.zeros(rows), iteration
            r = leaving_row
            sigma = row_change[r]
            for a in range(m):
                total = 0.0
                for b in range(m):
                    total += G[r, basic[b]] * inverse[b, a]
                work[a] = total
            for b in range(m):
                for a in range(m):
                    inverse[b, a] += direction[b] * work[a] / sigma
                inverse[b, m] = -direction[b] / sigma
            for a in range(m):
                inverse[m, a] = -work[a] / sigma
            inverse[m, m] = 1.0 / sigma
            tight[m], basic[m] = r, entering
            row_position[r], column_position[entering] = m, m
            slack[r] = 0.0
            values[entering] = step
            m += 1
        elif leaving_column >= 0:  # slack of a tight row enters, a column leaves (deletion)
            a_in, k = entering - cols, leaving_column
            released = tight[a_in]
            corner = inverse[k, a_in]
            for b in range(m):
                if b != k:
                    factor = inverse[b, a_in] / corner
                    for a in range(m):
                        if a != a_in:
                            inverse[b, a] -= factor * inverse[k, a]
            values[basic[k]] = 0.0
            column_position[basic[k]] = -1
            row_position[released] = -1
            slack[released] = step
            last = m - 1
            if k != last:  # move the last J position into k
                inverse[k, :m] = inverse[last, :m]
                basic[k] = basic[last]
                column_position[basic[k]] = k
            if a_in != last:  # move the last I position into a_in
                inverse[:m, a_in] = inverse[:m, last]
                tight[a_in] = tight[last]
                row_position[tight[a_in]] = a_in
            m -= 1
        else:  # slack of a tight row enters, a free row becomes tight (row replacement)
            a_in, r = entering - cols, leaving_row
            released = tight[a_in]
            denominator = -row_change[r]
            for a in range(m):
                total = 0.0
                for b in range(m):
                    total += G[r, basic[b]] * inverse[b, a]
                work[a] = total
            work[a_in] -= 1.0
            for b in range(m):
                if direction[b] != 0.0:
                    for a in range(m):
                        inverse[b, a] -= direction[b] * work[a] / denominator
            row_position[released] = -1
            slack[released] = step
            tight[a_in] = r
            row_position[r] = a_in
            slack[r] = 0.0

        since_refactor += 1
        if since_refactor >= REFACTOR_EVERY:
            since_refactor = 0
            if not _refactor(G, h, tight, basic, m, inverse, values, slack, row_position):
                counts[0], counts[1], counts[2] = m, degenerate_run, since_refactor
                return SINGULAR, np.zeros(rows), iteration
    counts[0], counts[1], counts[2] = m, degenerate_run, since_refactor
    return ITERATION_LIMIT, np.zeros(rows), max_iterations
