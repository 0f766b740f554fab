"""Ground truth for enumerable classes: dense ``Mhat`` and ``M``, and certified maxmin strategies.

For ``|Pi|`` up to a few thousand the policy-level games are small enough to write down:
``G(pi, rho) = sum_x block_x(pi(x), rho(x))`` with ``block_x = p(x) P_x`` for the true
``M`` and ``block_x = (1/m) sum_{i: x_i = x} Phat_i`` for ``Mhat``
(:meth:`~cdbandits.oracle_methods.compact_game.CompactGame.context_blocks`).

``Mhat`` from the paper's estimator is **not** skew-symmetric (its value is not 0), so
:func:`cdbandits.winners.von_neumann_winner` does not apply. :func:`maxmin_strategy` solves
the general zero-sum game by the LP ``max t`` s.t. ``A^T w >= t``, ``w`` in the simplex
(cvxpy), reads the column player's strategy ``u`` from the constraint's dual, and certifies
the pair: ``lower = min_j (A^T w)_j <= value <= upper = max_i (A u)_i`` with
``upper - lower <= tol * max|A|``. If the default solver's answer fails the certificate the
LP is re-solved by the simplex method (HiGHS); if that fails too,
:class:`~cdbandits.winners.CertificationError` is raised.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..winners import SIMPLEX_OPTIONS, SIMPLEX_SOLVER, CertificationError, SolverError

__all__ = ["MAXMIN_TOL", "MaxminSolution", "maxmin_strategy", "policy_game_matrix"]

#: Largest accepted ``(upper - lower) / max|A|`` of a certified maxmin solution.
MAXMIN_TOL = 1e-7


def policy_game_matrix(blocks: ArrayLike, actions: ArrayLike) -> NDArray[np.float64]:
    """``G(pi, rho) = sum_x blocks[x, pi(x), rho(x)]`` for every pair of policies.

    Parameters
    ----------
    blocks : array_like, shape (n_contexts, K, K)
    actions : array_like of int, shape (n_contexts, n_policies)
        ``actions[x, pi] = pi(x)``.

    Returns
    -------
    ndarray of float64, shape (n_policies, n_policies)
    """
    blocks = np.asarray(blocks, dtype=np.float64)
    actions = np.asarray(actions, dtype=np.int64)
    n_contexts, n_actions = blocks.shape[0], blocks.shape[1]
    if blocks.shape != (n_contexts, n_actions, n_actions) or actions.ndim != 2:
        raise ValueError(
            f"blocks must be (n, K, K) and actions (n, N); got {blocks.shape}, {actions.shape}"
        )
    if actions.shape[0] != n_contexts:
        raise ValueError(f"{n_contexts} blocks but actions on {actions.shape[0]} contexts")
    # against[x, a, rho] = blocks[x, a, rho(x)]; one_hot[x, a, pi] = 1[pi(x) = a].
    against = np.take_along_axis(blocks, actions[:, None, :].repeat(n_actions, axis=1), axis=2)
    one_hot = (actions[:, None, :] == np.arange(n_actions)[None, :, None]).astype(np.float64)
    flat = n_contexts * n_actions
    return one_hot.reshape(flat, -1).T @ against.reshape(flat, -1)


@dataclass(frozen=True)
class MaxminSolution:
    """A certified solution of the zero-sum game ``max_w min_u w^T A u``.

    Attributes
    ----------
    row_strategy : ndarray of float64, shape (n_rows,)
        ``w`` with ``min_j (A^T w)_j = lower``.
    column_strategy : ndarray of float64, shape (n_columns,)
        ``u`` with ``max_i (A u)_i = upper``.
    lower, upper : float
        ``lower <= value <= upper``.
    solver, status : str
        The cvxpy solver and status of the LP whose solution was certified.
    """

    row_strategy: NDArray[np.float64]
    column_strategy: NDArray[np.float64]
    lower: float
    upper: float
    solver: str
    status: str

    @property
    def value(self) -> float:
        """The midpoint of the certified interval."""
        return (self.lower + self.upper) / 2.0


def _simplex_point(raw: NDArray[np.float64] | None, size: int) -> NDArray[np.float64]:
    if raw is None:
        return np.full(size, 1.0 / size)
    clipped = np.clip(np.asarray(raw, dtype=np.float64).reshape(-1), 0.0, None)
    return clipped / clipped.sum() if clipped.sum() > 0 else np.full(size, 1.0 / size)


def maxmin_strategy(
    matrix: ArrayLike, solver: str | None = None, tol: float = MAXMIN_TOL
) -> MaxminSolution:
    """Certified maxmin and minmax strategies of a general zero-sum game (cvxpy LP).

    Parameters
    ----------
    matrix : array_like, shape (n_rows, n_columns)
        Payoffs to the row (maximising) player.
    solver : str, optional
        cvxpy LP solver for the first attempt (default: cvxpy's choice).
    tol : float, optional
        Certificate tolerance relative to ``max |A|``.

    Returns
    -------
    MaxminSolution

    Raises
    ------
    SolverError
        If a solver reports no optimal solution.
    CertificationError
        If no attempt certifies to ``tol``.
    """
    import cvxpy as cp  # here, not at the top: it takes most of a second to import

    A = np.asarray(matrix, dtype=np.float64)
    if A.ndim != 2 or A.size == 0 or not np.isfinite(A).all():
        raise ValueError(
            f"the game matrix must be a finite non-empty 2-D array; got shape {A.shape}"
        )
    scale = float(np.abs(A).max()) or 1.0
    scaled = A / scale
    attempts = [solver] if solver == SIMPLEX_SOLVER else [solver, SIMPLEX_SOLVER]
    failures = []
    for attempt in attempts:
        w = cp.Variable(A.shape[0], nonneg=True)
        t = cp.Variable()
        guarantee = scaled.T @ w >= t
        problem = cp.Problem(cp.Maximize(t), [guarantee, cp.sum(w) == 1])
        options = SIMPLEX_OPTIONS if attempt == SIMPLEX_SOLVER else {}
        try:
            problem.solve(solver=attempt, **options)
        except cp.error.SolverError as error:
            raise SolverError(f"the LP solver failed on the {A.shape} game: {error}") from error
        name = problem.solver_stats.solver_name if problem.solver_stats else str(attempt)
        if problem.status not in (cp.OPTIMAL, cp.OPTIMAL_INACCURATE):
            raise SolverError(f"the LP solver {name} returned status {problem.status!r}")
        row = _simplex_point(w.value, A.shape[0])
        column = _simplex_point(guarantee.dual_value, A.shape[1])
        lower = float((row @ A).min())
        upper = float((A @ column).max())
        if upper - lower <= tol * scale:
            return MaxminSolution(row, column, lower, upper, name, str(problem.status))
        failures.append(f"{name} (status {problem.status!r}): upper - lower = {upper - lower:.3e}")
    raise CertificationError(
        f"the maxmin strategy of the {A.shape} game could not be certified to {tol:.0e} * "
        f"max|A|: " + "; ".join(failures)
    )
