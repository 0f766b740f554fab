"""The broken SparringEXP4.P kernel is the library's round with exactly one bug."""

import numpy as np
import pytest

from cdbandits.contextual.exp4p import SparringExp4P
from cdbandits.contextual.oracle import ActionTable
from cdbandits.contextual.regret import regret_curve
from cdbandits.experiments.oracle.broken_sparring import (
    BUGS,
    BrokenSparring,
    broken_sparring,
    exploring_sparring,
    fixed_arm_regret,
)
from cdbandits.experiments.oracle.environment import cyclic_population, environment_of

HORIZON = 3000


@pytest.fixture(scope="module")
def setting():
    environment = environment_of(cyclic_population(10, 0.8), 2)
    table = ActionTable(np.ascontiguousarray(environment.actions), 3)
    return environment, table


def run(kind, setting, seed=3):
    environment, table = setting
    algorithm = kind(table, 0.05)
    log = algorithm.run(environment.environment, HORIZON, np.random.default_rng(seed))
    return algorithm, log


class _NoBug(BrokenSparring):
    bug = "none"


def test_without_a_bug_the_kernel_plays_the_librarys_rounds(setting, monkeypatch):
    monkeypatch.setitem(BUGS, "none", 0)
    library, expected = run(SparringExp4P, setting)
    ours, log = run(_NoBug, setting)
    np.testing.assert_array_equal(log.first_actions, expected.first_actions)
    np.testing.assert_array_equal(log.second_actions, expected.second_actions)
    np.testing.assert_array_equal(ours.row_.log_weights_, library.row_.log_weights_)
    np.testing.assert_array_equal(ours.column_.log_weights_, library.column_.log_weights_)
    np.testing.assert_array_equal(
        ours.mean_policy_distribution()[0], library.mean_policy_distribution()[0]
    )


@pytest.mark.parametrize("bug", sorted(BUGS))
def test_each_bug_changes_the_play(setting, bug):
    _, expected = run(SparringExp4P, setting)
    broken, log = run(broken_sparring(bug), setting)
    assert not np.array_equal(log.second_actions, expected.second_actions)
    if bug == "frozen_column":
        assert (broken.column_.log_weights_ == 0).all()  # never updated
        assert not (broken.row_.log_weights_ == 0).all()


def test_exploring_sparring_mixes_in_the_exploration_it_is_given(setting):
    environment, table = setting
    half = exploring_sparring(exploration=0.5)(table, 0.05)
    half.run(environment.environment, HORIZON, np.random.default_rng(0))
    assert half.row_.p_min_ == half.column_.p_min_ == pytest.approx(0.5 / 3)
    scaled = exploring_sparring(scale=4.0)(table, 0.05)
    scaled.run(environment.environment, HORIZON, np.random.default_rng(0))
    library = SparringExp4P(table, 0.05)
    library.run(environment.environment, HORIZON, np.random.default_rng(0))
    assert scaled.row_.p_min_ == pytest.approx(4.0 * library.row_.p_min_)
    with pytest.raises(ValueError, match="K p_min <= 1"):
        exploring_sparring(scale=1e4)(table, 0.05).run(
            environment.environment, HORIZON, np.random.default_rng(0)
        )
    with pytest.raises(ValueError, match="unknown bug"):
        broken_sparring("typo")


def test_the_fixed_arm_regret_is_at_most_the_policy_regret(setting):
    environment, _ = setting
    _, log = run(SparringExp4P, setting)
    oracle = environment.population_oracle
    fixed = fixed_arm_regret(log, oracle, [100, HORIZON])
    np.testing.assert_array_less(fixed, regret_curve(log, oracle, [100, HORIZON]) + 1e-9)
