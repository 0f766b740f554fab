"""The argument checks shared by the dueling learners (cdbandits.dueling.checks)."""

import math

import numpy as np
import pytest

from cdbandits.dueling.checks import (
    check_generator,
    check_integer,
    check_positive,
    checked_rounds,
)


def test_check_positive_takes_finite_numbers_above_the_bound():
    assert check_positive("alpha", 1) == 1.0 and isinstance(check_positive("alpha", 1), float)
    assert check_positive("alpha", np.float32(0.5)) == 0.5
    assert check_positive("growth", 1.0, above=1.0, inclusive=True) == 1.0
    for value in (0.0, -1.0, math.nan, math.inf):
        with pytest.raises(ValueError, match="alpha must be a finite number > 0"):
            check_positive("alpha", value)
    with pytest.raises(ValueError, match="growth must be a finite number > 1"):
        check_positive("growth", 1.0, above=1.0)
    for value in (True, "0.6", None):
        with pytest.raises(TypeError, match="alpha must be a number"):
            check_positive("alpha", value)


def test_check_integer_takes_integers_from_the_minimum():
    assert check_integer("n", np.int64(3), minimum=1) == 3
    assert type(check_integer("n", np.int64(3), minimum=1)) is int
    assert check_integer("n", 0, minimum=0) == 0
    for value in (-1, 2.0, True, "3"):
        with pytest.raises(ValueError, match="n must be an integer >= 0"):
            check_integer("n", value, minimum=0)


def test_check_generator_takes_only_a_numpy_generator():
    rng = np.random.default_rng(0)
    assert check_generator(rng) is rng
    for value in (np.random.RandomState(0), 0, None):
        with pytest.raises(TypeError, match="rng must be a numpy.random.Generator"):
            check_generator(value)


def test_checked_rounds_end_at_the_horizon():
    horizon, rounds = checked_rounds("compiled", np.int64(10), None)
    assert horizon == 10 and type(horizon) is int
    np.testing.assert_array_equal(rounds, [10])
    horizon, rounds = checked_rounds("python", 10, [1, 4, 10])
    assert rounds.dtype == np.int64 and rounds.tolist() == [1, 4, 10]
    for engine, horizon, checkpoints, message in [
        ("fast", 10, None, "engine must be one of"),
        ("compiled", 0, None, "horizon must be a positive integer"),
        ("compiled", True, None, "horizon must be a positive integer"),
        ("compiled", 10, [], "non-empty"),
        ("compiled", 10, [[1, 10]], "1-d"),
        ("compiled", 10, [1, 1, 10], "increase strictly"),
        ("compiled", 10, [0, 10], "from >= 1"),
        ("compiled", 10, [1, 9], "end at the horizon 10"),
    ]:
        with pytest.raises(ValueError, match=message):
            checked_rounds(engine, horizon, checkpoints)
