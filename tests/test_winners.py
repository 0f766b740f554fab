import numpy as np
import pytest
import scipy.linalg
import scipy.optimize
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import cdbandits.vnw_kernels as kernels
from cdbandits.paper_examples import (
    clone_example_matrix,
    five_arm_matrix,
    paper_clone_copeland_scores,
)
from cdbandits.preference import as_skew
from cdbandits.reference import REFERENCE_SOLVER
from cdbandits.winners import (
    CERTIFICATE_TOL,
    CONDORCET_SHORTCUT,
    COPELAND_VARIANTS,
    CertificationError,
    SolverError,
    all_winners,
    borda_scores,
    condorcet_winner,
    copeland_losses,
    copeland_scores,
    copeland_winners,
    exploitability,
    random_walk_distribution,
    reference_von_neumann_winner,
    von_neumann_winner,
    winners_markdown,
    winners_table,
)

PRINTED = 5e-4  # half a unit of the paper's last printed digit


def skew_from_upper(values: np.ndarray) -> np.ndarray:
    upper = np.triu(values, 1)
    return upper - upper.T


def sparse_tournament(k: int, density: float, rng: np.random.Generator) -> np.ndarray:
    """Win-rate differences of players of normal latent strengths, of the pairs that met.

    Each pair meets with probability ``density`` (0 if not, as in ATP's head-to-head data);
    the rate is ``tanh`` of the strength difference plus uniform noise in [-1, 1], clipped.
    """
    strength = rng.normal(size=k)
    rate = np.tanh(strength[:, None] - strength[None, :]) + rng.uniform(-1, 1, (k, k))
    return skew_from_upper(np.where(rng.random((k, k)) < density, np.clip(rate, -1, 1), 0.0))


def highs_von_neumann(P: np.ndarray) -> np.ndarray:
    """Independent reference: the same LP solved by scipy's HiGHS (variables w, t)."""
    k = P.shape[0]
    cost = np.r_[np.zeros(k), -1.0]
    inequalities = np.c_[-P.T, np.ones(k)]  # t - (P^T w)_b <= 0
    result = scipy.optimize.linprog(
        cost,
        A_ub=inequalities,
        b_ub=np.zeros(k),
        A_eq=np.r_[np.ones(k), 0.0][None, :],
        b_eq=[1.0],
        bounds=[(0, None)] * k + [(None, None)],
        method="highs",
    )
    assert result.status == 0, result.message
    return result.x[:k]


def assert_certified(P: np.ndarray, weights: np.ndarray) -> None:
    assert np.all(weights >= 0)
    assert abs(weights.sum() - 1) <= 1e-12
    assert exploitability(P, weights) >= -CERTIFICATE_TOL


class TestFiveArmExample:
    def test_von_neumann_winner_is_uniform_on_first_three_arms(self):
        result = von_neumann_winner(five_arm_matrix())
        np.testing.assert_allclose(result.weights, [1 / 3, 1 / 3, 1 / 3, 0, 0], atol=1e-12)
        assert result.support.tolist() == [0, 1, 2]
        assert result.exploitability >= -CERTIFICATE_TOL

    def test_copeland_scores_and_winner(self):
        P = five_arm_matrix()
        assert copeland_scores(P).tolist() == [2, 2, 2, 3, 1]
        assert copeland_winners(P).tolist() == [3]
        assert copeland_losses(P).tolist() == [1, 1, 1, 0, 2]
        assert condorcet_winner(P) is None

    def test_borda_scores_to_printed_digits(self):
        scores = borda_scores(five_arm_matrix())
        np.testing.assert_allclose(scores, [0.455, 0.53, 0.53, 0.54, 0.445], atol=PRINTED)
        assert int(np.argmax(scores)) == 3

    def test_random_walk_to_printed_digits(self):
        distribution = random_walk_distribution(five_arm_matrix())
        np.testing.assert_allclose(distribution, [0.198, 0.212, 0.204, 0.217, 0.169], atol=PRINTED)
        assert int(np.argmax(distribution)) == 3


