"""The bound checks' power: every informative check detects a broken variant, none the control.

Weakening a check (a looser bound, a laxer selection) or breaking a variant so that it no
longer differs makes these tests fail.
"""

import dataclasses

import pandas as pd
import pytest
from informative_game import ENVIRONMENT

from cdbandits.experiments.oracle.broken_variants import CORRECT, VARIANTS, variant_names
from cdbandits.experiments.oracle.detection import (
    DETECTION_COLUMNS,
    PARTS,
    DetectionSettings,
    detect_broken_variants,
    detection_markdown,
    detection_metadata,
    run_part,
)
from cdbandits.experiments.oracle.environment import build_environment
from cdbandits.experiments.oracle.settings import SettingsError
from cdbandits.experiments.oracle.statements import STATEMENTS

#: A tiny detection setting (a few seconds): 2 actions, 8 stumps, few seeds.
TINY = {
    "delta": 0.05,
    "detection": {
        "seeds": 4,
        "environment": ENVIRONMENT,
        "explore_first": {"explore_rounds": 4000, "fpl_rounds": 5, "pgd_iterations": 2},
        "solvers": {"explore_rounds": 2, "fpl_rounds": 2500, "pgd_iterations": 169},
        "regret": {"horizon": 20000, "fpl_rounds": 5},
    },
}

#: The checks whose bounds no affordable budget makes informative (issue 11, item 2).
WITHOUT_INFORMATIVE_SETTING = {"main_eps_fpl", "main_eps_pgd", "main_regret_fpl"}


@pytest.fixture(scope="module")
def result():
    return detect_broken_variants(DetectionSettings.from_config(TINY), 0)


def test_every_informative_check_detects_a_variant_and_never_the_control(result):
    checks = result.checks.set_index("statement")
    assert list(checks.index) == [statement.name for statement in STATEMENTS]
    assert not checks["false_alarm"].any()
    informative = set(checks.index[checks["informative"]])
    assert informative == {s.name for s in STATEMENTS} - WITHOUT_INFORMATIVE_SETTING
    for name in informative:
        assert checks.loc[name, "variants_detected"] >= 1, f"{name} has no power"
    assert (checks.loc[list(WITHOUT_INFORMATIVE_SETTING), "power"] == "no power").all()


def test_the_variants_are_caught_where_their_bug_acts(result):
    matrix = result.matrix.set_index(["statement", "variant"])
    detected = matrix["detected"]
    assert detected[("f2_paper_estimator", "estimator_1_over_K")]
    assert detected[("f2_skew_estimator", "estimator_sign")]
    assert detected[("explore_first_lp", "estimator_sign")]
    assert detected[("main_regret_lp", "estimator_sign")]
    assert detected[("fpl", "fpl_maximising_oracle")]
    assert detected[("approx_proj", "pgd_no_step")]
    assert detected[("sparring_exp4p_same_environment", "exp4p_flipped_outcome")]
    # The library refuses eta x 100 (ApproxProject's nu > 1) before any check is made.
    raised = matrix.xs("pgd_eta_x100", level="variant")
    assert raised.loc["proj_out2", "error"].startswith("ValueError: nu =")
    assert raised.loc["fpl", "error"] == "" and raised.loc["fpl", "seeds"] == 4
    # A variant is never detected by a check of code it does not touch.
    assert (
        not matrix.xs("exp4p_flipped_outcome", level="variant")["detected"]
        .drop("sparring_exp4p_same_environment")
        .any()
    )


def test_matrix_columns_markdown_and_metadata(result):
    matrix = result.matrix
    assert tuple(matrix.columns) == DETECTION_COLUMNS
    assert list(matrix["variant"].unique()) == list(variant_names())
    assert len(matrix) == len(STATEMENTS) * (1 + len(VARIANTS))
    ran = matrix[matrix["error"] == ""]
    assert (ran["seeds"] == 4).all() and (ran["detections"] <= ran["seeds"]).all()
    lines = detection_markdown(result).splitlines()
    assert lines[2].split("|")[2].strip() == STATEMENTS[0].name
    assert lines[4].startswith(f"| {CORRECT.name} |")
    metadata = detection_metadata(result, {"seed": 0})
    assert set(metadata["checks_without_power"]) == WITHOUT_INFORMATIVE_SETTING
    assert metadata["false_alarms"] == [] and metadata["metadata"] == {"seed": 0}


def test_a_reused_part_equals_a_fresh_run():
    # A variant that does not touch a part's code reuses the control's rows: they are equal.
    settings = DetectionSettings.from_config(TINY)
    settings = dataclasses.replace(
        settings, regret=dataclasses.replace(settings.regret, horizons=(400,))
    )
    environment = build_environment(settings.environment, 0)
    regret = next(part for part in PARTS if part.name == "regret")
    pgd_variant = next(v for v in VARIANTS if v.name == "pgd_no_step")
    assert "pgd" not in regret.uses
    control = pd.DataFrame(run_part(regret, settings, environment, CORRECT, 0).rows)
    again = pd.DataFrame(run_part(regret, settings, environment, pgd_variant, 0).rows)
    pd.testing.assert_frame_equal(control, again)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"seeds": 0}, "oracle.detection.seeds: expected a positive integer"),
        ({"solvers": None}, "oracle.detection.solvers: expected a mapping"),
        (
            {"regret": {"horizon": 10, "fpl_rounds": 5}},
            "oracle.detection.regret.horizon: T = 10 leaves no round to exploit",
        ),
    ],
)
def test_settings_name_the_bad_key(change, message):
    config = {**TINY, "detection": {**TINY["detection"], **change}}
    with pytest.raises(SettingsError, match=message):
        DetectionSettings.from_config(config)
