"""Preference matrices: validation and conversion between the two conventions.

Two conventions are in use for the same object:

* **probability form** ``Q``: ``Q[i, j]`` is the probability that arm ``i`` beats arm ``j``
  in one duel, ``Q`` in ``[0, 1]``, ``Q + Q.T == 1`` and ``Q[i, i] == 0.5``. Most
  dueling-bandit code and data files use it.
* **skew form** ``P = 2 Q - 1`` (the paper's): ``P[i, j]`` is the expected outcome of a duel
  in ``{+1, -1}``, ``P`` in ``[-1, 1]``, ``P.T == -P`` and ``P[i, i] == 0``.

Every function of the library takes the skew form. :func:`as_skew` accepts either form,
checks it and returns an exactly skew-symmetric float64 copy; anything else raises
:class:`PreferenceMatrixError` naming the first offending entry.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = [
    "SYMMETRY_TOL",
    "Convention",
    "PreferenceMatrixError",
    "as_skew",
    "detect_convention",
    "to_probability",
    "to_skew",
]

Convention = Literal["probability", "skew"]

#: Largest accepted violation of ``Q + Q.T == 1`` (probability form) or ``P + P.T == 0``
#: (skew form), and of the diagonal and range constraints. Published matrices satisfy the
#: identities exactly; text files printed with 6-8 significant digits satisfy them to ~1e-8.
SYMMETRY_TOL = 1e-6


class PreferenceMatrixError(ValueError):
    """A matrix is not a valid preference matrix in the requested convention."""


def _as_square_float(matrix: ArrayLike) -> NDArray[np.float64]:
    try:
        array = np.asarray(matrix, dtype=np.float64)
    except ValueError as error:
        raise PreferenceMatrixError(
            f"a preference matrix must be a square (K x K) array of numbers: {error}"
        ) from None
    if array.ndim != 2 or array.shape[0] != array.shape[1]:
        raise PreferenceMatrixError(
            f"a preference matrix must be square (K x K); got shape {array.shape}"
        )
    if array.shape[0] == 0:
        raise PreferenceMatrixError("a preference matrix needs at least one arm; got 0 x 0")
    bad = np.argwhere(~np.isfinite(array))
    if bad.size:
        i, j = bad[0]
        raise PreferenceMatrixError(
            f"entry ({i}, {j}) is {array[i, j]}; every entry must be a finite number"
        )
    return array


def _first_violation(mask: NDArray[np.bool_]) -> tuple[int, int] | None:
    bad = np.argwhere(mask)
    return None if bad.size == 0 else (int(bad[0][0]), int(bad[0][1]))


def _check(array: NDArray[np.float64], convention: Convention, tol: float) -> None:
    """Raise :class:`PreferenceMatrixError` unless ``array`` is valid in ``convention``."""
    if convention == "probability":
        low, high, diagonal, pair_sum, name = 0.0, 1.0, 0.5, 1.0, "Q"
    elif convention == "skew":
        low, high, diagonal, pair_sum, name = -1.0, 1.0, 0.0, 0.0, "P"
    else:
        raise ValueError(f"convention must be 'probability' or 'skew', got {convention!r}")

    where = _first_violation((array < low - tol) | (array > high + tol))
    if where is not None:
        i, j = where
        raise PreferenceMatrixError(
            f"entry ({i}, {j}) = {float(array[i, j])!r} is outside [{low:g}, {high:g}], "
            f"the range of a {convention}-form preference matrix"
        )
    diag = np.diagonal(array)
    off = np.flatnonzero(np.abs(diag - diagonal) > tol)
    if off.size:
        i = int(off[0])
        raise PreferenceMatrixError(
            f"diagonal entry ({i}, {i}) = {float(array[i, i])!r}; a {convention}-form preference "
            f"matrix has {name}[i, i] = {diagonal:g}"
        )
    where = _first_violation(np.abs(array + array.T - pair_sum) > tol)
    if where is not None:
        i, j = where
        raise PreferenceMatrixError(
            f"entries ({i}, {j}) = {float(array[i, j])!r} and ({j}, {i}) = "
            f"{float(array[j, i])!r} sum to {float(array[i, j] + array[j, i])!r}; a "
            f"{convention}-form preference matrix needs {name}[i, j] + {name}[j, i] = "
            f"{pair_sum:g} (tolerance {tol:g})"
        )


def detect_convention(matrix: ArrayLike, tol: float = SYMMETRY_TOL) -> Convention:
    """Tell whether ``matrix`` is in probability form or skew form.

    Parameters
    ----------
    matrix : array_like, shape (K, K)
        A preference matrix in either convention.
    tol : float, optional
        Tolerance of the checks, see :data:`SYMMETRY_TOL`.

    Returns
    -------
    {"probability", "skew"}
        The convention ``matrix`` satisfies. The two are told apart by the diagonal
        (0.5 versus 0), so no matrix satisfies both.

    Raises
    ------
    PreferenceMatrixError
        If ``matrix`` is valid in neither convention; the message gives the first
        violation of the convention its diagonal suggests.
    """
    array = _as_square_float(matrix)
    guess: Convention = "skew" if abs(float(array[0, 0])) <= tol else "probability"
    _check(array, guess, tol)
    return guess


def to_skew(matrix: ArrayLike, tol: float = SYMMETRY_TOL) -> NDArray[np.float64]:
    """Convert a probability-form matrix ``Q`` to the skew form ``P = 2 Q - 1``.

    The result is made exactly skew-symmetric, ``P = (P - P.T) / 2``, after checking that
    ``Q`` violates ``Q + Q.T = 1`` by at most ``tol``.

    Parameters
    ----------
    matrix : array_like, shape (K, K)
        Probability-form matrix.
    tol : float, optional
        Tolerance of the validity checks.

    Returns
    -------
    ndarray of float64, shape (K, K)

    Raises
    ------
    PreferenceMatrixError
        If ``matrix`` is not a valid probability-form matrix.
    """
    array = _as_square_float(matrix)
    _check(array, "probability", tol)
    skew = 2.0 * array - 1.0
    return (skew - skew.T) / 2.0


def to_probability(matrix: ArrayLike, tol: float = SYMMETRY_TOL) -> NDArray[np.float64]:
    """Convert a skew-form matrix ``P`` to the probability form ``Q = (P + 1) / 2``.

    Parameters
    ----------
    matrix : array_like, shape (K, K)
        Skew-form matrix.
    tol : float, optional
        Tolerance of the validity checks.

    Returns
    -------
    ndarray of float64, shape (K, K)
        Satisfies ``Q + Q.T == 1`` up to rounding.

    Raises
    ------
    PreferenceMatrixError
        If ``matrix`` is not a valid skew-form matrix.
    """
    array = _as_square_float(matrix)
    _check(array, "skew", tol)
    skew = (array - array.T) / 2.0
    return (skew + 1.0) / 2.0


def as_skew(
    matrix: ArrayLike,
    convention: Convention | Literal["auto"] = "auto",
    tol: float = SYMMETRY_TOL,
) -> NDArray[np.float64]:
    """Validate a preference matrix given in either convention and return its skew form.

    Parameters
    ----------
    matrix : array_like, shape (K, K)
        Preference matrix.
    convention : {"auto", "probability", "skew"}, optional
        The convention of ``matrix``; ``"auto"`` detects it with :func:`detect_convention`.
    tol : float, optional
        Tolerance of the validity checks, see :data:`SYMMETRY_TOL`.

    Returns
    -------
    ndarray of float64, shape (K, K)
        An exactly skew-symmetric copy, ``P.T == -P``.

    Raises
    ------
    PreferenceMatrixError
        If ``matrix`` is invalid in the given (or detected) convention.

    Examples
    --------
    >>> as_skew([[0.5, 0.75], [0.25, 0.5]])
    array([[ 0. ,  0.5],
           [-0.5,  0. ]])
    """
    if convention == "auto":
        convention = detect_convention(matrix, tol)
    if convention == "probability":
        return to_skew(matrix, tol)
    if convention == "skew":
        array = _as_square_float(matrix)
        _check(array, "skew", tol)
        return (array - array.T) / 2.0
    raise ValueError(f"convention must be 'auto', 'probability' or 'skew', got {convention!r}")
