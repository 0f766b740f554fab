"""Off-the-shelf scikit-learn oracles, their reductions, and the audit against the exact oracle."""

import numpy as np
import pytest
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from cdbandits.contextual.policies import DecisionStumps
from cdbandits.oracle_methods.learned_oracle import AuditedOracle, LearnedOracle
from cdbandits.oracle_methods.oracles import ExactOracle


@pytest.fixture(scope="module")
def setting():
    rng = np.random.default_rng(0)
    contexts = rng.normal(size=(40, 2))
    context_ids = rng.integers(0, 40, size=300)
    stumps = DecisionStumps(3, 6).fit(contexts)
    return contexts, context_ids, stumps


def binned_tree(stumps, depth=1):
    return make_pipeline(
        FunctionTransformer(stumps.bins), DecisionTreeClassifier(max_depth=depth, random_state=0)
    )


def test_a_stump_learnable_cost_is_solved_exactly(setting):
    contexts, context_ids, stumps = setting
    target = 69  # feature 1, threshold 3, left action 2, right action 0
    best_actions = stumps.actions(contexts[context_ids], [target])[:, 0]
    costs = np.ones((context_ids.size, 3))
    costs[np.arange(context_ids.size), best_actions] = 0.0
    exact = ExactOracle(stumps, contexts, context_ids)
    learned = LearnedOracle(binned_tree(stumps), contexts, context_ids, 3)
    audited = AuditedOracle(learned, exact)
    answer = audited.argmin(costs)
    assert answer.cost == 0.0
    assert np.array_equal(learned.round_actions([answer.policy])[:, 0], best_actions)
    assert audited.records_[0].relative_excess == 0.0
    assert np.array_equal(
        learned.actions(contexts, [0])[:, 0], stumps.actions(contexts, [target])[:, 0]
    )


def test_weighted_reduction_minimises_cost_up_to_the_learner(setting):
    contexts, context_ids, stumps = setting
    exact = ExactOracle(stumps, contexts, context_ids)
    rng = np.random.default_rng(3)
    for reduction, estimator in [
        ("weighted_multiclass", binned_tree(stumps)),
        (
            "cost_regression",
            make_pipeline(
                FunctionTransformer(stumps.bins), DecisionTreeRegressor(max_depth=1, random_state=0)
            ),
        ),
    ]:
        audited = AuditedOracle(
            LearnedOracle(estimator, contexts, context_ids, 3, reduction), exact
        )
        for _ in range(20):
            answer = audited.argmin(rng.normal(size=(context_ids.size, 3)))
            on_rounds = audited.round_actions([answer.policy])[:, 0]
        assert answer.cost == pytest.approx(audited.records_[-1].cost)
        assert len(audited.records_) == 20 and audited.n_calls_ == 20
        excess = np.array([record.relative_excess for record in audited.records_])
        assert (excess <= 1).all()
        if reduction == "weighted_multiclass":
            # A depth-1 tree on bin indices is a stump of the class: never better than exact.
            assert (excess >= -1e-12).all()
        assert on_rounds.shape == (context_ids.size,)


def test_constant_and_degenerate_costs(setting):
    contexts, context_ids, stumps = setting
    learned = LearnedOracle(binned_tree(stumps), contexts, context_ids, 3)
    assert learned.argmin(np.zeros((context_ids.size, 3))).cost == 0.0
    costs = np.tile([1.0, 0.0, 2.0], (context_ids.size, 1))
    answer = learned.argmin(costs)
    assert answer.cost == 0.0 and set(learned.round_actions([answer.policy])[:, 0]) == {1}
    with pytest.raises(IndexError):
        learned.round_actions([5])
    with pytest.raises(ValueError, match="reduction must be one of"):
        LearnedOracle(binned_tree(stumps), contexts, context_ids, 3, "one_against_all")
