"""What every von Neumann winner solver returns, and how an answer is certified.

The compiled and NumPy solvers (:mod:`cdbandits.winners`) and the cvxpy reference
(:mod:`cdbandits.reference`) all answer with a :class:`VonNeumannWinner`, certified by its
:func:`exploitability`, take the :func:`condorcet_winner` shortcut first, and fail with the
same two errors. The public names are re-exported by :mod:`cdbandits.winners`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = [
    "CERTIFICATE_TOL",
    "CONDORCET_SHORTCUT",
    "CertificationError",
    "SolverError",
    "VonNeumannWinner",
    "condorcet_winner",
    "exploitability",
]

#: A returned von Neumann winner ``w`` satisfies ``min_b (P.T @ w)[b] >= -CERTIFICATE_TOL``.
CERTIFICATE_TOL = 1e-9

#: ``solver`` of a result that needed no LP: a Condorcet winner is the unique vNW.
CONDORCET_SHORTCUT = "condorcet"


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
    wins = np.count_nonzero(P > 0, axis=1)
    candidates = np.flatnonzero(wins == P.shape[0] - 1)
    return int(candidates[0]) if candidates.size else None


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
        A distribution over arms: finite, non-negative and summing to 1, each within
        ``1e-6`` (the rounding of an LP solution).

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If ``P`` is not a square matrix of finite numbers, or ``weights`` is not a
        distribution over its ``K`` arms.
    """
    P = np.asarray(P, dtype=np.float64)
    w = np.asarray(weights, dtype=np.float64)
    if P.ndim != 2 or P.shape[0] != P.shape[1] or not np.isfinite(P).all():
        raise ValueError(f"P must be a square matrix of finite numbers, got shape {P.shape}")
    if w.shape != (P.shape[0],):
        raise ValueError(f"weights must have shape ({P.shape[0]},), got {w.shape}")
    if not (np.isfinite(w).all() and (w >= -1e-6).all() and abs(w.sum() - 1.0) <= 1e-6):
        raise ValueError(
            "weights must be a distribution (non-negative, summing to 1), got "
            f"{np.array2string(w, threshold=10, precision=4)}"
        )
    return float((w @ P).min())


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
        The path of the compiled kernel (one of :data:`cdbandits.winners.COMPILED_METHODS`)
        or of the NumPy path (:data:`cdbandits.vnw_numpy.CONDORCET`,
        :data:`~cdbandits.vnw_numpy.INTERIOR_POINT`), or for the cvxpy reference the cvxpy
        solver whose LP solution was polished into ``weights`` (or
        :data:`CONDORCET_SHORTCUT`).
    status : str
        ``"optimal"``, or the cvxpy status of the reference's LP (``"optimal"`` or
        ``"optimal_inaccurate"``).
    """

    weights: NDArray[np.float64]
    support: NDArray[np.int64]
    exploitability: float
    solver: str
    status: str
