"""The summary tables: JSON records, the scaling crossovers, the theory table."""

import math

import numpy as np
import pandas as pd
import pytest
from conftest import REPO_ROOT

from cdbandits.experiments.oracle.tables import (
    CROSSOVER_COLUMNS,
    json_records,
    scaling_crossovers,
    scaling_markdown,
    theory_table,
)


def test_json_records_write_nan_and_infinity_as_none():
    assert json_records(pd.DataFrame({"x": [math.nan, math.inf, 2.0]})) == [
        {"x": None},
        {"x": None},
        {"x": 2.0},
    ]


def scaling_rows(repeat, baseline_seconds_per_policy):
    """SparringEXP4.P linear in |Pi|, SparringFPL constant (1 s, 5 MB), and a method that
    wins everywhere (pgd)."""
    sizes = [100, 1000, 10000, 100000]
    rows = [
        {
            "method": "sparring_exp4p",
            "n_policies": n,
            "repeat": repeat,
            "seconds": n * baseline_seconds_per_policy,
            "peak_mb": n / 100,
        }
        for n in sizes
    ]
    rows += [
        {"method": "fpl", "n_policies": n, "repeat": repeat, "seconds": 1.0, "peak_mb": 5.0}
        for n in sizes
    ]
    rows += [
        {"method": "pgd", "n_policies": n, "repeat": repeat, "seconds": 0.01, "peak_mb": 0.1}
        for n in sizes
    ]
    return rows


@pytest.fixture
def scaling():
    # Repeat 0: FPL beats SparringEXP4.P in time from |Pi| = 1000 on; repeat 1: from 500.
    return pd.DataFrame(scaling_rows(0, 1 / 1000) + scaling_rows(1, 1 / 500))


def test_scaling_crossovers_with_median_and_spread_over_repeats(scaling):
    crossovers = scaling_crossovers(scaling).set_index(["method", "resource"])
    fpl_time = crossovers.loc[("fpl", "seconds")]
    assert fpl_time["repeats"] == 2
    # The medians (1.5 s at 1000) already win at 1000.
    assert fpl_time["wins_from_measured"] == 1000 and not fpl_time["wins_everywhere"]
    assert fpl_time["crossover_min"] == pytest.approx(500.0)
    assert fpl_time["crossover_max"] == pytest.approx(1000.0)
    assert fpl_time["crossover_median"] == pytest.approx(750.0)
    assert fpl_time["largest_ratio_min"] == pytest.approx(100.0)
    assert fpl_time["largest_ratio_max"] == pytest.approx(200.0)
    fpl_memory = crossovers.loc[("fpl", "peak_mb")]
    assert fpl_memory["wins_from_measured"] == 1000
    assert fpl_memory["crossover_min"] == fpl_memory["crossover_max"] == pytest.approx(500.0)
    pgd_time = crossovers.loc[("pgd", "seconds")]
    assert pgd_time["wins_everywhere"] and math.isnan(pgd_time["crossover_median"])
    nothing_measured = pd.DataFrame(
        columns=["method", "n_policies", "repeat", "seconds", "peak_mb"]
    )
    empty = scaling_crossovers(nothing_measured)
    assert empty.empty and tuple(empty.columns) == CROSSOVER_COLUMNS


def test_scaling_markdown(scaling):
    markdown = scaling_markdown(scaling, scaling_crossovers(scaling))
    lines = markdown.splitlines()
    assert lines[0].startswith("Medians over 2 repeats")
    assert "beats SparringEXP4.P in time from \\|Π\\| ≈" in lines[2]
    rows = {line.split(" | ")[0]: line.split(" | ")[1:] for line in lines[4:]}
    # At |Pi| = 100,000 SparringEXP4.P takes 100 s and 200 s: median 150.
    assert rows["| SparringEXP4.P"][:2] == ["150 s (100–200 s)", "1,000 MB (1,000–1,000 MB)"]
    assert rows["| SparringEXP4.P"][2:] == ["(baseline)", "(baseline) |"]
    assert rows["| SparringFPL"][2:] == ["750 (500–1,000)", "500 (500–500) |"]
    assert rows["| ProjectedGD"][2] == "every size measured"
    assert scaling_markdown(scaling.iloc[:0], scaling_crossovers(scaling.iloc[:0])).startswith(
        "No class sizes"
    )


def test_theory_table():
    table = theory_table([0.5], 0.05, 3, [100])
    assert set(table["algorithm"]) == {"fpl", "pgd"}
    assert (table["guarantee"] <= 0.5).all()
    assert np.all(table["bound"] == 9)


def readme_block(name):
    """The lines RESULTS.md shows between the markers of ``results/oracle/<name>``."""
    text = (REPO_ROOT / "RESULTS.md").read_text(encoding="utf-8")
    begin, end = f"<!-- begin: results/oracle/{name} -->\n", f"<!-- end: results/oracle/{name} -->"
    return text[text.index(begin) + len(begin) : text.index(end)]


def test_results_md_shows_the_crossovers_markdown_the_workflow_writes():
    one_million = pd.DataFrame(scaling_rows(0, 1e-5) + scaling_rows(1, 1e-5)).assign(
        n_policies=lambda table: table["n_policies"] * 10
    )
    written = scaling_markdown(one_million, scaling_crossovers(one_million)).splitlines()
    shown = readme_block("crossovers.md").splitlines()
    assert shown[1:4] == written[1:4]  # the blank line and the table's header
    assert all(line.count(" | ") == 4 for line in shown[4:])
