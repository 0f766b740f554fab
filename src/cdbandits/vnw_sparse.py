"""Certified von Neumann winner of a sparse game: many arms, few compared pairs.

Comparison logs compare each item with a few others; their skew matrix ``S`` (scaled to
``max |S| = 1``) is zero for every pair never compared, and so are most entries. The values
of a lottery ``w``, ``(S.T @ w)[b]``, cost one pass over the compared pairs of its support
(:func:`cdbandits.sparse_kernels.lottery_values`), so the certificate ``min_b (S.T @ w)[b]``
of an answer is checked on the whole game in time proportional to the compared pairs.

The answer is the same point as the dense solvers' (:mod:`cdbandits.winners`): the unique
vNW, or the *analytic centre* of the optimal face, whose support ``U`` is the union of the
supports of all vNWs. It is found on games restricted to sets of arms, in three steps:

1. **Simplex games** (:func:`cdbandits.sparse_kernels.sparse_vertex`): a double oracle from
   the arm with the best Borda score; each round a simplex vertex of the restricted game
   (preferring, among the optimal vertices, arms with high Borda scores: vertices that beat
   many arms), and the arms that beat it most join the game (as many as it holds, at least
   ``ORACLE_BATCH``), until no arm beats the vertex: a *certified* vNW ``x``. A strictly
   complementary ``x`` (every arm has ``x[b] > TIE_TOL`` or value ``> TIE_TOL``) is the unique
   vNW. The games are dense; above :data:`SIMPLEX_GAME_MAX` arms the oracle goes on with
   interior point games (step 2 from its arms).
2. **Interior point games** (used when step 1 ends without a certified vNW, or with one whose
   tied arms form large blocks): the restricted game's analytic centre (the interior point
   method of :func:`cdbandits.sparse_kernels.block_interior_point`, block by block, then
   :func:`cdbandits.sparse_centre.face_centre` on the restricted game); arms that beat it
   join the game until none does. Its support is the union support of the restricted game,
   far larger than a vertex's, so few arms tie with it.
3. **The tied game**: every vNW puts weight only on arms that a certified vNW ``x`` does not
   beat strictly, ``T = {b : (S.T @ x)[b] <= TIE_TOL}`` (complementary slackness). The
   interior point method on the game restricted to ``T`` converges to a point ``w_T`` that is
   strictly complementary within ``T``; then ``(1 - e) x + e w_T`` is, for a small ``e > 0``,
   a vNW of the whole game (``x`` beats every arm outside ``T`` strictly) that is strictly
   complementary: its support, the support of ``w_T``, is ``U``. The analytic centre of the
   whole game's face with support ``U`` is computed from that point (Newton's method on the
   face, :func:`cdbandits.sparse_centre.face_centre`, block by block) and accepted when it
   is certified and strictly complementary on the whole game; near the end of the path
   (``mu < FINAL_MU``) a certified point is accepted as it is, as the dense kernel does.

Nothing that fails is passed on: a restricted game whose simplex or interior point method
fails, or a tied game that reaches no certified answer, makes :func:`solve_sparse` report
failure, and :func:`sparse_von_neumann_winner` raises
:class:`~cdbandits.winners.CertificationError`. The dense factorisations are of the blocks
of the restricted games; a block of more than :data:`MAX_BLOCK` arms is refused
(:class:`SparseGameTooLarge`) rather than exhausting memory.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray
from scipy import sparse

from .blas_threads import one_blas_thread
from .preference import SYMMETRY_TOL, PreferenceMatrixError
from .sparse_centre import face_centre
from .sparse_kernels import (
    IPM_CLEAR,
    IPM_FAILED,
    IPM_FINAL,
    block_interior_point,
    column_generation,
    condorcet_arm,
    game_blocks,
    lottery_values,
    restricted_game,
)
from .vnw_numpy import CERTIFICATE_TOL, TIE_TOL
from .vnw_result import CertificationError, VonNeumannWinner

__all__ = [
    "INTERIOR_POINT",
    "MAX_BLOCK",
    "ORACLE_BATCH",
    "SIMPLEX",
    "SIMPLEX_GAME_MAX",
    "SPARSE_METHODS",
    "SparseGameTooLarge",
    "SparseSolution",
    "as_sparse_skew",
    "solve_sparse",
    "sparse_von_neumann_winner",
]

#: Names of the paths of :func:`solve_sparse` (the ``solver`` of a
#: :class:`cdbandits.winners.VonNeumannWinner`): the Condorcet shortcut, a strictly
#: complementary simplex vertex (the unique vNW), the analytic centre of the optimal face.
SPARSE_METHODS: tuple[str, ...] = ("condorcet", "sparse_simplex", "sparse_interior_point")
CONDORCET, SIMPLEX, INTERIOR_POINT = SPARSE_METHODS

#: Arms joining a restricted game per round: as many as it holds, at least this many.
ORACLE_BATCH = 8

#: Simplex games grow to at most this many arms; the oracle goes on with interior point games.
SIMPLEX_GAME_MAX = 512

#: Pivots the simplex may make per arm of :data:`SIMPLEX_GAME_MAX`, over all its columns.
SIMPLEX_PIVOTS = 50

#: The tied game of a certified vertex is solved at once when its largest block has at most
#: this many times as many arms as the simplex games reached; otherwise interior point games
#: grow first (their answer ties far fewer arms).
TIED_BLOCK_RATIO = 2

#: The largest block (arms compared among themselves, directly or through others) of a
#: restricted game that is factored densely: ``MAX_BLOCK ** 2`` doubles take about 300 MB.
MAX_BLOCK = 6000


class SparseGameTooLarge(RuntimeError):
    """A restricted game has a block too large for the dense factorisations."""


class _Game:
    """The scaled game: compressed rows, the scipy matrix, the number of arms."""

    def __init__(self, matrix: sparse.csr_array) -> None:
        self.matrix = matrix
        self.indptr = matrix.indptr.astype(np.int64)
        self.indices = matrix.indices.astype(np.int64)
        self.data = matrix.data.astype(np.float64)
        self.k = matrix.shape[0]

    def values(self, w: NDArray[np.float64]) -> NDArray[np.float64]:
        return lottery_values(self.indptr, self.indices, self.data, w)

    def restricted(self, arms: NDArray[np.int64]) -> tuple[NDArray, NDArray, NDArray, float]:
        return restricted_game(self.indptr, self.indices, self.data, arms)


def _accept(game: _Game, w: NDArray[np.float64] | None, strict: bool) -> bool:
    """Certified (and, if ``strict``, strictly complementary) distribution?"""
    if w is None or not np.isfinite(w).all() or w.min() < 0 or abs(w.sum() - 1) > 1e-12:
        return False
    values = game.values(w)
    if not values.min() >= -CERTIFICATE_TOL:
        return False
    return not strict or bool(np.all((w > TIE_TOL) | (values > TIE_TOL)))


def _largest_block(local_ptr: NDArray, local_idx: NDArray) -> int:
    _, starts = game_blocks(local_ptr, local_idx)
    return int(np.diff(starts).max()) if starts.size > 1 else 0


def _largest_tied_block(game: _Game, values: NDArray[np.float64]) -> NDArray[np.int64]:
    """The arms of the largest block of the game of the arms a certified vNW ties with."""
    tied = np.flatnonzero(values <= TIE_TOL)
    local_ptr, local_idx, _, _ = game.restricted(tied)
    order, starts = game_blocks(local_ptr, local_idx)
    largest = int(np.argmax(np.diff(starts)))
    return np.sort(tied[order[starts[largest] : starts[largest + 1]]])


def _interior_iterates(
    local_ptr: NDArray, local_idx: NDArray, local_data: NDArray
) -> Iterator[tuple[int, NDArray, NDArray]]:
    """Successive identification points of the interior point method on a restricted game.

    Yields ``(status, w, s)`` at the first iterate whose partition is clear, then at each
    later one with ``mu`` ten times smaller, and last at ``mu < FINAL_MU``.
    """
    n = local_ptr.size - 1
    if _largest_block(local_ptr, local_idx) > MAX_BLOCK:
        raise SparseGameTooLarge(
            f"a restricted game has a block of more than {MAX_BLOCK} arms compared among "
            "themselves; the sparse solver factors blocks densely"
        )
    w = np.full(n, 1.0 / n)
    t = lottery_values(local_ptr, local_idx, local_data, w).min() - 1.0
    below = np.inf
    while True:
        status, w, s, t, mu = block_interior_point(local_ptr, local_idx, local_data, w, t, below)
        if status == IPM_FAILED:
            return
        yield status, w, s
        if status == IPM_FINAL:
            return
        below = mu / 10.0


def _restricted_centre(game: _Game, arms: NDArray[np.int64]) -> NDArray[np.float64] | None:
    """The analytic centre of the game restricted to ``arms`` (on all arms), or None."""
    local_ptr, local_idx, local_data, scale = game.restricted(arms)
    w = np.zeros(game.k)
    if scale == 0.0:  # all ties: the face is the whole simplex
        w[arms] = 1.0 / arms.size
        return w
    local = _Game(sparse.csr_array((local_data, local_idx, local_ptr), shape=(arms.size,) * 2))
    for status, iterate, slack in _interior_iterates(local_ptr, local_idx, local_data):
        inside = np.flatnonzero(iterate > slack)
        centre = face_centre(local.matrix, inside, iterate, slack)
        if _accept(local, centre, status != IPM_FINAL):
            w[arms] = centre
            return w
    return None


def _tied_game(
    game: _Game, vertex: NDArray[np.float64], values: NDArray[np.float64]
) -> NDArray[np.float64] | None:
    """The whole game's centre from a certified vNW ``vertex`` and its tied arms (step 3)."""
    tied = np.flatnonzero(values <= TIE_TOL)
    local_ptr, local_idx, local_data, scale = game.restricted(tied)
    if scale == 0.0:
        restricted = [(IPM_CLEAR, np.full(tied.size, 1.0 / tied.size), np.zeros(tied.size))]
    else:
        restricted = _interior_iterates(local_ptr, local_idx, local_data)
    for status, weights, slack in restricted:
        inside = weights > slack
        interior = np.zeros(game.k)
        interior[tied] = np.where(inside, weights, 0.0)
        interior_values = game.values(interior)
        # Outside the tied arms, vertex values are > TIE_TOL: a small share of the interior
        # point keeps them positive.
        share = 0.5
        falling = interior_values < values
        falling[tied] = False
        if falling.any():
            gaps = values[falling] / (values[falling] - interior_values[falling])
            share = min(share, 0.5 * float(gaps.min()))
        start = (1.0 - share) * vertex + share * interior
        start_values = (1.0 - share) * values + share * interior_values
        start_values[tied] = (1.0 - share) * np.maximum(values[tied], 0.0) + share * slack
        centre = face_centre(game.matrix, tied[inside], start, start_values)
        if _accept(game, centre, status != IPM_FINAL):
            return centre
    return None


