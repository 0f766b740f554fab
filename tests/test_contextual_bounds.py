"""The explicit bound of Theorem sparring-exp4."""

import math

import pytest

from cdbandits.contextual.bounds import (
    azuma_union_bound,
    exp4p_reward_bound,
    sparring_exp4p_regret_bound,
)


def test_terms_follow_the_derivation():
    T, K, n, delta = 20_000, 4, 500, 0.1
    bound = sparring_exp4p_regret_bound(T, K, n, delta)
    assert bound.n_experts == 501
    assert bound.exp4p_term == pytest.approx(12 * math.sqrt(K * T * math.log(4 * 501 / delta)))
    assert bound.azuma_term == pytest.approx(math.sqrt(2 * T * math.log(4 * n / delta)))
    assert bound.total == bound.exp4p_term + bound.azuma_term
    assert bound.conditions_hold
    without_uniform = sparring_exp4p_regret_bound(T, K, n, delta, uniform_expert=False)
    assert without_uniform.n_experts == n and without_uniform.total < bound.total


def test_building_blocks():
    assert exp4p_reward_bound(100, 2, 10, 0.5) == pytest.approx(12 * math.sqrt(200 * math.log(20)))
    assert azuma_union_bound(100, 10, 0.5) == pytest.approx(math.sqrt(200 * math.log(20)))


def test_bound_grows_like_the_square_root_of_t():
    small = sparring_exp4p_regret_bound(10_000, 5, 1000, 0.05).total
    large = sparring_exp4p_regret_bound(1_000_000, 5, 1000, 0.05).total
    assert large / small == pytest.approx(10.0, rel=1e-12)


def test_conditions_and_errors():
    assert not sparring_exp4p_regret_bound(10, 5, 10**6, 0.05).conditions_hold  # K ln N > T
    with pytest.raises(ValueError, match="delta"):
        sparring_exp4p_regret_bound(100, 3, 10, 1.0)
    with pytest.raises(ValueError, match="n_actions >= 2"):
        sparring_exp4p_regret_bound(100, 1, 10, 0.1)
