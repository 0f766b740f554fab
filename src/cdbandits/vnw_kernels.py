"""Compiled, certified von Neumann winner of one (sub-)matrix: the kernel behind
:func:`cdbandits.winners.von_neumann_winner` and :mod:`cdbandits.batched`.

The matrix ``S = P[arms][:, arms] / max|P[arms][:, arms]|`` (the vNWs do not depend on the
scale; tolerances are relative to it) is solved in four steps:

1. **Condorcet shortcut**: an arm that beats every other one strictly is the unique vNW.
2. **Simplex**: the LP ``max 1 @ y  s.t. (S + 2) y <= 1, y >= 0`` (the game shifted to
   value 2, so ``y = 0`` is feasible) by :func:`cdbandits.simplex.solve_lp`; ``w = y / sum(y)``
   is a vertex of the optimal face. Up to ``K = SIMPLEX_MAX_K`` the LP of the whole game is
   solved; above it a *double oracle* (:func:`_double_oracle`) solves the games restricted to
   growing sets of arms until no arm beats the restricted vertex. If the vertex is *strictly
   complementary* (every arm has ``w[b] > 0`` or ``(S.T @ w)[b] > TIE_TOL``) it is the unique
   vNW: it is then recomputed by one LU solve of the equalizer system
   ``(S + 2)[U, U] y = 1`` on its support ``U`` and certified.
   Otherwise (ties, clones) every vNW lives on the arms that the vertex does not beat
   strictly; when they are at most half the arms, the interior point method of step 3
   solves the game restricted to them (:func:`_face_oracle`), adding the arms its answer
   does not beat strictly, until that answer is strictly complementary in the whole game;
   :func:`_centre` then moves it to the whole game's analytic centre (reported as
   :data:`INTERIOR_POINT`). A double oracle whose game outgrows ``SIMPLEX_MAX_K`` arms goes
   on in the same way, with interior point games, and gives up on dense supports.
3. **Interior point** (dense supports, or when the steps above find no certified answer): a
   Mehrotra predictor-corrector method on the self-dual central path
   ``w * (S.T @ w - t) = mu``, ``sum(w) = 1`` (one dense ``(K+1) x (K+1)`` linear
   system per iteration, factored once for its two solves). Its iterates converge to the
   *analytic centre of the optimal face*, a strictly complementary point: its support
   ``U = {b : w[b] > s[b]}`` is the union of the supports of all vNWs, and arms that are
   exchangeable (clones) get equal weight.
   Once ``mu`` is small and the partition clear, ``U`` is read off and the point is snapped
   onto the face: its affine hull is ``{S[U, U].T @ w = 0, sum(w) = 1}``; when that is a
   single point, it is the unique vNW; otherwise the analytic centre is computed exactly by
   Newton's method on the face (:func:`_centre`; the interior point iterates themselves
   drift along the face, whose directions are nearly singular in their linear systems).
   The snapped point is accepted when it is certified and strictly complementary; near the
   end of the path (``mu < FINAL_MU``) a certified point is accepted as it is.
4. **Certificate**: ``min_b (S.T @ w)[b] >= -CERTIFICATE_TOL`` and ``w >= 0``, ``sum(w) = 1``;
   a matrix that cannot be certified returns the status :data:`FAILED` (the callers raise).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

from .lapack import lu_factor, lu_solve
from .simplex import OPTIMAL, solve_lp
from .vnw_numpy import CENTRE_DECREMENT, FACE_OFFSET, NEWTON_REGION

__all__ = [
    "CERTIFICATE_TOL",
    "CONDORCET",
    "FAILED",
    "FINAL_MU",
    "INTERIOR_POINT",
    "ORACLE_BATCH",
    "ORACLE_DENSE_SUPPORT",
    "ORACLE_MAX_FRACTION",
    "SIMPLEX",
    "SIMPLEX_MAX_K",
    "TIE_TOL",
    "solve_one",
]

#: A returned vNW satisfies ``min_b (S.T @ w)[b] >= -CERTIFICATE_TOL`` (``S`` scaled to max 1).
CERTIFICATE_TOL = 1e-9

#: An arm outside the support whose value is at most this may belong to another vNW.
TIE_TOL = 1e-9

#: Up to this ``K`` the simplex method solves the whole game (at most ``50 K`` pivots); above
#: it a double oracle solves games restricted to growing sets of arms (:func:`_double_oracle`)
#: by the simplex method while they have at most this many arms, then by the interior point
#: method (:func:`_face_oracle`).
SIMPLEX_MAX_K = 64

#: The oracles give up (and the interior point method runs on all arms) when a restricted game
#: would start with or (simplex games) grow to more than this fraction of the arms, or has
#: more than :data:`SIMPLEX_MAX_K` arms and a support of more than
#: :data:`ORACLE_DENSE_SUPPORT` of them: dense supports are the interior point method's case
#: (random games have supports of about half their arms, sparse tournaments such as ATP's
#: of a third or less).
ORACLE_MAX_FRACTION = 0.5

#: See :data:`ORACLE_MAX_FRACTION`.
ORACLE_DENSE_SUPPORT = 0.4

#: Each round, an oracle adds up to ``max(size, ORACLE_BATCH)`` of the arms its restricted
#: answer loses to (or ties): it doubles its game, by at least this many arms while it is small.
ORACLE_BATCH = 8

#: ``mu`` below which a certified point is accepted even if not strictly complementary to
#: ``TIE_TOL`` (near-ties: values below ``TIE_TOL`` that are not exact ties, as in matrices
#: whose entries span many decades); checked at every iteration once ``mu`` is below it.
FINAL_MU = 1e-15

#: ``mu`` below which the support is read off an interior point whose partition is clear
#: (every arm's weight and value differ by a factor of 1000); the snapped point is kept when
#: it is certified and strictly complementary.
IDENTIFY_MU = 1e-6

#: Singular values of the face's equalizer system below this fraction of the largest one
#: count as zero (directions along which the vNW is not unique).
RANK_TOL = 1e-9

#: Newton iterations of the analytic centre before stopping.
MAX_CENTRE_ITERATIONS = 50

#: Interior point iterations before giving up.
MAX_INTERIOR_ITERATIONS = 120

#: Codes of the path that produced an answer (indices into ``cdbandits.batched.METHODS``).
CONDORCET, SIMPLEX, INTERIOR_POINT, FAILED = 0, 1, 2, -1


@njit(cache=True)
def _scaled_submatrix(P, arms):
    """``P[arms][:, arms]`` divided by its largest absolute entry (unchanged if all zero)."""
    k = arms.size
    S = np.empty((k, k))
    scale = 0.0
    for i in range(k):
        for j in range(k):
            S[i, j] = P[arms[i], arms[j]]
            scale = max(scale, abs(S[i, j]))
    if scale > 0.0:
        S /= scale
    return S


@njit(cache=True)
def _condorcet(P, arms) -> int:
    """The position in ``arms`` of the arm beating all others strictly, or -1."""
    k = arms.size
    survivor = 0
    for b in range(1, k):
        if P[arms[b], arms[survivor]] > 0.0:
            survivor = b
    for b in range(k):
        if b != survivor and not P[arms[survivor], arms[b]] > 0.0:
            return -1
    return survivor


@njit(cache=True)
def _values(S, w):
    """``S.T @ w``: the expected duel outcome of ``w`` against every arm."""
    values = np.zeros(S.shape[0])
    for i in range(S.shape[0]):
        if w[i] != 0.0:
            values += w[i] * S[i]
    return values


@njit(cache=True)
def _accept(S, w, strict: bool) -> bool:
    """Certified (and, if ``strict``, strictly complementary) distribution?"""
    if not np.isfinite(w).all() or w.min() < 0.0 or abs(w.sum() - 1.0) > 1e-12:
        return False
    values = _values(S, w)
    if not values.min() >= -CERTIFICATE_TOL:
        return False
    if strict:
        # A weight at rounding level (a simplex vertex's 1e-17) is no evidence of support.
        for b in range(w.size):
            if not (w[b] > TIE_TOL or values[b] > TIE_TOL):
                return False
    return True


@njit(cache=True)
def _shifted_submatrix(S, subset):
    """``S[subset][:, subset] + 2``: the game on ``subset`` shifted to value 2."""
    n = subset.size
    shifted = np.empty((n, n))
    for a in range(n):
        for b in range(n):
            shifted[a, b] = S[subset[a], subset[b]] + 2.0
    return shifted


@njit(cache=True)
def _equalizer(S, support):
    """The solution of ``(S + 2)[U, U] y = 1`` normalised to sum 1, zero off ``U``."""
    k = S.shape[0]
    n = support.size
    system = _shifted_submatrix(S, support)
    w = np.zeros(k)
    lu, pivots, regular = lu_factor(system)
    if not regular:
        w[:] = np.nan
        return w
    y = lu_solve(lu, pivots, np.ones(n))
    residual = np.ones(n) - system @ y  # one step of iterative refinement
    y += lu_solve(lu, pivots, residual)
    total = y.sum()
    if not total > 0.0:
        w[:] = np.nan
        return w
    for a in range(n):
        w[support[a]] = y[a] / total
    return w


@njit(cache=True)
def _centre(S, support, start, start_values):
    """The analytic centre of the optimal face with support ``U``, from an interior ``start``.

    The face's affine hull ``{S[U, U].T w = 0, sum(w) = 1}`` is parametrised as
    ``w = base + N z`` by a singular value decomposition (``N`` spans its directions, rank
    decided at ``RANK_TOL`` relative to the largest singular value). When ``N`` is empty the
    face is the single point ``base``. Otherwise Newton's method with a backtracking line
    search maximises ``sum log w[U] + sum log (S.T w)[not U]`` over ``z``. It starts from the
    interior point's weights ``start[U]`` and values ``start_values[not U]`` (positive, but
    off the face by rounding) with infeasible-start Newton steps, which reach the face while
    keeping every coordinate positive. Returns the point (NaN when the start is not positive
    or the centre is not reached inside the face).
    """
    k = S.shape[0]
    n = support.size
    w = np.full(k, np.nan)
    if n == 0:
        return w
    outside = np.ones(k, dtype=np.bool_)
    outside[support] = False
    others = np.flatnonzero(outside)
    system = np.empty((n + 1, n))
    for a in range(n):
        for b in range(n):
            system[a, b] = S[support[b], support[a]]
        system[n, a] = 1.0
    left, singular, right = np.linalg.svd(system, full_matrices=False)
    rank = 0
    while rank < n and singular[rank] > RANK_TOL * singular[0]:
        rank += 1
    base = np.ascontiguousarray(right[:rank].T) @ (left[n, :rank] / singular[:rank])
    if rank == n:
        w[:] = 0.0
        w[support] = base
        return w
    directions = np.ascontiguousarray(right[rank:].T)  # n x r
    value_map = np.empty((others.size, n))  # (S.T w)[others] = value_map @ w[U]
    for o in range(others.size):
        for a in range(n):
            value_map[o, a] = S[support[a], others[o]]
    value_directions = value_map @ directions
    weights = np.empty(n)
    for a in range(n):
        weights[a] = start[support[a]]
    values = np.empty(others.size)
    for o in range(others.size):
        values[o] = start_values[others[o]]
    if weights.min() <= 0.0 or (values.size and values.min() <= 0.0):
        return w
    for _ in range(MAX_CENTRE_ITERATIONS):
        # Infeasible-start Newton: the step returns to the face (d0) and centres along it.
        projected = base + directions @ (directions.T @ (weights - base))
        offset_w = projected - weights
        offset_v = value_map @ projected - values
        inverse_w, inverse_v = 1.0 / weights, 1.0 / values
        scaled_w = directions * inverse_w.reshape(-1, 1)
        scaled_v = value_directions * inverse_v.reshape(-1, 1)
        hessian = scaled_w.T @ scaled_w + scaled_v.T @ scaled_v
        rhs = directions.T @ (inverse_w - inverse_w**2 * offset_w) + value_directions.T @ (
            inverse_v - inverse_v**2 * offset_v
        )
        lu, pivots, regular = lu_factor(hessian)
        if not (regular and np.isfinite(hessian).all()):
            return w  # the weights have underflowed: no centre from this start
        z = lu_solve(lu, pivots, rhs)
        step_w = offset_w + directions @ z
        step_v = offset_v + value_directions @ z
        feasible = np.abs(offset_w).max() <= FACE_OFFSET * weights.max() and (
            values.size == 0 or np.abs(offset_v).max() <= FACE_OFFSET * max(1.0, values.max())
        )
        decrement = (step_w * inverse_w) @ (step_w * inverse_w) + (step_v * inverse_v) @ (
            step_v * inverse_v
        )
        if feasible and decrement < NEWTON_REGION:  # full steps converge quadratically
            weights = weights + step_w
            values = values + step_v
            if decrement < CENTRE_DECREMENT:
                break
            continue
        objective = np.log(weights).sum() + np.log(values).sum()
        slope = step_w @ inverse_w + step_v @ inverse_v
        length = 1.0
        while length > 1e-12:
            trial_w = weights + length * step_w
            trial_v = values + length * step_v
            if trial_w.min() > 0.0 and (values.size == 0 or trial_v.min() > 0.0):
                if not feasible:
                    break
                trial = np.log(trial_w).sum() + np.log(trial_v).sum()
                if trial >= objective + 0.25 * length * slope:
                    break
            length *= 0.5
        weights = weights + length * step_w
        values = values + length * step_v
    projected = base + directions @ (directions.T @ (weights - base))
    if projected.min() <= 0.0:
        return w
    weights = projected
    w[:] = 0.0
    w[support] = weights / weights.sum()
    return w


@njit(cache=True)
def _restricted_vertex(S, subset):
    """A simplex vertex of the game restricted to the arms ``subset``, zero off them.

    NaN when the simplex does not reach an optimum within ``50 * subset.size`` pivots.
    """
    n = subset.size
    shifted = _shifted_submatrix(S, subset)
    ones = np.ones(n)
    status, y, _, _ = solve_lp(shifted, np.ascontiguousarray(shifted.T), ones, ones, 50 * n)
    w = np.full(S.shape[0], np.nan)
    total = y.sum()
    if status == OPTIMAL and total > 0.0:
        w[:] = 0.0
        for a in range(n):
            w[subset[a]] = max(y[a], 0.0) / total
    return w


@njit(cache=True)
def _add_arms(in_game, arms, values, limit: float) -> bool:
    """Put the ``arms`` of lowest ``values`` into the restricted game ``in_game``.

    Adds as many arms as the game has (at least :data:`ORACLE_BATCH`), so that it doubles;
    returns False, adding none, when the game would then have more than ``limit`` arms.
    """
    size = np.count_nonzero(in_game)
    added = min(arms.size, max(size, ORACLE_BATCH))
    if size + added > limit:
        return False
    for b in arms[np.argsort(values[arms])[:added]]:
        in_game[b] = True
    return True


@njit(cache=True)
def _double_oracle(S, in_game):
    """A certified vNW vertex from simplex-solved games restricted to growing sets of arms.

    The restricted game, the arms set in ``in_game``, starts from the arm with the best Borda
    score. Its simplex vertex is a vNW of the whole game when no arm beats it; otherwise the
    arms it loses to most join the game (:func:`_add_arms`), which is solved again. Returns
    NaN when the game outgrows :data:`SIMPLEX_MAX_K` arms (``in_game`` then holds the arms for
    :func:`_face_oracle` to go on from), or when the simplex fails or the game would outgrow
    :data:`ORACLE_MAX_FRACTION` of the arms (``in_game`` is then cleared).
    """
    k = S.shape[0]
    in_game[:] = False
    in_game[np.argmax(S.sum(axis=1))] = True
    while np.count_nonzero(in_game) <= SIMPLEX_MAX_K:
        vertex = _restricted_vertex(S, np.flatnonzero(in_game))
        if not np.isfinite(vertex).all():
            in_game[:] = False
            return vertex
        values = _values(S, vertex)
        beaten = np.flatnonzero((values < -CERTIFICATE_TOL) & ~in_game)
        if beaten.size == 0:
            return vertex
        if not _add_arms(in_game, beaten, values, ORACLE_MAX_FRACTION * k):
            in_game[:] = False
            break
    return np.full(k, np.nan)


@njit(cache=True)
def _face_oracle(S, in_game, out) -> bool:
    """The analytic centre of the optimal face from games restricted to the arms ``in_game``.

    The interior point method solves the restricted game; its answer, extended by zeros, is
    strictly complementary in the whole game when every other arm's value is above
    ``TIE_TOL`` (its support is then the union support ``U``: no vNW puts weight on an arm
    that some vNW beats strictly), and :func:`_centre` moves it to the centre of the whole
    game's face. Otherwise the arms of value at most ``TIE_TOL``, most beaten first, join the
    game (:func:`_add_arms`), which is solved again. Started from the arms that a certified
    vertex does not beat strictly, it finds the centre of a tied face; started from the game
    a double oracle outgrew the simplex with, it finishes that oracle.

    Returns False (the caller runs the interior point method on all arms) when the game
    starts with more than :data:`ORACLE_MAX_FRACTION` of the arms (it would then cost as
    much as the whole one) or would grow to all of them, a game of more than
    :data:`SIMPLEX_MAX_K` arms has a support of more than :data:`ORACLE_DENSE_SUPPORT` of
    them, a restricted game fails, or the centre is not certified and strictly
    complementary. Changes ``in_game``.
    """
    k = S.shape[0]
    if np.count_nonzero(in_game) > ORACLE_MAX_FRACTION * k:
        return False
    while True:
        subset = np.flatnonzero(in_game)
        restricted = np.zeros(subset.size)
        if not _interior_point(_scaled_submatrix(S, subset), restricted):
            return False
        if (
            subset.size > SIMPLEX_MAX_K
            and np.count_nonzero(restricted) > ORACLE_DENSE_SUPPORT * subset.size
        ):
            return False
        w = np.zeros(k)
        w[subset] = restricted
        values = _values(S, w)
        tied = np.flatnonzero((values <= TIE_TOL) & ~in_game)
        if tied.size == 0:
            break
        if not _add_arms(in_game, tied, values, k - 1):
            return False
    centre = _centre(S, np.flatnonzero(w > 0.0), w, values)
    if not _accept(S, centre, True):
        return False
    out[:] = centre
    return True


@njit(cache=True)
def _step_length(w, dw, s, ds) -> float:
    """Largest step in [0, 1] keeping ``w`` and ``s`` non-negative."""
    step = 1.0
    for i in range(w.size):
        if dw[i] < 0.0:
            step = min(step, -w[i] / dw[i])
        if ds[i] < 0.0:
            step = min(step, -s[i] / ds[i])
    return step


@njit(cache=True)
def _interior_point(S, out) -> bool:
    """Mehrotra's method on the self-dual central path, then the snap; result into ``out``."""
    k = S.shape[0]
    if not S.any():  # all ties (a common restricted game): the face is the whole simplex
        out[:] = 1.0 / k
        return True
    w = np.full(k, 1.0 / k)
    values = _values(S, w)
    t = values.min() - 1.0
    system = np.zeros((k + 1, k + 1))
    for i in range(k):
        for j in range(k):
            system[i, j] = S[j, i]
        system[i, k] = -1.0
        system[k, i] = 1.0
    rhs = np.zeros(k + 1)
    for _ in range(MAX_INTERIOR_ITERATIONS):
        s = _values(S, w) - t
        mu = (w @ s) / k
        clear = True
        for i in range(k):
            if max(w[i], s[i]) < 1e3 * min(w[i], s[i]):
                clear = False
                break
        final = mu < FINAL_MU or not mu > 0.0
        if (clear and mu < IDENTIFY_MU) or final:
            candidate = _centre(S, np.flatnonzero(w > s), w, s)
            if _accept(S, candidate, not final):
                out[:] = candidate
                return True
            if not mu > 0.0:
                return False
        for i in range(k):
            system[i, i] = S[i, i] + s[i] / w[i]
        lu, pivots, regular = lu_factor(system)
        if not regular:
            return False
        # Predictor (affine scaling) direction.
        rhs[:k] = -s
        rhs[k] = 0.0
        affine = lu_solve(lu, pivots, rhs)
        dw, dt = affine[:k], affine[k]
        ds = _values(S, dw) - dt
        step = _step_length(w, dw, s, ds)
        mu_affine = ((w + step * dw) @ (s + step * ds)) / k
        sigma = (mu_affine / mu) ** 3 if mu > 0.0 else 0.0
        # Corrector with the second-order term.
        rhs[:k] = (sigma * mu - w * s - dw * ds) / w
        direction = lu_solve(lu, pivots, rhs)
        dw, dt = direction[:k], direction[k]
        ds = _values(S, dw) - dt
        step = min(1.0, 0.995 * _step_length(w, dw, s, ds))
        w = w + step * dw
        w = np.maximum(w, 1e-300)
        w /= w.sum()
        t += step * dt
        if not (np.isfinite(w).all() and np.isfinite(t)):
            return False
    return False


