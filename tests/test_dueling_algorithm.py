"""The round protocol shared by the K-armed and linear algorithms (cdbandits.dueling.algorithm)."""

import numpy as np
import pytest

from cdbandits.dueling.algorithm import RoundAlgorithm


class Recorder(RoundAlgorithm):
    """Selects ``(t mod 2, observation)`` and records what reaches ``_update`` and the kernel."""

    name = "recorder"

    def __init__(self, width: int = 2) -> None:
        self.width = width

    def start(self, rng: np.random.Generator) -> "Recorder":
        self._restart(rng)
        return self

    def select(self, observation: int) -> tuple[int, int]:
        self._check_selectable()
        return self._select_round(observation)

    def _start(self) -> None:
        self.updates_: list[tuple] = []
        self.total_ = np.zeros(1, dtype=np.int64)

    def _select(self, t: int, observation: int) -> tuple[int, int]:
        return t % 2, observation

    def _update(self, t: int, *duel) -> None:
        self.updates_.append((t, *duel))

    @staticmethod
    def _kernel(total, width, start_round, n_rounds, rng, offset):
        total[0] += sum(range(start_round + 1, start_round + n_rounds + 1)) + offset
        return width * n_rounds

    def _kernel_state(self) -> tuple:
        return (self.total_, self.width)

    def _kernel_result(self, result) -> None:
        self.last_result_ = result


def test_update_gets_the_round_its_observations_and_the_duel():
    algorithm = Recorder().start(np.random.default_rng(0))
    assert algorithm.select(5) == (1, 5)
    algorithm.update(1, 5, 0)
    assert algorithm.select(7) == (0, 7)
    algorithm.update(0, 7, 1)
    assert algorithm.updates_ == [(1, 5, 1, 5, 0), (2, 7, 0, 7, 1)]
    assert algorithm.round_ == 2


def test_the_protocol_is_enforced():
    algorithm = Recorder()
    with pytest.raises(RuntimeError, match=r"Recorder: call start\(...\) first"):
        algorithm.select(1)
    algorithm.start(np.random.default_rng(0))
    with pytest.raises(RuntimeError, match="preceding select"):
        algorithm.update(1, 1, 1)
    algorithm.select(3)
    with pytest.raises(RuntimeError, match=r"round 1 already selected \(1, 3\)"):
        algorithm.select(3)
    with pytest.raises(RuntimeError, match="between select"):
        algorithm._check_between_rounds()
    with pytest.raises(ValueError, match=r"got the pair \(3, 1\); select\(\) returned \(1, 3\)"):
        algorithm.update(3, 1, 1)
    for outcome in (2, -1, True, 0.5):
        with pytest.raises(ValueError, match="outcome must be 1"):
            algorithm.update(1, 3, outcome)
    assert algorithm.round_ == 0


def test_the_kernel_plays_from_the_current_round_with_the_state_and_environment():
    algorithm = Recorder(width=3).start(np.random.default_rng(0))
    algorithm.select(0)
    algorithm.update(1, 0, 1)
    algorithm._play_compiled(4, 100)  # rounds 2..5
    assert algorithm.total_[0] == 2 + 3 + 4 + 5 + 100
    assert algorithm.last_result_ == 12 and algorithm.round_ == 5
    assert algorithm.select(9) == (0, 9)  # round 6


def test_repr_shows_the_hyper_parameters_only():
    algorithm = Recorder(width=4)
    assert repr(algorithm) == "Recorder(width=4)"
    algorithm.start(np.random.default_rng(0)).select(1)
    assert repr(algorithm) == "Recorder(width=4)"
