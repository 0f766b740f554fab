"""ApproxProject against an exact Euclidean projection, and ProjectedGD on a tiny game."""

import cvxpy as cp
import numpy as np
import pytest
from informative_game import informative_game

from cdbandits.contextual.environments import (
    StochasticEnvironment,
    synthetic_intransitive_population,
)
from cdbandits.contextual.policies import RandomLinearPolicies
from cdbandits.oracle_methods.bounds import approx_project_factor, pgd_bound, pgd_outer_bound
from cdbandits.oracle_methods.compact_game import CompactGame
from cdbandits.oracle_methods.exploration import (
    explore,
    skew_symmetric_exploration,
    uniform_exploration,
)
from cdbandits.oracle_methods.ground_truth import maxmin_strategy, policy_game_matrix
from cdbandits.oracle_methods.hull import PolicyMixture, column_security, row_security
from cdbandits.oracle_methods.oracles import ExactOracle
from cdbandits.oracle_methods.pgd import ProjectedGD, approx_project, projection_certificate


def setting(n_policies, scheme, n_rounds, seed=0):
    population = synthetic_intransitive_population(
        scheme.n_actions, 2, 30, 0.8, np.random.default_rng(seed)
    )
    policies = RandomLinearPolicies(scheme.n_actions, n_policies, random_state=2).fit(
        population.features
    )
    sample = explore(StochasticEnvironment(population), scheme, n_rounds, np.random.default_rng(10))
    game = CompactGame.from_sample(sample, scheme)
    oracle = ExactOracle(policies, population.features, sample.context_ids)
    return population, policies, sample, game, oracle


def exact_projection(vertices, z):
    """Euclidean projection of z onto the convex hull of the rows of `vertices` (cvxpy QP)."""
    weights = cp.Variable(vertices.shape[0], nonneg=True)
    cp.Problem(
        cp.Minimize(cp.sum_squares(vertices.T @ weights - z.ravel())), [cp.sum(weights) == 1]
    ).solve()
    return (vertices.T @ weights.value).reshape(z.shape)


def test_approx_project_converges_to_the_exact_projection():
    _, _, _, _, oracle = setting(6, uniform_exploration(3), 60)
    vertices = np.stack([oracle.vector(pi).ravel() for pi in range(6)])
    rng = np.random.default_rng(3)
    shape = (oracle.n_rounds, oracle.n_actions)
    # A point whose projection lies inside a face of the hull, not at a vertex.
    z = vertices[:3].mean(axis=0).reshape(shape) + 0.3 * vertices[3:].mean(axis=0).reshape(shape)
    z += 0.05 * rng.normal(size=shape)
    projected = exact_projection(vertices, z)
    start = PolicyMixture.uniform([0])
    errors = []
    for n_inner in (10, 100, 1000):
        result = approx_project(z, start, oracle.vector(0), oracle, n_inner)
        error = float(np.sum((result.vector - projected) ** 2))
        errors.append(error)
        certificate = projection_certificate(z, result.vector, oracle)
        # Theorem approx-proj, and its proof's sharper form
        # ||vbar - v*||^2 <= 8 ||z - v_1|| / sqrt(T_in).
        assert certificate >= -result.bound
        assert error <= result.bound
        # min_s F(s, v) is largest at the exact projection, where it equals ||z - v*||^2.
        assert certificate <= np.sum((z - projected) ** 2) + 1e-9
        np.testing.assert_allclose(result.mixture.vector(oracle), result.vector, atol=1e-12)
        assert result.oracle_calls == n_inner
        assert result.bound == pytest.approx(approx_project_factor(n_inner) * result.distance)
    # Measured squared errors: 2.6e-2, 2.3e-3, 2.1e-4.
    assert errors[0] > errors[1] > errors[2]
    assert errors[2] <= 1e-3


def test_approx_project_rejects_a_step_above_one():
    _, _, _, _, oracle = setting(6, uniform_exploration(3), 60)
    far = oracle.vector(0) + 10.0
    with pytest.raises(ValueError, match=r"nu = .* is outside \[0, 1\]"):
        approx_project(far, PolicyMixture.uniform([0]), oracle.vector(0), oracle, 4)


@pytest.mark.parametrize(
    "scheme", [uniform_exploration(2), skew_symmetric_exploration(2)], ids=["uniform", "skew"]
)
def test_projected_gd_approaches_the_lp_value_within_its_bounds(scheme):
    population, policies, sample, game, oracle = setting(20, scheme, 100)
    blocks = game.context_blocks(sample.context_ids, population.n_contexts)
    mhat = policy_game_matrix(blocks, policies.actions(population.features))
    value = maxmin_strategy(mhat).value
    payoff_range = mhat.max() - mhat.min()
    gaps = []
    for n in (10, 100):
        pgd = ProjectedGD(n_outer=n, n_inner=n, record_projections=True).fit(game, oracle)
        gap = value - row_security(game, oracle, pgd.row_vector_).value
        gaps.append(gap)
        assert gap >= 0
        assert pgd.n_oracle_calls_ == 1 + n + (n - 1) * n
        np.testing.assert_allclose(pgd.row_mixture_.vector(oracle), pgd.row_vector_, atol=1e-12)
    # Measured gaps at T_in = T_out = 100: 0.040 (uniform) and 0.012 (skew); 12% of the range.
    assert gaps[1] <= 0.12 * payoff_range
    assert gaps[1] <= gaps[0]


