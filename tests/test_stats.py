"""Intervals, slopes and bootstraps shared by every experiment family (cdbandits.stats)."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cdbandits.stats import (
    Z95,
    binomial_interval,
    bootstrap_slope_over_seeds,
    bootstrap_slope_per_value,
    clopper_pearson,
    last_decade_slope_over_seeds,
    log_log_slope,
    mean_with_interval,
)


@pytest.mark.parametrize(
    "successes, trials, method, expected",
    [
        # R: binom.test(5, 10)$conf.int
        (5, 10, "clopper-pearson", (0.1870860, 0.8129140)),
        # closed forms at the boundary: 1 - 0.025**(1/10) and 0.025**(1/10)
        (0, 10, "clopper-pearson", (0.0, 1 - 0.025**0.1)),
        (10, 10, "clopper-pearson", (0.025**0.1, 1.0)),
        # R: prop.test(5, 10, correct = FALSE)$conf.int
        (5, 10, "wilson", (0.2365931, 0.7634069)),
        (0, 10, "wilson", (0.0, 0.2775328)),
    ],
)
def test_binomial_interval_known_values(successes, trials, method, expected):
    low, high = binomial_interval(successes, trials, 0.95, method)
    np.testing.assert_allclose([low, high], expected, rtol=0, atol=1e-6)


def test_binomial_interval_edge_cases():
    low, high = binomial_interval([0, 3], [0, 4])
    assert np.isnan(low[0]) and np.isnan(high[0])
    assert 0 < low[1] < 0.75 < high[1] < 1
    with pytest.raises(ValueError, match="successes must lie"):
        binomial_interval(5, 4)
    with pytest.raises(ValueError, match="method must be one of"):
        binomial_interval(1, 4, method="normal")
    with pytest.raises(ValueError, match="confidence"):
        binomial_interval(1, 4, confidence=1.0)


def test_clopper_pearson_is_the_scalar_form():
    low, high = clopper_pearson(100, 100)
    assert high == 1.0 and low == pytest.approx(0.025 ** (1 / 100))  # (alpha / 2)^(1/n)
    assert clopper_pearson(5, 10) == tuple(float(x) for x in binomial_interval(5, 10))
    assert all(math.isnan(x) for x in clopper_pearson(0, 0))


def test_clopper_pearson_covers_at_least_nominally():
    # Exact interval: coverage >= 95% at every p (checked exactly over all outcomes of n = 30).
    from scipy.stats import binom

    n = 30
    lows, highs = binomial_interval(np.arange(n + 1), n)
    for p in np.linspace(0.01, 0.99, 99):
        covered = (lows <= p) & (p <= highs)
        assert binom.pmf(np.arange(n + 1), n, p)[covered].sum() >= 0.95 - 1e-12


def test_mean_with_interval():
    values = np.array([1.0, 2.0, 4.0])
    summary = mean_with_interval(values)
    half = Z95 * values.std(ddof=1) / math.sqrt(3)
    assert summary == pytest.approx(
        {"mean": 7 / 3, "ci_low": 7 / 3 - half, "ci_high": 7 / 3 + half, "n_seeds": 3}
    )
    assert math.isnan(mean_with_interval([5.0])["ci_low"])


def test_log_log_slope():
    assert log_log_slope([10, 100, 1000], [2, 20, 200]) == pytest.approx(1.0)
    assert log_log_slope([10, 1000], [1, 10]) == pytest.approx(0.5)
    assert log_log_slope([1, 10, 100], [3, 30**0.5 * 3**0.5, 30]) == pytest.approx(0.5)
    assert math.isnan(log_log_slope([10, 100], [1, 0]))
    assert math.isnan(log_log_slope([10], [1]))
    assert math.isnan(log_log_slope([10, 10], [1, 2]))


@given(st.floats(-2, 2), st.floats(0.1, 10))
def test_log_log_slope_recovers_a_power_law(exponent, scale):
    x = np.array([1.0, 3.0, 10.0, 30.0])
    assert log_log_slope(x, scale * x**exponent) == pytest.approx(exponent, abs=1e-9)


def test_bootstrap_over_seeds_brackets_the_true_rate():
    rng = np.random.default_rng(3)
    x = np.array([100.0, 1000.0, 10000.0])
    values = np.sqrt(x) * rng.lognormal(0.0, 0.1, size=(30, 1)) * rng.lognormal(0, 0.05, (30, 3))
    slope, low, high = bootstrap_slope_over_seeds(x, values, np.random.default_rng(0), 400)
    assert low <= slope <= high and low < 0.5 < high and high - low < 0.1


#: Checkpoints of a regret curve to T = 10^6: log-spaced from 10, denser in the last decade.
CURVE_ROUNDS = np.union1d(np.geomspace(10, 1e6, 16), np.geomspace(1e5, 1e6, 10)).round()


def knee_curves(early: float, late: float, seeds: int = 30) -> np.ndarray:
    """Per-seed curves growing like t^early up to T/10 and like t^late after, with noise."""
    rng = np.random.default_rng(7)
    knee = 1e5
    shape = np.where(
        CURVE_ROUNDS <= knee,
        CURVE_ROUNDS**early,
        knee**early * (CURVE_ROUNDS / knee) ** late,
    )
    scale = rng.lognormal(0.0, 0.3, size=(seeds, 1))  # seeds differ in level
    return shape * scale * rng.lognormal(0.0, 0.03, size=(seeds, CURVE_ROUNDS.size))


def test_last_decade_slope_recovers_the_rate_of_the_last_decade_only():
    # Slope 1 up to T/10, 1/2 after: the last decade's slope is 1/2, the whole curve's not.
    curves = knee_curves(early=1.0, late=0.5)
    slope, low, high, points = last_decade_slope_over_seeds(
        CURVE_ROUNDS, curves, np.random.default_rng(0), 400
    )
    assert points == 10  # the dense grid holds the sparse one's four points in the decade
    assert low <= slope <= high and low < 0.5 < high and high - low < 0.05
    whole = bootstrap_slope_over_seeds(CURVE_ROUNDS, curves, np.random.default_rng(0), 400)
    assert whole[1] > 0.7  # fitted over every checkpoint, the early rate dominates


def test_a_linear_last_decade_is_not_reported_as_a_square_root():
    curves = knee_curves(early=0.5, late=1.0)
    slope, low, high, _ = last_decade_slope_over_seeds(
        CURVE_ROUNDS, curves, np.random.default_rng(0), 400
    )
    assert low < 1.0 < high and low > 0.9 and not low <= 0.5 <= high


@given(st.floats(0.1, 1.5))
def test_last_decade_slope_is_exact_on_a_noiseless_power_law(exponent):
    curves = np.outer([1.0, 2.0, 5.0], CURVE_ROUNDS**exponent)
    slope, low, high, _ = last_decade_slope_over_seeds(
        CURVE_ROUNDS, curves, np.random.default_rng(0), 50
    )
    for value in (slope, low, high):
        assert value == pytest.approx(exponent, abs=1e-9)


def test_last_decade_slope_needs_two_points_in_the_decade():
    x = np.array([10.0, 100.0, 1000.0])  # the last decade, [100, 1000], holds two of them
    assert last_decade_slope_over_seeds(x, [[1, 2, 4], [1, 2, 5]], np.random.default_rng(0))[3] == 2
    slope, low, high, points = last_decade_slope_over_seeds(
        [10.0, 1000.0], [[1.0, 2.0], [1.0, 3.0]], np.random.default_rng(0)
    )
    assert points == 1 and all(math.isnan(v) for v in (slope, low, high))
    with pytest.raises(ValueError, match="values of shape"):
        last_decade_slope_over_seeds([1.0, 10.0], [1.0, 2.0], np.random.default_rng(0))


def test_bootstrap_per_value_brackets_the_true_rate_and_is_reproducible():
    rng = np.random.default_rng(5)
    samples = {m: m**-0.5 * rng.lognormal(0.0, 0.2, size=20) for m in (100.0, 400.0, 1600.0)}
    first = bootstrap_slope_per_value(samples, np.random.default_rng(1), 300)
    assert first == bootstrap_slope_per_value(samples, np.random.default_rng(1), 300)
    slope, low, high = first
    assert low <= slope <= high and low < -0.5 < high
    assert all(math.isnan(v) for v in bootstrap_slope_per_value({1.0: [1.0]}, rng, 10))


def test_binomial_upper_bound_is_one_sided():
    from cdbandits.stats import binomial_upper_bound

    # Nothing seen in n trials: (1 - p)^n = 1 - confidence at the bound ("rule of three").
    bound = binomial_upper_bound(0, 7500, 0.95)
    assert (1 - bound) ** 7500 == pytest.approx(0.05)
    assert 2.9 / 7500 < bound < 3.1 / 7500
    # The upper end of the two-sided interval at 90% (5% above) for both methods.
    for method in ("clopper-pearson", "wilson"):
        two_sided = binomial_interval([3, 40], [50, 50], 0.9, method)[1]
        np.testing.assert_allclose(binomial_upper_bound([3, 40], [50, 50], 0.95, method), two_sided)
    assert binomial_upper_bound(50, 50) == 1.0
    with pytest.raises(ValueError, match=r"confidence in \(1/2, 1\)"):
        binomial_upper_bound(1, 10, 0.4)
