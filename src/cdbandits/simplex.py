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

Pricing is Dantzig's rule (largest reduced cost); after :data:`BLAND_AFTER` degenerate pivots
in a row it switches to Bland's rule (smallest index), which cannot cycle, until a pivot makes
progress. The answers are not trusted as such: every caller certifies what it uses.
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
    capacity = min(rows, cols)
    inverse = np.zeros((max(capacity, 1), max(capacity, 1)))
    tight = np.empty(max(capacity, 1), dtype=np.int64)  # I, by position a
    basic = np.empty(max(capacity, 1), dtype=np.int64)  # J, by position b
    row_position = np.full(rows, -1, dtype=np.int64)
    column_position = np.full(cols, -1, dtype=np.int64)
    values = np.zeros(cols)
    slack = h.copy()
    duals = np.zeros(max(capacity, 1))
    reduced = np.empty(cols)
    direction = np.empty(max(capacity, 1))
    row_change = np.empty(rows)
    work = np.empty(max(capacity, 1))
    m = 0
    degenerate_run = 0
    since_refactor = 0
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
                reduced -= duals[a] * G[tight[a]]
        bland = degenerate_run >= BLAND_AFTER
        entering = -1  # a column index, or cols + a for the slack of tight row position a
        best = REDUCED_COST_TOL
        for j in range(cols):
            if column_position[j] < 0 and reduced[j] > best:
                entering = j
                if bland:
                    break
                best = reduced[j]
        if not (bland and entering >= 0):
            for a in range(m):
                if -duals[a] > best:
                    if bland and entering >= 0 and tight[entering - cols] < tight[a]:
                        continue
                    entering = cols + a
                    if not bland:
                        best = -duals[a]
        if entering < 0:
            full_duals = np.zeros(rows)
            for a in range(m):
                full_duals[tight[a]] = duals[a]
            return OPTIMAL, values, full_duals, iteration

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
                row_change -= direction[b] * GT[basic[b]]

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
            return UNBOUNDED, values, np.zeros(rows), iteration
        degenerate_run = degenerate_run + 1 if step <= 1e-13 else 0

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
                return SINGULAR, values, np.zeros(rows), iteration
    return ITERATION_LIMIT, values, np.zeros(rows), max_iterations
