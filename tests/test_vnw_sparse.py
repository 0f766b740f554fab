"""The sparse solver: the dense solvers' point on sparse logs, certified, warm or cold."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import sparse
from test_winners import sparse_tournament

from cdbandits import vnw_sparse
from cdbandits.batched import von_neumann_winners
from cdbandits.paper_examples import clone_example_matrix, five_arm_matrix
from cdbandits.preference import PreferenceMatrixError
from cdbandits.vnw_numpy import TIE_TOL
from cdbandits.vnw_sparse import (
    CONDORCET,
    INTERIOR_POINT,
    SIMPLEX,
    as_sparse_skew,
    solve_sparse,
    sparse_von_neumann_winner,
)
from cdbandits.winners import CertificationError, von_neumann_winner


def sparse_log_matrix(k: int, per_item: float, spread: float, ties: float, seed: int):
    """Skew matrix of a random log: Bradley-Terry outcomes of random pairs, some tied.

    ``k * per_item / 2`` comparisons between uniformly drawn pairs (a pair may meet several
    times), the first item winning with probability ``sigmoid(s_first - s_second)`` for
    normal strengths of standard deviation ``spread``, a tie with probability ``ties``;
    ``P[i, j] = (wins - losses) / meetings``, 0 for pairs that never met.
    """
    rng = np.random.default_rng(seed)
    count = max(1, int(k * per_item / 2))
    first, second = rng.integers(0, k, count), rng.integers(0, k, count)
    first, second = first[first != second], second[first != second]
    strength = rng.normal(0, spread, k)
    win = rng.random(first.size) < 1 / (1 + np.exp(strength[second] - strength[first]))
    outcome = np.where(rng.random(first.size) < ties, 0.0, np.where(win, 1.0, -1.0))
    margin, meetings = np.zeros((k, k)), np.zeros((k, k))
    np.add.at(margin, (first, second), outcome)
    np.add.at(margin, (second, first), -outcome)
    np.add.at(meetings, (first, second), 1.0)
    np.add.at(meetings, (second, first), 1.0)
    return np.divide(margin, meetings, out=np.zeros((k, k)), where=meetings > 0)


def dense_answer(P: np.ndarray) -> np.ndarray:
    """The dense compiled kernel's answer (the batched solver never goes sparse)."""
    return von_neumann_winners(P[None]).weights[0]


def assert_same_point(P: np.ndarray, weights: np.ndarray, expected: np.ndarray) -> None:
    np.testing.assert_array_equal(weights > 0, expected > 0)
    np.testing.assert_allclose(weights, expected, rtol=0, atol=1e-8)
    assert (weights @ P).min() >= -1e-9 * np.abs(P).max()


@settings(max_examples=80, deadline=None)
@given(
    k=st.integers(3, 300),
    per_item=st.floats(0.5, 12),
    spread=st.sampled_from([0.3, 1.0, 2.0, 4.0]),
    ties=st.sampled_from([0.0, 0.2]),
    seed=st.integers(0, 2**32 - 1),
)
def test_sparse_logs_give_the_dense_solvers_point(k, per_item, spread, ties, seed):
    """Support and weights to 1e-8 on random sparse logs up to 300 items."""
    P = sparse_log_matrix(k, per_item, spread, ties, seed)
    path, weights, _ = solve_sparse(sparse.csr_array(P))
    assert path is not None
    assert_same_point(P, weights, dense_answer(P))


@pytest.mark.parametrize("k, density", [(400, 0.1), (600, 0.03)])
def test_sparse_tournaments_give_the_dense_solvers_point(k, density):
    """ATP-like head-to-head rates: large tied faces, the simplex and interior point games."""
    P = sparse_tournament(k, density, np.random.default_rng(k))
    result = sparse_von_neumann_winner(sparse.csr_array(P))
    assert result.solver == INTERIOR_POINT
    assert_same_point(P, result.weights, dense_answer(P))
    # Strictly complementary: every arm outside the support is beaten.
    assert ((result.weights @ P)[result.weights == 0] > TIE_TOL).all()


