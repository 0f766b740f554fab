"""Dense policy games and the certified maxmin LP for general (non-symmetric) zero-sum games."""

import numpy as np
import pytest

from cdbandits.oracle_methods.ground_truth import MAXMIN_TOL, maxmin_strategy, policy_game_matrix
from cdbandits.winners import von_neumann_winner


def test_known_games():
    # Matching pennies with a bias: value (ad - bc) / (a + d - b - c) for the mixed equilibrium.
    game = np.array([[3.0, -1.0], [-2.0, 1.0]])
    solution = maxmin_strategy(game)
    assert solution.value == pytest.approx(1 / 7, abs=1e-7)
    np.testing.assert_allclose(solution.row_strategy, [3 / 7, 4 / 7], atol=1e-6)
    np.testing.assert_allclose(solution.column_strategy, [2 / 7, 5 / 7], atol=1e-6)
    # A saddle point: row 0 dominates, column 1 is the best reply; value 2.
    saddle = np.array([[4.0, 2.0, 5.0], [1.0, 0.0, 3.0]])
    assert maxmin_strategy(saddle).value == pytest.approx(2.0, abs=1e-6)


def test_certificate_and_agreement_with_the_skew_symmetric_solver():
    rng = np.random.default_rng(0)
    for _ in range(5):
        a = rng.uniform(-1, 1, (30, 30))
        skew = (a - a.T) / 2
        solution = maxmin_strategy(skew)
        assert solution.upper - solution.lower <= MAXMIN_TOL
        assert abs(solution.value) <= 1e-6
        assert (solution.row_strategy @ skew).min() == pytest.approx(solution.lower)
        reference = von_neumann_winner(skew)
        np.testing.assert_allclose(solution.row_strategy, reference.weights, atol=1e-5)
        rectangular = rng.normal(size=(12, 40))
        result = maxmin_strategy(rectangular)
        assert (result.row_strategy @ rectangular).min() >= (
            rectangular @ result.column_strategy
        ).max() - 1e-6
    assert maxmin_strategy(np.array([[1.0, -1.0], [-1.0, 1.0]]), solver="HIGHS").solver == "HIGHS"


def test_policy_game_matrix_by_brute_force():
    rng = np.random.default_rng(1)
    blocks = rng.normal(size=(7, 3, 3))
    actions = rng.integers(0, 3, size=(7, 11))
    matrix = policy_game_matrix(blocks, actions.astype(np.uint8))
    for pi in range(11):
        for rho in range(11):
            expected = sum(blocks[x, actions[x, pi], actions[x, rho]] for x in range(7))
            assert matrix[pi, rho] == pytest.approx(expected, abs=1e-12)


def test_bad_inputs():
    with pytest.raises(ValueError, match="finite non-empty"):
        maxmin_strategy(np.array([[np.nan]]))
    with pytest.raises(ValueError, match="blocks but actions"):
        policy_game_matrix(np.zeros((2, 2, 2)), np.zeros((3, 4), dtype=np.uint8))
