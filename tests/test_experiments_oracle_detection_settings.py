"""The detection's settings: budgets solved from the formulas, the section's rules."""

import pytest
import yaml
from conftest import TINY_CONFIG
from oracle_config import DEFAULT

from cdbandits.contextual.bounds import sparring_exp4p_regret_bound
from cdbandits.experiments.config_model import ConfigError
from cdbandits.experiments.oracle.ceilings import declared_constants
from cdbandits.experiments.oracle.detection_settings import (
    CYCLIC_SOLVER_ROUNDS,
    LINEAR_REGRET_SLOPE,
    DetectionSettings,
    last_iterate_rounds,
    linear_regret_horizon,
)
from cdbandits.experiments.oracle.environment import detection_environment
from cdbandits.experiments.oracle.jobs import RegretSettings
from cdbandits.oracle_methods.bounds import fpl_gap_bound
from cdbandits.oracle_methods.theory import main_regret_bound


@pytest.fixture(scope="module")
def settings():
    return DetectionSettings.from_config(DEFAULT)


def test_the_regret_parts_run_where_linear_regret_exceeds_the_bound(settings):
    environment = settings.environment
    for population, k in environment.POPULATIONS.items():
        n_policies = environment.n_policies(population)
        (horizon,) = settings.sparring[population].horizons

        def sparring(t, k=k, n_policies=n_policies):
            return sparring_exp4p_regret_bound(t, k, n_policies, settings.delta).total

        assert sparring(horizon) < LINEAR_REGRET_SLOPE * horizon
        assert sparring(horizon - 1) >= LINEAR_REGRET_SLOPE * (horizon - 1)
        explore_exploit = settings.explore_exploit[population]
        (horizon,) = explore_exploit.horizons
        bound, variance = declared_constants(explore_exploit.estimator, k)

        def regret(t, n_policies=n_policies, bound=bound, variance=variance):
            return main_regret_bound(t, n_policies, bound, variance, settings.delta / 3)

        assert regret(horizon) < LINEAR_REGRET_SLOPE * horizon
        assert regret(horizon - 1) >= LINEAR_REGRET_SLOPE * (horizon - 1)
        assert explore_exploit.algorithms == ("explore_exploit_lp",)
    # On the switching population (K = 2, 4 stumps): about 50,000 rounds for SparringEXP4.P.
    assert 50_000 < settings.sparring["switching"].horizons[0] < 51_000


def test_linear_regret_horizon_of_a_known_bound():
    # 10 sqrt(T) < 0.2 T iff sqrt(T) > 50 iff T > 2500.
    assert linear_regret_horizon(lambda t: 10 * t**0.5) == 2501


def test_the_cyclic_games_give_sparring_fpl_rounds_where_its_bound_is_half_the_margin(settings):
    (n,) = settings.cyclic_solvers.fpl_rounds
    m, margin = CYCLIC_SOLVER_ROUNDS, settings.environment.margin
    assert settings.cyclic_solvers.explore_rounds == m
    assert settings.cyclic_solvers.estimator == "skew_symmetrised"  # L = 3 for K = 3
    assert fpl_gap_bound(3.0, m, n, settings.delta) <= margin / 2
    assert fpl_gap_bound(3.0, m, n - 1, settings.delta) > margin / 2
    assert last_iterate_rounds(m, margin, settings.delta, 3.0) == n


#: The tiny config's detection section and delta (the default's): the tests run it at master
#: seed 0, the tiny workflow run at the config's seed (tests/test_workflow.py checks that
#: run's detection).
TINY = {
    "delta": DEFAULT["delta"],
    "detection": yaml.safe_load(TINY_CONFIG.read_text())["oracle"]["detection"],
}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"seeds": 0}, r"oracle\.detection\.seeds: "),
        ({"environment": {"n_bins": 3}}, r"oracle\.detection\.environment\.n_bins: "),
        ({"environment": {"margin": 0}}, r"oracle\.detection\.environment\.margin: "),
        ({"regret": {"horizon": 20000}}, r"oracle\.detection\.regret: "),
        (
            {"main_regret_fpl": {"horizon": 10, "fpl_rounds": 5}},
            r"oracle\.detection\.main_regret_fpl\.horizon: T = 10 leaves no round to exploit",
        ),
    ],
)
def test_the_section_names_the_bad_key(change, message):
    config = {**TINY, "detection": {**TINY["detection"], **change}}
    with pytest.raises(ConfigError, match=message):
        DetectionSettings.from_config(config)


def test_the_parts_run_their_estimators_and_compiled_fpl_where_informative():
    settings = DetectionSettings.from_config(TINY)
    assert settings.explore_first.estimators == ("importance_weighted",)
    assert settings.small_explore_first.estimators == ("skew_symmetrised",)
    assert settings.small_explore_first.fpl_rounds == 0
    assert settings.main_regret_fpl == RegretSettings(
        0.05, 2, (2300,), 106000, "skew_symmetrised", ("explore_exploit_fpl",), True
    )
    assert settings.main_eps_fpl.compiled_fpl and settings.main_eps_fpl.fpl_rounds == 60000


def test_the_populations_and_their_classes():
    settings = DetectionSettings.from_config(TINY)
    environment = settings.environment
    assert environment.n_policies("switching") == 4 and environment.n_policies("cyclic") == 9
    switching, cyclic = (
        detection_environment(environment, "switching"),
        detection_environment(environment, "cyclic"),
    )
    assert (switching.n_actions, cyclic.n_actions) == (2, 3)
    assert switching.n_policies == 4 and cyclic.n_policies == 9
