"""The rules of the oracle section (cdbandits.experiments.oracle.settings)."""

from typing import get_args

import pytest
from oracle_config import changed

from cdbandits.experiments.config_model import ConfigError
from cdbandits.experiments.oracle.settings import Estimator, OracleSection
from cdbandits.oracle_methods.exploration import ESTIMATORS


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        ("scaling.class_sizes", [100, 150], r"scaling\.class_sizes: .*multiple of 100"),
        (
            "explore_first.estimators",
            ["skew_symmetrised"],
            r"explore_first\.estimators: must include importance_weighted",
        ),
        ("regret.horizons", [100, 1000], r"regret\.horizons: T = 100 leaves no round"),
        (
            "detection.main_regret_fpl",
            {"horizon": 10, "fpl_rounds": 5},
            r"detection\.main_regret_fpl\.horizon: T = 10 leaves no round to exploit",
        ),
        ("detection.environment.n_bins", 3, r"detection\.environment\.n_bins: .*multiple of 2"),
    ],
)
def test_each_rule_names_its_key(path, value, message):
    with pytest.raises(ConfigError, match=f"^oracle.{message}"):
        OracleSection.from_config(changed(path, value), "oracle")


def test_the_estimator_names_are_the_librarys():
    assert get_args(Estimator) == ESTIMATORS
