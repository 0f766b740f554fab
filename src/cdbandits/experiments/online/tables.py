"""What the online sweep summarises: combined shards, regret, slopes, coverage, ``eps``.

:func:`combine_online_shards` joins the shards' ``runs`` and ``curves``;
:func:`summarise_online` and :func:`last_decade_slopes` turn the episodes into the tables
of :data:`ONLINE_TABLES` (mean regret with 95% confidence intervals and log-log slopes
against ``T`` with bootstrap intervals, and within the last decade of each regret curve;
the coverage of the bound of :mod:`cdbandits.contextual.bounds`; ``eps`` against ``m``);
:func:`online_summary` gives the headline numbers, :func:`coverage_markdown` the coverage
table for RESULTS.md and :func:`last_decade_markdown` the long run's last-decade slopes.
:func:`exact_winners_table` solves the exact contextual von Neumann winners of the settings
with small classes.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ...contextual.bounds import sparring_exp4p_regret_bound
from ...contextual.environments import condorcet_fraction
from ...contextual.regret import contextual_von_neumann_winner
from ...plotting import algorithm_style
from ...randomness import named_generator
from ...stats import (
    bootstrap_slope_over_seeds,
    last_decade_slope_over_seeds,
    log_log_slope,
    mean_with_interval,
)
from ..oracle.statements import is_informative
from ..shards import combine_shards
from .experiments import CURVE_KEYS, RUN_KEYS, build_instance, online_settings
from .figures import is_long_run, setting_kind, setting_order
from .settings import ALGORITHMS, ExactWinnerSettings

__all__ = [
    "ONLINE_TABLES",
    "combine_online_shards",
    "coverage_markdown",
    "exact_winners_table",
    "last_decade_markdown",
    "last_decade_slopes",
    "online_summary",
    "overview_markdown",
    "summarise_online",
]

logger = logging.getLogger(__name__)

#: The tables of the sweep (``runs`` and ``curves`` combined from the shards, ``last_decade``
#: from :func:`last_decade_slopes`, the others from :func:`summarise_online`).
ONLINE_TABLES = (
    "runs", "curves", "regret", "slopes", "coverage", "online_to_batch", "last_decade",
)  # fmt: skip

#: Bootstrap resamples of the seeds for the confidence interval of a slope.
_BOOTSTRAP = 1000


def combine_online_shards(
    run_tables: Sequence[pd.DataFrame], curve_tables: Sequence[pd.DataFrame]
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The shards' ``runs`` and ``curves`` in a canonical order (independent of the sharding)."""
    return combine_shards(run_tables, RUN_KEYS), combine_shards(curve_tables, CURVE_KEYS)


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


