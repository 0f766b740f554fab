"""The bound table: ceilings, coverage on informative settings only, detection join, rates."""

import math
from functools import partial

import numpy as np
import pandas as pd
import pytest
from conftest import REPO_ROOT

from cdbandits.contextual.bounds import sparring_exp4p_regret_bound
from cdbandits.experiments.oracle.bound_table import (
    bound_checks,
    bound_table,
    bound_table_markdown,
    check_statement,
    detected_variants,
)
from cdbandits.experiments.oracle.ceilings import CEILINGS
from cdbandits.experiments.oracle.statements import STATEMENTS


def synthetic_solver_rows():
    """FPL rows on a game with value 0 and smallest entry -1 (ceiling 1), gap ~ N^-1/2.

    The bound is 3 / sqrt(N): vacuous at N = 4 (1.5 >= 1), informative at N = 100 and
    N = 10,000. At N = 4 every seed breaks the bound (with a gap above the ceiling, which a
    real game cannot have; coverage there must not count); at N = 100 one seed of 20 does.
    """
    rows = []
    for n in (4, 100, 10_000):
        for seed in range(20):
            gap = 2.0 if n == 4 else (1.0 + 0.004 * seed) / math.sqrt(n)
            broken = n == 100 and seed == 19
            rows.append(
                {
                    "algorithm": "fpl",
                    "budget": n,
                    "seed": seed,
                    "gap": gap,
                    "gap_bound": 0.1 * gap if broken else 3.0 / math.sqrt(n),
                    "bound_L": 1.0,
                    "delta": 0.05,
                    "n_explore": 4,
                    "mhat_value": 0.0,
                    "mhat_min": -1.0,
                    "mhat_max": 1.0,
                }
            )
    return pd.DataFrame(rows)


@pytest.fixture
def tables():
    empty = pd.DataFrame(columns=["solver", "estimator", "algorithm"])
    return {"explore_first": empty, "solvers": synthetic_solver_rows(), "regret": empty}


def test_coverage_counts_informative_settings_only(tables):
    checks = bound_checks(tables)
    assert set(checks["statement"]) == {"fpl"}
    assert checks.groupby("value")["informative"].all().to_dict() == {
        4: False,
        100: True,
        10_000: True,
    }
    summary, detail = bound_table(checks, tables, 0.05, seed=0)
    row = summary.iloc[0]
    assert (row["settings"], row["informative_settings"], row["informative_trials"]) == (3, 2, 40)
    assert row["coverage"] == pytest.approx(39 / 40)  # the 20 failures at N = 4 not counted
    assert row["coverage_ci_low"] < 39 / 40 < row["coverage_ci_high"]
    assert row["worst_setting_coverage"] == pytest.approx(19 / 20)
    assert row["meets_guarantee"]  # 0.95 >= 1 - 0.05
    assert row["smallest_informative_budget"] == ""  # already informative
    assert detail.set_index("value")["median_ceiling"].tolist() == [1.0, 1.0, 1.0]


def test_rates_come_from_the_main_sweep_with_the_theory_only_where_it_applies(tables):
    scaling = tables["solvers"][tables["solvers"]["budget"] > 4]
    tables = tables | {"solvers": scaling, "small_solvers": scaling.assign(gap=1.0)}
    summary, _ = bound_table(bound_checks(tables), tables, 0.05, seed=0)
    fpl = summary.set_index("statement").loc["fpl"]
    assert fpl["settings"] == 4  # two sweeps, two budgets each
    # The main sweep's gaps scale as N^-1/2 in every seed (the small sweep's flat gaps
    # would pull the slope towards 0 if pooled).
    assert fpl["empirical_rate"] == pytest.approx(-0.5, abs=1e-9)
    assert fpl["rate_ci_low"] <= -0.5 <= fpl["rate_ci_high"]
    assert fpl["theory_rate"] == -0.5


def test_a_statement_without_informative_setting_shows_its_smallest_budget(tables):
    vacuous = tables["solvers"][tables["solvers"]["budget"] == 4]
    tables = tables | {"solvers": vacuous}
    summary, _ = bound_table(bound_checks(tables), tables, 0.05, seed=0)
    row = summary.iloc[0]
    assert row["informative_settings"] == 0 and math.isnan(row["coverage"])
    assert row["meets_guarantee"] is None
    # 2 eps = 4 L (sqrt(2 m) + sqrt(2 ln(2 / delta))) / sqrt(N) = 22.178 / sqrt(N) < 1 from
    # N = 492 (m = 4, L = 1, delta = 0.05, ceiling value - min Mhat = 1).
    assert row["smallest_informative_budget"] == "N = 492 (m = 4)"
    markdown = bound_table_markdown(summary)
    assert "| 0 / 1 | — |" in markdown and "N = 492 (m = 4) on solvers" in markdown


