"""The online sweep: settings, sharding independence, summaries and figures on a tiny config."""

import copy
import json
import math

import matplotlib
import numpy as np
import pandas as pd
import pytest

from cdbandits.contextual.bounds import sparring_exp4p_regret_bound
from cdbandits.contextual.experiments import (
    ONLINE_TABLES,
    build_instance,
    combine_shards,
    coverage_markdown,
    exact_winners_table,
    online_figures,
    online_settings,
    online_summary,
    run_online_shard,
    summarize_online,
)
from cdbandits.stats import log_log_slope

TINY = {
    "seeds": 3,
    "delta": 0.05,
    "uniform_expert": True,
    "algorithms": ["sparring_exp4p", "sparring_exp3", "uniform"],
    "checkpoints": 4,
    "shards": 2,
    "lp_solver": "HIGHS",
    "lp_max_policies": 100,
    "synthetic": {
        "n_actions": [3],
        "n_policies": [20],
        "n_features": 2,
        "n_contexts": 15,
        "intransitivity": 0.8,
        "horizons": [100, 400],
    },
    "long_horizon": {"n_actions": 3, "n_policies": 20, "horizons": [400, 800]},
    "supervised": {"dataset": "iris", "margin": 0.6, "n_bins": 2, "horizons": [100, 400]},
    "adversarial": {
        "n_actions": 3,
        "n_policies": 10,
        "n_features": 2,
        "n_contexts": 5,
        "margin": 0.8,
        "horizons": [100],
    },
    "mslr": {"matrices": None, "n_bins": 2, "horizons": [100]},
}


@pytest.fixture(scope="module")
def sweep():
    shards = [run_online_shard(TINY, 11, shard, 2) for shard in range(2)]
    runs, curves = combine_shards([s[0] for s in shards], [s[1] for s in shards])
    return runs, curves


def test_settings_expand_the_config():
    names = [setting.name for setting in online_settings(TINY)]
    assert names == [
        "synthetic_K3_N20",
        "long_K3_N20",
        "supervised_iris",
        "adversarial_K3_N10",
    ]
    disabled = copy.deepcopy(TINY)
    disabled["long_horizon"]["horizons"] = []
    disabled["supervised"]["dataset"] = None
    disabled["mslr"]["matrices"] = "per_query.npz"
    assert [s.name for s in online_settings(disabled)] == [
        "synthetic_K3_N20",
        "adversarial_K3_N10",
        "mslr",
    ]
    disabled["synthetic"]["horizons"] = [400, 100]
    with pytest.raises(ValueError, match="increasing"):
        online_settings(disabled)


def test_long_and_synthetic_settings_share_their_instance():
    synthetic, long = online_settings(TINY)[:2]
    first, second = build_instance(synthetic, 11), build_instance(long, 11)
    np.testing.assert_array_equal(first.population.matrices, second.population.matrices)
    np.testing.assert_array_equal(first.table.actions, second.table.actions)
    other_seed = build_instance(synthetic, 12)
    assert not np.array_equal(first.population.matrices, other_seed.population.matrices)


def test_results_do_not_depend_on_the_sharding(sweep):
    runs, curves = sweep
    single_runs, single_curves = combine_shards(
        *[[table] for table in run_online_shard(TINY, 11, 0, 1)]
    )
    pd.testing.assert_frame_equal(runs, single_runs)
    pd.testing.assert_frame_equal(curves, single_curves)
    episodes = 3 * 3 * (2 + 2 + 2 + 1)  # seeds x algorithms x horizons of the four settings
    assert len(runs) == episodes
    assert runs.groupby(["setting", "algorithm", "seed", "horizon"]).size().max() == 1
    last = curves[curves["rounds"] == curves["horizon"]].reset_index(drop=True)
    np.testing.assert_array_equal(last["regret"], runs["regret"])


def test_epsilon_is_recorded_for_sparring_on_populations_only(sweep):
    runs, _ = sweep
    with_epsilon = runs.dropna(subset=["epsilon"])
    assert set(with_epsilon["algorithm"]) == {"sparring_exp4p"}
    assert "adversarial_K3_N10" not in set(with_epsilon["setting"])
    assert (with_epsilon["epsilon"] > -1e-12).all() and (with_epsilon["epsilon"] < 2).all()


