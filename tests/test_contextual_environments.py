"""Environments: populations, the MSLR file format, draws and the adaptive adversary."""

import numpy as np
import pytest
from per_query_file import write_per_query_file

from cdbandits.contextual.environments import (
    ContextPopulation,
    CounterPlayAdversary,
    StochasticEnvironment,
    condorcet_fraction,
    cyclic_tournament,
    load_mslr_population,
    supervised_population,
    synthetic_intransitive_population,
)
from cdbandits.contextual.policies import RandomLinearPolicies
from cdbandits.contextual.regret import policy_matrix
from cdbandits.letor import PerQueryMatrices
from cdbandits.preference import PreferenceMatrixError


def assert_valid_population(population: ContextPopulation) -> None:
    P = population.matrices
    assert np.array_equal(P, -P.transpose(0, 2, 1))
    assert np.abs(P).max() <= 1
    assert population.probabilities.sum() == pytest.approx(1, abs=1e-12)


@pytest.mark.parametrize("k", [3, 4, 5])
def test_cyclic_tournament_is_a_regular_skew_tournament(k):
    C = cyclic_tournament(k)
    assert np.array_equal(C, -C.T)
    assert (C.sum(axis=1) == 0).all()  # every action beats as many as it loses to
    if k % 2:
        assert (np.abs(C) + np.eye(k) == 1).all()  # no ties between distinct actions


@pytest.mark.parametrize("k", [3, 5])
def test_transitive_synthetic_population_has_a_condorcet_policy(k):
    rng = np.random.default_rng(k)
    population = synthetic_intransitive_population(k, 4, 100, 0.0, rng)
    assert_valid_population(population)
    assert condorcet_fraction(population) == pytest.approx(1.0, abs=1e-12)
    # Each context's Condorcet winner defines a policy that beats every other action.
    winners = np.argmax((population.matrices > 0).sum(axis=2), axis=1)
    rows = population.matrices[np.arange(100), winners]
    assert ((rows > 0) | (np.arange(k) == winners[:, None])).all()


def test_intransitivity_removes_condorcet_winners():
    fractions = [
        condorcet_fraction(
            synthetic_intransitive_population(5, 4, 400, gamma, np.random.default_rng(0))
        )
        for gamma in (0.0, 0.5, 1.0)
    ]
    assert fractions[0] == pytest.approx(1.0, abs=1e-12)
    assert fractions[0] > fractions[1] > fractions[2]
    assert fractions[2] == 0.0  # pure rock-paper-scissors with K = 5 has none


def test_supervised_population_game_is_an_accuracy_difference():
    population = supervised_population("iris", margin=0.5)
    assert_valid_population(population)
    assert (population.n_contexts, population.n_actions, population.n_features) == (150, 3, 4)
    policies = RandomLinearPolicies(3, 20, random_state=0).fit(population.features)
    actions = policies.actions(population.features)
    labels = np.argmax((population.matrices > 0).sum(axis=2), axis=1)
    accuracy = (actions == labels[:, None]).mean(axis=0)
    expected = 0.5 * (accuracy[:, None] - accuracy[None, :])
    np.testing.assert_allclose(policy_matrix(population, actions), expected, atol=1e-12)


def test_load_mslr_population_reads_the_letor_per_query_format(tmp_path):
    rng = np.random.default_rng(1)
    upper = np.triu(rng.uniform(-1, 1, (12, 5, 5)), 1)
    skew = upper - upper.transpose(0, 2, 1)
    write_per_query_file(tmp_path / "skew.npz", skew)
    population = load_mslr_population(tmp_path / "skew.npz")
    assert (population.n_contexts, population.n_actions, population.n_features) == (12, 5, 136)
    np.testing.assert_array_equal(population.matrices, skew)
    np.testing.assert_array_equal(
        population.features, PerQueryMatrices.load(tmp_path / "skew.npz").features
    )
    np.testing.assert_array_equal(population.probabilities, np.full(12, 1 / 12))


def test_load_mslr_population_names_what_is_wrong(tmp_path):
    np.savez(tmp_path / "partial.npz", matrices=np.zeros((2, 3, 3)))
    with pytest.raises(KeyError, match=r"partial.npz lacks \['features'"):
        load_mslr_population(tmp_path / "partial.npz")
    broken = np.zeros((3, 3, 3))
    broken[2, 0, 1] = 0.5  # not skew-symmetric
    write_per_query_file(tmp_path / "broken.npz", broken)
    with pytest.raises(PreferenceMatrixError, match="broken.npz: context 2"):
        load_mslr_population(tmp_path / "broken.npz")
    # The format is the skew form: probability-form matrices are refused, not converted.
    write_per_query_file(tmp_path / "probability.npz", np.full((2, 3, 3), 0.5))
    with pytest.raises(PreferenceMatrixError, match="probability.npz: context 0"):
        load_mslr_population(tmp_path / "probability.npz")


