"""Preference matrices: validation and conversion between the two conventions.

Two conventions are in use for the same object:

* **probability form** ``Q``: ``Q[i, j]`` is the probability that arm ``i`` beats arm ``j``
  in one duel, ``Q`` in ``[0, 1]``, ``Q + Q.T == 1`` and ``Q[i, i] == 0.5``. Most
  dueling-bandit code and data files use it.
* **skew form** ``P = 2 Q - 1`` (the paper's): ``P[i, j]`` is the expected outcome of a duel
  in ``{+1, -1}``, ``P`` in ``[-1, 1]``, ``P.T == -P`` and ``P[i, i] == 0``.

Every function of the library takes the skew form. :func:`as_skew` accepts either form,
checks it and returns a skew-form float64 copy that is valid exactly (no tolerance needed),
so checking it again never fails; :func:`as_skew_stack` does the same for a stack of
matrices. Anything else raises :class:`PreferenceMatrixError` naming the first offending
entry (and matrix). Every entry point accepts the same inputs: integers and floating-point
numbers (numpy arrays, nested lists, object arrays of real numbers); strings, booleans,
complex numbers and other objects are rejected, never converted. Every tolerance is checked
by :func:`check_tolerance`.
"""

from __future__ import annotations

import math
import numbers
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = [
    "MAX_TOL",
    "SYMMETRY_TOL",
    "Convention",
    "PreferenceMatrixError",
    "as_skew",
    "as_skew_stack",
    "check_tolerance",
    "detect_convention",
    "to_probability",
    "to_skew",
]

Convention = Literal["probability", "skew"]

#: Largest accepted violation of ``Q + Q.T == 1`` (probability form) or ``P + P.T == 0``
#: (skew form), and of the diagonal and range constraints. Published matrices satisfy the
#: identities exactly; text files printed with 6-8 significant digits satisfy them to ~1e-8.
SYMMETRY_TOL = 1e-6

#: Tolerances must be below this bound: the conventions are told apart by the diagonal
#: (0.5 versus 0), and only below 0.25 can no diagonal entry be within ``tol`` of both.
MAX_TOL = 0.25


class PreferenceMatrixError(ValueError):
    """A matrix is not a valid preference matrix in the requested convention."""


def check_tolerance(tol: Any) -> float:
    """Return ``tol`` as a float if it is a valid tolerance of the convention checks.

    Parameters
    ----------
    tol : float
        Candidate tolerance.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        Unless ``tol`` is a real number (not a string or boolean) with
        ``0 <= tol < MAX_TOL``; NaN and infinity are rejected.
    """
    if isinstance(tol, bool | np.bool_) or not isinstance(tol, numbers.Real):
        raise ValueError(f"tolerance must be a real number, got {tol!r}")
    value = float(tol)
    if not (math.isfinite(value) and 0.0 <= value < MAX_TOL):
        raise ValueError(
            f"tolerance must be a finite number with 0 <= tol < {MAX_TOL:g} (above, the "
            f"diagonals 0.5 and 0 of the two conventions cannot be told apart); got {value!r}"
        )
    return value


def _entry_name(index: tuple[int, ...]) -> str:
    """``entry (i, j)`` of a matrix, ``matrix n, entry (i, j)`` of a stack."""
    *outer, i, j = (int(value) for value in index)
    prefix = "".join(f"matrix {value}, " for value in outer)
    return f"{prefix}entry ({i}, {j})"


def _shape_text(shape: tuple[int, ...]) -> str:
    if len(shape) == 1:
        return f"{shape[0]} entry" if shape[0] == 1 else f"{shape[0]} entries"
    return f"shape {shape}"


def _ragged(data: Any, labels: tuple[str, ...]) -> str:
    """Say where nested sequences first differ in shape (labels name the nesting levels)."""
    first: tuple[int, ...] | None = None
    for index, element in enumerate(data):
        try:
            shape = np.shape(element)
        except ValueError:
            return f"{labels[0]} {index}: {_ragged(element, labels[1:] or labels)}"
        if first is None:
            first = shape
        elif shape != first:
            return (
                f"{labels[0]} {index} has {_shape_text(shape)}, but {labels[0]} 0 has "
                f"{_shape_text(first)}"
            )
    return "the nested sequences differ in length"


