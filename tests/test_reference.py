"""The cvxpy reference: LP, polish, simplex re-solve and certificate."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import cdbandits.reference as reference_module
from cdbandits.paper_examples import clone_example_matrix, five_arm_matrix
from cdbandits.reference import (
    SIMPLEX_SOLVER,
    check_solver_name,
    polish_von_neumann,
    reference_von_neumann_winner,
)
from cdbandits.winners import CERTIFICATE_TOL, CertificationError, SolverError, exploitability


def skew_from_upper(values: np.ndarray) -> np.ndarray:
    upper = np.triu(values, 1)
    return upper - upper.T


def test_five_arm_example_and_condorcet_shortcut():
    result = reference_von_neumann_winner(five_arm_matrix())
    np.testing.assert_allclose(result.weights, [1 / 3, 1 / 3, 1 / 3, 0, 0], atol=1e-12)
    assert result.solver == "CLARABEL"
    assert reference_von_neumann_winner(five_arm_matrix()[3:, 3:]).solver == "condorcet"


def test_interior_point_solver_splits_weight_between_clones():
    result = reference_von_neumann_winner(clone_example_matrix(6), solver="CLARABEL")
    np.testing.assert_allclose(result.weights[:2], 1 / 6, atol=1e-9)
    assert result.support.tolist() == [0, 1, 2, 3]


@settings(max_examples=60, deadline=None)
@given(
    st.integers(2, 12).flatmap(
        lambda k: arrays(np.float64, (k, k), elements=st.sampled_from([-1.0, -0.5, 0.0, 0.5, 1.0]))
    )
)
def test_degenerate_matrices_with_ties_are_certified(values):
    P = skew_from_upper(values)
    for solver in ("CLARABEL", "HIGHS"):
        weights = reference_von_neumann_winner(P, solver=solver).weights
        assert weights.min() >= 0 and abs(weights.sum() - 1) <= 1e-12
        assert exploitability(P, weights) >= -CERTIFICATE_TOL


def test_polish_projects_onto_the_equalizer_conditions():
    P = five_arm_matrix()
    rough = np.array([0.3, 0.35, 0.34, 0.005, 0.005])
    np.testing.assert_allclose(
        polish_von_neumann(P, rough, [0, 1, 2]), [1 / 3, 1 / 3, 1 / 3, 0, 0], atol=1e-15
    )


def test_wrong_interior_point_support_is_repaired_by_the_simplex_method(monkeypatch):
    solve = reference_module._solve_lp

    def inaccurate_interior_point(scaled, solver):
        if solver == SIMPLEX_SOLVER:
            return solve(scaled, solver)
        uniform = np.full(scaled.shape[0], 1 / scaled.shape[0])
        return uniform, "CLARABEL", "optimal"

    monkeypatch.setattr(reference_module, "_solve_lp", inaccurate_interior_point)
    result = reference_von_neumann_winner(five_arm_matrix())
    assert result.solver == SIMPLEX_SOLVER
    np.testing.assert_allclose(result.weights, [1 / 3, 1 / 3, 1 / 3, 0, 0], atol=1e-12)


def test_uncertifiable_answer_raises(monkeypatch):
    def losing_arm(scaled, solver):
        weights = np.zeros(scaled.shape[0])
        weights[3] = 1.0  # arm 3 loses to arm 0 by 0.5
        return weights, solver or "CLARABEL", "optimal"

    monkeypatch.setattr(reference_module, "_solve_lp", losing_arm)
    with pytest.raises(CertificationError, match=r"could not be certified to -1e-09: CLARABEL"):
        reference_von_neumann_winner(five_arm_matrix())


def test_unknown_solver_raises():
    with pytest.raises(SolverError, match="NOT_A_SOLVER"):
        reference_von_neumann_winner(five_arm_matrix(), solver="NOT_A_SOLVER")


def test_solver_names_are_checked_against_the_installed_solvers():
    assert check_solver_name("highs") == "HIGHS"
    with pytest.raises(ValueError, match=r"'GUROBIX' is not an installed cvxpy solver; installed"):
        check_solver_name("GUROBIX")
