"""Budgets solved from the formulas: Theorem main-regret's exploration rounds and the smallest
horizon that leaves rounds to exploit, the stump bins of a class size, and the smallest
informative budgets, checked by hand and by the informative flag flipping at the threshold,
against the ceilings the sweeps record."""

import math

import numpy as np
import pandas as pd
import pytest
import yaml
from conftest import REPO_ROOT
from test_experiments_oracle_experiments import TINY

from cdbandits.contextual.bounds import sparring_exp4p_regret_bound
from cdbandits.experiments.config_model import ConfigError
from cdbandits.experiments.oracle.bound_table import check_statement
from cdbandits.experiments.oracle.budgets import (
    check_exploits,
    exploration_rounds,
    scheme_of,
    smallest_exploiting_horizon,
    smallest_informative_budget,
    smallest_integer,
    stump_bins,
)
from cdbandits.experiments.oracle.environment import build_environment
from cdbandits.experiments.oracle.experiments import SeedTrial, solvers_trial
from cdbandits.experiments.oracle.jobs import SweepSettings
from cdbandits.experiments.oracle.statements import STATEMENTS, evaluate, is_informative
from cdbandits.oracle_methods.bounds import deviation_bound, fpl_gap_bound, pgd_bound
from cdbandits.oracle_methods.theory import explore_exploit_rounds, main_regret_bound

STATEMENT = {statement.name: statement for statement in STATEMENTS}


def test_smallest_integer_of_a_monotone_predicate():
    assert smallest_integer(lambda n: n >= 1) == 1
    assert smallest_integer(lambda n: n * n > 1000) == 32
    assert smallest_integer(lambda n: n >= 7, start=5) == 7
    assert smallest_integer(lambda n: n >= 3, start=9) == 9
    assert smallest_integer(lambda n: False) is None


def test_the_smallest_exploiting_horizon_is_the_first_that_leaves_rounds_to_exploit():
    smallest = smallest_exploiting_horizon(216, 3, "importance_weighted", 0.05)
    assert exploration_rounds(smallest, 216, 3, "importance_weighted", 0.05) < smallest
    assert exploration_rounds(smallest - 1, 216, 3, "importance_weighted", 0.05) >= smallest - 1
    # Theorem main-regret's m = (2 V ln(|Pi|^2 / (delta/3)))^(1/3) T^(2/3) < T needs
    # T > 2 * 9 * ln(216^2 * 60) = 267.2.
    assert 268 <= smallest <= 280


@pytest.mark.parametrize(
    ("estimator", "variance"), [("importance_weighted", 9.0), ("skew_symmetrised", 3.0)]
)
def test_exploration_rounds_use_the_estimators_variance_and_a_third_of_delta(estimator, variance):
    assert scheme_of(estimator, 3).variance_bound == variance
    for horizon in (300, 5000):
        expected = explore_exploit_rounds(horizon, 216, 0.05 / 3, variance)
        assert exploration_rounds(horizon, 216, 3, estimator, 0.05) == expected
    with pytest.raises(ValueError, match="unknown estimator 'paper'"):
        scheme_of("paper", 3)


def test_a_horizon_without_rounds_to_exploit_is_rejected_with_the_smallest_that_has_them():
    smallest = smallest_exploiting_horizon(216, 3, "importance_weighted", 0.05)
    check_exploits((smallest, 10 * smallest), 3, 216, "importance_weighted", 0.05, "horizons")
    with pytest.raises(ConfigError, match=rf"^horizons: T = {smallest - 1} .* is {smallest}$"):
        check_exploits((smallest, smallest - 1), 3, 216, "importance_weighted", 0.05, "horizons")


def test_stump_bins():
    assert stump_bins(100, 4, 5) == 2
    assert stump_bins(1_000_000, 4, 5) == 10_001
    with pytest.raises(ValueError, match="a multiple of 100"):
        stump_bins(150, 4, 5)
    with pytest.raises(ValueError, match="a multiple of 100 .* got 0"):
        stump_bins(0, 4, 5)


