"""Scaling measurements: one per method in this process, others in a server's children."""

import dataclasses

import pytest

from cdbandits.experiments.oracle.jobs import ScalingSettings
from cdbandits.experiments.oracle.scaling import (
    SCALING_COLUMNS,
    SCALING_METHODS,
    MeasurementServer,
    measure,
    measure_here,
    scaling_table,
)

SETTINGS = ScalingSettings(
    delta=0.05,
    n_actions=2,
    n_features=2,
    n_contexts=20,
    intransitivity=0.7,
    class_sizes=(16,),
    explore_rounds=60,
    fpl_rounds=3,
    pgd_iterations=2,
    repeats=1,
)


@pytest.mark.parametrize("method", SCALING_METHODS)
def test_one_measurement_per_method(method):
    result = measure_here(method, SETTINGS, 16, seed=0)
    assert result["method"] == method and result["n_policies"] == 16
    assert result["seconds"] > 0 and result["peak_mb"] >= 0
    assert 0 <= result["exploitability"] <= 2


def test_a_new_process_gets_the_same_settings_and_result():
    here = measure_here("fpl", SETTINGS, 16, seed=3)
    fresh = measure("fpl", SETTINGS, 16, seed=3)
    assert fresh["exploitability"] == here["exploitability"]
    other_budget = dataclasses.replace(SETTINGS, explore_rounds=61)
    assert measure_here("fpl", other_budget, 16, seed=3)["exploitability"] != here["exploitability"]


def test_a_failed_measurement_names_the_method_and_size_and_the_server_goes_on():
    with MeasurementServer() as server:
        with pytest.raises(RuntimeError, match=r"the pgd measurement at \|Pi\| = 15 failed"):
            server.measure("pgd", SETTINGS, 15, seed=0)
        assert server.measure("pgd", SETTINGS, 16, seed=0)["n_policies"] == 16


def test_no_class_size_gives_an_empty_table_with_its_columns():
    table = scaling_table(dataclasses.replace(SETTINGS, class_sizes=()), seed=0)
    assert table.empty and tuple(table.columns) == SCALING_COLUMNS