def _grow(arms: NDArray[np.int64], beaten: NDArray[np.int64], values: NDArray) -> NDArray:
    """``arms`` and the most beaten arms of ``beaten`` (as many as ``arms``, at least 8)."""
    added = beaten[np.argsort(values[beaten], kind="stable")[: max(arms.size, ORACLE_BATCH)]]
    return np.union1d(arms, added)


def _interior_games(
    game: _Game, arms: NDArray[np.int64]
) -> tuple[NDArray[np.float64] | None, NDArray[np.float64], NDArray[np.int64]]:
    """Step 2: the certified centre of the last restricted game, its values and arms."""
    while True:
        centre = _restricted_centre(game, arms)
        if centre is None:
            return None, np.zeros(0), arms
        values = game.values(centre)
        outside = np.ones(game.k, dtype=bool)
        outside[arms] = False
        beaten = np.flatnonzero(outside & (values < -CERTIFICATE_TOL))
        if beaten.size == 0:
            return centre, values, arms
        arms = _grow(arms, beaten, values)


class SparseSolution(NamedTuple):
    """The answer of :func:`solve_sparse`.

    Attributes
    ----------
    path : str or None
        One of :data:`SPARSE_METHODS`; ``None`` when no certified answer was found (the
        weights are then zero).
    weights : ndarray, shape (K,)
    arms : ndarray of int64
        The arms of the last restricted game before the tied game: where a game that
        differs a little (a resample of the same log) starts (``start`` of
        :func:`solve_sparse`).
    """

    path: str | None
    weights: NDArray[np.float64]
    arms: NDArray[np.int64]


