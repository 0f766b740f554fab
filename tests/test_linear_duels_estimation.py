"""Design-matrix updates, weighted norms and the regularised MLE against independent solvers."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import optimize

from cdbandits.linear_duels.estimation import (
    add_to_inverse,
    add_to_inverse_compiled,
    fit_mle,
    fit_mle_compiled,
    weighted_gram,
    weighted_gram_compiled,
)
from cdbandits.linear_duels.links import LINKS, link_code, loss_terms


@settings(max_examples=30)
@given(seed=st.integers(0, 2**32 - 1), d=st.integers(1, 6), n=st.integers(1, 12))
def test_sherman_morrison_matches_a_fresh_inverse(seed, d, n):
    rng = np.random.default_rng(seed)
    z = rng.standard_normal((n, d))
    inverse, compiled = np.eye(d) / 2.0, np.eye(d) / 2.0
    for row in z:
        add_to_inverse(inverse, row)
        add_to_inverse_compiled(compiled, row, np.empty(d))
    expected = np.linalg.inv(2.0 * np.eye(d) + z.T @ z)
    np.testing.assert_allclose(inverse, expected, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(compiled, inverse, rtol=1e-12, atol=1e-14)


@settings(max_examples=30)
@given(seed=st.integers(0, 2**32 - 1), k=st.integers(2, 6), d=st.integers(1, 5))
def test_weighted_gram_gives_the_weighted_norms(seed, k, d):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((k, d))
    root = rng.standard_normal((d, d))
    inverse = root @ root.T + np.eye(d)
    gram = weighted_gram(x, inverse)
    compiled = np.empty((k, k))
    weighted_gram_compiled(x, inverse, np.empty((k, d)), compiled)
    np.testing.assert_allclose(compiled, gram, rtol=1e-12, atol=1e-12)
    i, j = 0, k - 1
    difference = x[i] - x[j]
    assert gram[i, i] + gram[j, j] - 2 * gram[i, j] == pytest.approx(
        difference @ inverse @ difference, rel=1e-9, abs=1e-12
    )


def _data(seed, n=200, d=3):
    rng = np.random.default_rng(seed)
    z = rng.standard_normal((n, d))
    theta = np.array([1.5, -0.5, 0.25])[:d]
    signs = np.where(rng.random(n) < 1 / (1 + np.exp(-z @ theta)), 1.0, -1.0)
    return z, signs


@pytest.mark.parametrize("link", sorted(LINKS))
@pytest.mark.parametrize("seed", [0, 1])
def test_mle_matches_scipy_and_the_compiled_solver(link, seed):
    z, signs = _data(seed)
    l2 = 0.7

    def objective(theta):
        return loss_terms(link, signs * (z @ theta))[0].sum() + 0.5 * l2 * theta @ theta

    # an independent solver (quasi-Newton, numerical gradients) gets close; ours is no worse
    reference = optimize.minimize(objective, np.zeros(3), method="BFGS", options={"gtol": 1e-7})
    theta = fit_mle(link, z, signs, l2, np.zeros(3))
    np.testing.assert_allclose(theta, reference.x, rtol=1e-4, atol=1e-5)
    assert objective(theta) <= reference.fun + 1e-9
    compiled = np.zeros(3)
    fit_mle_compiled(link_code(link), z, signs, z.shape[0], l2, compiled)
    np.testing.assert_allclose(compiled, theta, rtol=1e-10, atol=1e-12)


def test_mle_of_one_duel_solves_the_one_dimensional_equation():
    """One duel z = (1, -1) won by a: theta = c z with c = sigma(-2 c) (by hand)."""
    z, signs = np.array([[1.0, -1.0]]), np.array([1.0])
    c = optimize.brentq(lambda c: c - 1 / (1 + np.exp(2 * c)), 0.0, 1.0, xtol=1e-15)
    np.testing.assert_allclose(fit_mle("logistic", z, signs, 1.0, np.zeros(2)), [c, -c], rtol=1e-9)


def test_separable_data_stay_finite_thanks_to_the_ridge():
    z = np.array([[1.0, 0.0], [2.0, 0.0]])
    theta = fit_mle("logistic", z, np.ones(2), 1e-3, np.zeros(2))
    assert np.isfinite(theta).all() and theta[0] > 1.0


def test_a_solver_failure_is_an_error(monkeypatch):
    import cdbandits.linear_duels.estimation as estimation

    monkeypatch.setattr(estimation, "MLE_MAX_ITERATIONS", 1)
    z, signs = _data(0)
    with pytest.raises(RuntimeError, match="did not converge"):
        estimation.fit_mle("logistic", z, signs, 1.0, np.full(3, 50.0))
