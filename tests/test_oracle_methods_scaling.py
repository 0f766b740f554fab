"""Scaling measurements: class sizes, one in-process measurement per method."""

import pytest

from cdbandits.oracle_methods.scaling import SCALING_METHODS, measure_here, stump_bins

CONFIG = {
    "n_actions": 2,
    "n_features": 2,
    "n_contexts": 20,
    "intransitivity": 0.7,
    "explore_rounds": 60,
    "fpl_rounds": 3,
    "pgd_iterations": 2,
    "delta": 0.05,
}


def test_stump_bins():
    assert stump_bins(100, 4, 5) == 2
    assert stump_bins(1_000_000, 4, 5) == 10_001
    with pytest.raises(ValueError, match="a multiple of 100"):
        stump_bins(150, 4, 5)


@pytest.mark.parametrize("method", SCALING_METHODS)
def test_one_measurement_per_method(method):
    result = measure_here(method, CONFIG, 16, seed=0)
    assert result["method"] == method and result["n_policies"] == 16
    assert result["seconds"] > 0 and result["peak_mb"] >= 0
    assert 0 <= result["exploitability"] <= 2
