"""The compiled vNW kernel: its paths, the analytic centre of tied faces, the acceptance test."""

import numpy as np
import pytest
import scipy.linalg
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from test_winners import sparse_tournament, tied_entries

from cdbandits.paper_examples import clone_example_matrix, five_arm_matrix
from cdbandits.reference import reference_von_neumann_winner
from cdbandits.vnw_kernels import (
    CONDORCET,
    INTERIOR_POINT,
    SIMPLEX,
    SIMPLEX_MAX_K,
    TIE_TOL,
    _accept,
    _centre,
    _double_oracle,
    _face_oracle,
    _interior_point,
    _restricted_vertex,
    _scaled_submatrix,
    solve_one,
)


def solve(P, arms=None):
    arms = np.arange(P.shape[0]) if arms is None else np.asarray(arms)
    weights = np.zeros(arms.size)
    path, certificate = solve_one(np.asarray(P, dtype=float), arms, weights)
    return path, certificate, weights


def skew(values):
    upper = np.triu(values, 1)
    return upper - upper.T


def test_paths():
    assert solve(five_arm_matrix()[3:, 3:])[0] == CONDORCET
    assert solve(five_arm_matrix())[0] == SIMPLEX
    assert solve(clone_example_matrix(5))[0] == INTERIOR_POINT  # the clones tie
    dense = skew(np.random.default_rng(1).uniform(-1, 1, (100, 100)))
    assert solve(dense)[0] == INTERIOR_POINT  # the double oracle gives up on a dense support


def test_subset_indexing_equals_the_materialised_matrix():
    rng = np.random.default_rng(2)
    P = skew(rng.uniform(-1, 1, (20, 20)))
    arms = rng.choice(20, 9, replace=False)
    path, certificate, weights = solve(P, arms)
    expected = solve(P[np.ix_(arms, arms)])
    assert path == expected[0] and certificate == expected[1]
    np.testing.assert_array_equal(weights, expected[2])


@pytest.mark.parametrize("k", [1, 2, 5])
def test_all_ties_give_the_uniform_distribution(k):
    path, certificate, weights = solve(np.zeros((k, k)))
    np.testing.assert_allclose(weights, 1 / k, rtol=0, atol=1e-15)
    assert certificate == 0.0


def test_centre_of_the_clone_face_from_an_off_centre_start():
    """The face {w0 + w1 = w2 = w3 = 1/3} has its centre at w0 = w1 = 1/6.

    The start is off the face too (its weights sum to 1.02), as interior points are.
    """
    S = clone_example_matrix(5)
    start = np.array([0.3, 1 / 30, 1 / 3 + 0.01, 1 / 3 + 0.01, 0, 0, 0, 0, 0])
    centre = _centre(S, np.array([0, 1, 2, 3]), start, start @ S)
    np.testing.assert_allclose(centre, [1 / 6, 1 / 6, 1 / 3, 1 / 3, 0, 0, 0, 0, 0], atol=1e-14)


def test_centre_satisfies_its_optimality_condition_on_random_tied_faces():
    """On the face, the gradient of sum log w[U] + sum log (S.T w)[not U] has no component."""
    rng = np.random.default_rng(3)
    checked = 0
    for _ in range(200):
        k = int(rng.integers(3, 12))
        S = skew(rng.integers(-2, 3, (k, k)) / 2)
        path, _, weights = solve(S)
        inside = weights > 0
        equalizer = np.vstack([S[np.ix_(inside, inside)].T, np.ones(inside.sum())])
        directions = scipy.linalg.null_space(equalizer)
        if directions.shape[1] == 0:
            continue
        values = weights @ S
        gradient = 1 / weights[inside] + S[np.ix_(inside, ~inside)] @ (1 / values[~inside])
        assert np.abs(directions.T @ gradient).max() <= 1e-9 * np.abs(gradient).max()
        assert path == INTERIOR_POINT
        checked += 1
    assert checked >= 20  # the sample has tied faces of positive dimension


def test_centre_rejects_a_start_that_is_not_positive():
    S = clone_example_matrix(5)
    start = np.array([1.2, -0.2, 0, 0, 0, 0, 0, 0, 0])
    assert np.isnan(_centre(S, np.array([0, 1, 2, 3]), start, start @ S)).all()