def _real_array(data: ArrayLike, labels: tuple[str, ...], what: str) -> NDArray[np.float64]:
    """Float64 copy of an array of real numbers; anything else names its first bad entry.

    ``labels`` name the nesting levels of ``data`` and ``what`` says what it must be, for the
    message about nested sequences of different lengths.
    """
    try:
        array = np.asarray(data)
    except ValueError:
        raise PreferenceMatrixError(f"{what}; {_ragged(data, labels)}") from None
    if array.dtype.kind in "iuf":
        return array.astype(np.float64)
    if array.dtype.kind in "bcUSO":
        entries = np.asarray(data, dtype=object) if array.dtype.kind in "USO" else array
        converted = np.empty(entries.shape, dtype=np.float64)
        for index, value in np.ndenumerate(entries):
            if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Real):
                shown = value.item() if isinstance(value, np.generic) else value
                raise PreferenceMatrixError(
                    f"{_entry_name(index)} is {shown!r} ({type(value).__name__}); every entry "
                    "must be a real number (integer or floating point)"
                )
            try:
                converted[index] = float(value)
            except OverflowError:
                raise PreferenceMatrixError(
                    f"{_entry_name(index)} is too large for a floating-point number"
                ) from None
        return converted
    raise PreferenceMatrixError(
        f"expected an array of real numbers, got dtype {array.dtype} (kind {array.dtype.kind!r})"
    )


def _check_finite(array: NDArray[np.float64]) -> None:
    bad = np.argwhere(~np.isfinite(array))
    if bad.size:
        index = tuple(bad[0])
        raise PreferenceMatrixError(
            f"{_entry_name(index)} is {array[index]}; every entry must be a finite number"
        )


def _as_square_float(matrix: ArrayLike) -> NDArray[np.float64]:
    array = _real_array(
        matrix, ("row", "entry"), "a preference matrix must be a square (K x K) array of numbers"
    )
    if array.ndim != 2 or array.shape[0] != array.shape[1]:
        raise PreferenceMatrixError(
            f"a preference matrix must be square (K x K); got shape {array.shape}"
        )
    if array.shape[0] == 0:
        raise PreferenceMatrixError("a preference matrix needs at least one arm; got 0 x 0")
    _check_finite(array)
    return array


def _check(stack: NDArray[np.float64], probability: NDArray[np.bool_], tol: float) -> None:
    """Raise :class:`PreferenceMatrixError` unless every matrix of ``stack`` (n, K, K) is valid.

    ``probability[m]`` tells whether matrix ``m`` is in probability form (else skew form).
    The message names the first invalid matrix (if ``n > 1``) and its first violation: of the
    range, then of the diagonal, then of the pair sums.
    """
    low = np.where(probability, 0.0, -1.0)[:, None, None]
    diagonal_value = np.where(probability, 0.5, 0.0)[:, None]
    pair_sum = np.where(probability, 1.0, 0.0)[:, None, None]
    out_of_range = (stack < low - tol) | (stack > 1.0 + tol)
    diagonal = np.diagonal(stack, axis1=1, axis2=2)
    off_diagonal = np.abs(diagonal - diagonal_value) > tol
    unpaired = np.abs(stack + np.swapaxes(stack, 1, 2) - pair_sum) > tol
    bad = out_of_range.any(axis=(1, 2)) | off_diagonal.any(axis=1) | unpaired.any(axis=(1, 2))
    if not bad.any():
        return
    m = int(np.flatnonzero(bad)[0])
    where = f"matrix {m} of the stack: " if stack.shape[0] > 1 else ""
    array = stack[m]
    convention = "probability" if probability[m] else "skew"
    name = "Q" if probability[m] else "P"
    if out_of_range[m].any():
        i, j = np.argwhere(out_of_range[m])[0]
        message = (
            f"entry ({i}, {j}) = {float(array[i, j])!r} is outside [{float(low[m, 0, 0]):g}, 1], "
            f"the range of a {convention}-form preference matrix"
        )
    elif off_diagonal[m].any():
        i = int(np.flatnonzero(off_diagonal[m])[0])
        message = (
            f"diagonal entry ({i}, {i}) = {float(array[i, i])!r}; a {convention}-form preference "
            f"matrix has {name}[i, i] = {float(diagonal_value[m, 0]):g}"
        )
    else:
        i, j = np.argwhere(unpaired[m])[0]
        message = (
            f"entries ({i}, {j}) = {float(array[i, j])!r} and ({j}, {i}) = "
            f"{float(array[j, i])!r} sum to {float(array[i, j] + array[j, i])!r}; a "
            f"{convention}-form preference matrix needs {name}[i, j] + {name}[j, i] = "
            f"{float(pair_sum[m, 0, 0]):g} (tolerance {tol:g})"
        )
    raise PreferenceMatrixError(where + message)


