"""Figures of the oracle-method sweeps (matplotlib, Agg backend).

Every function takes the tables written by the workflow and returns a figure:

* :func:`plot_convergence`: gap to the LP value of ``Mhat`` and exploitability in ``M``
  against oracle calls (log-log), SparringFPL and ProjectedGD, with the theory's bounds;
* :func:`plot_explore_first`: ``max |Mhat - M|`` and the exploitability in ``M`` against
  ``m`` for the paper's estimator and the skew-symmetrised one, with ``eps'`` and
  ``2 eps'``;
* :func:`plot_regret`: regret (rd1) against ``T`` for explore-then-exploit and
  SparringEXP4.P, with reference slopes 2/3 and 1/2;
* :func:`plot_scaling`: time and memory against ``|Pi|`` for SparringEXP4.P and the oracle
  methods.

:func:`plot_oracle_figures` draws them all.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from ...plotting import pyplot

__all__ = [
    "FIGURES",
    "FIGURE_TABLES",
    "plot_convergence",
    "plot_explore_first",
    "plot_oracle_figures",
    "plot_regret",
    "plot_scaling",
]

#: Figure names, as used in file names.
FIGURES = ("convergence", "explore_first", "regret", "scaling")

#: The tables the figures are drawn from (``results/oracle/<name>.csv``).
FIGURE_TABLES = ("explore_first", "solvers", "regret", "scaling")

_COLORS = {
    "fpl": "tab:blue",
    "pgd": "tab:orange",
    "lp": "tab:green",
    "fpl_learned": "tab:purple",
    "sparring_exp4p": "tab:red",
    "explore_exploit_fpl": "tab:blue",
    "explore_exploit_lp": "tab:green",
    "importance_weighted": "tab:blue",
    "skew_symmetrised": "tab:orange",
}
_LABELS = {
    "fpl": "SparringFPL",
    "pgd": "ProjectedGD",
    "lp": "exact LP maxmin of Mhat",
    "fpl_learned": "SparringFPL, scikit-learn stump oracle",
    "sparring_exp4p": "SparringEXP4.P",
    "explore_exploit_fpl": "explore-exploit, SparringFPL",
    "explore_exploit_lp": "explore-exploit, exact LP",
    "importance_weighted": "paper's K^2 estimator",
    "skew_symmetrised": "skew-symmetrised estimator",
}


def _axes(columns: int, width: float = 4.6, height: float = 3.6) -> tuple[Any, Any]:
    figure, axes = pyplot().subplots(1, columns, figsize=(width * columns, height), squeeze=False)
    return figure, axes[0]


def _band(
    axis: Any, x: Any, values: pd.DataFrame, color: str, label: str, marker: str = "o"
) -> None:
    """Median line with the inter-quartile band."""
    axis.plot(x, values["median"], marker=marker, color=color, label=label)
    axis.fill_between(x, values["q25"], values["q75"], color=color, alpha=0.2)


def _quantiles(rows: pd.DataFrame, by: str, column: str) -> pd.DataFrame:
    grouped = rows.groupby(by)[column]
    return pd.DataFrame(
        {"median": grouped.median(), "q25": grouped.quantile(0.25), "q75": grouped.quantile(0.75)}
    )


def plot_convergence(solvers: pd.DataFrame) -> Any:
    """Gap in ``Mhat`` and exploitability in ``M`` against oracle calls (log-log).

    Parameters
    ----------
    solvers : pandas.DataFrame
        Rows of the ``solvers`` experiment.
    """
    figure, (gap_axis, exploit_axis) = _axes(2)
    for algorithm in ("fpl", "pgd"):
        rows = solvers[solvers["algorithm"] == algorithm]
        calls = rows.groupby("budget")["oracle_calls"].median()
        color, label = _COLORS[algorithm], _LABELS[algorithm]
        gaps = _quantiles(rows, "budget", "gap").clip(lower=1e-4)
        _band(gap_axis, calls.to_numpy(), gaps, color, label)
        bound = rows.groupby("budget")["gap_bound"].median()
        gap_axis.plot(
            calls.to_numpy(), bound.to_numpy(), "--", color=color, label=f"bound ({label})"
        )
        _band(
            exploit_axis,
            calls.to_numpy(),
            _quantiles(rows, "budget", "exploitability"),
            color,
            label,
        )
    gap_axis.set(
        xscale="log",
        yscale="log",
        xlabel="oracle calls",
        ylabel="max_w min_u w'Bu - min_u wbar'Bu",
        title="gap to the LP value of Mhat",
    )
    exploit_axis.set(
        xscale="log",
        yscale="log",
        xlabel="oracle calls",
        ylabel="exploitability in M",
        title="achieved epsilon in M",
    )
    gap_axis.legend(fontsize=7)
    exploit_axis.legend(fontsize=7)
    figure.tight_layout()
    return figure


def plot_explore_first(explore_first: pd.DataFrame) -> Any:
    """Deviation ``max |Mhat - M|`` and exploitability in ``M`` against ``m`` (log-log)."""
    figure, (deviation_axis, exploit_axis) = _axes(2)
    lp = explore_first[explore_first["solver"] == "lp"]
    for estimator, rows in lp.groupby("estimator", sort=False):
        color, label = _COLORS[estimator], _LABELS[estimator]
        m = np.sort(rows["n_explore"].unique())
        _band(deviation_axis, m, _quantiles(rows, "n_explore", "deviation"), color, label)
        bound = rows.groupby("n_explore")["deviation_bound"].median()
        deviation_axis.plot(m, bound.to_numpy(), "--", color=color, label=f"eps' ({label})")
        _band(
            exploit_axis, m, _quantiles(rows, "n_explore", "exploitability"), color, f"LP, {label}"
        )
    paper = explore_first[explore_first["estimator"] == "importance_weighted"]
    for solver, marker in (("fpl", "s"), ("pgd", "^")):
        rows = paper[paper["solver"] == solver]
        m = np.sort(rows["n_explore"].unique())
        budget = int(rows["budget"].iloc[0])
        label = (
            f"{_LABELS[solver]} ({'N' if solver == 'fpl' else 'T'} = {budget}), paper's estimator"
        )
        _band(
            exploit_axis,
            m,
            _quantiles(rows, "n_explore", "exploitability"),
            _COLORS[solver],
            label,
            marker,
        )
    paper_lp = lp[lp["estimator"] == "importance_weighted"]
    twice = 2 * paper_lp.groupby("n_explore")["deviation_bound"].median()
    exploit_axis.plot(twice.index, twice.to_numpy(), "k--", label="2 eps' (paper's estimator)")
    deviation_axis.set(
        xscale="log",
        yscale="log",
        xlabel="exploration rounds m",
        ylabel="max |Mhat - M|",
        title="Lemma eq. (f2)",
    )
    exploit_axis.set(
        xscale="log",
        yscale="log",
        xlabel="exploration rounds m",
        ylabel="exploitability in M",
        title="Theorem main-eps",
    )
    deviation_axis.legend(fontsize=7)
    exploit_axis.legend(fontsize=6)
    figure.tight_layout()
    return figure


def plot_regret(regret: pd.DataFrame) -> Any:
    """Mean regret (rd1) against ``T`` (log-log) with reference slopes 2/3 and 1/2."""
    figure, (axis,) = _axes(1, width=5.6, height=4.2)
    for algorithm, rows in regret.groupby("algorithm", sort=False):
        stats = rows.groupby("horizon")["regret"].agg(["mean", "std", "count"])
        half = 1.96 * stats["std"] / np.sqrt(stats["count"])
        color = _COLORS[algorithm]
        axis.plot(stats.index, stats["mean"], "o-", color=color, label=_LABELS[algorithm])
        axis.fill_between(
            stats.index, stats["mean"] - half, stats["mean"] + half, color=color, alpha=0.2
        )
    horizons = np.sort(regret["horizon"].unique()).astype(np.float64)
    anchor = regret[regret["horizon"] == horizons[0]]["regret"].mean()
    for exponent, style in ((2 / 3, ":"), (0.5, "-.")):
        axis.plot(
            horizons,
            anchor * (horizons / horizons[0]) ** exponent,
            "k" + style,
            label=f"slope {exponent:.2f}",
        )
    axis.set(
        xscale="log",
        yscale="log",
        xlabel="horizon T",
        ylabel="regret (rd1)",
        title="Theorem main-regret against SparringEXP4.P",
    )
    axis.legend(fontsize=7)
    figure.tight_layout()
    return figure


def plot_scaling(scaling: pd.DataFrame) -> Any:
    """Wall-clock time and peak memory against ``|Pi|`` (log-log), medians over repeats."""
    figure, (time_axis, memory_axis) = _axes(2)
    medians = (
        scaling.groupby(["method", "n_policies"])[["seconds", "peak_mb"]].median().reset_index()
    )
    for method, rows in medians.groupby("method", sort=False):
        color, label = _COLORS[method], _LABELS[method]
        time_axis.plot(rows["n_policies"], rows["seconds"], "o-", color=color, label=label)
        memory_axis.plot(rows["n_policies"], rows["peak_mb"], "o-", color=color, label=label)
    time_axis.set(
        xscale="log", yscale="log", xlabel="|Pi|", ylabel="seconds", title="time (same T = m data)"
    )
    memory_axis.set(
        xscale="log", yscale="log", xlabel="|Pi|", ylabel="peak MB above baseline", title="memory"
    )
    if scaling.empty:
        for axis in (time_axis, memory_axis):
            axis.text(
                0.5,
                0.5,
                "no measurements in this configuration",
                ha="center",
                transform=axis.transAxes,
            )
    else:
        time_axis.legend(fontsize=7)
    figure.tight_layout()
    return figure


def plot_oracle_figures(tables: Mapping[str, pd.DataFrame]) -> dict[str, Any]:
    """Every figure of :data:`FIGURES` from the tables of :data:`FIGURE_TABLES`."""
    return {
        "convergence": plot_convergence(tables["solvers"]),
        "explore_first": plot_explore_first(tables["explore_first"]),
        "regret": plot_regret(tables["regret"]),
        "scaling": plot_scaling(tables["scaling"]),
    }
