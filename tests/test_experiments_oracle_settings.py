"""The oracle config parsed into settings: types, the keys each job gets, checks naming keys."""

import copy

import pytest
import yaml
from conftest import REPO_ROOT, TINY_CONFIG, snakemake

from cdbandits.experiments.oracle.settings import (
    EXPERIMENTS,
    EnvironmentSettings,
    ExploreFirstSettings,
    LearnedSettings,
    OracleSettings,
    RegretSettings,
    ScalingSettings,
    SettingsError,
    SmallExploreFirstSettings,
    SmallSolversSettings,
    SummarySettings,
    SweepSettings,
    config_subset,
    stump_bins,
)

DEFAULT = yaml.safe_load((REPO_ROOT / "config" / "config.yaml").read_text())["oracle"]


def changed(path, value):
    """The default oracle section with the key at ``path`` (dotted) set to ``value``."""
    config = copy.deepcopy(DEFAULT)
    *parents, key = path.split(".")
    section = config
    for parent in parents:
        section = section[parent]
    section[key] = value
    return config


def test_the_default_config_parses_into_typed_settings():
    settings = OracleSettings.from_config(DEFAULT)
    assert [sweep.experiment.name for sweep in settings.sweeps] == list(EXPERIMENTS)
    explore_first = settings.sweeps[0]
    assert explore_first.environment == EnvironmentSettings(3, 3, 100, 0.7, 9)
    assert explore_first.environment.n_policies == 3 * 8 * 9
    assert explore_first.experiment == ExploreFirstSettings(
        delta=0.05,
        seeds=100,
        estimators=("importance_weighted", "skew_symmetrised"),
        explore_rounds=(100, 400, 1600, 6400),
        fpl_rounds=100,
        pgd_iterations=8,
    )
    assert settings.sweeps[3].experiment == LearnedSettings(12, 1000, 100, 6)
    assert settings.scaling.class_sizes == (100, 1000, 10000, 100000, 1000000)
    assert settings.summary == SummarySettings(0.05, (0.5, 0.2, 0.1, 0.05), 3)


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
    assert config_subset(DEFAULT, ScalingSettings.KEYS).keys() == {"delta", "scaling"}


def test_the_small_game_has_its_own_environment_and_any_estimator():
    settings = {
        sweep.experiment.name: sweep for sweep in OracleSettings.from_config(DEFAULT).sweeps
    }
    small = settings["small_explore_first"]
    assert small.environment == EnvironmentSettings(2, 2, 20, 0.7, 4)
    assert small.environment.n_policies == 2 * 3 * 4
    assert small.experiment == SmallExploreFirstSettings(
        delta=0.05,
        seeds=100,
        estimators=("skew_symmetrised",),
        explore_rounds=(3000,),
        fpl_rounds=100,
        pgd_iterations=81,
    )
    assert settings["small_solvers"].experiment == SmallSolversSettings(
        0.05, 100, 4, (100, 2500), (16, 169), "skew_symmetrised"
    )
    assert settings["solvers"].experiment.estimator == "importance_weighted"
    keys = SweepSettings.keys("small_solvers")
    assert "environment" not in keys and "small_game" in keys
    # The default sweeps' environment does not reach the small game's jobs.
    assert config_subset(changed("environment.n_bins", 5), keys) == config_subset(DEFAULT, keys)


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        ("scaling.class_sizes", [100, 150], r"oracle\.scaling\.class_sizes: .*multiple of 100"),
        (
            "explore_first.estimators",
            ["skew_symmetrised"],
            r"oracle\.explore_first\.estimators: must include importance_weighted",
        ),
        ("regret.horizons", [100, 1000], r"oracle\.regret\.horizons: T = 100 leaves no round"),
        ("learned.fpl_rounds", "many", r"oracle\.learned\.fpl_rounds: 'many' is invalid"),
        (
            "small_game.solvers.estimator",
            "hessian",
            r"oracle\.small_game\.solvers\.estimator: unknown 'hessian'",
        ),
        (
            "small_game.explore_first.pgd_iterations",
            "many",
            r"oracle\.small_game\.explore_first\.pgd_iterations: 'many' is invalid",
        ),
        ("small_game.environment.n_bins", None, r"oracle\.small_game\.environment\.n_bins"),
    ],
)
def test_values_the_code_rejects_fail_naming_the_key(path, value, message):
    with pytest.raises(SettingsError, match=message):
        OracleSettings.from_config(changed(path, value))


def test_a_missing_key_is_named():
    config = copy.deepcopy(DEFAULT)
    del config["solvers"]["explore_rounds"]
    with pytest.raises(SettingsError, match=r"^oracle\.solvers\.explore_rounds: missing$"):
        OracleSettings.from_config(config)


def test_the_smallest_horizon_is_the_first_that_leaves_rounds_to_exploit():
    regret = RegretSettings(delta=0.05, seeds=2, horizons=(1000,), fpl_rounds=10)
    smallest = regret.smallest_horizon(216, 3)
    assert regret.explore_rounds(smallest, 216, 3) < smallest
    assert regret.explore_rounds(smallest - 1, 216, 3) >= smallest - 1
    # Theorem main-regret's m = (2 V ln(|Pi|^2 / (delta/3)))^(1/3) T^(2/3) < T needs
    # T > 2 * 9 * ln(216^2 * 60) = 267.2.
    assert 268 <= smallest <= 280


def test_stump_bins():
    assert stump_bins(100, 4, 5) == 2
    assert stump_bins(1_000_000, 4, 5) == 10_001
    with pytest.raises(ValueError, match="a multiple of 100"):
        stump_bins(150, 4, 5)


@pytest.mark.workflow
def test_the_workflow_stops_at_once_on_a_value_the_code_rejects(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump({"oracle": {"scaling": {"class_sizes": [150]}}}))
    completed = snakemake(
        "--dry-run",
        "--directory",
        str(tmp_path),
        "--configfile",
        str(TINY_CONFIG),
        str(bad),
        check=False,
    )
    output = (completed.stdout + completed.stderr).strip()
    assert completed.returncode != 0
    assert output.splitlines()[-1].startswith(
        "Invalid config: oracle.scaling.class_sizes: a stump class has d (n_bins - 1) K^2"
    )
    assert "Traceback" not in output