def assert_pgd_bounds(solver=ProjectedGD):
    """Lemma proj-out1, Theorems proj-out2 and approx-proj where their bounds bite.

    At T_in = T_out = 64 the bounds are 3 (of a payoff range 2L = 8) and 1 per unit step.
    """
    game, oracle, value = informative_game()
    n = 64
    pgd = solver(n_outer=n, n_inner=n, record_projections=True).fit(game, oracle)
    eps = pgd_bound(game.bound, n, n)
    assert eps < 0.4 * 2 * game.bound
    # Theorem proj-out2 with ApproxProject.
    assert 0 <= value - row_security(game, oracle, pgd.row_vector_).value <= eps
    # Lemma proj-out1: the average payoff is within eps of the best fixed response.
    best_fixed = column_security(game, oracle, pgd.column_vector_).value
    assert best_fixed - pgd.mean_payoff_ <= pgd_outer_bound(game.bound, n, approx_project_factor(n))
    # Theorem approx-proj, every projection (a zero step's certificate is 0 up to round-off).
    assert all(r.certificate >= -r.bound - 1e-12 for r in pgd.projections_)


def test_projected_gd_meets_its_bounds_where_they_bite():
    assert_pgd_bounds()


def test_projected_gd_is_deterministic_and_checks_its_budget():
    _, _, _, game, oracle = setting(20, uniform_exploration(2), 100)
    first = ProjectedGD(n_outer=8, n_inner=5, checkpoints=[2, 8]).fit(game, oracle)
    second = ProjectedGD(n_outer=8, n_inner=5).fit(game, oracle)
    assert np.array_equal(first.row_mixture_.policies, second.row_mixture_.policies)
    np.testing.assert_array_equal(first.row_mixture_.weights, second.row_mixture_.weights)
    assert [c.iteration for c in first.trace_] == [2, 8]
    assert first.trace_[0].oracle_calls == 1 + 2 + 5
    with pytest.raises(ValueError, match="give n_outer and n_inner, or epsilon"):
        ProjectedGD(n_outer=3).fit(game, oracle)
    # T_in = T_out = ceil(36 L^2 / eps^2) = 16 for L = 4 (K = 2) and eps = 6.
    theory = ProjectedGD(epsilon=6.0).fit(game, oracle)
    assert theory.n_outer_ == theory.n_inner_ == 16
    assert theory.eta_ == pytest.approx(2 / (4 * 4))


def test_the_compiled_path_iterates_as_the_python_loop():
    # On the informative game no two policies tie up to rounding: the same projections,
    # mixtures and points, call for call.
    game, oracle, _ = informative_game()
    loop = ProjectedGD(n_outer=16, n_inner=16, record_projections=True).fit(game, oracle)
    calls = oracle.n_calls_
    compiled = ProjectedGD(n_outer=16, n_inner=16, record_projections=True, compiled=True)
    compiled.fit(game, oracle)
    np.testing.assert_array_equal(compiled.row_mixture_.policies, loop.row_mixture_.policies)
    np.testing.assert_array_equal(compiled.row_mixture_.weights, loop.row_mixture_.weights)
    np.testing.assert_array_equal(compiled.row_vector_, loop.row_vector_)
    assert compiled.n_oracle_calls_ == loop.n_oracle_calls_
    assert oracle.n_calls_ - calls == loop.n_oracle_calls_ + len(loop.projections_)
    for ours, theirs in zip(compiled.projections_, loop.projections_, strict=True):
        assert ours.certificate == theirs.certificate
        np.testing.assert_array_equal(ours.target, theirs.target)
    assert len(set(loop.row_mixture_.policies)) > 1  # the projections move


def test_the_compiled_path_meets_its_bounds_where_they_bite():
    assert_pgd_bounds(lambda **budget: ProjectedGD(**budget, compiled=True))


def test_a_projection_record_keeps_the_projected_point():
    game, oracle, _ = informative_game()
    pgd = ProjectedGD(n_outer=4, n_inner=4, record_projections=True).fit(game, oracle)
    for record in pgd.projections_:
        assert record.target.shape == game.shape
        # ||z - v_1|| of the record is the step's length from the iterate it starts at.
        assert record.distance <= pgd.eta_ * game.bound + 1e-12
