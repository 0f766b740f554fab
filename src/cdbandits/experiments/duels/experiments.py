"""What runs: one shard of the duels sweep, each run's exact regret at its checkpoints.

A run (:class:`Task`) plays one K-armed algorithm of
:mod:`cdbandits.karmed` (with its defaults, or a tuned variant of ``duels.tuned``) on one
environment for :func:`horizon_for` rounds (the sweep's horizon, the environment's own, or
the smallest horizon cap that applies) with the compiled engine
(:func:`cdbandits.karmed.simulate`). All
algorithms of one ``(environment, seed index)`` get the same arms
(:func:`~.environments.subset_arms`) and the same generator
``duels/<environment>/<seed index>``, so they meet the same uniforms of the environment's
stream (common random numbers: their differences are measured with
less noise).

On a contextual environment (:mod:`.contextual`) every algorithm of the sweep plays, each
with what it may use, and its regret (eq. rd1, against the exact contextual von Neumann
winner of the policy class) fills the same columns; the wall time is that of the whole
episode. On the adaptive adversary (:mod:`.adversarial`) every algorithm plays round by
round, and only rd1 in hindsight is defined. The runs are dealt to the shard jobs round
robin (:func:`shard_tasks`), so that every job costs about the same.

At every checkpoint (about ``sweep.checkpoints`` log-spaced rounds plus the leaderboard
horizons) the regret of the run is exact, a function of its arm counts
(:mod:`cdbandits.karmed.regret`): against the von Neumann winner (the paper's eq. rd1 with a
constant context, skew units), rd1 in hindsight, Condorcet regret (probability units, NaN
without a Condorcet winner) and Copeland regret. The wall time of the rounds is kept apart
(:data:`TIMING_COLUMNS`), since it differs between two runs of the same seed.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from ...karmed import simulate
from ...karmed.regret import regret_table
from ...karmed.simulation import geometric_checkpoints
from ...randomness import named_generator
from .adversarial import AdversarialInstance, adversarial_log, adversarial_regret
from .contextual import ContextualInstance, contextual_log, contextual_regret
from .environments import PreferenceEnvironment, environment_instance, subset_arms
from .settings import CONTEXTUAL_ALGORITHMS, DuelsEnvironment, DuelsSweep

__all__ = [
    "METRICS",
    "REGRET_COLUMNS",
    "TIMING_COLUMNS",
    "Task",
    "algorithms_on",
    "horizon_for",
    "run_checkpoints",
    "run_duels_shard",
    "run_task",
    "shard_tasks",
    "sweep_tasks",
]

logger = logging.getLogger(__name__)

#: The regret measures of every run (columns of the regret table).
METRICS: tuple[str, ...] = ("von_neumann", "hindsight", "condorcet", "copeland")

#: Columns of a shard's regret table (one row per run and checkpoint).
REGRET_COLUMNS: tuple[str, ...] = (
    "environment",
    "algorithm",
    "seed",
    "n_arms",
    "horizon",
    "round",
    *METRICS,
)

#: Columns of a shard's timing table (one row per run).
TIMING_COLUMNS: tuple[str, ...] = (
    "environment",
    "algorithm",
    "seed",
    "n_arms",
    "horizon",
    "seconds",
    "seconds_per_round",
)


@dataclass(frozen=True)
class Task:
    """One run of the sweep: an algorithm on an environment with one seed index."""

    environment: str
    algorithm: str
    seed_index: int


def horizon_for(
    sweep: DuelsSweep, algorithm: str, n_arms: int, environment: DuelsEnvironment | None = None
) -> int:
    """Rounds ``algorithm`` plays on ``n_arms`` arms (of ``environment``): the smallest
    applicable cap or environment horizon."""
    own = environment.horizon if environment is not None else None
    name = environment.name if environment is not None else None
    return min(
        [sweep.horizon if own is None else own]
        + [
            cap.horizon
            for cap in sweep.horizon_caps
            if algorithm in cap.algorithms
            and n_arms >= cap.min_arms
            and (not cap.environments or name in cap.environments)
        ]
    )


def algorithms_on(sweep: DuelsSweep, environment: DuelsEnvironment) -> tuple[str, ...]:
    """The algorithms run on ``environment``: the contextual ones on a contextual one only,
    the tuned variants on one without context only."""
    if environment.contextual:
        return sweep.algorithms
    karmed = tuple(a for a in sweep.algorithms if a not in CONTEXTUAL_ALGORITHMS)
    return karmed + tuple(sweep.tuned)


def sweep_tasks(sweep: DuelsSweep) -> tuple[Task, ...]:
    """Every run, ordered by environment, algorithm and seed."""
    return tuple(
        Task(environment.name, algorithm, seed_index)
        for environment in sweep.environments
        for algorithm in algorithms_on(sweep, environment)
        for seed_index in range(sweep.seeds)
    )


def shard_tasks(sweep: DuelsSweep, shard: int) -> tuple[Task, ...]:
    """The runs of job ``shard``: every ``shards``-th task, so all jobs cost about alike."""
    if not 0 <= shard < sweep.shards:
        raise ValueError(f"shard must be in 0..{sweep.shards - 1}; got {shard}")
    return sweep_tasks(sweep)[shard :: sweep.shards]


def run_checkpoints(sweep: DuelsSweep, horizon: int) -> NDArray[np.int64]:
    """Log-spaced rounds up to ``horizon`` and the leaderboard horizons it reaches."""
    reached = [h for h in sweep.leaderboard_horizons if h <= horizon]
    return np.union1d(geometric_checkpoints(horizon, sweep.checkpoints), reached).astype(np.int64)


def _run_contextual(
    sweep: DuelsSweep, task: Task, instance: ContextualInstance | AdversarialInstance, seed: int
) -> tuple[pd.DataFrame, float, int, int]:
    settings = sweep.environment(task.environment)
    adversarial = isinstance(instance, AdversarialInstance)
    n_arms = instance.n_actions if adversarial else instance.population.n_actions
    horizon = horizon_for(sweep, task.algorithm, n_arms, settings)
    rng = named_generator(seed, "duels", task.environment, task.seed_index)
    started = time.perf_counter()
    if adversarial:
        log = adversarial_log(task.algorithm, instance, horizon, rng)
    else:
        log = contextual_log(task.algorithm, instance, horizon, rng)
    seconds = time.perf_counter() - started
    checkpoints = run_checkpoints(sweep, horizon)
    if adversarial:
        regret = adversarial_regret(instance, log, checkpoints)
    else:
        regret = contextual_regret(instance, log, checkpoints)
    return regret, seconds, n_arms, horizon


def run_task(
    sweep: DuelsSweep,
    task: Task,
    environment: PreferenceEnvironment | ContextualInstance | AdversarialInstance,
    seed: int,
) -> tuple[pd.DataFrame, dict[str, object]]:
    """One run: its regret at every checkpoint and its timing row.

    ``environment`` is the matrix of a K-armed environment or the instance of a contextual
    one (:func:`~.environments.environment_instance`).
    """
    if isinstance(environment, ContextualInstance | AdversarialInstance):
        regret, seconds, n_arms, horizon = _run_contextual(sweep, task, environment, seed)
        return _keyed(regret, task, n_arms, horizon, seconds)
    matrix, _ = environment
    settings = sweep.environment(task.environment)
    arms = subset_arms(settings, matrix.shape[0], seed, task.seed_index)
    played = matrix[np.ix_(arms, arms)]
    n_arms = int(arms.size)
    horizon = horizon_for(sweep, task.algorithm, n_arms, settings)
    rng = named_generator(seed, "duels", task.environment, task.seed_index)
    result = simulate(
        sweep.make_karmed(task.algorithm),
        played,
        horizon,
        rng,
        run_checkpoints(sweep, horizon),
        convention="probability",
    )
    regret = regret_table(played, result, convention="probability")
    return _keyed(regret, task, n_arms, horizon, result.seconds)


def _keyed(
    regret: pd.DataFrame, task: Task, n_arms: int, horizon: int, seconds: float
) -> tuple[pd.DataFrame, dict[str, object]]:
    key = {
        "environment": task.environment,
        "algorithm": task.algorithm,
        "seed": task.seed_index,
        "n_arms": n_arms,
        "horizon": horizon,
    }
    for column, value in reversed(key.items()):
        regret.insert(0, column, value)
    timing = key | {"seconds": seconds, "seconds_per_round": seconds / horizon}
    return regret, timing


def run_duels_shard(
    sweep: DuelsSweep,
    seed: int,
    shard: int,
    environments: Mapping[str, PreferenceEnvironment],
    winners: Mapping[str, Mapping[str, Any]] | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The regret and timing tables of the runs of job ``shard`` (columns above).

    ``environments`` holds the matrices of the K-armed environments; a contextual one is
    built here from ``seed`` (once per shard), with its exact winner from ``winners``
    (:func:`~.environments.read_winner`, checked) when given there, else solved here.
    """
    winners = winners or {}
    needed = {
        task.environment
        for task in sweep_tasks(sweep)
        if not sweep.environment(task.environment).contextual
    }
    missing = sorted(needed - set(environments))
    if missing:
        raise ValueError(f"the matrices of the environments {missing} were not given")
    tasks = shard_tasks(sweep, shard)
    instances: dict[str, ContextualInstance | AdversarialInstance | None] = {}
    regrets, timings = [], []
    for number, task in enumerate(tasks, start=1):
        settings = sweep.environment(task.environment)
        if settings.contextual:
            if task.environment not in instances:
                instances[task.environment] = environment_instance(
                    settings, seed, winners.get(task.environment)
                )
            instance = instances[task.environment]
            assert instance is not None  # a contextual environment has one
            played: PreferenceEnvironment | ContextualInstance | AdversarialInstance = instance
        else:
            played = environments[task.environment]
        regret, timing = run_task(sweep, task, played, seed)
        regrets.append(regret)
        timings.append(timing)
        logger.info(
            "%d/%d %s %s seed %d: T = %d in %.2f s",
            number,
            len(tasks),
            task.environment,
            task.algorithm,
            task.seed_index,
            timing["horizon"],
            timing["seconds"],
        )
    regret_table = (
        pd.concat(regrets, ignore_index=True)
        if regrets
        else pd.DataFrame(columns=list(REGRET_COLUMNS))
    )
    return regret_table[list(REGRET_COLUMNS)], pd.DataFrame(timings, columns=list(TIMING_COLUMNS))
