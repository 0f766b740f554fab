"""Tables of the oracle-method sweeps.

:func:`summarise_oracle` builds every table the workflow writes (:class:`OracleSummary`).

:func:`combine_experiment_shards` joins a sweep's shards; the paper-wide bound table is
built by :mod:`.bound_table`. :func:`scaling_crossovers` finds from which ``|Pi|`` on each
oracle method beats SparringEXP4.P in time and in memory.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ...oracle_methods.theory import ALGORITHMS, theory_parameters
from ...plotting import algorithm_style
from ..shards import combine_shards
from .bound_table import (
    bound_checks,
    bound_table,
    bound_table_markdown,
    check_statement,
    statement_rows,
)
from .jobs import SummarySettings
from .settings import EXPERIMENTS

# check_statement and statement_rows (of .bound_table) are re-exported for the detection of
# broken variants.
__all__ = [
    "CROSSOVER_COLUMNS",
    "EXPERIMENT_KEYS",
    "OracleSummary",
    "check_statement",
    "combine_experiment_shards",
    "json_records",
    "learned_summary",
    "read_table",
    "scaling_crossovers",
    "scaling_markdown",
    "statement_rows",
    "summarise_oracle",
    "theory_table",
]

#: Columns identifying a row of each experiment (the combined tables are sorted by them).
EXPERIMENT_KEYS = {
    "explore_first": ("estimator", "n_explore", "solver", "seed"),
    "solvers": ("algorithm", "budget", "seed"),
    "regret": ("algorithm", "horizon", "seed"),
    "learned": ("oracle", "algorithm", "seed"),
    "small_explore_first": ("estimator", "n_explore", "solver", "seed"),
    "small_solvers": ("algorithm", "budget", "seed"),
}


def combine_experiment_shards(frames: Sequence[pd.DataFrame], experiment: str) -> pd.DataFrame:
    """The shards of an experiment as one table sorted by :data:`EXPERIMENT_KEYS`.

    The order does not depend on the number of shards.
    """
    return combine_shards(frames, EXPERIMENT_KEYS[experiment])


#: Columns of :func:`scaling_crossovers` (also of its empty table, when nothing was measured).
CROSSOVER_COLUMNS = (
    "method",
    "baseline",
    "resource",
    "repeats",
    "wins_from_measured",
    "wins_everywhere",
    "crossover_median",
    "crossover_min",
    "crossover_max",
    "at_n_policies",
    "largest_ratio_median",
    "largest_ratio_min",
    "largest_ratio_max",
)

#: The measured resources of the scaling table.
RESOURCES = ("seconds", "peak_mb")


def _crossovers_of(values: pd.DataFrame, baseline: str) -> pd.DataFrame:
    """Per method and resource, from one value per (method, ``|Pi|``): the smallest measured
    size from which the method uses less than ``baseline`` at every larger size, the
    crossover interpolated log-log between that size and the one below (``nan`` when the
    method wins everywhere or nowhere), and the baseline's use over the method's at the
    largest size."""
    base = values[values["method"] == baseline].set_index("n_policies")
    rows = []
    for method, part in values[values["method"] != baseline].groupby("method"):
        part = part.set_index("n_policies")
        part = part.loc[base.index.intersection(part.index)].sort_index()
        sizes = part.index.to_numpy()
        for resource in RESOURCES:
            with np.errstate(divide="ignore", invalid="ignore"):
                ratio = base.loc[sizes, resource].to_numpy() / part[resource].to_numpy()
                excess = -np.log(ratio)  # log(method / baseline): < 0 where the method wins
            first = next((i for i in range(sizes.size) if (ratio[i:] > 1.0).all()), None)
            crossover = math.nan
            if first is not None and first > 0:
                x0, x1 = math.log(sizes[first - 1]), math.log(sizes[first])
                y0, y1 = excess[first - 1], excess[first]
                if np.isfinite([y0, y1]).all() and y0 != y1:
                    crossover = math.exp(x0 + (x1 - x0) * y0 / (y0 - y1))
            rows.append(
                {
                    "method": method,
                    "resource": resource,
                    "wins_from_measured": float(sizes[first]) if first is not None else math.nan,
                    "wins_everywhere": bool(first == 0),
                    "crossover": crossover,
                    "at_n_policies": float(sizes[-1]),
                    "largest_ratio": float(ratio[-1]),
                }
            )
    return pd.DataFrame(rows)


def scaling_crossovers(scaling: pd.DataFrame, baseline: str = "sparring_exp4p") -> pd.DataFrame:
    """From which ``|Pi|`` on each method beats ``baseline`` in time and in memory.

    Per method and resource (``seconds``, ``peak_mb``): from the medians over repeats, the
    smallest measured ``|Pi|`` from which the method uses less than the baseline at every
    larger size (``wins_from_measured``, ``wins_everywhere``); from each repeat on its own,
    the crossover interpolated log-log between that size and the one below, and the ratio
    baseline / method at the largest size, reported as median, minimum and maximum over the
    repeats (NaN where no repeat has a crossover).
    """
    if scaling.empty:
        return pd.DataFrame(columns=list(CROSSOVER_COLUMNS))
    if "repeat" not in scaling:
        scaling = scaling.assign(repeat=0)
    keys = ["method", "n_policies"]
    medians = scaling.groupby(keys)[list(RESOURCES)].median().reset_index()
    table = _crossovers_of(medians, baseline).drop(columns=["crossover", "largest_ratio"])
    per_repeat = pd.concat(
        [_crossovers_of(part, baseline) for _, part in scaling.groupby("repeat")],
        ignore_index=True,
    )
    spread = per_repeat.groupby(["method", "resource"], sort=False)[["crossover", "largest_ratio"]]
    for statistic in ("median", "min", "max"):
        values = spread.agg(statistic).add_suffix(f"_{statistic}").reset_index()
        table = table.merge(values, on=["method", "resource"])
    table["baseline"] = baseline
    table["repeats"] = scaling["repeat"].nunique()
    return table[list(CROSSOVER_COLUMNS)]


def _rounded(value: float, unit: str = "") -> str:
    """Two significant digits, thousands separated (``n/a`` for NaN)."""
    if math.isnan(value):
        return "n/a"
    rounded = float(f"{value:.2g}")
    text = f"{rounded:,.0f}" if rounded >= 100 else f"{rounded:g}"
    return text + unit


def _with_spread(median: float, low: float, high: float, unit: str = "") -> str:
    if math.isnan(median):
        return "n/a"
    return f"{_rounded(median, unit)} ({_rounded(low)}–{_rounded(high, unit)})"


def _beats(found: pd.DataFrame, resource: str) -> str:
    """From which ``|Pi|`` a method beats the baseline in ``resource`` (a crossovers row)."""
    if resource not in found.index:
        return "(baseline)"
    row = found.loc[resource]
    if row["wins_everywhere"]:
        return "every size measured"
    if math.isnan(row["wins_from_measured"]):
        return "no size measured"
    return _with_spread(row["crossover_median"], row["crossover_min"], row["crossover_max"])


def scaling_markdown(
    scaling: pd.DataFrame, crossovers: pd.DataFrame, baseline: str = "sparring_exp4p"
) -> str:
    """The scaling measurements as a Markdown table (for the README).

    Per method: time and memory at the largest ``|Pi|``, and from which ``|Pi|`` it beats
    ``baseline`` in each (:func:`scaling_crossovers`), each as the median over repeats with
    the minimum and maximum in parentheses.
    """
    if scaling.empty:
        return "No class sizes were measured in this configuration.\n"
    largest = scaling[scaling["n_policies"] == scaling["n_policies"].max()]
    size = f"{int(largest['n_policies'].iloc[0]):,}"
    header = (
        f"| method | time at \\|Π\\| = {size} | memory at \\|Π\\| = {size} "
        f"| beats {algorithm_style(baseline).label} in time from \\|Π\\| ≈ "
        "| in memory from \\|Π\\| ≈ |\n|---|---|---|---|---|\n"
    )
    lines = []
    for method, part in largest.groupby("method", sort=False):
        cells = [
            _with_spread(part[column].median(), part[column].min(), part[column].max(), unit)
            for column, unit in (("seconds", " s"), ("peak_mb", " MB"))
        ]
        found = crossovers[crossovers["method"] == method].set_index("resource")
        cells += [_beats(found, resource) for resource in RESOURCES]
        lines.append(f"| {algorithm_style(method).label} | " + " | ".join(cells) + " |")
    note = (
        f"Medians over {scaling['repeat'].nunique()} repeats, minimum–maximum in parentheses; "
        "crossovers interpolated log-log between the measured sizes, in each repeat.\n\n"
    )
    return note + header + "\n".join(lines) + "\n"


def theory_table(
    epsilons: Sequence[float], delta: float, n_actions: int, class_sizes: Sequence[int]
) -> pd.DataFrame:
    """Theorem main-eps's ``m`` and oracle calls for uniform exploration (``L = V = K^2``)."""
    rows = []
    for n_policies in class_sizes:
        for epsilon in epsilons:
            for algorithm in ALGORITHMS:
                parameters = theory_parameters(
                    algorithm, float(epsilon), delta, int(n_policies), n_actions**2, n_actions**2
                )
                rows.append({"n_actions": n_actions} | parameters.as_dict())
    return pd.DataFrame(rows)