def _check_convention(convention: str) -> None:
    if convention not in ("auto", "probability", "skew"):
        raise ValueError(f"convention must be 'auto', 'probability' or 'skew', got {convention!r}")


def detect_convention(matrix: ArrayLike, tol: float = SYMMETRY_TOL) -> Convention:
    """Tell whether ``matrix`` is in probability form or skew form.

    Parameters
    ----------
    matrix : array_like, shape (K, K)
        A preference matrix in either convention.
    tol : float, optional
        Tolerance of the checks, see :data:`SYMMETRY_TOL` and :func:`check_tolerance`.

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
    ValueError
        If ``tol`` is not a valid tolerance.
    """
    tol = check_tolerance(tol)
    array = _as_square_float(matrix)
    probability = _detect(array[None], tol)
    _check(array[None], probability, tol)
    return "probability" if probability[0] else "skew"


def _detect(stack: NDArray[np.float64], tol: float) -> NDArray[np.bool_]:
    """Whether each matrix of a stack looks like probability form, from its first diagonal entry."""
    return np.abs(stack[:, 0, 0]) > tol


def _exact_skew(skew: NDArray[np.float64]) -> NDArray[np.float64]:
    """The valid skew-form matrix (or stack) nearest to one within tolerance of validity.

    Skew-symmetrising makes ``P.T == -P`` and the diagonal 0 exactly; clipping to [-1, 1]
    removes range violations within the tolerance, so the result passes every check at
    tolerance 0.
    """
    transposed = np.swapaxes(skew, -1, -2)
    return np.clip((skew - transposed) / 2.0, -1.0, 1.0)


def to_skew(matrix: ArrayLike, tol: float = SYMMETRY_TOL) -> NDArray[np.float64]:
    """Convert a probability-form matrix ``Q`` to the skew form ``P = 2 Q - 1``.

    After checking ``Q`` to ``tol``, the result is made exactly valid: ``P = (P - P.T) / 2``
    clipped to [-1, 1].

    Parameters
    ----------
    matrix : array_like, shape (K, K)
        Probability-form matrix.
    tol : float, optional
        Tolerance of the validity checks (see :func:`check_tolerance`).

    Returns
    -------
    ndarray of float64, shape (K, K)

    Raises
    ------
    PreferenceMatrixError
        If ``matrix`` is not a valid probability-form matrix.
    ValueError
        If ``tol`` is not a valid tolerance.
    """
    return as_skew(matrix, "probability", tol)


def to_probability(matrix: ArrayLike, tol: float = SYMMETRY_TOL) -> NDArray[np.float64]:
    """Convert a skew-form matrix ``P`` to the probability form ``Q = (P + 1) / 2``.

    Parameters
    ----------
    matrix : array_like, shape (K, K)
        Skew-form matrix.
    tol : float, optional
        Tolerance of the validity checks (see :func:`check_tolerance`).

    Returns
    -------
    ndarray of float64, shape (K, K)
        In [0, 1] with diagonal 0.5; satisfies ``Q + Q.T == 1`` up to rounding.

    Raises
    ------
    PreferenceMatrixError
        If ``matrix`` is not a valid skew-form matrix.
    ValueError
        If ``tol`` is not a valid tolerance.
    """
    return (as_skew(matrix, "skew", tol) + 1.0) / 2.0


