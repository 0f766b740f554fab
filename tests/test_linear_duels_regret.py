"""Regret measures: by hand, von Neumann = 2 x preference under LST (with the LP), hindsight."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cdbandits.karmed.regret import condorcet_regret
from cdbandits.linear_duels import (
    context_von_neumann_winners,
    hindsight_regret,
    linear_environment,
    make_algorithm,
    preference_regret,
    regret_table,
    simulate,
    synthetic_linear_environment,
    utility_regret,
    von_neumann_regret,
)


def test_hand_computed_measures():
    features = np.array([[[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]]])
    environment = linear_environment(features, [2.0, -1.0])  # utilities 2, -1, 0
    counts = np.array([[1, 2, 1]])  # e.g. duels (0, 1) and (1, 2)
    assert utility_regret(environment, counts) == pytest.approx((0 + 2 * 3 + 2) / 2)
    q = 1 / (1 + np.exp(-np.array([0.0, 3.0, 2.0])))  # Q(best, i)
    assert preference_regret(environment, counts) == pytest.approx(
        (1 * (q[0] - 0.5) + 2 * (q[1] - 0.5) + (q[2] - 0.5)) / 2
    )


@settings(max_examples=8)
@given(seed=st.integers(0, 2**32 - 1), link=st.sampled_from(["logistic", "probit"]))
def test_von_neumann_regret_is_twice_the_preference_regret(seed, link):
    """Under LST the vNW of every context (computed by the LP) is its best arm."""
    rng = np.random.default_rng(seed)
    environment = synthetic_linear_environment(6, 5, 3, rng, link=link)
    counts = rng.integers(0, 50, size=(3, 6, 5))
    winners = context_von_neumann_winners(environment)
    vn = von_neumann_regret(environment, counts, winners)
    np.testing.assert_allclose(vn, 2 * preference_regret(environment, counts), rtol=1e-6)
    # per context it is karmed's Condorcet regret (probability units) times two
    for x, p in enumerate(environment.skew_matrices()):
        single = von_neumann_regret(environment, np.eye(6)[x][:, None] * counts[0][x])
        assert single == pytest.approx(2 * condorcet_regret(p, counts[0][x]), rel=1e-6)
    # rd1 in hindsight takes the best arm per context: at least the vNW's regret
    assert (hindsight_regret(environment, counts) >= vn - 1e-9).all()


def test_the_identity_fails_for_a_mixture_that_is_not_the_winner():
    """The check above can fail: weights on the second-best arm of each context break it."""
    environment = synthetic_linear_environment(6, 5, 3, np.random.default_rng(3))
    counts = np.random.default_rng(4).integers(0, 50, size=(6, 5))
    second = np.argsort(environment.utilities, axis=1)[:, -2]
    wrong = np.eye(5)[second]
    assert not np.isclose(
        von_neumann_regret(environment, counts, wrong), 2 * preference_regret(environment, counts)
    )


def test_regret_table_columns_and_monotonicity():
    environment = synthetic_linear_environment(20, 5, 3, np.random.default_rng(0))
    result = simulate(
        make_algorithm("maxinp"), environment, 600, np.random.default_rng(1), [100, 300, 600]
    )
    table = regret_table(environment, result)
    assert list(table.columns) == ["round", "utility", "weak", "preference", "von_neumann",
                                   "hindsight"]  # fmt: skip
    for column in table.columns[1:]:
        assert (np.diff(table[column]) >= -1e-9).all(), column
    np.testing.assert_allclose(table.von_neumann, 2 * table.preference, rtol=1e-6)
    assert (table.weak <= table.utility + 1e-9).all()


def test_bad_counts_are_named():
    environment = synthetic_linear_environment(2, 3, 2, np.random.default_rng(0))
    with pytest.raises(ValueError, match="arm_counts must have shape"):
        utility_regret(environment, np.zeros((3, 3)))
