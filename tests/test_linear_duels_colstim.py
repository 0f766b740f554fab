"""CoLSTIM: a hand-computed instance, its defaults, and that it learns (and a broken copy not)."""

import math

import numpy as np
import pytest
from linear_duels_cases import (
    SHARE_BROKEN,
    SHARE_LEARNS,
    SLOPE_BROKEN,
    SLOPE_LEARNS,
    assert_same_population_runs,
    flipped,
    learning_measures,
    random_population,
)
from scipy import optimize

from cdbandits.linear_duels import CoLSTIM
from cdbandits.linear_duels.contextual import action_features

#: Three arms in two dimensions: e_1, e_2 and the origin.
ARMS = np.array([[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]])


def gumbel(u):
    return -math.log(-math.log(u))


def test_hand_computed_rounds():
    """No exploration, C = c_1 = 1, lambda = 1, refit every round."""
    algorithm = CoLSTIM(threshold=1.0, confidence_width=1.0, exploration_rounds=0, refit_growth=1)
    algorithm.start(3, 2, np.random.default_rng(5), horizon=10)
    draws = np.random.default_rng(5).random(6)
    # round 1: theta = 0, W^-1 = I: scores eps_i |x_i| = (eps_0, eps_1, 0), trimmed to [-1, 1]
    noise = np.clip([gumbel(u) for u in draws[:3]], -1, 1)
    a = int(np.argmax([noise[0], noise[1], 0.0]))
    # second arm: 0 + |x_j - x_a|: the other unit vector (sqrt 2) beats the origin (1)
    expected_b = {0: 1, 1: 0, 2: 0}[a]
    assert algorithm.select(ARMS) == (a, expected_b)
    np.testing.assert_allclose(algorithm.perturbations_, noise)
    algorithm.update(a, expected_b, 1)
    # W = I + z z^T with z = x_a - x_b; theta = c z with c = sigma(-|z|^2 c) (one duel, won)
    z = ARMS[a] - ARMS[expected_b]
    np.testing.assert_allclose(algorithm.gram_inverse_, np.linalg.inv(np.eye(2) + np.outer(z, z)))
    norm2 = z @ z
    c = optimize.brentq(lambda c: c - 1 / (1 + math.exp(norm2 * c)), 0, 1, xtol=1e-15)
    np.testing.assert_allclose(algorithm.theta_, c * z, rtol=1e-9)
    # round 2, by hand from the estimate
    noise = np.clip([gumbel(u) for u in draws[3:]], -1, 1)
    inverse = algorithm.gram_inverse_
    utilities = ARMS @ (c * z)
    norms = np.sqrt([x @ inverse @ x for x in ARMS])
    a2 = int(np.argmax(utilities + noise * norms))
    spreads = np.sqrt([(x - ARMS[a2]) @ inverse @ (x - ARMS[a2]) for x in ARMS])
    b2 = int(np.argmax(utilities + spreads))
    assert algorithm.select(ARMS) == (a2, b2)


def test_exploration_draws_distinct_uniform_pairs():
    algorithm = CoLSTIM(exploration_rounds=500).start(4, 2, np.random.default_rng(0), 500)
    pairs = []
    features = np.random.default_rng(1).standard_normal((4, 2))
    for _ in range(500):
        a, b = algorithm.select(features)
        algorithm.update(a, b, 1)
        pairs.append((a, b))
    pairs = np.array(pairs)
    assert (pairs[:, 0] != pairs[:, 1]).all()
    counts = np.bincount(pairs[:, 0] * 4 + pairs[:, 1], minlength=16).reshape(4, 4)
    assert counts[~np.eye(4, dtype=bool)].min() > 20  # 12 pairs, 41.7 expected each


def test_defaults_follow_the_paper():
    algorithm = CoLSTIM().start(5, 3, np.random.default_rng(0), horizon=1000)
    assert algorithm.threshold_ == pytest.approx(math.sqrt(3 * math.log(1000)))
    assert algorithm.confidence_width_ == algorithm.threshold_
    assert algorithm.tau_ == 15


def test_bad_hyper_parameters_are_named():
    with pytest.raises(ValueError, match="threshold"):
        CoLSTIM(threshold=0.0)
    with pytest.raises(ValueError, match="refit_growth"):
        CoLSTIM(refit_growth=0.5)
    with pytest.raises(ValueError, match="unknown link"):
        CoLSTIM(link="cauchy")
    algorithm = CoLSTIM().start(3, 2, np.random.default_rng(0), 10)
    with pytest.raises(ValueError, match=r"\(3, 2\) array"):
        algorithm.select(np.zeros((2, 2)))


def test_learns_on_an_easy_instance_and_a_flipped_update_does_not():
    slopes, shares = learning_measures(CoLSTIM, range(3))
    assert (slopes < SLOPE_LEARNS).all() and (shares > SHARE_LEARNS).all()
    slopes, shares = learning_measures(flipped(CoLSTIM), range(2))
    assert (slopes > SLOPE_BROKEN).all() and (shares < SHARE_BROKEN).all()


def test_the_kernel_plays_the_numpy_duels_with_probit_noise():
    """Probit noise, trimmed perturbations, on a population: the kernel on a schedule
    plays the NumPy round's duels."""
    population = random_population(np.random.default_rng(11), 8, 4, 6)
    phi = action_features(population.features, 4)
    assert_same_population_runs(
        "colstim", population, phi, 900, seed=5, link="probit", threshold=0.5, confidence_width=0.3
    )
