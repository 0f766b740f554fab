"""The ground truth's ceilings: each is the largest value its quantity can take, reached by
some output and exceeded by none (brute force on small games)."""

import itertools
import math

import numpy as np
import pytest

from cdbandits.contextual.duels import schedule_log
from cdbandits.contextual.environments import CounterPlayAdversary
from cdbandits.contextual.policies import RandomLinearPolicies
from cdbandits.contextual.regret import regret_curve
from cdbandits.experiments.oracle.ceilings import (
    CEILINGS,
    counter_play_regret_ceiling,
    declared_constants,
    deviation_ceiling,
    exploitability_ceiling,
    projection_ceiling,
    regret_ceiling,
    regret_floor,
    round_agreement,
)
from cdbandits.experiments.oracle.environment import (
    build_environment,
    cyclic_population,
    environment_of,
    switching_population,
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


def _learner_regrets(population, actions, contexts, rng, count):
    """Regret (rd1, by enumeration of the policies) of ``count`` random learners."""
    uniforms = rng.random(contexts.size)
    k = population.n_actions
    regrets = []
    for _ in range(count):
        first, second = (rng.integers(0, k, size=contexts.size) for _ in range(2))
        gains = schedule_log(population, contexts, uniforms, first, second).gains
        regrets.append(max(gains[np.arange(contexts.size), actions[contexts, p]].sum()
                           for p in range(actions.shape[1])))  # fmt: skip
    return regrets


def test_the_regret_floor_is_below_every_learner_and_above_every_mixtures_guarantee(drawn):
    population = drawn.population
    actions = drawn.actions[:, drawn.representatives]
    rng = np.random.default_rng(4)
    contexts = rng.integers(0, population.n_contexts, size=200)
    floor = regret_floor(population, actions, contexts)
    counts = np.bincount(contexts, minlength=population.n_contexts)
    assert min(_learner_regrets(population, actions, contexts, rng, 20)) >= floor - 1e-9
    # Every mixture W guarantees sum_x n_x min_a sum_pi W(pi) P_x(pi(x), a); the floor is
    # the best guarantee (pure policies and random mixtures included).
    gains = population.matrices[np.arange(population.n_contexts)[:, None], actions]  # x, pi, a
    for weights in [*np.eye(actions.shape[1]), *rng.dirichlet(np.ones(actions.shape[1]), 30)]:
        guarantee = counts @ np.einsum("xpa,p->xa", gains, weights).min(axis=1)
        assert guarantee <= floor + 1e-9
    # The regret can be negative: the class is restricted, the learner's actions are not.
    assert floor < 0


def test_the_regret_floor_is_reached_when_the_class_holds_a_winner_or_one_policy():
    population = switching_population(16, 0.5)
    switching = environment_of(population, 2)
    actions = switching.actions[:, switching.representatives]
    rng = np.random.default_rng(5)
    contexts = rng.integers(0, 16, size=300)
    # The Condorcet winner of every context is a policy of the class: duelling it with
    # itself gives regret 0, and no learner does better.
    assert regret_floor(population, actions, contexts) == pytest.approx(0.0, abs=1e-9)
    winner = population.matrices.min(axis=2).argmax(axis=1)
    log = schedule_log(population, contexts, rng.random(300), winner[contexts], winner[contexts])
    assert regret_curve(log, switching.population_oracle)[0] == pytest.approx(0.0, abs=1e-9)
    # One policy: the learner that beats it most in every round reaches the floor.
    counts = np.bincount(contexts, minlength=16)
    worst = population.matrices[np.arange(16)[:, None], actions].min(axis=2)  # (x, pi)
    loser = int(np.argmin(counts @ worst))
    floor = regret_floor(population, actions[:, [loser]], contexts)
    assert floor == pytest.approx(counts @ worst[:, loser], abs=1e-9)
    assert floor < 0


def _counter_play_episode(adversary, table_actions, contexts_of_learner, rounds, seed):
    """Play ``rounds`` rounds against the adversary; ``contexts_of_learner(x)`` gives the
    learner's duel in context ``x``. Returns the context ids and the rounds' ``P_t``."""
    adversary.reset(np.random.default_rng(seed))
    ids, matrices = [], []
    for _ in range(rounds):
        x = adversary.next_context()
        matrices.append(adversary.preference_matrix().copy())
        adversary.duel(*contexts_of_learner(x))
        ids.append(x)
    return np.array(ids), np.array(matrices)


@pytest.mark.parametrize("k", [2, 3])
def test_the_counter_play_ceiling_is_the_largest_sum_a_learner_can_make_the_adversary_give(k):
    rng = np.random.default_rng(6)
    contexts = rng.standard_normal((9, 2))
    adversary = CounterPlayAdversary(contexts, k, margin=0.7)
    policies = RandomLinearPolicies(k, 40, random_state=np.random.default_rng(7))
    policies.fit(contexts)
    actions = policies.action_table(contexts).actions.astype(np.int64)
    oracle = policies.oracle(contexts)
    horizon, seed = 60, 8

    def sums(ids, matrices):
        """max_pi sum_t max_a P_t(pi(x_t), a), by enumeration."""
        best = matrices.max(axis=2)  # (T, K)
        return max(best[np.arange(ids.size), actions[ids, p]].sum() for p in range(40))

    reached = []
    for policy in range(actions.shape[1]):  # the learner that makes pi(x) the winner
        ids, matrices = _counter_play_episode(
            adversary, actions, lambda x, p=policy: ((actions[x, p] - 1) % k,) * 2, horizon, seed
        )
        reached.append(sums(ids, matrices))
    ceiling = counter_play_regret_ceiling(adversary, oracle, ids)
    assert max(reached) == pytest.approx(ceiling, abs=1e-12)
    for _ in range(10):  # random learners stay below, and so do their regrets (rd1)
        plays = rng.integers(0, k, size=(9, 2))
        ids, matrices = _counter_play_episode(
            adversary, actions, lambda x, plays=plays: tuple(plays[x]), horizon, seed
        )
        assert sums(ids, matrices) <= ceiling + 1e-12
        gains = (matrices[:, :, plays[ids, 0]] + matrices[:, :, plays[ids, 1]]) / 2
        regret = max(gains[np.arange(horizon), actions[ids, p], np.arange(horizon)].sum()
                     for p in range(40))  # fmt: skip
        assert regret <= ceiling + 1e-12
    assert ceiling <= 0.7 * horizon  # at most the margin a round


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
