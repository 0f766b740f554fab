"""The theory's parameter settings (Sections 6-8, Appendix D), with room for overrides.

Step sizes at a given budget:

* SparringFPL: ``alpha = sqrt(2 / (L^2 N))`` (:func:`fpl_alpha`);
* ProjectedGD: ``eta = 2 / (L sqrt(T_out))`` (:func:`pgd_eta`);
* ApproxProject: ``nu = ||z - v_1|| / sqrt(T_in)`` (:func:`approx_project_nu`).

Budgets from a target accuracy (smallest integers for which the bounds of
:mod:`cdbandits.oracle_methods.bounds` reach it):

* ``m`` with ``eps'(m) <= target`` (:func:`exploration_rounds`);
* FPL: ``N`` with ``2 eps_fpl(N) <= target``, i.e.
  ``N = ceil(32 L^2 (sqrt(m) + sqrt(ln(2/delta)))^2 / target^2)`` (:func:`fpl_rounds`);
* PGD: ``T_in = T_out = ceil(36 L^2 / target^2)`` (:func:`pgd_iterations`).

:func:`theory_parameters` combines them for Theorem main-eps: the accuracy ``eps`` is split
evenly between the statistics (``2 eps' = eps / 2``) and the optimisation
(``eps_alg = eps / 2``), and ``delta`` between eq. (f2) and FPL's perturbations
(``delta / 2`` each; PGD is deterministic, so eq. (f2) gets all of it).
:func:`explore_exploit_rounds` gives Theorem main-regret's ``m`` for a horizon ``T``.

At small ``eps`` these numbers are astronomically large; runs use practical budgets and
report the bounds at the budget used.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any, Literal

from .bounds import (
    deviation_bound,
    explore_exploit_regret_bound,
    fpl_gap_bound,
    main_eps_bound,
    pgd_bound,
)

__all__ = [
    "ALGORITHMS",
    "TheoryParameters",
    "approx_project_nu",
    "explore_exploit_rounds",
    "exploration_rounds",
    "fpl_alpha",
    "fpl_rounds",
    "main_regret_bound",
    "pgd_eta",
    "pgd_iterations",
    "statistics_delta",
    "theory_parameters",
]

Algorithm = Literal["fpl", "pgd"]

#: The two algorithms that solve the compact game.
ALGORITHMS: tuple[Algorithm, ...] = ("fpl", "pgd")


def _positive(name: str, value: float) -> None:
    if not value > 0:
        raise ValueError(f"{name} must be positive; got {value}")


def fpl_alpha(bound: float, n_fpl_rounds: int) -> float:
    """``alpha = sqrt(2 / (L^2 N))``: perturbations are uniform on ``[0, 1/alpha]^{mK}``."""
    _positive("bound", bound)
    _positive("n_fpl_rounds", n_fpl_rounds)
    return math.sqrt(2.0 / (bound**2 * n_fpl_rounds))


def pgd_eta(bound: float, n_outer: int) -> float:
    """``eta = 2 / (L sqrt(T_out))``."""
    _positive("bound", bound)
    _positive("n_outer", n_outer)
    return 2.0 / (bound * math.sqrt(n_outer))


def approx_project_nu(distance: float, n_inner: int) -> float:
    """``nu = ||z - v_1|| / sqrt(T_in)``; must be at most 1 (checked by ApproxProject)."""
    _positive("n_inner", n_inner)
    if distance < 0:
        raise ValueError(f"distance must be non-negative; got {distance}")
    return distance / math.sqrt(n_inner)


def pgd_iterations(bound: float, target: float) -> int:
    """``T_in = T_out = ceil(36 L^2 / eps^2)``: then ``2L/sqrt(T_out) + 4L/sqrt(T_in) <= eps``."""
    _positive("bound", bound)
    _positive("target", target)
    return math.ceil(36.0 * bound**2 / target**2)


def fpl_rounds(bound: float, n_rounds: int, target: float, delta: float) -> int:
    """Smallest ``N`` with ``2 eps_fpl(N) <= target`` (Theorem fpl)."""
    _positive("target", target)
    scale = 4.0 * bound * (math.sqrt(2.0 * n_rounds) + math.sqrt(2.0 * math.log(2.0 / delta)))
    n = max(1, math.ceil((scale / target) ** 2))
    while fpl_gap_bound(bound, n_rounds, n, delta) > target:
        n += 1
    return n


def exploration_rounds(
    target: float, n_policies: int, delta: float, bound: float, variance_bound: float
) -> int:
    """Smallest ``m`` with ``eps'(m) <= target`` (Lemma eq. (f2))."""
    _positive("target", target)
    log_term = math.log(n_policies**2 / delta)
    linear = 2.0 * (1.0 + bound) * log_term / 3.0
    root = math.sqrt(2.0 * variance_bound * log_term)
    # eps'(m) = linear s^2 + root s with s = 1 / sqrt(m): solve the quadratic for s.
    s = (-root + math.sqrt(root**2 + 4.0 * linear * target)) / (2.0 * linear)
    m = max(1, math.floor(1.0 / s**2))
    while deviation_bound(m, n_policies, delta, bound, variance_bound) > target:
        m += 1
    return m


