"""The online sweeps of Section 5: regret against ``T``, bound coverage, online-to-batch ``eps``.

A *setting* is an environment with a policy class (:class:`OnlineSetting`, expanded from the
workflow's ``online`` config by :func:`online_settings`). For every setting, seed index and
horizon ``T``, every algorithm of :data:`ALGORITHMS` plays one episode of ``T`` rounds; all
algorithms of a (setting, seed, ``T``) share one generator, so they meet the same contexts
and duel uniforms (common random numbers). Recorded per episode (:func:`run_online_shard`):

* the exact regret (rd1) at log-spaced checkpoints up to ``T`` (one batched oracle call);
* for SparringEXP4.P on a finite population, the exploitability of the online-to-batch
  average ``Wbar`` of its row player, ``eps = -min_rho Wbar^T M rho``, with ``m = T``.

Randomness: everything is drawn from ``SeedSequence(seed, spawn_key=key)`` with a named key
(``id`` a stable hash): a synthetic population from ``(id("online"),
id("synthetic population"), K)``, a random linear class from ``(id("online"),
id("linear policies"), K, N)``, the contexts of the adversary from ``(id("online"),
id(setting))``, and the episode of seed index ``s`` and horizon ``T`` from ``(id("online"),
id(setting), s, T)``. Results do not depend on how the work is sharded.

:func:`summarize_online` turns the episodes into the tables (mean regret with 95% confidence
intervals and log-log slopes against ``T`` with bootstrap intervals; the coverage of the
bound of :mod:`cdbandits.contextual.bounds`; ``eps`` against ``m``), and the ``plot_*``
functions draw the figures.
"""

from __future__ import annotations

import logging
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from ..randomness import named_generator
from ..stats import Z95, bootstrap_slope_over_seeds, log_log_slope, mean_with_interval
from .baselines import SparringExp3, UniformDuels
from .bounds import sparring_exp4p_regret_bound
from .duels import DuelingAlgorithm
from .environments import (
    ContextPopulation,
    CounterPlayAdversary,
    DuelingEnvironment,
    StochasticEnvironment,
    condorcet_fraction,
    load_mslr_population,
    supervised_population,
    synthetic_intransitive_population,
)
from .exp4p import SparringExp4P
from .oracle import ActionTable, ClassificationOracle
from .policies import DecisionStumps, PolicyClass, RandomLinearPolicies
from .regret import (
    contextual_exploitability,
    contextual_von_neumann_winner,
    mixture_action_distributions,
    regret_curve,
)

__all__ = [
    "ALGORITHMS",
    "ENVIRONMENTS",
    "FIGURE_NAMES",
    "ONLINE_TABLES",
    "OnlineInstance",
    "OnlineSetting",
    "build_instance",
    "combine_shards",
    "coverage_markdown",
    "exact_winners_table",
    "online_figures",
    "online_settings",
    "online_summary",
    "plot_online_to_batch",
    "plot_regret_curves",
    "plot_regret_vs_horizon",
    "run_online_shard",
    "summarize_online",
]

logger = logging.getLogger(__name__)

#: The algorithms compared, by the names used in the tables.
ALGORITHMS = ("sparring_exp4p", "sparring_exp3", "uniform")

#: The environments a setting can use.
ENVIRONMENTS = ("synthetic", "supervised", "adversarial", "mslr")

#: The tables of the sweep (``runs`` and ``curves`` combined from the shards, the others
#: from :func:`summarize_online`).
ONLINE_TABLES = ("runs", "curves", "regret", "slopes", "coverage", "online_to_batch")

#: The figures of :func:`online_figures`.
FIGURE_NAMES = ("regret_vs_horizon", "regret_curves", "online_to_batch")

#: Bootstrap resamples of the seeds for the confidence interval of a slope.
_BOOTSTRAP = 1000


@dataclass(frozen=True)
class OnlineSetting:
    """One environment with one policy class, and the horizons to run it for.

    Attributes
    ----------
    name : str
        Identifier used in tables, seeds and file names.
    environment : str
        One of :data:`ENVIRONMENTS`.
    horizons : tuple of int
        Horizons ``T``, increasing.
    parameters : tuple of (str, Any)
        Environment and policy-class parameters (see :func:`build_instance`).
    """

    name: str
    environment: str
    horizons: tuple[int, ...]
    parameters: tuple[tuple[str, Any], ...]

    def parameter(self, key: str) -> Any:
        """The value of parameter ``key``."""
        return dict(self.parameters)[key]


