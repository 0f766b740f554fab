"""The compiled revised simplex method against scipy's HiGHS on random and degenerate LPs."""

import numpy as np
import pytest
import scipy.optimize
from hypothesis import given, settings
from hypothesis import strategies as st

from cdbandits.simplex import (
    ITERATION_LIMIT,
    OPTIMAL,
    UNBOUNDED,
    add_columns,
    new_basis,
    solve_lp,
    solve_lp_from,
)


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


@settings(max_examples=80, deadline=None)
@given(
    rows=st.integers(1, 20),
    cols=st.integers(2, 24),
    first=st.integers(1, 23),
    seed=st.integers(0, 2**32 - 1),
)
def test_columns_added_to_an_optimal_basis_reach_the_full_optimum(rows, cols, first, seed):
    """Column generation: solve on the first columns, add the rest, go on from the basis."""
    first = min(first, cols - 1)
    rng = np.random.default_rng(seed)
    G = np.round(2 * rng.normal(size=(rows, cols))) + 2.0 * (rng.random() < 0.5)
    h = rng.uniform(0, 2, rows) * (rng.random(rows) < 0.7)
    c = rng.normal(size=cols)
    reference = scipy.optimize.linprog(-c, A_ub=G, b_ub=h, method="highs")
    basis = new_basis(rows, first, min(rows, cols), h)
    part = np.ascontiguousarray(G[:, :first])
    status, _, _ = solve_lp_from(part, np.ascontiguousarray(part.T), h, c[:first], 10_000, basis)
    if status == UNBOUNDED:
        assert reference.status == 3
        return
    assert status == OPTIMAL
    basis = add_columns(basis, cols - first)
    status, duals, _ = solve_lp_from(G, np.ascontiguousarray(G.T), h, c, 10_000, basis)
    if reference.status == 3:
        assert status == UNBOUNDED
        return
    values = basis[5]
    assert status == OPTIMAL
    assert values.min() >= 0 and (G @ values - h).max() <= 1e-9
    assert c @ values == pytest.approx(-reference.fun, rel=1e-9, abs=1e-9)
    assert (G.T @ duals - c).min() >= -1e-9 and duals.min() >= -1e-9
