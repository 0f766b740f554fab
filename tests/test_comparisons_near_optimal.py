import highspy
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.optimize import linprog

from cdbandits.comparisons import near_optimal
from cdbandits.comparisons.counts import PairCounts
from cdbandits.comparisons.near_optimal import (
    entry_scales,
    near_optimal_weight_bounds,
    optimal_face_bounds,
    studentised_bound,
    studentised_statistics,
)
from cdbandits.winners import CertificationError, SolverError, von_neumann_winner

# A cycle with unequal margins (a unique, mixed vNW) and a dominated fourth item.
P = np.array(
    [
        [0.0, 0.6, -0.2, 0.5],
        [-0.6, 0.0, 0.6, 0.5],
        [0.2, -0.6, 0.0, 0.5],
        [-0.5, -0.5, -0.5, 0.0],
    ]
)


def test_without_margins_the_set_is_the_unique_winner():
    low, high = near_optimal_weight_bounds(P, np.zeros((4, 4)))
    truth = von_neumann_winner(P).weights
    np.testing.assert_allclose(low, truth, atol=1e-7)
    np.testing.assert_allclose(high, truth, atol=1e-7)


def test_large_margins_allow_every_lottery():
    low, high = near_optimal_weight_bounds(P, np.full((4, 4), 2.0) - 2.0 * np.eye(4))
    np.testing.assert_allclose(low, 0.0, atol=1e-9)
    assert not np.signbit(low).any()  # printed as 0.000, not -0.000
    np.testing.assert_allclose(high, 1.0, atol=1e-9)


@pytest.mark.parametrize("scale", [0.05, 0.2, 0.5])
def test_the_bounds_are_the_projections_of_the_set(scale):
    rng = np.random.default_rng(7)
    margins = scale * rng.uniform(0.5, 1.5, (4, 4))
    np.fill_diagonal(margins, 0.0)
    low, high = near_optimal_weight_bounds(P, margins)
    lotteries = rng.dirichlet(np.full(4, 0.3), 200_000)
    inside = lotteries[((lotteries @ (P + margins)) >= 0).all(axis=1)]
    assert len(inside) > 100
    # Every lottery of the set lies within the bounds, and the bounds are nearly attained.
    assert (inside >= low - 1e-9).all() and (inside <= high + 1e-9).all()
    np.testing.assert_allclose(inside.min(axis=0), low, atol=0.05)
    np.testing.assert_allclose(inside.max(axis=0), high, atol=0.05)
    assert (low <= von_neumann_winner(P).weights + 1e-9).all()


def test_pure_lotteries_in_the_set_settle_ends_without_an_lp(monkeypatch):
    calls = []
    real = near_optimal._solve_lp
    monkeypatch.setattr(near_optimal, "_solve_lp", lambda *a: calls.append(1) or real(*a))
    # Items 0 and 1 can each win outright (their rows of P + margins are >= 0), item 2 cannot.
    margins = np.array([[0.0, 0.7, 0.7], [0.7, 0.0, 0.7], [0.0, 0.0, 0.0]])
    skew = np.array([[0.0, 0.5, 0.2], [-0.5, 0.0, 0.3], [-0.2, -0.3, 0.0]])
    low, high = near_optimal_weight_bounds(skew, margins)
    np.testing.assert_array_equal(low, [0, 0, 0])
    assert high[:2].tolist() == [1, 1] and high[2] < 1
    assert len(calls) == 1  # only item 2's largest weight needed an LP
    lotteries = np.random.default_rng(0).dirichlet(np.ones(3), 100_000)
    inside = lotteries[((lotteries @ (skew + margins)) >= 0).all(axis=1)]
    assert inside[:, 2].max() <= high[2] + 1e-9
    assert inside[:, 2].max() == pytest.approx(high[2], abs=0.02)


def test_the_lps_agree_with_scipy_linprog():
    rng = np.random.default_rng(3)
    for _ in range(20):
        upper = np.triu(rng.uniform(-1, 1, (6, 6)), 1)
        A = upper - upper.T + 0.05 * rng.uniform(0, 1, (6, 6))
        objective = -np.eye(6)[rng.integers(6)] * rng.choice([-1.0, 1.0])
        status, x, duals = near_optimal._solve_lp(objective, A)
        reference = linprog(
            objective, A_ub=-A.T, b_ub=np.zeros(6), A_eq=np.ones((1, 6)), b_eq=[1.0]
        )
        assert status == highspy.HighsModelStatus.kOptimal and reference.status == 0
        assert objective @ x == pytest.approx(reference.fun, abs=1e-9)
        np.testing.assert_allclose(duals[:6], -reference.ineqlin.marginals, atol=1e-9)


