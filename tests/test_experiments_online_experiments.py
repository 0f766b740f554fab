"""The online sweep's settings, instances and shards (cdbandits.experiments.online.experiments)."""

import numpy as np
import pandas as pd
import pytest
from online_tiny import SEED, TINY, in_one_shard, tiny_config, tiny_sweep
from per_query_file import write_per_query_file

from cdbandits.contextual.baselines import UniformDuels
from cdbandits.experiments.online.experiments import (
    build_instance,
    episode_ceiling,
    online_settings,
    run_online_shard,
)
from cdbandits.experiments.online.settings import (
    AdversarialParameters,
    MslrParameters,
    OnlineSection,
    SyntheticParameters,
)
from cdbandits.experiments.online.tables import combine_online_shards
from cdbandits.letor import PerQueryMatrices
from cdbandits.randomness import named_generator


def test_the_sections_make_the_settings():
    settings = online_settings(OnlineSection.from_config(TINY))
    assert [setting.name for setting in settings] == [
        "synthetic_K3_N20",
        "long_K3_N20",
        "supervised_iris",
        "adversarial_K3_N10",
    ]
    assert [s.environment for s in settings] == [
        "synthetic",
        "synthetic",
        "supervised",
        "adversarial",
    ]
    assert settings[1].parameters == SyntheticParameters(
        n_actions=3, n_policies=20, n_features=2, n_contexts=15, intransitivity=0.8
    )
    assert settings[1].horizons == (400, 800)
    assert (settings[0].last_decade_checkpoints, settings[1].last_decade_checkpoints) == (0, 5)
    assert settings[3].parameters == AdversarialParameters(
        n_actions=3, n_policies=10, n_features=2, n_contexts=5, margin=0.8
    )
    disabled = tiny_config(
        long_horizon__horizons=[], supervised__dataset=None, mslr__matrices="per_query.npz"
    )
    settings = online_settings(OnlineSection.from_config(disabled))
    assert [setting.name for setting in settings] == [
        "synthetic_K3_N20",
        "adversarial_K3_N10",
        "mslr",
    ]
    assert settings[-1].parameters == MslrParameters(matrices="per_query.npz", n_bins=2)


def test_long_and_synthetic_settings_share_their_instance():
    synthetic, long = online_settings(OnlineSection.from_config(TINY))[:2]
    first, second = build_instance(synthetic, SEED), build_instance(long, SEED)
    np.testing.assert_array_equal(first.population.matrices, second.population.matrices)
    np.testing.assert_array_equal(first.table.actions, second.table.actions)
    other_seed = build_instance(synthetic, SEED + 1)
    assert not np.array_equal(first.population.matrices, other_seed.population.matrices)


def test_results_do_not_depend_on_the_sharding():
    runs, curves = tiny_sweep()
    one_shard = in_one_shard(OnlineSection.from_config(TINY))
    single_runs, single_curves = combine_online_shards(
        *[[table] for table in run_online_shard(one_shard, SEED, 0)]
    )
    pd.testing.assert_frame_equal(runs, single_runs)
    pd.testing.assert_frame_equal(curves, single_curves)
    episodes = 3 * 3 * (2 + 2 + 2 + 1)  # seeds x algorithms x horizons of the four settings
    assert len(runs) == episodes
    assert runs.groupby(["setting", "algorithm", "seed", "horizon"]).size().max() == 1
    last = curves[curves["rounds"] == curves["horizon"]].reset_index(drop=True)
    np.testing.assert_array_equal(last["regret"], runs["regret"])


def test_every_episode_records_the_largest_regret_any_learner_can_have_on_its_contexts():
    runs, _ = tiny_sweep()
    # Every learner's regret is below it, and the algorithms of a (setting, seed, T) meet the
    # same contexts, hence the same ceiling.
    assert (runs["regret"] <= runs["regret_ceiling"] + 1e-9).all()
    episodes = runs.groupby(["setting", "seed", "horizon"])["regret_ceiling"]
    assert (episodes.nunique() == 1).all()
    assert (runs["regret_ceiling"] <= runs["horizon"]).all()
    # By enumeration on one episode of each kind of environment.
    settings = online_settings(OnlineSection.from_config(TINY))
    adversarial = next(s for s in settings if s.environment == "adversarial")
    for setting in (settings[0], adversarial):
        instance = build_instance(setting, SEED)
        horizon = setting.horizons[0]
        rng = named_generator(SEED, "online", setting.name, 0, horizon)
        log = UniformDuels().run(instance.environment, horizon, rng)
        actions = instance.table.actions.astype(np.int64)[log.context_ids]
        if instance.population is not None:
            best = instance.population.matrices.max(axis=2)[log.context_ids]
        else:  # action 1 wins the first visit of a context, any action can win later
            margin, k = instance.environment.margin, instance.environment.n_actions
            first = np.zeros(horizon, dtype=bool)
            first[np.unique(log.context_ids, return_index=True)[1]] = True
            best = np.where(first[:, None], margin * (np.arange(k) == 1), margin)
        rounds = np.arange(horizon)
        enumerated = max(best[rounds, actions[:, p]].sum() for p in range(actions.shape[1]))
        assert episode_ceiling(instance, log.context_ids) == pytest.approx(enumerated)
        row = runs[(runs["setting"] == setting.name) & (runs["seed"] == 0)]
        assert row[row["horizon"] == horizon]["regret_ceiling"].iloc[0] == pytest.approx(enumerated)


def test_epsilon_is_recorded_for_sparring_on_populations_only():
    runs, _ = tiny_sweep()
    with_epsilon = runs.dropna(subset=["epsilon"])
    assert set(with_epsilon["algorithm"]) == {"sparring_exp4p"}
    assert "adversarial_K3_N10" not in set(with_epsilon["setting"])
    assert (with_epsilon["epsilon"] > -1e-12).all() and (with_epsilon["epsilon"] < 2).all()


def test_mslr_setting_runs_from_a_per_query_file(tmp_path):
    rng = np.random.default_rng(5)
    upper = np.triu(rng.uniform(-0.5, 0.5, (30, 4, 4)), 1)
    path = write_per_query_file(tmp_path / "per_query.npz", upper - upper.transpose(0, 2, 1))
    config = tiny_config(
        synthetic__n_actions=[],
        long_horizon__horizons=[],
        supervised__dataset=None,
        adversarial__horizons=[],
        mslr__matrices=str(path),
    )
    sweep = in_one_shard(OnlineSection.from_config(config))
    runs, _ = run_online_shard(sweep, SEED, 0)
    assert set(runs["setting"]) == {"mslr"}
    assert (runs["n_policies"] == 136 * 1 * 16).all() and (runs["n_contexts"] == 30).all()
    assert runs.loc[runs["algorithm"] == "sparring_exp4p", "epsilon"].notna().all()
    instance = build_instance(online_settings(sweep)[0], SEED)
    np.testing.assert_array_equal(
        instance.population.matrices, PerQueryMatrices.load(path).matrices
    )


def test_a_shard_outside_the_sweep_is_refused():
    with pytest.raises(ValueError, match="shard 2 does not exist among 2 shards"):
        run_online_shard(OnlineSection.from_config(TINY), SEED, 2)
