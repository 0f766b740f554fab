"""The duels config section (cdbandits.experiments.duels.settings)."""

from pathlib import Path

import pytest
import yaml
from duels_cases import sweep_config, tiny_sweep
from hypothesis import given
from hypothesis import strategies as st

from cdbandits.datasets import DATA_FILES
from cdbandits.experiments.duels.settings import ALGORITHMS, CONTEXTUAL_ALGORITHMS, DuelsSweep
from cdbandits.experiments.online.settings import (
    AdversarialParameters,
    MslrParameters,
    SupervisedParameters,
)
from cdbandits.karmed import ALGORITHMS as KARMED_ALGORITHMS

ROOT = Path(__file__).resolve().parents[1]

CONTEXTUAL = {"name": "c", "kind": "contextual", "contexts": 4, "actions": 3, "features": 2,
              "policies": 5}  # fmt: skip
ONLINE = {"name": "o", "kind": "online", "setting": "synthetic"}
ADVERSARIAL = {"name": "o", "kind": "online", "setting": "adversarial"}


def test_algorithms_are_the_karmed_ones():
    assert ALGORITHMS == tuple(KARMED_ALGORITHMS)


@pytest.mark.parametrize("name", ["config.yaml", "test.yaml", "duels-large.yaml"])
def test_shipped_configs_parse_and_name_known_data(name):
    default = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())["duels"]
    section = default | yaml.safe_load((ROOT / "config" / name).read_text())["duels"]
    sweep = DuelsSweep.from_config(section)
    assert {key for e in sweep.environments for key in e.data} <= set(DATA_FILES)
    assert sweep.leaderboard_horizons[-1] == sweep.horizon


def test_default_config_matches_the_schema_defaults():
    schema = yaml.safe_load((ROOT / "workflow/schemas/config.schema.yaml").read_text())
    properties = schema["properties"]["duels"]["properties"]
    default = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())["duels"]
    assert {key: spec["default"] for key, spec in properties.items()} == default


def test_default_sweep_runs_every_algorithm_on_every_environment_with_20_seeds():
    default = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())["duels"]
    sweep = DuelsSweep.from_config(default)
    assert sweep.algorithms == ALGORITHMS + CONTEXTUAL_ALGORITHMS
    assert sweep.seeds >= 20 and sweep.horizon == 100_000
    contextual = [e for e in sweep.environments if e.contextual]
    assert {e.kind for e in contextual} == {"contextual", "online"}
    assert {type(e.online).environment for e in contextual if e.online} == {
        "synthetic",
        "supervised",
        "mslr",
        "adversarial",
    }
    # every algorithm to T = 10^5 on every contextual environment, the adversary included
    assert sweep.horizon_caps == ()
    for environment in contextual:
        for algorithm in sweep.algorithms_on(environment):
            assert sweep.horizon_for(algorithm, 3, environment) == 100_000, (environment, algorithm)
    assert (
        len(sweep.tasks())
        == (
            len(sweep.environments) * len(ALGORITHMS) + len(contextual) * len(CONTEXTUAL_ALGORITHMS)
        )
        * sweep.seeds
    )


