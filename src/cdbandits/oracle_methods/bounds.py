"""Every bound of Sections 6-8 and Appendix D with its constants, as a function of its parameters.

The bounds are evaluated at the parameters actually used by a run (number of exploration
rounds ``m``, FPL rounds ``N``, PGD iterations ``T_out``, ``T_in``, ...), not only at the
theory's settings, so a run at a practical budget reports the guarantee it really has
(often vacuous: larger than the range of the game). Notation: ``L`` bounds
``|Phat_i(a, b)|``, ``V`` its variance, ``|Pi|`` the class size, ``delta`` the failure
probability of the statement.

========================  ==========================================================
Statement                 Function
========================  ==========================================================
Lemma eq. (f2)            :func:`deviation_bound` (``eps'``)
Lemma explore-first       :func:`explore_first_bound` (``2 eps' + eps``)
Theorem fpl               :func:`fpl_regret` (``eps``) and :func:`fpl_gap_bound` (``2 eps``)
Theorem approx-proj       :func:`approx_project_bound` (``8 ||z - v_1|| / sqrt(T_in)``)
Lemma proj-out1 / Thm     :func:`pgd_outer_bound` (``2L/sqrt(T_out) + L epsbar / 2``)
proj-out2
Overall PGD               :func:`pgd_bound` (``2L/sqrt(T_out) + 4L/sqrt(T_in)``)
Theorem main-eps          :func:`main_eps_bound`
Theorem main-regret       :func:`explore_exploit_regret_bound`
========================  ==========================================================
"""

from __future__ import annotations

import math

__all__ = [
    "approx_project_bound",
    "approx_project_factor",
    "deviation_bound",
    "explore_exploit_regret_bound",
    "explore_first_bound",
    "fpl_gap_bound",
    "fpl_regret",
    "main_eps_bound",
    "pgd_bound",
    "pgd_outer_bound",
]


def _check_delta(delta: float) -> None:
    if not 0.0 < delta < 1.0:
        raise ValueError(f"delta must be in (0, 1); got {delta}")


def _check_positive(**values: float) -> None:
    for name, value in values.items():
        if not value > 0:
            raise ValueError(f"{name} must be positive; got {value}")


def deviation_bound(
    n_rounds: int,
    n_policies: int,
    delta: float,
    bound: float,
    variance_bound: float,
    tails: int = 1,
) -> float:
    """Lemma eq. (f2): w.p. ``1 - delta``, ``|Mhat(pi, rho) - M(pi, rho)| <= eps'`` for all pairs.

    ``eps' = 2 (1 + L) ln(t |Pi|^2 / delta) / (3 m) + sqrt(2 V ln(t |Pi|^2 / delta) / m)``
    (Bernstein's inequality with ``|Z_i| <= 1 + L``, ``Var Z_i <= V``, and a union bound
    over the ``|Pi|^2`` ordered pairs and ``t`` tails).

    ``tails = 1`` is the paper as printed: one-sided Bernstein, ``ln(|Pi|^2 / delta)``. It
    bounds ``|Mhat - M|`` only when ``Mhat`` is skew-symmetric (the skew-symmetrised
    estimator: the lower tail of ``(pi, rho)`` is the upper tail of ``(rho, pi)``). For the
    paper's ``K^2`` estimator, which is not skew-symmetric, a bound on ``|Mhat - M|`` needs
    both tails: ``tails = 2``, ``ln(2 |Pi|^2 / delta)`` (the corrected statement).

    Parameters
    ----------
    n_rounds : int
        ``m``.
    n_policies : int
        ``|Pi|``.
    delta : float
    bound, variance_bound : float
        ``L`` and ``V`` of the estimator (``K^2`` for uniform exploration).
    tails : {1, 2}, optional
        Tails of the union bound (see above).
    """
    _check_delta(delta)
    _check_positive(
        n_rounds=n_rounds, n_policies=n_policies, bound=bound, variance_bound=variance_bound
    )
    if tails not in (1, 2):
        raise ValueError(f"tails must be 1 or 2; got {tails}")
    log_term = math.log(tails * n_policies**2 / delta)
    return 2.0 * (1.0 + bound) * log_term / (3.0 * n_rounds) + math.sqrt(
        2.0 * variance_bound * log_term / n_rounds
    )


def explore_first_bound(deviation: float, optimisation_error: float) -> float:
    """Lemma explore-first: an ``eps``-maxmin strategy of ``Mhat`` is a
    ``(2 eps' + eps)``-approximate
    von Neumann winner of ``M`` whenever eq. (f2) holds."""
    return 2.0 * deviation + optimisation_error


