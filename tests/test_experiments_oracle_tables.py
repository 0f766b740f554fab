"""The bound table, its coverage and rates, and the scaling crossovers."""

import math

import numpy as np
import pandas as pd
import pytest

from cdbandits.experiments.oracle.tables import (
    CROSSOVER_COLUMNS,
    bound_checks,
    bound_table,
    bound_table_markdown,
    json_records,
    scaling_crossovers,
    theory_table,
)


def synthetic_solver_rows():
    """FPL rows whose gap decays like N^-1/2, with one seed above the bound at N = 10."""
    rows = []
    for n in (10, 100, 1000):
        for seed in range(20):
            gap = (1.0 + 0.004 * seed) / math.sqrt(n)
            bound = 1.1 / math.sqrt(n) if not (n == 10 and seed == 19) else 0.1
            rows.append(
                {
                    "algorithm": "fpl",
                    "budget": n,
                    "seed": seed,
                    "gap": gap,
                    "gap_bound": bound,
                    "bound_L": 4.0,
                }
            )
    return pd.DataFrame(rows)


def test_bound_table_coverage_rates_and_markdown():
    empty = pd.DataFrame(columns=["solver", "estimator", "algorithm"])
    tables = {
        "explore_first": empty,
        "solvers": synthetic_solver_rows(),
        "regret": empty.rename(columns={}),
    }
    checks = bound_checks(tables)
    assert set(checks["statement"]) == {"fpl"}
    summary, detail = bound_table(checks, 0.05, seed=0)
    row = summary.iloc[0]
    assert row["coverage"] == pytest.approx(59 / 60)
    assert row["worst_setting_coverage"] == pytest.approx(19 / 20)
    assert row["meets_guarantee"]  # 0.95 >= 1 - 0.05
    assert row["empirical_rate"] == pytest.approx(-0.5, abs=1e-9)  # every seed scales as N^-1/2
    assert row["rate_ci_low"] <= -0.5 <= row["rate_ci_high"]
    assert len(detail) == 3 and not detail["vacuous"].any()
    markdown = bound_table_markdown(summary)
    assert "Theorem fpl" in markdown and "\\|" not in markdown.splitlines()[0]
    online = pd.DataFrame(
        {
            "setting": ["s", "s"],
            "horizon": [100, 1000],
            "coverage": [1.0, 0.9],
            "bound": [500.0, 900.0],
            "mean_regret": [50.0, 200.0],
            "n_seeds": [30, 30],
            "empirical_slope": [0.6, 0.6],
            "delta": [0.05, 0.05],
        }
    )
    joined, _ = bound_table(checks, 0.05, seed=0, online_coverage=online)
    online_row = joined[joined["reference"] == "Theorem sparring-exp4"].iloc[0]
    assert online_row["worst_setting_coverage"] == 0.9 and not online_row["meets_guarantee"]
    assert json_records(pd.DataFrame({"x": [math.nan]})) == [{"x": None}]


def test_scaling_crossovers():
    sizes = [100, 1000, 10000, 100000]
    rows = [
        {"method": "sparring_exp4p", "n_policies": n, "seconds": n / 1000, "peak_mb": n / 100}
        for n in sizes
    ]
    rows += [{"method": "fpl", "n_policies": n, "seconds": 1.0, "peak_mb": 5.0} for n in sizes]
    crossovers = scaling_crossovers(pd.DataFrame(rows)).set_index("resource")
    assert crossovers.loc["seconds", "wins_from_measured"] == 10000
    assert crossovers.loc["seconds", "crossover_interpolated"] == pytest.approx(1000.0)
    assert crossovers.loc["peak_mb", "wins_from_measured"] == 1000
    assert crossovers.loc["peak_mb", "crossover_interpolated"] == pytest.approx(500.0)
    assert crossovers.loc["seconds", "largest_ratio"] == pytest.approx(100.0)
    nothing_measured = pd.DataFrame(columns=["method", "n_policies", "seconds", "peak_mb"])
    empty = scaling_crossovers(nothing_measured)
    assert empty.empty and tuple(empty.columns) == CROSSOVER_COLUMNS


def test_theory_table():
    table = theory_table([0.5], 0.05, 3, [100])
    assert set(table["algorithm"]) == {"fpl", "pgd"}
    assert (table["guarantee"] <= 0.5).all()
    assert np.all(table["bound"] == 9)
