"""The packed-table classification oracle against brute force."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cdbandits.contextual.oracle import (
    ActionTable,
    TableOracle,
    aggregate_costs,
    contexts_per_byte,
)


def brute_totals(actions: np.ndarray, costs: np.ndarray) -> np.ndarray:
    """sum_i costs[i, actions[i, pi]] for every policy, one policy at a time."""
    rows = np.arange(actions.shape[0])
    return np.array([costs[rows, actions[:, pi]].sum() for pi in range(actions.shape[1])])


@st.composite
def instances(draw):
    """A random table and a batch of small-integer costs (every sum exact in float64)."""
    k = draw(st.integers(1, 20))
    n_contexts = draw(st.integers(1, 40))
    n_policies = draw(st.integers(1, 60))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    actions = rng.integers(0, k, (n_contexts, n_policies), dtype=np.uint8)
    if draw(st.booleans()):  # duplicated policies create exact ties
        actions[:, n_policies // 2 :] = actions[:, : n_policies - n_policies // 2]
    costs = rng.integers(-4, 5, (draw(st.integers(1, 3)), n_contexts, k)).astype(np.float64)
    block = draw(st.sampled_from([1, 7, 64, 4096]))
    return actions, k, costs, block


@settings(max_examples=150, deadline=None)
@given(instances())
def test_oracle_equals_brute_force_on_integer_costs(instance):
    actions, k, costs, block = instance
    oracle = TableOracle(ActionTable(actions, k), block_size=block)
    expected = np.stack([brute_totals(actions, c) for c in costs])
    np.testing.assert_array_equal(oracle.total_costs(costs), expected)
    np.testing.assert_array_equal(oracle.total_costs(costs[0]), expected[0])
    answers = oracle.argmin_batch(costs)
    for answer, row in zip(answers, expected, strict=True):
        assert answer.policy == int(np.argmin(row))  # the smallest index among ties
        assert answer.cost == row.min()
    assert oracle.argmin(costs[0]) == answers[0]


@pytest.mark.parametrize("k", [2, 3, 5, 6, 7, 16, 17])
def test_oracle_matches_brute_force_on_real_costs(k):
    rng = np.random.default_rng(k)
    actions = rng.integers(0, k, (301, 500), dtype=np.uint8)
    costs = rng.standard_normal((301, k))
    oracle = TableOracle(ActionTable(actions, k), block_size=128)
    totals = oracle.total_costs(costs)
    expected = brute_totals(actions, costs)
    np.testing.assert_allclose(totals, expected, rtol=0, atol=1e-11)
    answer = oracle.argmin(costs)
    assert expected[answer.policy] <= expected.min() + 1e-11


def test_identical_policies_get_identical_totals():
    rng = np.random.default_rng(0)
    column = rng.integers(0, 5, (1000, 1), dtype=np.uint8)
    actions = np.ascontiguousarray(np.repeat(column, 9, axis=1))
    totals = TableOracle(ActionTable(actions, 5), block_size=4).total_costs(
        rng.standard_normal((1000, 5))
    )
    assert np.all(totals == totals[0])


@pytest.mark.parametrize(
    ("k", "group"), [(1, 8), (2, 8), (3, 5), (4, 4), (5, 3), (6, 3), (7, 2), (16, 2), (17, 1)]
)
def test_contexts_per_byte(k, group):
    assert contexts_per_byte(k) == group
    assert k**group <= 256


def test_aggregate_costs_sums_per_context():
    costs = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    aggregated = aggregate_costs(costs, [2, 0, 2], 4)
    np.testing.assert_array_equal(aggregated, [[3, 4], [0, 0], [6, 8], [0, 0]])
    with pytest.raises(ValueError, match="0..3"):
        aggregate_costs(costs, [0, 1, 4], 4)


def test_oracle_on_aggregated_costs_equals_oracle_on_samples():
    rng = np.random.default_rng(3)
    population = rng.integers(0, 4, (20, 50), dtype=np.uint8)
    sample_ids = rng.integers(0, 20, 200)
    sample_costs = rng.integers(-3, 4, (200, 4)).astype(float)
    over_samples = TableOracle(ActionTable(np.ascontiguousarray(population[sample_ids]), 4))
    over_population = TableOracle(ActionTable(population, 4))
    np.testing.assert_array_equal(
        over_samples.total_costs(sample_costs),
        over_population.total_costs(aggregate_costs(sample_costs, sample_ids, 20)),
    )


def test_action_table_rejects_bad_input():
    with pytest.raises(TypeError, match="uint8"):
        ActionTable(np.zeros((2, 3), dtype=np.int64), 2)
    with pytest.raises(ValueError, match="takes action 3 on context 1"):
        ActionTable(np.array([[0, 1], [3, 0]], dtype=np.uint8), 3)
    with pytest.raises(ValueError, match="C-contiguous"):
        ActionTable(np.zeros((4, 3), dtype=np.uint8).T, 2)


def test_oracle_rejects_wrong_cost_shape():
    oracle = TableOracle(ActionTable(np.zeros((3, 4), dtype=np.uint8), 2))
    with pytest.raises(ValueError, match=r"\(3, 2\)"):
        oracle.argmin(np.zeros((3, 3)))
    with pytest.raises(ValueError, match="finite"):
        oracle.argmin(np.full((3, 2), np.nan))
