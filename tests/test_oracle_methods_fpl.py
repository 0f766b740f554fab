"""SparringFPL: reaches the LP value of a tiny game, respects Theorem fpl, reproduces."""

import numpy as np
import pytest
from informative_game import informative_game

from cdbandits.contextual.environments import (
    StochasticEnvironment,
    synthetic_intransitive_population,
)
from cdbandits.contextual.policies import RandomLinearPolicies
from cdbandits.oracle_methods.bounds import fpl_gap_bound
from cdbandits.oracle_methods.compact_game import CompactGame
from cdbandits.oracle_methods.exploration import (
    explore,
    skew_symmetric_exploration,
    uniform_exploration,
)
from cdbandits.oracle_methods.fpl import SparringFPL
from cdbandits.oracle_methods.ground_truth import maxmin_strategy, policy_game_matrix
from cdbandits.oracle_methods.hull import row_security
from cdbandits.oracle_methods.oracles import ExactOracle
from cdbandits.oracle_methods.theory import fpl_alpha


def tiny_game(scheme):
    population = synthetic_intransitive_population(2, 2, 20, 0.8, np.random.default_rng(0))
    policies = RandomLinearPolicies(2, 20, random_state=0).fit(population.features)
    sample = explore(StochasticEnvironment(population), scheme, 100, np.random.default_rng(10))
    game = CompactGame.from_sample(sample, scheme)
    oracle = ExactOracle(policies, population.features, sample.context_ids)
    blocks = game.context_blocks(sample.context_ids, population.n_contexts)
    mhat = policy_game_matrix(blocks, policies.actions(population.features))
    return game, oracle, mhat


@pytest.mark.parametrize(
    "scheme", [uniform_exploration(2), skew_symmetric_exploration(2)], ids=["uniform", "skew"]
)
def test_fpl_reaches_the_lp_value_of_a_tiny_game(scheme):
    game, oracle, mhat = tiny_game(scheme)
    value = maxmin_strategy(mhat).value
    fpl = SparringFPL(n_rounds=5000, checkpoints=[50, 5000]).fit(
        game, oracle, np.random.default_rng(0)
    )
    achieved = row_security(game, oracle, fpl.row_vector_).value
    payoff_range = mhat.max() - mhat.min()
    # Measured gaps: 0.006 (uniform) and 0.003 (skew) at N = 5000; tolerance 2.5% of the range.
    assert 0 <= value - achieved <= 0.025 * payoff_range
    first, last = fpl.trace_
    assert (first.iteration, first.oracle_calls, last.iteration) == (50, 100, 5000)
    assert value - row_security(game, oracle, first.row_vector).value > value - achieved
    np.testing.assert_allclose(fpl.row_mixture_.vector(oracle), fpl.row_vector_, atol=1e-12)
    assert fpl.n_oracle_calls_ == 10_000
    assert fpl.alpha_ == pytest.approx(fpl_alpha(game.bound, 5000))


def assert_theorem_fpl(solver=SparringFPL):
    """Theorem fpl on a game where its bound is a fifth of the payoff range 2L."""
    game, oracle, value = informative_game()
    fpl = solver(n_rounds=2000).fit(game, oracle, np.random.default_rng(0))
    bound = fpl_gap_bound(game.bound, game.n_rounds, 2000, 0.05)
    assert bound < 0.25 * 2 * game.bound
    assert 0 <= value - row_security(game, oracle, fpl.row_vector_).value <= bound


def test_fpl_meets_theorem_fpl_where_its_bound_bites():
    assert_theorem_fpl()


def test_fpl_output_is_the_uniform_mixture_of_its_row_policies():
    game, oracle, _ = tiny_game(uniform_exploration(2))
    fpl = SparringFPL(n_rounds=40).fit(game, oracle, np.random.default_rng(1))
    ids, counts = np.unique(fpl.row_policies_, return_counts=True)
    assert np.array_equal(fpl.row_mixture_.policies, ids)
    np.testing.assert_allclose(fpl.row_mixture_.weights, counts / 40)
    assert fpl.row_mixture_.support_size <= 40


def test_same_seed_same_run_and_different_seed_different_run():
    game, oracle, _ = tiny_game(uniform_exploration(2))
    first = SparringFPL(n_rounds=200).fit(game, oracle, np.random.default_rng(7))
    second = SparringFPL(n_rounds=200).fit(game, oracle, np.random.default_rng(7))
    third = SparringFPL(n_rounds=200).fit(game, oracle, np.random.default_rng(8))
    assert np.array_equal(first.row_policies_, second.row_policies_)
    assert np.array_equal(first.column_policies_, second.column_policies_)
    assert not np.array_equal(first.row_policies_, third.row_policies_)


def test_theory_budget_and_argument_checks():
    game, oracle, _ = tiny_game(uniform_exploration(2))
    with pytest.raises(ValueError, match="give n_rounds, or epsilon"):
        SparringFPL().fit(game, oracle, np.random.default_rng(0))
    with pytest.raises(ValueError, match="alpha must be positive"):
        SparringFPL(n_rounds=5, alpha=0.0).fit(game, oracle, np.random.default_rng(0))
    # Theorem fpl's N for a gap of 8 = 2 L with L = 4 (K = 2), m = 100, delta = 0.05.
    fpl = SparringFPL(epsilon=8.0).fit(game, oracle, np.random.default_rng(0))
    assert (
        fpl_gap_bound(4, 100, fpl.n_rounds_, 0.05)
        <= 8.0
        < fpl_gap_bound(4, 100, fpl.n_rounds_ - 1, 0.05)
    )