class TestCloneExample:
    @pytest.mark.parametrize("k", [5, 6, 7, 10, 23, 60])
    def test_copeland_table_equals_paper(self, k):
        P = clone_example_matrix(k)
        assert P.shape == (k + 4, k + 4)
        for variant, expected in paper_clone_copeland_scores(k).items():
            assert copeland_scores(P, variant)[:4].tolist() == expected
            assert 2 not in copeland_winners(P, variant)

    @pytest.mark.parametrize("k", [5, 9])
    def test_without_clone_the_cycle_is_winner_and_support(self, k):
        P = clone_example_matrix(k, with_clone=False)
        assert copeland_winners(P).tolist() == [0, 1, 2]
        assert copeland_scores(P)[:3].tolist() == [k + 1] * 3
        np.testing.assert_allclose(von_neumann_winner(P).weights[:3], 1 / 3, atol=1e-12)

    @pytest.mark.parametrize("solver", [None, "HIGHS"])
    def test_von_neumann_winner_lies_in_the_paper_polytope(self, solver):
        P = clone_example_matrix(6)
        weights = von_neumann_winner(P, solver=solver).weights
        np.testing.assert_allclose(
            [weights[0] + weights[1], weights[2], weights[3]], 1 / 3, atol=1e-12
        )
        assert np.all(weights[4:] == 0)

    def test_clones_share_weight_and_support_is_the_union(self):
        result = von_neumann_winner(clone_example_matrix(6))
        np.testing.assert_allclose(result.weights[:2], 1 / 6, atol=1e-12)
        assert result.support.tolist() == [0, 1, 2, 3]
        assert result.solver == "interior_point"


def test_condorcet_winner_and_copeland_variants_with_ties():
    P = np.array([[0, 0, 0.2], [0, 0, 0.4], [-0.2, -0.4, 0]])
    assert condorcet_winner(P) is None
    assert copeland_scores(P, "wins").tolist() == [1, 1, 0]
    assert copeland_scores(P, "wins_or_ties").tolist() == [3, 3, 1]
    assert copeland_scores(P, "wins_minus_losses").tolist() == [1, 1, -2]
    with pytest.raises(ValueError, match="variant must be one of"):
        copeland_scores(P, "borda")


def test_random_walk_is_stationary_on_random_matrices():
    rng = np.random.default_rng(11)
    for k in (2, 5, 30):
        P = skew_from_upper(rng.uniform(-1, 1, (k, k)))
        distribution = random_walk_distribution(P)
        Q = (P + 1) / 2
        transition = Q / Q.sum(axis=0)
        np.testing.assert_allclose(transition @ distribution, distribution, atol=1e-12)
        assert distribution.min() >= 0 and abs(distribution.sum() - 1) < 1e-12


def test_random_walk_concentrates_on_an_arm_that_always_wins():
    P = np.array([[0, 1, 1], [-1, 0, 0], [-1, 0, 0]], dtype=float)
    np.testing.assert_allclose(random_walk_distribution(P), [1, 0, 0], atol=1e-12)


def test_published_informational_matrix(data_mirror):
    path = data_mirror / "mslr-preference-matrices/nightingal3-duelling-bandits"
    P = as_skew(np.load(path / "MSLR_Informational_PMat.npz")["PMat"])
    result = von_neumann_winner(P)
    assert result.support.tolist() == [64, 109, 114]
    np.testing.assert_allclose(result.weights[[64, 109, 114]], [0.1073, 0.7888, 0.1038], atol=5e-5)
    assert condorcet_winner(P) is None
    assert copeland_winners(P).tolist() == [114]
    assert result.exploitability >= -CERTIFICATE_TOL


# Entries are 0 or have magnitude in [1e-5, 1] (the published MSLR matrices span
# 1.4e-5 to 0.98); solvers cannot resolve entries many more decades apart to 1e-9.
magnitudes = st.one_of(
    st.just(0.0),
    st.tuples(st.sampled_from([-1.0, 1.0]), st.floats(-5, 0)).map(lambda s: s[0] * 10 ** s[1]),
)


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 14).flatmap(lambda k: arrays(np.float64, (k, k), elements=magnitudes)),
    st.sampled_from([1.0, 1e-150, 1e-3]),
)
def test_random_matrices_give_certified_winners(values, scale):
    P = skew_from_upper(values) * scale
    result = von_neumann_winner(P)
    assert_certified(P, result.weights)
    assert result.support.tolist() == np.flatnonzero(result.weights > 0).tolist()
    winner = condorcet_winner(P)
    if winner is not None:
        expected = np.zeros(P.shape[0])
        expected[winner] = 1.0
        np.testing.assert_array_equal(result.weights, expected)
    if P.any():
        # certified relative to the matrix's own scale, not only in absolute terms
        assert exploitability(P / np.abs(P).max(), result.weights) >= -CERTIFICATE_TOL