def statistics_delta(delta: float, algorithm: Algorithm) -> float:
    """The share of ``delta`` given to eq. (f2): ``delta / 2`` for FPL, ``delta`` for PGD."""
    if algorithm not in ALGORITHMS:
        raise ValueError(f"algorithm must be one of {ALGORITHMS}; got {algorithm!r}")
    return delta / 2.0 if algorithm == "fpl" else delta


def explore_exploit_rounds(
    horizon: int, n_policies: int, delta: float, variance_bound: float
) -> int:
    """Theorem main-regret's ``m = ceil((2 V ln(|Pi|^2 / delta))^(1/3) T^(2/3))`` (at most ``T``).

    It balances the ``m`` regret of exploration against the leading term
    ``T sqrt(2 V ln(|Pi|^2/delta) / m)`` of ``2 eps'`` over the exploitation rounds; for
    uniform exploration (``V = K^2``) it is ``Theta(K^(2/3) T^(2/3) Psi^(1/3))``.
    """
    _positive("horizon", horizon)
    scale = (2.0 * variance_bound * math.log(n_policies**2 / delta)) ** (1.0 / 3.0)
    return min(horizon, max(1, math.ceil(scale * horizon ** (2.0 / 3.0))))


def main_regret_bound(
    horizon: int,
    n_policies: int,
    bound: float,
    variance_bound: float,
    failure_share: float,
    fpl_rounds: int | None = None,
) -> float:
    """Theorem main-regret's regret bound at ``T`` with its own ``m``.

    ``m = explore_exploit_rounds(T, |Pi|, failure_share, V)``; the game is solved by
    SparringFPL with ``fpl_rounds`` rounds (``eps_alg`` of Theorem fpl) or, when ``None``,
    exactly (``eps_alg = 0``); eq. (f2), FPL and Hoeffding each get ``failure_share`` of
    ``delta`` (:func:`~.bounds.explore_exploit_regret_bound`).
    """
    m = explore_exploit_rounds(horizon, n_policies, failure_share, variance_bound)
    deviation = deviation_bound(m, n_policies, failure_share, bound, variance_bound)
    algorithm = 0.0 if fpl_rounds is None else fpl_gap_bound(bound, m, fpl_rounds, failure_share)
    exploitability = main_eps_bound(deviation, algorithm)
    return explore_exploit_regret_bound(horizon, m, exploitability, n_policies, failure_share)


