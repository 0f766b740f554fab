"""The theory's parameter settings on hand-computed values, and their overrides."""

import math

import pytest

from cdbandits.oracle_methods.bounds import deviation_bound, fpl_gap_bound, pgd_bound
from cdbandits.oracle_methods.theory import (
    approx_project_nu,
    exploration_rounds,
    explore_exploit_rounds,
    fpl_alpha,
    fpl_rounds,
    main_regret_bound,
    pgd_eta,
    pgd_iterations,
    statistics_delta,
    theory_parameters,
)


def test_step_sizes():
    assert fpl_alpha(4, 50) == pytest.approx(0.05)  # sqrt(2 / (16 * 50))
    assert pgd_eta(4, 16) == pytest.approx(0.125)  # 2 / (4 * 4)
    assert approx_project_nu(0.5, 25) == pytest.approx(0.1)
    assert pgd_iterations(3, 1.0) == 324  # 36 * 9


def test_budgets_are_the_smallest_that_reach_the_target():
    m = exploration_rounds(0.5, 10, 0.01, 4, 4)
    assert deviation_bound(m, 10, 0.01, 4, 4) <= 0.5 < deviation_bound(m - 1, 10, 0.01, 4, 4)
    n = fpl_rounds(4, 50, 2.0, 0.1)
    assert fpl_gap_bound(4, 50, n, 0.1) <= 2.0 < fpl_gap_bound(4, 50, n - 1, 0.1)
    assert pgd_bound(3, 324, 324) == pytest.approx(1.0)


def test_explore_exploit_rounds_of_theorem_main_regret():
    # (2 V ln(|Pi|^2/delta))^(1/3) T^(2/3) = (8 ln 1e4)^(1/3) * 100 = 419.23 for T = 1000.
    assert explore_exploit_rounds(1000, 10, 0.01, 4) == 420
    assert explore_exploit_rounds(10, 10**6, 0.01, 25) == 10  # capped at T


@pytest.mark.parametrize("algorithm", ["fpl", "pgd"])
def test_theory_parameters_reach_epsilon(algorithm):
    settings = theory_parameters(algorithm, 0.5, 0.05, 1000, 25, 25)
    assert settings.guarantee <= 0.5
    assert 2 * settings.deviation <= 0.25 + 1e-12
    assert settings.algorithm_epsilon <= 0.25
    assert settings.n_explore == exploration_rounds(
        0.125, 1000, statistics_delta(0.05, algorithm), 25, 25
    )
    if algorithm == "fpl":
        assert settings.oracle_calls == 2 * settings.fpl_rounds
        assert settings.alpha == pytest.approx(math.sqrt(2 / (625 * settings.fpl_rounds)))
    else:
        assert settings.n_outer == settings.n_inner == 360_000  # 36 * 625 / 0.25^2
        assert settings.oracle_calls == 360_000 + 360_000**2


def test_overrides_report_the_guarantee_at_the_budget_used():
    settings = theory_parameters(
        "pgd", 0.5, 0.05, 1000, 25, 25, n_explore=1000, n_outer=10, n_inner=10
    )
    assert settings.n_explore == 1000
    assert settings.oracle_calls == 110
    assert settings.algorithm_epsilon == pytest.approx(pgd_bound(25, 10, 10))
    assert settings.guarantee > 0.5
    with pytest.raises(ValueError, match="unknown overrides"):
        theory_parameters("pgd", 0.5, 0.05, 1000, 25, 25, n_rounds=3)
    with pytest.raises(ValueError, match="algorithm must be one of"):
        statistics_delta(0.1, "exp4")


def test_main_regret_bound_composes_the_bounds_at_theorem_main_regrets_m():
    # T = 1000, |Pi| = 20, L = V = 4, delta / 3 = 0.01 each for eq. (f2), FPL and Hoeffding.
    m = explore_exploit_rounds(1000, 20, 0.01, 4)
    deviation = deviation_bound(m, 20, 0.01, 4, 4)
    exact = m + (1000 - m) * 2 * deviation + math.sqrt(2 * (1000 - m) * math.log(20 / 0.01))
    assert main_regret_bound(1000, 20, 4, 4, 0.01) == pytest.approx(exact)
    with_fpl = exact + (1000 - m) * fpl_gap_bound(4, m, 50, 0.01)
    assert main_regret_bound(1000, 20, 4, 4, 0.01, fpl_rounds=50) == pytest.approx(with_fpl)