def solver_rows(algorithm, budgets, bound):
    """Rows of a game with value 0 and entries in [-0.5, 0.5] (both ceilings: 0.5 and 1)."""
    return pd.DataFrame(
        {
            "algorithm": algorithm,
            "budget": budgets,
            "seed": 0,
            "gap": 0.0,
            "regret_gap": 0.0,
            "gap_bound": [bound(b) for b in budgets],
            "regret_bound": [bound(b) for b in budgets],
            "bound_L": 1.0,
            "delta": 0.05,
            "n_explore": 4,
            "mhat_value": 0.0,
            "mhat_min": -0.5,
            "mhat_max": 0.5,
        }
    )


def test_the_informative_flag_flips_at_theorem_fpls_smallest_budget():
    # 2 eps = 4 (sqrt(8) + sqrt(2 ln 40)) / sqrt(N) = 22.178 / sqrt(N) < 0.5 from N = 1968.
    budget = smallest_informative_budget(
        STATEMENT["fpl"], {"small_solvers": solver_rows("fpl", [100], lambda n: 1.0)}
    )
    assert budget.budget == "N = 1,968 (m = 4)" and budget.experiment == "small_solvers"
    assert budget.cost == "3,936 oracle calls over 4 contexts"
    rows = solver_rows("fpl", [1967, 1968], lambda n: fpl_gap_bound(1.0, 4, n, 0.05))
    checks = check_statement(STATEMENT["fpl"], rows)
    assert checks["informative"].tolist() == [False, True]


@pytest.mark.parametrize(
    ("name", "ceiling", "smallest"), [("proj_out1", 1.0, 37), ("proj_out2", 0.5, 145)]
)
def test_the_informative_flag_flips_at_projected_gds_smallest_budget(name, ceiling, smallest):
    # 2 L / sqrt(T) + 4 L / sqrt(T) = 6 / sqrt(T) < ceiling from T = floor(36 / ceiling^2) + 1.
    assert smallest == math.floor(36 / ceiling**2) + 1
    rows = solver_rows("pgd", [smallest - 1, smallest], lambda t: pgd_bound(1.0, t, t))
    assert evaluate(STATEMENT[name].ceiling, rows).tolist() == [ceiling, ceiling]
    assert check_statement(STATEMENT[name], rows)["informative"].tolist() == [False, True]
    budget = smallest_informative_budget(STATEMENT[name], {"solvers": rows})
    assert budget.budget == f"T_in = T_out = {smallest} (m = 4)"


def test_approx_projs_smallest_budget_solves_its_formula():
    # 8 / sqrt(T_in) < 2 sqrt(2) iff T_in > 8; at T_in = 8 the bound equals the ceiling.
    rows = solver_rows("pgd", [8, 9], lambda t: 0.0).assign(
        certificate_shortfall=-1.0,
        certificate_ceiling=2.0 * math.sqrt(2.0),
        projections=8,
        projections_held=8,
    )
    assert check_statement(STATEMENT["approx_proj"], rows)["informative"].tolist() == [False, True]
    budget = smallest_informative_budget(STATEMENT["approx_proj"], {"solvers": rows})
    assert budget.budget == "T_in = 9"


def test_lemma_f2_and_explore_first_budgets_solve_their_formulas():
    # L + max |M| = 9.37 for |Mhat - M|; max M = 0.37 for an exploitability.
    rows = pd.DataFrame(
        {
            "delta": [0.05],
            "bound_L": [9.0],
            "variance_V": [9.0],
            "n_policies": [216],
            "seed": [0],
            "deviation_ceiling": [9.37],
            "exploitability_ceiling": [0.37],
        }
    )
    for name, tails, ceiling in (
        ("f2_paper_estimator", 1, 9.37),
        ("f2_paper_estimator_two_tailed", 2, 9.37),
        ("explore_first_lp", 1, 0.185),  # 2 eps' < 0.37
    ):
        m = int(smallest_informative_budget(STATEMENT[name], {"e": rows}).units)
        assert deviation_bound(m, 216, 0.05, 9.0, 9.0, tails) < ceiling
        assert deviation_bound(m - 1, 216, 0.05, 9.0, 9.0, tails) >= ceiling


