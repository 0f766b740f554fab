"""The ground truth's ceilings: each is the largest value its quantity can take, reached by
some output and exceeded by none (brute force on small games)."""

import itertools
import math

import numpy as np
import pytest

from cdbandits.contextual.duels import schedule_log
from cdbandits.contextual.regret import regret_curve
from cdbandits.experiments.oracle.ceilings import (
    CEILINGS,
    declared_constants,
    deviation_ceiling,
    exploitability_ceiling,
    projection_ceiling,
    regret_ceiling,
    round_agreement,
)
from cdbandits.experiments.oracle.environment import (
    build_environment,
    cyclic_population,
    environment_of,
)
from cdbandits.experiments.oracle.settings import EnvironmentSettings
from cdbandits.experiments.oracle.statements import STATEMENTS
from cdbandits.oracle_methods.compact_game import policy_vectors
from cdbandits.oracle_methods.exploration import (
    skew_symmetric_exploration,
    uniform_exploration,
)
from cdbandits.oracle_methods.hull import PolicyMixture

DRAWN = EnvironmentSettings(n_actions=3, n_features=2, n_contexts=12, intransitivity=0.7, n_bins=3)


@pytest.fixture(scope="module")
def drawn():
    return build_environment(DRAWN, 5)


def test_declared_constants_are_the_papers():
    for k in (2, 3, 5):
        assert declared_constants("importance_weighted", k) == (k * k, k * k)
        assert declared_constants("skew_symmetrised", k) == (k * (k - 1) / 2,) * 2
        # The library's schemes declare the same (what the estimator's variants keep).
        assert uniform_exploration(k).bound == k * k
        assert skew_symmetric_exploration(k).bound == k * (k - 1) / 2
    with pytest.raises(ValueError, match="no declared constants"):
        declared_constants("plug_in", 3)
    with pytest.raises(ValueError, match="K >= 2"):
        declared_constants("skew_symmetrised", 1)


def test_every_ceiling_of_a_statement_is_described():
    assert {statement.ceiling for statement in STATEMENTS} <= set(CEILINGS)


def test_the_exploitability_ceiling_is_reached_by_a_pure_policy_and_by_no_mixture_exceeded(
    drawn,
):
    ceiling = exploitability_ceiling(drawn.true_matrix)
    pure = [
        drawn.exploitability(PolicyMixture.uniform([policy])) for policy in drawn.representatives
    ]
    assert max(pure) == pytest.approx(ceiling, abs=1e-12)
    rng = np.random.default_rng(0)
    for _ in range(50):
        weights = rng.dirichlet(np.full(drawn.representatives.size, 0.3))
        mixture = PolicyMixture.from_weights(drawn.representatives, weights)
        assert drawn.exploitability(mixture) <= ceiling + 1e-12
    # The cyclic population: every pure policy is beaten by the margin.
    cyclic = environment_of(cyclic_population(8, 0.6), 2)
    assert exploitability_ceiling(cyclic.true_matrix) == pytest.approx(0.6)
    for policy in cyclic.representatives:
        assert cyclic.exploitability(PolicyMixture.uniform([policy])) == pytest.approx(0.6)


def test_the_deviation_ceiling_is_reached_by_estimates_at_the_declared_range(drawn):
    true = drawn.true_matrix
    bound = 9.0
    ceiling = deviation_ceiling(true, bound)
    assert ceiling == pytest.approx(bound + np.abs(true).max())
    worst = -bound * np.sign(true)  # every estimate at the end of the range away from M
    assert np.abs(worst - true).max() == pytest.approx(ceiling)
    rng = np.random.default_rng(1)
    for _ in range(20):
        estimate = rng.uniform(-bound, bound, size=true.shape)
        assert np.abs(estimate - true).max() <= ceiling


def test_the_regret_ceiling_is_the_regret_of_the_worst_learner(drawn):
    population, oracle = drawn.population, drawn.population_oracle
    rng = np.random.default_rng(2)
    contexts = rng.integers(0, population.n_contexts, size=300)
    ceiling = regret_ceiling(population, oracle, contexts)
    # By enumeration: the best policy's gains against the worst actions of every round.
    best = population.matrices.max(axis=2)
    totals = [
        best[contexts, drawn.actions[contexts, policy]].sum() for policy in range(drawn.n_policies)
    ]
    assert ceiling == pytest.approx(max(totals), abs=1e-9)
    assert ceiling <= best.max(axis=1)[contexts].sum() + 1e-9  # at most sum_t max P_t
    # The learner that plays against the best policy's action reaches it.
    policy = int(np.argmax(totals))
    worst = population.matrices[contexts, drawn.actions[contexts, policy]].argmax(axis=1)
    uniforms = rng.random(contexts.size)
    log = schedule_log(population, contexts, uniforms, worst, worst)
    assert regret_curve(log, oracle)[0] == pytest.approx(ceiling, abs=1e-9)
    for _ in range(10):
        first, second = (rng.integers(0, 3, size=contexts.size) for _ in range(2))
        log = schedule_log(population, contexts, uniforms, first, second)
        assert regret_curve(log, oracle)[0] <= ceiling + 1e-9


#: Three policies on three rounds that all play action 0 in the first: every policy agrees
#: with every other on a third of the rounds at least.
AGREEING = np.array([[0, 0, 0], [1, 2, 0], [2, 1, 1]], dtype=np.uint8)


@pytest.mark.parametrize("agreeing", [False, True])
def test_the_projection_ceiling_is_the_largest_shortfall_over_the_hull(drawn, agreeing):
    rng = np.random.default_rng(3)
    if agreeing:
        actions = AGREEING
    else:  # every distinct policy of the drawn class on 7 rounds
        rounds = rng.integers(0, drawn.population.n_contexts, size=7)
        actions = drawn.actions[rounds][:, drawn.representatives]
    m = actions.shape[0]
    vectors = [policy_vectors(actions[:, [k]], 3) for k in range(actions.shape[1])]
    least = round_agreement(actions)
    for k, row in enumerate(vectors):
        agreement = [float(np.sum(row * other)) for other in vectors]
        assert least[k] == pytest.approx(min(agreement))
    assert (least > 0).all() == agreeing
    for _ in range(5):
        start = vectors[rng.integers(len(vectors))]
        z = start + 0.4 * rng.normal(size=start.shape) / math.sqrt(m)

        def shortfall(v, z=z):
            """-min_s F(s, v), F(s, v) = ||s - z||^2 - ||s - v||^2, over the pure s."""
            return max(np.sum((s - v) ** 2) - np.sum((s - z) ** 2) for s in vectors)

        ceiling = projection_ceiling(z, actions, least)
        assert ceiling == pytest.approx(max(shortfall(v) for v in vectors), abs=1e-12)
        for _ in range(20):  # points of the hull stay below
            weights = rng.dirichlet(np.ones(len(vectors)))
            assert shortfall(sum(w * v for w, v in zip(weights, vectors, strict=True))) <= (
                ceiling + 1e-12
            )


def test_round_agreement_of_clones_and_opposites():
    actions = np.array([[0, 0, 1], [1, 1, 0]], dtype=np.uint8)  # policies 0 and 1 alike
    np.testing.assert_array_equal(round_agreement(actions), [0.0, 0.0, 0.0])
    same = np.array([[0, 0], [1, 1]], dtype=np.uint8)
    np.testing.assert_array_equal(round_agreement(same), [1.0, 1.0])
    pairs = list(itertools.product([0, 1], repeat=2))
    table = np.array(pairs, dtype=np.uint8).T  # two rounds, four policies
    np.testing.assert_array_equal(round_agreement(table), np.zeros(4))
