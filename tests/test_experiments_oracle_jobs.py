"""The settings of the oracle family's jobs (cdbandits.experiments.oracle.jobs)."""

import pytest
from oracle_config import DEFAULT, changed

from cdbandits.experiments.config_model import ConfigError
from cdbandits.experiments.oracle.jobs import (
    ExploreFirstSettings,
    LearnedSettings,
    ScalingSettings,
    SmallSolversSettings,
    SummarySettings,
    SweepSettings,
    config_subset,
    sweep_settings,
)
from cdbandits.experiments.oracle.settings import EXPERIMENTS, EnvironmentSettings, OracleSection


def test_the_sweeps_are_made_from_the_sections():
    oracle = OracleSection.from_config(DEFAULT)
    explore_first = sweep_settings(oracle, "explore_first")
    assert explore_first.environment == EnvironmentSettings()
    assert explore_first.environment.n_policies == 3 * 8 * 9
    assert explore_first.experiment == ExploreFirstSettings(
        delta=0.05,
        seeds=100,
        estimators=("importance_weighted", "skew_symmetrised"),
        explore_rounds=(100, 400, 1600, 6400),
        fpl_rounds=100,
        pgd_iterations=8,
    )
    assert sweep_settings(oracle, "learned").experiment == LearnedSettings(12, 1000, 100, 6)
    small = sweep_settings(oracle, "small_solvers")
    assert small.environment.n_policies == 2 * 3 * 4
    assert small.experiment == SmallSolversSettings(
        0.05, 100, 4, (100, 2500), (16, 169), "skew_symmetrised"
    )
    assert SummarySettings.from_config(DEFAULT) == SummarySettings(0.05, (0.5, 0.2, 0.1, 0.05), 3)
    assert ScalingSettings.from_config(DEFAULT).class_sizes == (100, 1000, 10000, 100000, 1000000)


@pytest.mark.parametrize("experiment", EXPERIMENTS)
def test_a_job_gets_only_the_keys_it_needs_and_they_suffice(experiment):
    keys = SweepSettings.keys(experiment)
    subset = config_subset(DEFAULT, keys)
    assert SweepSettings.from_config(subset, experiment) == SweepSettings.from_config(
        DEFAULT, experiment
    )
    # Changing the scaling measurements or another sweep does not change this sweep's keys.
    others = [name for name in EXPERIMENTS if name != experiment]
    for path, value in [("scaling.repeats", 9), (f"{others[0]}.fpl_rounds", 7)]:
        assert config_subset(changed(path, value), keys) == subset
    assert "scaling" not in keys and "theory_epsilons" not in keys


def test_a_job_checks_a_rule_across_keys_only_with_all_of_them():
    # The summary job reads oracle.environment, not oracle.regret, whose default horizons
    # leave no round to exploit in this environment.
    large = {"n_actions": 10, "n_features": 50, "n_contexts": 100, "n_bins": 100}
    config = {"delta": 0.05, "theory_epsilons": [0.5], "environment": large}
    assert SummarySettings.from_config(config).n_actions == 10
    with pytest.raises(ConfigError, match="regret.horizons: T = 1000 leaves no round"):
        OracleSection.from_config(config, "oracle")
