"""The cvxpy reference for von Neumann winners: an LP, an exact polish and a certificate.

This is the solver the library used before :mod:`cdbandits.vnw_kernels`; it stays as the
independent reference of the tests and of the appendix verification
(:func:`cdbandits.experiments.appendix.verification.verify_against_reference`), and answers
:func:`cdbandits.winners.von_neumann_winner` when a cvxpy solver is named.

1. LP: maximise ``t`` subject to ``P.T @ w >= t``, ``w >= 0``, ``sum(w) == 1``, with ``P``
   first divided by its largest absolute entry (this does not change the vNWs). The game
   is symmetric, so the optimal ``t`` is 0 and the optimal ``w`` are exactly the vNWs.
2. Support detection by complementary slackness: arm ``a`` is in the support when its LP
   weight exceeds its slack, ``w[a] > (P.T @ w)[a]``. Interior-point solvers (Clarabel, the
   cvxpy default) return a strictly complementary solution, in which exactly one of the
   two is positive for every arm, so no weight threshold is involved.
3. Polish: every vNW ``w`` satisfies ``(P.T @ w)[b] == 0`` for ``b`` in the support (every
   support arm is a best response of the opponent). ``w`` restricted to the support is
   projected onto that affine set (plus ``sum(w) == 1``) by least squares; entries outside
   the support are exactly 0. Arms whose polished weight is not positive are dropped and
   the projection repeated. This is done for two support guesses, the complementary-
   slackness rule of step 2 and the arms with weight above ``SUPPORT_THRESHOLD`` (1e-6)
   times the largest; the solver's own point, clipped at 0 and renormalised, is a third
   candidate. The candidate with the best certificate (step 4) wins; ties go to the
   first candidate in this order.
4. Certificate: ``exploitability = min_b (P.T @ w)[b]`` relative to the matrix's scale.
5. If the best certificate is not exact (``< -EXACT_TOL`` = -1e-12), the LP is re-solved by
   the simplex method (HiGHS, feasibility tolerances 1e-10) and steps 2-4 are repeated; the
   best candidate of both solves is kept. The answer is returned only if its certificate is
   ``>= -CERTIFICATE_TOL``; otherwise :class:`~cdbandits.winners.CertificationError` is raised.

On non-unique cases an interior-point solver returns a point in the relative interior of
the optimal face (clones share weight equally by symmetry), a simplex solver a vertex.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .preference import Convention, as_skew
from .vnw_result import (
    CERTIFICATE_TOL,
    CONDORCET_SHORTCUT,
    CertificationError,
    SolverError,
    VonNeumannWinner,
    condorcet_winner,
    exploitability,
)

__all__ = [
    "EXACT_TOL",
    "REFERENCE_SOLVER",
    "SIMPLEX_OPTIONS",
    "SIMPLEX_SOLVER",
    "SUPPORT_THRESHOLD",
    "check_solver_name",
    "polish_von_neumann",
    "reference_von_neumann_winner",
]

#: cvxpy's default solver for this LP, named in the results of the reference.
REFERENCE_SOLVER = "CLARABEL"

#: The simplex-method solver that re-solves the LP when the first solution fails step 4,
#: and its options: feasibility tolerances well below the certificate's.
SIMPLEX_SOLVER = "HIGHS"
SIMPLEX_OPTIONS = {"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10}

#: A polished answer this close to 0 (relative to max |P|) is exact up to rounding; anything
#: worse triggers the simplex re-solve of step 5 even when it passes the certificate.
EXACT_TOL = 1e-12

#: The second support rule of step 3: weights above this fraction of the largest weight.
SUPPORT_THRESHOLD = 1e-6


def polish_von_neumann(
    P: NDArray[np.float64], approximate: NDArray[np.float64], support: ArrayLike
) -> NDArray[np.float64]:
    """Project an approximate vNW onto the exact equalizer conditions of a support.

    Solves, in the least-squares sense and starting from ``approximate``, the consistent
    system ``(P[S][:, S].T @ w_S) = 0``, ``sum(w_S) = 1`` (step 3 of the module docstring),
    dropping arms whose weight comes out non-positive until all are positive.

    Parameters
    ----------
    P : ndarray, shape (K, K)
        Skew-form preference matrix.
    approximate : ndarray, shape (K,)
        Approximate vNW (e.g. from an LP solver).
    support : array_like of int
        The arms believed to form the support.

    Returns
    -------
    ndarray of float64, shape (K,)
        Zero outside the final support, positive on it, summing to 1. Not certified: check
        it with :func:`exploitability`. All zeros if every arm was dropped.
    """
    k = P.shape[0]
    support = np.asarray(support, dtype=np.int64)
    while support.size:
        sub = P[np.ix_(support, support)]
        system = np.vstack([sub.T, np.ones((1, support.size))])
        rhs = np.zeros(support.size + 1)
        rhs[-1] = 1.0
        start = approximate[support]
        correction = np.linalg.lstsq(system, rhs - system @ start, rcond=None)[0]
        polished = start + correction
        positive = polished > 0
        if positive.all():
            weights = np.zeros(k)
            weights[support] = polished / polished.sum()
            return weights
        support = support[positive]
    return np.zeros(k)


def check_solver_name(solver: str) -> str:
    """Return ``solver`` if it names an installed cvxpy LP solver (case-insensitive), upper-cased.

    Raises
    ------
    ValueError
        Naming the installed solvers, if it does not.
    """
    import cvxpy  # here, not at the top: it takes most of a second to import

    installed = cvxpy.installed_solvers()
    if str(solver).upper() not in installed:
        raise ValueError(
            f"{solver!r} is not an installed cvxpy solver; installed: {', '.join(installed)}"
        )
    return str(solver).upper()


def reference_von_neumann_winner(
    matrix: ArrayLike,
    *,
    convention: Convention | Literal["auto"] = "skew",
    solver: str | None = None,
    tol: float = CERTIFICATE_TOL,
) -> VonNeumannWinner:
    """Certified von Neumann winner by the cvxpy reference (LP, then exact polish).

    See the module docstring for the LP, the support rule, the polish and which solution is
    returned when the vNW is not unique.

    Parameters
    ----------
    matrix : array_like, shape (K, K)
        Preference matrix; skew form unless ``convention`` says otherwise.
    convention : {"skew", "probability", "auto"}, optional
        Convention of ``matrix`` (validated with :func:`cdbandits.preference.as_skew`).
    solver : str, optional
        A cvxpy LP solver name (``"CLARABEL"``, ``"HIGHS"``, ``"SCIPY"``, ...);
        ``None`` lets cvxpy choose its default.
    tol : float, optional
        Certificate tolerance relative to ``max |P|``, default
        :data:`~cdbandits.vnw_result.CERTIFICATE_TOL`.

    Returns
    -------
    cdbandits.winners.VonNeumannWinner

    Raises
    ------
    cdbandits.preference.PreferenceMatrixError
        If ``matrix`` is not a valid preference matrix.
    cdbandits.winners.SolverError
        If the solver does not report an optimal solution.
    cdbandits.winners.CertificationError
        If the polished solution is not certified to ``tol``.

    Examples
    --------
    >>> rps = [[0, 1, -1], [-1, 0, 1], [1, -1, 0]]
    >>> result = reference_von_neumann_winner(rps)
    >>> result.weights.round(6), result.support
    (array([0.333333, 0.333333, 0.333333]), array([0, 1, 2]))
    """
    P = as_skew(matrix, convention)
    k = P.shape[0]
    winner = condorcet_winner(P)
    if winner is not None:
        weights = np.zeros(k)
        weights[winner] = 1.0
        return VonNeumannWinner(
            weights=weights,
            support=np.array([winner], dtype=np.int64),
            exploitability=exploitability(P, weights),
            solver=CONDORCET_SHORTCUT,
            status="optimal",
        )
    # The vNWs do not change when P is scaled; scaling to max |P| = 1 makes the solver's
    # absolute tolerances and the slack-versus-weight support rule independent of scale.
    scale = np.abs(P).max()
    scaled = P / scale if scale > 0 else P
    attempts = [solver] if solver == SIMPLEX_SOLVER else [solver, SIMPLEX_SOLVER]
    best: tuple[float, NDArray[np.float64], str, str] | None = None
    failures = []
    for attempt in attempts:
        raw, solver_name, status = _solve_lp(scaled, attempt)
        for weights in _candidates(scaled, raw):
            relative = exploitability(scaled, weights)
            if best is None or relative > best[0]:
                best = (relative, weights, solver_name, status)
        if best[0] >= -EXACT_TOL:
            break
        failures.append(
            f"{solver_name} (status {status!r}): best min_b (P.T w)_b / max|P| = "
            f"{best[0]:.3e} after polishing, {float((raw @ scaled).min()):.3e} before"
        )
    relative, weights, solver_name, status = best
    if not relative >= -tol:
        raise CertificationError(
            f"the von Neumann winner of the {k}x{k} matrix could not be certified to "
            f"-{tol:.0e}: " + "; ".join(failures)
        )
    return VonNeumannWinner(
        weights=weights,
        support=np.flatnonzero(weights > 0).astype(np.int64),
        exploitability=exploitability(P, weights),
        solver=solver_name,
        status=status,
    )


def _candidates(scaled: NDArray[np.float64], raw: NDArray[np.float64]) -> list[NDArray[np.float64]]:
    """Polished candidates of step 3 from an LP solution (all distributions, none empty)."""
    slack_rule = np.flatnonzero(raw > scaled.T @ raw)
    threshold_rule = np.flatnonzero(raw > SUPPORT_THRESHOLD * raw.max())
    clipped = np.clip(raw, 0.0, None)
    candidates = [
        polish_von_neumann(scaled, raw, slack_rule),
        polish_von_neumann(scaled, raw, threshold_rule),
        clipped / clipped.sum(),
    ]
    return [weights for weights in candidates if weights.any()]


def _solve_lp(
    scaled: NDArray[np.float64], solver: str | None
) -> tuple[NDArray[np.float64], str, str]:
    """Solve the vNW LP of step 1 with cvxpy; return the weights, solver name and status."""
    import cvxpy as cp  # here, not at the top: it takes most of a second to import

    k = scaled.shape[0]
    w = cp.Variable(k, nonneg=True)
    t = cp.Variable()
    problem = cp.Problem(cp.Maximize(t), [scaled.T @ w >= t, cp.sum(w) == 1])
    options = SIMPLEX_OPTIONS if solver == SIMPLEX_SOLVER else {}
    try:
        problem.solve(solver=solver, **options)
    except cp.error.SolverError as error:
        raise SolverError(f"the LP solver failed on the {k}x{k} matrix: {error}") from error
    solver_name = problem.solver_stats.solver_name if problem.solver_stats else str(solver)
    if problem.status not in (cp.OPTIMAL, cp.OPTIMAL_INACCURATE) or w.value is None:
        raise SolverError(
            f"the LP solver {solver_name} returned status {problem.status!r} on the "
            f"{k}x{k} matrix; expected 'optimal'"
        )
    return np.asarray(w.value, dtype=np.float64), solver_name, str(problem.status)