def as_skew(
    matrix: ArrayLike,
    convention: Convention | Literal["auto"] = "auto",
    tol: float = SYMMETRY_TOL,
) -> NDArray[np.float64]:
    """Validate a preference matrix given in either convention and return its skew form.

    Parameters
    ----------
    matrix : array_like, shape (K, K)
        Preference matrix of real numbers (integers or floating point; strings, booleans
        and complex numbers are rejected).
    convention : {"auto", "probability", "skew"}, optional
        The convention of ``matrix``; ``"auto"`` detects it with :func:`detect_convention`.
    tol : float, optional
        Tolerance of the validity checks, see :data:`SYMMETRY_TOL` and
        :func:`check_tolerance`.

    Returns
    -------
    ndarray of float64, shape (K, K)
        A valid skew-form copy: ``P.T == -P`` exactly and entries in [-1, 1] (violations
        within ``tol`` are removed), so ``as_skew(P, "skew", 0.0)`` accepts it unchanged.

    Raises
    ------
    PreferenceMatrixError
        If ``matrix`` is invalid in the given (or detected) convention.
    ValueError
        If ``convention`` or ``tol`` is not a valid choice.

    Examples
    --------
    >>> as_skew([[0.5, 0.75], [0.25, 0.5]])
    array([[ 0. ,  0.5],
           [-0.5,  0. ]])
    """
    tol = check_tolerance(tol)
    _check_convention(convention)
    return _validated_skew(_as_square_float(matrix)[None], convention, tol)[0]


def _validated_skew(stack: NDArray[np.float64], convention: str, tol: float) -> NDArray[np.float64]:
    """Check a finite (n, K, K) stack in ``convention`` and return valid skew-form copies."""
    if convention == "auto":
        probability = _detect(stack, tol)
    else:
        probability = np.full(stack.shape[0], convention == "probability")
    _check(stack, probability, tol)
    return _exact_skew(np.where(probability[:, None, None], 2.0 * stack - 1.0, stack))


def as_skew_stack(
    matrices: ArrayLike,
    convention: Convention | Literal["auto"] = "skew",
    tol: float = SYMMETRY_TOL,
) -> NDArray[np.float64]:
    """Validate a stack of preference matrices of one size and return their skew forms.

    The vectorised counterpart of :func:`as_skew`, with the same accepted entries and checks.

    Parameters
    ----------
    matrices : array_like, shape (n, K, K)
        Preference matrices, all ``K x K`` (an array or a sequence of matrices).
    convention : {"skew", "probability", "auto"}, optional
        The convention of the matrices; ``"auto"`` detects it for each matrix from its
        first diagonal entry, as :func:`detect_convention` does.
    tol : float, optional
        Tolerance of the validity checks (see :func:`check_tolerance`).

    Returns
    -------
    ndarray of float64, shape (n, K, K)
        Valid skew-form copies, as :func:`as_skew` returns them.

    Raises
    ------
    PreferenceMatrixError
        If the matrices differ in shape (naming the first that differs from matrix 0 and
        both shapes), or a matrix is invalid (naming the matrix and the entry).
    ValueError
        If ``convention`` or ``tol`` is not a valid choice.
    """
    tol = check_tolerance(tol)
    _check_convention(convention)
    stack = _real_array(
        matrices,
        ("matrix", "row", "entry"),
        "a stack of preference matrices must hold square matrices of one size K",
    )
    if stack.ndim != 3 or stack.shape[1] != stack.shape[2] or stack.shape[1] == 0:
        raise PreferenceMatrixError(
            f"expected a stack of square matrices, shape (n, K, K) with K >= 1; "
            f"got shape {stack.shape}"
        )
    _check_finite(stack)
    return _validated_skew(stack, convention, tol)