def test_contextual_algorithms_run_on_contextual_environments_only():
    section = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())["duels"]
    sweep = DuelsSweep.from_config(section)
    for task in sweep.tasks():
        if task.algorithm in CONTEXTUAL_ALGORITHMS:
            assert sweep.environment(task.environment).contextual
    contextual = next(e for e in sweep.environments if e.contextual)
    assert sweep.horizon_for("rucb", 5, contextual) == contextual.horizon
    assert sweep.horizon_for("rucb", 5) == sweep.horizon


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"algorithms": ["rucb", "nope"]}, r"duels.algorithms: unknown algorithms \['nope'\]"),
        ({"algorithms": ["rucb", "rucb"]}, "duels.algorithms: algorithms repeat"),
        ({"leaderboard_horizons": [100, 200]}, "the last must be duels.horizon = 300"),
        ({"leaderboard_horizons": [300, 100]}, "expected increasing horizons"),
        ({"horizon": 1}, r"duels.horizon: expected an integer >= 2"),
        ({"seeds": 1}, r"duels.seeds: expected an integer >= 2"),
        (
            {"horizon_caps": [{"algorithms": ["ccb"], "min_arms": 3, "horizon": 50}]},
            r"duels.horizon_caps\[0\].horizon: 50 must be one of",
        ),
        ({"environments": []}, "duels.environments: expected a non-empty list"),
    ],
)
def test_bad_values_name_their_key(changes, message):
    with pytest.raises(ValueError, match=message):
        tiny_sweep(**changes)


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"name": "Bad Name", "kind": "matrix", "data": ["x"]}, r"\[0\].name"),
        ({"name": "a", "kind": "table", "data": ["x"]}, r"\[0\].kind"),
        ({"name": "a", "kind": "matrix", "data": []}, r"\[0\].data"),
        ({"name": "a", "kind": "preflib", "data": ["x", "y"]}, "reads one file"),
        ({"name": "a", "kind": "atp", "data": ["x"], "players": 3, "arms": 2}, r"\[0\].arms"),
        ({"name": "a", "kind": "atp", "data": ["x"]}, r"\[0\].players"),
        ({"name": "a", "kind": "matrix", "data": ["x"], "players": 3}, r"\[0\].players"),
        ({"name": "a", "kind": "matrix", "data": ["x"], "colour": 3}, r"unknown keys \['colour'\]"),
        ({"name": "a", "kind": "matrix", "data": ["x"], "contexts": 3}, "contextual environment"),
        ({**CONTEXTUAL, "data": ["x"]}, r"\[0\].data: a contextual environment reads no"),
        ({**CONTEXTUAL, "actions": 1}, r"\[0\].actions: expected an integer >= 2"),
        ({**CONTEXTUAL, "actions": 256}, r"\[0\].actions: at most 255"),
        ({**CONTEXTUAL, "policies": 0}, r"\[0\].policies: expected an integer >= 1"),
        ({**CONTEXTUAL, "arms": 3}, r"\[0\].arms: a contextual environment has no arms"),
        ({**CONTEXTUAL, "horizon": 7}, r"\(c\).horizon: 7 must be one of"),
        ({**CONTEXTUAL, "setting": "mslr"}, r"\[0\].setting: a contextual environment has no"),
        ({**ONLINE, "setting": "bandit"}, r"\[0\].setting: expected one of"),
        (
            ADVERSARIAL | {"parameters": {"intransitivity": 0.5}},
            r"unknown keys \['intransitivity'\] for the adversarial",
        ),
        (
            ADVERSARIAL | {"parameters": {"margin": 1.5}},
            r"\[0\].parameters: margin must be in \(0, 1\]",
        ),
        (
            ADVERSARIAL | {"parameters": {"n_policies": 0}},
            r"\[0\].parameters: n_policies must be at least 1",
        ),
        (
            ADVERSARIAL | {"parameters": {"n_actions": 256}},
            r"\[0\].parameters: n_actions must be in",
        ),
        ({**ONLINE, "contexts": 3}, r"\[0\].contexts: an online environment has no contexts"),
        ({**ONLINE, "data": ["x"]}, r"\[0\].data: an online environment reads no data"),
        ({**ONLINE, "parameters": {"margin": 0.5}}, r"unknown keys \['margin'\] for the synthetic"),
        ({**ONLINE, "parameters": {"n_actions": 1}}, r"\[0\].parameters: n_actions must be in"),
        ({**ONLINE, "components": 0}, r"\[0\].components: expected an integer >= 1"),
        ({**ONLINE, "horizon": 7}, r"\(o\).horizon: 7 must be one of"),
        ({"name": "a", "kind": "matrix", "data": ["x"], "setting": "mslr"}, "or an online one"),
    ],
)
def test_bad_environments_name_their_entry(entry, message):
    with pytest.raises(ValueError, match=r"duels\.environments(\[0\]| \([co]\))") as raised:
        tiny_sweep(environments=[entry])
    assert raised.match(message)


def test_repeated_environment_names_are_refused():
    entry = {"name": "a", "kind": "matrix", "data": ["x"]}
    with pytest.raises(ValueError, match="names repeat"):
        tiny_sweep(environments=[entry, entry])


