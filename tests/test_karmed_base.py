"""The shared interface of the K-armed algorithms (cdbandits.karmed.base)."""

import numpy as np
import pytest
from karmed_cases import ALGORITHM_NAMES

from cdbandits.dueling.counter_play import CounterPlayRounds
from cdbandits.karmed import ALGORITHMS, RUCB, make_algorithm
from cdbandits.plotting import ALGORITHM_STYLES


@pytest.mark.parametrize("name", ALGORITHM_NAMES)
def test_the_round_protocol_is_enforced(name):
    algorithm = make_algorithm(name)
    with pytest.raises(RuntimeError, match="start"):
        algorithm.select()
    algorithm.start(3, np.random.default_rng(0), horizon=10)
    with pytest.raises(RuntimeError, match="preceding select"):
        algorithm.update(0, 1, 1)
    a, b = algorithm.select()
    with pytest.raises(RuntimeError, match="twice"):
        algorithm.select()
    with pytest.raises(ValueError, match="select\\(\\) returned"):
        algorithm.update((a + 1) % 3, b, 1)
    for outcome in (2, -1, True, 0.5):
        with pytest.raises(ValueError, match="outcome"):
            algorithm.update(a, b, outcome)
    algorithm.update(a, b, 0)
    assert algorithm.round_ == 1


@pytest.mark.parametrize("name", ALGORITHM_NAMES)
def test_start_rejects_bad_arguments(name):
    algorithm = make_algorithm(name)
    with pytest.raises(ValueError, match="n_arms"):
        algorithm.start(1, np.random.default_rng(0), horizon=10)
    with pytest.raises(TypeError, match="Generator"):
        algorithm.start(3, np.random.RandomState(0), horizon=10)
    with pytest.raises(ValueError, match="horizon"):
        algorithm.start(3, np.random.default_rng(0), horizon=0)


@pytest.mark.parametrize(
    ("name", "parameters", "message"),
    [
        ("rucb", {"alpha": 0.5}, "alpha"),
        ("rucb", {"alpha": "0.6"}, "alpha"),
        ("ccb", {"alpha": float("nan")}, "alpha"),
        ("dts", {"alpha": 0.0}, "alpha"),
        ("merge_rucb", {"partition_size": 1}, "partition_size"),
        ("merge_rucb", {"failure_probability": 1.0}, "failure_probability"),
        ("merge_dts", {"time_offset": -1.0}, "time_offset"),
        ("rmed1", {"initial_duels": 0}, "initial_duels"),
        ("rmed1", {"f_scale": -0.3}, "f_scale"),
        ("self_sparring", {"prior": 0.0}, "prior"),
        ("self_sparring", {"learning_rate": -1.0}, "learning_rate"),
        ("sparring_exp3_karmed", {"gamma": 1.5}, "gamma"),
        ("versatile_db", {"learning_rate_scale": 0.0}, "learning_rate_scale"),
        ("versatile_db", {"symmetric": 1}, "symmetric"),
    ],
)
def test_hyper_parameters_are_validated_loudly(name, parameters, message):
    with pytest.raises((ValueError, TypeError), match=message):
        make_algorithm(name, **parameters)


def test_horizon_tuned_algorithms_demand_the_horizon():
    with pytest.raises(ValueError, match="horizon"):
        make_algorithm("sparring_exp3_karmed").start(3, np.random.default_rng(0))
    make_algorithm("sparring_exp3_karmed", gamma=0.1).start(3, np.random.default_rng(0))


def test_registry_names_classes_and_plotting_styles():
    assert make_algorithm("rucb", alpha=0.6).alpha == 0.6
    with pytest.raises(KeyError, match="rucb"):
        make_algorithm("no_such_algorithm")
    assert all(cls.name == name for name, cls in ALGORITHMS.items())
    styles = [ALGORITHM_STYLES[name] for name in ALGORITHMS]
    for attribute in ("label", "colour"):
        values = [getattr(style, attribute) for style in styles]
        assert len(set(values)) == len(values), attribute
    assert "RUCB(alpha=0.51)" == repr(RUCB())


def _counter_play_rounds(context_ids, n_contexts, n_arms, margin=0.8):
    return CounterPlayRounds(
        np.asarray(context_ids, dtype=np.int64),
        np.zeros((n_contexts, n_arms), dtype=np.int64),
        np.empty(len(context_ids), dtype=np.int64),
        margin,
    )


@pytest.mark.parametrize("name", ALGORITHM_NAMES)
def test_counter_play_rounds_follow_the_adversarys_rule_in_the_kernel(name):
    # replayed by hand from the recorded duels: the winner of round t is 1 + the most played
    # action so far in x_t (smallest on ties), the counts are both slots of every duel, and
    # a won iff u_t < (1 + P_t(a, b)) / 2 with u_t the duel stream's t-th uniform
    n_arms, n_contexts, horizon, margin = 3, 4, 400, 0.6
    context_ids = np.random.default_rng(1).integers(n_contexts, size=horizon)
    rounds = _counter_play_rounds(context_ids, n_contexts, n_arms, margin)
    algorithm = make_algorithm(name).start(n_arms, np.random.default_rng(2), horizon)
    duels = np.empty((horizon, 3), dtype=np.int64)
    arm_counts = np.zeros(n_arms, dtype=np.int64)
    algorithm.run_compiled(rounds, np.random.default_rng(3), horizon, arm_counts, duels)
    uniforms = np.random.default_rng(3).random(horizon)
    counts = np.zeros((n_contexts, n_arms), dtype=np.int64)
    for t, (x, (a, b, outcome)) in enumerate(zip(context_ids, duels, strict=True)):
        winner = (int(np.argmax(counts[x])) + 1) % n_arms
        assert rounds.winners[t] == winner, t
        skew = margin if a == winner != b else -margin if b == winner != a else 0.0
        assert outcome == int(uniforms[t] < (1.0 + skew) / 2.0), t
        counts[x, a] += 1
        counts[x, b] += 1
    np.testing.assert_array_equal(rounds.play_counts, counts)
    np.testing.assert_array_equal(arm_counts, counts.sum(axis=0))
    assert algorithm.round_ == horizon


@pytest.mark.parametrize(
    ("rounds", "message"),
    [
        (_counter_play_rounds([0, 1, 0], 2, 4), r"play_counts must have shape \(n_contexts, 3\)"),
        (_counter_play_rounds([0, 1], 2, 3), r"context_ids and winners must have shape \(3,\)"),
        (_counter_play_rounds([0, 2, 0], 2, 3), r"context_ids must lie in 0..1"),
        (_counter_play_rounds([0, 1, 0], 2, 3, margin=1.5), r"margin must be in \(0, 1\]"),
        (
            CounterPlayRounds(
                np.zeros(3, dtype=np.int64), np.zeros((2, 3)), np.empty(3, dtype=np.int64), 0.8
            ),
            "play_counts must be an int64 array",
        ),
    ],
)
def test_counter_play_rounds_are_checked_loudly(rounds, message):
    algorithm = RUCB().start(3, np.random.default_rng(0))
    with pytest.raises(ValueError, match=message):
        algorithm.run_compiled(rounds, np.random.default_rng(1), 3, np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match=r"expected a \(3, 3\) matrix"):
        algorithm.run_compiled(np.full((2, 2), 0.5), np.random.default_rng(1), 3, np.zeros(3))
