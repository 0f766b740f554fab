"""Figures of the oracle-method sweeps, in the style of :mod:`cdbandits.plotting`.

Every function takes the tables written by the workflow and returns a figure with a title,
a caption and legends under the panels (so that they hide no curve):

* :func:`plot_convergence`: gap to the LP value of ``Mhat`` and exploitability in ``M``
  against oracle calls (log-log), SparringFPL and ProjectedGD, with the theory's bounds;
* :func:`plot_explore_first`: ``max |Mhat - M|`` and the exploitability in ``M`` against
  ``m`` for the paper's estimator and the skew-symmetrised one, with ``eps'`` and
  ``2 eps'``;
* :func:`plot_regret`: regret (rd1) against ``T`` for explore-then-exploit and
  SparringEXP4.P, with reference slopes 2/3 and 1/2;
* :func:`plot_scaling`: time and memory against ``|Pi|`` for SparringEXP4.P and the oracle
  methods;
* :func:`plot_power`: per scaled parameter of the correct code, the fraction of each
  check's informative trials at which its bound failed, against the factor (:mod:`.power`).

Colours, markers and names of the algorithms and estimators come from
:data:`cdbandits.plotting.ALGORITHM_STYLES`. :func:`plot_oracle_figures` draws them all.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ...plotting import LEGEND_SIZE, algorithm_style, panel_grid, title_and_caption
from ...stats import mean_with_interval

__all__ = [
    "FIGURES",
    "FIGURE_TABLES",
    "plot_convergence",
    "plot_explore_first",
    "plot_oracle_figures",
    "plot_power",
    "plot_regret",
    "plot_scaling",
]

#: Figure names, as used in file names.
FIGURES = ("convergence", "explore_first", "regret", "scaling", "power")

#: The tables the figures are drawn from (``results/oracle/<name>.csv``).
FIGURE_TABLES = ("explore_first", "solvers", "regret", "scaling", "power")

#: Top of the panels (figure fraction): above them, the title and caption.
_TOP = 0.74


def _finish(figure: Any, title: str, caption: str | Sequence[str]) -> Any:
    """Title and caption over the panels. The legends hang under the panels, outside the
    figure's box: the figure is saved with a tight bounding box, which takes them in."""
    title_and_caption(figure, title, caption)
    figure.subplots_adjust(top=_TOP, wspace=0.35)
    return figure


def _log_log(axis: Any, xlabel: str, ylabel: str, title: str = "") -> None:
    axis.set(xscale="log", yscale="log", xlabel=xlabel, ylabel=ylabel, title=title)


def _legend_below(axis: Any, columns: int = 1) -> None:
    """The axis's legend under it (below its x label), outside the plotting area."""
    axis.legend(
        loc="upper center",
        bbox_to_anchor=(0.5, -0.22),
        ncol=columns,
        fontsize=LEGEND_SIZE,
        frameon=False,
    )


def _band(axis: Any, x: Any, values: pd.DataFrame, name: str, label: str | None = None) -> None:
    """Median line of algorithm or estimator ``name`` with its inter-quartile band."""
    style = algorithm_style(name)
    axis.plot(
        x,
        values["median"],
        marker=style.marker,
        color=style.colour,
        label=style.label if label is None else label,
    )
    axis.fill_between(x, values["q25"], values["q75"], color=style.colour, alpha=0.2)


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
    figure, (gap_axis, exploit_axis) = panel_grid(2, columns=2)
    for algorithm in ("fpl", "pgd"):
        rows = solvers[solvers["algorithm"] == algorithm]
        calls = rows.groupby("budget")["oracle_calls"].median().to_numpy()
        style = algorithm_style(algorithm)
        _band(gap_axis, calls, _quantiles(rows, "budget", "gap").clip(lower=1e-4), algorithm)
        bound = rows.groupby("budget")["gap_bound"].median()
        gap_axis.plot(
            calls, bound.to_numpy(), "--", color=style.colour, label=f"bound ({style.label})"
        )
        _band(exploit_axis, calls, _quantiles(rows, "budget", "exploitability"), algorithm)
    _log_log(
        gap_axis, "oracle calls", "max_w min_u w'Bu - min_u wbar'Bu", "gap to the LP value of M-hat"
    )
    _log_log(exploit_axis, "oracle calls", "exploitability in M", "achieved epsilon in M")
    _legend_below(gap_axis)
    _legend_below(exploit_axis)
    seeds, m = solvers["seed"].nunique(), int(solvers["n_explore"].iloc[0])
    return _finish(
        figure,
        "Solving the compact game with oracle calls (Theorems fpl, proj-out2)",
        f"Medians over {seeds} seeds (m = {m}) with inter-quartile bands; dashed: the bounds "
        "at each budget",
    )


