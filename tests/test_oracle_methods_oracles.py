"""The exact oracle on samples: answers against brute force over the class, round actions."""

import numpy as np
import pytest

from cdbandits.contextual.environments import (
    StochasticEnvironment,
    synthetic_intransitive_population,
)
from cdbandits.contextual.policies import DecisionStumps, RandomLinearPolicies
from cdbandits.oracle_methods.exploration import explore, uniform_exploration
from cdbandits.oracle_methods.oracles import ExactOracle, PolicyOracle


def test_oracle_answers_equal_brute_force_over_the_class():
    population = synthetic_intransitive_population(3, 2, 25, 0.7, np.random.default_rng(4))
    policies = RandomLinearPolicies(3, 60, random_state=1).fit(population.features)
    environment = StochasticEnvironment(population)
    sample = explore(environment, uniform_exploration(3), 500, np.random.default_rng(5))
    oracle = ExactOracle(policies, population.features, sample.context_ids)
    actions = policies.actions(population.features)
    costs = np.random.default_rng(0).normal(size=(sample.n_rounds, 3))
    on_rounds = actions[sample.context_ids]
    totals = costs[np.arange(sample.n_rounds)[:, None], on_rounds].sum(axis=0)
    answer = oracle.argmin(costs)
    assert answer.policy == int(np.argmin(totals))
    assert answer.cost == pytest.approx(totals.min(), rel=1e-12)
    assert np.array_equal(oracle.round_actions([answer.policy])[:, 0], on_rounds[:, answer.policy])
    assert oracle.n_calls_ == 1
    with pytest.raises(ValueError, match=r"costs must have shape \(m, K\)"):
        oracle.argmin(costs[:, :2])


def test_exact_oracle_works_with_a_structured_class():
    population = synthetic_intransitive_population(2, 3, 30, 0.5, np.random.default_rng(0))
    stumps = DecisionStumps(2, 5).fit(population.features)
    ids = np.array([0, 5, 5, 29, 1])
    oracle = ExactOracle(stumps, population.features, ids)
    assert oracle.distinct_ids_.tolist() == [0, 1, 5, 29]
    assert np.array_equal(oracle.round_actions([7]), stumps.actions(population.features[ids], [7]))
    with pytest.raises(IndexError):
        oracle.round_actions([stumps.n_policies])


def test_policy_table_gives_every_policy_on_the_rounds_through_their_contexts():
    population = synthetic_intransitive_population(2, 3, 30, 0.5, np.random.default_rng(0))
    stumps = DecisionStumps(2, 5).fit(population.features)
    ids = np.array([29, 0, 5, 5, 1, 29])
    oracle = ExactOracle(stumps, population.features, ids)
    context_of, table = oracle.policy_table()
    assert table.dtype == np.uint8 and table.shape == (4, stumps.n_policies)
    assert context_of.tolist() == [3, 0, 2, 2, 1, 3]  # rows of the sorted distinct contexts
    np.testing.assert_array_equal(table[context_of], oracle.round_actions(range(table.shape[1])))
    with pytest.raises(NotImplementedError, match="offers no policy table"):
        PolicyOracle.policy_table(oracle)