@njit(cache=True)
def solve_one(
    P: NDArray[np.float64], arms: NDArray[np.int64], weights: NDArray[np.float64]
) -> tuple[int, float]:
    """Certified vNW of ``P[arms][:, arms]`` into ``weights`` (positions of ``arms``).

    Returns the path (:data:`CONDORCET`, :data:`SIMPLEX`, :data:`INTERIOR_POINT`, or
    :data:`FAILED` when no certified answer was found) and the certificate
    ``min_b (P.T @ w)[b]`` in the units of ``P``.
    """
    k = arms.size
    weights[:] = 0.0
    winner = _condorcet(P, arms)
    if winner >= 0:
        weights[winner] = 1.0
        return CONDORCET, 0.0
    S = _scaled_submatrix(P, arms)
    path = FAILED
    in_game = np.zeros(k, dtype=np.bool_)  # where the face oracle starts, if anywhere
    if k <= SIMPLEX_MAX_K:
        vertex = _restricted_vertex(S, np.arange(k))
    else:
        vertex = _double_oracle(S, in_game)
    if _accept(S, vertex, True):
        exact = _equalizer(S, np.flatnonzero(vertex > 0.0))
        if _accept(S, exact, True):
            weights[:] = exact
            path = SIMPLEX
    else:
        if _accept(S, vertex, False):  # ties: every vNW lives on the arms it does not beat
            in_game = _values(S, vertex) <= TIE_TOL
        if in_game.any() and _face_oracle(S, in_game, weights):
            path = INTERIOR_POINT
    if path == FAILED and _interior_point(S, weights):
        path = INTERIOR_POINT
    if path == FAILED:
        weights[:] = 0.0
        return FAILED, np.nan
    certificate = np.inf
    for b in range(k):
        value = 0.0
        for i in range(k):
            if weights[i] != 0.0:
                value += weights[i] * P[arms[i], arms[b]]
        certificate = min(certificate, value)
    return path, certificate