def test_an_uncertified_answer_raises(monkeypatch):
    real = near_optimal._solve_lp

    def off_by_a_little(*args):
        status, x, duals = real(*args)
        return status, x + np.array([0.01, -0.01, 0.0, 0.0]), duals

    monkeypatch.setattr(near_optimal, "_solve_lp", off_by_a_little)
    with pytest.raises(CertificationError, match="not certified"):
        near_optimal_weight_bounds(P, np.zeros((4, 4)))


def test_a_solver_failure_raises(monkeypatch):
    def failed(*args):
        return highspy.HighsModelStatus.kSolveError, np.zeros(4), np.zeros(5)

    monkeypatch.setattr(near_optimal, "_solve_lp", failed)
    with pytest.raises(SolverError, match="model status"):
        near_optimal_weight_bounds(P, np.zeros((4, 4)))


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="skew-symmetric"):
        near_optimal_weight_bounds(np.ones((2, 2)), np.zeros((2, 2)))
    with pytest.raises(ValueError, match="non-negative"):
        near_optimal_weight_bounds(P, -np.ones((4, 4)))
    with pytest.raises(ValueError, match="confidence"):
        studentised_bound(np.zeros((3, 2)), np.zeros(2), 1.0)
    with pytest.raises(ValueError, match="observed"):
        studentised_bound(np.zeros((3, 2)), np.zeros(3), 0.9)


def test_entry_scales_are_binomial_standard_errors_with_a_virtual_win_each_way():
    pair = np.array([[0, 1]])
    scales = entry_scales(PairCounts(("a", "b"), pair, np.array([[8.0, 2.0]]), np.zeros(1)))
    expected = 2 * np.sqrt(0.75 * 0.25 / 12)  # q = 9/12 one way, 3/12 the other
    np.testing.assert_allclose(scales, [[0, expected], [expected, 0]])
    never = entry_scales(
        PairCounts(("a", "b"), np.zeros((0, 2), np.int64), np.zeros((0, 2)), np.zeros(0))
    )
    assert never[0, 1] == pytest.approx(2 * np.sqrt(0.25 / 2))


def test_studentised_statistics_by_hand():
    scales = np.array([[0.0, 0.5, 0.25], [0.5, 0.0, 0.5], [0.25, 0.5, 0.0]])
    deviation = np.array([[0.0, 0.2, -0.1], [-0.2, 0.0, 0.4], [0.1, -0.4, 0.0]])
    half = np.array([0.5, 0.5, 0.0])
    stats = studentised_statistics(deviation[None], np.vstack([np.eye(3), half]), scales)
    # Pure lotteries: the row's largest standardised entry; the mixture: column by column.
    mixed = max((half @ deviation)[j] / (half @ scales)[j] for j in range(3))
    np.testing.assert_allclose(stats[0], [0.4, 0.8, 0.4, mixed])
    assert studentised_bound(np.array([[-1.0, -2.0]]), np.zeros(2), 0.95) == 0.0


def test_candidates_outside_the_set_do_not_set_the_bound():
    draws = np.arange(100.0)[:, None] * [1.0, 2.0, 0.5]  # quantiles 49.5, 99, 24.75 at 0.5
    assert studentised_bound(draws, np.zeros(3), 0.5) == pytest.approx(99.0)
    # The second needs t = 150 > 99 to be in the set: dropped, t = 49.5; the third (30) is
    # then dropped too, and the first stays.
    needed = np.array([0.0, 150.0, 30.0])
    assert studentised_bound(draws, needed, 0.5) == pytest.approx(49.5)
    # A candidate needing t = 60 stays at t = 99 ... and is dropped at 49.5: one more round.
    assert studentised_bound(draws, np.array([0.0, 150.0, 60.0]), 0.5) == pytest.approx(49.5)