def online_settings(online: Mapping[str, Any]) -> list[OnlineSetting]:
    """Expand the workflow's ``online`` config section into settings.

    ``synthetic`` gives one setting per ``(n_actions, n_policies)`` pair, named
    ``synthetic_K{K}_N{N}``; ``long_horizon`` (when its horizons are not empty) gives
    ``long_K{K}_N{N}``, the same instance as ``synthetic_K{K}_N{N}`` run for longer;
    ``supervised`` (when its ``dataset`` is not null) gives ``supervised_{dataset}``;
    ``adversarial`` (when its horizons are not empty) gives ``adversarial_K{K}_N{N}``;
    ``mslr`` gives ``mslr`` when its ``matrices`` path is set.
    """
    synthetic = online["synthetic"]

    def synthetic_setting(prefix: str, k: int, n: int, horizons: Sequence[int]) -> OnlineSetting:
        return OnlineSetting(
            name=f"{prefix}_K{k}_N{n}",
            environment="synthetic",
            horizons=tuple(int(t) for t in horizons),
            parameters=(
                ("n_actions", int(k)),
                ("n_policies", int(n)),
                ("n_features", int(synthetic["n_features"])),
                ("n_contexts", int(synthetic["n_contexts"])),
                ("intransitivity", float(synthetic["intransitivity"])),
            ),
        )

    settings = [
        synthetic_setting("synthetic", k, n, synthetic["horizons"])
        for k in synthetic["n_actions"]
        for n in synthetic["n_policies"]
    ]
    long_horizon = online["long_horizon"]
    if long_horizon["horizons"]:
        settings.append(
            synthetic_setting(
                "long",
                long_horizon["n_actions"],
                long_horizon["n_policies"],
                long_horizon["horizons"],
            )
        )
    supervised = online["supervised"]
    if supervised["dataset"] is not None:
        settings.append(
            OnlineSetting(
                name=f"supervised_{supervised['dataset']}",
                environment="supervised",
                horizons=tuple(supervised["horizons"]),
                parameters=(
                    ("dataset", str(supervised["dataset"])),
                    ("margin", float(supervised["margin"])),
                    ("n_bins", int(supervised["n_bins"])),
                ),
            )
        )
    adversarial = online["adversarial"]
    if adversarial["horizons"]:
        k, n = int(adversarial["n_actions"]), int(adversarial["n_policies"])
        settings.append(
            OnlineSetting(
                name=f"adversarial_K{k}_N{n}",
                environment="adversarial",
                horizons=tuple(adversarial["horizons"]),
                parameters=(
                    ("n_actions", k),
                    ("n_policies", n),
                    ("n_features", int(adversarial["n_features"])),
                    ("n_contexts", int(adversarial["n_contexts"])),
                    ("margin", float(adversarial["margin"])),
                ),
            )
        )
    mslr = online["mslr"]
    if mslr["matrices"] is not None:
        settings.append(
            OnlineSetting(
                name="mslr",
                environment="mslr",
                horizons=tuple(mslr["horizons"]),
                parameters=(("n_bins", int(mslr["n_bins"])),),
            )
        )
    for setting in settings:
        horizons = list(setting.horizons)
        if not horizons or horizons != sorted(set(horizons)):
            raise ValueError(f"{setting.name}: horizons must be increasing; got {horizons}")
    return settings


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


