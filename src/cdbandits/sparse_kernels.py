"""Compiled kernels of the sparse von Neumann solver (:mod:`cdbandits.vnw_sparse`).

A skew-symmetric game ``S`` is held as the compressed rows (``indptr``, ``indices``,
``data``) of its compared pairs: the value of a lottery ``w`` against arm ``b``,
``(S.T @ w)[b] = sum_a w[a] S[a, b]``, visits only the rows of the lottery's support. Games
restricted to a set of arms are built from the rows of those arms, and split into their
*blocks*: the connected components of the compared pairs among them. The linear systems
of the interior point method of a restricted game are block diagonal but for one bordering
row and column, so each block is factored on its own (arms compared with no other arm of
the game are blocks of one).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .lapack import PIVOT_DTYPE, lu_factor, lu_solve
from .simplex import OPTIMAL, REDUCED_COST_TOL, add_columns, new_basis, solve_lp_from
from .vnw_kernels import _step_length

__all__ = [
    "condorcet_arm",
    "lottery_values",
    "restricted_game",
    "game_blocks",
    "column_generation",
    "block_interior_point",
    "IPM_CLEAR",
    "IPM_FINAL",
    "IPM_FAILED",
]

#: Statuses of :func:`block_interior_point`: the partition of the arms into support and
#: beaten arms is clear (every weight and value differ by a factor of 1000) at
#: ``mu < IDENTIFY_MU``; the path has reached ``mu < FINAL_MU``; the method failed
#: (singular system, non-finite iterate, iteration limit).
IPM_CLEAR, IPM_FINAL, IPM_FAILED = 0, 1, 2

#: A vertex whose least value is at least ``-CERTIFICATE_TOL`` is certified.
CERTIFICATE_TOL = 1e-9

#: The interior point constants of the dense kernel (:mod:`cdbandits.vnw_kernels`).
IDENTIFY_MU = 1e-6
FINAL_MU = 1e-15
MAX_INTERIOR_ITERATIONS = 120


@njit(cache=True)
def condorcet_arm(indptr, indices, data) -> int:
    """The arm that beats every other arm strictly, or -1 (it must be compared with all)."""
    k = indptr.size - 1
    for a in range(k):
        if indptr[a + 1] - indptr[a] == k - 1:
            beats_all = True
            for p in range(indptr[a], indptr[a + 1]):
                if not data[p] > 0.0:
                    beats_all = False
                    break
            if beats_all:
                return a
    return -1


@njit(cache=True)
def lottery_values(indptr, indices, data, w):
    """``S.T @ w``: the expected duel outcome of the lottery ``w`` against every arm."""
    values = np.zeros(indptr.size - 1)
    for a in range(w.size):
        if w[a] != 0.0:
            for p in range(indptr[a], indptr[a + 1]):
                values[indices[p]] += w[a] * data[p]
    return values


@njit(cache=True)
def restricted_game(indptr, indices, data, arms):
    """Compressed rows of ``S[arms][:, arms]`` (local arm numbers), scaled to max 1.

    Returns the local ``indptr``, ``indices``, ``data`` and the scale (0 for a game of ties).
    """
    k = indptr.size - 1
    position = np.full(k, -1, dtype=np.int64)
    for i in range(arms.size):
        position[arms[i]] = i
    local_ptr = np.zeros(arms.size + 1, dtype=np.int64)
    for i in range(arms.size):
        a = arms[i]
        count = 0
        for p in range(indptr[a], indptr[a + 1]):
            if position[indices[p]] >= 0:
                count += 1
        local_ptr[i + 1] = local_ptr[i] + count
    local_idx = np.empty(local_ptr[-1], dtype=np.int64)
    local_data = np.empty(local_ptr[-1])
    scale = 0.0
    for i in range(arms.size):
        a = arms[i]
        q = local_ptr[i]
        for p in range(indptr[a], indptr[a + 1]):
            j = position[indices[p]]
            if j >= 0:
                local_idx[q] = j
                local_data[q] = data[p]
                scale = max(scale, abs(data[p]))
                q += 1
    if scale > 0.0:
        local_data /= scale
    return local_ptr, local_idx, local_data, scale


@njit(cache=True)
def game_blocks(indptr, indices):
    """Connected components of the compared pairs: arms ordered by block, and block starts.

    Returns ``order`` (arms grouped by block, blocks in order of their smallest arm, arms in
    increasing order within a block) and ``starts`` (block ``i`` is
    ``order[starts[i]:starts[i + 1]]``).
    """
    k = indptr.size - 1
    parent = np.arange(k)
    for a in range(k):
        for p in range(indptr[a], indptr[a + 1]):
            x, y = a, indices[p]
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            while parent[y] != y:
                parent[y] = parent[parent[y]]
                y = parent[y]
            if x != y:
                parent[max(x, y)] = min(x, y)
    root = np.empty(k, dtype=np.int64)
    for a in range(k):
        x = a
        while parent[x] != x:
            x = parent[x]
        root[a] = x
    order = np.argsort(root, kind="mergesort")
    starts = [0]
    for i in range(1, k):
        if root[order[i]] != root[order[i - 1]]:
            starts.append(i)
    starts.append(k)
    return order, np.array(starts, dtype=np.int64)


@njit(cache=True)
def _fill_column(indptr, indices, data, arm, column) -> None:
    """``column[r] = (S + 2)[r, arm] = 2 - S[arm, r]`` (``S`` is skew-symmetric)."""
    column[:] = 2.0
    for p in range(indptr[arm], indptr[arm + 1]):
        column[indices[p]] -= data[p]


@njit(cache=True)
def column_generation(indptr, indices, data, first_arm, batch, max_arms, max_pivots):
    """A certified simplex vertex by column generation, warm-started across columns.

    The LP ``max sum(y)  s.t.  (S + 2)[:, A] y <= 1, y >= 0`` has a row for every arm (its
    value against the lottery ``y / sum(y)`` on the arms ``A``) and a column for each arm of
    ``A``, starting from ``first_arm``. At its optimum the lottery's least value over all arms
    is ``2 - 1 / sum(y)``; when it is below ``-CERTIFICATE_TOL`` the arms with the largest
    reduced costs (the arms that beat the dual lottery most) join as columns, as many as
    ``A`` holds (at least ``batch``), and the simplex goes on from the same basis.

    Returns
    -------
    status : int
        0: a certified vertex; 1: ``A`` would outgrow ``max_arms``; 2: the simplex failed.
    weights : ndarray, shape (K,)
        The vertex (status 0).
    arms : ndarray of int64
        ``A`` at the end.
    """
    k = indptr.size - 1
    capacity = min(k, max_arms)
    G = np.empty((k, capacity))
    GT = np.empty((capacity, k))
    arms = np.empty(capacity, dtype=np.int64)
    in_game = np.zeros(k, dtype=np.bool_)
    ones = np.ones(k)
    basis = new_basis(k, 1, capacity, ones)
    arms[0] = first_arm
    in_game[first_arm] = True
    _fill_column(indptr, indices, data, first_arm, GT[0])
    G[:, 0] = GT[0]
    n = 1
    weights = np.zeros(k)
    while True:
        objective = np.ones(n)
        status, duals, _ = solve_lp_from(G[:, :n], GT[:n], ones, objective, max_pivots, basis)
        if status != OPTIMAL:
            return 2, weights, arms[:n].copy()
        y = basis[5]
        total = y.sum()
        if not total > 0.0:
            return 2, weights, arms[:n].copy()
        weights[:] = 0.0
        for i in range(n):
            weights[arms[i]] = max(y[i], 0.0) / total
        if 2.0 - 1.0 / total >= -CERTIFICATE_TOL:
            return 0, weights, arms[:n].copy()
        # Reduced cost of arm b: 1 - sum_r z_r (2 - S[b, r]) = 1 - 2 sum(z) + (S z)[b].
        base = 1.0 - 2.0 * duals.sum()
        reduced = np.full(k, -np.inf)
        for b in range(k):
            if not in_game[b]:
                total_b = base
                for p in range(indptr[b], indptr[b + 1]):
                    total_b += data[p] * duals[indices[p]]
                reduced[b] = total_b
        order = np.argsort(-reduced)
        added = 0
        while added < max(n, batch) and reduced[order[added]] > REDUCED_COST_TOL:
            added += 1
            if added == k - n:
                break
        if added == 0:
            return 2, weights, arms[:n].copy()
        if n + added > capacity:
            return 1, weights, arms[:n].copy()
        for i in range(added):
            arm = order[i]
            arms[n + i] = arm
            in_game[arm] = True
            _fill_column(indptr, indices, data, arm, GT[n + i])
            G[:, n + i] = GT[n + i]
        basis = add_columns(basis, added)
        n += added


@njit(cache=True)
def _factor_blocks(local_ptr, local_idx, local_data, order, starts, position, diagonal, lu, pivots):
    """LU of every block of ``S.T + diag(diagonal)`` into the flat buffers; False if singular."""
    offset = 0
    for block in range(starts.size - 1):
        first, last = starts[block], starts[block + 1]
        n = last - first
        if n == 1:
            continue
        matrix = np.zeros((n, n))
        for i in range(n):
            a = order[first + i]
            matrix[i, i] = diagonal[a]
            for p in range(local_ptr[a], local_ptr[a + 1]):
                matrix[position[local_idx[p]], i] += local_data[p]  # (S.T)[b, a] = S[a, b]
        factor, pivot, regular = lu_factor(matrix)
        if not regular:
            return False
        for j in range(n):
            for i in range(n):
                lu[offset + j * n + i] = factor[i, j]
            pivots[first + j] = pivot[j]
        offset += n * n
    return True


@njit(cache=True)
def _solve_blocks(order, starts, diagonal, lu, pivots, rhs):
    """Solve ``(S.T + diag(diagonal)) x = rhs`` from :func:`_factor_blocks`' factors."""
    x = np.empty(rhs.size)
    offset = 0
    for block in range(starts.size - 1):
        first, last = starts[block], starts[block + 1]
        n = last - first
        if n == 1:
            a = order[first]
            x[a] = rhs[a] / diagonal[a]
            continue
        factor = lu[offset : offset + n * n].reshape((n, n)).T
        part = np.empty(n)
        for i in range(n):
            part[i] = rhs[order[first + i]]
        solved = lu_solve(factor, pivots[first:last], part)
        for i in range(n):
            x[order[first + i]] = solved[i]
        offset += n * n
    return x


