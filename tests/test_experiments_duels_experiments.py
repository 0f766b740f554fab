"""The runs of the sweep, dealt to shards, and the runs of a shard
(cdbandits.experiments.duels.experiments)."""

import numpy as np
import pandas as pd
import pytest
from duels_cases import SEED, sweep_config, tiny_environments, tiny_sweep
from hypothesis import given
from hypothesis import strategies as st

from cdbandits.contextual.regret import policy_matrix
from cdbandits.experiments.duels.contextual import winner_record
from cdbandits.experiments.duels.environments import environment_instance
from cdbandits.experiments.duels.experiments import (
    REGRET_COLUMNS,
    TIMING_COLUMNS,
    Task,
    horizon_for,
    run_checkpoints,
    run_duels_shard,
    run_task,
    shard_tasks,
    sweep_tasks,
)
from cdbandits.experiments.duels.settings import DuelsSweep
from cdbandits.experiments.duels.tables import combine_duels_shards
from cdbandits.karmed import make_algorithm, regret_table, simulate
from cdbandits.randomness import named_generator


@pytest.fixture(scope="module")
def shards():
    sweep = tiny_sweep()
    return [run_duels_shard(sweep, SEED, shard, tiny_environments()) for shard in range(2)]


def test_checkpoints_include_the_leaderboard_horizons_reached():
    sweep = tiny_sweep()
    assert {100, 300} <= set(run_checkpoints(sweep, 300))
    capped = run_checkpoints(sweep, 100)
    assert capped[-1] == 100 and 300 not in capped


def test_horizon_caps_apply_from_their_number_of_arms_and_to_their_environments():
    sweep = tiny_sweep(
        horizon_caps=[
            {"algorithms": ["rucb"], "min_arms": 4, "horizon": 300},
            {"algorithms": ["rucb", "merge_dts"], "min_arms": 10, "horizon": 100},
            {"algorithms": ["ccb"], "min_arms": 2, "horizon": 100, "environments": ["cycle"]},
        ]
    )
    assert [horizon_for(sweep, "rucb", k) for k in (3, 9, 10)] == [300, 300, 100]
    assert [horizon_for(sweep, "merge_dts", k) for k in (9, 136)] == [300, 100]
    assert horizon_for(sweep, "self_sparring", 136) == 300
    cycle, other = sweep.environment("cycle"), sweep.environments[1]
    assert (horizon_for(sweep, "ccb", 4, cycle), horizon_for(sweep, "ccb", 4, other)) == (100, 300)


@given(shards=st.integers(1, 7), seeds=st.integers(2, 5))
def test_shards_partition_the_tasks(shards, seeds):
    sweep = DuelsSweep.from_config(sweep_config(shards=shards, seeds=seeds))
    dealt = [task for shard in range(shards) for task in shard_tasks(sweep, shard)]
    assert sorted(dealt, key=repr) == sorted(sweep_tasks(sweep), key=repr)
    assert len(set(dealt)) == len(dealt)
    sizes = [len(shard_tasks(sweep, shard)) for shard in range(shards)]
    assert max(sizes) - min(sizes) <= 1
    with pytest.raises(ValueError, match=f"shard must be in 0..{shards - 1}"):
        shard_tasks(sweep, shards)


def test_a_run_matches_the_karmed_regret_of_the_same_seed():
    sweep = tiny_sweep()
    regret, timing = run_task(
        sweep, Task("cycle", "self_sparring", 1), tiny_environments()["cycle"], SEED
    )
    rng = named_generator(SEED, "duels", "cycle", 1)
    result = simulate(
        make_algorithm("self_sparring"),
        tiny_environments()["cycle"][0],
        300,
        rng,
        run_checkpoints(sweep, 300),
    )
    expected = regret_table(tiny_environments()["cycle"][0], result)
    for column in ("round", "von_neumann", "hindsight", "copeland"):
        np.testing.assert_allclose(regret[column].to_numpy(), expected[column].to_numpy())
    assert regret["condorcet"].isna().all()  # the cycle has no Condorcet winner
    assert timing["horizon"] == 300 and timing["seconds"] >= 0