def build_instance(
    setting: OnlineSetting, seed: int, mslr_matrices: str | os.PathLike[str] | None = None
) -> OnlineInstance:
    """Build the environment and policy class of ``setting`` from the master ``seed``.

    * ``synthetic``: :func:`synthetic_intransitive_population` (its ``n_actions``,
      ``n_features``, ``n_contexts``, ``intransitivity``) with ``n_policies``
      :class:`RandomLinearPolicies`;
    * ``supervised``: :func:`supervised_population` (``dataset``, ``margin``) with
      :class:`DecisionStumps` (``n_bins``);
    * ``adversarial``: :class:`CounterPlayAdversary` (``margin``) over ``n_contexts``
      Gaussian contexts with ``n_policies`` random linear policies;
    * ``mslr``: :func:`load_mslr_population` of ``mslr_matrices`` with decision stumps.

    Policy classes are fitted on the environment's contexts. A synthetic population depends
    only on its parameters and ``K``, and a random linear class only on ``K`` and ``N``, so
    settings that share them (``synthetic_*`` and ``long_*``) share the instance.
    """
    rng = named_generator(seed, "online", setting.name)
    kind = setting.environment
    population: ContextPopulation | None = None
    if kind == "synthetic":
        k, n = setting.parameter("n_actions"), setting.parameter("n_policies")
        population = synthetic_intransitive_population(
            k,
            setting.parameter("n_features"),
            setting.parameter("n_contexts"),
            setting.parameter("intransitivity"),
            named_generator(seed, "online", "synthetic population", k),
        )
        policy_class: PolicyClass = RandomLinearPolicies(
            k, n, random_state=named_generator(seed, "online", "linear policies", k, n)
        )
    elif kind == "supervised":
        population = supervised_population(
            setting.parameter("dataset"), setting.parameter("margin")
        )
        policy_class = DecisionStumps(population.n_actions, setting.parameter("n_bins"))
    elif kind == "mslr":
        if mslr_matrices is None:
            raise ValueError("the mslr setting needs the path of the per-query matrices")
        population = load_mslr_population(mslr_matrices)
        policy_class = DecisionStumps(population.n_actions, setting.parameter("n_bins"))
    elif kind == "adversarial":
        contexts = rng.standard_normal(
            (setting.parameter("n_contexts"), setting.parameter("n_features"))
        )
        environment: DuelingEnvironment = CounterPlayAdversary(
            contexts, setting.parameter("n_actions"), setting.parameter("margin")
        )
        policy_class = RandomLinearPolicies(
            environment.n_actions, setting.parameter("n_policies"), random_state=rng
        )
    else:
        raise ValueError(f"unknown environment {kind!r}; expected one of {ENVIRONMENTS}")
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


def _checkpoints(horizon: int, count: int) -> NDArray[np.int64]:
    """About ``count`` log-spaced round counts from 10 (or 1) to ``horizon``, ending at it."""
    start = min(10, horizon)
    points = np.unique(np.round(np.geomspace(start, horizon, count)).astype(np.int64))
    return np.union1d(points, [horizon])


