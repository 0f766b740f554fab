"""MaxInP: a hand-computed instance, its width, and that it learns (and a broken copy not)."""

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

from cdbandits.linear_duels import MaxInP
from cdbandits.linear_duels.contextual import action_features
from cdbandits.linear_duels.maxinp import maxinp_width

ARMS = np.array([[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]])


def test_width_formula():
    assert maxinp_width(2, 2, 0.05, 1.0) == pytest.approx(math.sqrt(math.log(3) + math.log(20)))


def test_hand_computed_rounds():
    """No exploration, refit every round, lambda = 1."""
    algorithm = MaxInP(exploration_rounds=0, refit_growth=1, width_scale=0.1)
    algorithm.start(3, 2, np.random.default_rng(0), horizon=10)
    # round 1: theta = 0, everything is a candidate; the widest pair is (e_1, e_2) (sqrt 2)
    assert algorithm.select(ARMS) == (0, 1)
    assert algorithm.candidates_.all()
    algorithm.update(0, 1, 0)  # arm 1 won: theta = c (-1, 1) with c = sigma(-2 c)
    c = optimize.brentq(lambda c: c - 1 / (1 + math.exp(2 * c)), 0, 1, xtol=1e-15)
    np.testing.assert_allclose(algorithm.theta_, [-c, c], rtol=1e-9)
    # round 2: utilities (-c, c, 0); every spread is sqrt(2/3) under W^-1 = [[2, 1], [1, 2]]/3;
    # beta_2 sqrt(2/3) = 0.165 < c = 0.337, so only arm 1 stays a candidate: a self-duel
    beta = maxinp_width(2, 2, 0.05, 0.1)
    assert beta * math.sqrt(2 / 3) < c
    assert algorithm.select(ARMS) == (1, 1)
    np.testing.assert_array_equal(algorithm.candidates_, [False, True, False])
    algorithm.update(1, 1, 1)  # a self-duel teaches nothing
    assert algorithm.n_observations_ == 1
    # a wide confidence keeps every arm: the first widest pair is played again
    wide = MaxInP(exploration_rounds=0, refit_growth=1, width_scale=10.0)
    wide.start(3, 2, np.random.default_rng(0), horizon=10)
    wide.select(ARMS)
    wide.update(0, 1, 0)
    a, b = wide.select(ARMS)
    assert wide.candidates_.all() and a < b


def test_bad_hyper_parameters_are_named():
    with pytest.raises(ValueError, match="delta"):
        MaxInP(delta=1.5)
    with pytest.raises(ValueError, match="width_scale"):
        MaxInP(width_scale=-1.0)


def test_learns_on_an_easy_instance_and_a_flipped_update_does_not():
    slopes, shares = learning_measures(MaxInP, range(3))
    assert (slopes < SLOPE_LEARNS).all() and (shares > SHARE_LEARNS).all()
    slopes, shares = learning_measures(flipped(MaxInP), range(2))
    assert (slopes > SLOPE_BROKEN).all() and (shares < SHARE_BROKEN).all()


def test_the_kernel_plays_the_numpy_duels_with_narrow_widths():
    """Narrow widths (candidate sets of every size) on a population: the kernel on a
    schedule plays the NumPy round's duels."""
    population = random_population(np.random.default_rng(11), 8, 4, 6)
    phi = action_features(population.features, 4)
    assert_same_population_runs("maxinp", population, phi, 900, seed=5, width_scale=0.2, delta=0.2)
