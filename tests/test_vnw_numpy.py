"""The NumPy vNW path: cross-checked against the compiled kernel and the cvxpy reference."""

import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from test_vnw_kernels import voter_margins
from test_winners import (
    analytic_centre_residual,
    magnitudes,
    tied_entries,
    ties_and_clones,
)
from test_winners import skew_from_upper as skew

import cdbandits.winners as winners
from cdbandits import vnw_numpy
from cdbandits.paper_examples import clone_example_matrix, five_arm_matrix
from cdbandits.vnw_numpy import CONDORCET, INTERIOR_POINT, NUMPY_MAX_K, TIE_TOL, solve
from cdbandits.winners import (
    CERTIFICATE_TOL,
    CertificationError,
    exploitability,
    reference_von_neumann_winner,
    von_neumann_winner,
)


def scaled(P):
    scale = np.abs(P).max()
    return P / scale if scale > 0 else P


def assert_certified(P, weights, strict=True):
    """A distribution, certified relative to max |P|, and (if ``strict``) strictly complementary.

    Strict complementarity proves the support is the union of the supports of all vNWs: an
    arm with a positive value against one vNW has weight zero in every vNW. Matrices whose
    entries span many decades have near-ties (values between 0 and ``TIE_TOL``), which both
    solvers accept without it once the central path has converged.
    """
    assert np.all(weights >= 0) and abs(weights.sum() - 1) <= 1e-12
    assert (weights @ scaled(P)).min() >= -CERTIFICATE_TOL
    assert not strict or is_strictly_complementary(P, weights)


def is_strictly_complementary(P, weights):
    return bool(np.all((weights > 0) | (weights @ scaled(P) > TIE_TOL)))


def compiled_is_trustworthy(result):
    """False for a compiled answer with a weight at rounding level (see the xfail below)."""
    return result.weights[result.support].min() > 1e-12


def test_paths_and_worked_examples():
    path, weights = solve(five_arm_matrix()[3:, 3:])
    assert path == CONDORCET and weights.tolist() == [1.0, 0.0]
    path, weights = solve(five_arm_matrix())
    assert path == INTERIOR_POINT
    np.testing.assert_allclose(weights, [1 / 3, 1 / 3, 1 / 3, 0, 0], rtol=0, atol=1e-15)
    # The clone example: the face {w0 + w1 = w2 = w3 = 1/3} has its centre at w0 = w1 = 1/6.
    path, weights = solve(clone_example_matrix(5))
    assert path == INTERIOR_POINT
    np.testing.assert_allclose(weights[:4], [1 / 6, 1 / 6, 1 / 3, 1 / 3], rtol=0, atol=1e-12)
    assert not weights[4:].any()


def test_accept_checks_certificate_and_strict_complementarity():
    S = five_arm_matrix()
    assert vnw_numpy._accept(S, np.array([1, 1, 1, 0, 0]) / 3, strict=True)
    assert not vnw_numpy._accept(S, np.array([0, 0, 0, 1.0, 0]), strict=False)  # 3 loses to 0
    assert not vnw_numpy._accept(S, np.array([1, 1, 1, 0, 0]) / 2, strict=False)  # sum 1.5
    assert not vnw_numpy._accept(S, None, strict=False)
    tied = np.zeros((2, 2))
    assert vnw_numpy._accept(tied, np.array([1.0, 0.0]), strict=False)
    assert not vnw_numpy._accept(tied, np.array([1.0, 0.0]), strict=True)  # support not maximal


def test_face_point_finds_the_centre_from_off_the_face_and_needs_a_positive_start():
    """The start's weights sum to 1.02, off the face as interior points are."""
    S = clone_example_matrix(5)
    inside = np.arange(9) < 4
    off_centre = np.array([0.3, 1 / 30, 1 / 3 + 0.01, 1 / 3 + 0.01, 0, 0, 0, 0, 0])
    centre = vnw_numpy._face_point(S, inside, off_centre, off_centre @ S)
    np.testing.assert_allclose(centre, [1 / 6, 1 / 6, 1 / 3, 1 / 3, 0, 0, 0, 0, 0], atol=1e-14)
    not_positive = np.r_[1.2, -0.2, np.zeros(7)]
    assert vnw_numpy._face_point(S, inside, not_positive, not_positive @ S) is None


