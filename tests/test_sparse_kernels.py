"""Kernels of the sparse solver: values, restricted games, blocks, column generation, IPM."""

import numpy as np
import pytest
from scipy import sparse
from test_vnw_sparse import dense_answer, sparse_log_matrix

from cdbandits.sparse_kernels import (
    IPM_CLEAR,
    block_interior_point,
    column_generation,
    condorcet_arm,
    game_blocks,
    lottery_values,
    restricted_game,
)
from cdbandits.vnw_kernels import _interior_point


def rows(P):
    matrix = sparse.csr_array(P)
    return matrix.indptr.astype(np.int64), matrix.indices.astype(np.int64), matrix.data


def test_lottery_values_and_restricted_games_match_dense_algebra():
    P = sparse_log_matrix(40, 3, 1.0, 0.1, 1)
    w = np.random.default_rng(2).dirichlet(np.ones(40))
    np.testing.assert_allclose(lottery_values(*rows(P), w), w @ P, atol=1e-15)
    arms = np.array([3, 7, 8, 20, 39])
    local_ptr, local_idx, local_data, scale = restricted_game(*rows(P), arms)
    sub = P[np.ix_(arms, arms)]
    assert scale == np.abs(sub).max()
    local = sparse.csr_array((local_data, local_idx, local_ptr), shape=(5, 5)).toarray()
    np.testing.assert_array_equal(local * scale, sub)


def test_blocks_are_the_connected_components_of_the_compared_pairs():
    P = np.zeros((6, 6))
    for i, j in [(0, 4), (4, 5), (1, 3)]:
        P[i, j], P[j, i] = 0.5, -0.5
    order, starts = game_blocks(*rows(P)[:2])
    blocks = [order[starts[b] : starts[b + 1]].tolist() for b in range(starts.size - 1)]
    assert blocks == [[0, 4, 5], [1, 3], [2]]


def test_condorcet_arm_needs_a_win_against_everyone():
    P = np.zeros((4, 4))
    P[2, [0, 1, 3]], P[[0, 1, 3], 2] = 0.5, -0.5
    assert condorcet_arm(*rows(P)) == 2
    P[2, 3] = P[3, 2] = 0.0  # a tie: no Condorcet winner
    assert condorcet_arm(*rows(P)) == -1


@pytest.mark.parametrize("seed", range(6))
def test_column_generation_reaches_a_certified_vertex(seed):
    P = sparse_log_matrix(120, 5, 1.0, 0.1, seed)
    S = P / np.abs(P).max()
    status, vertex, arms = column_generation(*rows(S), int(np.argmax(S.sum(axis=1))), 8, 120, 6000)
    assert status == 0
    assert abs(vertex.sum() - 1) < 1e-12 and vertex.min() >= 0
    assert (vertex @ S).min() >= -1e-9
    assert set(np.flatnonzero(vertex)) <= set(arms.tolist())
    # Every vNW lives on the arms the vertex does not beat strictly.
    assert set(np.flatnonzero(dense_answer(P))) <= set(np.flatnonzero(vertex @ S <= 1e-9))


def test_column_generation_stops_when_the_game_outgrows_its_room():
    P = sparse_log_matrix(200, 8, 0.3, 0.0, 5)
    S = P / np.abs(P).max()
    status, _, arms = column_generation(*rows(S), 0, 8, 16, 6000)
    assert status == 1 and arms.size <= 16


@pytest.mark.parametrize("seed", range(4))
def test_block_interior_point_follows_the_dense_path(seed):
    """Same central path as the dense kernel: the identified support is the dense answer's."""
    blocks = [sparse_log_matrix(n, 4, 1.0, 0.1, seed + n) for n in (30, 1, 12)]
    P = np.zeros((43, 43))
    P[:30, :30], P[31:, 31:] = blocks[0], blocks[2]  # arm 30 compared with nobody
    S = P / np.abs(P).max()
    w = np.full(43, 1 / 43)
    t = (w @ S).min() - 1
    status, weights, slack, _, mu = block_interior_point(*rows(S), w, t, np.inf)
    assert status == IPM_CLEAR and mu < 1e-6
    expected = np.zeros(43)
    assert _interior_point(S, expected)
    np.testing.assert_array_equal(weights > slack, expected > 0)
