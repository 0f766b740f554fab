"""The scikit-learn learners of the learned sweep: each one fits, and clones share the bins."""

import numpy as np
import pytest
from sklearn.base import clone

from cdbandits.contextual.environments import synthetic_intransitive_population
from cdbandits.contextual.policies import DecisionStumps
from cdbandits.experiments.oracle.learners import LEARNED_ORACLES, learned_estimator


@pytest.fixture(scope="module")
def stumps_and_contexts():
    population = synthetic_intransitive_population(3, 2, 40, 0.7, np.random.default_rng(2))
    return DecisionStumps(3, 5).fit(population.features), population.features


@pytest.mark.parametrize("name", LEARNED_ORACLES)
def test_every_learner_fits_the_contexts(stumps_and_contexts, name):
    stumps, X = stumps_and_contexts
    # Labels a stump on the bins can represent: action 2 left of the first feature's bin 2.
    labels = np.where(stumps.bins(X)[:, 0] < 2, 2, 0)
    estimator = learned_estimator(name, stumps).fit(X, labels)
    np.testing.assert_array_equal(estimator.predict(X), labels)


def test_clones_share_the_class_instead_of_copying_it(stumps_and_contexts):
    stumps, _ = stumps_and_contexts
    binning = learned_estimator("tree_on_bins", stumps).steps[0][1].func
    copied = clone(learned_estimator("tree_on_bins", stumps)).steps[0][1].func
    assert copied.stumps is binning.stumps is stumps


def test_unknown_learner():
    with pytest.raises(ValueError, match="learned oracle must be one of"):
        learned_estimator("forest", None)
