"""The random-draw rules every dueling learner follows, in NumPy and compiled.

Each learner of :mod:`cdbandits.karmed`, :mod:`cdbandits.linear_duels` and
:mod:`cdbandits.contextual` has a readable NumPy round and a numba kernel that plays many
rounds. Both draw their random numbers from the same generator by the rules below, in the
order the algorithm box makes the choices, so on the same seed they play the same duels:

* a uniform choice among ``n`` items (:func:`pick`) draws one ``u = rng.random()`` and takes
  item ``floor(n u)``, except that a choice among one item draws nothing;
* an event of probability ``p`` (:func:`coin`) draws one ``u`` and happens iff ``u < p``;
* a Beta variate is ``rng.beta(a, b)``, and a draw from a distribution ``q`` over arms is
  the inverse CDF at one ``u`` (:func:`draw_arm`): the first arm ``i`` with
  ``u < q_0 + ... + q_i``.

Ties in an ``argmax`` are broken by :func:`pick` among the tied arms in increasing order
unless an algorithm's docstring says otherwise. Each rule's ``*_compiled`` twin is the same
rule in numba, with the same floating-point operations.
"""

from __future__ import annotations

import numba
import numpy as np
from numpy.typing import NDArray

__all__ = [
    "coin",
    "coin_compiled",
    "draw_arm",
    "draw_arm_compiled",
    "pick",
    "pick_compiled",
    "pick_from",
]


def pick(rng: np.random.Generator, n: int) -> int:
    """Uniform choice among ``n >= 1`` items: ``floor(n u)``, no draw when ``n == 1``."""
    if n <= 1:
        return 0
    return min(int(rng.random() * n), n - 1)


def pick_from(rng: np.random.Generator, items: NDArray[np.int64]) -> int:
    """One of ``items`` chosen by :func:`pick` (in the order given)."""
    return int(items[pick(rng, items.size)])


def coin(rng: np.random.Generator, probability: float) -> bool:
    """An event of the given probability; always draws one uniform."""
    return bool(rng.random() < probability)


def draw_arm(probabilities: NDArray[np.float64], uniform: float) -> int:
    """Inverse-CDF draw: the first arm ``i`` with ``uniform < p_0 + ... + p_i`` (else the last)."""
    index = int(np.searchsorted(np.cumsum(probabilities), uniform, side="right"))
    return min(index, probabilities.size - 1)


@numba.njit(cache=True)
def pick_compiled(rng: np.random.Generator, n: int) -> int:
    """:func:`pick` in numba."""
    if n <= 1:
        return 0
    return min(int(rng.random() * n), n - 1)


@numba.njit(cache=True)
def coin_compiled(rng: np.random.Generator, probability: float) -> bool:
    """:func:`coin` in numba."""
    return rng.random() < probability


@numba.njit(cache=True)
def draw_arm_compiled(probabilities: NDArray[np.float64], uniform: float) -> int:
    """:func:`draw_arm` in numba (same cumulative sums, same comparison)."""
    cumulative = 0.0
    last = probabilities.size - 1
    for arm in range(last):
        cumulative += probabilities[arm]
        if uniform < cumulative:
            return arm
    return last
