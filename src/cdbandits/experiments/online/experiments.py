"""What the online sweep runs: its settings, their instances and episodes, shard by shard.

A *setting* (:class:`OnlineSetting`) is one environment with one policy class and the
horizons ``T`` to run it for. The environment sections of the ``online`` config make them
(:func:`online_settings`):

* ``synthetic``: one setting per ``(n_actions, n_policies)`` pair, ``synthetic_K{K}_N{N}``;
* ``long_horizon`` (when its horizons are not empty): ``long_K{K}_N{N}``, the same instance
  as ``synthetic_K{K}_N{N}`` run for longer, with ``last_decade_checkpoints`` more
  checkpoints in the last decade of each regret curve (for the slope over that decade);
* ``supervised`` (when its ``dataset`` is not null): ``supervised_{dataset}``;
* ``adversarial`` (when its horizons are not empty): ``adversarial_K{K}_N{N}``;
* ``mslr`` (when its ``matrices`` path is set): ``mslr``.

For every setting, seed index and horizon ``T``, every algorithm of the sweep plays one
episode of ``T`` rounds; all algorithms of a (setting, seed, ``T``) share one generator, so
they meet the same contexts and duel uniforms (common random numbers). Recorded per episode
(:func:`run_online_shard`):

* the exact regret (rd1) at log-spaced checkpoints up to ``T`` (one batched oracle call),
  denser in the last decade for the long run (``last_decade_checkpoints``);
* the largest regret (rd1) any learner can have on the episode's contexts, its *ceiling*
  (:func:`~cdbandits.experiments.oracle.ceilings.regret_ceiling` on a finite population,
  :func:`~cdbandits.experiments.oracle.ceilings.counter_play_regret_ceiling` against the
  adaptive adversary; one oracle call on the contexts' round counts);
* for SparringEXP4.P on a finite population, the exploitability of the online-to-batch
  average ``Wbar`` of its row player, ``eps = -min_rho Wbar^T M rho``, with ``m = T``.

Randomness (:func:`cdbandits.randomness.named_generator` of the master seed): a synthetic
population from the key ``("online", "synthetic population", K)``, a random linear class
from ``("online", "linear policies", K, N)``, the contexts of the adversary from
``("online", setting)``, and the episode of seed index ``s`` and horizon ``T`` from
``("online", setting, s, T)``. Results do not depend on how the work is sharded.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from ...contextual.baselines import SparringExp3, UniformDuels
from ...contextual.duels import DuelingAlgorithm
from ...contextual.environments import (
    ContextPopulation,
    CounterPlayAdversary,
    DuelingEnvironment,
    StochasticEnvironment,
    load_mslr_population,
    supervised_population,
    synthetic_intransitive_population,
)
from ...contextual.exp4p import SparringExp4P
from ...contextual.oracle import ActionTable, ClassificationOracle
from ...contextual.policies import DecisionStumps, PolicyClass, RandomLinearPolicies
from ...contextual.regret import (
    contextual_exploitability,
    mixture_action_distributions,
    regret_curve,
)
from ...randomness import named_generator
from ..oracle.ceilings import counter_play_regret_ceiling, regret_ceiling
from .settings import (
    ALGORITHMS,
    AdversarialParameters,
    EnvironmentParameters,
    EnvironmentSections,
    MslrParameters,
    OnlineSweep,
    SupervisedParameters,
    SyntheticParameters,
)

__all__ = [
    "CURVE_COLUMNS",
    "CURVE_KEYS",
    "RUN_COLUMNS",
    "RUN_KEYS",
    "OnlineInstance",
    "OnlineSetting",
    "build_instance",
    "episode_ceiling",
    "online_settings",
    "run_online_shard",
]

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class OnlineSetting:
    """One environment with one policy class, and the horizons ``T`` (increasing) to run it
    for; ``last_decade_checkpoints`` extra checkpoints of each regret curve in its last
    decade (0: none)."""

    name: str
    horizons: tuple[int, ...]
    parameters: EnvironmentParameters
    last_decade_checkpoints: int = 0

    @property
    def environment(self) -> str:
        """One of :data:`~.settings.ENVIRONMENTS`."""
        return self.parameters.environment


def online_settings(sections: EnvironmentSections) -> tuple[OnlineSetting, ...]:
    """The settings the environment sections make, in the order of the module docstring."""
    synthetic, long_run = sections.synthetic, sections.long_horizon
    population = synthetic.model_dump(exclude={"n_actions", "n_policies", "horizons"})

    def instance(prefix: str, k: int, n: int, horizons: tuple[int, ...]) -> OnlineSetting:
        parameters = SyntheticParameters(n_actions=k, n_policies=n, **population)
        last_decade = long_run.last_decade_checkpoints if prefix == "long" else 0
        return OnlineSetting(f"{prefix}_K{k}_N{n}", horizons, parameters, last_decade)

    settings = [
        instance("synthetic", k, n, synthetic.horizons)
        for k in synthetic.n_actions
        for n in synthetic.n_policies
    ]
    if long_run.horizons:
        settings.append(
            instance("long", long_run.n_actions, long_run.n_policies, long_run.horizons)
        )
    supervised, adversarial, mslr = sections.supervised, sections.adversarial, sections.mslr
    if supervised.dataset is not None:
        parameters = SupervisedParameters(**supervised.model_dump(exclude={"horizons"}))
        name = f"supervised_{supervised.dataset}"
        settings.append(OnlineSetting(name, supervised.horizons, parameters))
    if adversarial.horizons:
        name = f"adversarial_K{adversarial.n_actions}_N{adversarial.n_policies}"
        parameters = AdversarialParameters(**adversarial.model_dump(exclude={"horizons"}))
        settings.append(OnlineSetting(name, adversarial.horizons, parameters))
    if mslr.matrices is not None:
        parameters = MslrParameters(**mslr.model_dump(exclude={"horizons"}))
        settings.append(OnlineSetting("mslr", mslr.horizons, parameters))
    return tuple(settings)


#: The columns of a shard's ``runs`` table, and the ones that identify a row.
RUN_COLUMNS = (
    "setting", "environment", "n_actions", "n_policies", "n_contexts", "algorithm", "seed",
    "horizon", "regret", "regret_ceiling", "epsilon",
)  # fmt: skip
RUN_KEYS = ("setting", "algorithm", "seed", "horizon")

#: The columns of a shard's ``curves`` table, and the ones that identify a row.
CURVE_COLUMNS = ("setting", "algorithm", "seed", "horizon", "rounds", "regret")
CURVE_KEYS = ("setting", "algorithm", "seed", "horizon", "rounds")

#: The class size assumed when sharding a setting whose class is known only once fitted
#: (decision stumps).
_UNKNOWN_CLASS_SIZE = 10_000


@dataclass(frozen=True)
class OnlineInstance:
    """A setting made concrete: environment, policy class and its oracle on the contexts.

    Attributes
    ----------
    setting : OnlineSetting
    environment : DuelingEnvironment
    policy_class : PolicyClass
    table : ActionTable
        The class on the environment's contexts.
    oracle : ClassificationOracle
        The exact oracle on the same contexts.
    population : ContextPopulation or None
        The finite population, for stochastic environments.
    """

    setting: OnlineSetting
    environment: DuelingEnvironment
    policy_class: PolicyClass
    table: ActionTable
    oracle: ClassificationOracle
    population: ContextPopulation | None


def build_instance(setting: OnlineSetting, seed: int) -> OnlineInstance:
    """Build the environment and policy class of ``setting`` from the master ``seed``.

    * synthetic: :func:`synthetic_intransitive_population` with ``n_policies``
      :class:`RandomLinearPolicies`;
    * supervised: :func:`supervised_population` with :class:`DecisionStumps`;
    * adversarial: :class:`CounterPlayAdversary` over ``n_contexts`` Gaussian contexts with
      ``n_policies`` random linear policies;
    * mslr: :func:`load_mslr_population` with decision stumps.

    Policy classes are fitted on the environment's contexts. A synthetic population depends
    only on its parameters and ``K``, and a random linear class only on ``K`` and ``N``, so
    settings that share them (``synthetic_*`` and ``long_*``) share the instance.
    """
    parameters = setting.parameters
    population: ContextPopulation | None = None
    if isinstance(parameters, SyntheticParameters):
        k, n = parameters.n_actions, parameters.n_policies
        population = synthetic_intransitive_population(
            k,
            parameters.n_features,
            parameters.n_contexts,
            parameters.intransitivity,
            named_generator(seed, "online", "synthetic population", k),
        )
        policy_class: PolicyClass = RandomLinearPolicies(
            k, n, random_state=named_generator(seed, "online", "linear policies", k, n)
        )
    elif isinstance(parameters, SupervisedParameters):
        population = supervised_population(parameters.dataset, parameters.margin)
        policy_class = DecisionStumps(population.n_actions, parameters.n_bins)
    elif isinstance(parameters, MslrParameters):
        population = load_mslr_population(parameters.matrices)
        policy_class = DecisionStumps(population.n_actions, parameters.n_bins)
    elif isinstance(parameters, AdversarialParameters):
        rng = named_generator(seed, "online", setting.name)
        contexts = rng.standard_normal((parameters.n_contexts, parameters.n_features))
        environment: DuelingEnvironment = CounterPlayAdversary(
            contexts, parameters.n_actions, parameters.margin
        )
        policy_class = RandomLinearPolicies(
            environment.n_actions, parameters.n_policies, random_state=rng
        )
    else:
        raise TypeError(f"{setting.name}: unknown environment parameters {parameters!r}")
    if population is not None:
        environment = StochasticEnvironment(population)
    policy_class.fit(environment.contexts)
    table = policy_class.action_table(environment.contexts)
    return OnlineInstance(
        setting=setting,
        environment=environment,
        policy_class=policy_class,
        table=table,
        oracle=policy_class.oracle(environment.contexts),
        population=population,
    )


def _algorithm(
    name: str, instance: OnlineInstance, delta: float, uniform_expert: bool
) -> DuelingAlgorithm:
    if name == "sparring_exp4p":
        return SparringExp4P(instance.table, delta=delta, uniform_expert=uniform_expert)
    if name == "sparring_exp3":
        return SparringExp3()
    if name == "uniform":
        return UniformDuels()
    raise ValueError(f"unknown algorithm {name!r}; expected one of {ALGORITHMS}")


def _checkpoints(horizon: int, count: int, last_decade: int = 0) -> NDArray[np.int64]:
    """About ``count`` log-spaced round counts from 10 (or 1) to ``horizon``, ending at it,
    and ``last_decade`` more log-spaced from ``horizon / 10`` (or 1) to ``horizon``."""
    start = min(10, horizon)
    points = np.unique(np.round(np.geomspace(start, horizon, count)).astype(np.int64))
    if last_decade:
        decade = np.geomspace(max(1.0, horizon / 10), horizon, last_decade)
        points = np.union1d(points, np.round(decade).astype(np.int64))
    return np.union1d(points, [horizon])


def episode_ceiling(instance: OnlineInstance, context_ids: NDArray[np.int64]) -> float:
    """The largest regret (rd1) of any learner on an episode's contexts (module docstring)."""
    if instance.population is not None:
        return regret_ceiling(instance.population, instance.oracle, context_ids)
    if isinstance(instance.environment, CounterPlayAdversary):
        return counter_play_regret_ceiling(instance.environment, instance.oracle, context_ids)
    raise TypeError(f"{instance.setting.name}: no regret ceiling for {instance.environment!r}")