def summarise_online(
    runs: pd.DataFrame, delta: float, uniform_expert: bool, seed: int
) -> dict[str, pd.DataFrame]:
    """Tables of the sweep.

    Parameters
    ----------
    runs : pandas.DataFrame
        The combined ``runs`` of every shard.
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
        Theorem sparring-exp4, the smallest of the episodes' regret ceilings, whether the
        bound is below it (*informative*), the fraction of seeds with SparringEXP4.P's regret
        at most the bound and whether it reaches ``1 - delta``; ``"online_to_batch"``: per
        setting and ``m``, the mean ``eps`` of ``Wbar`` with its interval and the slope
        against ``m`` (theory: -1/2).
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
                    # A bound at or above the largest regret any learner can have on an
                    # episode's contexts holds whatever happens there.
                    "min_ceiling": float(by_horizon["regret_ceiling"].min()),
                    "informative": bool(
                        is_informative(bound.total, by_horizon["regret_ceiling"].min())
                    ),
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


#: The rate of Theorem sparring-exp4 (regret O(sqrt(T))).
_THEORY_SLOPE = 0.5


def last_decade_slopes(runs: pd.DataFrame, curves: pd.DataFrame, seed: int) -> pd.DataFrame:
    """Per setting and algorithm, the slope of the mean regret curve over its last decade.

    At each setting's largest horizon ``T``, the log-log slope of the seeds' mean regret
    against the rounds, over the curve's checkpoints from ``T / 10`` to ``T``, with a 95%
    bootstrap interval over seeds (:func:`cdbandits.stats.last_decade_slope_over_seeds`).

    Parameters
    ----------
    runs : pandas.DataFrame
        The combined ``runs`` (for each setting's description).
    curves : pandas.DataFrame
        The combined ``curves``.
    seed : int
        Master seed (for the bootstrap).

    Returns
    -------
    pandas.DataFrame
        Columns: setting, environment, n_actions, n_policies, n_contexts, algorithm, horizon,
        window_start (``T / 10``), n_checkpoints (in the window), n_seeds, slope,
        slope_ci_low, slope_ci_high, theory_slope (1/2 for SparringEXP4.P, NaN for the
        baselines, which have no such rate) and theory_in_interval.
    """
    rng = named_generator(seed, "online", "last decade bootstrap")
    keys = ["setting", "environment", "n_actions", "n_policies", "n_contexts"]
    descriptions = runs[keys].drop_duplicates().set_index("setting")
    rows = []
    for (setting, algorithm), group in curves.groupby(["setting", "algorithm"]):
        horizon = int(group["horizon"].max())
        at_horizon = group[group["horizon"] == horizon]
        wide = at_horizon.pivot(index="seed", columns="rounds", values="regret").sort_index(axis=1)
        slope, low, high, points = last_decade_slope_over_seeds(
            wide.columns.to_numpy(dtype=float), wide.to_numpy(), rng, _BOOTSTRAP
        )
        theory = _THEORY_SLOPE if algorithm == "sparring_exp4p" else math.nan
        rows.append(
            {"setting": setting, **descriptions.loc[setting].to_dict()}
            | {
                "algorithm": algorithm,
                "horizon": horizon,
                "window_start": horizon / 10,
                "n_checkpoints": points,
                "n_seeds": int(wide.shape[0]),
                "slope": slope,
                "slope_ci_low": low,
                "slope_ci_high": high,
                "theory_slope": theory,
                "theory_in_interval": (
                    math.nan if math.isnan(theory + low + high) else bool(low <= theory <= high)
                ),
            }
        )
    return pd.DataFrame(rows)


def _slope(value: float) -> str:
    """A slope to two decimals (n/a when undefined)."""
    return "n/a" if math.isnan(value) else f"{value:.2f}"


def _interval(low: float, high: float) -> str:
    return f"[{_slope(low)}, {_slope(high)}]"


def _theory_verdict(row: Any) -> str:
    """Where the theory's slope lies relative to ``row``'s interval, in words."""
    if math.isnan(row["slope_ci_low"]):
        return "the theory's rate is 1/2 (too few checkpoints in the last decade for a slope)"
    if row["slope_ci_low"] <= row["theory_slope"] <= row["slope_ci_high"]:
        return "the theory's rate, 1/2, lies inside the interval"
    side = "above" if row["theory_slope"] > row["slope_ci_high"] else "below"
    return f"the theory's rate, 1/2, lies outside the interval ({side} it)"


def last_decade_markdown(last_decade: pd.DataFrame) -> str:
    """The long run's last-decade slopes as Markdown: a sentence and a table.

    The sentence gives SparringEXP4.P's slope with its interval and says whether the
    theory's 1/2 lies in it; the table has every algorithm (a baseline's slope shows what
    a method that does not learn measures). Without a long run, a sentence saying so.

    Parameters
    ----------
    last_decade : pandas.DataFrame
        :func:`last_decade_slopes`.
    """
    long_runs = last_decade[last_decade["setting"].map(is_long_run)]
    if long_runs.empty:
        return "No long run in this configuration (online.long_horizon.horizons is empty).\n"
    sentences, rows = [], []
    for name in setting_order(long_runs["setting"]):
        by_algorithm = long_runs[long_runs["setting"] == name].set_index("algorithm")
        order = [a for a in ALGORITHMS if a in by_algorithm.index]
        first = by_algorithm.iloc[0]
        if "sparring_exp4p" in by_algorithm.index:
            exp4p = by_algorithm.loc["sparring_exp4p"]
            sentences.append(
                f"Long run (K = {int(first['n_actions'])}, |Π| = {int(first['n_policies']):,}): "
                f"over the last decade of T = {int(exp4p['horizon']):,} "
                f"({int(exp4p['window_start']):,} → {int(exp4p['horizon']):,} rounds, "
                f"{int(exp4p['n_checkpoints'])} checkpoints, {int(exp4p['n_seeds'])} seeds), "
                f"SparringEXP4.P's mean regret grows with slope {_slope(exp4p['slope'])}, "
                "95% interval "
                f"{_interval(exp4p['slope_ci_low'], exp4p['slope_ci_high'])}; "
                f"{_theory_verdict(exp4p)}."
            )
        for algorithm in order:
            row = by_algorithm.loc[algorithm]
            theory = row["theory_slope"]
            rows.append(
                {
                    "setting": setting_kind(name, row["environment"]),
                    "K": str(int(row["n_actions"])),
                    "\\|Π\\|": f"{int(row['n_policies']):,}",
                    "T": f"{int(row['horizon']):,}",
                    "algorithm": algorithm_style(algorithm).label,
                    "checkpoints in T/10 → T": str(int(row["n_checkpoints"])),
                    "seeds": str(int(row["n_seeds"])),
                    "slope, last decade": _slope(row["slope"]),
                    "95% interval": _interval(row["slope_ci_low"], row["slope_ci_high"]),
                    "theory": "—" if math.isnan(theory) else "1/2",
                }
            )
    intro = (
        "Log-log slope of the mean regret against the rounds within each run's last decade "
        "(T/10 → T, the largest T), with a 95% bootstrap interval resampling seeds. "
        + " ".join(sentences)
    )
    frame = pd.DataFrame(rows)
    alignment = ("left", *["right"] * (frame.shape[1] - 1))
    table = frame.to_markdown(index=False, disable_numparse=True, colalign=alignment)
    return f"{intro}\n\n{table}\n"


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
        undefined), with the ``last_decade`` table their slopes over the last decade of the
        largest ``T`` and interval, and the slopes of ``eps`` against ``m``.
    """
    coverage, slopes, batch = tables["coverage"], tables["slopes"], tables["online_to_batch"]
    settings: dict[str, Any] = {}
    for row in slopes.itertuples(index=False):
        entry = settings.setdefault(row.setting, {"regret_slope": {}, "final_regret_slope": {}})
        entry["regret_slope"][row.algorithm] = _number(row.slope)
        entry["final_regret_slope"][row.algorithm] = _number(row.final_slope)
    for row in tables["last_decade"].itertuples(index=False) if "last_decade" in tables else ():
        settings[row.setting].setdefault("last_decade_regret_slope", {})[row.algorithm] = {
            "slope": _number(row.slope),
            "ci_low": _number(row.slope_ci_low),
            "ci_high": _number(row.slope_ci_high),
        }
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
    """The bound-coverage table as Markdown (for RESULTS.md)."""
    columns = {
        "setting": "setting",
        "n_actions": "K",
        "n_policies": "|Pi|",
        "horizon": "T",
        "mean_regret": "mean regret",
        "max_regret": "max regret",
        "bound": "bound",
        "min_ceiling": "smallest ceiling",
        "informative": "bound < ceiling",
        "coverage": "coverage",
        "required_coverage": "required",
        "empirical_slope": "slope",
        "final_slope": "final slope",
    }
    table = coverage[list(columns)].rename(columns=columns)
    return table.to_markdown(index=False, floatfmt=".3g") + "\n"