def test_main_eps_budgets_are_informative_and_cheapest_on_their_grid():
    rows = pd.DataFrame(
        {
            "delta": [0.05],
            "bound_L": [1.0],
            "variance_V": [1.0],
            "n_policies": [24],
            "seed": [0],
            "exploitability_ceiling": [1.0],
        }
    )
    pgd = smallest_informative_budget(STATEMENT["main_eps_pgd"], {"small": rows})
    t, m = (int(part.split(" = ")[-1].replace(",", "")) for part in pgd.budget.split(", "))
    assert 2 * deviation_bound(m, 24, 0.05, 1.0, 1.0) + pgd_bound(1.0, t, t) < 1.0
    assert 2 * deviation_bound(m, 24, 0.05, 1.0, 1.0) + pgd_bound(1.0, t - 1, t - 1) >= 1.0
    fpl = smallest_informative_budget(STATEMENT["main_eps_fpl"], {"small": rows})
    n, m = (int(part.split(" = ")[-1].replace(",", "")) for part in fpl.budget.split(", "))
    eps = 2 * deviation_bound(m, 24, 0.025, 1.0, 1.0)
    assert eps + fpl_gap_bound(1.0, m, n, 0.025) < 1.0 <= eps + fpl_gap_bound(1.0, m, n - 1, 0.025)
    assert fpl.units == 2 * n * m


@pytest.mark.parametrize("rate", [1.0, 0.56])
def test_regret_budgets_make_the_bound_fall_below_the_ceiling(rate):
    # The regret's ceiling grows with T: its smallest ratio to T in the sweep is kept.
    rows = pd.DataFrame(
        {
            "delta": [0.05, 0.05],
            "n_actions": [2, 2],
            "n_policies": [24, 24],
            "horizon": [100, 200],
            "seed": [0, 1],
            "regret_ceiling": [rate * 100, rate * 200 + 20],
        }
    )
    lp = int(smallest_informative_budget(STATEMENT["main_regret_lp"], {"regret": rows}).units)
    assert main_regret_bound(lp, 24, 4.0, 4.0, 0.05 / 3) < rate * lp
    assert main_regret_bound(lp - 1, 24, 4.0, 4.0, 0.05 / 3) >= rate * (lp - 1)
    sparring = smallest_informative_budget(
        STATEMENT["sparring_exp4p_same_environment"], {"r": rows}
    )
    horizon = int(sparring.budget.removeprefix("T = ").replace(",", ""))
    assert sparring_exp4p_regret_bound(horizon, 2, 24, 0.05).total < rate * horizon
    assert sparring_exp4p_regret_bound(horizon - 1, 2, 24, 0.05).total >= rate * (horizon - 1)
    fpl = smallest_informative_budget(STATEMENT["main_regret_fpl"], {"regret": rows})
    n = int(fpl.budget.split(" (")[0].removeprefix("N = ").replace(",", ""))
    assert f"(T = {2 * lp:,})" in fpl.budget  # twice the exact solver's smallest T
    assert is_informative(main_regret_bound(2 * lp, 24, 4.0, 4.0, 0.05 / 3, n), rate * 2 * lp)
    assert not is_informative(
        main_regret_bound(2 * lp, 24, 4.0, 4.0, 0.05 / 3, n - 1), rate * 2 * lp
    )


def test_the_ceilings_of_a_one_duel_game_computed_by_hand():
    # One exploration round, K = 2, skew-symmetrised estimator: Phat(a, b) = r = -Phat(b, a),
    # so Mhat(pi, rho) = Phat(pi(x), rho(x)) is -1, 0 or 1, and the stumps hold policies
    # playing either action on x: min Mhat = -1, max Mhat = 1, value 0 (Mhat is skew). The
    # gap's ceiling is 0 - (-1) = 1, the average regret's 1 - (-1) = 2.
    config = TINY | {
        "small_game": TINY["small_game"]
        | {"solvers": TINY["small_game"]["solvers"] | {"explore_rounds": 1}}
    }
    sweep = SweepSettings.from_config(config, "small_solvers")
    environment = build_environment(sweep.environment, 11)
    rows = pd.DataFrame(solvers_trial(environment, sweep.experiment, SeedTrial(0), 11))
    assert (rows["mhat_min"] == -1.0).all() and (rows["mhat_max"] == 1.0).all()
    assert np.allclose(rows["mhat_value"], 0.0, atol=1e-6)  # the LP solution
    np.testing.assert_allclose(evaluate("value - min Mhat", rows), 1.0, atol=1e-6)
    np.testing.assert_allclose(evaluate("max Mhat - min Mhat", rows), 2.0)