def _run_episodes(
    instance: OnlineInstance, seed_index: int, seed: int, sweep: OnlineSweep
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """All horizons and algorithms of one (setting, seed index): run rows and curve rows."""
    setting = instance.setting
    description = {
        "setting": setting.name,
        "environment": setting.environment,
        "n_actions": instance.table.n_actions,
        "n_policies": instance.table.n_policies,
        "n_contexts": instance.table.n_contexts,
    }
    runs, curves = [], []
    for horizon in setting.horizons:
        checkpoints = _checkpoints(horizon, sweep.checkpoints, setting.last_decade_checkpoints)
        for name in sweep.algorithms:
            algorithm = _algorithm(name, instance, sweep.delta, sweep.uniform_expert)
            rng = named_generator(seed, "online", setting.name, seed_index, horizon)
            log = algorithm.run(instance.environment, horizon, rng)
            regrets = regret_curve(log, instance.oracle, checkpoints)
            epsilon = math.nan
            if isinstance(algorithm, SparringExp4P) and instance.population is not None:
                weights, uniform = algorithm.mean_policy_distribution()
                distributions = mixture_action_distributions(
                    instance.table.actions, weights, instance.table.n_actions, uniform
                )
                epsilon = -contextual_exploitability(
                    instance.population, instance.oracle, distributions
                )
            runs.append(
                description
                | {
                    "algorithm": name,
                    "seed": seed_index,
                    "horizon": horizon,
                    "regret": float(regrets[-1]),
                    "regret_ceiling": episode_ceiling(instance, log.context_ids),
                    "epsilon": epsilon,
                }
            )
            curves.extend(
                {
                    "setting": setting.name,
                    "algorithm": name,
                    "seed": seed_index,
                    "horizon": horizon,
                    "rounds": int(t),
                    "regret": float(r),
                }
                for t, r in zip(checkpoints, regrets, strict=True)
            )
    return runs, curves


def _unit_cost(setting: OnlineSetting) -> float:
    """Rough relative cost of one seed of a setting (rounds times per-round work)."""
    policies = getattr(setting.parameters, "n_policies", _UNKNOWN_CLASS_SIZE)
    per_round = 1.0 + policies / 300.0 + (30.0 if setting.environment == "adversarial" else 0.0)
    return sum(setting.horizons) * per_round


def run_online_shard(
    sweep: OnlineSweep, seed: int, shard: int
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Run shard ``shard`` of the ``sweep.shards`` shards of the sweep.

    The (setting, seed index) units are sorted by decreasing estimated cost and dealt
    round-robin, so shards get similar amounts of work.

    Parameters
    ----------
    sweep : OnlineSweep
    seed : int
        Master seed.
    shard : int
        In ``0..sweep.shards - 1``.

    Returns
    -------
    runs : pandas.DataFrame
        One row per episode (columns :data:`RUN_COLUMNS`): setting, environment, n_actions,
        n_policies, n_contexts, algorithm, seed, horizon, regret (at ``T``), regret_ceiling
        (the largest regret any learner can have on the episode's contexts), epsilon
        (``Wbar``'s exploitability for SparringEXP4.P on a finite population, NaN otherwise).
    curves : pandas.DataFrame
        One row per checkpoint of each episode (columns :data:`CURVE_COLUMNS`).
    """
    if not 0 <= shard < sweep.shards:
        raise ValueError(f"shard {shard} does not exist among {sweep.shards} shards")
    units = [(setting, s) for setting in online_settings(sweep) for s in range(sweep.seeds)]
    units.sort(key=lambda unit: -_unit_cost(unit[0]))
    instances: dict[str, OnlineInstance] = {}
    runs: list[dict[str, Any]] = []
    curves: list[dict[str, Any]] = []
    for setting, seed_index in units[shard :: sweep.shards]:
        if setting.name not in instances:
            instance = instances[setting.name] = build_instance(setting, seed)
            logger.info(
                "%s: %d policies on %d contexts",
                setting.name,
                instance.table.n_policies,
                instance.table.n_contexts,
            )
        unit_runs, unit_curves = _run_episodes(instances[setting.name], seed_index, seed, sweep)
        runs.extend(unit_runs)
        curves.extend(unit_curves)
        logger.info("%s seed %d done", setting.name, seed_index)
    return (
        pd.DataFrame(runs, columns=list(RUN_COLUMNS)),
        pd.DataFrame(curves, columns=list(CURVE_COLUMNS)),
    )
