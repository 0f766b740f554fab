"""SparringFPL: reaches the LP value of a tiny game, respects Theorem fpl, reproduces; its
compiled path plays the Python loop's rounds."""

import numpy as np
import pytest
from informative_game import informative_game

from cdbandits.contextual.environments import (
    StochasticEnvironment,
    synthetic_intransitive_population,
)
from cdbandits.contextual.policies import RandomLinearPolicies
from cdbandits.oracle_methods import fpl as fpl_module
from cdbandits.oracle_methods.bounds import fpl_gap_bound
from cdbandits.oracle_methods.compact_game import CompactGame
from cdbandits.oracle_methods.exploration import (
    explore,
    skew_symmetric_exploration,
    uniform_exploration,
)
from cdbandits.oracle_methods.fpl import SparringFPL, table_argmin
from cdbandits.oracle_methods.ground_truth import maxmin_strategy, policy_game_matrix
from cdbandits.oracle_methods.hull import row_security
from cdbandits.oracle_methods.oracles import ExactOracle, PolicyOracle
from cdbandits.oracle_methods.theory import fpl_alpha

POPULATION = synthetic_intransitive_population(2, 2, 20, 0.8, np.random.default_rng(0))


def tiny_game(scheme):
    population = POPULATION
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


class _NoTableOracle(ExactOracle):
    """An exact oracle that does not offer its policy table."""

    def policy_table(self):
        return PolicyOracle.policy_table(self)


@pytest.mark.parametrize(
    "scheme", [uniform_exploration(2), skew_symmetric_exploration(2)], ids=["uniform", "skew"]
)
def test_the_compiled_path_plays_the_rounds_of_the_python_loop(scheme):
    # The same rng gives the same perturbations in the same order (drawn in blocks of rounds
    # that cross the checkpoints and PERTURBATION_BLOCK), hence the same policies, round by
    # round; the vectors are sums of the same numbers in the same order.
    game, oracle, _ = tiny_game(scheme)
    n = fpl_module.PERTURBATION_BLOCK // (2 * game.n_rounds * game.n_actions) + 300
    loop = SparringFPL(n_rounds=n, checkpoints=[7, n - 1]).fit(
        game, oracle, np.random.default_rng(5)
    )
    calls = oracle.n_calls_
    compiled = SparringFPL(n_rounds=n, checkpoints=[7, n - 1], compiled=True).fit(
        game, oracle, np.random.default_rng(5)
    )
    np.testing.assert_array_equal(compiled.row_policies_, loop.row_policies_)
    np.testing.assert_array_equal(compiled.column_policies_, loop.column_policies_)
    np.testing.assert_array_equal(compiled.row_vector_, loop.row_vector_)
    np.testing.assert_array_equal(compiled.column_vector_, loop.column_vector_)
    # The payoff is summed in another order than np.dot's.
    assert compiled.mean_payoff_ == pytest.approx(loop.mean_payoff_, rel=1e-12, abs=1e-12)
    assert len(set(loop.row_policies_)) > 1  # the perturbations change the leader
    for ours, theirs in zip(compiled.trace_, loop.trace_, strict=True):
        assert (ours.iteration, ours.oracle_calls) == (theirs.iteration, theirs.oracle_calls)
        np.testing.assert_array_equal(ours.row_vector, theirs.row_vector)
        np.testing.assert_array_equal(ours.row_mixture.weights, theirs.row_mixture.weights)
    assert [c.iteration for c in compiled.trace_] == [7, n - 1]
    assert compiled.n_oracle_calls_ == 2 * n and oracle.n_calls_ == calls + 2 * n


def test_the_compiled_path_meets_theorem_fpl():
    assert_theorem_fpl(lambda n_rounds: SparringFPL(n_rounds=n_rounds, compiled=True))


def test_table_argmin_breaks_ties_towards_the_smallest_policy():
    table = np.array([[1, 0, 0, 0], [1, 1, 1, 0]], dtype=np.uint8)  # policies 1, 2 alike
    costs = np.array([[0.0, 1.0], [1.0, 0.0]])
    assert table_argmin(costs, table) == 1  # totals 1, 0, 0, 1
    assert table_argmin(-costs, table) == 0  # totals -1, 0, 0, -1
    assert table_argmin(np.zeros((2, 2)), table) == 0


def test_the_compiled_path_needs_a_policy_table():
    game, oracle, _ = tiny_game(uniform_exploration(2))
    expected = oracle.round_actions([0, 1])
    lacking = _NoTableOracle(oracle.policy_class, POPULATION.features, oracle.context_ids_)
    assert np.array_equal(lacking.round_actions([0, 1]), expected)  # the class, no table
    with pytest.raises(NotImplementedError, match="_NoTableOracle offers no policy table"):
        SparringFPL(n_rounds=5, compiled=True).fit(game, lacking, np.random.default_rng(0))
