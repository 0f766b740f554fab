"""simulate(): the compiled and the Python engine play the same duels; what is recorded."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from linear_duels_cases import ALGORITHM_NAMES, assert_same_learned_state

from cdbandits.linear_duels import make_algorithm, simulate, synthetic_linear_environment


def assert_same_run(name, environment, horizon, seed, **parameters):
    runs = {}
    for engine in ("compiled", "python"):
        algorithm = make_algorithm(name, **parameters)
        result = simulate(
            algorithm,
            environment,
            horizon,
            np.random.default_rng(seed),
            sorted({max(1, horizon // 3), horizon}),
            engine=engine,
            record_duels=True,
        )
        runs[engine] = (algorithm, result)
    (compiled_algorithm, compiled), (python_algorithm, python) = runs.values()
    np.testing.assert_array_equal(compiled.duels, python.duels)
    np.testing.assert_array_equal(compiled.arm_counts, python.arm_counts)
    np.testing.assert_array_equal(compiled.weak_regret, python.weak_regret)
    assert_same_learned_state(compiled_algorithm, python_algorithm)
    return compiled


@pytest.mark.parametrize("name", ALGORITHM_NAMES)
@pytest.mark.parametrize(("link", "seed"), [("logistic", 0), ("probit", 1)])
def test_engines_play_the_same_duels(name, link, seed):
    environment = synthetic_linear_environment(30, 6, 4, np.random.default_rng(seed), link=link)
    result = assert_same_run(name, environment, 1500, seed, refit_growth=1.05)
    counts = result.arm_counts
    assert (counts.sum(axis=(1, 2)) == 2 * result.checkpoints).all()
    duels = result.duels
    assert (np.bincount(duels[:, 0], minlength=30) > 0).all()  # every context was drawn
    assert set(np.unique(duels[:, 3])) <= {0, 1}


@settings(max_examples=10)
@given(
    name=st.sampled_from(ALGORITHM_NAMES),
    n_arms=st.integers(2, 5),
    n_features=st.integers(1, 4),
    horizon=st.integers(1, 60),
    seed=st.integers(0, 2**32 - 1),
)
def test_any_small_instance_gives_identical_runs(name, n_arms, n_features, horizon, seed):
    environment = synthetic_linear_environment(4, n_arms, n_features, np.random.default_rng(seed))
    assert_same_run(name, environment, horizon, seed, exploration_rounds=3, refit_growth=1)


def test_weak_regret_is_recomputed_from_the_duels():
    environment = synthetic_linear_environment(10, 4, 3, np.random.default_rng(2))
    result = simulate(
        make_algorithm("colstim"), environment, 300, np.random.default_rng(0), record_duels=True
    )
    context, a, b = result.duels[:, 0], result.duels[:, 1], result.duels[:, 2]
    u = environment.utilities
    expected = (u.max(axis=1)[context] - np.maximum(u[context, a], u[context, b])).sum()
    assert result.weak_regret[-1] == pytest.approx(expected, rel=1e-12)


def test_bad_arguments_are_named():
    environment = synthetic_linear_environment(3, 3, 2, np.random.default_rng(0))
    with pytest.raises(ValueError, match="engine"):
        simulate(make_algorithm("maxinp"), environment, 10, np.random.default_rng(0), engine="c")
    with pytest.raises(ValueError, match="checkpoints"):
        simulate(make_algorithm("maxinp"), environment, 10, np.random.default_rng(0), [5, 4])
    with pytest.raises(KeyError, match="unknown algorithm"):
        make_algorithm("rucb")
