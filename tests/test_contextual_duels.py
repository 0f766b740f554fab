"""The episode loop: compiled and round-by-round runs agree, seeds reproduce."""

import numpy as np
import pytest

from cdbandits.contextual.baselines import SparringExp3, UniformDuels
from cdbandits.contextual.duels import DuelLog, draw_action, schedule_log
from cdbandits.contextual.environments import (
    CounterPlayAdversary,
    DuelingEnvironment,
    StochasticEnvironment,
    synthetic_intransitive_population,
)
from cdbandits.contextual.exp4p import SparringExp4P
from cdbandits.contextual.policies import RandomLinearPolicies


class RoundByRound(DuelingEnvironment):
    """The same stochastic environment, hidden behind the generic interface (no fast path)."""

    def __init__(self, environment: StochasticEnvironment) -> None:
        self.inner = environment
        self.contexts = environment.contexts
        self.n_actions = environment.n_actions

    def reset(self, rng):
        self.inner.reset(rng)

    def next_context(self):
        return self.inner.next_context()

    def preference_matrix(self):
        return self.inner.preference_matrix()

    def duel(self, first, second):
        return self.inner.duel(first, second)


@pytest.fixture(scope="module")
def setting():
    population = synthetic_intransitive_population(4, 3, 40, 0.6, np.random.default_rng(5))
    policies = RandomLinearPolicies(4, 150, random_state=1).fit(population.features)
    return StochasticEnvironment(population), policies.action_table(population.features)


def assert_same_log(first: DuelLog, second: DuelLog) -> None:
    for field in ("context_ids", "first_actions", "second_actions", "outcomes", "gains"):
        np.testing.assert_array_equal(getattr(first, field), getattr(second, field), err_msg=field)


@pytest.mark.parametrize("make", [SparringExp4P, "uniform", "exp3"])
def test_compiled_and_round_by_round_runs_are_identical(setting, make):
    environment, table = setting

    def algorithm():
        if make == "uniform":
            return UniformDuels()
        if make == "exp3":
            return SparringExp3()
        return make(table)

    compiled, stepwise = algorithm(), algorithm()
    log = compiled.run(environment, 2000, np.random.default_rng(42))
    assert_same_log(log, stepwise.run(RoundByRound(environment), 2000, np.random.default_rng(42)))
    if make is SparringExp4P:
        np.testing.assert_array_equal(compiled.row_.log_weights_, stepwise.row_.log_weights_)
        np.testing.assert_array_equal(compiled.column_.log_weights_, stepwise.column_.log_weights_)
        np.testing.assert_array_equal(
            compiled.mean_policy_distribution()[0], stepwise.mean_policy_distribution()[0]
        )


@pytest.mark.parametrize(("n_actions", "margin", "seed"), [(3, 0.8, 0), (4, 0.5, 1), (2, 1.0, 2)])
def test_sparring_exp4p_plays_the_adversary_compiled_as_round_by_round(n_actions, margin, seed):
    # 12 contexts, 150 policies: the compiled episode on the adversary's rounds drawn ahead
    # and _choose / _observe round by round give the same log, play counts and weights
    contexts = np.random.default_rng(seed).normal(size=(12, 3))
    policies = RandomLinearPolicies(n_actions, 150, random_state=seed).fit(contexts)
    table = policies.action_table(contexts)
    runs = []
    for compiled in (True, False):
        adversary, algorithm = (
            CounterPlayAdversary(contexts, n_actions, margin),
            SparringExp4P(table),
        )
        log = algorithm.run(adversary, 3000, np.random.default_rng(seed), compiled=compiled)
        runs.append((log, adversary, algorithm))
    (log, adversary, algorithm), (reference, reference_adversary, reference_algorithm) = runs
    for field in ("context_ids", "first_actions", "second_actions", "outcomes", "gains"):
        assert getattr(log, field).dtype == getattr(reference, field).dtype, field
        assert getattr(log, field).tobytes() == getattr(reference, field).tobytes(), field
    np.testing.assert_array_equal(adversary.play_counts_, reference_adversary.play_counts_)
    for copy in ("row_", "column_"):
        np.testing.assert_array_equal(
            getattr(algorithm, copy).log_weights_, getattr(reference_algorithm, copy).log_weights_
        )
    assert len(set(log.first_actions.tolist())) == n_actions  # the copies move between actions


def test_an_algorithm_without_a_compiled_adversary_plays_it_round_by_round():
    adversary = CounterPlayAdversary(np.zeros((3, 2)), 4, 0.8)
    log = UniformDuels().run(adversary, 200, np.random.default_rng(0))
    assert log.horizon == 200 and adversary.play_counts_.sum() == 400
    with pytest.raises(NotImplementedError, match="UniformDuels has no compiled adversary"):
        UniformDuels()._play_schedule(None, None, None, None, None)


def test_same_seed_reproduces_and_other_seed_differs(setting):
    environment, table = setting
    runs = [SparringExp4P(table).run(environment, 500, np.random.default_rng(s)) for s in (7, 7, 8)]
    assert_same_log(runs[0], runs[1])
    assert not np.array_equal(runs[0].first_actions, runs[2].first_actions)


def test_draw_action_inverts_the_cdf():
    probabilities = np.array([0.2, 0.5, 0.3])
    uniforms = (0.0, 0.19, 0.2, 0.69, 0.7, 0.999)
    assert [draw_action(probabilities, u) for u in uniforms] == [0, 0, 1, 1, 2, 2]
    assert draw_action(np.array([0.5, 0.49999]), 0.99999999) == 1  # rounding: last action


def test_schedule_log_outcomes_and_gains(setting):
    environment, _ = setting
    population = environment.population
    ids = np.array([0, 1, 1])
    uniforms = np.array([0.0, 0.9999, 0.5])
    log = schedule_log(population, ids, uniforms, np.array([0, 2, 3]), np.array([1, 1, 3]))
    P = population.matrices
    # +1 iff u < (1 + P(a, b)) / 2; a self-duel (P = 0) at u = 0.5 is lost.
    assert log.outcomes.tolist() == [1, 1 if 0.9999 < (1 + P[1, 2, 1]) / 2 else -1, -1]
    np.testing.assert_array_equal(log.gains[1], (P[1][:, 2] + P[1][:, 1]) / 2)
    assert log.horizon == 3


def test_run_rejects_a_mismatched_table(setting):
    environment, _ = setting
    other = RandomLinearPolicies(4, 10, random_state=0).fit(np.zeros((5, 3)))
    with pytest.raises(ValueError, match="covers 5 contexts"):
        SparringExp4P(other.action_table(np.zeros((5, 3)))).run(
            environment, 100, np.random.default_rng(0)
        )
    with pytest.raises(ValueError, match="horizon"):
        UniformDuels().run(environment, 0, np.random.default_rng(0))