def test_accept_checks_certificate_and_strict_complementarity():
    S = five_arm_matrix()
    exact = np.array([1, 1, 1, 0, 0]) / 3
    assert _accept(S, exact, True)
    assert not _accept(S, np.array([0, 0, 0, 1.0, 0]), False)  # arm 3 loses to arm 0
    assert not _accept(S, np.array([1, 1, 1, 0, 0]) / 2, False)  # not a distribution
    tied = np.zeros((2, 2))
    assert _accept(tied, np.array([1.0, 0.0]), False)
    assert not _accept(tied, np.array([1.0, 0.0]), True)  # arm 1 ties: support not maximal


def test_large_cloned_matrix_is_solved():
    """500 arms, 50 of them copies: a face of dozens of dimensions, many nearly tied arms."""
    rng = np.random.default_rng(7)
    base = skew(rng.uniform(-1, 1, (450, 450)))
    order = np.r_[np.arange(450), rng.integers(0, 450, 50)]
    P = base[np.ix_(order, order)]
    path, certificate, weights = solve(P)
    assert path == INTERIOR_POINT and certificate >= -1e-9
    for copy, arm in enumerate(order[450:], start=450):
        assert weights[copy] == pytest.approx(weights[arm], abs=1e-12)


def voter_margins(k: int, voters: int, rng: np.random.Generator) -> np.ndarray:
    """Majority margins of ``voters`` random rankings, divided by ``voters``: many exact ties."""
    ranks = np.argsort(rng.random((voters, k)), axis=1)
    above = (ranks[:, :, None] < ranks[:, None, :]).sum(axis=0)
    return (above - above.T) / voters


def interior_point_answer(S: np.ndarray) -> np.ndarray:
    weights = np.zeros(S.shape[0])
    assert _interior_point(S, weights)
    return weights


def tied_arms(S: np.ndarray, vertex: np.ndarray) -> np.ndarray:
    """The arms that ``vertex`` does not beat strictly, where every vNW lives."""
    return vertex @ S <= TIE_TOL


def assert_face_oracle_finds_the_interior_point_centre(S: np.ndarray, in_game: np.ndarray) -> None:
    weights = np.zeros(S.shape[0])
    assert _face_oracle(S, in_game.copy(), weights)
    expected = interior_point_answer(S)
    np.testing.assert_array_equal(weights > 0, expected > 0)
    np.testing.assert_allclose(weights, expected, rtol=0, atol=1e-8)


@settings(max_examples=150, deadline=None)
@given(st.integers(3, 14).flatmap(lambda k: arrays(np.float64, (k, k), elements=tied_entries)))
def test_tied_face_is_the_centre_the_interior_point_method_finds(values):
    """From a tied simplex vertex, the restricted games reach the whole game's centre."""
    S = skew(values)
    if not S.any():
        return
    S = S / np.abs(S).max()
    vertex = _restricted_vertex(S, np.arange(S.shape[0]))
    if not _accept(S, vertex, False) or _accept(S, vertex, True):
        return
    if 2 * np.count_nonzero(tied_arms(S, vertex)) <= S.shape[0]:
        assert_face_oracle_finds_the_interior_point_centre(S, tied_arms(S, vertex))
    else:  # as many candidates as arms, nearly: the caller solves the whole game
        assert not _face_oracle(S, tied_arms(S, vertex), np.zeros(S.shape[0]))