def fpl_regret(bound: float, n_rounds: int, n_fpl_rounds: int, delta: float) -> float:
    """Theorem fpl's ``eps = 2 L sqrt(2 m / N) + 2 L sqrt(2 ln(2 / delta) / N)``.

    The average regret of each FPL copy (Kalai-Vempala with ``D = sqrt(m)``,
    ``A = L sqrt(m)``, ``R = L``, plus Azuma at ``delta / 2``), at
    ``alpha = sqrt(2 / (L^2 N))``.
    """
    _check_delta(delta)
    _check_positive(bound=bound, n_rounds=n_rounds, n_fpl_rounds=n_fpl_rounds)
    return 2.0 * bound * math.sqrt(2.0 * n_rounds / n_fpl_rounds) + 2.0 * bound * math.sqrt(
        2.0 * math.log(2.0 / delta) / n_fpl_rounds
    )


def fpl_gap_bound(bound: float, n_rounds: int, n_fpl_rounds: int, delta: float) -> float:
    """Theorem fpl: w.p. ``1 - delta``,
    ``min_u wbar^T B u >= max_w min_u w^T B u - 2 eps`` with ``eps`` of :func:`fpl_regret`."""
    return 2.0 * fpl_regret(bound, n_rounds, n_fpl_rounds, delta)


def approx_project_factor(n_inner: int) -> float:
    """``epsbar = 8 / sqrt(T_in)``, the factor of eq. (b1) that ApproxProject achieves."""
    _check_positive(n_inner=n_inner)
    return 8.0 / math.sqrt(n_inner)


def approx_project_bound(distance: float, n_inner: int) -> float:
    """Theorem approx-proj: ``min_{s in C} F(s, vbar) >= -8 ||z - v_1|| / sqrt(T_in)``.

    Parameters
    ----------
    distance : float
        ``||z - v_1||``.
    n_inner : int
        ``T_in``.

    Returns
    -------
    float
        ``8 ||z - v_1|| / sqrt(T_in)`` (the bound on ``-min_s F(s, vbar)``).
    """
    if distance < 0:
        raise ValueError(f"distance must be non-negative; got {distance}")
    return approx_project_factor(n_inner) * distance


def pgd_outer_bound(bound: float, n_outer: int, approximation_factor: float) -> float:
    """Lemma proj-out1 and Theorem proj-out2: ``eps = 2 L / sqrt(T_out) + L epsbar / 2``.

    Lemma proj-out1: ``(1/T) sum_t w_t^T B u_t >= max_w (1/T) sum_t w^T B u_t - eps``;
    Theorem proj-out2: ``min_u wbar^T B u >= max_w min_u w^T B u - eps``; both at
    ``eta = 2 / (L sqrt(T_out))`` with projections satisfying eq. (b1) with ``epsbar``.
    """
    _check_positive(bound=bound, n_outer=n_outer)
    if approximation_factor < 0:
        raise ValueError(f"approximation_factor must be non-negative; got {approximation_factor}")
    return 2.0 * bound / math.sqrt(n_outer) + bound * approximation_factor / 2.0


def pgd_bound(bound: float, n_outer: int, n_inner: int) -> float:
    """ProjectedGD with ApproxProject: ``eps = 2 L / sqrt(T_out) + 4 L / sqrt(T_in)``."""
    return pgd_outer_bound(bound, n_outer, approx_project_factor(n_inner))


def main_eps_bound(deviation: float, optimisation_error: float) -> float:
    """Theorem main-eps as proved: the output is a ``(2 eps' + eps_alg)``-approximate vNW of ``M``.

    ``eps'`` from :func:`deviation_bound` (at the failure probability given to eq. (f2)) and
    ``eps_alg`` the algorithm's guarantee: :func:`fpl_gap_bound` or :func:`pgd_bound`.
    """
    return explore_first_bound(deviation, optimisation_error)


def explore_exploit_regret_bound(
    horizon: int,
    n_explore: int,
    exploitability_bound: float,
    n_policies: int,
    delta: float,
) -> float:
    """Regret (rd1) of explore-then-exploit, with explicit constants (Theorem main-regret).

    ``m + (T - m) eps + sqrt(2 (T - m) ln(|Pi| / delta))``: each exploration round adds at
    most 1 to the regret; in each exploitation round, with ``a_t, b_t`` drawn independently
    from ``What(x_t)``, the expected gain of any ``pi`` is ``-(What^T M)_pi <= eps`` (the
    exploitability bound of Theorem main-eps), and the gains lie in ``[-1, 1]``, so
    Hoeffding's inequality and a union bound over ``Pi`` add the last term w.p. ``1 - delta``.

    Parameters
    ----------
    horizon : int
        ``T``.
    n_explore : int
        ``m <= T``.
    exploitability_bound : float
        ``eps = 2 eps' + eps_alg`` (holding with the remaining probability).
    n_policies : int
    delta : float
        Failure probability of the Hoeffding term.
    """
    _check_delta(delta)
    if not 0 < n_explore <= horizon:
        raise ValueError(f"need 0 < m <= T; got m = {n_explore}, T = {horizon}")
    exploit = horizon - n_explore
    return (
        n_explore
        + exploit * exploitability_bound
        + math.sqrt(2.0 * exploit * math.log(n_policies / delta))
    )
