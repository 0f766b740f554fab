"""The online section and its rules (cdbandits.experiments.online.settings)."""

from typing import get_args

import pytest
import yaml
from conftest import REPO_ROOT
from online_tiny import TINY, tiny_config

from cdbandits.contextual.environments import SUPERVISED_DATASETS
from cdbandits.experiments.config_model import ConfigError
from cdbandits.experiments.online.experiments import online_settings
from cdbandits.experiments.online.settings import (
    ExactWinnerSettings,
    OnlineSection,
    OnlineSweep,
    SupervisedDataset,
)


def test_each_job_reads_only_its_keys():
    sweep = OnlineSweep.from_config({key: TINY[key] for key in OnlineSweep.model_fields})
    winners = ExactWinnerSettings.from_config(
        {key: TINY[key] for key in ExactWinnerSettings.model_fields}
    )
    whole = OnlineSection.from_config(TINY)
    assert online_settings(sweep) == online_settings(winners) == online_settings(whole)
    assert "lp_solver" not in OnlineSweep.model_fields
    assert "seeds" not in ExactWinnerSettings.model_fields
    assert (sweep.seeds, sweep.checkpoints, sweep.shards, sweep.delta) == (3, 4, 2, 0.05)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"synthetic__horizons": [400, 100]}, r"online.synthetic.horizons: must be increasing"),
        ({"long_horizon__horizons": [800, 800]}, "online.long_horizon.horizons: must be incr"),
        (
            {"long_horizon__last_decade_checkpoints": 1},
            r"online.long_horizon.last_decade_checkpoints: 0 \(none\) or at least 2",
        ),
        ({"algorithms": ["uniform", "sparring_exp3"]}, "online.algorithms: must include"),
        ({"algorithms": ["uniform", "uniform"]}, "online.algorithms: values repeat"),
        (
            {"synthetic__n_actions": [], "long_horizon__horizons": [], "supervised__dataset": None},
            "online: the online-to-batch table needs a setting with a finite context population",
        ),
        (
            {
                "synthetic__n_actions": [],
                "long_horizon__horizons": [],
                "supervised__dataset": None,
                "adversarial__horizons": [],
            },
            "online: every setting is disabled",
        ),
        ({"lp_solver": "BOGUS"}, "online.lp_solver: 'BOGUS' is not an installed cvxpy solver"),
    ],
)  # fmt: skip
def test_each_rule_names_its_key(changes, message):
    with pytest.raises(ConfigError, match=f"^{message}") as raised:
        OnlineSection.from_config(tiny_config(**changes), "online")
    assert "\n" not in str(raised.value)


@pytest.mark.parametrize(
    "enabled",
    [
        {"synthetic__n_actions": [3]},
        {"long_horizon__horizons": [100]},
        {"supervised__dataset": "iris"},
        {"mslr__matrices": "per_query.npz"},
    ],
)
def test_one_setting_with_a_finite_population_is_enough(enabled):
    disabled = {
        "synthetic__n_actions": [],
        "long_horizon__horizons": [],
        "supervised__dataset": None,
        "mslr__matrices": None,
    }
    OnlineSection.from_config(tiny_config(**(disabled | enabled)), "online")


def test_the_dataset_names_are_the_libraries():
    assert get_args(SupervisedDataset) == SUPERVISED_DATASETS


@pytest.mark.parametrize(
    ("name", "largest", "shards"),
    [("config.yaml", 1_000_000, 4), ("test.yaml", 4000, 2), ("online-long.yaml", 10**7, 30)],
)
def test_shipped_configs_run_the_long_setting_with_a_dense_last_decade(name, largest, shards):
    sweep = OnlineSection.from_config(
        yaml.safe_load((REPO_ROOT / "config" / name).read_text())["online"]
    )
    (long_run,) = [s for s in online_settings(sweep) if s.name.startswith("long_")]
    assert long_run.horizons[-1] == largest and sweep.shards == shards
    assert long_run.last_decade_checkpoints >= 6
    if name == "online-long.yaml":  # the costliest units are dealt first: one long seed a shard
        assert sweep.seeds <= sweep.shards
