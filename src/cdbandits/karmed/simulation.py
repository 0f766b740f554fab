"""Running a K-armed dueling-bandit algorithm against a fixed preference matrix.

:func:`simulate` splits the generator it is given into two independent streams
(``rng.spawn(2)``: the environment's and the algorithm's), starts the algorithm and plays
``horizon`` rounds. Each round the environment draws one uniform ``u`` and arm ``a`` wins the
duel ``(a, b)`` iff ``u < Q[a, b]`` (``Q`` the probability form of the matrix). Two engines
play the rounds:

* ``"compiled"``: the algorithm's numba kernel
  (:meth:`~cdbandits.karmed.base.DuelingBanditAlgorithm.run_compiled`), called once per
  segment between checkpoints;
* ``"python"``: a plain loop over :meth:`~cdbandits.karmed.base.DuelingBanditAlgorithm.select`
  and :meth:`~cdbandits.karmed.base.DuelingBanditAlgorithm.update` (the NumPy implementation).

Both consume the two streams identically, so on the same seed they play the same duels and
end in the same state. What is kept is the number of times each arm was played up to each
checkpoint (every regret measure of :mod:`cdbandits.karmed.regret` is a function of it) and,
on request, every duel.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray
from tqdm import tqdm

from ..dueling.checks import Engine, checked_rounds
from ..preference import Convention, as_skew
from .base import DuelingBanditAlgorithm

__all__ = [
    "SimulationResult",
    "geometric_checkpoints",
    "simulate",
]


@dataclass(frozen=True)
class SimulationResult:
    """What a run of :func:`simulate` produced.

    Attributes
    ----------
    algorithm : str
        The algorithm's :attr:`~cdbandits.karmed.base.DuelingBanditAlgorithm.name`.
    engine : {"compiled", "python"}
    checkpoints : ndarray of int64, shape (C,)
        Increasing round counts ``t``; the last is the horizon.
    arm_counts : ndarray of int64, shape (C, K)
        ``arm_counts[c, i]``: how often arm ``i`` was one of the two duelled arms in rounds
        ``1..checkpoints[c]`` (a self-duel ``(i, i)`` counts twice). Rows sum to ``2 t``.
    duels : ndarray of int64, shape (T, 3), or None
        ``(a, b, outcome)`` of every round when recorded.
    seconds : float
        Wall time of the rounds (the algorithm's start excluded).
    """

    algorithm: str
    engine: Engine
    checkpoints: NDArray[np.int64]
    arm_counts: NDArray[np.int64]
    duels: NDArray[np.int64] | None
    seconds: float

    @property
    def horizon(self) -> int:
        """Number of rounds played."""
        return int(self.checkpoints[-1])

    @property
    def n_arms(self) -> int:
        """Number of arms ``K``."""
        return int(self.arm_counts.shape[1])


def geometric_checkpoints(horizon: int, count: int = 25) -> NDArray[np.int64]:
    """About ``count`` round counts spaced evenly on a log scale from 1 to ``horizon``."""
    if horizon < 1 or count < 1:
        raise ValueError(f"need horizon >= 1 and count >= 1; got {horizon}, {count}")
    points = np.unique(np.round(np.geomspace(1, horizon, count)).astype(np.int64))
    return points if points[-1] == horizon else np.append(points, horizon)


def simulate(
    algorithm: DuelingBanditAlgorithm,
    preference_matrix: ArrayLike,
    horizon: int,
    rng: np.random.Generator,
    checkpoints: ArrayLike | None = None,
    *,
    engine: Engine = "compiled",
    record_duels: bool = False,
    convention: Convention | Literal["auto"] = "auto",
    progress: bool = False,
) -> SimulationResult:
    """Play ``horizon`` rounds of ``algorithm`` against a fixed preference matrix.

    Parameters
    ----------
    algorithm : DuelingBanditAlgorithm
        Started afresh on the matrix's ``K`` arms (its learned state is overwritten).
    preference_matrix : array_like, shape (K, K)
        Probability form ``Q[i, j] = Pr(i beats j)`` or skew form ``2 Q - 1`` (validated
        by :func:`cdbandits.preference.as_skew`).
    horizon : int
        Number of rounds ``T >= 1`` (also given to the algorithm).
    rng : numpy.random.Generator
        Split into the environment's and the algorithm's streams.
    checkpoints : array_like of int, optional
        Increasing round counts ending at ``horizon``; ``[horizon]`` when omitted.
    engine : {"compiled", "python"}, optional
        See the module docstring.
    record_duels : bool, optional
        Keep every ``(a, b, outcome)`` (``3 T`` integers).
    convention : {"auto", "probability", "skew"}, optional
        Convention of ``preference_matrix``.
    progress : bool, optional
        Show a progress bar over the checkpoints.

    Returns
    -------
    SimulationResult
    """
    if not isinstance(algorithm, DuelingBanditAlgorithm):
        raise TypeError(f"algorithm must be a DuelingBanditAlgorithm; got {type(algorithm)}")
    horizon, rounds = checked_rounds(engine, horizon, checkpoints)
    win_probability = (as_skew(preference_matrix, convention) + 1.0) / 2.0
    n_arms = win_probability.shape[0]
    environment_rng, algorithm_rng = rng.spawn(2)
    algorithm.start(n_arms, algorithm_rng, horizon)

    arm_counts = np.zeros((rounds.size, n_arms), dtype=np.int64)
    running = np.zeros(n_arms, dtype=np.int64)
    duels = np.empty((horizon, 3), dtype=np.int64) if record_duels else None
    started = time.perf_counter()
    done = 0
    for index, stop in enumerate(tqdm(rounds, disable=not progress, desc=algorithm.name)):
        segment = None if duels is None else duels[done:stop]
        if engine == "compiled":
            algorithm.run_compiled(win_probability, environment_rng, stop - done, running, segment)
        else:
            _play_python(algorithm, win_probability, environment_rng, stop - done, running, segment)
        arm_counts[index] = running
        done = stop
    seconds = time.perf_counter() - started
    return SimulationResult(algorithm.name, engine, rounds, arm_counts, duels, seconds)


def _play_python(
    algorithm: DuelingBanditAlgorithm,
    win_probability: NDArray[np.float64],
    environment_rng: np.random.Generator,
    n_rounds: int,
    arm_counts: NDArray[np.int64],
    duels: NDArray[np.int64] | None,
) -> None:
    """The reference loop: ``select``, one environment uniform, ``update``."""
    for step in range(n_rounds):
        a, b = algorithm.select()
        outcome = 1 if environment_rng.random() < win_probability[a, b] else 0
        algorithm.update(a, b, outcome)
        arm_counts[a] += 1
        arm_counts[b] += 1
        if duels is not None:
            duels[step] = (a, b, outcome)