def test_horizon_caps_apply_from_their_number_of_arms():
    sweep = tiny_sweep(
        horizon_caps=[
            {"algorithms": ["rucb"], "min_arms": 4, "horizon": 300},
            {"algorithms": ["rucb", "merge_dts"], "min_arms": 10, "horizon": 100},
        ]
    )
    assert sweep.horizon_for("rucb", 3) == 300
    assert sweep.horizon_for("rucb", 9) == 300
    assert sweep.horizon_for("rucb", 10) == 100
    assert sweep.horizon_for("merge_dts", 9) == 300
    assert sweep.horizon_for("merge_dts", 136) == 100
    assert sweep.horizon_for("self_sparring", 136) == 300


def test_a_horizon_cap_can_name_its_environments():
    sweep = tiny_sweep(
        horizon_caps=[{"algorithms": ["rucb"], "min_arms": 2, "horizon": 100,
                       "environments": ["cycle"]}]
    )  # fmt: skip
    cycle, other = sweep.environment("cycle"), sweep.environments[1]
    assert other.name != "cycle"
    assert sweep.horizon_for("rucb", 4, cycle) == 100
    assert sweep.horizon_for("rucb", 4, other) == 300
    assert sweep.horizon_for("merge_dts", 4, cycle) == 300
    with pytest.raises(ValueError, match=r"horizon_caps\[0\].environments: unknown"):
        tiny_sweep(
            horizon_caps=[{"algorithms": ["rucb"], "min_arms": 2, "horizon": 100,
                           "environments": ["nowhere"]}]
        )  # fmt: skip


@given(shards=st.integers(1, 7), seeds=st.integers(2, 5))
def test_shards_partition_the_tasks(shards, seeds):
    sweep = DuelsSweep.from_config(sweep_config(shards=shards, seeds=seeds))
    dealt = [task for shard in range(shards) for task in sweep.shard_tasks(shard)]
    assert sorted(dealt, key=repr) == sorted(sweep.tasks(), key=repr)
    assert len(set(dealt)) == len(dealt)
    sizes = [len(sweep.shard_tasks(shard)) for shard in range(shards)]
    assert max(sizes) - min(sizes) <= 1


def test_a_shard_out_of_range_is_refused():
    with pytest.raises(ValueError, match="shard must be in 0..1"):
        tiny_sweep().shard_tasks(2)


def test_an_online_entry_takes_the_online_defaults_and_its_own_parameters():
    entry = {**ONLINE, "setting": "supervised", "parameters": {"dataset": "iris"}}
    environment = DuelsSweep.from_config(sweep_config(environments=[entry])).environments[0]
    assert environment.contextual and environment.components == 5 and environment.files == ()
    assert environment.online == SupervisedParameters(dataset="iris", margin=0.6, n_bins=4)
    mslr = {**ONLINE, "setting": "mslr", "parameters": {"matrices": "m.npz"}, "components": 2}
    environment = DuelsSweep.from_config(sweep_config(environments=[mslr])).environments[0]
    assert environment.online == MslrParameters(matrices="m.npz", n_bins=2)
    assert environment.files == ("m.npz",) and environment.components == 2


def test_an_adversarial_entry_takes_the_online_adversarial_defaults():
    entry = ADVERSARIAL | {"parameters": {"n_policies": 100, "margin": 0.5}}
    environment = DuelsSweep.from_config(sweep_config(environments=[entry])).environments[0]
    assert environment.contextual and environment.adversarial and environment.files == ()
    assert environment.online == AdversarialParameters(
        n_actions=3, n_policies=100, n_features=5, n_contexts=50, margin=0.5
    )
    # the defaults are the online family's (config.yaml's online.adversarial section)
    online = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())["online"]
    defaults = DuelsSweep.from_config(sweep_config(environments=[ADVERSARIAL])).environments[0]
    assert {
        key: getattr(defaults.online, key)
        for key in ("n_actions", "n_policies", "n_features", "n_contexts", "margin")
    } == {key: value for key, value in online["adversarial"].items() if key != "horizons"}
    # every algorithm runs on it
    sweep = DuelsSweep.from_config(
        sweep_config(environments=[ADVERSARIAL], algorithms=["rucb", "sparring_exp4p", "dbgd"])
    )
    assert sweep.algorithms_on(sweep.environments[0]) == ("rucb", "sparring_exp4p", "dbgd")
    assert (
        not DuelsSweep.from_config(sweep_config(environments=[ONLINE])).environments[0].adversarial
    )
