import numpy as np
import pytest

from cdbandits.limits import (
    DENSE_MAX_K,
    MAX_WEIGHT,
    SECONDS_PER_SPARSE_ITEM,
    analysis_bytes,
    analysis_seconds,
    format_bytes,
    format_seconds,
    matrix_bytes,
    records_bytes,
    resampled_bytes,
)


@pytest.mark.parametrize(
    ("count", "text"),
    [(999, "999 bytes"), (1500, "1.5 kB"), (2.4e9, "2.4 GB"), (6.4e11, "640 GB"), (3e12, "3 TB")],
)
def test_memory_for_messages(count, text):
    assert format_bytes(count) == text


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (40, "40 seconds"),
        (119, "119 seconds"),
        (600, "10 minutes"),
        (9000, "2.5 hours"),
        (1e6, "12 days"),
    ],
)
def test_durations_for_messages(seconds, text):
    assert format_seconds(seconds) == text


def test_the_estimates_grow_with_what_is_asked():
    assert MAX_WEIGHT == 2**53 and float(MAX_WEIGHT) + 1 == float(MAX_WEIGHT)
    assert (
        analysis_bytes(2000, 1000, 2) > analysis_bytes(1000, 1000, 2) > analysis_bytes(1000, 10, 2)
    )
    assert analysis_bytes(100, 1000, 0) < analysis_bytes(100, 1000, 1)
    assert resampled_bytes(10, 100, 2) == 2 * resampled_bytes(10, 100, 1)
    assert records_bytes(2) == 2 * records_bytes(1) and matrix_bytes(20) == 4 * matrix_bytes(10)
    assert analysis_seconds(200, 1000, 2) > 100 * analysis_seconds(20, 1000, 2)


def test_a_log_analysed_pair_by_pair_takes_one_sparse_solve_per_resample_and_no_tiers():
    k = DENSE_MAX_K + 1
    point = analysis_seconds(k, 0, 0)
    assert point == pytest.approx(SECONDS_PER_SPARSE_ITEM * k)
    assert analysis_seconds(k, 1000, 2) == pytest.approx(2001 * point)
    assert analysis_seconds(2 * k, 0, 0) == pytest.approx(2 * point)
    assert analysis_seconds(DENSE_MAX_K, 0, 0) > 100 * point  # dense: the tiers' solves


def test_the_memory_estimate_is_the_order_of_the_measured_peak():
    import tracemalloc
    import warnings

    from cdbandits.comparisons.analysis import AnalysisSettings, analyze_log
    from cdbandits.comparisons.coverage import synthetic_log

    k, resamples = 120, 20
    rng = np.random.default_rng(0)
    upper = np.triu(rng.uniform(-1, 1, (k, k)), 1)
    log = synthetic_log(upper - upper.T, 2, rng)
    tracemalloc.start()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            analysis = analyze_log(log, AnalysisSettings(resamples=resamples), rng)
            for distribution in analysis.distributions.values():
                distribution.weight_interval()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    estimate = analysis_bytes(k, resamples, 2)
    assert estimate / 4 <= peak <= estimate, (peak, estimate)  # NumPy's share, traced
