"""Every bound's formula on hand-computed values."""

import math

import pytest

from cdbandits.oracle_methods.bounds import (
    approx_project_bound,
    approx_project_factor,
    deviation_bound,
    explore_exploit_regret_bound,
    explore_first_bound,
    fpl_gap_bound,
    fpl_regret,
    main_eps_bound,
    pgd_bound,
    pgd_outer_bound,
)


def test_deviation_bound_of_lemma_f2():
    # m = 100, |Pi| = 10, delta = 0.01, L = V = 4: ln(|Pi|^2/delta) = ln(1e4) = 9.21034;
    # 2 * 5 * 9.21034 / 300 = 0.307011 and sqrt(8 * 9.21034 / 100) = 0.858386.
    assert deviation_bound(100, 10, 0.01, 4, 4) == pytest.approx(1.165398, abs=1e-6)
    assert deviation_bound(400, 10, 0.01, 4, 4) < deviation_bound(100, 10, 0.01, 4, 4)


def test_the_two_tailed_deviation_bound_of_lemma_f2():
    # The paper's union bound is one-sided: ln(|Pi|^2/delta). Both tails of the K^2
    # estimator: ln(2 |Pi|^2/delta) = ln(2e4) = 9.903488; 2 * 5 * 9.903488 / 300 = 0.330116
    # and sqrt(8 * 9.903488 / 100) = 0.890101.
    assert deviation_bound(100, 10, 0.01, 4, 4, tails=2) == pytest.approx(1.220217, abs=1e-6)
    assert deviation_bound(100, 10, 0.01, 4, 4, tails=1) == deviation_bound(100, 10, 0.01, 4, 4)
    with pytest.raises(ValueError, match="tails must be 1 or 2"):
        deviation_bound(100, 10, 0.01, 4, 4, tails=3)


def test_explore_first_and_main_eps():
    assert explore_first_bound(0.2, 0.1) == pytest.approx(0.5)
    assert main_eps_bound(0.2, 0.1) == pytest.approx(0.5)


def test_fpl_bounds():
    # L = 4, m = 50, N = 800, delta = 0.1:
    # 8 sqrt(100/800) = 2.828427 and 8 sqrt(2 ln 20 / 800) = 0.692327.
    assert fpl_regret(4, 50, 800, 0.1) == pytest.approx(3.520754, abs=1e-6)
    assert fpl_gap_bound(4, 50, 800, 0.1) == pytest.approx(2 * 3.520754, abs=2e-6)


def test_projection_and_pgd_bounds():
    assert approx_project_factor(64) == 1.0
    assert approx_project_bound(0.5, 64) == 0.5
    # L = 9: 2 * 9 / 10 + 9 * (8 / 20) / 2 = 1.8 + 1.8.
    assert pgd_outer_bound(9, 100, 8 / math.sqrt(400)) == pytest.approx(3.6)
    assert pgd_bound(9, 100, 400) == pytest.approx(3.6)


def test_explore_exploit_regret_bound():
    # T = 1000, m = 100, eps = 0.1, |Pi| = 20, delta = 0.05: 100 + 90 + sqrt(1800 ln 400) = 293.849.
    assert explore_exploit_regret_bound(1000, 100, 0.1, 20, 0.05) == pytest.approx(
        293.849103, abs=1e-6
    )


def test_bad_arguments_are_rejected():
    with pytest.raises(ValueError, match="delta must be in"):
        deviation_bound(10, 10, 1.5, 4, 4)
    with pytest.raises(ValueError, match="n_rounds must be positive"):
        deviation_bound(0, 10, 0.1, 4, 4)
    with pytest.raises(ValueError, match="need 0 < m <= T"):
        explore_exploit_regret_bound(10, 20, 0.1, 5, 0.1)
    with pytest.raises(ValueError, match="distance must be non-negative"):
        approx_project_bound(-1.0, 4)