@njit(cache=True)
def block_interior_point(local_ptr, local_idx, local_data, w, t, below):
    """Mehrotra's method on the self-dual central path of a (restricted) game, block-wise.

    The path ``w * (S.T @ w - t) = mu``, ``sum(w) = 1`` of the dense kernel
    (:func:`cdbandits.vnw_kernels._interior_point`), from the iterate ``(w, t)``, with the
    Newton systems ``(S.T + diag(s / w)) dw - dt = r``, ``sum(dw) = 0`` solved block by
    block: ``dw = x + dt * y`` with ``(S.T + D) x = r``, ``(S.T + D) y = 1`` and ``dt``
    from ``sum(dw) = 0``. Stops at the first iterate with ``mu < below`` whose partition is
    clear and ``mu < IDENTIFY_MU``, or with ``mu < FINAL_MU``.

    Returns
    -------
    status : int
        :data:`IPM_CLEAR`, :data:`IPM_FINAL` or :data:`IPM_FAILED`.
    w, s : ndarray
        The iterate's weights and ``S.T @ w - t``.
    t, mu : float
    """
    k = w.size
    order, starts = game_blocks(local_ptr, local_idx)
    position = np.empty(k, dtype=np.int64)
    buffer = 0
    for block in range(starts.size - 1):
        n = starts[block + 1] - starts[block]
        if n > 1:
            buffer += n * n
        for i in range(n):
            position[order[starts[block] + i]] = i
    lu = np.empty(buffer)
    pivots = np.empty(k, dtype=PIVOT_DTYPE)
    w = w.copy()
    for _ in range(MAX_INTERIOR_ITERATIONS):
        s = lottery_values(local_ptr, local_idx, local_data, w) - t
        mu = (w @ s) / k
        if not mu > 0.0:
            return IPM_FINAL, w, s, t, 0.0
        if mu < below:
            if mu < FINAL_MU:
                return IPM_FINAL, w, s, t, mu
            if mu < IDENTIFY_MU:
                clear = True
                for i in range(k):
                    if max(w[i], s[i]) < 1e3 * min(w[i], s[i]):
                        clear = False
                        break
                if clear:
                    return IPM_CLEAR, w, s, t, mu
        diagonal = s / w
        if not _factor_blocks(
            local_ptr, local_idx, local_data, order, starts, position, diagonal, lu, pivots
        ):
            return IPM_FAILED, w, s, t, mu
        y = _solve_blocks(order, starts, diagonal, lu, pivots, np.ones(k))
        total_y = y.sum()
        # Predictor (affine scaling) direction.
        x = _solve_blocks(order, starts, diagonal, lu, pivots, -s)
        dt = -x.sum() / total_y
        dw = x + dt * y
        ds = lottery_values(local_ptr, local_idx, local_data, dw) - dt
        step = _step_length(w, dw, s, ds)
        mu_affine = ((w + step * dw) @ (s + step * ds)) / k
        sigma = (mu_affine / mu) ** 3
        # Corrector with the second-order term.
        x = _solve_blocks(order, starts, diagonal, lu, pivots, (sigma * mu - w * s - dw * ds) / w)
        dt = -x.sum() / total_y
        dw = x + dt * y
        ds = lottery_values(local_ptr, local_idx, local_data, dw) - dt
        step = min(1.0, 0.995 * _step_length(w, dw, s, ds))
        w = np.maximum(w + step * dw, 1e-300)
        w /= w.sum()
        t += step * dt
        if not (np.isfinite(w).all() and np.isfinite(t)):
            return IPM_FAILED, w, s, t, mu
    return IPM_FAILED, w, s, t, mu
