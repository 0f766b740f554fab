"""The analytic centre of an optimal face, block by block, dense or sparse Newton systems."""

import numpy as np
import pytest
import scipy.linalg
from scipy import sparse
from test_vnw_sparse import dense_answer, sparse_log_matrix

from cdbandits import sparse_centre
from cdbandits.paper_examples import clone_example_matrix
from cdbandits.sparse_centre import face_centre, face_directions


def optimality_gap(P: np.ndarray, weights: np.ndarray) -> float:
    """Largest component along the face of the gradient of the centre's barrier (0 there)."""
    inside = weights > 0
    equalizer = np.vstack([P[np.ix_(inside, inside)].T, np.ones(inside.sum())])
    directions = scipy.linalg.null_space(equalizer)
    if directions.shape[1] == 0:
        return 0.0
    values = weights @ P
    gradient = 1 / weights[inside] + P[np.ix_(inside, ~inside)] @ (1 / values[~inside])
    return float(np.abs(directions.T @ gradient).max() / np.abs(gradient).max())


def test_the_clone_face_from_an_off_centre_start():
    """The face {w0 + w1 = w2 = w3 = 1/3}: its centre has w0 = w1 = 1/6 (the start is off it)."""
    S = clone_example_matrix(5)
    start = np.array([0.3, 1 / 30, 1 / 3 + 0.01, 1 / 3 + 0.01, 0, 0, 0, 0, 0])
    centre = face_centre(sparse.csr_array(S), np.array([0, 1, 2, 3]), start, start @ S)
    np.testing.assert_allclose(centre, [1 / 6, 1 / 6, 1 / 3, 1 / 3, 0, 0, 0, 0, 0], atol=1e-14)


@pytest.mark.parametrize("dense_work", [sparse_centre.DENSE_WORK, 0])
@pytest.mark.parametrize("seed", range(5))
def test_centres_of_sparse_logs_satisfy_the_optimality_condition(monkeypatch, dense_work, seed):
    """Faces of many blocks (arms compared with no other support arm), dense or sparse."""
    monkeypatch.setattr(sparse_centre, "DENSE_WORK", dense_work)
    monkeypatch.setattr(sparse_centre, "DENSE_HESSIAN_MAX", 400 if dense_work else 2)
    P = sparse_log_matrix(150, 3, 3.0, 0.1, seed)
    expected = dense_answer(P)
    support = np.flatnonzero(expected > 0)
    nudged = np.where(expected > 0, expected * (1 + 0.05 * np.cos(np.arange(150))), 0.0)
    centre = face_centre(sparse.csr_array(P), support, nudged, nudged @ P + 1e-3)
    np.testing.assert_allclose(centre, expected, rtol=0, atol=1e-10)
    assert optimality_gap(P, centre) <= 1e-9


def test_a_start_that_is_not_positive_or_a_support_without_a_vnw_gives_none():
    S = clone_example_matrix(5)
    negative = np.array([1.2, -0.2, 0, 0, 0, 0, 0, 0, 0])
    assert face_centre(sparse.csr_array(S), np.array([0, 1, 2, 3]), negative, negative @ S) is None
    cycle = np.array([[0, 1, -1], [-1, 0, 1], [1, -1, 0]], dtype=float)
    # Arms 0 and 1 alone: 1 loses to 0, so no lottery on them ties both.
    assert face_directions(sparse.csr_array(cycle[:2, :2])) is None


def test_face_directions_are_orthonormal_null_spaces_per_block():
    cycle = np.array([[0, 1, -1], [-1, 0, 1], [1, -1, 0]], dtype=float)
    blocks = np.zeros((5, 5))
    blocks[:3, :3] = cycle  # arms 3 and 4 compared with nobody in the support
    directions = face_directions(sparse.csr_array(blocks)).toarray()
    assert directions.shape == (5, 3)
    np.testing.assert_allclose(directions.T @ directions, np.eye(3), atol=1e-14)
    np.testing.assert_allclose(blocks.T @ directions, 0, atol=1e-14)
