"""What the linear dueling algorithms estimate: the design matrix and the utility parameter.

Both CoLSTIM and MaxInP learn from the difference vectors ``z_s = x_{a_s} - x_{b_s}`` of the
duels played and their signs ``y_s = +1`` (``a_s`` won) or ``-1``:

* the **design matrix** ``W = lambda I + sum_s z_s z_s^T``; the algorithms keep its inverse,
  updated by Sherman-Morrison, ``W^{-1} <- W^{-1} - (W^{-1} z)(W^{-1} z)^T / (1 + z^T W^{-1} z)``
  (:func:`add_to_inverse`);
* the **regularised maximum-likelihood estimate**
  ``theta_hat = argmin_theta sum_s ell(y_s theta . z_s) + (lambda / 2) |theta|^2`` with the
  link's loss ``ell = -log F`` (:mod:`cdbandits.linear_duels.links`). The objective is
  strictly convex; :func:`fit_mle` minimises it by Newton's method with a backtracking
  (Armijo) line search from a warm start, until a step moves no coordinate by more than
  ``MLE_TOLERANCE (1 + max |theta|)``. Not converging in ``MLE_MAX_ITERATIONS`` steps, or a
  line search that cannot decrease the objective, is an error (``RuntimeError``).
* the confidence widths of both algorithms are weighted norms ``|v|_{W^{-1}}`` of arm
  features and of their differences; :func:`weighted_gram` returns ``G = X W^{-1} X^T`` from
  which ``|x_i|^2 = G_ii`` and ``|x_i - x_j|^2 = G_ii + G_jj - 2 G_ij`` (clipped at 0).

Each function has a NumPy form for the readable algorithms and a ``_compiled`` numba form for
the kernels that computes the same quantities (up to floating-point summation order).
"""

from __future__ import annotations

import numba
import numpy as np
from numpy.typing import NDArray

from .links import Link, loss_terms, loss_terms_compiled

__all__ = [
    "MLE_MAX_ITERATIONS",
    "MLE_TOLERANCE",
    "add_to_inverse",
    "add_to_inverse_compiled",
    "fit_mle",
    "fit_mle_compiled",
    "weighted_gram",
    "weighted_gram_compiled",
]

#: Newton's method stops when no coordinate moves by more than this times ``1 + max |theta|``.
MLE_TOLERANCE = 1e-10
#: Newton steps allowed before :func:`fit_mle` fails.
MLE_MAX_ITERATIONS = 100
_ARMIJO = 1e-4
_SMALLEST_STEP = 1e-12


def add_to_inverse(inverse: NDArray[np.float64], z: NDArray[np.float64]) -> None:
    """Sherman-Morrison: turn ``W^{-1}`` into ``(W + z z^T)^{-1}`` in place."""
    projected = inverse @ z
    inverse -= np.outer(projected, projected) / (1.0 + z @ projected)


@numba.njit(cache=True)
def add_to_inverse_compiled(
    inverse: NDArray[np.float64], z: NDArray[np.float64], scratch: NDArray[np.float64]
) -> None:
    """:func:`add_to_inverse` in numba; ``scratch`` has shape ``(d,)``."""
    d = z.size
    denominator = 1.0
    for i in range(d):
        total = 0.0
        for j in range(d):
            total += inverse[i, j] * z[j]
        scratch[i] = total
        denominator += z[i] * total
    for i in range(d):
        for j in range(d):
            inverse[i, j] -= scratch[i] * scratch[j] / denominator


def weighted_gram(
    features: NDArray[np.float64], inverse: NDArray[np.float64]
) -> NDArray[np.float64]:
    """``G = X W^{-1} X^T`` for the arm features ``X`` of shape ``(K, d)``."""
    return features @ inverse @ features.T


@numba.njit(cache=True)
def weighted_gram_compiled(
    features: NDArray[np.float64],
    inverse: NDArray[np.float64],
    projected: NDArray[np.float64],
    gram: NDArray[np.float64],
) -> None:
    """:func:`weighted_gram` into ``gram`` (K, K); ``projected`` is (K, d) scratch."""
    k, d = features.shape
    for i in range(k):
        for j in range(d):
            total = 0.0
            for m in range(d):
                total += features[i, m] * inverse[m, j]
            projected[i, j] = total
    for i in range(k):
        for j in range(i, k):
            total = 0.0
            for m in range(d):
                total += projected[i, m] * features[j, m]
            gram[i, j] = total
            gram[j, i] = total


def _objective(
    link: Link,
    differences: NDArray[np.float64],
    signs: NDArray[np.float64],
    l2: float,
    theta: NDArray[np.float64],
) -> float:
    loss, _, _ = loss_terms(link, signs * (differences @ theta))
    return float(loss.sum() + 0.5 * l2 * theta @ theta)


