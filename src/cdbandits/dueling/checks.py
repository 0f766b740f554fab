"""The argument checks every dueling learner and simulation loop shares.

Hyper-parameters are checked when an algorithm is made (:func:`check_positive`,
:func:`check_integer`), its generator when it starts a run (:func:`check_generator`), and
the rounds of a run when a simulation starts
(:func:`checked_rounds`, for the K-armed, linear and DBGD loops); each raises naming the
argument that is off.
"""

from __future__ import annotations

import math
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = [
    "ENGINES",
    "Engine",
    "check_generator",
    "check_integer",
    "check_positive",
    "checked_rounds",
]

Engine = Literal["compiled", "python"]

#: The two ways a simulation plays its rounds: the algorithm's numba kernel, or a plain loop
#: over its NumPy ``select`` and ``update``.
ENGINES: tuple[Engine, ...] = ("compiled", "python")


def check_positive(
    name: str, value: float, *, above: float = 0.0, inclusive: bool = False
) -> float:
    """``value`` as a float if it is a finite number ``> above`` (``>=`` if ``inclusive``).

    Raises ``TypeError`` or ``ValueError`` naming the hyper-parameter otherwise.
    """
    if isinstance(value, bool) or not isinstance(value, int | float | np.floating | np.integer):
        raise TypeError(f"{name} must be a number; got {value!r}")
    if not math.isfinite(value) or value < above or (value == above and not inclusive):
        relation = ">=" if inclusive else ">"
        raise ValueError(f"{name} must be a finite number {relation} {above:g}; got {value!r}")
    return float(value)


def check_generator(rng: object) -> np.random.Generator:
    """``rng`` if it is a :class:`numpy.random.Generator`; ``TypeError`` otherwise."""
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy.random.Generator; got {type(rng).__name__}")
    return rng


def check_integer(name: str, value: int, *, minimum: int) -> int:
    """``value`` if it is an integer ``>= minimum``; ``ValueError`` naming it otherwise."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}; got {value!r}")
    return int(value)


def checked_rounds(
    engine: str, horizon: object, checkpoints: ArrayLike | None
) -> tuple[int, NDArray[np.int64]]:
    """Check a simulation's ``engine``, ``horizon`` and ``checkpoints``.

    Returns
    -------
    horizon : int
    rounds : ndarray of int64
        The checkpoints: increasing, from >= 1, ending at the horizon (``[horizon]`` when
        ``checkpoints`` is None).

    Raises
    ------
    ValueError
        Naming the argument that is not valid.
    """
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {ENGINES}; got {engine!r}")
    if isinstance(horizon, bool) or not isinstance(horizon, int | np.integer) or horizon < 1:
        raise ValueError(f"horizon must be a positive integer; got {horizon!r}")
    horizon = int(horizon)
    if checkpoints is None:
        return horizon, np.array([horizon], dtype=np.int64)
    rounds = np.asarray(checkpoints)
    if rounds.ndim != 1 or rounds.size == 0 or not np.issubdtype(rounds.dtype, np.integer):
        raise ValueError(f"checkpoints must be a non-empty 1-d list of integers; got {checkpoints}")
    if rounds[0] < 1 or rounds[-1] != horizon or (np.diff(rounds) <= 0).any():
        raise ValueError(
            f"checkpoints must increase strictly from >= 1 and end at the horizon {horizon}; "
            f"got {rounds.tolist()}"
        )
    return horizon, rounds.astype(np.int64)