def _significant(value: float, digits: int = 3) -> str:
    """``value`` to ``digits`` significant digits, with thousands separators; NaN as n/a."""
    if math.isnan(value):
        return "n/a"
    if value == 0:
        return "0"
    decimals = max(0, digits - 1 - math.floor(math.log10(abs(value))))
    return f"{round(value, decimals):,.{decimals}f}"


def overview_markdown(tables: Mapping[str, pd.DataFrame], summary: Mapping[str, Any]) -> str:
    """The overview of RESULTS.md: the bound's coverage and each setting at its largest ``T``.

    A sentence with the seeds, ``delta`` and whether the bound reached coverage
    ``1 - delta`` at every (setting, ``T``), then one row per setting (in reading order):
    K, ``|Pi|``, contexts, largest ``T``; SparringEXP4.P's mean regret there, the bound,
    the coverage and the largest regret over the bound; its mean regret as a share of each
    baseline's at the same ``T``; the log-log slopes of its regret over all horizons and
    between the two largest.

    Parameters
    ----------
    tables : mapping of str to pandas.DataFrame
        The ``regret``, ``coverage`` and ``slopes`` tables of :func:`summarise_online`.
    summary : mapping
        :func:`online_summary` of the same tables.
    """
    coverage, regret = tables["coverage"], tables["regret"]
    largest = coverage[
        coverage["horizon"] == coverage.groupby("setting")["horizon"].transform("max")
    ]
    largest = largest.set_index("setting")
    means = regret.set_index(["setting", "algorithm", "horizon"])["mean"]
    baselines = [a for a in ALGORITHMS[1:] if a in set(regret["algorithm"])]
    rows = []
    for name in setting_order(largest.index):
        row = largest.loc[name]
        horizon = int(row["horizon"])
        entry = {
            "setting": setting_kind(name, row["environment"]),
            "K": str(int(row["n_actions"])),
            "\\|Π\\|": f"{int(row['n_policies']):,}",
            "contexts": f"{int(row['n_contexts']):,}",
            "largest T": f"{horizon:,}",
            "mean regret": _significant(row["mean_regret"]),
            "bound": _significant(row["bound"]),
            "coverage": f"{row['coverage']:.2f}",
            "max regret / bound": f"{row['max_regret_over_bound']:.2f}",
        }
        for baseline in baselines:
            share = row["mean_regret"] / means[(name, baseline, horizon)]
            entry[f"vs {algorithm_style(baseline).label}"] = f"{share:.0%}"
        entry["slope (theory 1/2)"] = _significant(row["empirical_slope"], 2)
        entry["slope, two largest T"] = _significant(row["final_slope"], 2)
        rows.append(entry)
    seeds = int(coverage["n_seeds"].max())
    delta = summary["delta"]
    verdict = "yes" if summary["all_bounds_hold"] else "**no**"
    sentence = (
        f"{seeds} seeds per setting and horizon, δ = {delta:g}. The bound of Theorem "
        f"sparring-exp4 held in at least 1 − δ = {1 - delta:g} of the seeds at every "
        f"(setting, T): {verdict} (lowest coverage {summary['worst_coverage']:.2f}; largest "
        f"regret / bound {summary['largest_regret_over_bound']:.2f}). Per setting, at its "
        "largest T, SparringEXP4.P's mean regret, also as a share of each baseline's (vs), and "
        "the slopes of its mean regret against T on log-log axes:"
    )
    frame = pd.DataFrame(rows)
    alignment = ("left", *["right"] * (frame.shape[1] - 1))
    table = frame.to_markdown(index=False, disable_numparse=True, colalign=alignment)
    return f"{sentence}\n\n{table}\n"


