"""The sweep trials on a tiny configuration: columns, bounds, sharding, named random streams."""

import dataclasses
import math

import pandas as pd
import pytest
from informative_game import ENVIRONMENT

from cdbandits.experiments.oracle.budgets import scheme_of
from cdbandits.experiments.oracle.environment import build_environment
from cdbandits.experiments.oracle.experiments import (
    LIBRARY,
    SeedTrial,
    explore_first_trial,
    regret_trial,
    run_oracle_shard,
    solvers_trial,
    sweep_trials,
)
from cdbandits.experiments.oracle.jobs import SweepSettings
from cdbandits.experiments.oracle.settings import EXPERIMENTS
from cdbandits.experiments.oracle.tables import EXPERIMENT_KEYS, combine_experiment_shards
from cdbandits.oracle_methods.exploration import FixedExploration
from cdbandits.oracle_methods.pgd import ProjectedGD

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
    "small_game": {
        "environment": {
            "n_actions": 2,
            "n_features": 1,
            "n_contexts": 10,
            "intransitivity": 0.7,
            "n_bins": 3,
        },
        "explore_first": {
            "estimators": ["skew_symmetrised"],
            "explore_rounds": [2000],
            "fpl_rounds": 5,
            "pgd_iterations": 81,
        },
        "solvers": {
            "estimator": "skew_symmetrised",
            "explore_rounds": 4,
            "fpl_rounds": [50, 2500],
            "pgd_iterations": [4, 64],
        },
    },
}


def run_shards(config, experiment, seed=11):
    """Every shard of one sweep of ``config``."""
    sweep = SweepSettings.from_config(config, experiment)
    return [run_oracle_shard(sweep, seed, shard) for shard in range(sweep.shards)]


@pytest.fixture(scope="module")
def shards():
    return {experiment: run_shards(TINY, experiment) for experiment in EXPERIMENTS}


def test_every_trial_runs_and_the_bounds_hold(shards):
    explore_first = combine_experiment_shards(shards["explore_first"], "explore_first")
    assert len(explore_first) == 2 * 2 * 2 * 3  # seeds x estimators x m x solvers
    # Exploitability in M is non-negative (M is skew-symmetric, its value is 0).
    assert (explore_first["exploitability"] >= -1e-12).all()
    lp = explore_first[explore_first["solver"] == "lp"]
    assert (lp["mhat_gap"].abs() < 1e-6).all()
    skew = lp[lp["estimator"] == "skew_symmetrised"]
    assert (skew["mhat_value"].abs() < 1e-6).all()  # a skew-symmetric Mhat has value 0
    solvers = combine_experiment_shards(shards["solvers"], "solvers")
    # The duality gap of (wbar, ubar) bounds the gap of wbar to the value (weak duality).
    assert (solvers["gap"] >= -1e-9).all()
    assert (solvers["duality_gap"] >= solvers["gap"] - 1e-6).all()  # the LP value to 1e-6
    regret = combine_experiment_shards(shards["regret"], "regret")
    assert set(regret["algorithm"]) == {
        "explore_exploit_fpl",
        "explore_exploit_lp",
        "sparring_exp4p",
    }
    assert (explore_first["deviation_bound"] < explore_first["deviation_bound_two_tailed"]).all()
    assert (solvers["mhat_min"] <= solvers["mhat_value"] + 1e-6).all()
    assert (solvers["mhat_value"] <= solvers["mhat_max"] + 1e-6).all()
    pgd = solvers[solvers["algorithm"] == "pgd"]
    assert (pgd["certificate_shortfall"] <= 8 / pgd["budget"] ** 0.5).all()
    for small in ("small_explore_first", "small_solvers"):
        rows = combine_experiment_shards(shards[small], small)
        assert (rows["bound_L"] == 1.0).all()  # skew-symmetrised, K(K-1)/2 for K = 2
    small_solvers = combine_experiment_shards(shards["small_solvers"], "small_solvers")
    assert (small_solvers["gap"] <= small_solvers["gap_bound"]).all()
    assert (small_solvers["n_explore"] == 4).all()
    learned = combine_experiment_shards(shards["learned"], "learned")
    assert set(learned["oracle"]) == {"exact", "tree_on_bins", "regression_on_bins", "tree_depth2"}
    assert (learned[learned["oracle"] == "exact"]["mean_relative_excess"] == 0).all()


#: A setting where Lemma eq. (f2), Lemma explore-first and Theorems main-regret (exact LP)
#: and sparring-exp4 are informative: 2 actions, 8 stumps, m = 4000, T = 20000. (At TINY
#: every bound exceeds the largest value its quantity can take.) The bounds of the game
#: solvers are checked with power in tests/test_experiments_oracle_detection.py.
INFORMATIVE = TINY | {
    "environment": ENVIRONMENT,
    "explore_first": TINY["explore_first"] | {"explore_rounds": [4000]},
    "regret": {"horizons": [20000], "fpl_rounds": 5},
}


def informative_rows(implementations=LIBRARY, seed=0):
    """The explore_first and regret rows of INFORMATIVE run with ``implementations``."""
    tables = {}
    for experiment, run_trial in (("explore_first", explore_first_trial), ("regret", regret_trial)):
        sweep = SweepSettings.from_config(INFORMATIVE, experiment)
        environment = build_environment(sweep.environment, seed)
        tables[experiment] = pd.DataFrame(
            [
                row
                for trial in sweep_trials(sweep.experiment)
                for row in run_trial(environment, sweep.experiment, trial, seed, implementations)
            ]
        )
    return tables