def _run_episodes(
    instance: OnlineInstance,
    seed_index: int,
    seed: int,
    online: Mapping[str, Any],
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
        checkpoints = _checkpoints(horizon, int(online["checkpoints"]))
        for name in online["algorithms"]:
            algorithm = _algorithm(name, instance, online["delta"], online["uniform_expert"])
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
    policies = dict(setting.parameters).get("n_policies", 10_000)
    per_round = 1.0 + policies / 300.0 + (30.0 if setting.environment == "adversarial" else 0.0)
    return sum(setting.horizons) * per_round


def run_online_shard(
    online: Mapping[str, Any],
    seed: int,
    shard: int,
    n_shards: int,
    mslr_matrices: str | os.PathLike[str] | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Run shard ``shard`` of ``n_shards`` of the sweep.

    The (setting, seed index) units are sorted by decreasing estimated cost and dealt
    round-robin, so shards get similar amounts of work.

    Parameters
    ----------
    online : mapping
        The ``online`` config section (see the workflow's config schema).
    seed : int
        Master seed.
    shard, n_shards : int
    mslr_matrices : path-like, optional
        The per-query MSLR matrices (needed when the config has the ``mslr`` setting).

    Returns
    -------
    runs : pandas.DataFrame
        One row per episode: setting, environment, n_actions, n_policies, n_contexts,
        algorithm, seed, horizon, regret (at ``T``), epsilon (``Wbar``'s exploitability for
        SparringEXP4.P on a finite population, NaN otherwise).
    curves : pandas.DataFrame
        One row per checkpoint of each episode: setting, algorithm, seed, horizon, rounds,
        regret.
    """
    if not 0 <= shard < n_shards:
        raise ValueError(f"shard {shard} does not exist among {n_shards} shards")
    settings = online_settings(online)
    units = [(setting, s) for setting in settings for s in range(int(online["seeds"]))]
    units.sort(key=lambda unit: -_unit_cost(unit[0]))
    mine = units[shard::n_shards]
    instances: dict[str, OnlineInstance] = {}
    runs: list[dict[str, Any]] = []
    curves: list[dict[str, Any]] = []
    for setting, seed_index in mine:
        if setting.name not in instances:
            instances[setting.name] = build_instance(setting, seed, mslr_matrices)
            logger.info(
                "%s: %d policies on %d contexts",
                setting.name,
                instances[setting.name].table.n_policies,
                instances[setting.name].table.n_contexts,
            )
        unit_runs, unit_curves = _run_episodes(instances[setting.name], seed_index, seed, online)
        runs.extend(unit_runs)
        curves.extend(unit_curves)
        logger.info("%s seed %d done", setting.name, seed_index)
    run_columns = [
        "setting", "environment", "n_actions", "n_policies", "n_contexts", "algorithm", "seed",
        "horizon", "regret", "epsilon",
    ]  # fmt: skip
    curve_columns = ["setting", "algorithm", "seed", "horizon", "rounds", "regret"]
    return pd.DataFrame(runs, columns=run_columns), pd.DataFrame(curves, columns=curve_columns)


def combine_shards(
    run_tables: Sequence[pd.DataFrame], curve_tables: Sequence[pd.DataFrame]
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Concatenate the shards' tables in a canonical order (independent of the sharding)."""
    runs = pd.concat(run_tables, ignore_index=True)
    curves = pd.concat(curve_tables, ignore_index=True)
    runs = runs.sort_values(["setting", "algorithm", "seed", "horizon"], kind="stable")
    curves = curves.sort_values(
        ["setting", "algorithm", "seed", "horizon", "rounds"], kind="stable"
    )
    return runs.reset_index(drop=True), curves.reset_index(drop=True)


def _slope_with_interval(
    table: pd.DataFrame, x_column: str, y_column: str, rng: np.random.Generator
) -> dict[str, float]:
    """Slope of the seed-mean of ``y`` against ``x``, with a bootstrap 95% interval over seeds,
    and the slope between the two largest ``x`` alone (``final_slope``)."""
    wide = table.pivot(index="seed", columns=x_column, values=y_column).sort_index(axis=1)
    xs = wide.columns.to_numpy(dtype=float)
    values = wide.to_numpy()
    means = values.mean(axis=0)
    final_slope = log_log_slope(xs[-2:], means[-2:])
    slope, low, high = bootstrap_slope_over_seeds(xs, values, rng, _BOOTSTRAP)
    return {
        "slope": slope,
        "slope_ci_low": low,
        "slope_ci_high": high,
        "final_slope": final_slope,
    }


def summarize_online(
    runs: pd.DataFrame, delta: float, uniform_expert: bool, seed: int
) -> dict[str, pd.DataFrame]:
    """Tables of the sweep.

    Parameters
    ----------
    runs : pandas.DataFrame
        The concatenated ``runs`` of every shard.
    delta : float
        Confidence of the bound.
    uniform_expert : bool
        Whether SparringEXP4.P ran with the uniform expert (the bound's ``N``).
    seed : int
        Master seed (for the bootstrap).

    Returns
    -------
    dict of pandas.DataFrame
        ``"regret"``: per setting, algorithm and horizon, the mean regret over seeds with a
        95% normal confidence interval; ``"slopes"``: per setting and algorithm, the log-log
        slope of the mean regret against ``T`` over all horizons, with a bootstrap interval,
        and between the two largest horizons (theory for SparringEXP4.P: at most 1/2
        asymptotically); ``"coverage"``: per setting and horizon, the bound of
        Theorem sparring-exp4, the fraction of seeds with SparringEXP4.P's regret at most the
        bound and whether it reaches ``1 - delta``; ``"online_to_batch"``: per setting and
        ``m``, the mean ``eps`` of ``Wbar`` with its interval and the slope against ``m``
        (theory: -1/2).
    """
    rng = named_generator(seed, "online", "bootstrap")
    keys = ["setting", "environment", "n_actions", "n_policies", "n_contexts"]
    regret_rows, slope_rows, coverage_rows, batch_rows = [], [], [], []
    for group_keys, group in runs.groupby([*keys, "algorithm"]):
        base = dict(zip([*keys, "algorithm"], group_keys, strict=True))
        algorithm = base["algorithm"]
        for horizon, by_horizon in group.groupby("horizon"):
            regret_rows.append(
                base | {"horizon": horizon} | mean_with_interval(by_horizon["regret"])
            )
        slope = _slope_with_interval(group, "horizon", "regret", rng)
        slope_rows.append(base | slope | {"n_horizons": group["horizon"].nunique()})
        if algorithm != "sparring_exp4p":
            continue
        for horizon, by_horizon in group.groupby("horizon"):
            bound = sparring_exp4p_regret_bound(
                int(horizon), int(base["n_actions"]), int(base["n_policies"]), delta,
                uniform_expert,
            )  # fmt: skip
            covered = float((by_horizon["regret"] <= bound.total).mean())
            coverage_rows.append(
                base
                | {
                    "horizon": horizon,
                    "delta": delta,
                    "bound": bound.total,
                    "exp4p_term": bound.exp4p_term,
                    "azuma_term": bound.azuma_term,
                    "bound_conditions_hold": bound.conditions_hold,
                    "mean_regret": float(by_horizon["regret"].mean()),
                    "max_regret": float(by_horizon["regret"].max()),
                    "max_regret_over_bound": float(by_horizon["regret"].max() / bound.total),
                    "coverage": covered,
                    "required_coverage": 1.0 - delta,
                    "meets_guarantee": covered >= 1.0 - delta,
                    "empirical_slope": slope["slope"],
                    "final_slope": slope["final_slope"],
                    "theory_slope": 0.5,
                    "n_seeds": int(by_horizon["regret"].size),
                }
            )
        with_epsilon = group.dropna(subset=["epsilon"])
        if with_epsilon.empty:
            continue
        epsilon_slope = _slope_with_interval(with_epsilon, "horizon", "epsilon", rng)
        for horizon, by_horizon in with_epsilon.groupby("horizon"):
            batch_rows.append(
                base
                | {"m": horizon}
                | mean_with_interval(by_horizon["epsilon"])
                | {
                    "slope": epsilon_slope["slope"],
                    "slope_ci_low": epsilon_slope["slope_ci_low"],
                    "slope_ci_high": epsilon_slope["slope_ci_high"],
                    "final_slope": epsilon_slope["final_slope"],
                    "theory_slope": -0.5,
                }
            )
    return {
        "regret": pd.DataFrame(regret_rows),
        "slopes": pd.DataFrame(slope_rows),
        "coverage": pd.DataFrame(coverage_rows),
        "online_to_batch": pd.DataFrame(batch_rows),
    }


def _number(value: Any) -> float | None:
    """A float for JSON: NaN (an undefined slope) becomes None."""
    value = float(value)
    return None if math.isnan(value) else value


def online_summary(tables: Mapping[str, pd.DataFrame], delta: float) -> dict[str, Any]:
    """The headline numbers: per setting, the regret slopes, the coverage and the ``eps`` trend.

    Returns
    -------
    dict
        ``"all_bounds_hold"`` (every (setting, T) reaches coverage ``1 - delta``),
        ``"worst_coverage"``, ``"largest_regret_over_bound"``, and per setting the regret
        slopes of every algorithm (over all horizons and between the two largest; None when
        undefined) and the slopes of ``eps`` against ``m``.
    """
    coverage, slopes, batch = tables["coverage"], tables["slopes"], tables["online_to_batch"]
    settings: dict[str, Any] = {}
    for row in slopes.itertuples(index=False):
        entry = settings.setdefault(row.setting, {"regret_slope": {}, "final_regret_slope": {}})
        entry["regret_slope"][row.algorithm] = _number(row.slope)
        entry["final_regret_slope"][row.algorithm] = _number(row.final_slope)
    for name, rows in batch.groupby("setting"):
        settings[name]["epsilon_slope"] = _number(rows["slope"].iloc[0])
        settings[name]["final_epsilon_slope"] = _number(rows["final_slope"].iloc[0])
    for name, rows in coverage.groupby("setting"):
        settings[name]["coverage"] = {
            str(horizon): float(value)
            for horizon, value in zip(rows["horizon"], rows["coverage"], strict=True)
        }
    has_coverage = len(coverage) > 0
    return {
        "delta": delta,
        "all_bounds_hold": bool(coverage["meets_guarantee"].all()) if has_coverage else None,
        "worst_coverage": float(coverage["coverage"].min()) if has_coverage else None,
        "largest_regret_over_bound": (
            float(coverage["max_regret_over_bound"].max()) if has_coverage else None
        ),
        "settings": settings,
    }


def coverage_markdown(coverage: pd.DataFrame) -> str:
    """The bound-coverage table as Markdown (for the README)."""
    columns = {
        "setting": "setting",
        "n_actions": "K",
        "n_policies": "|Pi|",
        "horizon": "T",
        "mean_regret": "mean regret",
        "max_regret": "max regret",
        "bound": "bound",
        "coverage": "coverage",
        "required_coverage": "required",
        "empirical_slope": "slope",
        "final_slope": "final slope",
    }
    table = coverage[list(columns)].rename(columns=columns)
    return table.to_markdown(index=False, floatfmt=".3g") + "\n"


def exact_winners_table(
    online: Mapping[str, Any],
    seed: int,
    mslr_matrices: str | os.PathLike[str] | None = None,
) -> pd.DataFrame:
    """The exact contextual vNW of every setting with a finite population and a small class.

    For each such setting whose class has at most ``online["lp_max_policies"]`` distinct
    policies on the contexts, solves the LP on ``M`` (:func:`contextual_von_neumann_winner`)
    with ``online["lp_solver"]``. Columns: setting, n_policies, distinct_policies,
    support_size (1 means ``M`` has a Condorcet-winner policy), value (the vNW's certificate
    ``min_rho W^T M rho``, 0 up to rounding), condorcet_context_fraction (contexts whose
    ``P_x`` has a Condorcet winner).
    """
    rows = []
    for setting in online_settings(online):
        if setting.environment == "adversarial":
            continue
        instance = build_instance(setting, seed, mslr_matrices)
        if instance.population is None:
            raise ValueError(f"{setting.name} has no finite population")
        distinct = np.unique(instance.table.actions.T, axis=0).shape[0]
        row: dict[str, Any] = {
            "setting": setting.name,
            "n_policies": instance.table.n_policies,
            "distinct_policies": distinct,
            "condorcet_context_fraction": condorcet_fraction(instance.population),
        }
        if distinct <= int(online["lp_max_policies"]):
            winner = contextual_von_neumann_winner(
                instance.population, instance.table.actions, solver=online["lp_solver"]
            )
            row |= {
                "support_size": int(winner.support.size),
                "value": winner.winner.exploitability,
            }
        else:
            row |= {"support_size": math.nan, "value": math.nan}
        rows.append(row)
        logger.info("%s: %s", setting.name, row)
    return pd.DataFrame(rows)


_COLORS = {"sparring_exp4p": "C0", "sparring_exp3": "C1", "uniform": "C2"}
_LABELS = {
    "sparring_exp4p": "SparringEXP4.P",
    "sparring_exp3": "sparring EXP3 (no context)",
    "uniform": "uniform duels",
}


def _setting_order(names: pd.Series) -> list[str]:
    """Settings in reading order: synthetic, long, supervised, adversarial, mslr; then K, N."""
    ranks = {"synthetic": 0, "long": 1, "supervised": 2, "adversarial": 3, "mslr": 4}

    def key(name: str) -> tuple[int, int, int, str]:
        parts = name.split("_")
        numbers = [int(part[1:]) for part in parts[1:] if part[:1] in "KN" and part[1:].isdigit()]
        k, n = (numbers + [0, 0])[:2]
        return ranks.get(parts[0], len(ranks)), k, n, name

    return sorted(set(names), key=key)


def _by_algorithm(table: pd.DataFrame) -> list[tuple[str, pd.DataFrame]]:
    """``table`` split by algorithm, in the order of :data:`ALGORITHMS`."""
    return [
        (algorithm, table[table["algorithm"] == algorithm])
        for algorithm in ALGORITHMS
        if (table["algorithm"] == algorithm).any()
    ]


def _panels(names: Sequence[str], width: float = 4.0, height: float = 3.2):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    columns = min(3, len(names))
    rows = math.ceil(len(names) / columns)
    figure, axes = plt.subplots(
        rows, columns, figsize=(width * columns, height * rows), squeeze=False
    )
    for axis in axes.flat[len(names) :]:
        axis.set_visible(False)
    return figure, dict(zip(names, axes.flat, strict=False))


def online_figures(tables: Mapping[str, pd.DataFrame]) -> dict[str, Any]:
    """Every figure of :data:`FIGURE_NAMES` from the tables of :func:`summarize_online`."""
    return {
        "regret_vs_horizon": plot_regret_vs_horizon(
            tables["regret"], tables["coverage"], tables["slopes"]
        ),
        "regret_curves": plot_regret_curves(tables["curves"]),
        "online_to_batch": plot_online_to_batch(tables["online_to_batch"]),
    }


def plot_regret_vs_horizon(regret: pd.DataFrame, coverage: pd.DataFrame, slopes: pd.DataFrame):
    """Final regret against ``T`` (log-log), mean and 95% band per algorithm, with the bound.

    Returns
    -------
    matplotlib.figure.Figure
    """
    names = _setting_order(regret["setting"])
    figure, axes = _panels(names)
    for name, axis in axes.items():
        for algorithm, rows in _by_algorithm(regret[regret["setting"] == name]):
            slope = slopes[(slopes["setting"] == name) & (slopes["algorithm"] == algorithm)]
            label = f"{_LABELS[algorithm]} (slope {slope['slope'].iloc[0]:.2f})"
            axis.plot(rows["horizon"], rows["mean"], "o-", color=_COLORS[algorithm], label=label)
            axis.fill_between(
                rows["horizon"],
                rows["ci_low"].clip(lower=1e-3),
                rows["ci_high"],
                color=_COLORS[algorithm],
                alpha=0.2,
            )
        bound = coverage[coverage["setting"] == name]
        if not bound.empty:
            axis.plot(bound["horizon"], bound["bound"], "k--", label="bound (Thm sparring-exp4)")
        axis.set(xscale="log", yscale="log", title=name, xlabel="horizon T", ylabel="regret (rd1)")
        axis.legend(fontsize=7)
    figure.tight_layout()
    return figure


def plot_regret_curves(curves: pd.DataFrame):
    """Regret against rounds within the longest episodes, mean and 95% band per algorithm.

    Returns
    -------
    matplotlib.figure.Figure
    """
    names = _setting_order(curves["setting"])
    figure, axes = _panels(names)
    for name, axis in axes.items():
        rows = curves[curves["setting"] == name]
        longest = rows[rows["horizon"] == rows["horizon"].max()]
        for algorithm, by_algorithm in _by_algorithm(longest):
            stats = by_algorithm.groupby("rounds")["regret"].agg(["mean", "std", "count"])
            half = Z95 * stats["std"] / np.sqrt(stats["count"])
            axis.plot(
                stats.index, stats["mean"], color=_COLORS[algorithm], label=_LABELS[algorithm]
            )
            axis.fill_between(
                stats.index,
                stats["mean"] - half,
                stats["mean"] + half,
                color=_COLORS[algorithm],
                alpha=0.2,
            )
        axis.set(
            xscale="log",
            yscale="log",
            title=f"{name} (T = {int(longest['horizon'].max())})",
            xlabel="round t",
            ylabel="regret after t rounds",
        )
        axis.legend(fontsize=7)
    figure.tight_layout()
    return figure


def plot_online_to_batch(online_to_batch: pd.DataFrame):
    """``eps`` of the online-to-batch ``Wbar`` against ``m`` (log-log), mean and 95% band.

    Returns
    -------
    matplotlib.figure.Figure
    """
    names = _setting_order(online_to_batch["setting"])
    figure, axes = _panels(names)
    for name, axis in axes.items():
        rows = online_to_batch[online_to_batch["setting"] == name]
        axis.plot(
            rows["m"], rows["mean"], "o-", color="C0", label=f"slope {rows['slope'].iloc[0]:.2f}"
        )
        axis.fill_between(
            rows["m"], rows["ci_low"].clip(lower=1e-6), rows["ci_high"], color="C0", alpha=0.2
        )
        reference = rows["mean"].iloc[0] * np.sqrt(rows["m"].iloc[0] / rows["m"])
        axis.plot(rows["m"], reference, "k:", label="m^(-1/2)")
        axis.set(
            xscale="log",
            yscale="log",
            title=name,
            xlabel="exploration rounds m",
            ylabel="eps of Wbar (exploitability in M)",
        )
        axis.legend(fontsize=7)
    figure.tight_layout()
    return figure