def exact_winners_table(winners: ExactWinnerSettings, seed: int) -> pd.DataFrame:
    """The exact contextual vNW of every setting with a finite population and a small class.

    For each such setting whose class has at most ``winners.lp_max_policies`` distinct
    policies on the contexts, solves the LP on ``M`` (:func:`contextual_von_neumann_winner`)
    with ``winners.lp_solver``. Columns: setting, n_policies, distinct_policies,
    support_size (1 means ``M`` has a Condorcet-winner policy), value (the vNW's certificate
    ``min_rho W^T M rho``, 0 up to rounding), condorcet_context_fraction (contexts whose
    ``P_x`` has a Condorcet winner).
    """
    rows = []
    for setting in online_settings(winners):
        if setting.environment == "adversarial":
            continue
        instance = build_instance(setting, seed)
        if instance.population is None:
            raise ValueError(f"{setting.name} has no finite population")
        distinct = np.unique(instance.table.actions.T, axis=0).shape[0]
        row: dict[str, Any] = {
            "setting": setting.name,
            "n_policies": instance.table.n_policies,
            "distinct_policies": distinct,
            "condorcet_context_fraction": condorcet_fraction(instance.population),
        }
        if distinct <= winners.lp_max_policies:
            winner = contextual_von_neumann_winner(
                instance.population, instance.table.actions, solver=winners.lp_solver
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