def test_summaries_follow_their_definitions(sweep):
    runs, curves = sweep
    tables = summarize_online(runs, 0.05, True, 11)
    regret = tables["regret"].set_index(["setting", "algorithm", "horizon"])
    rows = runs[(runs["setting"] == "synthetic_K3_N20") & (runs["algorithm"] == "uniform")]
    at_400 = rows[rows["horizon"] == 400]["regret"]
    assert regret.loc[("synthetic_K3_N20", "uniform", 400), "mean"] == pytest.approx(at_400.mean())
    half = 1.959963984540054 * at_400.std(ddof=1) / math.sqrt(3)
    assert regret.loc[("synthetic_K3_N20", "uniform", 400), "ci_high"] == pytest.approx(
        at_400.mean() + half
    )
    coverage = tables["coverage"].set_index(["setting", "horizon"])
    bound = sparring_exp4p_regret_bound(400, 3, 20, 0.05)
    assert coverage.loc[("synthetic_K3_N20", 400), "bound"] == pytest.approx(bound.total)
    assert coverage["meets_guarantee"].all()
    slopes = tables["slopes"].set_index(["setting", "algorithm"])
    means = rows.groupby("horizon")["regret"].mean()
    assert slopes.loc[("synthetic_K3_N20", "uniform"), "slope"] == pytest.approx(
        log_log_slope(means.index, means.to_numpy())
    )
    assert math.isnan(slopes.loc[("adversarial_K3_N10", "uniform"), "slope"])  # one horizon
    assert set(tables["online_to_batch"]["setting"]) == {
        "synthetic_K3_N20",
        "long_K3_N20",
        "supervised_iris",
    }
    summary = online_summary(tables, 0.05)
    json.dumps(summary, allow_nan=False)  # undefined slopes become None
    assert summary["all_bounds_hold"] is True
    assert summary["settings"]["adversarial_K3_N10"]["regret_slope"]["uniform"] is None
    markdown = coverage_markdown(tables["coverage"]).splitlines()
    assert markdown[0].split("|")[1].strip() == "setting" and len(markdown) == 2 + 7
    figures = online_figures({"runs": runs, "curves": curves} | tables)
    assert set(figures) == {"regret_vs_horizon", "regret_curves", "online_to_batch"}
    assert all(isinstance(f, matplotlib.figure.Figure) for f in figures.values())
    assert set(ONLINE_TABLES) == {"runs", "curves"} | set(tables)


def test_exact_winners_table():
    table = exact_winners_table(TINY, 11).set_index("setting")
    assert list(table.index) == ["synthetic_K3_N20", "long_K3_N20", "supervised_iris"]
    assert (table["value"].abs() < 1e-9).all()
    assert table.loc["supervised_iris", "support_size"] == 1  # accuracy game: a pure winner
    assert table.loc["supervised_iris", "condorcet_context_fraction"] == pytest.approx(1.0)


def test_mslr_setting_runs_from_a_per_query_file(tmp_path):
    rng = np.random.default_rng(5)
    upper = np.triu(rng.uniform(-0.5, 0.5, (30, 4, 4)), 1)
    path = tmp_path / "per_query.npz"
    np.savez(  # the layout of cdbandits.letor's PerQueryMatrices files (skew form)
        path,
        matrices=upper - upper.transpose(0, 2, 1),
        features=rng.standard_normal((30, 136)),
        qids=np.arange(30),
        rankers=np.array([7, 54, 107, 129]),
    )
    config = copy.deepcopy(TINY)
    config["synthetic"]["n_actions"] = []
    config["long_horizon"]["horizons"] = []
    config["supervised"]["dataset"] = None
    config["adversarial"]["horizons"] = []
    config["mslr"]["matrices"] = str(path)
    runs, _ = run_online_shard(config, 11, 0, 1, str(path))
    assert set(runs["setting"]) == {"mslr"}
    assert (runs["n_policies"] == 136 * 1 * 16).all() and (runs["n_contexts"] == 30).all()
    assert runs.loc[runs["algorithm"] == "sparring_exp4p", "epsilon"].notna().all()
