"""The table of published results is well-formed and points at data the mirror holds."""

import dataclasses
from pathlib import Path

import numpy as np
import pytest
import yaml

from cdbandits.karmed import ALGORITHMS, PUBLISHED_RESULTS, make_algorithm, simulate
from cdbandits.karmed.published import (
    EVIDENCE,
    SETTINGS_EVIDENCE,
    TUNED_CONFIGURATIONS,
    PublishedResult,
    tuned_configuration,
)

ROOT = Path(__file__).resolve().parents[1]


def test_every_row_is_well_formed():
    assert PUBLISHED_RESULTS and all(isinstance(row, PublishedResult) for row in PUBLISHED_RESULTS)
    keys = [(row.paper, row.algorithm) for row in PUBLISHED_RESULTS]
    assert len(keys) == len(set(keys))
    for row in PUBLISHED_RESULTS:
        assert row.algorithm in ALGORITHMS, row.algorithm
        assert row.evidence in EVIDENCE
        assert row.source.startswith("https://"), row.source
        assert row.paper and row.location and row.dataset_evidence and row.note
        assert set(row.compared_with) <= set(ALGORITHMS)
        # a claim exists exactly when something was read; numbers only with a claim
        assert (row.claim is None) == (row.evidence == "not-read"), row.algorithm
        if row.claim is None:
            assert row.reported_value is None
        for number in (row.n_arms, row.horizon, row.runs):
            assert number is None or (isinstance(number, int) and number > 0)
        assert row.datasets and all(isinstance(path, str) for path in row.datasets)


def test_rows_are_frozen():
    row = PUBLISHED_RESULTS[0]
    try:
        row.claim = "changed"
    except dataclasses.FrozenInstanceError:
        pass
    else:
        raise AssertionError("PublishedResult must be frozen")


def test_every_dataset_is_in_the_data_mirror(data_mirror):
    for row in PUBLISHED_RESULTS:
        for path in row.datasets:
            assert (data_mirror / path).is_file(), f"{row.algorithm}: {path} not in {data_mirror}"


def test_the_settings_say_where_they_were_read():
    for row in PUBLISHED_RESULTS:
        assert row.settings_evidence in SETTINGS_EVIDENCE and row.settings_source
        if row.settings_evidence == "not-read":
            assert row.configurations == () and row.horizon is None and row.runs is None
        for name in row.configurations:
            assert tuned_configuration(name).algorithm in {row.algorithm, *ALGORITHMS}


def test_every_tuned_configuration_constructs_and_runs():
    names = [configuration.name for configuration in TUNED_CONFIGURATIONS]
    assert len(set(names)) == len(names) and not set(names) & set(ALGORITHMS)
    matrix = np.array([[0.5, 0.6, 0.7], [0.4, 0.5, 0.6], [0.3, 0.4, 0.5]])
    for configuration in TUNED_CONFIGURATIONS:
        assert configuration.source.startswith("https://") and configuration.location
        with pytest.warns(UserWarning, match="theorem"):  # every alpha here is <= 1/2
            algorithm = make_algorithm(configuration.algorithm, **configuration.parameter_dict)
        for key, value in configuration.parameters:
            assert getattr(algorithm, key) == value
        result = simulate(algorithm, matrix, 300, np.random.default_rng(0), [300])
        assert result.arm_counts[-1].sum() == 600
    with pytest.raises(KeyError, match="merge_dts_li2020"):
        tuned_configuration("merge_dts_paper")


def test_the_opt_in_config_runs_the_tuned_configurations_recorded_here():
    config = yaml.safe_load((ROOT / "config" / "duels-large.yaml").read_text(encoding="utf-8"))
    tuned = config["duels"]["tuned"]
    assert tuned, "config/duels-large.yaml runs no tuned variant"
    for name, variant in tuned.items():
        configuration = tuned_configuration(name)
        assert variant == {
            "algorithm": configuration.algorithm,
            "parameters": configuration.parameter_dict,
        }
