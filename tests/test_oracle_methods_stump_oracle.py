"""The compressed stump oracle equals the table oracle; its size follows the contexts, not bins."""

import numpy as np
import pytest

from cdbandits.contextual.oracle import TableOracle
from cdbandits.contextual.policies import DecisionStumps
from cdbandits.oracle_methods.stump_oracle import CompressedStumpOracle


def test_same_answers_as_the_table_oracle_on_integer_costs():
    rng = np.random.default_rng(0)
    for trial in range(120):
        n_contexts, n_features = int(rng.integers(1, 25)), int(rng.integers(1, 4))
        n_actions, n_bins = int(rng.integers(2, 5)), int(rng.integers(2, 12))
        X = rng.normal(size=(n_contexts, n_features))
        if trial % 3 == 0:
            X = np.round(X)  # many contexts share a bin
        stumps = DecisionStumps(n_actions, n_bins).fit(rng.normal(size=(50, n_features)))
        costs = rng.integers(-3, 4, size=(n_contexts, n_actions)).astype(float)
        # Integer costs make totals exact, so even the tie-breaking must agree.
        assert CompressedStumpOracle(stumps, X).argmin(costs) == TableOracle(
            stumps.action_table(X)
        ).argmin(costs)


def test_real_costs_batches_and_totals():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(40, 3))
    stumps = DecisionStumps(4, 9).fit(X)
    oracle = CompressedStumpOracle(stumps, X)
    table = TableOracle(stumps.action_table(X))
    costs = rng.normal(size=(3, 40, 4))
    for fast, reference in zip(oracle.argmin_batch(costs), table.argmin_batch(costs), strict=True):
        assert fast.cost == pytest.approx(reference.cost, abs=1e-12)
        assert fast.policy == reference.policy
    np.testing.assert_allclose(
        oracle.total_costs(costs[0]), table.total_costs(costs[0]), atol=1e-12
    )


def test_candidates_depend_on_the_contexts_not_the_bins():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(200, 2))
    few = CompressedStumpOracle(DecisionStumps(3, 11).fit(X), X[:30])
    many = CompressedStumpOracle(DecisionStumps(3, 100_001).fit(X), X[:30])
    assert many.n_policies == 2 * 100_000 * 9
    assert many.n_candidates <= 2 * 31
    assert few.n_candidates <= 2 * 31
