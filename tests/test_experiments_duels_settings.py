"""The duels section and its rules (cdbandits.experiments.duels.settings)."""

import pytest
from duels_cases import sweep_config, tiny_sweep

from cdbandits.experiments.config_model import ConfigError
from cdbandits.experiments.duels.experiments import algorithms_on, horizon_for, sweep_tasks
from cdbandits.experiments.duels.settings import (
    ALGORITHMS,
    CONTEXTUAL_ALGORITHMS,
    DuelsSection,
)
from cdbandits.experiments.online.settings import (
    AdversarialParameters,
    MslrParameters,
    SupervisedParameters,
)
from cdbandits.karmed import ALGORITHMS as KARMED_ALGORITHMS

MATRIX = {"name": "a", "kind": "matrix", "data": ["pref_arxiv"]}
CONTEXTUAL = {"name": "c", "kind": "contextual", "contexts": 4, "actions": 3, "features": 2,
              "policies": 5}  # fmt: skip
ONLINE = {"name": "o", "kind": "online", "setting": "synthetic"}
ADVERSARIAL = {"name": "o", "kind": "online", "setting": "adversarial"}


def environment(entry):
    return tiny_sweep(environments=[entry]).environments[0]


def test_the_karmed_algorithms_are_the_librarys():
    assert ALGORITHMS == tuple(KARMED_ALGORITHMS)


def test_the_default_sweep_runs_every_algorithm_on_every_environment():
    sweep = DuelsSection()
    assert sweep.algorithms == ALGORITHMS + CONTEXTUAL_ALGORITHMS
    contextual = [e for e in sweep.environments if e.contextual]
    assert {type(e.online).environment for e in contextual if e.online} == {
        "synthetic",
        "supervised",
        "mslr",
        "adversarial",
    }
    assert sweep.horizon_caps == ()
    for environment_ in contextual:
        for algorithm in algorithms_on(sweep, environment_):
            assert horizon_for(sweep, algorithm, 3, environment_) == 100_000
    runs = len(sweep.environments) * len(ALGORITHMS) + len(contextual) * len(CONTEXTUAL_ALGORITHMS)
    assert len(sweep_tasks(sweep)) == runs * sweep.seeds
    for task in sweep_tasks(sweep):
        if task.algorithm in CONTEXTUAL_ALGORITHMS:
            assert sweep.environment(task.environment).contextual


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"leaderboard_horizons": [100, 200]}, "leaderboard_horizons: the last must be duels.hor"),
        ({"leaderboard_horizons": [300, 100]}, "leaderboard_horizons: must be increasing"),
        ({"algorithms": ["rucb", "rucb"]}, "algorithms: values repeat"),
        ({"environments": [MATRIX, MATRIX]}, "environments: names repeat"),
        (
            {"horizon_caps": [{"algorithms": ["ccb"], "min_arms": 3, "horizon": 50}]},
            r"horizon_caps\[0\].horizon: 50 must be one of duels.leaderboard_horizons",
        ),
        (
            {"horizon_caps": [{"algorithms": ["rucb"], "min_arms": 2, "horizon": 100,
                               "environments": ["nowhere"]}]},
            r"horizon_caps\[0\].environments: unknown environments \['nowhere'\]",
        ),
        ({"environments": [{**CONTEXTUAL, "horizon": 7}]}, r"environments\[0\].horizon: 7 must be"),
    ],
)  # fmt: skip
def test_each_rule_of_the_sweep_names_its_key(changes, message):
    with pytest.raises(ConfigError, match=f"^duels.{message}"):
        DuelsSection.from_config(sweep_config(**changes), "duels")


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({**MATRIX, "data": []}, "data: required for kind matrix"),
        ({**MATRIX, "kind": "atp"}, "players: required for kind atp"),
        ({**CONTEXTUAL, "policies": None}, "policies: required for kind contextual"),
        ({"name": "o", "kind": "online"}, "setting: required for kind online"),
        ({**MATRIX, "players": 3}, "players: not a key of kind matrix"),
        ({**CONTEXTUAL, "data": ["pref_arxiv"]}, "data: not a key of kind contextual"),
        ({**CONTEXTUAL, "components": 2}, "components: not a key of kind contextual"),
        ({**ONLINE, "contexts": 3}, "contexts: not a key of kind online"),
        ({**MATRIX, "kind": "preflib", "data": ["pref_arxiv"] * 2}, "data: a preflib environ"),
        ({**MATRIX, "data": ["x"]}, r"data\[0\]: unknown data key 'x'"),
        ({**ADVERSARIAL, "parameters": {"intransitivity": 0.5}}, "parameters.intransitivity: unkn"),
        ({**ADVERSARIAL, "parameters": {"n_actions": 256}}, "parameters.n_actions: Input"),
        ({**ONLINE, "parameters": {"margin": 0.5}}, "parameters.margin: unknown key"),
    ],
)  # fmt: skip
def test_each_rule_of_an_environment_names_its_key(entry, message):
    with pytest.raises(ConfigError, match=rf"^duels.environments\[0\].{message}"):
        DuelsSection.from_config(sweep_config(environments=[entry]), "duels")


