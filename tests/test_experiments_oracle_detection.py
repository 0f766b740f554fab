"""The bound checks' power: every informative check detects a broken variant, none the control.

Weakening a check (a looser bound, a laxer selection) or breaking a variant so that it no
longer differs makes these tests fail. The detection runs at three master seeds (0, the
tiny config's 7 and the default config's 20150703): its population is fixed, so its power
must not depend on the seed.
"""

import dataclasses

import pandas as pd
import pytest

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
from cdbandits.experiments.oracle.settings import SettingsError
from cdbandits.experiments.oracle.statements import STATEMENTS
from cdbandits.experiments.oracle.tables import check_statement

SEEDS = 2

#: A tiny detection setting (seconds): 2 actions, 4 stumps, 2 seeds.
TINY = {
    "delta": 0.05,
    "detection": {
        "seeds": SEEDS,
        "environment": {"n_contexts": 20, "margin": 1.0, "n_bins": 2},
        "explore_first": {"explore_rounds": 4000, "fpl_rounds": 5, "pgd_iterations": 2},
        "small_explore_first": {"explore_rounds": 2000, "pgd_iterations": 64},
        "solvers": {"explore_rounds": 2, "fpl_rounds": 1000, "pgd_iterations": 64},
        "regret": {"horizon": 20000, "fpl_rounds": 5},
    },
}

#: The checks whose bounds no affordable budget makes informative (issue 11, item 2).
WITHOUT_INFORMATIVE_SETTING = {"main_eps_fpl", "main_regret_fpl"}

#: Checks made on the ``solvers`` games of ``m = 2`` rounds, whose power depends on the draw.
SOLVER_CHECKS = {"fpl", "proj_out1", "proj_out2", "approx_proj"}

#: Statements checked on two sweeps in the detection (their trials add up).
TWO_SWEEPS = {"explore_first_lp", "main_eps_pgd"}


@pytest.fixture(scope="module", params=[0, 7, 20150703])
def result(request):
    return detect_broken_variants(DetectionSettings.from_config(TINY), request.param)


def test_every_informative_check_detects_a_variant_and_never_the_control(result):
    checks = result.checks.set_index("statement")
    assert list(checks.index) == [statement.name for statement in STATEMENTS]
    assert not checks["false_alarm"].any()
    assert (result.matrix.loc[result.matrix["variant"] == CORRECT.name, "detections"] == 0).all()
    informative = set(checks.index[checks["informative"]])
    # The solvers' checks' informativeness depends on the game drawn at m = 2 (their
    # ceilings are functions of Mhat).
    assert informative - SOLVER_CHECKS == {s.name for s in STATEMENTS} - (
        WITHOUT_INFORMATIVE_SETTING | SOLVER_CHECKS
    )
    for name in {s.name for s in STATEMENTS} - (WITHOUT_INFORMATIVE_SETTING | SOLVER_CHECKS):
        assert checks.loc[name, "variants_detected"] >= 1, f"{name} has no power"
    assert (checks.loc[list(WITHOUT_INFORMATIVE_SETTING), "power"] == "no power").all()
    # Theorem main-eps with ProjectedGD is informative on the skew-symmetrised part only.
    assert checks.loc["main_eps_pgd", "sweep"] == "small_explore_first"


@pytest.mark.parametrize(
    ("part_name", "variant_name", "statements"),
    [
        ("solvers_fpl", "fpl_maximising_oracle", ["fpl"]),
        ("solvers_pgd", "pgd_no_step", ["proj_out1", "proj_out2", "approx_proj"]),
    ],
)
def test_the_solvers_checks_detect_their_variant_at_enough_seeds(
    part_name, variant_name, statements
):
    # Their power comes from the game drawn at m = 2 (about 1 trial in 6 for Lemma
    # proj-out1 with pgd_no_step), not from the population: 12 seeds catch it.
    config = {**TINY, "detection": {**TINY["detection"], "seeds": 12}}
    settings = DetectionSettings.from_config(config)
    environment = settings.environment.build()
    part = next(part for part in PARTS if part.name == part_name)
    variant = next(v for v in VARIANTS if v.name == variant_name)
    for implementation, expect_failures in ((CORRECT, False), (variant, True)):
        rows = pd.DataFrame(run_part(part, settings, environment, implementation, 0).rows)
        for statement in STATEMENTS:
            if statement.name in statements:
                held = check_statement(statement, rows)["held"]
                failures = int((~held).sum())
                assert (failures > TINY["delta"] * len(held)) == expect_failures, statement.name