def learned_summary(learned: pd.DataFrame) -> pd.DataFrame:
    """Per oracle and algorithm: how far the learned answers are from the exact ones, and the
    achieved ``eps`` (means over seeds; ``exploitability_vs_exact`` is the mean difference to
    the exact oracle's run on the same data)."""
    columns = [
        "oracle_calls",
        "mean_relative_excess",
        "max_relative_excess",
        "fraction_inexact",
        "fraction_better",
        "gap",
        "exploitability",
    ]
    means = learned.groupby(["oracle", "algorithm"], sort=False)[columns].mean().reset_index()
    exact = learned[learned["oracle"] == "exact"].set_index(["algorithm", "seed"])["exploitability"]
    paired = learned.join(exact.rename("exact_exploitability"), on=["algorithm", "seed"])
    paired["difference"] = paired["exploitability"] - paired["exact_exploitability"]
    differences = paired.groupby(["oracle", "algorithm"], sort=False)["difference"].mean()
    means["exploitability_vs_exact"] = differences.to_numpy()
    means["n_seeds"] = (
        learned.groupby(["oracle", "algorithm"], sort=False)["seed"].nunique().to_numpy()
    )
    return means


def json_records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """Rows as dictionaries for JSON, with NaN (an undefined rate or crossover) and infinity
    (a ratio to a memory peak measured as 0 MB) as ``None``: JSON has neither."""
    return [
        {
            key: (None if isinstance(value, float) and not math.isfinite(value) else value)
            for key, value in row.items()
        }
        for row in frame.to_dict(orient="records")
    ]


