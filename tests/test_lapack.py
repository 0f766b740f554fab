"""LU factorisation through numba's LAPACK binding: the same solutions as scipy's."""

import numpy as np
import pytest
import scipy.linalg
from hypothesis import given, settings
from hypothesis import strategies as st

from cdbandits.lapack import lu_factor, lu_solve


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 40), seed=st.integers(0, 2**32 - 1))
def test_solutions_equal_scipy_on_random_systems(n, seed):
    rng = np.random.default_rng(seed)
    matrix = rng.normal(size=(n, n))
    rhs = rng.normal(size=n)
    lu, pivots, regular = lu_factor(matrix)
    assert regular
    expected = scipy.linalg.lu_solve(scipy.linalg.lu_factor(matrix), rhs)
    np.testing.assert_allclose(lu_solve(lu, pivots, rhs), expected, rtol=1e-9, atol=1e-9)


def test_pivoting_is_applied():
    """A zero in the top-left corner needs a row swap."""
    matrix = np.array([[0.0, 2.0, 1.0], [1.0, 1.0, 0.0], [3.0, 0.0, 1.0]])
    rhs = np.array([3.0, 2.0, 4.0])
    lu, pivots, regular = lu_factor(matrix)
    assert regular and pivots[0] != 1  # LAPACK's pivots count from 1
    np.testing.assert_allclose(lu_solve(lu, pivots, rhs), [1.0, 1.0, 1.0], atol=1e-15)


def test_the_matrix_and_the_right_hand_side_are_left_unchanged():
    matrix = np.array([[2.0, 1.0], [4.0, 3.0]])
    rhs = np.array([1.0, 2.0])
    before = matrix.copy(), rhs.copy()
    lu, pivots, _ = lu_factor(matrix)
    lu_solve(lu, pivots, rhs)
    np.testing.assert_array_equal(matrix, before[0])
    np.testing.assert_array_equal(rhs, before[1])


@pytest.mark.parametrize("matrix", [np.zeros((3, 3)), np.array([[1.0, 2.0], [2.0, 4.0]])])
def test_a_singular_matrix_is_reported(matrix):
    assert not lu_factor(matrix)[2]
