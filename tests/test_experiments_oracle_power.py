"""Power as a curve: degraded implementations, the smallest factor detected, its table."""

import math

import numpy as np
import pandas as pd
import pytest
from test_experiments_oracle_detection_settings import TINY

from cdbandits.experiments.oracle.detection import PARTS, replaced_fields
from cdbandits.experiments.oracle.detection_settings import DetectionSettings
from cdbandits.experiments.oracle.figures import plot_power
from cdbandits.experiments.oracle.power import (
    DEGRADATIONS,
    FACTORS,
    POWER_COLUMNS,
    measure_power,
    power_markdown,
    power_table,
)
from cdbandits.experiments.oracle.statements import STATEMENTS

NAMES = tuple(statement.name for statement in STATEMENTS)


def test_every_degradation_replaces_one_part_of_the_code_that_some_part_runs():
    for degradation in DEGRADATIONS:
        replaced = replaced_fields(degradation.degrade(2.0))
        assert len(replaced) == 1, degradation.parameter
        assert any(replaced & part.uses for part in PARTS), degradation.parameter


def synthetic_power():
    """Check a detects the step at 5 (and 10, 100 are not run), check b never though its
    quantity grows, check d measures the same at every factor, c raises."""
    rows = []
    for factor in FACTORS:
        failed = {2.0: 0, 5.0: 3}.get(factor)
        if failed is not None:
            rows.append(("step", factor, "a", 4, failed, failed > 0.2, 1.0, ""))
        rows.append(("step", factor, "b", 4, 0, False, 0.001 * factor, ""))
        rows.append(("step", factor, "d", 4, 0, False, 0.5, ""))
        rows.append(("scale", factor, "c", 0, 0, False, math.nan, "ValueError: nu > 1"))
    return pd.DataFrame(
        [(p, f, 0.05, s, n, d, det, meas, e) for p, f, s, n, d, det, meas, e in rows],
        columns=list(POWER_COLUMNS),
    )


def test_the_power_table_gives_the_smallest_factor_detected():
    table = power_table(synthetic_power()).set_index(["statement", "parameter"])
    assert table.loc[("a", "step"), "smallest_factor"] == 5.0
    assert table.loc[("a", "step"), "largest_fraction"] == 0.75
    assert math.isnan(table.loc[("b", "step"), "smallest_factor"])
    assert table.loc[("b", "step"), "acts"] and not table.loc[("d", "step"), "acts"]
    assert table.loc[("c", "scale"), "refused"] == "2;5;10;100"


def test_the_power_markdown():
    power = synthetic_power().replace({"step": "pgd_step", "scale": "exp4p_exploration"})
    text = power_markdown(power, ("a", "b", "c", "d", "e"))
    lines = {line.split(" | ")[0]: line for line in text.splitlines() if line.startswith("| ")}
    header = lines["| check"].split(" | ")
    cells = {
        name: dict(zip(header, lines[f"| {name}"].split(" | "), strict=True)) for name in "abcde"
    }
    assert cells["a"]["pgd_step"] == "5" and cells["b"]["pgd_step"] == "> 100"
    assert cells["c"]["exp4p_exploration"] == "raised"
    assert cells["d"]["pgd_step"] == "—"  # the same quantity at every factor
    assert cells["e"]["pgd_step"] == "—" and cells["a"]["exp4p_exploration"] == "—"
    assert "fpl_perturbation: SparringFPL's perturbations f times" in text


def test_the_power_figure_draws_a_panel_per_parameter():
    power = synthetic_power()
    figure = plot_power(power)
    visible = [axis for axis in figure.axes if axis.get_visible()]
    assert [axis.get_title() for axis in visible] == ["step", "scale"]
    lines = visible[0].get_lines()
    np.testing.assert_allclose(lines[0].get_ydata(), [0.0, 0.75])  # check a, two factors
    assert visible[0].get_lines()[-1].get_ydata()[0] == 0.05  # the threshold delta


CHEAP = ("estimator_bias", "exp4p_exploration", "exploration_rounds")


@pytest.fixture(scope="module")
def measured():
    settings = DetectionSettings.from_config(TINY)
    # The cheap degradations only (the parts of the sparring and exact-solver checks).
    degradations = tuple(d for d in DEGRADATIONS if d.parameter in CHEAP)
    return settings, measure_power(settings, 0, (2.0, 100.0), degradations)


def test_measured_power_runs_each_factor_until_every_check_detects(measured):
    settings, power = measured
    assert tuple(power.columns) == POWER_COLUMNS
    assert set(power["parameter"]) == set(CHEAP)
    assert (power["seeds"] <= 4 * settings.seeds).all()
    for (parameter, statement), part in power.groupby(["parameter", "statement"]):
        detected = part.loc[part["detected"], "factor"]
        if len(detected):  # nothing is run for it after its smallest factor detected
            assert part["factor"].max() >= detected.min(), (parameter, statement)
    estimator = power[power["parameter"] == "estimator_bias"].set_index(["statement", "factor"])
    # Estimates halved: |Mhat - M| reaches half the margin, far above eps'.
    assert estimator.loc[("f2_paper_estimator_two_tailed", 2.0), "detected"]
    exploration = power[power["parameter"] == "exp4p_exploration"]
    assert set(exploration["statement"]) == {"sparring_exp4p_same_environment"}