def analytic_centre_residual(P: np.ndarray, weights: np.ndarray) -> float:
    """How far ``weights`` is from the analytic centre of its optimal face (0 at the centre).

    The face is ``{w >= 0 on U, 0 off U: P[U,U].T w = 0, sum(w) = 1, (P.T w)[b] >= 0}``
    with ``U`` the support; the centre maximises ``sum log w[U] + sum log (P.T w)[not U]``,
    so the gradient of that function is orthogonal to the face's directions.
    """
    S = P / np.abs(P).max()
    inside = weights > 0
    values = weights @ S
    directions = scipy.linalg.null_space(
        np.vstack([S[np.ix_(inside, inside)].T, np.ones(inside.sum())])
    )
    if directions.shape[1] == 0:
        return 0.0
    gradient = 1 / weights[inside] + S[np.ix_(inside, ~inside)] @ (1 / values[~inside])
    return float(np.abs(directions.T @ gradient).max() / np.abs(gradient).max())


def ties_and_clones(values: np.ndarray, clones: list[int]) -> np.ndarray:
    """Skew matrix from ``values`` (upper triangle) with copies of the arms in ``clones``."""
    base = skew_from_upper(values)
    order = np.r_[np.arange(base.shape[0]), np.asarray(clones, dtype=np.int64) % base.shape[0]]
    return base[np.ix_(order, order)]


tied_entries = st.sampled_from([-1.0, -0.5, 0.0, 0.5, 1.0])


@settings(max_examples=120, deadline=None)
@given(
    st.integers(2, 12).flatmap(lambda k: arrays(np.float64, (k, k), elements=tied_entries)),
    st.lists(st.integers(0, 11), max_size=3),
    st.sampled_from([1.0, 1e-9]),
)
def test_ties_and_clones_agree_with_cvxpy_on_the_support(values, clones, scale):
    """Same support as the interior-point reference; the point is the face's analytic centre."""
    P = ties_and_clones(values, clones) * scale
    ours = von_neumann_winner(P)
    reference = reference_von_neumann_winner(P)
    assert_certified(P, ours.weights)
    assert ours.support.tolist() == reference.support.tolist()
    if ours.solver == "simplex":  # proven unique: the reference must find the same point
        np.testing.assert_allclose(ours.weights, reference.weights, rtol=0, atol=1e-8)
    if P.any():  # certified relative to the matrix's own scale; the face's analytic centre
        assert exploitability(P / np.abs(P).max(), ours.weights) >= -CERTIFICATE_TOL
        assert analytic_centre_residual(P, ours.weights) <= 1e-7
    copies = range(values.shape[0], P.shape[0])
    for arm, copy in zip(np.asarray(clones, dtype=np.int64) % values.shape[0], copies, strict=True):
        assert ours.weights[arm] == pytest.approx(ours.weights[copy], abs=1e-12)


@settings(max_examples=16, deadline=None)
@given(
    k=st.integers(50, 200),
    kind=st.sampled_from(["uniform", "margins", "clones", "sparse"]),
    seed=st.integers(0, 2**32 - 1),
)
def test_large_matrices_agree_with_scipy_and_cvxpy(k, kind, seed):
    rng = np.random.default_rng(seed)
    if kind == "uniform":
        P = skew_from_upper(rng.uniform(-1, 1, (k, k)))
    elif kind == "margins":  # integer margins of 10 voters: many exact ties
        P = skew_from_upper(rng.integers(-5, 6, (k, k)) / 5)
    elif kind == "clones":
        P = ties_and_clones(rng.uniform(-1, 1, (k - 5, k - 5)), list(rng.integers(0, k - 5, 5)))
    else:  # a tenth of the pairs met: double oracles outgrow the simplex games (ATP-like)
        P = sparse_tournament(k, 0.1, rng)
    ours = von_neumann_winner(P)
    assert_certified(P, ours.weights)
    assert exploitability(P, highs_von_neumann(P)) >= -1e-7  # HiGHS: same value, 0
    reference = reference_von_neumann_winner(P)
    # Ours is strictly complementary, so its support is the union of all vNWs' supports: it
    # holds the reference's, and equals it when the reference's interior point answer (also
    # strictly complementary) was certified rather than its simplex re-solve's vertex.
    assert ((ours.weights @ P)[ours.weights == 0] > 0).all()
    assert set(reference.support) <= set(ours.support)
    if reference.solver == REFERENCE_SOLVER:
        assert ours.support.tolist() == reference.support.tolist()
    if ours.solver == "simplex" or kind == "uniform":  # unique vNW
        np.testing.assert_allclose(ours.weights, reference.weights, rtol=0, atol=1e-8)


def test_agrees_with_independent_highs_solver_on_random_matrices():
    rng = np.random.default_rng(2015)
    worst = 0.0
    for _ in range(300):
        k = int(rng.integers(2, 40))
        P = skew_from_upper(rng.uniform(-1, 1, (k, k)))
        ours = von_neumann_winner(P)
        reference = highs_von_neumann(P)
        assert exploitability(P, reference) >= -1e-7
        assert ours.support.tolist() == np.flatnonzero(reference > 1e-7).tolist()
        worst = max(worst, float(np.abs(ours.weights - reference).max()))
    assert worst <= 1e-7