@pytest.mark.parametrize("k", [1, 2, 5])
def test_all_ties_give_the_uniform_distribution(k):
    path, weights = solve(np.zeros((k, k)))
    assert path == (CONDORCET if k == 1 else INTERIOR_POINT)
    np.testing.assert_allclose(weights, 1 / k, rtol=0, atol=1e-15)


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 40).flatmap(lambda k: arrays(np.float64, (k, k), elements=magnitudes)),
    st.sampled_from([1.0, 1e-150, 1e-3, 1e-9]),
)
def test_random_matrices_agree_with_the_compiled_kernel(values, scale):
    P = skew(values) * scale
    path, weights = solve(P)
    assert path is not None
    assert_certified(P, weights, strict=False)
    try:
        compiled = von_neumann_winner(P, engine="compiled")
    except CertificationError:  # a few sparse matrices spanning many decades, from K = 28 on
        event("the compiled kernel cannot certify")
        return
    # Entries spanning many decades make faces whose equalizer systems are singular only to
    # within RANK_TOL: there the two paths may certify different supports (both within
    # CERTIFICATE_TOL). On a common support both must return the face's analytic centre.
    same_support = np.flatnonzero(weights).tolist() == compiled.support.tolist()
    if compiled_is_trustworthy(compiled) and same_support:
        event("compared with the compiled kernel")
        np.testing.assert_allclose(weights, compiled.weights, rtol=0, atol=1e-8)
    else:
        event("another support, certified to the same tolerance")


@settings(max_examples=150, deadline=None)
@given(
    st.integers(2, 20).flatmap(lambda k: arrays(np.float64, (k, k), elements=tied_entries)),
    st.lists(st.integers(0, 19), max_size=4),
    st.sampled_from([1.0, 1e-9]),
)
def test_ties_and_clones_agree_with_cvxpy_and_the_compiled_kernel(values, clones, scale):
    """The reference's support, the face's analytic centre, clones sharing their weight."""
    P = ties_and_clones(values, clones) * scale
    path, weights = solve(P)
    assert path is not None
    assert_certified(P, weights)
    reference = reference_von_neumann_winner(P)
    assert np.flatnonzero(weights).tolist() == reference.support.tolist()
    if P.any():
        assert analytic_centre_residual(P, weights) <= 1e-7
    compiled = von_neumann_winner(P, engine="compiled")
    if compiled_is_trustworthy(compiled):
        np.testing.assert_allclose(weights, compiled.weights, rtol=0, atol=1e-8)
    copies = range(values.shape[0], P.shape[0])
    for arm, copy in zip(np.asarray(clones, dtype=np.int64) % values.shape[0], copies, strict=True):
        assert weights[arm] == pytest.approx(weights[copy], abs=1e-12)


def test_seeded_tied_matrices_agree_with_the_compiled_kernel():
    """The comparisons above skip compiled answers with rounding-level weights: here they are
    counted, so that the cross-check cannot pass by skipping."""
    rng = np.random.default_rng(12)
    compared = 0
    for _ in range(300):
        k = int(rng.integers(3, 25))
        P = skew(rng.integers(-2, 3, (k, k)) / 2)
        weights = solve(P)[1]
        compiled = von_neumann_winner(P, engine="compiled")
        if compiled_is_trustworthy(compiled):
            np.testing.assert_allclose(weights, compiled.weights, rtol=0, atol=1e-8)
            compared += 1
    assert compared >= 270


@settings(max_examples=10, deadline=None)
@given(
    k=st.integers(41, NUMPY_MAX_K),
    kind=st.sampled_from(["uniform", "margins", "clones"]),
    seed=st.integers(0, 2**32 - 1),
)
def test_large_matrices_up_to_the_auto_limit(k, kind, seed):
    rng = np.random.default_rng(seed)
    if kind == "uniform":
        P = skew(rng.uniform(-1, 1, (k, k)))
    elif kind == "margins":  # integer margins of 10 voters: many exact ties
        P = skew(rng.integers(-5, 6, (k, k)) / 5)
    else:
        P = ties_and_clones(rng.uniform(-1, 1, (k - 5, k - 5)), list(rng.integers(0, k - 5, 5)))
    path, weights = solve(P)
    assert path is not None
    assert_certified(P, weights)
    assert np.flatnonzero(weights).tolist() == reference_von_neumann_winner(P).support.tolist()
    compiled = von_neumann_winner(P, engine="compiled")
    if compiled_is_trustworthy(compiled):
        np.testing.assert_allclose(weights, compiled.weights, rtol=0, atol=1e-8)


