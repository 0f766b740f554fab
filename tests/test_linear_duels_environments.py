"""Linear environments: validation, preference matrices, winners, contexts, LETOR."""

import numpy as np
import pytest
from conftest import find_data_mirror
from hypothesis import given, settings
from hypothesis import strategies as st

from cdbandits.letor import read_letor
from cdbandits.linear_duels import (
    LinearDuelingEnvironment,
    letor_linear_environment,
    linear_environment,
    synthetic_linear_environment,
)
from cdbandits.linear_duels.environments import draw_context, draw_context_compiled
from cdbandits.winners import condorcet_winner, von_neumann_winner

TRAIN = "mslr-web-rankeval-5k/msn1.fold1.train.5k.txt"


def test_hand_instance_preferences():
    features = np.array([[[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]]])
    environment = linear_environment(features, [2.0, -1.0])
    np.testing.assert_allclose(environment.utilities, [[2.0, -1.0, 0.0]])
    q = environment.win_probabilities()[0]
    assert q[0, 1] == pytest.approx(1 / (1 + np.exp(-3.0)))
    np.testing.assert_allclose(np.diag(q), 0.5)
    p = environment.skew_matrices()[0]
    np.testing.assert_array_equal(p, -p.T)
    np.testing.assert_allclose(p, 2 * q - 1, atol=1e-15)


@settings(max_examples=15)
@given(seed=st.integers(0, 2**32 - 1), link=st.sampled_from(["logistic", "probit"]))
def test_best_arm_is_condorcet_and_von_neumann_winner(seed, link):
    environment = synthetic_linear_environment(3, 5, 3, np.random.default_rng(seed), link=link)
    for context, p in enumerate(environment.skew_matrices()):
        best = int(np.argmax(environment.utilities[context]))
        assert condorcet_winner(p) == best
        np.testing.assert_allclose(von_neumann_winner(p).weights, np.eye(5)[best], atol=1e-7)


def test_synthetic_utilities_have_the_requested_scale():
    environment = synthetic_linear_environment(
        400, 20, 10, np.random.default_rng(0), utility_scale=2.0
    )
    assert environment.utilities.std() == pytest.approx(2.0, rel=0.05)
    assert np.linalg.norm(environment.theta) == pytest.approx(2.0 * np.sqrt(10))


@given(weights=st.lists(st.floats(0.0, 5.0), min_size=1, max_size=8), u=st.floats(0.0, 0.999999))
def test_context_draws_agree(weights, u):
    if sum(weights) == 0:
        weights[0] = 1.0
    cumulative = np.cumsum(np.array(weights) / sum(weights))
    assert draw_context(cumulative, u) == draw_context_compiled(cumulative, u)


def test_bad_inputs_are_named():
    features = np.zeros((2, 3, 2))
    with pytest.raises(ValueError, match="theta"):
        linear_environment(features, [1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="utilities of context 1"):
        utilities = np.zeros((2, 3))
        utilities[1, 2] = np.nan
        LinearDuelingEnvironment(features, utilities, np.full(2, 0.5), "logistic")
    with pytest.raises(ValueError, match="unknown link"):
        LinearDuelingEnvironment(features, np.zeros((2, 3)), np.full(2, 0.5), "cauchy")
    with pytest.raises(ValueError, match="differ from features @ theta"):
        LinearDuelingEnvironment(
            features, np.ones((2, 3)), np.full(2, 0.5), "logistic", np.zeros(2)
        )


@pytest.fixture(scope="module")
def train():
    mirror = find_data_mirror()
    if mirror is None or not (mirror / TRAIN).exists():
        pytest.skip("the MSLR sample of the data mirror is not available")
    return read_letor(mirror / TRAIN, last_query="drop")


def test_letor_fitted_environment_is_linear_and_ranks_relevant_documents_higher(train):
    environment = letor_linear_environment(train, 10, 8, np.random.default_rng(0))
    assert environment.features.shape == (train.n_queries, 10, 8)
    assert environment.theta is not None
    rows = environment.features.reshape(-1, 8)
    assert (rows**2).sum(axis=1).mean() == pytest.approx(1.0, abs=0.2)
    # the fitted utilities order documents of different grades mostly as the grades do
    concordant = discordant = 0
    chosen_labels = letor_linear_environment(
        train, 10, 8, np.random.default_rng(0), utility="labels"
    ).utilities
    for u, grade in zip(environment.utilities, chosen_labels, strict=True):
        better = grade[:, None] > grade[None, :]
        concordant += (better & (u[:, None] > u[None, :])).sum()
        discordant += (better & (u[:, None] < u[None, :])).sum()
    assert concordant > 1.5 * discordant


def test_letor_label_environment_is_misspecified(train):
    environment = letor_linear_environment(
        train, 10, 5, np.random.default_rng(0), utility="labels", label_scale=2.0
    )
    assert environment.theta is None
    assert set(np.unique(environment.utilities)) <= {0.0, 2.0, 4.0, 6.0, 8.0}
    with pytest.raises(ValueError, match="no query"):
        letor_linear_environment(train, 400, 5, np.random.default_rng(0))
