"""The online config section parsed into settings (cdbandits.experiments.online.settings)."""

import dataclasses
from pathlib import Path

import pytest
import yaml
from conftest import REPO_ROOT, TINY_CONFIG, snakemake
from online_tiny import TINY, tiny_config

from cdbandits.experiments.online.settings import (
    EXACT_WINNER_KEYS,
    SWEEP_KEYS,
    AdversarialParameters,
    ExactWinnerSettings,
    MslrParameters,
    OnlineSetting,
    OnlineSettings,
    OnlineSweep,
    SyntheticParameters,
    is_long_run,
    online_settings,
    setting_kind,
    setting_order,
    setting_title,
)


def test_settings_expand_the_config():
    settings = online_settings(TINY)
    assert [setting.name for setting in settings] == [
        "synthetic_K3_N20",
        "long_K3_N20",
        "supervised_iris",
        "adversarial_K3_N10",
    ]
    assert [setting.environment for setting in settings] == [
        "synthetic",
        "synthetic",
        "supervised",
        "adversarial",
    ]
    assert settings[1].parameters == SyntheticParameters(3, 20, 2, 15, 0.8)
    assert settings[1].horizons == (400, 800)
    assert (settings[0].last_decade_checkpoints, settings[1].last_decade_checkpoints) == (0, 5)
    assert settings[3].parameters == AdversarialParameters(3, 10, 2, 5, 0.8)
    disabled = tiny_config(
        long_horizon__horizons=[], supervised__dataset=None, mslr__matrices="per_query.npz"
    )
    names = [setting.name for setting in online_settings(disabled)]
    assert names == ["synthetic_K3_N20", "adversarial_K3_N10", "mslr"]
    assert OnlineSettings.from_config(disabled).mslr_matrices == "per_query.npz"
    assert OnlineSettings.from_config(TINY).mslr_matrices is None
    assert online_settings(disabled)[-1].parameters == MslrParameters("per_query.npz", 2)


def test_each_job_reads_only_its_keys():
    sweep = OnlineSweep.from_config({key: TINY[key] for key in SWEEP_KEYS})
    winners = ExactWinnerSettings.from_config({key: TINY[key] for key in EXACT_WINNER_KEYS})
    assert sweep == OnlineSettings.from_config(TINY).sweep
    assert winners == OnlineSettings.from_config(TINY).exact_winners
    assert "lp_solver" not in SWEEP_KEYS and "seeds" not in EXACT_WINNER_KEYS
    assert sweep.algorithms == ("sparring_exp4p", "sparring_exp3", "uniform")
    assert (sweep.seeds, sweep.checkpoints, sweep.shards, sweep.delta) == (3, 4, 2, 0.05)
    with pytest.raises(dataclasses.FrozenInstanceError):
        sweep.seeds = 4


# Values the config schema allows but the code rejects: (changes, the message's start).
REJECTED = [
    ({"synthetic__horizons": [400, 100]}, "online.synthetic: horizons must be positive and"),
    ({"long_horizon__horizons": [800, 800]}, "online.long_horizon: horizons must be"),
    (
        {"long_horizon__last_decade_checkpoints": 1},
        "online.long_horizon: last_decade_checkpoints must be 0 (none) or at least 2",
    ),
    ({"algorithms": ["uniform", "sparring_exp3"]}, "online.algorithms: must include"),
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
]


@pytest.mark.parametrize(("changes", "message"), REJECTED)
def test_rejected_values_name_their_key(changes, message):
    with pytest.raises(ValueError) as error:
        OnlineSettings.from_config(tiny_config(**changes))
    assert str(error.value).startswith(message)
    assert "\n" not in str(error.value)


def test_settings_check_their_own_values():
    with pytest.raises(ValueError, match="n_actions must be in 2..255; got 256"):
        SyntheticParameters(256, 10, 2, 5, 0.5)
    with pytest.raises(ValueError, match="intransitivity"):
        SyntheticParameters(3, 10, 2, 5, 1.5)
    with pytest.raises(ValueError, match="margin"):
        AdversarialParameters(3, 10, 2, 5, 0.0)
    with pytest.raises(ValueError, match="increasing"):
        OnlineSetting("s", (), SyntheticParameters(3, 10, 2, 5, 0.5))
    sweep = OnlineSettings.from_config(TINY).sweep
    with pytest.raises(ValueError, match="online.algorithms: must be distinct"):
        dataclasses.replace(sweep, algorithms=("sparring_exp4p", "sparring_exp4p"))
    with pytest.raises(ValueError, match="online.shards: shards must be at least 1"):
        dataclasses.replace(sweep, shards=0)