def _face_extreme(M, item, sign):
    """``max sign * p_item`` over the optimal face of ``M``, by scipy's HiGHS (independent)."""
    k = M.shape[0]
    cost = np.zeros(k)
    cost[item] = -sign
    answer = linprog(
        cost, -M.T, np.zeros(k), np.ones((1, k)), [1.0], bounds=[(0, None)] * k, method="highs"
    )
    assert answer.status == 0, answer.message
    return sign * answer.x[item]


def _with_clone(M, item):
    """``M`` with a copy of ``item`` appended (the two tie; every other entry copied)."""
    grown = np.zeros((M.shape[0] + 1,) * 2)
    grown[:-1, :-1] = M
    grown[-1, :-1], grown[:-1, -1] = M[item], M[:, item]
    return grown


skew_games = st.integers(2, 6).flatmap(
    lambda k: st.lists(
        st.integers(-3, 3), min_size=k * (k - 1) // 2, max_size=k * (k - 1) // 2
    ).map(lambda upper: _skew_from_upper(k, upper))
)


def _skew_from_upper(k, upper):
    M = np.zeros((k, k))
    M[np.triu_indices(k, 1)] = upper
    return M - M.T


@given(M=skew_games, clone=st.booleans())
def test_optimal_face_bounds_hold_the_analytic_centre_and_are_attained(M, clone):
    if clone:
        M = _with_clone(M, 0)
    from cdbandits.vnw_numpy import solve

    path, centre = solve(M)
    assert path is not None
    low, high = optimal_face_bounds(M, np.flatnonzero(centre > 1e-12))
    assert (low <= centre + 1e-7).all() and (centre <= high + 1e-7).all()
    for item in range(M.shape[0]):
        assert high[item] == pytest.approx(_face_extreme(M, item, 1.0), abs=1e-6)
        assert low[item] == pytest.approx(-_face_extreme(M, item, -1.0), abs=1e-6)


def test_a_clone_makes_the_face_a_segment_of_known_ends():
    # P's unique winner (w on the cycle, 0 on item 3) with item 0 cloned: the two clones
    # share w_0 in any proportion, the others keep their weights.
    w = von_neumann_winner(P).weights
    low, high = optimal_face_bounds(_with_clone(P, 0), np.flatnonzero(w > 1e-12))
    np.testing.assert_allclose(low, [0.0, w[1], w[2], 0.0, 0.0], atol=1e-7)
    np.testing.assert_allclose(high, [w[0], w[1], w[2], 0.0, w[0]], atol=1e-7)
    unique_low, unique_high = optimal_face_bounds(P, np.flatnonzero(w > 1e-12))
    assert (unique_high - unique_low <= near_optimal.FACE_TOL).all()


def test_a_support_smaller_than_the_largest_still_gives_the_whole_face():
    M = np.array([[0.0, 0.0, 1.0], [0.0, 0.0, 1.0], [-1.0, -1.0, 0.0]])
    for support in ([0], [1], [0, 1]):
        low, high = optimal_face_bounds(M, support)
        np.testing.assert_allclose(low, [0.0, 0.0, 0.0], atol=1e-9)
        np.testing.assert_allclose(high, [1.0, 1.0, 0.0], atol=1e-9)


def test_a_failed_face_lp_is_an_error(monkeypatch):
    monkeypatch.setattr(
        near_optimal,
        "_solve_lp",
        lambda objective, A: (highspy.HighsModelStatus.kInfeasible, None, None),
    )
    M = np.array([[0.0, 0.0, 1.0], [0.0, 0.0, 1.0], [-1.0, -1.0, 0.0]])
    with pytest.raises(SolverError, match="over the von Neumann winners"):
        optimal_face_bounds(M, [0, 1])


def test_margin_scales_are_the_rate_scales_times_comparisons_over_c():
    pairs = np.array([[0, 1], [0, 2]])
    wins = np.array([[6.0, 2.0], [1.0, 1.0]])
    rates = PairCounts(("a", "b", "c"), pairs, wins, np.zeros(2))
    margins = PairCounts(("a", "b", "c"), pairs, wins, np.zeros(2), matrix="margins")
    n = rates.comparisons
    np.testing.assert_allclose(entry_scales(margins), entry_scales(rates) * (n + 2) / 8.0)