def test_paths_and_the_all_tie_game():
    assert solve_sparse(sparse.csr_array(five_arm_matrix()[3:, 3:])).path == CONDORCET
    unique = solve_sparse(sparse.csr_array(five_arm_matrix()))
    assert unique.path == SIMPLEX
    assert_same_point(five_arm_matrix(), unique.weights, dense_answer(five_arm_matrix()))
    clones = solve_sparse(sparse.csr_array(clone_example_matrix(5)))
    assert clones.path == INTERIOR_POINT
    np.testing.assert_allclose(clones.weights[:4], [1 / 6, 1 / 6, 1 / 3, 1 / 3], atol=1e-12)
    ties = solve_sparse(sparse.csr_array((4, 4)))
    np.testing.assert_array_equal(ties.weights, np.full(4, 0.25))


def test_disconnected_groups_share_the_weight_at_the_centre():
    """Two groups never compared: every mixture of their vNWs is a vNW; both supports count."""
    cycle = np.array([[0, 1, -1], [-1, 0, 1], [1, -1, 0]], dtype=float)
    P = np.zeros((7, 7))
    P[:3, :3] = cycle
    P[3:6, 3:6] = cycle
    P[6, :6] = -0.5  # arm 6 loses to everybody: outside every support
    P[:6, 6] = 0.5
    result = sparse_von_neumann_winner(sparse.csr_array(P))
    assert_same_point(P, result.weights, dense_answer(P))
    assert result.support.tolist() == [0, 1, 2, 3, 4, 5]


@pytest.mark.parametrize("seed", range(4))
def test_a_warm_start_gives_the_cold_answer(seed):
    """Started from another game's arms (a resample's), the games grow to the same point."""
    P = sparse_log_matrix(250, 6, 1.5, 0.1, seed)
    cold = solve_sparse(sparse.csr_array(P))
    other = sparse_log_matrix(250, 6, 1.5, 0.1, seed + 100)
    for start in (solve_sparse(sparse.csr_array(other)).arms, cold.arms, np.array([0])):
        warm = solve_sparse(sparse.csr_array(P), start)
        np.testing.assert_array_equal(warm.weights > 0, cold.weights > 0)
        np.testing.assert_allclose(warm.weights, cold.weights, rtol=0, atol=1e-9)


def test_an_uncertified_answer_is_an_error(monkeypatch):
    P = sparse_log_matrix(60, 4, 1.0, 0.0, 3)
    beaten = np.zeros(60)
    beaten[np.argmin((P > 0).sum(axis=1))] = 1.0  # the arm with the fewest wins
    monkeypatch.setattr(
        vnw_sparse,
        "solve_sparse",
        lambda matrix, start=None: vnw_sparse.SparseSolution(INTERIOR_POINT, beaten, start),
    )
    with pytest.raises(CertificationError, match="could not be certified"):
        sparse_von_neumann_winner(sparse.csr_array(P))
    monkeypatch.setattr(
        vnw_sparse,
        "solve_sparse",
        lambda matrix, start=None: vnw_sparse.SparseSolution(None, np.zeros(60), start),
    )
    with pytest.raises(CertificationError):
        sparse_von_neumann_winner(sparse.csr_array(P))


def test_winners_sends_large_sparse_matrices_and_scipy_arrays_to_the_sparse_solver():
    P = sparse_tournament(400, 0.05, np.random.default_rng(1))
    assert von_neumann_winner(P).solver == INTERIOR_POINT
    assert von_neumann_winner(sparse.csr_array(P)).solver == INTERIOR_POINT
    small = sparse_log_matrix(40, 3, 1.0, 0.0, 2)
    assert von_neumann_winner(small, engine="sparse").solver in vnw_sparse.SPARSE_METHODS
    assert von_neumann_winner(small).solver not in (SIMPLEX, INTERIOR_POINT)
    with pytest.raises(ValueError, match="skew form"):
        von_neumann_winner(sparse.csr_array(small), convention="probability")


@pytest.mark.parametrize(
    "entries, message",
    [
        ({(0, 1): 0.5, (1, 0): -0.4}, r"P\[0, 1\] \+ P\[1, 0\]"),
        ({(0, 1): 1.5, (1, 0): -1.5}, r"outside \[-1, 1\]"),
        ({(1, 1): 0.3}, "diagonal"),
        ({(0, 2): np.inf, (2, 0): -np.inf}, "not finite"),
    ],
)
def test_invalid_sparse_matrices_are_refused_by_entry(entries, message):
    rows, cols = zip(*entries, strict=True)
    matrix = sparse.csr_array((list(entries.values()), (rows, cols)), shape=(3, 3))
    with pytest.raises(PreferenceMatrixError, match=message):
        as_sparse_skew(matrix, 1e-6)