def solve_sparse(
    matrix: sparse.csr_array, start: NDArray[np.int64] | None = None
) -> SparseSolution:
    """Certified vNW of a sparse skew-symmetric game (validated by the caller).

    Parameters
    ----------
    matrix : scipy.sparse.csr_array, shape (K, K)
        The skew form; explicit zeros are ignored.
    start : ndarray of int64, optional
        Arms to start the interior point games from (a *warm start*: the ``arms`` of a
        similar game's solution), instead of the simplex games from the best Borda arm. The
        answer is the same point: the games grow until certified either way.

    Returns
    -------
    SparseSolution

    Raises
    ------
    SparseGameTooLarge
        If a restricted game has a block of more than :data:`MAX_BLOCK` arms.
    """
    k = matrix.shape[0]
    none = np.zeros(0, dtype=np.int64)
    matrix = sparse.csr_array(matrix, dtype=np.float64)
    matrix.eliminate_zeros()
    matrix.sum_duplicates()
    matrix.sort_indices()
    scale = np.abs(matrix.data).max() if matrix.nnz else 0.0
    if scale == 0.0:
        return SparseSolution(INTERIOR_POINT, np.full(k, 1.0 / k), none)
    game = _Game(matrix / scale)
    winner = condorcet_arm(game.indptr, game.indices, game.data)
    if winner >= 0:
        weights = np.zeros(k)
        weights[winner] = 1.0
        return SparseSolution(CONDORCET, weights, none)
    borda = np.asarray(game.matrix.sum(axis=1)).ravel()
    unique, vertex = False, None
    if start is not None and start.size:
        arms = np.unique(np.asarray(start, dtype=np.int64))
    else:
        status, vertex, arms = column_generation(
            game.indptr,
            game.indices,
            game.data,
            int(np.argmax(borda)),
            ORACLE_BATCH,
            SIMPLEX_GAME_MAX,
            SIMPLEX_PIVOTS * SIMPLEX_GAME_MAX,
        )
        if status == 0:
            values = game.values(vertex)
            unique = _accept(game, vertex, strict=True)
        else:
            vertex = None
    while not unique:
        if vertex is None:
            vertex, values, arms = _interior_games(game, arms)
            if vertex is None:
                return SparseSolution(None, np.zeros(k), arms)
        block = _largest_tied_block(game, values)
        if block.size <= TIED_BLOCK_RATIO * arms.size or np.isin(block, arms).all():
            break
        # The tied game would factor a block far larger than the games so far: its
        # strongest arms (by Borda score) join the interior point games first.
        joining = block[~np.isin(block, arms)]
        joining = joining[np.argsort(-borda[joining], kind="stable")]
        arms = np.union1d(arms, joining[: max(arms.size, ORACLE_BATCH)])
        vertex = None
    centre = _whole_centre(game, vertex, values)
    if centre is None:
        return SparseSolution(None, np.zeros(k), arms)
    return SparseSolution(SIMPLEX if unique else INTERIOR_POINT, centre, arms)


