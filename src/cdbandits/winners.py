"""Winners of a preference matrix: Condorcet, Copeland, Borda, random walk, von Neumann.

Every function takes the skew form ``P`` (see :mod:`cdbandits.preference`); pass a
probability-form matrix through :func:`cdbandits.preference.as_skew` first. Arms are 0-based.

The von Neumann winner (vNW) is computed by the compiled kernel of
:mod:`cdbandits.vnw_kernels` (Condorcet shortcut, a dense simplex method, on large games
inside a double oracle, and an interior point method, on the tied arms, on the growing games
of a double oracle that outgrew the simplex, or on the whole game, when the simplex vertex is
not provably the unique vNW), or without numba by
:mod:`cdbandits.vnw_numpy` (``engine="numpy"``; ``engine="auto"`` for small matrices, as the
command line does: it spares a short process the cost of loading numba), or, for a matrix of
many arms and few non-zero entries (a comparison log's: pairs never compared are ties) and
for scipy sparse matrices, by the sparse solver of :mod:`cdbandits.vnw_sparse` (games
restricted to growing sets of arms, certified on the whole matrix in time proportional to
its non-zero entries), and certified:
``exploitability = min_b (P.T @ w)[b] >= -CERTIFICATE_TOL`` relative to ``max |P|``. A
matrix that cannot be certified raises :class:`CertificationError`; there is no fallback.
Every solver factors its matrices on one BLAS thread (:mod:`cdbandits.blas_threads`).

**Which vNW is returned.** When the vNW is unique, that vNW (the exact solution of the
equalizer system on its support). When it is not (ties, clones), the vNWs form a polytope
(the optimal face) and the returned point is its *analytic centre*, the point maximising
``sum_{a in U} log w[a] + sum_{b not in U} log (P.T @ w)[b]`` over the face, where ``U`` is
the union of the supports of all vNWs. So the support of the answer is ``U``, and arms that
are exchangeable (clones) get equal weight. The cvxpy reference
(:func:`cdbandits.reference.reference_von_neumann_winner`, used when a cvxpy ``solver`` is
named) returns a point of the same face with the same support, but where in the face
depends on the solver's iterations (up to about 0.2 apart on small integer matrices).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .blas_threads import one_blas_thread
from .preference import Convention, as_skew
from .reference import (
    EXACT_TOL,
    REFERENCE_SOLVER,
    SIMPLEX_OPTIONS,
    SIMPLEX_SOLVER,
    SUPPORT_THRESHOLD,
    polish_von_neumann,
    reference_von_neumann_winner,
)
from .vnw_numpy import NUMPY_MAX_K
from .vnw_numpy import solve as solve_without_numba
from .vnw_result import (
    CERTIFICATE_TOL,
    CONDORCET_SHORTCUT,
    CertificationError,
    SolverError,
    VonNeumannWinner,
    condorcet_winner,
    exploitability,
)

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "CERTIFICATE_TOL",
    "COMPILED_METHODS",
    "CONDORCET_SHORTCUT",
    "COPELAND_VARIANTS",
    "ENGINES",
    "NUMPY_MAX_K",
    "EXACT_TOL",
    "REFERENCE_SOLVER",
    "SUPPORT_THRESHOLD",
    "CertificationError",
    "CopelandVariant",
    "Engine",
    "SIMPLEX_OPTIONS",
    "SIMPLEX_SOLVER",
    "SPARSE_MAX_DENSITY",
    "SPARSE_MIN_K",
    "SolverError",
    "VonNeumannWinner",
    "all_winners",
    "borda_scores",
    "condorcet_winner",
    "copeland_losses",
    "copeland_scores",
    "copeland_winners",
    "exploitability",
    "polish_von_neumann",
    "random_walk_distribution",
    "reference_von_neumann_winner",
    "von_neumann_winner",
    "winners_markdown",
    "winners_table",
]

#: ``solver`` of a result of the compiled kernel, by its path (see
#: :mod:`cdbandits.vnw_kernels`): the Condorcet shortcut, the simplex method (unique vNW),
#: the interior point method (dense supports, ties, clones).
COMPILED_METHODS: tuple[str, ...] = (CONDORCET_SHORTCUT, "simplex", "interior_point")

Engine = Literal["compiled", "numpy", "auto", "sparse"]

#: Which solver computes the vNW when no cvxpy ``solver`` is named: the compiled kernel, the
#: NumPy path of :mod:`cdbandits.vnw_numpy` (``solver`` ``"condorcet"`` or
#: ``"numpy_interior_point"``), the NumPy path up to :data:`NUMPY_MAX_K` arms and the
#: compiled kernel above, or the sparse solver of :mod:`cdbandits.vnw_sparse`. Matrices of at
#: least :data:`SPARSE_MIN_K` arms with at most :data:`SPARSE_MAX_DENSITY` of their entries
#: non-zero go to the sparse solver under every engine but ``"numpy"``, and so do scipy
#: sparse matrices.
ENGINES: tuple[Engine, ...] = ("compiled", "numpy", "auto", "sparse")

#: See :data:`ENGINES`: the sparse solver restricts its games to the compared pairs, which
#: pays once there are a few hundred arms and most pairs are ties.
SPARSE_MIN_K = 300

#: See :data:`SPARSE_MIN_K`.
SPARSE_MAX_DENSITY = 0.2

CopelandVariant = Literal["wins", "wins_or_ties", "wins_minus_losses"]

#: The three Copeland scores of the paper's Appendix B table, in the table's order:
#: ``"wins"`` = #{j: P(i,j) > 0}; ``"wins_or_ties"`` = #{j: P(i,j) >= 0}, counted over all j
#: *including j = i* (P(i,i) = 0), as the paper's table does (this adds 1 to every score and
#: does not change the winners); ``"wins_minus_losses"`` = #{j: P(i,j) > 0} - #{j: P(i,j) < 0}.
COPELAND_VARIANTS: tuple[CopelandVariant, ...] = ("wins", "wins_or_ties", "wins_minus_losses")


def copeland_scores(P: ArrayLike, variant: CopelandVariant = "wins") -> NDArray[np.int64]:
    """Copeland score of every arm in one of the paper's three variants.

    Parameters
    ----------
    P : array_like, shape (K, K)
        Skew-form preference matrix.
    variant : {"wins", "wins_or_ties", "wins_minus_losses"}, optional
        See :data:`COPELAND_VARIANTS`. Ties are exact zeros of ``P``.

    Returns
    -------
    ndarray of int64, shape (K,)
    """
    P = np.asarray(P, dtype=np.float64)
    wins = np.count_nonzero(P > 0, axis=1)
    if variant == "wins":
        return wins.astype(np.int64)
    if variant == "wins_or_ties":
        return np.count_nonzero(P >= 0, axis=1).astype(np.int64)
    if variant == "wins_minus_losses":
        return (wins - np.count_nonzero(P < 0, axis=1)).astype(np.int64)
    raise ValueError(f"variant must be one of {COPELAND_VARIANTS}, got {variant!r}")


def copeland_winners(P: ArrayLike, variant: CopelandVariant = "wins") -> NDArray[np.int64]:
    """Arms with the largest Copeland score (sorted indices).

    Parameters
    ----------
    P : array_like, shape (K, K)
        Skew-form preference matrix.
    variant : {"wins", "wins_or_ties", "wins_minus_losses"}, optional
        See :data:`COPELAND_VARIANTS`.

    Returns
    -------
    ndarray of int64
    """
    scores = copeland_scores(P, variant)
    return np.flatnonzero(scores == scores.max()).astype(np.int64)


def copeland_losses(P: ArrayLike, variant: CopelandVariant = "wins") -> NDArray[np.int64]:
    """Copeland loss of every arm: the best score minus the arm's own score.

    Parameters
    ----------
    P : array_like, shape (K, K)
        Skew-form preference matrix.
    variant : {"wins", "wins_or_ties", "wins_minus_losses"}, optional
        See :data:`COPELAND_VARIANTS`.

    Returns
    -------
    ndarray of int64, shape (K,)
        Zero exactly for the Copeland winners.
    """
    scores = copeland_scores(P, variant)
    return scores.max() - scores


def borda_scores(P: ArrayLike) -> NDArray[np.float64]:
    """Borda score: probability of beating an opponent drawn uniformly from all K arms.

    The mean over *all* K columns (the arm itself included, at probability 1/2) of the
    probability form ``Q = (P + 1) / 2``, as in the paper's Appendix B example.

    Parameters
    ----------
    P : array_like, shape (K, K)
        Skew-form preference matrix.

    Returns
    -------
    ndarray of float64, shape (K,)
    """
    P = np.asarray(P, dtype=np.float64)
    return ((P + 1.0) / 2.0).mean(axis=1)


def random_walk_distribution(P: ArrayLike) -> NDArray[np.float64]:
    """Stationary distribution of the paper's random walk over arms.

    The probability form ``Q = (P + 1) / 2`` is made column-stochastic (each column divided
    by its sum) and the stationary distribution is its right eigenvector for eigenvalue 1,
    normalised to sum to 1. The random-walk winner is its argmax.

    The distribution is unique for every valid preference matrix: the walk can move from
    ``j`` to ``i`` whenever ``Q[i, j] > 0``, and ``Q[i, j] + Q[j, i] = 1`` allows at least
    one direction between any two arms, so the walk has a single closed class.

    Parameters
    ----------
    P : array_like, shape (K, K)
        Skew-form preference matrix.

    Returns
    -------
    ndarray of float64, shape (K,)
        Non-negative, sums to 1.
    """
    P = np.asarray(P, dtype=np.float64)
    Q = (P + 1.0) / 2.0
    transition = Q / Q.sum(axis=0, keepdims=True)
    k = transition.shape[0]
    system = np.vstack([transition - np.eye(k), np.ones((1, k))])
    rhs = np.zeros(k + 1)
    rhs[-1] = 1.0
    return np.linalg.lstsq(system, rhs, rcond=None)[0]


def von_neumann_winner(
    matrix: ArrayLike,
    *,
    convention: Convention | Literal["auto"] = "skew",
    solver: str | None = None,
    tol: float = CERTIFICATE_TOL,
    engine: Engine = "compiled",
) -> VonNeumannWinner:
    """Certified von Neumann winner of a preference matrix.

    See the module docstring for the method and which vNW is returned when it is not unique.

    Parameters
    ----------
    matrix : array_like or scipy sparse matrix, shape (K, K)
        Preference matrix; skew form unless ``convention`` says otherwise (a scipy sparse
        matrix must be in the skew form: its missing entries are ties).
    convention : {"skew", "probability", "auto"}, optional
        Convention of ``matrix`` (validated with :func:`cdbandits.preference.as_skew`).
    solver : str, optional
        ``None`` (default): the compiled kernel. A cvxpy LP solver name (``"CLARABEL"``,
        ``"HIGHS"``, ...): the cvxpy reference,
        :func:`cdbandits.reference.reference_von_neumann_winner`.
    tol : float, optional
        Certificate tolerance relative to ``max |P|``, default :data:`CERTIFICATE_TOL`.
    engine : {"compiled", "numpy", "auto", "sparse"}, optional
        Without ``solver``: the compiled kernel (default), the NumPy path, the NumPy path
        for at most :data:`NUMPY_MAX_K` arms, or the sparse solver; large sparse matrices go
        to the sparse solver under every engine but ``"numpy"`` (see :data:`ENGINES`). All
        are certified the same way and return the same point up to rounding.

    Returns
    -------
    VonNeumannWinner

    Raises
    ------
    cdbandits.preference.PreferenceMatrixError
        If ``matrix`` is not a valid preference matrix.
    ValueError
        If ``tol`` is not a finite non-negative number, or ``engine`` is unknown.
    CertificationError
        If no answer could be certified to ``tol``.
    SolverError
        If a named cvxpy solver does not report an optimal solution.

    Examples
    --------
    >>> rps = [[0, 1, -1], [-1, 0, 1], [1, -1, 0]]
    >>> result = von_neumann_winner(rps)
    >>> result.weights.round(6), result.support, result.solver
    (array([0.333333, 0.333333, 0.333333]), array([0, 1, 2]), 'simplex')
    """
    if not (np.isfinite(tol) and tol >= 0):
        raise ValueError(f"tol must be a finite number >= 0, got {tol!r}")
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {ENGINES}, got {engine!r}")
    if solver is not None:
        return reference_von_neumann_winner(matrix, convention=convention, solver=solver, tol=tol)
    scipy_sparse = type(matrix).__module__.startswith("scipy.sparse")  # without importing it
    if scipy_sparse and convention != "skew":
        raise ValueError("a scipy sparse matrix must be in the skew form (convention='skew')")
    P = matrix if scipy_sparse else as_skew(matrix, convention)
    k = P.shape[0]
    if (
        scipy_sparse
        or engine == "sparse"
        or (
            engine != "numpy"
            and k >= SPARSE_MIN_K
            and np.count_nonzero(P) <= SPARSE_MAX_DENSITY * k * k
        )
    ):
        from .vnw_sparse import sparse_von_neumann_winner  # scipy and numba: on first use

        return sparse_von_neumann_winner(P, tol=tol)
    if engine == "numpy" or (engine == "auto" and k <= NUMPY_MAX_K):
        with one_blas_thread(k + 1):
            method, weights = solve_without_numba(P)
        name = "NumPy"
    else:
        from .vnw_kernels import FAILED, solve_one  # numba: loaded on first use, not on import

        weights = np.zeros(k)
        with one_blas_thread(k + 1):
            path, _ = solve_one(P, np.arange(k, dtype=np.int64), weights)
        method = None if path == FAILED else COMPILED_METHODS[path]
        name = "compiled"
    scale = np.abs(P).max()
    if method is None or not (exploitability(P / scale, weights) if scale > 0 else 0.0) >= -tol:
        raise CertificationError(
            f"the von Neumann winner of the {k}x{k} matrix could not be certified to "
            f"-{tol:.0e} (relative to max |P|): no certified answer from the {name} solver"
        )
    return VonNeumannWinner(
        weights=weights,
        support=np.flatnonzero(weights > 0).astype(np.int64),
        exploitability=exploitability(P, weights),
        solver=method,
        status="optimal",
    )


def all_winners(
    P: ArrayLike, solver: str | None = None, engine: Engine = "compiled"
) -> dict[str, Any]:
    """Every winner notion of a skew-form matrix as a JSON-ready dictionary (0-based arms).

    Parameters
    ----------
    P : array_like, shape (K, K)
        Skew-form preference matrix (validated).
    solver : str, optional
        ``None``: the compiled solver; a cvxpy solver name: the cvxpy reference.
    engine : {"compiled", "numpy", "auto"}, optional
        Passed to :func:`von_neumann_winner`.

    Returns
    -------
    dict
        ``K``; ``condorcet`` (int or None); ``copeland``: per variant the ``scores`` and
        ``winners``; ``borda``: ``scores`` and ``winners``; ``random_walk``:
        ``distribution`` and ``winners``; ``von_neumann``: ``weights``, ``support``,
        ``exploitability``, ``solver``, ``status``.
    """
    P = as_skew(P, "skew")
    borda = borda_scores(P)
    walk = random_walk_distribution(P)
    vnw = von_neumann_winner(P, solver=solver, engine=engine)
    return {
        "K": int(P.shape[0]),
        "condorcet": condorcet_winner(P),
        "copeland": {
            variant: {
                "scores": copeland_scores(P, variant).tolist(),
                "winners": copeland_winners(P, variant).tolist(),
            }
            for variant in COPELAND_VARIANTS
        },
        "borda": {"scores": borda.tolist(), "winners": _argmax_set(borda)},
        "random_walk": {"distribution": walk.tolist(), "winners": _argmax_set(walk)},
        "von_neumann": {
            "weights": vnw.weights.tolist(),
            "support": vnw.support.tolist(),
            "exploitability": vnw.exploitability,
            "solver": vnw.solver,
            "status": vnw.status,
        },
    }


def _argmax_set(values: NDArray[np.float64], rtol: float = 1e-12) -> list[int]:
    """Indices whose value equals the maximum up to a relative rounding tolerance."""
    best = values.max()
    return np.flatnonzero(values >= best - rtol * max(abs(best), 1.0)).tolist()


def winners_table(details: Mapping[str, Mapping[str, Any]]) -> pd.DataFrame:
    """One row per named matrix from :func:`all_winners` results (arm lists joined by ';').

    Parameters
    ----------
    details : mapping of str to dict
        Matrix name to the output of :func:`all_winners`.

    Returns
    -------
    pandas.DataFrame
    """
    import pandas as pd  # here, not at the top: the command line does not need it

    def joined(values: list[Any]) -> str:
        return ";".join(str(value) for value in values)

    rows = []
    for name, result in details.items():
        vnw = result["von_neumann"]
        copeland = result["copeland"]["wins"]
        rows.append(
            {
                "matrix": name,
                "K": result["K"],
                "condorcet_winner": result["condorcet"],
                "copeland_winners": joined(copeland["winners"]),
                "copeland_best_score": max(copeland["scores"]),
                "borda_winners": joined(result["borda"]["winners"]),
                "random_walk_winners": joined(result["random_walk"]["winners"]),
                "von_neumann_support": joined(vnw["support"]),
                "von_neumann_weights": joined(vnw["weights"][arm] for arm in vnw["support"]),
                "exploitability": vnw["exploitability"],
                "solver": vnw["solver"],
                "status": vnw["status"],
            }
        )
    table = pd.DataFrame(rows)
    table["condorcet_winner"] = table["condorcet_winner"].astype("Int64")
    return table


def winners_markdown(details: Mapping[str, Mapping[str, Any]]) -> str:
    """A Markdown table of every winner of each named matrix (0-based arms), for RESULTS.md.

    Parameters
    ----------
    details : mapping of str to dict
        Matrix name to the output of :func:`all_winners`.

    Returns
    -------
    str
        One row per matrix: Condorcet winner (or none), Copeland winners with their wins out
        of ``K - 1``, Borda and random-walk winners, and the von Neumann winner's weights
        (4 decimals) with the compiled path that found it and its certificate.
    """

    def arms(values: list[int]) -> str:
        return ", ".join(str(arm) for arm in values)

    lines = [
        "| matrix | Condorcet winner | Copeland winner (wins of K − 1) | Borda / random-walk "
        "winner | von Neumann winner |",
        "|---|---|---|---|---|",
    ]
    for name, result in details.items():
        vnw = result["von_neumann"]
        copeland = result["copeland"]["wins"]
        if len(vnw["support"]) == 1:
            von_neumann = str(vnw["support"][0])
        else:
            weights = ", ".join(f"{arm}: {vnw['weights'][arm]:.4f}" for arm in vnw["support"])
            von_neumann = f"{weights} ({vnw['solver']}, certificate {vnw['exploitability']:.0e})"
        condorcet = "none" if result["condorcet"] is None else str(result["condorcet"])
        lines.append(
            f"| {name} | {condorcet} | {arms(copeland['winners'])} "
            f"({max(copeland['scores']):g} of {result['K'] - 1}) | "
            f"{arms(result['borda']['winners'])} / {arms(result['random_walk']['winners'])} | "
            f"{von_neumann} |"
        )
    return "\n".join(lines) + "\n"
