"""A round's win probability in the kernels (cdbandits.dueling.counter_play)."""

import numba
import numpy as np
import pytest

from cdbandits.dueling.counter_play import (
    CounterPlayRounds,
    checked_counter_play_rounds,
    round_win_probability,
    scheduled_win_probability,
)


@numba.njit
def _round_probabilities(environment, pairs):
    out = np.empty(pairs.shape[0])
    for step in range(pairs.shape[0]):
        out[step] = round_win_probability(environment, step, pairs[step, 0], pairs[step, 1])
    return out


@numba.njit
def _scheduled_probabilities(win, contexts, pairs):
    out = np.empty(pairs.shape[0])
    for step in range(pairs.shape[0]):
        a, b = pairs[step, 0], pairs[step, 1]
        out[step] = scheduled_win_probability(win, contexts[step], step, a, b)
    return out


def _rounds(context_ids, n_contexts=2, n_arms=3, margin=0.8):
    return CounterPlayRounds(
        np.asarray(context_ids, dtype=np.int64),
        np.zeros((n_contexts, n_arms), dtype=np.int64),
        np.empty(len(context_ids), dtype=np.int64),
        margin,
    )


PAIRS = np.array([[0, 1], [1, 0], [2, 2], [1, 2], [0, 1]], dtype=np.int64)


def test_a_fixed_matrix_is_read_at_its_entries():
    q = np.random.default_rng(0).random((3, 3))
    np.testing.assert_array_equal(_round_probabilities(q, PAIRS), q[PAIRS[:, 0], PAIRS[:, 1]])
    win = np.random.default_rng(1).random((2, 3, 3))
    contexts = np.array([0, 1, 1, 0, 1], dtype=np.int64)
    expected = win[contexts, PAIRS[:, 0], PAIRS[:, 1]]
    np.testing.assert_array_equal(_scheduled_probabilities(win, contexts, PAIRS), expected)


def test_the_adversary_favours_the_successor_of_the_most_played_action():
    # context 0 in every round: winners (f + 1) mod 3 for f the most played (smallest on ties)
    rounds = _rounds([0] * 5, margin=0.8)
    probabilities = _round_probabilities(rounds, PAIRS)
    # round 0: no plays, f = 0, winner 1: (0, 1) -> b wins; round 1: counts (1, 1, 0), f = 0,
    # winner 1, (1, 0) -> a wins; round 2: counts (2, 2, 0), winner 1, self-duel (2, 2);
    # round 3: counts (2, 2, 2), winner 1, (1, 2) -> a wins; round 4: counts (2, 3, 3),
    # f = 1, winner 2, (0, 1) is no duel of the winner
    np.testing.assert_array_equal(rounds.winners, [1, 1, 1, 1, 2])
    np.testing.assert_allclose(probabilities, [0.1, 0.9, 0.5, 0.9, 0.5])
    np.testing.assert_array_equal(rounds.play_counts, [[3, 4, 3], [0, 0, 0]])
    scheduled = _rounds([0, 1, 0, 1, 0])
    contexts = np.full(5, 99, dtype=np.int64)  # ignored: the rounds carry their contexts
    _scheduled_probabilities(scheduled, contexts, PAIRS)
    np.testing.assert_array_equal(scheduled.play_counts.sum(axis=1), [6, 4])


def test_uncompiled_calls_are_refused():
    with pytest.raises(TypeError, match="numba kernels only"):
        round_win_probability(np.eye(2), 0, 0, 1)
    with pytest.raises(TypeError, match="numba kernels only"):
        scheduled_win_probability(np.eye(2)[None], 0, 0, 0, 1)


@pytest.mark.parametrize(
    ("rounds", "message"),
    [
        (_rounds([0, 1, 0], n_arms=4), r"play_counts must have shape \(n_contexts, 3\)"),
        (_rounds([0, 1]), r"context_ids and winners must have shape \(3,\)"),
        (_rounds([0, 2, 0]), r"context_ids must lie in 0..1"),
        (_rounds([0, 1, 0], margin=1.5), r"margin must be in \(0, 1\]"),
        (_rounds([0, 1, 0])._replace(play_counts=np.zeros((2, 3))), "an int64 array"),
        (_rounds([0, 1, 0])._replace(winners=np.zeros(3)), "winners must be an int64 array"),
    ],
)
def test_counter_play_rounds_are_checked_loudly(rounds, message):
    with pytest.raises(ValueError, match=message):
        checked_counter_play_rounds(rounds, 3, 3)


def test_checked_rounds_are_contiguous_int64_and_share_the_counts():
    rounds = _rounds([0, 1, 0])._replace(context_ids=[0, 1, 0], margin=1)
    checked = checked_counter_play_rounds(rounds, 3, 3)
    assert checked.context_ids.dtype == np.int64 and checked.context_ids.flags.c_contiguous
    assert checked.play_counts is rounds.play_counts and checked.winners is rounds.winners
    assert isinstance(checked.margin, float)
