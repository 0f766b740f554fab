"""Policy classes: definitions of the actions, and the stump oracle against the table oracle."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cdbandits.contextual.oracle import TableOracle
from cdbandits.contextual.policies import DecisionStumps, RandomLinearPolicies


def test_stumps_follow_their_definition():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((50, 3))
    stumps = DecisionStumps(n_actions=3, n_bins=4).fit(X)
    assert stumps.n_policies == 3 * 3 * 9
    actions = stumps.actions(X)
    assert actions.shape == (50, stumps.n_policies) and actions.flags.c_contiguous
    edges = np.quantile(X, [0.25, 0.5, 0.75], axis=0)
    for policy in rng.integers(0, stumps.n_policies, 30):
        feature, threshold, left, right = (int(v[0]) for v in stumps.parameters([policy]))
        bins = np.searchsorted(edges[:, feature], X[:, feature], side="right")
        np.testing.assert_array_equal(actions[:, policy], np.where(bins < threshold, left, right))
    assert "feature" in stumps.describe(5)


def test_stump_ids_enumerate_feature_threshold_left_right():
    stumps = DecisionStumps(n_actions=2, n_bins=3).fit(np.arange(12.0).reshape(6, 2))
    feature, threshold, left, right = stumps.parameters([0, 1, 2, 4, 8])
    assert feature.tolist() == [0, 0, 0, 0, 1]
    assert threshold.tolist() == [1, 1, 1, 2, 1]
    assert left.tolist() == [0, 0, 1, 0, 0]
    assert right.tolist() == [0, 1, 0, 0, 0]


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    k=st.integers(2, 6),
    n_bins=st.integers(2, 6),
    n_contexts=st.integers(1, 30),
    batch=st.integers(1, 3),
)
def test_stump_oracle_equals_table_oracle(seed, k, n_bins, n_contexts, batch):
    rng = np.random.default_rng(seed)
    X = rng.integers(-2, 3, (n_contexts, 3)).astype(float)  # repeated values: empty bins
    stumps = DecisionStumps(k, n_bins).fit(X)
    costs = rng.integers(-5, 6, (batch, n_contexts, k)).astype(float)
    structured = stumps.oracle(X)
    table = TableOracle(stumps.action_table(X))
    np.testing.assert_array_equal(structured.total_costs(costs), table.total_costs(costs))
    assert structured.argmin_batch(costs) == table.argmin_batch(costs)


def test_random_linear_policies_are_argmax_of_their_coefficients():
    rng = np.random.default_rng(1)
    X = rng.standard_normal((40, 4)) * [1.0, 10.0, 0.1, 0.0] + 3.0
    policies = RandomLinearPolicies(n_actions=5, n_policies=700, random_state=7, block_size=256)
    policies.fit(X)
    actions = policies.actions(X)
    assert actions.shape == (40, 700) and actions.dtype == np.uint8
    standardised = (X - X.mean(axis=0)) / np.where(X.std(axis=0) > 0, X.std(axis=0), 1.0)
    for policy in (0, 255, 256, 699):
        weights, bias = policies.coefficients(policy)
        np.testing.assert_array_equal(
            actions[:, policy], np.argmax(standardised @ weights + bias, axis=1)
        )
    subset = [699, 3, 300, 3]
    np.testing.assert_array_equal(policies.actions(X, subset), actions[:, subset])
    assert 0.1 < np.bincount(actions.ravel(), minlength=5).min() / actions.size  # all used


def test_random_linear_class_is_reproducible_from_its_seed():
    X = np.random.default_rng(2).standard_normal((10, 3))
    first = RandomLinearPolicies(3, 100, random_state=11).fit(X).actions(X)
    second = RandomLinearPolicies(3, 100, random_state=11).fit(X).actions(X)
    other = RandomLinearPolicies(3, 100, random_state=12).fit(X).actions(X)
    np.testing.assert_array_equal(first, second)
    assert not np.array_equal(first, other)


def test_policy_classes_reject_bad_input():
    X = np.zeros((5, 2))
    with pytest.raises(ValueError, match="n_bins"):
        DecisionStumps(3, n_bins=1).fit(X)
    stumps = DecisionStumps(3).fit(X)
    with pytest.raises(ValueError, match="fitted on 2"):
        stumps.actions(np.zeros((5, 3)))
    with pytest.raises(IndexError, match="policy indices"):
        stumps.actions(X, [stumps.n_policies])
    with pytest.raises(ValueError, match="non-finite"):
        RandomLinearPolicies(3, 10, 0).fit(np.array([[0.0, np.inf]]))
