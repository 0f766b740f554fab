"""A K-armed algorithm in a contextual environment (cdbandits.contextual.context_free)."""

import numpy as np
import pytest

from cdbandits.contextual.context_free import (
    context_averaged_matrix,
    outcome_log,
    posterior_contexts,
    simulate_context_free,
)
from cdbandits.contextual.environments import ContextPopulation
from cdbandits.karmed import make_algorithm

#: Two equally likely contexts with opposite winners: action 0 in context 0, action 1 in 1.
OPPOSITE = ContextPopulation.from_arrays(
    [[0.0], [1.0]], [[[0.0, 0.6], [-0.6, 0.0]], [[0.0, -0.6], [0.6, 0.0]]]
)


def test_the_averaged_matrix_of_opposite_contexts_is_zero():
    assert np.array_equal(context_averaged_matrix(OPPOSITE), np.zeros((2, 2)))


def test_posterior_contexts_by_hand():
    # duel (0, 1) won by 0: likelihoods 0.8 (context 0) and 0.2 (context 1), prior 1/2 each,
    # so the posterior is (0.8, 0.2); lost: (0.2, 0.8); a self-duel says nothing: (0.5, 0.5)
    first = np.array([0, 0, 0, 0, 1, 1])
    second = np.array([1, 1, 1, 1, 1, 1])
    outcomes = np.array([1, 1, -1, -1, 1, -1], dtype=np.int8)
    uniforms = np.array([0.79, 0.81, 0.19, 0.21, 0.49, 0.51])
    contexts = posterior_contexts(OPPOSITE, first, second, outcomes, uniforms)
    assert contexts.tolist() == [0, 1, 0, 1, 0, 1]


def test_outcome_log_keeps_the_outcomes_and_computes_the_gains_by_hand():
    log = outcome_log(
        OPPOSITE,
        np.array([0, 1]),
        np.array([0, 0]),
        np.array([1, 0]),
        np.array([1, -1], dtype=np.int8),
        np.array([0.999, 0.0]),
    )
    assert log.outcomes.tolist() == [1, -1]
    # g(a) = (P(a, a_t) + P(a, b_t)) / 2: context 0, duel (0, 1): g = (0.3, -0.3);
    # context 1, duel (0, 0): g = (P(0, 0), P(1, 0)) = (0, 0.6)
    np.testing.assert_allclose(log.gains, [[0.3, -0.3], [0.0, 0.6]])


def test_impossible_outcomes_and_bad_duels_are_refused():
    certain = ContextPopulation.from_arrays([[0.0]], [[[0.0, 1.0], [-1.0, 0.0]]])
    with pytest.raises(ValueError, match=r"cannot have outcome -1"):
        posterior_contexts(
            certain, np.array([0]), np.array([1]), np.array([-1], dtype=np.int8), np.array([0.5])
        )
    with pytest.raises(ValueError, match=r"actions must be in 0..1"):
        posterior_contexts(
            OPPOSITE, np.array([2]), np.array([1]), np.array([1], dtype=np.int8), np.array([0.5])
        )
    with pytest.raises(ValueError, match=r"outcomes must be \+1"):
        posterior_contexts(
            OPPOSITE, np.array([0]), np.array([1]), np.array([0], dtype=np.int8), np.array([0.5])
        )


def _direct_episode(name, population, horizon, rng):
    """Reference: Nature draws the context, then the outcome from its matrix, round by round."""
    algorithm = make_algorithm(name).start(population.n_actions, rng.spawn(1)[0], horizon)
    contexts = rng.choice(population.n_contexts, size=horizon, p=population.probabilities)
    rows = []
    for t in range(horizon):
        a, b = algorithm.select()
        p = population.matrices[contexts[t], a, b]
        won = rng.random() < (1.0 + p) / 2.0
        algorithm.update(a, b, int(won))
        rows.append((contexts[t], a, b, 1 if won else -1))
    return np.array(rows)


def _outcome_context_correlation(contexts, first, second, outcomes):
    """Mean of ``r_t P_{x_t}(a_t, b_t)`` over the rounds with ``a_t != b_t``."""
    duel = first != second
    p = OPPOSITE.matrices[contexts[duel], first[duel], second[duel]]
    return float(np.mean(outcomes[duel] * p))


def test_contexts_and_outcomes_have_the_law_of_the_direct_episode():
    # With opposite contexts E[r P_x(a, b)] = E[P_x(a, b)^2] = 0.36 in every duel a != b,
    # while the averaged matrix alone (contexts drawn independently of the outcomes, the
    # broken variant below) gives E[r] E[P] = 0. 200 seeds of 100 rounds, about 10^4 duels
    # of each kind: standard error about 0.006; tolerance 0.03.
    horizon, seeds = 100, 200
    ours, direct, broken = [], [], []
    for seed in range(seeds):
        rng = np.random.default_rng(seed)
        log = simulate_context_free(make_algorithm("sparring_exp3_karmed"), OPPOSITE, horizon, rng)
        ours.append((log.context_ids, log.first_actions, log.second_actions, log.outcomes))
        rows = _direct_episode("sparring_exp3_karmed", OPPOSITE, horizon, rng)
        direct.append(tuple(rows.T))
        prior = rng.integers(0, 2, size=horizon)
        broken.append((prior, log.first_actions, log.second_actions, log.outcomes))

    def statistic(runs):
        return _outcome_context_correlation(
            *(np.concatenate(part) for part in zip(*runs, strict=True))
        )

    assert statistic(direct) == pytest.approx(0.36, abs=0.03)
    assert statistic(ours) == pytest.approx(statistic(direct), abs=0.03)
    assert abs(statistic(broken) - statistic(direct)) > 0.2


def test_the_same_rng_gives_the_same_log():
    logs = [
        simulate_context_free(make_algorithm("rmed1"), OPPOSITE, 50, np.random.default_rng(3))
        for _ in range(2)
    ]
    assert np.array_equal(logs[0].context_ids, logs[1].context_ids)
    assert np.array_equal(logs[0].gains, logs[1].gains)