def _whole_centre(
    game: _Game, certified: NDArray[np.float64], values: NDArray[np.float64]
) -> NDArray[np.float64] | None:
    """The analytic centre of the whole game's optimal face from a certified vNW.

    A strictly complementary vNW has the union support: the centre is computed from it
    directly; otherwise (or if that centre is not accepted) through the tied game.
    """
    if _accept(game, certified, strict=True):
        centre = face_centre(game.matrix, np.flatnonzero(certified > 0), certified, values)
        if _accept(game, centre, strict=True):
            return centre
    return _tied_game(game, certified, values)


def as_sparse_skew(matrix: sparse.sparray | sparse.spmatrix, tol: float) -> sparse.csr_array:
    """Validate a sparse skew-form preference matrix; return its exactly skew CSR copy.

    Raises
    ------
    cdbandits.preference.PreferenceMatrixError
        If it is not square, has a non-finite entry, an entry outside ``[-1, 1]``, a
        diagonal entry, or ``|P + P.T|`` above ``tol`` somewhere (the message names it).
    """
    P = sparse.csr_array(matrix, dtype=np.float64)
    if P.ndim != 2 or P.shape[0] != P.shape[1] or P.shape[0] == 0:
        raise PreferenceMatrixError(f"expected a non-empty square matrix, got shape {P.shape}")
    P.sum_duplicates()
    coo = P.tocoo()
    rows, cols, data = coo.row, coo.col, coo.data
    problems = [
        (~np.isfinite(data), "is not finite"),
        (np.abs(data) > 1.0 + tol, "lies outside [-1, 1] (the skew form)"),
        ((rows == cols) & (np.abs(data) > tol), "is on the diagonal (must be 0)"),
    ]
    for bad, what in problems:
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise PreferenceMatrixError(f"entry ({rows[i]}, {cols[i]}) = {data[i]!r} {what}")
    asymmetry = (P + P.T).tocoo()
    bad = np.abs(asymmetry.data) > tol
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        r, c = int(asymmetry.row[i]), int(asymmetry.col[i])
        raise PreferenceMatrixError(
            f"P[{r}, {c}] + P[{c}, {r}] = {asymmetry.data[i]:.3g}: the skew form needs "
            f"P[i, j] = -P[j, i] (within {tol:g})"
        )
    skew = sparse.csr_array((P - P.T) / 2.0)
    skew.eliminate_zeros()
    return skew