def test_horizon_caps_shorten_the_runs(shards):
    regret = pd.concat([table for table, _ in shards])
    rucb = regret[regret["algorithm"] == "rucb"]
    # the cap applies from 4 arms: the 4-arm cycle, not the 3-arm subsets
    assert rucb[rucb["environment"] == "cycle"]["round"].max() == 100
    assert rucb[rucb["environment"] == "linear_k3"]["round"].max() == 300


def test_subset_runs_have_their_own_arms_and_a_condorcet_winner(shards):
    regret = pd.concat([table for table, _ in shards])
    subsets = regret[regret["environment"] == "linear_k3"]
    assert (subsets["n_arms"] == 3).all()
    # every subset of a linear order has a Condorcet winner, half the vNW regret
    np.testing.assert_allclose(subsets["condorcet"], subsets["von_neumann"] / 2)


def test_regret_is_non_negative_and_never_decreases(shards):
    regret = pd.concat([table for table, _ in shards])
    assert (regret["von_neumann"] >= -1e-12).all()
    for _, run in regret.groupby(["environment", "algorithm", "seed"]):
        assert (np.diff(run.sort_values("round")["von_neumann"]) >= -1e-12).all()
        assert (run["hindsight"] >= run["von_neumann"] - 1e-9).all()


def test_tables_do_not_depend_on_the_sharding(shards):
    combined = combine_duels_shards([s[0] for s in shards])
    timings = combine_duels_shards([s[1] for s in shards], timings=True)
    single, _ = run_duels_shard(tiny_sweep(shards=1), SEED, 0, tiny_environments())
    pd.testing.assert_frame_equal(combined, combine_duels_shards([single]))
    assert list(combined.columns) == list(REGRET_COLUMNS)
    assert list(timings.columns) == list(TIMING_COLUMNS)
    assert len(timings) == 2 * 3 * 3


def test_algorithms_of_a_seed_share_the_environment_stream():
    # the same generator for every algorithm: two runs of one algorithm differ only by seed
    sweep = tiny_sweep()
    first, _ = run_task(sweep, Task("cycle", "merge_dts", 0), tiny_environments()["cycle"], SEED)
    again, _ = run_task(sweep, Task("cycle", "merge_dts", 0), tiny_environments()["cycle"], SEED)
    other, _ = run_task(sweep, Task("cycle", "merge_dts", 1), tiny_environments()["cycle"], SEED)
    pd.testing.assert_frame_equal(first, again)
    assert not np.array_equal(first["von_neumann"], other["von_neumann"])


def test_missing_matrices_are_named():
    environments = tiny_environments()
    del environments["linear_k3"]
    with pytest.raises(ValueError, match=r"\['linear_k3'\]"):
        run_duels_shard(tiny_sweep(), SEED, 0, environments)


CONTEXTUAL = {"name": "ctx", "kind": "contextual", "contexts": 6, "actions": 3, "features": 2,
              "policies": 10, "horizon": 100}  # fmt: skip


def _two_shards_with(environment, algorithms):
    """The tiny sweep plus ``environment`` and ``algorithms``: its config, sweep and the
    regret of its two shards combined."""
    config = sweep_config(
        environments=[*sweep_config()["environments"], environment], algorithms=algorithms
    )
    sweep = DuelsSweep.from_config(config)
    shards = [run_duels_shard(sweep, SEED, shard, tiny_environments()) for shard in range(2)]
    return config, sweep, combine_duels_shards([table for table, _ in shards])