@dataclass(frozen=True)
class TheoryParameters:
    """Theorem main-eps's settings for one target accuracy.

    Attributes
    ----------
    algorithm : {"fpl", "pgd"}
    epsilon, delta : float
        Target accuracy (as an approximate vNW of ``M``) and failure probability.
    n_policies : int
    bound, variance_bound : float
        ``L`` and ``V``.
    n_explore : int
        ``m``.
    deviation : float
        ``eps'`` at ``m`` (with ``delta`` of :func:`statistics_delta`).
    algorithm_epsilon : float
        The optimisation error ``eps_alg`` guaranteed at these settings (Theorem fpl's
        ``2 eps`` or PGD's ``2L/sqrt(T_out) + 4L/sqrt(T_in)``; at most ``epsilon / 2``
        without overrides).
    fpl_rounds : int or None
        ``N`` (FPL only).
    alpha : float or None
        FPL's perturbation parameter.
    n_outer, n_inner : int or None
        ``T_out``, ``T_in`` (PGD only).
    eta : float or None
        PGD's step size.
    oracle_calls : int
        ``2 N`` (FPL) or ``T_out + T_in T_out`` (PGD).
    guarantee : float
        ``2 eps' + eps_alg`` at these settings (at most ``epsilon``).
    """

    algorithm: Algorithm
    epsilon: float
    delta: float
    n_policies: int
    bound: float
    variance_bound: float
    n_explore: int
    deviation: float
    algorithm_epsilon: float
    fpl_rounds: int | None
    alpha: float | None
    n_outer: int | None
    n_inner: int | None
    eta: float | None
    oracle_calls: int
    guarantee: float

    def as_dict(self) -> dict[str, Any]:
        """The fields as a plain dictionary."""
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


def theory_parameters(
    algorithm: Algorithm,
    epsilon: float,
    delta: float,
    n_policies: int,
    bound: float,
    variance_bound: float,
    **overrides: int,
) -> TheoryParameters:
    """Theorem main-eps's ``m`` and algorithm budget for accuracy ``epsilon``.

    Parameters
    ----------
    algorithm : {"fpl", "pgd"}
    epsilon, delta : float
    n_policies : int
    bound, variance_bound : float
        ``L`` and ``V`` of the exploration scheme.
    **overrides : int
        Any of ``n_explore``, ``fpl_rounds``, ``n_outer``, ``n_inner`` to fix instead of
        deriving; the step sizes, ``deviation`` and ``guarantee`` are then evaluated at the
        values used.

    Returns
    -------
    TheoryParameters
    """
    allowed = {"n_explore", "fpl_rounds", "n_outer", "n_inner"}
    unknown = set(overrides) - allowed
    if unknown:
        raise ValueError(f"unknown overrides {sorted(unknown)}; allowed: {sorted(allowed)}")
    _positive("epsilon", epsilon)
    stats_delta = statistics_delta(delta, algorithm)
    m = overrides.get("n_explore") or exploration_rounds(
        epsilon / 4.0, n_policies, stats_delta, bound, variance_bound
    )
    deviation = deviation_bound(m, n_policies, stats_delta, bound, variance_bound)
    target = epsilon / 2.0
    parameters = TheoryParameters(
        algorithm=algorithm,
        epsilon=epsilon,
        delta=delta,
        n_policies=n_policies,
        bound=bound,
        variance_bound=variance_bound,
        n_explore=m,
        deviation=deviation,
        algorithm_epsilon=math.nan,
        fpl_rounds=None,
        alpha=None,
        n_outer=None,
        n_inner=None,
        eta=None,
        oracle_calls=0,
        guarantee=math.nan,
    )
    if algorithm == "fpl":
        n = overrides.get("fpl_rounds") or fpl_rounds(bound, m, target, delta / 2.0)
        achieved = fpl_gap_bound(bound, m, n, delta / 2.0)
        return replace(
            parameters,
            algorithm_epsilon=achieved,
            fpl_rounds=n,
            alpha=fpl_alpha(bound, n),
            oracle_calls=2 * n,
            guarantee=2.0 * deviation + achieved,
        )
    n_outer = overrides.get("n_outer") or pgd_iterations(bound, target)
    n_inner = overrides.get("n_inner") or pgd_iterations(bound, target)
    achieved = pgd_bound(bound, n_outer, n_inner)
    return replace(
        parameters,
        algorithm_epsilon=achieved,
        n_outer=n_outer,
        n_inner=n_inner,
        eta=pgd_eta(bound, n_outer),
        oracle_calls=n_outer + n_inner * n_outer,
        guarantee=2.0 * deviation + achieved,
    )