def test_an_online_entry_takes_the_online_families_parameters():
    supervised = environment({**ONLINE, "setting": "supervised", "parameters": {"dataset": "iris"}})
    assert supervised.contextual and supervised.components == 5 and supervised.files == ()
    assert supervised.online == SupervisedParameters(dataset="iris", margin=0.6, n_bins=4)
    mslr = environment(
        {**ONLINE, "setting": "mslr", "parameters": {"matrices": "m.npz"}, "components": 2}
    )
    assert mslr.online == MslrParameters(matrices="m.npz", n_bins=2)
    assert mslr.files == ("m.npz",) and mslr.components == 2
    adversary = environment({**ADVERSARIAL, "parameters": {"n_policies": 100}})
    assert adversary.adversarial and not environment(ONLINE).adversarial
    assert adversary.online == AdversarialParameters(n_policies=100)
    assert environment(MATRIX).title == "a" and environment(MATRIX).online is None


PAPER_DTS = {
    "algorithm": "merge_dts",
    "parameters": {"alpha": 0.262144, "time_offset": 400000, "partition_size": 16},
}


@pytest.mark.parametrize(
    ("tuned", "message"),
    [
        ({"paper": {"algorithm": "merge_dtz"}}, r"tuned.paper.algorithm: Input should be"),
        ({"paper": {"algorithm": "merge_dts", "parameters": {"alfa": 0.3}}},
         r"tuned.paper.parameters: .*unexpected keyword argument 'alfa'"),
        ({"paper": {"algorithm": "merge_dts", "parameters": {"alpha": 0.3}}},
         r"tuned.paper.parameters: alpha = 0.3 <= 1/2 needs time_offset"),
        ({"merge_dts": PAPER_DTS}, r"tuned.merge_dts: the name of an algorithm"),
        ({"Paper": PAPER_DTS}, r"tuned.Paper.\[key\]: String should match pattern"),
    ],
)  # fmt: skip
def test_each_rule_of_a_tuned_variant_names_its_key(tuned, message):
    with pytest.raises(ConfigError, match=f"^duels.{message}"):
        DuelsSection.from_config(sweep_config(tuned=tuned), "duels")


def test_tuned_variants_run_under_their_names_on_the_environments_without_context():
    sweep = tiny_sweep(tuned={"paper": PAPER_DTS}, environments=[MATRIX, CONTEXTUAL])
    matrix, contextual = sweep.environments
    assert algorithms_on(sweep, matrix) == ("rucb", "self_sparring", "merge_dts", "paper")
    assert "paper" not in algorithms_on(sweep, contextual)
    with pytest.warns(UserWarning, match="theorem"):
        made = sweep.make_karmed("paper")
    assert (made.name, made.alpha, made.time_offset, made.partition_size) == (
        "merge_dts",
        0.262144,
        400000,
        16,
    )
    assert sweep.make_karmed("merge_dts").alpha == 1.01
    assert DuelsSection().tuned == {}