def test_the_variants_are_caught_where_their_bug_acts(result):
    matrix = result.matrix.set_index(["statement", "variant"])
    detected = matrix["detected"]
    assert detected[("f2_paper_estimator", "estimator_1_over_K")]
    assert detected[("f2_skew_estimator", "estimator_sign")]
    assert detected[("explore_first_lp", "estimator_sign")]
    assert detected[("main_regret_lp", "estimator_sign")]
    assert detected[("main_eps_pgd", "estimator_sign")]
    assert detected[("sparring_exp4p_same_environment", "exp4p_flipped_outcome")]
    # The library refuses eta x 100 (ApproxProject's nu > 1) before any check is made.
    raised = matrix.xs("pgd_eta_x100", level="variant")
    assert raised.loc["proj_out2", "error"].startswith("ValueError: nu =")
    assert raised.loc["fpl", "error"] == "" and raised.loc["fpl", "seeds"] == SEEDS
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
    trials = ran["statement"].map(lambda name: 2 * SEEDS if name in TWO_SWEEPS else SEEDS)
    # A part that raised leaves its statement the trials of its other sweep (if any).
    control = ran["variant"] == CORRECT.name
    assert (ran.loc[control, "seeds"] == trials[control]).all()
    assert ran["seeds"].isin([SEEDS, 2 * SEEDS]).all() and (ran["seeds"] <= trials).all()
    assert (ran["detections"] <= ran["seeds"]).all()
    lines = detection_markdown(result).splitlines()
    assert lines[2].split("|")[2].strip() == STATEMENTS[0].name
    assert lines[4].startswith(f"| {CORRECT.name} |")
    metadata = detection_metadata(result, {"seed": 0})
    assert set(metadata["checks_without_power"]) - SOLVER_CHECKS == WITHOUT_INFORMATIVE_SETTING
    assert metadata["false_alarms"] == [] and metadata["metadata"] == {"seed": 0}


def test_a_reused_part_equals_a_fresh_run():
    # A variant that does not touch a part's code reuses the control's rows: they are equal.
    settings = DetectionSettings.from_config(TINY)
    settings = dataclasses.replace(
        settings, regret=dataclasses.replace(settings.regret, horizons=(400,))
    )
    environment = settings.environment.build()
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
        (
            {"environment": {"n_contexts": 20, "margin": 1.0, "n_bins": 3}},
            "oracle.detection.environment: n_contexts and n_bins must be even",
        ),
        (
            {"environment": {"n_contexts": 20, "margin": 0, "n_bins": 2}},
            r"oracle.detection.environment.margin: expected a number in \(0, 1\]",
        ),
        ({"small_explore_first": None}, "oracle.detection.small_explore_first: expected a"),
    ],
)
def test_settings_name_the_bad_key(change, message):
    config = {**TINY, "detection": {**TINY["detection"], **change}}
    with pytest.raises(SettingsError, match=message):
        DetectionSettings.from_config(config)


def test_the_skew_part_runs_lp_and_pgd_with_the_skew_estimator_only():
    settings = DetectionSettings.from_config(TINY)
    small = next(part for part in PARTS if part.name == "small_explore_first")
    settings = dataclasses.replace(
        settings,
        small_explore_first=dataclasses.replace(settings.small_explore_first, pgd_iterations=4),
    )
    rows = pd.DataFrame(run_part(small, settings, settings.environment.build(), CORRECT, 0).rows)
    assert sorted(rows["solver"].unique()) == ["lp", "pgd"]
    assert (rows["estimator"] == "skew_symmetrised").all() and (rows["bound_L"] == 1).all()
    assert "fpl" not in small.uses