#: Integer margins on which the compiled kernel's simplex vertex carries a weight of 8e-17 on
#: arm 2, which no vNW uses (arm 2 has value 0.21 against the analytic centre).
SPURIOUS_WEIGHT = (
    np.array(
        [
            [0, 2, -2, -2, 2, -2, 2],
            [-2, 0, -2, 0, 0, -2, 0],
            [2, 2, 0, 2, 0, -2, -2],
            [2, 0, -2, 0, -2, 2, -2],
            [-2, 0, 0, 2, 0, 0, 2],
            [2, 2, 2, -2, 0, 0, 0],
            [-2, 0, 2, 2, -2, 0, 0],
        ]
    )
    / 2
)


def test_a_tied_face_is_solved_to_its_centre():
    path, weights = solve(SPURIOUS_WEIGHT)
    assert path == INTERIOR_POINT
    assert_certified(SPURIOUS_WEIGHT, weights)
    assert np.flatnonzero(weights).tolist() == [0, 3, 4, 5]
    assert reference_von_neumann_winner(SPURIOUS_WEIGHT).support.tolist() == [0, 3, 4, 5]
    assert analytic_centre_residual(SPURIOUS_WEIGHT, weights) <= 1e-12


def test_the_compiled_kernel_returns_the_same_centre():
    compiled = von_neumann_winner(SPURIOUS_WEIGHT, engine="compiled")
    np.testing.assert_allclose(compiled.weights, solve(SPURIOUS_WEIGHT)[1], rtol=0, atol=1e-8)


def test_engines_are_chosen_by_name_and_by_size():
    P = five_arm_matrix()
    assert von_neumann_winner(P, engine="numpy").solver == INTERIOR_POINT
    assert von_neumann_winner(P, engine="compiled").solver == "simplex"
    assert von_neumann_winner(P, engine="auto").solver == INTERIOR_POINT
    assert von_neumann_winner(P).solver == "simplex"  # the library's default stays compiled
    large = skew(np.random.default_rng(4).uniform(-1, 1, (NUMPY_MAX_K + 1, NUMPY_MAX_K + 1)))
    assert von_neumann_winner(large, engine="auto").solver in winners.COMPILED_METHODS
    assert von_neumann_winner(large[:-1, :-1], engine="auto").solver == INTERIOR_POINT
    with pytest.raises(ValueError, match="engine must be one of"):
        von_neumann_winner(P, engine="fast")


def test_no_certified_answer_raises(monkeypatch):
    monkeypatch.setattr(vnw_numpy, "_interior_point", lambda S: None)
    with pytest.raises(CertificationError, match="5x5 matrix.*from the NumPy solver"):
        von_neumann_winner(five_arm_matrix(), engine="numpy")


def test_an_uncertified_answer_raises(monkeypatch):
    def losing_arm(P):
        weights = np.zeros(P.shape[0])
        weights[3] = 1.0  # arm 3 loses to arm 0 by 0.5
        return INTERIOR_POINT, weights

    monkeypatch.setattr(winners, "solve_without_numba", losing_arm)
    with pytest.raises(CertificationError, match="certified to -1e-09"):
        von_neumann_winner(five_arm_matrix(), engine="numpy")
    assert exploitability(five_arm_matrix(), losing_arm(five_arm_matrix())[1]) < 0


@pytest.mark.parametrize("engine", ["numpy", "compiled"])
def test_both_engines_centre_large_tied_faces_to_rounding(engine):
    """Voter margins at K = 136: faces of a few arms, nearly tied arms outside them.

    Here the centring's line search cannot resolve its last gains (its objective sums 136
    logarithms); without full Newton steps near the centre it stopped up to 4e-9 (compiled)
    and 7e-12 (NumPy) short of it, in relative residual.
    """
    rng = np.random.default_rng(136)
    for _ in range(20):
        P = voter_margins(136, 10, rng)
        weights = von_neumann_winner(P, engine=engine).weights
        assert analytic_centre_residual(P, weights) <= 1e-12
