"""Link functions of linear stochastic transitivity models, their losses and perturbations.

A linear stochastic transitivity (LST) model says that arm ``i`` beats arm ``j`` in context
``x`` with probability ``F(u_i - u_j)``, ``u_i = theta . x_i``, for a symmetric link
``F(-v) = 1 - F(v)``. Two links are implemented:

* ``"logistic"``: ``F(v) = 1 / (1 + exp(-v))``, the Bradley-Terry(-Luce) model. It is the
  random-utility model whose utilities carry independent standard Gumbel noise (the
  difference of two standard Gumbels is standard logistic).
* ``"probit"``: ``F(v) = Phi(v)``, the Thurstone-Mosteller model; its random-utility noise
  is ``N(0, 1/2)`` per arm.

The negative log-likelihood of one duel with difference vector ``z = x_a - x_b`` and sign
``y = +1`` (``a`` won) or ``-1`` is ``ell(y theta . z)`` with ``ell(v) = -log F(v)``. Two
implementations of ``F``, ``ell``, ``ell'`` and ``ell''`` are given: vectorised NumPy/SciPy
(:func:`link_cdf`, :func:`loss_terms`) for the readable algorithms and scalar numba
(:func:`link_cdf_compiled`, :func:`loss_terms_compiled`) for the kernels; the tests compare
them. :func:`perturbations` and :func:`perturbation_compiled` draw the random-utility noise
for CoLSTIM, consuming the generator identically.
"""

from __future__ import annotations

import math
from typing import Literal

import numba
import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import special

__all__ = [
    "LINKS",
    "Link",
    "link_cdf",
    "link_cdf_compiled",
    "link_code",
    "loss_terms",
    "loss_terms_compiled",
    "perturbation_compiled",
    "perturbations",
]

Link = Literal["logistic", "probit"]

#: The links and their codes in the compiled kernels.
LINKS: dict[str, int] = {"logistic": 0, "probit": 1}

_LOG_SQRT_2PI = 0.5 * math.log(2.0 * math.pi)
_SQRT_HALF = math.sqrt(0.5)
#: Below this ``v`` the probit tail uses the asymptotic series of Mills' ratio (``erfc``
#: underflows near ``v = -37.5``).
_PROBIT_TAIL = -35.0


def link_code(link: str) -> int:
    """The kernel code of ``link``; ``ValueError`` naming the known links otherwise."""
    try:
        return LINKS[link]
    except (KeyError, TypeError):
        raise ValueError(f"unknown link {link!r}; use one of {sorted(LINKS)}") from None


def link_cdf(link: Link, values: ArrayLike) -> NDArray[np.float64]:
    """``F(v)`` element-wise (NumPy)."""
    v = np.asarray(values, dtype=np.float64)
    return special.expit(v) if link_code(link) == 0 else special.ndtr(v)


def loss_terms(
    link: Link, values: ArrayLike
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """``ell(v) = -log F(v)``, ``ell'(v)`` and ``ell''(v)`` element-wise (NumPy/SciPy)."""
    v = np.asarray(values, dtype=np.float64)
    if link_code(link) == 0:
        return np.logaddexp(0.0, -v), -special.expit(-v), special.expit(v) * special.expit(-v)
    log_cdf = special.log_ndtr(v)
    mills = np.exp(-0.5 * v * v - _LOG_SQRT_2PI - log_cdf)  # phi(v) / Phi(v)
    return -log_cdf, -mills, mills * (v + mills)


@numba.njit(cache=True)
def link_cdf_compiled(code: int, value: float) -> float:
    """``F(v)`` of the link with kernel code ``code`` (numba, scalar)."""
    if code == 0:
        if value >= 0.0:
            return 1.0 / (1.0 + math.exp(-value))
        e = math.exp(value)
        return e / (1.0 + e)
    return 0.5 * math.erfc(-value * _SQRT_HALF)


@numba.njit(cache=True)
def loss_terms_compiled(code: int, value: float) -> tuple[float, float, float]:
    """``(ell(v), ell'(v), ell''(v))`` with ``ell = -log F`` (numba, scalar)."""
    if code == 0:
        if value >= 0.0:
            e = math.exp(-value)
            loss = math.log1p(e)
            below = e / (1.0 + e)  # F(-v)
        else:
            e = math.exp(value)
            loss = -value + math.log1p(e)
            below = 1.0 / (1.0 + e)
        return loss, -below, e / ((1.0 + e) * (1.0 + e))  # F(v) F(-v) without cancellation
    if value > 0.0:  # log(1 - Phi(-v)) without cancellation
        log_cdf = math.log1p(-0.5 * math.erfc(value * _SQRT_HALF))
        mills = math.exp(-0.5 * value * value - _LOG_SQRT_2PI - log_cdf)
    elif value > _PROBIT_TAIL:
        log_cdf = math.log(0.5 * math.erfc(-value * _SQRT_HALF))
        mills = math.exp(-0.5 * value * value - _LOG_SQRT_2PI - log_cdf)
    else:  # Phi(v) = phi(v) R(-v), R(x) ~ (1 - 1/x^2 + 3/x^4) / x for large x
        x = -value
        ratio = (1.0 - 1.0 / (x * x) + 3.0 / (x * x * x * x)) / x
        log_cdf = -0.5 * value * value - _LOG_SQRT_2PI + math.log(ratio)
        mills = 1.0 / ratio
    return -log_cdf, -mills, mills * (value + mills)


def perturbations(link: Link, rng: np.random.Generator, n_arms: int) -> NDArray[np.float64]:
    """One random-utility noise per arm, in arm order (NumPy).

    Logistic: standard Gumbel by inversion, ``-log(-log u)`` of one ``u = rng.random()`` per
    arm (``u = 0`` gives ``-inf``). Probit: ``sqrt(1/2) * rng.standard_normal()`` per arm.
    The logarithms are libm's (``math.log``), as in the kernel: NumPy's vectorised ``log``
    may differ in the last bit.
    """
    if link_code(link) == 0:
        return np.array(
            [-math.log(-math.log(u)) if u > 0.0 else -np.inf for u in rng.random(n_arms)]
        )
    return _SQRT_HALF * rng.standard_normal(n_arms)


@numba.njit(cache=True)
def perturbation_compiled(code: int, rng: np.random.Generator) -> float:
    """One draw of :func:`perturbations` (numba): call once per arm, in arm order."""
    if code == 0:
        u = rng.random()
        if u == 0.0:
            return -np.inf
        return -math.log(-math.log(u))
    return _SQRT_HALF * rng.standard_normal()
