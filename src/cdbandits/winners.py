"""Winners of a preference matrix: Condorcet, Copeland, Borda, random walk, von Neumann.

Every function takes the skew form ``P`` (see :mod:`cdbandits.preference`); pass a
probability-form matrix through :func:`cdbandits.preference.as_skew` first. Arms are 0-based.

The von Neumann winner (vNW) of a matrix with a Condorcet winner ``a`` is the point mass on
``a`` (it is then unique), returned without an LP. Otherwise it is computed by a linear
program written in cvxpy and then *polished* to an exact answer and *certified*:

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
   earlier candidate.
4. Certificate: ``exploitability = min_b (P.T @ w)[b]``, the worst expected duel outcome
   of ``w`` against any single arm (0 for an exact vNW), computed relative to the matrix's
   scale (for ``P / max|P|``), which implies the absolute certificate since valid entries
   have ``|P| <= 1``.
5. If the best certificate is not exact (``< -EXACT_TOL`` = -1e-12; an interior-point
   solution can leave weights of 1e-9 to 1e-5 on wrong arms when entries of very different
   magnitudes make the objective flat in some direction), the LP is re-solved by the
   simplex method (HiGHS, feasibility tolerances 1e-10), whose vertex solution has an
   exact support, and steps 2-4 are repeated; the best candidate of both solves is kept
   and ``solver`` in the result says which solve it came from. The answer is returned
   only if its certificate is ``>= -CERTIFICATE_TOL``; otherwise
   :class:`CertificationError` is raised. Nothing uncertified is returned.

The support of the returned ``w`` is the set of arms with positive weight; after the polish
those weights are bounded away from zero by the solver's accuracy.

**Ties and clones.** For generic ``P`` the vNW is unique (and its support has odd size).
When arms are clones or pairs tie exactly, the vNWs form a polytope. The returned point is
then the solver's optimal point projected as above: an interior-point solver returns a
point in the relative interior of that polytope (clones share weight equally by symmetry),
a simplex solver (``solver="HIGHS"``) returns a vertex.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike, NDArray

from .preference import Convention, as_skew

__all__ = [
    "CERTIFICATE_TOL",
    "CONDORCET_SHORTCUT",
    "COPELAND_VARIANTS",
    "EXACT_TOL",
    "SUPPORT_THRESHOLD",
    "CertificationError",
    "CopelandVariant",
    "SIMPLEX_OPTIONS",
    "SIMPLEX_SOLVER",
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
    "von_neumann_winner",
    "winners_table",
]

#: A returned von Neumann winner ``w`` satisfies ``min_b (P.T @ w)[b] >= -CERTIFICATE_TOL``.
CERTIFICATE_TOL = 1e-9

#: ``solver`` of a result that needed no LP: a Condorcet winner is the unique vNW.
CONDORCET_SHORTCUT = "condorcet"

#: The simplex-method solver that re-solves the LP when the first solution fails step 4,
#: and its options: feasibility tolerances well below the certificate's.
SIMPLEX_SOLVER = "HIGHS"
SIMPLEX_OPTIONS = {"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10}

#: A polished answer this close to 0 (relative to max |P|) is exact up to rounding; anything
#: worse triggers the simplex re-solve of step 5 even when it passes the certificate.
EXACT_TOL = 1e-12

#: The second support rule of step 3: weights above this fraction of the largest weight.
SUPPORT_THRESHOLD = 1e-6

CopelandVariant = Literal["wins", "wins_or_ties", "wins_minus_losses"]

#: The three Copeland scores of the paper's Appendix B table, in the table's order:
#: ``"wins"`` = #{j: P(i,j) > 0}; ``"wins_or_ties"`` = #{j: P(i,j) >= 0}, counted over all j
#: *including j = i* (P(i,i) = 0), as the paper's table does (this adds 1 to every score and
#: does not change the winners); ``"wins_minus_losses"`` = #{j: P(i,j) > 0} - #{j: P(i,j) < 0}.
COPELAND_VARIANTS: tuple[CopelandVariant, ...] = ("wins", "wins_or_ties", "wins_minus_losses")


class SolverError(RuntimeError):
    """The LP solver did not report an optimal solution."""


class CertificationError(RuntimeError):
    """A computed von Neumann winner could not be certified to ``CERTIFICATE_TOL``."""


def condorcet_winner(P: ArrayLike) -> int | None:
    """Return the arm that beats every other arm, or ``None`` if there is none.

    Parameters
    ----------
    P : array_like, shape (K, K)
        Skew-form preference matrix.

    Returns
    -------
    int or None
        The arm ``a`` with ``P[a, b] > 0`` for every ``b != a``. For ``K = 1`` the single
        arm is the Condorcet winner.
    """
    P = np.asarray(P, dtype=np.float64)
    wins = copeland_scores(P, "wins")
    candidates = np.flatnonzero(wins == P.shape[0] - 1)
    return int(candidates[0]) if candidates.size else None


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


def exploitability(P: ArrayLike, weights: ArrayLike) -> float:
    """Certificate of a mixed strategy: ``min_b (P.T @ w)[b]``.

    The worst expected duel outcome of ``w`` against a single arm. It is ``<= 0`` for every
    ``w`` (the game value is 0), ``== 0`` exactly for a von Neumann winner, and ``w`` is an
    eps-approximate von Neumann winner iff it is ``>= -eps``.

    Parameters
    ----------
    P : array_like, shape (K, K)
        Skew-form preference matrix.
    weights : array_like, shape (K,)
        A distribution over arms.

    Returns
    -------
    float
    """
    P = np.asarray(P, dtype=np.float64)
    return float((np.asarray(weights, dtype=np.float64) @ P).min())


@dataclass(frozen=True)
class VonNeumannWinner:
    """A certified von Neumann winner.

    Attributes
    ----------
    weights : ndarray of float64, shape (K,)
        The distribution ``w`` over arms; zero outside the support, sums to 1.
    support : ndarray of int64
        Sorted arms with positive weight.
    exploitability : float
        ``min_b (P.T @ w)[b]``, ``>= -CERTIFICATE_TOL``.
    solver : str
        The cvxpy solver whose LP solution was polished into ``weights`` (the requested
        one, or :data:`SIMPLEX_SOLVER` after step 5 of the module docstring), or
        :data:`CONDORCET_SHORTCUT` when a Condorcet winner made the LP unnecessary.
    status : str
        The cvxpy status of that LP (``"optimal"`` or ``"optimal_inaccurate"``).
    """

    weights: NDArray[np.float64]
    support: NDArray[np.int64]
    exploitability: float
    solver: str
    status: str


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


def von_neumann_winner(
    matrix: ArrayLike,
    *,
    convention: Convention | Literal["auto"] = "skew",
    solver: str | None = None,
    tol: float = CERTIFICATE_TOL,
) -> VonNeumannWinner:
    """Certified von Neumann winner of a preference matrix (cvxpy LP, then exact polish).

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
        Certificate tolerance relative to ``max |P|``, default :data:`CERTIFICATE_TOL`.

    Returns
    -------
    VonNeumannWinner

    Raises
    ------
    cdbandits.preference.PreferenceMatrixError
        If ``matrix`` is not a valid preference matrix.
    SolverError
        If the solver does not report an optimal solution.
    CertificationError
        If the polished solution is not certified to ``tol``.

    Examples
    --------
    >>> rps = [[0, 1, -1], [-1, 0, 1], [1, -1, 0]]
    >>> result = von_neumann_winner(rps)
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
            f"{best[0]:.3e} after polishing, {exploitability(scaled, raw):.3e} before"
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


def all_winners(P: ArrayLike, solver: str | None = None) -> dict[str, Any]:
    """Every winner notion of a skew-form matrix as a JSON-ready dictionary (0-based arms).

    Parameters
    ----------
    P : array_like, shape (K, K)
        Skew-form preference matrix (validated).
    solver : str, optional
        cvxpy solver for the von Neumann LP.

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
    vnw = von_neumann_winner(P, solver=solver)
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