@pytest.mark.workflow
@pytest.mark.parametrize(("changes", "message"), [REJECTED[0], REJECTED[2], REJECTED[6]])
def test_the_workflow_rejects_them_when_it_starts(tmp_path: Path, changes, message):
    config = yaml.safe_load(TINY_CONFIG.read_text())
    for name, value in changes.items():
        section, _, key = name.partition("__")
        if key:
            config["online"].setdefault(section, {})[key] = value
        else:
            config["online"][section] = value
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(config))
    completed = snakemake(
        "--dry-run", "--directory", str(tmp_path), "--configfile", str(bad), check=False
    )
    output = completed.stdout + completed.stderr
    assert completed.returncode != 0
    assert f"config key {message}" in output
    assert len(output.splitlines()) <= 4, output


def test_settings_are_read_in_order_and_described():
    names = ["mslr", "adversarial_K3_N10", "synthetic_K5_N100", "long_K3_N100"]
    names += ["synthetic_K3_N1000", "supervised_wine", "synthetic_K3_N100"]
    assert setting_order(names) == [
        "synthetic_K3_N100",
        "synthetic_K3_N1000",
        "synthetic_K5_N100",
        "long_K3_N100",
        "supervised_wine",
        "adversarial_K3_N10",
        "mslr",
    ]
    assert setting_kind("long_K3_N100", "synthetic") == "synthetic, long run"
    assert setting_kind("supervised_wine", "supervised") == "supervised (wine data)"
    assert setting_kind("mslr", "mslr") == "MSLR per query"
    assert (
        setting_title("adversarial_K3_N1000", "adversarial", 3, 1000)
        == "adaptive adversary: K = 3 actions, |Π| = 1,000 policies"
    )
    # Every setting the config can make has a description of its own.
    config = tiny_config(mslr__matrices="per_query.npz")
    kinds = [setting_kind(s.name, s.environment) for s in online_settings(config)]
    assert len(set(kinds)) == len(kinds) and not any("_" in kind for kind in kinds)


def _overlay(base: dict, changes: dict) -> dict:
    """``base`` with ``changes`` merged in, nested sections key by key (as --configfile does)."""
    merged = dict(base)
    for key, value in changes.items():
        nested = isinstance(value, dict) and isinstance(base.get(key), dict)
        merged[key] = _overlay(base[key], value) if nested else value
    return merged


@pytest.mark.parametrize(
    ("name", "largest", "shards"),
    [("config.yaml", 1_000_000, 4), ("test.yaml", 4000, 2), ("online-long.yaml", 10**7, 30)],
)
def test_shipped_configs_run_the_long_setting_with_a_dense_last_decade(name, largest, shards):
    default = yaml.safe_load((REPO_ROOT / "config" / "config.yaml").read_text())["online"]
    changes = yaml.safe_load((REPO_ROOT / "config" / name).read_text())["online"]
    sweep = OnlineSettings.from_config(_overlay(default, changes)).sweep
    (long_run,) = [setting for setting in sweep.settings if is_long_run(setting.name)]
    assert long_run.horizons[-1] == largest and sweep.shards == shards
    assert long_run.last_decade_checkpoints >= 6
    if name == "online-long.yaml":  # the costliest units are dealt first: one long seed a shard
        assert sweep.seeds <= sweep.shards


def test_the_schema_defaults_of_the_long_run_are_the_default_config():
    schema = yaml.safe_load((REPO_ROOT / "workflow/schemas/config.schema.yaml").read_text())
    properties = schema["properties"]["online"]["properties"]["long_horizon"]["properties"]
    default = yaml.safe_load((REPO_ROOT / "config" / "config.yaml").read_text())["online"]
    assert {key: spec["default"] for key, spec in properties.items()} == default["long_horizon"]
    assert all(spec["description"] for spec in properties.values())
