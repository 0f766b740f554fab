"""The sweep trials on a tiny configuration: columns, bounds, sharding, named random streams."""

import numpy as np
import pandas as pd
import pytest

from cdbandits.oracle_methods.experiments import (
    EXPERIMENT_KEYS,
    EXPERIMENTS,
    build_setting,
    combine_shards,
    experiment_tasks,
    run_oracle_shard,
)

TINY = {
    "delta": 0.05,
    "seeds": 2,
    "shards": 2,
    "environment": {
        "n_actions": 2,
        "n_features": 2,
        "n_contexts": 15,
        "intransitivity": 0.7,
        "n_bins": 3,
    },
    "explore_first": {
        "estimators": ["importance_weighted", "skew_symmetrised"],
        "explore_rounds": [40, 160],
        "fpl_rounds": 5,
        "pgd_iterations": 2,
    },
    "solvers": {"explore_rounds": 40, "fpl_rounds": [4, 16], "pgd_iterations": [2, 4]},
    "regret": {"horizons": [150, 600], "fpl_rounds": 5},
    "learned": {"seeds": 1, "explore_rounds": 60, "fpl_rounds": 3, "pgd_iterations": 2},
}


@pytest.fixture(scope="module")
def shards():
    return {
        experiment: [run_oracle_shard(TINY, 11, experiment, shard) for shard in range(2)]
        for experiment in EXPERIMENTS
    }


def test_setting_ground_truth():
    setting = build_setting(TINY["environment"], 11)
    assert setting.n_policies == 2 * 2 * 4
    np.testing.assert_allclose(setting.true_matrix, -setting.true_matrix.T)
    assert (
        np.unique(setting.actions[:, setting.representatives].T, axis=0).shape[0]
        == setting.representatives.size
    )


def test_every_trial_runs_and_the_bounds_hold(shards):
    explore_first = combine_shards(shards["explore_first"], "explore_first")
    assert len(explore_first) == 2 * 2 * 2 * 3  # seeds x estimators x m x solvers
    assert (explore_first["deviation"] <= explore_first["deviation_bound"]).all()
    assert (explore_first["exploitability"] <= explore_first["exploitability_bound"]).all()
    lp = explore_first[explore_first["solver"] == "lp"]
    assert (lp["mhat_gap"].abs() < 1e-6).all()
    skew = lp[lp["estimator"] == "skew_symmetrised"]
    assert (skew["mhat_value"].abs() < 1e-6).all()  # a skew-symmetric Mhat has value 0
    solvers = combine_shards(shards["solvers"], "solvers")
    assert (solvers["gap"] <= solvers["gap_bound"]).all() and (solvers["gap"] >= -1e-9).all()
    pgd = solvers[solvers["algorithm"] == "pgd"]
    assert (pgd["projections_held"] == pgd["projections"]).all()
    assert (pgd["regret_gap"] <= pgd["regret_bound"]).all()
    regret = combine_shards(shards["regret"], "regret")
    assert set(regret["algorithm"]) == {
        "explore_exploit_fpl",
        "explore_exploit_lp",
        "sparring_exp4p",
    }
    assert (regret["regret"] <= regret["regret_bound"]).all()
    learned = combine_shards(shards["learned"], "learned")
    assert set(learned["oracle"]) == {"exact", "tree_on_bins", "regression_on_bins", "tree_depth2"}
    assert (learned[learned["oracle"] == "exact"]["mean_relative_excess"] == 0).all()


def test_results_do_not_depend_on_the_sharding(shards):
    one = {**TINY, "shards": 1}
    for experiment in ("explore_first", "regret"):
        single = combine_shards([run_oracle_shard(one, 11, experiment, 0)], experiment)
        pd.testing.assert_frame_equal(single, combine_shards(shards[experiment], experiment))
    assert set(EXPERIMENT_KEYS) == set(EXPERIMENTS)


def test_bad_arguments():
    with pytest.raises(ValueError, match="experiment must be one of"):
        experiment_tasks(TINY, "online")
    with pytest.raises(ValueError, match="shard must be in"):
        run_oracle_shard(TINY, 1, "solvers", 2)