def test_population_rejects_invalid_matrices():
    with pytest.raises(PreferenceMatrixError, match="context 0"):
        ContextPopulation(np.zeros((1, 2)), np.array([[[0.0, 0.5], [0.4, 0.0]]]), np.ones(1))
    with pytest.raises(ValueError, match="sum to 1"):
        ContextPopulation(np.zeros((1, 2)), np.zeros((1, 2, 2)), np.full(1, 0.5))


def test_stochastic_environment_draws_contexts_and_duels_with_the_right_frequencies():
    features = np.zeros((3, 1))
    matrices = np.zeros((3, 2, 2))
    matrices[:, 0, 1], matrices[:, 1, 0] = 0.6, -0.6
    environment = StochasticEnvironment(
        ContextPopulation(features, matrices, np.array([0.2, 0.3, 0.5]))
    )
    environment.reset(np.random.default_rng(0))
    contexts = [environment.next_context() for _ in range(20_000)]
    frequencies = np.bincount(contexts, minlength=3) / 20_000
    np.testing.assert_allclose(frequencies, [0.2, 0.3, 0.5], atol=0.015)  # ~4 std
    wins = np.mean([environment.duel(0, 1) == 1 for _ in range(20_000)])
    assert wins == pytest.approx(0.8, abs=0.012)  # (1 + 0.6) / 2, ~4 std
    np.testing.assert_array_equal(environment.gains(0, 1), [0.3, -0.3])


def test_schedule_equals_round_by_round_draws():
    population = synthetic_intransitive_population(3, 2, 30, 0.5, np.random.default_rng(0))
    environment = StochasticEnvironment(population)
    context_ids, duel_uniforms = environment.draw_schedule(500, np.random.default_rng(9))
    environment.reset(np.random.default_rng(9))
    stepwise = [environment.next_context() for _ in range(500)]
    np.testing.assert_array_equal(context_ids, stepwise)
    outcomes = [environment.duel(0, 1) for _ in range(500)]
    expected = np.where(duel_uniforms < (1 + population.matrices[context_ids[-1], 0, 1]) / 2, 1, -1)
    np.testing.assert_array_equal(outcomes, expected)


def test_counter_play_adversary_beats_the_favourite_action():
    adversary = CounterPlayAdversary(np.zeros((1, 1)), n_actions=3, margin=0.8)
    adversary.reset(np.random.default_rng(0))
    adversary.next_context()
    assert adversary.preference_matrix()[1].tolist() == [0.8, 0.0, 0.8]  # favourite 0 at start
    for _ in range(3):
        adversary.duel(2, 2)
        adversary.next_context()
    P = adversary.preference_matrix()
    assert P[0].tolist() == [0.0, 0.8, 0.8]  # 2 is the favourite now, so 0 wins
    assert np.array_equal(P, -P.T)


def test_counter_play_adversary_draws_contexts_ahead_as_round_by_round():
    # random(n) gives the doubles of n random() calls: the contexts drawn ahead are those of
    # n next_context() calls, and the duel stream handed out is the one duel() draws from
    contexts = np.zeros((7, 1))
    ahead, stepwise = CounterPlayAdversary(contexts, 3), CounterPlayAdversary(contexts, 3)
    ahead.reset(np.random.default_rng(9))
    stepwise.reset(np.random.default_rng(9))
    context_ids, duel_rng = ahead.draw_ahead(500)
    assert context_ids.dtype == np.int64
    assert context_ids.tolist() == [stepwise.next_context() for _ in range(500)]
    _, duel_stream = np.random.default_rng(9).spawn(2)
    np.testing.assert_array_equal(duel_rng.random(5), duel_stream.random(5))
    with pytest.raises(RuntimeError, match="reset"):
        CounterPlayAdversary(contexts, 3).draw_ahead(3)


def test_counter_play_winner_matrix_is_the_rounds_matrix():
    adversary = CounterPlayAdversary(np.zeros((1, 1)), n_actions=4, margin=0.5)
    adversary.reset(np.random.default_rng(0))
    adversary.next_context()
    np.testing.assert_array_equal(adversary.winner_matrix(1), adversary.preference_matrix())
    assert adversary.winner_matrix(3)[:, 3].tolist() == [-0.5, -0.5, -0.5, 0.0]


def test_environments_require_reset():
    environment = StochasticEnvironment(supervised_population("iris"))
    with pytest.raises(RuntimeError, match="reset"):
        environment.next_context()
    with pytest.raises(RuntimeError, match="reset"):
        CounterPlayAdversary(np.zeros((2, 1)), 3).next_context()