def test_the_detection_table_is_joined_on_the_statement_name(tables):
    detection = pd.DataFrame(
        {
            "statement": ["fpl", "fpl", "fpl", "fpl"],
            "variant": ["no_perturbation", "alpha_x100", "sign_error", "elsewhere"],
            "seeds": [100, 100, 100, 0],
            "detections": [100, 3, 0, 0],
            "detected": [True, True, False, False],
            # The last variant's code is not run by the check: not counted.
            "applies": [True, True, True, False],
        }
    )
    summary, _ = bound_table(bound_checks(tables), tables, 0.05, seed=0, detection=detection)
    assert summary.iloc[0][["variants", "detected_variants"]].tolist() == [3, 2]
    assert "| 2 / 3 |" in bound_table_markdown(summary)
    nothing = detection.assign(applies=False)
    summary, _ = bound_table(bound_checks(tables), tables, 0.05, seed=0, detection=nothing)
    assert summary.iloc[0][["variants", "detected_variants"]].tolist() == [0, 0]
    without, _ = bound_table(bound_checks(tables), tables, 0.05, seed=0)
    assert "| n/a |" in bound_table_markdown(without)
    with pytest.raises(ValueError, match=r"statements \['fpl_typo'\]"):
        detected_variants(detection.assign(statement="fpl_typo"))
    with pytest.raises(ValueError, match="lacks columns"):
        detected_variants(detection.drop(columns="detected"))


def test_online_rows_count_horizons_whose_bound_is_below_the_episodes_ceiling(tables):
    online = pd.DataFrame(
        {
            "setting": ["s"] * 4,
            "environment": ["synthetic"] * 4,
            "horizon": [100, 1000, 3000, 10_000],
            "coverage": [0.5, 0.9, 0.2, 1.0],
            "bound": [500.0, 900.0, 2000.0, 3000.0],
            # T = 3000: the bound is below T but not below what any learner can reach.
            "min_ceiling": [40.0, 950.0, 1500.0, 5000.0],
            "mean_regret": [50.0, 200.0, 300.0, 600.0],
            "n_seeds": [30, 30, 30, 30],
            "empirical_slope": [0.6] * 4,
        }
    )
    joined, _ = bound_table(bound_checks(tables), tables, 0.05, seed=0, online_coverage=online)
    row = joined[joined["reference"] == "Theorem sparring-exp4"].iloc[0]
    # T = 100 and 3000 are vacuous (bound at least the ceiling): their coverage is not counted.
    assert (row["settings"], row["informative_settings"], row["informative_trials"]) == (4, 2, 60)
    assert row["coverage"] == pytest.approx(57 / 60)
    assert row["worst_setting_coverage"] == 0.9 and not row["meets_guarantee"]
    assert row["smallest_informative_budget"] == ""  # informative settings exist
    assert row["ceiling"] == CEILINGS["regret_ceiling"]
    adversarial = online.assign(environment="adversarial")
    joined, _ = bound_table(bound_checks(tables), tables, 0.05, seed=0, online_coverage=adversarial)
    row = joined[joined["reference"] == "Theorem sparring-exp4"].iloc[0]
    assert row["ceiling"] == CEILINGS["counter_play_regret_ceiling"]
    # A setting whose every horizon is vacuous: the smallest T from the bound's formula at
    # the smallest ceiling per round, with the uniform expert or without, whichever gives
    # the recorded bound.
    for uniform_expert in (True, False):
        bounds = [
            sparring_exp4p_regret_bound(t, 3, 50, 0.05, uniform_expert).total for t in (100, 1000)
        ]
        vacuous = online.iloc[:2].assign(
            bound=bounds,
            n_actions=3,
            n_policies=50,
            delta=0.05,
            horizon=[100, 1000],
            min_ceiling=[60.0, 500.0],
        )
        joined, _ = bound_table(bound_checks(tables), tables, 0.05, seed=0, online_coverage=vacuous)
        row = joined[joined["reference"] == "Theorem sparring-exp4"].iloc[0]
        horizon = int(row["smallest_informative_budget"].removeprefix("T = ").replace(",", ""))
        bound = partial(sparring_exp4p_regret_bound, n_actions=3, n_policies=50, delta=0.05)
        assert bound(horizon, uniform_expert=uniform_expert).total < 0.5 * horizon
        assert bound(horizon - 1, uniform_expert=uniform_expert).total >= 0.5 * (horizon - 1)
    with pytest.raises(KeyError, match="empirical_slope"):
        bound_table(
            bound_checks(tables),
            tables,
            0.05,
            seed=0,
            online_coverage=online.drop(columns="empirical_slope"),
        )


def test_results_md_shows_the_bound_table_markdown_the_workflow_writes():
    text = (REPO_ROOT / "RESULTS.md").read_text(encoding="utf-8")
    name = "results/oracle/bound_table.md"
    begin, end = f"<!-- begin: {name} -->\n", f"<!-- end: {name} -->"
    shown = text[text.index(begin) + len(begin) : text.index(end)]
    no_rows = pd.DataFrame(columns=["statement"])
    # The note and the header (after the run's summary sentence); an empty table ends with
    # one more newline.
    assert bound_table_markdown(no_rows)[:-1] in shown


def test_a_regret_below_its_floor_fails_the_check_and_one_within_the_range_holds():
    statement = {s.name: s for s in STATEMENTS}["main_regret_lp"]
    rows = pd.DataFrame(
        {
            "algorithm": "explore_exploit_lp",
            "horizon": [1000] * 4,
            "seed": range(4),
            "regret": [-50.0, -10.0, 0.0, 120.0],
            "regret_bound": [100.0] * 4,
            "regret_ceiling": [500.0] * 4,
            "regret_floor": [-10.0] * 4,
        }
    )
    checks = check_statement(statement, rows)
    np.testing.assert_array_equal(checks["floor"], -10.0)
    # Below the floor (no learner's regret), at it, within the range, above the bound.
    assert checks["held"].tolist() == [False, True, True, False]
    without_floor = {s.name: s for s in STATEMENTS}["fpl"]
    assert not without_floor.floor
    assert np.isneginf(check_statement(without_floor, synthetic_solver_rows()[:1])["floor"]).all()
