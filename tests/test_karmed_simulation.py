"""simulate(): the compiled and the Python engine play the same duels; what is recorded."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from karmed_cases import ALGORITHM_NAMES, assert_consistent_state, random_probability_matrix

from cdbandits.karmed import make_algorithm, simulate
from cdbandits.karmed.simulation import geometric_checkpoints
from cdbandits.preference import PreferenceMatrixError


def learned_state(algorithm):
    """Every learned array and number of an algorithm, by attribute name."""
    state = {}
    for name, value in vars(algorithm).items():
        if name.endswith("_") and name != "rng_":
            if hasattr(value, "log_weights_"):  # an Exp3 learner
                state[name] = value.log_weights_
            else:
                state[name] = value
    return state


def assert_same_run(name, matrix, horizon, seed, exact=True):
    compiled_algorithm, python_algorithm = make_algorithm(name), make_algorithm(name)
    checkpoints = sorted({max(1, horizon // 3), horizon})
    compiled = simulate(
        compiled_algorithm,
        matrix,
        horizon,
        np.random.default_rng(seed),
        checkpoints,
        record_duels=True,
    )
    python = simulate(
        python_algorithm,
        matrix,
        horizon,
        np.random.default_rng(seed),
        checkpoints,
        engine="python",
        record_duels=True,
    )
    np.testing.assert_array_equal(compiled.duels, python.duels)
    np.testing.assert_array_equal(compiled.arm_counts, python.arm_counts)
    compiled_state, python_state = (
        learned_state(compiled_algorithm),
        learned_state(python_algorithm),
    )
    assert compiled_state.keys() == python_state.keys()
    for key, value in compiled_state.items():
        if exact:
            np.testing.assert_array_equal(value, python_state[key], err_msg=key)
        else:  # NumPy's vectorised exp differs from libm's in the last bit
            np.testing.assert_allclose(value, python_state[key], rtol=1e-12, err_msg=key)
    for algorithm in (compiled_algorithm, python_algorithm):
        assert algorithm.round_ == horizon
        assert_consistent_state(algorithm)
    return compiled


@pytest.mark.parametrize("name", ALGORITHM_NAMES)
@pytest.mark.parametrize(("n_arms", "seed"), [(2, 0), (3, 1), (5, 2), (12, 3)])
def test_engines_play_the_same_duels(name, n_arms, seed):
    matrix = random_probability_matrix(n_arms, np.random.default_rng(100 + seed))
    horizon = 1500 if n_arms < 12 else 400
    assert_same_run(name, matrix, horizon, seed, exact=name != "sparring_exp3_karmed")


@settings(max_examples=40)
@given(
    name=st.sampled_from(ALGORITHM_NAMES),
    n_arms=st.integers(2, 7),
    horizon=st.integers(1, 80),
    seed=st.integers(0, 2**32 - 1),
)
def test_any_instance_gives_valid_identical_runs(name, n_arms, horizon, seed):
    matrix = random_probability_matrix(n_arms, np.random.default_rng(seed))
    result = assert_same_run(name, matrix, horizon, seed, exact=name != "sparring_exp3_karmed")
    assert ((result.duels[:, :2] >= 0) & (result.duels[:, :2] < n_arms)).all()
    assert set(np.unique(result.duels[:, 2])) <= {0, 1}
    again = simulate(
        make_algorithm(name), matrix, horizon, np.random.default_rng(seed), record_duels=True
    )
    np.testing.assert_array_equal(again.duels, result.duels)


def test_counts_add_up_and_match_the_recorded_duels():
    matrix = random_probability_matrix(4, np.random.default_rng(0))
    result = simulate(
        make_algorithm("rucb"),
        matrix,
        1000,
        np.random.default_rng(0),
        [10, 200, 1000],
        record_duels=True,
    )
    assert result.horizon == 1000 and result.n_arms == 4 and result.engine == "compiled"
    np.testing.assert_array_equal(result.arm_counts.sum(axis=1), 2 * result.checkpoints)
    for row, stop in zip(result.arm_counts, result.checkpoints, strict=True):
        played = result.duels[:stop, :2].ravel()
        np.testing.assert_array_equal(row, np.bincount(played, minlength=4))


def test_outcomes_follow_the_matrix():
    matrix = np.array([[0.5, 0.8, 0.3], [0.2, 0.5, 0.65], [0.7, 0.35, 0.5]])
    result = simulate(
        make_algorithm("sparring_exp3_karmed", gamma=1.0),
        matrix,
        60_000,
        np.random.default_rng(5),
        record_duels=True,
    )
    a, b, outcome = result.duels.T
    for i in range(3):
        for j in range(3):
            played = (a == i) & (b == j)
            n = played.sum()
            assert n > 5000  # gamma = 1: uniform play, about 6,667 per ordered pair
            standard_error = np.sqrt(matrix[i, j] * (1 - matrix[i, j]) / n)
            assert abs(outcome[played].mean() - matrix[i, j]) < 4.5 * standard_error


def test_either_convention_gives_the_same_run():
    probability = random_probability_matrix(5, np.random.default_rng(1))
    runs = [
        simulate(make_algorithm("dts"), matrix, 300, np.random.default_rng(2), record_duels=True)
        for matrix in (probability, 2 * probability - 1)
    ]
    np.testing.assert_array_equal(runs[0].duels, runs[1].duels)
    with pytest.raises(PreferenceMatrixError):
        simulate(make_algorithm("dts"), np.full((3, 3), 0.7), 10, np.random.default_rng(0))


@pytest.mark.parametrize(
    ("checkpoints", "message"),
    [
        ([], "non-empty"),
        ([5, 3, 10], "increase"),
        ([0, 10], "increase"),
        ([5], "end at"),
        ([2.0, 10.0], "integers"),
    ],
)
def test_bad_checkpoints_are_rejected(checkpoints, message):
    with pytest.raises(ValueError, match=message):
        simulate(
            make_algorithm("rucb"), np.eye(2) * 0 + 0.5, 10, np.random.default_rng(0), checkpoints
        )


def test_bad_arguments_are_rejected():
    matrix = random_probability_matrix(3, np.random.default_rng(0))
    with pytest.raises(ValueError, match="horizon"):
        simulate(make_algorithm("rucb"), matrix, 0, np.random.default_rng(0))
    with pytest.raises(ValueError, match="engine"):
        simulate(make_algorithm("rucb"), matrix, 5, np.random.default_rng(0), engine="fast")
    with pytest.raises(TypeError, match="DuelingBanditAlgorithm"):
        simulate("rucb", matrix, 5, np.random.default_rng(0))


def test_geometric_checkpoints():
    points = geometric_checkpoints(10_000, 5)
    np.testing.assert_array_equal(points, [1, 10, 100, 1000, 10_000])
    assert geometric_checkpoints(7, 100)[-1] == 7
    assert (np.diff(geometric_checkpoints(7, 100)) > 0).all()