def merged(base, override):
    """``base`` with ``override``'s keys replaced recursively (as Snakemake merges configs)."""
    result = dict(base)
    for key, value in override.items():
        is_section = isinstance(value, dict) and isinstance(base.get(key), dict)
        result[key] = merged(base[key], value) if is_section else value
    return result


DEFAULT_ORACLE = yaml.safe_load((REPO_ROOT / "config" / "config.yaml").read_text())["oracle"]
FULL_ORACLE = yaml.safe_load((REPO_ROOT / "config" / "bounds-full.yaml").read_text())["oracle"]
SEED = 20150703


def test_the_opt_in_config_reaches_the_main_environments_smallest_informative_budgets():
    # Lemma explore-first (paper's estimator) and Theorem main-regret (exact solver) are
    # informative on the main environment only past the default run's largest m and T.
    full = merged(DEFAULT_ORACLE, FULL_ORACLE)
    explore = SweepSettings.from_config(DEFAULT_ORACLE, "explore_first")
    environment = build_environment(explore.environment, SEED)
    k, n_policies = environment.n_actions, environment.n_policies
    rows = pd.DataFrame(
        {
            "delta": [explore.experiment.delta],
            "bound_L": [float(k * k)],
            "variance_V": [float(k * k)],
            "n_policies": [n_policies],
            "seed": [0],
            "n_explore": [max(explore.experiment.explore_rounds)],
            "exploitability_ceiling": [float(environment.true_matrix.max())],
        }
    )
    budget = smallest_informative_budget(STATEMENT["explore_first_lp"], {"explore_first": rows})
    rounds = SweepSettings.from_config(full, "explore_first").experiment.explore_rounds
    assert max(explore.experiment.explore_rounds) < budget.units <= max(rounds)
    regret = SweepSettings.from_config(DEFAULT_ORACLE, "regret")
    (*_, horizon) = regret.experiment.horizons
    rows = pd.DataFrame(
        {
            "delta": [regret.experiment.delta],
            "n_actions": [k],
            "n_policies": [n_policies],
            "horizon": [horizon],
            "seed": [0],
            "regret_ceiling": [0.5 * horizon],  # about max_pi sum_t max_a P, measured 0.497 T
        }
    )
    budget = smallest_informative_budget(STATEMENT["main_regret_lp"], {"regret": rows})
    horizons = SweepSettings.from_config(full, "regret").experiment.horizons
    assert horizon < budget.units <= max(horizons)


def test_the_opt_in_config_gives_more_seeds_where_the_sweeps_cannot_be_informative():
    default, full = DEFAULT_ORACLE, FULL_ORACLE
    assert merged(default, full)["detection"]["seeds"] >= 8 * default["detection"]["seeds"]
    # On the sweeps' environments, the three statements checked on the detection's
    # population only need more than 10^11 oracle-call contexts per seed.
    seed = SEED
    small = SweepSettings.from_config(default, "small_explore_first")
    environment = build_environment(small.environment, seed)
    ceiling = float(environment.true_matrix.max())
    rows = pd.DataFrame(
        {
            "delta": [small.experiment.delta],
            "bound_L": [1.0],
            "variance_V": [1.0],
            "n_policies": [environment.n_policies],
            "seed": [0],
            "n_explore": [max(small.experiment.explore_rounds)],
            "exploitability_ceiling": [ceiling],
        }
    )
    for name in ("main_eps_fpl", "main_eps_pgd"):
        budget = smallest_informative_budget(STATEMENT[name], {"small_explore_first": rows})
        assert budget.units > 1e11, name
    regret = SweepSettings.from_config(default, "regret")
    environment = build_environment(regret.environment, seed)
    (horizon, *_) = regret.experiment.horizons
    rows = pd.DataFrame(
        {
            "delta": [regret.experiment.delta],
            "n_actions": [environment.n_actions],
            "n_policies": [environment.n_policies],
            "horizon": [horizon],
            "seed": [0],
            "regret_ceiling": [0.5 * horizon],  # about max_pi sum_t max_a P, measured 0.497 T
        }
    )
    budget = smallest_informative_budget(STATEMENT["main_regret_fpl"], {"regret": rows})
    assert budget.units > 1e11