def fit_mle(
    link: Link,
    differences: NDArray[np.float64],
    signs: NDArray[np.float64],
    l2: float,
    start: NDArray[np.float64],
) -> NDArray[np.float64]:
    """The regularised MLE of the module docstring (NumPy).

    Parameters
    ----------
    link : {"logistic", "probit"}
    differences : ndarray, shape (n, d)
        ``z_s``.
    signs : ndarray, shape (n,)
        ``y_s`` in ``{+1, -1}``.
    l2 : float
        ``lambda > 0``.
    start : ndarray, shape (d,)
        Warm start.

    Returns
    -------
    ndarray, shape (d,)

    Raises
    ------
    RuntimeError
        If Newton's method does not converge.
    """
    theta = np.array(start, dtype=np.float64)
    identity = np.eye(theta.size)
    objective = _objective(link, differences, signs, l2, theta)
    for _ in range(MLE_MAX_ITERATIONS):
        _, first, second = loss_terms(link, signs * (differences @ theta))
        gradient = differences.T @ (signs * first) + l2 * theta
        hessian = differences.T @ (second[:, None] * differences) + l2 * identity
        step = np.linalg.solve(hessian, gradient)
        decrease = gradient @ step
        size = 1.0
        while True:
            candidate = theta - size * step
            candidate_objective = _objective(link, differences, signs, l2, candidate)
            if candidate_objective <= objective - _ARMIJO * size * decrease:
                break
            size *= 0.5
            if size < _SMALLEST_STEP:
                if np.abs(step).max() <= MLE_TOLERANCE * (1.0 + np.abs(theta).max()):
                    return theta  # already at the minimum to rounding
                raise RuntimeError("MLE line search failed to decrease the objective")
        moved = size * np.abs(step).max()
        theta, objective = candidate, candidate_objective
        if moved <= MLE_TOLERANCE * (1.0 + np.abs(theta).max()):
            return theta
    raise RuntimeError(f"MLE did not converge in {MLE_MAX_ITERATIONS} Newton steps")


@numba.njit(cache=True)
def _objective_compiled(code, differences, signs, n, l2, theta):
    total = 0.0
    for s in range(n):
        margin = 0.0
        for j in range(theta.size):
            margin += differences[s, j] * theta[j]
        loss, _, _ = loss_terms_compiled(code, signs[s] * margin)
        total += loss
    penalty = 0.0
    for j in range(theta.size):
        penalty += theta[j] * theta[j]
    return total + 0.5 * l2 * penalty


@numba.njit(cache=True)
def fit_mle_compiled(
    code: int,
    differences: NDArray[np.float64],
    signs: NDArray[np.float64],
    n: int,
    l2: float,
    theta: NDArray[np.float64],
) -> None:
    """:func:`fit_mle` on the first ``n`` rows, in numba; ``theta`` is the warm start and
    receives the estimate."""
    d = theta.size
    gradient = np.empty(d)
    hessian = np.empty((d, d))
    candidate = np.empty(d)
    objective = _objective_compiled(code, differences, signs, n, l2, theta)
    for _ in range(MLE_MAX_ITERATIONS):
        gradient[:] = 0.0
        hessian[:, :] = 0.0
        for s in range(n):
            margin = 0.0
            for j in range(d):
                margin += differences[s, j] * theta[j]
            _, first, second = loss_terms_compiled(code, signs[s] * margin)
            weight = signs[s] * first
            for i in range(d):
                gradient[i] += weight * differences[s, i]
                scaled = second * differences[s, i]
                for j in range(i + 1):
                    hessian[i, j] += scaled * differences[s, j]
        for i in range(d):
            gradient[i] += l2 * theta[i]
            hessian[i, i] += l2
            for j in range(i):
                hessian[j, i] = hessian[i, j]
        step = np.linalg.solve(hessian, gradient)
        decrease = 0.0
        largest_step = 0.0
        largest_theta = 0.0
        for i in range(d):
            decrease += gradient[i] * step[i]
            largest_step = max(largest_step, abs(step[i]))
            largest_theta = max(largest_theta, abs(theta[i]))
        size = 1.0
        while True:
            for i in range(d):
                candidate[i] = theta[i] - size * step[i]
            candidate_objective = _objective_compiled(code, differences, signs, n, l2, candidate)
            if candidate_objective <= objective - _ARMIJO * size * decrease:
                break
            size *= 0.5
            if size < _SMALLEST_STEP:
                if largest_step <= MLE_TOLERANCE * (1.0 + largest_theta):
                    return
                raise RuntimeError("MLE line search failed to decrease the objective")
        largest_theta = 0.0
        for i in range(d):
            theta[i] = candidate[i]
            largest_theta = max(largest_theta, abs(theta[i]))
        objective = candidate_objective
        if size * largest_step <= MLE_TOLERANCE * (1.0 + largest_theta):
            return
    raise RuntimeError("MLE did not converge in MLE_MAX_ITERATIONS Newton steps")