def test_a_contextual_environment_runs_every_algorithm_in_the_same_tables():
    config, sweep, regret = _two_shards_with(
        CONTEXTUAL, ["rucb", "self_sparring", "sparring_exp4p", "colstim", "dbgd"]
    )
    contextual = regret[regret["environment"] == "ctx"]
    assert set(contextual["algorithm"]) == set(sweep.algorithms)
    assert set(regret[regret["environment"] == "cycle"]["algorithm"]) == {"rucb", "self_sparring"}
    assert (contextual["horizon"] == 100).all() and contextual["round"].max() == 100
    assert contextual["copeland"].isna().all() and contextual["condorcet"].isna().all()
    # rd1 in hindsight is at least the regret against the class's winner, round by round
    assert (contextual["hindsight"] >= contextual["von_neumann"] - 1e-9).all()
    unsharded = DuelsSweep.from_config(config | {"shards": 1})
    single, _ = run_duels_shard(unsharded, SEED, 0, tiny_environments())
    pd.testing.assert_frame_equal(regret, combine_duels_shards([single]))
    # with the winner solved once elsewhere (checked, not solved again): the same tables
    settings = unsharded.environment("ctx")
    winners = {"ctx": winner_record(environment_instance(settings, SEED).winner)}
    stored, _ = run_duels_shard(unsharded, SEED, 0, tiny_environments(), winners)
    pd.testing.assert_frame_equal(stored, single)
    beaten = winners["ctx"] | {"weights": [1.0], "support": [_beaten_policy(settings)]}
    with pytest.raises(ValueError, match="not a von Neumann winner"):
        run_duels_shard(unsharded, SEED, 0, tiny_environments(), {"ctx": beaten})


def _beaten_policy(settings):
    """The distinct policy of the class that another one beats by the most."""
    instance = environment_instance(settings, SEED)
    _, first = np.unique(instance.table.actions.T, axis=0, return_index=True)
    distinct = np.sort(first)
    matrix = policy_matrix(instance.population, instance.table.actions[:, distinct])
    return int(distinct[np.argmin(matrix.min(axis=1))])


ADVERSARIAL = {"name": "adv", "kind": "online", "setting": "adversarial", "horizon": 100,
               "parameters": {"n_policies": 10, "n_contexts": 5}}  # fmt: skip


def test_the_adversary_runs_every_algorithm_with_hindsight_regret_only():
    config, sweep, regret = _two_shards_with(
        ADVERSARIAL, ["rucb", "sparring_exp4p", "explore_exploit_fpl", "maxinp", "dbgd"]
    )
    adversarial = regret[regret["environment"] == "adv"]
    assert set(adversarial["algorithm"]) == set(sweep.algorithms)
    assert (adversarial["horizon"] == 100).all() and (adversarial["n_arms"] == 3).all()
    assert adversarial["hindsight"].notna().all()
    assert adversarial[["von_neumann", "condorcet", "copeland"]].isna().all(axis=None)
    assert set(adversarial["seed"]) == set(range(sweep.seeds))
    unsharded = DuelsSweep.from_config(config | {"shards": 1})
    single, _ = run_duels_shard(unsharded, SEED, 0, tiny_environments())
    pd.testing.assert_frame_equal(regret, combine_duels_shards([single]))


def test_a_tuned_variant_plays_its_own_parameters():
    tuned = {"paper": {"algorithm": "merge_dts", "parameters": {"alpha": 0.8**6,
             "time_offset": 4e5, "partition_size": 2}}}  # fmt: skip
    sweep = tiny_sweep(tuned=tuned)
    environment = tiny_environments()["cycle"]
    with pytest.warns(UserWarning, match="theorem"):
        regret, timing = run_task(sweep, Task("cycle", "paper", 1), environment, SEED)
    with pytest.warns(UserWarning, match="theorem"):
        made = make_algorithm("merge_dts", alpha=0.8**6, time_offset=4e5, partition_size=2)
    rng = named_generator(SEED, "duels", "cycle", 1)
    result = simulate(made, environment[0], 300, rng, run_checkpoints(sweep, 300))
    expected = regret_table(environment[0], result)
    np.testing.assert_allclose(regret["von_neumann"], expected["von_neumann"])
    assert set(regret["algorithm"]) == {"paper"} and timing["horizon"] == 300
    default, _ = run_task(sweep, Task("cycle", "merge_dts", 1), environment, SEED)
    assert not np.allclose(default["von_neumann"], regret["von_neumann"])