def plot_explore_first(explore_first: pd.DataFrame) -> Any:
    """Deviation ``max |Mhat - M|`` and exploitability in ``M`` against ``m`` (log-log)."""
    figure, (deviation_axis, exploit_axis) = panel_grid(2, columns=2)
    lp = explore_first[explore_first["solver"] == "lp"]
    for estimator, rows in lp.groupby("estimator", sort=False):
        style = algorithm_style(estimator)
        m = np.sort(rows["n_explore"].unique())
        _band(deviation_axis, m, _quantiles(rows, "n_explore", "deviation"), estimator)
        bound = rows.groupby("n_explore")["deviation_bound"].median()
        deviation_axis.plot(m, bound.to_numpy(), "--", color=style.colour, label="its eps'")
        _band(
            exploit_axis,
            m,
            _quantiles(rows, "n_explore", "exploitability"),
            estimator,
            f"exact LP, {style.label}",
        )
    paper = explore_first[explore_first["estimator"] == "importance_weighted"]
    for solver, budget_name in (("fpl", "N"), ("pgd", "T_in = T_out")):
        rows = paper[paper["solver"] == solver]
        m = np.sort(rows["n_explore"].unique())
        label = f"{algorithm_style(solver).label} ({budget_name} = {int(rows['budget'].iloc[0])})"
        _band(exploit_axis, m, _quantiles(rows, "n_explore", "exploitability"), solver, label)
    paper_lp = lp[lp["estimator"] == "importance_weighted"]
    twice = 2 * paper_lp.groupby("n_explore")["deviation_bound"].median()
    exploit_axis.plot(twice.index, twice.to_numpy(), "k--", label="2 eps' (paper's estimator)")
    _log_log(deviation_axis, "exploration rounds m", "max |M-hat - M|", "Lemma eq. (f2)")
    _log_log(exploit_axis, "exploration rounds m", "exploitability in M", "Theorem main-eps")
    _legend_below(deviation_axis, columns=2)
    _legend_below(exploit_axis)
    return _finish(
        figure,
        "Exploration: how good is the estimated game?",
        [
            f"Medians over {explore_first['seed'].nunique()} seeds with inter-quartile bands; "
            "dashed: the bounds.",
            "Right: SparringFPL and ProjectedGD solve the paper's estimator's game.",
        ],
    )


def plot_regret(regret: pd.DataFrame) -> Any:
    """Mean regret (rd1) against ``T`` (log-log) with reference slopes 2/3 and 1/2."""
    figure, (axis,) = panel_grid(1)
    for algorithm, rows in regret.groupby("algorithm", sort=False):
        style = algorithm_style(algorithm)
        stats = pd.DataFrame(
            [
                mean_with_interval(part["regret"]) | {"horizon": horizon}
                for horizon, part in rows.groupby("horizon")
            ]
        )
        axis.plot(
            stats["horizon"],
            stats["mean"],
            marker=style.marker,
            color=style.colour,
            label=style.label,
        )
        axis.fill_between(
            stats["horizon"], stats["ci_low"], stats["ci_high"], color=style.colour, alpha=0.2
        )
    horizons = np.sort(regret["horizon"].unique()).astype(np.float64)
    anchor = regret[regret["horizon"] == horizons[0]]["regret"].mean()
    for exponent, line in ((2 / 3, ":"), (0.5, "-.")):
        axis.plot(
            horizons,
            anchor * (horizons / horizons[0]) ** exponent,
            "k" + line,
            label=f"slope {exponent:.2f}",
        )
    _log_log(axis, "horizon T", "regret (rd1)")
    _legend_below(axis, columns=2)
    return _finish(
        figure,
        "Theorem main-regret against SparringEXP4.P",
        [
            f"Mean regret over {regret['seed'].nunique()} seeds with 95% intervals;",
            "reference slopes from the smallest T",
        ],
    )


