"""Each broken estimator, solver and exploitation differs from the library's by its bug only."""

import numpy as np
import pytest
from informative_game import informative_game

from cdbandits.experiments.oracle.broken_solvers import (
    LastIterateFPL,
    MaximisingFPL,
    broken_scheme,
    copeland_maxmin,
    exploit_heaviest_policy,
    exploit_one_draw,
    scaled_fpl,
    scaled_pgd,
)
from cdbandits.experiments.oracle.budgets import scheme_of
from cdbandits.experiments.oracle.environment import cyclic_population, environment_of
from cdbandits.oracle_methods.explore_exploit import exploit
from cdbandits.oracle_methods.fpl import SparringFPL
from cdbandits.oracle_methods.ground_truth import maxmin_strategy
from cdbandits.oracle_methods.hull import PolicyMixture
from cdbandits.oracle_methods.pgd import ProjectedGD

FIRST, SECOND, OUTCOMES = np.array([0, 2, 1, 1]), np.array([1, 0, 2, 1]), np.array([1, -1, -1, 1])


@pytest.mark.parametrize("estimator", ["importance_weighted", "skew_symmetrised"])
def test_the_estimator_bugs(estimator):
    correct = scheme_of(estimator, 3).estimate_entries(FIRST, SECOND, OUTCOMES)
    rounds, rows, columns, values = correct

    def broken(bug, factor=1.0):
        scheme = broken_scheme(bug, factor)(estimator, 3)
        assert (scheme.bound, scheme.variance_bound) == (
            scheme_of(estimator, 3).bound,
            scheme_of(estimator, 3).variance_bound,
        )  # the declared constants are kept
        return scheme.estimate_entries(FIRST, SECOND, OUTCOMES)

    scaled = broken("scaled", 0.5)
    np.testing.assert_array_equal(scaled[3], 0.5 * values)
    coded = broken("outcome_01")  # r = -1 counts as 0, r = +1 as 1
    np.testing.assert_array_equal(coded[3], np.where(OUTCOMES[rounds] > 0, values, 0.0))
    shifted = broken("round_shift")
    np.testing.assert_array_equal(shifted[0], (rounds + 1) % 4)
    np.testing.assert_array_equal(shifted[1:], correct[1:])
    unordered = broken("unordered_pair")  # (2, 0) is filed as (0, 2) with its outcome
    first, second = np.minimum(FIRST, SECOND), np.maximum(FIRST, SECOND)
    np.testing.assert_array_equal(
        unordered[3], scheme_of(estimator, 3).estimate_entries(first, second, OUTCOMES)[3]
    )
    assert not np.array_equal(unordered[1], rows) or not np.array_equal(unordered[3], values)
    with pytest.raises(ValueError, match="unknown estimator bug"):
        broken_scheme("typo")


def test_the_solver_bugs():
    game, oracle, _ = informative_game()
    rng = np.random.default_rng(0)
    fpl = SparringFPL(n_rounds=200).fit(game, oracle, np.random.default_rng(0))
    last = LastIterateFPL(n_rounds=200).fit(game, oracle, np.random.default_rng(0))
    np.testing.assert_array_equal(last.row_policies_, fpl.row_policies_)  # the same rounds
    assert list(last.row_mixture_.policies) == [fpl.row_policies_[-1]]
    np.testing.assert_array_equal(last.row_vector_, oracle.vector(int(fpl.row_policies_[-1])))
    scaled = scaled_fpl(10.0)(n_rounds=5).fit(game, oracle, rng)
    assert scaled.alpha_ == pytest.approx(
        SparringFPL(n_rounds=5).fit(game, oracle, rng).alpha_ / 10
    )
    assert scaled_fpl(0.0)(n_rounds=5).fit(game, oracle, rng).alpha_ == np.inf
    pgd = scaled_pgd(0.5)(n_outer=4, n_inner=4).fit(game, oracle)
    assert pgd.eta_ == pytest.approx(ProjectedGD(n_outer=4, n_inner=4).fit(game, oracle).eta_ / 2)
    worst = MaximisingFPL(n_rounds=200).fit(game, oracle, np.random.default_rng(0))
    assert not np.array_equal(worst.row_policies_, fpl.row_policies_)


def test_the_copeland_winner_is_pure_where_the_maxmin_strategy_is_mixed():
    environment = environment_of(cyclic_population(8, 1.0), 2)
    true = environment.true_matrix
    pure = copeland_maxmin(true)
    assert pure.row_strategy.sum() == 1 and np.count_nonzero(pure.row_strategy) == 1
    assert np.count_nonzero(maxmin_strategy(true).row_strategy > 1e-9) >= 3
    # Every policy ties on Copeland score here: the smallest index wins the tie.
    assert pure.row_strategy[0] == 1
    transitive = np.array([[0.0, 1.0, 1.0], [-1.0, 0.0, 1.0], [-1.0, -1.0, 0.0]])
    assert copeland_maxmin(transitive.T.copy()).row_strategy[2] == 1


def test_the_exploitation_bugs():
    environment = environment_of(cyclic_population(8, 1.0), 2)
    stumps, population = environment.stumps, environment.environment
    mixture = PolicyMixture.from_weights([1, 4, 8], [0.2, 0.5, 0.3])
    heaviest = exploit_heaviest_policy(population, stumps, mixture, 500, np.random.default_rng(1))
    actions = stumps.actions(population.contexts, [4])[:, 0]
    np.testing.assert_array_equal(heaviest.first_actions, actions[heaviest.context_ids])
    np.testing.assert_array_equal(heaviest.second_actions, actions[heaviest.context_ids])
    one = exploit_one_draw(population, stumps, mixture, 500, np.random.default_rng(1))
    correct = exploit(population, stumps, mixture, 500, np.random.default_rng(1))
    np.testing.assert_array_equal(one.first_actions, one.second_actions)
    # The same schedule and the same first draws as the library's exploitation.
    np.testing.assert_array_equal(one.context_ids, correct.context_ids)
    np.testing.assert_array_equal(one.first_actions, correct.first_actions)