def test_an_arm_tied_only_at_the_restricted_centre_joins_the_candidates():
    """Arms 0 and 2 lose to the vertex, but not to the centre of the candidates' game.

    The candidates are arms 1, 3, 5 and 7; the centre of their game ties arm 0 and loses to
    arm 2, so it is not a vNW of the whole game. A second restricted game, with arms 0 and 2
    added, gives the centre.
    """
    S = skew(
        np.array(
            [
                [0, 1, 0.5, -0.5, 1, -0.5, 0, 0.5, -1],
                [0, 0, -0.5, 0.5, 0.5, -1, 1, 0, 0.5],
                [0, 0, 0, 0, -1, 1, -1, -1, 0.5],
                [0, 0, 0, 0, 0, 1, 0.5, -0.5, 0.5],
                [0, 0, 0, 0, 0, -1, 0, 0, 1],
                [0, 0, 0, 0, 0, 0, 0.5, 1, -1],
                [0, 0, 0, 0, 0, 0, 0, -0.5, -1],
                [0, 0, 0, 0, 0, 0, 0, 0, 1],
                [0] * 9,
            ]
        )
    )
    vertex = _restricted_vertex(S, np.arange(9))
    candidates = np.flatnonzero(tied_arms(S, vertex))
    restricted = interior_point_answer(_scaled_submatrix(S, candidates))
    centre_of_candidates = np.zeros(9)
    centre_of_candidates[candidates] = restricted
    assert candidates.tolist() == [1, 3, 5, 7]
    assert (centre_of_candidates @ S)[[0, 2]].tolist() == pytest.approx([0, -0.1], abs=1e-12)
    assert_face_oracle_finds_the_interior_point_centre(S, tied_arms(S, vertex))


@pytest.mark.parametrize("k", [100, 300])
def test_double_oracle_certifies_small_supports_of_large_games(k):
    """Voter margins have supports of a few arms: restricted games of a few dozen suffice."""
    rng = np.random.default_rng(k)
    for _ in range(3):
        S = voter_margins(k, 10, rng)
        in_game = np.zeros(k, dtype=bool)
        vertex = _double_oracle(S, in_game)
        assert _accept(S, vertex, False)
        assert np.count_nonzero(in_game) <= SIMPLEX_MAX_K
        assert np.count_nonzero(vertex) < 20
        path, certificate, weights = solve(S)
        assert path in (SIMPLEX, INTERIOR_POINT) and certificate >= -1e-9
        expected = interior_point_answer(S)
        np.testing.assert_array_equal(weights > 0, expected > 0)
        np.testing.assert_allclose(weights, expected, rtol=0, atol=1e-8)


def test_a_double_oracle_outgrowing_the_simplex_is_finished_by_the_face_oracle():
    """A sparse tournament whose support is too large for simplex games but not dense.

    The simplex games stop at ``SIMPLEX_MAX_K`` arms; the interior point games grown from
    them reach the interior point method's answer on the whole game.
    """
    k = 400
    S = sparse_tournament(k, 0.1, np.random.default_rng(7))
    in_game = np.zeros(k, dtype=bool)
    assert np.isnan(_double_oracle(S, in_game)).all()
    assert SIMPLEX_MAX_K < np.count_nonzero(in_game) <= 2 * SIMPLEX_MAX_K  # doubled once
    expected = interior_point_answer(S)
    assert np.count_nonzero(expected) > 0.05 * k
    assert_face_oracle_finds_the_interior_point_centre(S, in_game)
    path, certificate, weights = solve(S)
    assert path == INTERIOR_POINT and certificate >= -1e-9
    np.testing.assert_allclose(weights, expected, rtol=0, atol=1e-8)
    # The union of the vNWs' supports: it holds the cvxpy reference's (which may be a vertex)
    assert set(reference_von_neumann_winner(S).support) <= set(np.flatnonzero(weights))
    assert ((weights @ S)[weights == 0] > TIE_TOL).all()


def test_the_oracles_give_up_on_a_dense_support():
    """A random game's support is half its arms: its restricted games would be as large."""
    k = 400
    S = skew(np.random.default_rng(4).uniform(-1, 1, (k, k)))
    in_game = np.zeros(k, dtype=bool)
    assert np.isnan(_double_oracle(S, in_game)).all()
    assert in_game.any()  # the simplex games outgrew SIMPLEX_MAX_K before the support showed
    assert not _face_oracle(S, in_game, np.zeros(k))


def test_the_face_oracle_gives_up_on_a_dense_support_even_when_it_has_found_it():
    """Restricted to exactly its support, a random game is solved in one round, yet the face
    oracle declines: dense supports are for the interior point method on all arms."""
    k = 200
    S = skew(np.random.default_rng(5).uniform(-1, 1, (k, k)))
    support = interior_point_answer(S) > 0
    assert SIMPLEX_MAX_K < np.count_nonzero(support) <= k // 2
    assert not _face_oracle(S, support, np.zeros(k))