def test_solver_is_selectable_and_reported():
    P = five_arm_matrix()
    assert von_neumann_winner(P).solver == "simplex"
    assert von_neumann_winner(P, solver="HIGHS").solver == "HIGHS"
    assert von_neumann_winner(P, solver="CLARABEL").solver == "CLARABEL"
    assert von_neumann_winner(P[3:, 3:]).solver == CONDORCET_SHORTCUT
    with pytest.raises(SolverError, match="NOT_A_SOLVER"):
        von_neumann_winner(P, solver="NOT_A_SOLVER")


@pytest.mark.parametrize("tol", [np.nan, np.inf, -1e-9])
def test_bad_tolerance_is_rejected(tol):
    with pytest.raises(ValueError, match="tol must be a finite number"):
        von_neumann_winner(five_arm_matrix(), tol=tol)


def test_uncertifiable_answer_raises(monkeypatch):
    def losing_arm(P, arms, weights):
        weights[:] = 0.0
        weights[3] = 1.0  # arm 3 loses to arm 0 by 0.5
        return kernels.SIMPLEX, 0.0

    monkeypatch.setattr(kernels, "solve_one", losing_arm)
    with pytest.raises(CertificationError, match=r"could not be certified to -1e-09"):
        von_neumann_winner(five_arm_matrix())


def test_kernel_failure_raises(monkeypatch):
    monkeypatch.setattr(kernels, "solve_one", lambda P, arms, weights: (kernels.FAILED, np.nan))
    with pytest.raises(CertificationError, match="5x5 matrix"):
        von_neumann_winner(five_arm_matrix())


def test_all_winners_and_table():
    result = all_winners(five_arm_matrix())
    assert result["K"] == 5
    assert result["condorcet"] is None
    assert set(result["copeland"]) == set(COPELAND_VARIANTS)
    assert result["copeland"]["wins"]["winners"] == [3]
    assert result["borda"]["winners"] == [3]
    assert result["random_walk"]["winners"] == [3]
    assert result["von_neumann"]["support"] == [0, 1, 2]
    table = winners_table({"five": result})
    assert table.loc[0, "von_neumann_support"] == "0;1;2"
    assert table["condorcet_winner"].isna().all()


def test_markdown_table_reports_each_winner_of_the_worked_example_and_of_a_cycle():
    cycle = np.array([[0.0, 0.2, -0.6], [-0.2, 0.0, 0.2], [0.6, -0.2, 0.0]])
    text = winners_markdown(
        {"five-arm": all_winners(five_arm_matrix()), "cycle": all_winners(cycle)}
    )
    rows = {line.split(" | ")[0].strip("| "): line for line in text.splitlines()[2:]}
    # Appendix B: no Condorcet winner, Copeland scores [2 2 2 3 1], vNW uniform on arms 0-2
    assert rows["five-arm"].startswith("| five-arm | none | 3 (3 of 4) |")
    assert "0: 0.3333, 1: 0.3333, 2: 0.3333 (" in rows["five-arm"]
    # w P = 0 on the cycle gives w proportional to (0.2, 0.6, 0.2)
    assert "| none | 0, 1, 2 (1 of 2) |" in rows["cycle"]
    assert "| 0: 0.2000, 1: 0.6000, 2: 0.2000 (" in rows["cycle"]


@pytest.mark.parametrize(
    ("weights", "message"),
    [
        ([2.0, -1.0, 0.0], "distribution"),
        ([0.5, 0.5], r"shape \(3,\)"),
        ([0.5, 0.5, 0.5], "distribution"),
        ([np.nan, 0.5, 0.5], "distribution"),
        ([[1.0, 0.0, 0.0]], r"shape \(3,\)"),
    ],
)
def test_exploitability_refuses_what_is_not_a_distribution_over_the_arms(weights, message):
    rps = np.array([[0.0, 1.0, -1.0], [-1.0, 0.0, 1.0], [1.0, -1.0, 0.0]])
    with pytest.raises(ValueError, match=message):
        exploitability(rps, weights)
    assert exploitability(rps, [1 / 3, 1 / 3, 1 / 3]) == pytest.approx(0.0, abs=1e-15)
    assert exploitability(rps, [1.0, 0.0, 0.0]) == -1.0
    with pytest.raises(ValueError, match="square"):
        exploitability(rps[:2], [1.0, 0.0, 0.0])
