"""The kernels' environments (cdbandits.linear_duels.base): a schedule drawn in advance."""

import numpy as np
import pytest
from linear_duels_cases import ALGORITHM_NAMES

from cdbandits.dueling.counter_play import CounterPlayRounds
from cdbandits.linear_duels import make_algorithm
from cdbandits.linear_duels.base import RunRecord, next_context_compiled, play_round_compiled
from cdbandits.linear_duels.environments import ScheduleArrays

#: Three contexts of 3 arms whose matrices hold only -1, 0 and 1: win probabilities 0, 1/2, 1.
MATRICES = np.array(
    [
        [[0, 1, 0], [-1, 0, -1], [0, 1, 0]],
        [[0, -1, 1], [1, 0, 0], [-1, 0, 0]],
        [[0, 0, 0], [0, 0, 0], [0, 0, 0]],
    ],
    dtype=np.float64,
)


def run_schedule(name, schedule, horizon):
    algorithm = make_algorithm(name, exploration_rounds=horizon // 2).start(
        3, schedule.features.shape[2], np.random.default_rng(1), horizon
    )
    record = RunRecord(
        np.zeros(3), np.zeros((3, 3), dtype=np.int64), np.zeros(1),
        np.empty((horizon, 4), dtype=np.int64),
    )  # fmt: skip
    algorithm.run_compiled(schedule, None, horizon, record)
    return algorithm, record


@pytest.mark.parametrize("name", ALGORITHM_NAMES)
def test_a_schedule_gives_each_round_its_context_and_a_strict_win_test(name):
    rng = np.random.default_rng(0)
    horizon = 300
    features = rng.standard_normal((3, 3, 4))
    # duel uniforms on the boundaries 0 and 1/2: a wins iff uniform < win, never at equality
    schedule = ScheduleArrays(
        features,
        (1.0 + MATRICES) / 2.0,
        rng.integers(0, 3, horizon),
        rng.choice([0.0, 0.5], horizon),
    )
    algorithm, record = run_schedule(name, schedule, horizon)
    context, a, b, outcome = record.duels.T
    np.testing.assert_array_equal(context, schedule.context_ids)
    win = schedule.win[context, a, b]
    np.testing.assert_array_equal(outcome, (schedule.duel_uniforms < win).astype(np.int64))
    # both boundaries were met, and the rule differs from <= there
    equal = schedule.duel_uniforms == win
    assert (equal & (win == 0.0)).any() and (equal & (win == 0.5)).any()
    counts = np.zeros((3, 3), dtype=np.int64)
    np.add.at(counts, (context, a), 1)
    np.add.at(counts, (context, b), 1)
    np.testing.assert_array_equal(record.arm_counts, counts)
    assert record.weak_regret[0] == 0.0  # no utilities, no weak regret
    assert algorithm.round_ == horizon


def test_a_bad_schedule_is_named():
    features = np.zeros((3, 3, 2))
    win = (1.0 + MATRICES) / 2.0
    ids, uniforms = np.zeros(10, dtype=np.int64), np.full(10, 0.5)

    def adversary(n_contexts, context_ids=ids):
        counts = np.zeros((n_contexts, 3), dtype=np.int64)
        return CounterPlayRounds(context_ids, counts, np.empty(10, dtype=np.int64), 0.8)

    cases = [
        (ScheduleArrays(features, win[:, :2], ids, uniforms), None, r"win must have shape"),
        (ScheduleArrays(features, win, ids[:9], uniforms), None, r"of the 10 rounds"),
        (ScheduleArrays(features, win, ids + 3, uniforms), None, r"lie in \[0, 3\)"),
        (ScheduleArrays(features, win, ids, uniforms), np.random.default_rng(0), r"draws nothing"),
        (ScheduleArrays(features, adversary(4), ids, uniforms), None, r"in the 3 contexts"),
        (ScheduleArrays(features, adversary(3, ids + 1), ids, uniforms), None, r"context ids"),
        (
            ScheduleArrays(features, adversary(3)._replace(margin=0.0), ids, uniforms),
            None,
            r"margin must be in \(0, 1\]",
        ),
    ]
    for schedule, environment_rng, message in cases:
        algorithm = make_algorithm("colstim").start(3, 2, np.random.default_rng(0), 10)
        record = RunRecord(
            np.zeros(3), np.zeros((3, 3), dtype=np.int64), np.zeros(1),
            np.empty((10, 4), dtype=np.int64),
        )  # fmt: skip
        with pytest.raises(ValueError, match=message):
            algorithm.run_compiled(schedule, environment_rng, 10, record)


def test_the_environment_steps_are_for_the_kernels_only():
    with pytest.raises(TypeError, match="numba kernels only"):
        next_context_compiled(None, None, 0)
    with pytest.raises(TypeError, match="numba kernels only"):
        play_round_compiled(None, None, 0, 0, 1, None, 0)