def plot_scaling(scaling: pd.DataFrame) -> Any:
    """Wall-clock time and peak memory against ``|Pi|`` (log-log): medians over repeats with
    their minimum-maximum band."""
    figure, (time_axis, memory_axis) = panel_grid(2, columns=2)
    grouped = scaling.groupby(["method", "n_policies"], sort=False)[["seconds", "peak_mb"]]
    spread = pd.concat(
        {statistic: grouped.agg(statistic) for statistic in ("median", "min", "max")}, axis=1
    )
    for method, rows in spread.groupby(level="method", sort=False):
        style = algorithm_style(str(method))
        sizes = rows.index.get_level_values("n_policies")
        for axis, column in ((time_axis, "seconds"), (memory_axis, "peak_mb")):
            axis.plot(
                sizes,
                rows[("median", column)],
                marker=style.marker,
                color=style.colour,
                label=style.label,
            )
            axis.fill_between(
                sizes, rows[("min", column)], rows[("max", column)], color=style.colour, alpha=0.2
            )
    _log_log(time_axis, "|Pi|", "seconds", "time")
    _log_log(memory_axis, "|Pi|", "peak MB above baseline", "memory")
    if scaling.empty:
        for axis in (time_axis, memory_axis):
            axis.text(
                0.5,
                0.5,
                "no measurements in this configuration",
                ha="center",
                transform=axis.transAxes,
            )
        caption = "No class size is measured in this configuration (oracle.scaling.class_sizes)"
    else:
        _legend_below(time_axis)
        _legend_below(memory_axis)
        caption = (
            "The same T = m duels for every method; medians over "
            f"{scaling['repeat'].nunique()} repeats with their minimum-maximum band"
        )
    return _finish(figure, "Time and memory against the size of the policy class", caption)


def plot_power(power: pd.DataFrame) -> Any:
    """Fraction of informative trials failed against the factor, one panel per parameter,
    with the detection threshold ``delta`` (:func:`~.power.measure_power`'s table)."""
    parameters = list(dict.fromkeys(power["parameter"]))
    figure, axes = panel_grid(max(1, len(parameters)), columns=3)
    colours = [f"C{index}" for index in range(10)]  # matplotlib's default cycle
    delta = float(power["delta"].iloc[0]) if len(power) else float("nan")
    statements = list(dict.fromkeys(power["statement"]))
    for axis, parameter in zip(axes, parameters, strict=False):
        rows = power[(power["parameter"] == parameter) & (power["seeds"] > 0)]
        for statement, part in rows.groupby("statement", sort=False):
            part = part.sort_values("factor")
            axis.plot(
                part["factor"],
                part["detections"] / part["seeds"],
                marker="o",
                color=colours[statements.index(statement) % len(colours)],
                label=statement,
            )
        axis.axhline(delta, color="k", linestyle="--", label=f"delta = {delta:g}")
        axis.set(
            xscale="log",
            ylim=(-0.05, 1.05),
            xlabel="factor",
            ylabel="fraction of trials failed",
            title=parameter,
        )
        _legend_below(axis)
    return _finish(
        figure,
        "Power of the bound checks against scaled parameters of the correct code",
        "Fraction of each check's informative trials at which its bound failed; dashed: the "
        "detection threshold delta",
    )


def plot_oracle_figures(tables: Mapping[str, pd.DataFrame]) -> dict[str, Any]:
    """Every figure of :data:`FIGURES` from the tables of :data:`FIGURE_TABLES`."""
    return {
        "convergence": plot_convergence(tables["solvers"]),
        "explore_first": plot_explore_first(tables["explore_first"]),
        "regret": plot_regret(tables["regret"]),
        "scaling": plot_scaling(tables["scaling"]),
        "power": plot_power(tables["power"]),
    }
