"""Running a linear contextual dueling algorithm against a :class:`LinearDuelingEnvironment`.

:func:`simulate` splits the generator it is given into the environment's and the algorithm's
streams (``rng.spawn(2)``), starts the algorithm and plays ``horizon`` rounds. Each round the
environment draws the context with one uniform (the first context ``x`` with
``u < p_0 + ... + p_x``), the algorithm picks ``(a, b)`` among the context's arms, and the
environment draws the outcome with a second uniform (``a`` wins iff ``u' < F(u_a - u_b)``).
Two engines play the rounds, as in :mod:`cdbandits.karmed.simulation`:

* ``"compiled"``: the algorithm's numba kernel, once per segment between checkpoints;
* ``"python"``: a plain loop over ``select`` and ``update`` (the NumPy implementation).

What is kept, at every checkpoint: how often each arm of each context was duelled (every
regret measure that is linear in the duelled arms is a function of it, see
:mod:`cdbandits.linear_duels.regret`) and the cumulative weak regret (not linear: a maximum
over the two arms), and on request every duel.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray
from tqdm import tqdm

from ..dueling.checks import Engine, checked_rounds
from .base import LinearDuelingAlgorithm, RunRecord
from .environments import LinearDuelingEnvironment, draw_context, duel_outcome_compiled
from .links import link_code

__all__ = ["LinearSimulationResult", "simulate"]


@dataclass(frozen=True)
class LinearSimulationResult:
    """What a run of :func:`simulate` produced.

    Attributes
    ----------
    algorithm : str
        The algorithm's ``name``.
    environment : str
        The environment's ``name``.
    engine : {"compiled", "python"}
    checkpoints : ndarray of int64, shape (C,)
        Increasing round counts; the last is the horizon.
    arm_counts : ndarray of int64, shape (C, n_contexts, K)
        ``arm_counts[c, x, i]``: how often arm ``i`` of context ``x`` was one of the two
        duelled arms in rounds ``1..checkpoints[c]`` (twice for a self-duel).
    weak_regret : ndarray of float64, shape (C,)
        Cumulative ``sum_t max_i u_{x_t, i} - max(u_{a_t}, u_{b_t})`` (utility units).
    duels : ndarray of int64, shape (T, 4), or None
        ``(context, a, b, outcome)`` of every round when recorded.
    seconds : float
        Wall time of the rounds.
    """

    algorithm: str
    environment: str
    engine: Engine
    checkpoints: NDArray[np.int64]
    arm_counts: NDArray[np.int64]
    weak_regret: NDArray[np.float64]
    duels: NDArray[np.int64] | None
    seconds: float

    @property
    def horizon(self) -> int:
        """Number of rounds played."""
        return int(self.checkpoints[-1])


def simulate(
    algorithm: LinearDuelingAlgorithm,
    environment: LinearDuelingEnvironment,
    horizon: int,
    rng: np.random.Generator,
    checkpoints: ArrayLike | None = None,
    *,
    engine: Engine = "compiled",
    record_duels: bool = False,
    progress: bool = False,
) -> LinearSimulationResult:
    """Play ``horizon`` rounds of ``algorithm`` in ``environment``.

    Parameters
    ----------
    algorithm : LinearDuelingAlgorithm
        Started afresh (its learned state is overwritten).
    environment : LinearDuelingEnvironment
    horizon : int
        Number of rounds ``T >= 1`` (also given to the algorithm).
    rng : numpy.random.Generator
        Split into the environment's and the algorithm's streams.
    checkpoints : array_like of int, optional
        Increasing round counts ending at ``horizon``; ``[horizon]`` when omitted.
    engine : {"compiled", "python"}, optional
    record_duels : bool, optional
        Keep every ``(context, a, b, outcome)``.
    progress : bool, optional
        Show a progress bar over the checkpoints.

    Returns
    -------
    LinearSimulationResult
    """
    if not isinstance(algorithm, LinearDuelingAlgorithm):
        raise TypeError(f"algorithm must be a LinearDuelingAlgorithm; got {type(algorithm)}")
    if not isinstance(environment, LinearDuelingEnvironment):
        raise TypeError(f"environment must be a LinearDuelingEnvironment; got {type(environment)}")
    horizon, rounds = checked_rounds(engine, horizon, checkpoints)
    environment_rng, algorithm_rng = rng.spawn(2)
    algorithm.start(environment.n_arms, environment.n_features, algorithm_rng, horizon)
    arrays = environment.arrays()
    shape = (environment.n_contexts, environment.n_arms)
    arm_counts = np.zeros((rounds.size, *shape), dtype=np.int64)
    weak_regret = np.zeros(rounds.size)
    running = RunRecord(
        environment.best_utilities(),
        np.zeros(shape, dtype=np.int64),
        np.zeros(1),
        np.empty((0, 4), dtype=np.int64),
    )
    duels = np.empty((horizon, 4), dtype=np.int64) if record_duels else None
    started = time.perf_counter()
    done = 0
    for index, stop in enumerate(tqdm(rounds, disable=not progress, desc=algorithm.name)):
        record = running if duels is None else running._replace(duels=duels[done:stop])
        if engine == "compiled":
            algorithm.run_compiled(arrays, environment_rng, stop - done, record)
        else:
            _play_python(algorithm, environment, environment_rng, stop - done, record)
        arm_counts[index] = running.arm_counts
        weak_regret[index] = running.weak_regret[0]
        done = stop
    seconds = time.perf_counter() - started
    return LinearSimulationResult(
        algorithm.name, environment.name, engine, rounds, arm_counts, weak_regret, duels, seconds
    )


def _play_python(
    algorithm: LinearDuelingAlgorithm,
    environment: LinearDuelingEnvironment,
    environment_rng: np.random.Generator,
    n_rounds: int,
    record: RunRecord,
) -> None:
    """The reference loop: context uniform, ``select``, outcome uniform, ``update``."""
    cumulative = np.cumsum(environment.probabilities)
    code = link_code(environment.link)
    for step in range(n_rounds):
        context = draw_context(cumulative, environment_rng.random())
        utilities = environment.utilities[context]
        a, b = algorithm.select(environment.features[context])
        outcome = duel_outcome_compiled(code, utilities, a, b, environment_rng.random())
        algorithm.update(a, b, outcome)
        record.arm_counts[context, a] += 1
        record.arm_counts[context, b] += 1
        record.weak_regret[0] += record.best_utilities[context] - max(utilities[a], utilities[b])
        if record.duels.shape[0] > 0:
            record.duels[step] = (context, a, b, outcome)