def sparse_von_neumann_winner(
    matrix: sparse.sparray | sparse.spmatrix | NDArray[np.float64],
    *,
    tol: float = CERTIFICATE_TOL,
    symmetry_tol: float = SYMMETRY_TOL,
) -> VonNeumannWinner:
    """Certified von Neumann winner of a sparse skew-form preference matrix.

    The same point as :func:`cdbandits.winners.von_neumann_winner` (see the module
    docstring for the method), certified on the whole matrix.

    Parameters
    ----------
    matrix : scipy sparse matrix or array_like, shape (K, K)
        Skew form (``P[i, j] = -P[j, i]`` in ``[-1, 1]``; a pair never compared is 0).
    tol : float, optional
        Certificate tolerance relative to ``max |P|``.
    symmetry_tol : float, optional
        Tolerance of the validity checks of the matrix.

    Returns
    -------
    cdbandits.winners.VonNeumannWinner
        ``solver`` is one of :data:`SPARSE_METHODS`.

    Raises
    ------
    cdbandits.preference.PreferenceMatrixError
        If ``matrix`` is not a valid skew-form matrix.
    cdbandits.winners.CertificationError
        If no answer could be certified to ``tol``.
    SparseGameTooLarge
        If a restricted game has a block of more than :data:`MAX_BLOCK` arms.
    """
    if not (np.isfinite(tol) and tol >= 0):
        raise ValueError(f"tol must be a finite number >= 0, got {tol!r}")
    P = as_sparse_skew(matrix, symmetry_tol)
    k = P.shape[0]
    with one_blas_thread(k + 1):
        path, weights, _ = solve_sparse(P)
    scale = np.abs(P.data).max() if P.nnz else 0.0
    certificate = float(
        lottery_values(P.indptr.astype(np.int64), P.indices.astype(np.int64), P.data, weights).min()
    )
    if path is None or not (scale == 0.0 or certificate / scale >= -tol):
        raise CertificationError(
            f"the von Neumann winner of the {k}x{k} sparse matrix could not be certified to "
            f"-{tol:.0e} (relative to max |P|): no certified answer from the sparse solver"
        )
    return VonNeumannWinner(
        weights=weights,
        support=np.flatnonzero(weights > 0).astype(np.int64),
        exploitability=certificate,
        solver=path,
        status="optimal",
    )