def assert_informative_bounds_hold(tables):
    """The bounds hold, and each is below the values a broken estimator produces."""
    explore_first = tables["explore_first"]
    assert (explore_first["deviation_bound"] < 0.15).all()  # max |M| is 0.71 here
    assert (explore_first["deviation"] <= explore_first["deviation_bound"]).all()
    lp = explore_first[explore_first["solver"] == "lp"]
    assert (lp["exploitability_bound"] < 0.3).all()
    assert (lp["exploitability"] <= lp["exploitability_bound"]).all()
    regret = tables["regret"]
    # The FPL rows' bound uses Theorem fpl's eps at N = 5: vacuous, so not checked here.
    checked = regret[regret["algorithm"] != "explore_exploit_fpl"]
    assert len(checked) == 2 * 2
    assert (checked["regret_bound"] < 0.5 * checked["horizon"]).all()
    assert (checked["regret"] <= checked["regret_bound"]).all()


def test_the_bounds_hold_where_they_are_informative():
    assert_informative_bounds_hold(informative_rows())


def test_results_do_not_depend_on_the_sharding(shards):
    one = {**TINY, "shards": 1}
    for experiment in ("explore_first", "regret"):
        single = combine_experiment_shards(run_shards(one, experiment), experiment)
        pd.testing.assert_frame_equal(
            single, combine_experiment_shards(shards[experiment], experiment)
        )
    assert set(EXPERIMENT_KEYS) == set(EXPERIMENTS)


def test_trials_cover_every_setting_in_a_fixed_order():
    explore_first = SweepSettings.from_config(TINY, "explore_first").experiment
    trials = sweep_trials(explore_first)
    assert len(trials) == 2 * 2 * 2  # seeds x estimators x m
    assert [(t.seed, t.estimator, t.n_explore) for t in trials[:3]] == [
        (0, "importance_weighted", 40),
        (0, "importance_weighted", 160),
        (0, "skew_symmetrised", 40),
    ]
    regret = sweep_trials(SweepSettings.from_config(TINY, "regret").experiment)
    assert [(t.seed, t.horizon) for t in regret] == [(0, 150), (0, 600), (1, 150), (1, 600)]
    learned = sweep_trials(SweepSettings.from_config(TINY, "learned").experiment)
    assert [t.seed for t in learned] == [0]  # learned.seeds, not the sweep-wide seeds


def test_bad_arguments():
    with pytest.raises(ValueError, match="experiment must be one of"):
        SweepSettings.from_config(TINY, "online")
    with pytest.raises(ValueError, match="shard must be in"):
        run_oracle_shard(SweepSettings.from_config(TINY, "solvers"), 1, 2)


class _LouderScheme(FixedExploration):
    """An estimator whose estimates are ten times the paper's and which declares an L ten
    times larger, so that its own range covers them."""

    def estimate_entries(self, first, second, outcomes):
        rounds, rows, columns, values = super().estimate_entries(first, second, outcomes)
        return rounds, rows, columns, 10.0 * values


def _louder(estimator, n_actions):
    correct = scheme_of(estimator, n_actions)
    louder = _LouderScheme(correct.pair_probabilities, correct.estimator)
    louder.entry_scale = correct.entry_scale  # estimate_entries scales
    louder.bound = louder.variance_bound = 10.0 * correct.bound
    return louder


def test_the_bounds_take_the_declared_l_not_the_implementations():
    # A broken estimator that reports a larger L cannot loosen its own bound.
    louder = dataclasses.replace(LIBRARY, scheme=_louder)
    tables = informative_rows(louder)
    correct = informative_rows()
    explore_first = tables["explore_first"]
    pd.testing.assert_series_equal(
        explore_first["deviation_bound"], correct["explore_first"]["deviation_bound"]
    )
    # K^2 for the paper's estimator, K (K - 1) / 2 for the skew-symmetrised one (K = 2).
    paper = explore_first["estimator"] == "importance_weighted"
    assert (explore_first["bound_L"] == paper.map({True: 4.0, False: 1.0})).all()
    assert (explore_first["deviation"] > explore_first["deviation_bound"]).all()
    regret = tables["regret"]
    pd.testing.assert_series_equal(regret["regret_bound"], correct["regret"]["regret_bound"])


class _ShortProjectionPGD(ProjectedGD):
    """ProjectedGD whose projections report the bound of a tenth of T_in and a certificate
    that meets it but not the bound at T_in."""

    def fit(self, game, oracle, initial=None):
        super().fit(game, oracle, initial)
        short = max(1, self.n_inner_ // 10)
        self.projections_ = [
            dataclasses.replace(
                record,
                bound=8.0 * record.distance / math.sqrt(short),
                certificate=-0.9 * 8.0 * record.distance / math.sqrt(short),
            )
            for record in self.projections_
        ]
        return self


def test_theorem_approx_proj_is_checked_at_the_nominal_t_in():
    sweep = SweepSettings.from_config(TINY, "small_solvers")
    environment = build_environment(sweep.environment, 0)
    settings = dataclasses.replace(sweep.experiment, fpl_rounds=(), pgd_iterations=(64,))
    implementations = dataclasses.replace(LIBRARY, pgd=_ShortProjectionPGD)
    (row,) = solvers_trial(environment, settings, SeedTrial(0), 0, implementations)
    assert row["projections"] > 0 and row["projections_held"] == 0
    (correct,) = solvers_trial(environment, settings, SeedTrial(0), 0)
    assert correct["projections_held"] == correct["projections"]
    # The worst shortfall is below the largest value the quantity can take in the run.
    assert row["certificate_shortfall"] <= row["certificate_ceiling"]
