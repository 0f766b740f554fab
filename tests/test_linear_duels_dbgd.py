"""DBGD: one step by hand, identical engines, and it improves NDCG on MSLR (a flipped copy not)."""

import math
from dataclasses import replace

import numpy as np
import pytest
from conftest import find_data_mirror

from cdbandits.letor import click_model, read_letor
from cdbandits.linear_duels.dbgd import DuelingBanditGradientDescent, simulate_dbgd
from cdbandits.linear_duels.ranking import ranking_environment

TRAIN = "mslr-web-rankeval-5k/msn1.fold1.train.5k.txt"
TEST = "mslr-web-rankeval-5k/msn1.fold1.test.5k.txt"


def test_one_step_by_hand():
    algorithm = DuelingBanditGradientDescent(exploration_step=2.0, learning_rate=0.5, radius=1.0)
    algorithm.start(3, np.random.default_rng(4))
    gaussian = np.random.default_rng(4).standard_normal(3)
    u = gaussian / np.linalg.norm(gaussian)
    weights, candidate = algorithm.select()
    np.testing.assert_array_equal(weights, np.zeros(3))
    np.testing.assert_allclose(candidate, u)  # 2 u projected on the unit ball
    algorithm.update(1)  # the current ranker won: nothing moves
    np.testing.assert_array_equal(algorithm.weights_, np.zeros(3))
    _, candidate = algorithm.select()
    algorithm.update(-1)  # the candidate won: w = 0 + 0.5 u'
    np.testing.assert_allclose(algorithm.weights_, 0.5 * algorithm.direction_)
    assert algorithm.wins_ == 1 and algorithm.round_ == 2
    assert math.isclose(np.linalg.norm(algorithm.direction_), 1.0)
    with pytest.raises(ValueError, match="outcome"):
        algorithm.select()
        algorithm.update(2)


class FlippedDBGD(DuelingBanditGradientDescent):
    """Broken: steps away from a winning candidate (the gradient sign flipped)."""

    def update(self, outcome):
        if outcome == -1:
            self.direction_ = -self.direction_
        super().update(outcome)


@pytest.fixture(scope="module")
def environments():
    mirror = find_data_mirror()
    if mirror is None or not (mirror / TRAIN).exists():
        pytest.skip("the MSLR sample of the data mirror is not available")
    train = read_letor(mirror / TRAIN, last_query="drop")
    test = read_letor(mirror / TEST, last_query="drop")
    environment = ranking_environment(train, click_model("perfect"))
    held_out = ranking_environment(test, click_model("perfect"), reference=environment.reference)
    return environment, held_out


@pytest.mark.parametrize("method", ["probabilistic", "team_draft"])
def test_engines_play_the_same_comparisons(environments, method):
    environment, held_out = environments
    environment = replace(environment, method=method)
    runs = [
        simulate_dbgd(
            DuelingBanditGradientDescent(radius=5.0),
            environment,
            400,
            np.random.default_rng(1),
            [100, 400],
            held_out=held_out,
            engine=engine,
        )  # fmt: skip
        for engine in ("compiled", "python")
    ]
    compiled, python = runs
    np.testing.assert_array_equal(compiled.weights, python.weights)
    np.testing.assert_array_equal(compiled.regret, python.regret)
    np.testing.assert_array_equal(compiled.candidate_wins, python.candidate_wins)
    np.testing.assert_array_equal(compiled.ndcg, python.ndcg)
    assert np.isfinite(compiled.held_out_ndcg).all()


#: Measured on seeds 0-2, 3000 steps, perfect clicks: NDCG@10 rose from 0.196 (zero ranker,
#: random order) to 0.39-0.42 with either interleaving method; the flipped variant fell to
#: 0.065-0.082. The check asks for +0.1 and for no gain.
NDCG_GAIN = 0.1


def test_improves_offline_ndcg_and_a_flipped_gradient_does_not(environments):
    environment, _ = environments
    for algorithm, learns in ((DuelingBanditGradientDescent, True), (FlippedDBGD, False)):
        for seed in range(2):
            result = simulate_dbgd(
                algorithm(), environment, 3000, np.random.default_rng(seed), engine="python"
            )
            gain = result.ndcg[-1] - result.start_ndcg
            assert (gain > NDCG_GAIN) if learns else (gain < 0.0), (algorithm.__name__, gain)
            # the regret against the best feature ranker grows far less when learning
            assert (result.regret[-1] < 200) if learns else (result.regret[-1] > 300)
