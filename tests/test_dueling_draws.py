"""The random-draw rules and their compiled twins (cdbandits.dueling.draws)."""

import numpy as np

from cdbandits.dueling.draws import (
    coin,
    coin_compiled,
    draw_arm,
    draw_arm_compiled,
    pick,
    pick_compiled,
    pick_from,
)


def test_pick_takes_floor_n_u_and_draws_nothing_for_one_item():
    rng, copy = np.random.default_rng(3), np.random.default_rng(3)
    assert pick(rng, 1) == 0
    u = copy.random()
    assert pick(rng, 7) == int(7 * u)
    assert rng.random() == copy.random()  # exactly one uniform was used
    assert (
        pick_from(np.random.default_rng(3), np.array([4, 9, 11]))
        == [4, 9, 11][int(3 * np.random.default_rng(3).random())]
    )


def test_compiled_rules_draw_the_same_numbers():
    for seed in range(20):
        assert pick(np.random.default_rng(seed), 5) == pick_compiled(np.random.default_rng(seed), 5)
        assert coin(np.random.default_rng(seed), 0.3) == coin_compiled(
            np.random.default_rng(seed), 0.3
        )


def test_draw_arm_is_the_inverse_cdf():
    probabilities = np.array([0.2, 0.5, 0.3])
    for uniform, arm in [(0.0, 0), (0.1999, 0), (0.2, 1), (0.6999, 1), (0.7, 2), (0.9999, 2)]:
        assert draw_arm(probabilities, uniform) == arm
        assert draw_arm_compiled(probabilities, uniform) == arm
