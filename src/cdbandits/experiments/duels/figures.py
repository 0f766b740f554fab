"""What is drawn: regret against ``T`` per environment, and the time per round.

* ``von_neumann_regret`` and ``copeland_regret`` (:func:`duels_figures`): one panel per
  environment (in config order), mean cumulative regret over the seeds against the round on
  log-log axes with its 95% band, one line per algorithm in its style
  (:data:`cdbandits.plotting.ALGORITHM_STYLES`); the legend, under the panels, lists every
  algorithm. An environment without a von Neumann winner (the adaptive adversary) gets a
  panel of rd1 in hindsight in the ``von_neumann_regret`` figure, its title and y label
  saying so.
* ``time_per_round`` (:func:`plot_time_per_round`): median microseconds per round of each
  algorithm against the number of arms, with the range over runs as error bars. It plots
  wall times, which differ from run to run, so the workflow keeps it apart from the
  reproducible results (under ``results/benchmarks/duels/``).
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ...plotting import LEGEND_SIZE, algorithm_style, panel_grid, pyplot, title_and_caption

__all__ = ["FIGURE_NAMES", "duels_figures", "plot_regret", "plot_time_per_round"]

#: The figures of :func:`duels_figures`.
FIGURE_NAMES: tuple[str, ...] = ("von_neumann_regret", "copeland_regret")

_METRIC_TEXT = {
    "von_neumann": (
        "Regret against the von Neumann winner",
        "cumulative regret (skew units, eq. rd1)",
    ),
    "copeland": ("Copeland regret", "cumulative Copeland regret"),
}

#: Characters per line of a panel's title (long environment titles are wrapped).
_PANEL_TITLE_WIDTH = 45

#: The stand-in of von Neumann regret on an environment without a von Neumann winner: its
#: curves' metric, the panel's subtitle and y label.
_HINDSIGHT_PANEL = (
    "hindsight",
    "no von Neumann winner: rd1 in hindsight",
    "cumulative regret in hindsight (eq. rd1)",
)


def _legend(figure: Any, algorithms: Sequence[str]) -> None:
    handles = [
        pyplot().Line2D(
            [],
            [],
            color=algorithm_style(a).colour,
            marker=algorithm_style(a).marker,
            label=algorithm_style(a).label,
        )
        for a in algorithms
    ]
    figure.legend(
        handles=handles,
        loc="lower center",
        ncols=min(len(handles), 5),
        fontsize=LEGEND_SIZE,
        bbox_to_anchor=(0.5, -0.02),
        frameon=False,
    )


def plot_regret(
    curves: pd.DataFrame,
    metric: str,
    titles: Mapping[str, str],
    algorithms: Sequence[str],
    seeds: int,
) -> Any:
    """Mean regret ``metric`` against the round, one panel per environment of ``titles``."""
    title, ylabel = _METRIC_TEXT[metric]
    # per environment: the curves' metric, a subtitle and the y label of its panel
    panels: dict[str, tuple[str, str, str]] = {}
    for name in titles:
        shown = curves[curves["environment"] == name]["metric"]
        if (shown == metric).any():
            panels[name] = (metric, "", ylabel)
        elif metric == "von_neumann" and (shown == _HINDSIGHT_PANEL[0]).any():
            panels[name] = _HINDSIGHT_PANEL
    environments = list(panels)
    figure, axes = panel_grid(len(environments))
    shown_metric = curves["environment"].map(lambda name: panels.get(name, ("",))[0])
    drawn = curves[curves["metric"] == shown_metric]
    present = [a for a in algorithms if (drawn["algorithm"] == a).any()]
    for axis, environment in zip(axes, environments, strict=True):
        _, subtitle, panel_ylabel = panels[environment]
        here = drawn[drawn["environment"] == environment]
        # a contextual algorithm may beat the winner of its policy class (negative regret):
        # then the panel's y axis is linear near 0 and logarithmic beyond (symlog)
        signed = bool((here["mean"] < 0).any())
        floor = -np.inf if signed else 1e-3
        for algorithm in present:
            line = here[here["algorithm"] == algorithm].sort_values("round")
            if line.empty:
                continue
            style = algorithm_style(algorithm)
            x = line["round"].to_numpy()
            # regret is 0 before the first mistake; log axes show it from the first positive
            mean = line["mean"] if signed else np.where(line["mean"] > 0, line["mean"], np.nan)
            axis.plot(x, mean, color=style.colour, marker=style.marker, markersize=3, linewidth=1)
            axis.fill_between(
                x,
                np.clip(line["ci_low"], floor, None),
                np.clip(line["ci_high"], floor, None),
                color=style.colour,
                alpha=0.15,
            )
        axis.set_xscale("log")
        if signed:
            axis.set_yscale("symlog", linthresh=10.0)
            axis.axhline(0.0, color="black", linewidth=0.6)
        else:
            axis.set_yscale("log")
        panel_title = textwrap.fill(titles[environment], _PANEL_TITLE_WIDTH)
        axis.set_title(panel_title + (f"\n({subtitle})" if subtitle else ""), fontsize=10)
        axis.set_xlabel("round t")
        axis.set_ylabel(panel_ylabel)
        axis.grid(True, which="major", alpha=0.3)
    height = figure.get_size_inches()[1]
    title_and_caption(
        figure,
        f"{title} (of the policy class in a contextual environment), dueling bandits",
        f"mean over {seeds} seeds with 95% band; an algorithm's line stops at its horizon; "
        "a panel with negative regret (an algorithm beating the winner) has its y axis "
        "linear within ±10"
        + (
            "; a panel marked rd1 in hindsight (no von Neumann winner) shows the regret "
            "against the best policy of the class in hindsight"
            if _HINDSIGHT_PANEL in panels.values()
            else ""
        ),
    )
    _legend(figure, present)
    # room under the caption (about 0.3 in) and for the two legend rows (about 0.6 in)
    figure.tight_layout(rect=(0, 0.6 / height, 1, 0.955 - 0.3 / height))
    return figure


def plot_time_per_round(timings: pd.DataFrame, algorithms: Sequence[str]) -> Any:
    """Median microseconds per round against K (range over runs as error bars)."""
    figure, (axis,) = panel_grid(1, panel_size=(7.0, 4.6))
    for algorithm in [a for a in algorithms if (timings["algorithm"] == a).any()]:
        rows = (
            timings[timings["algorithm"] == algorithm]
            .groupby("n_arms")
            .agg(
                median=("microseconds_per_round", "median"),
                low=("microseconds_per_round_min", "min"),
                high=("microseconds_per_round_max", "max"),
            )
            .reset_index()
        )
        style = algorithm_style(algorithm)
        axis.errorbar(
            rows["n_arms"],
            rows["median"],
            yerr=[rows["median"] - rows["low"], rows["high"] - rows["median"]],
            color=style.colour,
            marker=style.marker,
            label=style.label,
            capsize=3,
        )
    axis.set_xscale("log")
    axis.set_yscale("log")
    axis.set_xlabel("number of arms K")
    axis.set_ylabel("microseconds per round")
    axis.grid(True, alpha=0.3)
    axis.legend(fontsize=LEGEND_SIZE, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    title_and_caption(
        figure,
        "Wall time per round of the dueling-bandit algorithms",
        "median over the runs of each environment; bars: fastest to slowest run (shared machine)",
    )
    figure.tight_layout(rect=(0, 0, 1, 0.92))
    return figure


def duels_figures(
    curves: pd.DataFrame, titles: Mapping[str, str], algorithms: Sequence[str], seeds: int
) -> dict[str, Any]:
    """Every figure of :data:`FIGURE_NAMES`, by name."""
    return {
        "von_neumann_regret": plot_regret(curves, "von_neumann", titles, algorithms, seeds),
        "copeland_regret": plot_regret(curves, "copeland", titles, algorithms, seeds),
    }