def read_table(path: str | os.PathLike[str]) -> pd.DataFrame:
    """A CSV written by the workflow; an empty file (a table without rows or columns) is an
    empty frame."""
    try:
        return pd.read_csv(path)
    except pd.errors.EmptyDataError:
        return pd.DataFrame()


#: Class size of the theory table besides the sweeps' own (a class too large to enumerate).
LARGE_CLASS = 10**6


@dataclass(frozen=True)
class OracleSummary:
    """Every summary of the oracle sweeps.

    Attributes
    ----------
    tables : dict of str to pandas.DataFrame
        By output name: the combined rows of each experiment, ``bound_table``,
        ``bound_detail``, ``crossovers``, ``learned_summary`` and ``theory``.
    bound_markdown : str
        The bound table as Markdown (:func:`bound_table_markdown`).
    scaling_markdown : str
        The scaling measurements and crossovers as Markdown (:func:`scaling_markdown`).
    """

    tables: dict[str, pd.DataFrame]
    bound_markdown: str
    scaling_markdown: str

    def overview(self, metadata: Mapping[str, Any]) -> dict[str, Any]:
        """The JSON summary: bound table, whether every bound met its coverage, crossovers,
        learned oracles, and the run's ``metadata``."""
        bounds = self.tables["bound_table"]
        checked = bounds["meets_guarantee"].dropna()
        return {
            "bound_table": json_records(bounds),
            "all_informative_bounds_met": bool(checked.astype(bool).all()),
            "statements_without_informative_setting": [
                str(name) for name in bounds.loc[bounds["informative_settings"] == 0, "statement"]
            ],
            "scaling_crossovers": json_records(self.tables["crossovers"]),
            "learned_oracles": json_records(self.tables["learned_summary"]),
            "metadata": dict(metadata),
        }


def summarise_oracle(
    shards: Mapping[str, Sequence[pd.DataFrame]],
    scaling: pd.DataFrame,
    online_coverage: pd.DataFrame,
    settings: SummarySettings,
    seed: int,
    detection: pd.DataFrame | None = None,
    detection_checks: pd.DataFrame | None = None,
) -> OracleSummary:
    """Combine the shards of every experiment and build every summary table.

    Parameters
    ----------
    shards : mapping of str to sequence of pandas.DataFrame
        The shard tables of each experiment of :data:`~.settings.EXPERIMENTS`.
    scaling : pandas.DataFrame
        The scaling measurements (no rows when none were configured).
    online_coverage : pandas.DataFrame
        The Section 5 sweep's coverage table (joined into the bound table).
    settings : SummarySettings
    seed : int
        Master seed (for the bootstraps).
    detection : pandas.DataFrame, optional
        The broken-variant detection table (joined on the statement name).
    detection_checks : pandas.DataFrame, optional
        The correct implementation's informative checks in the detection (settings of the
        bound table).
    """
    experiments = {name: combine_experiment_shards(shards[name], name) for name in EXPERIMENTS}
    summary, detail = bound_table(
        bound_checks(experiments),
        experiments,
        settings.delta,
        seed,
        online_coverage,
        detection,
        detection_checks,
    )
    class_sizes = sorted({int(experiments["explore_first"]["n_policies"].iloc[0]), LARGE_CLASS})
    crossovers = scaling_crossovers(scaling)
    tables = experiments | {
        "bound_table": summary,
        "bound_detail": detail,
        "crossovers": crossovers,
        "learned_summary": learned_summary(experiments["learned"]),
        "theory": theory_table(
            settings.theory_epsilons, settings.delta, settings.n_actions, class_sizes
        ),
    }
    return OracleSummary(
        tables, bound_table_markdown(summary), scaling_markdown(scaling, crossovers)
    )
