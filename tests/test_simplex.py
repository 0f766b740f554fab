"""The compiled revised simplex method against scipy's HiGHS on random and degenerate LPs."""

import numpy as np
import pytest
import scipy.optimize
from hypothesis import given, settings
from hypothesis import strategies as st

from cdbandits.simplex import ITERATION_LIMIT, OPTIMAL, UNBOUNDED, solve_lp


def solve(G, h, c, max_iterations=10_000):
    G = np.ascontiguousarray(G, dtype=np.float64)
    return solve_lp(
        G, np.ascontiguousarray(G.T), np.asarray(h, float), np.asarray(c, float), max_iterations
    )


@settings(max_examples=150, deadline=None)
@given(
    rows=st.integers(1, 25),
    cols=st.integers(1, 25),
    integer=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
def test_optimum_equals_highs(rows, cols, integer, seed):
    rng = np.random.default_rng(seed)
    G = rng.normal(size=(rows, cols))
    if integer:  # small integers and zero right-hand sides: many degenerate vertices
        G = np.round(2 * G)
    h = rng.uniform(0, 2, rows) * (rng.random(rows) < 0.6)
    c = rng.normal(size=cols)
    status, values, duals, _ = solve(G, h, c)
    reference = scipy.optimize.linprog(-c, A_ub=G, b_ub=h, method="highs")
    if reference.status == 3:
        assert status == UNBOUNDED
        return
    assert status == OPTIMAL
    assert values.min() >= 0 and (G @ values - h).max() <= 1e-9
    assert c @ values == pytest.approx(-reference.fun, rel=1e-9, abs=1e-9)
    # dual feasibility and complementary slackness certify the optimum independently
    assert duals.min() >= -1e-9
    assert (G.T @ duals - c).min() >= -1e-9
    assert duals @ h == pytest.approx(c @ values, rel=1e-9, abs=1e-9)


def test_long_runs_refactor_and_stay_accurate():
    """A 300 x 300 game LP needs well over REFACTOR_EVERY pivots."""
    rng = np.random.default_rng(3)
    upper = np.triu(rng.uniform(-1, 1, (300, 300)), 1)
    shifted = upper - upper.T + 2.0
    ones = np.ones(300)
    status, values, duals, iterations = solve(shifted, ones, ones, 100_000)
    assert status == OPTIMAL and iterations > 300
    assert values.sum() == pytest.approx(0.5, abs=1e-12)  # the shifted game's value is 2
    assert duals.sum() == pytest.approx(0.5, abs=1e-12)
    assert (shifted @ values).max() <= 1 + 1e-12


def test_iteration_limit_is_reported():
    rng = np.random.default_rng(4)
    upper = np.triu(rng.uniform(-1, 1, (30, 30)), 1)
    shifted = upper - upper.T + 2.0
    status, _, _, iterations = solve(shifted, np.ones(30), np.ones(30), 3)
    assert status == ITERATION_LIMIT and iterations == 3
